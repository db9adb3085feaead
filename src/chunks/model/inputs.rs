//! The Model page's inputs: the model (a preset, or every number of a
//! custom one); the chip and the chips (the calculator's), the fractions of
//! the peaks reached and whether the link overlaps the step; the step, the
//! batch and context; the data types.

use std::sync::Arc;

use leptos::prelude::*;
use roofline_core::calc::{CalcInput, CalcView};
use roofline_core::hardware::{catalogue, preset as chip_preset};
use roofline_core::model::{
    custom_value, preset, ModelInput, ModelView, Phase, CUSTOM_FIELDS, PRESETS,
};
use roofline_core::state::default_level2;
use roofline_core::DType;

use crate::page::choice::{choice, fixed};
use crate::page::field::TextField;
use crate::page::shown::shown;

/// A text field of the page: its text starts from `initial`, its error and
/// note follow the view's field `id`; typing calls `set`.
fn field(
    id: &'static str,
    label: String,
    initial: String,
    v: Memo<Arc<ModelView>>,
    set: impl Fn(String) + Send + Sync + 'static,
) -> impl IntoView {
    let part = move |f: fn(&roofline_core::calc::Field) -> Option<String>| {
        Memo::new(move |_| v.with(|v| v.fields.iter().find(|x| x.id == id).and_then(f)))
    };
    let error = part(|f| f.error.clone());
    let note = part(|f| Some(f.note.clone()));
    let note = Memo::new(move |_| note.get().unwrap_or_default());
    view! {
        <TextField id=id.to_string() label=label initial=initial note=note error=error on_input=Callback::new(set) />
    }
}

/// A `<select>` of data types writing `set`.
fn dtype_select(
    testid: &'static str,
    label: &'static str,
    current: Memo<String>,
    set: fn(&mut ModelInput, DType),
    minput: RwSignal<ModelInput>,
) -> impl IntoView {
    view! {
        <label class="field">
            <span class="field-label">{label}</span>
            <select
                data-testid=testid
                prop:value=move || current.get()
                on:change=move |ev| {
                    if let Ok(d) = event_target_value(&ev).parse::<DType>() {
                        minput.update(|i| set(i, d));
                    }
                }
            >
                {move || {
                    let c = current.get();
                    DType::ALL
                        .into_iter()
                        .map(|d| choice(d.name(), d.name(), fixed(c == d.name())))
                        .collect_view()
                }}
            </select>
        </label>
    }
}

