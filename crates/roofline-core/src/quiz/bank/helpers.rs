//! The builders the questions share: the parts (a number, a formula, a
//! choice, with their likely mistakes, and the values with another
//! version's numbers) and the formulas written from an operation's own
//! terms. The answers the core computes for a setup are in `setup.rs`, the
//! texts numbers, rates and chips are shown with in `texts.rs`.

use crate::analysis::{byte_terms, flops_term, sum_text, Analysis, Term};
use crate::format::sig;
use crate::op::Operation;
use crate::quiz::answer::{evaluate_formula, formulas_equivalent, ChoiceOption, Unit};
use crate::quiz::{AnswerKind, CalcSetup, Expected, Mistake, Note, Part, Question};

use super::feedback::Answers;
use super::texts::{gives_text, lower_first, number_text};
use crate::small::Join;
use crate::{CoreError, DType, Regime};

use super::invalid;

fn syms(s: &[&str]) -> Vec<String> {
    s.iter().map(|x| x.to_string()).collect()
}

pub(super) const BDF: &[&str] = &["B", "D", "F"];

pub(super) fn chip_name(c: &CalcSetup) -> Result<String, CoreError> {
    Ok(c.chip()?.name)
}

pub(super) fn input_terms(op: &Operation) -> Vec<Term> {
    let mut t = byte_terms(op);
    t.pop();
    t
}

pub(super) fn output_term(op: &Operation) -> Result<Term, CoreError> {
    byte_terms(op).pop().ok_or_else(|| invalid("no output"))
}

pub(super) fn intensity_formula(op: &Operation) -> String {
    format!(
        "{} / ({})",
        flops_term(op).compact(),
        sum_text(&byte_terms(op))
    )
}

/// The result of the approximation, `2B` from `2BDF / DF = 2B`.
pub(super) fn approx_formula(a: &Analysis) -> Result<String, CoreError> {
    let ap = a
        .approx
        .as_ref()
        .ok_or_else(|| invalid("no approximation"))?;
    Ok(ap
        .formula
        .rsplit("= ")
        .next()
        .unwrap_or(&ap.formula)
        .trim()
        .to_string())
}

/// The approximation written out: the core's text (`2BDF / DF = 2B`), with
/// parentheses where a kept term is a fraction (`2BDF / (DF/2) = 4B`).
pub(super) fn approx_text(op: &Operation, a: &Analysis) -> Result<String, CoreError> {
    let ap = a
        .approx
        .as_ref()
        .ok_or_else(|| invalid("no approximation"))?;
    let kept = ap.kept_terms.joined(" + ");
    if !kept.contains('/') {
        // The core's own text combines like terms: `2N / 4N = 1/2`.
        return Ok(ap.formula.clone());
    }
    let den = format!("({kept})");
    Ok(format!(
        "{} / {den} = {}",
        flops_term(op).compact(),
        approx_formula(a)?
    ))
}

/// `2B > 480.5 ⇔ B > 240.2`, or just `B > 240.2` when the intensity is B.
pub(super) fn threshold_step(approx: &str, ci: f64, thr: f64) -> String {
    if approx == "B" {
        format!("B > {}", sig(thr, 4))
    } else {
        format!("{approx} > {} ⇔ B > {}", sig(ci, 4), sig(thr, 4))
    }
}

/// Checks a formula against a number the core computed at the setup's sizes.
pub(super) fn verified(
    expr: String,
    symbols: &[&str],
    c: &CalcSetup,
    want: f64,
) -> Result<String, CoreError> {
    let values: Vec<(String, f64)> = c.sizes.iter().map(|(k, v)| (k.clone(), *v)).collect();
    let got = evaluate_formula(&expr, &syms(symbols), &values).map_err(CoreError::Invalid)?;
    if (got - want).abs() <= 1e-9 * want.abs().max(1e-300) {
        Ok(expr)
    } else {
        Err(invalid("a quiz formula disagrees with the core"))
    }
}

pub(super) fn regime_options() -> Vec<ChoiceOption> {
    vec![
        ChoiceOption::new(
            "compute-bound",
            &[
                "compute",
                "compute bound",
                "compute limited",
                "math bound",
                "flops bound",
            ],
        ),
        ChoiceOption::new(
            "bandwidth-bound",
            &[
                "bandwidth",
                "memory bound",
                "memory",
                "bandwidth limited",
                "memory limited",
                "comms bound",
                "communication bound",
                "hbm bound",
                "io bound",
                "mem bound",
            ],
        ),
    ]
}

pub(super) fn regime_index(r: Regime) -> usize {
    match r {
        Regime::Compute => 0,
        Regime::Bandwidth => 1,
    }
}

pub(super) fn never_options(dim: &str) -> Vec<ChoiceOption> {
    vec![
        ChoiceOption::new(
            &format!("Yes, once {dim} is large enough"),
            &["yes", "compute bound", "large enough", "eventually"],
        ),
        ChoiceOption::new(
            &format!("No, it stays bandwidth-bound at every {dim}"),
            &[
                "no",
                "never",
                "never compute",
                "never compute bound",
                "stays bandwidth",
                "always bandwidth",
                "bandwidth bound",
                "memory bound",
            ],
        ),
    ]
}

/// A regime far enough from the crossing that the answer is clear.
pub(super) fn clear_regime(a: &Analysis) -> Result<Regime, CoreError> {
    let r = a.intensity / a.critical_intensity;
    if (0.75..1.33).contains(&r) {
        Err(invalid("too close to call"))
    } else {
        Ok(a.regime)
    }
}

