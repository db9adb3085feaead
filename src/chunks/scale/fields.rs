//! The Scale page's inputs: a text field per key of its state, read by
//! `roofline_core::scale::set_field` (which says why a text cannot be
//! used), and its choices.

use std::sync::Arc;

use leptos::prelude::*;
use roofline_core::scale::{field_text, set_field, CollOp, ScaleState, ScaleView, Strategy};

use crate::page::choice::{choice, fixed};
use crate::page::field::TextField;

/// Each field's own error (a text that cannot be read), by key.
pub(crate) type Typed = RwSignal<Vec<(&'static str, String)>>;

/// A text field for the state's key `key`, labelled `label`, with `note`
/// under it; its error is the typed text's or the view's for that key.
/// Re-created (with the state's text) when `epoch` changes.
pub(crate) fn field(
    scale: RwSignal<ScaleState>,
    view: Memo<Arc<ScaleView>>,
    typed: Typed,
    epoch: RwSignal<u32>,
    key: &'static str,
    label: &'static str,
    note: &'static str,
) -> impl IntoView {
    let error = Memo::new(move |_| {
        typed
            .with(|t| t.iter().find(|(k, _)| *k == key).map(|(_, e)| e.clone()))
            .or_else(|| view.with(|v| v.error(key).map(str::to_string)))
    });
    let on_input = Callback::new(move |t: String| {
        let mut next = scale.get_untracked();
        let result = set_field(&mut next, key, &t);
        typed.update(|all| {
            all.retain(|(k, _)| *k != key);
            if let Err(e) = &result {
                all.push((key, e.clone()));
            }
        });
        if result.is_ok() {
            scale.set(next);
        }
    });
    move || {
        let _ = epoch.get();
        let initial = scale.with_untracked(|s| field_text(s, key));
        view! {
            <TextField
                id=format!("scale-{key}")
                label=label.to_string()
                initial=initial
                note=Memo::new(move |_| note.to_string())
                error=error
                on_input=on_input
            />
        }
    }
}

/// A `<select>` for the state's key `key` with `(value, label)` options.
pub(crate) fn select(
    scale: RwSignal<ScaleState>,
    key: &'static str,
    label: &'static str,
    options: Vec<(&'static str, String)>,
) -> impl IntoView {
    let current = Memo::new(move |_| scale.with(|s| field_text(s, key)));
    view! {
        <label class="field">
            <span class="field-label">{label}</span>
            <select
                data-testid=format!("field-scale-{key}")
                prop:value=move || current.get()
                on:change=move |ev| {
                    let t = event_target_value(&ev);
                    scale.update(|s| {
                        let _ = set_field(s, key, &t);
                    });
                }
            >
                {options
                    .into_iter()
                    .map(|(v, l)| {
                        let now = scale.with_untracked(|s| field_text(s, key)) == v;
                        choice(v, &l, fixed(now))
                    })
                    .collect_view()}
            </select>
        </label>
    }
}

/// The collectives, for their choice.
pub(crate) fn collectives() -> Vec<(&'static str, String)> {
    CollOp::ALL
        .iter()
        .map(|c| (c.key(), c.name().to_string()))
        .collect()
}

/// The strategies, for their choice.
pub(crate) fn strategies() -> Vec<(&'static str, String)> {
    Strategy::ALL
        .iter()
        .map(|s| (s.key(), s.name().to_string()))
        .collect()
}
