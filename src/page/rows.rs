//! The result rows' rendering, shared by the results table (first load)
//! and the network chunk's rows: a file of its own, so that neither
//! imports the other.
//!
//! An edit changes the numbers, rarely which rows there are. So the rows
//! are re-created only when their keys change; otherwise each cell updates
//! its own text. Re-creating an element re-sets all of its attributes, and
//! the canvas draws that follow then pay for the style recalculation.

use std::sync::Arc;

use leptos::prelude::*;
use roofline_core::report::ResultRow;

/// One cell's text: `part` of the row `key`, or empty while it is missing.
fn cell<T: Send + Sync + 'static>(
    results: Memo<Arc<T>>,
    pick: fn(&T) -> &[ResultRow],
    key: &'static str,
    part: fn(&ResultRow) -> String,
) -> impl Fn() -> String + Copy {
    move || {
        results.with(|v| {
            pick(v)
                .iter()
                .find(|r| r.key == key)
                .map(part)
                .unwrap_or_default()
        })
    }
}

fn row_view<T: Send + Sync + 'static>(
    results: Memo<Arc<T>>,
    pick: fn(&T) -> &[ResultRow],
    key: &'static str,
) -> impl IntoView {
    let value = cell(results, pick, key, |r| {
        r.value.map(|v| v.to_string()).unwrap_or_default()
    });
    view! {
        <tr>
            <th scope="row">{cell(results, pick, key, |r| r.label.clone())}</th>
            <td class="num" data-testid=format!("result-{key}") data-value=value>
                {cell(results, pick, key, |r| r.text.clone())}
            </td>
            <td class="meaning">{cell(results, pick, key, |r| r.meaning.clone())}</td>
        </tr>
    }
}

/// The rows `pick` takes from `results`, re-created only when the set of
/// rows changes; each value cell is `data-testid="result-KEY"` with its
/// `data-value`. The network chunk shows its rows with it too.
pub fn rows_view<T: Send + Sync + 'static>(
    results: Memo<Arc<T>>,
    pick: fn(&T) -> &[ResultRow],
) -> impl IntoView {
    // Owned keys: a memo of `Vec<String>` shares its code with the page's
    // other lists. The rows are built from the static keys they carry.
    let keys = Memo::new(move |_| {
        results.with(|v| {
            pick(v)
                .iter()
                .map(|r| r.key.to_string())
                .collect::<Vec<_>>()
        })
    });
    move || {
        keys.track();
        results.with_untracked(|v| {
            pick(v)
                .iter()
                .map(|r| row_view(results, pick, r.key))
                .collect_view()
        })
    }
}
