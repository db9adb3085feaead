//! Writing the address, in the link chunk: the state on screen is read from
//! the app's signals, compared with the one last written, and written as a
//! link. The first load keeps only the effect that calls this on a change
//! (`crate::page::app`) and the bare address's first write.

use std::cell::{Cell, RefCell};

use leptos::prelude::untrack;
use roofline_core::pages::AppState;

use crate::page::address;
use crate::page::signals::Signals;

thread_local! {
    /// The state last written (or found already in the address).
    static LAST: RefCell<Option<AppState>> = const { RefCell::new(None) };
    /// Whether the next write puts a restored entry's canonical form in
    /// place (back / forward): it replaces, never pushes.
    static RESTORING: Cell<bool> = const { Cell::new(false) };
    /// When the last new history entry was made, in ms.
    static LAST_PUSH: Cell<f64> = const { Cell::new(f64::NEG_INFINITY) };
}

/// Writes the state on screen to the address, if it changed. `first`: the
/// opening link's canonical form, which replaces the entry like a restore.
/// Typing replaces the entry; a change more than 1.5 s after the last new
/// entry makes a new one (back / forward).
pub fn write(s: Signals, first: bool) {
    let restore = RESTORING.with(|r| r.replace(false)) || first;
    // Read now, not tracked: the effect that called this tracks the signals.
    let state = LAST.with(|l| untrack(|| s.state(l.borrow().as_ref())));
    if LAST.with(|l| l.borrow().as_ref() == Some(&state)) {
        return;
    }
    let q = roofline_core::url::encode(&state);
    LAST.with(|l| *l.borrow_mut() = Some(state));
    if q == address::latest_query() {
        return;
    }
    let now = address::now_ms();
    let push = !restore && now - LAST_PUSH.with(Cell::get) > 1500.0;
    if push {
        LAST_PUSH.with(|t| t.set(now));
    }
    address::write_query_after_paint(q, push);
}

/// Puts `state` on screen (back / forward); the write that follows replaces
/// the entry rather than making a new one.
pub fn restore(s: Signals, state: &AppState) {
    RESTORING.with(|r| r.set(true));
    s.set(state);
}
