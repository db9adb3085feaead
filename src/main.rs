//! Roofline Lab: mounts the app. What the first load holds is in [`page`];
//! each wasm chunk, fetched when first needed, is a folder of [`chunks`].
//! Every number comes from `roofline-core`.

mod chunks;
mod page;

use roofline_core::pages::View;
use wasm_bindgen::JsCast;

/// The heap: a TLSF allocator (rlsf), with constant-time allocation and
/// freeing, whose code is about 1.5 KB gzip smaller than std's dlmalloc.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static HEAP: rlsf::GlobalTlsf = rlsf::GlobalTlsf::new();

fn main() {
    console_error_panic_hook::set_once();
    // Decimal text is read by the browser (see roofline_core::num): before
    // anything is parsed, the link first of all.
    roofline_core::num::set_host_parser(js_sys::parse_float);
    // The page is made in a task after the one that finished compiling and
    // instantiating the wasm, so that neither task is long (a `fn()`:
    // `set_timeout`'s code for it is shared with the rest of the app).
    leptos::prelude::set_timeout(start as fn(), std::time::Duration::ZERO);
}

/// Reads the address and mounts the page.
fn start() {
    // The address is the state. Reading a link takes the link chunk (see
    // src/chunks/link/mod.rs); the page mounts once it is read.
    let query = page::address::current_query();
    wasm_bindgen_futures::spawn_local(async move {
        let start = chunks::link::read(query).await;
        // The page's "Loading…" line (index.html) goes as the page comes, in
        // the same task, so no frame shows both or neither.
        let document = leptos::prelude::document();
        if let Some(boot) = document.get_element_by_id("boot") {
            boot.remove();
        }
        // The prerendered page is the calculator's: another page replaces
        // it at once, the calculator once its chart is drawn.
        let calculator = start
            .as_ref()
            .is_none_or(|d| d.state.view == View::Calculator);
        if !calculator {
            page::prerender::reveal();
        }
        // The app is built in #app (index.html), beside the prerendered page.
        let root = document
            .get_element_by_id("app")
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
            .unwrap_or_else(leptos::tachys::dom::body);
        leptos::mount::mount_to(root, move || page::app::App(page::app::AppProps { start }))
            .forget();
    });
}