impl Part {
    pub(super) fn number(
        id: &str,
        prompt: String,
        unit: Unit,
        rel_tol: f64,
        answers: impl Into<Answers>,
        hint: String,
        solution: Vec<String>,
    ) -> Part {
        let Answers { value, eras } = answers.into();
        let gives = gives_text(value, unit);
        let notes = eras
            .iter()
            .map(|(v, era)| Note {
                answer: Expected::Number {
                    value: *v,
                    also_accept: Vec::new(),
                },
                text: era.note(Some(&gives)),
            })
            .collect();
        let also_accept = eras.into_iter().map(|(v, _)| v).collect();
        Part {
            id: id.to_string(),
            prompt,
            kind: AnswerKind::Number { unit, rel_tol },
            expected_text: number_text(value, unit),
            expected: Expected::Number { value, also_accept },
            hint,
            solution,
            mistakes: Vec::new(),
            notes,
            grows: None,
            sizes: Vec::new(),
            calc: None,
        }
    }

    pub(super) fn formula(
        id: &str,
        prompt: String,
        symbols: &[&str],
        expr: String,
        also_accept: Vec<String>,
        hint: String,
        solution: Vec<String>,
    ) -> Part {
        Part {
            id: id.to_string(),
            prompt,
            kind: AnswerKind::Formula {
                symbols: syms(symbols),
            },
            expected_text: expr.clone(),
            expected: Expected::Formula { expr, also_accept },
            hint,
            solution,
            mistakes: Vec::new(),
            notes: Vec::new(),
            grows: None,
            sizes: Vec::new(),
            calc: None,
        }
    }

    pub(super) fn choice(
        id: &str,
        prompt: String,
        options: Vec<ChoiceOption>,
        right: usize,
        hint: String,
        solution: Vec<String>,
    ) -> Part {
        let expected_text = options
            .get(right)
            .map(|o| o.label.clone())
            .unwrap_or_default();
        Part {
            id: id.to_string(),
            prompt,
            kind: AnswerKind::Choice { options },
            expected: Expected::Choice(right),
            expected_text,
            hint,
            solution,
            mistakes: Vec::new(),
            notes: Vec::new(),
            grows: None,
            sizes: Vec::new(),
            calc: None,
        }
    }

    /// A likely wrong formula and its hint. A formula equivalent to an
    /// earlier mistake's joins it: both hints are given.
    pub(super) fn mistake_formula(mut self, expr: &str, hint: String) -> Part {
        let symbols = match &self.kind {
            AnswerKind::Formula { symbols } => symbols.clone(),
            _ => self.sizes.iter().map(|(k, _)| k.clone()).collect(),
        };
        let near = self.mistakes.iter_mut().find(|m| match &m.answer {
            Expected::Formula { expr: e, .. } => formulas_equivalent(e, expr, &symbols) == Ok(true),
            _ => false,
        });
        if let Some(m) = near {
            if m.hint != hint && !m.hint.ends_with(&lower_first(&hint)) {
                m.hint = format!(
                    "{} Another slip gives the same formula: {}",
                    m.hint,
                    lower_first(&hint)
                );
            }
            return self;
        }
        self.mistakes.push(Mistake {
            answer: Expected::Formula {
                expr: expr.to_string(),
                also_accept: Vec::new(),
            },
            hint,
            close: false,
        });
        self
    }

    /// Names the exact operation count of `op`'s contraction as a near
    /// miss: each output is a sum of n products, n multiplies and n − 1
    /// adds, so the exact count is the book's 2·(output)·(summed) minus
    /// one add per output element. Nothing for other operations.
    pub(super) fn near_exact_count(mut self, op: &Operation) -> Part {
        let out = &op.output.dims;
        if op.kind != crate::op::OpKind::Contraction || op.inputs.len() != 2 || out.is_empty() {
            return self;
        }
        let book = flops_term(op).compact();
        let sep = if out.iter().all(|d| d.chars().count() == 1) {
            ""
        } else {
            "·"
        };
        let per_output = out.joined(sep);
        self.mistakes.push(Mistake {
            answer: Expected::Formula {
                expr: format!("{book} - {}", out.joined("*")),
                also_accept: Vec::new(),
            },
            hint: format!(
                "That is the exact count: each of the {per_output} outputs sums its products with one add fewer than it has products, so {book} − {per_output}. The book counts {book}, dropping the −{per_output}, which is tiny next to {book} when the summed dimension is large."
            ),
            close: true,
        });
        self
    }

    pub(super) fn with_calc(mut self, c: CalcSetup) -> Part {
        self.calc = Some(c);
        self
    }
}

/// A question; [`build`](super::build) sets its title from [`BANK`](super::BANK).
/// Each part gets the sizes of its setup, to read a formula typed where a
/// number is asked.
pub(super) fn question(
    id: &str,
    source: &str,
    setup: String,
    mut parts: Vec<Part>,
    calc: CalcSetup,
) -> Result<Question, CoreError> {
    for p in &mut parts {
        let c = p.calc.as_ref().unwrap_or(&calc);
        p.sizes = c.sizes.iter().map(|(k, v)| (k.clone(), *v)).collect();
    }
    Ok(Question {
        id: id.to_string(),
        seed: 0,
        title: String::new(),
        source: source.to_string(),
        setup,
        parts,
        calc,
        model: None,
        scale: None,
    })
}

pub(super) fn matmul(x: DType, w: DType, out: DType) -> String {
    format!("{x}[B,D] * {w}[D,F] -> {out}[B,F]")
}

pub(super) const POW2: &[f64] = &[1024.0, 2048.0, 4096.0, 8192.0, 16384.0];
pub(super) const BATCHES: &[f64] = &[16.0, 32.0, 64.0, 128.0, 256.0, 512.0, 1024.0, 2048.0];
pub(super) const BF16_CHIPS: &[&str] = &[
    "v4p", "v5e", "v5p", "v6e", "tpu7x", "a100", "h100", "h200", "b200",
];
