//! The measurements panel's roofline (in the measure chunk): the chip's
//! roof and lines as the calculator draws them, with a ring per measured
//! kernel in the colour of what binds it, a hover readout for the point
//! under the pointer, and PNG and SVG export.

use std::sync::Arc;

use leptos::html::Canvas;
use leptos::prelude::*;
use roofline_charts::{draw_roofline_points, nearest, PlotFrame, PointMark, RooflineChart};

use roofline_core::points::table;
use roofline_core::points::{place, Kernel, Roof};

use crate::chunks::svg::{save_svg_button, SvgChart};
use crate::page::canvas::{draw_on, keep_drawn, theme};
use crate::page::chart_figure::ChartFigure;
use crate::page::download::save_png;

/// What the points chart draws: the calculator's roofline, fitted to the
/// points, and the points (shared with the SVG export, not copied).
pub type PointsSpec = Arc<(RooflineChart, Vec<PointMark>)>;

/// The roofline with the measured kernels on it.
#[component]
pub fn PointsChart(
    /// What to draw; `Err` holds a message shown instead.
    spec: Memo<Result<PointsSpec, String>>,
    /// The kernels (the hover readout of a point is worded from its own).
    kernels: RwSignal<Vec<Kernel>>,
    /// The roof they are read against.
    roof: Memo<Option<Roof>>,
) -> impl IntoView {
    let canvas_ref = NodeRef::<Canvas>::new();
    let error = RwSignal::new(None::<String>);
    let frame = StoredValue::new(None::<(PlotFrame, f64)>);
    let readout = RwSignal::new(String::new());
    // Where the plot lies, in CSS pixels, and its data ranges, for tests:
    // `left,right,top,bottom,xlo,xhi,ylo,yhi,log|lin`.
    let placed = RwSignal::new(String::new());
    keep_drawn(spec, canvas_ref, error, move |canvas, spec| {
        let (chart, points) = &**spec;
        let theme = theme();
        let mut dpr_used = 1.0;
        let f = draw_on(canvas, "points", |root, dpr| {
            dpr_used = dpr;
            draw_roofline_points(root, chart, points, &theme, dpr)
        })?;
        frame.set_value(Some((f, dpr_used)));
        let css = |v: i32| roofline_core::num::shortest(f64::from(v) / dpr_used);
        placed.set(format!(
            "{},{},{},{},{},{},{},{},{}",
            css(f.x_px.0),
            css(f.x_px.1),
            css(f.y_px.0),
            css(f.y_px.1),
            roofline_core::num::shortest(f.x_range.0),
            roofline_core::num::shortest(f.x_range.1),
            roofline_core::num::shortest(f.y_range.0),
            roofline_core::num::shortest(f.y_range.1),
            if f.log { "log" } else { "lin" }
        ));
        Ok(())
    });
    // On a point (within 8 CSS pixels), its numbers; elsewhere what each
    // line attains at the pointer's intensity.
    let on_move = move |ev: leptos::ev::MouseEvent| {
        let text = frame.get_value().and_then(|(f, dpr)| {
            let at = (ev.offset_x() as f64 * dpr, ev.offset_y() as f64 * dpr);
            spec.with_untracked(|s| {
                let (chart, points) = &**s.as_ref().ok()?;
                match nearest(points, &f, at, 8.0 * dpr) {
                    Some(p) => roof.with_untracked(|r| {
                        let r = r.as_ref()?;
                        kernels.with_untracked(|k| {
                            k.get(p.index).map(|k| table::readout(&place(k, r), r))
                        })
                    }),
                    None => f.x_at(at.0).map(|x| chart.readout(x)),
                }
            })
        });
        readout.set(text.unwrap_or_default());
    };
    let export_png = move |_| {
        if let Some(c) = canvas_ref.get_untracked() {
            if let Err(e) = save_png(&c, "roofline-measurements.png") {
                error.set(Some(e));
            }
        }
    };
    let count = move || spec.with(|s| s.as_ref().map_or(0, |s| s.1.len()));
    view! {
        <ChartFigure
            caption="Your kernels under the roof: attained throughput against arithmetic intensity"
            testid="points-canvas"
            description="Roofline chart with one ring per measured kernel at its intensity and attained throughput"
            canvas_ref=canvas_ref
            canvas=view! {
                <{..}
                    data-points=move || count().to_string()
                    data-roofs=move || spec.with(|s| s.as_ref().map(|s| s.0.roof_keys()).unwrap_or_default())
                    data-frame=placed
                    on:mousemove=on_move
                    on:mouseleave=move |_| readout.set(String::new())
                />
            }
            error=error
            notes=view! { <p class="readout" data-testid="points-readout" aria-live="polite">{readout}</p> }
            below=view! {
                <div class="actions">
                    <button type="button" data-testid="points-png" on:click=export_png>"Save PNG"</button>
                    {save_svg_button(
                        "points-svg",
                        "roofline-measurements.svg",
                        move || spec.with_untracked(|s| s.as_ref().ok().cloned().map(SvgChart::Points)),
                        error,
                    )}
                </div>
            }
        />
    }
}
