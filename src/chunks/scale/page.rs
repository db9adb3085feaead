//! The Scale page (in the scale chunk): a mesh of chips and its links, a
//! collective on a sharded array, a sharded matmul in the chapter's four
//! cases, and a training plan, each with its results (`data-testid` and
//! the unrounded `data-value`), its words and what it is computed from.

use std::sync::Arc;

use leptos::prelude::*;
use roofline_core::calc::evaluate;
use roofline_core::hardware::catalogue;
use roofline_core::model::{preset, read_query as model_query, state_text as model_text, PRESETS};
use roofline_core::op::{Operation, Sizes};
use roofline_core::pages::View;
use roofline_core::scale::{evaluate_scale, read_query, state_text, unsharded_op, ScaleView};

use super::charts;
use super::fields::{collectives, field, select, strategies, Typed};
use super::results::{row, sentences, whys};
use super::Wiring;
use crate::chunks::keys::synced;
use crate::chunks::table_style::TABLE_STYLE;
use crate::page::choice::{choice, fixed};
use crate::page::shown::shown;

/// The page's own styles: its values are sentences as often as numbers,
/// so they wrap on a phone.
const SCALE_STYLE: &str = ".scale-page .results td.num{white-space:normal;overflow-wrap:anywhere}.scale-page .results th{white-space:normal}";

