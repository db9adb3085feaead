//! Pieces shared by the floor's apps.

use leptos::prelude::*;

/// The app's heap: rlsf's TLSF allocator, reallocation off (src/main.rs).
#[global_allocator]
static HEAP: rlsf::GlobalTlsf<HeapOptions> = rlsf::GlobalTlsf::new();

/// As the app's.
struct HeapOptions;

impl rlsf::GlobalTlsfOptions for HeapOptions {
    const ENABLE_REALLOCATION: bool = false;
}

/// A number read from text as the app reads it in the browser (the
/// browser's `parseFloat`, see roofline_core::num), formatted with three
/// decimals, with a message when it is not a number.
pub fn shown(text: &str) -> String {
    let x = js_sys::parse_float(text.trim());
    if x.is_finite() {
        format!("{x:.3}")
    } else {
        "not a number".to_string()
    }
}

/// A text field bound to `text`.
pub fn field(text: RwSignal<String>) -> impl IntoView {
    view! {
        <input
            aria-label="number"
            prop:value=move || text.get()
            on:input=move |ev| text.set(event_target_value(&ev))
        />
    }
}
