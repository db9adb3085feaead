//! Every operation of a step as a row: its einsum, how often it runs, its
//! FLOPs, bytes, intensity, time, what binds and its share of the step,
//! and a link that opens it in the calculator.

use std::sync::Arc;

use leptos::prelude::*;
use roofline_core::calc::CalcInput;
use roofline_core::format;
use roofline_core::model::{ModelOp, ModelView};
use roofline_core::pages::{AppState, View};
use roofline_core::state::CalcState;
use roofline_core::url::encode;

/// The calculator's link for `op` on the calculator's chip (with its edited
/// numbers, from `chip_state`): its notation, sizes and math type.
fn calc_href(op: &ModelOp, chip_state: &CalcState) -> String {
    let mut calc = CalcState {
        chip: chip_state.chip.clone(),
        peak_overrides: chip_state.peak_overrides.clone(),
        vector_override: chip_state.vector_override,
        bw_overrides: chip_state.bw_overrides.clone(),
        op: op.notation.clone(),
        sizes: op.sizes.iter().map(|(d, v)| (d.to_string(), *v)).collect(),
        compute: Some(op.math),
        ..CalcState::default()
    };
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
pub fn ops_table(v: Memo<Arc<ModelView>>, input: RwSignal<CalcInput>) -> impl IntoView {
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
                            <td><a class="calc-link" data-testid="model-op-open" href=calc_href(o, &chip_state)>"calculator"</a></td>
                        </tr>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <p class="note">
            "Each operation is an einsum of Part 1 (B sequences, T tokens each, BT of them; A the keys each query attends to; K, G the KV heads and the query heads per KV head). Times are for one run on all the chips, at the fractions reached; the share is of every run in the step. Open one in the calculator to see it on the chapter's roofline."
        </p>
        <div class="table-scroll">
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
