//! Measured kernels on the roofline chart: a ring each (a square for a
//! prediction), in the colour of what binds it, and the first kernels'
//! names. Called only by the measure chunk's copy of the drawing
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

/// The first kernels' names, where they fit: beside the ring, clear of it
/// and of the gap kept around it.
pub(super) fn names<DB: DrawingBackend>(
    labels: &mut Labels<'_, DB>,
    pen: &Pen,
    shown: &[(&PointMark, (i32, i32))],
) -> Result<(), String> {
    let r = pen.px(9.0);
    for &(p, (x, y)) in shown.iter().take(12) {
        labels.place(
            &format::clip(&p.label, 24),
            &pen.text(11.0, color(pen, p)),
            &[
                ((x + r, y), HPos::Left, VPos::Center),
                ((x - r, y), HPos::Right, VPos::Center),
                ((x, y - r), HPos::Center, VPos::Bottom),
                ((x, y + r), HPos::Center, VPos::Top),
            ],
        )?;
    }
    Ok(())
}
