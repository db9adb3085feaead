//! Reading a learner's answer: numbers with units, formulas, choices.
//!
//! Nothing here panics, whatever the text: every failure is an `Err` with a
//! message written for the learner (and never containing "NaN" or "inf").
//!
//! * `number`: numbers with units ([`parse_number`], [`Unit`]);
//! * `formula`: formulas in the question's symbols, evaluated with
//!   `evalexpr` ([`normalise_formula`], [`formulas_equivalent`]);
//! * `choice`: the options of a multiple-choice part ([`match_choice`]);
//! * `scan`: the character cursor numbers and formulas are read with.
//!
//! This file holds what all three share: the longest answer read and the
//! clean-up of the text.

mod choice;
mod formula;
mod number;
mod scan;

pub use choice::{match_choice, ChoiceOption};
pub use formula::{evaluate_formula, formulas_equivalent, normalise_formula, FORMULA_TOL, POINTS};
pub use number::{parse_number, Unit};

pub(crate) use formula::{compare, factor_text, read_formula, read_ratio, Comparison, Compiled};
pub(crate) use number::read_number;

/// The longest answer read; anything longer is refused with a message.
pub const MAX_ANSWER_CHARS: usize = 200;

fn clean(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\u{2212}' | '\u{2013}' | '\u{2012}' => '-',
            '\u{00A0}' | '\u{2009}' | '\u{202F}' | '\u{2007}' => ' ',
            c => c,
        })
        .collect()
}

fn too_long(text: &str) -> bool {
    text.chars().count() > MAX_ANSWER_CHARS
}
