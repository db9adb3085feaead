//! Memory levels to compare (BW1, BW2) and the chip count for the network case.

use leptos::prelude::*;
use roofline_core::calc::{CalcInput, CalcView};
use roofline_core::LevelKind;

/// Selectors for the two bandwidths and the network case.
#[component]
pub fn LevelsPanel(
    /// The user's input; this panel edits `level1`, `level2`, `chips`, `link`.
    input: RwSignal<CalcInput>,
    /// The evaluated view (which levels and links the chip has).
    view: Memo<CalcView>,
    /// Bumped when the whole input is replaced (a link, back / forward):
    /// text fields are then re-created with the new values.
    epoch: RwSignal<u32>,
) -> impl IntoView {
    let options = move |selected: Option<LevelKind>, only_network: bool| {
        view.with(|v| {
            if only_network {
                v.link_options.clone()
            } else {
                v.level_options.clone()
            }
        })
        .into_iter()
        .map(|k| view! { <option value=k.key() selected=selected == Some(k)>{k.name()}</option> })
        .collect_view()
    };
    view! {
        <fieldset class="group">
            <legend>"Memory and network"</legend>
            <label class="field">
                <span class="field-label">"Bandwidth 1 (results)"</span>
                <select
                    data-testid="level1-select"
                    prop:value=move || view.with(|v| v.level1.key())
                    on:change=move |ev| {
                        if let Some(k) = LevelKind::from_key(&event_target_value(&ev)) {
                            input.update(|i| i.level1 = k)
                        }
                    }
                >
                    {move || options(Some(view.with(|v| v.level1)), false)}
                </select>
            </label>
            <label class="field">
                <span class="field-label">"Bandwidth 2 (chart only)"</span>
                <select
                    data-testid="level2-select"
                    prop:value=move || view.with(|v| v.level2.map_or("none", |l| l.key()))
                    on:change=move |ev| {
                        let k = LevelKind::from_key(&event_target_value(&ev));
                        input.update(|i| i.level2 = k)
                    }
                >
                    <option value="none" selected=move || view.with(|v| v.level2.is_none())>"none"</option>
                    {move || options(view.with(|v| v.level2), false)}
                </select>
            </label>
            <label class="field">
                <span class="field-label">"Chips sharing the summed dimension"</span>
                {move || {
                    let _ = epoch.get();
                    let initial = input.with_untracked(|i| i.chips.clone());
                    view! {
                        <input
                            type="text"
                            inputmode="numeric"
                            data-testid="field-chips"
                            prop:value=initial
                            aria-describedby="chips-error"
                            on:input=move |ev| {
                                let t = event_target_value(&ev);
                                input.update(|i| i.chips = t)
                            }
                        />
                    }
                }}
                <span class="field-note">"1 = one chip. 2 or more adds the network roofline."</span>
                <span class="field-error" id="chips-error" role="status" data-testid="error-chips">
                    {move || view.with(|v| v.chips_error.clone().unwrap_or_default())}
                </span>
            </label>
            <label class="field">
                <span class="field-label">"Link between chips"</span>
                <select
                    data-testid="link-select"
                    prop:value=move || {
                        input
                            .with(|i| i.link)
                            .or_else(|| view.with(|v| v.link_options.first().copied()))
                            .map_or("", |l| l.key())
                    }
                    on:change=move |ev| {
                        let k = LevelKind::from_key(&event_target_value(&ev));
                        input.update(|i| i.link = k)
                    }
                >
                    {move || {
                        let sel = input.with(|i| i.link).or_else(|| view.with(|v| v.link_options.first().copied()));
                        options(sel, true)
                    }}
                </select>
            </label>
            <label class="field">
                <span class="field-label">"Dimension split over the chips"</span>
                <select
                    data-testid="shard-select"
                    prop:value=move || view.with(|v| v.shard.clone().unwrap_or_default())
                    on:change=move |ev| {
                        let d = event_target_value(&ev);
                        input.update(|i| i.shard = Some(d))
                    }
                >
                    {move || {
                        let (opts, sel) = view.with(|v| (v.shard_options.clone(), v.shard.clone()));
                        opts.into_iter()
                            .map(|d| {
                                let selected = sel.as_deref() == Some(d.as_str());
                                view! { <option value=d.clone() selected=selected>{d.clone()}</option> }
                            })
                            .collect_view()
                    }}
                </select>
            </label>
        </fieldset>
    }
}
