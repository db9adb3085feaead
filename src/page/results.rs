//! The results: every quantity with its unit and a one-line meaning. The
//! rows are rendered by [`crate::page::rows`], which the network chunk
//! shares.

use std::sync::Arc;

use crate::chunks::network::NetworkResults;
use crate::page::rows::rows_view;
use crate::page::shown::shown;
use crate::page::why::why_list;
use leptos::prelude::*;
use roofline_core::calc::CalcView;
use roofline_core::explain;
use roofline_core::report::ResultRow;

fn main_rows(v: &CalcView) -> &[ResultRow] {
    &v.rows
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
    let split = Memo::new(move |_| results.with(|v| v.network.is_some()));
    let regime_text = move || results.with(|v| v.regime.as_ref().map(|r| r.1.clone()));
    view! {
        <section class="panel" aria-labelledby="results-title">
            <h2 id="results-title">"Results"</h2>
            {shown(
                stale,
                || view! { <p class="stale" role="status">"A field above is invalid: these are the last valid results."</p> },
            )}
            // Split over chips, these results are the operation unsplit: a
            // label, and no verdict (the per-chip section gives the one).
            {shown(
                split,
                || view! { <h3 data-testid="results-whole">{roofline_core::calc::WHOLE_ON_ONE_CHIP}</h3> },
            )}
            {shown(
                Memo::new(move |_| regime_key.with(Option::is_some) && !split.get()),
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
            {shown(split, move || view! { <NetworkResults results=results /> })}
        </section>
    }
}
