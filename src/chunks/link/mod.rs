//! The link chunk's loader: reading a link (every parameter checked, with a
//! notice for each bad one) and writing one are the code of the `link` wasm
//! chunk. An address without a query opens on the defaults without it, and
//! the chunk downloads with the first change that the address must show.
//! What the chunk holds is `roofline_core::url`; this file is its door.

use leptos::wasm_split::wasm_split;
use roofline_core::pages::AppState;
use roofline_core::url::{decode_with, Decoded, Notice, DEFAULT_QUERY};

use crate::page::chunk_view::ChunkMissing;

/// Reads `query`, checking a quiz question against the bank's outline (which
/// needs no question built: the bank is in the quiz chunk). The build
/// (scripts/build/build-wasm.sh) moves this function and what only it reaches
/// into the link chunk; calling it downloads the chunk first.
#[wasm_split(link, wasm_split_path = ::leptos::wasm_split, fallible)]
fn decode_in_chunk(query: String) -> Result<Decoded, ChunkMissing> {
    Ok(decode_with(&query, roofline_core::quiz::OUTLINE))
}

/// `state` as a link's query. In the link chunk, with the reading: the
/// calculator's first load writes no link until something changes.
#[wasm_split(link, wasm_split_path = ::leptos::wasm_split, fallible)]
fn encode_in_chunk(state: AppState) -> Result<String, ChunkMissing> {
    Ok(roofline_core::url::encode(&state))
}

/// The query of `state`: at once for the default state, else from the link
/// chunk; `None` if the chunk cannot be downloaded (the address then keeps
/// what it holds).
pub async fn encode(state: AppState) -> Option<String> {
    if state == AppState::default() {
        return Some(DEFAULT_QUERY.to_string());
    }
    encode_in_chunk(state).await.ok()
}

/// The state a query describes, with its notices: the defaults for an
/// empty query, else what the link chunk reads. `None` if the chunk cannot
/// be downloaded.
pub async fn read(query: String) -> Option<Decoded> {
    if query.is_empty() {
        return Some(Decoded {
            state: AppState::default(),
            notices: Vec::new(),
        });
    }
    decode_in_chunk(query).await.ok()
}

/// The notice for a link that could not be read (its chunk did not
/// download), ending with what the page shows instead.
pub fn unread(instead: &str) -> Notice {
    Notice {
        param: String::new(),
        message: format!(
            "none could be read: the app could not download the part that reads and \
             writes links, so {instead}; check the connection and reload the page"
        ),
    }
}
