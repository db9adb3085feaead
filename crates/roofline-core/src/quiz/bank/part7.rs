//! Part 7's questions, the inference chapter (`p7-…`): the pop quiz on a
//! decode step's lower bound, and the worked problems on the chapter's
//! model (parameters, KV cache, the largest batch, the weights' load time,
//! the same model as an MoE).

use crate::format::{sci, sig};
use crate::model::ModelConfig;
use crate::quiz::answer::Unit;
use crate::quiz::{CalcSetup, Part, Question, SOURCE_POP, SOURCE_PRACTICE};
use crate::{format, CoreError, DType, LevelKind};

use super::feedback::{era_note, with_eras, Answers};
use super::helpers::{matmul, question};
use super::models::{
    chips_setup, count_text, dense, hbm_capacity, moe, opens, page, peak_bw, whole, PAGE_CRITICAL,
};
use super::texts::{bw_text, rate_text};
use super::{invalid, Draw};

use DType::{Bf16, Int8};
use LevelKind::Hbm;

fn source(what: &str, n: u32) -> String {
    format!("Part 7, {} {n}", what.to_lowercase())
}

/// The chapter's model, or a variant of it: L, K, H and F drawn.
pub(super) fn chapter_model(d: &mut Draw) -> (ModelConfig, &'static str) {
    let who = if d.is_book() {
        "The chapter's model"
    } else {
        "A model like the chapter's"
    };
    let l = d.pick(64.0, &[32.0, 40.0, 48.0, 64.0, 80.0]);
    let k = d.pick(8.0, &[4.0, 8.0, 16.0]);
    let h = d.pick(256.0, &[128.0, 256.0]);
    let f = d.pick(16384.0, &[11008.0, 14336.0, 16384.0]);
    (dense(l, 4096.0, f, 32.0, k, h, 32128.0, true), who)
}

pub(super) fn model_text((m, who): &(ModelConfig, &str)) -> String {
    format!(
        "{who}: L = {}, D = {}, F = {}, N = {} query heads, K = {} KV heads, H = {}, V = {}; a gated MLP (three D×F matrices) and one embedding matrix shared by the input and the output.",
        whole(m.layers),
        whole(m.d_model),
        whole(m.d_ff),
        whole(m.heads),
        whole(m.kv_heads),
        whole(m.head_dim),
        whole(m.vocab)
    )
}

/// The parameter count as the book writes it, L·D·(3F + 2H(N + K)) + D·V.
fn params_step(m: &ModelConfig, p: f64) -> String {
    format!(
        "{}·{}·(3·{} + 2·{}·({} + {})) + {}·{} ≈ {}; the norms add 2D a layer, a rounding error.",
        whole(m.layers),
        whole(m.d_model),
        whole(m.d_ff),
        whole(m.head_dim),
        whole(m.heads),
        whole(m.kv_heads),
        whole(m.d_model),
        whole(m.vocab),
        count_text(p)
    )
}

/// A decode step's lower bound: B·S·KV ÷ W + max(2·B·P ÷ C, P ÷ W).
fn step_bound(b: f64, ctx: f64, kv: f64, p: f64, c: f64, w: f64) -> f64 {
    b * ctx * kv / w + (2.0 * b * p / c).max(p / w)
}

