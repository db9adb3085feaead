//! Part 8's questions, serving LLaMA 3 (`p8-pop…`): the questions the
//! chapter asks in its text, in their order (the KV cache and how many
//! chips hold it, the memory and slice of a batch, the step time and
//! throughput, the critical batch for three data-type choices, how many
//! chips the weights fill, and the step time with HBM full).

use crate::format::{sci, sig};
use crate::model::{preset, Preset};
use crate::quiz::answer::Unit;
use crate::quiz::{CalcSetup, Expected, Mistake, Part, Question, SOURCE_POP};
use crate::{format, CoreError, DType, LevelKind};

use super::feedback::{era_note, with_eras};
use super::helpers::{matmul, question};
use super::models::{chips_setup, hbm_capacity, opens, page_preset, peak_bw, whole};
use super::setup::approx_threshold;
use super::texts::{bw_text, rate_text};
use super::{invalid, Draw};

use DType::{Bf16, Int4, Int8};
use LevelKind::Hbm;

fn source(n: u32) -> String {
    format!("Part 8, {} {n}", SOURCE_POP.to_lowercase())
}

/// The chapter's LLaMA 3-70B, or another dense preset in a variant.
fn served(d: &mut Draw) -> Result<&'static Preset, CoreError> {
    let id = d.pick(
        "llama3-70b",
        &["llama3-8b", "llama2-13b", "llama3-70b", "llama31-405b"],
    );
    preset(id).ok_or_else(|| invalid("no such model"))
}

/// The first power of two of chips whose HBM holds `bytes`.
fn chips_for(bytes: f64, cap: f64) -> u32 {
    let mut n = 1u32;
    while f64::from(n) * cap < bytes && n < 4096 {
        n *= 2;
    }
    n
}

/// What the Model page shows with more chips than KV heads.
const SPLIT_HEADS: &str = "The Model page splits the KV heads over the chips; with more chips than KV heads it keeps each head on several chips and counts that memory again, so it needs more chips than this.";

fn v5e() -> CalcSetup {
    chips_setup("v5e", 1, 8192.0, 8192.0)
}

