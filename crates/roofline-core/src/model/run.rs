//! One model served on a group of chips ([`ModelRun`]) and what the book's
//! inference chapter computes for it ([`ModelAnalysis`]): memory and
//! whether it fits, the step time of decode (the book's formula) or
//! prefill, tokens per second, the critical batch and the regime, and, over
//! several chips, the link's time per step.

use super::config::ModelConfig;
use super::state::{Phase, ServingStep};
use crate::collective::{all_reduce, Cost, LinkModel};
use crate::hardware::{Chip, LevelKind};
use crate::{CoreError, DType};

/// A model, a step and the chips that serve it: every number the analysis
/// needs (see [`analyze`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ModelRun {
    /// The model's shape.
    pub config: ModelConfig,
    /// The step: phase, sizes, types, fractions reached.
    pub step: ServingStep,
    /// n: chips the weights and the KV cache are split over.
    pub chips: f64,
}

/// Everything the Model page shows for a [`ModelRun`], in base units
/// (parameters, bytes, seconds, FLOP/s, bytes/s).
#[derive(Debug, Clone, PartialEq)]
pub struct ModelAnalysis {
    /// P: every parameter.
    pub params: f64,
    /// P_act: the parameters one token uses (k of E experts), both
    /// embedding tables counted, as model cards count them.
    pub active_params: f64,
    /// The parameters one token multiplies: P_act without the untied input
    /// table, a lookup ([`ModelConfig::matmul_params`]).
    pub matmul_params: f64,
    /// P × the weights' bytes per parameter.
    pub weight_bytes: f64,
    /// KV bytes per token: 2·L·K·H × the KV type's bytes.
    pub kv_per_token: f64,
    /// Tokens each sequence holds in its cache at the end of the step.
    pub cached: f64,
    /// KV bytes per sequence: cached × per token.
    pub kv_per_seq: f64,
    /// KV bytes of the batch: B × per sequence.
    pub kv_bytes: f64,
    /// Weights and the batch's KV cache (activations are left out: they
    /// are small next to either).
    pub memory: f64,
    /// The n chips' HBM capacity, if the chip lists one.
    pub hbm: Option<f64>,
    /// Whether the memory fits in it (`None` without a capacity).
    pub fits: Option<bool>,
    /// The largest batch that fits at this context: ⌊(HBM − weights) ÷
    /// (cached × KV per token)⌋; `None` without a capacity or with no
    /// cache (no context: any batch fits the cache).
    pub max_batch: Option<f64>,
    /// The type the weight matmuls run at (the set one, or the wider of
    /// weights and activations).
    pub math: DType,
    /// C: the n chips' FLOP/s at that type, times the fraction reached.
    pub flops_rate: f64,
    /// W: the n chips' HBM bandwidth, times the fraction reached.
    pub bandwidth: f64,
    /// Experts each layer reads in this step, expected, with uniform
    /// routing: E·(1 − (1 − k/E)^tokens); E = 1 for a dense model.
    pub experts_read: f64,
    /// Weight bytes read in this step: everything but the experts and the
    /// untied input table, and the experts read (the few rows of the input
    /// table a step looks up are left out).
    pub weights_read: f64,
    /// FLOPs of the weight matmuls: 2 × tokens × the parameters multiplied.
    pub weight_flops: f64,
    /// FLOPs of attention (QK and attention × V), all layers.
    pub attention_flops: f64,
    /// KV bytes read and written in this step.
    pub kv_traffic: f64,
    /// Decode: the KV cache's read time, B·S·KV per token × copies ÷ W.
    pub t_kv: f64,
    /// The weight matmuls' math time: 2·tokens·P_mm ÷ C.
    pub t_weight_math: f64,
    /// The weights' load time: weights read ÷ W.
    pub t_weight_load: f64,
    /// The step time: decode, the book's t_kv + max(math, load); prefill,
    /// max(all FLOPs ÷ C, all bytes ÷ W); with the link, the larger of
    /// that and the link's time (overlapped) or their sum.
    pub step_time: f64,
    /// The step without the link (decode's or prefill's formula alone).
    pub base_time: f64,
    /// Tokens made (decode: B) or read (prefill: B·T) per second.
    pub tokens_per_s: f64,
    /// The same per chip.
    pub tokens_per_s_chip: f64,
    /// Decode: time per output token (the step); prefill: time to the
    /// first token (the step).
    pub latency: f64,
    /// The batch (in tokens of this step) above which the weight matmuls
    /// are compute-bound when every expert is read: (C ÷ W) × (weights'
    /// bytes ÷ 2) × (parameters read ÷ parameters multiplied).
    pub critical_batch: f64,
    /// The weight matmuls (decode) or the whole step's FLOPs (prefill)
    /// take longer than their bytes: compute-bound in Part 1's sense.
    pub compute_bound: bool,
    /// Copies of the KV cache the n chips hold: n·⌈K/n⌉ ÷ K, 1 unless n
    /// exceeds the KV heads (or does not divide them), when each chip keeps
    /// the KV heads its query heads need.
    pub kv_copies: f64,
    /// The term of the step that takes the longest on its own
    /// ([`StepTerm`]): decode's math, weights, KV read or link; prefill's
    /// math, memory traffic (named by its larger part) or link.
    pub dominant: StepTerm,
    /// Over several chips, the link between them: the book's sketch and
    /// the tensor-parallel layout's two all-reduces per layer.
    pub link: Option<LinkTime>,
}