/// The pop quiz: a decode step's lower bound at a small and a large batch.
pub(super) fn p7_pop1(d: &mut Draw) -> Result<Question, CoreError> {
    let p = d.pick(30e9, &[8e9, 13e9, 30e9, 70e9]);
    let kv = d.pick(100e3, &[50e3, 100e3, 200e3]);
    let ctx = d.pick(8192.0, &[2048.0, 4096.0, 8192.0]);
    let small = d.pick(4.0, &[1.0, 4.0, 8.0, 16.0]);
    let large = d.pick(256.0, &[128.0, 256.0, 512.0]);
    let chips = d.pick(16u32, &[8, 16, 32]);
    let n = f64::from(chips);
    let one = CalcSetup::new(
        "v5e",
        &matmul(Bf16, Int8, Bf16),
        &[("B", small), ("D", 8192.0), ("F", 8192.0)],
        Hbm,
    );
    let cap = hbm_capacity(&one)?;
    if large * ctx * kv + p > n * cap {
        return Err(invalid("the large batch does not fit"));
    }
    let at = |b: f64| {
        move |c: &CalcSetup| {
            let (peak, bw) = peak_bw(c, Bf16)?;
            Ok(step_bound(b, ctx, kv, p, n * peak, n * bw))
        }
    };
    let t_small = with_eras(&one, &at(small))?;
    let t_large = with_eras(&one, &at(large))?;
    let (peak, bw) = peak_bw(&one, Bf16)?;
    let (c, w) = (n * peak, n * bw);
    let kv_seq = ctx * kv;
    let parts_of = |b: f64, t: &Answers, id: &str| -> Part {
        let math = 2.0 * b * p / c;
        let load = p / w;
        let which = if math > load {
            "the weight matmuls are compute-bound: their FLOPs take longer than reading the weights"
        } else {
            "the weights' read takes longer than their FLOPs: bandwidth-bound"
        };
        Part::number(
            id,
            format!("With a batch of {} sequences, what is the step's lower bound?", whole(b)),
            Unit::Seconds,
            0.03,
            t.clone(),
            "Add the KV cache's read time (never compute-bound) to the larger of the weights' FLOP time and their read time, over all the chips together.".to_string(),
            vec![
                format!("KV read: {} · {} · {} bytes ÷ ({} · {}) = {}.", whole(b), whole(ctx), sci(kv), n, bw_text(bw), format::seconds(b * kv_seq / w)),
                format!("Weights: max(2 · {} · {} ÷ {}, {} ÷ {}) = max({}, {}): {which}.", whole(b), sci(p), rate_text(c, Bf16), sci(p), bw_text(w), format::seconds(math), format::seconds(load)),
                format!("Step ≥ {}.", format::seconds(t.value)),
            ],
        )
        .mistake_number(math.max(load), "That leaves out the KV cache: each step reads every sequence's cached keys and values too.".to_string())
        .mistake_number(b * kv_seq / w + math.max(2.0 * load), "That takes 2 bytes per weight, bf16's; the weights here are int8, one byte each.".to_string())
        .mistake_number(n * t.value, "That uses one chip's bandwidth and FLOPs; the weights and the cache are spread over every chip of the slice, and all of them work at once.".to_string())
        .mistake_number(b * kv_seq / w + math + load, "That adds the weights' FLOP and read times; they overlap, so the step takes the larger of the two.".to_string())
        .mistake_number(b * kv_seq / w + (6.0 * b * p / c).max(load), "That counts 6 FLOPs per parameter, training's; a forward step takes 2.".to_string())
    };
    let parts = vec![
        parts_of(small, &t_small, "a"),
        parts_of(large, &t_large, "b"),
    ];
    let mut calc = CalcSetup::new(
        "v5e",
        &matmul(Bf16, Int8, Bf16),
        &[
            ("B", large),
            ("D", p.sqrt().round()),
            ("F", p.sqrt().round()),
        ],
        Hbm,
    );
    // The slice as one chip: every chip's peak and bandwidth together.
    calc.peak_overrides.push((Bf16, c));
    calc.bw_overrides.push((Hbm, w));
    question(
        "p7-pop1",
        &format!("Part 7, {} 1", SOURCE_POP.to_lowercase()),
        format!(
            "A dense model of {} parameters decodes on {} TPU v5e chips ({} bf16 FLOPs/s and {} each), with int8 weights and bf16 math. Each sequence holds {} tokens of context, and its KV cache takes {} bytes a token.{} The calculator's link opens the weight matmul with D = F = √P on the {} chips taken as one.",
            sci(p),
            chips,
            sci(peak),
            bw_text(bw),
            whole(ctx),
            sci(kv),
            era_note(&one),
            chips
        ),
        parts,
        calc,
    )
}

