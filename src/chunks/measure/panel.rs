//! The measurements panel's body (in the measure chunk): paste, drop or
//! load a table, check the column mapping and each row's problem, apply,
//! and read the kernels against the roof in a sortable table.

use crate::chunks::table_style::TABLE_STYLE;
use std::sync::Arc;

use leptos::prelude::*;
use roofline_charts::{add_own_roofs, point_marks, roofline_for_view};
use roofline_core::calc::CalcView;
use roofline_core::format;
use roofline_core::points::compact::{self, LINK_MAX_POINTS};
use roofline_core::points::place::ABOVE_CAUSES;
use roofline_core::points::read::{self, Progress, RateByRoof};
use roofline_core::points::table::{groups, totals, SortKey};
use roofline_core::points::{example, export, place, Field, Kernel, Placed, Roof, RowError};

use crate::chunks::measure::js_text::{clipboard_js, take_in_pieces};
use crate::chunks::measure::point_table::PointTable;
use crate::chunks::measure::points_chart::{PointsChart, PointsSpec};
use crate::chunks::measure::snippets::Snippets;
use crate::page::download::{data_url, download};

/// The panel's body.
#[component]
pub fn Measurements(
    /// The calculator's last valid results: the roof the points are read against.
    results: Memo<Arc<CalcView>>,
    /// The measurements in the link's compact form (empty when none, or
    /// when there are too many for a link).
    points: RwSignal<String>,
    /// The text pasted, dropped or loaded.
    pasted: RwSignal<String>,
    /// Log-log axes (the calculator's roofline setting).
    log: RwSignal<bool>,
) -> impl IntoView {
    // The kernels on the chart, and the problems of the link's `pts`.
    let (start, link_errors) = points.with_untracked(|p| link_kernels(p));
    let kernels = RwSignal::new(start);
    let link_errors = RwSignal::new(link_errors);
    // The user's column choices, by header.
    let mapping = RwSignal::new(Vec::<(String, Field)>::new());
    // A large paste goes to the reader a piece per task; a newer paste,
    // file or edit stops an older copy (the number of the copy wanted).
    let copies = StoredValue::new(0u32);
    let stop_copy = move || copies.update_value(|c| *c = c.wrapping_add(1));
    // A column headed `TFLOPS` whose counts put the kernels far above the
    // roof, read as FLOP/s (a second reading, once the first is done).
    let by_roof = RwSignal::new(None::<RateByRoof>);
    // Read a profiler's export as a plain table (its columns mapped by
    // hand), by the user's choice.
    let plain = RwSignal::new(false);
    // A large paste or file is held outside the box: laying out ten
    // thousand lines in a <textarea> takes the browser longer than reading
    // them. It is read all the same; "Show them in the box" puts it there.
    let held = RwSignal::new(pasted.with_untracked(|t| t.len() > HOLD_BYTES));
    // The table read from `pasted`: its first rows at once (what the
    // preview shows in the next frame), the rest a slice per task, so that
    // no frame waits for ten thousand rows. A new text or mapping starts a
    // new generation, and the old one's slices stop.
    let progress = RwSignal::new(read::start("", &[], 0));
    let generation = StoredValue::new(0u32);
    Effect::new(move |_| {
        let mut choices = mapping.get();
        if let Some(b) = by_roof.get() {
            if !choices.iter().any(|(h, _)| *h == b.choice.0) {
                choices.push(b.choice);
            }
        }
        let plain = plain.get();
        let p = pasted.with(|text| read::start_as(text, &choices, FIRST_ROWS, plain));
        let g = generation.get_value().wrapping_add(1);
        generation.set_value(g);
        let done = p.done();
        progress.set(p);
        if !done {
            read_on(g, generation, progress, pasted);
        }
    });
    // The whole table, read now if slices remain (before it is added).
    let all_kernels = move || {
        if !progress.with_untracked(Progress::done) {
            generation.update_value(|g| *g = g.wrapping_add(1));
            pasted.with_untracked(|t| progress.update(|p| p.more(t, usize::MAX)));
        }
        progress.with_untracked(|p| p.reading().kernels.clone())
    };
    let roof = Memo::new(move |_| results.with(|v| Roof::for_view(v)));
    // A new text is looked at afresh.
    Effect::new(move |_| {
        pasted.track();
        if by_roof.with_untracked(Option::is_some) {
            by_roof.set(None);
        }
    });
    // The second look, once the whole table is read.
    Effect::new(move |_| {
        if !progress.with(Progress::done) || by_roof.with_untracked(Option::is_some) {
            return;
        }
        let found = roof.with(|r| {
            let r = r.as_ref()?;
            progress.with(|p| mapping.with(|m| read::rate_by_roof(p.reading(), m, r)))
        });
        if found.is_some() {
            by_roof.set(found);
        }
    });
    // Every kernel placed once per change, for the chart, the table and
    // the note on points above the roof.
    let placed = Memo::new(move |_| -> Vec<Placed> {
        roof.with(|r| {
            r.as_ref()
                .map(|r| kernels.with(|ks| ks.iter().map(|k| place(k, r)).collect()))
                .unwrap_or_default()
        })
    });
    let chart = Memo::new(move |_| -> Result<PointsSpec, String> {
        let log = log.get();
        let mut c = results.with(|v| roofline_for_view(v, log))?;
        if roof.with(Option::is_none) {
            return Err("Nothing to draw yet.".to_string());
        }
        // Kernels that name their data type are read against its roof:
        // it is drawn.
        roof.with(|r| {
            if let Some(r) = r {
                placed.with(|p| add_own_roofs(&mut c, p, r));
            }
        });
        let marks = placed.with(|p| point_marks(p));
        c.fit_x_with(&marks);
        Ok(Arc::new((c, marks)))
    });
    // Back / forward to an entry with other measurements in its link.
    Effect::new(move |_| {
        let p = points.get();
        let same = kernels.with_untracked(|k| compact::encode(k).unwrap_or_default() == p);
        let too_many = kernels.with_untracked(|k| k.len() > LINK_MAX_POINTS);
        // Kept: the same kernels, or too many for the link (which then has none).
        let keep = same || (p.is_empty() && too_many);
        if !keep {
            let (k, e) = link_kernels(&p);
            kernels.set(k);
            link_errors.set(e);
        }
    });
    let publish = move |ks: Vec<Kernel>| {
        points.set(compact::encode(&ks).unwrap_or_default());
        kernels.set(ks);
        link_errors.set(Vec::new());
    };
    let apply = move |_| publish(all_kernels());
    // A time typed for a prediction makes it a measurement.
    let on_time = Callback::new(move |(index, t): (usize, f64)| {
        let mut ks = kernels.get_untracked();
        if let Some(k) = ks.get_mut(index) {
            if let Some(m) = k.timed(t) {
                *k = m;
                publish(ks);
            }
        }
    });
    let try_example = move |_| {
        if let Some(r) = roof.get_untracked() {
            let text = example::profile(&r);
            let kernels = read::read(&text, &[]).kernels;
            held.set(false);
            stop_copy();
            pasted.set(text);
            mapping.set(Vec::new());
            publish(kernels);
        }
    };
    let clear = move |_| {
        held.set(false);
        stop_copy();
        pasted.set(String::new());
        mapping.set(Vec::new());
        publish(Vec::new());
    };
    let save_error = RwSignal::new(None::<String>);
    let save = move |_| {
        let text = roof.with_untracked(|r| {
            r.as_ref()
                .map(|r| kernels.with_untracked(|k| export::csv(k, r)))
        });
        let result = match text {
            Some(t) => download("measurements.csv", &data_url("text/csv", &t)),
            None => Err("the calculator has no roof to read the points against".to_string()),
        };
        save_error.set(result.err());
    };
    let load_file = move |ev: leptos::ev::Event| {
        use wasm_bindgen::JsCast;
        let file = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            .and_then(|i| i.files())
            .and_then(|f| f.get(0));
        stop_copy();
        read_file(file, pasted, mapping, held);
    };
    let drop_file = move |ev: leptos::ev::DragEvent| {
        let file = ev
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|f| f.get(0));
        if file.is_some() {
            ev.prevent_default();
            stop_copy();
            read_file(file, pasted, mapping, held);
        }
    };
    // A large paste goes straight to the reader, not into the box.
    let paste = move |ev: leptos::ev::ClipboardEvent| {
        let text = ev.clipboard_data().and_then(|d| clipboard_js(&d));
        if let Some(text) = text.filter(|t| t.length() as usize > HOLD_BYTES) {
            ev.prevent_default();
            let copy = copies.get_value().wrapping_add(1);
            copies.set_value(copy);
            take_in_pieces(text, copy, copies, move |t| {
                take_table(t, pasted, mapping, held)
            });
        }
    };
    let held_note = move || {
        held.get().then(|| {
            // As `str::lines` counts, without its per-line work.
            let (lines, kb) = pasted.with(|t| {
                let newlines = t.bytes().filter(|&b| b == b'\n').count();
                (
                    newlines + usize::from(!t.is_empty() && !t.ends_with('\n')),
                    t.len().div_ceil(1024),
                )
            });
            view! {
                <p class="note" data-testid="points-held">
                    {format!("{lines} lines ({kb} KB) are held outside the box, so the page stays quick; they are read as they are. ")}
                    <button type="button" class="secondary" data-testid="points-show-text" on:click=move |_| held.set(false)>
                        "Show them in the box"
                    </button>
                </p>
            }
        })
    };

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
    // The rows ready to add; "…" while more are being read.
    let ready = move || {
        progress.with(|p| {
            let n = p.reading().kernels.len();
            if p.done() {
                n.to_string()
            } else {
                format!("{n}…")
            }
        })
    };
    let link_note = move || {
        let n = kernels.with(Vec::len);
        (n > LINK_MAX_POINTS).then(|| {
            view! {
                <p class="note" data-testid="points-link-note">
                    {format!(
                        "These {n} kernels are more than a link carries (up to {LINK_MAX_POINTS}), so the link leaves them out. “Save measurements” downloads them as CSV; pasting or loading that file here reads them back."
                    )}
                </p>
            }
        })
    };
    let any_above = Memo::new(move |_| placed.with(|p| p.iter().any(Placed::above)));
    let sort = RwSignal::new((SortKey::Saved, true));
    let has_points = Memo::new(move |_| kernels.with(|k| !k.is_empty()));
    view! {
        <style>{STYLE}</style>
        <style>{TABLE_STYLE}</style>
        <div class="measure-body">
            <p class="note">
                "Paste or drop a table from a profiler: one row per kernel, with FLOPs, bytes and a time; or FLOP/s and an intensity; or a time and an operation in the book’s notation with its sizes. Headers such as flops, gflop, dram_bytes, time_ms, duration_us, flop/s and intensity are recognised, with units in the header or the cell (µs, ms, GB, GiB, TFLOP). Nsight Compute's CSV (ncu --csv, the default or the raw page), XProf's roofline table (Export as CSV) and JAX's printed cost_analysis() are read as they are printed; a kernel with FLOPs and bytes but no time is a prediction, drawn as a square at the roof until you type its time. CSV, TSV and JSON are read in the page: nothing is sent anywhere."
            </p>
            <label class="measure-input">
                "Measurements (CSV, TSV, JSON, Nsight Compute or JAX)"
                <textarea
                    data-testid="points-input"
                    rows="6"
                    spellcheck="false"
                    prop:value=move || if held.get() { String::new() } else { pasted.get() }
                    prop:readOnly=move || held.get()
                    prop:placeholder=move || if held.get() { HELD_PLACEHOLDER } else { PLACEHOLDER }
                    on:input=move |ev| {
                        held.set(false);
                        stop_copy();
                        pasted.set(event_target_value(&ev));
                    }
                    on:paste=paste
                    on:dragover=|ev: leptos::ev::DragEvent| ev.prevent_default()
                    on:drop=drop_file
                ></textarea>
            </label>
            {held_note}
            <Snippets />
            <div class="actions">
                <button type="button" data-testid="points-apply" on:click=apply>
                    {move || format!("Add measurements ({})", ready())}
                </button>
                <label class="file">
                    "Load a file "
                    <input type="file" data-testid="points-file" accept=".csv,.tsv,.txt,.json,text/csv,application/json" on:change=load_file />
                </label>
                <button type="button" data-testid="points-example" on:click=try_example>"Try an example"</button>
                <button type="button" data-testid="points-clear" on:click=clear>"Clear"</button>
            </div>
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
            {link_note}
            {move || has_points.get().then(|| view! { <PointsChart spec=chart kernels=kernels roof=roof /> })}
            {move || placed.with(|p| totals(p).text()).map(|t| view! {
                <p class="note" data-testid="points-totals">{t}</p>
            })}
            {move || {
                let g = placed.with(|p| groups(p, GROUPS));
                (g.len() > 1 && g.iter().any(|g| g.count > 1)).then(|| view! {
                    <details class="groups" data-testid="points-groups">
                        <summary>"By kernel name (launches of one kernel together)"</summary>
                        <table class="compare-table">
                            <thead><tr><th scope="col">"Kernel"</th><th scope="col">"Launches"</th><th scope="col">"Time"</th><th scope="col">"Share of the time"</th></tr></thead>
                            <tbody>
                                {g.into_iter().map(|g| view! {
                                    <tr data-testid="points-group" data-count=g.count.to_string() data-time=g.time.to_string()>
                                        <th scope="row">{g.name}</th>
                                        <td class="num">{g.count}</td>
                                        <td class="num">{format::seconds(g.time)}</td>
                                        <td class="num">{format::percent(g.share)}</td>
                                    </tr>
                                }).collect_view()}
                            </tbody>
                        </table>
                    </details>
                })
            }}
            <PointTable placed=placed roof=roof sort=sort on_time=on_time />
            {move || any_above.get().then(|| view! {
                <div class="note above-note" data-testid="points-above">
                    <p>"A point above the roof cannot be right as drawn. Likely causes:"</p>
                    <ul>{ABOVE_CAUSES.iter().map(|c| view! { <li>{*c}</li> }).collect_view()}</ul>
                </div>
            })}
            <div class="actions">
                <button type="button" data-testid="points-save" on:click=save>"Save measurements (CSV)"</button>
            </div>
            {move || save_error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            <p class="note">"Points are read against the first memory line and the peak at the math’s data type; each is coloured by what binds it. Hover a point on the chart for its numbers."</p>
        </div>
    }
}

