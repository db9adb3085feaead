//! The roofline chart: attained FLOPs/s against arithmetic intensity, log-log.

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use roofline_core::format;
use roofline_core::num::pow10;
use roofline_core::roofline::attained;
use roofline_core::small::Join;

use crate::axis::Axis;
use crate::error::err;
use crate::frame::{framed, FrameStyle};
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

/// `c` laid over `bg` at opacity `alpha`, as an opaque colour.
fn blend(bg: RGBColor, c: RGBColor, alpha: f64) -> RGBColor {
    let mix = |b: u8, f: u8| (f64::from(b) * (1.0 - alpha) + f64::from(f) * alpha).round() as u8;
    RGBColor(mix(bg.0, c.0), mix(bg.1, c.1), mix(bg.2, c.2))
}

/// Where the data point `p` lands, in pixels of the plotting area (what
/// [`Labels`] and [`legend_layout`] work in).
pub(crate) fn plot_point<DB, X, Y>(
    area: &DrawingArea<DB, Cartesian2d<X, Y>>,
    p: (f64, f64),
) -> (i32, i32)
where
    DB: DrawingBackend,
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    let (ax, ay) = area.map_coordinate(&p);
    let (bx, by) = area.get_base_pixel();
    (ax - bx, ay - by)
}

/// One legend row: its label, colour, and whether the sample is dashed (a
/// marker line) or solid (a data line).
pub(crate) type LegendEntry = (String, RGBColor, bool);

/// Where the legend goes and how its rows are spaced, in the plotting
/// area's pixels.
pub(crate) struct LegendLayout {
    /// The box: left, top, right, bottom.
    pub rect: Rect,
    pad: i32,
    sample: i32,
    gap: i32,
    row: i32,
}

/// Lays out the legend both charts share: one line sample and label per
/// entry, in the first corner of the plotting area (lower right, upper
/// left, lower left, upper right) that covers none of `lines` (samples
/// along the data lines) and `dots` (bends, markers), else the corner that
/// covers least, a dot counting as much as a hundred line samples. `None`
/// with no entries.
///
/// Drawn by our code rather than with plotters' series labels: those measure
/// text with the platform font code, which in a browser lays out the whole
/// page for every label. `estimate_text_size` asks the backend instead.
pub(crate) fn legend_layout<DB: DrawingBackend>(
    plot: &DrawingArea<DB, Shift>,
    entries: &[LegendEntry],
    scale: f64,
    lines: &[Rect],
    dots: &[Rect],
) -> Result<Option<LegendLayout>, String> {
    if entries.is_empty() {
        return Ok(None);
    }
    let px = move |v: f64| (v * scale).round() as i32;
    let style = text_style_scaled(12.0 * scale, RGBColor(0, 0, 0));
    let mut text_w = 0i32;
    let mut text_h = 0i32;
    for (label, _, _) in entries {
        let (w, h) = plot.estimate_text_size(label, &style).map_err(err)?;
        text_w = text_w.max(w as i32);
        text_h = text_h.max(h as i32);
    }
    let (pad, sample, gap, margin) = (px(6.0), px(18.0), px(8.0), px(8.0));
    let row = text_h.max(px(14.0)) + px(6.0);
    let n = i32::try_from(entries.len()).unwrap_or(i32::MAX);
    let box_w = pad + sample + gap + text_w + pad;
    let box_h = pad + row.saturating_mul(n) + pad - px(6.0);
    let (w, h) = plot.dim_in_pixel();
    let right = (w as i32 - margin - box_w).max(0);
    let bottom = (h as i32 - margin - box_h).max(0);
    let corners = [
        (right, bottom),
        (margin, margin),
        (margin, bottom),
        (right, margin),
    ];
    let covered = |(x0, y0): (i32, i32)| {
        let r = (x0, y0, x0 + box_w, y0 + box_h);
        let hit = |set: &[Rect]| set.iter().filter(|o| overlaps(r, **o, 0)).count();
        hit(lines) + 100 * hit(dots)
    };
    let mut best = corners[0];
    let mut fewest = usize::MAX;
    for c in corners {
        let n = covered(c);
        if n < fewest {
            best = c;
            fewest = n;
        }
        if n == 0 {
            break;
        }
    }
    let (x0, y0) = best;
    Ok(Some(LegendLayout {
        rect: (x0, y0, x0 + box_w, y0 + box_h),
        pad,
        sample,
        gap,
        row,
    }))
}