/// The inputs' groups.
pub fn inputs(
    minput: RwSignal<ModelInput>,
    v: Memo<Arc<ModelView>>,
    input: RwSignal<CalcInput>,
    view: Memo<Arc<CalcView>>,
    epoch: RwSignal<u32>,
) -> impl IntoView {
    let model = Memo::new(move |_| minput.with(|i| i.model.clone()));
    let custom = Memo::new(move |_| model.with(|m| m == "custom"));
    // Re-created when the model changes to custom or the state is replaced.
    let custom_fields = move || {
        let _ = epoch.get();
        let _ = custom.get();
        CUSTOM_FIELDS
            .iter()
            .map(|(key, label)| {
                let key: &'static str = key;
                let initial = minput.with_untracked(|i| {
                    i.custom
                        .iter()
                        .find(|(k, _)| *k == key)
                        .map(|(_, t)| t.clone())
                        .unwrap_or_default()
                });
                let id: &'static str = match key {
                    "layers" => "m-layers",
                    "d" => "m-d",
                    "ff" => "m-ff",
                    "heads" => "m-heads",
                    "kvheads" => "m-kvheads",
                    "headdim" => "m-headdim",
                    "vocab" => "m-vocab",
                    "experts" => "m-experts",
                    _ => "m-active",
                };
                field(id, label.to_string(), initial, v, move |t| {
                    minput.update(|i| {
                        if let Some(slot) = i.custom.iter_mut().find(|(k, _)| *k == key) {
                            slot.1 = t;
                        }
                    })
                })
            })
            .collect_view()
    };
    let check = move |testid: &'static str,
                      label: &'static str,
                      get: fn(&ModelInput) -> bool,
                      set: fn(&mut ModelInput, bool)| {
        view! {
            <label class="check">
                <input type="checkbox" data-testid=testid
                    prop:checked=move || minput.with(get)
                    on:change=move |ev| { let on = event_target_checked(&ev); minput.update(|i| set(i, on)) } />
                {format!(" {label}")}
            </label>
        }
    };
    let preset_note = move || {
        v.with(|v| match v.preset {
            Some(p) => format!(
                "{}: {} parameters by its publisher. Numbers from {}.",
                p.name, p.published, p.source
            ),
            None => "Your own model: every number below is yours.".to_string(),
        })
    };
    let simple = move |id: &'static str,
                       label: &'static str,
                       get: fn(&ModelInput) -> String,
                       set: fn(&mut ModelInput, String)| {
        move || {
            let _ = epoch.get();
            field(
                id,
                label.to_string(),
                minput.with_untracked(get),
                v,
                move |t| minput.update(|i| set(i, t)),
            )
        }
    };
    let dt =
        |f: fn(&ModelInput) -> DType| Memo::new(move |_| minput.with(|i| f(i).name().to_string()));
    let math = Memo::new(move |_| minput.with(|i| i.math.map_or("auto", DType::name).to_string()));
    let phase = Memo::new(move |_| minput.with(|i| i.phase.key().to_string()));
    // The chip and the chip count: the calculator's, shared.
    let chip_id = Memo::new(move |_| input.with(|i| i.chip.clone()));
    let chips_field = move || {
        let _ = epoch.get();
        let initial = input.with_untracked(|i| i.chips.clone());
        let error = Memo::new(move |_| view.with(|v| v.chips_error.clone()));
        view! {
            <TextField
                id="model-chips".to_string()
                label="Chips n serving the model".to_string()
                initial=initial
                note=Memo::new(|_| "The weights and the KV cache are split over them; shared with the calculator’s chip count.".to_string())
                error=error
                on_input=Callback::new(move |t: String| input.update(|i| i.chips = t))
            />
        }
    };
    view! {
        <fieldset class="group">
            <legend>"Model"</legend>
            <label class="field">
                <span class="field-label">"Preset"</span>
                <select
                    data-testid="model-select"
                    prop:value=move || model.get()
                    on:change=move |ev| {
                        let id = event_target_value(&ev);
                        minput.update(|i| {
                            // Custom starts from the model shown.
                            if id == "custom" {
                                if let Some(p) = preset(&i.model) {
                                    i.custom = CUSTOM_FIELDS
                                        .iter()
                                        .map(|(k, _)| (*k, roofline_core::num::shortest(custom_value(&p.config, k))))
                                        .collect();
                                    i.tied = p.config.tied;
                                    i.gated = p.config.gated;
                                }
                            }
                            i.model = id;
                        })
                    }
                >
                    {PRESETS
                        .iter()
                        .map(|p| choice(p.id, p.name, Memo::new(move |_| model.with(|m| m == p.id))))
                        .collect_view()}
                    {choice("custom", "Custom (type every number)", Memo::new(move |_| custom.get()))}
                </select>
                <span class="field-note" data-testid="model-source">{preset_note}</span>
            </label>
            {shown(custom, move || view! {
                <div class="sizes">{custom_fields}</div>
                {check("m-tied", "Tied embeddings (one D×V matrix)", |i| i.tied, |i, on| i.tied = on)}
                {check("m-gated", "Gated MLP (SwiGLU: three D×F matrices)", |i| i.gated, |i, on| i.gated = on)}
            })}
        </fieldset>
        <fieldset class="group">
            <legend>"Chips"</legend>
            <label class="field">
                <span class="field-label">"Chip (the calculator’s)"</span>
                <select
                    data-testid="model-chip"
                    prop:value=move || chip_id.get()
                    on:change=move |ev| {
                        let id = event_target_value(&ev);
                        input.update(|i| {
                            i.level2 = chip_preset(&id).and_then(|c| default_level2(&c, i.level1));
                            i.chip = id;
                            i.peak_edits.clear();
                            i.vector_edit = None;
                            i.bw_edits.clear();
                        })
                    }
                >
                    {catalogue()
                        .iter()
                        .map(|c| {
                            let id = c.id.clone();
                            choice(&c.id, &c.name, Memo::new(move |_| chip_id.with(|x| *x == id)))
                        })
                        .collect_view()}
                </select>
            </label>
            {chips_field}
            {simple("model-eff-flops", "Fraction of peak FLOP/s reached", |i| i.eff_flops.clone(), |i, t| i.eff_flops = t)}
            {simple("model-eff-bw", "Fraction of bandwidth reached", |i| i.eff_bw.clone(), |i, t| i.eff_bw = t)}
            {check("model-overlap", "The link overlaps the step (the book's view); untick: comms not overlapped", |i| i.overlap, |i, on| i.overlap = on)}
        </fieldset>
        <fieldset class="group">
            <legend>"The step"</legend>
            <label class="field">
                <span class="field-label">"Phase"</span>
                <select
                    data-testid="model-phase"
                    prop:value=move || phase.get()
                    on:change=move |ev| {
                        let p = Phase::from_key(&event_target_value(&ev)).unwrap_or_default();
                        minput.update(|i| i.phase = p)
                    }
                >
                    {choice("decode", "Decode: one new token per sequence", Memo::new(move |_| phase.with(|p| p == "decode")))}
                    {choice("prefill", "Prefill: read the prompt", Memo::new(move |_| phase.with(|p| p == "prefill")))}
                </select>
            </label>
            {simple("model-b", "Batch B (sequences)", |i| i.batch.clone(), |i, t| i.batch = t)}
            {simple("model-ctx", "Context S (tokens in the cache)", |i| i.context.clone(), |i, t| i.context = t)}
            {simple("model-prompt", "Prompt T (tokens, prefill)", |i| i.prompt.clone(), |i, t| i.prompt = t)}
        </fieldset>
        <fieldset class="group">
            <legend>"Data types"</legend>
            {dtype_select("model-w", "Weights", dt(|i| i.weights), |i, d| i.weights = d, minput)}
            {dtype_select("model-kv", "KV cache", dt(|i| i.kv), |i, d| i.kv = d, minput)}
            {dtype_select("model-act", "Activations", dt(|i| i.act), |i, d| i.act = d, minput)}
            <label class="field">
                <span class="field-label">"The matmuls run at"</span>
                <select
                    data-testid="model-math"
                    prop:value=move || math.get()
                    on:change=move |ev| {
                        let d = event_target_value(&ev).parse::<DType>().ok();
                        minput.update(|i| i.math = d)
                    }
                >
                    {choice("auto", "auto: the wider of each one's two inputs", Memo::new(move |_| math.with(|m| m == "auto")))}
                    {DType::ALL.into_iter().map(|d| choice(d.name(), d.name(), Memo::new(move |_| math.with(|m| m == d.name())))).collect_view()}
                </select>
                <span class="field-note" data-testid="model-math-note" role="status">{move || v.with(|v| v.math_note.clone().unwrap_or_default())}</span>
            </label>
        </fieldset>
    }
}
