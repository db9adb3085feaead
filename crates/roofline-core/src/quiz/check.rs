//! Checking an answer against a part: the [`Verdict`], the reading of a
//! number, a formula or a choice against the part's answer and its likely
//! mistakes, and [`PartState`], one part's tries.

use std::fmt;

use crate::format;
use crate::small::Join;

use super::answer::{
    compare, factor_text, match_choice, read_formula, read_number, Comparison, Compiled,
};
use super::{AnswerKind, Expected, Part, Unit};

/// The verdict on one answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The answer is right.
    Right,
    /// The answer was read but is wrong; a hint to try again.
    Wrong {
        /// What to think about (the part's hint, or one aimed at the
        /// mistake made).
        hint: String,
    },
    /// Nearly the book's answer (for example the exact count where the
    /// book drops a small term); it does not count as a wrong try.
    Close {
        /// What the book counts, and why the difference is small.
        hint: String,
    },
    /// The answer could not be read; it does not count as a try.
    Unreadable {
        /// How to write it.
        message: String,
    },
}

impl Verdict {
    /// Whether the answer is right.
    pub fn is_right(&self) -> bool {
        matches!(self, Verdict::Right)
    }

    /// The text to show under the answer box.
    pub fn message(&self) -> String {
        match self {
            Verdict::Right => "Right.".to_string(),
            Verdict::Wrong { hint } => format!("Not quite. {hint}"),
            Verdict::Close { hint } => format!("Close. {hint}"),
            Verdict::Unreadable { message } => message.clone(),
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())
    }
}

fn within(x: f64, want: f64, tol: f64) -> bool {
    x.is_finite() && (x - want).abs() <= tol * want.abs()
}

fn wrong(hint: &str) -> Verdict {
    Verdict::Wrong {
        hint: hint.to_string(),
    }
}

/// Checks an answer to a part. Never panics; the messages never contain
/// "NaN" or "inf".
pub fn check(part: &Part, answer: &str) -> Verdict {
    let v = match (&part.kind, &part.expected) {
        (AnswerKind::Number { unit, rel_tol }, Expected::Number { value, also_accept }) => {
            check_number(part, answer, *unit, *rel_tol, *value, also_accept)
        }
        (AnswerKind::Formula { symbols }, Expected::Formula { expr, also_accept }) => {
            check_formula(part, answer, symbols, expr, also_accept)
        }
        (AnswerKind::Choice { options }, Expected::Choice(right)) => {
            match match_choice(options, answer) {
                Ok(i) if i == *right => Verdict::Right,
                Ok(i) => {
                    let targeted = part.mistakes.iter().find_map(|m| match m.answer {
                        Expected::Choice(j) if j == i => Some(m.hint.as_str()),
                        _ => None,
                    });
                    wrong(targeted.unwrap_or(&part.hint))
                }
                Err(message) => Verdict::Unreadable { message },
            }
        }
        _ => Verdict::Unreadable {
            message: "This part cannot be checked.".to_string(),
        },
    };
    scrub(v)
}

/// A last guard: no message shows "NaN" or "inf" as a word (an echo of a
/// learner's own text included).
fn scrub(v: Verdict) -> Verdict {
    match v {
        Verdict::Right => Verdict::Right,
        Verdict::Wrong { hint } => Verdict::Wrong {
            hint: scrub_text(&hint),
        },
        Verdict::Close { hint } => Verdict::Close {
            hint: scrub_text(&hint),
        },
        Verdict::Unreadable { message } => Verdict::Unreadable {
            message: scrub_text(&message),
        },
    }
}

