//! The roofline chart's text: the legend's entries, what labels must not
//! cover (the lines, the dots, the legend), and the labels themselves,
//! most important first: the critical intensities at the bends, the peak,
//! the other roofs, what each marker attains.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};
use roofline_core::format;
use roofline_core::roofline::attained;

use super::{OpMarker, Pen, PointMark};
use crate::frame::Plot;
use crate::labels::{plot_point, polyline_obstacles, square, Labels, Rect};
use crate::legend::{legend_layout, LegendEntry, LegendLayout};

/// The legend names each line, then each roof when there are several (the
/// operation's solid, the others dashed), then each marker. On a narrow
/// plot (a phone) the roofs are left to their labels on the chart, so the
/// legend covers less of it.
pub(super) fn legend_entries<DB: DrawingBackend>(
    plot: &DrawingArea<DB, Shift>,
    pen: &Pen,
    markers: &[&OpMarker],
) -> Vec<LegendEntry> {
    let (chart, theme) = (pen.chart, pen.theme);
    let mut entries: Vec<LegendEntry> = chart
        .lines
        .iter()
        .enumerate()
        .map(|(i, line)| (line.label.clone(), chart.line_color(i, theme), false))
        .collect();
    if !chart.roofs.is_empty() && f64::from(plot.dim_in_pixel().0) >= 400.0 * pen.scale {
        entries.push((chart.peak_label.clone(), theme.roof, false));
        for r in &chart.roofs {
            entries.push((r.label.clone(), theme.roof, true));
        }
    }
    for &m in markers {
        entries.push((m.label.clone(), chart.marker_color(m, theme), true));
    }
    entries
}

/// The labels' placer on `plot` and the legend's layout: the legend kept
/// off the bandwidth lines and every dot (the bends, the kernels `shown`),
/// the labels off those, the markers' lines and dots, and the legend.
pub(super) fn placer<'p, DB: DrawingBackend>(
    ctx: &Plot<DB>,
    plot: &'p DrawingArea<DB, Shift>,
    pen: &Pen,
    markers: &[&OpMarker],
    entries: &[LegendEntry],
    shown: &[(&PointMark, (i32, i32))],
) -> Result<(Labels<'p, DB>, Option<LegendLayout>), String> {
    let chart = pen.chart;
    let ((xlo, xhi), (ylo, yhi)) = (pen.x, pen.y);
    let at = |x: f64, y: f64| plot_point(ctx, (x, y));
    // What text must not cover: the bandwidth lines, the marker line and
    // every dot.
    let mut lines = Vec::new();
    let mut dots = Vec::new();
    for line in &chart.lines {
        let pts = chart.path(line).map(|(x, y)| at(x, y));
        lines.extend(polyline_obstacles(&pts, pen.px(2.0), pen.px(6.0)));
        if line.critical >= xlo && line.critical <= xhi {
            dots.push(square(at(line.critical, chart.peak), pen.px(5.0)));
        }
    }
    dots.extend(shown.iter().map(|(_, xy)| square(*xy, pen.px(5.0))));
    // The legend may hide part of the marker's vertical line, not the data.
    let legend = legend_layout(plot, entries, pen.scale, &lines, &dots)?;
    for &m in markers {
        lines.extend(polyline_obstacles(
            &[at(m.intensity, ylo), at(m.intensity, yhi)],
            pen.px(2.0),
            pen.px(6.0),
        ));
        for (_, line) in chart.read_against(m) {
            let y = attained(chart.peak, line.bandwidth, m.intensity);
            dots.push(square(at(m.intensity, y), pen.px(5.0)));
        }
    }
    dots.extend(legend.iter().map(|l| l.rect));
    Ok((Labels::new(plot, &dots, &lines, pen.scale), legend))
}