/// The KV cache per token, per sequence and per batch, and the chips that
/// hold it with the weights.
pub(super) fn p8_pop1(d: &mut Draw) -> Result<Question, CoreError> {
    let pr = served(d)?;
    let ctx = d.pick(32768.0, &[8192.0, 16384.0, 32768.0]);
    let b = d.pick(240.0, &[64.0, 120.0, 240.0]);
    let m = &pr.config;
    let cap = hbm_capacity(&v5e())?;
    let kv = m.kv_bytes_per_token(Int8);
    let gqa = m.heads / m.kv_heads;
    let (seq, batch) = (kv * ctx, kv * ctx * b);
    let p = m.params();
    let chips = ((p + batch) / cap).ceil();
    // The book takes 160e3 bytes a token and 70e9 parameters, and rounds
    // the caches to two digits (1.3e12) before dividing: one chip more,
    // judged close rather than wrong.
    let mut book = None;
    if d.is_book() {
        let caches = 160e3 * ctx * b;
        let r = 10f64.powi(caches.log10().floor() as i32 - 1);
        let rounded = (caches / r).round() * r;
        let then = ((70e9 + rounded) / cap).ceil();
        if then != chips {
            book = Some(Mistake {
                answer: Expected::Number {
                    value: then,
                    also_accept: Vec::new(),
                },
                hint: format!(
                    "That is the book's count: it takes 160e3 bytes a token and 70e9 parameters and rounds the caches to {}. With {} bytes and {} parameters they fill {} chips, so {} suffice.",
                    sci(rounded),
                    whole(kv),
                    sci(p),
                    sig((p + batch) / cap, 3),
                    whole(chips)
                ),
                close: true,
            });
        }
    }
    let parts = vec![
        Part::number(
            "a",
            "How many bytes of int8 KV cache does one token take?".to_string(),
            Unit::Bytes,
            0.03,
            (kv, Vec::new()),
            "A key and a value for each KV head of each layer, one byte a number.".to_string(),
            vec![
                format!("2·K·H·L = 2·{}·{}·{} = {} bytes ({}).", whole(m.kv_heads), whole(m.head_dim), whole(m.layers), whole(kv), format::bytes(kv)),
                "The tolerance is 3%, so that 160 kB and 160 KiB both pass.".to_string(),
            ],
        )
        .mistake_number(kv * gqa, "That counts every query head; grouped-query attention caches only the K KV heads, each shared by N/K query heads.".to_string())
        .mistake_number(2.0 * kv, "That is bf16's 2 bytes a number; int8 takes one.".to_string())
        .mistake_number(kv / 2.0, "That keeps keys or values only; the cache holds both.".to_string())
        .mistake_number(kv / m.layers, "That is one layer's; every layer caches its own.".to_string()),
        Part::number(
            "b",
            format!("And one sequence of {} tokens?", whole(ctx)),
            Unit::Bytes,
            0.03,
            (seq, Vec::new()),
            "Per token times tokens.".to_string(),
            vec![format!("{} · {} = {}.", whole(kv), whole(ctx), format::bytes(seq))],
        )
        .mistake_number(seq * gqa, "That counts every query head; grouped-query attention caches only the K KV heads.".to_string()),
        Part::number(
            "c",
            format!("And a batch of {} such sequences?", whole(b)),
            Unit::Bytes,
            0.03,
            (batch, Vec::new()),
            "Per sequence times the batch.".to_string(),
            vec![format!("{} · {} = {}, against {} of int8 weights.", format::bytes(seq), whole(b), format::bytes(batch), format::bytes(p))],
        ),
        Part::number(
            "d",
            format!("How many TPU v5e chips ({} each) does it take to hold the int8 weights and that batch's caches?", format::bytes(cap)),
            Unit::None,
            0.002,
            (chips, Vec::new()),
            "Add the weights (one byte a parameter) to the caches, divide by one chip's HBM and round up.".to_string(),
            [
                format!("({} + {}) ÷ {} = {}, so {} chips.", sci(p), sci(batch), sci(cap), sig((p + batch) / cap, 4), whole(chips)),
                SPLIT_HEADS.to_string(),
            ]
            .into_iter()
            .take(if chips > m.kv_heads { 2 } else { 1 })
            .collect(),
        )
        .mistake_number(chips - 1.0, "Round up: a fraction of a chip still needs a whole one.".to_string())
        .mistake_number((batch / cap).ceil(), "That leaves out the weights; they take HBM too.".to_string()),
    ];
    let mut parts = parts;
    if let (Some(m), Some(last)) = (book, parts.last_mut()) {
        last.mistakes.push(m);
    }
    let q = question(
        "p8-pop1",
        &source(1),
        format!(
            "{} has L = {}, K = {} KV heads (N = {} query heads) and H = {}; it keeps its KV cache in int8 and is served on TPU v5e.",
            pr.name, whole(m.layers), whole(m.kv_heads), whole(m.heads), whole(m.head_dim)
        ),
        parts,
        chips_setup("v5e", chips as u32, m.d_model, m.d_ff),
    )?;
    Ok(opens(q, page_preset(pr.id, b, ctx, Int8, Int8)?))
}

/// The memory of a batch, the slice that holds it, its step time and
/// throughput, on that slice and on one twice as large.
pub(super) fn p8_pop2(d: &mut Draw) -> Result<Question, CoreError> {
    let pr = served(d)?;
    let b = d.pick(32.0, &[16.0, 32.0, 64.0]);
    let ctx = d.pick(8192.0, &[4096.0, 8192.0]);
    let m = &pr.config;
    let cap = hbm_capacity(&v5e())?;
    let p = m.params();
    let kv = m.kv_bytes_per_token(Int8) * ctx * b;
    let mem = p + kv;
    let chips = (mem / cap).ceil();
    let gqa = m.heads / m.kv_heads;
    let mut slice = vec![format!(
        "{} ÷ {} = {}, so {} chips.",
        sci(mem),
        sci(cap),
        sig(mem / cap, 3),
        whole(chips)
    )];
    if d.is_book() {
        slice.push("The book divides 112e9 by 16e9 to get 7, then rounds to an even 4x2 slice, 8 chips; with the exact sizes the memory needs a little more than 7 chips.".to_string());
    }
    let parts = vec![
        Part::number(
            "a",
            "How much memory do the weights and KV caches take, all in int8?".to_string(),
            Unit::Bytes,
            0.02,
            (mem, Vec::new()),
            "One byte a parameter, plus the batch's caches: KV bytes per token × tokens × sequences.".to_string(),
            vec![format!("{} + {} · {} · {} = {}.", sci(p), whole(m.kv_bytes_per_token(Int8)), whole(ctx), whole(b), format::bytes(mem))],
        )
        .mistake_number(p + kv * gqa, "That caches every query head; grouped-query attention keeps K KV heads.".to_string())
        .mistake_number(p, "That leaves out the KV caches.".to_string())
        .mistake_number(2.0 * mem, "That is bf16's 2 bytes a number; everything here is int8.".to_string()),
        Part::number(
            "b",
            format!("How many TPU v5e chips ({} each) does that take at least?", format::bytes(cap)),
            Unit::None,
            0.002,
            (chips, Vec::new()),
            "Divide by one chip's HBM and round up.".to_string(),
            slice,
        )
        .mistake_number(chips - 1.0, "Round up: the memory needs a fraction of one more chip, and a chip is whole.".to_string()),
    ];
    let q = question(
        "p8-pop2",
        &source(2),
        format!(
            "Serve {} with a batch of {} sequences of {} tokens, weights and KV caches in int8, on TPU v5e.",
            pr.name, whole(b), whole(ctx)
        ),
        parts,
        chips_setup("v5e", chips as u32, m.d_model, m.d_ff),
    )?;
    Ok(opens(q, page_preset(pr.id, b, ctx, Int8, Int8)?))
}

