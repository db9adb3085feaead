//! What the quiz chapters' test files share: a part's verdict on an answer,
//! and the three checks they run over tables of the book's answers and the
//! readers' mistakes.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use roofline_core::pages::View;
use roofline_core::quiz::{check, question, Expected, Question, Verdict, OUTLINE};
use roofline_core::scale::{evaluate_scale, read_query, ScaleView};
use roofline_core::url::{decode_with, encode};

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

/// Question `id` at `seed`, and the Scale page that part `part` opens, as
/// a learner gets it: through the link's round trip (no notice, the page's
/// keys unchanged), with the link's model and chip.
pub fn scale_page(id: &str, seed: u64, part: usize) -> (Question, ScaleView) {
    let q = question(id, seed).unwrap();
    let s = q.opening(part);
    let link = encode(&s);
    let d = decode_with(&link, OUTLINE);
    assert!(d.notices.is_empty(), "{id}/{seed}: {link} {:?}", d.notices);
    assert_eq!(d.state.view, View::Scale, "{id}");
    assert_eq!(d.state.scale, s.scale, "{id}/{seed}: {link}");
    let st = d.state;
    let chip = st.calc.chip().unwrap();
    let (ms, _) = roofline_core::model::read_query(&st.model);
    let model = roofline_core::model::preset(&ms.model)
        .map_or_else(|| ms.custom.clone(), |p| p.config.clone());
    let (scale, notices) = read_query(&st.scale);
    assert!(notices.is_empty(), "{id}: {notices:?}");
    let v = evaluate_scale(&scale, &chip, &st.calc.op, &st.calc.sizes, &model);
    (q, v)
}

/// The Scale page's `data-value` of `testid` in `v`, for question `id`.
pub fn page_text(v: &ScaleView, id: &str, testid: &str) -> String {
    v.value(testid)
        .unwrap_or_else(|| panic!("{id}: no {testid} ({:?})", v.errors))
        .to_string()
}
