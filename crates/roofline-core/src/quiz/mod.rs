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
//! * [`check`] reads an answer and returns a [`Verdict`]: right (with a
//!   note where it deserves one), wrong with a hint, close, or unreadable
//!   with a message saying how to write it. It never panics, whatever the
//!   text. A part's [`Mistake`]s name what a likely wrong answer gets
//!   wrong, its [`Growth`] what an answer growing with a size it does not
//!   depend on misses, and its [`Note`]s what an accepted answer from
//!   another version of the book used.
//! * [`PartState`] follows one part's attempts: after a second wrong try (or
//!   [`PartState::reveal`]) the expected answer and the worked solution are
//!   shown.
//!
//! Where the book changed a number between versions (the TPU v5e HBM
//! bandwidth, 8.1e11 then 8.2e11 bytes/s; the v6e peak rounded to 9.1e14 in
//! the roofline chapter; the H100's dense bf16 peak once given as 1e15), an
//! answer computed with either value passes when the question does not fix
//! it: see `also_accept` in [`Expected`]; a [`Note`] says which number it
//! used and what the book uses now.

mod answer;
mod bank;
mod check;
pub(crate) mod link;
pub use link::{read_query, state_text};
mod numbers;
pub mod progress;
mod scale_setup;
mod setup;
pub mod shelf;
mod slip;

pub use check::{check, PartState, Verdict};
pub use scale_setup::ScaleSetup;
pub use shelf::{shelf_of, Shelf};

pub use answer::{
    evaluate_formula, formulas_equivalent, match_choice, normalise_formula, parse_number,
    ChoiceOption, Unit, FORMULA_TOL, MAX_ANSWER_CHARS, POINTS,
};

use crate::analysis::Scenario;
use crate::model::ModelState;
use crate::op::{Operation, Sizes};
use crate::pages::{AppState, View};
use crate::state::QuizState;
use crate::{Chip, CoreError, DType, LevelKind};

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

/// An accepted answer that deserves a word: the same computation with a
/// number the book used in another version (v5e's HBM at 8.1e11 bytes/s).
/// The verdict is [`Verdict::RightWithNote`] with the text.
#[derive(Debug, Clone, PartialEq)]
pub struct Note {
    /// The accepted answer (one of the part's `also_accept`).
    pub answer: Expected,
    /// What to say: which number it used, what the book uses now and
    /// what that gives.
    pub text: String,
}

/// What to say to an answer that grows with a size the part's answer does
/// not depend on (question 4's `2B²`, where B cancels): a formula, typed
/// in a formula part or in a number part, that grows with `dim`.
#[derive(Debug, Clone, PartialEq)]
pub struct Growth {
    /// The size it must not grow with (`B`).
    pub dim: String,
    /// The concept it misses.
    pub hint: String,
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
    /// Notes on accepted answers (another version's number).
    pub notes: Vec<Note>,
    /// What to say to an answer that grows with a size this answer does
    /// not depend on.
    pub grows: Option<Growth>,
    /// The question's sizes (`B`, `D`, `F`...) for this part: a formula
    /// typed where a number is asked is read in these symbols and
    /// evaluated at these values.
    pub sizes: Vec<(String, f64)>,
    /// A calculator setup for this part when it differs from the question's.
    pub calc: Option<CalcSetup>,
}

/// Where a question comes from.
pub const SOURCE_PRACTICE: &str = "Practice question";
/// A worked example of the chapter.
pub const SOURCE_EXAMPLE: &str = "Worked example";
/// A question written for Roofline Lab.
pub const SOURCE_EXTRA: &str = "Roofline Lab extra";
/// A question asked in the middle of a chapter's text.
pub const SOURCE_POP: &str = "Pop quiz";

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
    /// The scenario to open in the calculator. A question with a
    /// [`Question::model`] opens the Model page instead, with this setup's
    /// chip and chip count.
    pub calc: CalcSetup,
    /// The Model page's state for a question on a whole model (Parts 4 and
    /// 7), whose answer that page computes; `None` opens the calculator.
    pub model: Option<ModelState>,
    /// The Scale page's state for a question on a mesh of chips (Parts 3,
    /// 5 and 6), whose answer that page computes; it opens that page with
    /// the setup's chip and sizes and the [`Question::model`]'s model.
    pub scale: Option<ScaleSetup>,
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

    /// The page that computes the answer of part `index` (from 0), with
    /// the question's numbers: the Scale page with [`Question::scale`]
    /// (the part's state, the setup's chip and sizes, the model), else the
    /// Model page with [`Question::model`]
    /// (the setup's chip and chip count), else the calculator with the
    /// part's setup. The link keeps the quiz's place.
    pub fn opening(&self, index: usize) -> AppState {
        let part_id = self.parts.get(index).map_or("", |p| p.id.as_str());
        let quiz = state_text(&QuizState {
            question: self.id.clone(),
            part: u32::try_from(index + 1).unwrap_or(1),
            seed: self.seed,
        });
        if let Some(s) = &self.scale {
            return s.opening(self, part_id, quiz);
        }
        match &self.model {
            Some(m) => AppState {
                view: View::Model,
                calc: self.calc.calc_state(),
                model: crate::model::state_text(m),
                quiz,
                ..AppState::default()
            },
            None => AppState {
                view: View::Calculator,
                calc: self.calc_for(part_id).calc_state(),
                quiz,
                ..AppState::default()
            },
        }
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

/// The id of every question, by chapter in the order of [`CHAPTERS`], and
/// in the bank's order within a chapter.
pub fn ids() -> Vec<&'static str> {
    by_chapter()
        .into_iter()
        .flat_map(|c| c.questions.into_iter().map(|(id, _, _)| id))
        .collect()
}

