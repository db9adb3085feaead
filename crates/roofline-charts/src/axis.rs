//! The one axis type both charts use, log or linear.
//!
//! plotters instantiates its coordinate and element code once per
//! coordinate type. With plotters' own types the charts needed two (a log
//! axis with fixed decade ticks, and a linear axis for the batch chart's
//! linear view), so every one of those functions was in the wasm twice.
//! [`Axis`] is both, chosen at run time, and maps values exactly as
//! plotters' log and linear axes do. Its ticks are its own: at decades on
//! a log axis, at round numbers on a linear one ([`round_ticks`]; plotters'
//! own linear ticks would bring libm's `pow`, 1.2 KB of the gzipped wasm).

use std::ops::Range;

use plotters::coord::ranged1d::{KeyPointHint, NoDefaultFormatting, Ranged, ValueFormatter};
use plotters::coord::types::RangedCoordf64;

use roofline_core::format;
use roofline_core::num::pow10;

/// How an axis writes its tick labels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TickText {
    /// A power of ten (`format::log_tick`).
    Decade,
    /// Four significant digits.
    Sig4,
    /// Scientific notation, and `0` for zero.
    SciOrZero,
}

/// A log axis with a tick at each decade, or a linear axis with ticks at
/// round numbers.
pub(crate) struct Axis {
    /// The linear map of the value, or of its natural log on a log axis.
    linear: RangedCoordf64,
    /// The values the axis spans.
    range: Range<f64>,
    /// Log (true) or linear (false).
    log: bool,
    /// A log axis's decades; `None` on a linear axis.
    decades: Option<Vec<f64>>,
    /// How tick labels are written.
    text: TickText,
}

impl Axis {
    /// A log axis over `lo..hi` (both positive) with decade ticks.
    pub(crate) fn log(lo: f64, hi: f64) -> Axis {
        Axis {
            linear: (lo.ln()..hi.ln()).into(),
            range: lo..hi,
            log: true,
            decades: Some(decades(lo, hi)),
            text: TickText::Decade,
        }
    }

    /// A linear axis over `lo..hi` whose labels are written as `text`.
    pub(crate) fn linear(lo: f64, hi: f64, text: TickText) -> Axis {
        Axis {
            linear: (lo..hi).into(),
            range: lo..hi,
            log: false,
            decades: None,
            text,
        }
    }
}

impl Ranged for Axis {
    type FormatOption = NoDefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let v = if self.log { value.ln() } else { *value };
        self.linear.map(&v, limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        match &self.decades {
            // Bold lines at the decades, no light lines between them.
            Some(_) if hint.weight().allow_light_points() => Vec::new(),
            Some(d) => d.clone(),
            None => round_ticks(self.range.start, self.range.end, hint.max_num_points()),
        }
    }

    fn range(&self) -> Range<f64> {
        self.range.clone()
    }
}

/// Powers of ten between `lo` and `hi` for tick marks: at most about a
/// dozen (every k-th decade on very wide ranges), none for a bad range.
fn decades(lo: f64, hi: f64) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite() && lo > 0.0 && hi > lo) {
        return Vec::new();
    }
    let (a, b) = (lo.log10().ceil() as i32, hi.log10().floor() as i32);
    let step = ((b - a) / 12 + 1).max(1) as usize;
    (a..=b).step_by(step).map(|e| 10f64.powi(e)).collect()
}

/// Checks a log axis range can be drawn: positive, finite, ordered.
pub(crate) fn check_log_range(what: &str, lo: f64, hi: f64) -> Result<(), String> {
    if lo.is_finite() && hi.is_finite() && lo > 0.0 && hi > lo && lo >= f64::MIN_POSITIVE {
        Ok(())
    } else {
        Err(format!(
            "The {what} are outside the range this chart can draw."
        ))
    }
}

/// Ticks at the whole multiples of a round step (1, 2 or 5 times a power
/// of ten) in `lo..=hi`: the smallest such step that gives at most `max`
/// of them. Each tick is its multiple times the step, so none carries the
/// error of a running sum. Empty for an empty or non-finite range.
pub(crate) fn round_ticks(lo: f64, hi: f64, max: usize) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite() && hi > lo) || max == 0 {
        return Vec::new();
    }
    // A step a decade below the span per tick is too small; ten decades
    // up is always large enough (its one multiple in range, if any).
    let first = ((hi - lo) / max as f64).log10().floor() - 1.0;
    for e in 0..12 {
        for m in [1.0, 2.0, 5.0] {
            let step = m * pow10(first + f64::from(e));
            let (a, b) = ((lo / step).ceil(), (hi / step).floor());
            if b - a + 1.0 <= max as f64 {
                return (a as i64..=b as i64).map(|k| k as f64 * step).collect();
            }
        }
    }
    Vec::new()
}

