//! The table of measured kernels (in the measure chunk): each against the
//! roof at its intensity, sortable by share of the roof, time, intensity
//! and the time reaching the roof would save.

use leptos::prelude::*;
use roofline_core::points::table::{order, row, SortKey};
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
) -> impl IntoView {
    let rows = move || {
        let (key, desc) = sort.get();
        roof.with(|r| {
            let Some(r) = r else {
                return Vec::new();
            };
            placed.with(|placed| {
                order(placed, key, desc)
                    .into_iter()
                    .take(MAX_ROWS)
                    .filter_map(|i| placed.get(i).map(|p| row(i, p, r)))
                    .collect()
            })
        })
    };
    let body = move || {
        rows()
            .into_iter()
            .map(|r| {
                view! {
                    <tr
                        data-testid="point-row"
                        data-fraction=r.fraction.to_string()
                        data-binding=r.binding_key.clone()
                        class:above=r.above
                    >
                        <th scope="row">{r.name}</th>
                        <td class="num">{r.intensity}</td>
                        <td class="num">{r.attained}</td>
                        <td class="num">{r.roof}</td>
                        <td class="num" data-testid="point-percent">
                            {r.percent}
                            {r.above.then_some(" (above the roof)")}
                        </td>
                        <td>{r.binding}</td>
                        <td class="num">{r.time}</td>
                        <td class="num">{r.lower_bound}</td>
                        <td class="num">{r.saved}</td>
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
                        {header("Intensity", Some(SortKey::Intensity))}
                        {header("Attained", None)}
                        {header("Roof there", None)}
                        {header("Of the roof", Some(SortKey::Fraction))}
                        {header("Binds", None)}
                        {header("Time", Some(SortKey::Time))}
                        {header("At the roof", None)}
                        {header("Would save", Some(SortKey::Saved))}
                    </tr>
                </thead>
                <tbody>{body}</tbody>
            </table>
        </div>
    }
}
