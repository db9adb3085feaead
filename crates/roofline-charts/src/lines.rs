//! A generic log-log line chart: several named lines (solid or dashed),
//! vertical markers with a label, an optional shaded span of x with its
//! label, and small ticks along the x axis (one of them emphasised). The
//! Scale page's three charts ([`crate::scale`]) are specs of it.
//!
//! Drawn with the crate's own pieces, as the latency and batch charts are:
//! [`framed`] for the frame, [`Axis`] for the log axes,
//! [`legend_layout`] for the legend and [`Labels`] so that no label covers
//! another, the legend or a dot.

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use roofline_core::num::pow10;

use crate::axis::{check_log_range, Axis};
use crate::error::err;
use crate::frame::{framed, FrameStyle, Plot};
use crate::labels::{plot_point, polyline_obstacles, square, Labels, Rect};
use crate::legend::{draw_legend, legend_layout, LegendEntry};
use crate::style::text_style_scaled;
use crate::{PlotFrame, Theme};

/// One line of the chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// Its legend label.
    pub label: String,
    /// (x, y) points in x order, both positive and finite.
    pub points: Vec<(f64, f64)>,
    /// Drawn dashed (a bound or reference line) rather than solid.
    pub dashed: bool,
}

/// A vertical marker across the plot, with its label near the top.
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    /// Where it stands on the x axis.
    pub x: f64,
    /// A dot on it at this y (where two lines cross), if any.
    pub y: Option<f64>,
    /// Its label, already formatted.
    pub label: String,
}

/// A span of x shaded from the bottom of the plot to the top.
#[derive(Debug, Clone, PartialEq)]
pub struct Shade {
    /// Its left end.
    pub from: f64,
    /// Its right end.
    pub to: f64,
    /// Its label (`comms-bound`), written inside it where it fits.
    pub label: String,
}

/// A small tick along the x axis, inside the plot.
#[derive(Debug, Clone, PartialEq)]
pub struct Tick {
    /// Where it stands.
    pub x: f64,
    /// What it is; written beside it only when it is emphasised.
    pub label: String,
    /// Drawn longer, thicker and in the marker's colour, with its label.
    pub emphasised: bool,
}

/// Everything a lines chart shows; all text already formatted.
#[derive(Debug, Clone, PartialEq)]
pub struct LinesChart {
    /// The x axis's title, with its unit.
    pub x_desc: String,
    /// The y axis's title, with its unit.
    pub y_desc: String,
    /// The lines, in legend order (colours in that order).
    pub series: Vec<Line>,
    /// Vertical markers.
    pub marks: Vec<Mark>,
    /// A shaded span, drawn under everything else.
    pub shade: Option<Shade>,
    /// Ticks along the x axis (those outside the lines' span are not drawn).
    pub ticks: Vec<Tick>,
}

fn positive(v: f64) -> bool {
    v.is_finite() && v > 0.0
}

impl LinesChart {
    /// Checks the chart can be drawn on log axes: at least one line, each
    /// of at least two points, every value of a line, marker, shade and
    /// tick positive and finite. The error names what is wrong.
    pub fn check(&self) -> Result<(), String> {
        if self.series.is_empty() {
            return Err("The chart has no line to draw.".to_string());
        }
        for l in &self.series {
            if l.points.len() < 2 {
                return Err(format!(
                    "The line '{}' has too few points to draw.",
                    l.label
                ));
            }
            if !l.points.iter().all(|p| positive(p.0) && positive(p.1)) {
                return Err(format!(
                    "The line '{}' has a value that is zero, negative or not finite, which a log scale cannot draw.",
                    l.label
                ));
            }
        }
        for m in &self.marks {
            if !positive(m.x) || m.y.is_some_and(|y| !positive(y)) {
                return Err(format!("The marker '{}' is out of range.", m.label));
            }
        }
        if let Some(s) = &self.shade {
            if !(positive(s.from) && positive(s.to) && s.to >= s.from) {
                return Err(format!("The shaded span '{}' is out of range.", s.label));
            }
        }
        if let Some(t) = self.ticks.iter().find(|t| !positive(t.x)) {
            return Err(format!("The tick '{}' is out of range.", t.label));
        }
        Ok(())
    }

