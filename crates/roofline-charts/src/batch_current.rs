//! The calculator's batch-size chart: the operation on screen is always one
//! of its curves, at its own sizes, so the critical batch in the results is
//! on the chart; the user's (D, F) pairs follow for comparison.

use roofline_core::analysis::Scenario;
use roofline_core::{format, CoreError};

use crate::batch::{batch_for, BatchChart, MAX_SERIES};

/// The calculator's batch chart and where its curves come from.
#[derive(Debug, Clone, PartialEq)]
pub struct CurrentBatch {
    /// The chart.
    pub chart: BatchChart,
    /// For each curve, the index of the pair it draws in the pairs given,
    /// or `None` for the operation's own curve when no pair matches it.
    pub pair_of: Vec<Option<usize>>,
}

/// The batch chart of `base` swept along `dim`: the operation at its own
/// sizes (labelled "this operation", its crossing the results' critical
/// size), then each of `pairs` that differs from it. A pair equal to the
/// operation's sizes is that curve. With fewer than two other dimensions
/// the pairs set nothing, and only the operation's curve is drawn.
pub fn batch_with_current(
    base: &Scenario,
    dim: &str,
    pairs: &[(f64, f64)],
    log: bool,
) -> Result<CurrentBatch, CoreError> {
    let others: Vec<String> = base.op.dims().into_iter().filter(|d| d != dim).collect();
    let size = |i: usize| {
        others
            .get(i)
            .and_then(|d| base.sizes.get(d).copied())
            .unwrap_or(0.0)
    };
    let current = (size(0), size(1));
    let mut all = Vec::new();
    let mut pair_of = Vec::new();
    let own = if others.len() >= 2 {
        pairs.iter().position(|p| *p == current)
    } else {
        None
    };
    if own.is_none() {
        all.push(current);
        pair_of.push(None);
    }
    if others.len() >= 2 {
        for (i, p) in pairs.iter().enumerate() {
            if all.len() >= MAX_SERIES {
                break;
            }
            all.push(*p);
            pair_of.push(Some(i));
        }
    }
    let mut chart = batch_for(base, dim, &all, log)?;
    let shown: Vec<String> = others
        .iter()
        .take(2)
        .map(|d| {
            format!(
                "{d} = {}",
                format::sig(base.sizes.get(d).copied().unwrap_or(0.0), 6)
            )
        })
        .collect();
    let mine = if shown.is_empty() {
        "this operation".to_string()
    } else {
        format!("this operation ({})", shown.join(", "))
    };
    let at = own.map_or(0, |i| i);
    if let Some(s) = chart.series.get_mut(at) {
        s.label = mine;
    }
    pair_of.truncate(chart.series.len());
    Ok(CurrentBatch { chart, pair_of })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;
    use roofline_core::analysis::critical_size;
    use roofline_core::hardware::preset;
    use roofline_core::op::{Operation, Shortcut};
    use roofline_core::LevelKind;

    fn scenario(op: &str, sizes: &[(&str, f64)]) -> Scenario {
        Scenario::new(
            preset("v5e").unwrap(),
            Operation::parse(op).unwrap(),
            sizes.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
            LevelKind::Hbm,
        )
    }

    #[test]
    fn the_operation_is_a_curve_with_the_results_critical_batch() {
        let s = scenario(
            &Shortcut::MixedMatmul.notation(),
            &[("B", 256.0), ("D", 8192.0), ("F", 1024.0)],
        );
        let c = batch_with_current(&s, "B", &[(4096.0, 4096.0), (1024.0, 1024.0)], true).unwrap();
        assert_eq!(c.pair_of, vec![None, Some(0), Some(1)]);
        assert_eq!(
            c.chart.series[0].label,
            "this operation (D = 8192, F = 1024)"
        );
        let want = match critical_size(&s, "B").unwrap() {
            roofline_core::analysis::CriticalSize::At { size, .. } => size,
            other => panic!("{other:?}"),
        };
        let got = c.chart.series[0].crossover.unwrap();
        assert!((got - want).abs() / want < 1e-9, "{got} {want}");
        // Sizes equal to a pair: that pair is the operation's curve.
        let s = scenario(
            &Shortcut::MixedMatmul.notation(),
            &[("B", 256.0), ("D", 1024.0), ("F", 1024.0)],
        );
        let c = batch_with_current(&s, "B", &[(4096.0, 4096.0), (1024.0, 1024.0)], true).unwrap();
        assert_eq!(c.pair_of, vec![Some(0), Some(1)]);
        assert_eq!(
            c.chart.series[1].label,
            "this operation (D = 1024, F = 1024)"
        );
    }

    #[test]
    fn an_elementwise_operation_draws_one_curve_and_never_an_empty_chart() {
        let s = scenario("bf16[N] -> bf16[N]", &[("N", 1e6)]);
        let c = batch_with_current(&s, "N", &[(4096.0, 4096.0)], true).unwrap();
        assert_eq!(c.chart.series.len(), 1);
        assert_eq!(c.chart.series[0].label, "this operation");
        assert!(c.chart.series[0].points.iter().all(|p| p.1 > 0.0));
        assert!(!c.chart.series[0].crossover_text.is_empty());
    }
}