/// A decode step's time and throughput per chip on a slice, and on a
/// slice twice as large.
pub(super) fn p8_pop3(d: &mut Draw) -> Result<Question, CoreError> {
    let pr = served(d)?;
    let b = d.pick(32.0, &[16.0, 32.0, 64.0]);
    let ctx = d.pick(8192.0, &[4096.0, 8192.0]);
    let m = &pr.config;
    let one = v5e();
    let cap = hbm_capacity(&one)?;
    let p = m.params();
    let kv = m.kv_bytes_per_token(Int8) * ctx * b;
    let n = chips_for(p + kv, cap);
    let nf = f64::from(n);
    if nf * (m.kv_heads / nf).ceil() > m.kv_heads {
        // The Model page would keep some KV heads on several chips.
        return Err(invalid("more chips than KV heads"));
    }
    let step_on = |c: &CalcSetup, chips: f64| -> Result<f64, CoreError> {
        let (peak, bw) = peak_bw(c, Bf16)?;
        Ok(kv / (chips * bw) + (2.0 * b * p / (chips * peak)).max(p / (chips * bw)))
    };
    let t = with_eras(&one, &|c| step_on(c, nf))?;
    let t2 = with_eras(&one, &|c| step_on(c, 2.0 * nf))?;
    let per_chip = with_eras(&one, &|c| Ok(b / step_on(c, nf)? / nf))?;
    let (peak, bw) = peak_bw(&one, Bf16)?;
    let crit = peak / bw / 2.0;
    if b >= crit {
        return Err(invalid("the batch is compute-bound"));
    }
    let parts = vec![
        Part::number(
            "a",
            format!("On {n} chips, about how long is a decode step?"),
            Unit::Seconds,
            0.03,
            t.clone(),
            "Below the critical batch (about 120 with int8 weights and bf16 math) every step reads the weights and the caches once: their bytes ÷ the slice's bandwidth.".to_string(),
            vec![
                format!("The batch, {}, is below {} (bf16 peak ÷ bandwidth ÷ 2 for 1-byte weights): bandwidth-bound.", whole(b), sig(crit, 3)),
                format!("({} + {}) ÷ ({n} · {}) = {}.", sci(p), sci(kv), bw_text(bw), format::seconds(t.value)),
            ],
        )
        .mistake_number(p / (nf * bw), "That reads the weights only; each step reads the batch's KV caches too.".to_string())
        .mistake_number(t.value * nf, "That is one chip's bandwidth; every chip reads its own shard at once.".to_string()),
        Part::number(
            "b",
            "How many tokens per second does each chip make?".to_string(),
            Unit::None,
            0.03,
            per_chip.clone(),
            "A step makes one token per sequence: the batch ÷ the step time, shared by the chips.".to_string(),
            vec![format!("{} ÷ {} ÷ {n} = {} tokens/s per chip.", whole(b), format::seconds(t.value), sig(per_chip.value, 3))],
        )
        .mistake_number(per_chip.value * nf, "That is the whole slice's rate; divide by the chips.".to_string()),
        Part::number(
            "c",
            format!("And the step on {} chips?", 2 * n),
            Unit::Seconds,
            0.03,
            t2.clone(),
            "Twice the chips read twice the bytes per second.".to_string(),
            vec![
                format!("{} ÷ 2 = {}.", format::seconds(t.value), format::seconds(t2.value)),
                "The tokens per second per chip stay the same: the step halves, the chips double.".to_string(),
            ],
        )
        .mistake_number(t.value, "The step shortens: twice the chips bring twice the bandwidth.".to_string()),
    ];
    let q = question(
        "p8-pop3",
        &source(3),
        format!(
            "{} serves a batch of {} sequences of {} tokens, weights and KV caches in int8, math in bf16, fully sharded over TPU v5e chips ({} and {} each).{}",
            pr.name, whole(b), whole(ctx), rate_text(peak, Bf16), bw_text(bw), era_note(&one)
        ),
        parts,
        chips_setup("v5e", n, m.d_model, m.d_ff),
    )?;
    Ok(opens(q, page_preset(pr.id, b, ctx, Int8, Int8)?))
}

