//! Part 8's worked problems (`p8-q…`), which the book leaves unanswered:
//! the app's worked answers on LLaMA 3-405B's FLOPs and step-time bounds,
//! LLaMA 3-8B's memory at a batch of 240, and serving LLaMA 3-405B under
//! 15 ms a token on TPU v5e.

use crate::format::{sci, sig};
use crate::model::{preset, ModelConfig, Preset};
use crate::quiz::answer::Unit;
use crate::quiz::{CalcSetup, Part, Question, SOURCE_PRACTICE};
use crate::{format, CoreError, DType};

use super::feedback::{era_note, with_eras, Era};
use super::helpers::{matmul, question};
use super::models::{chips_setup, hbm_capacity, opens, page_preset, peak_bw, whole};
use super::texts::{bw_text, rate_text};
use super::{invalid, Draw};

use DType::{Bf16, Int8};

fn source(n: u32) -> String {
    format!(
        "Part 8, worked problem {n} ({}; the book gives no answer: the app's)",
        SOURCE_PRACTICE.to_lowercase()
    )
}

/// The chips of TPU v5e's slices, 1x1 to the 16x16 pod.
pub(super) const V5E_SLICES: &[f64] = &[1.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0];

/// The slices' shapes, as the book writes them.
const SHAPES: &[&str] = &["1x1", "2x2", "2x4", "4x4", "4x8", "8x8", "8x16", "16x16"];

/// The smallest v5e slice of at least `chips` chips, and its shape.
pub(super) fn slice_for(chips: f64) -> Option<(f64, &'static str)> {
    V5E_SLICES
        .iter()
        .zip(SHAPES)
        .find(|(n, _)| **n >= chips)
        .map(|(n, s)| (*n, *s))
}

/// The shapes, for a hint.
fn shapes_text() -> String {
    "v5e slices come as 2x2, 2x4, 4x4, 4x8, 8x8, 8x16 and 16x16 (4 to 256 chips)".to_string()
}

fn model(
    d: &mut Draw,
    book: &'static str,
    others: &[&'static str],
) -> Result<&'static Preset, CoreError> {
    let id = d.pick(book, others);
    preset(id).ok_or_else(|| invalid("no such model"))
}

/// The input table left out of a count: a step looks up its tokens' rows.
fn lookup_era() -> Era {
    Era::new(
        "the input embedding left out (a lookup: no FLOPs, and a step reads only its tokens' rows)"
            .to_string(),
        "the question's rule of thumb counts every parameter".to_string(),
    )
}

/// The value, and the same with the input table left out where it differs
/// by more than `tol`.
fn with_lookup(all: f64, without: f64, tol: f64) -> (f64, Vec<(f64, Era)>) {
    let eras = if (all - without).abs() > tol * all {
        vec![(without, lookup_era())]
    } else {
        Vec::new()
    };
    (all, eras)
}

