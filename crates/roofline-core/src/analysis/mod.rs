//! The roofline analysis of one operation on one chip and one memory level.
//!
//! [`analyze`] turns a [`Scenario`] into every quantity of the chapter:
//! FLOPs, bytes, arithmetic intensity, the critical intensity of the chip,
//! `T_math`, `T_comms`, the lower bound (perfect overlap, the larger of the
//! two) and the upper bound (no overlap, their sum), the regime and the
//! attained FLOPs/s.
//!
//! ## The usual approximation
//!
//! The chapter simplifies intensities by assuming one dimension is small
//! (the batch `B`, tokens per chip) and all the others large. The bytes are a
//! sum of one term per operand (`2BD + 2DF + 2BF` for a bf16 matmul). The
//! approximation keeps the terms with the most *large* dimensions and drops
//! the others: here it keeps `2DF`, so the intensity `2BDF / 2DF = B`. The
//! same rule gives `2B` for int8 weights, `2` for the batched matmul (every
//! term contains `B`; `BDF` has the most large dimensions) and `1/2` for the
//! dot product (the output's 2 bytes are dropped). When no term can be
//! dropped (an elementwise add) there is no approximation: [`Analysis::approx`]
//! is `None`.
//!
//! ## Critical size
//!
//! [`critical_size`] finds the size of one dimension at which `T_math` equals
//! `T_comms`, using the exact bytes. FLOPs and bytes are affine in any single
//! dimension (`flops = a·x + f₀`, `bytes = b·x + c`; for a contraction over
//! `x` or with `x` in the output, `f₀ = 0`), so the crossing has a closed form:
//! `T_math − T_comms = (a/P − b/W)·x + (f₀/P − c/W)`, zero at
//! `x = (c/W − f₀/P) / (a/P − b/W)`. When `a/P ≤ b/W` the intensity can never
//! climb past `a/b` (its limit for large `x`) and the operation is never
//! compute-bound if that limit is below the critical intensity. Because every
//! count is affine by construction (each dimension appears at most once per
//! operand, and the FLOP count is a product over distinct dimensions), no
//! numerical search is needed.

mod approx;
mod terms;
#[cfg(test)]
mod tests;

use approx::approximate;
pub(crate) use terms::{byte_terms, coef_text, flops_term, sum_text, Term};

use crate::error::positive;
use crate::op::{Linear, Operation, Shortcut, Sizes};
use crate::roofline;
use crate::small::Join;
use crate::{Chip, ComputeUnit, CoreError, DType, LevelKind};

/// One operation at given sizes on one chip, against one memory level.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// The accelerator.
    pub chip: Chip,
    /// The operation.
    pub op: Operation,
    /// The size of each dimension.
    pub sizes: Sizes,
    /// The data type the math runs at; `None` uses the widest input's type.
    pub compute_dtype: Option<DType>,
    /// The memory level (or link) whose bandwidth feeds the compute units.
    pub level: LevelKind,
    /// The dimension the approximation treats as small; `None` uses `B` if
    /// the operation has it (otherwise every dimension counts as large).
    pub small_dim: Option<String>,
    /// Where the math runs; `None` = the operation's natural unit
    /// ([`Operation::natural_unit`]).
    pub unit: Option<ComputeUnit>,
}

impl Scenario {
    /// A scenario with the default compute type and small dimension.
    pub fn new(chip: Chip, op: Operation, sizes: Sizes, level: LevelKind) -> Scenario {
        Scenario {
            chip,
            op,
            sizes,
            compute_dtype: None,
            level,
            small_dim: None,
            unit: None,
        }
    }

    /// One of the chapter's operations at its default sizes, against HBM.
    pub fn shortcut(chip: Chip, shortcut: Shortcut) -> Scenario {
        Scenario::new(
            chip,
            shortcut.operation(),
            shortcut.default_sizes(),
            LevelKind::Hbm,
        )
    }

    /// The data type the math runs at (the widest input's unless set).
    pub fn resolved_dtype(&self) -> DType {
        self.compute_dtype
            .unwrap_or_else(|| self.op.widest_input_dtype())
    }

    /// The small dimension, checked: the one set (an error if the operation
    /// lacks it), else `B` if present, else none.
    pub fn resolved_small_dim(&self) -> Result<Option<String>, CoreError> {
        match &self.small_dim {
            Some(d) if self.op.has_dim(d) => Ok(Some(d.clone())),
            Some(d) => Err(CoreError::Invalid(format!(
                "small dimension: {} is not in the operation (its dimensions are {})",
                crate::format::clip(d, 16),
                self.op.dims().joined(", ")
            ))),
            None if self.op.has_dim("B") => Ok(Some("B".to_string())),
            None => Ok(None),
        }
    }