/// Draws the legend laid out by [`legend_layout`] on a translucent
/// background.
pub(crate) fn draw_legend<DB: DrawingBackend>(
    plot: &DrawingArea<DB, Shift>,
    layout: &LegendLayout,
    entries: &[LegendEntry],
    theme: &Theme,
    scale: f64,
) -> Result<(), String> {
    let px = move |v: f64| (v * scale).round() as i32;
    let (x0, y0, x1, y1) = layout.rect;
    plot.draw(&Rectangle::new(
        [(x0, y0), (x1, y1)],
        theme.background.mix(0.9).filled(),
    ))
    .map_err(err)?;
    plot.draw(&Rectangle::new(
        [(x0, y0), (x1, y1)],
        ShapeStyle::from(theme.grid),
    ))
    .map_err(err)?;
    let anchored =
        text_style_scaled(12.0 * scale, theme.text).pos(Pos::new(HPos::Left, VPos::Center));
    let LegendLayout {
        pad,
        sample,
        gap,
        row,
        ..
    } = *layout;
    for (i, (label, color, dashed)) in entries.iter().enumerate() {
        let k = i32::try_from(i).unwrap_or(i32::MAX);
        let y = y0 + pad + row.saturating_mul(k) + (row - px(6.0)) / 2;
        if *dashed {
            let dash = sample / 4;
            for j in [0, 2] {
                let a = x0 + pad + j * dash + dash / 2;
                plot.draw(&PathElement::new(
                    vec![(a, y), (a + dash + dash / 2, y)],
                    ShapeStyle::from(*color).stroke_width(px(1.5).max(1) as u32),
                ))
                .map_err(err)?;
            }
        } else {
            plot.draw(&PathElement::new(
                vec![(x0 + pad, y), (x0 + pad + sample, y)],
                ShapeStyle::from(*color).stroke_width(px(2.5).max(1) as u32),
            ))
            .map_err(err)?;
        }
        plot.draw(&Text::new(
            label.as_str(),
            (x0 + pad + sample + gap, y),
            anchored.clone(),
        ))
        .map_err(err)?;
    }
    Ok(())
}

/// A rectangle in pixels: left, top, right, bottom.
pub(crate) type Rect = (i32, i32, i32, i32);

/// Whether `a` and `b` come closer than `gap` pixels.
fn overlaps(a: Rect, b: Rect, gap: i32) -> bool {
    !(a.2 + gap <= b.0 || b.2 + gap <= a.0 || a.3 + gap <= b.1 || b.3 + gap <= a.1)
}

/// The square of half-side `half` centred on `(x, y)`.
fn square((x, y): (i32, i32), half: i32) -> Rect {
    (x - half, y - half, x + half, y + half)
}

/// Small squares (half-side `half`) along the polyline `points`, about
/// every `step` pixels: what labels and the legend must not cover.
pub(crate) fn polyline_obstacles(points: &[(i32, i32)], half: i32, step: i32) -> Vec<Rect> {
    let mut out = Vec::new();
    if let Some(&p) = points.first() {
        out.push(square(p, half));
    }
    for pair in points.windows(2) {
        let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
        let (dx, dy) = (f64::from(x1 - x0), f64::from(y1 - y0));
        let n = ((dx.hypot(dy) / f64::from(step.max(1))).ceil() as i32).clamp(1, 10_000);
        for k in 1..=n {
            let t = f64::from(k) / f64::from(n);
            out.push(square(
                (x0 + (dx * t).round() as i32, y0 + (dy * t).round() as i32),
                half,
            ));
        }
    }
    out
}

/// Places text labels on the plotting area without overlapping each other,
/// the legend, the dots or the area's edges, and where possible without
/// crossing a drawn line: each label tries its candidate anchors in order
/// and is left out when none fits (its value is in the results and the
/// hover readout). On a narrow phone chart this keeps the labels that fit
/// readable instead of printing them over each other.
pub(crate) struct Labels<'p, DB: DrawingBackend> {
    plot: &'p DrawingArea<DB, Shift>,
    /// Never covered: placed labels, the legend, dots.
    taken: Vec<Rect>,
    /// Covered only by a label that may cross lines: samples along lines.
    lines: Vec<Rect>,
    gap: i32,
}

impl<'p, DB: DrawingBackend> Labels<'p, DB> {
    /// A placer on `plot` with `taken` areas never to cover and `lines`
    /// (samples along drawn lines) to avoid where possible.
    pub(crate) fn new(
        plot: &'p DrawingArea<DB, Shift>,
        taken: &[Rect],
        lines: &[Rect],
        scale: f64,
    ) -> Self {
        Labels {
            plot,
            taken: taken.to_vec(),
            lines: lines.to_vec(),
            gap: (2.0 * scale).round() as i32,
        }
    }

