//! The roofline chart on a canvas, with a hover readout and export.

use crate::components::shown::shown;
use leptos::html::Canvas;
use leptos::prelude::*;
use roofline_charts::{draw_roofline, PlotFrame, RooflineChart};

use crate::canvas::{draw_on, keep_drawn, theme};
use crate::download::save_png;
use crate::svg_export::{save_svg_button, SvgChart};

/// A log-log roofline chart drawn with plotters on a `<canvas>`; redraws
/// whenever `spec` changes. Hovering shows the attained throughput under
/// each line; buttons export PNG and SVG.
#[component]
pub fn RooflineChartView(
    /// What to draw; `Err` holds a message shown instead of the chart.
    spec: Memo<Result<RooflineChart, String>>,
) -> impl IntoView {
    let canvas_ref = NodeRef::<Canvas>::new();
    let error = RwSignal::new(None::<String>);
    let frame = StoredValue::new(None::<(PlotFrame, f64)>);
    let readout = RwSignal::new(String::new());
    keep_drawn(spec, canvas_ref, error, move |canvas, spec| {
        let theme = theme();
        let mut dpr_used = 1.0;
        let f = draw_on(canvas, "roofline", |root, dpr| {
            dpr_used = dpr;
            draw_roofline(root, spec, &theme, dpr)
        })?;
        frame.set_value(Some((f, dpr_used)));
        Ok(())
    });
    let on_move = move |ev: leptos::ev::MouseEvent| {
        let text = frame
            .get_value()
            .and_then(|(f, dpr)| f.x_at(ev.offset_x() as f64 * dpr))
            .and_then(|x| spec.with_untracked(|s| s.as_ref().ok().map(|s| s.readout(x))))
            .unwrap_or_default();
        readout.set(text);
    };
    let export_png = move |_| {
        if let Some(c) = canvas_ref.get_untracked() {
            if let Err(e) = save_png(&c, "roofline.png") {
                error.set(Some(e));
            }
        }
    };
    view! {
        <figure class="chart">
            <figcaption>"Roofline: attained throughput against arithmetic intensity (log-log)"</figcaption>
            <canvas
                node_ref=canvas_ref
                data-testid="roofline-canvas"
                class="chart-canvas"
                role="img"
                aria-label="Roofline chart: the flat roof at peak FLOP/s and one line per bandwidth, bending into the roof at its critical intensity"
                on:mousemove=on_move
                on:mouseleave=move |_| readout.set(String::new())
            ></canvas>
            <p class="readout" data-testid="roofline-readout" aria-live="polite">{readout}</p>
            {shown(
                Memo::new(move |_| error.with(Option::is_some)),
                move || view! { <p class="error" role="alert">{move || error.get().unwrap_or_default()}</p> },
            )}
            <div class="actions">
                <button type="button" data-testid="roofline-png" on:click=export_png>"Save PNG"</button>
                {save_svg_button(
                    "roofline-svg",
                    "roofline.svg",
                    move || spec.with_untracked(|s| s.as_ref().ok().cloned().map(SvgChart::Roofline)),
                    error,
                )}
            </div>
        </figure>
    }
}
