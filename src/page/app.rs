//! The shell: the app's state as signals, the address kept in step with
//! it, the tab bar and the open page. Pages are rows of the page table
//! (`roofline_core::pages` and [`crate::page::pages`]): nothing here names
//! one.

use leptos::prelude::*;
use roofline_core::pages::AppState;
use roofline_core::url::Decoded;

use crate::chunks::link;
use crate::page::address;
use crate::page::canvas;
use crate::page::link_bar::LinkBar;
use crate::page::pages::app_page;
use crate::page::signals::Signals;
use crate::page::tabs::Tabs;

/// The whole app.
#[component]
pub fn App(
    /// The state the address described at start, with a notice for each
    /// value that could not be used; `None` when the link could not be read
    /// (its chunk did not download): the page then shows the defaults and
    /// says so, and leaves the address as it is until the next change.
    start: Option<Decoded>,
) -> impl IntoView {
    let keep_address = StoredValue::new(start.is_none());
    let Decoded {
        state: start,
        notices: start_notices,
    } = start.unwrap_or_else(|| Decoded {
        state: AppState::default(),
        notices: vec![link::unread("the defaults are shown")],
    });
    let s = Signals::new(&start);
    let notices = RwSignal::new(start_notices);

    // The state of what is on screen (the last valid calculator state).
    let app_state = Memo::new(move |prev: Option<&AppState>| s.state(prev));
    // Write it to the address: typing replaces the entry; a change more than
    // 1.5 s after the last new entry makes a new one (back / forward).
    let last_push = StoredValue::new(f64::NEG_INFINITY);
    // The first write only puts the canonical form of the opening link in
    // place: it replaces, like a restore.
    let restoring = StoredValue::new(true);
    // The first write waits for a task of its own, the first of the start's
    // (`canvas::later`): it evaluates the calculator for the first time, so
    // the app's first task (with the wasm's instantiation) stays short.
    let writer_ready = canvas::later();
    Effect::new(move |_| {
        if !writer_ready.get() {
            return;
        }
        let state = app_state.get();
        let restore = restoring.get_value();
        restoring.set_value(false);
        // An unread link stays in the address, to be read on reload.
        if keep_address.get_value() {
            keep_address.set_value(false);
            return;
        }
        // Written by the link chunk: tasks run in the order of the changes.
        leptos::task::spawn_local(async move {
            // Without the chunk (no connection), the address keeps what it
            // holds; the next change tries again.
            let Some(q) = link::encode(state).await else {
                return;
            };
            if q == address::latest_query() {
                return;
            }
            let now = address::now_ms();
            let push = !restore && now - last_push.get_value() > 1500.0;
            if push {
                last_push.set_value(now);
            }
            address::write_query_after_paint(q, push);
        });
    });
    // Charts redraw at their new size after a resize.
    let _ =
        leptos::prelude::window_event_listener(leptos::ev::resize, |_| canvas::window_resized());
    // Back / forward: load the state of that entry. Reading it can wait for
    // the link chunk; if another back / forward comes first, it wins.
    let reads = StoredValue::new(0u32);
    let _ = leptos::prelude::window_event_listener(leptos::ev::popstate, move |_| {
        // A write still waiting belongs to the entry just left.
        address::discard_pending();
        let read = reads.get_value().wrapping_add(1);
        reads.set_value(read);
        let query = address::current_query();
        leptos::task::spawn_local(async move {
            let d = link::read(query).await;
            if reads.try_get_value() != Some(read) {
                return;
            }
            // Unread: the page keeps what it shows, and says why.
            let Some(d) = d else {
                notices.set(vec![link::unread(
                    "the page still shows the previous entry",
                )]);
                return;
            };
            restoring.set_value(true);
            s.set(&d.state);
            notices.set(d.notices);
        });
    });

    // Which page: a memo, so that a click on the current tab rebuilds nothing.
    let open = Memo::new(move |_| s.view.get());

    view! {
        <LinkBar notices=notices />
        <Tabs page=s.view />
        {move || (app_page(open.get()).show)(s)}
        <footer class="foot">
            <p>
                "Numbers come from the chapter’s model and each preset’s source (open “Edit the chip’s numbers”). Peaks are dense: sparse figures are shown but never used."
            </p>
        </footer>
    }
}