/// The chapter's model: its parameters and its KV cache per token.
pub(super) fn p7_q1(d: &mut Draw) -> Result<Question, CoreError> {
    let named = chapter_model(d);
    let m = named.0.clone();
    let p = m.params();
    let mut mha = m.clone();
    mha.kv_heads = m.heads;
    let kv = m.kv_bytes_per_token(Int8);
    let parts = vec![
        Part::number(
            "a",
            "How many parameters does it have (e.g. 8e9)?".to_string(),
            Unit::None,
            0.01,
            (p, Vec::new()),
            "Per layer: three D×F MLP matrices, Q and O of D×NH, K and V of D×KH. Then one D×V embedding, shared.".to_string(),
            vec![
                "P = L·D·(3F + 2H·(N + K)) + D·V.".to_string(),
                params_step(&m, p),
            ],
        )
        .mistake_number(mha.params(), "That counts K and V with every query head, as full multi-head attention would; with grouped-query attention they have K heads, not N.".to_string())
        .mistake_number(p + m.d_model * m.vocab, "That counts two embedding matrices; this model shares one between the input and the output.".to_string())
        .mistake_number(p - m.layers * m.d_model * m.d_ff, "That counts two MLP matrices; a gated MLP has three.".to_string()),
        Part::number(
            "b",
            "How many bytes does one token's KV cache take in int8?".to_string(),
            Unit::Bytes,
            0.02,
            (kv, Vec::new()),
            "A key and a value per KV head, per layer, one byte each number.".to_string(),
            vec![format!(
                "2·L·K·H = 2·{}·{}·{} = {} bytes ({}).",
                whole(m.layers), whole(m.kv_heads), whole(m.head_dim), whole(kv), format::bytes(kv)
            )],
        )
        .mistake_number(mha.kv_bytes_per_token(Int8), "That counts N query heads; the cache keeps only the K KV heads, which grouped-query attention shares between N/K query heads each.".to_string())
        .mistake_number(2.0 * kv, "That is bf16's 2 bytes a number; int8 takes one.".to_string())
        .mistake_number(kv / 2.0, "That keeps keys or values only; the cache holds both.".to_string())
        .mistake_number(kv / m.layers, "That is one layer's; every layer caches its own.".to_string()),
    ];
    let q = question(
        "p7-q1",
        &source(SOURCE_PRACTICE, 1),
        model_text(&named),
        parts,
        chips_setup("v5e", 16, m.d_model, m.d_ff),
    )?;
    Ok(opens(q, page(&m, 1.0, 2048.0, Int8, Int8)?))
}

/// The largest batch that fits with long sequences, and with one KV head.
pub(super) fn p7_q2(d: &mut Draw) -> Result<Question, CoreError> {
    let named = chapter_model(d);
    let m = named.0.clone();
    let ctx = d.pick(128e3, &[32e3, 64e3, 128e3]);
    let chips = d.pick(16u32, &[8, 16, 32]);
    let n = f64::from(chips);
    let calc = chips_setup("v5e", chips, m.d_model, m.d_ff);
    let cap = hbm_capacity(&calc)?;
    let p = m.params();
    let kv_seq = m.kv_bytes_per_token(Int8) * ctx;
    let free = n * cap - p;
    let fit = (free / kv_seq).floor();
    let mut one = m.clone();
    one.kv_heads = 1.0;
    let kv1 = one.kv_bytes_per_token(Int8) * ctx;
    let fit1 = (free / kv1).floor();
    if fit < 1.0 || fit1 <= fit || fit > 2000.0 {
        return Err(invalid("no batch fits"));
    }
    let parts = vec![
        Part::number(
            "a",
            "How many bytes does one sequence's KV cache take?".to_string(),
            Unit::Bytes,
            0.02,
            (kv_seq, Vec::new()),
            "KV per token (2·L·K·H in int8) times the tokens a sequence holds.".to_string(),
            vec![format!("2·{}·{}·{} · {} = {}.", whole(m.layers), whole(m.kv_heads), whole(m.head_dim), whole(ctx), format::bytes(kv_seq))],
        )
        .mistake_number(kv_seq * m.heads / m.kv_heads, "That counts N heads; grouped-query attention caches only the K KV heads.".to_string())
        .mistake_number(2.0 * kv_seq, "That is bf16's 2 bytes a number; everything here is int8.".to_string()),
        Part::number(
            "b",
            "What is the largest batch that fits, weights included?".to_string(),
            Unit::None,
            0.05,
            (fit, Vec::new()),
            "Take the weights out of the slice's HBM, then divide what is left by one sequence's cache, and round down.".to_string(),
            vec![
                format!("HBM: {} · {} = {}; weights: {} bytes.", chips, format::bytes(cap), format::bytes(n * cap), sci(p)),
                format!("⌊({} − {}) ÷ {}⌋ = {}.", sci(n * cap), sci(p), sci(kv_seq), whole(fit)),
                page_note(&m, n, free, ctx),
            ],
        )
        .mistake_number(((n * cap - 2.0 * p) / (2.0 * kv_seq)).floor().max(0.5), "That stores weights and cache in bf16; everything here is int8, one byte a number.".to_string())
        .mistake_number((free / (kv_seq * m.heads / m.kv_heads)).floor().max(0.5), "That caches N heads; with grouped-query attention only K are kept.".to_string()),
        Part::number(
            "c",
            "With one KV head (K = 1), how large a batch fits?".to_string(),
            Unit::None,
            0.03,
            (fit1, Vec::new()),
            format!("The cache shrinks by K = {}, so far more sequences fit.", whole(m.kv_heads)),
            vec![format!("One sequence: {}; ⌊{} ÷ {}⌋ = {}.", format::bytes(kv1), sci(free), sci(kv1), whole(fit1))],
        )
        .mistake_number(fit, "That is the batch with K heads; one KV head makes each sequence's cache K times smaller.".to_string()),
    ];
    let q = question(
        "p7-q2",
        &source(SOURCE_PRACTICE, 2),
        format!(
            "{} It is served on {} TPU v5e chips of {} HBM each, everything (weights and KV cache) in int8, the cache sharded over every chip, for sequences of {} tokens.",
            model_text(&named),
            chips,
            format::bytes(cap),
            whole(ctx)
        ),
        parts,
        calc,
    )?;
    Ok(opens(q, page(&m, fit, ctx, Int8, Int8)?))
}

