//! The results: every quantity with its unit and a one-line meaning.
//!
//! An edit changes the numbers, rarely which rows there are. So the rows
//! are re-created only when their keys change; otherwise each cell updates
//! its own text. Re-creating an element re-sets all of its attributes, and
//! the canvas draws that follow then pay for the style recalculation.

use std::sync::Arc;

use crate::chunks::network::NetworkResults;
use crate::page::shown::shown;
use crate::page::why::why_list;
use leptos::prelude::*;
use roofline_core::calc::CalcView;
use roofline_core::explain;
use roofline_core::report::ResultRow;

fn main_rows(v: &CalcView) -> &[ResultRow] {
    &v.rows
}

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

/// The results table. Each value cell carries `data-testid="result-KEY"`
/// and `data-value` with the unrounded number (see README).
#[component]
pub fn Results(
    /// The last valid evaluation (kept while a field is invalid).
    results: Memo<Arc<CalcView>>,
    /// Whether the current input is invalid (results are then stale).
    stale: Memo<bool>,
) -> impl IntoView {
    // An owned key: a memo of `Option<String>` shares its code with the others.
    let regime_key =
        Memo::new(move |_| results.with(|v| v.regime.as_ref().map(|r| r.0.to_string())));
    let regime_text = move || results.with(|v| v.regime.as_ref().map(|r| r.1.clone()));
    view! {
        <section class="panel" aria-labelledby="results-title">
            <h2 id="results-title">"Results"</h2>
            {shown(
                stale,
                || view! { <p class="stale" role="status">"A field above is invalid: these are the last valid results."</p> },
            )}
            {shown(
                Memo::new(move |_| regime_key.with(Option::is_some)),
                move || view! {
                    <p
                        class=move || format!("regime regime-{}", regime_key.get().unwrap_or_default())
                        data-testid="result-regime"
                        data-value=move || regime_key.get().unwrap_or_default()
                    >
                        {regime_text}
                    </p>
                },
            )}
            <table class="results">
                <tbody>{rows_view(results, main_rows)}</tbody>
            </table>
            {why_list(explain::RESULTS)}
            {shown(
                Memo::new(move |_| results.with(|v| v.network.is_some())),
                move || view! { <NetworkResults results=results /> },
            )}
        </section>
    }
}
