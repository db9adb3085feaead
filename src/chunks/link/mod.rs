//! The link chunk's loader: reading a link (every parameter checked, with a
//! notice for each bad one), writing the state on screen to the address
//! (`writer.rs`) and restoring an entry's state (back / forward) are the
//! code of the `link` wasm chunk. An address without a query opens on the
//! defaults without it, and the chunk downloads with the first change that
//! the address must show. What the chunk holds is `roofline_core::url` and
//! the writer; this file is its door.

mod writer;

use leptos::wasm_split::wasm_split;
use roofline_core::pages::AppState;
use roofline_core::url::{decode_with, Decoded, Notice};

use crate::page::chunk_view::ChunkMissing;
use crate::page::signals::Signals;

/// Reads `query`, checking a quiz question against the bank's outline (which
/// needs no question built: the bank is in the quiz chunk). The build
/// (scripts/build/build-wasm.sh) moves this function and what only it reaches
/// into the link chunk; calling it downloads the chunk first.
#[wasm_split(link, wasm_split_path = ::leptos::wasm_split, fallible)]
fn decode_in_chunk(query: String) -> Result<Decoded, ChunkMissing> {
    Ok(decode_with(&query, roofline_core::quiz::OUTLINE))
}

/// Writes the state on screen to the address if it changed (`writer.rs`).
/// In the link chunk, with the reading: the state's comparison and its
/// link are not in the first load, which writes no link until something
/// changes.
#[wasm_split(link, wasm_split_path = ::leptos::wasm_split, fallible)]
fn write_in_chunk(s: Signals, first: bool) -> Result<(), ChunkMissing> {
    writer::write(s, first);
    Ok(())
}

/// Puts a history entry's state on screen (`writer.rs`), in the link chunk:
/// reading the entry has just downloaded it.
#[wasm_split(link, wasm_split_path = ::leptos::wasm_split, fallible)]
fn restore_in_chunk(s: Signals, state: AppState) -> Result<(), ChunkMissing> {
    writer::restore(s, &state);
    Ok(())
}

/// Writes the state on screen to the address, through the link chunk:
/// `first` for the opening link's canonical form (it replaces the entry).
/// Without the chunk (no connection) the address keeps what it holds, and
/// the next change tries again.
pub async fn write(s: Signals, first: bool) {
    let _ = write_in_chunk(s, first).await;
}

/// Puts `state`, read from a history entry, on screen; `false` if the link
/// chunk cannot be downloaded.
pub async fn restore(s: Signals, state: AppState) -> bool {
    restore_in_chunk(s, state).await.is_ok()
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