/// A whole table pasted or loaded: its columns are guessed afresh, and it
/// is held outside the box when it is large.
fn take_table(
    text: String,
    pasted: RwSignal<String>,
    mapping: RwSignal<Vec<(String, Field)>>,
    held: RwSignal<bool>,
) {
    mapping.set(Vec::new());
    held.set(text.len() > HOLD_BYTES);
    pasted.set(text);
}

/// Reads on in the task after the next frame (so the browser paints
/// between slices), for about [`SLICE_MS`], and so on until done, unless a
/// newer reading (`generation`) has begun.
fn read_on(
    g: u32,
    generation: StoredValue<u32>,
    progress: RwSignal<Progress>,
    pasted: RwSignal<String>,
) {
    request_animation_frame(move || {
        set_timeout(
            move || {
                // A newer reading began, or the panel was closed (its
                // values are gone).
                if generation.try_get_value() != Some(g) {
                    return;
                }
                let perf = web_sys::window().and_then(|w| w.performance());
                let now = || perf.as_ref().map_or(0.0, |p| p.now());
                let t0 = now();
                let mut done = true;
                pasted.with_untracked(|t| {
                    progress.try_update(|p| {
                        loop {
                            p.more(t, SLICE_ROWS);
                            if p.done() || now() - t0 >= SLICE_MS {
                                break;
                            }
                        }
                        done = p.done();
                    });
                });
                if !done {
                    read_on(g, generation, progress, pasted);
                }
            },
            std::time::Duration::ZERO,
        );
    });
}

