//! The batch-size chart (practice question 3): attained FLOPs/s against one
//! dimension for several (D, F) pairs, with exact bytes and each curve's
//! crossover marked. A caller may add reference curves, drawn dashed (the
//! quiz adds the small-size approximation's, [`approximation_series`]); the
//! calculator adds none.

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use roofline_core::analysis::{CriticalSize, Scenario};
use roofline_core::num::pow10;
use roofline_core::small::Join;
use roofline_core::sweep::{lin_space, log_space, Sweep};
use roofline_core::{format, CoreError};

use crate::axis::{check_log_range, Axis, TickText};
use crate::error::err;
use crate::frame::{framed, FrameStyle, Plot};
use crate::labels::{plot_point, polyline_obstacles, Labels, Rect};
use crate::legend::{draw_legend, legend_layout, LegendEntry};
use crate::style::text_style_scaled;
use crate::{PlotFrame, Theme};

/// One curve of the batch chart.
#[derive(Debug, Clone, PartialEq)]
pub struct BatchSeries {
    /// Legend label, for example "D = F = 4096".
    pub label: String,
    /// (size, attained FLOPs/s) points.
    pub points: Vec<(f64, f64)>,
    /// Where the curve reaches the roof, if it does.
    pub crossover: Option<f64>,
    /// The crossover as text ("B > 136" or "never compute-bound").
    pub crossover_text: String,
}

/// Everything the batch chart shows; all text already formatted.
#[derive(Debug, Clone, PartialEq)]
pub struct BatchChart {
    /// The swept dimension's name (usually B).
    pub dim: String,
    /// Peak FLOPs/s (the roof).
    pub peak: f64,
    /// Label of the roof.
    pub peak_label: String,
    /// The curves.
    pub series: Vec<BatchSeries>,
    /// Range of the swept dimension.
    pub x_range: (f64, f64),
    /// Log axes (true) or linear axes (false).
    pub log: bool,
    /// Reference curves, drawn dashed after the curves and named in the
    /// legend after them (the small-size approximation). [`batch_for`]
    /// adds none; a caller that wants one pushes it.
    pub references: Vec<BatchSeries>,
}

/// The most curves the chart draws (colours cycle beyond the theme's).
pub const MAX_SERIES: usize = 8;

/// Builds the batch chart of `base` swept along `dim`, once per `(a, b)`
/// pair, where the pair sets the operation's first two dimensions other
/// than `dim` (D and F for the chapter's matmuls).
pub fn batch_for(
    base: &Scenario,
    dim: &str,
    pairs: &[(f64, f64)],
    log: bool,
) -> Result<BatchChart, CoreError> {
    if !base.op.has_dim(dim) {
        return Err(CoreError::Invalid(format!(
            "the operation has no dimension {dim} to sweep"
        )));
    }
    let others: Vec<String> = base.op.dims().into_iter().filter(|d| d != dim).collect();
    let mut sweeps = Vec::new();
    for &(a, b) in pairs.iter().take(MAX_SERIES) {
        let mut s = base.clone();
        let mut label = Vec::new();
        for (name, v) in others.iter().zip([a, b]) {
            s.sizes.insert(name.clone(), v);
            label.push((name.clone(), v));
        }
        let label = match label.as_slice() {
            [(n1, v1), (n2, v2)] if v1 == v2 => format!("{n1} = {n2} = {}", format::sig(*v1, 6)),
            parts => parts
                .iter()
                .map(|(n, v)| format!("{n} = {}", format::sig(*v, 6)))
                .collect::<Vec<_>>()
                .joined(", "),
        };
        let sweep = Sweep::new(&s, dim)?;
        sweeps.push((label, sweep));
    }
    // The peak of the unit the math runs on (the vector unit's for an add).
    let (peak, _) = base.peak_and_bandwidth()?;
    let mut hi: f64 = 1024.0;
    let mut crossings = Vec::new();
    for (_, sw) in &sweeps {
        let c = sw.critical()?;
        if let CriticalSize::At { size, .. } = c {
            hi = hi.max(size * 8.0);
        }
        crossings.push(c);
    }
    let hi = if log {
        pow10(hi.log10().ceil()).min(1e12)
    } else {
        let step = pow10(hi.log10().floor());
        ((hi / 2.0 / step).ceil() * step).min(1e12)
    };
    let x_range = (1.0, hi);
    let xs = if log {
        log_space(1.0, hi, 400)
    } else {
        lin_space(1.0, hi, 400)
    };
    let series = sweeps
        .into_iter()
        .zip(crossings)
        .map(|((label, sw), c)| {
            let mut pts = sw.points(&xs);
            let crossover = match c {
                CriticalSize::At {
                    size,
                    compute_bound_above: true,
                } => Some(size),
                _ => None,
            };
            if let Some(x) = crossover.filter(|x| *x > 1.0 && *x < hi) {
                // Put the bend exactly on the curve.
                let at = pts.partition_point(|p| p.0 < x);
                pts.insert(at, (x, sw.attained_at(x)));
            }
            BatchSeries {
                label,
                points: pts,
                crossover,
                crossover_text: roofline_core::report::critical_text(dim, &c),
            }
        })
        .collect();
    Ok(BatchChart {
        dim: dim.to_string(),
        peak,
        peak_label: format!("peak {}", format::flops_rate(peak)),
        series,
        x_range,
        log,
        references: Vec::new(),
    })
}

