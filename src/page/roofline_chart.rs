//! The roofline chart on a canvas, with its axes switch, the regions'
//! legend, how to read it, a hover readout and export.

use crate::page::chart_figure::ChartFigure;
use crate::page::why::why_list;
use leptos::html::Canvas;
use leptos::prelude::*;
use roofline_charts::{draw_roofline, PlotFrame, RooflineChart};
use roofline_core::explain;

use crate::chunks::svg::{save_svg_button, SvgChart};
use crate::page::canvas::{draw_on, keep_drawn, theme};
use crate::page::download::save_png;

/// A roofline chart drawn with plotters on a `<canvas>`, on log-log or
/// linear axes; redraws whenever `spec` changes. Under it, the legend of
/// its shaded regions and answers to how to read it. Hovering shows the
/// attained throughput under each line; buttons export PNG and SVG.
#[component]
pub fn RooflineChartView(
    /// What to draw; `Err` holds a message shown instead of the chart.
    spec: Memo<Result<RooflineChart, String>>,
    /// Log-log axes (true) or linear ones; the checkbox sets it.
    log: RwSignal<bool>,
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
    // Memos, so that an edit of a number re-sets no attribute.
    let keys =
        Memo::new(move |_| spec.with(|s| s.as_ref().map(|c| c.line_keys()).unwrap_or_default()));
    let roof_keys =
        Memo::new(move |_| spec.with(|s| s.as_ref().map(|c| c.roof_keys()).unwrap_or_default()));
    // The regions' fills (as keys) and texts, worded once per spec: the
    // legend's rows are re-created only when the fills change; an edit
    // updates each row's text.
    let regions = move |f: fn(&roofline_charts::Region) -> String| {
        Memo::new(move |_| {
            spec.with(|s| {
                s.as_ref()
                    .map(|c| c.regions().iter().map(f).collect())
                    .unwrap_or_default()
            })
        })
    };
    let fills: Memo<Vec<String>> = regions(|r| r.fill.to_string());
    let texts: Memo<Vec<String>> = regions(|r| r.text.clone());
    let legend = move || {
        let theme = theme();
        fills
            .get()
            .iter()
            .enumerate()
            .map(|(i, fill)| {
                let c = theme.region_fill(match fill.as_str() {
                    "1" => 1,
                    "2" => 2,
                    _ => 0,
                });
                view! {
                    <li data-testid="region-entry" data-fill=fill.clone()>
                        <span
                            class="swatch"
                            aria-hidden="true"
                            style=format!("background:#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
                        ></span>
                        {move || texts.with(|t| t.get(i).cloned().unwrap_or_default())}
                    </li>
                }
            })
            .collect_view()
    };
    view! {
        <ChartFigure
            caption="Roofline: attained throughput against arithmetic intensity"
            testid="roofline-canvas"
            description="Roofline chart: the flat roof at peak FLOP/s and one line per bandwidth, bending into the roof at its critical intensity"
            canvas_ref=canvas_ref
            canvas=view! {
                <{..}
                    data-scale=move || if log.get() { "log" } else { "lin" }
                    data-lines=keys
                    data-roofs=roof_keys
                    on:mousemove=on_move
                    on:mouseleave=move |_| readout.set(String::new())
                />
            }
            error=error
            notes=view! {
                <p class="readout" data-testid="roofline-readout" aria-live="polite">{readout}</p>
                <ul class="region-legend" data-testid="region-legend" aria-label="Shaded regions">{legend}</ul>
            }
            below=view! {
                <div class="actions">
                    <label class="check">
                        <input type="checkbox" data-testid="roofline-log" prop:checked=log
                            on:change=move |ev| log.set(event_target_checked(&ev)) />
                        " Log axes"
                    </label>
                    <button type="button" data-testid="roofline-png" on:click=export_png>"Save PNG"</button>
                    {save_svg_button(
                        "roofline-svg",
                        "roofline.svg",
                        move || spec.with_untracked(|s| s.as_ref().ok().cloned().map(SvgChart::Roofline)),
                        error,
                    )}
                </div>
                {why_list(explain::CHART)}
            }
        />
    }
}
