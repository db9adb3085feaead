//! The Scale page's results: rows whose value cell carries a test id and
//! the unrounded `data-value` the core gives for it, lists of sentences,
//! and the readers' questions.

use std::sync::Arc;

use leptos::prelude::*;
use roofline_core::scale::{ScaleView, WHY};

/// A row `label | text`, the cell `data-testid=testid` with the core's
/// value for it (or none: `testid` empty).
pub(crate) fn row(
    view: Memo<Arc<ScaleView>>,
    label: &'static str,
    testid: &'static str,
    text: impl Fn(&ScaleView) -> String + Send + Sync + 'static,
) -> impl IntoView {
    let value = move || view.with(|v| v.value(testid).unwrap_or_default().to_string());
    let cell = move || view.with(|v| text(v));
    view! {
        <tr>
            <th scope="row">{label}</th>
            <td class="num" data-testid=(!testid.is_empty()).then_some(testid) data-value=value>{cell}</td>
        </tr>
    }
}

/// A list of the sentences `items` gives, `data-testid=testid`.
pub(crate) fn sentences(
    view: Memo<Arc<ScaleView>>,
    testid: &'static str,
    items: fn(&ScaleView) -> Vec<String>,
) -> impl IntoView {
    view! {
        <ul class="scale-words" data-testid=testid>
            {move || view.with(|v| items(v).into_iter().map(|s| view! { <li>{s}</li> }).collect_view())}
        </ul>
    }
}

/// The readers' questions `keys` (of the core's `WHY`), each a closed
/// disclosure (`data-testid="why-KEY"`): the question, then its answer.
pub(crate) fn whys(keys: &'static [&'static str]) -> impl IntoView {
    view! {
        <div class="why-list">
            {WHY
                .iter()
                .filter(|(key, _)| keys.contains(key))
                .map(|(key, text)| {
                    let (q, a) = match text.find("? ") {
                        Some(i) => (&text[..=i], text[i + 2..].trim()),
                        None => (*text, ""),
                    };
                    view! {
                        <details class="why" data-testid=format!("why-{key}")>
                            <summary>{q}</summary>
                            <p class="answer">{a}</p>
                        </details>
                    }
                })
                .collect_view()}
        </div>
    }
}
