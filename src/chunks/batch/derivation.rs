//! The derivation's steps: the chapter's formulas with the user's numbers
//! (in the batch chunk, under their heading in `below.rs`).

use crate::chunks::table_style::TABLE_STYLE;
use std::sync::Arc;

use leptos::prelude::*;
use roofline_core::calc::CalcView;
use roofline_core::report::Step;

/// One part of step `i`, or empty while there is no such step.
fn part(steps: Memo<Arc<Vec<Step>>>, i: usize, f: fn(&Step) -> String) -> impl Fn() -> String {
    move || steps.with(|s| s.get(i).map(f).unwrap_or_default())
}

/// Each step as formula, numbers filled in, and result.
pub fn steps_view(results: Memo<Arc<CalcView>>) -> impl IntoView {
    let steps = Memo::new(move |_| Arc::new(results.with(|v| v.derivation())));
    // The steps are re-created only when their number changes; an edit
    // updates the text inside them (see results.rs for why).
    let count = Memo::new(move |_| steps.with(|s| s.len()));
    view! {
        <style>{TABLE_STYLE}</style>
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
