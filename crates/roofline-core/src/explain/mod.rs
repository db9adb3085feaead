//! Short answers to the questions readers of the chapter ask, each shown
//! as a "Why?" next to the part of the page that raises it.
//!
//! The questions (here) are in the first load, with the page; their answers
//! ([`answers`]) are read only by the app's `why` chunk, which the page
//! fetches after its first chart or when a "Why?" is opened. The texts hold
//! formulas and no catalogue number: the numbers they talk about are on the
//! page beside them, computed. `docs/learn.md` maps each question of the
//! readers' discussion to the answer that covers it.

pub mod answers;

pub use answers::answer;

/// One question; its answer is [`answer`]`(key)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Why {
    /// A stable key (`data-testid="why-KEY"` in the app).
    pub key: &'static str,
    /// The question, as a reader would ask it.
    pub question: &'static str,
}

/// Beside the roofline chart: how to read it.
pub const CHART: &[Why] = &[
    Why {
        key: "origin",
        question: "Why don't the lines start at zero?",
    },
    Why {
        key: "slopes",
        question: "Why are the two bandwidth lines parallel?",
    },
    Why {
        key: "bend",
        question: "Why does each line bend where it does?",
    },
    Why {
        key: "roof",
        question: "Why do both lines reach the same roof?",
    },
    Why {
        key: "marks",
        question: "What do the shading and the dashed lines mean?",
    },
];

/// Beside the results.
pub const RESULTS: &[Why] = &[
    Why {
        key: "lower-bound",
        question: "Why is the lower bound the larger of T_math and T_comms?",
    },
    Why {
        key: "flops-rate",
        question: "FLOPs or FLOP/s?",
    },
    Why {
        key: "intensity-test",
        question: "Why compare the operation's intensity with the chip's?",
    },
    Why {
        key: "tokens",
        question: "What does B count?",
    },
    Why {
        key: "small-b",
        question: "Why can the bytes be simplified when B is small?",
    },
];

/// Beside the operation's notation.
pub const NOTATION: &[Why] = &[Why {
    key: "contract",
    question: "What does ·_D (or *_D) mean?",
}];

/// Beside the data type the math runs at.
pub const DTYPE: &[Why] = &[Why {
    key: "dtype-flops",
    question: "Does the data type change the FLOPs?",
}];

/// Beside the network roofline's rows.
pub const NETWORK: &[Why] = &[
    Why {
        key: "per-chip",
        question: "Why are these numbers per chip?",
    },
    Why {
        key: "link",
        question: "Which bandwidth is the link's?",
    },
    Why {
        key: "hbm",
        question: "Why are the HBM reads not part of the link's bound?",
    },
    Why {
        key: "gather",
        question: "Is there an all-gather? What about the adds and the trip back to HBM?",
    },
    Why {
        key: "collective",
        question: "Why does a ring all-reduce send more than one partial?",
    },
];

/// Beside the chip.
pub const CHIP: &[Why] = &[Why {
    key: "sparse",
    question: "Why is the peak half the spec sheet's headline?",
}];

/// On the Model page.
pub const MODEL: &[Why] = &[
    Why {
        key: "decode-bandwidth",
        question: "Why is decode bandwidth-bound at small batches, and why does the step still grow with B?",
    },
    Why {
        key: "kv-long",
        question: "Why does the KV cache, not the weights, dominate at long context?",
    },
    Why {
        key: "int8-critical",
        question: "Why do int8 weights halve the critical batch?",
    },
    Why {
        key: "gqa",
        question: "What does grouped-query attention save?",
    },
    Why {
        key: "moe-count",
        question: "How is a mixture of experts counted?",
    },
    Why {
        key: "efficiency",
        question: "What do the two fractions reached mean?",
    },
    Why {
        key: "tp-layout",
        question: "How is the model split over several chips, and what does the link cost?",
    },
];

/// Every list of questions, for the tests and the answers' check.
pub const ALL: &[&[Why]] = &[CHIP, CHART, RESULTS, NOTATION, DTYPE, NETWORK, MODEL];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_unique_and_each_has_an_answer() {
        let all: Vec<&Why> = ALL.iter().flat_map(|l| l.iter()).collect();
        for (i, w) in all.iter().enumerate() {
            assert!(w.question.ends_with('?'), "{}", w.key);
            let a = answer(w.key);
            assert!(!a.is_empty() && a.iter().all(|p| p.len() > 40), "{}", w.key);
            assert!(all[..i].iter().all(|o| o.key != w.key), "{} twice", w.key);
        }
        for key in answers::KEYS {
            assert!(
                all.iter().any(|w| w.key == *key),
                "{key} answers no question"
            );
        }
    }
}