/// The question `id` with the numbers of `seed` (0: the book's own). `None`
/// if there is no such question. It reaches every shelf's builders: the
/// web app calls the shelf's own function instead ([`shelf`]).
pub fn question(id: &str, seed: u64) -> Option<Question> {
    shelf::any(id, seed)
}

/// Each question's id, title and number of parts, without building any
/// (the quiz's list of questions; building all of them took about 30 ms
/// in the browser). The parts come from [`OUTLINE`], which a test keeps
/// equal to the bank for every seed.
pub fn contents() -> Vec<(&'static str, &'static str, u32)> {
    bank::BANK
        .iter()
        .map(|&(id, title)| {
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
    ("p2-q1", 2),
    ("p2-q2", 8),
    ("p2-q3", 3),
    ("p2-q4", 2),
    ("p2-q5", 2),
    ("p2-q6", 5),
    ("p2-pop1", 3),
    ("p3-pop1", 2),
    ("p3-pop2", 2),
    ("p3-pop3", 3),
    ("p3-q1", 1),
    ("p3-q2", 3),
    ("p3-q3", 2),
    ("p3-q4", 3),
    ("p3-q5", 6),
    ("p3-q6", 6),
    ("p3-q7", 6),
    ("p3-q8", 5),
    ("p3-q9", 4),
    ("p3-q10", 4),
    ("p4-q1", 3),
    ("p4-q2", 3),
    ("p4-q3", 2),
    ("p4-q4", 4),
    ("p4-q5", 1),
    ("p4-q6", 2),
    ("p4-q7", 1),
    ("p4-q8", 2),
    ("p5-q1", 3),
    ("p5-q2", 2),
    ("p5-q3", 6),
    ("p6-pop1", 2),
    ("p6-pop2", 4),
    ("p6-pop5", 3),
    ("p6-pop7", 4),
    ("p6-pop9", 4),
    ("p6-q1", 3),
    ("p6-q2", 7),
    ("p7-pop1", 2),
    ("p7-q1", 2),
    ("p7-q2", 3),
    ("p7-q3", 1),
    ("p7-q4", 5),
    ("p7-q5", 5),
    ("p7-q6", 3),
    ("p7-q7", 3),
    ("p8-pop1", 4),
    ("p8-pop2", 2),
    ("p8-pop3", 3),
    ("p8-pop4", 3),
    ("p8-pop5", 3),
    ("p8-pop6", 1),
    ("p8-q1", 4),
    ("p8-q2", 4),
    ("p8-q3", 6),
    ("p12-q1-1", 4),
    ("p12-q1-2", 3),
    ("p12-q1-3", 4),
    ("p12-q1-4", 2),
    ("p12-q1-5", 4),
    ("p12-q1-6", 2),
    ("p12-q1-7", 5),
    ("p12-q2-1", 3),
    ("p12-q2-2", 2),
    ("p12-q2-3", 3),
    ("p12-q3-1", 5),
    ("p12-q3-2", 5),
    ("p12-pop1", 1),
    ("p12-pop2", 3),
    ("p12-pop3", 3),
    ("p12-q4-1", 4),
    ("p12-q4-2", 3),
    ("p12-q4-3", 2),
    ("p12-q4-4", 2),
    ("p12-q4-5", 3),
    ("p12-q5-1", 3),
    ("p12-q5-2", 8),
    ("p12-q5-3", 6),
];

/// The chapters the questions follow: the id that prefixes their
/// questions' ids (`p4` for `p4-q1`) and a title. Part 1's questions keep
/// their first ids (`q1`, `ex-240`, `x-vmem`), which name no chapter.
pub const CHAPTERS: &[(&str, &str)] = &[
    ("p1", "Part 1: Rooflines"),
    ("p2", "Part 2: TPUs"),
    ("p3", "Part 3: Sharded matrices"),
    ("p4", "Part 4: Transformers"),
    ("p5", "Part 5: Training"),
    ("p6", "Part 6: Training LLaMA 3"),
    ("p7", "Part 7: Inference"),
    ("p8", "Part 8: Serving LLaMA 3"),
    ("p12", "Part 12: GPUs"),
];

/// The chapter of question `id`: the `pN` of a `pN-…` id when it is a
/// chapter, else Part 1's (the first ids).
pub fn chapter_of(id: &str) -> &'static str {
    let first = CHAPTERS[0].0;
    id.split_once('-')
        .and_then(|(head, _)| CHAPTERS.iter().find(|(c, _)| *c == head))
        .map_or(first, |(c, _)| c)
}

/// The questions of each chapter, in the order of [`CHAPTERS`]: the
/// chapter's id and title, then each question's id, title and number of
/// parts ([`contents`]), without building any.
pub fn by_chapter() -> Vec<ChapterContents> {
    let all = contents();
    CHAPTERS
        .iter()
        .map(|&(id, title)| ChapterContents {
            id,
            title,
            questions: all
                .iter()
                .filter(|(q, _, _)| chapter_of(q) == id)
                .copied()
                .collect(),
        })
        .collect()
}

/// A chapter's questions, as the quiz lists them.
#[derive(Debug, Clone, PartialEq)]
pub struct ChapterContents {
    /// The chapter's id (`p4`).
    pub id: &'static str,
    /// Its title.
    pub title: &'static str,
    /// Each question's id, title and number of parts.
    pub questions: Vec<(&'static str, &'static str, u32)>,
}

/// Every question with the book's numbers.
pub fn bank() -> Vec<Question> {
    ids().into_iter().filter_map(|id| question(id, 0)).collect()
}
