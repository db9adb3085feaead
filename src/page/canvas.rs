//! Drawing a chart on an HTML canvas: backing-store sizing for sharp lines on
//! HiDPI screens, the colour scheme, and the draw counter tests wait for.

use leptos::html::Canvas;
use leptos::prelude::{ArcTrigger, Effect, Get, Memo, NodeRef, Notify, RwSignal, Set, Track, With};
use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;

use crate::page::backend::{Area, Measured};
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

thread_local! {
    /// Each chart's CSS size, read once and forgotten on resize: reading it
    /// on every draw would force a layout of the page after each input.
    static SIZES: std::cell::RefCell<Vec<(String, (f64, f64))>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

fn css_size(canvas: &HtmlCanvasElement, name: &str) -> (f64, f64) {
    SIZES.with(|sizes| {
        let mut sizes = sizes.borrow_mut();
        if let Some((_, s)) = sizes.iter().find(|(n, _)| n == name) {
            return *s;
        }
        let s = (
            canvas.client_width().max(280) as f64,
            canvas.client_height().max(200) as f64,
        );
        sizes.push((name.to_string(), s));
        s
    })
}

/// Forgets the charts' sizes (after a resize, or when a chart is mounted
/// again): the next draw reads them afresh.
fn forget_sizes() {
    SIZES.with(|s| s.borrow_mut().clear());
}

thread_local! {
    /// Notified on each window resize. A trigger in a thread-local rather
    /// than a context: nothing else is context, and Leptos's context map
    /// (a hash map by type) was 1.4 KB gzip of the first load for this.
    static RESIZED: ArcTrigger = ArcTrigger::new();
}

/// Makes the running effect (a chart's draw) run again after the next
/// window resize, so the chart is redrawn at its new size.
fn track_resizes() {
    RESIZED.with(Track::track);
}

/// The window was resized: forgets the charts' sizes and redraws them.
pub fn window_resized() {
    forget_sizes();
    RESIZED.with(Notify::notify);
}

/// Keeps a chart drawn: runs `draw` with the canvas and the spec when the
/// chart is mounted, when `spec` changes and after a window resize. An
/// `Err` spec, or a draw that fails, puts its message in `error`.
pub fn keep_drawn<S: Send + Sync + 'static>(
    spec: Memo<Result<S, String>>,
    canvas_ref: NodeRef<Canvas>,
    error: RwSignal<Option<String>>,
    draw: impl Fn(&HtmlCanvasElement, &S) -> Result<(), String> + 'static,
) {
    // A chart mounted again (page switch) reads its size afresh.
    forget_sizes();
    let ready = crate::page::later::later_after_frame();
    Effect::new(move |_| {
        track_resizes();
        if !ready.get() {
            return;
        }
        // Drawn from the memo's own value: no copy of the spec per draw.
        spec.with(|spec| {
            let Some(canvas) = canvas_ref.get() else {
                return;
            };
            let result = spec
                .as_ref()
                .map_err(Clone::clone)
                .and_then(|spec| draw(&canvas, spec));
            error.set(result.err());
            // The app's first chart, drawn or failed: it replaces the
            // prerendered page in this task.
            crate::page::prerender::reveal();
        });
    });
}

/// Sizes `canvas`'s backing store to its CSS size × devicePixelRatio, then
/// runs `draw` on a plotters canvas backend with that ratio as the scale.
/// Afterwards bumps the canvas's `data-draws` attribute and sets a
/// performance mark `NAME:drawn` (tests and the bench wait on these).
pub fn draw_on<F>(canvas: &HtmlCanvasElement, name: &str, draw: F) -> Result<PlotFrame, String>
where
    F: FnOnce(&Area, f64) -> Result<PlotFrame, String>,
{
    let window = web_sys::window().ok_or("no window")?;
    let dpr = window.device_pixel_ratio().clamp(1.0, 4.0);
    let (css_w, css_h) = css_size(canvas, name);
    let (w, h) = ((css_w * dpr).round() as u32, (css_h * dpr).round() as u32);
    if canvas.width() != w {
        canvas.set_width(w);
    }
    if canvas.height() != h {
        canvas.set_height(h);
    }
    let backend = CanvasBackend::with_canvas_object(canvas.clone())
        .map(Measured)
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
