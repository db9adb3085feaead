//! The formula text of an operation's counts: one term `coef × Π dims` per
//! operand's bytes and one for the FLOPs, written compact (`2BDF`) or
//! spelled out (`2·B·D·F`).

use crate::op::{OpKind, Operation, Sizes};
use crate::small::Join;

/// A term `coef × Π dims`.
#[derive(Debug, Clone)]
pub(crate) struct Term {
    pub(crate) coef: f64,
    pub(crate) dims: Vec<String>,
}

impl Term {
    /// The term's value at `sizes` (a dimension without one counts 1).
    pub(super) fn value(&self, sizes: &Sizes) -> f64 {
        self.dims
            .iter()
            .map(|d| sizes.get(d).copied().unwrap_or(1.0))
            .product::<f64>()
            * self.coef
    }

    /// Its dimensions in order, to compare terms as sets.
    pub(super) fn sorted_dims(&self) -> Vec<&String> {
        let mut v: Vec<&String> = self.dims.iter().collect();
        crate::small::sort_small_by(&mut v, |a, b| a.cmp(b));
        v
    }

    /// Compact form, `2BDF` (or `2·batch·model` for longer names).
    pub(crate) fn compact(&self) -> String {
        monomial(self.coef, &self.dims, short_names(&self.dims))
    }

    /// Spelled-out form with `·`: `2·B·D·F`.
    pub(crate) fn dotted(&self) -> String {
        monomial(self.coef, &self.dims, false)
    }
}

fn short_names(dims: &[String]) -> bool {
    dims.iter().all(|d| d.chars().count() == 1)
}

/// A coefficient: `2`, `1/2`, `0.75`.
pub(crate) fn coef_text(c: f64) -> String {
    if c.fract() == 0.0 && c.abs() < 1e15 {
        return format!("{}", c as i64);
    }
    let inv = 1.0 / c;
    if c > 0.0 && inv.fract() == 0.0 && inv < 1e15 {
        return format!("1/{}", inv as i64);
    }
    crate::format::sig(c, 4)
}

/// `coef × Π dims` as text; a coefficient of 1 is left out, `1/n` is written
/// as a division.
fn monomial(coef: f64, dims: &[String], compact: bool) -> String {
    if dims.is_empty() {
        return coef_text(coef);
    }
    let body = if compact {
        dims.concat()
    } else {
        dims.joined("·")
    };
    let inv = 1.0 / coef;
    if coef == 1.0 {
        body
    } else if coef > 0.0 && coef < 1.0 && inv.fract() == 0.0 && inv < 1e15 {
        format!("{body}/{}", inv as i64)
    } else if compact {
        format!("{}{body}", coef_text(coef))
    } else {
        format!("{}·{body}", coef_text(coef))
    }
}

/// One byte term per operand: inputs, then the output.
pub(crate) fn byte_terms(op: &Operation) -> Vec<Term> {
    op.inputs
        .iter()
        .chain(std::iter::once(&op.output))
        .map(|o| Term {
            coef: o.dtype.bytes(),
            dims: o.dims.clone(),
        })
        .collect()
}

/// The leading term of the FLOP count (book convention).
pub(crate) fn flops_term(op: &Operation) -> Term {
    let k = op.inputs.len() as f64;
    match op.kind {
        OpKind::Elementwise => Term {
            coef: k - 1.0,
            dims: op.output.dims.clone(),
        },
        OpKind::Contraction if op.inputs.len() == 1 => Term {
            coef: 1.0,
            dims: op.dims(),
        },
        OpKind::Contraction => Term {
            coef: k,
            dims: op.dims(),
        },
    }
}

/// Terms joined with ` + `, in compact form.
pub(crate) fn sum_text(terms: &[Term]) -> String {
    terms
        .iter()
        .map(Term::compact)
        .collect::<Vec<_>>()
        .joined(" + ")
}
