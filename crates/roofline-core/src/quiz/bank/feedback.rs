//! The feedback the questions share, worded from each question's own
//! operation, chip and numbers (nothing pasted):
//!
//! * the numbers other versions of the book used ([`Era`]): answers from
//!   them pass, with a note saying which number they used and what the
//!   book uses now;
//! * the FLOP-count slips: twice the FLOPs (the data type taken for the
//!   factor 2) and half of them (the add forgotten), on every part whose
//!   answer follows from the FLOP count;
//! * the sparse peak of a spec sheet, on every part whose answer follows
//!   from the peak of a chip that quotes one;
//! * an answer that grows with a size the answer does not depend on.

use crate::analysis::{flops_term, Term};
use crate::op::{OpKind, Operation};
use crate::quiz::{AnswerKind, Expected, Growth, Mistake, Note, Part};
use crate::small::Join;
use crate::{CoreError, DType, LevelKind};

use super::setup::analysis;
use super::texts::{bw_text, lower_first, rate_text};
use crate::quiz::CalcSetup;

use LevelKind::{Hbm, Vmem};

/// A number the book used in another version, where a question does not
/// fix it.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Era {
    /// The number then: "the older HBM bandwidth, 8.1e11 bytes/s".
    then: String,
    /// The number now: "the book now uses 8.2e11 bytes/s".
    now: String,
}

impl Era {
    /// An era from its two descriptions.
    pub(super) fn new(then: String, now: String) -> Era {
        Era { then, now }
    }

    /// Both eras' numbers at once (a ratio of two chips' answers).
    pub(super) fn and(&self, other: &Era) -> Era {
        Era {
            then: format!("{} and {}", self.then, other.then),
            now: format!("{}, and {}", self.now, other.now),
        }
    }

    /// The note on an answer from this era; `gives` is what the book's
    /// number gives, if worth saying.
    pub(super) fn note(&self, gives: Option<&str>) -> String {
        match gives {
            Some(g) => format!(
                "That is the answer with {}; {}, which gives {g}.",
                self.then, self.now
            ),
            None => format!("That uses {}; {}.", self.then, self.now),
        }
    }
}

/// Setups with the numbers other versions of the book used, where the
/// question does not fix them, each with its [`Era`]: TPU v5e HBM at 8.1e11
/// bytes/s, TPU v6e bf16 at 9.1e14 FLOPs/s (the roofline chapter's
/// rounding).
pub(super) fn eras(c: &CalcSetup) -> Vec<(CalcSetup, Era)> {
    let mut out = Vec::new();
    let Ok(chip) = c.chip() else {
        return out;
    };
    let uses_hbm = c.level == Hbm || c.level == Vmem;
    if c.chip == "v5e" && uses_hbm && !c.bw_overrides.iter().any(|(k, _)| *k == Hbm) {
        if let Ok(now) = chip.bandwidth(Hbm) {
            let mut alt = c.clone();
            alt.bw_overrides.push((Hbm, 8.1e11));
            let era = Era::new(
                format!("the older {} HBM bandwidth, {}", chip.name, bw_text(8.1e11)),
                format!("the book now uses {}", bw_text(now)),
            );
            out.push((alt, era));
        }
    }
    if c.chip == "v6e" && !c.peak_overrides.iter().any(|(d, _)| *d == DType::Bf16) {
        if let Ok(now) = chip.peak(DType::Bf16) {
            let mut alt = c.clone();
            alt.peak_overrides.push((DType::Bf16, 9.1e14));
            let era = Era::new(
                format!(
                    "the roofline chapter's rounded {} bf16 peak, {}",
                    chip.name,
                    rate_text(9.1e14, DType::Bf16)
                ),
                format!(
                    "the TPU chapter's table gives {}",
                    rate_text(now, DType::Bf16)
                ),
            );
            out.push((alt, era));
        }
    }
    out
}

/// The sentence a question's setup adds when another version's number
/// passes too.
pub(super) fn era_note(c: &CalcSetup) -> String {
    if c.chip == "v5e" && (c.level == Hbm || c.level == Vmem) {
        " Earlier versions of the book used 8.1e11 bytes/s for the v5e's HBM; answers from either value pass.".to_string()
    } else if c.chip == "v6e" {
        " The roofline chapter rounds the v6e's bf16 peak to 9.1e14 FLOPs/s; answers from either value pass.".to_string()
    } else {
        String::new()
    }
}

/// A numeric answer and the values other versions' numbers give, each
/// with its era.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Answers {
    /// The answer with the numbers the question gives.
    pub value: f64,
    /// Answers that also pass, and the era each comes from.
    pub eras: Vec<(f64, Era)>,
}

impl Answers {
    /// Every value that passes: the answer, then the other eras'.
    pub(super) fn all(&self) -> Vec<f64> {
        std::iter::once(self.value)
            .chain(self.eras.iter().map(|(v, _)| *v))
            .collect()
    }
}