/// A part of a step's time: what the Model page's headline names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepTerm {
    /// The weight matmuls' math (prefill: every FLOP).
    Math,
    /// Reading the weights (prefill: memory traffic, mostly weights).
    Weights,
    /// Reading the KV cache (prefill: memory traffic, mostly KV cache).
    Kv,
    /// The link between the chips.
    Link,
}

impl StepTerm {
    /// The key the page and its tests use: `math`, `weights`, `kv`, `link`.
    pub fn key(self) -> &'static str {
        match self {
            StepTerm::Math => "math",
            StepTerm::Weights => "weights",
            StepTerm::Kv => "kv",
            StepTerm::Link => "link",
        }
    }
}

/// The link's share of a step over several chips. The layout: tensor
/// parallelism over the n chips, so each layer ends its attention and its
/// MLP with an all-reduce of the tokens' D activations.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkTime {
    /// The link and how its chips are wired.
    pub model: LinkModel,
    /// The book's sketch, bytes per layer: tokens × D at the activations'
    /// type (its 2·B·D at bf16), over one link in one direction.
    pub book_bytes_per_layer: f64,
    /// L × that ÷ the one-way bandwidth.
    pub book_time: f64,
    /// V, the array each all-reduce sums: tokens × D × activation bytes.
    pub array: f64,
    /// One all-reduce of it over the n chips.
    pub all_reduce: Cost,
    /// The layout's time per step: L × 2 all-reduces.
    pub time: f64,
    /// Of which latency.
    pub latency: f64,
    /// Whether the step overlaps it (the book's view); else it adds.
    pub overlapped: bool,
}

/// The number as a whole-number size, or an error naming `field`.
fn whole(field: &str, v: f64, min: f64) -> Result<f64, CoreError> {
    if v.is_finite() && v.fract() == 0.0 && v >= min && v <= 1e9 {
        Ok(v)
    } else {
        Err(CoreError::Invalid(format!(
            "{field}: a whole number from {} to 1e9",
            crate::format::plain_number(min)
        )))
    }
}

/// A fraction in (0, 1], or an error naming `field`.
fn fraction(field: &str, v: f64) -> Result<f64, CoreError> {
    if v.is_finite() && v > 0.0 && v <= 1.0 {
        Ok(v)
    } else {
        Err(CoreError::Invalid(format!(
            "{field}: a fraction above 0 and at most 1 (100%)"
        )))
    }
}

impl ModelRun {
    /// Tokens this step processes: B in decode, B·T in prefill.
    pub fn tokens(&self) -> f64 {
        match self.step.phase {
            Phase::Decode => self.step.batch,
            Phase::Prefill => self.step.batch * self.step.prompt,
        }
    }

    /// Checks every number; the error names the field.
    pub fn check(&self) -> Result<(), CoreError> {
        self.config.check()?;
        whole("batch (B)", self.step.batch, 1.0)?;
        whole("context (S)", self.step.context, 0.0)?;
        whole("prompt (T)", self.step.prompt, 1.0)?;
        whole("chips (n)", self.chips, 1.0)?;
        fraction("fraction of peak FLOP/s", self.step.eff_flops)?;
        fraction("fraction of bandwidth", self.step.eff_bw)?;
        Ok(())
    }

