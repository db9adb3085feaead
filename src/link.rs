//! The page address as the app's state: reading it at start and on back /
//! forward, writing it after every change, and copying it.
//!
//! Reading a link (every parameter checked, with a notice for each bad one)
//! and writing one are code of their own wasm chunk (see ARCHITECTURE.md,
//! "Chunks"): an address without a query opens on the defaults without it,
//! and the chunk downloads with the first change that the address must
//! show.

use leptos::wasm_split::wasm_split;
use roofline_core::state::AppState;
use roofline_core::url::{decode_with, Decoded, Notice, DEFAULT_QUERY};
use wasm_bindgen::JsValue;

use crate::components::chunk_view::ChunkMissing;

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

/// The query string of the current address, without the `?`.
pub fn current_query() -> String {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .map(|s| s.trim_start_matches('?').to_string())
        .unwrap_or_default()
}

thread_local! {
    /// The address waiting to be written, and whether it makes a new entry.
    static PENDING: std::cell::RefCell<Option<(String, bool)>> =
        const { std::cell::RefCell::new(None) };
}

/// The query the address will hold: the one waiting to be written, else the
/// current one.
pub fn latest_query() -> String {
    PENDING
        .with(|p| p.borrow().as_ref().map(|(q, _)| q.clone()))
        .unwrap_or_else(current_query)
}

/// Writes `query` to the address just after the next frame is painted, so
/// the history call (about 1 ms in Chromium) is not between a keystroke and
/// its redrawn charts. Changes before then are coalesced into one write,
/// which makes a new entry if any of them asked for one.
pub fn write_query_after_paint(query: String, push: bool) {
    let first = PENDING.with(|p| {
        let mut p = p.borrow_mut();
        let push = push || p.as_ref().is_some_and(|(_, was)| *was);
        let first = p.is_none();
        *p = Some((query, push));
        first
    });
    if first {
        leptos::prelude::request_animation_frame(|| {
            // As a `fn()`, so that `canvas::later`'s timer shares this code.
            leptos::prelude::set_timeout(flush as fn(), std::time::Duration::ZERO);
        });
    }
}

/// Writes the waiting address now, if there is one (before copying it).
pub fn flush() {
    if let Some((query, push)) = PENDING.with(|p| p.borrow_mut().take()) {
        if query != current_query() {
            write_query(&query, push);
        }
    }
}

/// Drops the waiting write (on back / forward, where it would overwrite the
/// entry the browser just restored).
pub fn discard_pending() {
    PENDING.with(|p| p.borrow_mut().take());
}

/// Puts `query` in the address bar without reloading or scrolling: a new
/// history entry if `push`, else replacing the current one.
fn write_query(query: &str, push: bool) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(history) = window.history() else {
        return;
    };
    let path = window
        .location()
        .pathname()
        .unwrap_or_else(|_| "/".to_string());
    let url = format!("{path}?{query}");
    let _ = if push {
        history.push_state_with_url(&JsValue::NULL, "", Some(&url))
    } else {
        history.replace_state_with_url(&JsValue::NULL, "", Some(&url))
    };
}

/// The full address of the page.
pub fn current_href() -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default()
}

/// Copies `text` to the clipboard; `Err` if the browser refuses.
pub async fn copy(text: &str) -> Result<(), String> {
    let clipboard = web_sys::window()
        .map(|w| w.navigator().clipboard())
        .ok_or("no clipboard")?;
    wasm_bindgen_futures::JsFuture::from(clipboard.write_text(text))
        .await
        .map(|_| ())
        .map_err(|_| "the browser did not allow copying".to_string())
}

/// Milliseconds since the page started (for coalescing history entries).
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}
