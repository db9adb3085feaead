//! The roofline chart on a canvas.

use leptos::html::Canvas;
use leptos::prelude::*;
use roofline_charts::{draw_roofline, RooflineChart};

use crate::canvas::{draw_on, theme};

/// A log-log roofline chart drawn with plotters on a `<canvas>`; redraws
/// whenever `spec` changes.
#[component]
pub fn RooflineChartView(
    /// What to draw; `Err` holds a message shown instead of the chart.
    spec: Memo<Result<RooflineChart, String>>,
) -> impl IntoView {
    let canvas_ref = NodeRef::<Canvas>::new();
    let (error, set_error) = signal(None::<String>);
    Effect::new(move |_| {
        let spec = spec.get();
        let Some(canvas) = canvas_ref.get() else {
            return;
        };
        let result = spec.and_then(|spec| {
            let theme = theme();
            draw_on(&canvas, "roofline", |root, dpr| {
                draw_roofline(root, &spec, &theme, dpr)
            })
        });
        set_error.set(result.err());
    });
    view! {
        <figure class="chart">
            <canvas
                node_ref=canvas_ref
                data-testid="roofline-canvas"
                class="chart-canvas"
                role="img"
                aria-label="Roofline chart: attained FLOP/s against arithmetic intensity, log-log"
            ></canvas>
            <Show when=move || error.get().is_some()>
                <p class="error" role="alert">{move || error.get().unwrap_or_default()}</p>
            </Show>
        </figure>
    }
}