    /// The type the weight matmuls run at.
    pub fn math_dtype(&self) -> DType {
        self.step
            .math
            .unwrap_or_else(|| wider(self.step.weights, self.step.act))
    }
}

/// The wider of two types (more bytes; the first on a tie).
pub fn wider(a: DType, b: DType) -> DType {
    if b.bytes() > a.bytes() {
        b
    } else {
        a
    }
}

/// The analysis of `run` on `chip` (one chip's numbers; the run says how
/// many). Errors name the field or the chip's missing figure.
pub fn analyze(run: &ModelRun, chip: &Chip) -> Result<ModelAnalysis, CoreError> {
    run.check()?;
    let m = &run.config;
    let n = run.chips;
    let math = run.math_dtype();
    let flops_rate = chip.peak(math)? * n * run.step.eff_flops;
    let bandwidth = chip.bandwidth(LevelKind::Hbm)? * n * run.step.eff_bw;
    let params = m.params();
    let active_params = m.active_params();
    let matmul_params = m.matmul_params();
    let w = run.step.weights.bytes();
    let weight_bytes = params * w;
    let kv_per_token = m.kv_bytes_per_token(run.step.kv);
    let kv_copies = n * (m.kv_heads / n).ceil() / m.kv_heads;
    let tokens = run.tokens();
    let (t, cached) = match run.step.phase {
        Phase::Decode => (1.0, run.step.context + 1.0),
        Phase::Prefill => (run.step.prompt, run.step.context + run.step.prompt),
    };
    let kv_per_seq = cached * kv_per_token;
    let kv_bytes = run.step.batch * kv_per_seq;
    let memory = weight_bytes + kv_bytes * kv_copies;
    let hbm = chip
        .level(LevelKind::Hbm)
        .ok()
        .and_then(|l| l.capacity)
        .map(|c| c * n);
    let fits = hbm.map(|h| memory <= h);
    let max_batch = hbm.and_then(|h| {
        (kv_per_seq > 0.0).then(|| {
            ((h - weight_bytes) / (kv_per_seq * kv_copies))
                .floor()
                .max(0.0)
        })
    });
    // Experts read: with uniform routing each token picks k of E, so a
    // layer reads E·(1 − (1 − k/E)^tokens) experts on average.
    let experts_read = if m.is_moe() {
        m.experts * (1.0 - (1.0 - m.active / m.experts).powi_f(tokens))
    } else {
        1.0
    };
    let expert_share = m.layers * m.experts * m.expert_params();
    let all_read = m.read_params();
    let weights_read = (all_read - expert_share * (1.0 - experts_read / m.experts)) * w;
    let weight_flops = 2.0 * tokens * matmul_params;
    // Attention per layer: QK and attention × V, 2·B·T·A·N·H each, with A
    // the keys each query attends to: the cache and itself in decode; the
    // cache and, with a causal mask, half the prompt on average in prefill.
    let attended = match run.step.phase {
        Phase::Decode => run.step.context + 1.0,
        Phase::Prefill => run.step.context + (run.step.prompt + 1.0) / 2.0,
    };
    let attention_flops = 4.0 * run.step.batch * t * attended * m.heads * m.head_dim * m.layers;
    let kv_read = run.step.batch * run.step.context * kv_per_token * kv_copies;
    let kv_written = run.step.batch * t * kv_per_token * kv_copies;
    let kv_traffic = kv_read + kv_written;
    let t_kv = kv_read / bandwidth;
    let t_weight_math = weight_flops / flops_rate;
    let t_weight_load = weights_read / bandwidth;
    let link = if n > 1.0 {
        LinkModel::of_chip(chip).map(|lm| {
            let array = tokens * m.d_model * run.step.act.bytes();
            let ar = all_reduce(array, n, &lm);
            LinkTime {
                book_bytes_per_layer: array,
                book_time: m.layers * array / lm.one_way,
                array,
                time: m.layers * 2.0 * ar.time,
                latency: m.layers * 2.0 * ar.latency,
                all_reduce: ar,
                model: lm,
                overlapped: run.step.overlap,
            }
        })
    } else {
        None
    };
    // The step without the link, and each term's own time: decode's
    // math, weights and KV read (the book's formula adds the KV read to
    // the larger of the other two); prefill's math and memory traffic
    // (weights and KV together, named by the larger), the larger of which
    // is the step.
    let (base, mut terms) = match run.step.phase {
        Phase::Decode => (
            t_kv + t_weight_math.max(t_weight_load),
            vec![
                (StepTerm::Math, t_weight_math),
                (StepTerm::Weights, t_weight_load),
                (StepTerm::Kv, t_kv),
            ],
        ),
        Phase::Prefill => {
            let math = (weight_flops + attention_flops) / flops_rate;
            let mem = (weights_read + kv_traffic) / bandwidth;
            let mem_term = if weights_read >= kv_traffic {
                StepTerm::Weights
            } else {
                StepTerm::Kv
            };
            (math.max(mem), vec![(StepTerm::Math, math), (mem_term, mem)])
        }
    };
    if let Some(l) = &link {
        terms.push((StepTerm::Link, l.time));
    }
    let step_time = match &link {
        Some(l) if l.overlapped => base.max(l.time),
        Some(l) => base + l.time,
        None => base,
    };
    // The term that takes the longest (the first on a tie).
    let dominant = terms
        .iter()
        .fold((StepTerm::Math, f64::NEG_INFINITY), |best, t| {
            if t.1 > best.1 {
                *t
            } else {
                best
            }
        })
        .0;
    let compute_bound = match run.step.phase {
        Phase::Decode => t_weight_math > t_weight_load,
        Phase::Prefill => {
            (weight_flops + attention_flops) / flops_rate > (weights_read + kv_traffic) / bandwidth
        }
    };
    let tokens_per_s = tokens / step_time;
    let critical_batch = flops_rate / bandwidth * (w / 2.0) * (all_read / matmul_params);
    let a = ModelAnalysis {
        params,
        active_params,
        matmul_params,
        weight_bytes,
        kv_per_token,
        cached,
        kv_per_seq,
        kv_bytes,
        memory,
        hbm,
        fits,
        max_batch,
        math,
        flops_rate,
        bandwidth,
        experts_read,
        weights_read,
        weight_flops,
        attention_flops,
        kv_traffic,
        t_kv,
        t_weight_math,
        t_weight_load,
        step_time,
        base_time: base,
        tokens_per_s,
        tokens_per_s_chip: tokens_per_s / n,
        latency: step_time,
        critical_batch,
        compute_bound,
        kv_copies,
        dominant,
        link,
    };
    let finite = [
        a.memory,
        a.step_time,
        a.tokens_per_s,
        a.critical_batch,
        a.weights_read,
    ]
    .iter()
    .all(|x| x.is_finite() && *x >= 0.0)
        && a.step_time > 0.0;
    if !finite {
        return Err(CoreError::Invalid(
            "the numbers are out of range: the step time cannot be computed".to_string(),
        ));
    }
    Ok(a)
}

