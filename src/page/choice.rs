//! One `<option>` of a `<select>`, the same view type for every list on the
//! page: each distinct option type is its own copy of Leptos's element code
//! in the wasm.

use leptos::prelude::*;

/// An `<option>` with `value`, showing `label`, selected while `selected`
/// is true (the lists' own memos decide it). A memo even where the value
/// is fixed: with memos everywhere, Leptos's `Signal` code is not linked.
pub fn choice(value: &str, label: &str, selected: Memo<bool>) -> impl IntoView {
    view! { <option value=value.to_string() selected=selected>{label.to_string()}</option> }
}

/// A `selected` that never changes (its list is rebuilt when it would).
pub fn fixed(selected: bool) -> Memo<bool> {
    Memo::new(move |_| selected)
}
