//! The latency–throughput chart of the Model page: the step's time (per
//! output token in decode) against tokens per second as the batch grows,
//! solid while the batch fits in memory and dashed beyond, with the
//! critical batch, the largest batch that fits and the batch on screen
//! marked. Log-log: both span decades.

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use roofline_core::format;
use roofline_core::model::{CurvePoint, ModelAnalysis};
use roofline_core::num::pow10;

use crate::axis::{check_log_range, Axis};
use crate::error::err;
use crate::frame::{framed, FrameStyle};
use crate::labels::{plot_point, polyline_obstacles, Labels};
use crate::legend::{draw_legend, legend_layout, LegendEntry};
use crate::style::text_style_scaled;
use crate::{PlotFrame, Theme};

/// A batch the chart marks.
#[derive(Debug, Clone, PartialEq)]
pub struct LatencyMark {
    /// Tokens per second there.
    pub x: f64,
    /// Step time there, seconds.
    pub y: f64,
    /// What it is, with its batch.
    pub label: String,
}

/// Everything the chart shows, text formatted.
#[derive(Debug, Clone, PartialEq)]
pub struct LatencyChart {
    /// (tokens/s, step seconds, fits) for each batch, in batch order.
    pub points: Vec<(f64, f64, bool)>,
    /// The batch on screen.
    pub current: LatencyMark,
    /// The critical batch, where the weight matmuls turn compute-bound.
    pub critical: Option<LatencyMark>,
    /// The largest batch that fits.
    pub limit: Option<LatencyMark>,
    /// The y axis's title: time per output token, or to first token.
    pub y_desc: String,
    /// The x axis's title.
    pub x_desc: String,
}

/// The step time along `curve` at batch `b`, interpolated on the log
/// scale between the two batches around it.
fn at(curve: &[CurvePoint], b: f64) -> Option<(f64, f64)> {
    let i = curve.iter().position(|p| p.batch >= b)?;
    let p = curve[i];
    if p.batch == b || i == 0 {
        return Some((p.tokens_per_s, p.step_time));
    }
    let q = curve[i - 1];
    let f = (b.ln() - q.batch.ln()) / (p.batch.ln() - q.batch.ln());
    let lerp = |a: f64, c: f64| (a.ln() + f * (c.ln() - a.ln())).exp();
    Some((
        lerp(q.tokens_per_s, p.tokens_per_s),
        lerp(q.step_time, p.step_time),
    ))
}

/// The chart of `curve` for the batch `batch` with analysis `a` (decode
/// when `decode`).
pub fn latency_for(
    curve: &[CurvePoint],
    a: &ModelAnalysis,
    batch: f64,
    per_seq: f64,
    decode: bool,
) -> LatencyChart {
    let mark = |b: f64, what: &str| {
        at(curve, b).map(|(x, y)| LatencyMark {
            x,
            y,
            label: format!("{what}: B = {}", format::count(b)),
        })
    };
    LatencyChart {
        points: curve
            .iter()
            .map(|p| (p.tokens_per_s, p.step_time, p.fits))
            .collect(),
        current: LatencyMark {
            x: a.tokens_per_s,
            y: a.step_time,
            label: format!("this batch: B = {}", format::count(batch)),
        },
        critical: mark((a.critical_batch / per_seq).ceil(), "critical batch"),
        limit: a
            .max_batch
            .filter(|b| *b >= 1.0)
            .and_then(|b| mark(b, "largest that fits")),
        y_desc: if decode {
            "Time per output token (s)".to_string()
        } else {
            "Time to first token (s)".to_string()
        },
        x_desc: if decode {
            "Tokens per second, all chips".to_string()
        } else {
            "Prompt tokens per second, all chips".to_string()
        },
    }
}

