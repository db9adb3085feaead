//! The chip: preset selector, grouped TPUs / GPUs, and every number editable.

use std::sync::Arc;

use crate::page::shown::shown;
use leptos::prelude::*;

use crate::page::choice::choice;
use crate::page::field::is_open;
use roofline_core::calc::{CalcInput, CalcView};
use roofline_core::hardware::{catalogue, preset};
use roofline_core::state::default_level2;
use roofline_core::Family;

use crate::chunks::chip::ChipFields;
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
    // The fields are the chip chunk's, built when the numbers are first
    // opened; they are re-created when the chip changes or on reset.
    let generation = RwSignal::new(0u32);
    let opened = RwSignal::new(false);
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
                    // The sparse headline's question, only where a sheet has one.
                    {why_list(explain::CHIP)}
                },
            )}
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
                {shown(
                    Memo::new(move |_| opened.get()),
                    move || view! { <ChipFields input=input epoch=epoch generation=generation /> },
                )}
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
