//! Every operation of a step as a row: its einsum, how often it runs, its
//! FLOPs, bytes, intensity, time, what binds and its share of the step,
//! and a link that opens it in the calculator.

use std::sync::Arc;

use leptos::prelude::*;
use roofline_core::calc::CalcInput;
use roofline_core::format;
use roofline_core::model::{calc_share, ModelOp, ModelView};
use roofline_core::network::Collective;
use roofline_core::pages::{AppState, View};
use roofline_core::state::CalcState;
use roofline_core::url::encode;

/// The calculator's link for one chip's part of `op` served by `chips`
/// chips ([`calc_share`]), on the calculator's chip: its notation, sizes,
/// math type, and, for a summed-over split, the chips, the split dimension
/// and a ring all-reduce.
fn calc_href(op: &ModelOp, chip_state: &CalcState, chips: u32) -> String {
    let (sizes, n, shard) = calc_share(op, f64::from(chips));
    let mut calc = CalcState {
        chip: chip_state.chip.clone(),
        op: op.notation.clone(),
        sizes: sizes.iter().map(|(d, v)| (d.to_string(), *v)).collect(),
        compute: Some(op.math),
        chips: n,
        shard: shard.map(str::to_string),
        ..CalcState::default()
    };
    if shard.is_some() {
        calc.collective = Collective::Ring;
    }
    // The batch chart sweeps the tokens (or sequences) of the step.
    if let Some((d, _)) = op.sizes.first() {
        calc.batch_dim = d.to_string();
    }
    calc.level2 = roofline_core::hardware::preset(&calc.chip)
        .and_then(|c| roofline_core::state::default_level2(&c, calc.level1));
    format!(
        "?{}",
        encode(&AppState {
            view: View::Calculator,
            calc,
            ..AppState::default()
        })
    )
}

/// The table; rows are re-created when the operations change.
pub fn ops_table(
    v: Memo<Arc<ModelView>>,
    input: RwSignal<CalcInput>,
    chips: Memo<u32>,
) -> impl IntoView {
    let rows = move || {
        let chip_state = input.with(|i| CalcState {
            chip: i.chip.clone(),
            ..CalcState::default()
        });
        v.with(|v| {
            v.ops
                .iter()
                .map(|o| {
                    let bound = if o.compute_bound { "compute" } else { "bandwidth" };
                    view! {
                        <tr
                            data-testid="model-op"
                            data-op=o.key
                            data-intensity=o.intensity.to_string()
                            data-time=o.time.to_string()
                            data-bound=bound
                        >
                            <th scope="row">{o.name.clone()}</th>
                            <td><code class="notation-inline">{o.notation.clone()}</code></td>
                            <td class="num">{format::sig(o.count, 4)}</td>
                            <td class="num">{format::flops(o.flops)}</td>
                            <td class="num">{format::bytes(o.bytes)}</td>
                            <td class="num">{format::intensity(o.intensity)}</td>
                            <td class="num">{format::seconds(o.time)}</td>
                            <td>{bound}</td>
                            <td class="num">{format::percent(o.share)}</td>
                            <td><a class="calc-link" data-testid="model-op-open" href=calc_href(o, &chip_state, chips.get())>{if chips.get() > 1 { "calculator (one chip's part)" } else { "calculator" }}</a></td>
                        </tr>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <p class="note">
            "Each operation is an einsum of Part 1 (B sequences, T tokens each, BT of them; A the keys each query attends to; K, G the KV heads and the query heads per KV head). Times are for one run on all the chips, at the fractions reached; the share is of every run in the step. Open one in the calculator to see it on the chapter's roofline: over several chips, one chip's part (an operation the layout sums over opens split over the chips, with their all-reduce)."
        </p>
        <p class="scroll-cue" aria-hidden="true">"The table scrolls sideways →"</p>
        <div class="table-scroll" tabindex="0" role="region" aria-label="Every operation of a step (scrolls sideways)">
            <table class="ops" data-testid="model-ops">
                <thead>
                    <tr>
                        <th scope="col">"Operation"</th>
                        <th scope="col">"Einsum"</th>
                        <th scope="col">"Runs per step"</th>
                        <th scope="col">"FLOPs"</th>
                        <th scope="col">"Bytes"</th>
                        <th scope="col">"Intensity"</th>
                        <th scope="col">"Time per run"</th>
                        <th scope="col">"Bound by"</th>
                        <th scope="col">"Share of the step"</th>
                        <th scope="col">"Open in"</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}
