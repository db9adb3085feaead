//! The measurements panel's preview (in the measure chunk): what the
//! pasted text was read as, with the choice of reading it otherwise, the
//! columns and what each is read as, the reader's notes, and the rows that
//! cannot be plotted.

use leptos::prelude::*;
use roofline_core::points::read::{self, RateByRoof};
use roofline_core::points::{Field, RowError};

use crate::chunks::measure::reader::Reader;

/// What the reading found, and the choices that change it.
#[component]
pub fn ReadingPreview(
    /// The text pasted, dropped or loaded.
    pasted: RwSignal<String>,
    /// The reading of `pasted`.
    reader: Reader,
    /// The user's column choices, by header; the preview's selects set them.
    mapping: RwSignal<Vec<(String, Field)>>,
    /// Read a profiler's export as a plain table, by the user's choice.
    plain: RwSignal<bool>,
    /// The second look's reading of a rate column as FLOP/s, if any.
    by_roof: RwSignal<Option<RateByRoof>>,
    /// The problems of the link's measurements, listed first.
    link_errors: RwSignal<Vec<RowError>>,
) -> impl IntoView {
    let progress = reader.progress;
    // What the preview lists, each in a memo: a later slice of the reading
    // rebuilds a list only when it changed (the columns and notes rarely do).
    let shown_errors = Memo::new(move |_| {
        let mut all: Vec<RowError> = link_errors.get();
        let room = SHOWN_ERRORS.saturating_sub(all.len());
        progress.with(|p| all.extend(p.reading().errors.iter().take(room).cloned()));
        all
    });
    let read_notes = Memo::new(move |_| progress.with(|p| p.reading().notes.clone()));
    let read_columns = Memo::new(move |_| progress.with(|p| p.reading().columns.clone()));
    let read_format = Memo::new(move |_| progress.with(|p| p.reading().format));
    // The profiler's format a text read as a plain table would be read as.
    let recognised = Memo::new(move |_| {
        plain
            .get()
            .then(|| pasted.with(|t| read::profiler_format(t)))
            .flatten()
    });
    let errors = move || {
        shown_errors.with(|all| {
            all.iter()
                .map(|e| view! { <li>{e.text()}</li> })
                .collect_view()
        })
    };
    let error_count = Memo::new(move |_| {
        link_errors.with(Vec::len) + progress.with(|p| p.reading().errors.len())
    });
    let notes = move || {
        let by_roof = by_roof.get().map(|b| {
            let header = b.choice.0.clone();
            view! {
                <li data-testid="points-rate-note">
                    {b.note}
                    " "
                    <button type="button" class="link" data-testid="points-read-count" on:click=move |_| {
                        let h = header.clone();
                        by_roof.set(None);
                        mapping.update(|m| {
                            m.retain(|(k, _)| *k != h);
                            m.push((h, Field::Flops));
                        });
                    }>"Read it as FLOPs (a count)"</button>
                </li>
            }
        });
        let read = read_notes.with(|notes| {
            notes
                .iter()
                .map(|n| view! { <li>{n.clone()}</li> })
                .collect_view()
        });
        (by_roof, read)
    };
    let columns = move || {
        read_columns.with(|columns| {
            columns
                .iter()
                .map(|c| {
                    let header = c.header.clone();
                    let current = c.field;
                    let options = Field::ALL
                        .iter()
                        .map(|f| {
                            view! {
                                <option value=f.key() selected=*f == current>{f.label()}</option>
                            }
                        })
                        .collect_view();
                    let h = header.clone();
                    view! {
                        <li>
                            <label>
                                <span class="col-name">{header.clone()}</span>
                                {(!c.unit.is_empty()).then(|| format!(" ({})", c.unit))}
                                " → "
                                <select
                                    data-testid="points-map"
                                    data-column=header.clone()
                                    on:change=move |ev| {
                                        let f = Field::from_key(&event_target_value(&ev))
                                            .unwrap_or(Field::Ignore);
                                        let h = h.clone();
                                        mapping.update(|m| {
                                            m.retain(|(k, _)| *k != h);
                                            m.push((h, f));
                                        });
                                    }
                                >
                                    {options}
                                </select>
                            </label>
                        </li>
                    }
                })
                .collect_view()
        })
    };
    view! {
        {move || read_format.get().map(|f| {
            // A profiler's export can be read as a plain table, and back.
            let other = if f.is_profiler() {
                Some("Read it as a plain table (map its columns yourself)".to_string())
            } else {
                recognised.get().map(|r| format!("Read it as {}", r.name()))
            };
            view! {
                <p class="note" data-testid="points-format" data-value=f.name()>
                    {format!("Read as {}. ", f.name())}
                    {other.map(|o| view! {
                        <button type="button" class="link" data-testid="points-read-as" on:click=move |_| plain.update(|p| *p = !*p)>{o}</button>
                    })}
                </p>
            }
        })}
        <ul class="measure-map" data-testid="points-mapping" aria-label="Columns read">{columns}</ul>
        <ul class="notes-list" data-testid="points-notes">{notes}</ul>
        <section class="measure-errors" data-testid="points-errors" aria-live="polite">
            {move || (error_count.get() > 0).then(|| view! {
                <p class="error">{format!("{} problem(s); these rows are not plotted:", error_count.get())}</p>
            })}
            <ul>{errors}</ul>
        </section>
    }
}

/// The most row problems listed.
const SHOWN_ERRORS: usize = 50;