    /// Where the math runs: the unit asked for, else the operation's
    /// natural one; the matrix unit when the chip lists no vector-unit peak.
    pub fn resolved_unit(&self) -> ComputeUnit {
        self.chip
            .runs_on(self.unit.unwrap_or_else(|| self.op.natural_unit()))
    }

    /// Peak FLOPs/s of the unit the math runs on (the matrix unit's at the
    /// compute type, or the vector unit's) and bandwidth of the level, checked.
    pub fn peak_and_bandwidth(&self) -> Result<(f64, f64), CoreError> {
        let dtype = self.resolved_dtype();
        let peak = match (self.resolved_unit(), &self.chip.vector) {
            (ComputeUnit::Vector, Some(v)) => {
                positive(&format!("{} vector-unit peak", self.chip.name), v.dense)?
            }
            _ => positive(
                &format!("{} {} peak", self.chip.name, dtype),
                self.chip.peak(dtype)?,
            )?,
        };
        let bw = positive(
            &format!("{} {} bandwidth", self.chip.name, self.level),
            self.chip.bandwidth(self.level)?,
        )?;
        Ok((peak, bw))
    }
}

/// Which resource limits the operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Regime {
    /// Intensity above the critical intensity: the math takes longer.
    Compute,
    /// Intensity at or below the critical intensity: moving bytes takes longer.
    Bandwidth,
}

impl Regime {
    /// `compute` or `bandwidth`.
    pub fn key(self) -> &'static str {
        match self {
            Regime::Compute => "compute",
            Regime::Bandwidth => "bandwidth",
        }
    }

    /// `compute-bound` or `bandwidth-bound`.
    pub fn label(self) -> &'static str {
        match self {
            Regime::Compute => "compute-bound",
            Regime::Bandwidth => "bandwidth-bound",
        }
    }

    /// The regime for an intensity against a critical intensity.
    pub fn of(intensity: f64, critical_intensity: f64) -> Regime {
        if intensity > critical_intensity {
            Regime::Compute
        } else {
            Regime::Bandwidth
        }
    }
}

/// The intensity under the small-dimension approximation.
#[derive(Debug, Clone, PartialEq)]
pub struct Approx {
    /// FLOPs divided by the kept bytes, at the current sizes.
    pub intensity: f64,
    /// The byte terms kept (those with the most large dimensions), such as `2DF`.
    pub kept_terms: Vec<String>,
    /// The byte terms dropped, such as `2BD`.
    pub dropped_terms: Vec<String>,
    /// The simplification, such as `2BDF / 2DF = B`.
    pub formula: String,
}

/// Everything the roofline says about one scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    /// The data type the math runs at.
    pub compute_dtype: DType,
    /// The unit it runs on (its peak is [`Analysis::peak`]).
    pub unit: ComputeUnit,
    /// The memory level used.
    pub level: LevelKind,
    /// What the chip calls that level ([`crate::Chip::level_name`]): `HBM`,
    /// `GDDR6X`, `VMEM`...
    pub level_name: &'static str,
    /// The small dimension of the approximation, if any.
    pub small_dim: Option<String>,
    /// Peak FLOPs/s for the compute type.
    pub peak: f64,
    /// Bandwidth of the level, bytes/s.
    pub bandwidth: f64,
    /// FLOPs, book convention (a multiply and an add per term).
    pub flops: f64,
    /// FLOPs counted exactly (`2N − 1` for a dot product).
    pub flops_exact_adds: f64,
    /// Bytes read.
    pub bytes_read: f64,
    /// Bytes written.
    pub bytes_written: f64,
    /// Bytes read plus written.
    pub bytes: f64,
    /// Arithmetic intensity with the exact bytes, FLOPs/byte.
    pub intensity: f64,
    /// The small-dimension approximation, if it drops anything.
    pub approx: Option<Approx>,
    /// Peak ÷ bandwidth, FLOPs/byte.
    pub critical_intensity: f64,
    /// FLOPs ÷ peak, seconds.
    pub t_math: f64,
    /// Bytes ÷ bandwidth, seconds.
    pub t_comms: f64,
    /// max(T_math, T_comms): perfect overlap.
    pub t_lower: f64,
    /// T_math + T_comms: no overlap.
    pub t_upper: f64,
    /// Compute-bound iff intensity > critical intensity.
    pub regime: Regime,
    /// FLOPs ÷ lower bound = min(peak, intensity × bandwidth), FLOPs/s.
    pub attained: f64,
    /// Attained ÷ peak, between 0 and 1.
    pub peak_fraction: f64,
}

/// Where an operation turns compute-bound as one dimension grows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CriticalSize {
    /// `T_math = T_comms` at `size`; compute-bound above it if
    /// `compute_bound_above`, else below it.
    At {
        /// The size of the dimension at the crossing.
        size: f64,
        /// Whether sizes above the crossing are compute-bound.
        compute_bound_above: bool,
    },
    /// Never compute-bound: the intensity never exceeds `max_intensity`
    /// (its limit for large or small sizes), which is at most the critical
    /// intensity.
    Never {
        /// The highest intensity reachable, FLOPs/byte.
        max_intensity: f64,
    },
    /// Compute-bound at every positive size.
    Always,
}

