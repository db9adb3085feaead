//! A view whose code lives in a wasm chunk of its own (see ARCHITECTURE.md,
//! "Chunks"): a "Loading…" line until the chunk is in, and a message with
//! "Try again" if the download fails. The quiz and the chip comparison use it.

use std::future::Future;

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos::wasm_split::SplitLoaderError;

/// A chunk could not be downloaded or instantiated.
pub struct ChunkMissing;

impl From<SplitLoaderError> for ChunkMissing {
    fn from(_: SplitLoaderError) -> Self {
        ChunkMissing
    }
}

/// Starts a chunk's download (`fetch`, the `preload` function that
/// `#[wasm_split]` generates) without showing anything, so that it opens with
/// less of a wait. A failure is ignored here: opening it tries again and
/// reports it. Calling it again for a chunk that is in costs nothing.
pub fn prefetch<T: 'static>(fetch: impl Future<Output = T> + 'static) {
    spawn_local(async {
        let _ = fetch.await;
    });
}

/// Shows what `load` builds once its chunk is in.
#[component]
pub fn ChunkView<F, Fut>(
    /// Downloads the chunk (the first time only) and builds the view.
    load: F,
    /// What is being loaded, for the messages: "the quiz".
    what: &'static str,
    /// Prefix of the test ids: "quiz" gives `quiz-loading` and `quiz-load-error`.
    testid: &'static str,
    /// Extra class of the loading line and of the error message ("panel"
    /// when they stand alone on the page).
    #[prop(optional)]
    class: &'static str,
) -> impl IntoView
where
    F: Fn() -> Fut + Copy + Send + Sync + 'static,
    Fut: Future<Output = Result<AnyView, ChunkMissing>> + Send + 'static,
{
    let attempt = RwSignal::new(0u32);
    // `class` before the element's own class, when there is one.
    let classes = move |own: &str| {
        if class.is_empty() {
            own.to_string()
        } else {
            format!("{class} {own}")
        }
    };
    let loading = move || {
        view! {
            <p class=classes("loading") role="status" data-testid=format!("{testid}-loading")>
                {format!("Loading {what}…")}
            </p>
        }
    };
    view! {
        <Suspense fallback=loading>
            {move || {
                attempt.track();
                Suspend::new(async move {
                    match load().await {
                        Ok(page) => page,
                        Err(ChunkMissing) => {
                            view! {
                                <section
                                    class=classes("notices")
                                    role="alert"
                                    data-testid=format!("{testid}-load-error")
                                >
                                    <p>{format!("{} could not be downloaded.", capitalised(what))}</p>
                                    <p class="detail">"Check the connection, then try again. The calculator keeps working."</p>
                                    <button type="button" on:click=move |_| attempt.update(|n| *n += 1)>
                                        "Try again"
                                    </button>
                                </section>
                            }
                                .into_any()
                        }
                    }
                })
            }}
        </Suspense>
    }
}

/// `what` with its first letter in upper case: "the quiz" → "The quiz".
/// ASCII only, which the callers' words are (Unicode case tables would add
/// to the first load).
fn capitalised(what: &str) -> String {
    let mut s = what.to_string();
    if let Some(first) = s.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    s
}
