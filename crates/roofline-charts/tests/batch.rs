//! The batch-size chart's reference curve: the small-size approximation
//! that the quiz's question 3 draws beside the exact curves. The chart
//! draws none unless a caller adds it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use roofline_charts::{approximation_series, batch_for, batch_legend, draw_batch, to_svg, Theme};
use roofline_core::{hardware::preset, op::Operation, small::map_of, LevelKind, Scenario};

/// Question 3's setup: bf16[B,D] · int8[D,F] → bf16[B,F] on a TPU v5e.
fn q3() -> Scenario {
    let sizes = map_of([
        ("B".to_string(), 128.0),
        ("D".to_string(), 4096.0),
        ("F".to_string(), 4096.0),
    ]);
    Scenario::new(
        preset("v5e").unwrap(),
        Operation::parse("bf16[B,D] * int8[D,F] -> bf16[B,F]").unwrap(),
        sizes,
        LevelKind::Hbm,
    )
}

fn svg(chart: &roofline_charts::BatchChart) -> String {
    to_svg(800, 500, |root| {
        draw_batch(root, chart, &Theme::light(), 1.0).map(|_| ())
    })
    .unwrap()
}

#[test]
fn the_chart_has_no_reference_curve_unless_asked() {
    let chart = batch_for(&q3(), "B", &[(4096.0, 4096.0), (1024.0, 1024.0)], true).unwrap();
    assert!(chart.references.is_empty());
    assert_eq!(
        batch_legend(&chart),
        vec![
            "D = F = 4096 (B > 136.1)".to_string(),
            "D = F = 1024 (B > 226.3)".to_string()
        ]
    );
}

#[test]
fn the_approximation_is_2b_times_the_bandwidth_under_the_roof() {
    let s = q3();
    let mut chart = batch_for(&s, "B", &[(4096.0, 4096.0), (1024.0, 1024.0)], true).unwrap();
    let approx = approximation_series(&s, &chart).unwrap();
    // 2B × 8.2e11 until the roof at 1.97e14: B = 1.97e14 / 8.2e11 / 2.
    let crossing = 1.97e14 / 8.2e11 / 2.0;
    let x = approx.crossover.unwrap();
    assert!((x - crossing).abs() < 1e-9 * crossing, "{x}");
    for &(b, y) in &approx.points {
        let want = (2.0 * b * 8.2e11).min(1.97e14);
        assert!(
            (y - want).abs() <= 1e-9 * want,
            "B = {b}: {y} against {want}"
        );
    }
    assert!(
        approx.points.iter().any(|p| p.0 == x),
        "the bend is on the curve"
    );
    // Above each exact curve: the approximation drops bytes.
    for s in &chart.series {
        for (p, q) in s.points.iter().zip(&approx.points) {
            if p.0 == q.0 {
                assert!(q.1 >= p.1 * (1.0 - 1e-12));
            }
        }
    }
    chart.references.push(approx);
    let legend = batch_legend(&chart);
    assert_eq!(legend[2], "approximation, intensity ≈ 2B (B > 120.1)");
    let drawn = svg(&chart);
    // Named in the legend.
    assert!(
        drawn.contains("approximation, intensity ≈ 2B (B &gt; 120.1)"),
        "legend"
    );
    chart.references.clear();
    assert!(!svg(&chart).contains("approximation"));
}

#[test]
fn an_operation_without_the_approximation_is_an_error() {
    let sizes = map_of([("N".to_string(), 1e6)]);
    let s = Scenario::new(
        preset("v5e").unwrap(),
        Operation::parse("fp32[N] + fp32[N] -> fp32[N]").unwrap(),
        sizes,
        LevelKind::Hbm,
    );
    let chart = batch_for(&s, "N", &[(1.0, 1.0)], true);
    if let Ok(chart) = chart {
        assert!(approximation_series(&s, &chart).is_err());
    }
}
