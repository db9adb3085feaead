//! The start's queue: flags that open one at a time, each in a task of its
//! own, in the order they were made, so that the page starts in several
//! short tasks rather than one long one (`shown::shown_later`, a chart's
//! first draw in `canvas::keep_drawn`, the batch-size chart's chunk).

use leptos::prelude::{IsDisposed, RwSignal, Set};

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
pub fn later_after_frame() -> RwSignal<bool> {
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