impl From<(f64, Vec<(f64, Era)>)> for Answers {
    fn from((value, eras): (f64, Vec<(f64, Era)>)) -> Answers {
        Answers { value, eras }
    }
}

/// What a part's answer is for a setup: a threshold, a crossing, a time.
/// Passed as `&dyn`, so that one copy of each helper serves every question.
pub(super) type Of<'a> = dyn Fn(&CalcSetup) -> Result<f64, CoreError> + 'a;

/// The value for `c` and, distinct from it, the values for its eras.
pub(super) fn with_eras(c: &CalcSetup, f: &Of<'_>) -> Result<Answers, CoreError> {
    let value = f(c)?;
    let eras = eras(c)
        .into_iter()
        .filter_map(|(e, era)| f(&e).ok().map(|x| (x, era)))
        .filter(|(x, _)| x.is_finite() && (x - value).abs() > 1e-9 * value.abs())
        .collect();
    Ok(Answers { value, eras })
}

/// "OPs" for integer math, else "FLOPs".
pub(super) fn ops_word(op: &Operation) -> &'static str {
    if op.inputs.iter().all(|o| o.dtype.is_integer()) {
        "OPs"
    } else {
        "FLOPs"
    }
}

fn scaled(t: &Term, k: f64) -> String {
    Term {
        coef: t.coef * k,
        dims: t.dims.clone(),
    }
    .compact()
}

/// The hint for an answer that counts twice the FLOPs: the data type taken
/// for the factor 2 (a reader's question: is bf16 × int8 4BDF?).
pub(super) fn doubled_hint(op: &Operation) -> String {
    let t = flops_term(op);
    let w = ops_word(op);
    let (full, double) = (t.compact(), scaled(&t, 2.0));
    if op.kind == OpKind::Elementwise {
        return format!(
            "That answer counts {double} {w}, twice the {full} there are: each output element takes one operation, with no multiply to pair it with."
        );
    }
    let mut types: Vec<String> = Vec::new();
    for o in &op.inputs {
        let name = o.dtype.to_string();
        if !types.contains(&name) {
            types.push(name);
        }
    }
    let still = match types.as_slice() {
        [one] => format!("in {one} it is still {full} {w}"),
        many => format!("{} is still {full} {w}", many.joined(" × ")),
    };
    format!(
        "That answer counts {double} {w}, twice the {full} there are. A multiply and an add are 2 {w} whatever the data type, so {still}: the data type changes the bytes and the peak, not the {w}."
    )
}

/// The hint for an answer that counts half the FLOPs (the multiplies
/// only), if the count has the factor 2 of a multiply and an add.
pub(super) fn halved_hint(op: &Operation) -> Option<String> {
    let t = flops_term(op);
    if op.kind != OpKind::Contraction || t.coef != 2.0 {
        return None;
    }
    let w = ops_word(op);
    let (full, half) = (t.compact(), scaled(&t, 0.5));
    Some(format!(
        "That answer counts {half} {w}, half of {full}: each of the {half} products needs a multiply and an add, 2 {w}."
    ))
}

/// The setup with the spec sheet's sparse figure as the peak, and the
/// hint for an answer that used it, if the chip quotes one for the data
/// type the math runs at.
pub(super) fn sparse_setup(c: &CalcSetup) -> Option<(CalcSetup, String)> {
    let a = analysis(c).ok()?;
    if a.unit != crate::ComputeUnit::Matrix {
        return None;
    }
    let dt = a.compute_dtype;
    let entry = c.chip().ok()?.peak_entry(dt)?.clone();
    let sparse = entry.sparse.filter(|s| *s > 1.01 * a.peak)?;
    let mut alt = c.clone();
    alt.peak_overrides.retain(|(d, _)| *d != dt);
    alt.peak_overrides.push((dt, sparse));
    let half = if (sparse / a.peak - 2.0).abs() < 0.01 {
        ", half of it"
    } else {
        ""
    };
    let hint = format!(
        "That uses the spec sheet's sparse figure, {}, which assumes structured sparsity: a dense matmul gets {}{half}.",
        rate_text(sparse, dt),
        rate_text(a.peak, dt)
    );
    Some((alt, hint))
}

/// `c` with the peak its math runs at multiplied by `k`.
pub(super) fn with_peak_times(c: &CalcSetup, k: f64) -> Result<CalcSetup, CoreError> {
    let a = analysis(c)?;
    let dt = a.compute_dtype;
    let mut alt = c.clone();
    alt.peak_overrides.retain(|(d, _)| *d != dt);
    alt.peak_overrides.push((dt, a.peak * k));
    Ok(alt)
}