/// The chart's labels, most important first, each where it overlaps
/// nothing: the critical intensities (what the chart teaches), the peak,
/// the other roofs, then what each marker attains.
pub(super) fn labels<DB: DrawingBackend>(
    ctx: &Plot<DB>,
    labels: &mut Labels<'_, DB>,
    pen: &Pen,
    markers: &[&OpMarker],
) -> Result<(), String> {
    let (chart, theme) = (pen.chart, pen.theme);
    let (xlo, xhi) = pen.x;
    let at = |x: f64, y: f64| plot_point(ctx, (x, y));
    let d = pen.px(6.0);
    let row = pen.px(16.0);
    // The other roofs' dashed lines: the bend and peak labels keep off
    // them where they can (a roof a little above the peak struck through
    // the bend's label), and so do the markers' values and the kernels'
    // names; the roofs' own labels sit on them.
    let roof_lines: Vec<Rect> = chart
        .roofs
        .iter()
        .flat_map(|r| polyline_obstacles(&[at(xlo, r.peak), at(xhi, r.peak)], pen.px(2.0), d))
        .collect();
    labels.add_lines(&roof_lines);
    // The critical intensities first: they are what the chart teaches.
    for (i, line) in chart.lines.iter().enumerate() {
        if line.critical < xlo || line.critical > xhi {
            continue;
        }
        let (x, y) = at(line.critical, chart.peak);
        let mut above = Vec::new();
        let mut below = Vec::new();
        // Clear of the bend's dot (radius 5) and the gap kept around it.
        let dx = pen.px(8.0);
        for k in 0..3 {
            let dy = dx + k * row;
            above.push(((x + dx, y - dy), HPos::Left, VPos::Bottom));
            above.push(((x - dx, y - dy), HPos::Right, VPos::Bottom));
            below.push(((x + dx, y + dy), HPos::Left, VPos::Top));
            below.push(((x - dx, y + dy), HPos::Right, VPos::Top));
        }
        let order = if i % 2 == 0 {
            [above, below].concat()
        } else {
            [below, above].concat()
        };
        labels.place_or_cross(
            &line.critical_text,
            &pen.text(12.0, chart.line_color(i, theme)),
            &order,
        )?;
    }
    // The peak, on the roof at either end.
    let (left, roof) = at(xlo, chart.peak);
    let (right, _) = at(xhi, chart.peak);
    labels.place_or_cross(
        &chart.peak_label,
        &pen.text(12.0, theme.text),
        &[
            ((left + d, roof - d / 2), HPos::Left, VPos::Bottom),
            ((right - d, roof - d / 2), HPos::Right, VPos::Bottom),
            ((right - d, roof + d / 2), HPos::Right, VPos::Top),
            ((left + d, roof + d / 2), HPos::Left, VPos::Top),
        ],
    )?;
    // Each marker's name at its line, in its colour: near the line's foot
    // on either side, else higher up.
    let (ylo, yhi) = pen.y;
    for &m in markers {
        if m.intensity < xlo || m.intensity > xhi {
            continue;
        }
        let name = m.label.split(':').next().unwrap_or(&m.label);
        let (x, bottom) = at(m.intensity, ylo);
        let (_, top) = at(m.intensity, yhi);
        let spots: Vec<_> = (0..4)
            .flat_map(|k| {
                let y = bottom - d - k * (bottom - top) / 4;
                [
                    ((x + d, y), HPos::Left, VPos::Bottom),
                    ((x - d, y), HPos::Right, VPos::Bottom),
                ]
            })
            .collect();
        labels.place_or_cross(name, &pen.text(11.0, chart.marker_color(m, theme)), &spots)?;
    }
    // The other roofs' labels, on their lines at either end; where the
    // whole label does not fit (a phone), its short one (`fp8 peak`).
    labels.drop_lines(roof_lines.len());
    for r in &chart.roofs {
        let (_, y) = at(xlo, r.peak);
        let spots = [
            ((right - d, y - d / 2), HPos::Right, VPos::Bottom),
            ((left + d, y - d / 2), HPos::Left, VPos::Bottom),
            ((right - d, y + d / 2), HPos::Right, VPos::Top),
            ((left + d, y + d / 2), HPos::Left, VPos::Top),
        ];
        let style = pen.text(11.0, theme.text);
        for text in [&r.label, &r.short] {
            if labels.place_or_cross(text, &style, &spots)? {
                break;
            }
        }
    }
    labels.add_lines(&roof_lines);
    for &m in markers {
        // What the operation attains under each line, right of the marker
        // (left of it would read as a bend label); once when lines agree.
        let mut shown: Vec<String> = Vec::new();
        for (i, line) in chart.read_against(m) {
            let value = attained(chart.peak, line.bandwidth, m.intensity);
            let text = format::flops_rate(value);
            if shown.contains(&text) {
                continue;
            }
            let (x, y) = at(m.intensity, value);
            labels.place(
                &text,
                &pen.text(11.0, chart.line_color(i, theme)),
                &[
                    ((x + d, y + d), HPos::Left, VPos::Top),
                    ((x + d, y - d), HPos::Left, VPos::Bottom),
                ],
            )?;
            shown.push(text);
        }
    }
    Ok(())
}
