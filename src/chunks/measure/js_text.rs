//! Large text from the page into Rust a piece at a time. Taking a pasted
//! string whole costs one long task (about 30 ms for Nsight Compute's
//! default page of ten thousand kernels, 6.6 MB: the browser encodes it,
//! then wasm copies it), all in the paste's frame; in pieces of
//! [`PIECE`] characters, a few per task, no frame waits for all of it. A
//! text of up to [`WHOLE`] characters is still taken at once.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Function, JsString, Reflect};
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

/// Characters (UTF-16 units) taken at a time.
const PIECE: u32 = 256 * 1024;
/// Milliseconds of taking pieces in one task.
const SLICE_MS: f64 = 6.0;
/// Characters taken whole, at once (ten thousand rows of CSV or JSON):
/// their first rows are read in the paste's own task, as before.
const WHOLE: u32 = 1 << 20;

/// The clipboard data's text (`getData("text")`) as a JavaScript string,
/// not yet copied into Rust.
pub fn clipboard_js(data: &web_sys::DataTransfer) -> Option<JsString> {
    let get: Function = Reflect::get(data, &JsValue::from_str("getData"))
        .ok()?
        .dyn_into()
        .ok()?;
    get.call1(data, &JsValue::from_str("text"))
        .ok()?
        .dyn_into()
        .ok()
}

/// Copies `text` into Rust a few pieces per task, then calls `done` with
/// it, unless `current` says a newer copy (or none) is wanted: it holds
/// the number of the copy wanted, and this one is `copy`.
pub fn take_in_pieces(
    text: JsString,
    copy: u32,
    current: StoredValue<u32>,
    done: impl FnOnce(String) + 'static,
) {
    let state = Rc::new(RefCell::new((String::new(), 0u32, Some(done))));
    step(text, copy, current, state);
}

/// What a copy carries across tasks: the text so far, the next unit to
/// take, and what to call at the end.
type State<F> = Rc<RefCell<(String, u32, Option<F>)>>;

/// Takes pieces for about [`SLICE_MS`], then goes on in a later task.
fn step<F: FnOnce(String) + 'static>(
    text: JsString,
    copy: u32,
    current: StoredValue<u32>,
    state: State<F>,
) {
    if current.try_get_value() != Some(copy) {
        return;
    }
    let perf = web_sys::window().and_then(|w| w.performance());
    let now = || perf.as_ref().map_or(0.0, |p| p.now());
    let t0 = now();
    let len = text.length();
    // A short text is taken whole, now.
    let whole = len <= WHOLE;
    let finished = {
        let mut s = state.borrow_mut();
        loop {
            let at = s.1;
            if at >= len {
                break true;
            }
            let mut end = (at + PIECE).min(len);
            // Never between the two halves of a surrogate pair (a high
            // surrogate, 0xD800 to 0xDBFF, last).
            if end < len && (55296.0..56320.0).contains(&text.char_code_at(end - 1)) {
                end -= 1;
            }
            s.0.push_str(&String::from(text.slice(at, end)));
            s.1 = end;
            if !whole && now() - t0 >= SLICE_MS {
                break s.1 >= len;
            }
        }
    };
    if finished {
        let (all, done) = {
            let mut s = state.borrow_mut();
            (std::mem::take(&mut s.0), s.2.take())
        };
        if let Some(done) = done {
            done(all);
        }
        return;
    }
    request_animation_frame(move || {
        set_timeout(
            move || step(text, copy, current, state),
            std::time::Duration::ZERO,
        );
    });
}
