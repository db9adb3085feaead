//! The Model page's words: each result's row, the sentences on memory and
//! the regime, and the derivation in the book's notation with the numbers.

use super::run::{ModelAnalysis, ModelRun};
use super::state::Phase;
use crate::format::{self, sci};
use crate::hardware::Chip;
use crate::report::{row, step, ResultRow, Step};

/// A parameter count: `8.03 billion`, `46.7 million`.
pub fn params_text(p: f64) -> String {
    if p >= 1e9 {
        format!("{} billion", format::sig(p / 1e9, 4))
    } else if p >= 1e6 {
        format!("{} million", format::sig(p / 1e6, 4))
    } else {
        format::count(p)
    }
}

/// A rate of tokens: `1,234 tokens/s`.
fn tokens_rate(x: f64) -> String {
    format!("{} tokens/s", format::sig(x, 4))
}

/// The words of a Model page's view ([`super::ModelView`]'s fields of
/// the same names).
pub(super) struct Words {
    /// Result rows (keys without the page's `model-` prefix).
    pub rows: Vec<ResultRow>,
    /// Whether it fits, as `yes` / `no` (or empty) and a sentence.
    pub fits: (String, String),
    /// The regime, `compute` / `bandwidth`, and a sentence.
    pub regime: (&'static str, String),
    /// Over several chips, the link's sentence.
    pub link: String,
    /// The derivation, in the book's notation with the numbers.
    pub derivation: Vec<Step>,
}

/// The rows, sentences and derivation for `run` and its analysis.
pub(super) fn words(run: &ModelRun, a: &ModelAnalysis, chip: &Chip) -> Words {
    let m = &run.config;
    let mem = chip.memory;
    let w = run.step.weights;
    let decode = run.step.phase == Phase::Decode;
    let n = run.chips;
    let tok = if decode { "B" } else { "B·T" };
    let mut rows = vec![
        result(
            "params",
            "Parameters P",
            a.params,
            params_text(a.params),
            "Every weight: L·(E·3DF + 2DNH + 2DKH + 2D + router) + D·V (twice if untied)."
                .to_string(),
        ),
        result(
            "active-params",
            "Active parameters P_act",
            a.active_params,
            params_text(a.active_params),
            if m.is_moe() {
                "The weights one token's FLOPs touch: k of the E experts.".to_string()
            } else {
                "A dense model: every parameter is active.".to_string()
            },
        ),
        result(
            "weight-bytes",
            "Weights",
            a.weight_bytes,
            format::bytes(a.weight_bytes),
            format!("P × {} bytes per {w} parameter.", format::sig(w.bytes(), 2)),
        ),
        result(
            "kv-per-token",
            "KV cache per token",
            a.kv_per_token,
            format::bytes(a.kv_per_token),
            format!(
                "2·L·K·H × {} bytes ({}): a key and a value per KV head and layer.",
                format::sig(run.step.kv.bytes(), 2),
                run.step.kv
            ),
        ),
        result(
            "kv-per-seq",
            "KV cache per sequence",
            a.kv_per_seq,
            format::bytes(a.kv_per_seq),
            format!(
                "{} tokens cached at the end of the step.",
                format::plain_number(a.cached)
            ),
        ),
        result(
            "kv-bytes",
            "KV cache of the batch",
            a.kv_bytes,
            format::bytes(a.kv_bytes),
            "B × per sequence.".to_string(),
        ),
        result(
            "memory",
            "Memory needed",
            a.memory,
            format::bytes(a.memory),
            "Weights + the batch's KV cache (activations are small next to either).".to_string(),
        ),
    ];
    if let Some(h) = a.hbm {
        rows.push(result(
            "hbm",
            &format!(
                "{mem} of {} chip{}",
                format::plain_number(n),
                if n == 1.0 { "" } else { "s" }
            ),
            h,
            format::bytes(h),
            format!("n × {}'s {mem} capacity.", chip.name),
        ));
    }
    if let Some(mb) = a.max_batch {
        rows.push(result(
            "max-batch",
            "Largest batch that fits",
            mb,
            format::count(mb),
            format!("⌊({mem} − weights) ÷ (tokens cached × KV per token)⌋, at this context."),
        ));
    }
    let (lat_label, lat_meaning) = if decode {
        ("Time per output token", "One decode step: B·S·KV per token ÷ W + max(2·B·P_act ÷ C, weights read ÷ W), the book's formula.")
    } else {
        (
            "Time to first token",
            "The prefill step: max(FLOPs ÷ C, bytes ÷ W).",
        )
    };
    rows.push(result(
        "step-time",
        lat_label,
        a.step_time,
        format::seconds(a.step_time),
        lat_meaning.to_string(),
    ));
    if decode {
        rows.push(result(
            "t-kv",
            "… reading the KV cache",
            a.t_kv,
            format::seconds(a.t_kv),
            "B·S·KV per token ÷ W: attention reads every cached token once; never compute-bound."
                .to_string(),
        ));
        rows.push(result("t-weight-load", "… loading the weights", a.t_weight_load, format::seconds(a.t_weight_load), if m.is_moe() { format!("Weights read ÷ W: the experts this batch uses ({} of {} per layer, expected) and the rest.", format::sig(a.experts_read, 3), format::plain_number(m.experts)) } else { "P × bytes ÷ W: every weight, once per step.".to_string() }));
        rows.push(result(
            "t-weight-math",
            "… the weights' math",
            a.t_weight_math,
            format::seconds(a.t_weight_math),
            format!("2·B·P_act ÷ C, at the {} peak.", a.math),
        ));
    }
    rows.push(result(
        "tokens-per-s",
        if decode {
            "Tokens per second"
        } else {
            "Prompt tokens per second"
        },
        a.tokens_per_s,
        tokens_rate(a.tokens_per_s),
        format!("{tok} ÷ the step."),
    ));
    rows.push(result(
        "tokens-per-s-chip",
        "… per chip",
        a.tokens_per_s_chip,
        tokens_rate(a.tokens_per_s_chip),
        "÷ n.".to_string(),
    ));
    rows.push(result(
        "critical-batch",
        if decode {
            "Critical batch"
        } else {
            "Critical tokens B·T"
        },
        a.critical_batch,
        format::count(a.critical_batch),
        format!(
            "(C ÷ W) × (bytes per weight ÷ 2){}: above it the weight matmuls are compute-bound.",
            if m.is_moe() {
                " × P ÷ P_act (about E ÷ k)"
            } else {
                ""
            }
        ),
    ));
    if let Some(l) = &a.link {
        rows.push(result(
            "comm",
            &format!("{} per step", l.kind.name()),
            l.time,
            format::seconds(l.time),
            format!(
                "L × {tok}·D activations at their type's size ({} per layer: the book's 2·B·D bytes at bf16) ÷ {} (one link, one direction).",
                format::bytes(l.bytes_per_layer),
                format::bandwidth(l.bandwidth)
            ),
        ));
    }
    let fits = match (a.fits, a.hbm) {
        (Some(true), Some(h)) => (
            "yes".to_string(),
            format!(
                "It fits: {} of the {} in {} chip{}.",
                format::bytes(a.memory),
                format::bytes(h),
                format::plain_number(n),
                if n == 1.0 { "" } else { "s" }
            ),
        ),
        (Some(false), Some(h)) => (
            "no".to_string(),
            format!(
                "It does not fit: it needs {}, and {} chip{} hold {}.{}",
                format::bytes(a.memory),
                format::plain_number(n),
                if n == 1.0 { "" } else { "s" },
                format::bytes(h),
                match a.max_batch {
                    Some(b) if b >= 1.0 => format!(
                        " At this context at most {} sequences fit.",
                        format::count(b)
                    ),
                    _ => " Even the weights alone need more: add chips, or use narrower weights."
                        .to_string(),
                }
            ),
        ),
        _ => (
            String::new(),
            format!(
                "{} lists no {mem} capacity, so whether it fits is not known.",
                chip.name
            ),
        ),
    };
    let regime = if a.compute_bound {
        ("compute", format!("Compute-bound: the weight matmuls' math takes longer than loading the weights ({tok} = {} is above the critical {}).", format::count(run.tokens()), format::count(a.critical_batch)))
    } else {
        ("bandwidth", format!("Bandwidth-bound: loading the weights takes longer than their math ({tok} = {} is below the critical {}).", format::count(run.tokens()), format::count(a.critical_batch)))
    };
    let link = match &a.link {
        Some(l) if l.binds => format!("The {} binds: {} per step against {} to load the weights; over fewer chips, or with a bigger batch per chip, it would not.", l.kind.name(), format::seconds(l.time), format::seconds(a.t_weight_load)),
        Some(l) => format!("The {} keeps up: {} per step against {} to load the weights.", l.kind.name(), format::seconds(l.time), format::seconds(a.t_weight_load)),
        None if n > 1.0 => format!("{} lists no link between chips.", chip.name),
        None => String::new(),
    };
    Words {
        rows,
        fits,
        regime,
        link,
        derivation: derivation(run, a, chip),
    }
}

fn derivation(run: &ModelRun, a: &ModelAnalysis, chip: &Chip) -> Vec<Step> {
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
    if let Some(h) = a.hbm {
        out.push(step(
            "Memory against HBM",
            format!("weights + KV ≤ n × {mem} capacity"),
            format!("{} + {} ≤ {}", sci(a.weight_bytes), sci(a.kv_bytes), sci(h)),
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
                "B·S·KV ÷ W + max(2·B·P_act ÷ C, weights read ÷ W)",
                format!(
                    "{} × {} × {} ÷ {} + max(2 × {} × {} ÷ {}, {} ÷ {})",
                    num(run.step.batch),
                    num(run.step.context),
                    sci(a.kv_per_token),
                    sci(a.bandwidth),
                    num(run.step.batch),
                    sci(a.active_params),
                    sci(a.flops_rate),
                    sci(a.weights_read),
                    sci(a.bandwidth)
                ),
                format::seconds(a.step_time),
            ));
        }
        Phase::Prefill => {
            out.push(step(
                "Prefill FLOPs",
                "2·B·T·P_act + 4·B·T·A·N·H·L (A: keys attended, S + (T + 1) ÷ 2 with the causal mask)",
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
                format::seconds(a.step_time),
            ));
        }
    }
    out.push(step(
        "Critical batch",
        if m.is_moe() {
            "(C ÷ W) × (bytes per weight ÷ 2) × P ÷ P_act"
        } else {
            "(C ÷ W) × bytes per weight ÷ 2"
        },
        format!(
            "({} ÷ {}) × {} ÷ 2{}",
            sci(a.flops_rate),
            sci(a.bandwidth),
            format::sig(run.step.weights.bytes(), 2),
            if m.is_moe() {
                format!(" × {} ÷ {}", sci(a.params), sci(a.active_params))
            } else {
                String::new()
            }
        ),
        format::count(a.critical_batch),
    ));
    if let Some(l) = &a.link {
        out.push(step(
            format!("{} per step", l.kind.name()),
            "L × 2·tokens·D × bytes ÷ link bandwidth",
            format!(
                "{} × {} ÷ {}",
                num(m.layers),
                sci(l.bytes_per_layer),
                sci(l.bandwidth)
            ),
            format::seconds(l.time),
        ));
    }
    out
}

/// A result row of the Model page.
fn result(key: &'static str, label: &str, value: f64, text: String, meaning: String) -> ResultRow {
    row(key, label, Some(value), text, meaning)
}