/// Reads a dropped or chosen file's text into the input.
fn read_file(
    file: Option<web_sys::File>,
    pasted: RwSignal<String>,
    mapping: RwSignal<Vec<(String, Field)>>,
    held: RwSignal<bool>,
) {
    let Some(file) = file else { return };
    leptos::task::spawn_local(async move {
        let text = wasm_bindgen_futures::JsFuture::from(file.text()).await;
        match text.ok().and_then(|t| t.as_string()) {
            Some(t) => take_table(t, pasted, mapping, held),
            // Unreadable (not text): what is in the box stays.
            None => pasted.update(|p| {
                if p.is_empty() {
                    p.push_str("# The file could not be read as text.");
                }
            }),
        }
    });
}

/// The kernels of the link's `pts`, and its problems, each saying it is
/// the link's.
fn link_kernels(pts: &str) -> (Vec<Kernel>, Vec<RowError>) {
    let (k, mut e) = compact::decode(pts);
    for err in &mut e {
        err.message = format!("{} (in the link's pts)", err.message);
    }
    (k, e)
}

/// Rows read as soon as a table is pasted (the preview's, in the next
/// frame): about half a millisecond on the bench's machine.
const FIRST_ROWS: usize = 500;
/// The most kernel names the grouped view lists.
const GROUPS: usize = 12;
/// The most row problems listed.
const SHOWN_ERRORS: usize = 50;
/// Rows read at a time in a later task, until [`SLICE_MS`] have passed.
const SLICE_ROWS: usize = 500;
/// Milliseconds of reading in a later task: with the page's update and
/// paint, a frame stays within its 16.7 ms.
const SLICE_MS: f64 = 6.0;
/// Text longer than this (about a thousand rows) is held outside the box.
const HOLD_BYTES: usize = 64 * 1024;
/// The box's placeholder: the shape of a table.
const PLACEHOLDER: &str = "name,flops,bytes,time_ms\nmatmul,1.1e12,5.2e8,7.9";
/// The box's placeholder while a large table is held outside it.
const HELD_PLACEHOLDER: &str = "The table is held outside the box (below). Clear to paste another.";

