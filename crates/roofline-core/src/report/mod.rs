//! The view model: every result as a labelled, formatted row, and the
//! step-by-step derivation in the chapter's order.
//!
//! The browser shell shows these strings as they are; all the wording lives
//! here. Texts are formatted with [`crate::format`], so none of them ever
//! reads "NaN" or "inf": a value that does not exist is `None` and its text
//! is [`crate::format::MISSING`].

use crate::analysis::{
    byte_terms, coef_text, critical_size, flops_term, Analysis, CriticalSize, Regime, Scenario,
    Term,
};
use crate::format::{self, sci, MISSING};
use crate::op::{OpKind, Operation, Sizes};
use crate::small::Join;

mod network;

pub use network::network_steps;

/// One result, ready to show.
#[derive(Debug, Clone, PartialEq)]
pub struct ResultRow {
    /// A stable key for tests and styling (`flops`, `t-math`, ...).
    pub key: &'static str,
    /// The quantity's name.
    pub label: String,
    /// The number, if it exists.
    pub value: Option<f64>,
    /// The number formatted with its unit, or [`MISSING`].
    pub text: String,
    /// One sentence on what the number means.
    pub meaning: String,
}

/// One step of a derivation: `title: formula = numbers = result`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// What is computed.
    pub title: String,
    /// The formula in symbols.
    pub formula: String,
    /// The formula with the numbers put in.
    pub numbers: String,
    /// The result with its unit.
    pub result: String,
}

pub(crate) fn row(
    key: &'static str,
    label: &str,
    value: Option<f64>,
    text: String,
    meaning: String,
) -> ResultRow {
    let finite = value.filter(|v| v.is_finite());
    let text = if text.is_empty() {
        MISSING.to_string()
    } else {
        text
    };
    ResultRow {
        key,
        label: label.to_string(),
        value: finite,
        text,
        meaning,
    }
}

/// Text for a critical size: `B > 272.1`, `never`, `always`.
pub fn critical_text(dim: &str, c: &CriticalSize) -> String {
    match c {
        CriticalSize::At {
            size,
            compute_bound_above: true,
        } => format!("{dim} > {}", format::count(*size)),
        CriticalSize::At { size, .. } => format!("{dim} < {}", format::count(*size)),
        CriticalSize::Never { .. } => "never compute-bound".to_string(),
        CriticalSize::Always => "compute-bound at every size".to_string(),
    }
}

/// What a critical size means, in a sentence.
pub fn critical_meaning(dim: &str, c: &CriticalSize, critical_intensity: f64) -> String {
    match c {
        CriticalSize::At {
            compute_bound_above: true,
            ..
        } => format!(
            "Compute-bound once {dim} passes this; below it, moving bytes takes longer than \
             the math. Solved with the exact bytes."
        ),
        CriticalSize::At { .. } => format!(
            "Compute-bound while {dim} stays below this; above it, moving bytes takes longer."
        ),
        CriticalSize::Never { max_intensity } => format!(
            "Never compute-bound: however large {dim} gets, the intensity stays at or below {}, \
             under the critical {}.",
            format::intensity(*max_intensity),
            format::intensity(critical_intensity)
        ),
        CriticalSize::Always => {
            format!("Compute-bound at every size of {dim}.")
        }
    }
}

