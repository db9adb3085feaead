//! `ChartFigure`: the `<figure>` every chart is drawn in, the one copy of
//! its caption, canvas and error line: the roofline chart's in the first
//! load, and the chunks' charts.

use leptos::attr::{Attribute, AttributeValue};
use leptos::html::Canvas;
use leptos::prelude::*;

use crate::page::shown::shown;

/// A chart's figure: its caption, the `<canvas>` the chart is drawn on
/// (`class="chart-canvas"`, `role="img"`), `notes` under it, the line
/// that shows what the draw failed with, and `below` under that. The
/// caller draws on `canvas_ref` and puts its failures in `error` (see
/// [`crate::page::canvas::keep_drawn`]).
#[component]
pub fn ChartFigure<C, L, A, N, B>(
    /// The figure's class: `chart`, with a variant's class after it.
    #[prop(default = "chart")]
    figure_class: &'static str,
    /// The caption, above the chart.
    caption: C,
    /// The canvas's `data-testid`, which tests and the bench wait on.
    testid: &'static str,
    /// The canvas's `aria-label`: what the chart shows, in words.
    description: L,
    /// The canvas, for the chart's draw and its PNG export.
    canvas_ref: NodeRef<Canvas>,
    /// The canvas's other attributes (its `data-` marks for tests, hover
    /// handlers), as `view! { <{..} data-x=... /> }`, or `()`.
    canvas: A,
    /// What the last draw failed with; shown under the chart while `Some`.
    error: RwSignal<Option<String>>,
    /// Keep the error line in the page, empty, while there is no error.
    #[prop(optional)]
    keep_error_line: bool,
    /// Between the canvas and the error line (a readout, a legend), or `()`.
    notes: N,
    /// Under the error line (the chart's controls and export), or `()`.
    below: B,
) -> impl IntoView
where
    C: IntoView + 'static,
    L: AttributeValue + 'static,
    A: Attribute + 'static,
    N: IntoView + 'static,
    B: IntoView + 'static,
{
    view! {
        <figure class=figure_class>
            <figcaption>{caption}</figcaption>
            <canvas
                node_ref=canvas_ref
                data-testid=testid
                class="chart-canvas"
                role="img"
                {..canvas}
                // After the spread: before it, the macro would read
                // `description {..canvas}` as one struct expression.
                aria-label=description
            ></canvas>
            {notes}
            {shown(
                Memo::new(move |_| keep_error_line || error.with(Option::is_some)),
                move || view! { <p class="error" role="alert">{move || error.get().unwrap_or_default()}</p> },
            )}
            {below}
        </figure>
    }
}
