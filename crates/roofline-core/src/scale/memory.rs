//! Memory per chip while training (the book's Parts 5 and 6): bf16
//! parameters and gradients, Adam's fp32 moments, and the activation
//! checkpoints, each divided by the strategy's sharding and ZeRO stage;
//! and the training time: 6 · parameters · tokens FLOPs at an MFU.
//!
//! The book counts 2 bytes a parameter for the weights and 8 for the
//! optimizer (10 in all, its "HBM / 10" rule) and leaves gradients out of
//! Part 6's table; the page counts them too (bf16, 2 bytes a parameter),
//! and says so, so its totals are a little above the book's.
//!
//! Checkpoints are `ckpt` bf16 `[B, D]` tensors a layer, split over every
//! chip of a slice whatever the strategy: the batch over X, and under TP
//! the activations `[B, D_Y]` over Y as well (pipelining: a stage's L/X
//! layers over its Y chips, the same bytes a chip).

use super::train::Strategy;

/// Bytes a parameter takes in bf16 (weights, gradients).
pub const BF16: f64 = 2.0;
/// Bytes a parameter takes in Adam's two fp32 moments.
pub const ADAM: f64 = 8.0;

/// What a training run keeps, and how it is split.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MemoryInput {
    /// Parameters.
    pub params: f64,
    /// Layers.
    pub layers: f64,
    /// D: model width.
    pub d: f64,
    /// Tokens in the global batch.
    pub batch: f64,
    /// Checkpoints a layer: [B, D] bf16 tensors kept for the backward pass.
    pub ckpt: f64,
    /// The strategy.
    pub strategy: Strategy,
    /// ZeRO stage, 1 to 3 (FSDP and mixed).
    pub zero: u8,
    /// X, Y: the degrees.
    pub x: f64,
    /// Y.
    pub y: f64,
    /// Pods (their chips each hold a copy of the slice's states).
    pub pods: f64,
}

/// Bytes per chip, by kind.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Memory {
    /// bf16 parameters.
    pub params: f64,
    /// bf16 gradients.
    pub grads: f64,
    /// Adam's fp32 moments.
    pub optimizer: f64,
    /// Activation checkpoints.
    pub checkpoints: f64,
    /// The whole run's bytes on all chips, every state counted once
    /// (parameters + gradients + optimizer + checkpoints).
    pub total_once: f64,
}

impl Memory {
    /// Bytes per chip in all.
    pub fn per_chip(&self) -> f64 {
        self.params + self.grads + self.optimizer + self.checkpoints
    }
}

/// The bytes each chip keeps.
pub fn memory(m: &MemoryInput) -> Memory {
    let p = m.params;
    let (w, g, o) = (BF16 * p, BF16 * p, ADAM * p);
    let x = m.x.max(1.0);
    let y = m.y.max(1.0);
    let chips = x * y * m.pods.max(1.0);
    let ckpt_all = BF16 * m.d * m.batch * m.ckpt * m.layers;
    // ZeRO over X: 1 splits the optimizer, 2 the gradients too, 3 the
    // weights too.
    let zero = |k: u8| if m.zero >= k { x } else { 1.0 };
    let (pw, pg, po) = match m.strategy {
        Strategy::Dp => (w, g, o),
        Strategy::Fsdp => (w / zero(3), g / zero(2), o / zero(1)),
        Strategy::Tp => (w / y, g / y, o / y),
        Strategy::Mixed | Strategy::Pods => {
            (w / (y * zero(3)), g / (y * zero(2)), o / (y * zero(1)))
        }
        // X stages each hold L/X layers; ZeRO-1 over the Y chips of a stage.
        Strategy::Pp => (w / x, g / x, o / (x * y)),
    };
    Memory {
        params: pw,
        grads: pg,
        optimizer: po,
        checkpoints: ckpt_all / chips,
        total_once: w + g + o + ckpt_all,
    }
}

/// The fewest chips whose memory holds the run with every state split
/// over all of them (ZeRO-3): ⌈total ÷ HBM⌉.
pub fn min_chips(mem: &Memory, hbm: f64) -> f64 {
    if hbm > 0.0 && mem.total_once.is_finite() {
        (mem.total_once / hbm).ceil().max(1.0)
    } else {
        0.0
    }
}

/// A training run's time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunTime {
    /// 6 · P · budget tokens.
    pub flops: f64,
    /// 6 · P · B: one step's FLOPs.
    pub step_flops: f64,
    /// One step at the MFU on every chip, s.
    pub step_compute: f64,
    /// One step's comms (per layer × layers × passes), s.
    pub step_comms: f64,
    /// The step: the larger of the two (overlapped), s.
    pub step: f64,
    /// Steps in the budget.
    pub steps: f64,
    /// Days for the budget at the step time.
    pub days: f64,
    /// Days if compute-bound (the book's question): FLOPs ÷ (N·C·MFU).
    pub days_compute: f64,
}

/// The run's time: `params`, tokens `batch` a step, `budget` tokens, on
/// `chips` of `peak` FLOP/s at `mfu`, with `step_comms` seconds of comms
/// a step.
pub fn run_time(
    params: f64,
    batch: f64,
    budget: f64,
    chips: f64,
    peak: f64,
    mfu: f64,
    step_comms: f64,
) -> RunTime {
    let rate = chips * peak * mfu;
    let flops = 6.0 * params * budget;
    let step_flops = 6.0 * params * batch;
    let step_compute = step_flops / rate;
    let step = step_compute.max(step_comms);
    let steps = budget / batch;
    RunTime {
        flops,
        step_flops,
        step_compute,
        step_comms,
        step,
        steps,
        days: steps * step / 86_400.0,
        days_compute: flops / rate / 86_400.0,
    }
}