impl ValueFormatter<f64> for Axis {
    fn format_ext(&self, value: &f64) -> String {
        match self.text {
            TickText::Decade => format::log_tick(*value),
            TickText::Sig4 => format::sig(*value, 4),
            TickText::SciOrZero if *value == 0.0 => "0".to_string(),
            TickText::SciOrZero => format::sci(*value),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;
    use plotters::coord::ranged1d::{BoldPoints, LightPoints};
    use plotters::prelude::IntoLogRange;

    #[test]
    fn log_axis_maps_like_plotters_log_axis() {
        let ours = Axis::log(0.5, 3.0e5);
        let theirs: plotters::coord::combinators::LogCoord<f64> = (0.5..3.0e5).log_scale().into();
        for limit in [(0, 800), (640, 20), (7, 8)] {
            for v in [0.5, 0.7, 1.0, 10.0, 240.0, 1234.5, 3.0e5, 1e-3, 1e9] {
                assert_eq!(
                    ours.map(&v, limit),
                    theirs.map(&v, limit),
                    "{v} in {limit:?}"
                );
            }
        }
        assert_eq!(ours.range(), 0.5..3.0e5);
    }

    #[test]
    fn log_axis_ticks_at_decades_only() {
        let a = Axis::log(0.5, 3.0e5);
        assert_eq!(a.key_points(BoldPoints(3)), decades(0.5, 3.0e5));
        assert!(a.key_points(LightPoints::new(3, 30)).is_empty());
        assert_eq!(a.format_ext(&1e4), format::log_tick(1e4));
    }

    #[test]
    fn linear_axis_is_plotters_linear_axis() {
        let ours = Axis::linear(0.0, 4096.0, TickText::Sig4);
        let theirs = RangedCoordf64::from(0.0..4096.0);
        for limit in [(0, 800), (500, 10)] {
            for v in [0.0, 1.0, 2047.5, 4096.0, 5000.0] {
                assert_eq!(ours.map(&v, limit), theirs.map(&v, limit));
            }
        }
        // The same round ticks as plotters' linear axis.
        assert_eq!(ours.key_points(6usize), theirs.key_points(6usize));
        assert_eq!(
            ours.key_points(6usize),
            [0.0, 1000.0, 2000.0, 3000.0, 4000.0]
        );
        assert_eq!(
            ours.key_points(LightPoints::new(6, 60)),
            theirs.key_points(LightPoints::new(6, 60))
        );
        assert_eq!(ours.format_ext(&1234.56), "1235");
        let y = Axis::linear(0.0, 2.0e14, TickText::SciOrZero);
        assert_eq!(y.format_ext(&0.0), "0");
        assert_eq!(y.format_ext(&1.5e14), format::sci(1.5e14));
    }

    #[test]
    fn round_ticks_by_hand() {
        assert_eq!(
            round_ticks(0.0, 10.0, 11),
            (0..=10).map(f64::from).collect::<Vec<_>>()
        );
        assert_eq!(round_ticks(0.0, 10.0, 6), [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(round_ticks(0.0, 10.0, 5), [0.0, 5.0, 10.0]);
        assert_eq!(round_ticks(0.0, 2.0e14, 6), [0.0, 5e13, 1e14, 1.5e14, 2e14]);
        assert_eq!(round_ticks(3.0, 97.0, 6), [20.0, 40.0, 60.0, 80.0]);
        assert_eq!(round_ticks(0.0, 1.0, 3), [0.0, 0.5, 1.0]);
        assert_eq!(round_ticks(7.0, 8.0, 1), [8.0]);
        assert!(round_ticks(1.0, 1.0, 6).is_empty());
        assert!(round_ticks(0.0, f64::INFINITY, 6).is_empty());
        assert!(round_ticks(0.0, 1.0, 0).is_empty());
    }

    proptest::proptest! {
        #[test]
        fn round_ticks_fit_and_are_round(
            lo in -1e6f64..1e6,
            span in 1e-3f64..1e9,
            max in 1usize..40,
        ) {
            let hi = lo + span;
            let t = round_ticks(lo, hi, max);
            proptest::prop_assert!(t.len() <= max);
            for w in t.windows(2) {
                proptest::prop_assert!(w[1] > w[0]);
            }
            for v in &t {
                proptest::prop_assert!(*v >= lo - span * 1e-12 && *v <= hi + span * 1e-12);
            }
            // A step of 1, 2 or 5 times a power of ten.
            if t.len() >= 2 {
                let step = t[1] - t[0];
                let mant = step / pow10(step.log10().floor());
                proptest::prop_assert!(
                    [1.0, 2.0, 5.0, 10.0].iter().any(|m| (mant - m).abs() < 1e-6),
                    "step {}", step
                );
            }
        }
    }
}
