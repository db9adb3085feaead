//! The usual approximation (see the module's documentation): the byte
//! terms with the most large dimensions kept, the others dropped, and the
//! intensity and formula that gives.

use super::terms::{byte_terms, flops_term, sum_text, Term};
use super::Approx;
use crate::op::{Operation, Sizes};

/// The approximation of `op`'s intensity at `sizes` with `small` the small
/// dimension and `flops` its FLOP count; `None` when no term can be dropped.
pub(super) fn approximate(
    op: &Operation,
    sizes: &Sizes,
    small: Option<&str>,
    flops: f64,
) -> Option<Approx> {
    let terms = byte_terms(op);
    let large = |t: &Term| t.dims.iter().filter(|d| Some(d.as_str()) != small).count();
    let most = terms.iter().map(large).max()?;
    let (kept, dropped): (Vec<Term>, Vec<Term>) = terms.into_iter().partition(|t| large(t) == most);
    if dropped.is_empty() || kept.is_empty() {
        return None;
    }
    let kept_bytes: f64 = kept.iter().map(|t| t.value(sizes)).sum();
    let intensity = flops / kept_bytes;
    if !intensity.is_finite() {
        return None;
    }
    let num = flops_term(op);
    let first = &kept[0];
    let same_set = kept.iter().all(|t| t.sorted_dims() == first.sorted_dims());
    let formula = if same_set {
        let den = Term {
            coef: kept.iter().map(|t| t.coef).sum(),
            dims: first.dims.clone(),
        };
        let divides = den.dims.iter().all(|d| num.dims.contains(d));
        // A fraction divides as a whole: `2BDF / (DF/2)`, not `2BDF / DF/2`.
        let den_text = match den.compact() {
            t if t.as_bytes().contains(&b'/') => format!("({t})"),
            t => t,
        };
        if divides && den.coef > 0.0 {
            let rest: Vec<String> = num
                .dims
                .iter()
                .filter(|d| !den.dims.contains(d))
                .cloned()
                .collect();
            let result = Term {
                coef: num.coef / den.coef,
                dims: rest,
            };
            format!("{} / {den_text} = {}", num.compact(), result.compact())
        } else {
            format!("{} / {den_text}", num.compact())
        }
    } else {
        format!("{} / ({})", num.compact(), sum_text(&kept))
    };
    Some(Approx {
        intensity,
        kept_terms: kept.iter().map(Term::compact).collect(),
        dropped_terms: dropped.iter().map(Term::compact).collect(),
        formula,
    })
}
