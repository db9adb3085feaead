//! The Model page's words: each result's row, the sentences on memory and
//! the regime, and the derivation in the book's notation with the numbers.

use super::run::{ModelAnalysis, ModelRun};
use super::state::Phase;
use crate::format::{self, sci};
use crate::hardware::Chip;
use crate::report::{row, ResultRow, Step};

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

/// A rate of tokens: `1234 tokens/s`; scientific far from 1 (`3.2e-290
/// tokens/s`), never a long run of zeros.
fn tokens_rate(x: f64) -> String {
    if (0.01..1e12).contains(&x) {
        format!("{} tokens/s", format::sig(x, 4))
    } else {
        format!("{} tokens/s", sci(x))
    }
}

/// The words of a Model page's view ([`super::ModelView`]'s fields of
/// the same names).
pub(super) struct Words {
    /// Result rows (keys without the page's `model-` prefix).
    pub rows: Vec<ResultRow>,
    /// Whether it fits, as `yes` / `no` (or empty) and a sentence.
    pub fits: (String, String),
    /// What takes the longest in the step (`math`, `weights`, `kv`,
    /// `link`), and the headline.
    pub regime: (&'static str, String),
    /// Over several chips, how the model is split.
    pub layout: String,
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
                "The weights one token uses: k of the E experts, and both embedding tables, as model cards count them.".to_string()
            } else {
                "A dense model: every parameter is active.".to_string()
            },
        ),
        result(
            "matmul-params",
            "Parameters multiplied per token P_mm",
            a.matmul_params,
            params_text(a.matmul_params),
            if m.tied {
                "P_act: the one D×V table is also the output projection, a matmul.".to_string()
            } else {
                "P_act − D·V: the input embedding table is a lookup (no FLOPs, and a step reads only its tokens' rows); the output projection, D·V, is a matmul. Each token costs 2·P_mm FLOPs.".to_string()
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
    ];
    if a.kv_copies > 1.0 {
        rows.push(result(
            "kv-held",
            "KV cache held on the chips",
            a.kv_bytes * a.kv_copies,
            format::bytes(a.kv_bytes * a.kv_copies),
            format!(
                "× {}: {} chips for K = {} KV heads, so each chip keeps the KV heads its query heads need.",
                format::sig(a.kv_copies, 3),
                format::plain_number(n),
                format::plain_number(m.kv_heads)
            ),
        ));
    }
    rows.push(result(
        "memory",
        "Memory needed",
        a.memory,
        format::bytes(a.memory),
        "Weights + the KV cache held (activations are small next to either).".to_string(),
    ));
    if let Some(h) = a.hbm {
        rows.push(result(
            "hbm",
            &format!("{mem} of {}", super::verdict::chips_text(n)),
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
            format!(
                "⌊({mem} − weights) ÷ (tokens cached × KV per token{})⌋, at this context.",
                if a.kv_copies > 1.0 { " × copies" } else { "" }
            ),
        ));
    }
    let (lat_label, lat_meaning) = if decode {
        ("Time per output token", "One decode step: B·S·KV per token ÷ W + max(2·B·P_mm ÷ C, weights read ÷ W), the book's formula (and the link, when it is longer or not overlapped).")
    } else {
        (
            "Time to first token",
            "The prefill step: max(FLOPs ÷ C, bytes ÷ W) (and the link, when it is longer or not overlapped).",
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
            format!(
                "B·S·KV per token{} ÷ W: attention reads every cached token once; never compute-bound.",
                if a.kv_copies > 1.0 { " × copies" } else { "" }
            ),
        ));
        rows.push(result("t-weight-load", "… loading the weights", a.t_weight_load, format::seconds(a.t_weight_load), if m.is_moe() { format!("Weights read ÷ W: the experts this batch uses ({} of {} per layer, expected) and the rest.", format::sig(a.experts_read, 3), format::plain_number(m.experts)) } else { if m.tied { "P × bytes ÷ W: every weight, once per step.".to_string() } else { "(P − D·V) × bytes ÷ W: every weight once per step but the input table, of which a step reads only its tokens' rows.".to_string() } }));
        rows.push(result(
            "t-weight-math",
            "… the weights' math",
            a.t_weight_math,
            format::seconds(a.t_weight_math),
            format!("2·B·P_mm ÷ C, at the {} peak.", a.math),
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
        if m.is_moe() {
            let ratio = m.read_params() / a.matmul_params;
            format!(
                "(C ÷ W) × (bytes per weight ÷ 2) × P_read ÷ P_mm, with every expert read: above it the weight matmuls are compute-bound. P_read ÷ P_mm is {} here; the rule of thumb E ÷ k = {} counts the experts alone, and the attention and embeddings every token uses bring it down.",
                format::sig(ratio, 3),
                format::sig(m.experts / m.active, 3)
            )
        } else {
            "(C ÷ W) × (bytes per weight ÷ 2): above it the weight matmuls are compute-bound.".to_string()
        },
    ));
    if let Some(l) = &a.link {
        let name = l.model.kind.name();
        rows.push(result(
            "comm",
            &format!("{name} per step"),
            l.time,
            format::seconds(l.time),
            format!(
                "L × 2 all-reduces of {tok}·D activations, {} each: each chip sends 2(n − 1)/n of it at {} over {}. {} of it is latency. The step {}.",
                format::bytes(l.array),
                format::bandwidth(l.model.per_chip()),
                l.model.wiring.text(),
                format::seconds(l.latency),
                if l.overlapped { "overlaps it" } else { "adds it (not overlapped)" }
            ),
        ));
        rows.push(result(
            "comm-book",
            &format!("… the book's sketch ({name})"),
            l.book_time,
            format::seconds(l.book_time),
            format!(
                "L × {tok}·D × bytes ÷ {} (one link, one direction): the book's 2·B·D bytes a layer at bf16, with no latency. Shown for comparison; the step uses the line above.",
                format::bandwidth(l.model.one_way)
            ),
        ));
    }
    let fits = super::verdict::fits(run, a, chip);
    let regime = super::verdict::headline(run, a);
    let layout = super::verdict::layout(run, a);
    let link = super::verdict::link(run, a, chip);
    Words {
        rows,
        fits,
        regime,
        layout,
        link,
        derivation: super::derivation::derivation(run, a, chip),
    }
}

/// A result row of the Model page.
fn result(key: &'static str, label: &str, value: f64, text: String, meaning: String) -> ResultRow {
    row(key, label, Some(value), text, meaning)
}