/// Replaces the words `NaN`, `inf` and `infinity` (any case) with a dash.
pub(crate) fn scrub_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let w = word.to_ascii_lowercase();
        if w == "nan" || w == "inf" || w == "infinity" {
            out.push_str(format::MISSING);
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in s.chars() {
        if c.is_alphanumeric() {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

fn check_number(
    part: &Part,
    answer: &str,
    unit: Unit,
    tol: f64,
    value: f64,
    also: &[f64],
) -> Verdict {
    let read = match read_number(answer, unit) {
        Ok(r) => r,
        Err(message) => {
            // A formula where a number is wanted deserves a clearer word.
            let looks_symbolic = answer.chars().any(|c| c.is_alphabetic())
                && answer.chars().any(|c| c.is_ascii_digit())
                && answer.chars().filter(|c| c.is_alphabetic()).count() <= 6
                && answer.contains(['*', '/', '+', '^']);
            let message = if looks_symbolic {
                format!("This part wants a number, not a formula. {message}")
            } else {
                message
            };
            return Verdict::Unreadable { message };
        }
    };
    let x = read.value;
    if std::iter::once(value)
        .chain(also.iter().copied())
        .any(|w| within(x, w, tol))
    {
        return Verdict::Right;
    }
    for m in &part.mistakes {
        if let Expected::Number { value: mv, .. } = m.answer {
            if within(x, mv, tol) {
                return wrong(&m.hint);
            }
        }
    }
    if unit != Unit::None && !read.unit_given {
        let off_by_prefix = [1e-12, 1e-9, 1e-6, 1e-3, 1e3, 1e6, 1e9, 1e12]
            .iter()
            .any(|k| within(x * k, value, tol));
        if off_by_prefix {
            return wrong(&format!(
                "Check the unit: a number without one is read in {}. You can write the unit, as in {}.",
                unit.symbol(),
                unit.example()
            ));
        }
    }
    wrong(&part.hint)
}

fn check_formula(
    part: &Part,
    answer: &str,
    symbols: &[String],
    expr: &str,
    also: &[String],
) -> Verdict {
    let read = match read_formula(answer, symbols) {
        Ok(f) => f,
        Err(message) => return Verdict::Unreadable { message },
    };
    let compiled = match Compiled::new(&read.expr) {
        Ok(c) => c,
        Err(message) => return Verdict::Unreadable { message },
    };
    let mut factor = None;
    for (k, want) in std::iter::once(expr)
        .chain(also.iter().map(String::as_str))
        .enumerate()
    {
        let Ok(w) = read_formula(want, symbols).and_then(|f| Compiled::new(&f.expr)) else {
            continue;
        };
        match compare(&compiled, &w, symbols) {
            Ok(Comparison::Same) => return Verdict::Right,
            Ok(Comparison::Factor(f)) if k == 0 => factor = Some(f),
            Ok(_) => {}
            Err(message) => return Verdict::Unreadable { message },
        }
    }
    for m in &part.mistakes {
        if let Expected::Formula { expr: mexpr, .. } = &m.answer {
            if let Ok(mc) = read_formula(mexpr, symbols).and_then(|f| Compiled::new(&f.expr)) {
                if compare(&compiled, &mc, symbols) == Ok(Comparison::Same) {
                    if m.close {
                        return Verdict::Close {
                            hint: m.hint.clone(),
                        };
                    }
                    return wrong(&m.hint);
                }
            }
        }
    }
    let expected_uses_symbols = read_formula(expr, symbols)
        .map(|f| !f.used.is_empty())
        .unwrap_or(false);
    if read.used.is_empty() && expected_uses_symbols {
        return wrong(&format!(
            "Write the answer as a formula in {}, not as a single number. {}",
            symbols.joined(", "),
            part.hint
        ));
    }
    if let Some(k) = factor {
        return wrong(&format!(
            "Your formula has the right shape but is {} times the expected one: look for a missing or extra constant factor.",
            factor_text(k)
        ));
    }
    wrong(&part.hint)
}

/// One part's progress: tries, and whether the answer is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PartState {
    /// Wrong answers so far (unreadable ones do not count).
    pub wrong_tries: u32,
    /// Whether a right answer was given.
    pub solved: bool,
    /// Whether the learner asked to see the answer.
    pub revealed: bool,
}

impl PartState {
    /// After this many wrong tries the answer and solution are shown.
    pub const REVEAL_AFTER: u32 = 2;

    /// Checks an answer and records the try.
    pub fn submit(&mut self, part: &Part, answer: &str) -> Verdict {
        let v = check(part, answer);
        match v {
            Verdict::Right => self.solved = true,
            Verdict::Wrong { .. } => self.wrong_tries = self.wrong_tries.saturating_add(1),
            Verdict::Close { .. } | Verdict::Unreadable { .. } => {}
        }
        v
    }

    /// "Show answer".
    pub fn reveal(&mut self) {
        self.revealed = true;
    }

    /// Whether to show the expected answer and the worked solution.
    pub fn shows_solution(&self) -> bool {
        self.solved || self.revealed || self.wrong_tries >= Self::REVEAL_AFTER
    }
}
