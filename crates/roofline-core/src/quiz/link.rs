//! The quiz's keys of a link: `q`, `part` and `seed` (docs/url-schema.md).

use crate::query::notice::{quoted, said, Notes, Notice};
use crate::query::LinkOut;
use crate::query::{whole, Params};
use crate::state::{is_question_id, QuizState, DEFAULT_QUESTION, MAX_PART};

/// The question, its part and its seed. With a non-empty `questions` (each
/// id with its number of parts) the id must be one of them and the part
/// within it; else only the id's form is checked ([`is_question_id`]) and
/// parts run up to [`MAX_PART`]. Each bad value is the default, with a
/// notice.
pub(crate) fn read(p: &mut Params, n: &mut Notes, questions: &[(&str, u32)]) -> QuizState {
    let known = |id: &str| questions.is_empty() || questions.iter().any(|(q, _)| *q == id);
    let default_q = if known(DEFAULT_QUESTION) {
        DEFAULT_QUESTION.to_string()
    } else {
        questions
            .first()
            .map_or_else(|| DEFAULT_QUESTION.to_string(), |(q, _)| q.to_string())
    };
    let question = match p.take("q") {
        None => default_q,
        Some(raw) => {
            let t = raw.trim();
            if is_question_id(t) && known(t) {
                t.to_string()
            } else {
                n.push(
                    "q",
                    format!(
                        "{} is not a question of this version; using {}",
                        said("q", &raw),
                        quoted(&default_q)
                    ),
                );
                default_q
            }
        }
    };
    let max_part = questions
        .iter()
        .find(|(q, _)| *q == question)
        .map_or(MAX_PART, |(_, parts)| (*parts).max(1));
    let part = match p.take("part") {
        None => 1,
        Some(raw) => match whole(&raw) {
            Some(x) if x >= 1 && x <= u64::from(max_part) => u32::try_from(x).unwrap_or(1),
            _ => {
                n.push(
                    "part",
                    format!(
                        "{} is not a part from 1 to {max_part}; using 1",
                        said("part", &raw)
                    ),
                );
                1
            }
        },
    };
    let seed = match p.take("seed") {
        None => 0,
        Some(raw) => {
            let t: String = raw.trim().chars().filter(|c| *c != '_').collect();
            match t.parse::<u64>() {
                Ok(s) => s,
                Err(_) => {
                    n.push(
                        "seed",
                        format!(
                            "{} is not a whole number from 0 to {}; using 0 (the book's numbers)",
                            said("seed", &raw),
                            u64::MAX
                        ),
                    );
                    0
                }
            }
        }
    };
    QuizState {
        question,
        part,
        seed,
    }
}

/// Writes what differs from the first question's first part at seed 0.
pub(crate) fn write(q: &QuizState, out: &mut LinkOut) {
    if q.question != DEFAULT_QUESTION {
        out.put("q", q.question.clone());
    }
    if q.part != 1 {
        out.put("part", q.part.to_string());
    }
    if q.seed != 0 {
        out.put("seed", q.seed.to_string());
    }
}

/// Reads the quiz's keys from a query (or the text [`state_text`] wrote),
/// checking only each id's form (the link's decode checked it against the
/// bank): its state and the notices for what could not be used.
pub fn read_query(query: &str) -> (QuizState, Vec<Notice>) {
    crate::query::keys::read(query, |p, n| read(p, n, &[]))
}

/// The quiz's keys as a query (`q=q2&part=3`), defaults left out: the form
/// [`AppState::quiz`](crate::pages::AppState::quiz) keeps them in
/// ([`crate::query::keys`]).
pub fn state_text(q: &QuizState) -> String {
    crate::query::keys::text(q, write)
}