impl Analysis {
    /// The roof this analysis is read against: the matrix unit at its
    /// data type, or the vector unit.
    pub fn roof(&self) -> crate::RoofKey {
        match self.unit {
            ComputeUnit::Matrix => crate::RoofKey::Matrix(self.compute_dtype),
            ComputeUnit::Vector => crate::RoofKey::Vector,
        }
    }
}

/// Analyses a scenario. Errors name the operand, size, peak or level at fault.
pub fn analyze(s: &Scenario) -> Result<Analysis, CoreError> {
    let counts = s.op.counts(&s.sizes)?;
    let small_dim = s.resolved_small_dim()?;
    let (peak, bandwidth) = s.peak_and_bandwidth()?;
    let bytes = counts.bytes();
    let intensity = counts.flops / bytes;
    let critical_intensity = peak / bandwidth;
    let t_math = counts.flops / peak;
    let t_comms = bytes / bandwidth;
    let t_lower = t_math.max(t_comms);
    let t_upper = t_math + t_comms;
    let attained = roofline::attained(peak, bandwidth, intensity);
    let approx = approximate(&s.op, &s.sizes, small_dim.as_deref(), counts.flops);
    let all_finite = [
        bytes,
        intensity,
        critical_intensity,
        t_math,
        t_comms,
        t_upper,
        attained,
    ]
    .iter()
    .all(|x| x.is_finite());
    if !all_finite || t_lower <= 0.0 {
        return Err(CoreError::Invalid(
            "the numbers are out of range: the times or the intensity cannot be computed"
                .to_string(),
        ));
    }
    Ok(Analysis {
        compute_dtype: s.resolved_dtype(),
        unit: s.resolved_unit(),
        level: s.level,
        level_name: s.chip.level_name(s.level),
        small_dim,
        peak,
        bandwidth,
        flops: counts.flops,
        flops_exact_adds: counts.flops_exact_adds,
        bytes_read: counts.bytes_read,
        bytes_written: counts.bytes_written,
        bytes,
        intensity,
        approx,
        critical_intensity,
        t_math,
        t_comms,
        t_lower,
        t_upper,
        regime: Regime::of(intensity, critical_intensity),
        attained,
        peak_fraction: attained / peak,
    })
}

/// The size of `dim` at which `T_math = T_comms` with the exact bytes (see
/// the module documentation). The size given for `dim` in the scenario, if
/// any, is ignored; every other dimension needs one.
pub fn critical_size(s: &Scenario, dim: &str) -> Result<CriticalSize, CoreError> {
    let lin = s.op.linear_counts(dim, &s.sizes)?;
    let (peak, bandwidth) = s.peak_and_bandwidth()?;
    solve(lin.flops, lin.bytes(), peak, bandwidth)
}

/// Solves `flops(x)/peak = bytes(x)/bandwidth` for `x > 0`, with FLOPs and
/// bytes affine in `x`. Bytes must be positive for every positive `x`.
pub fn solve(
    flops: Linear,
    bytes: Linear,
    peak: f64,
    bandwidth: f64,
) -> Result<CriticalSize, CoreError> {
    let alpha = flops.slope / peak - bytes.slope / bandwidth;
    let beta = flops.offset / peak - bytes.offset / bandwidth;
    if !(alpha.is_finite() && beta.is_finite()) {
        return Err(CoreError::Invalid(
            "the numbers are out of range: the critical size cannot be computed".to_string(),
        ));
    }
    // The supremum of (a·x + f₀)/(b·x + c) over x > 0: one of its two limits.
    let mut max_intensity = f64::NEG_INFINITY;
    if bytes.slope > 0.0 {
        max_intensity = max_intensity.max(flops.slope / bytes.slope);
    }
    if bytes.offset > 0.0 {
        max_intensity = max_intensity.max(flops.offset / bytes.offset);
    }
    if !max_intensity.is_finite() {
        max_intensity = 0.0;
    }
    let never = CriticalSize::Never { max_intensity };
    // g(x) = alpha·x + beta > 0 exactly when compute-bound.
    Ok(if alpha == 0.0 {
        if beta > 0.0 {
            CriticalSize::Always
        } else {
            never
        }
    } else {
        let x = -beta / alpha;
        if !x.is_finite() {
            if alpha > 0.0 && beta >= 0.0 {
                CriticalSize::Always
            } else {
                never
            }
        } else if x > 0.0 {
            CriticalSize::At {
                size: x,
                compute_bound_above: alpha > 0.0,
            }
        } else if alpha > 0.0 {
            CriticalSize::Always
        } else {
            never
        }
    })
}
