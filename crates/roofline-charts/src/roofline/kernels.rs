//! Measured kernels on the roofline chart: a ring each (a square for a
//! prediction), in the colour of what binds it, and the first kernels'
//! names, short enough to fit beside their rings. Called only by the measure chunk's copy of the drawing
//! (`draw_roofline_points`), so the first load has none of it.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};
use roofline_core::format;

use super::{Pen, PointMark};
use crate::error::err;
use crate::labels::Labels;

/// The colour of what binds `p`: the first line's for memory, the roof's
/// for compute.
fn color(pen: &Pen, p: &PointMark) -> RGBColor {
    if p.memory {
        pen.chart.line_color(0, pen.theme)
    } else {
        pen.theme.roof
    }
}

/// A ring for each kernel `shown` (at its pixel), a square for a
/// prediction (no measured time, at the roof).
pub(super) fn rings<DB: DrawingBackend>(
    plot: &DrawingArea<DB, Shift>,
    pen: &Pen,
    shown: &[(&PointMark, (i32, i32))],
) -> Result<(), String> {
    for (p, xy) in shown {
        let style = ShapeStyle::from(color(pen, p)).stroke_width(pen.px(2.0) as u32);
        if p.predicted {
            // A prediction (no measured time, at the roof): a square.
            let r = pen.px(4.0);
            plot.draw(&Rectangle::new(
                [(xy.0 - r, xy.1 - r), (xy.0 + r, xy.1 + r)],
                style,
            ))
            .map_err(err)?;
        } else {
            plot.draw(&Circle::new(*xy, pen.px(4.0), style))
                .map_err(err)?;
        }
    }
    Ok(())
}

/// The most kernels named on the chart (the most important first).
const NAMED: usize = 12;
/// The most characters of a name drawn before an ellipsis.
const NAME_CHARS: usize = 24;

/// A kernel's name as the chart draws it: a C++ signature's function
/// alone, without its return type and argument list
/// (`void rmsnorm_pass<float>(float *, int) #2` is `rmsnorm_pass<float> #2`),
/// clipped to [`NAME_CHARS`] with its ` #ID` (the reader's mark of
/// launches sharing a name) kept whole, so that two launches of one
/// kernel read apart.
pub(super) fn short_name(name: &str) -> String {
    let name = name.trim();
    let (base, id) = match name.rsplit_once(" #") {
        Some((b, n)) if !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()) => {
            (b.trim_end(), &name[b.len()..])
        }
        _ => (name, ""),
    };
    // The argument list, whole or cut off by the reader's clipping: from
    // the first `(` outside `<…>` with a name before it.
    let mut base = base;
    let mut depth = 0i32;
    for (i, c) in base.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            '(' if depth == 0 && !base[..i].trim().is_empty() => {
                base = base[..i].trim_end();
                break;
            }
            _ => {}
        }
    }
    // The return type: what comes before the last space outside `<…>`.
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in base.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            ' ' if depth == 0 && i + 1 < base.len() => start = i + 1,
            _ => {}
        }
    }
    let base = &base[start..];
    let room = NAME_CHARS.saturating_sub(id.chars().count()).max(2);
    format!("{}{id}", format::clip(base, room))
}

/// The first kernels' names (up to [`NAMED`]), where they fit: beside the
/// ring or diagonally off it, clear of it and of the gap kept around it,
/// and of the chart's lines where a spot is; else across a line rather
/// than not at all (never over another label, the legend or a ring).
pub(super) fn names<DB: DrawingBackend>(
    labels: &mut Labels<'_, DB>,
    pen: &Pen,
    shown: &[(&PointMark, (i32, i32))],
) -> Result<(), String> {
    let r = pen.px(9.0);
    let d = pen.px(7.0);
    for &(p, (x, y)) in shown.iter().take(NAMED) {
        labels.place_or_cross(
            &short_name(&p.label),
            &pen.text(11.0, color(pen, p)),
            &[
                ((x + r, y), HPos::Left, VPos::Center),
                ((x - r, y), HPos::Right, VPos::Center),
                ((x, y - r), HPos::Center, VPos::Bottom),
                ((x, y + r), HPos::Center, VPos::Top),
                ((x + d, y - d), HPos::Left, VPos::Bottom),
                ((x + d, y + d), HPos::Left, VPos::Top),
                ((x - d, y - d), HPos::Right, VPos::Bottom),
                ((x - d, y + d), HPos::Right, VPos::Top),
            ],
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::short_name;

    #[test]
    fn names_drop_the_signature_and_keep_the_id() {
        let norm = "void rmsnorm_pass<float>(float *, const float *, int, int)";
        assert_eq!(
            short_name(&format!("{norm} #12")),
            "rmsnorm_pass<float> #12"
        );
        assert_eq!(
            short_name("void matmul_bf16<128, 128, 64>(const __nv_bfloat16 *, int)"),
            "matmul_bf16<128, 128, 64…"
        );
        // Clipped by the reader (80 characters) inside its argument list.
        assert_eq!(
            short_name(
                "void matmul_bf16<128, 128, 64>(const __nv_bfloat16 *, const __nv_bfloat16 *, __n…"
            ),
            "matmul_bf16<128, 128, 64…"
        );
        assert_eq!(short_name("void k<(int)3>(int)"), "k<(int)3>");
        assert_eq!(short_name("fused_add #3"), "fused_add #3");
        assert_eq!(short_name("attention"), "attention");
        assert_eq!(short_name("(lambda)()"), "(lambda)");
        assert_eq!(short_name("a b c"), "c");
        assert_eq!(short_name(""), "");
        let long = format!("{} #7", "x".repeat(40));
        assert!(short_name(&long).ends_with("… #7"), "{}", short_name(&long));
        assert_eq!(short_name(&long).chars().count(), 25);
    }
}
