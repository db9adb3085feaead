//! The quiz's code lives in its own wasm chunk (see docs/build.md §2.2,
//! "Chunks"): this component downloads it the first time the quiz is shown,
//! and says so if the download fails.

pub mod chart;
pub mod page;
pub mod part;
pub mod shelves;

use leptos::prelude::*;
use leptos::wasm_split::wasm_split;

use crate::chunks::keys::synced;
use crate::chunks::quiz::page::QuizPage;
use crate::page::chunk_view::{prefetch, ChunkMissing, ChunkView};
use roofline_core::quiz::{read_query, state_text};

/// The quiz page. The build (scripts/build/build-wasm.sh) moves this function and
/// everything only it reaches (the question bank, answer checking, the quiz
/// components) into the chunk; calling it downloads the chunk first.
#[wasm_split(quiz, wasm_split_path = ::leptos::wasm_split, fallible, preload(fetch_quiz))]
fn quiz_view(keys: RwSignal<String>) -> Result<AnyView, ChunkMissing> {
    // The question, part and seed, read from the link's text and written
    // back to it (src/chunks/keys.rs).
    let quiz = synced(keys, read_query, state_text);
    Ok(view! { <QuizPage quiz=quiz /> }.into_any())
}

/// Starts downloading the quiz chunk without showing it (when a pointer or
/// the keyboard reaches the Quiz tab, or a finger touches it), so that the
/// quiz opens with less of a wait.
pub fn prefetch_quiz() {
    prefetch(fetch_quiz());
}

/// The quiz, once its chunk is in: "Loading the quiz…" until then, and a
/// message with "Try again" if the download fails.
#[component]
pub fn QuizLoader(
    /// Which question, part and seed: the quiz's keys in a link's text
    /// (`q=q2&part=3`), read in the chunk.
    quiz: RwSignal<String>,
) -> impl IntoView {
    view! { <ChunkView fetch=fetch_quiz load=move || quiz_view(quiz) what="the quiz" testid="quiz" class="panel" /> }
}
