//! The batch-size chart's place on the calculator page. The chart, its
//! sweep and its controls are in a wasm chunk of their own (`batch`): it is
//! below the first view, so the page starts without its code and fetches
//! it in a task after the roofline's first draw, then builds and draws it.

pub mod chart;
pub mod derivation;

use std::sync::Arc;

use leptos::prelude::*;
use leptos::wasm_split::wasm_split;
use roofline_core::calc::{CalcInput, CalcView};

use crate::chunks::batch::chart::BatchChartView;
use crate::page::chunk_view::{ChunkMissing, ChunkView};
use crate::page::shown::shown;

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
    let ready = crate::page::canvas::later();
    view! {
        <div class="batch-slot">
            {shown(
                Memo::new(move |_| ready.get()),
                move || view! { <ChunkView fetch=fetch_batch load=move || batch_view(w) what="the batch-size chart" testid="batch" /> },
            )}
        </div>
    }
}

/// The steps' list. The build moves this function and what only it reaches
/// (the derivation's formulas and their formatting) into the batch chunk.
#[wasm_split(batch, wasm_split_path = ::leptos::wasm_split, fallible, preload(fetch_derivation))]
fn derivation_view(results: Memo<Arc<CalcView>>) -> Result<AnyView, ChunkMissing> {
    Ok(derivation::steps_view(results).into_any())
}

/// The "How it is computed" section; its steps arrive with their chunk.
#[component]
pub fn Derivation(
    /// The last valid evaluation.
    results: Memo<Arc<CalcView>>,
) -> impl IntoView {
    view! {
        <section class="panel" aria-labelledby="derivation-title">
            <h2 id="derivation-title">"How it is computed"</h2>
            <ChunkView
                fetch=fetch_derivation
                load=move || derivation_view(results)
                what="the derivation"
                testid="derivation-chunk"
            />
        </section>
    }
}