    /// Draws `text` at the first of `candidates` (anchor point in plotting
    /// area pixels, horizontal and vertical anchor) where it covers nothing,
    /// lines included. Returns whether it was drawn.
    pub(crate) fn place(
        &mut self,
        text: &str,
        style: &TextStyle,
        candidates: &[((i32, i32), HPos, VPos)],
    ) -> Result<bool, String> {
        self.place_avoiding(text, style, candidates, true)
    }

    /// Like [`Labels::place`], but when no candidate is clear of the lines,
    /// takes the first that covers no label, legend or dot (for the labels
    /// the chart is about, which should rather cross a line than go).
    pub(crate) fn place_or_cross(
        &mut self,
        text: &str,
        style: &TextStyle,
        candidates: &[((i32, i32), HPos, VPos)],
    ) -> Result<bool, String> {
        Ok(self.place_avoiding(text, style, candidates, true)?
            || self.place_avoiding(text, style, candidates, false)?)
    }

    fn place_avoiding(
        &mut self,
        text: &str,
        style: &TextStyle,
        candidates: &[((i32, i32), HPos, VPos)],
        avoid_lines: bool,
    ) -> Result<bool, String> {
        let (w, h) = self.plot.estimate_text_size(text, style).map_err(err)?;
        let (w, h) = (w as i32, h as i32);
        let (aw, ah) = self.plot.dim_in_pixel();
        let (aw, ah) = (aw as i32, ah as i32);
        for &((x, y), hp, vp) in candidates {
            let left = match hp {
                HPos::Left => x,
                HPos::Center => x - w / 2,
                HPos::Right => x - w,
            };
            let top = match vp {
                VPos::Top => y,
                VPos::Center => y - h / 2,
                VPos::Bottom => y - h,
            };
            let r = (left, top, left + w, top + h);
            let inside = r.0 >= 0 && r.1 >= 0 && r.2 <= aw && r.3 <= ah;
            let g = self.gap;
            let free = self.taken.iter().all(|t| !overlaps(r, *t, g))
                && (!avoid_lines || self.lines.iter().all(|t| !overlaps(r, *t, 0)));
            if inside && free {
                self.plot
                    .draw(&Text::new(text, (x, y), style.pos(Pos::new(hp, vp))))
                    .map_err(err)?;
                self.taken.push(r);
                return Ok(true);
            }
        }
        Ok(false)
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

impl RooflineChart {
    /// The hover readout at `intensity`: the attained throughput under each
    /// bandwidth line and which ceiling binds there.
    pub fn readout(&self, intensity: f64) -> String {
        if !(intensity.is_finite() && intensity > 0.0) {
            return String::new();
        }
        let mut parts = vec![format!("Intensity {}", format::intensity(intensity))];
        for line in &self.lines {
            let y = attained(self.peak, line.bandwidth, intensity);
            let which = if intensity < line.critical {
                format!("{} bandwidth binds", line_name(&line.label))
            } else {
                "peak compute binds".to_string()
            };
            parts.push(format!(
                "{}: {} ({which})",
                line_name(&line.label),
                format::flops_rate(y)
            ));
        }
        parts.joined(" · ")
    }
}

fn line_name(label: &str) -> &str {
    label.split(' ').next().unwrap_or(label)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use proptest::prelude::*;

    /// An anchor point with its horizontal and vertical anchor as 0, 1, 2.
    fn anchor() -> impl Strategy<Value = ((i32, i32), u8, u8)> {
        ((-50i32..350, -50i32..250), 0u8..3, 0u8..3)
    }

    fn spots(raw: &[((i32, i32), u8, u8)]) -> Vec<((i32, i32), HPos, VPos)> {
        raw.iter()
            .map(|&(p, h, v)| {
                let h = [HPos::Left, HPos::Center, HPos::Right][usize::from(h)];
                let v = [VPos::Top, VPos::Center, VPos::Bottom][usize::from(v)];
                (p, h, v)
            })
            .collect()
    }

    fn rect() -> impl Strategy<Value = Rect> {
        (0i32..300, 0i32..200, 1i32..60, 1i32..40).prop_map(|(x, y, w, h)| (x, y, x + w, y + h))
    }

    proptest! {
        /// Whatever is asked, the labels drawn stay inside the plot, never
        /// overlap each other or a reserved area, and a label not allowed to
        /// cross lines crosses none.
        #[test]
        fn placed_labels_are_disjoint_and_inside(
            taken in proptest::collection::vec(rect(), 0..4),
            lines in proptest::collection::vec(rect(), 0..6),
            asks in proptest::collection::vec(
                ("[a-z0-9 ]{1,16}", proptest::collection::vec(anchor(), 1..6), any::<bool>()),
                1..10,
            ),
        ) {
            let mut out = String::new();
            let root = SVGBackend::with_string(&mut out, (300, 200)).into_drawing_area();
            let mut labels = Labels::new(&root, &taken, &lines, 1.0);
            let style = text_style_scaled(12.0, RGBColor(0, 0, 0));
            let mut placed: Vec<(Rect, bool)> = Vec::new();
            for (text, raw, may_cross) in &asks {
                let spots = spots(raw);
                let drawn = if *may_cross {
                    labels.place_or_cross(text, &style, &spots).unwrap()
                } else {
                    labels.place(text, &style, &spots).unwrap()
                };
                if drawn {
                    placed.push((*labels.taken.last().unwrap(), *may_cross));
                }
            }
            for (i, (r, may_cross)) in placed.iter().enumerate() {
                prop_assert!(r.0 >= 0 && r.1 >= 0 && r.2 <= 300 && r.3 <= 200, "{r:?} leaves the plot");
                for t in &taken {
                    prop_assert!(!overlaps(*r, *t, 2), "{r:?} covers reserved {t:?}");
                }
                if !may_cross {
                    for l in &lines {
                        prop_assert!(!overlaps(*r, *l, 0), "{r:?} crosses line sample {l:?}");
                    }
                }
                for (other, _) in &placed[i + 1..] {
                    prop_assert!(!overlaps(*r, *other, 2), "{r:?} overlaps {other:?}");
                }
            }
        }
    }

    /// Labels asking for the same spot take the next free candidate, or are
    /// left out; the boxes drawn never overlap each other or the reserved
    /// area, and stay inside the plot.
    #[test]
    fn labels_never_overlap() {
        let mut out = String::new();
        {
            let root = SVGBackend::with_string(&mut out, (300, 200)).into_drawing_area();
            let reserved = [(200, 150, 300, 200)];
            let mut labels = Labels::new(&root, &reserved, &[], 1.0);
            let style = text_style_scaled(12.0, RGBColor(0, 0, 0));
            let spots = [
                ((10, 10), HPos::Left, VPos::Top),
                ((10, 40), HPos::Left, VPos::Top),
            ];
            assert!(labels.place("first label", &style, &spots).unwrap());
            assert!(labels.place("second label", &style, &spots).unwrap());
            assert!(
                !labels.place("third label", &style, &spots).unwrap(),
                "no room left"
            );
            assert!(
                !labels
                    .place(
                        "in the legend",
                        &style,
                        &[((210, 160), HPos::Left, VPos::Top)]
                    )
                    .unwrap(),
                "the reserved area stays free"
            );
            assert!(
                !labels
                    .place(
                        "off the edge",
                        &style,
                        &[((295, 10), HPos::Left, VPos::Top)]
                    )
                    .unwrap(),
                "a label that would leave the plot is not drawn"
            );
            let boxes = &labels.taken[1..];
            assert_eq!(boxes.len(), 2);
            let (a, b) = (boxes[0], boxes[1]);
            assert!(
                a.3 <= b.1 || b.3 <= a.1 || a.2 <= b.0 || b.2 <= a.0,
                "{a:?} {b:?}"
            );
        }
        assert!(out.contains("first label") && out.contains("second label"));

        // A line through the first spot: a plain label goes to the second
        // spot, or nowhere; a label that may cross lines takes the first.
        let mut out = String::new();
        {
            let root = SVGBackend::with_string(&mut out, (300, 200)).into_drawing_area();
            let line = polyline_obstacles(&[(0, 15), (300, 15)], 2, 6);
            let style = text_style_scaled(12.0, RGBColor(0, 0, 0));
            let first = [((10, 10), HPos::Left, VPos::Top)];
            let both = [
                ((10, 10), HPos::Left, VPos::Top),
                ((10, 60), HPos::Left, VPos::Top),
            ];
            let mut labels = Labels::new(&root, &[], &line, 1.0);
            assert!(!labels.place("blocked", &style, &first).unwrap());
            assert!(labels.place("moved", &style, &both).unwrap());
            assert_eq!(labels.taken.last().map(|r| r.1), Some(60));
            assert!(labels.place_or_cross("crossing", &style, &first).unwrap());
            assert_eq!(labels.taken.last().map(|r| r.1), Some(10));
        }
        assert!(!out.contains("blocked") && out.contains("moved") && out.contains("crossing"));
        assert!(!out.contains("third label") && !out.contains("off the edge"));
    }
}
