//! Part 6's questions, training LLaMA-3-70B on a TPU v5p pod (`p6-…`):
//! the chapter's questions in its text (parameters, FLOPs, days, the
//! fewest chips, memory a chip, FSDP alone, FSDP + TP) and its first worked
//! problem, four pods, which the book leaves unanswered: the app's answer.
//! Every answer is the Scale page's (its core, [`crate::scale`]).

use crate::format::{bytes, count, sci, sig};
use crate::model::ModelConfig;
use crate::quiz::answer::Unit;
use crate::quiz::{Part, Question, ScaleSetup, SOURCE_POP, SOURCE_PRACTICE};
use crate::scale::{memory, MemoryInput, ScaleState, Strategy};
use crate::CoreError;

use super::feedback::Era;
use super::helpers::question;
use super::models::count_text;
use super::scales::{
    apart, model_calc, opens_scale, page_value, page_word, preset_state, train_state,
};
use super::Draw;

/// The chapter's pod: 16×20×28 = 8960 v5p chips.
const POD: &str = "X:16,Y:20,Z:28";
const C: f64 = 4.59e14;
const BATCH: f64 = 4_194_304.0;

fn source(n: u32) -> String {
    format!(
        "Part 6, question {n} in the text ({})",
        SOURCE_POP.to_lowercase()
    )
}

/// The model: LLaMA-3-70B, or another of the herd in a variant.
fn herd(d: &mut Draw) -> Result<(&'static str, crate::model::ModelState, ModelConfig), CoreError> {
    let id = d.pick(
        "llama3-70b",
        &["llama3-8b", "llama2-13b", "llama3-70b", "llama31-405b"],
    );
    let (s, m) = preset_state(id)?;
    Ok((
        crate::model::preset(id).map_or("the model", |p| p.name),
        s,
        m,
    ))
}

fn open(q: Question, s: ScaleState, m: crate::model::ModelState) -> Question {
    opens_scale(q, ScaleSetup::new(s), Some(m))
}

fn two_flops() -> String {
    "That counts 2 FLOPs per parameter per token, the forward pass; training adds the backward pass's 4: 6 in all.".to_string()
}

/// Question 1: the parameters, with grouped-query attention.
pub(super) fn p6_pop1(d: &mut Draw) -> Result<Question, CoreError> {
    let (name, ms, m) = herd(d)?;
    let (l, dm, n, k, h) = (m.layers, m.d_model, m.heads, m.kv_heads, m.head_dim);
    let attn = l * (2.0 * dm * n * h + 2.0 * dm * k * h);
    let full = 4.0 * l * dm * n * h;
    let p = m.params();
    let parts = vec![
        Part::number(
            "a",
            "How many parameters do the attention projections hold?".to_string(),
            Unit::None,
            0.02,
            (attn, Vec::new()),
            "Q and O have N heads; K and V only the K KV heads.".to_string(),
            vec![format!("L·(2·D·N·H + 2·D·K·H) = {l}·(2·{dm}·{n}·{h} + 2·{dm}·{k}·{h}) = {}.", count_text(attn))],
        )
        .mistake_number(full, format!("That gives K and V all N = {n} heads; grouped-query attention gives them K = {k}.")),
        Part::number(
            "b",
            "How many parameters in all?".to_string(),
            Unit::None,
            0.01,
            (p, Vec::new()),
            "Add the gated MLP's 3LDF and the two embeddings, 2VD.".to_string(),
            vec![
                format!("3LDF = {}; 2VD = {}.", count_text(3.0 * l * dm * m.d_ff), count_text(m.embedding_params())),
                format!("In all {} (the book: 56.3e9 + 2.1e9 + 12e9 = 70.4e9 for LLaMA-3-70B; the page adds the norms).", count_text(p)),
            ],
        )
        .mistake_number(p - attn + full, "That counts full multi-head attention; K and V have only the KV heads.".to_string())
        .mistake_number(p - m.embedding_params() / 2.0, "That counts one embedding matrix; the input and output ones are separate.".to_string()),
    ];
    let q = question("p6-pop1", &source(1), format!("{name}: L = {l}, D = {dm}, F = {}, N = {n}, K = {k}, H = {h}, V = {}; gated MLP, separate embeddings.", m.d_ff, m.vocab), parts, model_calc("v5p", &m))?;
    Ok(open(
        q,
        train_state(POD, BATCH, 4096.0, Strategy::Mixed),
        ms,
    ))
}

