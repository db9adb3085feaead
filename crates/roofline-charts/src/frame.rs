//! The frame both charts draw in: the margins, the plotting area with its
//! coordinates, the grid, the two axes with their ticks and labels, and the
//! axis titles.
//!
//! It lays out and draws what plotters' `ChartBuilder` and `configure_mesh`
//! drew for these charts (a left and a bottom label area, grid lines at the
//! axes' key points, tick marks outside the plot), in the same order and at
//! the same pixels: the tests below compare the two byte for byte in SVG.
//! (The batch chart also had plotters' finer grid, drawn in the background
//! colour, so invisible: it is left out.) Plotters' general versions handle
//! label areas on every side, inward ticks, titles and secondary axes, and
//! were about 4 KB of the gzipped wasm; this is the one layout the charts
//! use.

use plotters::coord::cartesian::MeshLine;
use plotters::coord::ranged1d::{BoldPoints, ValueFormatter};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::axis::Axis;
use crate::error::err;

/// The plotting area, in data coordinates.
pub(crate) type Plot<DB> = DrawingArea<DB, Cartesian2d<Axis, Axis>>;

/// A chart's plotting area and the label areas left of and under it.
pub(crate) struct Framed<DB: DrawingBackend> {
    /// Where the data goes, mapped by the two axes.
    pub(crate) plot: Plot<DB>,
    /// Left of the plot: the y axis, its labels and title (`None` when
    /// the area has no room at all).
    left: Option<DrawingArea<DB, Shift>>,
    /// Under the plot: the x axis, its labels and title.
    bottom: Option<DrawingArea<DB, Shift>>,
}

/// How a frame's grid, axes and text look.
pub(crate) struct FrameStyle<'s> {
    /// The x axis's title.
    pub(crate) x_desc: &'s str,
    /// The y axis's title (drawn turned a quarter left).
    pub(crate) y_desc: &'s str,
    /// At most this many ticks on each axis (x, y).
    pub(crate) ticks: (usize, usize),
    /// Tick labels.
    pub(crate) label: TextStyle<'static>,
    /// Axis titles.
    pub(crate) desc: TextStyle<'static>,
    /// The two axis lines and the tick marks.
    pub(crate) axis: ShapeStyle,
    /// Grid lines, one at each tick.
    pub(crate) grid: ShapeStyle,
}

impl<'s> FrameStyle<'s> {
    /// The house style of the charts beside the roofline: tick labels at
    /// 12 px and titles at 13 px (times `scale`) in the theme's text
    /// colour, its axis and grid colours, at most `ticks` ticks an axis.
    pub(crate) fn themed(
        x_desc: &'s str,
        y_desc: &'s str,
        ticks: usize,
        theme: &crate::theme::Theme,
        scale: f64,
    ) -> FrameStyle<'s> {
        FrameStyle {
            x_desc,
            y_desc,
            ticks: (ticks, ticks),
            label: crate::style::text_style_scaled(12.0 * scale, theme.text),
            desc: crate::style::text_style_scaled(13.0 * scale, theme.text),
            axis: theme.axis.into(),
            grid: theme.grid.into(),
        }
    }
}

/// Lays out `area` for `x` and `y`: margins and label areas (scaled by
/// `scale`), and the plotting area between them, whose right and bottom
/// pixels the axes' ends map to.
pub(crate) fn framed<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    x: Axis,
    y: Axis,
    scale: f64,
) -> Framed<DB> {
    let px = |v: f64| (v * scale).round() as i32;
    let inner = area.margin(px(12.0), px(6.0), px(8.0), px(20.0));
    let (w, h) = inner.dim_in_pixel();
    let (w, h) = (w as i32, h as i32);
    // The y labels left of the plot, the x labels under it.
    let (label_w, label_h) = (px(64.0), px(44.0));
    let plot_h = h - label_h;
    let part = |x: i32, y: i32, pw: i32, ph: i32| inner.clone().shrink((x, y), (pw, ph));
    let room = |a: DrawingArea<DB, Shift>| {
        let (aw, ah) = a.dim_in_pixel();
        (aw > 0 && ah > 0).then_some(a)
    };
    let left = room(part(0, 0, label_w, plot_h));
    let bottom = room(part(label_w, plot_h, w - label_w, label_h));
    let plot = part(label_w, 0, w - label_w, plot_h);
    let (xr, yr) = plot.get_pixel_range();
    let plot = plot.apply_coord_spec(Cartesian2d::<Axis, Axis>::new(
        x,
        y,
        (xr.start..xr.end - 1, yr.end - 1..yr.start),
    ));
    Framed { plot, left, bottom }
}

