//! The roofline chart: attained FLOPs/s against arithmetic intensity, log-log.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use roofline_core::format;
use roofline_core::roofline::attained;

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
        let lo = 10f64.powf(lo.log10().floor());
        let hi = 10f64.powf((self.peak.log10() + 0.35).ceil());
        (lo, hi)
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
        Some(10f64.powf(a + t * (b - a)))
    }

    /// The data y under pixel row `py`, if inside the plot.
    pub fn y_at(&self, py: f64) -> Option<f64> {
        let (t, b) = (self.y_px.0 as f64, self.y_px.1 as f64);
        if py < t || py > b || b <= t {
            return None;
        }
        let s = (b - py) / (b - t);
        let (lo, hi) = (self.y_range.0.log10(), self.y_range.1.log10());
        Some(10f64.powf(lo + s * (hi - lo)))
    }
}

/// Powers of ten between `lo` and `hi` for tick marks: at most about a
/// dozen (every k-th decade on very wide ranges), none for a bad range.
pub(crate) fn decades(lo: f64, hi: f64) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite() && lo > 0.0 && hi > lo) {
        return Vec::new();
    }
    let (a, b) = (lo.log10().ceil() as i32, hi.log10().floor() as i32);
    let step = ((b - a) / 12 + 1).max(1) as usize;
    (a..=b).step_by(step).map(|e| 10f64.powi(e)).collect()
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

/// Sans-serif text of `size` backend pixels in `color`.
pub(crate) fn text_style_scaled(size: f64, color: RGBColor) -> TextStyle<'static> {
    TextStyle {
        color: color.to_backend_color(),
        ..TextStyle::from(("sans-serif", size).into_font())
    }
}

pub(crate) fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

