//! A labelled text input with its note and error message.

use leptos::prelude::*;

/// A text input that reports each keystroke, shows `note` under it and
/// `error` (if any) next to it. The input keeps what the user typed: its
/// value is only set when the component is created.
#[component]
pub fn TextField(
    /// Stable id; also the input's `data-testid` as `field-ID`.
    id: String,
    /// Visible label.
    label: String,
    /// Initial text.
    initial: String,
    /// A line under the field (unit or source).
    note: Memo<String>,
    /// The current error, if any.
    error: Memo<Option<String>>,
    /// Called with the text after every keystroke.
    on_input: Callback<String>,
) -> impl IntoView {
    let err_id = format!("{id}-error");
    let err_id2 = err_id.clone();
    view! {
        <label class="field">
            <span class="field-label">{label}</span>
            <input
                type="text"
                inputmode="decimal"
                spellcheck="false"
                autocomplete="off"
                data-testid=format!("field-{id}")
                prop:value=initial
                aria-invalid=move || if error.with(Option::is_some) { "true" } else { "false" }
                aria-describedby=err_id2
                on:input=move |ev| on_input.run(event_target_value(&ev))
            />
            <span class="field-note">{move || note.get()}</span>
            <span class="field-error" id=err_id role="status" data-testid=format!("error-{id}")>
                {move || error.get().unwrap_or_default()}
            </span>
        </label>
    }
}

/// Whether the `<details>` a toggle event came from is now open.
pub fn is_open(ev: &leptos::ev::Event) -> bool {
    use wasm_bindgen::JsCast;
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok())
        .is_some_and(|d| d.open())
}
