//! The hand-over from the page written at build time (`#pre` in
//! index.html, made by `crates/roofline-prerender`) to the app, which is
//! built beside it out of sight (`#app`, style/prerender.css).

/// Removes the prerendered page, which shows the app in its place in the
/// same frame. The app calls it once its first chart is drawn (or has
/// failed to draw), and at once when it opens on a page that has no
/// prerendered form; later calls find nothing to remove.
pub fn reveal() {
    if let Some(pre) = leptos::prelude::document().get_element_by_id("pre") {
        pre.remove();
    }
}
