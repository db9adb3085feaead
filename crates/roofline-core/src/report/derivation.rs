//! The derivation: every number of an analysis worked out step by step
//! in the chapter's order, each formula in symbols and with the sizes put
//! in (FLOPs, bytes, intensity, the times, the regime, the critical size).

use crate::analysis::{
    byte_terms, coef_text, critical_size, flops_term, Analysis, CriticalSize, Scenario, Term,
};
use crate::format::{self, sci};
use crate::op::{OpKind, Operation, Sizes};
use crate::small::Join;

use super::{step, Step};

/// A size as written in a derivation: whole numbers below 10⁷ in full
/// (`4096`), others in scientific form.
pub fn size_text(x: f64) -> String {
    if x.is_finite() && x.fract() == 0.0 && x.abs() < 1e7 {
        format!("{}", x as i64)
    } else {
        sci(x)
    }
}

/// A whole count in full below 10¹⁶ (`1999999`), else in scientific form.
fn exact_text(x: f64) -> String {
    if x.is_finite() && x.fract() == 0.0 && x.abs() < 1e16 {
        format!("{}", x as i64)
    } else {
        sci(x)
    }
}

fn numbers(t: &Term, sizes: &Sizes) -> String {
    let mut parts: Vec<String> = Vec::new();
    if t.coef != 1.0 || t.dims.is_empty() {
        parts.push(coef_text(t.coef));
    }
    for d in &t.dims {
        parts.push(sizes.get(d).map_or_else(|| d.clone(), |v| size_text(*v)));
    }
    parts.joined(" × ")
}

pub(super) fn sum_dotted(terms: &[Term]) -> String {
    terms
        .iter()
        .map(Term::dotted)
        .collect::<Vec<_>>()
        .joined(" + ")
}

pub(super) fn sum_numbers(terms: &[Term], sizes: &Sizes) -> String {
    terms
        .iter()
        .map(|t| numbers(t, sizes))
        .collect::<Vec<_>>()
        .joined(" + ")
}

/// `(formula, numbers)` of the FLOP count, book convention.
fn flops_formula(op: &Operation, sizes: &Sizes) -> (String, String) {
    let contracted = Term {
        coef: 1.0,
        dims: op.contracted_dims(),
    };
    let out = Term {
        coef: 1.0,
        dims: op.output.dims.clone(),
    };
    if op.kind == OpKind::Contraction && op.inputs.len() == 1 {
        (
            format!("{} × ({} − 1)", out.dotted(), contracted.dotted()),
            format!(
                "{} × ({} − 1)",
                numbers(&out, sizes),
                numbers(&contracted, sizes)
            ),
        )
    } else {
        let t = flops_term(op);
        (t.dotted(), numbers(&t, sizes))
    }
}

/// The chapter's derivation of every number, step by step: FLOPs, bytes,
/// intensity, critical intensity, the two times, the bounds, the regime and
/// (when there is a small dimension) the critical size.
pub fn derivation(s: &Scenario, a: &Analysis) -> Vec<Step> {
    let op = &s.op;
    let sizes = &s.sizes;
    let mut steps = Vec::new();

    let (f_formula, f_numbers) = flops_formula(op, sizes);
    steps.push(step(
        "FLOPs",
        f_formula,
        f_numbers,
        format!("{} FLOPs", sci(a.flops)),
    ));

    if a.flops_exact_adds != a.flops && op.kind == OpKind::Contraction && op.inputs.len() > 1 {
        let k = op.inputs.len() as f64;
        let out = Term {
            coef: 1.0,
            dims: op.output.dims.clone(),
        };
        let t = Term {
            coef: k,
            dims: op.contracted_dims(),
        };
        let (formula, nums) = if out.dims.is_empty() {
            (
                format!("{} − 1", t.dotted()),
                format!("{} − 1", numbers(&t, sizes)),
            )
        } else {
            (
                format!("{} × ({} − 1)", out.dotted(), t.dotted()),
                format!("{} × ({} − 1)", numbers(&out, sizes), numbers(&t, sizes)),
            )
        };
        steps.push(step(
            "FLOPs counted exactly (a sum of n terms takes n − 1 adds)",
            formula,
            nums,
            format!("{} FLOPs", exact_text(a.flops_exact_adds)),
        ));
    }

    let terms = byte_terms(op);
    let (inputs, output) = terms.split_at(terms.len().saturating_sub(1));
    steps.push(step(
        "Bytes read",
        sum_dotted(inputs),
        sum_numbers(inputs, sizes),
        format!("{} bytes", sci(a.bytes_read)),
    ));
    steps.push(step(
        "Bytes written",
        sum_dotted(output),
        sum_numbers(output, sizes),
        format!("{} bytes", sci(a.bytes_written)),
    ));
    steps.push(step(
        "Arithmetic intensity",
        "FLOPs ÷ (bytes read + bytes written)",
        format!(
            "{} ÷ ({} + {})",
            sci(a.flops),
            sci(a.bytes_read),
            sci(a.bytes_written)
        ),
        format::intensity(a.intensity),
    ));
    if let Some(ap) = &a.approx {
        steps.push(step(
            match &a.small_dim {
                Some(small) => format!(
                    "Approximate intensity, {small} small: drop {}",
                    ap.dropped_terms.joined(" + ")
                ),
                None => format!(
                    "Approximate intensity: drop {}",
                    ap.dropped_terms.joined(" + ")
                ),
            },
            ap.formula.clone(),
            format!("{} ÷ {}", sci(a.flops), sci(a.flops / ap.intensity)),
            format::intensity(ap.intensity),
        ));
    }
    let level = a.level_name;
    steps.push(step(
        "Critical intensity",
        match a.unit {
            crate::ComputeUnit::Matrix => {
                format!("peak {} FLOPs/s ÷ {level} bandwidth", a.compute_dtype)
            }
            crate::ComputeUnit::Vector => format!("vector-unit peak FLOPs/s ÷ {level} bandwidth"),
        },
        format!("{} ÷ {}", sci(a.peak), sci(a.bandwidth)),
        format::intensity(a.critical_intensity),
    ));
    steps.push(step(
        "T_math",
        "FLOPs ÷ peak",
        format!("{} ÷ {}", sci(a.flops), sci(a.peak)),
        format::seconds(a.t_math),
    ));
    steps.push(step(
        "T_comms",
        format!("bytes ÷ {level} bandwidth"),
        format!("{} ÷ {}", sci(a.bytes), sci(a.bandwidth)),
        format::seconds(a.t_comms),
    ));
    steps.push(step(
        "Bounds on the time",
        "max(T_math, T_comms) ≤ T ≤ T_math + T_comms",
        format!(
            "max({0}, {1}) ≤ T ≤ {0} + {1}",
            format::seconds(a.t_math),
            format::seconds(a.t_comms)
        ),
        format!(
            "{} ≤ T ≤ {}",
            format::seconds(a.t_lower),
            format::seconds(a.t_upper)
        ),
    ));
    let cmp = if a.intensity > a.critical_intensity {
        ">"
    } else if a.intensity < a.critical_intensity {
        "<"
    } else {
        "="
    };
    steps.push(step(
        "Regime",
        "intensity against critical intensity",
        format!(
            "{} {cmp} {}",
            format::intensity(a.intensity),
            format::intensity(a.critical_intensity)
        ),
        a.regime.label(),
    ));
    if let Some(dim) = &a.small_dim {
        if let Some(st) = critical_step(s, a, dim) {
            steps.push(st);
        }
    }
    steps
}