/// Every result row, in display order. `critical` is the critical size and
/// the dimension it is about (usually the small dimension, `B`).
pub fn rows(a: &Analysis, critical: Option<(&str, &CriticalSize)>) -> Vec<ResultRow> {
    let level = a.level_name;
    let dtype = a.compute_dtype.name();
    let roof = roof_name(a);
    let mut v = vec![
        row(
            "flops",
            "FLOPs",
            Some(a.flops),
            format::flops(a.flops),
            "Operations the algorithm performs; a multiply and an add count as two, whatever the data type."
                .to_string(),
        ),
        row(
            "bytes-read",
            "Bytes read",
            Some(a.bytes_read),
            format::bytes(a.bytes_read),
            format!("Every input loaded once from {level}, at its own data type's size."),
        ),
        row(
            "bytes-written",
            "Bytes written",
            Some(a.bytes_written),
            format::bytes(a.bytes_written),
            format!("The output stored once to {level}, at its data type's size."),
        ),
        row(
            "intensity",
            "Arithmetic intensity",
            Some(a.intensity),
            format::intensity(a.intensity),
            "FLOPs per byte moved, with every byte counted.".to_string(),
        ),
    ];
    let approx_label = match &a.small_dim {
        Some(d) => format!("Intensity with {d} small"),
        None => "Approximate intensity".to_string(),
    };
    v.push(match &a.approx {
        Some(ap) => row(
            "intensity-approx",
            &approx_label,
            Some(ap.intensity),
            format::intensity(ap.intensity),
            format!(
                "Keeping only the largest byte terms ({}) and dropping {}: {}.",
                ap.kept_terms.joined(" + "),
                ap.dropped_terms.joined(" + "),
                ap.formula
            ),
        ),
        None => row(
            "intensity-approx",
            &approx_label,
            None,
            String::new(),
            "No byte term is smaller than the others, so there is nothing to drop: the exact \
             intensity is the only one."
                .to_string(),
        ),
    });
    v.extend([
        row(
            "critical-intensity",
            "Critical intensity",
            Some(a.critical_intensity),
            format::intensity(a.critical_intensity),
            format!(
                "The {roof} ÷ {level} bandwidth: an algorithm needs more FLOPs per byte than this to be compute-bound."
            ),
        ),
        row(
            "t-math",
            "T_math",
            Some(a.t_math),
            format::seconds(a.t_math),
            match a.unit {
                crate::ComputeUnit::Matrix => {
                    format!("FLOPs ÷ the {dtype} peak of the matrix unit: the time the math alone takes.")
                }
                crate::ComputeUnit::Vector => "FLOPs ÷ the vector unit's peak FLOPs/s (elementwise work runs there, not on the matrix unit): the time the math alone takes.".to_string(),
            },
        ),
        row(
            "t-comms",
            "T_comms",
            Some(a.t_comms),
            format::seconds(a.t_comms),
            format!("Bytes ÷ {level} bandwidth: the time moving the bytes alone takes."),
        ),
        row(
            "t-lower",
            "Lower bound",
            Some(a.t_lower),
            format::seconds(a.t_lower),
            "The larger of the two: math and transfers overlap perfectly.".to_string(),
        ),
        row(
            "t-upper",
            "Upper bound",
            Some(a.t_upper),
            format::seconds(a.t_upper),
            "The sum of the two: nothing overlaps. Never more than twice the lower bound."
                .to_string(),
        ),
        row(
            "attained-flops",
            "Attained FLOPs/s",
            Some(a.attained),
            format::flops_rate(a.attained),
            "FLOPs ÷ lower bound, which equals min(peak, intensity × bandwidth).".to_string(),
        ),
        row(
            "peak-fraction",
            "Fraction of peak",
            Some(a.peak_fraction),
            format::percent(a.peak_fraction),
            "Attained ÷ peak, at the lower bound.".to_string(),
        ),
    ]);
    v.push(match critical {
        Some((dim, c)) => {
            let label = if dim == "B" {
                "Critical batch size".to_string()
            } else {
                format!("Critical size of {dim}")
            };
            let value = match c {
                CriticalSize::At { size, .. } => Some(*size),
                _ => None,
            };
            let text = critical_text(dim, c);
            let meaning = critical_meaning(dim, c, a.critical_intensity);
            row("critical-batch", &label, value, text, meaning)
        }
        None => row(
            "critical-batch",
            "Critical batch size",
            None,
            String::new(),
            "No dimension chosen to solve for.".to_string(),
        ),
    });
    v
}

/// The regime as a key (`compute` or `bandwidth`) and a sentence.
pub fn regime_row(a: &Analysis) -> (&'static str, String) {
    let i = format::intensity(a.intensity);
    let c = format::intensity(a.critical_intensity);
    let roof = roof_name(a);
    let line = a.level_name;
    let text = match a.regime {
        Regime::Compute => format!(
            "Compute-bound: the {roof} binds. The intensity, {i}, is above the critical {c} (that peak over {line} bandwidth)."
        ),
        Regime::Bandwidth => format!(
            "Bandwidth-bound: the {line} line binds. The intensity, {i}, is at or below the critical {c} (the {roof} over {line} bandwidth)."
        ),
    };
    (a.regime.key(), text)
}

/// The row that sets an operation run on the vector unit against the
/// matrix unit's peak at `dtype`, `matrix_peak` (FLOPs/s): the comparison
/// the chapter makes for the dot product (its 240 on TPU v5e), shown
/// beside the vector unit's own.
pub fn matrix_comparison_row(a: &Analysis, dtype: crate::DType, matrix_peak: f64) -> ResultRow {
    let c = matrix_peak / a.bandwidth;
    let level = a.level_name;
    let verdict = if a.intensity > c {
        "compute-bound"
    } else {
        "bandwidth-bound"
    };
    row(
        "critical-intensity-matrix",
        "… on the matrix unit",
        Some(c),
        format::intensity(c),
        format!(
            "The {dtype} peak of the matrix unit ({}) ÷ {level} bandwidth: what the chapter compares the dot product with. Against it too the operation is {verdict}; the vector unit's lower peak, above, is where it really runs.",
            format::flops_rate(matrix_peak)
        ),
    )
}

