//! The calculator page: the inputs (chip, operation, memory levels), the
//! results, the charts and what is below them.

use leptos::prelude::*;
use roofline_charts::{roofline_for_view, RooflineChart};

use crate::chunks::batch::{BatchPanel, BelowCharts, BelowWiring};
use crate::chunks::why::prefetch_why;
use crate::page::chip_panel::ChipPanel;
use crate::page::levels_panel::LevelsPanel;
use crate::page::op_panel::OpPanel;
use crate::page::results::Results;
use crate::page::roofline_chart::RooflineChartView;
use crate::page::shown::shown_later;
use crate::page::signals::Signals;

/// The calculator, given the app's signals (the calculator's, and the
/// measured kernels). A plain function, not a component: the page table
/// calls it, and a component's props cost the first load bytes.
pub fn calculator_page(s: Signals) -> impl IntoView {
    let c = s.calc;
    let (input, view, epoch) = (c.input, c.view, s.epoch);
    let (results, roofline_log) = (c.results, c.roofline_log);
    let roofline = Memo::new(move |_| -> Result<RooflineChart, String> {
        let log = roofline_log.get();
        results.with(|v| roofline_for_view(v, log))
    });
    view! {
        <main class="layout">
            <div class="inputs">
                <form class="panel" aria-label="Inputs" on:submit=|ev| ev.prevent_default()>
                    {shown_later(move || view! { <ChipPanel input=input view=view epoch=epoch /> })}
                    {shown_later(move || view! {
                        <OpPanel input=input view=view epoch=epoch />
                        <LevelsPanel input=input view=view epoch=epoch />
                    })}
                </form>
            </div>
            // The start in short tasks: the page's frame (the app's
            // first task, with the wasm's instantiation); the chip (above); the operation
            // and the memory levels; the results; the charts' frames;
            // after a frame, the roofline's draw; the batch chunk; then
            // what is below the charts.
            <div class="outputs">
                {shown_later(move || view! { <Results results=results stale=c.stale /> })}
                {shown_later(move || view! {
                    <section class="panel charts" aria-label="Charts">
                        <RooflineChartView spec=roofline log=roofline_log />
                        <BatchPanel pairs=c.pairs log=c.batch_log input=input results=results />
                    </section>
                    {shown_later(move || {
                        // The "Why?" answers: fetched now, after the first chart.
                        prefetch_why();
                        let wiring = BelowWiring {
                            results,
                            points: s.points,
                            pasted: c.pasted,
                            log: roofline_log,
                            input,
                        };
                        view! { <BelowCharts wiring=wiring /> }
                    })}
                })}
            </div>
        </main>
    }
}