/// The page.
pub fn scale_page(w: Wiring) -> impl IntoView {
    let Wiring {
        keys,
        model,
        input,
        view,
        page,
        epoch,
    } = w;
    let scale = synced(keys, read_query, state_text);
    let model = synced(model, model_query, model_text);
    let typed: Typed = RwSignal::new(Vec::new());
    // Back / forward replaced the state: the fields' own errors go.
    Effect::new(move |_| {
        let _ = epoch.get();
        typed.set(Vec::new());
    });
    let chip = Memo::new(move |_| view.with(|v| v.chip.clone()));
    // The operation's sizes, as the calculator reads them for the
    // operation without its axes (it reads `B_X` as B, but this page also
    // takes axes it leaves as names, such as `B_x`); the last valid ones
    // while it reads none.
    let sizes = Memo::new(move |prev: Option<&Sizes>| {
        input
            .with(|i| {
                let plain = unsharded_op(&i.op_text).ok()?;
                if plain == i.op_text {
                    return view.with(|v| v.scenario.as_ref().map(|s| s.sizes.clone()));
                }
                let mut i = i.clone();
                i.op_text = plain;
                evaluate(&i).scenario.map(|s| s.sizes)
            })
            .or_else(|| prev.cloned())
            .unwrap_or_default()
    });
    let config = Memo::new(move |_| {
        model.with(|m| preset(&m.model).map_or_else(|| m.custom.clone(), |p| p.config.clone()))
    });
    let sview = Memo::new(move |_| {
        let op = input.with(|i| i.op_text.clone());
        Arc::new(match chip.get() {
            Some(c) => {
                scale.with(|s| sizes.with(|z| config.with(|m| evaluate_scale(s, &c, &op, z, m))))
            }
            None => ScaleView::default(),
        })
    });
    let f = move |key, label, note| field(scale, sview, typed, epoch, key, label, note);
    let t = move |pick: fn(&ScaleView) -> String| move || sview.with(|v| pick(v));
    let chip_select = {
        let current = Memo::new(move |_| input.with(|i| i.chip.clone()));
        view! {
            <label class="field">
                <span class="field-label">"Chip"</span>
                <select
                    data-testid="field-scale-chip"
                    prop:value=move || current.get()
                    on:change=move |ev| {
                        let id = event_target_value(&ev);
                        input.update(|i| i.chip = id);
                    }
                >
                    {catalogue()
                        .iter()
                        .map(|c| {
                            let now = current.get_untracked() == c.id;
                            choice(&c.id, &c.name, fixed(now))
                        })
                        .collect_view()}
                </select>
                <span class="field-note">"The calculator's chip, with its numbers."</span>
            </label>
        }
    };
    let model_select = {
        let current = Memo::new(move |_| model.with(|m| m.model.clone()));
        view! {
            <label class="field">
                <span class="field-label">"Model"</span>
                <select
                    data-testid="field-scale-model"
                    prop:value=move || current.get()
                    on:change=move |ev| {
                        let id = event_target_value(&ev);
                        model.update(|m| m.model = id);
                    }
                >
                    {PRESETS
                        .iter()
                        .map(|p| choice(p.id, p.name, fixed(current.get_untracked() == p.id)))
                        .collect_view()}
                    {choice("custom", "custom (the Model page's fields)", fixed(current.get_untracked() == "custom"))}
                </select>
                <span class="field-note">"The Model page's model."</span>
            </label>
        }
    };
    let op_field = {
        let error = Memo::new(move |_| sview.with(|v| v.error("op").map(str::to_string)));
        move || {
            let _ = epoch.get();
            let initial = input.with_untracked(|i| i.op_text.clone());
            view! {
                <crate::page::field::TextField
                    id="scale-op".to_string()
                    label="Sharded matmul".to_string()
                    initial=initial
                    note=Memo::new(|_| "Like bf16[B_X,D] * bf16[D,F_Y] -> bf16[B_X,F_Y]: the calculator's operation, its sizes the calculator's.".to_string())
                    error=error
                    on_input=Callback::new(move |t: String| input.update(|i| i.op_text = t))
                />
            }
        }
    };
    let axes = move || {
        sview.with(|v| {
            v.axes
                .iter()
                .map(|a| {
                    view! {
                        <tr data-testid="scale-axis">
                            <th scope="row">{a.name.clone()}</th>
                            <td class="num">{a.size.clone()}</td>
                            <td>{a.link.clone()}</td>
                            <td class="num">{a.one_way.clone()}</td>
                            <td class="num">{a.bidirectional.clone()}</td>
                            <td>{a.wraps}{(!a.by_rule).then_some(" (set by you)")}</td>
                            <td class="num">{a.w.clone()}</td>
                        </tr>
                    }
                })
                .collect_view()
        })
    };
    let to_model = move |_| page.set(View::Model);
    // The calculator reads the book's `B_X` as B and says so; an op it
    // would read otherwise (`B_x`) goes over without its axes.
    let to_calc = move |_| {
        let text = input.with_untracked(|i| i.op_text.clone());
        if let Ok(plain) = unsharded_op(&text) {
            let dims = |t: &str| Operation::parse(t).map(|o| o.dims()).ok();
            if dims(&plain) != dims(&text) {
                input.update(|i| i.op_text = plain);
                epoch.update(|e| *e += 1);
            }
        }
        page.set(View::Calculator);
    };
    let splits = move || {
        sview.with(|v| {
            v.train
                .as_ref()
                .map(|t| {
                    t.splits
                        .iter()
                        .map(|s| {
                            view! {
                                <tr class:chosen=s.chosen data-testid="train-split" data-value=s.crossover_value.clone()>
                                    <th scope="row">{s.label.clone()}{s.chosen.then_some(" (chosen)")}</th>
                                    <td class="num">{s.crossover.clone()}</td>
                                </tr>
                            }
                        })
                        .collect_view()
                })
        })
    };
    let memory = move || {
        sview.with(|v| {
            v.train.as_ref().map(|t| {
                t.memory
                    .iter()
                    .map(|(k, m)| view! { <tr><th scope="row">{*k}</th><td class="num">{m.clone()}</td></tr> })
                    .collect_view()
            })
        })
    };
    view! {
        <main class="layout scale-page" data-testid="scale-page">
            <style>{TABLE_STYLE}{SCALE_STYLE}</style>
            <div class="inputs">
                <form class="panel" aria-label="Scale inputs" on:submit=|ev| ev.prevent_default()>
                    <fieldset class="group">
                        <legend>"Mesh"</legend>
                        {chip_select}
                        {f("mesh", "Mesh (axis:chips, ...)", "Empty: the chip's default (4x4x4 on a 3-D TPU, 4x4 on a 2-D one, 8 GPUs).")}
                        {f("wrap", "Axes that wrap around", "Empty: the chip's rules; none, or the axes (XY).")}
                    </fieldset>
                    <fieldset class="group">
                        <legend>"Collective"</legend>
                        {select(scale, "cop", "Collective", collectives())}
                        {f("cax", "Over the axes", "One or more of the mesh's axes (XY).")}
                        {f("arr", "Array, sharded", "Like bf16[B_X,D]; sizes from the calculator's.")}
                    </fieldset>
                    <fieldset class="group">
                        <legend>"Sharded matmul"</legend>
                        {op_field}
                    </fieldset>
                    <fieldset class="group">
                        <legend>"Training"</legend>
                        {model_select}
                        {f("tokens", "Global batch (tokens)", "B in the chapter: tokens in one step.")}
                        {f("seq", "Sequence length", "")}
                        {select(scale, "strat", "Strategy", strategies())}
                        {f("x", "X (FSDP or DP degree)", "Empty: derived from the mesh.")}
                        {f("y", "Y (TP degree)", "Empty: derived from the mesh.")}
                        {f("mx", "M_X (mesh axes X spans)", "Empty: derived.")}
                        {f("my", "M_Y (mesh axes Y spans)", "Empty: derived.")}
                        {f("zero", "ZeRO stage", "1: optimizer state sharded; 2: and gradients; 3: and weights.")}
                        {f("ckpt", "Checkpoints a layer", "Activations kept for the backward pass, [B, D] each.")}
                        {f("mfu", "MFU", "The fraction of peak FLOP/s reached (0.4 or 40%).")}
                        {f("budget", "Training tokens", "The token budget of the whole run.")}
                        {f("pods", "Pods", "Slices joined by DCN.")}
                    </fieldset>
                </form>
            </div>
            <div class="outputs">
                <section class="panel" aria-labelledby="scale-mesh-title">
                    <h2 id="scale-mesh-title">"The mesh and its links"</h2>
                    <p data-testid="scale-layout">{t(|v| format!("{} chips as {}: {}.", v.chips, v.mesh, v.layout))}</p>
                    <div class="table-scroll">
                        <table class="results">
                            <thead><tr><th>"Axis"</th><th>"Chips"</th><th>"Link"</th><th>"One way"</th><th>"Both ways"</th><th>"Wraps"</th><th>"W a collective uses"</th></tr></thead>
                            <tbody>{axes}</tbody>
                        </table>
                    </div>
                    <ul class="scale-words">
                        <li>{t(|v| format!("Wraparound: {}.", v.wrap_rule))}</li>
                        <li>{t(|v| format!("Hop latency: {}.", v.hop_latency))}</li>
                        <li>{t(|v| format!("DCN per chip: {}; PCIe per chip: {}.", v.dcn, v.pcie))}</li>
                    </ul>
                </section>
                <section class="panel" aria-labelledby="scale-coll-title">
                    <h2 id="scale-coll-title">"The collective"</h2>
                    <p data-testid="scale-coll-signature">{t(|v| v.collective.as_ref().map(|c| format!("{} → {}", c.input, c.output)).unwrap_or_default())}</p>
                    <table class="results"><tbody>
                        {row(sview, "V (the whole array in a group)", "", |v| v.collective.as_ref().map(|c| c.v.clone()).unwrap_or_default())}
                        {row(sview, "Bytes each chip sends", "scale-coll-bytes", |v| v.collective.as_ref().map(|c| c.bytes.clone()).unwrap_or_default())}
                        {row(sview, "Time", "scale-coll-time", |v| v.collective.as_ref().map(|c| c.time.clone()).unwrap_or_default())}
                        {row(sview, "Bound", "scale-coll-bound", |v| v.collective.as_ref().map(|c| c.bound.to_string()).unwrap_or_default())}
                        {row(sview, "The book's time: max(latency, bandwidth term)", "", |v| v.collective.as_ref().map(|c| c.book_time.clone()).unwrap_or_default())}
                        {row(sview, "Latency and bandwidth meet at", "", |v| v.collective.as_ref().map(|c| c.switch.clone()).unwrap_or_default())}
                        {row(sview, "Every axis wrapped / none", "", |v| v.collective.as_ref().map(|c| format!("{} / {}", c.wrapped, c.unwrapped)).unwrap_or_default())}
                    </tbody></table>
                    {charts::collective(sview)}
                    {whys(&["which-bandwidth", "gather-size", "allreduce-twice", "alltoall-quarter", "wraparound"])}
                    <ol class="derivation" data-testid="scale-coll-derivation">
                        {move || sview.with(|v| v.collective.as_ref().map(|c| c.derivation.iter().map(|s| view! { <li>{s.clone()}</li> }).collect_view()))}
                    </ol>
                </section>
                <section class="panel" aria-labelledby="scale-matmul-title">
                    <h2 id="scale-matmul-title">"The sharded matmul"</h2>
                    <table class="results"><tbody>
                        {row(sview, "Case (of the chapter's four)", "scale-case", |v| v.matmul.as_ref().map(|m| m.case.to_string()).unwrap_or_default())}
                        {row(sview, "Collective", "scale-collective", |v| v.matmul.as_ref().map(|m| format!("{} ({})", m.collective, m.placement)).unwrap_or_default())}
                        {row(sview, "T_math (the local matmul)", "scale-math-time", |v| v.matmul.as_ref().map(|m| m.math_time.clone()).unwrap_or_default())}
                        {row(sview, "T_comms (the collective)", "scale-comms-time", |v| v.matmul.as_ref().map(|m| m.comms_time.clone()).unwrap_or_default())}
                        {row(sview, "Bound", "scale-bound", |v| v.matmul.as_ref().map(|m| m.bound.to_string()).unwrap_or_default())}
                        {row(sview, "Compute-bound from", "", |v| v.matmul.as_ref().map(|m| m.crossover.clone()).unwrap_or_default())}
                    </tbody></table>
                    {sentences(sview, "scale-matmul-words", |v| v.matmul.as_ref().map(|m| m.words.clone()).unwrap_or_default())}
                    // Case 1 moves nothing: there is no comms line to draw.
                    {shown(
                        Memo::new(move |_| sview.with(|v| v.matmul.as_ref().is_some_and(|m| m.collective_key != "none"))),
                        move || charts::matmul(sview),
                    )}
                    <p><button type="button" class="secondary" data-testid="scale-to-calc" on:click=to_calc>"Open the matmul in the calculator (one chip's view)"</button></p>
                </section>
                <section class="panel" aria-labelledby="scale-train-title">
                    <h2 id="scale-train-title">"The training plan"</h2>
                    <p data-testid="train-strategy">{t(|v| v.train.as_ref().map(|t| format!("{}: {}", t.strategy, t.degrees)).unwrap_or_default())}</p>
                    <table class="results"><tbody>
                        {row(sview, "Parameters", "train-params", |v| v.train.as_ref().map(|t| t.params.clone()).unwrap_or_default())}
                        {row(sview, "Per layer: T_math / T_comms", "", |v| v.train.as_ref().map(|t| format!("{} / {}", t.layer_math, t.layer_comms)).unwrap_or_default())}
                        {row(sview, "Per step: compute / comms", "train-per-step", |v| v.train.as_ref().map(|t| t.per_step.clone()).unwrap_or_default())}
                        {row(sview, "Bound", "train-bound", |v| v.train.as_ref().map(|t| t.bound_words.clone()).unwrap_or_default())}
                        {row(sview, "Tokens per chip", "train-tokens-per-chip", |v| v.train.as_ref().map(|t| t.tokens_per_chip.clone()).unwrap_or_default())}
                        {row(sview, "This split is compute-bound above (tokens per chip)", "train-threshold", |v| v.train.as_ref().map(|t| t.threshold.clone()).unwrap_or_default())}
                        {row(sview, "X_opt (mixed FSDP + TP)", "train-x-opt", |v| v.train.as_ref().map(|t| t.x_opt.clone()).unwrap_or_default())}
                        {row(sview, "At X_opt, compute-bound above (tokens per chip)", "train-threshold-opt", |v| v.train.as_ref().map(|t| t.threshold_opt.clone()).unwrap_or_default())}
                        {row(sview, "Memory per chip", "train-memory", |v| v.train.as_ref().map(|t| t.memory_total.clone()).unwrap_or_default())}
                        {row(sview, "Fits in HBM", "train-fits", |v| v.train.as_ref().map(|t| t.fits.to_string()).unwrap_or_default())}
                        {row(sview, "Fewest chips by memory", "train-min-chips", |v| v.train.as_ref().map(|t| t.min_chips.clone()).unwrap_or_default())}
                        {row(sview, "Training FLOPs (6 · active P · tokens)", "train-flops", |v| v.train.as_ref().map(|t| t.flops.clone()).unwrap_or_default())}
                        {row(sview, "Step time", "train-step-time", |v| v.train.as_ref().map(|t| t.step_time.clone()).unwrap_or_default())}
                        {row(sview, "Training time", "train-days", |v| v.train.as_ref().map(|t| t.days.clone()).unwrap_or_default())}
                    </tbody></table>
                    <h3>"The chapter's conditions, with these numbers"</h3>
                    {sentences(sview, "train-conditions", |v| v.train.as_ref().map(|t| t.conditions.clone()).unwrap_or_default())}
                    {whys(&["fsdp-dp", "tp-batch", "dcn"])}
                    <h3>"Memory per chip"</h3>
                    <table class="results"><tbody>{memory}</tbody></table>
                    <h3>"The plan the chapter would choose"</h3>
                    {sentences(sview, "train-plan", |v| v.train.as_ref().map(|t| t.plan.clone()).unwrap_or_default())}
                    {sentences(sview, "train-notes", |v| v.train.as_ref().map(|t| t.notes.clone()).unwrap_or_default())}
                    {charts::training(sview)}
                    <h3>"Every FSDP × TP split: where it turns compute-bound"</h3>
                    <p>{t(|v| v.train.as_ref().map(|t| t.crossover.clone()).unwrap_or_default())}</p>
                    <div class="table-scroll"><table class="results"><tbody>{splits}</tbody></table></div>
                    <p><button type="button" class="secondary" data-testid="scale-to-model" on:click=to_model>"Open this model on the Model page"</button></p>
                </section>
            </div>
        </main>
    }
}
