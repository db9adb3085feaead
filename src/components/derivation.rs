//! The derivation: the chapter's formulas with the user's numbers. It is
//! below the first view, so its steps are computed and shown by code in the
//! batch chunk (with the batch-size chart, the other part of the page below
//! it), fetched after the roofline's first draw; the section and its
//! heading are in place from the start.

use std::sync::Arc;

use leptos::prelude::*;
use leptos::wasm_split::wasm_split;
use roofline_core::calc::CalcView;
use roofline_core::report::Step;

use super::chunk_view::{ChunkMissing, ChunkView};

/// The steps' list. The build moves this function and what only it reaches
/// (the derivation's formulas and their formatting) into the batch chunk.
#[wasm_split(batch, wasm_split_path = ::leptos::wasm_split, fallible, preload(fetch_derivation))]
fn derivation_view(results: Memo<Arc<CalcView>>) -> Result<AnyView, ChunkMissing> {
    Ok(steps_view(results).into_any())
}

/// One part of step `i`, or empty while there is no such step.
fn part(steps: Memo<Arc<Vec<Step>>>, i: usize, f: fn(&Step) -> String) -> impl Fn() -> String {
    move || steps.with(|s| s.get(i).map(f).unwrap_or_default())
}

/// Each step as formula, numbers filled in, and result.
fn steps_view(results: Memo<Arc<CalcView>>) -> impl IntoView {
    let steps = Memo::new(move |_| Arc::new(results.with(|v| v.derivation())));
    // The steps are re-created only when their number changes; an edit
    // updates the text inside them (see results.rs for why).
    let count = Memo::new(move |_| steps.with(|s| s.len()));
    view! {
        <ol class="derivation" data-testid="derivation">
            {move || {
                (0..count.get())
                    .map(|i| {
                        view! {
                            <li>
                                <span class="step-title">{part(steps, i, |s| s.title.clone())}</span>
                                <code class="formula">{part(steps, i, |s| s.formula.clone())}</code>
                                <code class="numbers">{part(steps, i, |s| s.numbers.clone())}</code>
                                <span class="step-result">{part(steps, i, |s| s.result.clone())}</span>
                            </li>
                        }
                    })
                    .collect_view()
            }}
        </ol>
    }
}

/// The "How it is computed" section; its steps arrive with their chunk.
#[component]
pub fn Derivation(
    /// The last valid evaluation.
    results: Memo<Arc<CalcView>>,
) -> impl IntoView {
    view! {
        <section class="panel" aria-labelledby="derivation-title">
            <h2 id="derivation-title">"How it is computed"</h2>
            <ChunkView
                fetch=fetch_derivation
                load=move || derivation_view(results)
                what="the derivation"
                testid="derivation-chunk"
            />
        </section>
    }
}