/// The critical batch with bf16 weights, int8 weights and bf16 math, and
/// int8 throughout.
pub(super) fn p8_pop4(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick("v5e", &["v4p", "v5e", "v5p", "v6e", "tpu7x"]);
    let setup = |x: DType, w: DType, out: DType| {
        CalcSetup::new(
            chip,
            &matmul(x, w, out),
            &[("B", 64.0), ("D", 8192.0), ("F", 28672.0)],
            Hbm,
        )
    };
    let (bf, mixed, int) = (
        setup(Bf16, Bf16, Bf16),
        setup(Bf16, Int8, Bf16),
        setup(Int8, Int8, Int8),
    );
    let thr = |c: &CalcSetup| Ok(approx_threshold(c)?.0);
    let (t_bf, t_mixed, t_int) = (
        with_eras(&bf, &thr)?,
        with_eras(&mixed, &thr)?,
        with_eras(&int, &thr)?,
    );
    let name = bf.chip()?.name;
    let (pb, bw) = peak_bw(&bf, Bf16)?;
    let (pi, _) = peak_bw(&int, Int8)?;
    let parts = vec![
        Part::number(
            "a",
            "With bf16 weights and activations, above what batch are the weight matmuls compute-bound?".to_string(),
            Unit::None,
            0.015,
            t_bf.clone(),
            "With B much smaller than D and F the intensity is 2BDF ÷ 2DF = B; compare with the peak ÷ bandwidth.".to_string(),
            vec![format!("B > {} ÷ {} = {}.", rate_text(pb, Bf16), bw_text(bw), sig(t_bf.value, 4))],
        )
        .mistake_number(t_bf.value / 2.0, "That is the int8-weights answer; bf16 weights take 2 bytes each, so the intensity is B, not 2B.".to_string())
        .with_calc(bf.clone()),
        Part::number(
            "b",
            "With int8 weights and bf16 math?".to_string(),
            Unit::None,
            0.015,
            t_mixed.clone(),
            "The weights now take one byte each: the intensity doubles to 2B, the peak is still bf16's.".to_string(),
            vec![format!("2B > {} ⇔ B > {}.", sig(pb / bw, 4), sig(t_mixed.value, 4))],
        )
        .mistake_number(t_bf.value, "That is the bf16 answer; 1-byte weights give each byte twice the FLOPs, so half the batch suffices.".to_string())
        .with_calc(mixed.clone()),
        Part::number(
            "c",
            "With int8 weights and int8 math?".to_string(),
            Unit::None,
            0.015,
            t_int.clone(),
            "Intensity 2B again, but the int8 peak is about twice bf16's.".to_string(),
            vec![format!("2B > {} ÷ {} ⇔ B > {}.", rate_text(pi, Int8), bw_text(bw), sig(t_int.value, 4))],
        )
        .mistake_number(t_mixed.value, "That uses the bf16 peak; int8 math runs at about twice the rate, so twice the batch is needed.".to_string())
        .with_calc(int.clone()),
    ];
    question(
        "p8-pop4",
        &source(4),
        format!(
            "Decode on {name}: the weight matmuls multiply a batch of B tokens by D×F weights, B much smaller than D and F.{}",
            era_note(&bf)
        ),
        parts,
        mixed,
    )
}

