//! Roofline Lab: mounts the app. What the first load holds is in [`page`];
//! each wasm chunk, fetched when first needed, is a folder of [`chunks`].
//! Every number comes from `roofline-core`.

mod chunks;
mod page;

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
        if let Some(boot) = leptos::prelude::document().get_element_by_id("boot") {
            boot.remove();
        }
        leptos::mount::mount_to_body(move || page::app::App(page::app::AppProps { start }));
    });
}
