//! The roofline chart: attained FLOPs/s against arithmetic intensity, on
//! log-log axes (the chapter's figure) or linear ones.
//!
//! Here are the chart's types and [`draw_roofline`] (regions, roof,
//! bandwidth lines with their bends, the operations' markers, labels and
//! legend); the hover readout is in `hover`, the regions' legend in
//! `regions`.

mod hover;
mod points;
mod regions;

pub use points::{nearest, PointMark};

pub use regions::Region;

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use roofline_core::format;
use roofline_core::num::pow10;
use roofline_core::roofline::attained;

use crate::axis::{check_log_range, Axis, TickText};
use crate::error::err;
use crate::frame::{framed, FrameStyle};
use crate::labels::{plot_point, polyline_obstacles, square, Labels};
use crate::legend::{draw_legend, legend_layout, LegendEntry};
use crate::style::text_style_scaled;
use crate::Theme;

/// One bandwidth line of the chart.
#[derive(Debug, Clone, PartialEq)]
pub struct BandwidthLine {
    /// The level's link key, for example `hbm` or `ici`.
    pub key: String,
    /// Whether this is the network link between chips (drawn in its own
    /// colour, and left out of the memory regions).
    pub network: bool,
    /// Legend label, for example "HBM 820 GB/s".
    pub label: String,
    /// Bandwidth in bytes/s.
    pub bandwidth: f64,
    /// Critical intensity (where the line meets the roof), FLOPs/byte.
    pub critical: f64,
    /// Text at the bend, for example "240 FLOPs/byte".
    pub critical_text: String,
}

/// An operation's intensity, drawn as a dashed vertical line, with a dot
/// where it meets each line it is read against.
#[derive(Debug, Clone, PartialEq)]
pub struct OpMarker {
    /// Arithmetic intensity, FLOPs/byte.
    pub intensity: f64,
    /// Label, for example "matmul 256 FLOPs/byte".
    pub label: String,
    /// Indices into the chart's lines that this intensity is read against:
    /// the memory lines for the operation, the link for its network
    /// intensity. A marker read against one line takes that line's colour.
    pub on: Vec<usize>,
}

/// Everything the roofline chart shows; all text already formatted.
#[derive(Debug, Clone, PartialEq)]
pub struct RooflineChart {
    /// Peak FLOPs/s: the flat roof.
    pub peak: f64,
    /// Label of the roof, for example "peak 197 TFLOP/s (bf16)".
    pub peak_label: String,
    /// The roof's key: its data type (`bf16`) or `vector`.
    pub roof_key: String,
    /// Other roofs drawn for comparison (dashed), in order.
    pub roofs: Vec<OtherRoof>,
    /// One or two memory lines, then the network link's when there is one.
    pub lines: Vec<BandwidthLine>,
    /// The operation and, across chips, its network intensity.
    pub markers: Vec<OpMarker>,
    /// Intensity range of the x axis (FLOPs/byte): both positive on log
    /// axes, from zero on linear ones.
    pub x_range: (f64, f64),
    /// Log-log axes (the chapter's figure) or linear ones.
    pub log: bool,
}

/// A roof drawn beside the one the operation runs under: another data
/// type's peak, or the vector unit's.
#[derive(Debug, Clone, PartialEq)]
pub struct OtherRoof {
    /// Its key: `fp8`, `vector`.
    pub key: String,
    /// Its label on the chart: `fp8 peak 1.98 PFLOP/s`.
    pub label: String,
    /// Its label where that does not fit (a phone): `fp8 peak`.
    pub short: String,
    /// Its peak, FLOP/s.
    pub peak: f64,
}

impl RooflineChart {
    /// The keys of the roofs drawn, the operation's first: `bf16,fp8,vector`.
    pub fn roof_keys(&self) -> String {
        let keys: Vec<&str> = std::iter::once(self.roof_key.as_str())
            .chain(self.roofs.iter().map(|r| r.key.as_str()))
            .collect();
        keys.join(",")
    }

