//! The view model: every result as a labelled, formatted row (`rows.rs`),
//! and the step-by-step derivation in the chapter's order
//! (`derivation.rs`, the network's steps in `network.rs`).
//!
//! The browser shell shows these strings as they are; all the wording lives
//! here. Texts are formatted with [`crate::format`], so none of them ever
//! reads "NaN" or "inf": a value that does not exist is `None` and its text
//! is [`crate::format::MISSING`].

use crate::format::MISSING;

mod derivation;
mod network;
mod rows;

pub use derivation::{derivation, size_text};
pub use network::network_steps;
pub use rows::{
    critical_meaning, critical_text, matrix_comparison_row, regime_row, roof_name, rows,
    sparse_note,
};

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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;
    use crate::analysis::{analyze, critical_size, Scenario};
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
