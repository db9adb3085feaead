//! Reading the pasted table (in the measure chunk): its first rows at once
//! (what the preview shows in the next frame), the rest a slice per task,
//! so that no frame waits for ten thousand rows.

use leptos::prelude::*;
use roofline_core::points::read::{self, Progress, RateByRoof};
use roofline_core::points::{Field, Kernel};

/// The reading of the pasted text, kept up to date with it.
#[derive(Clone, Copy)]
pub struct Reader {
    /// What has been read so far.
    pub progress: RwSignal<Progress>,
    /// The reading under way: a new text or mapping starts a new
    /// generation, and the old one's slices stop.
    generation: StoredValue<u32>,
    /// The text read.
    pasted: RwSignal<String>,
}

impl Reader {
    /// Reads `pasted` with the user's column choices (`mapping`, and the
    /// second look's `by_roof`), as a plain table when `plain`; reads
    /// afresh whenever one of them changes.
    pub fn new(
        pasted: RwSignal<String>,
        mapping: RwSignal<Vec<(String, Field)>>,
        by_roof: RwSignal<Option<RateByRoof>>,
        plain: RwSignal<bool>,
    ) -> Self {
        let reader = Reader {
            progress: RwSignal::new(read::start("", &[], 0)),
            generation: StoredValue::new(0u32),
            pasted,
        };
        Effect::new(move |_| {
            let mut choices = mapping.get();
            if let Some(b) = by_roof.get() {
                if !choices.iter().any(|(h, _)| *h == b.choice.0) {
                    choices.push(b.choice);
                }
            }
            let plain = plain.get();
            let p = pasted.with(|text| read::start_as(text, &choices, FIRST_ROWS, plain));
            let g = reader.generation.get_value().wrapping_add(1);
            reader.generation.set_value(g);
            let done = p.done();
            reader.progress.set(p);
            if !done {
                reader.read_on(g);
            }
        });
        reader
    }

    /// The whole table, read now if slices remain (before it is added).
    pub fn all_kernels(self) -> Vec<Kernel> {
        let Reader {
            progress,
            generation,
            pasted,
        } = self;
        if !progress.with_untracked(Progress::done) {
            generation.update_value(|g| *g = g.wrapping_add(1));
            pasted.with_untracked(|t| progress.update(|p| p.more(t, usize::MAX)));
        }
        progress.with_untracked(|p| p.reading().kernels.clone())
    }

    /// Reads on in the task after the next frame (so the browser paints
    /// between slices), for about [`SLICE_MS`], and so on until done,
    /// unless a newer reading than `g` has begun.
    fn read_on(self, g: u32) {
        let Reader {
            progress,
            generation,
            pasted,
        } = self;
        request_animation_frame(move || {
            set_timeout(
                move || {
                    // A newer reading began, or the panel was closed (its
                    // values are gone).
                    if generation.try_get_value() != Some(g) {
                        return;
                    }
                    let perf = web_sys::window().and_then(|w| w.performance());
                    let now = || perf.as_ref().map_or(0.0, |p| p.now());
                    let t0 = now();
                    let mut done = true;
                    pasted.with_untracked(|t| {
                        progress.try_update(|p| {
                            loop {
                                p.more(t, SLICE_ROWS);
                                if p.done() || now() - t0 >= SLICE_MS {
                                    break;
                                }
                            }
                            done = p.done();
                        });
                    });
                    if !done {
                        self.read_on(g);
                    }
                },
                std::time::Duration::ZERO,
            );
        });
    }
}

/// Rows read as soon as a table is pasted (the preview's, in the next
/// frame): about half a millisecond on the bench's machine.
const FIRST_ROWS: usize = 500;
/// Rows read at a time in a later task, until [`SLICE_MS`] have passed.
const SLICE_ROWS: usize = 500;
/// Milliseconds of reading in a later task: with the page's update and
/// paint, a frame stays within its 16.7 ms.
const SLICE_MS: f64 = 6.0;