/// What the Model page shows for the largest batch, where its layout
/// differs from the book's: it splits the KV heads over the chips (tensor
/// parallelism), so with more chips than KV heads each head is kept on
/// several chips, where the book shards the cache over every chip.
fn page_note(m: &ModelConfig, n: f64, free: f64, ctx: f64) -> String {
    let copies = n * (m.kv_heads / n).ceil() / m.kv_heads;
    if copies <= 1.0 {
        return "The Model page shows the same: its chips split the KV heads, one share each."
            .to_string();
    }
    // The page's decode step also caches the token it makes.
    let per_seq = (ctx + 1.0) * m.kv_bytes_per_token(Int8);
    let page_fit = (free / (per_seq * copies)).floor();
    format!(
        "The Model page splits the {} KV heads over the {} chips, so each head is kept {} times and it fits {}; the book shards the cache over every chip instead (by sequence or batch).",
        whole(m.kv_heads),
        whole(n),
        sig(copies, 3),
        whole(page_fit)
    )
}

/// The time to read every weight once: the bound on a decode step.
pub(super) fn p7_q3(d: &mut Draw) -> Result<Question, CoreError> {
    let named = chapter_model(d);
    let m = named.0.clone();
    let chips = d.pick(16u32, &[4, 8, 16, 32]);
    let n = f64::from(chips);
    let calc = chips_setup("v5e", chips, m.d_model, m.d_ff);
    let p = m.params();
    let t = with_eras(&calc, &|c| Ok(p / (n * peak_bw(c, Bf16)?.1)))?;
    let bw = peak_bw(&calc, Bf16)?.1;
    let parts = vec![Part::number(
        "a",
        "How long does reading every int8 weight from HBM take, once?".to_string(),
        Unit::Seconds,
        0.03,
        t.clone(),
        "Weight bytes ÷ the bandwidth of every chip together (each reads its own shard)."
            .to_string(),
        vec![
            format!("Weights: {} bytes in int8.", sci(p)),
            format!(
                "{} ÷ ({} · {}) = {}.",
                sci(p),
                chips,
                bw_text(bw),
                format::seconds(t.value)
            ),
        ],
    )
    .mistake_number(
        2.0 * t.value,
        "That is bf16's 2 bytes a weight; int8 takes one.".to_string(),
    )
    .mistake_number(
        n * t.value,
        "That is one chip's bandwidth; every chip reads its own shard at once.".to_string(),
    )];
    let q = question(
        "p7-q3",
        &source(SOURCE_PRACTICE, 3),
        format!(
            "{} The weights are int8, sharded over {} TPU v5e chips.{}",
            model_text(&named),
            chips,
            era_note(&calc)
        ),
        parts,
        calc,
    )?;
    Ok(opens(q, page(&m, 1.0, 0.0, Int8, Int8)?))
}

