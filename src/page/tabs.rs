//! The tab bar: a button per row of the page table, in its order.

use leptos::prelude::*;
use roofline_core::pages::{View, PAGES};

use crate::page::pages::app_page;

/// The tabs; the open page's is pressed.
#[component]
pub fn Tabs(
    /// Which page is open (a tab's click sets it).
    page: RwSignal<View>,
) -> impl IntoView {
    let tabs = PAGES
        .iter()
        .map(|p| {
            let v = p.view;
            let prefetch = app_page(v).prefetch;
            view! {
                <button
                    type="button"
                    data-testid=p.testid
                    aria-pressed=move || if page.get() == v { "true" } else { "false" }
                    on:click=move |_| page.set(v)
                    on:pointerenter=move |_| prefetch()
                    on:pointerdown=move |_| prefetch()
                    on:focus=move |_| prefetch()
                >
                    {p.label}
                </button>
            }
        })
        .collect_view();
    view! { <nav class="tabs" aria-label="Mode">{tabs}</nav> }
}
