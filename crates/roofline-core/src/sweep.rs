//! Fast sweeps: attained FLOPs/s as one dimension varies, for charts.
//!
//! A [`Sweep`] is compiled once from a [`Scenario`] and a dimension: FLOPs and
//! bytes are affine in that dimension, so it keeps four coefficients, the peak
//! and the bandwidth. Evaluating a point is then a handful of arithmetic
//! operations, with no name lookups: 10⁴ points take microseconds.
//!
//! Range helpers ([`log_space`], [`lin_space`]) and [`ceiling_points`] (the
//! three points that draw one bandwidth line with its bend into the roof)
//! never panic: bad input gives an empty result or `None`.

use crate::analysis::{solve, CriticalSize, Scenario};
use crate::op::Linear;
use crate::CoreError;

/// The most points [`log_space`] and [`lin_space`] return.
pub const MAX_POINTS: usize = 100_000;

/// `n` values from `lo` to `hi` (both included), evenly spaced on a log
/// scale. Empty if `n` is 0 or either end is not positive and finite;
/// `[lo]` if `n` is 1. `n` is capped at [`MAX_POINTS`].
pub fn log_space(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite() && lo > 0.0 && hi > 0.0) {
        return Vec::new();
    }
    let (a, b) = (lo.ln(), hi.ln());
    spaced(a, b, n).into_iter().map(f64::exp).collect()
}

/// `n` values from `lo` to `hi` (both included), evenly spaced. Empty if `n`
/// is 0 or either end is not finite; `[lo]` if `n` is 1. `n` is capped at
/// [`MAX_POINTS`].
pub fn lin_space(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite()) {
        return Vec::new();
    }
    let mut v = spaced(lo, hi, n);
    // Hit the far end exactly.
    if let Some(last) = v.last_mut() {
        if n > 1 {
            *last = hi;
        }
    }
    v
}

fn spaced(a: f64, b: f64, n: usize) -> Vec<f64> {
    let n = n.min(MAX_POINTS);
    match n {
        0 => Vec::new(),
        1 => vec![a],
        _ => {
            let step = (b - a) / (n - 1) as f64;
            (0..n).map(|i| a + step * i as f64).collect()
        }
    }
}

/// The three points that draw one bandwidth line of a roofline between
/// intensities `lo` and `hi`: the start, the bend (at `peak / bandwidth`,
/// clamped into the range) and the end. On log-log axes straight segments
/// between them are exact: slope 1 below the bend, flat above. `None` if a
/// number is not positive and finite or `lo >= hi`.
pub fn ceiling_points(peak: f64, bandwidth: f64, lo: f64, hi: f64) -> Option<[(f64, f64); 3]> {
    let ok = |x: f64| x.is_finite() && x > 0.0;
    if !(ok(peak) && ok(bandwidth) && ok(lo) && ok(hi)) || lo >= hi {
        return None;
    }
    let bend = (peak / bandwidth).clamp(lo, hi);
    let y = |x: f64| peak.min(x * bandwidth);
    Some([(lo, y(lo)), (bend, y(bend)), (hi, y(hi))])
}

/// A scenario compiled for fast evaluation along one dimension.
#[derive(Debug, Clone, PartialEq)]
pub struct Sweep {
    dim: String,
    flops: Linear,
    bytes: Linear,
    peak: f64,
    bandwidth: f64,
}

impl Sweep {
    /// Compiles `s` for sweeps along `dim`. Every other dimension needs a
    /// size; the size of `dim` itself is ignored.
    pub fn new(s: &Scenario, dim: &str) -> Result<Sweep, CoreError> {
        let lin = s.op.linear_counts(dim, &s.sizes)?;
        let (peak, bandwidth) = s.peak_and_bandwidth()?;
        Sweep::from_linear(dim, lin.flops, lin.bytes(), peak, bandwidth)
    }

    /// A sweep from affine FLOPs and bytes (for example a network roofline's
    /// per-chip FLOPs and bytes sent). Bytes must be positive for every
    /// positive size, and every number finite.
    pub fn from_linear(
        dim: &str,
        flops: Linear,
        bytes: Linear,
        peak: f64,
        bandwidth: f64,
    ) -> Result<Sweep, CoreError> {
        crate::error::positive("peak", peak)?;
        crate::error::positive("bandwidth", bandwidth)?;
        let finite = [flops.slope, flops.offset, bytes.slope, bytes.offset]
            .iter()
            .all(|x| x.is_finite());
        if !finite {
            return Err(CoreError::Invalid(
                "the sizes are too large: FLOPs overflow".to_string(),
            ));
        }
        if bytes.slope < 0.0 || bytes.offset < 0.0 || bytes.slope + bytes.offset <= 0.0 {
            return Err(CoreError::Invalid(
                "the sweep needs bytes that stay positive".to_string(),
            ));
        }
        Ok(Sweep {
            dim: dim.to_string(),
            flops,
            bytes,
            peak,
            bandwidth,
        })
    }

    /// The dimension swept.
    pub fn dim(&self) -> &str {
        &self.dim
    }

    /// Peak FLOPs/s.
    pub fn peak(&self) -> f64 {
        self.peak
    }

    /// Bandwidth, bytes/s.
    pub fn bandwidth(&self) -> f64 {
        self.bandwidth
    }

