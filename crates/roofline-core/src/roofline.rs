//! The roofline itself: attained throughput against arithmetic intensity for
//! a peak and one or more bandwidths.

use crate::num::pow10;

/// Attained FLOPs/s for an algorithm of `intensity` (FLOPs/byte) on hardware
/// with `peak` FLOPs/s fed at `bandwidth` bytes/s: `min(peak, intensity × bandwidth)`.
pub fn attained(peak: f64, bandwidth: f64, intensity: f64) -> f64 {
    peak.min(intensity * bandwidth)
}

/// One bandwidth ceiling of a roofline chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Ceiling {
    /// Label shown in the legend (for example "HBM").
    pub label: String,
    /// Bandwidth in bytes/s.
    pub bandwidth: f64,
    /// Where this line bends into the roof: peak ÷ bandwidth, FLOPs/byte.
    pub critical_intensity: f64,
}

impl Ceiling {
    /// A ceiling for `bandwidth` under `peak`.
    pub fn new(label: &str, peak: f64, bandwidth: f64) -> Ceiling {
        Ceiling {
            label: label.to_string(),
            bandwidth,
            critical_intensity: peak / bandwidth,
        }
    }
}

/// A whole roofline: the flat roof at `peak` and its bandwidth ceilings.
#[derive(Debug, Clone, PartialEq)]
pub struct Roofline {
    /// Peak FLOPs/s (the flat roof).
    pub peak: f64,
    /// Label of the roof (for example "TPU v5e bf16 peak").
    pub peak_label: String,
    /// Bandwidth lines, in the order given.
    pub ceilings: Vec<Ceiling>,
}

impl Roofline {
    /// The intensity range (lo, hi) a chart should span around the bends
    /// and `marks` ([`log_span`]).
    pub fn intensity_range(&self, marks: &[f64]) -> (f64, f64) {
        log_span(
            self.ceilings
                .iter()
                .map(|c| c.critical_intensity)
                .chain(marks.iter().copied()),
        )
    }
}

/// A log axis's span around the intensities `xs`: a decade and a half
/// beyond the smallest and the largest positive one, on whole decades;
/// `(0.1, 1e4)` when there is none.
pub fn log_span(xs: impl Iterator<Item = f64>) -> (f64, f64) {
    let mut lo = f64::INFINITY;
    let mut hi = 0.0f64;
    for x in xs.filter(|x| x.is_finite() && *x > 0.0) {
        lo = lo.min(x);
        hi = hi.max(x);
    }
    if !lo.is_finite() {
        return (0.1, 1e4);
    }
    let lo = pow10((lo.log10() - 1.5).floor());
    let hi = pow10((hi.log10() + 1.5).ceil());
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bend_is_at_critical_intensity() {
        let c = Ceiling::new("HBM", 1.97e14, 8.2e11);
        let at_bend = attained(1.97e14, c.bandwidth, c.critical_intensity);
        assert!((at_bend - 1.97e14).abs() / 1.97e14 < 1e-12);
        assert!(attained(1.97e14, c.bandwidth, c.critical_intensity / 2.0) < 1.97e14);
        assert_eq!(
            attained(1.97e14, c.bandwidth, c.critical_intensity * 2.0),
            1.97e14
        );
    }

    #[test]
    fn range_spans_bends() {
        let r = Roofline {
            peak: 1.97e14,
            peak_label: "peak".into(),
            ceilings: vec![
                Ceiling::new("HBM", 1.97e14, 8.2e11),
                Ceiling::new("VMEM", 1.97e14, 1.8e13),
            ],
        };
        let (lo, hi) = r.intensity_range(&[]);
        assert!(lo < 10.9 && hi > 240.0);
    }
}
