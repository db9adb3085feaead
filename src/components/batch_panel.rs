//! The batch-size chart's place on the calculator page. The chart, its
//! sweep and its controls are in a wasm chunk of their own (`batch`): it is
//! below the first view, so the page starts without its code and fetches
//! it in a task after the roofline's first draw, then builds and draws it.

use std::sync::Arc;

use leptos::prelude::*;
use leptos::wasm_split::wasm_split;
use roofline_core::calc::{CalcInput, CalcView};

use super::batch_chart::BatchChartView;
use super::chunk_view::{ChunkMissing, ChunkView};
use super::shown::shown;

/// What the chart's chunk is given.
#[derive(Clone, Copy)]
struct Wiring {
    pairs: RwSignal<Vec<(f64, f64)>>,
    log: RwSignal<bool>,
    input: RwSignal<CalcInput>,
    results: Memo<Arc<CalcView>>,
}

/// The chart. The build moves this function and what only it reaches into
/// the batch chunk.
#[wasm_split(batch, wasm_split_path = ::leptos::wasm_split, fallible, preload(fetch_batch))]
fn batch_view(w: Wiring) -> Result<AnyView, ChunkMissing> {
    Ok(view! {
        <BatchChartView pairs=w.pairs log=w.log input=w.input view=w.results />
    }
    .into_any())
}

/// The batch-size chart, from its chunk: its place is kept (a minimum
/// height) and says "Loading…" until the chunk is in.
#[component]
pub fn BatchPanel(
    /// The (D, F) pairs, one curve each.
    pairs: RwSignal<Vec<(f64, f64)>>,
    /// Log axes (true) or linear (false).
    log: RwSignal<bool>,
    /// The calculator input (the chart sets `batch_dim`).
    input: RwSignal<CalcInput>,
    /// The calculator's last valid results: the scenario swept.
    results: Memo<Arc<CalcView>>,
) -> impl IntoView {
    let w = Wiring {
        pairs,
        log,
        input,
        results,
    };
    // Opens in a task after the roofline's first draw (made after its flag).
    let ready = crate::canvas::later();
    view! {
        <div class="batch-slot">
            {shown(
                Memo::new(move |_| ready.get()),
                move || view! { <ChunkView fetch=fetch_batch load=move || batch_view(w) what="the batch-size chart" testid="batch" /> },
            )}
        </div>
    }
}