/// Worked problem 1: FLOPs per token, and a step's bounds on N chips when
/// FLOPs-bound and when bandwidth-bound.
pub(super) fn p8_q1(d: &mut Draw) -> Result<Question, CoreError> {
    let pr = model(
        d,
        "llama31-405b",
        &["llama3-8b", "llama3-70b", "llama31-405b"],
    )?;
    let chip = d.pick("v5e", &["v5e", "v5p", "v6e"]);
    let m = &pr.config;
    let (p, mm) = (m.params(), m.matmul_params());
    let calc = chips_setup(chip, 64, m.d_model, m.d_ff);
    let name = calc.chip()?.name;
    let bf = CalcSetup {
        op: crate::op::Operation::parse(&matmul(Bf16, Bf16, Bf16))?.notation(),
        ..calc.clone()
    };
    let (peak, bw) = peak_bw(&bf, Bf16)?;
    let flops = with_lookup(2.0 * p, 2.0 * mm, 0.02);
    let mut math = with_eras(&bf, &|c| Ok(2.0 * p / peak_bw(c, Bf16)?.0))?;
    let mut load = with_eras(&bf, &|c| Ok(2.0 * p / peak_bw(c, Bf16)?.1))?;
    // The input table, a lookup, left out: what the Model page counts.
    let (_, look) = with_lookup(p, mm, 0.02);
    if let Some((_, era)) = look.first() {
        math.eras
            .push((2.0 * mm / peak_bw(&bf, Bf16)?.0, era.clone()));
        load.eras
            .push((2.0 * m.read_params() / peak_bw(&bf, Bf16)?.1, era.clone()));
    }
    let (pi, _) = peak_bw(&chips_setup(chip, 1, m.d_model, m.d_ff), Int8)?;
    let parts = vec![
        Part::number(
            "a",
            "How many FLOPs does a forward pass take per token?".to_string(),
            Unit::Flops,
            0.02,
            flops.clone(),
            "Each parameter is one multiply and one add per token.".to_string(),
            vec![
                format!("2 · P = 2 · {} = {} FLOPs per token (attention's own FLOPs left out: small at short context).", sci(p), sci(2.0 * p)),
                format!("The input embedding is a lookup; without it, 2 · {} = {}.", sci(mm), sci(2.0 * mm)),
            ],
        )
        .mistake_number(6.0 * p, "That is training's 6 FLOPs per parameter (forward and backward); a forward pass takes 2.".to_string())
        .mistake_number(p, "That counts 1 FLOP per parameter; a multiply and an add are 2.".to_string()),
        Part::number(
            "b",
            format!("FLOPs-bound, a token's forward pass on N {name} chips takes at least c/N seconds. What is c (bf16 math)?"),
            Unit::Seconds,
            0.02,
            math.clone(),
            "Part (a)'s FLOPs over one chip's bf16 peak; N chips share them.".to_string(),
            vec![
                format!("c = {} ÷ {} = {}: the bound is {}/N.", sci(2.0 * p), rate_text(peak, Bf16), format::seconds(math.value), format::seconds(math.value)),
            ],
        )
        .mistake_number(2.0 * p / pi, "That uses the int8 peak; the math here is bf16.".to_string())
        .mistake_number(6.0 * p / peak, "That counts training's 6 FLOPs per parameter; a forward pass takes 2.".to_string()),
        Part::number(
            "c",
            "Bandwidth-bound (every weight read from HBM once), with bf16 weights, it takes at least c/N seconds. What is c?".to_string(),
            Unit::Seconds,
            0.02,
            load.clone(),
            "Weight bytes over one chip's HBM bandwidth; each chip reads its own shard.".to_string(),
            vec![
                format!("c = 2 · {} bytes ÷ {} = {}: the bound is {}/N.", sci(p), bw_text(bw), format::seconds(load.value), format::seconds(load.value)),
                "This is what the chapter's code calls the parameters' comms time (HBM to the cores), not the link between chips.".to_string(),
            ],
        )
        .mistake_number(load.value / 2.0, "That is int8's one byte a weight; the setup takes bf16, 2 bytes.".to_string())
        .mistake_number(2.0 * p / (bw / 2.0), "That halves the bandwidth; a chip reads its HBM at the full rate.".to_string()),
        Part::number(
            "d",
            "At how many tokens per step (the batch) do the two bounds meet?".to_string(),
            Unit::None,
            0.02,
            with_eras(&bf, &|c| {
                let (pk, w) = peak_bw(c, Bf16)?;
                Ok(pk / w)
            })?,
            "A step of B tokens does B times part (b)'s FLOPs but reads the weights once.".to_string(),
            vec![format!("B · c_FLOPs = c_bytes ⇔ B = {} ÷ {} = {}: the bf16 critical batch.", format::seconds(load.value), format::seconds(math.value), sig(load.value / math.value, 4))],
        )
        .mistake_number(peak / bw / 2.0, "That is the int8-weights batch; with bf16 weights each byte carries half as many FLOPs, so twice the batch.".to_string()),
    ];
    let q = question(
        "p8-q1",
        &source(1),
        format!(
            "{} ({} parameters) on {name} chips ({} bf16, HBM at {} each), weights in bf16 (the question does not say; the app takes bf16). Ignore that the model does not fit on one chip.{}",
            pr.name,
            sci(p),
            rate_text(peak, Bf16),
            bw_text(bw),
            era_note(&bf)
        ),
        parts,
        calc,
    )?;
    Ok(opens(q, page_preset(pr.id, 1.0, 0.0, Bf16, Bf16)?))
}