/// The curve of `base`'s small-size approximation, for `chart` (built by
/// [`batch_for`] from `base` along `chart.dim`): the intensity keeps only
/// the largest byte terms, so it grows in proportion to the swept size
/// (2B for bf16[B,D] · int8[D,F]), and the attained throughput is
/// min(peak, intensity × bandwidth): its points are the chart's ends and
/// the bend. Its crossover is where that intensity meets the critical
/// intensity. An error if the swept dimension is not the one the
/// approximation takes as small.
pub fn approximation_series(base: &Scenario, chart: &BatchChart) -> Result<BatchSeries, CoreError> {
    let dim = &chart.dim;
    let a = roofline_core::analyze(base)?;
    let (Some(ap), Some(size)) = (a.approx.as_ref(), base.sizes.get(dim)) else {
        return Err(CoreError::Invalid(format!(
            "the operation has no small-{dim} approximation"
        )));
    };
    if a.small_dim.as_deref() != Some(dim.as_str()) || !size.is_finite() || *size <= 0.0 {
        return Err(CoreError::Invalid(format!(
            "the approximation does not take {dim} as small"
        )));
    }
    let slope = ap.intensity / size;
    let at = |x: f64| roofline_core::roofline::attained(a.peak, a.bandwidth, slope * x);
    let crossover = a.critical_intensity / slope;
    // min(peak, slope × x × bandwidth) is two straight pieces on log and
    // on linear axes alike: its ends and its bend are the whole curve.
    let (lo, hi) = chart.x_range;
    let mut points = vec![(lo, at(lo))];
    if crossover > lo && crossover < hi {
        points.push((crossover, at(crossover)));
    }
    points.push((hi, at(hi)));
    if !points
        .iter()
        .all(|p| p.0.is_finite() && p.1.is_finite() && p.1 > 0.0)
    {
        return Err(CoreError::Invalid(
            "the approximation's curve is out of range".to_string(),
        ));
    }
    let intensity = ap.formula.rsplit("= ").next().unwrap_or(&ap.formula).trim();
    Ok(BatchSeries {
        label: format!("approximation, intensity ≈ {intensity}"),
        points,
        crossover: Some(crossover).filter(|x| x.is_finite()),
        crossover_text: roofline_core::report::critical_text(
            dim,
            &CriticalSize::At {
                size: crossover,
                compute_bound_above: true,
            },
        ),
    })
}

/// The legend's rows, as drawn: each curve's label and its crossover,
/// then each reference curve's.
pub fn batch_legend(chart: &BatchChart) -> Vec<String> {
    chart
        .series
        .iter()
        .chain(&chart.references)
        .map(|s| format!("{} ({})", s.label, s.crossover_text))
        .collect()
}

/// The sweep as CSV: one row per size, one column per curve (FLOP/s).
pub fn batch_csv(chart: &BatchChart) -> String {
    let mut out = String::from(&chart.dim);
    for s in &chart.series {
        out.push_str(&format!(
            ",\"attained FLOP/s ({})\"",
            s.label.replace('"', "'")
        ));
    }
    out.push('\n');
    let n = chart
        .series
        .iter()
        .map(|s| s.points.len())
        .max()
        .unwrap_or(0);
    for i in 0..n {
        let x = chart
            .series
            .iter()
            .find_map(|s| s.points.get(i).map(|p| p.0));
        let Some(x) = x else { continue };
        out.push_str(&format!("{x}"));
        for s in &chart.series {
            match s.points.get(i) {
                Some(p) => out.push_str(&format!(",{}", p.1)),
                None => out.push(','),
            }
        }
        out.push('\n');
    }
    out
}

