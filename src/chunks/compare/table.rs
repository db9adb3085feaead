//! Critical intensity and critical batch size for every preset, roof (each
//! data type's matrix peak and the vector unit's) and memory level;
//! sortable; a row loads its chip, roof and level.

use crate::chunks::table_style::TABLE_STYLE;
use leptos::prelude::*;
use roofline_core::calc::CalcInput;
use roofline_core::compare::{compare_rows, CompareRow};
use roofline_core::{ComputeUnit, RoofKey};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Column {
    Chip,
    Dtype,
    Level,
    Peak,
    Bandwidth,
    Intensity,
    Batch,
}

fn sort(rows: &mut [CompareRow], col: Column, ascending: bool) {
    roofline_core::small::sort_small_by(rows, |a, b| {
        let o = match col {
            Column::Chip => std::cmp::Ordering::Equal,
            Column::Dtype => a.roof.cmp(&b.roof),
            Column::Level => a.level.cmp(&b.level),
            Column::Peak => a.peak.total_cmp(&b.peak),
            Column::Bandwidth => a.bandwidth.total_cmp(&b.bandwidth),
            Column::Intensity => a.critical_intensity.total_cmp(&b.critical_intensity),
            // Rows without a batch (the vector unit) last.
            Column::Batch => match (a.critical_batch, b.critical_batch) {
                (Some(x), Some(y)) => x.total_cmp(&y),
                (x, y) => y.is_some().cmp(&x.is_some()),
            },
        };
        if ascending {
            o
        } else {
            o.reverse()
        }
    });
}

/// The comparison table. Its code is in the compare chunk
/// (src/chunks/compare/), downloaded when the panel is first opened.
#[component]
pub fn CompareTable(
    /// The user's input; choosing a row sets chip, compute type and level 1.
    input: RwSignal<CalcInput>,
) -> impl IntoView {
    let sort_by = RwSignal::new((Column::Chip, true));
    let rows = move || {
        let mut rows = compare_rows();
        let (col, asc) = sort_by.get();
        sort(&mut rows, col, asc);
        rows.into_iter()
            .map(|r| {
                let (id, roof, level) = (r.chip_id.clone(), r.roof, r.level);
                view! {
                    <tr>
                        <td>
                            <button
                                type="button"
                                class="link"
                                data-testid="compare-load"
                                on:click=move |_| {
                                    let id = id.clone();
                                    input.update(|i| {
                                        i.chip = id;
                                        i.peak_edits.clear();
                                        i.bw_edits.clear();
                                        match roof {
                                            RoofKey::Matrix(d) => {
                                                i.compute = Some(d);
                                                i.unit = Some(ComputeUnit::Matrix);
                                            }
                                            RoofKey::Vector => i.unit = Some(ComputeUnit::Vector),
                                        }
                                        i.level1 = level;
                                    })
                                }
                            >
                                {r.chip.clone()}
                            </button>
                        </td>
                        <td>{match r.roof {
                            RoofKey::Matrix(d) => d.name().to_string(),
                            RoofKey::Vector => format!("vector unit ({})", r.dtype),
                        }}</td>
                        <td>{r.level_name}</td>
                        <td class="num">{r.peak_text}</td>
                        <td class="num">{r.bandwidth_text}</td>
                        <td class="num">{r.critical_intensity_text}</td>
                        <td class="num">{r.critical_batch_text}</td>
                    </tr>
                }
            })
            .collect_view()
    };
    let header = move |label: &'static str, col: Column| {
        let aria = move || {
            let (c, asc) = sort_by.get();
            if c == col {
                if asc {
                    "ascending"
                } else {
                    "descending"
                }
            } else {
                "none"
            }
        };
        view! {
            <th scope="col" aria-sort=aria>
                <button
                    type="button"
                    class="sort"
                    on:click=move |_| sort_by.update(|(c, asc)| {
                        if *c == col {
                            *asc = !*asc;
                        } else {
                            *c = col;
                            *asc = true;
                        }
                    })
                >
                    {label}
                </button>
            </th>
        }
    };
    view! {
        <div class="table-scroll">
            <style>{TABLE_STYLE}</style>
            <table class="compare-table" data-testid="compare-table">
                <thead>
                    <tr>
                        {header("Chip", Column::Chip)}
                        {header("Roof", Column::Dtype)}
                        {header("Level", Column::Level)}
                        {header("Peak", Column::Peak)}
                        {header("Bandwidth", Column::Bandwidth)}
                        {header("Critical intensity (FLOPs/byte)", Column::Intensity)}
                        {header("Critical batch", Column::Batch)}
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}
