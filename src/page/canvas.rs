//! Drawing a chart on an HTML canvas: backing-store sizing for sharp lines on
//! HiDPI screens, the colour scheme, and the draw counter tests wait for.

use leptos::html::Canvas;
use leptos::prelude::{
    ArcTrigger, Effect, Get, IsDisposed, Memo, NodeRef, Notify, RwSignal, Set, Track, With,
};
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
    let ready = later_after_frame();
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

/// A flag that turns true in a task of its own, after the current one (and
/// after the flags made before it): the page's start is then several short
/// tasks rather than one long one (`shown::shown_later`). Later draws (an
/// edit) are not delayed.
pub fn later() -> RwSignal<bool> {
    queue(Wait::Task)
}

/// [`later`], and after the browser has laid out and painted a frame: a
/// chart's first draw waits for it, so that reading the canvas's size finds
/// the layout done, in the browser's own task, rather than forcing it in
/// the draw's.
fn later_after_frame() -> RwSignal<bool> {
    queue(Wait::Frame)
}

/// [`later`], after the files of the chunks that start after the first
/// chart (the chunk table's `start` rows) are preloaded, a few per task, by
/// index.html's `rooflineStart`: their loader, run when this flag opens,
/// then finds them in the memory cache instead of making about 40 requests
/// in one task (over 50 ms on a slow machine). The batch-size chart's
/// chunk waits for it (`src/chunks/batch/mod.rs`); so does what is queued
/// after it, the "Why?" answers' prefetch among them.
pub fn later_after_preloads() -> RwSignal<bool> {
    queue(Wait::Preloads)
}

/// What a flag of [`later`] waits for, after the flags before it.
#[derive(Clone, Copy, PartialEq)]
enum Wait {
    /// A task of its own.
    Task,
    /// A frame, then a task.
    Frame,
    /// A task for each few files preloaded, then a task.
    Preloads,
}

thread_local! {
    /// The flags of [`later`] not yet opened, oldest first, each with
    /// what it waits for.
    static WAITING: std::cell::RefCell<std::collections::VecDeque<(RwSignal<bool>, Wait)>> =
        const { std::cell::RefCell::new(std::collections::VecDeque::new()) };
    /// Whether a timer (or a frame) to open the oldest flag is pending.
    static SCHEDULED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Puts a flag in the queue and makes sure the queue is moving.
fn queue(wait: Wait) -> RwSignal<bool> {
    let ready = RwSignal::new(false);
    WAITING.with(|w| w.borrow_mut().push_back((ready, wait)));
    schedule();
    ready
}

/// Schedules the opening of the oldest flag, one at a time: a timer, or a
/// frame and then a timer for a flag that waits for one.
fn schedule() {
    if SCHEDULED.with(|s| s.replace(true)) {
        return;
    }
    let Some(wait) = WAITING.with(|w| w.borrow().front().map(|f| f.1)) else {
        SCHEDULED.with(|s| s.set(false));
        return;
    };
    // `fn()`s rather than closures: `set_timeout`'s code for them is shared
    // with the address's writer (address.rs).
    if wait == Wait::Frame {
        leptos::prelude::request_animation_frame(timer_for_next as fn());
    } else {
        timer_for_next();
    }
}

/// A timer that opens the oldest flag.
fn timer_for_next() {
    leptos::prelude::set_timeout(open_next as fn(), std::time::Duration::ZERO);
}

/// Opens the oldest waiting flag, then schedules the next one. A flag that
/// waits for preloads asks for the next few files instead, in this task,
/// and opens in a task after the last.
fn open_next() {
    SCHEDULED.with(|s| s.set(false));
    let front = WAITING.with(|w| w.borrow().front().copied());
    if let Some((ready, Wait::Preloads)) = front {
        // A flag whose view has gone (the page was left) preloads nothing:
        // its files would not be used.
        if ready.is_disposed() {
            WAITING.with(|w| w.borrow_mut().pop_front());
        } else if !preload_next() {
            WAITING.with(|w| {
                if let Some(f) = w.borrow_mut().front_mut() {
                    f.1 = Wait::Task;
                }
            });
        }
    } else if let Some((ready, _)) = WAITING.with(|w| w.borrow_mut().pop_front()) {
        // Out of the queue's borrow: opening it may queue more flags.
        ready.set(true);
    }
    schedule();
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// index.html's `rooflineStart`: preloads the next few files of the
    /// chunks that start after the first chart; true while some are left.
    #[wasm_bindgen(js_name = rooflineStart, catch)]
    fn roofline_start() -> Result<bool, wasm_bindgen::JsValue>;
}

/// Preloads the next few files of the chunks that start after the first
/// chart; false once none is left, or where the page has no such function
/// (a page without the loader's script).
fn preload_next() -> bool {
    roofline_start().unwrap_or(false)
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
