//! Memory levels to compare (BW1, BW2) and the chip count for the network case.

use std::sync::Arc;

use leptos::prelude::*;

use crate::page::check_list::check_list;
use crate::page::choice::{choice, fixed};
use roofline_core::calc::{CalcInput, CalcView};
use roofline_core::network::Collective;
use roofline_core::{LevelKind, RoofKey};

/// Selectors for the two bandwidths and the network case.
#[component]
pub fn LevelsPanel(
    /// The user's input; this panel edits `level1`, `level2`, `chips`, `link`.
    input: RwSignal<CalcInput>,
    /// The evaluated view (which levels and links the chip has).
    view: Memo<Arc<CalcView>>,
    /// Bumped when the whole input is replaced (a link, back / forward):
    /// text fields are then re-created with the new values.
    epoch: RwSignal<u32>,
) -> impl IntoView {
    // The lists change with the chip, not with each edit: reading them
    // through memos keeps an edit from re-creating every <option>.
    // Levels by key (`hbm`, `ici`, ...), the <select> values: memos of
    // `Vec<String>` and `Option<String>`, types the page's other lists
    // already use, rather than memo types of their own.
    let keys = |list: &[LevelKind]| list.iter().map(|k| k.key().to_string()).collect::<Vec<_>>();
    let key = |k: Option<LevelKind>| k.map(|k| k.key().to_string());
    let levels = Memo::new(move |_| view.with(|v| keys(&v.level_options)));
    let links = Memo::new(move |_| view.with(|v| keys(&v.link_options)));
    let level1 = Memo::new(move |_| view.with(|v| key(Some(v.level1))));
    // The lines after the first (drawn), and the levels that can be.
    let drawn = Memo::new(move |_| view.with(|v| keys(&v.lines()[1..])));
    let others = Memo::new(move |_| {
        view.with(|v| {
            let rest: Vec<LevelKind> = v
                .level_options
                .iter()
                .copied()
                .filter(|k| *k != v.level1)
                .collect();
            keys(&rest)
        })
    });
    // The roofs that can be added (all but the one the math runs under),
    // and those drawn, by key.
    let roof_list = Memo::new(move |_| {
        view.with(|v| {
            let main = v.analysis.as_ref().map(|a| a.roof());
            v.roof_options
                .iter()
                .filter(|r| Some(**r) != main)
                .map(|r| r.key().to_string())
                .collect::<Vec<_>>()
        })
    });
    let roofs_on = Memo::new(move |_| {
        view.with(|v| {
            v.roofs
                .iter()
                .map(|r| r.key().to_string())
                .collect::<Vec<_>>()
        })
    });
    // A line on or off: the second line and the others follow the chip's
    // order of levels (fastest first).
    let toggle = move |kind: LevelKind, on: bool| {
        let options = view.with_untracked(|v| v.level_options.clone());
        input.update(|i| {
            let mut set: Vec<LevelKind> = i
                .level2
                .into_iter()
                .chain(i.extra_lines.iter().copied())
                .filter(|k| *k != kind)
                .collect();
            if on {
                set.push(kind);
            }
            let lines: Vec<LevelKind> = options
                .into_iter()
                .filter(|k| set.contains(k) && *k != i.level1)
                .collect();
            i.level2 = lines.first().copied();
            i.extra_lines = lines.into_iter().skip(1).collect();
        })
    };
    let link = Memo::new(move |_| {
        key(input.with(|i| i.link)).or_else(|| links.with(|l| l.first().cloned()))
    });
    // Two memos of types the page already has, rather than one of a pair.
    let shards = Memo::new(move |_| view.with(|v| v.shard_options.clone()));
    let shard = Memo::new(move |_| view.with(|v| v.shard.clone().unwrap_or_default()));
    let collective = Memo::new(move |_| input.with(|i| i.collective.key().to_string()));
    // What the chip calls a level: its main memory by its own name (GDDR6X).
    let level_name = move |k: &str| match LevelKind::from_key(k) {
        Some(LevelKind::Hbm) => view.with_untracked(|v| v.memory_name).to_string(),
        Some(kind) => kind.name().to_string(),
        None => String::new(),
    };
    let options = move |list: Memo<Vec<String>>, selected: Option<String>| {
        list.get()
            .into_iter()
            .map(|k| {
                let name = level_name(&k);
                choice(&k, &name, fixed(selected.as_ref() == Some(&k)))
            })
            .collect_view()
    };
    view! {
        <fieldset class="group">
            <legend>"Memory and network"</legend>
            <label class="field">
                <span class="field-label">"Bandwidth 1 (results)"</span>
                <select
                    data-testid="level1-select"
                    prop:value=move || level1.get().unwrap_or_default()
                    on:change=move |ev| {
                        if let Some(k) = LevelKind::from_key(&event_target_value(&ev)) {
                            input.update(|i| i.level1 = k)
                        }
                    }
                >
                    {move || options(levels, level1.get())}
                </select>
            </label>
            <fieldset class="lines" data-testid="lines">
                <legend class="field-label">"More lines on the chart"</legend>
                {check_list("line", others, drawn, Callback::new(move |k: String| level_name(&k)), Callback::new(move |(k, on): (String, bool)| {
                    if let Some(kind) = LevelKind::from_key(&k) {
                        toggle(kind, on);
                    }
                }))}
                <span class="field-note">"Results use the first level; each line has its own bend."</span>
            </fieldset>
            <fieldset class="lines" data-testid="roofs">
                <legend class="field-label">"More roofs on the chart"</legend>
                {check_list("roof", roof_list, roofs_on, Callback::new(|k: String| RoofKey::from_key(&k).map(RoofKey::name).unwrap_or_default()), Callback::new(move |(k, on): (String, bool)| {
                    let Some(r) = RoofKey::from_key(&k) else {
                        return;
                    };
                    // In the chip's order of roofs, without sorting.
                    let options = view.with_untracked(|v| v.roof_options.clone());
                    input.update(|i| {
                        let keep = |x: &RoofKey| if *x == r { on } else { i.roofs.contains(x) };
                        i.roofs = options.iter().copied().filter(keep).collect();
                    });
                }))}
                <span class="field-note">"Dashed; the operation stays under the roof it runs at."</span>
            </fieldset>
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
                    prop:value=move || link.get().unwrap_or_default()
                    on:change=move |ev| {
                        let k = LevelKind::from_key(&event_target_value(&ev));
                        input.update(|i| i.link = k)
                    }
                >
                    {move || options(links, link.get())}
                </select>
            </label>
            <label class="field">
                <span class="field-label">"Dimension split over the chips"</span>
                <select
                    data-testid="shard-select"
                    prop:value=move || shard.get()
                    on:change=move |ev| {
                        let d = event_target_value(&ev);
                        input.update(|i| i.shard = Some(d))
                    }
                >
                    {move || {
                        let (opts, sel) = (shards.get(), shard.get());
                        opts.into_iter()
                            .map(|d| {
                                choice(&d, &d, fixed(sel == d))
                            })
                            .collect_view()
                    }}
                </select>
            </label>
            <label class="field">
                <span class="field-label">"How the partial results are summed"</span>
                <select
                    data-testid="collective-select"
                    prop:value=move || collective.get()
                    on:change=move |ev| {
                        let c = Collective::from_key(&event_target_value(&ev)).unwrap_or_default();
                        input.update(|i| i.collective = c)
                    }
                >
                    {move || {
                        let sel = collective.get();
                        Collective::ALL
                            .into_iter()
                            .map(|c| choice(c.key(), c.name(), fixed(sel == c.key())))
                            .collect_view()
                    }}
                </select>
            </label>
        </fieldset>
    }
}