/// Questions 2 to 4: FLOPs a token and in all, and the days on a pod.
pub(super) fn p6_pop2(d: &mut Draw) -> Result<Question, CoreError> {
    let (name, ms, m) = herd(d)?;
    let budget = d.pick(15e12, &[2e12, 8e12, 15e12, 30e12]);
    let mfu = d.pick(0.4, &[0.3, 0.4, 0.5]);
    let s = ScaleState {
        budget,
        mfu,
        ..train_state(POD, BATCH, 4096.0, Strategy::Mixed)
    };
    let p = page_value(&s, "v5p", &m, "train-params")?;
    let total = page_value(&s, "v5p", &m, "train-flops")?;
    let per_token = total / budget;
    let chips = 8960.0;
    let days = total / (chips * C * mfu) / 86_400.0;
    let years = total / C / 86_400.0 / 365.0;
    let parts = vec![
        Part::number(
            "a",
            "How many FLOPs does a training step spend per token?".to_string(),
            Unit::Flops,
            0.02,
            (per_token, Vec::new()),
            "Training costs about 6 FLOPs per parameter per token: 2 forward, 4 backward."
                .to_string(),
            vec![format!(
                "6 · {} = {} FLOPs a token.",
                sci(p),
                sci(per_token)
            )],
        )
        .mistake_number(per_token / 3.0, two_flops()),
        Part::number(
            "b",
            format!("How many FLOPs over {} tokens (e.g. 1e24)?", sci(budget)),
            Unit::None,
            0.02,
            (total, Vec::new()),
            "FLOPs a token times the tokens.".to_string(),
            vec![format!(
                "{} · {} = {} FLOPs.",
                sci(per_token),
                sci(budget),
                sci(total)
            )],
        )
        .mistake_number(total / 3.0, two_flops()),
        Part::number(
            "c",
            "How many years would one v5p take at its full bf16 peak?".to_string(),
            Unit::None,
            0.02,
            (years, Vec::new()),
            "Divide by 4.59e14 FLOPs/s, then by the seconds in a year.".to_string(),
            vec![format!(
                "{} ÷ 4.59e14 = {} s: {} years.",
                sci(total),
                sci(total / C),
                sig(years, 3)
            )],
        )
        .mistake_number(years / 3.0, two_flops()),
        Part::number(
            "d",
            format!(
                "How many days on the full pod of 8960 chips at {}% MFU, if compute-bound?",
                sig(mfu * 100.0, 2)
            ),
            Unit::None,
            0.02,
            (days, Vec::new()),
            "Every chip's FLOPs/s at the MFU: 8960 · 4.59e14 · MFU.".to_string(),
            vec![format!(
                "{} ÷ (8960 · 4.59e14 · {mfu}) = {} s: {} days.",
                sci(total),
                sci(days * 86_400.0),
                sig(days, 3)
            )],
        )
        .mistake_number(days / 3.0, two_flops())
        .mistake_number(
            days * mfu,
            "That assumes 100% of the peak; the MFU is the fraction the chips reach.".to_string(),
        ),
    ];
    let q = question(
        "p6-pop2",
        "Part 6, questions 2 to 4 in the text (pop quiz)",
        format!(
            "{name} ({} parameters) trains on {} tokens on TPU v5p (4.59e14 bf16 FLOPs/s a chip).",
            sci(p),
            sci(budget)
        ),
        parts,
        model_calc("v5p", &m),
    )?;
    Ok(open(q, s, ms))
}