/// Worked problem 2: LLaMA 3-8B at a batch of 240 in int8: its weights, KV
/// caches and activations, and the smallest slice that holds them.
pub(super) fn p8_q2(d: &mut Draw) -> Result<Question, CoreError> {
    let pr = model(d, "llama3-8b", &["llama3-8b", "llama2-13b", "mixtral-8x7b"])?;
    let b = d.pick(240.0, &[64.0, 120.0, 240.0, 480.0]);
    let ctx = d.pick(8192.0, &[2048.0, 4096.0, 8192.0]);
    let m = &pr.config;
    let one = chips_setup("v5e", 1, m.d_model, m.d_ff);
    let cap = hbm_capacity(&one)?;
    let p = m.params();
    let kv = m.kv_bytes_per_token(Int8) * ctx * b;
    let act = 2.0 * b * m.d_ff;
    let total = p + kv + act;
    let raw = (total / cap).ceil();
    let (chips, shape) = slice_for(raw).ok_or_else(|| invalid("no slice holds it"))?;
    if chips == raw {
        return Err(invalid("the slice rule makes no difference"));
    }
    let gqa = m.heads / m.kv_heads;
    let act_era = Era::new(
        "the gate's and the up projection's outputs both held (4·B·F bytes)".to_string(),
        "one B×F array (2·B·F) is the rough figure".to_string(),
    );
    let parts = vec![
        Part::number(
            "a",
            "How many bytes do the int8 parameters take?".to_string(),
            Unit::Bytes,
            0.02,
            (p, Vec::new()),
            "One byte a parameter.".to_string(),
            vec![format!("{} parameters: {}.", sci(p), format::bytes(p))],
        )
        .mistake_number(2.0 * p, "That is bf16's 2 bytes a parameter; int8 takes one.".to_string()),
        Part::number(
            "b",
            format!("And the int8 KV caches, for {} sequences of {} tokens (the app's context length)?", whole(b), whole(ctx)),
            Unit::Bytes,
            0.02,
            (kv, Vec::new()),
            "2·L·K·H bytes a token, times the tokens, times the sequences.".to_string(),
            vec![format!("2 · {} · {} · {} · {} · {} = {}.", whole(m.layers), whole(m.kv_heads), whole(m.head_dim), whole(ctx), whole(b), format::bytes(kv))],
        )
        .mistake_number(kv * gqa, "That caches every query head; grouped-query attention keeps only the K KV heads.".to_string())
        .mistake_number(2.0 * kv, "That is bf16's 2 bytes a number; the caches are int8.".to_string())
        .mistake_number(kv / m.layers, "That is one layer's; every layer caches its own.".to_string()),
        Part::number(
            "c",
            "Roughly how many bytes do the working activations take at their peak? Take the largest: the MLP's hidden activations for the batch, B×F in bf16.".to_string(),
            Unit::Bytes,
            0.1,
            (act, vec![(2.0 * act, act_era)]),
            "A decode step holds one token per sequence: B rows of F numbers, 2 bytes each.".to_string(),
            vec![
                format!("2 · {} · {} = {}: tiny next to the weights and the caches.", whole(b), whole(m.d_ff), format::bytes(act)),
            ],
        )
        .mistake_number(act / 2.0, "That is one byte a number; the activations are bf16, 2 bytes.".to_string())
        .mistake_number(act * ctx, "That holds every token of the context; a decode step's activations are one token per sequence (the past lives in the KV cache).".to_string()),
        Part::number(
            "d",
            "How many chips has the smallest TPU v5e slice (16 GB each) that holds it all?".to_string(),
            Unit::None,
            0.002,
            (chips, Vec::new()),
            "Add the three, divide by one chip's HBM, round up, then take the first slice that large.".to_string(),
            vec![
                format!("({} + {} + {}) ÷ {} = {}: at least {} chips.", sci(p), sci(kv), sci(act), sci(cap), sig(total / cap, 3), whole(raw)),
                format!("The smallest slice of {} or more is a {shape}: {} chips.", whole(raw), whole(chips)),
                page_heads(m, chips, "it finds the caches too large for this slice"),
            ]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect(),
        )
        .mistake_number(raw, format!("That many chips hold it, but {}: take the first slice at least that large.", shapes_text()))
        .mistake_number((total / cap).floor().max(1.0), "Round up: a fraction of a chip still needs a whole one.".to_string()),
    ];
    let q = question(
        "p8-q2",
        &source(2),
        format!(
            "Serve {} at a batch of {} with int8 weights and int8 KV caches on TPU v5e, sequences of {} tokens (the book gives no length; the app takes {}).",
            pr.name, whole(b), whole(ctx), whole(ctx)
        ),
        parts,
        chips_setup("v5e", chips as u32, m.d_model, m.d_ff),
    )?;
    Ok(opens(q, page_preset(pr.id, b, ctx, Int8, Int8)?))
}

