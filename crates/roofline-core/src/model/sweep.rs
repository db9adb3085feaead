//! The latency–throughput curve: the step as the batch grows, from one
//! sequence to past the largest batch that fits.

use super::run::{analyze, ModelRun};
use crate::hardware::Chip;
use crate::CoreError;

/// One batch on the curve.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CurvePoint {
    /// B.
    pub batch: f64,
    /// Tokens per second (all chips).
    pub tokens_per_s: f64,
    /// The step's time, seconds (decode: per output token).
    pub step_time: f64,
    /// Whether the weights and this batch's KV cache fit in HBM (`true`
    /// when the chip lists no capacity).
    pub fits: bool,
    /// Whether the weight matmuls are compute-bound at this batch.
    pub compute_bound: bool,
}

/// The most points on the curve.
pub const CURVE_POINTS: usize = 48;

/// Batches from 1 to `hi`, spaced evenly on a log scale, whole and
/// distinct, with `extra` (the batches the chart marks) included.
fn batches(hi: f64, extra: &[f64]) -> Vec<f64> {
    let hi = hi.max(2.0);
    let mut v: Vec<f64> = (0..CURVE_POINTS)
        .map(|i| {
            let f = i as f64 / (CURVE_POINTS - 1) as f64;
            (hi.ln() * f).exp().round().max(1.0)
        })
        .collect();
    v.extend(
        extra
            .iter()
            .filter(|b| **b >= 1.0 && **b <= hi)
            .map(|b| b.round()),
    );
    crate::small::sort_small_by(&mut v, |a, b| a.total_cmp(b));
    v.dedup();
    v
}

/// The curve of `run` on `chip`: every batch from 1 to four times the
/// largest batch that fits (or to four times the critical batch, with no
/// memory limit), each a point. Errors as [`analyze`].
pub fn curve(run: &ModelRun, chip: &Chip) -> Result<Vec<CurvePoint>, CoreError> {
    let a = analyze(run, chip)?;
    // The critical batch is in tokens of the step: per sequence, 1 in
    // decode, T in prefill.
    let critical_b = a.critical_batch / (run.tokens() / run.step.batch);
    let limit = a.max_batch.filter(|b| *b >= 1.0);
    let hi = (limit.unwrap_or(0.0).max(critical_b).max(run.step.batch) * 4.0).clamp(8.0, 1e7);
    let mut out = Vec::new();
    for b in batches(hi, &[run.step.batch, critical_b.ceil()]) {
        let mut r = run.clone();
        r.step.batch = b;
        let p = analyze(&r, chip)?;
        out.push(CurvePoint {
            batch: b,
            tokens_per_s: p.tokens_per_s,
            step_time: p.step_time,
            fits: p.fits.unwrap_or(true),
            compute_bound: p.compute_bound,
        });
    }
    Ok(out)
}
