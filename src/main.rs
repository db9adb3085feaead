//! Roofline Lab: mounts the app. Everything else lives in [`app`] and the
//! components; every number comes from `roofline-core`.

mod app;
mod backend;
mod canvas;
mod components;
mod download;
mod link;
mod storage;
mod svg_export;

fn main() {
    console_error_panic_hook::set_once();
    // Decimal text is read by the browser (see roofline_core::num): before
    // anything is parsed, the link first of all.
    roofline_core::num::set_host_parser(js_sys::parse_float);
    // The address is the state. Reading a link takes the link chunk (see
    // link.rs); the page mounts once it is read.
    let query = link::current_query();
    wasm_bindgen_futures::spawn_local(async move {
        let start = link::read(query).await;
        leptos::mount::mount_to_body(move || app::App(app::AppProps { start }));
    });
}
