//! Checking an answer against a part: the [`Verdict`], the reading of a
//! number, a formula or a choice, the part's likely mistakes and the notes
//! on answers it accepts, and [`PartState`], one part's tries.
//!
//! A number part that receives a formula in the question's symbols (`2B²`,
//! `B*2BDF`) is not refused as a format error: the formula is diagnosed.
//! If it grows with a size the answer does not depend on, the part's
//! [`Growth`] hint says why; if its value at the question's sizes is a
//! mistake's, that mistake's hint; if it is the answer, the verdict is
//! [`Verdict::Close`] (right in substance, not counted as a try) and asks
//! for the value; otherwise the message says that the part wants a number
//! and what the formula comes to. A formula is never accepted where a
//! number is asked: the parts that take formulas say so.

use std::fmt;

use crate::format;
use crate::small::Join;

use super::answer::{
    compare, factor_text, match_choice, read_formula, read_number, Comparison, Compiled,
};
use super::slip::{ratio_slip, RatioSlip};
use super::{AnswerKind, Expected, Growth, Part, Unit};

/// The verdict on one answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The answer is right.
    Right,
    /// The answer is right, and deserves a word: it uses a number an older
    /// version of the book used, say. Counts as solved, like [`Verdict::Right`].
    RightWithNote {
        /// What to say about it.
        note: String,
    },
    /// The answer was read but is wrong; a hint to try again.
    Wrong {
        /// What to think about (the part's hint, or one aimed at the
        /// mistake made).
        hint: String,
    },
    /// Nearly the book's answer (for example the exact count where the
    /// book drops a small term, or the right formula where a number is
    /// asked); it does not count as a wrong try.
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
    /// Whether the answer is right (with or without a note).
    pub fn is_right(&self) -> bool {
        matches!(self, Verdict::Right | Verdict::RightWithNote { .. })
    }

    /// The text to show under the answer box.
    pub fn message(&self) -> String {
        match self {
            Verdict::Right => "Right.".to_string(),
            Verdict::RightWithNote { note } => format!("Right. {note}"),
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

pub(crate) fn within(x: f64, want: f64, tol: f64) -> bool {
    x.is_finite() && (x - want).abs() <= tol * want.abs()
}

fn wrong(hint: &str) -> Verdict {
    Verdict::Wrong {
        hint: hint.to_string(),
    }
}

/// The verdict a mistake gives: close or wrong, with its hint.
fn mistaken(hint: &str, close: bool) -> Verdict {
    if close {
        Verdict::Close {
            hint: hint.to_string(),
        }
    } else {
        wrong(hint)
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
                        Expected::Choice(j) if j == i => Some((m.hint.as_str(), m.close)),
                        _ => None,
                    });
                    match targeted {
                        Some((hint, close)) => mistaken(hint, close),
                        None => wrong(&part.hint),
                    }
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
        Verdict::RightWithNote { note } => Verdict::RightWithNote {
            note: scrub_text(&note),
        },
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

/// The verdict on `x` if it is an accepted value: `Right`, or
/// `RightWithNote` when the nearest accepted value is one a note is about.
fn accepted(part: &Part, x: f64, tol: f64, value: f64, also: &[f64]) -> Option<Verdict> {
    let distance = |w: f64| (x - w).abs() / w.abs().max(f64::MIN_POSITIVE);
    let nearest = std::iter::once(value)
        .chain(also.iter().copied())
        .filter(|w| within(x, *w, tol))
        .min_by(|a, b| distance(*a).total_cmp(&distance(*b)))?;
    let note = part.notes.iter().find_map(|n| match n.answer {
        Expected::Number { value: nv, .. } if nearest != value && within(nearest, nv, 1e-9) => {
            Some(n.text.clone())
        }
        _ => None,
    });
    Some(match note {
        Some(note) => Verdict::RightWithNote { note },
        None => Verdict::Right,
    })
}

/// The hint of the first numeric mistake `x` is, if any.
fn number_mistake(part: &Part, x: f64, tol: f64) -> Option<Verdict> {
    part.mistakes.iter().find_map(|m| match m.answer {
        Expected::Number { value, .. } if within(x, value, tol) => Some(mistaken(&m.hint, m.close)),
        _ => None,
    })
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
        Err(message) => return formula_for_number(part, answer, unit, tol, (value, also), message),
    };
    let x = read.value;
    if let Some(v) = accepted(part, x, tol, value, also) {
        return v;
    }
    if let Some(v) = number_mistake(part, x, tol) {
        return v;
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

/// The question's sizes as text: `B = 64, D = 4096, F = 4096`.
fn sizes_text(sizes: &[(String, f64)]) -> String {
    sizes
        .iter()
        .map(|(k, v)| format!("{k} = {}", format::sci(*v)))
        .collect::<Vec<_>>()
        .joined(", ")
}

/// A value in a part's unit, for a message.
pub(crate) fn value_text(x: f64, unit: Unit) -> String {
    match unit {
        Unit::None => format::sci(x),
        Unit::FlopsPerByte => format!("{} FLOPs/byte", format::sci(x)),
        Unit::Seconds => format::seconds(x),
        Unit::Bytes => format::bytes(x),
        Unit::Flops => format::flops(x),
        Unit::FlopsPerSecond => format::flops_rate(x),
        Unit::BytesPerSecond => format::bandwidth(x),
    }
}

/// Whether `f` grows with `dim` at `sizes`: larger at twice and four
/// times `dim`, the other sizes kept.
fn grows_with(f: &Compiled, sizes: &[(String, f64)], dim: &str) -> bool {
    if !sizes.iter().any(|(k, _)| k == dim) {
        return false;
    }
    let at = |k: f64| {
        let pt: Vec<(String, f64)> = sizes
            .iter()
            .map(|(s, v)| (s.clone(), if s == dim { v * k } else { *v }))
            .collect();
        f.eval(&pt).ok().filter(|x| x.is_finite())
    };
    match (at(1.0), at(2.0), at(4.0)) {
        (Some(a), Some(b), Some(c)) => {
            let up = |lo: f64, hi: f64| hi - lo > 1e-6 * lo.abs().max(hi.abs());
            up(a, b) && up(b, c)
        }
        _ => false,
    }
}

/// The growth hint if `f` grows with the part's [`Growth`] dimension.
fn growth_hint<'a>(part: &'a Part, f: &Compiled) -> Option<&'a Growth> {
    part.grows
        .as_ref()
        .filter(|g| grows_with(f, &part.sizes, &g.dim))
}

/// A number part that received text it could not read as a number: read
/// it as a formula in the question's symbols and diagnose it (see the
/// module documentation), else explain how to write a number.
fn formula_for_number(
    part: &Part,
    answer: &str,
    unit: Unit,
    tol: f64,
    (value, also): (f64, &[f64]),
    message: String,
) -> Verdict {
    let looks_symbolic = answer.chars().any(|c| c.is_alphabetic())
        && answer.chars().any(|c| c.is_ascii_digit())
        && answer.chars().filter(|c| c.is_alphabetic()).count() <= 6
        && answer.contains(['*', '/', '+', '^']);
    let refused = |message: String| Verdict::Unreadable {
        message: if looks_symbolic {
            format!("This part wants a number, not a formula. {message}")
        } else {
            message
        },
    };
    let symbols: Vec<String> = part.sizes.iter().map(|(k, _)| k.clone()).collect();
    let Some((read, f)) = read_formula(answer, &symbols)
        .ok()
        .filter(|r| !r.used.is_empty())
        .and_then(|r| Compiled::new(&r.expr).ok().map(|f| (r, f)))
    else {
        return refused(message);
    };
    if let Some(g) = growth_hint(part, &f) {
        return wrong(&g.hint);
    }
    for m in &part.mistakes {
        if let Expected::Formula { expr, .. } = &m.answer {
            let same = read_formula(expr, &symbols)
                .and_then(|e| Compiled::new(&e.expr))
                .and_then(|e| compare(&f, &e, &symbols));
            if same == Ok(Comparison::Same) {
                return mistaken(&m.hint, m.close);
            }
        }
    }
    let sizes = sizes_text(&part.sizes);
    let x = match f.eval(&part.sizes) {
        Ok(x) if x.is_finite() => x,
        _ => {
            return Verdict::Unreadable {
                message: format!(
                    "This part wants a number, not a formula, and yours in {} cannot be evaluated at the question's sizes ({sizes}).",
                    read.used.joined(", ")
                ),
            }
        }
    };
    if accepted(part, x, tol, value, also).is_some() {
        return Verdict::Close {
            hint: format!(
                "Right formula; now give its value with the question's numbers ({sizes})."
            ),
        };
    }
    if let Some(v) = number_mistake(part, x, tol) {
        return v;
    }
    Verdict::Unreadable {
        message: format!(
            "This part wants a number, not a formula. With the question's sizes ({sizes}) yours comes to {}, which is not the answer. {}",
            value_text(x, unit),
            part.hint
        ),
    }
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
    let same_as = |want: &str| -> Result<Comparison, String> {
        let w = read_formula(want, symbols).and_then(|f| Compiled::new(&f.expr))?;
        compare(&compiled, &w, symbols)
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
            Ok(Comparison::Same) if k == 0 => return Verdict::Right,
            Ok(Comparison::Same) => {
                let note = part.notes.iter().find_map(|n| match &n.answer {
                    Expected::Formula { expr: ne, .. } if same_as(ne) == Ok(Comparison::Same) => {
                        Some(n.text.clone())
                    }
                    _ => None,
                });
                return match note {
                    Some(note) => Verdict::RightWithNote { note },
                    None => Verdict::Right,
                };
            }
            Ok(Comparison::Factor(f)) if k == 0 => factor = Some(f),
            Ok(_) => {}
            Err(message) => return Verdict::Unreadable { message },
        }
    }
    // The operations on top right and the bytes not: say so before any
    // mistake's hint, which may be about the operations.
    let slip = ratio_slip(answer, expr, symbols);
    let mut before = String::new();
    match slip {
        Some(RatioSlip::Bytes(message)) => {
            // Bytes that make the intensity grow with a size it does not
            // depend on: the concept, without the part's words on the
            // operations (they are right).
            let grows = growth_hint(part, &compiled).map_or_else(String::new, |g| {
                format!(
                    " With these bytes your intensity grows with {d}; this one does not: its bytes grow with {d} as fast as its operations, and {d} cancels.",
                    d = g.dim
                )
            });
            return wrong(&format!("{message}{grows}"));
        }
        Some(RatioSlip::Operations(message)) => before = message + " ",
        None => {}
    }
    let wrong = |hint: &str| wrong(&format!("{before}{hint}"));
    let mistaken = |hint: &str, close: bool| {
        if before.is_empty() {
            mistaken(hint, close)
        } else {
            wrong(hint)
        }
    };
    for m in &part.mistakes {
        if let Expected::Formula { expr: mexpr, .. } = &m.answer {
            if same_as(mexpr) == Ok(Comparison::Same) {
                return mistaken(&m.hint, m.close);
            }
        }
    }
    if let Some(g) = growth_hint(part, &compiled) {
        return wrong(&g.hint);
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
            Verdict::Right | Verdict::RightWithNote { .. } => self.solved = true,
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
