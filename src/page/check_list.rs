//! A wrapping row of checkboxes, one per item of a list that changes with
//! the chip: the chart's extra lines and roofs (levels_panel.rs). One copy
//! of the code serves both lists.

use leptos::prelude::*;

/// One checkbox per key of `items`, labelled `label(key)`, checked when
/// `on` holds the key, with test id `{prefix}-{key}`; a change calls
/// `toggle` with the key and whether it is now checked.
pub fn check_list(
    prefix: &'static str,
    items: Memo<Vec<String>>,
    on: Memo<Vec<String>>,
    label: Callback<String, String>,
    toggle: Callback<(String, bool)>,
) -> impl IntoView {
    move || {
        items
            .get()
            .into_iter()
            .map(|k| {
                let text = format!(" {}", label.run(k.clone()));
                let (key, changed) = (k.clone(), k.clone());
                view! {
                    <label class="check">
                        <input
                            type="checkbox"
                            data-testid=format!("{prefix}-{k}")
                            prop:checked=move || on.with(|d| d.contains(&key))
                            on:change=move |ev| toggle.run((changed.clone(), event_target_checked(&ev)))
                        />
                        {text}
                    </label>
                }
            })
            .collect_view()
    }
}