    /// Adds `roofs` (key, label, peak) beside the operation's.
    pub fn add_roofs(&mut self, roofs: impl IntoIterator<Item = OtherRoof>) {
        self.roofs.extend(roofs);
    }

    /// The y range: on log axes from the lowest line's throughput at the
    /// left edge to above the roof, on whole decades; on linear axes from
    /// zero to a little above the roof.
    pub fn y_range(&self) -> (f64, f64) {
        self.y_range_over(std::iter::empty())
    }

    /// The y range with `points` in it as well.
    fn y_range_with(&self, points: &[PointMark]) -> (f64, f64) {
        self.y_range_over(points.iter().map(|p| p.rate))
    }

    /// The y range with the throughputs `extra` in it as well (generic, so
    /// that the calculator's copy, with none, is the plain one).
    fn y_range_over(&self, extra: impl Iterator<Item = f64> + Clone) -> (f64, f64) {
        let roofs = self.roofs.iter().map(|r| r.peak);
        let top = extra.clone().chain(roofs.clone()).fold(self.peak, f64::max);
        if !self.log {
            return (0.0, top * 1.15);
        }
        let lo = self
            .lines
            .iter()
            .map(|l| attained(self.peak, l.bandwidth, self.x_range.0))
            .chain(extra)
            .chain(roofs)
            .fold(self.peak, f64::min);
        let lo = pow10(lo.log10().floor());
        let hi = pow10((top.log10() + 0.35).ceil());
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

    /// The colour of line `i`: the link's own, or the memory lines' two.
    pub fn line_color(&self, i: usize, theme: &Theme) -> RGBColor {
        match self.lines.get(i) {
            Some(l) if l.network => theme.lines[2],
            _ if i < 2 => theme.lines[i],
            _ => theme.more_lines[(i - 2).min(2)],
        }
    }

    /// The colour of `marker`: its line's when it is read against one line,
    /// else the operation's own.
    pub fn marker_color(&self, marker: &OpMarker, theme: &Theme) -> RGBColor {
        match marker.on.as_slice() {
            [i] => self.line_color(*i, theme),
            _ => theme.marker,
        }
    }

    /// The keys of the lines drawn, in order, comma-separated: `hbm,vmem`,
    /// or `hbm,vmem,ici` with the link.
    pub fn line_keys(&self) -> String {
        let keys: Vec<&str> = self.lines.iter().map(|l| l.key.as_str()).collect();
        keys.join(",")
    }

    /// Adds the network link's line, `name` at `bandwidth` bytes/s (key
    /// `key`), and a marker at the operation's network `intensity` read
    /// against it; the x range grows to show both.
    pub fn add_network(&mut self, key: &str, name: &str, bandwidth: f64, intensity: f64) {
        let critical = self.peak / bandwidth;
        self.lines.push(BandwidthLine {
            key: key.to_string(),
            network: true,
            label: format!("{name} {} (between chips)", format::bandwidth(bandwidth)),
            bandwidth,
            critical,
            critical_text: format::intensity(critical),
        });
        self.markers.push(OpMarker {
            intensity,
            label: format!("network intensity: {}", format::intensity(intensity)),
            on: vec![self.lines.len() - 1],
        });
        self.fit_x();
    }

    /// Switches to linear axes (`log` false) or back to log-log, and fits
    /// the x range to the bends and markers.
    pub fn set_log(&mut self, log: bool) {
        self.log = log;
        self.fit_x();
    }

    /// Fits the x range: on log axes a decade and a half beyond the
    /// outermost bends and markers; on linear axes from zero to a little
    /// past the farthest of them, so every bend is seen.
    pub fn fit_x(&mut self) {
        self.fit_x_over(std::iter::empty());
    }

    /// Fits the x range as [`RooflineChart::fit_x`] does, with `points`
    /// in it as well.
    pub fn fit_x_with(&mut self, points: &[PointMark]) {
        self.fit_x_over(points.iter().map(|p| p.intensity));
    }

    /// [`RooflineChart::fit_x`] with the intensities `extra` as well.
    fn fit_x_over(&mut self, extra: impl Iterator<Item = f64>) {
        let xs = self
            .lines
            .iter()
            .map(|l| l.critical)
            .chain(self.markers.iter().map(|m| m.intensity))
            .chain(extra)
            .filter(|x| x.is_finite() && *x > 0.0);
        if self.log {
            self.x_range = roofline_core::roofline::log_span(xs);
        } else {
            let hi = xs.fold(0.0f64, f64::max);
            self.x_range = (0.0, if hi > 0.0 { hi * 1.3 } else { 1.0 });
        }
    }
}

/// Where the plot sits on the drawing area, to map a pointer back to data.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlotFrame {
    /// Left and right pixel of the plotting area.
    pub x_px: (i32, i32),
    /// Top and bottom pixel of the plotting area.
    pub y_px: (i32, i32),
    /// Data range of the x axis.
    pub x_range: (f64, f64),
    /// Data range of the y axis.
    pub y_range: (f64, f64),
    /// Log axes (true) or linear ones.
    pub log: bool,
}

