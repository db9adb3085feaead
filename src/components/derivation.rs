//! The derivation: the chapter's formulas with the user's numbers.

use std::sync::Arc;

use leptos::prelude::*;
use roofline_core::calc::CalcView;
use roofline_core::report::Step;

/// One part of step `i`, or empty while there is no such step.
fn part(results: Memo<Arc<CalcView>>, i: usize, f: fn(&Step) -> String) -> impl Fn() -> String {
    move || results.with(|v| v.derivation.get(i).map(f).unwrap_or_default())
}

/// Each step as formula, numbers filled in, and result.
#[component]
pub fn Derivation(
    /// The last valid evaluation.
    results: Memo<Arc<CalcView>>,
) -> impl IntoView {
    // The steps are re-created only when their number changes; an edit
    // updates the text inside them (see results.rs for why).
    let steps = Memo::new(move |_| results.with(|v| v.derivation.len()));
    view! {
        <section class="panel" aria-labelledby="derivation-title">
            <h2 id="derivation-title">"How it is computed"</h2>
            <ol class="derivation" data-testid="derivation">
                {move || {
                    (0..steps.get())
                        .map(|i| {
                            view! {
                                <li>
                                    <span class="step-title">{part(results, i, |s| s.title.clone())}</span>
                                    <code class="formula">{part(results, i, |s| s.formula.clone())}</code>
                                    <code class="numbers">{part(results, i, |s| s.numbers.clone())}</code>
                                    <span class="step-result">{part(results, i, |s| s.result.clone())}</span>
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ol>
        </section>
    }
}
