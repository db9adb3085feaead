//! The roofline chart's data drawn in data coordinates: the regions'
//! fills, the roof and the other roofs, the bandwidth lines with their
//! bends, and the operations' markers with a dot where each line meets
//! them.

use plotters::element::DashedPathElement;
use plotters::prelude::*;
use roofline_core::roofline::attained;

use super::{OpMarker, Pen};
use crate::error::err;
use crate::frame::Plot;

/// Regions: bandwidth-bound under every memory line, under the slower one
/// only, compute-bound under every one; edges exactly at the bends
/// (`regions` words them for the legend). Opaque, pre-blended fills drawn
/// under the grid (alpha fills over the whole plot were the slowest part
/// of a redraw).
pub(super) fn regions<DB: DrawingBackend>(ctx: &Plot<DB>, pen: &Pen) -> Result<(), String> {
    let ((xlo, xhi), (ylo, yhi)) = (pen.x, pen.y);
    for r in pen.chart.regions() {
        let (a, b) = (r.from.unwrap_or(xlo).max(xlo), r.to.unwrap_or(xhi).min(xhi));
        if b > a {
            ctx.draw(&Rectangle::new(
                [(a, ylo), (b, yhi)],
                pen.theme.region_fill(r.fill).filled(),
            ))
            .map_err(err)?;
        }
    }
    Ok(())
}

/// The roof, then the other roofs, dashed, each with a ring where the
/// first line would bend into it.
pub(super) fn roofs<DB: DrawingBackend>(ctx: &Plot<DB>, pen: &Pen) -> Result<(), String> {
    let (chart, theme) = (pen.chart, pen.theme);
    let (xlo, xhi) = pen.x;
    ctx.draw(&PathElement::new(
        vec![(xlo, chart.peak), (xhi, chart.peak)],
        ShapeStyle::from(theme.roof).stroke_width(pen.px(1.0).max(1) as u32),
    ))
    .map_err(err)?;
    for r in &chart.roofs {
        ctx.draw(&DashedPathElement::new(
            [(xlo, r.peak), (xhi, r.peak)],
            pen.px(8.0),
            pen.px(5.0),
            ShapeStyle::from(theme.roof).stroke_width(pen.px(1.5) as u32),
        ))
        .map_err(err)?;
        if let Some(first) = chart.lines.first() {
            let bend = r.peak / first.bandwidth;
            if bend >= xlo && bend <= xhi {
                ctx.draw(&Circle::new(
                    (bend, r.peak),
                    pen.px(4.0),
                    ShapeStyle::from(chart.line_color(0, theme)).stroke_width(pen.px(1.5) as u32),
                ))
                .map_err(err)?;
            }
        }
    }
    Ok(())
}

/// Bandwidth lines, each bending into the roof at its critical intensity,
/// with a dotted drop from the bend to the axis.
pub(super) fn bandwidth<DB: DrawingBackend>(ctx: &Plot<DB>, pen: &Pen) -> Result<(), String> {
    let chart = pen.chart;
    let (xlo, xhi) = pen.x;
    for (i, line) in chart.lines.iter().enumerate() {
        let color = chart.line_color(i, pen.theme);
        ctx.draw(&PathElement::new(
            chart.path(line).to_vec(),
            ShapeStyle::from(color).stroke_width(pen.px(2.5) as u32),
        ))
        .map_err(err)?;
        if line.critical >= xlo && line.critical <= xhi {
            // Dotted drop from the bend to the axis.
            ctx.draw(&DashedPathElement::new(
                [(line.critical, pen.y.0), (line.critical, chart.peak)],
                pen.px(2.0),
                pen.px(4.0),
                ShapeStyle::from(color).stroke_width(pen.px(1.5) as u32),
            ))
            .map_err(err)?;
            ctx.draw(&Circle::new(
                (line.critical, chart.peak),
                pen.px(5.0),
                color.filled(),
            ))
            .map_err(err)?;
        }
    }
    Ok(())
}

/// Each marker's dashed vertical line, and a dot where each line it is
/// read against meets it.
pub(super) fn markers<DB: DrawingBackend>(
    ctx: &Plot<DB>,
    pen: &Pen,
    markers: &[&OpMarker],
) -> Result<(), String> {
    let (chart, theme) = (pen.chart, pen.theme);
    let (ylo, yhi) = pen.y;
    for &m in markers {
        ctx.draw(&DashedPathElement::new(
            [(m.intensity, ylo), (m.intensity, yhi)],
            pen.px(6.0),
            pen.px(4.0),
            ShapeStyle::from(chart.marker_color(m, theme)).stroke_width(pen.px(1.5) as u32),
        ))
        .map_err(err)?;
        for (i, line) in chart.read_against(m) {
            let y = attained(chart.peak, line.bandwidth, m.intensity);
            ctx.draw(&Circle::new(
                (m.intensity, y),
                pen.px(5.0),
                ShapeStyle::from(chart.line_color(i, theme)).filled(),
            ))
            .map_err(err)?;
            ctx.draw(&Circle::new(
                (m.intensity, y),
                pen.px(5.0),
                ShapeStyle::from(theme.background).stroke_width(pen.px(1.0).max(1) as u32),
            ))
            .map_err(err)?;
        }
    }
    Ok(())
}
