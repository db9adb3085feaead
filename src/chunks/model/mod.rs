//! The Model page's loader: the whole page (the roofline applied to a
//! transformer) is the model chunk, fetched when the Model tab opens, or
//! when a pointer or the keyboard reaches it.

mod charts;
mod inputs;
mod ops_table;
mod page;

use std::sync::Arc;

use leptos::prelude::*;
use leptos::wasm_split::wasm_split;
use roofline_core::calc::{CalcInput, CalcView};

use crate::page::chunk_view::{prefetch, ChunkMissing, ChunkView};

/// What the page is given: its keys (a link's text), and the calculator's input and
/// view (their chip, its numbers and the chip count are the page's too).
#[derive(Clone, Copy)]
struct Wiring {
    model: RwSignal<String>,
    input: RwSignal<CalcInput>,
    view: Memo<Arc<CalcView>>,
    epoch: RwSignal<u32>,
}

/// The page. The build moves this function and what only it reaches into
/// the model chunk.
#[wasm_split(model, wasm_split_path = ::leptos::wasm_split, fallible, preload(fetch_model))]
fn model_view(w: Wiring) -> Result<AnyView, ChunkMissing> {
    let model = crate::chunks::keys::synced(
        w.model,
        roofline_core::model::read_query,
        roofline_core::model::state_text,
    );
    Ok(page::model_page(model, w.input, w.view, w.epoch).into_any())
}

/// Starts downloading the Model page (a pointer or the keyboard on its tab).
pub fn prefetch_model() {
    prefetch(fetch_model());
}

/// The Model page, once its chunk is in.
#[component]
pub fn ModelLoader(
    /// The page's keys, in a link's text (`AppState::model`): the chunk
    /// reads its state from them and writes them back.
    model: RwSignal<String>,
    /// The calculator's input: the chip and the chip count are shared.
    input: RwSignal<CalcInput>,
    /// The calculator's view: the chip with its edited numbers.
    view: Memo<Arc<CalcView>>,
    /// Bumped when the whole state is replaced (back / forward).
    epoch: RwSignal<u32>,
) -> impl IntoView {
    let w = Wiring {
        model,
        input,
        view,
        epoch,
    };
    view! { <ChunkView fetch=fetch_model load=move || model_view(w) what="the Model page" testid="model" class="panel" /> }
}
