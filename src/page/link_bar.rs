//! The "Copy link" button and the notices about a link that could not be
//! read in full.

use crate::page::shown::shown;
use leptos::prelude::*;
use leptos::task::spawn_local;
use roofline_core::url::Notice;

use crate::page::address;

/// A bar with "Copy link" (and its confirmation), and the list of notices
/// from the link the page was opened with, each naming its parameter.
#[component]
pub fn LinkBar(
    /// Notices from decoding the address; dismissible.
    notices: RwSignal<Vec<Notice>>,
) -> impl IntoView {
    let status = RwSignal::new(String::new());
    // The address as written: a change's link is written as soon as the
    // link chunk is in, which the first change downloads.
    let copy = move |_| {
        address::flush();
        let href = address::current_href();
        spawn_local(async move {
            match address::copy(&href).await {
                Ok(()) => status.set("Link copied.".to_string()),
                Err(e) => status.set(format!(
                    "Could not copy ({e}); copy the address bar instead."
                )),
            }
        });
    };
    view! {
        <div class="link-bar">
            <button type="button" data-testid="copy-link" on:click=copy>"Copy link"</button>
            <span class="copy-status" role="status" data-testid="copy-status">{status}</span>
        </div>
        {shown(
            Memo::new(move |_| notices.with(|n| !n.is_empty())),
            move || view! {
            <section class="notices" role="alert" data-testid="link-notices" aria-label="Problems with the link">
                <p>"This link had values that could not be used:"</p>
                <ul>
                    {move || {
                        notices
                            .get()
                            .into_iter()
                            .map(|n| view! { <li data-param=n.param.clone()>{n.message}</li> })
                            .collect_view()
                    }}
                </ul>
                <button type="button" class="secondary small" on:click=move |_| notices.set(Vec::new())>
                    "Dismiss"
                </button>
            </section>
            },
        )}
    }
}
