//! The chip's numbers ("Edit the chip's numbers"): a field per peak and
//! bandwidth, each with the source of the preset's figure. Closed at first,
//! so its code and the sources' texts are a chunk of their own, fetched
//! when the numbers are opened.

mod fields;

use leptos::prelude::*;
use leptos::wasm_split::wasm_split;
use roofline_core::calc::CalcInput;

use crate::page::chunk_view::{ChunkMissing, ChunkView};

/// What the fields are given.
#[derive(Clone, Copy)]
struct Wiring {
    input: RwSignal<CalcInput>,
    epoch: RwSignal<u32>,
    generation: RwSignal<u32>,
}

/// The fields. The build moves this function and what only it reaches
/// (the fields' code, the sources' texts) into the chip chunk.
#[wasm_split(chip, wasm_split_path = ::leptos::wasm_split, fallible, preload(fetch_chip))]
fn chip_view(w: Wiring) -> Result<AnyView, ChunkMissing> {
    Ok(fields::fields(w.input, w.epoch, w.generation).into_any())
}

/// The chip's fields, once their chunk is in.
#[component]
pub fn ChipFields(
    /// The user's input; the fields edit its peaks and bandwidths.
    input: RwSignal<CalcInput>,
    /// Bumped when the whole input is replaced (a link, back / forward).
    epoch: RwSignal<u32>,
    /// Bumped on "Reset to the preset": the fields are re-created.
    generation: RwSignal<u32>,
) -> impl IntoView {
    let w = Wiring {
        input,
        epoch,
        generation,
    };
    view! { <ChunkView fetch=fetch_chip load=move || chip_view(w) what="the chip’s numbers" testid="chip" /> }
}
