//! Quiz progress as stored in the browser: which parts of which questions
//! are solved, in a small text format under a versioned key.
//!
//! Format: `q1:a,b;q2:a` (question id, colon, solved part ids). Anything
//! that does not fit is skipped, so garbage in storage yields empty or
//! partial progress, never an error.

use crate::small::{Join, SmallMap};
use crate::state::is_question_id;

/// The localStorage key. A new format gets a new key.
pub const PROGRESS_KEY: &str = "roofline-lab/quiz-progress/v1";

/// Longest stored text read (larger values are treated as garbage).
const MAX_LEN: usize = 16 * 1024;

/// Solved parts per question.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Progress {
    /// Question id → solved part ids (a set: the values are unused).
    solved: SmallMap<String, SmallMap<String, ()>>,
}

fn is_part_id(s: &str) -> bool {
    !s.is_empty() && s.len() <= 8 && s.chars().all(|c| c.is_ascii_alphanumeric())
}

impl Progress {
    /// Reads stored text; whatever cannot be read is skipped.
    pub fn parse(text: &str) -> Progress {
        let mut p = Progress::default();
        if text.len() > MAX_LEN {
            return p;
        }
        for entry in text.split(';') {
            let Some((q, parts)) = entry.split_once(':') else {
                continue;
            };
            if !is_question_id(q) {
                continue;
            }
            for part in parts.split(',').filter(|s| is_part_id(s)) {
                p.mark(q, part);
            }
        }
        p
    }

    /// The text to store.
    pub fn to_text(&self) -> String {
        self.solved
            .iter()
            .filter(|(_, parts)| !parts.is_empty())
            .map(|(q, parts)| {
                format!(
                    "{q}:{}",
                    parts
                        .keys()
                        .map(String::as_str)
                        .collect::<Vec<_>>()
                        .joined(",")
                )
            })
            .collect::<Vec<_>>()
            .joined(";")
    }

    /// Records part `part` of question `question` as solved.
    pub fn mark(&mut self, question: &str, part: &str) {
        if is_question_id(question) && is_part_id(part) {
            self.solved
                .get_or_insert_default(question.to_string())
                .insert(part.to_string(), ());
        }
    }

    /// Whether that part is solved.
    pub fn is_solved(&self, question: &str, part: &str) -> bool {
        self.solved
            .get(question)
            .is_some_and(|s| s.contains_key(part))
    }

    /// How many parts of `question` are solved.
    pub fn solved_count(&self, question: &str) -> usize {
        self.solved.get(question).map_or(0, SmallMap::len)
    }

    /// Forgets everything.
    pub fn reset(&mut self) {
        self.solved.clear();
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn round_trips() {
        let mut p = Progress::default();
        p.mark("q1", "b");
        p.mark("q1", "a");
        p.mark("q5", "a");
        let t = p.to_text();
        assert_eq!(t, "q1:a,b;q5:a");
        assert_eq!(Progress::parse(&t), p);
        assert_eq!(p.solved_count("q1"), 2);
    }

    #[test]
    fn garbage_is_skipped() {
        for junk in [
            "",
            "{\"a\":1}",
            "q1",
            ";;;",
            "q1:<script>",
            "💥:a",
            &"x".repeat(20_000),
        ] {
            let p = Progress::parse(junk);
            assert_eq!(p.solved_count("q1"), 0, "{junk}");
        }
        let p = Progress::parse("q1:a,<b>,c;bad id:a;q2:");
        assert!(p.is_solved("q1", "a") && p.is_solved("q1", "c"));
        assert_eq!(p.to_text(), "q1:a,c");
    }
}
