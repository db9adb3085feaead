//! The table of measured kernels (in the measure chunk): each against the
//! roof at its intensity, sortable by share of the roof, time, intensity
//! and the time reaching the roof would save.

use leptos::prelude::*;
use roofline_core::points::table::{row, top, PointRow, SortKey};
use roofline_core::points::units::typed_time;
use roofline_core::points::{Placed, Roof};

/// The most rows the table shows; the chart and the saved file have all.
const MAX_ROWS: usize = 200;

/// The table of points.
#[component]
pub fn PointTable(
    /// The kernels on the chart, placed under the roof (in input order).
    placed: Memo<Vec<Placed>>,
    /// The roof they are read against; `None` while the calculator has no results.
    roof: Memo<Option<Roof>>,
    /// The column sorted on, and whether descending.
    sort: RwSignal<(SortKey, bool)>,
    /// Called with a kernel's index (input order) and the time typed for
    /// it, in seconds: a prediction becomes a measurement.
    on_time: Callback<(usize, f64)>,
) -> impl IntoView {
    // The message for a time that could not be read, by kernel index.
    let time_error = RwSignal::new(None::<(usize, String)>);
    // The rows shown, in order; their count changes only with the kernels.
    let rows = Memo::new(move |_| {
        let (key, desc) = sort.get();
        roof.with(|r| {
            let Some(r) = r else {
                return Vec::new();
            };
            placed.with(|placed| {
                top(placed, key, desc, MAX_ROWS)
                    .into_iter()
                    .filter_map(|i| placed.get(i).map(|p| row(i, p, r)))
                    .collect::<Vec<PointRow>>()
            })
        })
    });
    // The table's first rows are built in a task after the chart's first
    // draw (which waits for a frame, then a task): a frame, then a task.
    // The first build of two hundred rows is long, and the draw read the
    // layout after it. From then on, rows follow the kernels at once.
    let built = RwSignal::new(false);
    let asked = StoredValue::new(false);
    let shown = Memo::new(move |_| {
        let n = rows.with(Vec::len);
        if built.get() {
            return n;
        }
        if n > 0 && !asked.get_value() {
            asked.set_value(true);
            request_animation_frame(move || {
                set_timeout(move || _ = built.try_set(true), std::time::Duration::ZERO);
            });
        }
        0
    });
    // A row per slot, kept across edits: an edit changes the cells' text
    // and attributes, not the elements (re-creating two hundred rows on
    // each edit cost more than the frame has).
    let body = move || {
        (0..shown.get())
            .map(|slot| {
                let cell = move |part: fn(&PointRow) -> String| {
                    move || rows.with(|r| r.get(slot).map(part).unwrap_or_default())
                };
                let above = move || rows.with(|r| r.get(slot).is_some_and(|r| r.above));
                view! {
                    <tr
                        data-testid="point-row"
                        data-fraction=cell(|r| r.fraction.to_string())
                        data-binding=cell(|r| r.binding_key.clone())
                        data-flops=cell(|r| r.values[0].clone())
                        data-bytes=cell(|r| r.values[1].clone())
                        data-time=cell(|r| r.values[2].clone())
                        data-dtype=cell(|r| r.dtype.clone())
                        class:above=above
                    >
                        <th scope="row">
                            {cell(|r| r.name.clone())}
                            {move || {
                                let a = rows.with(|r| r.get(slot).map(|r| r.against.clone()).unwrap_or_default());
                                (!a.is_empty()).then(|| view! { <span class="against" data-testid="point-against">{a}</span> })
                            }}
                        </th>
                        <td class="num">{cell(|r| r.saved.clone())}</td>
                        <td class="num">
                            {move || {
                                let index = rows.with(|r| r.get(slot).filter(|r| r.predicted).map(|r| r.index));
                                match index {
                                    Some(index) => view! {
                                        <input
                                            class="point-time"
                                            data-testid="point-time"
                                            aria-label="Measured time"
                                            placeholder="1.2 ms"
                                            on:change=move |ev| match typed_time(&event_target_value(&ev)) {
                                                Ok(t) => {
                                                    time_error.set(None);
                                                    on_time.run((index, t));
                                                }
                                                Err(e) => time_error.set(Some((index, e))),
                                            }
                                        />
                                        {move || time_error.with(|e| e.as_ref().filter(|(i, _)| *i == index).map(|(_, m)| view! {
                                            <span class="error" role="alert" data-testid="point-time-error">{m.clone()}</span>
                                        }))}
                                    }.into_any(),
                                    None => cell(|r| r.time.clone())().into_any(),
                                }
                            }}
                        </td>
                        <td class="num" data-testid="point-percent">
                            {cell(|r| r.percent.clone())}
                            {move || above().then_some(" (above the roof)")}
                        </td>
                        <td>{cell(|r| r.binding.clone())}</td>
                        <td class="num">{cell(|r| r.lower_bound.clone())}</td>
                        <td class="num">{cell(|r| r.intensity.clone())}</td>
                        <td class="num">{cell(|r| r.attained.clone())}</td>
                        <td class="num">{cell(|r| r.roof.clone())}</td>
                    </tr>
                }
            })
            .collect_view()
    };
    let count = move || placed.with(Vec::len);
    let header = move |label: &'static str, key: Option<SortKey>| {
        let Some(key) = key else {
            return view! { <th scope="col">{label}</th> }.into_any();
        };
        let aria = move || match sort.get() {
            (k, true) if k == key => "descending",
            (k, false) if k == key => "ascending",
            _ => "none",
        };
        view! {
            <th scope="col" aria-sort=aria>
                <button
                    type="button"
                    class="sort"
                    data-testid=format!("points-sort-{}", key.key())
                    on:click=move |_| sort.update(|(k, desc)| {
                        if *k == key {
                            *desc = !*desc;
                        } else {
                            *k = key;
                            *desc = true;
                        }
                    })
                >
                    {label}
                </button>
            </th>
        }
        .into_any()
    };
    view! {
        {move || (count() > MAX_ROWS).then(|| view! {
            <p class="note">{format!("The table shows {MAX_ROWS} of the {} kernels, in the order chosen; the chart and the saved file have them all.", count())}</p>
        })}
        <div class="table-scroll">
            <table class="compare-table point-table" data-testid="points-table">
                <caption>{move || format!("{} measured kernel(s)", count())}</caption>
                <thead>
                    <tr>
                        {header("Kernel", None)}
                        {header("Would save", Some(SortKey::Saved))}
                        {header("Time", Some(SortKey::Time))}
                        {header("Of the roof", Some(SortKey::Fraction))}
                        {header("Binds", None)}
                        {header("At the roof", None)}
                        {header("Intensity", Some(SortKey::Intensity))}
                        {header("Attained", None)}
                        {header("Roof there", None)}
                    </tr>
                </thead>
                <tbody>{body}</tbody>
            </table>
        </div>
    }
}
