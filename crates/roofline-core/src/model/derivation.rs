//! The Model page's derivation: each step in the book's notation, then
//! with the numbers, then the result.

use super::run::{ModelAnalysis, ModelRun};
use super::state::Phase;
use crate::format::{self, sci};
use crate::hardware::Chip;
use crate::report::{step, Step};

/// The derivation of `run`'s analysis `a` on `chip`.
pub(super) fn derivation(run: &ModelRun, a: &ModelAnalysis, chip: &Chip) -> Vec<Step> {
    let m = &run.config;
    let mem = chip.memory;
    let num = format::plain_number;
    let e = if m.is_moe() {
        num(m.experts)
    } else {
        "1".to_string()
    };
    let mut out = vec![
        step(
            "Parameters",
            format!(
                "L·({}DF·E + 2DNH + 2DKH + 2D{}) + D·V{}",
                if m.gated { 3 } else { 2 },
                if m.is_moe() { " + D·E" } else { "" },
                if m.tied { "" } else { "·2" }
            ),
            format!(
                "{}·({}·{}·{}·{e} + 2·{}·{}·{} + 2·{}·{}·{} + 2·{}{}) + {}·{}{}",
                num(m.layers),
                if m.gated { 3 } else { 2 },
                num(m.d_model),
                num(m.d_ff),
                num(m.d_model),
                num(m.heads),
                num(m.head_dim),
                num(m.d_model),
                num(m.kv_heads),
                num(m.head_dim),
                num(m.d_model),
                if m.is_moe() {
                    format!(" + {}·{e}", num(m.d_model))
                } else {
                    String::new()
                },
                num(m.d_model),
                num(m.vocab),
                if m.tied { "" } else { "·2" }
            ),
            sci(a.params),
        ),
        step(
            "Weight bytes",
            "P × bytes per weight",
            format!(
                "{} × {}",
                sci(a.params),
                format::sig(run.step.weights.bytes(), 2)
            ),
            format::bytes(a.weight_bytes),
        ),
        step(
            "KV cache per token",
            "2·L·K·H × bytes",
            format!(
                "2·{}·{}·{} × {}",
                num(m.layers),
                num(m.kv_heads),
                num(m.head_dim),
                format::sig(run.step.kv.bytes(), 2)
            ),
            format::bytes(a.kv_per_token),
        ),
        step(
            "KV cache of the batch",
            "B × tokens cached × KV per token",
            format!(
                "{} × {} × {}",
                num(run.step.batch),
                num(a.cached),
                sci(a.kv_per_token)
            ),
            format::bytes(a.kv_bytes),
        ),
    ];
    if a.kv_copies > 1.0 {
        out.push(step(
            "KV cache held",
            "KV of the batch × n·⌈K ÷ n⌉ ÷ K",
            format!(
                "{} × {}·⌈{} ÷ {}⌉ ÷ {}",
                sci(a.kv_bytes),
                num(run.chips),
                num(m.kv_heads),
                num(run.chips),
                num(m.kv_heads)
            ),
            format::bytes(a.kv_bytes * a.kv_copies),
        ));
    }
    out.push(step(
        "Parameters multiplied",
        if m.tied {
            "P_mm = P_act"
        } else {
            "P_mm = P_act − D·V (the input table is a lookup)"
        },
        if m.tied {
            sci(a.active_params)
        } else {
            format!(
                "{} − {}·{}",
                sci(a.active_params),
                num(m.d_model),
                num(m.vocab)
            )
        },
        sci(a.matmul_params),
    ));
    if let Some(h) = a.hbm {
        out.push(step(
            "Memory against HBM",
            format!("weights + KV held ≤ n × {mem} capacity"),
            format!(
                "{} + {} ≤ {}",
                sci(a.weight_bytes),
                sci(a.memory - a.weight_bytes),
                sci(h)
            ),
            if a.fits == Some(true) {
                "fits"
            } else {
                "does not fit"
            },
        ));
    }
    out.push(step(
        "C and W",
        "n × peak × fraction; n × bandwidth × fraction",
        format!(
            "{} × {} × {}; {} × {} × {}",
            num(run.chips),
            sci(a.flops_rate / run.chips / run.step.eff_flops),
            format::sig(run.step.eff_flops, 3),
            num(run.chips),
            sci(a.bandwidth / run.chips / run.step.eff_bw),
            format::sig(run.step.eff_bw, 3)
        ),
        format!(
            "{}; {}",
            format::flops_rate(a.flops_rate),
            format::bandwidth(a.bandwidth)
        ),
    ));
    match run.step.phase {
        Phase::Decode => {
            out.push(step(
                "Decode step",
                if a.kv_copies > 1.0 {
                    "B·S·KV × copies ÷ W + max(2·B·P_mm ÷ C, weights read ÷ W)"
                } else {
                    "B·S·KV ÷ W + max(2·B·P_mm ÷ C, weights read ÷ W)"
                },
                format!(
                    "{} × {} × {}{} ÷ {} + max(2 × {} × {} ÷ {}, {} ÷ {})",
                    num(run.step.batch),
                    num(run.step.context),
                    sci(a.kv_per_token),
                    if a.kv_copies > 1.0 {
                        format!(" × {}", format::sig(a.kv_copies, 3))
                    } else {
                        String::new()
                    },
                    sci(a.bandwidth),
                    num(run.step.batch),
                    sci(a.matmul_params),
                    sci(a.flops_rate),
                    sci(a.weights_read),
                    sci(a.bandwidth)
                ),
                format::seconds(a.base_time),
            ));
        }
        Phase::Prefill => {
            out.push(step(
                "Prefill FLOPs",
                "2·B·T·P_mm + 4·B·T·A·N·H·L (A: keys attended, S + (T + 1) ÷ 2 with the causal mask)",
                format!("{} + {}", sci(a.weight_flops), sci(a.attention_flops)),
                format::flops(a.weight_flops + a.attention_flops),
            ));
            out.push(step(
                "Prefill step",
                "max(FLOPs ÷ C, (weights read + KV read and written) ÷ W)",
                format!(
                    "max({} ÷ {}, {} ÷ {})",
                    sci(a.weight_flops + a.attention_flops),
                    sci(a.flops_rate),
                    sci(a.weights_read + a.kv_traffic),
                    sci(a.bandwidth)
                ),
                format::seconds(a.base_time),
            ));
        }
    }
    out.push(step(
        "Critical batch",
        if m.is_moe() {
            "(C ÷ W) × (bytes per weight ÷ 2) × P_read ÷ P_mm (every expert read)"
        } else {
            "(C ÷ W) × bytes per weight ÷ 2"
        },
        format!(
            "({} ÷ {}) × {} ÷ 2{}",
            sci(a.flops_rate),
            sci(a.bandwidth),
            format::sig(run.step.weights.bytes(), 2),
            if m.is_moe() {
                format!(" × {} ÷ {}", sci(m.read_params()), sci(a.matmul_params))
            } else {
                String::new()
            }
        ),
        format::count(a.critical_batch),
    ));
    if let Some(l) = &a.link {
        let name = l.model.kind.name();
        out.push(step(
            format!("{name}: one all-reduce"),
            "V = tokens·D × bytes; 2(n − 1)/n · V ÷ bandwidth + latency",
            format!(
                "V = {} × {} × {}; 2·{}/{} × {} ÷ {} + {}",
                num(run.tokens()),
                num(m.d_model),
                format::sig(run.step.act.bytes(), 2),
                num(run.chips - 1.0),
                num(run.chips),
                sci(l.array),
                sci(l.model.per_chip()),
                format::seconds(l.all_reduce.latency)
            ),
            format::seconds(l.all_reduce.time),
        ));
        out.push(step(
            format!("{name} per step"),
            "L × 2 all-reduces",
            format!("{} × 2 × {}", num(m.layers), sci(l.all_reduce.time)),
            format::seconds(l.time),
        ));
        out.push(step(
            "The book's sketch",
            "L × tokens·D × bytes ÷ one-way bandwidth",
            format!(
                "{} × {} ÷ {}",
                num(m.layers),
                sci(l.book_bytes_per_layer),
                sci(l.model.one_way)
            ),
            format::seconds(l.book_time),
        ));
        out.push(step(
            "The step with the link",
            if l.overlapped {
                "max(step, link) (overlapped)"
            } else {
                "step + link (not overlapped)"
            },
            format!(
                "{}({}, {})",
                if l.overlapped { "max" } else { "sum" },
                sci(a.base_time),
                sci(l.time)
            ),
            format::seconds(a.step_time),
        ));
    }
    out
}
