//! Quiz mode: the chapter's practice questions and worked examples, and more
//! in the same spirit, with answer checking, hints, worked solutions and
//! variants with new numbers.
//!
//! A [`Question`] has a setup (the text with its numbers), one or more
//! [`Part`]s and a [`CalcSetup`] that loads the same scenario in the
//! calculator. Every expected answer is computed by this crate
//! ([`crate::analyze`], [`crate::critical_size`], [`crate::network()`], the
//! hardware presets) from the question's parameters.
//!
//! * [`ids`] lists the questions; [`question`] builds one. Seed `0` gives the
//!   book's own numbers; any other seed a variant whose parameters are drawn
//!   from sensible ranges with a small deterministic generator (splitmix64,
//!   fixed here so that a link with a seed always rebuilds the same
//!   variant). [`next_seed`] gives the seed for "New numbers".
//! * [`check`] reads an answer and returns a [`Verdict`]: right, wrong with
//!   a hint, or unreadable with a message saying how to write it. It never
//!   panics, whatever the text.
//! * [`PartState`] follows one part's attempts: after a second wrong try (or
//!   [`PartState::reveal`]) the expected answer and the worked solution are
//!   shown.
//!
//! Where the book changed a number between versions (the TPU v5e HBM
//! bandwidth, 8.1e11 then 8.2e11 bytes/s; the v6e peak rounded to 9.1e14 in
//! the roofline chapter; the H100's dense bf16 peak once given as 1e15), an
//! answer computed with either value passes when the question does not fix
//! it: see `also_accept` in [`Expected`].

mod answer;
mod bank;
mod numbers;
pub mod progress;

use std::fmt;

pub use answer::{
    evaluate_formula, formulas_equivalent, match_choice, normalise_formula, parse_number,
    ChoiceOption, Unit, FORMULA_TOL, MAX_ANSWER_CHARS, POINTS,
};

use crate::analysis::Scenario;
use crate::format;
use crate::op::{Operation, Sizes};
use crate::small::Join;
use crate::{Chip, CoreError, DType, LevelKind};

use answer::{compare, factor_text, read_formula, read_number, Comparison, Compiled};

/// A small deterministic generator (splitmix64). Its output for a given
/// seed is fixed forever, so quiz links with a seed always rebuild the same
/// variant.
#[derive(Debug, Clone)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// An index in `0..n` (0 if `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }
}

/// The seed for "New numbers" after `seed`: never 0 (0 is the book's own
/// numbers).
pub fn next_seed(seed: u64) -> u64 {
    let mut r = SplitMix::new(seed ^ 0xA5A5_5A5A_0F0F_F0F0);
    loop {
        // Keep seeds below 2^53 so they survive a trip through JavaScript.
        let s = r.next_u64() >> 11;
        if s != 0 {
            return s;
        }
    }
}

/// What kind of answer a part takes.
#[derive(Debug, Clone, PartialEq)]
pub enum AnswerKind {
    /// A number, right within a relative tolerance.
    Number {
        /// The unit; a number written without one is in this unit.
        unit: Unit,
        /// Relative tolerance: right if `|answer − expected| ≤ rel_tol × |expected|`.
        rel_tol: f64,
    },
    /// A formula in the question's symbols, right if equal to the expected
    /// one at many random points.
    Formula {
        /// The symbols the formula may use (`B`, `D`, `F`...).
        symbols: Vec<String>,
    },
    /// One of several options.
    Choice {
        /// The options, in the order shown.
        options: Vec<ChoiceOption>,
    },
}

/// The expected answer of a part.
#[derive(Debug, Clone, PartialEq)]
pub enum Expected {
    /// A number in the part's unit.
    Number {
        /// The answer with the numbers the question gives.
        value: f64,
        /// Answers that also pass: the same computation with a number the
        /// book used in another version, where the question does not fix it.
        also_accept: Vec<f64>,
    },
    /// A formula, as text in the part's symbols.
    Formula {
        /// The expected formula.
        expr: String,
        /// Other formulas that also pass (another version's constant).
        also_accept: Vec<String>,
    },
    /// The index of the right option.
    Choice(usize),
}

