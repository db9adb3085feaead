//! An answer's paragraphs, shown as text (in the why chunk).

use leptos::prelude::*;
use roofline_core::explain::answer;

/// A paragraph per entry of the answer to `key`.
pub fn paragraphs(key: &'static str) -> impl IntoView {
    answer(key)
        .iter()
        .map(|p| view! { <p>{*p}</p> })
        .collect_view()
}