/// `terms` with `dim` taken out of each, summed, as text (`0` if none).
fn without(terms: &[&Term], dim: &str) -> String {
    if terms.is_empty() {
        return "0".to_string();
    }
    let t: Vec<Term> = terms
        .iter()
        .map(|t| Term {
            coef: t.coef,
            dims: t.dims.iter().filter(|d| *d != dim).cloned().collect(),
        })
        .collect();
    let text = sum_dotted(&t);
    if t.len() > 1 {
        format!("({text})")
    } else {
        text
    }
}

fn critical_step(s: &Scenario, a: &Analysis, dim: &str) -> Option<Step> {
    let c = critical_size(s, dim).ok()?;
    let lin = s.op.linear_counts(dim, &s.sizes).ok()?;
    let bytes = lin.bytes();
    let (af, f0) = (lin.flops.slope, lin.flops.offset);
    let (b, c0) = (bytes.slope, bytes.offset);
    let (p, w) = (a.peak, a.bandwidth);
    // Symbols for a (FLOPs per unit of dim), b (bytes per unit) and c (bytes
    // that do not grow with dim), when the FLOP count is one product.
    let single_product = f0 == 0.0 && !(s.op.kind == OpKind::Contraction && s.op.inputs.len() == 1);
    let terms = byte_terms(&s.op);
    let (with, rest): (Vec<&Term>, Vec<&Term>) =
        terms.iter().partition(|t| t.dims.iter().any(|d| d == dim));
    let (sa, sb, sc) = if single_product {
        (
            without(&[&flops_term(&s.op)], dim),
            without(&with, dim),
            without(&rest, dim),
        )
    } else {
        ("a".to_string(), "b".to_string(), "c".to_string())
    };
    let title = if dim == "B" {
        "Critical batch size".to_string()
    } else {
        format!("Critical size of {dim}")
    };
    let step = match &c {
        CriticalSize::At {
            size,
            compute_bound_above,
        } => {
            let (formula, nums) = if single_product {
                (
                    format!("T_math = T_comms at {dim} = ({sc} ÷ bandwidth) ÷ ({sa} ÷ peak − {sb} ÷ bandwidth)"),
                    format!(
                        "({} ÷ {}) ÷ ({} ÷ {} − {} ÷ {})",
                        sci(c0), sci(w), sci(af), sci(p), sci(b), sci(w)
                    ),
                )
            } else {
                (
                    format!(
                        "T_math = T_comms with FLOPs = a·{dim} + f and bytes = b·{dim} + c: \
                         {dim} = (c ÷ bandwidth − f ÷ peak) ÷ (a ÷ peak − b ÷ bandwidth)"
                    ),
                    format!(
                        "({} ÷ {} − {} ÷ {}) ÷ ({} ÷ {} − {} ÷ {})",
                        sci(c0),
                        sci(w),
                        sci(f0),
                        sci(p),
                        sci(af),
                        sci(p),
                        sci(b),
                        sci(w)
                    ),
                )
            };
            let side = if *compute_bound_above { ">" } else { "<" };
            Step {
                title,
                formula,
                numbers: nums,
                result: format!("compute-bound for {dim} {side} {}", sci(*size)),
            }
        }
        CriticalSize::Never { max_intensity } => Step {
            title,
            formula: format!(
                "the intensity can reach at most {sa} ÷ {sb}, its value for very large {dim}"
            ),
            numbers: format!("{} ÷ {}", sci(af), sci(b)),
            result: format!(
                "never compute-bound: at most {}, under the critical {}",
                format::intensity(*max_intensity),
                format::intensity(a.critical_intensity)
            ),
        },
        CriticalSize::Always => Step {
            title,
            formula: format!(
                "nothing but {dim} grows the bytes, so the intensity is {sa} ÷ {sb} at every size"
            ),
            numbers: format!("{} ÷ {}", sci(af), sci(b)),
            result: format!("compute-bound for every {dim}"),
        },
    };
    Some(step)
}
