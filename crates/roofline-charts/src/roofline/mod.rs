//! The roofline chart: attained FLOPs/s against arithmetic intensity, on
//! log-log axes (the chapter's figure) or linear ones.
//!
//! Here are the chart's types and [`draw_roofline`], whose steps are in
//! `lines` (regions, roofs, bandwidth lines with their bends, the
//! operations' markers), `texts` (the legend's entries and the labels) and
//! `kernels` (measured kernels' rings and names, for
//! [`draw_roofline_points`] only); the hover readout is in `hover`, the
//! regions' legend in `regions`.

mod hover;
mod kernels;
mod lines;
mod points;
mod regions;
mod texts;

pub use points::{nearest, PointMark};

pub use regions::Region;

use plotters::coord::Shift;
use plotters::prelude::*;

use roofline_core::format;
use roofline_core::num::pow10;
use roofline_core::roofline::attained;

use crate::axis::{check_log_range, Axis, TickText};
use crate::error::err;
use crate::frame::{framed, FrameStyle};
use crate::labels::plot_point;
use crate::legend::draw_legend;
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

    /// The colour of `marker`: the operation's own, whatever line it is
    /// read against (in a line's colour it read as that line's bend, a
    /// few pixels from the bend's own dotted drop).
    pub fn marker_color(&self, _marker: &OpMarker, theme: &Theme) -> RGBColor {
        theme.marker
    }

    /// The lines `marker` is read against, with their indices.
    fn read_against(&self, marker: &OpMarker) -> Vec<(usize, &BandwidthLine)> {
        marker
            .on
            .iter()
            .filter_map(|&i| self.lines.get(i).map(|l| (i, l)))
            .collect()
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

/// What every step of a drawing reads: the chart, its theme, the scale
/// fonts and lines are drawn at, and the plot's data ranges.
struct Pen<'c> {
    /// The chart drawn.
    chart: &'c RooflineChart,
    /// Its colours.
    theme: &'c Theme,
    /// Multiplies font sizes and line widths.
    scale: f64,
    /// The x axis's data range.
    x: (f64, f64),
    /// The y axis's data range.
    y: (f64, f64),
}

impl Pen<'_> {
    /// `v` CSS pixels at this scale, in whole device pixels.
    fn px(&self, v: f64) -> i32 {
        (v * self.scale).round() as i32
    }

    /// Text of `size` CSS pixels in `c`, at this scale.
    fn text(&self, size: f64, c: RGBColor) -> TextStyle<'static> {
        text_style_scaled(size * self.scale, c)
    }
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
    let pen = Pen {
        chart,
        theme,
        scale,
        x: (xlo, xhi),
        y: (ylo, yhi),
    };

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

    lines::regions(ctx, &pen)?;
    frame.draw(&FrameStyle {
        x_desc: "Arithmetic intensity (FLOPs/byte)",
        y_desc: "Attained throughput (FLOP/s)",
        ticks: (ticks, ticks),
        label: pen.text(12.0, theme.text),
        desc: pen.text(13.0, theme.text),
        axis: ShapeStyle::from(theme.axis).stroke_width(pen.px(1.0).max(1) as u32),
        grid: theme.grid.into(),
    })?;
    lines::roofs(ctx, &pen)?;
    lines::bandwidth(ctx, &pen)?;
    let markers: Vec<&OpMarker> = chart
        .markers
        .iter()
        .filter(|m| m.intensity >= xlo && m.intensity <= xhi)
        .collect();
    lines::markers(ctx, &pen, &markers)?;

    // Labels, most important first, each where it overlaps nothing.
    let plot = ctx.strip_coord_spec();
    let entries = texts::legend_entries(&plot, &pen, &markers);
    // Measured kernels: a ring each, in the colour of what binds them; of
    // the kernels that land in one 3-pixel cell only the first (the most
    // important) is drawn, so ten thousand cost what the cells hold.
    let shown = if POINTS {
        let in_plot = |p: &&PointMark| {
            p.intensity >= xlo && p.intensity <= xhi && p.rate >= ylo && p.rate <= yhi
        };
        points::distinct(
            points
                .iter()
                .filter(in_plot)
                .map(|p| (p, plot_point(ctx, (p.intensity, p.rate)))),
            pen.px(3.0).max(1),
        )
    } else {
        Vec::new()
    };
    if POINTS {
        kernels::rings(&plot, &pen, &shown)?;
    }
    let (mut labels, legend) = texts::placer(ctx, &plot, &pen, &markers, &entries, &shown)?;
    texts::labels(ctx, &mut labels, &pen, &markers)?;
    if POINTS {
        kernels::names(&mut labels, &pen, &shown)?;
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
