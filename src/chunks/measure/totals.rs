//! The measured kernels' totals (in the measure chunk): the time they sum
//! to and what reaching the roof would save, and the launches of each
//! kernel name together.

use leptos::prelude::*;
use roofline_core::format;
use roofline_core::points::table::{groups, totals};
use roofline_core::points::Placed;

/// The totals note, and the grouped view when names repeat.
#[component]
pub fn PointTotals(
    /// The kernels on the chart, placed under the roof (in input order).
    placed: Memo<Vec<Placed>>,
) -> impl IntoView {
    view! {
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
    }
}

/// The most kernel names the grouped view lists.
const GROUPS: usize = 12;
