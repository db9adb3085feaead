//! The app's state as signals, declared once: [`Signals::new`] makes them
//! from an [`AppState`], [`Signals::set`] replaces them all (back and
//! forward), and [`Signals::state`] reads them back for the link.
//!
//! The calculator's part is its fields' text ([`CalcInput`]), read back
//! through the last valid evaluation ([`Calc`]); every other page's state
//! is a signal of its own type, listed once in `page_signals!` below.

use std::sync::Arc;

use leptos::prelude::*;
use roofline_core::calc::{evaluate, CalcInput, CalcView};
use roofline_core::pages::{AppState, View};
use roofline_core::state::{CalcState, ChartScale};

/// The calculator's signals, and the memos that evaluate them.
#[derive(Clone, Copy)]
pub struct Calc {
    /// The fields as typed.
    pub input: RwSignal<CalcInput>,
    /// The batch chart's (D, F) pairs.
    pub pairs: RwSignal<Vec<(f64, f64)>>,
    /// Whether the batch chart's axes are logarithmic.
    pub batch_log: RwSignal<bool>,
    /// Whether the roofline chart's axes are logarithmic.
    pub roofline_log: RwSignal<bool>,
    /// The evaluation of `input`, behind an `Arc`: a memo's `get` then
    /// copies a pointer, not the whole view.
    pub view: Memo<Arc<CalcView>>,
    /// The last evaluation that produced results: shown while a field is
    /// invalid.
    pub results: Memo<Arc<CalcView>>,
    /// Whether `results` is older than the fields (one is invalid).
    pub stale: Memo<bool>,
    /// The text pasted into the measurements panel (not in the link: the
    /// kernels read from it are, in `points`).
    pub pasted: RwSignal<String>,
}

impl Calc {
    fn new(s: &CalcState) -> Calc {
        let input = RwSignal::new(CalcInput::from_state(s));
        let view = Memo::new(move |_| Arc::new(input.with(evaluate)));
        let results = Memo::new(move |prev: Option<&Arc<CalcView>>| {
            let v = view.get();
            match (v.analysis.is_some(), prev) {
                (false, Some(p)) => p.clone(),
                _ => v,
            }
        });
        Calc {
            input,
            pairs: RwSignal::new(s.pairs.clone()),
            batch_log: RwSignal::new(s.batch_scale == ChartScale::Log),
            roofline_log: RwSignal::new(s.roofline_scale == ChartScale::Log),
            view,
            results,
            stale: Memo::new(move |_| view.with(|v| v.analysis.is_none())),
            pasted: RwSignal::new(String::new()),
        }
    }

    /// Subscribes the running effect to every signal [`Calc::state`] reads.
    fn track(&self) {
        self.input.track();
        self.pairs.track();
        self.batch_log.track();
        self.roofline_log.track();
        // Read, not only tracked: a memo's `track` does not compute it, and
        // its first computation later would count as a change.
        self.results.with(|_| ());
    }

    fn set(&self, s: &CalcState) {
        self.input.set(CalcInput::from_state(s));
        self.pairs.set(s.pairs.clone());
        self.batch_log.set(s.batch_scale == ChartScale::Log);
        self.roofline_log.set(s.roofline_scale == ChartScale::Log);
    }

    /// The state on screen: the last valid evaluation's, or `None` before
    /// there is one.
    fn state(&self) -> Option<CalcState> {
        let scale = |log: bool| {
            if log {
                ChartScale::Log
            } else {
                ChartScale::Linear
            }
        };
        let (bs, rs) = (scale(self.batch_log.get()), scale(self.roofline_log.get()));
        self.input.with(|i| {
            self.pairs
                .with(|p| self.results.with(|v| v.to_state(i, p, bs, rs)))
        })
    }
}

/// Declares the signal of each field of [`AppState`] other than the
/// calculator's, and the three ways through them, from one list.
macro_rules! page_signals {
    ($($(#[$doc:meta])* $field:ident: $ty:ty),* $(,)?) => {
        /// One signal per field of [`AppState`] (the calculator's are [`Calc`]).
        #[derive(Clone, Copy)]
        pub struct Signals {
            /// The calculator's fields and their evaluation.
            pub calc: Calc,
            $($(#[$doc])* pub $field: RwSignal<$ty>,)*
            /// Bumped when the whole state is replaced (back / forward), so
            /// that fields holding their own text take the new values.
            pub epoch: RwSignal<u32>,
        }

        impl Signals {
            /// The signals of `s`.
            pub fn new(s: &AppState) -> Signals {
                Signals {
                    calc: Calc::new(&s.calc),
                    $($field: RwSignal::new(s.$field.clone()),)*
                    epoch: RwSignal::new(0),
                }
            }

            /// Subscribes the running effect to every signal
            /// [`Signals::state`] reads (the address's writer).
            pub fn track(&self) {
                self.calc.track();
                $(self.$field.track();)*
            }

            /// Replaces every value by `s`'s (back / forward).
            pub fn set(&self, s: &AppState) {
                self.calc.set(&s.calc);
                $(self.$field.set(s.$field.clone());)*
                self.epoch.update(|e| *e += 1);
            }

            /// The state on screen, with `prev`'s calculator while no
            /// evaluation has been valid yet.
            pub fn state(&self, prev: Option<&AppState>) -> AppState {
                let calc = self
                    .calc
                    .state()
                    .or_else(|| prev.map(|p| p.calc.clone()))
                    .unwrap_or_default();
                AppState {
                    calc,
                    $($field: self.$field.get(),)*
                }
            }
        }
    };
}

page_signals! {
    /// Which page is open.
    view: View,
    /// Measured kernels: their link form.
    points: String,
    /// The Learn page's open step.
    step: u32,
    /// The quiz's question, part and seed: their keys' link text (the quiz
    /// chunk reads its state from it).
    quiz: String,
    /// The Model page's state (its chip and chip count are the calculator's).
    model: String,
    /// The Scale page's keys, in a link's text (the Scale chunk reads its
    /// state from them).
    scale: String,
}
