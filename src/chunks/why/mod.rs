//! The "Why?" answers' loader: their text (`roofline_core::explain::answers`)
//! is the `why` chunk's, fetched after the page's first chart (or when a
//! pointer or the keyboard reaches a "Why?"), so the first load carries
//! only the questions.

mod answer;

use leptos::prelude::*;
use leptos::wasm_split::wasm_split;

use crate::page::chunk_view::{prefetch, ChunkMissing, ChunkView};

/// The paragraphs answering the question `key`. The build moves this
/// function and the answers' text into the why chunk.
#[wasm_split(why, wasm_split_path = ::leptos::wasm_split, fallible, preload(fetch_why))]
fn why_view(key: &'static str) -> Result<AnyView, ChunkMissing> {
    Ok(answer::paragraphs(key).into_any())
}

/// Starts downloading the answers (after the first chart, or when a "Why?"
/// is reached), so that opening one shows its answer at once.
pub fn prefetch_why() {
    prefetch(fetch_why());
}

/// The answer to `key`, once the chunk is in ("Loading the answer…" until
/// then, and "Try again" if the download fails).
#[component]
pub fn WhyAnswer(
    /// The question's key (`roofline_core::explain::Why::key`).
    key: &'static str,
) -> impl IntoView {
    view! { <ChunkView fetch=fetch_why load=move || why_view(key) what="the answer" testid="why-chunk" /> }
}
