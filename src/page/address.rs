//! The page address as the app's state: the current query, and writing it
//! after every change (just after the next paint), and copying it. Reading
//! and writing a link's text is the link chunk's (`crate::chunks::link`).

use wasm_bindgen::JsValue;

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
            // As a `fn()`, so that `later::later`'s timer shares this code.
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
