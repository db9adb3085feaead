//! The results: every quantity with its unit and a one-line meaning.

use leptos::prelude::*;
use roofline_core::calc::CalcView;
use roofline_core::report::ResultRow;

fn row_view(r: ResultRow) -> impl IntoView {
    let value = r.value.map(|v| v.to_string()).unwrap_or_default();
    view! {
        <tr>
            <th scope="row">{r.label}</th>
            <td class="num" data-testid=format!("result-{}", r.key) data-value=value>{r.text}</td>
            <td class="meaning">{r.meaning}</td>
        </tr>
    }
}

/// The results table. Each value cell carries `data-testid="result-KEY"`
/// and `data-value` with the unrounded number (see README).
#[component]
pub fn Results(
    /// The last valid evaluation (kept while a field is invalid).
    results: Memo<CalcView>,
    /// Whether the current input is invalid (results are then stale).
    #[prop(into)]
    stale: Signal<bool>,
) -> impl IntoView {
    let regime = move || {
        results.with(|v| v.regime.clone()).map(|(key, text)| {
            view! {
                <p class=format!("regime regime-{key}") data-testid="result-regime" data-value=key>
                    {text}
                </p>
            }
        })
    };
    let network = move || {
        results.with(|v| v.network.clone()).map(|n| {
            view! {
                <h3>{format!("Network roofline: {} chips over {}", n.analysis.chips, n.analysis.link)}</h3>
                <p data-testid="result-net-regime">{n.regime}</p>
                <table class="results">
                    <tbody>{n.rows.into_iter().map(row_view).collect_view()}</tbody>
                </table>
                <p class="note">{n.assumptions}</p>
            }
        })
    };
    view! {
        <section class="panel" aria-labelledby="results-title">
            <h2 id="results-title">"Results"</h2>
            <Show when=move || stale.get()>
                <p class="stale" role="status">"A field above is invalid: these are the last valid results."</p>
            </Show>
            {regime}
            <table class="results">
                <tbody>
                    {move || results.with(|v| v.rows.clone()).into_iter().map(row_view).collect_view()}
                </tbody>
            </table>
            {network}
        </section>
    }
}
