//! The legend both charts share: where it goes (the corner that hides the
//! least of the data) and how it is drawn.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::error::err;
use crate::labels::{overlaps, Rect};
use crate::style::text_style_scaled;
use crate::Theme;

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
    /// Labels shortened (see [`short`]): a narrow plot.
    short: bool,
}

/// A legend label without its numbers, for a narrow plot: the text before
/// a colon (`this operation`), else the first word (`HBM`).
fn short(label: &str) -> &str {
    match label.split_once(':') {
        Some((head, _)) => head,
        None => label.split(' ').next().unwrap_or(label),
    }
}

/// Lays out the legend both charts share: one line sample and label per
/// entry, in the first corner of the plotting area (lower right, upper
/// left, lower left, upper right) that covers none of `lines` (samples
/// along the data lines) and `dots` (bends, markers), else the corner that
/// covers least, a dot counting as much as a hundred line samples. On a
/// plot under 400 CSS pixels wide with more than three rows, the labels
/// go without their numbers. `None`
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
    let (pad, sample, gap, margin) = (px(6.0), px(18.0), px(8.0), px(8.0));
    let (w, h) = plot.dim_in_pixel();
    // On a narrow plot (a phone) with many rows the full labels would cover
    // the data: the values are left out (the bends' labels and the readout
    // give them).
    let shortened = f64::from(w) < 400.0 * scale && entries.len() > 3;
    let mut text_w = 0i32;
    let mut text_h = 0i32;
    for (label, _, _) in entries {
        let label = if shortened { short(label) } else { label };
        let (w, h) = plot.estimate_text_size(label, &style).map_err(err)?;
        text_w = text_w.max(w as i32);
        text_h = text_h.max(h as i32);
    }
    let row = text_h.max(px(14.0)) + px(6.0);
    let n = i32::try_from(entries.len()).unwrap_or(i32::MAX);
    let box_w = pad + sample + gap + text_w + pad;
    let box_h = pad + row.saturating_mul(n) + pad - px(6.0);
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
    let rect = (x0, y0, x0 + box_w, y0 + box_h);
    Ok(Some(LegendLayout {
        rect,
        pad,
        sample,
        gap,
        row,
        short: shortened,
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
            if layout.short {
                short(label)
            } else {
                label.as_str()
            },
            (x0 + pad + sample + gap, y),
            anchored.clone(),
        ))
        .map_err(err)?;
    }
    Ok(())
}