impl<DB: DrawingBackend> Framed<DB> {
    /// Draws the axis titles, the grid, both axes and their tick labels.
    pub(crate) fn draw(&self, style: &FrameStyle) -> Result<(), String> {
        let (pw, ph) = self.plot.dim_in_pixel();
        // plotters' default tick: 5% of the plot's smaller side, at most 5 px.
        let tick = ((0.05 * f64::from(pw.min(ph))).round() as i32).min(5);
        let gap = tick * 2;
        if let Some(left) = &self.left {
            let (_, th) = left.dim_in_pixel();
            let title = style.desc.transform(FontTransform::Rotate270);
            left.draw_text(
                style.y_desc,
                &title.pos(Pos::new(HPos::Center, VPos::Top)),
                (0, (th / 2) as i32),
            )
            .map_err(err)?;
        }
        if let Some(bottom) = &self.bottom {
            let (tw, th) = bottom.dim_in_pixel();
            bottom
                .draw_text(
                    style.x_desc,
                    &style.desc.pos(Pos::new(HPos::Center, VPos::Bottom)),
                    ((tw / 2) as i32, th as i32),
                )
                .map_err(err)?;
        }

        let coord = self.plot.as_coord_spec();
        let (x_axis, y_axis) = (coord.x_spec(), coord.y_spec());
        let mut x_ticks = Vec::new();
        let mut y_ticks = Vec::new();
        self.plot
            .draw_mesh(
                |b, line| {
                    match line {
                        MeshLine::XMesh((x, _), _, v) => x_ticks.push((x, x_axis.format_ext(v))),
                        MeshLine::YMesh((_, y), _, v) => y_ticks.push((y, y_axis.format_ext(v))),
                    }
                    line.draw(b, &style.grid)
                },
                BoldPoints(style.ticks.1),
                BoldPoints(style.ticks.0),
            )
            .map_err(err)?;

        let (x0, y0) = self.plot.get_base_pixel();
        let span = |r: std::ops::Range<i32>, base: i32| (r.start - base, r.end - base);
        if let Some(left) = &self.left {
            let (tw, _) = left.dim_in_pixel();
            let edge = tw as i32 - 1;
            let (a, b) = span(self.plot.get_y_axis_pixel_range(), y0);
            left.draw(&PathElement::new(vec![(edge, a), (edge, b)], style.axis))
                .map_err(err)?;
            let label = style.label.pos(Pos::new(HPos::Right, VPos::Center));
            for (p, text) in &y_ticks {
                let at = p - y0;
                if at < a.min(b) || a.max(b) < at {
                    continue;
                }
                left.draw_text(text, &label, (tw as i32 - gap, at))
                    .map_err(err)?;
                if tick != 0 {
                    left.draw(&PathElement::new(
                        vec![(edge - tick, at), (edge, at)],
                        style.axis,
                    ))
                    .map_err(err)?;
                }
            }
        }
        if let Some(bottom) = &self.bottom {
            let (a, b) = span(self.plot.get_x_axis_pixel_range(), x0);
            bottom
                .draw(&PathElement::new(vec![(a, 0), (b, 0)], style.axis))
                .map_err(err)?;
            let label = style.label.pos(Pos::new(HPos::Center, VPos::Top));
            // A tick's label is left out where it would touch the one
            // before (many decades on a narrow chart); its tick stays.
            let mut free_from = i32::MIN;
            for (p, text) in &x_ticks {
                let at = p - x0;
                if at < a.min(b) || a.max(b) < at {
                    continue;
                }
                let half = bottom
                    .estimate_text_size(text, &label)
                    .map_or(0, |(w, _)| w as i32 / 2);
                if at - half >= free_from {
                    free_from = at + half + gap;
                    bottom.draw_text(text, &label, (at, gap)).map_err(err)?;
                }
                if tick != 0 {
                    bottom
                        .draw(&PathElement::new(vec![(at, 0), (at, tick)], style.axis))
                        .map_err(err)?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::axis::TickText;
    use crate::style::text_style_scaled;
    use proptest::prelude::*;

    /// The axes of a test chart: log-log (the roofline), or linear-linear
    /// (the batch chart's linear view) with `ticks` ticks.
    fn axes(log: bool) -> (Axis, Axis) {
        if log {
            (Axis::log(0.5, 3.0e5), Axis::log(1e11, 1e16))
        } else {
            (
                Axis::linear(0.0, 4096.0, TickText::Sig4),
                Axis::linear(0.0, 2.3e14, TickText::SciOrZero),
            )
        }
    }

    fn style(scale: f64, ticks: usize) -> FrameStyle<'static> {
        FrameStyle {
            x_desc: "Arithmetic intensity (FLOPs/byte)",
            y_desc: "Attained throughput (FLOP/s)",
            ticks: (ticks, ticks),
            label: text_style_scaled(12.0 * scale, RGBColor(20, 20, 20)),
            desc: text_style_scaled(13.0 * scale, RGBColor(20, 20, 20)),
            axis: ShapeStyle::from(RGBColor(90, 90, 90)).stroke_width(2),
            grid: RGBColor(220, 220, 220).into(),
        }
    }

    /// The frame as this module draws it.
    fn ours(size: (u32, u32), scale: f64, log: bool, ticks: usize) -> String {
        let mut out = String::new();
        {
            let root = SVGBackend::with_string(&mut out, size).into_drawing_area();
            let (x, y) = axes(log);
            framed(&root, x, y, scale)
                .draw(&style(scale, ticks))
                .unwrap();
        }
        out
    }

    /// The same frame drawn by plotters' `ChartBuilder` and mesh, as the
    /// charts drew it before (without light lines). A test: the rule
    /// against `ChartBuilder` (clippy.toml) is about the wasm.
    #[allow(clippy::disallowed_types)]
    fn plotters(size: (u32, u32), scale: f64, log: bool, ticks: usize) -> String {
        let mut out = String::new();
        {
            let root = SVGBackend::with_string(&mut out, size).into_drawing_area();
            let px = |v: f64| (v * scale).round() as i32;
            let (x, y) = axes(log);
            let s = style(scale, ticks);
            let mut ctx = ChartBuilder::on(&root)
                .margin_top(px(12.0))
                .margin_right(px(20.0))
                .margin_left(px(8.0))
                .margin_bottom(px(6.0))
                .x_label_area_size(px(44.0))
                .y_label_area_size(px(64.0))
                .build_cartesian_2d(x, y)
                .unwrap();
            ctx.configure_mesh()
                .x_desc(s.x_desc)
                .y_desc(s.y_desc)
                .x_labels(ticks)
                .y_labels(ticks)
                .label_style(s.label.clone())
                .axis_desc_style(s.desc.clone())
                .axis_style(s.axis)
                .bold_line_style(s.grid)
                .max_light_lines(0)
                .draw()
                .unwrap();
        }
        out
    }

    #[test]
    fn a_typical_chart_is_plotters_frame() {
        for log in [true, false] {
            let svg = ours((800, 500), 1.0, log, 6);
            assert_eq!(svg, plotters((800, 500), 1.0, log, 6));
            assert!(svg.contains("Attained throughput (FLOP/s)"));
        }
        assert!(ours((800, 500), 1.0, true, 11).contains("\n1e14\n"));
        assert!(ours((800, 500), 1.0, false, 6).contains("\n2000\n"));
    }

    /// Whether `ours` is plotters' frame `theirs`, but for x tick labels
    /// left out where they would touch the one before: every element of
    /// ours is in theirs, in order, and each one missing is an x tick
    /// label (centred, hanging below the axis) that overlaps the label
    /// before it.
    fn same_but_crowded_x_labels(ours: &str, theirs: &str) -> bool {
        let ours: Vec<&str> = ours.split("\n<").collect();
        let mut i = 0;
        for t in theirs.split("\n<") {
            if ours.get(i) == Some(&t) {
                i += 1;
            } else if !(t == "/text>"
                || t.starts_with("text") && t.contains("dy=\"0.76em\" text-anchor=\"middle\""))
            {
                return false;
            }
        }
        i == ours.len()
    }

    /// The smallest area with room for the margins and label areas at
    /// `scale` (below it plotters' grid of areas folds over itself).
    fn smallest(scale: f64) -> (u32, u32) {
        let px = |v: f64| (v * scale).round() as u32;
        (px(8.0) + px(20.0) + px(64.0), px(12.0) + px(6.0) + px(44.0))
    }

    proptest! {
        /// At any size and scale, down to a frame with a plot of a pixel,
        /// the frame draws what plotters drew, byte for byte.
        #[test]
        fn frame_is_plotters_frame(
            extra in (0u32..1300, 0u32..900),
            scale in 0.5f64..3.5,
            log in any::<bool>(),
            ticks in 1usize..14,
        ) {
            let (w, h) = smallest(scale);
            let size = (w + extra.0, h + extra.1);
            let (a, b) = (ours(size, scale, log, ticks), plotters(size, scale, log, ticks));
            prop_assert!(same_but_crowded_x_labels(&a, &b), "ours:\n{a}\nplotters:\n{b}");
        }
    }

    #[test]
    fn a_frame_without_room_draws_without_failing() {
        for size in [(1, 1), (40, 30), (91, 300), (300, 61)] {
            for log in [true, false] {
                assert!(ours(size, 1.0, log, 6).starts_with("<svg"));
            }
        }
    }
}
