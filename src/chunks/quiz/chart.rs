//! A question's own chart in the quiz: practice question 3 asks for a plot,
//! so once it is answered the batch-size chart of its pairs is drawn, with
//! the small-B approximation dashed beside the exact curves (part c asks
//! about it). A curve's crossing stays out of the legend until the part
//! that asks for it is settled (solved, or its answer shown): the part
//! whose own setup has the curve's D and F, and for the approximation the
//! parts with no setup of their own.

use leptos::html::Canvas;
use leptos::prelude::*;
use roofline_charts::{approximation_series, batch_for, batch_legend, draw_batch, BatchChart};
use roofline_core::quiz::{CalcSetup, Part};
use roofline_core::small::Join;

use crate::page::canvas::{draw_on, keep_drawn, theme};
use crate::page::chart_figure::ChartFigure;
use crate::page::shown::shown;

/// A part as the chart sees it: its id, the curve its own setup draws
/// (the index of its (D, F) pair), and whether it is settled.
#[derive(Debug, Clone)]
pub struct ChartPart {
    id: String,
    curve: Option<usize>,
    settled: RwSignal<bool>,
}

impl ChartPart {
    /// `part` of a question whose chart draws `pairs`, settled when
    /// `settled` is true.
    pub fn new(part: &Part, pairs: &[(f64, f64)], settled: RwSignal<bool>) -> ChartPart {
        let curve = part.calc.as_ref().and_then(|c| {
            let at = (c.sizes.get("D").copied(), c.sizes.get("F").copied());
            pairs.iter().position(|&(d, f)| at == (Some(d), Some(f)))
        });
        ChartPart {
            id: part.id.clone(),
            curve,
            settled,
        }
    }
}

/// The crossing's text while the parts `waiting` are not all settled
/// (tracked: the chart redraws when one is).
fn hidden_text<'a>(waiting: impl Iterator<Item = &'a ChartPart>) -> Option<String> {
    let open: Vec<&str> = waiting
        .filter(|p| !p.settled.get())
        .map(|p| p.id.as_str())
        .collect();
    (!open.is_empty()).then(|| format!("crossing after part {}", open.joined(" and ")))
}

/// The batch-size chart of `calc`'s (D, F) pairs, sweeping B with the exact
/// bytes, each crossover marked, and the small-B approximation dashed;
/// drawn once `shown` is true.
#[component]
pub fn QuizChart(
    /// The question's setup: its chip, operation and pairs.
    calc: CalcSetup,
    /// Whether a part has been answered (or its answer shown).
    shown: RwSignal<bool>,
    /// The question's parts: a curve's crossing waits for its part.
    parts: Vec<ChartPart>,
) -> impl IntoView {
    let spec = Memo::new(move |_| -> Result<BatchChart, String> {
        let s = calc.scenario().map_err(|e| e.to_string())?;
        let mut chart = batch_for(&s, "B", &calc.pairs, true).map_err(|e| e.to_string())?;
        if let Ok(approx) = approximation_series(&s, &chart) {
            chart.references.push(approx);
        }
        for (i, series) in chart.series.iter_mut().enumerate() {
            if let Some(text) = hidden_text(parts.iter().filter(|p| p.curve == Some(i))) {
                series.crossover_text = text;
            }
        }
        // The approximation waits for the parts that draw no curve.
        for reference in &mut chart.references {
            if let Some(text) = hidden_text(parts.iter().filter(|p| p.curve.is_none())) {
                reference.crossover_text = text;
            }
        }
        Ok(chart)
    });
    let open = Memo::new(move |_| shown.get());
    view! {
        {shown_chart(open, spec)}
    }
}

fn shown_chart(open: Memo<bool>, spec: Memo<Result<BatchChart, String>>) -> impl IntoView {
    shown(open, move || {
        let canvas_ref = NodeRef::<Canvas>::new();
        let error = RwSignal::new(None::<String>);
        keep_drawn(spec, canvas_ref, error, |canvas, spec| {
            let theme = theme();
            draw_on(canvas, "quiz-batch", |root, dpr| {
                draw_batch(root, spec, &theme, dpr)
            })
            .map(|_| ())
        });
        // The legend as text, for screen readers and tests.
        let legend = move || {
            spec.with(|s| {
                s.as_ref()
                    .map(|c| format!("Legend: {}.", batch_legend(c).joined("; ")))
                    .unwrap_or_default()
            })
        };
        view! {
            <ChartFigure
                figure_class="chart quiz-chart"
                caption="The plot the question asks for: attained throughput against B, exact bytes, and the small-B approximation dashed"
                testid="quiz-batch-canvas"
                description="Batch-size chart for this question: attained FLOP/s against B for each pair of sizes, with each crossover marked, and the small-B approximation dashed"
                canvas_ref=canvas_ref
                canvas=()
                error=error
                keep_error_line=true
                notes=view! { <p class="sr-only" data-testid="quiz-batch-legend">{legend}</p> }
                below=()
            />
        }
    })
}
