//! A question's own chart in the quiz: practice question 3 asks for a plot,
//! so once it is answered the batch-size chart of its pairs is drawn.

use leptos::html::Canvas;
use leptos::prelude::*;
use roofline_charts::{batch_for, draw_batch, BatchChart};
use roofline_core::quiz::CalcSetup;

use crate::page::canvas::{draw_on, keep_drawn, theme};
use crate::page::shown::shown;

/// The batch-size chart of `calc`'s (D, F) pairs, sweeping B with the exact
/// bytes, each crossover marked; drawn once `shown` is true.
#[component]
pub fn QuizChart(
    /// The question's setup: its chip, operation and pairs.
    calc: CalcSetup,
    /// Whether a part has been answered (or its answer shown).
    shown: RwSignal<bool>,
) -> impl IntoView {
    let spec = Memo::new(move |_| -> Result<BatchChart, String> {
        let s = calc.scenario().map_err(|e| e.to_string())?;
        batch_for(&s, "B", &calc.pairs, true).map_err(|e| e.to_string())
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
        view! {
            <figure class="chart quiz-chart">
                <figcaption>"The plot the question asks for: attained throughput against B, exact bytes"</figcaption>
                <canvas
                    node_ref=canvas_ref
                    data-testid="quiz-batch-canvas"
                    class="chart-canvas"
                    role="img"
                    aria-label="Batch-size chart for this question: attained FLOP/s against B for each pair of sizes, with each crossover marked"
                ></canvas>
                <p class="error" role="alert">{move || error.get().unwrap_or_default()}</p>
            </figure>
        }
    })
}
