//! The answers the core computes for a question's setup: its analysis,
//! the size where it turns compute-bound, and the small-`B` threshold.

use crate::quiz::CalcSetup;
use crate::{analyze, critical_size, Analysis, CoreError, CriticalSize};

use super::invalid;

pub(super) fn analysis(c: &CalcSetup) -> Result<Analysis, CoreError> {
    analyze(&c.scenario()?)
}

/// The size of `dim` where the operation turns compute-bound, exact bytes.
pub(super) fn crossing(c: &CalcSetup, dim: &str) -> Result<f64, CoreError> {
    match critical_size(&c.scenario()?, dim)? {
        CriticalSize::At {
            size,
            compute_bound_above: true,
        } => Ok(size),
        _ => Err(invalid("no crossing")),
    }
}

/// Under the small-`B` approximation the intensity is `slope × B`; the
/// threshold is where it meets the critical intensity. Returns
/// (threshold, slope, analysis).
pub(super) fn approx_threshold(c: &CalcSetup) -> Result<(f64, f64, Analysis), CoreError> {
    let a = analysis(c)?;
    let b = c.size("B")?;
    let ap = a
        .approx
        .as_ref()
        .ok_or_else(|| invalid("no approximation"))?;
    let slope = ap.intensity / b;
    Ok((a.critical_intensity / slope, slope, a))
}