/// Questions 5 and 6: the fewest chips by memory, and memory a chip on
/// the pod.
pub(super) fn p6_pop5(d: &mut Draw) -> Result<Question, CoreError> {
    let (name, ms, m) = herd(d)?;
    let batch = d.pick(4e6, &[2e6, 4e6, 8e6, 16e6]);
    let ckpt = d.pick(4.0, &[1.0, 2.0, 4.0, 8.0]);
    let mem = memory(&MemoryInput {
        params: m.params(),
        layers: m.layers,
        d: m.d_model,
        batch,
        ckpt,
        strategy: Strategy::Fsdp,
        zero: 3,
        x: 8960.0,
        y: 1.0,
        pods: 1.0,
    });
    let hbm = 96e9;
    let book_total = mem.total_once - 2.0 * m.params();
    let fewest = (book_total / hbm).ceil();
    let with_grads = (mem.total_once / hbm).ceil();
    let grads = Era::new(
        "bf16 gradients counted too, as the Scale page does".to_string(),
        "the book counts parameters, Adam's state and checkpoints".to_string(),
    );
    let per_chip = book_total / 8960.0;
    let ckpt_all = mem.total_once - 12.0 * m.params();
    let parts = vec![
        Part::number(
            "a",
            "How many bytes do the bf16 parameters, Adam's fp32 state and the checkpoints take in all?".to_string(),
            Unit::Bytes,
            0.03,
            (book_total, Vec::new()),
            "2 bytes a parameter, 8 for Adam's two moments, and the checkpoints: 2 bytes · D · B · checkpoints · L.".to_string(),
            vec![
                format!("2 · {} + 8 · {} = {}.", sci(m.params()), sci(m.params()), bytes(10.0 * m.params())),
                format!("2 · {} · {} · {ckpt} · {} = {}: they dominate.", m.d_model, sci(batch), m.layers, bytes(ckpt_all)),
                format!("In all {}.", bytes(book_total)),
            ],
        )
        .mistake_number(10.0 * m.params(), "That leaves out the checkpoints, which dominate: 2 · D · B · checkpoints · L bytes.".to_string())
        .mistake_number(book_total + ckpt_all, "That keeps the checkpoints in fp32; they are bf16, 2 bytes.".to_string()),
        Part::number(
            "b",
            "How many v5p chips (96 GB each) does that take at the least?".to_string(),
            Unit::None,
            0.02,
            (fewest, if apart(fewest, with_grads, 0.02)? { vec![(with_grads, grads)] } else { Vec::new() }),
            "Spread everything over the chips (ZeRO-3) and divide by 96 GB; chips are whole.".to_string(),
            vec![
                format!("⌈{} ÷ 96 GB⌉ = {} chips (the book: 21.6e12 / 96e9 = 225 for LLaMA-3-70B).", bytes(book_total), count(fewest)),
                format!("With bf16 gradients too, as the Scale page counts: {}. The tolerance is 2%: a chip or two of rounding.", count(with_grads)),
            ],
        )
        .mistake_number((10.0 * m.params() / hbm).ceil().max(1.0), "That leaves out the checkpoints; they take most of the memory.".to_string()),
        Part::number(
            "c",
            "On the full pod of 8960 chips, how many bytes does each chip hold?".to_string(),
            Unit::Bytes,
            0.03,
            (per_chip, Vec::new()),
            "FSDP (ZeRO-3) splits every state, and the checkpoints with the batch, over all chips.".to_string(),
            vec![format!("{} ÷ 8960 = {}: far below 96 GB. Memory is not why we use so many chips; FLOPs are.", bytes(book_total), bytes(per_chip))],
        )
        .mistake_number(book_total, "That is the whole run's memory; FSDP splits it over the 8960 chips.".to_string()),
    ];
    let q = question(
        "p6-pop5",
        "Part 6, questions 5 and 6 in the text (pop quiz)",
        format!("{name} trains with a batch of {} tokens, bf16 parameters, Adam's state in fp32 and {ckpt} checkpoints a layer ([B, D] each, bf16).", sci(batch)),
        parts,
        model_calc("v5p", &m),
    )?;
    let s = ScaleState {
        ckpt,
        ..train_state(POD, batch, 4096.0, Strategy::Fsdp)
    };
    Ok(open(q, s, ms))
}

pub(super) use super::part6_plan::{p6_pop7, p6_pop9, p6_q1};

/// What the plan questions share.
pub(super) struct Pod {
    /// The model's name.
    pub name: &'static str,
    /// The Model page's state.
    pub ms: crate::model::ModelState,
    /// The model.
    pub m: ModelConfig,
}

/// LLaMA-3-70B (or a variant's model) on the pod.
pub(super) fn pod(d: &mut Draw) -> Result<Pod, CoreError> {
    let (name, ms, m) = herd(d)?;
    Ok(Pod { name, ms, m })
}

/// The page's value `k` for `s`.
pub(super) fn val(s: &ScaleState, m: &ModelConfig, k: &str) -> Result<f64, CoreError> {
    page_value(s, "v5p", m, k)
}

/// The page's word `k` for `s`: the option index (0 for `first`).
pub(super) fn pick_of(
    s: &ScaleState,
    m: &ModelConfig,
    k: &str,
    first: &str,
) -> Result<usize, CoreError> {
    Ok(usize::from(page_word(s, "v5p", m, k)? != first))
}

/// The source line of a plan question.
pub(super) fn source_of(n: u32, worked: bool) -> String {
    if worked {
        format!(
            "Part 6, worked problem {n} ({}; the book gives no answer: the app's)",
            SOURCE_PRACTICE.to_lowercase()
        )
    } else {
        source(n)
    }
}

/// The pod's constants.
pub(super) const POD_MESH: &str = POD;
/// The chapter's batch, 1024 sequences of 4096 tokens.
pub(super) const POD_BATCH: f64 = BATCH;
