//! `shown`: a view while a condition holds, in place of Leptos's `<Show>`.

use leptos::prelude::*;

/// `view()` while `when` is true, nothing otherwise. `when` is a memo, so
/// the view is built again only when the condition flips, as with `<Show>`,
/// but without the component's props, boxed children and fallback (0.6 KB
/// gzip of the first load and 1.2 KB of the quiz chunk, measured).
pub fn shown<V, F>(when: Memo<bool>, view: F) -> impl IntoView
where
    V: IntoView + 'static,
    F: Fn() -> V + Send + Sync + 'static,
{
    shown_any(when, Box::new(move || view().into_any()))
}

/// The one body behind every [`shown`]: the view is boxed and erased, so
/// Leptos compiles the conditional's rendering once, not once per view
/// type.
fn shown_any(when: Memo<bool>, view: Box<dyn Fn() -> AnyView + Send + Sync>) -> impl IntoView {
    move || when.get().then(&view)
}

/// `view()` built in a task of its own after the current one
/// ([`crate::page::later::later`]): the page's start is then several short tasks
/// rather than one long one. Flags open in the order they are made, so a
/// part made later in the tree (or inside another's view) opens later.
pub fn shown_later<V, F>(view: F) -> impl IntoView
where
    V: IntoView + 'static,
    F: Fn() -> V + Send + Sync + 'static,
{
    let ready = crate::page::later::later();
    shown(Memo::new(move |_| ready.get()), view)
}