/// What the Model page shows with more chips than KV heads, or nothing.
fn page_heads(m: &ModelConfig, chips: f64, what: &str) -> String {
    if chips * (m.kv_heads / chips).ceil() > m.kv_heads {
        format!("The Model page splits the {} KV heads over the chips; with {} chips it keeps some heads on several and counts those copies too, so {what}: the book's sums shard the caches over every chip.", whole(m.kv_heads), whole(chips))
    } else {
        String::new()
    }
}

/// A decode step of `b` sequences of `ctx` tokens: the book's formula.
fn step(m: &ModelConfig, b: f64, ctx: f64, c: f64, w: f64) -> f64 {
    let p = m.params();
    b * ctx * m.kv_bytes_per_token(Int8) / w + (2.0 * b * p / c).max(p / w)
}

/// The largest batch whose step fits `limit`: the step grows with B, so
/// the smaller of the two branches' solutions.
fn largest_batch(m: &ModelConfig, ctx: f64, c: f64, w: f64, limit: f64) -> f64 {
    let p = m.params();
    let kv = ctx * m.kv_bytes_per_token(Int8) / w;
    let bandwidth = (limit - p / w) / kv;
    let compute = limit / (kv + 2.0 * p / c);
    bandwidth.min(compute).floor()
}

/// Worked problem 3: LLaMA 3-405B under 15 ms a token: the chips the
/// weights need, the step on them, the fewest chips that meet the limit,
/// the least step on a pod, and the batch and throughput on that slice.
pub(super) fn p8_q3(d: &mut Draw) -> Result<Question, CoreError> {
    let pr = model(d, "llama31-405b", &["llama3-70b", "llama31-405b"])?;
    let limit = d.pick(15e-3, &[10e-3, 15e-3, 20e-3, 30e-3]);
    let ctx = d.pick(8192.0, &[4096.0, 8192.0]);
    let m = &pr.config;
    let one = chips_setup("v5e", 1, m.d_model, m.d_ff);
    let cap = hbm_capacity(&one)?;
    let p = m.params();
    let (hold, hold_shape) = slice_for(p / cap).ok_or_else(|| invalid("too large"))?;
    let t_hold = with_eras(&one, &|c| Ok(p / (hold * peak_bw(c, Bf16)?.1)))?;
    // The fewest chips meeting the limit, the same with either bandwidth.
    let fewest = |c: &CalcSetup| -> Result<f64, CoreError> {
        let w = peak_bw(c, Bf16)?.1;
        V5E_SLICES
            .iter()
            .copied()
            .find(|n| *n >= hold && p / (n * w) < limit)
            .ok_or_else(|| invalid("no slice meets the limit"))
    };
    let n = fewest(&one)?;
    if with_eras(&one, &fewest)?.eras.iter().any(|(v, _)| *v != n) || n == hold {
        return Err(invalid("the fewest chips depend on the bandwidth"));
    }
    let (_, n_shape) = slice_for(n).ok_or_else(|| invalid("no slice"))?;
    let pod = 256.0;
    let t_pod = with_eras(&one, &|c| Ok(p / (pod * peak_bw(c, Bf16)?.1)))?;
    let on_n = |c: &CalcSetup| -> Result<(f64, f64), CoreError> {
        let (peak, w) = peak_bw(c, Bf16)?;
        Ok((n * peak, n * w))
    };
    let fits = ((n * cap - p) / (ctx * m.kv_bytes_per_token(Int8))).floor();
    let batch_of = |c: &CalcSetup| -> Result<f64, CoreError> {
        let (cc, w) = on_n(c)?;
        Ok(largest_batch(m, ctx, cc, w, limit).min(fits))
    };
    let batch = with_eras(&one, &batch_of)?;
    if batch.value < 2.0 {
        return Err(invalid("no batch meets the limit"));
    }
    let per_chip = with_eras(&one, &|c| {
        let (cc, w) = on_n(c)?;
        let b = batch_of(c)?;
        Ok(b / step(m, b, ctx, cc, w) / n)
    })?;
    let (peak, bw) = peak_bw(&one, Bf16)?;
    let (cc, w) = (n * peak, n * bw);
    let crit = peak / bw / 2.0;
    let no_kv = (limit * cc / (2.0 * p)).floor();
    let ms = format::seconds;
    let parts = vec![
        Part::number(
            "a",
            format!("How many chips has the smallest v5e slice ({} each) that holds the int8 weights?", format::bytes(cap)),
            Unit::None,
            0.002,
            (hold, Vec::new()),
            "One byte a parameter, over one chip's HBM; then the first slice that large (the caches need room too).".to_string(),
            vec![format!("{} ÷ {} = {}: a {hold_shape}, {} chips.", sci(p), sci(cap), sig(p / cap, 3), whole(hold))],
        )
        .mistake_number((p / cap).ceil(), format!("That many chips hold the weights, but {}.", shapes_text()))
        .mistake_number(slice_for(2.0 * p / cap).map_or(0.0, |s| s.0), "That is bf16's 2 bytes a weight; int8 takes one.".to_string()),
        Part::number(
            "b",
            "On that slice, at a tiny batch, at least how long is a decode step?".to_string(),
            Unit::Seconds,
            0.03,
            t_hold.clone(),
            "Every step reads every weight once; the chips read their shards at once.".to_string(),
            vec![format!("{} ÷ ({} · {}) = {}: {} the {} limit.", sci(p), whole(hold), bw_text(bw), ms(t_hold.value), if t_hold.value > limit { "over" } else { "within" }, ms(limit))],
        )
        .mistake_number(2.0 * t_hold.value, "That is bf16's 2 bytes a weight; int8 takes one.".to_string())
        .mistake_number(hold * t_hold.value, "That is one chip's bandwidth; every chip reads its own shard at once.".to_string()),
        Part::number(
            "c",
            format!("How many chips has the smallest slice whose step can be under {}?", ms(limit)),
            Unit::None,
            0.002,
            (n, Vec::new()),
            "The weights' read time falls as the chips grow; find the first slice where it drops below the limit.".to_string(),
            vec![format!("{} ÷ ({} · {}) = {}: a {n_shape}, {} chips, leaving room for the caches' read.", sci(p), whole(n), bw_text(bw), ms(p / w), whole(n))],
        )
        .mistake_number(hold, "That slice holds the weights, but reading them takes longer than the limit.".to_string()),
        Part::number(
            "d",
            "What is the least a step can take, on a whole v5e pod (16x16, 256 chips), ignoring the links?".to_string(),
            Unit::Seconds,
            0.03,
            t_pod.clone(),
            "The weights read once over all the chips' bandwidth.".to_string(),
            vec![format!("{} ÷ (256 · {}) = {}: the theoretical minimum; more chips than this no v5e slice has.", sci(p), bw_text(bw), ms(t_pod.value))],
        )
        .mistake_number(2.0 * t_pod.value, "That is bf16's 2 bytes a weight; int8 takes one.".to_string()),
        Part::number(
            "e",
            format!("On {} chips, with sequences of {} tokens (the app's), what is the largest batch whose step stays within {}?", whole(n), whole(ctx), ms(limit)),
            Unit::None,
            0.03,
            batch.clone(),
            "The step is B·S·KV ÷ W + max(2·B·P ÷ C, P ÷ W): solve it for the limit, and check the batch fits in HBM.".to_string(),
            vec![
                format!("KV read: {} bytes a sequence ÷ {} = {} a sequence; weights: max(B · {}, {}).", sci(ctx * m.kv_bytes_per_token(Int8)), bw_text(w), ms(ctx * m.kv_bytes_per_token(Int8) / w), ms(2.0 * p / cc), ms(p / w)),
                format!("Above B = {} (int8 weights, bf16 math) the math binds: B ≤ {} ÷ ({} + {}) = {}.", sig(crit, 3), ms(limit), ms(ctx * m.kv_bytes_per_token(Int8) / w), ms(2.0 * p / cc), whole(batch.value)),
                format!("HBM holds {} such sequences beside the weights.", whole(fits)),
                page_heads(m, n, "its KV read, and its step, come out longer"),
            ]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect(),
        )
        .mistake_number(no_kv, "That leaves out the KV caches' read; each step reads every sequence's cache too.".to_string())
        .mistake_number(crit, "That is the critical batch, where the math starts to bind; the step can grow past it until it reaches the limit.".to_string()),
        Part::number(
            "f",
            "How many tokens per second does each chip make then?".to_string(),
            Unit::None,
            0.03,
            per_chip.clone(),
            "The batch ÷ the step time ÷ the chips.".to_string(),
            vec![
                format!("{} ÷ {} ÷ {} = {} tokens/s per chip.", whole(batch.value), ms(step(m, batch.value, ctx, cc, w)), whole(n), sig(per_chip.value, 3)),
                "Once the math binds, more chips raise the batch with them: the throughput per chip stays about this, so the smallest slice that meets the limit is as good as any (the links aside).".to_string(),
            ],
        )
        .mistake_number(per_chip.value * n, "That is the whole slice's rate; divide by the chips.".to_string()),
    ];
    let q = question(
        "p8-q3",
        &source(3),
        format!(
            "Serve {} on TPU v5e ({} bf16 and {} of HBM at {} each) with int8 weights and KV caches and bf16 math, at most {} a token; part (e) takes sequences of {} tokens (the app's).{}",
            pr.name,
            rate_text(peak, Bf16),
            format::bytes(cap),
            bw_text(bw),
            ms(limit),
            whole(ctx),
            era_note(&one)
        ),
        parts,
        chips_setup("v5e", n as u32, m.d_model, m.d_ff),
    )?;
    let mut page = page_preset(pr.id, batch.value, ctx, Int8, Int8)?;
    page.step.act = Bf16;
    Ok(opens(q, page))
}