/// The chips serving `run` as one: `chip` with its peak at the matmuls'
/// type and its HBM bandwidth times n and the fractions reached, so that
/// its roofline is the group's (the Model page's chart).
pub fn group_chip(chip: &Chip, run: &ModelRun) -> Result<Chip, CoreError> {
    let mut g = chip.clone();
    let math = run.math_dtype();
    g.set_peak(math, chip.peak(math)? * run.chips * run.step.eff_flops)?;
    g.set_bandwidth(
        LevelKind::Hbm,
        chip.bandwidth(LevelKind::Hbm)? * run.chips * run.step.eff_bw,
    )?;
    Ok(g)
}

/// `x^y` for a whole `y` ≥ 0 without libm's `pow`: squaring.
trait PowiF {
    fn powi_f(self, y: f64) -> f64;
}

impl PowiF for f64 {
    fn powi_f(self, y: f64) -> f64 {
        if !y.is_finite() || y <= 0.0 {
            return 1.0;
        }
        // Beyond 2^53 tokens the result has long underflowed to 0.
        let mut e = y.min(9e15) as u64;
        let (mut base, mut acc) = (self, 1.0);
        while e > 0 {
            if e & 1 == 1 {
                acc *= base;
            }
            base *= base;
            e >>= 1;
        }
        acc
    }
}