    /// The decades around every line's points: (x range, y range).
    fn ranges(&self) -> ((f64, f64), (f64, f64)) {
        let pts = || self.series.iter().flat_map(|l| l.points.iter());
        let (mut x, mut y) = ((f64::INFINITY, 0.0f64), (f64::INFINITY, 0.0f64));
        for p in pts() {
            x = (x.0.min(p.0), x.1.max(p.0));
            y = (y.0.min(p.1), y.1.max(p.1));
        }
        let decades =
            |(lo, hi): (f64, f64)| (pow10(lo.log10().floor()), pow10((hi.log10() + 0.05).ceil()));
        (decades(x), decades(y))
    }
}

/// The colour of line `i`: the theme's lines, then its other lines (the
/// last repeats beyond them).
fn line_color(theme: &Theme, i: usize) -> RGBColor {
    match i {
        0..=2 => theme.lines[i],
        _ => theme.more_lines[(i - 3).min(2)],
    }
}

/// Draws `chart` on `area`; `scale` multiplies fonts and line widths (the
/// device pixel ratio). The frame maps pixels back to data. An error, and
/// nothing but the background drawn, when [`LinesChart::check`] fails.
pub fn draw_lines<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &LinesChart,
    theme: &Theme,
    scale: f64,
) -> Result<PlotFrame, String> {
    area.fill(&theme.background).map_err(err)?;
    chart.check()?;
    let ((xlo, xhi), (ylo, yhi)) = chart.ranges();
    check_log_range("x values", xlo, xhi)?;
    check_log_range("y values", ylo, yhi)?;
    let frame = framed(area, Axis::log(xlo, xhi), Axis::log(ylo, yhi), scale);
    // The shade under the grid: an opaque, pre-blended fill.
    if let Some(s) = &chart.shade {
        let (a, b) = (s.from.max(xlo), s.to.min(xhi));
        if b > a {
            frame
                .plot
                .draw(&Rectangle::new(
                    [(a, ylo), (b, yhi)],
                    theme.region_fill(0).filled(),
                ))
                .map_err(err)?;
        }
    }
    frame.draw(&FrameStyle::themed(
        &chart.x_desc,
        &chart.y_desc,
        10,
        theme,
        scale,
    ))?;
    draw_data(&frame.plot, chart, theme, scale, (xlo, xhi), (ylo, yhi))?;
    let (xr, yr) = frame.plot.get_pixel_range();
    area.present().map_err(err)?;
    Ok(PlotFrame {
        x_px: (xr.start, xr.end),
        y_px: (yr.start, yr.end),
        x_range: (xlo, xhi),
        y_range: (ylo, yhi),
        log: true,
    })
}

