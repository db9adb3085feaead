//! The page address as the app's state: reading it at start and on back /
//! forward, writing it after every change, and copying it.

use wasm_bindgen::JsValue;

/// The query string of the current address, without the `?`.
pub fn current_query() -> String {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .map(|s| s.trim_start_matches('?').to_string())
        .unwrap_or_default()
}

/// Puts `query` in the address bar without reloading or scrolling: a new
/// history entry if `push`, else replacing the current one.
pub fn write_query(query: &str, push: bool) {
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
