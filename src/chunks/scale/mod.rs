//! The Scale page's loader: the whole page (meshes, collectives, sharded
//! matmuls and training plans, the book's Parts 2, 3, 5 and 6) is the scale
//! chunk, fetched when the Scale tab opens, or when a pointer or the
//! keyboard reaches it.

mod charts;
mod fields;
mod page;
mod results;

use std::sync::Arc;

use leptos::prelude::*;
use leptos::wasm_split::wasm_split;
use roofline_core::calc::{CalcInput, CalcView};
use roofline_core::pages::View;

use crate::page::chunk_view::{prefetch, ChunkMissing, ChunkView};

/// What the page is given: its keys; the calculator's input and view
/// (the chip, its numbers, the operation and its sizes are the page's
/// too); the Model page's keys (its model); the page shown (to cross to
/// the Model page and the calculator).
#[derive(Clone, Copy)]
pub(crate) struct Wiring {
    keys: RwSignal<String>,
    model: RwSignal<String>,
    input: RwSignal<CalcInput>,
    view: Memo<Arc<CalcView>>,
    page: RwSignal<View>,
    epoch: RwSignal<u32>,
}

/// The page. The build moves this function and what only it reaches into
/// the scale chunk.
#[wasm_split(scale, wasm_split_path = ::leptos::wasm_split, fallible, preload(fetch_scale))]
fn scale_view(w: Wiring) -> Result<AnyView, ChunkMissing> {
    Ok(page::scale_page(w).into_any())
}

/// Starts downloading the Scale page (a pointer or the keyboard on its tab).
pub fn prefetch_scale() {
    prefetch(fetch_scale());
}

/// The Scale page, once its chunk is in.
#[component]
pub fn ScaleLoader(
    /// The page's keys, in a link's text (`AppState::scale`): the chunk
    /// reads its state from them and writes them back.
    scale: RwSignal<String>,
    /// The Model page's keys, in a link's text: its model is the one
    /// trained here.
    model: RwSignal<String>,
    /// The calculator's input: the chip, the operation and its sizes.
    input: RwSignal<CalcInput>,
    /// The calculator's view: the chip with its edited numbers.
    view: Memo<Arc<CalcView>>,
    /// The page shown: the page's links to the Model page and the
    /// calculator set it.
    page: RwSignal<View>,
    /// Bumped when the whole state is replaced (back / forward).
    epoch: RwSignal<u32>,
) -> impl IntoView {
    let w = Wiring {
        keys: scale,
        model,
        input,
        view,
        page,
        epoch,
    };
    view! { <ChunkView fetch=fetch_scale load=move || scale_view(w) what="the Scale page" testid="scale" class="panel" /> }
}