/// The lines, markers and ticks, then the legend and the labels.
fn draw_data<DB: DrawingBackend>(
    ctx: &Plot<DB>,
    chart: &LinesChart,
    theme: &Theme,
    scale: f64,
    (xlo, xhi): (f64, f64),
    (ylo, yhi): (f64, f64),
) -> Result<(), String> {
    let px = move |v: f64| (v * scale).round() as i32;
    let text_style = |size: f64, c: RGBColor| text_style_scaled(size * scale, c);
    let at = |p: (f64, f64)| plot_point(ctx, p);
    let mut obstacles: Vec<Rect> = Vec::new();
    let mut entries: Vec<LegendEntry> = Vec::new();
    for (i, l) in chart.series.iter().enumerate() {
        let color = line_color(theme, i);
        let style = ShapeStyle::from(color).stroke_width(px(2.5).max(1) as u32);
        if l.dashed {
            ctx.draw(&DashedPathElement::new(
                l.points.iter().copied(),
                px(7.0),
                px(5.0),
                style,
            ))
            .map_err(err)?;
        } else {
            ctx.draw(&PathElement::new(l.points.clone(), style))
                .map_err(err)?;
        }
        let pts: Vec<(i32, i32)> = l.points.iter().map(|p| at(*p)).collect();
        obstacles.extend(polyline_obstacles(&pts, px(2.0), px(6.0)));
        entries.push((l.label.clone(), color, l.dashed));
    }
    let inside = |x: f64| x >= xlo && x <= xhi;
    let mut dots: Vec<Rect> = Vec::new();
    for m in chart.marks.iter().filter(|m| inside(m.x)) {
        ctx.draw(&DashedPathElement::new(
            [(m.x, ylo), (m.x, yhi)],
            px(4.0),
            px(4.0),
            ShapeStyle::from(theme.marker).stroke_width(px(1.5).max(1) as u32),
        ))
        .map_err(err)?;
        obstacles.extend(polyline_obstacles(
            &[at((m.x, ylo)), at((m.x, yhi))],
            px(2.0),
            px(6.0),
        ));
        if let Some(y) = m.y.filter(|y| *y >= ylo && *y <= yhi) {
            ctx.draw(&Circle::new((m.x, y), px(5.0), theme.marker.filled()))
                .map_err(err)?;
            dots.push(square(at((m.x, y)), px(6.0)));
        }
    }
    let plot = ctx.strip_coord_spec();
    let (w, h) = plot.dim_in_pixel();
    let (w, bottom) = (w as i32, h as i32);
    let (short, long) = (px(7.0), px(14.0));
    for t in chart.ticks.iter().filter(|t| inside(t.x)) {
        let (x, _) = at((t.x, ylo));
        let (len, color, width) = if t.emphasised {
            (long, theme.marker, px(3.0))
        } else {
            (short, theme.axis, px(1.5))
        };
        plot.draw(&PathElement::new(
            vec![(x, bottom - 1), (x, bottom - 1 - len)],
            ShapeStyle::from(color).stroke_width(width.max(1) as u32),
        ))
        .map_err(err)?;
        dots.push((x - width, bottom - len, x + width, bottom));
    }
    let legend = legend_layout(&plot, &entries, scale, &obstacles, &dots)?;
    let mut reserved: Vec<Rect> = legend.iter().map(|l| l.rect).collect();
    reserved.extend_from_slice(&dots);
    let mut labels = Labels::new(&plot, &reserved, &obstacles, scale);
    let d = px(6.0);
    for m in chart.marks.iter().filter(|m| inside(m.x)) {
        let (x, _) = at((m.x, ylo));
        let mid = at((m.x, m.y.unwrap_or((ylo * yhi).sqrt()))).1;
        let low = bottom - long - d;
        // Beside the line (right, then left) at the top, by the dot and
        // at the bottom; then across it; then against the plot's edges,
        // where a narrow plot has no room on either side of the line.
        labels.place_or_cross(
            &m.label,
            &text_style(12.0, theme.marker),
            &[
                ((x + d, d), HPos::Left, VPos::Top),
                ((x - d, d), HPos::Right, VPos::Top),
                ((x + d, mid - d), HPos::Left, VPos::Bottom),
                ((x - d, mid + d), HPos::Right, VPos::Top),
                ((x + d, low), HPos::Left, VPos::Bottom),
                ((x - d, low), HPos::Right, VPos::Bottom),
                ((x, d), HPos::Center, VPos::Top),
                ((x, mid - d), HPos::Center, VPos::Bottom),
                ((x, mid + d), HPos::Center, VPos::Top),
                ((w - d, d), HPos::Right, VPos::Top),
                ((d, d), HPos::Left, VPos::Top),
                ((w - d, low), HPos::Right, VPos::Bottom),
                ((d, low), HPos::Left, VPos::Bottom),
            ],
        )?;
    }
    if let Some(s) = &chart.shade {
        let (a, b) = (s.from.max(xlo), s.to.min(xhi));
        if b > a {
            let (left, right) = (at((a, ylo)).0, at((b, ylo)).0);
            labels.place_or_cross(
                &s.label,
                &text_style(12.0, theme.text),
                &[
                    ((left + d, d), HPos::Left, VPos::Top),
                    (((left + right) / 2, d), HPos::Center, VPos::Top),
                    ((right - d, d), HPos::Right, VPos::Top),
                    ((left + d, bottom / 2), HPos::Left, VPos::Center),
                    ((left + d, bottom - long - d), HPos::Left, VPos::Bottom),
                ],
            )?;
        }
    }
    for t in chart.ticks.iter().filter(|t| t.emphasised && inside(t.x)) {
        let (x, _) = at((t.x, ylo));
        let y = bottom - long - d;
        labels.place(
            &t.label,
            &text_style(11.0, theme.marker),
            &[
                ((x, y), HPos::Center, VPos::Bottom),
                ((x + d, y), HPos::Left, VPos::Bottom),
                ((x - d, y), HPos::Right, VPos::Bottom),
            ],
        )?;
    }
    if let Some(l) = &legend {
        draw_legend(&plot, l, &entries, theme, scale)?;
    }
    Ok(())
}