/// How many chips' HBM the weights fill in bf16, int8 and int4.
pub(super) fn p8_pop5(d: &mut Draw) -> Result<Question, CoreError> {
    let pr = served(d)?;
    let m = &pr.config;
    let cap = hbm_capacity(&v5e())?;
    let p = m.params();
    let fill = |t: DType| p * t.bytes() / cap;
    let mut parts = Vec::new();
    for (id, t) in [("a", Bf16), ("b", Int8), ("c", Int4)] {
        let mut solution = vec![format!(
            "{} · {} bytes ÷ {} = {} chips' HBM; a slice needs the next whole (and even) number of chips.",
            sci(p),
            sig(t.bytes(), 2),
            sci(cap),
            sig(fill(t), 3)
        )];
        let mut part = Part::number(
            id,
            format!("In {t}, how many chips' worth of HBM do the weights fill?"),
            Unit::None,
            0.02,
            (fill(t), Vec::new()),
            format!("Parameters × bytes per parameter in {t}, ÷ one chip's HBM."),
            Vec::new(),
        )
        .mistake_number(
            fill(t) * 2.0,
            format!("That takes twice {t}'s bytes per parameter."),
        )
        .mistake_number(
            fill(t) / 2.0,
            format!("That takes half {t}'s bytes per parameter."),
        );
        if t == Int4 && d.is_book() {
            solution.push(
                "The book's table prints 2.81 here, a slip: 35e9 ÷ 16e9 is 2.19.".to_string(),
            );
            part = part.mistake_number(2.81, "That is the book's table, which has a slip here: 35e9 bytes ÷ 16e9 is 2.19, not 2.81.".to_string());
        }
        part.solution = solution;
        parts.push(part);
    }
    let q = question(
        "p8-pop5",
        &source(5),
        format!(
            "Serve {} ({} parameters) on TPU v5e chips of {} HBM, at a tiny batch: the KV caches are negligible.",
            pr.name,
            sci(p),
            format::bytes(cap)
        ),
        parts,
        chips_setup("v5e", 16, m.d_model, m.d_ff),
    )?;
    Ok(opens(q, page_preset(pr.id, 1.0, 8192.0, Bf16, Bf16)?))
}

/// The step time when the batch fills HBM.
pub(super) fn p8_pop6(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick(
        "v5e",
        &["v4p", "v5e", "v5p", "v6e", "tpu7x", "h100", "h200", "b200"],
    );
    let one = chips_setup(chip, 1, 8192.0, 8192.0);
    let cap = hbm_capacity(&one)?;
    let name = one.chip()?.name;
    let t = with_eras(&one, &|c| Ok(cap / peak_bw(c, Bf16)?.1))?;
    let bw = peak_bw(&one, Bf16)?.1;
    let parts = vec![Part::number(
        "a",
        "With the batch as large as HBM allows, about how long does a decode step take?".to_string(),
        Unit::Seconds,
        0.03,
        t.clone(),
        "Each step reads every byte of HBM once (weights and caches): one chip's HBM ÷ its bandwidth, whatever the chip count.".to_string(),
        vec![format!("{} ÷ {} = {}.", format::bytes(cap), bw_text(bw), format::seconds(t.value))],
    )
    .mistake_number(t.value * 2.0, "That takes twice the bytes; a full HBM is read once a step.".to_string())];
    let q = question(
        "p8-pop6",
        &source(6),
        format!(
            "Serve a model bandwidth-bound on {name} chips ({} of HBM at {} each), with the batch grown until the weights and KV caches fill HBM.{}",
            format::bytes(cap),
            bw_text(bw),
            era_note(&one)
        ),
        parts,
        one.clone(),
    )?;
    // The page: LLaMA 3-70B in int8 on 8 chips, with the largest batch of
    // 8192-token sequences that fits (the page's decode step caches one
    // more token).
    let pr = preset("llama3-70b").ok_or_else(|| invalid("no such model"))?;
    let n = 8.0;
    let kv_seq = 8193.0 * pr.config.kv_bytes_per_token(Int8);
    let b = ((n * cap - pr.config.params()) / kv_seq).floor();
    if b < 1.0 {
        return Err(invalid("nothing fits"));
    }
    let mut q = q;
    q.calc.chips = 8;
    Ok(opens(q, page_preset(pr.id, b, 8192.0, Int8, Int8)?))
}
