//! A field per number of the chip (in the chip chunk): the text, its
//! error, and under it the note and the source of the preset's figure.

use leptos::prelude::*;
use roofline_core::calc::{chip_fields, CalcInput, Field};
use roofline_core::{DType, LevelKind};

use crate::page::field::TextField;

/// The note under field `f`: its own (a sparse figure, "set by you") and
/// the source of the preset's number.
fn note_of(f: &Field) -> String {
    match (f.note.is_empty(), f.source.map(|s| s.text())) {
        (_, None) => f.note.clone(),
        (true, Some(s)) => s.to_string(),
        (false, Some(s)) => format!("{} {s}", f.note),
    }
}

/// The fields, re-created when the chip changes, on reset or when the
/// whole input is replaced, so their text resets; typing only updates the
/// error and note signals.
pub fn fields(
    input: RwSignal<CalcInput>,
    epoch: RwSignal<u32>,
    generation: RwSignal<u32>,
) -> impl IntoView {
    let chip_id = Memo::new(move |_| input.with(|i| i.chip.clone()));
    // Every field as the input reads now (its note and error).
    let fresh = Memo::new(move |_| input.with(chip_fields));
    let fields = move || {
        let _chip = chip_id.get();
        let _ = generation.get();
        let _ = epoch.get();
        let initial = input.with_untracked(chip_fields);
        initial
            .into_iter()
            .map(|f| {
                let id = f.id.clone();
                let id_note = id.clone();
                let id_err = id.clone();
                let note = Memo::new(move |_| {
                    fresh.with(|fs| {
                        fs.iter()
                            .find(|x| x.id == id_note)
                            .map(note_of)
                            .unwrap_or_default()
                    })
                });
                let error = Memo::new(move |_| {
                    fresh.with(|fs| {
                        fs.iter()
                            .find(|x| x.id == id_err)
                            .and_then(|x| x.error.clone())
                    })
                });
                let on_input = Callback::new(move |text: String| {
                    input.update(|i| {
                        if id == "peak-vector" {
                            i.vector_edit = Some(text);
                        } else if let Some(d) =
                            id.strip_prefix("peak-").and_then(|d| d.parse::<DType>().ok())
                        {
                            i.peak_edits.insert(d, text);
                        } else if let Some(l) = id.strip_prefix("bw-").and_then(LevelKind::from_key)
                        {
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
    view! { <div class="fields">{fields}</div> }
}