/// `points` without the interior points of runs at the same height: on the
/// roof every point has the same attained FLOP/s, and a run's two ends draw
/// the same line with far fewer canvas calls. The CSV keeps every point.
pub(crate) fn without_flat_interior(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut out: Vec<(f64, f64)> = Vec::with_capacity(points.len());
    for (i, &p) in points.iter().enumerate() {
        let flat_before = i > 0 && points[i - 1].1 == p.1;
        let flat_after = points.get(i + 1).is_some_and(|n| n.1 == p.1);
        if !(flat_before && flat_after) {
            out.push(p);
        }
    }
    out
}

fn series_color(theme: &Theme, i: usize) -> RGBColor {
    const EXTRA: [RGBColor; 6] = [
        RGBColor(26, 127, 55),
        RGBColor(130, 80, 223),
        RGBColor(191, 57, 137),
        RGBColor(17, 138, 178),
        RGBColor(154, 103, 0),
        RGBColor(110, 119, 129),
    ];
    match i {
        0 | 1 => theme.lines[i],
        _ => EXTRA[(i - 2) % EXTRA.len()],
    }
}

/// Draws `chart` on `area`; `scale` multiplies fonts and line widths.
pub fn draw_batch<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &BatchChart,
    theme: &Theme,
    scale: f64,
) -> Result<PlotFrame, String> {
    area.fill(&theme.background).map_err(err)?;
    let (xlo, xhi) = chart.x_range;
    let finite_points = chart.series.iter().all(|s| {
        s.points
            .iter()
            .all(|p| p.0.is_finite() && p.1.is_finite() && p.1 > 0.0)
    });
    if !(xlo > 0.0
        && xhi > xlo
        && chart.peak > 0.0
        && xhi.is_finite()
        && chart.peak.is_finite()
        && finite_points)
    {
        return Err("the chart has no valid range".to_string());
    }
    let ymin = chart
        .series
        .iter()
        .flat_map(|s| s.points.first().map(|p| p.1))
        .fold(chart.peak, f64::min);
    let x_desc = format!("{} (size of the swept dimension)", chart.dim);
    let y_desc = "Attained throughput (FLOP/s)";
    // Log: decades around the data; linear: from zero, the roof a little
    // below the top.
    let (x, y, ylo, yhi, n_labels) = if chart.log {
        let ylo = pow10(ymin.log10().floor());
        let yhi = pow10((chart.peak.log10() + 0.35).ceil());
        check_log_range("throughputs", ylo, yhi)?;
        check_log_range("sizes", xlo, xhi)?;
        (Axis::log(xlo, xhi), Axis::log(ylo, yhi), ylo, yhi, 10)
    } else {
        let yhi = chart.peak * 1.15;
        let x = Axis::linear(0.0, xhi, TickText::Sig4);
        (x, Axis::linear(0.0, yhi, TickText::SciOrZero), 0.0, yhi, 6)
    };
    let x_range = x.range();
    let frame = framed(area, x, y, scale);
    frame.draw(&FrameStyle::themed(&x_desc, y_desc, n_labels, theme, scale))?;
    draw_curves(&frame.plot, chart, theme, scale, ylo)?;
    let (xr, yr) = frame.plot.get_pixel_range();
    let frame = PlotFrame {
        x_px: (xr.start, xr.end),
        y_px: (yr.start, yr.end),
        x_range: (x_range.start, x_range.end),
        y_range: (ylo, yhi),
        log: chart.log,
    };
    area.present().map_err(err)?;
    Ok(frame)
}

