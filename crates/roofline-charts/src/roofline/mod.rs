//! The roofline chart: attained FLOPs/s against arithmetic intensity, log-log.
//!
//! Here are the chart's types and [`draw_roofline`] (regions, roof,
//! bandwidth lines with their bends, the operation's marker, labels and
//! legend); the hover readout is in `hover`.

mod hover;

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use roofline_core::format;
use roofline_core::num::pow10;
use roofline_core::roofline::attained;

use crate::axis::{check_log_range, Axis};
use crate::error::err;
use crate::frame::{framed, FrameStyle};
use crate::labels::{plot_point, polyline_obstacles, square, Labels};
use crate::legend::{draw_legend, legend_layout, LegendEntry};
use crate::style::text_style_scaled;
use crate::Theme;

/// One bandwidth line of the chart.
#[derive(Debug, Clone, PartialEq)]
pub struct BandwidthLine {
    /// Legend label, for example "HBM 820 GB/s".
    pub label: String,
    /// Bandwidth in bytes/s.
    pub bandwidth: f64,
    /// Critical intensity (where the line meets the roof), FLOPs/byte.
    pub critical: f64,
    /// Text at the bend, for example "240 FLOPs/byte".
    pub critical_text: String,
}

/// The current operation, drawn as a vertical line at its intensity.
#[derive(Debug, Clone, PartialEq)]
pub struct OpMarker {
    /// Arithmetic intensity, FLOPs/byte.
    pub intensity: f64,
    /// Label, for example "matmul 256 FLOPs/byte".
    pub label: String,
}

/// Everything the roofline chart shows; all text already formatted.
#[derive(Debug, Clone, PartialEq)]
pub struct RooflineChart {
    /// Peak FLOPs/s: the flat roof.
    pub peak: f64,
    /// Label of the roof, for example "peak 197 TFLOP/s (bf16)".
    pub peak_label: String,
    /// One or two bandwidth lines.
    pub lines: Vec<BandwidthLine>,
    /// The current operation, if any.
    pub marker: Option<OpMarker>,
    /// Intensity range of the x axis (FLOPs/byte), both positive.
    pub x_range: (f64, f64),
}

impl RooflineChart {
    /// The y range: from the lowest line's throughput at the left edge to
    /// above the roof, on whole decades.
    pub fn y_range(&self) -> (f64, f64) {
        let lo = self
            .lines
            .iter()
            .map(|l| attained(self.peak, l.bandwidth, self.x_range.0))
            .fold(self.peak, f64::min);
        let lo = pow10(lo.log10().floor());
        let hi = pow10((self.peak.log10() + 0.35).ceil());
        (lo, hi)
    }

    /// Where `line` is drawn, in data coordinates: from the left edge up
    /// to its bend (clamped to the x range), then along the roof to the
    /// right edge.
    pub fn path(&self, line: &BandwidthLine) -> [(f64, f64); 3] {
        let (xlo, xhi) = self.x_range;
        let bend = line.critical.clamp(xlo, xhi);
        [xlo, bend, xhi].map(|x| (x, attained(self.peak, line.bandwidth, x)))
    }
}

/// Where the plot sits on the drawing area, to map a pointer back to data.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlotFrame {
    /// Left and right pixel of the plotting area.
    pub x_px: (i32, i32),
    /// Top and bottom pixel of the plotting area.
    pub y_px: (i32, i32),
    /// Data range of the x axis (log).
    pub x_range: (f64, f64),
    /// Data range of the y axis (log).
    pub y_range: (f64, f64),
}

impl PlotFrame {
    /// The data x (intensity) under pixel column `px`, if inside the plot.
    pub fn x_at(&self, px: f64) -> Option<f64> {
        let (l, r) = (self.x_px.0 as f64, self.x_px.1 as f64);
        if px < l || px > r || r <= l {
            return None;
        }
        let t = (px - l) / (r - l);
        let (a, b) = (self.x_range.0.log10(), self.x_range.1.log10());
        Some(pow10(a + t * (b - a)))
    }

    /// The data y under pixel row `py`, if inside the plot.
    pub fn y_at(&self, py: f64) -> Option<f64> {
        let (t, b) = (self.y_px.0 as f64, self.y_px.1 as f64);
        if py < t || py > b || b <= t {
            return None;
        }
        let s = (b - py) / (b - t);
        let (lo, hi) = (self.y_range.0.log10(), self.y_range.1.log10());
        Some(pow10(lo + s * (hi - lo)))
    }
}

