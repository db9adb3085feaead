//! Progress in localStorage (the quiz's solved parts, the Learn page's
//! opened steps), surviving storage that is blocked, full or holds garbage
//! (the page then works from memory and says so).

use roofline_core::learn::{LearnProgress, LEARN_PROGRESS_KEY};
use roofline_core::quiz::progress::{Progress, PROGRESS_KEY};

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The text stored under `key` (`None` when nothing is), or the note to
/// show when storage cannot be used.
fn load_text(key: &str) -> Result<Option<String>, String> {
    storage()
        .ok_or_else(blocked)?
        .get_item(key)
        .map_err(|_| blocked())
}

/// Stores `text` under `key`; `Err` with a note if the browser refuses.
fn save_text(key: &str, text: &str) -> Result<(), String> {
    storage()
        .ok_or_else(blocked)?
        .set_item(key, text)
        .map_err(|_| "Progress could not be saved (storage is full or blocked).".to_string())
}

fn blocked() -> String {
    "This browser does not let the page store data, so progress lasts until the page is closed."
        .to_string()
}

/// Loads saved quiz progress; with a note when storage cannot be used.
pub fn load() -> (Progress, Option<String>) {
    match load_text(PROGRESS_KEY) {
        Ok(text) => (text.map(|t| Progress::parse(&t)).unwrap_or_default(), None),
        Err(note) => (Progress::default(), Some(note)),
    }
}

/// Saves quiz progress; `Err` with a note if the browser refuses (blocked or full).
pub fn save(p: &Progress) -> Result<(), String> {
    save_text(PROGRESS_KEY, &p.to_text())
}

/// Loads the Learn page's progress; with a note when storage cannot be used.
pub fn load_learn() -> (LearnProgress, Option<String>) {
    match load_text(LEARN_PROGRESS_KEY) {
        Ok(text) => (
            text.map(|t| LearnProgress::parse(&t)).unwrap_or_default(),
            None,
        ),
        Err(note) => (LearnProgress::default(), Some(note)),
    }
}

/// Saves the Learn page's progress; `Err` with a note if the browser refuses.
pub fn save_learn(p: &LearnProgress) -> Result<(), String> {
    save_text(LEARN_PROGRESS_KEY, &p.to_text())
}