    /// Peak ÷ bandwidth.
    pub fn critical_intensity(&self) -> f64 {
        self.peak / self.bandwidth
    }

    fn valid(x: f64) -> bool {
        x.is_finite() && x > 0.0
    }

    /// Arithmetic intensity (exact bytes) at size `x`; 0 if `x` is not
    /// positive and finite.
    pub fn intensity_at(&self, x: f64) -> f64 {
        if !Sweep::valid(x) {
            return 0.0;
        }
        // Divide through by x for large x so huge sizes cannot overflow.
        let i = if x > 1.0 {
            (self.flops.slope + self.flops.offset / x) / (self.bytes.slope + self.bytes.offset / x)
        } else {
            self.flops.at(x) / self.bytes.at(x)
        };
        if i.is_finite() {
            i.max(0.0)
        } else {
            0.0
        }
    }

    /// Attained FLOPs/s at size `x`: min(peak, intensity × bandwidth); 0 if
    /// `x` is not positive and finite.
    pub fn attained_at(&self, x: f64) -> f64 {
        self.peak.min(self.intensity_at(x) * self.bandwidth)
    }

    /// `T_math` at size `x`, seconds (0 for an invalid `x`).
    pub fn t_math_at(&self, x: f64) -> f64 {
        if Sweep::valid(x) {
            (self.flops.at(x) / self.peak).max(0.0)
        } else {
            0.0
        }
    }

    /// `T_comms` at size `x`, seconds (0 for an invalid `x`).
    pub fn t_comms_at(&self, x: f64) -> f64 {
        if Sweep::valid(x) {
            self.bytes.at(x) / self.bandwidth
        } else {
            0.0
        }
    }

    /// `(x, attained FLOPs/s)` for every positive, finite `x` in `xs` (others
    /// are skipped).
    pub fn points(&self, xs: &[f64]) -> Vec<(f64, f64)> {
        xs.iter()
            .copied()
            .filter(|x| Sweep::valid(*x))
            .map(|x| (x, self.attained_at(x)))
            .collect()
    }

    /// `(intensity, attained FLOPs/s)` for every positive, finite `x` in
    /// `xs`: where the operation sits on the roofline as `x` varies.
    pub fn roofline_points(&self, xs: &[f64]) -> Vec<(f64, f64)> {
        xs.iter()
            .copied()
            .filter(|x| Sweep::valid(*x))
            .map(|x| {
                let i = self.intensity_at(x);
                (i, self.peak.min(i * self.bandwidth))
            })
            .collect()
    }

    /// Where `T_math = T_comms` along the swept dimension.
    pub fn critical(&self) -> Result<CriticalSize, CoreError> {
        solve(self.flops, self.bytes, self.peak, self.bandwidth)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;
    use crate::analysis::analyze;
    use crate::hardware::preset;
    use crate::op::Shortcut;

    #[test]
    fn spaces() {
        assert!(log_space(1.0, 100.0, 0).is_empty());
        assert_eq!(log_space(1.0, 100.0, 1), vec![1.0]);
        let v = log_space(1.0, 100.0, 3);
        assert!((v[1] - 10.0).abs() < 1e-12 && (v[2] - 100.0).abs() < 1e-9);
        assert!(log_space(-1.0, 100.0, 3).is_empty());
        assert!(log_space(1.0, f64::INFINITY, 3).is_empty());
        assert_eq!(lin_space(0.0, 1.0, 5), vec![0.0, 0.25, 0.5, 0.75, 1.0]);
        assert!(lin_space(f64::NAN, 1.0, 5).is_empty());
        assert_eq!(lin_space(0.0, 1.0, usize::MAX).len(), MAX_POINTS);
    }

    #[test]
    fn ceiling_has_its_bend_at_critical_intensity() {
        let p = ceiling_points(1.97e14, 8.2e11, 1.0, 1e4).unwrap();
        assert!((p[1].0 - 1.97e14 / 8.2e11).abs() < 1e-9);
        assert_eq!(p[1].1, 1.97e14);
        assert_eq!(p[0].1, 8.2e11);
        assert!(ceiling_points(1.0, 1.0, 5.0, 5.0).is_none());
        assert!(ceiling_points(f64::NAN, 1.0, 1.0, 5.0).is_none());
        let clamped = ceiling_points(1.97e14, 8.2e11, 1e3, 1e4).unwrap();
        assert_eq!(clamped[0], clamped[1]);
    }

    #[test]
    fn sweep_agrees_with_analyze() {
        let s = Scenario::shortcut(preset("v5e").unwrap(), Shortcut::MixedMatmul);
        let sw = Sweep::new(&s, "B").unwrap();
        for b in [1.0, 17.0, 136.0, 256.0, 5000.0] {
            let mut t = s.clone();
            t.sizes.insert("B".into(), b);
            let a = analyze(&t).unwrap();
            assert!((sw.attained_at(b) - a.attained).abs() / a.attained < 1e-12);
            assert!((sw.t_math_at(b) - a.t_math).abs() / a.t_math < 1e-12);
            assert!((sw.t_comms_at(b) - a.t_comms).abs() / a.t_comms < 1e-12);
        }
        assert_eq!(sw.attained_at(-1.0), 0.0);
        assert_eq!(sw.points(&[f64::NAN, 1.0]).len(), 1);
        assert!(sw.attained_at(1e300).is_finite());
    }
}
