//! The chip: preset selector, grouped TPUs / GPUs, and every number editable.

use std::sync::Arc;

use crate::page::shown::shown;
use leptos::prelude::*;

use crate::page::choice::choice;
use crate::page::field::is_open;
use roofline_core::calc::{CalcInput, CalcView};
use roofline_core::hardware::{catalogue, preset};
use roofline_core::state::default_level2;
use roofline_core::{DType, Family, LevelKind};

use crate::page::field::TextField;
use crate::page::why::why_list;
use roofline_core::explain;

/// Chip selector plus an expandable list of the chip's peaks and bandwidths,
/// each editable (which makes it a custom chip) and each with its source.
#[component]
pub fn ChipPanel(
    /// The user's input; this panel edits `chip`, `peak_edits`, `bw_edits`.
    input: RwSignal<CalcInput>,
    /// The evaluated view (fields, errors, sources).
    view: Memo<Arc<CalcView>>,
    /// Bumped when the whole input is replaced (a link, back / forward):
    /// text fields are then re-created with the new values.
    epoch: RwSignal<u32>,
) -> impl IntoView {
    let chips = catalogue();
    let chip_id = Memo::new(move |_| input.with(|i| i.chip.clone()));
    let options = move |family: Family| {
        chips
            .iter()
            .filter(|c| c.family == family)
            .map(|c| {
                let id = c.id.clone();
                let selected = Memo::new(move |_| chip_id.with(|c| *c == id));
                choice(&c.id, &c.name, selected)
            })
            .collect_view()
    };
    let tpus = options(Family::Tpu);
    let gpus = options(Family::Gpu);
    let others = options(Family::Other);
    // Fields are re-created when the chip changes or on reset, so their text
    // resets; typing only updates the error and note signals. They are
    // built when the numbers are first opened: closed, they are not seen,
    // and the start builds less.
    let generation = RwSignal::new(0u32);
    let opened = RwSignal::new(false);
    let fields = move || {
        let _chip = chip_id.get();
        let _ = generation.get();
        let _ = epoch.get();
        if !opened.get() {
            return Vec::new();
        }
        let initial = view.with_untracked(|v| v.chip_fields.clone());
        initial
            .into_iter()
            .map(|f| {
                let id = f.id.clone();
                let id_note = id.clone();
                let id_err = id.clone();
                let note = Memo::new(move |_| {
                    view.with(|v| {
                        v.chip_fields
                            .iter()
                            .find(|x| x.id == id_note)
                            .map(|x| x.note.clone())
                            .unwrap_or_default()
                    })
                });
                let error = Memo::new(move |_| {
                    view.with(|v| {
                        v.chip_fields
                            .iter()
                            .find(|x| x.id == id_err)
                            .and_then(|x| x.error.clone())
                    })
                });
                let on_input = Callback::new(move |text: String| {
                    input.update(|i| {
                        if id == "peak-vector" {
                            i.vector_edit = Some(text);
                        } else if let Some(d) = id.strip_prefix("peak-").and_then(|d| d.parse::<DType>().ok()) {
                            i.peak_edits.insert(d, text);
                        } else if let Some(l) = id.strip_prefix("bw-").and_then(LevelKind::from_key) {
                            i.bw_edits.insert(l, text);
                        }
                    })
                });
                view! {
                    <TextField id=f.id.clone() label=f.label.clone() initial=f.text.clone() note=note error=error on_input=on_input />
                }
            })
            .collect_view()
    };
    let edited = Memo::new(move |_| {
        input
            .with(|i| !i.peak_edits.is_empty() || !i.bw_edits.is_empty() || i.vector_edit.is_some())
    });
    view! {
        <fieldset class="group">
            <legend>"Chip"</legend>
            <label class="field">
                <span class="field-label">"Preset"</span>
                <select
                    data-testid="chip-select"
                    prop:value=move || chip_id.get()
                    on:change=move |ev| {
                        let id = event_target_value(&ev);
                        input.update(|i| {
                            i.level2 = preset(&id).and_then(|c| default_level2(&c, i.level1));
                            i.chip = id;
                            i.peak_edits.clear();
                            i.vector_edit = None;
                            i.bw_edits.clear();
                        })
                    }
                >
                    <optgroup label="TPUs">{tpus}</optgroup>
                    <optgroup label="GPUs">{gpus}</optgroup>
                    <optgroup label="Other accelerators">{others}</optgroup>
                </select>
            </label>
            {shown(
                Memo::new(move |_| view.with(|v| v.peak_note.is_some())),
                move || view! {
                    <p class="field-note" data-testid="peak-note">
                        {move || view.with(|v| v.peak_note.clone().unwrap_or_default())}
                    </p>
                },
            )}
            {why_list(explain::CHIP)}
            <details
                class="chip-numbers"
                on:toggle=move |ev| {
                    if is_open(&ev) {
                        opened.set(true);
                    }
                }
            >
                <summary>
                    "Edit the chip’s numbers"
                    {shown(edited, || " (edited: a custom chip)")}
                </summary>
                <div class="fields">{fields}</div>
                <button
                    type="button"
                    class="secondary"
                    on:click=move |_| {
                        input.update(|i| {
                            i.peak_edits.clear();
                            i.vector_edit = None;
                            i.bw_edits.clear();
                        });
                        generation.update(|g| *g += 1);
                    }
                >
                    "Reset to the preset"
                </button>
            </details>
        </fieldset>
    }
}
