//! One `<option>` of a `<select>`, the same view type for every list on the
//! page: each distinct option type is its own copy of Leptos's element code
//! in the wasm.

use leptos::prelude::*;

/// An `<option>` with `value`, showing `label`, selected while `selected`
/// is true (the lists' own memos decide it).
pub fn choice(value: &str, label: &str, selected: Signal<bool>) -> impl IntoView {
    view! { <option value=value.to_string() selected=selected>{label.to_string()}</option> }
}
