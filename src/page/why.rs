//! "Why?" disclosures: a reader's question answered next to what raises it.

use leptos::prelude::*;
use roofline_core::explain::Why;

/// One closed disclosure per question of `items`, each with
/// `data-testid="why-KEY"`. The texts are the core's (`explain`), shown as
/// text.
pub fn why_list(items: &'static [Why]) -> impl IntoView {
    view! {
        <div class="why-list">
            {items
                .iter()
                .map(|w| {
                    view! {
                        <details class="why" data-testid=format!("why-{}", w.key)>
                            <summary>{w.question}</summary>
                            {w.answer.iter().map(|p| view! { <p>{*p}</p> }).collect_view()}
                        </details>
                    }
                })
                .collect_view()}
        </div>
    }
}
