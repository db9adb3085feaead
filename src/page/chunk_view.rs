//! A view whose code lives in a wasm chunk of its own (see docs/build.md
//! §2.2): a "Loading…" line until the chunk is in, and a message with "Try
//! again" if the download fails. The chunks' loaders (`src/chunks/NAME/mod.rs`)
//! show their views through it.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};

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

/// Where a chunk's download stands.
#[derive(Clone, Copy, PartialEq)]
enum Download {
    /// Under way.
    Running,
    /// The chunk is in: its view can be built.
    Done,
    /// It failed; "Try again" starts another.
    Failed,
}

/// Polls `fut` once: its output if it is already done (a chunk that is in),
/// else `None`. Takes a `dyn` future, so it is compiled once.
pub fn poll_once<T>(fut: Pin<&mut dyn Future<Output = T>>) -> Option<T> {
    match fut.poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(v) => Some(v),
        Poll::Pending => None,
    }
}

/// A chunk's download, as a `dyn` function (one copy of the code below for
/// every chunk).
type Fetch =
    Arc<dyn Fn() -> Pin<Box<dyn Future<Output = Result<(), SplitLoaderError>>>> + Send + Sync>;
/// A chunk's view builder, likewise.
type Load =
    Arc<dyn Fn() -> Pin<Box<dyn Future<Output = Result<AnyView, ChunkMissing>>>> + Send + Sync>;

/// Shows what `load` builds once its chunk is in.
///
/// A signal, rather than Leptos's `<Suspense>`, follows the download
/// (`fetch`, which only downloads): `<Suspense>` and its async machinery
/// were about 5 KB gzip of the first load. The view is built in the render,
/// under this component's owner, once the chunk is in; the chunk's function
/// then returns at its first poll. The component only boxes its two
/// functions: the work is [`chunk_view`], compiled once for every chunk
/// (each chunk's own copy was about 0.4 KB gzip of the first load).
#[component]
pub fn ChunkView<P, PF, F, Fut>(
    /// Downloads the chunk (the `preload` function `#[wasm_split]`
    /// generates); done at once when the chunk is already in.
    fetch: P,
    /// Builds the view (the split function itself).
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
    P: Fn() -> PF + Copy + Send + Sync + 'static,
    PF: Future<Output = Result<(), SplitLoaderError>> + 'static,
    F: Fn() -> Fut + Copy + Send + Sync + 'static,
    Fut: Future<Output = Result<AnyView, ChunkMissing>> + 'static,
{
    let fetch: Fetch = Arc::new(move || Box::pin(fetch()));
    let load: Load = Arc::new(move || Box::pin(load()));
    chunk_view(fetch, load, what, testid, class)
}

/// [`ChunkView`]'s work, for any chunk.
fn chunk_view(
    fetch: Fetch,
    load: Load,
    what: &'static str,
    testid: &'static str,
    class: &'static str,
) -> AnyView {
    let (fetch, load) = (StoredValue::new(fetch), StoredValue::new(load));
    let state = RwSignal::new(Download::Running);
    let start = move || {
        let mut download = fetch.with_value(|f| f());
        let settled = |r: Result<(), SplitLoaderError>| {
            if r.is_ok() {
                Download::Done
            } else {
                Download::Failed
            }
        };
        match poll_once(download.as_mut()) {
            Some(r) => state.set(settled(r)),
            None => {
                state.set(Download::Running);
                spawn_local(async move { state.set(settled(download.await)) });
            }
        }
    };
    start();
    // `class` before the element's own class, when there is one.
    let classes = move |own: &str| {
        if class.is_empty() {
            own.to_string()
        } else {
            format!("{class} {own}")
        }
    };
    let failed = move || {
        view! {
            <section class=classes("notices") role="alert" data-testid=format!("{testid}-load-error")>
                <p>{format!("{} could not be downloaded.", capitalised(what))}</p>
                <p class="detail">"Check the connection, then try again. The calculator keeps working."</p>
                <button type="button" on:click=move |_| start()>
                    "Try again"
                </button>
            </section>
        }
        .into_any()
    };
    (move || match state.get() {
        Download::Running => view! {
            <p class=classes("loading") role="status" data-testid=format!("{testid}-loading")>
                {format!("Loading {what}…")}
            </p>
        }
        .into_any(),
        // Built untracked: only the download's state re-runs this.
        Download::Done => untrack(|| {
            let mut build = load.with_value(|l| l());
            match poll_once(build.as_mut()) {
                Some(Ok(page)) => page,
                _ => failed(),
            }
        }),
        Download::Failed => failed(),
    })
    .into_any()
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