/// A likely mistake and the hint it deserves.
#[derive(Debug, Clone, PartialEq)]
pub struct Mistake {
    /// The wrong answer (a number within the part's tolerance of it, an
    /// equivalent formula or the option).
    pub answer: Expected,
    /// What to say.
    pub hint: String,
    /// A near miss: right in substance but not what the book counts (the
    /// exact operation count where the book rounds). Judged "close", not
    /// wrong, and not counted as a wrong try.
    pub close: bool,
}

/// One part of a question.
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    /// Short id, unique within the question (`a`, `b`, `d-math`...).
    pub id: String,
    /// What is asked.
    pub prompt: String,
    /// How the answer is read.
    pub kind: AnswerKind,
    /// The answer.
    pub expected: Expected,
    /// The answer as a learner could type it; it passes [`check`].
    pub expected_text: String,
    /// The first hint, given after a wrong answer.
    pub hint: String,
    /// The worked solution, one step per line, with the numbers.
    pub solution: Vec<String>,
    /// Likely mistakes with a targeted hint.
    pub mistakes: Vec<Mistake>,
    /// A calculator setup for this part when it differs from the question's.
    pub calc: Option<CalcSetup>,
}

/// Where a question comes from.
pub const SOURCE_PRACTICE: &str = "Practice question";
/// A worked example of the chapter.
pub const SOURCE_EXAMPLE: &str = "Worked example";
/// A question written for Roofline Lab.
pub const SOURCE_EXTRA: &str = "Roofline Lab extra";

/// A question: a setup and its parts.
#[derive(Debug, Clone, PartialEq)]
pub struct Question {
    /// Stable id used in links (`q1`, `ex-240`, `x-vmem`...).
    pub id: String,
    /// The seed of this variant (0: the book's numbers).
    pub seed: u64,
    /// A short title.
    pub title: String,
    /// Where it comes from: "Practice question 1", "Worked example" or
    /// "Roofline Lab extra".
    pub source: String,
    /// The question, with its numbers.
    pub setup: String,
    /// The parts, in order.
    pub parts: Vec<Part>,
    /// The scenario to open in the calculator.
    pub calc: CalcSetup,
}

impl Question {
    /// The part with this id.
    pub fn part(&self, id: &str) -> Option<&Part> {
        self.parts.iter().find(|p| p.id == id)
    }

    /// The calculator setup for a part: its own, else the question's.
    pub fn calc_for(&self, part_id: &str) -> &CalcSetup {
        self.part(part_id)
            .and_then(|p| p.calc.as_ref())
            .unwrap_or(&self.calc)
    }

    /// Whether these are the book's own numbers (seed 0).
    pub fn is_book(&self) -> bool {
        self.seed == 0
    }
}

/// A calculator setup: everything needed to load a question's scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct CalcSetup {
    /// Preset chip id (`v5e`, `h100`...).
    pub chip: String,
    /// The operation in the book's notation.
    pub op: String,
    /// Sizes of the dimensions.
    pub sizes: Sizes,
    /// The memory level the results are computed against.
    pub level: LevelKind,
    /// A second bandwidth line to draw for comparison, if any.
    pub level2: Option<LevelKind>,
    /// The data type the math runs at, if not the widest input's.
    pub compute: Option<DType>,
    /// Peaks that differ from the preset.
    pub peak_overrides: Vec<(DType, f64)>,
    /// Bandwidths that differ from the preset.
    pub bw_overrides: Vec<(LevelKind, f64)>,
    /// Number of chips: 1 for one chip, more for the network roofline.
    pub chips: u32,
    /// With several chips, the link the partial results travel over.
    pub link: Option<LevelKind>,
    /// With several chips, the contracted dimension that is split.
    pub shard_dim: Option<String>,
    /// The dimension the critical size is solved for (usually `B`).
    pub solve_for: Option<String>,
    /// (D, F) pairs for the batch-size chart; empty for the calculator's
    /// default.
    pub pairs: Vec<(f64, f64)>,
}

