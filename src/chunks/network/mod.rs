//! The network roofline's rows, sentences and answers: the network chunk,
//! fetched when two or more chips are chosen. The first load computes the
//! numbers (the chart's link line needs them); the words come with the
//! chunk.

mod results;

use std::sync::Arc;

use leptos::prelude::*;
use leptos::wasm_split::wasm_split;
use roofline_core::calc::CalcView;

use crate::page::chunk_view::{ChunkMissing, ChunkView};

/// The network section. The build moves this function and what only it
/// reaches (the rows' words, the collective's assumptions) into the chunk.
#[wasm_split(network, wasm_split_path = ::leptos::wasm_split, fallible, preload(fetch_network))]
fn network_view(results: Memo<Arc<CalcView>>) -> Result<AnyView, ChunkMissing> {
    Ok(results::network_results(results).into_any())
}

/// The network roofline under the results, once its chunk is in.
#[component]
pub fn NetworkResults(
    /// The calculator's last valid evaluation.
    results: Memo<Arc<CalcView>>,
) -> impl IntoView {
    view! {
        <ChunkView
            fetch=fetch_network
            load=move || network_view(results)
            what="the network roofline"
            testid="network-chunk"
        />
    }
}