impl PlotFrame {
    /// The value at fraction `t` of `range`, on this frame's scale.
    fn between(&self, range: (f64, f64), t: f64) -> f64 {
        if self.log {
            let (a, b) = (range.0.log10(), range.1.log10());
            pow10(a + t * (b - a))
        } else {
            range.0 + t * (range.1 - range.0)
        }
    }

    /// The data x (intensity) under pixel column `px`, if inside the plot.
    pub fn x_at(&self, px: f64) -> Option<f64> {
        let (l, r) = (self.x_px.0 as f64, self.x_px.1 as f64);
        if px < l || px > r || r <= l {
            return None;
        }
        Some(self.between(self.x_range, (px - l) / (r - l)))
    }

    /// The data y under pixel row `py`, if inside the plot.
    pub fn y_at(&self, py: f64) -> Option<f64> {
        let (t, b) = (self.y_px.0 as f64, self.y_px.1 as f64);
        if py < t || py > b || b <= t {
            return None;
        }
        Some(self.between(self.y_range, (b - py) / (b - t)))
    }
}

/// Draws `chart` on `area`. `scale` multiplies font sizes and line widths
/// (pass the device pixel ratio when drawing at backing resolution).
pub fn draw_roofline<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &RooflineChart,
    theme: &Theme,
    scale: f64,
) -> Result<PlotFrame, String> {
    draw::<DB, false>(area, chart, &[], theme, scale)
}

/// Draws `chart` with measured kernels on it: [`draw_roofline`] plus a ring
/// per point, in the colour of what binds it, and the first points' names
/// where they fit. The axes take the points in.
pub fn draw_roofline_points<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &RooflineChart,
    points: &[PointMark],
    theme: &Theme,
    scale: f64,
) -> Result<PlotFrame, String> {
    draw::<DB, true>(area, chart, points, theme, scale)
}

