//! # roofline-charts
//!
//! Roofline Lab's charts, drawn with plotters. Every drawing function is
//! generic over plotters' [`DrawingBackend`], so the same code draws on a
//! browser canvas (the app) and into an SVG string natively (export and
//! snapshot tests).
//!
//! *Invariant:* the charts format no number themselves: every label comes
//! from `roofline_core::format` or from the chart spec.

mod axis;
pub mod batch;
mod batch_current;
mod error;
mod frame;
mod labels;
pub mod latency;
mod legend;
pub mod lines;
pub mod roofline;
pub mod scale;
pub mod spec;
mod style;
pub mod theme;

pub use batch::{
    approximation_series, batch_csv, batch_for, batch_legend, draw_batch, BatchChart, BatchSeries,
};
pub use batch_current::{batch_with_current, CurrentBatch};
pub use latency::{draw_latency, latency_for, LatencyChart};
pub use lines::{crossing, draw_lines, span_above, Line, LinesChart, Mark, Shade, Tick};
pub use plotters::prelude::DrawingBackend;
pub use roofline::{
    draw_roofline, draw_roofline_points, nearest, BandwidthLine, OpMarker, OtherRoof, PlotFrame,
    PointMark, Region, RooflineChart,
};
pub use scale::{coll_chart, matmul_chart, train_chart};
pub use spec::{add_own_roofs, point_marks, roofline_for_chip, roofline_for_view};
pub use theme::Theme;

use plotters::prelude::*;

/// Renders `draw` into an SVG document of `width` × `height` pixels.
pub fn to_svg<F>(width: u32, height: u32, draw: F) -> Result<String, String>
where
    F: FnOnce(&DrawingArea<SVGBackend<'_>, plotters::coord::Shift>) -> Result<(), String>,
{
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (width, height)).into_drawing_area();
        draw(&root)?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(out)
}
