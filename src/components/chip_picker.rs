//! The chip preset selector, grouped TPUs / GPUs.

use leptos::prelude::*;
use roofline_core::{hardware::catalogue, Family};

/// A labelled `<select>` of the preset chips, grouped by family.
#[component]
pub fn ChipPicker(
    /// The selected preset's id (`v5e`, `h100`, ...).
    chip_id: ReadSignal<String>,
    /// Called with the id of the chip the user picks.
    on_pick: WriteSignal<String>,
) -> impl IntoView {
    let chips = catalogue();
    let group = move |family: Family| {
        chips
            .iter()
            .filter(|c| c.family == family)
            .map(|c| {
                let id = c.id.clone();
                let id2 = c.id.clone();
                view! {
                    <option value=id selected=move || chip_id.get() == id2>{c.name.clone()}</option>
                }
            })
            .collect_view()
    };
    let tpus = group(Family::Tpu);
    let gpus = group(Family::Gpu);
    view! {
        <label class="field">
            <span class="field-label">"Chip"</span>
            <select
                data-testid="chip-select"
                on:change=move |ev| on_pick.set(event_target_value(&ev))
            >
                <optgroup label="TPUs">{tpus}</optgroup>
                <optgroup label="GPUs">{gpus}</optgroup>
            </select>
        </label>
    }
}
