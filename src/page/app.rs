//! The shell: the app's state as signals, the address kept in step with
//! it, the tab bar and the open page. Pages are rows of the page table
//! (`roofline_core::pages` and [`crate::page::pages`]): nothing here names
//! one.

use leptos::prelude::*;
use roofline_core::pages::AppState;
use roofline_core::url::{Decoded, DEFAULT_QUERY};

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

    // The address follows the state on screen. The link chunk reads the
    // state, compares it with the one last written and writes its link
    // (`chunks::link`); here only the signals are tracked, so that the
    // state's comparison and link are not in the first load.
    // The bare address's first write, `v=1`, needs no chunk.
    let bare = address::current_query().is_empty();
    let first = StoredValue::new(true);
    // The first write waits for a task of its own, the first of the start's
    // (`later::later`): it evaluates the calculator for the first time, so
    // the app's first task (with the wasm's instantiation) stays short.
    let writer_ready = crate::page::later::later();
    Effect::new(move |_| {
        if !writer_ready.get() {
            return;
        }
        s.track();
        let was_first = first.get_value();
        first.set_value(false);
        // An unread link stays in the address, to be read on reload.
        if keep_address.get_value() {
            keep_address.set_value(false);
            return;
        }
        if was_first && bare {
            address::write_query_after_paint(DEFAULT_QUERY.to_string(), false);
            return;
        }
        // Written by the link chunk: tasks run in the order of the changes.
        leptos::task::spawn_local(link::write(s, was_first));
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
            let unread = || {
                notices.set(vec![link::unread(
                    "the page still shows the previous entry",
                )])
            };
            let Some(d) = d else {
                unread();
                return;
            };
            if link::restore(s, d.state).await {
                notices.set(d.notices);
            } else {
                unread();
            }
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