/// The chapter's model as an MoE: parameters, the batch to be
/// compute-bound, the KV cache and the FLOPs per token.
pub(super) fn p7_q5(d: &mut Draw) -> Result<Question, CoreError> {
    let named = chapter_model(d);
    let base = named.0.clone();
    let (e, k) = d.pick(
        (16.0, 2.0),
        &[(8.0, 2.0), (16.0, 2.0), (32.0, 4.0), (64.0, 8.0)],
    );
    let m = moe(base.clone(), e, k);
    let calc = CalcSetup::new(
        "v5e",
        &matmul(Int8, Int8, Int8),
        &[("B", 128.0), ("D", m.d_model), ("F", m.d_ff)],
        Hbm,
    );
    let (total, active) = (m.params(), m.active_params());
    let batch = with_eras(&calc, &|c| {
        let (peak, bw) = peak_bw(c, Int8)?;
        Ok(peak / bw / 2.0 * e / k)
    })?;
    let (peak, bw) = peak_bw(&calc, Int8)?;
    let (bf_peak, _) = peak_bw(&calc, Bf16)?;
    let dense_b = peak / bw / 2.0;
    let kv = m.kv_bytes_per_token(Int8);
    let parts = vec![
        Part::number(
            "a",
            "How many parameters does it have in all?".to_string(),
            Unit::None,
            0.01,
            (total, Vec::new()),
            "Each layer now holds E copies of the MLP: 3·E·D·F. Attention and the embedding are unchanged.".to_string(),
            vec![
                "P = L·D·(3EF + 2H(N + K)) + D·V, plus a router of D·E a layer.".to_string(),
                format!("= {}.", count_text(total)),
            ],
        )
        .mistake_number(active, "That is the active count, k experts; the model stores all E.".to_string()),
        Part::number(
            "b",
            "How many does one token use (the active parameters)?".to_string(),
            Unit::None,
            0.01,
            (active, Vec::new()),
            "Count k MLP copies instead of E.".to_string(),
            vec![format!("L·D·(3kF + 2H(N + K)) + D·V ≈ {}.", count_text(active))],
        )
        .mistake_number(total, "That is every expert; a token goes through k of them.".to_string())
        .mistake_number(base.params(), "That is the dense model's count, one MLP; a token here uses k experts.".to_string()),
        Part::number(
            "c",
            "With int8 weights and int8 math on TPU v5e, what batch in tokens makes the expert matmuls compute-bound?".to_string(),
            Unit::None,
            0.02,
            batch.clone(),
            "A dense model needs (int8 peak ÷ HBM bandwidth) ÷ 2 tokens at one byte a weight; an MoE reads E experts for k used, so E/k times more.".to_string(),
            vec![
                format!("Dense: {} ÷ {} ÷ 2 = {}.", rate_text(peak, Int8), bw_text(bw), sig(dense_b, 4)),
                format!("MoE: {} · {}/{} = {}.", sig(dense_b, 4), whole(e), whole(k), sig(batch.value, 4)),
                PAGE_CRITICAL.to_string(),
            ],
        )
        .mistake_number(dense_b, "That is a dense model's critical batch; here each token uses k of E experts, all of which are read, so multiply by E/k.".to_string())
        .mistake_number(bf_peak / bw / 2.0 * e / k, "That uses the bf16 peak; the math here is int8, twice as fast on this chip.".to_string()),
        Part::number(
            "d",
            "How many bytes does one token's KV cache take in int8?".to_string(),
            Unit::Bytes,
            0.02,
            (kv, Vec::new()),
            "The experts replace the MLP only; attention, and so its cache, is unchanged.".to_string(),
            vec![format!("2·L·K·H = {} bytes, as for the dense model.", whole(kv))],
        )
        .mistake_number(kv * k, "The cache does not grow with the experts: it belongs to attention, which is unchanged.".to_string())
        .mistake_number(kv * e, "The cache does not grow with the experts: it belongs to attention, which is unchanged.".to_string()),
        Part::number(
            "e",
            "How many FLOPs does a forward pass take per token?".to_string(),
            Unit::Flops,
            0.01,
            (2.0 * active, Vec::new()),
            "2 FLOPs per active parameter, a multiply and an add.".to_string(),
            vec![format!("2 · {} = {} FLOPs per token (T tokens: {}·T).", sci(active), sci(2.0 * active), sci(2.0 * active))],
        )
        .mistake_number(2.0 * total, "That multiplies every expert; a token multiplies only its k.".to_string())
        .mistake_number(6.0 * active, "That is training's 6 FLOPs per parameter (forward and backward); a forward pass takes 2.".to_string())
        .mistake_number(active, "That counts 1 FLOP per parameter; a multiply and an add are 2.".to_string()),
    ];
    let q = question(
        "p7-q5",
        &source(SOURCE_PRACTICE, 5),
        format!(
            "{} Make it a mixture of experts: E = {} copies of the MLP in every layer, k = {} of them used by each token.{}",
            model_text(&named),
            whole(e),
            whole(k),
            era_note(&calc)
        ),
        parts,
        calc,
    )?;
    let mut state = page(&m, batch.value.ceil(), 2048.0, Int8, Int8)?;
    state.step.act = Int8;
    Ok(opens(q, state))
}
