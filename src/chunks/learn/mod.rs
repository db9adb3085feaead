//! The Learn page's code lives in its own wasm chunk (see docs/build.md
//! §2.2): this component downloads it the first time the page is shown,
//! and says so if the download fails.

pub mod figure;
pub mod page;

use leptos::prelude::*;
use leptos::wasm_split::wasm_split;

use crate::chunks::learn::page::LearnPage;
use crate::page::chunk_view::{prefetch, ChunkMissing, ChunkView};

/// The Learn page. The build (scripts/build/build-wasm.sh) moves this
/// function and everything only it reaches (the steps and their words, the
/// page's components) into the chunk; calling it downloads the chunk first.
#[wasm_split(learn, wasm_split_path = ::leptos::wasm_split, fallible, preload(fetch_learn))]
fn learn_view(step: RwSignal<u32>) -> Result<AnyView, ChunkMissing> {
    Ok(view! { <LearnPage step=step /> }.into_any())
}

/// Starts downloading the Learn chunk without showing it (when a pointer or
/// the keyboard reaches the Learn tab, or a finger touches it).
pub fn prefetch_learn() {
    prefetch(fetch_learn());
}

/// The Learn page, once its chunk is in: "Loading the Learn page…" until
/// then, and a message with "Try again" if the download fails.
#[component]
pub fn LearnLoader(
    /// The open step, from 1 (kept in the link as `step`).
    step: RwSignal<u32>,
) -> impl IntoView {
    view! { <ChunkView fetch=fetch_learn load=move || learn_view(step) what="the Learn page" testid="learn" class="panel" /> }
}
