//! The Model page (in the model chunk): the inputs on the left; on the
//! right whether it fits, the regime, every result with its `data-value`,
//! the two charts, every operation of a layer, and the derivation.

use crate::chunks::table_style::TABLE_STYLE;
use std::sync::Arc;

use leptos::prelude::*;
use roofline_core::calc::{CalcInput, CalcView};
use roofline_core::explain;
use roofline_core::input::parse_positive;
use roofline_core::model::{evaluate_model, ModelInput, ModelState, ModelView};
use roofline_core::state::MAX_CHIPS;

use super::charts::{latency_chart, ops_roofline};
use super::inputs::inputs;
use super::ops_table::ops_table;
use crate::page::shown::shown;
use crate::page::why::why_list;

/// The chip count the calculator's field holds (1 while it is invalid).
fn chips_of(input: &CalcInput) -> u32 {
    parse_positive("chips", &input.chips)
        .ok()
        .filter(|n| n.fract() == 0.0 && *n <= f64::from(MAX_CHIPS))
        .map_or(1, |n| n as u32)
}

/// One result row, its value cell `data-testid="model-KEY"` with the
/// unrounded `data-value`; re-created only when the rows' keys change.
fn rows(v: Memo<Arc<ModelView>>) -> impl IntoView {
    let keys = Memo::new(move |_| {
        v.with(|v| v.rows.iter().map(|r| r.key.to_string()).collect::<Vec<_>>())
    });
    move || {
        keys.get()
            .into_iter()
            .map(|key| {
                let k = key.clone();
                let cell = move |f: fn(&roofline_core::report::ResultRow) -> String| {
                    let k = k.clone();
                    move || {
                        v.with(|v| {
                            v.rows
                                .iter()
                                .find(|r| r.key == k)
                                .map(f)
                                .unwrap_or_default()
                        })
                    }
                };
                view! {
                    <tr>
                        <th scope="row">{cell(|r| r.label.clone())}</th>
                        <td
                            class="num"
                            data-testid=format!("model-{key}")
                            data-value=cell(|r| r.value.map(|x| x.to_string()).unwrap_or_default())
                        >
                            {cell(|r| r.text.clone())}
                        </td>
                        <td class="meaning">{cell(|r| r.meaning.clone())}</td>
                    </tr>
                }
            })
            .collect_view()
    }
}

/// The page.
pub fn model_page(
    model: RwSignal<ModelState>,
    input: RwSignal<CalcInput>,
    view: Memo<Arc<CalcView>>,
    epoch: RwSignal<u32>,
) -> impl IntoView {
    let minput = RwSignal::new(ModelInput::from_state(&model.get_untracked()));
    // Back / forward replaced the whole state: the page reads it again.
    Effect::new(move |prev: Option<u32>| {
        let e = epoch.get();
        if prev.is_some_and(|p| p != e) {
            minput.set(ModelInput::from_state(&model.get_untracked()));
        }
        e
    });
    let chips = Memo::new(move |_| input.with(chips_of));
    let chip = Memo::new(move |_| view.with(|v| v.chip.clone()));
    let mview = Memo::new(move |_| {
        Arc::new(minput.with(|i| chip.with(|c| evaluate_model(i, c.as_ref(), chips.get()))))
    });
    // While an input is invalid the results, charts and operations stay
    // those of the last valid inputs, marked stale (as the calculator's).
    let shownv = Memo::new(move |prev: Option<&Arc<ModelView>>| {
        let now = mview.get();
        match prev {
            Some(p) if now.run.is_none() && p.run.is_some() => p.clone(),
            _ => now,
        }
    });
    // The link holds the last valid state.
    Effect::new(move |_| {
        mview.with(|v| {
            if let Some(s) = minput.with_untracked(|i| v.to_state(i)) {
                if model.with_untracked(|m| *m != s) {
                    model.set(s);
                }
            }
        })
    });
    let text = move |f: fn(&ModelView) -> String| move || mview.with(|v| f(v));
    let last = move |f: fn(&ModelView) -> String| move || shownv.with(|v| f(v));
    let derivation = move || {
        shownv.with(|v| {
            v.derivation
                .iter()
                .map(|s| {
                    view! {
                        <li>
                            <span class="step-title">{s.title.clone()}</span>
                            <code class="formula">{s.formula.clone()}</code>
                            <code class="numbers">{s.numbers.clone()}</code>
                            <span class="step-result">{s.result.clone()}</span>
                        </li>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <main class="layout model-page" data-testid="model-page">
            <style>{TABLE_STYLE}</style>
            <div class="inputs">
                <form class="panel" aria-label="Model inputs" on:submit=|ev| ev.prevent_default()>
                    {inputs(minput, mview, input, view, epoch)}
                </form>
            </div>
            <div class="outputs">
                <section class="panel" aria-labelledby="model-results-title">
                    <h2 id="model-results-title">"The model on the roofline"</h2>
                    {shown(
                        Memo::new(move |_| mview.with(|v| v.error.is_some())),
                        move || view! {
                            <p class="stale" role="status" data-testid="model-error">
                                {text(|v| v.error.clone().unwrap_or_default())}
                                {move || shownv.with(|v| v.run.is_some()).then_some(": these are the last valid results.")}
                            </p>
                        },
                    )}
                    <p class=move || format!("regime fits-{}", shownv.with(|v| v.fits.0.clone()))
                        data-testid="model-fits" data-value=last(|v| v.fits.0.clone())>
                        {last(|v| v.fits.1.clone())}
                    </p>
                    <p class=move || format!("regime regime-{}", shownv.with(|v| v.regime.0))
                        data-testid="model-regime" data-value=last(|v| v.regime.0.to_string())>
                        {last(|v| v.regime.1.clone())}
                    </p>
                    {shown(
                        Memo::new(move |_| shownv.with(|v| !v.layout.is_empty())),
                        move || view! { <p data-testid="model-layout">{last(|v| v.layout.clone())}</p> },
                    )}
                    {shown(
                        Memo::new(move |_| shownv.with(|v| !v.link.is_empty())),
                        move || view! { <p data-testid="model-link">{last(|v| v.link.clone())}</p> },
                    )}
                    <table class="results"><tbody>{rows(shownv)}</tbody></table>
                    {why_list(explain::MODEL)}
                </section>
                <section class="panel charts" aria-label="Model charts">
                    {ops_roofline(shownv, chip)}
                    {latency_chart(shownv)}
                </section>
                <section class="panel" aria-labelledby="model-ops-title">
                    <h2 id="model-ops-title">"Every operation of a step"</h2>
                    {ops_table(shownv, input, chips)}
                </section>
                <section class="panel" aria-labelledby="model-derivation-title">
                    <h2 id="model-derivation-title">"How it is computed"</h2>
                    <ol class="derivation" data-testid="model-derivation">{derivation}</ol>
                </section>
            </div>
        </main>
    }
}
