//! The batch-size chart (practice question 3) with its (D, F) pairs. It is
//! in the batch chunk (see `src/chunks/batch/mod.rs`): below the first view, it is
//! built and drawn after the roofline.

use std::sync::Arc;

use crate::page::shown::shown;
use leptos::html::Canvas;
use leptos::prelude::*;

use crate::page::choice::{choice, fixed};
use roofline_charts::{batch_csv, batch_with_current, draw_batch, CurrentBatch};
use roofline_core::calc::{CalcInput, CalcView};
use roofline_core::input::parse_positive;

use crate::chunks::svg::{save_svg_button, SvgChart};
use crate::page::canvas::{draw_on, keep_drawn, theme};
use crate::page::chart_figure::ChartFigure;
use crate::page::download::{data_url, download, save_png};

/// Attained FLOP/s against the batch dimension for each (D, F) pair, with
/// controls to add and remove pairs, switch log / linear axes, and export
/// PNG, SVG and CSV.
#[component]
pub fn BatchChartView(
    /// The (D, F) pairs, editable here.
    pairs: RwSignal<Vec<(f64, f64)>>,
    /// Log axes (true) or linear (false).
    log: RwSignal<bool>,
    /// The calculator input (this component sets `batch_dim`).
    input: RwSignal<CalcInput>,
    /// The evaluated view: the scenario swept and the dimensions to choose from.
    view: Memo<Arc<CalcView>>,
) -> impl IntoView {
    // What to draw: the operation on screen first, then the pairs; `Err`
    // holds a message shown instead of the chart.
    let spec = Memo::new(move |_| -> Result<CurrentBatch, String> {
        let log = log.get();
        let pairs = pairs.get();
        view.with(|v| {
            let Some(s) = &v.scenario else {
                return Err("Nothing to draw yet.".to_string());
            };
            batch_with_current(s, &v.batch_dim, &pairs, log).map_err(|e| e.to_string())
        })
    });
    let canvas_ref = NodeRef::<Canvas>::new();
    let error = RwSignal::new(None::<String>);
    keep_drawn(spec, canvas_ref, error, |canvas, spec| {
        let theme = theme();
        draw_on(canvas, "batch", |root, dpr| {
            draw_batch(root, &spec.chart, &theme, dpr)
        })
        .map(|_| ())
    });
    let new_d = RwSignal::new("2048".to_string());
    let new_f = RwSignal::new("2048".to_string());
    let pair_error = RwSignal::new(String::new());
    let add_pair = move |_| {
        let d = parse_positive("D", &new_d.get_untracked());
        let f = parse_positive("F", &new_f.get_untracked());
        match (d, f) {
            (Ok(d), Ok(f))
                if pairs.with_untracked(|p| p.len()) < roofline_charts::batch::MAX_SERIES =>
            {
                pairs.update(|p| p.push((d, f)));
                pair_error.set(String::new());
            }
            (Ok(_), Ok(_)) => pair_error.set("At most 8 curves.".to_string()),
            (Err(e), _) | (_, Err(e)) => pair_error.set(e.to_string()),
        }
    };
    // One item per curve, re-created only when the number of curves
    // changes; an edit updates each label's text (see results.rs for why).
    let label = move |i: usize| {
        move || {
            spec.with(|s| {
                s.as_ref()
                    .ok()
                    .and_then(|s| s.chart.series.get(i))
                    .map(|x| format!("{}: {}", x.label, x.crossover_text))
                    .unwrap_or_default()
            })
        }
    };
    // Which pair each curve draws (`None`: the operation's own curve, which
    // has no Remove button); the list is re-created when this changes.
    let curves = Memo::new(move |_| {
        spec.with(|s| {
            s.as_ref()
                .map(|s| {
                    s.pair_of
                        .iter()
                        .map(|p| p.map_or(-1, |i| i as i64))
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    });
    // Two memos of types the page already has, rather than one of a pair.
    let dims = Memo::new(move |_| view.with(|v| v.dim_options.clone()));
    let dim = Memo::new(move |_| view.with(|v| v.batch_dim.clone()));
    let pair_list = move || {
        curves
            .get()
            .into_iter()
            .enumerate()
            .map(|(i, pair)| {
                let remove = usize::try_from(pair).ok().map(|at| {
                    view! {
                        <button
                            type="button"
                            class="secondary small"
                            aria-label=format!("Remove curve {}", i + 1)
                            on:click=move |_| pairs.update(|p| {
                                if at < p.len() {
                                    p.remove(at);
                                }
                            })
                        >
                            "Remove"
                        </button>
                    }
                });
                view! {
                    <li data-testid="batch-pair" data-current=if pair < 0 { "true" } else { "false" }>
                        <span>{label(i)}</span>
                        {remove}
                    </li>
                }
            })
            .collect_view()
    };
    let export_png = move |_| {
        if let Some(c) = canvas_ref.get_untracked() {
            if let Err(e) = save_png(&c, "batch-size.png") {
                error.set(Some(e));
            }
        }
    };
    let export_csv = move |_| {
        spec.with_untracked(|spec| {
            if let Ok(spec) = spec {
                let _ = download(
                    "batch-size.csv",
                    &data_url("text/csv", &batch_csv(&spec.chart)),
                );
            }
        });
    };
    view! {
        <ChartFigure
            caption="Attained throughput against batch size, exact bytes (practice question 3)"
            testid="batch-canvas"
            description="Batch-size chart: attained FLOP/s against the batch dimension for each pair of sizes, with each crossover marked"
            canvas_ref=canvas_ref
            canvas=()
            error=error
            notes=()
            below=view! {
                <ul class="pairs">{pair_list}</ul>
                // Pairs set the two dimensions beside the swept one: an
                // operation with fewer has only its own curve.
                {shown(
                    Memo::new(move |_| view.with(|v| v.dim_options.len() >= 3)),
                    move || view! {
                        <div class="pair-add">
                            <label class="field inline">
                                <span class="field-label">"D"</span>
                                <input type="text" inputmode="decimal" data-testid="pair-d" prop:value=new_d
                                    on:input=move |ev| new_d.set(event_target_value(&ev)) />
                            </label>
                            <label class="field inline">
                                <span class="field-label">"F"</span>
                                <input type="text" inputmode="decimal" data-testid="pair-f" prop:value=new_f
                                    on:input=move |ev| new_f.set(event_target_value(&ev)) />
                            </label>
                            <button type="button" data-testid="pair-add" on:click=add_pair>"Add curve"</button>
                            <span class="field-error" role="status">{pair_error}</span>
                        </div>
                    },
                )}
                <div class="actions">
                    <label class="field inline">
                        <span class="field-label">"Sweep"</span>
                        <select
                            data-testid="batch-dim"
                            prop:value=move || dim.get()
                            on:change=move |ev| {
                                let d = event_target_value(&ev);
                                input.update(|i| i.batch_dim = Some(d))
                            }
                        >
                            {move || {
                                let (opts, sel) = (dims.get(), dim.get());
                                opts.into_iter()
                                    .map(|d| {
                                        choice(&d, &d, fixed(d == sel))
                                    })
                                    .collect_view()
                            }}
                        </select>
                    </label>
                    <label class="check">
                        <input type="checkbox" data-testid="batch-log" prop:checked=log
                            on:change=move |ev| log.set(event_target_checked(&ev)) />
                        " Log axes"
                    </label>
                    <button type="button" data-testid="batch-png" on:click=export_png>"Save PNG"</button>
                    {save_svg_button(
                        "batch-svg",
                        "batch-size.svg",
                        move || spec.with_untracked(|s| s.as_ref().ok().map(|s| SvgChart::Batch(s.chart.clone()))),
                        error,
                    )}
                    <button type="button" data-testid="batch-csv" on:click=export_csv>"Save CSV"</button>
                </div>
            }
        />
    }
}
