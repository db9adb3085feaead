//! Drawing a chart on an HTML canvas: backing-store sizing for sharp lines on
//! HiDPI screens, the colour scheme, and the draw counter tests wait for.

use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;

use crate::backend::{Area, EitherBackend};
use roofline_charts::{PlotFrame, Theme};
use web_sys::HtmlCanvasElement;

/// The chart theme for the user's colour scheme (prefers-color-scheme).
pub fn theme() -> Theme {
    let dark = web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .map(|m| m.matches())
        .unwrap_or(false);
    if dark {
        Theme::dark()
    } else {
        Theme::light()
    }
}

/// Sizes `canvas`'s backing store to its CSS size × devicePixelRatio, then
/// runs `draw` on a plotters canvas backend with that ratio as the scale.
/// Afterwards bumps the canvas's `data-draws` attribute and sets a
/// performance mark `NAME:drawn` (tests and the bench wait on these).
pub fn draw_on<F>(canvas: &HtmlCanvasElement, name: &str, draw: F) -> Result<PlotFrame, String>
where
    F: FnOnce(&Area<'static>, f64) -> Result<PlotFrame, String>,
{
    let window = web_sys::window().ok_or("no window")?;
    let dpr = window.device_pixel_ratio().clamp(1.0, 4.0);
    let css_w = canvas.client_width().max(280) as f64;
    let css_h = canvas.client_height().max(200) as f64;
    let (w, h) = ((css_w * dpr).round() as u32, (css_h * dpr).round() as u32);
    if canvas.width() != w {
        canvas.set_width(w);
    }
    if canvas.height() != h {
        canvas.set_height(h);
    }
    let backend = CanvasBackend::with_canvas_object(canvas.clone())
        .map(EitherBackend::Canvas)
        .ok_or("this browser gave no 2D drawing context for the chart")?;
    let root = backend.into_drawing_area();
    let frame = draw(&root, dpr)?;
    let n: u32 = canvas
        .get_attribute("data-draws")
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let _ = canvas.set_attribute("data-draws", &(n + 1).to_string());
    if let Some(perf) = window.performance() {
        let _ = perf.mark(&format!("{name}:drawn"));
    }
    Ok(frame)
}
