//! What the quiz chapters' test files share: a part's verdict on an answer,
//! and the three checks they run over tables of the book's answers and the
//! readers' mistakes.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use roofline_core::quiz::{check, question, Expected, Question, Verdict};

/// The verdict on `answer` for part `part` of question `id` (the book's
/// numbers).
pub fn verdict(id: &str, part: &str, answer: &str) -> Verdict {
    let q = question(id, 0).unwrap_or_else(|| panic!("no question {id}"));
    let p = q
        .part(part)
        .unwrap_or_else(|| panic!("no part {id}/{part}"));
    check(p, answer)
}

/// Each (id, part, answer) passes, plainly or with a note.
pub fn all_pass(printed: &[(&str, &str, &str)]) {
    for &(id, part, answer) in printed {
        let v = verdict(id, part, answer);
        assert!(v.is_right(), "{id}/{part}: the book's '{answer}' got {v:?}");
    }
}

/// Each (id, part, answer, says) passes with a note containing `says`; an
/// empty `says` also lets it pass plainly.
pub fn pass_with_note(cases: &[(&str, &str, &str, &str)]) {
    for &(id, part, answer, says) in cases {
        match verdict(id, part, answer) {
            Verdict::RightWithNote { note } => assert!(note.contains(says), "{id}: {note}"),
            Verdict::Right if says.is_empty() => {}
            other => panic!("{id}/{part} '{answer}': {other:?}"),
        }
    }
}

/// Each (id, part, answer, concept) is wrong, with a hint naming `concept`.
pub fn mistakes_named(mistakes: &[(&str, &str, &str, &str)]) {
    for &(id, part, answer, concept) in mistakes {
        match verdict(id, part, answer) {
            Verdict::Wrong { hint } => {
                assert!(hint.contains(concept), "{id}/{part} '{answer}': {hint}")
            }
            other => panic!("{id}/{part} '{answer}' should be wrong, got {other:?}"),
        }
    }
}

/// The expected number of part `part` of `q`.
pub fn value(q: &Question, part: &str) -> f64 {
    match &q
        .part(part)
        .unwrap_or_else(|| panic!("{}: no part {part}", q.id))
        .expected
    {
        Expected::Number { value, .. } => *value,
        other => panic!("{}/{part} is not a number: {other:?}", q.id),
    }
}

/// `got` is within `rel` of `want` (relative to `want`).
pub fn near(got: f64, want: f64, rel: f64, what: &str) {
    assert!(
        (got - want).abs() <= rel * want.abs(),
        "{what}: {got} against {want}"
    );
}
