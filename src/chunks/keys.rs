//! A page's state read from its keys' link text (`AppState::model`,
//! `AppState::scale`, `AppState::quiz`) and kept in step with it both
//! ways, for the chunks that show it (the Model, Scale and quiz pages): an edit writes the text, and
//! so the link; a new text (back / forward, another page's edit) is read
//! again. The notices for bad values were given when the link was decoded.

use leptos::prelude::*;
use roofline_core::url::Notice;

/// The state in `keys`, as a signal of its own that the two stay in step
/// with: `read` turns the text into the state, `text` the state into text.
pub fn synced<T>(
    keys: RwSignal<String>,
    read: fn(&str) -> (T, Vec<Notice>),
    text: fn(&T) -> String,
) -> RwSignal<T>
where
    T: Send + Sync + 'static,
{
    let state = RwSignal::new(keys.with_untracked(|k| read(k).0));
    Effect::new(move |_| {
        let t = state.with(text);
        if keys.with_untracked(|k| *k != t) {
            keys.set(t);
        }
    });
    Effect::new(move |_| {
        let t = keys.get();
        if state.with_untracked(|s| text(s) != t) {
            state.set(read(&t).0);
        }
    });
    state
}
