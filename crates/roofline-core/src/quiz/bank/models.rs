//! What the questions on a whole model share (Parts 4 and 7): a model's
//! shape, the Model page's state they open with their numbers, the chip's
//! numbers they read, and the texts of parameter counts and sizes.

use crate::format::{sci, sig};
use crate::model::{ModelConfig, ModelState, Phase};
use crate::quiz::{CalcSetup, Question};
use crate::{CoreError, DType, LevelKind};

use super::helpers::matmul;
use super::invalid;

/// A gated (three-matrix MLP) dense model: L, D, F, N, K, H, V, tied.
#[allow(clippy::too_many_arguments)]
pub(super) fn dense(
    layers: f64,
    d: f64,
    f: f64,
    n: f64,
    k: f64,
    h: f64,
    v: f64,
    tied: bool,
) -> ModelConfig {
    ModelConfig {
        tied,
        ..crate::model::dense(layers, d, f, n, k, h, v)
    }
}

/// The same model with `experts` MLPs a layer, `active` of them per token.
pub(super) fn moe(mut cfg: ModelConfig, experts: f64, active: f64) -> ModelConfig {
    cfg.experts = experts;
    cfg.active = active;
    cfg
}

/// The Model page with `cfg` as its custom model, at a decode step of
/// `batch` sequences with `context` tokens cached, weights and KV cache in
/// the given types.
pub(super) fn page(
    cfg: &ModelConfig,
    batch: f64,
    context: f64,
    weights: DType,
    kv: DType,
) -> Result<ModelState, CoreError> {
    cfg.check()?;
    let mut m = ModelState {
        model: "custom".to_string(),
        custom: cfg.clone(),
        ..ModelState::default()
    };
    m.step.batch = batch.max(1.0).round();
    m.step.context = context.round();
    m.step.weights = weights;
    m.step.kv = kv;
    Ok(m)
}

/// The same page at a prefill step of `prompt` tokens.
pub(super) fn prefill(mut m: ModelState, prompt: f64) -> ModelState {
    m.step.phase = Phase::Prefill;
    m.step.prompt = prompt.round();
    m.step.context = 0.0;
    m
}

/// The calculator's setup the Model page takes its chip and chip count
/// from (a weight matmul of the model: bf16 activations, int8 weights).
pub(super) fn chips_setup(chip: &str, chips: u32, d: f64, f: f64) -> CalcSetup {
    let mut c = CalcSetup::new(
        chip,
        &matmul(DType::Bf16, DType::Int8, DType::Bf16),
        &[("B", 8.0), ("D", d), ("F", f)],
        LevelKind::Hbm,
    );
    c.chips = chips.max(1);
    c
}

/// The question, opening the Model page with `m`.
pub(super) fn opens(mut q: Question, m: ModelState) -> Question {
    q.model = Some(m);
    q
}

/// The chip's peak at `dtype` and HBM bandwidth, from the setup (its
/// overrides applied: another version's numbers).
pub(super) fn peak_bw(c: &CalcSetup, dtype: DType) -> Result<(f64, f64), CoreError> {
    let chip = c.chip()?;
    Ok((chip.peak(dtype)?, chip.bandwidth(LevelKind::Hbm)?))
}

/// The chip's HBM capacity, from the setup.
pub(super) fn hbm_capacity(c: &CalcSetup) -> Result<f64, CoreError> {
    c.chip()?
        .levels
        .iter()
        .find(|l| l.kind == LevelKind::Hbm)
        .and_then(|l| l.capacity)
        .ok_or_else(|| invalid("no HBM capacity"))
}

/// A parameter count as the book writes it: `1.84e10 (18.4 billion)`.
pub(super) fn count_text(x: f64) -> String {
    if x >= 1e9 {
        format!("{} ({} billion)", sci(x), sig(x / 1e9, 3))
    } else {
        sci(x)
    }
}

/// A whole size: `4096`, `128000`.
pub(super) fn whole(x: f64) -> String {
    sig(x, 12)
}

/// How the Model page's critical batch differs from an MoE's E/k rule.
pub(super) const PAGE_CRITICAL: &str = "The Model page's critical batch counts attention's weights too, which every token uses: its number comes out below E/k times the dense one.";

/// The Model page with preset `id` at a decode step of `batch` sequences
/// with `context` tokens cached, weights and KV cache in the given types.
pub(super) fn page_preset(
    id: &str,
    batch: f64,
    context: f64,
    weights: DType,
    kv: DType,
) -> Result<ModelState, CoreError> {
    let p = crate::model::preset(id).ok_or_else(|| invalid("no such model"))?;
    let mut m = page(&p.config, batch, context, weights, kv)?;
    m.model = p.id.to_string();
    Ok(m)
}