impl Part {
    /// A likely wrong number and its hint. Where it lies within twice the
    /// part's tolerance of earlier mistakes, their hints and this one are
    /// joined, on each of them and on this one.
    pub(super) fn mistake_number(mut self, value: f64, hint: String) -> Part {
        let tol = match self.kind {
            AnswerKind::Number { rel_tol, .. } => 2.0 * rel_tol,
            _ => 0.0,
        };
        let mut joined = hint.clone();
        let mut duplicate = false;
        for m in &mut self.mistakes {
            let Expected::Number { value: v, .. } = m.answer else {
                continue;
            };
            if (v - value).abs() > tol * v.abs().max(value.abs()) {
                continue;
            }
            duplicate |= v == value;
            if m.hint != hint && !m.hint.ends_with(&lower_first(&hint)) {
                m.hint = format!(
                    "{} Another slip gives the same number: {}",
                    m.hint,
                    lower_first(&hint)
                );
            }
            joined = m.hint.clone();
        }
        if !duplicate {
            self.mistakes.push(Mistake {
                answer: Expected::Number {
                    value,
                    also_accept: Vec::new(),
                },
                hint: joined,
                close: false,
            });
        }
        self
    }

    /// The FLOP-count slips of a number part: its value had the FLOPs been
    /// doubled, and halved (`None` where the slip changes nothing or gives
    /// no number).
    pub(super) fn flop_slips(
        self,
        op: &Operation,
        doubled: Option<f64>,
        halved: Option<f64>,
    ) -> Part {
        let mut p = self;
        if let Some(v) = doubled.filter(|v| v.is_finite()) {
            p = p.mistake_number(v, doubled_hint(op));
        }
        if let (Some(v), Some(h)) = (halved.filter(|v| v.is_finite()), halved_hint(op)) {
            p = p.mistake_number(v, h);
        }
        p
    }

    /// The FLOP-count slips of a formula part whose answer is proportional
    /// to the FLOPs (a count, an intensity, a time): the answer (and each
    /// form it accepts) twice and half over.
    pub(super) fn flop_slips_formula(mut self, op: &Operation) -> Part {
        let forms: Vec<String> = match &self.expected {
            Expected::Formula { expr, also_accept } => std::iter::once(expr.clone())
                .chain(also_accept.iter().cloned())
                .collect(),
            _ => return self,
        };
        for f in &forms {
            self = self.mistake_formula(&format!("2*({f})"), doubled_hint(op));
        }
        if let Some(h) = halved_hint(op) {
            for f in &forms {
                self = self.mistake_formula(&format!("({f})/2"), h.clone());
            }
        }
        self
    }

    /// The FLOP-count slips of a number part whose answer follows from
    /// FLOPs ÷ peak (a threshold, a crossing, a time): twice the FLOPs
    /// give what half the peak gives, and half the FLOPs what twice the
    /// peak gives. For the setup and each of its eras.
    pub(super) fn flop_slips_by_peak(self, op: &Operation, c: &CalcSetup, f: &Of<'_>) -> Part {
        let mut p = self;
        let setups = std::iter::once(c.clone()).chain(eras(c).into_iter().map(|(e, _)| e));
        for s in setups {
            let at = |k: f64| with_peak_times(&s, k).and_then(|x| f(&x)).ok();
            p = p.flop_slips(op, at(0.5), at(2.0));
        }
        p
    }

    /// The sparse-peak slip of a formula part: the answer `make` writes
    /// with the spec sheet's sparse figure as the peak.
    pub(super) fn sparse_formula(self, c: &CalcSetup, make: &dyn Fn(f64) -> String) -> Part {
        let Some((alt, hint)) = sparse_setup(c) else {
            return self;
        };
        match analysis(&alt) {
            Ok(a) => self.mistake_formula(&make(a.peak), hint),
            Err(_) => self,
        }
    }

    /// The sparse-peak slip: what `f` gives with the spec sheet's sparse
    /// figure as the peak, where the chip quotes one.
    pub(super) fn sparse_slip(self, c: &CalcSetup, f: &Of<'_>) -> Part {
        match sparse_setup(c).and_then(|(alt, hint)| f(&alt).ok().map(|v| (v, hint))) {
            Some((v, hint)) if v.is_finite() => self.mistake_number(v, hint),
            _ => self,
        }
    }

    /// What to say to an answer growing with `dim`, which this answer does
    /// not depend on.
    pub(super) fn growth(mut self, dim: &str, hint: String) -> Part {
        self.grows = Some(Growth {
            dim: dim.to_string(),
            hint,
        });
        self
    }

    /// Notes on accepted formulas from other eras.
    pub(super) fn notes_formulas(mut self, formulas: &[(String, Era)]) -> Part {
        for (expr, era) in formulas {
            self.notes.push(Note {
                answer: Expected::Formula {
                    expr: expr.clone(),
                    also_accept: Vec::new(),
                },
                text: era.note(None),
            });
        }
        self
    }
}

/// The hint for a chip's critical intensity written with B in it: it is
/// the chip's alone.
pub(super) fn ci_growth_hint(c: &CalcSetup) -> Result<String, CoreError> {
    let a = analysis(c)?;
    Ok(format!(
        "That grows with B, but the critical intensity belongs to the chip alone: its peak ÷ its bandwidth, {} ÷ {}. B belongs to the operation's intensity, which is compared with it.",
        rate_text(a.peak, a.compute_dtype),
        bw_text(a.bandwidth)
    ))
}