/// Where the lines `a` and `b`, sampled at the same xs (`xs`), first
/// cross: interpolated on log scales between the two samples around the
/// crossing, with the height there. `None` when they do not cross, or a
/// value is not positive and finite.
pub fn crossing(xs: &[f64], a: &[f64], b: &[f64]) -> Option<(f64, f64)> {
    if xs.len() != a.len() || xs.len() != b.len() {
        return None;
    }
    let ok = |i: usize| positive(xs[i]) && positive(a[i]) && positive(b[i]);
    let gap = |i: usize| a[i].ln() - b[i].ln();
    for i in 1..xs.len() {
        if !(ok(i - 1) && ok(i)) {
            return None;
        }
        let (g0, g1) = (gap(i - 1), gap(i));
        if g0 == 0.0 {
            return Some((xs[i - 1], a[i - 1]));
        }
        if g0.signum() != g1.signum() {
            let f = g0 / (g0 - g1);
            let lerp = |p: f64, q: f64| (p.ln() + f * (q.ln() - p.ln())).exp();
            let x = lerp(xs[i - 1], xs[i]);
            let y = lerp(a[i - 1], a[i]);
            return (positive(x) && positive(y)).then_some((x, y));
        }
    }
    None
}

/// The span of x where `a` is above `b` (both sampled at `xs`): from the
/// first sample above (or the crossing before it) to the last (or the
/// crossing after it). `None` when `a` is nowhere above `b`. Meant for
/// lines that cross once or not at all.
pub fn span_above(xs: &[f64], a: &[f64], b: &[f64]) -> Option<(f64, f64)> {
    if xs.len() != a.len() || xs.len() != b.len() {
        return None;
    }
    let above: Vec<usize> = (0..xs.len()).filter(|&i| a[i] > b[i]).collect();
    let (&first, &last) = (above.first()?, above.last()?);
    let from = if first == 0 {
        xs[0]
    } else {
        crossing(
            &xs[first - 1..=first],
            &a[first - 1..=first],
            &b[first - 1..=first],
        )
        .map_or(xs[first], |c| c.0)
    };
    let to = if last + 1 == xs.len() {
        xs[last]
    } else {
        crossing(
            &xs[last..=last + 1],
            &a[last..=last + 1],
            &b[last..=last + 1],
        )
        .map_or(xs[last], |c| c.0)
    };
    Some((from, to))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn crossing_is_exact_for_power_laws() {
        // a = x (linear), b = 100 (flat): they cross at x = 100.
        let xs: Vec<f64> = (0..=8).map(|k| pow10(f64::from(k) / 2.0)).collect();
        let a: Vec<f64> = xs.clone();
        let b = vec![100.0; xs.len()];
        let (x, y) = crossing(&xs, &a, &b).unwrap();
        assert!((x - 100.0).abs() < 1e-9 && (y - 100.0).abs() < 1e-9);
        let xs2 = [1.0, 10.0, 1000.0];
        let (x, _) = crossing(&xs2, &[1.0, 10.0, 1000.0], &[50.0; 3]).unwrap();
        assert!((x - 50.0).abs() < 1e-9, "{x}");
        assert!(crossing(&xs, &a, &vec![1e9; xs.len()]).is_none());
        assert!(crossing(&xs, &a, &vec![0.0; xs.len()]).is_none());
        assert!(crossing(&[1.0], &[1.0, 2.0], &[1.0]).is_none());
    }

    #[test]
    fn span_above_ends_at_the_crossings() {
        let xs = [1.0, 10.0, 100.0, 1000.0];
        // Flat comms at 50 over linear compute: above until x = 50.
        let (from, to) = span_above(&xs, &[50.0; 4], &xs).unwrap();
        assert_eq!(from, 1.0);
        assert!((to - 50.0).abs() < 1e-9, "{to}");
        // Everywhere above, nowhere above.
        assert_eq!(span_above(&xs, &[1e6; 4], &xs), Some((1.0, 1000.0)));
        assert_eq!(span_above(&xs, &[0.5; 4], &xs), None);
        // Above from the crossing on.
        let (from, to) = span_above(&xs, &xs, &[50.0; 4]).unwrap();
        assert!((from - 50.0).abs() < 1e-9 && to == 1000.0);
    }

    #[test]
    fn check_names_what_cannot_be_drawn() {
        let line = |points: Vec<(f64, f64)>| Line {
            label: "T".to_string(),
            points,
            dashed: false,
        };
        let mut c = LinesChart {
            x_desc: "x".to_string(),
            y_desc: "y".to_string(),
            series: vec![],
            marks: vec![],
            shade: None,
            ticks: vec![],
        };
        assert!(c.check().unwrap_err().contains("no line"));
        c.series.push(line(vec![(1.0, 1.0)]));
        assert!(c.check().unwrap_err().contains("too few"));
        c.series[0] = line(vec![(1.0, 1.0), (2.0, f64::NAN)]);
        assert!(c.check().unwrap_err().contains("not finite"));
        c.series[0] = line(vec![(1.0, 1.0), (2.0, 0.0)]);
        assert!(c.check().is_err());
        c.series[0] = line(vec![(1.0, 1.0), (2.0, 3.0)]);
        assert!(c.check().is_ok());
        c.ticks.push(Tick {
            x: f64::INFINITY,
            label: "t".to_string(),
            emphasised: false,
        });
        assert!(c.check().unwrap_err().contains("tick"));
        c.ticks.clear();
        c.marks.push(Mark {
            x: -1.0,
            y: None,
            label: "m".to_string(),
        });
        assert!(c.check().unwrap_err().contains("marker"));
    }

    /// A value of any size, or one a log scale cannot draw.
    fn value() -> impl proptest::strategy::Strategy<Value = f64> {
        use proptest::prelude::*;
        prop_oneof![
            60 => (-40.0f64..40.0).prop_map(|e| pow10(e.round() / 2.0) * 1.7),
            1 => Just(0.0),
            1 => Just(f64::NAN),
            1 => Just(f64::INFINITY),
            1 => Just(-3.0),
            1 => Just(1e308),
            1 => Just(5e-324),
        ]
    }

    proptest::proptest! {
        /// Whatever the spec, drawing it never panics, and what is drawn
        /// has no NaN or infinity in it; a spec that fails its check is an
        /// error.
        #[test]
        fn any_spec_draws_or_errs_without_nan(
            lines in proptest::collection::vec(
                (proptest::collection::vec((value(), value()), 2..6), proptest::bool::ANY),
                0..4,
            ),
            marks in proptest::collection::vec((value(), proptest::option::of(value())), 0..3),
            shade in proptest::option::of((value(), value())),
            ticks in proptest::collection::vec((value(), proptest::bool::ANY), 0..4),
            w in 60u32..900,
            h in 40u32..600,
            scale in 0.5f64..3.0,
        ) {
            let chart = LinesChart {
                x_desc: "x (bytes)".to_string(),
                y_desc: "y (seconds)".to_string(),
                series: lines
                    .into_iter()
                    .enumerate()
                    .map(|(i, (mut points, dashed))| {
                        points.sort_by(|a, b| a.0.total_cmp(&b.0));
                        Line { label: format!("line {i}"), points, dashed }
                    })
                    .collect(),
                marks: marks
                    .into_iter()
                    .map(|(x, y)| Mark { x, y, label: "mark".to_string() })
                    .collect(),
                shade: shade.map(|(a, b)| Shade {
                    from: a.min(b),
                    to: a.max(b),
                    label: "shade".to_string(),
                }),
                ticks: ticks
                    .into_iter()
                    .map(|(x, emphasised)| Tick { x, label: "tick".to_string(), emphasised })
                    .collect(),
            };
            let ok = chart.check().is_ok();
            let drawn = crate::to_svg(w, h, |root| {
                draw_lines(root, &chart, &Theme::light(), scale).map(|_| ())
            });
            if !ok {
                proptest::prop_assert!(drawn.is_err());
            }
            if let Ok(svg) = drawn {
                proptest::prop_assert!(!svg.contains("NaN") && !svg.contains("inf"));
            }
        }
    }
}
