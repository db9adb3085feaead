//! The operation: a shortcut or the book's notation, sizes, compute type.

use std::sync::Arc;

use leptos::prelude::*;

use crate::page::choice::{choice, fixed};
use roofline_core::calc::{CalcInput, CalcView};
use roofline_core::op::Shortcut;
use roofline_core::{ComputeUnit, DType};

use crate::page::field::TextField;
use crate::page::shown::shown;
use crate::page::why::why_list;
use roofline_core::explain;

/// Notation input with its parse error, a shortcut menu that fills it, one
/// size field per dimension the notation names, and the compute data type.
#[component]
pub fn OpPanel(
    /// The user's input; this panel edits `op_text`, `size_edits`, `compute`.
    input: RwSignal<CalcInput>,
    /// The evaluated view.
    view: Memo<Arc<CalcView>>,
    /// Bumped when the whole input is replaced (a link, back / forward):
    /// text fields are then re-created with the new values.
    epoch: RwSignal<u32>,
) -> impl IntoView {
    let op_text = Memo::new(move |_| input.with(|i| i.op_text.clone()));
    // The shortcut whose notation is in the box, if any.
    let current_shortcut = Memo::new(move |_| {
        let t = op_text.get();
        Shortcut::ALL
            .into_iter()
            .find(|s| roofline_core::op::Operation::parse(&t).ok() == Some(s.operation()))
            .map(|s| s.key().to_string())
    });
    // Bumped when a shortcut replaces the text, so the input is re-created.
    let generation = RwSignal::new(0u32);
    let notation_input = move || {
        let _ = generation.get();
        let _ = epoch.get();
        let text = op_text.get_untracked();
        view! {
            <input
                type="text"
                class="notation"
                spellcheck="false"
                autocomplete="off"
                data-testid="field-op"
                prop:value=text
                aria-invalid=move || if view.with(|v| v.op_error.is_some()) { "true" } else { "false" }
                aria-describedby="op-error"
                on:input=move |ev| {
                    let t = event_target_value(&ev);
                    input.update(|i| i.op_text = t)
                }
            />
        }
    };
    // Size fields follow the dimensions of the last valid operation.
    let dims = Memo::new(move |prev: Option<&Vec<String>>| {
        view.with(|v| match &v.op {
            Some(op) => op.dims(),
            None => prev.cloned().unwrap_or_default(),
        })
    });
    let size_fields = move || {
        let _ = generation.get();
        let _ = epoch.get();
        dims.get()
            .into_iter()
            .map(|dim| {
                let id = format!("size-{dim}");
                let initial = view.with_untracked(|v| {
                    v.size_fields
                        .iter()
                        .find(|f| f.id == id)
                        .map(|f| f.text.clone())
                        .unwrap_or_default()
                });
                let id_err = id.clone();
                let error = Memo::new(move |_| {
                    view.with(|v| {
                        v.size_fields
                            .iter()
                            .find(|f| f.id == id_err)
                            .and_then(|f| f.error.clone())
                    })
                });
                let id_note = id.clone();
                // What a size with a suffix was read as (`4k` is 4000).
                let note = Memo::new(move |_| {
                    view.with(|v| {
                        v.size_fields
                            .iter()
                            .find(|f| f.id == id_note)
                            .map(|f| f.note.clone())
                            .unwrap_or_default()
                    })
                });
                let d = dim.clone();
                let on_input = Callback::new(move |t: String| {
                    input.update(|i| {
                        i.size_edits.insert(d.clone(), t);
                    })
                });
                view! {
                    <TextField id=id label=dim.clone() initial=initial note=note error=error on_input=on_input />
                }
            })
            .collect_view()
    };
    // FLOPs per element, for an operation that sums nothing.
    let per_element = Memo::new(move |_| view.with(|v| v.per_element_field.is_some()));
    let per_element_field = move || {
        let _ = generation.get();
        let _ = epoch.get();
        let part = |f: fn(&roofline_core::calc::Field) -> String| {
            Memo::new(move |_| {
                view.with(|v| v.per_element_field.as_ref().map(f).unwrap_or_default())
            })
        };
        let initial = view.with_untracked(|v| {
            v.per_element_field
                .as_ref()
                .map(|f| f.text.clone())
                .unwrap_or_default()
        });
        let error = Memo::new(move |_| {
            view.with(|v| v.per_element_field.as_ref().and_then(|f| f.error.clone()))
        });
        let on_input = Callback::new(move |t: String| input.update(|i| i.per_element = Some(t)));
        view! {
            <TextField
                id="flops-per-element".to_string()
                label="FLOPs per element".to_string()
                initial=initial
                note=part(|f| f.note.clone())
                error=error
                on_input=on_input
            />
        }
    };
    // Memos, so that an edit elsewhere does not re-create the options.
    // Types by name: memos of types the page's other lists already use.
    let compute = Memo::new(move |_| input.with(|i| i.compute.map(|d| d.name().to_string())));
    let compute_list = Memo::new(move |_| {
        view.with(|v| {
            v.compute_options
                .iter()
                .map(|d| d.name().to_string())
                .collect::<Vec<_>>()
        })
    });
    let compute_options = move || {
        let selected = compute.get();
        compute_list
            .get()
            .into_iter()
            .map(|d| choice(&d, &d, fixed(selected.as_ref() == Some(&d))))
            .collect_view()
    };
    // The unit asked for ("auto" for the operation's own), and what it
    // runs on with why, when that is not what was asked.
    let unit =
        Memo::new(move |_| input.with(|i| i.unit.map_or("auto", ComputeUnit::key).to_string()));
    let unit_note = move || {
        view.with(|v| match (&v.unit_note, v.unit) {
            (Some(n), _) => n.clone(),
            (None, Some(u)) => format!("This operation runs on the {}.", u.label()),
            (None, None) => String::new(),
        })
    };
    view! {
        <fieldset class="group">
            <legend>"Operation"</legend>
            <label class="field">
                <span class="field-label">"Shortcut"</span>
                <select
                    data-testid="op-shortcut"
                    prop:value=move || current_shortcut.get().unwrap_or_default()
                    on:change=move |ev| {
                        let key = event_target_value(&ev);
                        if let Some(s) = Shortcut::from_key(&key) {
                            input.update(|i| {
                                i.op_text = s.notation();
                                i.per_element = None;
                                for (k, v) in s.default_sizes() {
                                    i.size_edits.insert(k, roofline_core::report::size_text(v));
                                }
                            });
                            generation.update(|g| *g += 1);
                        }
                    }
                >
                    {choice(
                        "",
                        "(your own notation)",
                        Memo::new(move |_| current_shortcut.with(Option::is_none)),
                    )}
                    {Shortcut::ALL
                        .into_iter()
                        .map(|s| {
                            let selected = Memo::new(move |_| {
                                current_shortcut.with(|c| c.as_deref() == Some(s.key()))
                            });
                            choice(s.key(), s.label(), selected)
                        })
                        .collect_view()}
                </select>
            </label>
            <label class="field">
                <span class="field-label">"Notation"</span>
                {notation_input}
                <span class="field-note">"Like bf16[B,D] * int8[D,F] -> bf16[B,F]; + for elementwise."</span>
                <span class="field-error" id="op-error" role="status" data-testid="error-op">
                    {move || view.with(|v| v.op_error.clone().unwrap_or_default())}
                </span>
                <span class="field-note" data-testid="op-sharded">
                    {move || view.with(|v| v.sharded_note.clone().unwrap_or_default())}
                </span>
            </label>
            {why_list(explain::NOTATION)}
            <div class="sizes">{size_fields}</div>
            {shown(per_element, per_element_field)}
            <label class="field">
                <span class="field-label">"Math runs at"</span>
                <select
                    data-testid="compute-select"
                    prop:value=move || compute.get().unwrap_or_else(|| "auto".to_string())
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        input.update(|i| i.compute = v.parse::<DType>().ok())
                    }
                >
                    {choice("auto", "widest input type", Memo::new(move |_| compute.with(Option::is_none)))}
                    {compute_options}
                </select>
                <span class="field-error" role="status" data-testid="error-compute">
                    {move || view.with(|v| v.compute_error.clone().unwrap_or_default())}
                </span>
            </label>
            {why_list(explain::DTYPE)}
            <label class="field">
                <span class="field-label">"Runs on"</span>
                <select
                    data-testid="unit-select"
                    prop:value=move || unit.get()
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        input.update(|i| i.unit = ComputeUnit::from_key(&v))
                    }
                >
                    {choice("auto", "where it runs by default", Memo::new(move |_| unit.with(|u| u == "auto")))}
                    {choice("matrix", "matrix unit", Memo::new(move |_| unit.with(|u| u == "matrix")))}
                    {choice("vector", "vector unit", Memo::new(move |_| unit.with(|u| u == "vector")))}
                </select>
                <span class="field-note" data-testid="unit-note">{unit_note}</span>
            </label>
        </fieldset>
    }
}
