//! Quiz progress in localStorage, surviving storage that is blocked, full
//! or holds garbage (the quiz then works from memory and says so).

use roofline_core::quiz::progress::{Progress, PROGRESS_KEY};

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// Loads saved progress; with a note when storage cannot be used.
pub fn load() -> (Progress, Option<String>) {
    match storage() {
        Some(s) => match s.get_item(PROGRESS_KEY) {
            Ok(Some(text)) => (Progress::parse(&text), None),
            Ok(None) => (Progress::default(), None),
            Err(_) => (Progress::default(), Some(blocked())),
        },
        None => (Progress::default(), Some(blocked())),
    }
}

fn blocked() -> String {
    "This browser does not let the page store data, so progress lasts until the page is closed."
        .to_string()
}

/// Saves progress; `Err` with a note if the browser refuses (blocked or full).
pub fn save(p: &Progress) -> Result<(), String> {
    let s = storage().ok_or_else(blocked)?;
    s.set_item(PROGRESS_KEY, &p.to_text())
        .map_err(|_| "Progress could not be saved (storage is full or blocked).".to_string())
}