/// A note on the peak in use when the vendor's sheet also quotes a sparse
/// figure for it (2:4 structured sparsity, usually twice the dense): both,
/// and the critical intensity each gives against the analysis's level.
/// `None` on the vector unit or without a sparse figure.
pub fn sparse_note(chip: &crate::Chip, a: &Analysis) -> Option<String> {
    if a.unit != crate::ComputeUnit::Matrix {
        return None;
    }
    let p = chip.peak_entry(a.compute_dtype)?;
    let sparse = p.sparse?;
    Some(format!(
        "{} {}: {} dense, used here (the sheet’s {} is with sparsity). Critical intensity: {}, not {}.",
        chip.name,
        a.compute_dtype,
        format::flops_rate(p.dense),
        format::flops_rate(sparse),
        format::intensity(p.dense / a.bandwidth),
        format::intensity(sparse / a.bandwidth),
    ))
}

/// The roof an analysis is read against: `bf16 peak of the matrix unit`
/// or `vector unit's peak`.
pub fn roof_name(a: &Analysis) -> String {
    match a.unit {
        crate::ComputeUnit::Matrix => format!("{} peak of the matrix unit", a.compute_dtype),
        crate::ComputeUnit::Vector => "vector unit's peak".to_string(),
    }
}

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

fn sum_dotted(terms: &[Term]) -> String {
    terms
        .iter()
        .map(Term::dotted)
        .collect::<Vec<_>>()
        .joined(" + ")
}

fn sum_numbers(terms: &[Term], sizes: &Sizes) -> String {
    terms
        .iter()
        .map(|t| numbers(t, sizes))
        .collect::<Vec<_>>()
        .joined(" + ")
}

pub(crate) fn step(
    title: impl Into<String>,
    formula: impl Into<String>,
    numbers: impl Into<String>,
    result: impl Into<String>,
) -> Step {
    Step {
        title: title.into(),
        formula: formula.into(),
        numbers: numbers.into(),
        result: result.into(),
    }
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;
    use crate::analysis::analyze;
    use crate::hardware::preset;
    use crate::op::Shortcut;

    const KEYS: [&str; 13] = [
        "flops",
        "bytes-read",
        "bytes-written",
        "intensity",
        "intensity-approx",
        "critical-intensity",
        "t-math",
        "t-comms",
        "t-lower",
        "t-upper",
        "attained-flops",
        "peak-fraction",
        "critical-batch",
    ];

    #[test]
    fn rows_have_the_agreed_keys_and_no_nan_text() {
        for sc in Shortcut::ALL {
            let mut s = Scenario::shortcut(preset("h100").unwrap(), sc);
            s.compute_dtype = None;
            let a = analyze(&s).unwrap();
            let crit = a
                .small_dim
                .clone()
                .map(|d| (d.clone(), critical_size(&s, &d).unwrap()));
            let r = rows(&a, crit.as_ref().map(|(d, c)| (d.as_str(), c)));
            let keys: Vec<&str> = r.iter().map(|x| x.key).collect();
            assert_eq!(keys, KEYS);
            for x in &r {
                assert!(!x.text.contains("NaN") && !x.text.contains("inf"), "{x:?}");
                assert!(!x.text.is_empty());
            }
            let (k, _) = regime_row(&a);
            assert!(k == "compute" || k == "bandwidth");
            let d = derivation(&s, &a);
            assert!(d.len() >= 9);
            for st in &d {
                for t in [&st.formula, &st.numbers, &st.result] {
                    assert!(!t.contains("NaN") && !t.contains("inf"), "{st:?}");
                }
            }
        }
    }

    #[test]
    fn matmul_derivation_reads_like_the_chapter() {
        let s = Scenario::shortcut(preset("v5e").unwrap(), Shortcut::Matmul);
        let a = analyze(&s).unwrap();
        let d = derivation(&s, &a);
        assert_eq!(d[0].formula, "2·B·D·F");
        assert_eq!(d[0].numbers, "2 × 256 × 4096 × 4096");
        assert_eq!(d[0].result, "8.59e9 FLOPs");
        assert!(d[1].title.starts_with("FLOPs counted exactly"));
        assert_eq!(d[2].formula, "2·B·D + 2·D·F");
        let last = d.last().unwrap();
        assert!(
            last.result.starts_with("compute-bound for B > 27"),
            "{last:?}"
        );
    }
}