/// Draws `chart` on `area`; the frame maps pixels back to data.
pub fn draw_latency<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &LatencyChart,
    theme: &Theme,
    scale: f64,
) -> Result<PlotFrame, String> {
    area.fill(&theme.background).map_err(err)?;
    let ok = |p: &(f64, f64, bool)| p.0.is_finite() && p.0 > 0.0 && p.1.is_finite() && p.1 > 0.0;
    if chart.points.len() < 2 || !chart.points.iter().all(ok) {
        return Err("the curve has no valid range".to_string());
    }
    let px = move |v: f64| (v * scale).round() as i32;
    let text_style = |size: f64, c: RGBColor| text_style_scaled(size * scale, c);
    let fold = |f: fn(f64, f64) -> f64, i: usize, init: f64| {
        chart
            .points
            .iter()
            .map(|p| if i == 0 { p.0 } else { p.1 })
            .fold(init, f)
    };
    let (xmin, xmax) = (fold(f64::min, 0, f64::INFINITY), fold(f64::max, 0, 0.0));
    let (ymin, ymax) = (fold(f64::min, 1, f64::INFINITY), fold(f64::max, 1, 0.0));
    let (xlo, xhi) = (
        pow10(xmin.log10().floor()),
        pow10((xmax.log10() + 0.05).ceil()),
    );
    let (ylo, yhi) = (
        pow10(ymin.log10().floor()),
        pow10((ymax.log10() + 0.05).ceil()),
    );
    check_log_range("tokens per second", xlo, xhi)?;
    check_log_range("times", ylo, yhi)?;
    let frame = framed(area, Axis::log(xlo, xhi), Axis::log(ylo, yhi), scale);
    frame.draw(&FrameStyle::themed(
        &chart.x_desc,
        &chart.y_desc,
        10,
        theme,
        scale,
    ))?;
    let ctx = &frame.plot;
    let color = theme.lines[0];
    let fits: Vec<(f64, f64)> = chart
        .points
        .iter()
        .filter(|p| p.2)
        .map(|p| (p.0, p.1))
        .collect();
    // Beyond the memory: from the last point that fits on.
    let first_out = chart.points.iter().position(|p| !p.2);
    let beyond: Vec<(f64, f64)> = match first_out {
        Some(i) => chart.points[i.saturating_sub(1)..]
            .iter()
            .map(|p| (p.0, p.1))
            .collect(),
        None => Vec::new(),
    };
    if fits.len() >= 2 {
        ctx.draw(&PathElement::new(
            fits.clone(),
            ShapeStyle::from(color).stroke_width(px(2.5) as u32),
        ))
        .map_err(err)?;
    }
    if beyond.len() >= 2 {
        ctx.draw(&DashedPathElement::new(
            beyond.clone(),
            px(6.0),
            px(4.0),
            ShapeStyle::from(theme.axis).stroke_width(px(2.0) as u32),
        ))
        .map_err(err)?;
    }
    let mut marks: Vec<(&LatencyMark, RGBColor)> = vec![(&chart.current, theme.lines[0])];
    if let Some(c) = &chart.critical {
        marks.push((c, theme.lines[1]));
    }
    if let Some(l) = &chart.limit {
        marks.push((l, theme.lines[2]));
    }
    for (m, c) in &marks {
        if m.x.is_finite() && m.y.is_finite() && m.x > 0.0 && m.y > 0.0 {
            ctx.draw(&Circle::new((m.x, m.y), px(5.0), c.filled()))
                .map_err(err)?;
        }
    }
    let mut entries: Vec<LegendEntry> =
        vec![("fits: the batch fits in memory".to_string(), color, false)];
    if !beyond.is_empty() {
        entries.push((
            "too big: the batch does not fit (dashed)".to_string(),
            theme.axis,
            true,
        ));
    }
    for (m, c) in &marks {
        entries.push((m.label.clone(), *c, false));
    }
    let plot = ctx.strip_coord_spec();
    let mut obstacles = Vec::new();
    for line in [&fits, &beyond] {
        let pts: Vec<(i32, i32)> = line.iter().map(|p| plot_point(ctx, *p)).collect();
        obstacles.extend(polyline_obstacles(&pts, px(2.0), px(6.0)));
    }
    let legend = legend_layout(&plot, &entries, scale, &obstacles, &[])?;
    let reserved: Vec<_> = legend.iter().map(|l| l.rect).collect();
    let mut labels = Labels::new(&plot, &reserved, &obstacles, scale);
    let d = px(8.0);
    for (m, c) in &marks {
        let (x, y) = plot_point(ctx, (m.x, m.y));
        labels.place(
            &format::seconds(m.y),
            &text_style(11.0, *c),
            &[
                ((x + d, y - d), HPos::Left, VPos::Bottom),
                ((x - d, y + d), HPos::Right, VPos::Top),
            ],
        )?;
    }
    if let Some(l) = &legend {
        draw_legend(&plot, l, &entries, theme, scale)?;
    }
    let (xr, yr) = ctx.get_pixel_range();
    area.present().map_err(err)?;
    Ok(PlotFrame {
        x_px: (xr.start, xr.end),
        y_px: (yr.start, yr.end),
        x_range: (xlo, xhi),
        y_range: (ylo, yhi),
        log: true,
    })
}
