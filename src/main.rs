//! Roofline Lab: mounts the app. Everything else lives in [`app`] and the
//! components; every number comes from `roofline-core`.

mod app;
mod backend;
mod canvas;
mod components;
mod download;
mod link;
mod storage;

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(app::App);
}
