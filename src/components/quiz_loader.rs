//! The quiz's code lives in its own wasm chunk (see ARCHITECTURE.md, "Two
//! chunks"): this component downloads it the first time the quiz is shown,
//! and says so if the download fails.

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos::wasm_split::{wasm_split, SplitLoaderError};
use roofline_core::state::QuizState;

use super::quiz_page::QuizPage;

/// The quiz chunk could not be downloaded or instantiated.
pub struct ChunkMissing;

impl From<SplitLoaderError> for ChunkMissing {
    fn from(_: SplitLoaderError) -> Self {
        ChunkMissing
    }
}

/// The quiz page. The build (scripts/build-wasm.sh) moves this function and
/// everything only it reaches (the question bank, answer checking, the quiz
/// components) into the chunk; calling it downloads the chunk first.
#[wasm_split(quiz, wasm_split_path = ::leptos::wasm_split, fallible, preload(fetch_quiz))]
fn quiz_view(quiz: RwSignal<QuizState>) -> Result<AnyView, ChunkMissing> {
    Ok(view! { <QuizPage quiz=quiz /> }.into_any())
}

/// Starts downloading the quiz chunk without showing it (when a pointer or
/// the keyboard reaches the Quiz tab, or a finger touches it), so that the
/// quiz opens with less of a wait. Calling it again costs nothing.
/// A failure is ignored here: opening the quiz tries again and reports it.
pub fn prefetch_quiz() {
    spawn_local(async {
        let _ = fetch_quiz().await;
    });
}

/// The quiz, once its chunk is in: "Loading the quiz…" until then, and a
/// message with "Try again" if the download fails.
#[component]
pub fn QuizLoader(
    /// Which question, part and seed (kept in the link).
    quiz: RwSignal<QuizState>,
) -> impl IntoView {
    let attempt = RwSignal::new(0u32);
    let loading = || {
        view! { <p class="panel loading" role="status" data-testid="quiz-loading">"Loading the quiz…"</p> }
    };
    view! {
        <Suspense fallback=loading>
            {move || {
                attempt.track();
                Suspend::new(async move {
                    match quiz_view(quiz).await {
                        Ok(page) => page,
                        Err(ChunkMissing) => {
                            view! {
                                <section class="panel notices" role="alert" data-testid="quiz-load-error">
                                    <p>"The quiz could not be downloaded."</p>
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
