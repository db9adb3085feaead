//! "Why?" disclosures: a reader's question answered next to what raises it.

use leptos::prelude::*;
use roofline_core::explain::Why;

use crate::chunks::why::{prefetch_why, WhyAnswer};
use crate::page::field::is_open;
use crate::page::shown::shown;

/// One closed disclosure per question of `items`, each with
/// `data-testid="why-KEY"`. The questions are in the first load; an answer
/// (the why chunk's, shown as text) is built when its disclosure is first
/// opened.
pub fn why_list(items: &'static [Why]) -> impl IntoView {
    view! {
        <div class="why-list">
            {items
                .iter()
                .map(|w| {
                    let opened = RwSignal::new(false);
                    view! {
                        <details
                            class="why"
                            data-testid=format!("why-{}", w.key)
                            on:toggle=move |ev| if is_open(&ev) { opened.set(true) }
                        >
                            <summary
                                on:pointerenter=|_| prefetch_why()
                                on:focus=|_| prefetch_why()
                            >
                                {w.question}
                            </summary>
                            {shown(Memo::new(move |_| opened.get()), move || view! { <WhyAnswer key=w.key /> })}
                        </details>
                    }
                })
                .collect_view()}
        </div>
    }
}
