//! The derivation: the chapter's formulas with the user's numbers.

use leptos::prelude::*;
use roofline_core::calc::CalcView;

/// Each step as formula, numbers filled in, and result.
#[component]
pub fn Derivation(
    /// The last valid evaluation.
    results: Memo<CalcView>,
) -> impl IntoView {
    view! {
        <section class="panel" aria-labelledby="derivation-title">
            <h2 id="derivation-title">"How it is computed"</h2>
            <ol class="derivation" data-testid="derivation">
                {move || {
                    results
                        .with(|v| v.derivation.clone())
                        .into_iter()
                        .map(|s| {
                            view! {
                                <li>
                                    <span class="step-title">{s.title}</span>
                                    <code class="formula">{s.formula}</code>
                                    <code class="numbers">{s.numbers}</code>
                                    <span class="step-result">{s.result}</span>
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ol>
        </section>
    }
}
