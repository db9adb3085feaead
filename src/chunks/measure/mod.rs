//! "Your measurements": a panel that puts measured kernels under the roof.
//! Its code (reading CSV, TSV and JSON, placing, the table) is in a wasm
//! chunk of its own, downloaded when the panel is opened or a pointer or
//! the keyboard reaches its summary, and at start when the link holds
//! measurements.

pub mod above;
pub mod input;
pub mod js_text;
pub mod panel;
pub mod point_table;
pub mod points_chart;
pub mod preview;
pub mod reader;
pub mod save;
pub mod snippets;
pub mod totals;

use crate::page::shown::shown;
use leptos::prelude::*;
use leptos::wasm_split::wasm_split;
use roofline_core::calc::CalcView;
use std::sync::Arc;

use crate::chunks::measure::panel::Measurements;
use crate::page::chunk_view::{prefetch, ChunkMissing, ChunkView};
use crate::page::field::is_open;

/// What the panel's chunk is given: the calculator's results, the link's
/// measurements, the pasted text, and the roofline's axes setting.
#[derive(Clone, Copy)]
struct Wiring {
    results: Memo<Arc<CalcView>>,
    points: RwSignal<String>,
    pasted: RwSignal<String>,
    log: RwSignal<bool>,
}

/// The panel's body. The build moves this function and what only it
/// reaches into the measure chunk.
#[wasm_split(measure, wasm_split_path = ::leptos::wasm_split, fallible, preload(fetch_measure))]
fn measure_view(w: Wiring) -> Result<AnyView, ChunkMissing> {
    Ok(view! {
        <Measurements results=w.results points=w.points pasted=w.pasted log=w.log />
    }
    .into_any())
}

/// Starts downloading the measure chunk; a failure shows when the panel opens.
pub fn prefetch_measure() {
    prefetch(fetch_measure());
}

/// The measurements panel: closed at first, its body built when opened
/// or when the link holds measurements (their points are then drawn).
#[component]
pub fn MeasurePanel(
    /// The calculator's last valid results: the roof the points are read against.
    results: Memo<Arc<CalcView>>,
    /// The measurements in the link's compact form.
    points: RwSignal<String>,
    /// The text pasted or dropped into the panel (kept while the page changes).
    pasted: RwSignal<String>,
    /// Log-log axes (the calculator's roofline setting).
    log: RwSignal<bool>,
) -> impl IntoView {
    // Open at start when the link holds measurements.
    let open = RwSignal::new(points.with_untracked(|p| !p.is_empty()));
    let w = Wiring {
        results,
        points,
        pasted,
        log,
    };
    view! {
        <details
            class="panel measure"
            data-testid="points-panel"
            prop:open=move || open.get()
            on:toggle=move |ev| {
                let now = is_open(&ev);
                open.set(now);
                // A chart drawn while the panel was closed had no size.
                if now {
                    crate::page::canvas::window_resized();
                }
            }
        >
            <summary
                data-testid="points-open"
                on:pointerenter=|_| prefetch_measure()
                on:pointerdown=|_| prefetch_measure()
                on:focus=|_| prefetch_measure()
            >
                <h2>"Your measurements"</h2>
            </summary>
            {shown(
                Memo::new(move |_| open.get() || points.with(|p| !p.is_empty())),
                move || view! { <ChunkView fetch=fetch_measure load=move || measure_view(w) what="the measurements panel" testid="points" /> },
            )}
        </details>
    }
}