/// The legend both charts share: one line sample and label per entry, in the
/// lower right of the plotting area on a translucent background.
///
/// Drawn here rather than with plotters' series labels: those measure text
/// with the platform font code, which in a browser lays out the whole page
/// for every label. `estimate_text_size` asks the backend instead.
pub(crate) fn draw_legend<DB: DrawingBackend>(
    plot: &DrawingArea<DB, Shift>,
    entries: &[(String, RGBColor)],
    theme: &Theme,
    scale: f64,
) -> Result<(), String> {
    if entries.is_empty() {
        return Ok(());
    }
    let px = move |v: f64| (v * scale).round() as i32;
    let style = text_style_scaled(12.0 * scale, theme.text);
    let mut text_w = 0i32;
    let mut text_h = 0i32;
    for (label, _) in entries {
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
    let (w, h) = (w as i32, h as i32);
    let x0 = (w - margin - box_w).max(0);
    let y0 = (h - margin - box_h).max(0);
    plot.draw(&Rectangle::new(
        [(x0, y0), (x0 + box_w, y0 + box_h)],
        theme.background.mix(0.9).filled(),
    ))
    .map_err(err)?;
    plot.draw(&Rectangle::new(
        [(x0, y0), (x0 + box_w, y0 + box_h)],
        ShapeStyle::from(theme.grid),
    ))
    .map_err(err)?;
    let anchored = style.pos(Pos::new(HPos::Left, VPos::Center));
    for (i, (label, color)) in entries.iter().enumerate() {
        let k = i32::try_from(i).unwrap_or(i32::MAX);
        let y = y0 + pad + row.saturating_mul(k) + (row - px(6.0)) / 2;
        plot.draw(&PathElement::new(
            vec![(x0 + pad, y), (x0 + pad + sample, y)],
            ShapeStyle::from(*color).stroke_width(px(2.5).max(1) as u32),
        ))
        .map_err(err)?;
        plot.draw(&Text::new(
            label.as_str(),
            (x0 + pad + sample + gap, y),
            anchored.clone(),
        ))
        .map_err(err)?;
    }
    Ok(())
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
    let font = |size: f64| ("sans-serif", size * scale).into_font();
    let text_style = |size: f64, c: RGBColor| TextStyle {
        color: c.to_backend_color(),
        ..TextStyle::from(font(size))
    };

    let x_ticks = decades(xlo, xhi);
    let y_ticks = decades(ylo, yhi);
    let mut ctx = ChartBuilder::on(area)
        .margin_top(px(12.0))
        .margin_right(px(20.0))
        .margin_left(px(8.0))
        .margin_bottom(px(6.0))
        .x_label_area_size(px(44.0))
        .y_label_area_size(px(64.0))
        .build_cartesian_2d(
            (xlo..xhi).log_scale().with_key_points(x_ticks),
            (ylo..yhi).log_scale().with_key_points(y_ticks),
        )
        .map_err(err)?;

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
                ctx.draw_series(std::iter::once(Rectangle::new(
                    [(a, ylo), (b, yhi)],
                    blend(theme.background, c, theme.region_alpha).filled(),
                )))
                .map_err(err)?;
            }
        }
    }

    let tick_fmt = |v: &f64| format::log_tick(*v);
    ctx.configure_mesh()
        .x_desc("Arithmetic intensity (FLOPs/byte)")
        .y_desc("Attained throughput (FLOP/s)")
        .x_label_formatter(&tick_fmt)
        .y_label_formatter(&tick_fmt)
        .label_style(text_style(12.0, theme.text))
        .axis_desc_style(text_style(13.0, theme.text))
        .axis_style(ShapeStyle::from(theme.axis).stroke_width(px(1.0).max(1) as u32))
        .bold_line_style(theme.grid)
        .max_light_lines(0)
        .draw()
        .map_err(err)?;

    // The roof.
    ctx.draw_series(LineSeries::new(
        [(xlo, chart.peak), (xhi, chart.peak)],
        ShapeStyle::from(theme.roof).stroke_width(px(1.0).max(1) as u32),
    ))
    .map_err(err)?;
    ctx.plotting_area()
        .draw(&Text::new(
            chart.peak_label.clone(),
            (xlo * 1.15, chart.peak * 1.25),
            text_style(12.0, theme.text).pos(Pos::new(HPos::Left, VPos::Bottom)),
        ))
        .map_err(err)?;

    // Bandwidth lines, each bending into the roof at its critical intensity.
    for (i, line) in chart.lines.iter().enumerate() {
        let color = theme.lines[i % 2];
        let bend = line.critical.clamp(xlo, xhi);
        let pts = [
            (xlo, attained(chart.peak, line.bandwidth, xlo)),
            (bend, attained(chart.peak, line.bandwidth, bend)),
            (xhi, attained(chart.peak, line.bandwidth, xhi)),
        ];
        ctx.draw_series(LineSeries::new(
            pts,
            ShapeStyle::from(color).stroke_width(px(2.5) as u32),
        ))
        .map_err(err)?;
        if line.critical >= xlo && line.critical <= xhi {
            // Dotted drop from the bend to the axis.
            ctx.draw_series(DashedLineSeries::new(
                [(line.critical, ylo), (line.critical, chart.peak)],
                px(2.0),
                px(4.0),
                ShapeStyle::from(color).stroke_width(px(1.5) as u32),
            ))
            .map_err(err)?;
            ctx.draw_series(std::iter::once(Circle::new(
                (line.critical, chart.peak),
                px(5.0),
                color.filled(),
            )))
            .map_err(err)?;
            let above = i % 2 == 0;
            let y = if above {
                chart.peak * 1.8
            } else {
                chart.peak / 1.8
            };
            let v = if above { VPos::Bottom } else { VPos::Top };
            ctx.plotting_area()
                .draw(&Text::new(
                    line.critical_text.clone(),
                    (line.critical * 1.1, y),
                    text_style(12.0, color).pos(Pos::new(HPos::Left, v)),
                ))
                .map_err(err)?;
        }
    }

    if let Some(m) = &chart.marker {
        if m.intensity >= xlo && m.intensity <= xhi {
            ctx.draw_series(DashedLineSeries::new(
                [(m.intensity, ylo), (m.intensity, yhi)],
                px(6.0),
                px(4.0),
                ShapeStyle::from(theme.marker).stroke_width(px(1.5) as u32),
            ))
            .map_err(err)?;
            for (i, line) in chart.lines.iter().enumerate() {
                let y = attained(chart.peak, line.bandwidth, m.intensity);
                ctx.draw_series(std::iter::once(Circle::new(
                    (m.intensity, y),
                    px(5.0),
                    ShapeStyle::from(theme.lines[i % 2]).filled(),
                )))
                .map_err(err)?;
                ctx.draw_series(std::iter::once(Circle::new(
                    (m.intensity, y),
                    px(5.0),
                    ShapeStyle::from(theme.background).stroke_width(px(1.0).max(1) as u32),
                )))
                .map_err(err)?;
                ctx.plotting_area()
                    .draw(&Text::new(
                        format::flops_rate(y),
                        (m.intensity * 1.12, y / 1.15),
                        text_style(11.0, theme.lines[i % 2]).pos(Pos::new(HPos::Left, VPos::Top)),
                    ))
                    .map_err(err)?;
            }
            // Label near the top, on whichever side of the line has room.
            let t = (m.intensity.log10() - xlo.log10()) / (xhi.log10() - xlo.log10());
            let (x, h) = if t < 0.6 {
                (m.intensity * 1.08, HPos::Left)
            } else {
                (m.intensity / 1.08, HPos::Right)
            };
            ctx.plotting_area()
                .draw(&Text::new(
                    m.label.clone(),
                    (x, yhi / 1.15),
                    text_style(12.0, theme.marker).pos(Pos::new(h, VPos::Top)),
                ))
                .map_err(err)?;
        }
    }

    let entries: Vec<(String, RGBColor)> = chart
        .lines
        .iter()
        .enumerate()
        .map(|(i, line)| (line.label.clone(), theme.lines[i % 2]))
        .collect();
    draw_legend(
        &ctx.plotting_area().strip_coord_spec(),
        &entries,
        theme,
        scale,
    )?;

    let (xr, yr) = ctx.plotting_area().get_pixel_range();
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
        parts.join(" · ")
    }
}

fn line_name(label: &str) -> &str {
    label.split(' ').next().unwrap_or(label)
}