fn draw_curves<DB: DrawingBackend>(
    ctx: &Plot<DB>,
    chart: &BatchChart,
    theme: &Theme,
    scale: f64,
    ylo: f64,
) -> Result<(), String> {
    let px = move |v: f64| (v * scale).round() as i32;
    let text_style = |size: f64, c: RGBColor| text_style_scaled(size * scale, c);
    let (xlo, xhi) = chart.x_range;
    ctx.draw(&PathElement::new(
        vec![(xlo, chart.peak), (xhi, chart.peak)],
        ShapeStyle::from(theme.roof).stroke_width(px(1.0).max(1) as u32),
    ))
    .map_err(err)?;
    // Each curve as drawn (flat runs reduced), for the lines and for the
    // obstacles the legend and labels avoid.
    let drawn: Vec<Vec<(f64, f64)>> = chart
        .series
        .iter()
        .map(|s| without_flat_interior(&s.points))
        .collect();
    for (i, (s, pts)) in chart.series.iter().zip(&drawn).enumerate() {
        let color = series_color(theme, i);
        ctx.draw(&PathElement::new(
            pts.clone(),
            ShapeStyle::from(color).stroke_width(px(2.5) as u32),
        ))
        .map_err(err)?;
        if let Some(x) = s.crossover.filter(|x| *x >= xlo && *x <= xhi) {
            ctx.draw(&Circle::new((x, chart.peak), px(5.0), color.filled()))
                .map_err(err)?;
            ctx.draw(&DashedPathElement::new(
                [(x, ylo), (x, chart.peak)],
                px(4.0),
                px(4.0),
                ShapeStyle::from(color).stroke_width(px(1.0).max(1) as u32),
            ))
            .map_err(err)?;
        }
    }
    let mut entries: Vec<LegendEntry> = chart
        .series
        .iter()
        .enumerate()
        .map(|(i, s)| {
            (
                format!("{} ({})", s.label, s.crossover_text),
                series_color(theme, i),
                false,
            )
        })
        .collect();
    // Reference curves (none in the calculator): dashed, in the marker's
    // colour, after the curves in the legend. Drawn a segment at a time,
    // with the same element as the crossovers' dashed lines.
    for s in &chart.references {
        for w in s.points.windows(2) {
            ctx.draw(&DashedPathElement::new(
                [w[0], w[1]],
                px(7.0),
                px(5.0),
                ShapeStyle::from(theme.marker).stroke_width(px(2.5) as u32),
            ))
            .map_err(err)?;
        }
        entries.push((
            format!("{} ({})", s.label, s.crossover_text),
            theme.marker,
            true,
        ));
    }
    let plot = ctx.strip_coord_spec();
    let at = |p: &(f64, f64)| plot_point(ctx, *p);
    // The legend and the peak label avoid the curves.
    let mut obstacles = Vec::new();
    for pts in drawn
        .iter()
        .chain(chart.references.iter().map(|s| &s.points))
    {
        let pts: Vec<(i32, i32)> = pts.iter().map(at).collect();
        obstacles.extend(polyline_obstacles(&pts, px(2.0), px(6.0)));
    }
    let legend = legend_layout(&plot, &entries, scale, &obstacles, &[])?;
    let (left, roof) = at(&(xlo, chart.peak));
    let reserved: Vec<Rect> = legend.iter().map(|l| l.rect).collect();
    let d = px(6.0);
    Labels::new(&plot, &reserved, &obstacles, scale).place_or_cross(
        &chart.peak_label,
        &text_style(12.0, theme.text),
        &[
            ((left + d / 2, roof - d / 2), HPos::Left, VPos::Bottom),
            ((left + d / 2, roof + d / 2), HPos::Left, VPos::Top),
        ],
    )?;
    if let Some(l) = &legend {
        draw_legend(&plot, l, &entries, theme, scale)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::without_flat_interior;

    #[test]
    fn flat_runs_keep_their_ends_and_slopes_keep_every_point() {
        let pts = [
            (1.0, 1.0),
            (2.0, 2.0),
            (3.0, 5.0),
            (4.0, 5.0),
            (5.0, 5.0),
            (6.0, 5.0),
            (7.0, 6.0),
            (8.0, 6.0),
        ];
        assert_eq!(
            without_flat_interior(&pts),
            vec![
                (1.0, 1.0),
                (2.0, 2.0),
                (3.0, 5.0),
                (6.0, 5.0),
                (7.0, 6.0),
                (8.0, 6.0)
            ]
        );
        assert!(without_flat_interior(&[]).is_empty());
        assert_eq!(without_flat_interior(&[(1.0, 3.0)]), vec![(1.0, 3.0)]);
    }
}
