//! A formula for an intensity, read in halves: when a learner's ratio has
//! the expected operations on top but other bytes underneath (or the
//! expected bytes under other operations), the feedback says which half
//! is right and, for the bytes, which terms differ (`DF where BF
//! belongs`), rather than a hint about the operations.

use crate::small::Join;

use super::answer::{compare, factor_text, read_formula, read_ratio, Comparison, Compiled};

/// How a learner's ratio differs from the expected one, half by half.
pub(super) enum RatioSlip {
    /// The operations on top are right; the message says what is wrong
    /// with the bytes.
    Bytes(String),
    /// The bytes underneath are right; the operations on top are not. The
    /// message says so, to go before the part's hint on the operations.
    Operations(String),
}

fn same(a: &str, b: &str, symbols: &[String]) -> Option<Comparison> {
    let a = Compiled::new(a).ok()?;
    let b = Compiled::new(b).ok()?;
    compare(&a, &b, symbols).ok()
}

/// Compares `answer` with `expected` half by half; `None` unless both read
/// as ratios and exactly one half matches (up to the order of the terms),
/// and `None` where the expected bottom is a constant: that ratio is a
/// time (bytes over a bandwidth), not operations over bytes.
pub(super) fn ratio_slip(answer: &str, expected: &str, symbols: &[String]) -> Option<RatioSlip> {
    let mine = read_ratio(answer, symbols)?;
    let want = read_ratio(expected, symbols)?;
    if read_formula(&want.bottom, symbols).ok()?.used.is_empty() {
        return None;
    }
    let top = same(&mine.top, &want.top, symbols)?;
    let bottom = same(&mine.bottom, &want.bottom, symbols)?;
    match (top, bottom) {
        (Comparison::Same, Comparison::Same) => None,
        (Comparison::Same, Comparison::Factor(k)) => Some(RatioSlip::Bytes(format!(
            "Your operations on top, {}, are right. The bytes underneath are {} times the expected ones: check how many bytes each element of each operand takes.",
            mine.top_shown,
            factor_text(k)
        ))),
        (Comparison::Same, _) => {
            let (extra, missing) = differing_terms(&mine.terms, &want.terms, symbols);
            let what = match (extra.as_slice(), missing.as_slice()) {
                ([], []) => "their terms do not add up to the expected bytes".to_string(),
                (e, []) => format!("{} does not belong among them", e.joined(" + ")),
                ([], m) => format!("{} is missing", m.joined(" + ")),
                (e, m) => format!("{} where {} belongs", e.joined(" + "), m.joined(" + ")),
            };
            Some(RatioSlip::Bytes(format!(
                "Your operations on top, {}, are right; the slip is in the bytes underneath: {what}. Count each operand by its own shape: the inputs read and the output written, once each.",
                mine.top_shown
            )))
        }
        (_, Comparison::Same) => Some(RatioSlip::Operations(
            "Your bytes underneath are right; the slip is in the operations on top.".to_string(),
        )),
        _ => None,
    }
}

/// The learner's terms that match none of the expected ones, and the
/// expected terms that none of the learner's match (each as shown).
fn differing_terms(
    mine: &[(String, String)],
    want: &[(String, String)],
    symbols: &[String],
) -> (Vec<String>, Vec<String>) {
    let mut used = vec![false; want.len()];
    let mut extra = Vec::new();
    for (expr, shown) in mine {
        let hit = want
            .iter()
            .enumerate()
            .position(|(i, (w, _))| !used[i] && same(expr, w, symbols) == Some(Comparison::Same));
        match hit {
            Some(i) => used[i] = true,
            None => extra.push(shown.clone()),
        }
    }
    let missing = want
        .iter()
        .zip(&used)
        .filter(|(_, u)| !**u)
        .map(|((_, shown), _)| shown.clone())
        .collect();
    (extra, missing)
}
