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
    leptos::mount::mount_to_body(app::App);
}