/// The panel's own style, downloaded with its chunk. The table of points
/// is laid out and painted only when on screen (`content-visibility`): a
/// paste's preview moves it down, and repainting its two hundred rows
/// took longer than the preview.
const STYLE: &str = ".measure textarea{width:100%;box-sizing:border-box;font:0.85rem ui-monospace,Menlo,Consolas,monospace;background:var(--panel);color:var(--text);border:1px solid var(--border);border-radius:6px}.measure-map{display:flex;flex-wrap:wrap;gap:0.25rem 1rem;padding:0;list-style:none;font-size:0.85rem}.point-table tr.above{color:var(--error)}.measure .table-scroll{content-visibility:auto;contain-intrinsic-size:auto 800px}.measure .chart{margin:1rem 0 0}.measure input[type=file]{max-width:100%}.point-time{width:6rem}.point-table .error,.point-table .against{display:block;font-size:0.8rem}.point-table .against{font-weight:400;color:var(--muted)}.snippets pre{overflow-x:auto;font-size:0.8rem;user-select:all}.snippet-name{font-weight:600;margin:0.5rem 0 0}.point-table th[scope=row],.groups th[scope=row]{white-space:normal;min-width:8rem;max-width:13rem;overflow-wrap:anywhere;font-size:0.8rem}";