/// The one drawing body. `POINTS` is false for the calculator's chart, so
/// that its copy (in the first load) has none of the points' code.
fn draw<DB: DrawingBackend, const POINTS: bool>(
    area: &DrawingArea<DB, Shift>,
    chart: &RooflineChart,
    points: &[PointMark],
    theme: &Theme,
    scale: f64,
) -> Result<PlotFrame, String> {
    let points = if POINTS { points } else { &[] };
    area.fill(&theme.background).map_err(err)?;
    let (xlo, xhi) = chart.x_range;
    let lowest = if chart.log { xlo > 0.0 } else { xlo >= 0.0 };
    if !(xlo.is_finite() && xhi.is_finite() && lowest && xhi > xlo && chart.peak > 0.0) {
        return Err("the chart has no valid range".to_string());
    }
    let (ylo, yhi) = if POINTS {
        chart.y_range_with(points)
    } else {
        chart.y_range()
    };
    let px = |v: f64| (v * scale).round() as i32;
    let text_style = |size: f64, c: RGBColor| text_style_scaled(size * scale, c);

    let (x_axis, y_axis, ticks) = if chart.log {
        check_log_range("throughputs", ylo, yhi)?;
        check_log_range("intensities", xlo, xhi)?;
        (Axis::log(xlo, xhi), Axis::log(ylo, yhi), 11)
    } else {
        (
            Axis::linear(xlo, xhi, TickText::Sig4),
            Axis::linear(ylo, yhi, TickText::SciOrZero),
            6,
        )
    };
    let frame = framed(area, x_axis, y_axis, scale);
    let ctx = &frame.plot;

    // Regions: bandwidth-bound under every memory line, under the slower
    // one only, compute-bound under every one; edges exactly at the bends
    // (`regions` words them for the legend). Opaque, pre-blended fills
    // drawn under the grid (alpha fills over the whole plot were the
    // slowest part of a redraw).
    for r in chart.regions() {
        let (a, b) = (r.from.unwrap_or(xlo).max(xlo), r.to.unwrap_or(xhi).min(xhi));
        if b > a {
            ctx.draw(&Rectangle::new(
                [(a, ylo), (b, yhi)],
                theme.region_fill(r.fill).filled(),
            ))
            .map_err(err)?;
        }
    }

    frame.draw(&FrameStyle {
        x_desc: "Arithmetic intensity (FLOPs/byte)",
        y_desc: "Attained throughput (FLOP/s)",
        ticks: (ticks, ticks),
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

    // Other roofs, dashed, each with a ring where the first line would
    // bend into it.
    for r in &chart.roofs {
        ctx.draw(&DashedPathElement::new(
            [(xlo, r.peak), (xhi, r.peak)],
            px(8.0),
            px(5.0),
            ShapeStyle::from(theme.roof).stroke_width(px(1.5) as u32),
        ))
        .map_err(err)?;
        if let Some(first) = chart.lines.first() {
            let bend = r.peak / first.bandwidth;
            if bend >= xlo && bend <= xhi {
                ctx.draw(&Circle::new(
                    (bend, r.peak),
                    px(4.0),
                    ShapeStyle::from(chart.line_color(0, theme)).stroke_width(px(1.5) as u32),
                ))
                .map_err(err)?;
            }
        }
    }

    // Bandwidth lines, each bending into the roof at its critical intensity.
    for (i, line) in chart.lines.iter().enumerate() {
        let color = chart.line_color(i, theme);
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

    let markers: Vec<&OpMarker> = chart
        .markers
        .iter()
        .filter(|m| m.intensity >= xlo && m.intensity <= xhi)
        .collect();
    // Each marker with the lines it is read against.
    let read = |m: &OpMarker| -> Vec<(usize, &BandwidthLine)> {
        m.on.iter()
            .filter_map(|&i| chart.lines.get(i).map(|l| (i, l)))
            .collect()
    };
    for &m in &markers {
        ctx.draw(&DashedPathElement::new(
            [(m.intensity, ylo), (m.intensity, yhi)],
            px(6.0),
            px(4.0),
            ShapeStyle::from(chart.marker_color(m, theme)).stroke_width(px(1.5) as u32),
        ))
        .map_err(err)?;
        for (i, line) in read(m) {
            let y = attained(chart.peak, line.bandwidth, m.intensity);
            ctx.draw(&Circle::new(
                (m.intensity, y),
                px(5.0),
                ShapeStyle::from(chart.line_color(i, theme)).filled(),
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

    // Measured kernels: rings, in the colour of what binds them.
    let point_color = |p: &PointMark| {
        if p.memory {
            chart.line_color(0, theme)
        } else {
            theme.roof
        }
    };
    let in_plot =
        |p: &&PointMark| p.intensity >= xlo && p.intensity <= xhi && p.rate >= ylo && p.rate <= yhi;

    // Labels, most important first, each where it overlaps nothing.
    // The legend names each line, then each roof when there are several
    // (the operation's solid, the others dashed), then each marker. On a
    // narrow plot (a phone) the roofs are left to their labels on the
    // chart, so the legend covers less of it.
    let plot = ctx.strip_coord_spec();
    let mut entries: Vec<LegendEntry> = chart
        .lines
        .iter()
        .enumerate()
        .map(|(i, line)| (line.label.clone(), chart.line_color(i, theme), false))
        .collect();
    if !chart.roofs.is_empty() && f64::from(plot.dim_in_pixel().0) >= 400.0 * scale {
        entries.push((chart.peak_label.clone(), theme.roof, false));
        for r in &chart.roofs {
            entries.push((r.label.clone(), theme.roof, true));
        }
    }
    for &m in &markers {
        entries.push((m.label.clone(), chart.marker_color(m, theme), true));
    }
    let at = |x: f64, y: f64| plot_point(ctx, (x, y));
    let d = px(6.0);
    // Measured kernels: a ring each, in the colour of what binds them; of
    // the kernels that land in one 3-pixel cell only the first (the most
    // important) is drawn, so ten thousand cost what the cells hold.
    let shown = if POINTS {
        points::distinct(
            points
                .iter()
                .filter(in_plot)
                .map(|p| (p, at(p.intensity, p.rate))),
            px(3.0).max(1),
        )
    } else {
        Vec::new()
    };
    for (p, xy) in &shown {
        let style = ShapeStyle::from(point_color(p)).stroke_width(px(2.0) as u32);
        if p.predicted {
            // A prediction (no measured time, at the roof): a square.
            let r = px(4.0);
            plot.draw(&Rectangle::new(
                [(xy.0 - r, xy.1 - r), (xy.0 + r, xy.1 + r)],
                style,
            ))
            .map_err(err)?;
        } else {
            plot.draw(&Circle::new(*xy, px(4.0), style)).map_err(err)?;
        }
    }
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
    dots.extend(shown.iter().map(|(_, xy)| square(*xy, px(5.0))));
    // The legend may hide part of the marker's vertical line, not the data.
    let legend = legend_layout(&plot, &entries, scale, &lines, &dots)?;
    for &m in &markers {
        lines.extend(polyline_obstacles(
            &[at(m.intensity, ylo), at(m.intensity, yhi)],
            px(2.0),
            px(6.0),
        ));
        for (_, line) in read(m) {
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
            &text_style(12.0, chart.line_color(i, theme)),
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
    // The other roofs' labels, on their lines at either end; where the
    // whole label does not fit (a phone), its short one (`fp8 peak`).
    for r in &chart.roofs {
        let (_, y) = at(xlo, r.peak);
        let spots = [
            ((right - d, y - d / 2), HPos::Right, VPos::Bottom),
            ((left + d, y - d / 2), HPos::Left, VPos::Bottom),
            ((right - d, y + d / 2), HPos::Right, VPos::Top),
            ((left + d, y + d / 2), HPos::Left, VPos::Top),
        ];
        let style = text_style(11.0, theme.text);
        for text in [&r.label, &r.short] {
            if labels.place_or_cross(text, &style, &spots)? {
                break;
            }
        }
    }
    for &m in &markers {
        // What the operation attains under each line, right of the marker
        // (left of it would read as a bend label); once when lines agree.
        let mut shown: Vec<String> = Vec::new();
        for (i, line) in read(m) {
            let value = attained(chart.peak, line.bandwidth, m.intensity);
            let text = format::flops_rate(value);
            if shown.contains(&text) {
                continue;
            }
            let (x, y) = at(m.intensity, value);
            labels.place(
                &text,
                &text_style(11.0, chart.line_color(i, theme)),
                &[
                    ((x + d, y + d), HPos::Left, VPos::Top),
                    ((x + d, y - d), HPos::Left, VPos::Bottom),
                ],
            )?;
            shown.push(text);
        }
    }
    // The first kernels' names, where they fit: beside the ring, clear of
    // it and of the gap kept around it.
    let r = px(9.0);
    for &(p, (x, y)) in shown.iter().take(12) {
        labels.place(
            &format::clip(&p.label, 24),
            &text_style(11.0, point_color(p)),
            &[
                ((x + r, y), HPos::Left, VPos::Center),
                ((x - r, y), HPos::Right, VPos::Center),
                ((x, y - r), HPos::Center, VPos::Bottom),
                ((x, y + r), HPos::Center, VPos::Top),
            ],
        )?;
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
        log: chart.log,
    })
}