impl CalcSetup {
    /// A one-chip setup against `level`, solving for `B` if the operation
    /// has it. The operation is kept in canonical notation
    /// ([`Operation::notation`]) when it parses.
    pub fn new(chip: &str, op: &str, sizes: &[(&str, f64)], level: LevelKind) -> CalcSetup {
        let sizes: Sizes = crate::small::map_of(sizes.iter().map(|(k, v)| (k.to_string(), *v)));
        let solve_for = sizes.contains_key("B").then(|| "B".to_string());
        let op = Operation::parse(op).map_or_else(|_| op.to_string(), |o| o.notation());
        CalcSetup {
            chip: chip.to_string(),
            op,
            sizes,
            level,
            level2: None,
            compute: None,
            peak_overrides: Vec::new(),
            bw_overrides: Vec::new(),
            chips: 1,
            link: None,
            shard_dim: None,
            solve_for,
            pairs: Vec::new(),
        }
    }

    /// The chip: the preset with the overrides applied.
    pub fn chip(&self) -> Result<Chip, CoreError> {
        crate::hardware::customised(&self.chip, &self.peak_overrides, &self.bw_overrides)
    }

    /// The operation, parsed.
    pub fn operation(&self) -> Result<Operation, CoreError> {
        Ok(Operation::parse(&self.op)?)
    }

    /// The scenario the calculator shows.
    pub fn scenario(&self) -> Result<Scenario, CoreError> {
        let mut s = Scenario::new(
            self.chip()?,
            self.operation()?,
            self.sizes.clone(),
            self.level,
        );
        s.compute_dtype = self.compute;
        Ok(s)
    }

    /// The size of `dim`, or an error naming it.
    pub fn size(&self, dim: &str) -> Result<f64, CoreError> {
        self.sizes
            .get(dim)
            .copied()
            .ok_or_else(|| CoreError::Invalid(format!("the setup gives no size for {dim}")))
    }

    /// A copy with `dim` set to `value`.
    pub fn with_size(&self, dim: &str, value: f64) -> CalcSetup {
        let mut c = self.clone();
        c.sizes.insert(dim.to_string(), value);
        c
    }
}

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

/// The id of every question, in the order of the chapter, then the extras.
pub fn ids() -> Vec<&'static str> {
    bank::BANK.iter().map(|(id, _, _)| *id).collect()
}

/// The question `id` with the numbers of `seed` (0: the book's own). `None`
/// if there is no such question.
pub fn question(id: &str, seed: u64) -> Option<Question> {
    let &(id, title, builder) = bank::BANK.iter().find(|(i, _, _)| *i == id)?;
    bank::build(id, title, builder, seed)
}

/// Each question's id, title and number of parts, without building any
/// (the quiz's list of questions; building all of them took about 30 ms
/// in the browser). The parts come from [`OUTLINE`], which a test keeps
/// equal to the bank for every seed.
pub fn contents() -> Vec<(&'static str, &'static str, u32)> {
    bank::BANK
        .iter()
        .map(|&(id, title, _)| {
            let parts = OUTLINE
                .iter()
                .find(|(i, _)| *i == id)
                .map_or(0, |(_, n)| *n);
            (id, title, parts)
        })
        .collect()
}

/// Each question's id and number of parts, built from the bank (every
/// question is built). The app checks links against [`OUTLINE`], its
/// written-out copy; tests keep the two equal.
pub fn index() -> Vec<(&'static str, u32)> {
    ids()
        .into_iter()
        .filter_map(|id| question(id, 0).map(|q| (id, q.parts.len() as u32)))
        .collect()
}

/// Each question's id and number of parts, written out rather than built:
/// the app checks an opening link against it
/// ([`crate::url::decode_with`]) without the question bank, whose code the
/// web app downloads only when the quiz is opened. A test keeps it equal to
/// [`index`] for every seed.
pub const OUTLINE: &[(&str, u32)] = &[
    ("ex-dot", 4),
    ("ex-240", 4),
    ("ex-net", 4),
    ("q1", 11),
    ("q2", 3),
    ("q3", 3),
    ("q4", 3),
    ("q5", 3),
    ("x-fp8", 4),
    ("x-vmem", 4),
    ("x-pcie", 4),
    ("x-add", 4),
    ("x-small", 4),
    ("x-time", 4),
    ("x-v6e", 3),
    ("x-int4", 3),
];

/// Every question with the book's numbers.
pub fn bank() -> Vec<Question> {
    ids().into_iter().filter_map(|id| question(id, 0)).collect()
}
