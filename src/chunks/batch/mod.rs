//! The batch-size chart's place on the calculator page, and what is below
//! the charts. The chart, its sweep and its controls, and the sections
//! below (the derivation, the measurements' and the comparison's panels)
//! are in a wasm chunk of their own (`batch`): they are below the first
//! view, so the page starts without their code and fetches it in a task
//! after the roofline's first draw, then builds and draws them.

pub mod below;
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
    // Opens in a task after the roofline's first draw (made after its
    // flag), once the files of its chunk are preloaded.
    let ready = crate::page::later::later_after_preloads();
    view! {
        <div class="batch-slot">
            {shown(
                Memo::new(move |_| ready.get()),
                move || view! { <ChunkView fetch=fetch_batch load=move || batch_view(w) what="the batch-size chart" testid="batch" /> },
            )}
        </div>
    }
}

/// What the sections below the charts are given.
#[derive(Clone, Copy)]
pub struct BelowWiring {
    /// The calculator's last valid results.
    pub results: Memo<Arc<CalcView>>,
    /// The measurements in the link's compact form.
    pub points: RwSignal<String>,
    /// The text pasted into the measurements panel.
    pub pasted: RwSignal<String>,
    /// Log-log axes (the roofline's setting).
    pub log: RwSignal<bool>,
    /// The user's input (the comparison sets the chip).
    pub input: RwSignal<CalcInput>,
}

/// The sections below the charts (`below.rs`). The build moves this
/// function and what only it reaches (the derivation's formulas, the two
/// panels' shells) into the batch chunk.
#[wasm_split(batch, wasm_split_path = ::leptos::wasm_split, fallible, preload(fetch_below))]
fn below_view(w: BelowWiring) -> Result<AnyView, ChunkMissing> {
    Ok(below::below(w).into_any())
}

/// What is below the charts: "How it is computed", "Your measurements" and
/// "Compare every chip", with the batch chunk. A link with measurements
/// starts their chunk's download at once, beside this one's.
#[component]
pub fn BelowCharts(
    /// The sections' signals.
    wiring: BelowWiring,
) -> impl IntoView {
    if wiring.points.with_untracked(|p| !p.is_empty()) {
        crate::chunks::measure::prefetch_measure();
    }
    view! {
        <ChunkView
            fetch=fetch_below
            load=move || below_view(wiring)
            what="the derivation and the panels below the charts"
            testid="below"
        />
    }
}
