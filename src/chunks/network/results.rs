//! The network roofline's section: each chip's math, memory and link times,
//! the slowest, the collective's assumptions and the readers' questions.

use std::sync::Arc;

use leptos::prelude::*;
use roofline_core::calc::{network_view, CalcView, NetworkView};
use roofline_core::explain;
use roofline_core::report::ResultRow;

use crate::page::rows::rows_view;
use crate::page::why::why_list;

fn rows(n: &Option<NetworkView>) -> &[ResultRow] {
    n.as_ref().map_or(&[], |n| &n.rows)
}

/// The section for the network case of `results` (built while it has one).
pub fn network_results(results: Memo<Arc<CalcView>>) -> impl IntoView {
    let net = Memo::new(move |_| Arc::new(results.with(|v| v.network.clone().map(network_view))));
    let text = move |f: fn(&NetworkView) -> String| {
        move || net.with(|n| n.as_ref().as_ref().map(f).unwrap_or_default())
    };
    view! {
        <h3 data-testid="results-per-chip">{text(|n| roofline_core::calc::per_chip_heading(n.analysis.chips, &n.analysis.link.to_string()))}</h3>
        <p data-testid="result-net-regime" data-value=text(|n| n.analysis.regime.key().to_string())>
            {text(|n| n.regime.clone())}
        </p>
        <p data-testid="result-net-binding" data-value=text(|n| n.analysis.binding.key().to_string())>
            {text(|n| n.binding.clone())}
        </p>
        <table class="results">
            <tbody>{rows_view(net, rows)}</tbody>
        </table>
        <p class="note">{text(|n| n.assumptions.to_string())}</p>
        {why_list(explain::NETWORK)}
    }
}