/// `c` laid over `bg` at opacity `alpha`, as an opaque colour.
fn blend(bg: RGBColor, c: RGBColor, alpha: f64) -> RGBColor {
    let mix = |b: u8, f: u8| (f64::from(b) * (1.0 - alpha) + f64::from(f) * alpha).round() as u8;
    RGBColor(mix(bg.0, c.0), mix(bg.1, c.1), mix(bg.2, c.2))
}

/// Draws `chart` on `area`. `scale` multiplies font sizes and line widths
/// (pass the device pixel ratio when drawing at backing resolution).
pub fn draw_roofline<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &RooflineChart,
    theme: &Theme,
    scale: f64,
) -> Result<PlotFrame, String> {
    area.fill(&theme.background).map_err(err)?;
    let (xlo, xhi) = chart.x_range;
    if !(xlo.is_finite() && xhi.is_finite() && xlo > 0.0 && xhi > xlo && chart.peak > 0.0) {
        return Err("the chart has no valid range".to_string());
    }
    let (ylo, yhi) = chart.y_range();
    check_log_range("throughputs", ylo, yhi)?;
    check_log_range("intensities", xlo, xhi)?;
    let px = |v: f64| (v * scale).round() as i32;
    let text_style = |size: f64, c: RGBColor| text_style_scaled(size * scale, c);

    let frame = framed(area, Axis::log(xlo, xhi), Axis::log(ylo, yhi), scale);
    let ctx = &frame.plot;

    // Regions: bandwidth-bound for every line, for the slower line only,
    // compute-bound for every line; edges exactly at the bends. Opaque,
    // pre-blended fills drawn under the grid (alpha fills over the whole
    // plot were the slowest part of a redraw).
    let mut bends: Vec<f64> = chart.lines.iter().map(|l| l.critical).collect();
    roofline_core::small::sort_small_by(&mut bends, f64::total_cmp);
    if let (Some(first), Some(last)) = (bends.first().copied(), bends.last().copied()) {
        let clamp = |x: f64| x.clamp(xlo, xhi);
        let fills = [
            (xlo, clamp(first), theme.regions[0]),
            (clamp(first), clamp(last), theme.regions[1]),
            (clamp(last), xhi, theme.regions[2]),
        ];
        for (a, b, c) in fills {
            if b > a {
                ctx.draw(&Rectangle::new(
                    [(a, ylo), (b, yhi)],
                    blend(theme.background, c, theme.region_alpha).filled(),
                ))
                .map_err(err)?;
            }
        }
    }

    frame.draw(&FrameStyle {
        x_desc: "Arithmetic intensity (FLOPs/byte)",
        y_desc: "Attained throughput (FLOP/s)",
        ticks: (11, 11),
        label: text_style(12.0, theme.text),
        desc: text_style(13.0, theme.text),
        axis: ShapeStyle::from(theme.axis).stroke_width(px(1.0).max(1) as u32),
        grid: theme.grid.into(),
    })?;

    // The roof.
    ctx.draw(&PathElement::new(
        vec![(xlo, chart.peak), (xhi, chart.peak)],
        ShapeStyle::from(theme.roof).stroke_width(px(1.0).max(1) as u32),
    ))
    .map_err(err)?;

    // Bandwidth lines, each bending into the roof at its critical intensity.
    for (i, line) in chart.lines.iter().enumerate() {
        let color = theme.lines[i % 2];
        ctx.draw(&PathElement::new(
            chart.path(line).to_vec(),
            ShapeStyle::from(color).stroke_width(px(2.5) as u32),
        ))
        .map_err(err)?;
        if line.critical >= xlo && line.critical <= xhi {
            // Dotted drop from the bend to the axis.
            ctx.draw(&DashedPathElement::new(
                [(line.critical, ylo), (line.critical, chart.peak)],
                px(2.0),
                px(4.0),
                ShapeStyle::from(color).stroke_width(px(1.5) as u32),
            ))
            .map_err(err)?;
            ctx.draw(&Circle::new(
                (line.critical, chart.peak),
                px(5.0),
                color.filled(),
            ))
            .map_err(err)?;
        }
    }

    let marker = chart
        .marker
        .as_ref()
        .filter(|m| m.intensity >= xlo && m.intensity <= xhi);
    if let Some(m) = marker {
        ctx.draw(&DashedPathElement::new(
            [(m.intensity, ylo), (m.intensity, yhi)],
            px(6.0),
            px(4.0),
            ShapeStyle::from(theme.marker).stroke_width(px(1.5) as u32),
        ))
        .map_err(err)?;
        for (i, line) in chart.lines.iter().enumerate() {
            let y = attained(chart.peak, line.bandwidth, m.intensity);
            ctx.draw(&Circle::new(
                (m.intensity, y),
                px(5.0),
                ShapeStyle::from(theme.lines[i % 2]).filled(),
            ))
            .map_err(err)?;
            ctx.draw(&Circle::new(
                (m.intensity, y),
                px(5.0),
                ShapeStyle::from(theme.background).stroke_width(px(1.0).max(1) as u32),
            ))
            .map_err(err)?;
        }
    }

    // Labels, most important first, each where it overlaps nothing.
    // The legend names each line and the operation's marker.
    let mut entries: Vec<LegendEntry> = chart
        .lines
        .iter()
        .enumerate()
        .map(|(i, line)| (line.label.clone(), theme.lines[i % 2], false))
        .collect();
    if let Some(m) = marker {
        entries.push((m.label.clone(), theme.marker, true));
    }
    let plot = ctx.strip_coord_spec();
    let at = |x: f64, y: f64| plot_point(ctx, (x, y));
    let d = px(6.0);
    // What text must not cover: the bandwidth lines, the marker line and
    // every dot.
    let mut lines = Vec::new();
    let mut dots = Vec::new();
    for line in &chart.lines {
        let pts = chart.path(line).map(|(x, y)| at(x, y));
        lines.extend(polyline_obstacles(&pts, px(2.0), px(6.0)));
        if line.critical >= xlo && line.critical <= xhi {
            dots.push(square(at(line.critical, chart.peak), px(5.0)));
        }
    }
    // The legend may hide part of the marker's vertical line, not the data.
    let legend = legend_layout(&plot, &entries, scale, &lines, &dots)?;
    if let Some(m) = marker {
        lines.extend(polyline_obstacles(
            &[at(m.intensity, ylo), at(m.intensity, yhi)],
            px(2.0),
            px(6.0),
        ));
        for line in &chart.lines {
            let y = attained(chart.peak, line.bandwidth, m.intensity);
            dots.push(square(at(m.intensity, y), px(5.0)));
        }
    }
    dots.extend(legend.iter().map(|l| l.rect));
    let mut labels = Labels::new(&plot, &dots, &lines, scale);
    let row = px(16.0);
    // The critical intensities first: they are what the chart teaches.
    for (i, line) in chart.lines.iter().enumerate() {
        if line.critical < xlo || line.critical > xhi {
            continue;
        }
        let (x, y) = at(line.critical, chart.peak);
        let mut above = Vec::new();
        let mut below = Vec::new();
        // Clear of the bend's dot (radius 5) and the gap kept around it.
        let dx = px(8.0);
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
            &text_style(12.0, theme.lines[i % 2]),
            &order,
        )?;
    }
    // The peak, on the roof at either end.
    let (left, roof) = at(xlo, chart.peak);
    let (right, _) = at(xhi, chart.peak);
    labels.place_or_cross(
        &chart.peak_label,
        &text_style(12.0, theme.text),
        &[
            ((left + d, roof - d / 2), HPos::Left, VPos::Bottom),
            ((right - d, roof - d / 2), HPos::Right, VPos::Bottom),
            ((right - d, roof + d / 2), HPos::Right, VPos::Top),
            ((left + d, roof + d / 2), HPos::Left, VPos::Top),
        ],
    )?;
    if let Some(m) = marker {
        // What the operation attains under each line, right of the marker
        // (left of it would read as a bend label); once when lines agree.
        let mut shown: Vec<String> = Vec::new();
        for (i, line) in chart.lines.iter().enumerate() {
            let value = attained(chart.peak, line.bandwidth, m.intensity);
            let text = format::flops_rate(value);
            if shown.contains(&text) {
                continue;
            }
            let (x, y) = at(m.intensity, value);
            labels.place(
                &text,
                &text_style(11.0, theme.lines[i % 2]),
                &[
                    ((x + d, y + d), HPos::Left, VPos::Top),
                    ((x + d, y - d), HPos::Left, VPos::Bottom),
                ],
            )?;
            shown.push(text);
        }
    }
    if let Some(l) = &legend {
        draw_legend(&plot, l, &entries, theme, scale)?;
    }

    let (xr, yr) = ctx.get_pixel_range();
    let (x0, x1, y0, y1) = (xr.start, xr.end, yr.start, yr.end);
    area.present().map_err(err)?;
    Ok(PlotFrame {
        x_px: (x0, x1),
        y_px: (y0, y1),
        x_range: (xlo, xhi),
        y_range: (ylo, yhi),
    })
}
