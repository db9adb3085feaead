//! The quiz's feedback on the mistakes learners make (issue #38): each
//! mistake, typed as a learner types it, gets a sentence naming the
//! concept it misses, on every part where it can occur; an answer from an
//! older version of the book passes with a note; a formula typed where a
//! number is asked is diagnosed, not refused.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use roofline_core::quiz::{
    check, ids, question, AnswerKind, Expected, Part, PartState, Question, Verdict,
};

fn q(id: &str) -> Question {
    question(id, 0).unwrap_or_else(|| panic!("no question {id}"))
}

fn part(id: &str, part_id: &str) -> Part {
    q(id)
        .part(part_id)
        .unwrap_or_else(|| panic!("no part {id}/{part_id}"))
        .clone()
}

/// The hint of a wrong answer (panics on any other verdict).
fn wrong(p: &Part, answer: &str) -> String {
    match check(p, answer) {
        Verdict::Wrong { hint } => hint,
        other => panic!("{}: '{answer}' should be wrong, got {other:?}", p.id),
    }
}

/// The note of a right answer that has one.
fn noted(p: &Part, answer: &str) -> String {
    match check(p, answer) {
        Verdict::RightWithNote { note } => note,
        other => panic!(
            "{}: '{answer}' should pass with a note, got {other:?}",
            p.id
        ),
    }
}

fn has(text: &str, words: &[&str]) {
    for w in words {
        assert!(text.contains(w), "'{w}' missing from: {text}");
    }
}

/// A variant whose setup mentions `what` (a chip with a sparse figure).
fn variant_with(id: &str, what: &str) -> Question {
    (1..400u64)
        .filter_map(|s| question(id, s))
        .find(|q| q.setup.contains(what))
        .unwrap_or_else(|| panic!("no variant of {id} with {what}"))
}

fn expected(p: &Part) -> f64 {
    match p.expected {
        Expected::Number { value, .. } => value,
        _ => panic!("{} is not numeric", p.id),
    }
}

const DTYPE: &[&str] = &["whatever the data type", "not the FLOPs"];

#[test]
fn the_seed_learners_two_b_squared_is_answered_not_refused() {
    let a = part("q4", "a");
    for typed in ["2B^2", "2B²", "2*B*B", "B*2BDF/(BD+BDF+BF)", "2B"] {
        let hint = wrong(&a, typed);
        has(
            &hint,
            &[
                "grows with B",
                "2BDF, not B × 2BDF",
                "its own D×F matrix",
                "B cancels",
            ],
        );
    }
    // The same numbers at the question's B = 64.
    for typed in ["8192", "128"] {
        has(&wrong(&a, typed), &["2BDF, not B × 2BDF"]);
    }
    // The exact formula is right in substance: asked for its value, not
    // counted as a wrong try.
    let mut st = PartState::default();
    match st.submit(&a, "2BDF/(BD+BDF+BF)") {
        Verdict::Close { hint } => has(
            &hint,
            &["Right formula; now give its value", "B = 64", "D = 4096"],
        ),
        other => panic!("{other:?}"),
    }
    assert_eq!(st.wrong_tries, 0);
    // A formula that is neither: a number is wanted, and what it comes to.
    match check(&a, "D/F + 5") {
        Verdict::Unreadable { message } => {
            has(&message, &["wants a number", "comes to 6"]);
        }
        other => panic!("{other:?}"),
    }
    let b = part("q4", "b");
    has(&wrong(&b, "2B^2DF/(BD+BDF+BF)"), &["2BDF, not B × 2BDF"]);
    // Bytes cut to DF: the intensity grows with B, B should cancel.
    has(
        &wrong(&b, "2BDF/(BD+DF+BF)"),
        &["grows with B", "B cancels", "DF where BDF belongs"],
    );
}

#[test]
fn a_flop_count_doubled_for_the_data_type_is_explained() {
    // The reader's question: is bf16 × int8 4BDF FLOPs?
    let q2a = part("q2", "a");
    let hint = wrong(&q2a, "4BDF/(2BD+DF+2BF)");
    has(&hint, DTYPE);
    has(&hint, &["4BDF", "bf16 × int8 is still 2BDF FLOPs"]);
    assert!(!hint.contains("times the expected"), "{hint}");
    has(&wrong(&part("q2", "b"), "4B"), DTYPE);
    has(&wrong(&part("q2", "c"), "60"), DTYPE);
    has(&wrong(&part("q2", "c"), "61"), DTYPE);
    has(
        &wrong(&part("q1", "b"), "4BDF"),
        &["whatever the data type"],
    );
    has(&wrong(&part("q1", "c"), "4BDF/(BD+DF+BF)"), &["4BDF"]);
    has(&wrong(&part("q1", "d-math"), "4BDF/3.94e14"), &["4BDF"]);
    has(&wrong(&part("q1", "f"), "120"), &["4BDF"]);
    has(&wrong(&part("q3", "c"), "60"), DTYPE);
    has(&wrong(&part("q4", "a"), "4"), &["4BDF"]);
    has(&wrong(&part("q5", "a"), "148"), DTYPE);
    has(&wrong(&part("ex-dot", "a"), "4N"), DTYPE);
    has(&wrong(&part("ex-dot", "c"), "1"), DTYPE);
    has(&wrong(&part("ex-240", "b"), "2B"), DTYPE);
    has(&wrong(&part("ex-240", "c"), "120"), DTYPE);
    has(&wrong(&part("x-fp8", "b"), "4B"), DTYPE);
    has(&wrong(&part("x-int4", "b"), "8B"), DTYPE);
    has(&wrong(&part("x-int4", "c"), "30"), DTYPE);
    // An elementwise add has no multiply: one operation per element.
    has(&wrong(&part("x-add", "a"), "1/6"), &["one operation"]);
}

#[test]
fn a_flop_count_without_the_factor_two_is_explained() {
    let half = ["a multiply and an add"];
    has(&wrong(&part("q1", "b"), "BDF"), &half);
    has(&wrong(&part("q1", "c"), "BDF/(BD+DF+BF)"), &half);
    has(
        &wrong(&part("q1", "d-math"), "BDF/3.94e14"),
        &["half of 2BDF"],
    );
    has(&wrong(&part("q2", "a"), "BDF/(2BD+DF+2BF)"), &half);
    has(&wrong(&part("q4", "a"), "1"), &half);
    has(&wrong(&part("q4", "b"), "BDF/(BD+BDF+BF)"), &half);
    has(&wrong(&part("ex-dot", "a"), "N"), &half);
    has(&wrong(&part("ex-dot", "c"), "0.25"), &half);
    has(&wrong(&part("ex-240", "c"), "480"), &half);
    has(&wrong(&part("ex-net", "a"), "BDF / (2 × 1.97e14)"), &half);
    has(&wrong(&part("x-time", "a"), "43.6 us"), &half);
    has(&wrong(&part("x-pcie", "d"), "87.2 us"), &half);
    // Where the halved count gives another known mistake's number, both
    // hints are given.
    let f = wrong(&part("q1", "f"), "480");
    has(&f, &["critical intensity itself", "half of 2BDF"]);
    let b = wrong(&part("q2", "b"), "B");
    has(&b, &["all-bf16", "half of 2BDF"]);
}

#[test]
fn the_approximations_crossing_given_for_the_exact_one_is_named() {
    for (pid, n) in [("a", "4096"), ("b", "1024")] {
        let p = part("q3", pid);
        // 120 with today's bandwidth, 122 with the older one.
        for typed in ["120", "122", "~121"] {
            let hint = wrong(&p, typed);
            has(
                &hint,
                &[
                    "approximation's crossing",
                    "2B > 240.2",
                    &format!("D = F = {n}"),
                    "2BD + 2BF",
                ],
            );
        }
    }
    // Each curve's crossing given for the other's.
    has(&wrong(&part("q3", "a"), "226"), &["D = F = 1024 curve"]);
    has(&wrong(&part("q3", "b"), "136"), &["D = F = 4096 curve"]);
    // And the exact crossing where the approximation is asked.
    for typed in ["136", "226"] {
        has(&wrong(&part("q3", "c"), typed), &["exact crossing"]);
    }
}

#[test]
fn an_older_eras_number_passes_with_a_note() {
    let f = part("q1", "f");
    for typed in ["240", "~240", "about 240", "240 tokens", "≈ 241"] {
        assert_eq!(check(&f, typed), Verdict::Right, "{typed}");
    }
    for typed in ["243", "B > 243", "243.2"] {
        let note = noted(&f, typed);
        has(
            &note,
            &[
                "older TPU v5e HBM bandwidth, 8.1e11 bytes/s",
                "the book now uses 8.2e11 bytes/s, which gives 240.",
            ],
        );
        assert!(check(&f, typed).message().starts_with("Right. "));
    }
    let mut st = PartState::default();
    assert!(st.submit(&f, "243").is_right());
    assert!(st.solved);
    for a in ["250", "230"] {
        wrong(&f, a);
    }
    let e = part("q1", "e");
    assert_eq!(check(&e, "480"), Verdict::Right);
    has(&noted(&e, "486"), &["8.1e11", "480 FLOPs/byte"]);
    has(&noted(&e, "486 OPs/byte"), &["8.1e11"]);
    let comms = part("q1", "d-comms");
    assert_eq!(check(&comms, "(BD+DF+BF)/8.2e11"), Verdict::Right);
    has(
        &noted(&comms, "(B*D + D*F + B*F) / 8.1e11"),
        &["8.1e11", "8.2e11"],
    );
    wrong(&comms, "(BD+DF+BF)/9e11");
    has(&noted(&part("q2", "c"), "122"), &["8.1e11", "gives 120"]);
    has(&noted(&part("q3", "c"), "122"), &["8.1e11"]);
    has(&noted(&part("ex-240", "c"), "243"), &["8.1e11"]);
    let q5 = part("q5", "a");
    for typed in ["295", "~295", "296"] {
        assert_eq!(check(&q5, typed), Verdict::Right, "{typed}");
    }
    for typed in ["298", "B > 298"] {
        has(
            &noted(&q5, typed),
            &["older dense peak, 1e15 FLOPs/s", "9.89e14", "gives 295"],
        );
    }
    let v6e = part("x-v6e", "a");
    assert_eq!(check(&v6e, "575"), Verdict::Right);
    has(&noted(&v6e, "569"), &["rounded", "9.1e14", "9.2e14"]);
}

#[test]
fn the_sparse_peak_is_named_where_a_chip_quotes_one() {
    let sparse = ["sparse figure", "structured sparsity", "half of it"];
    let q5 = part("q5", "a");
    has(&wrong(&q5, "591"), &sparse);
    has(&wrong(&q5, "B > 591"), &sparse);
    // The same slip on other questions when the chip is an NVIDIA one.
    for (id, pid) in [
        ("ex-240", "a"),
        ("ex-240", "c"),
        ("q2", "c"),
        ("q3", "a"),
        ("q3", "c"),
        ("x-time", "a"),
        ("x-v6e", "a"),
    ] {
        let q = variant_with(id, "H100");
        let p = q.part(pid).unwrap();
        let hint = p
            .mistakes
            .iter()
            .find(|m| m.hint.contains("sparse figure"))
            .unwrap_or_else(|| panic!("{id}/{pid}: no sparse slip"));
        let Expected::Number { value, .. } = hint.answer else {
            panic!("{id}/{pid}")
        };
        // Typed as a learner would, rounded to 3 digits.
        let typed = roofline_core::format::sci(value);
        has(&wrong(p, &typed), &sparse);
        assert!(value < expected(p) * 0.75 || value > expected(p) * 1.5);
    }
}

#[test]
fn a_critical_intensity_or_a_cancelling_size_with_b_in_it_is_named() {
    for (id, pid) in [
        ("q1", "e"),
        ("ex-240", "a"),
        ("x-fp8", "a"),
        ("x-vmem", "a"),
        ("x-pcie", "a"),
    ] {
        has(
            &wrong(&part(id, pid), "2B"),
            &["grows with B", "belongs to the chip alone"],
        );
    }
    has(&wrong(&part("ex-net", "c"), "B*D"), &["B and F cancel"]);
    has(&wrong(&part("x-small", "c"), "2B"), &["levels off"]);
    has(&wrong(&part("ex-dot", "c"), "N/2"), &["N cancels"]);
    has(&wrong(&part("x-add", "a"), "N/12"), &["N cancels"]);
}

#[test]
fn a_formula_in_a_number_part_is_read_in_the_questions_symbols() {
    // The right formula for T_math: asked for its value.
    let t = part("x-time", "a");
    match check(&t, "2BDF/1.97e14") {
        Verdict::Close { hint } => has(&hint, &["Right formula", "B = 128"]),
        other => panic!("{other:?}"),
    }
    // A doubled count written as a formula is still the doubled count.
    has(&wrong(&part("q4", "a"), "4BDF/(BD+BDF+BF)"), &["4BDF"]);
    // Text that is no formula in the symbols keeps the old message.
    match check(&part("q1", "f"), "2X^2") {
        Verdict::Unreadable { message } => has(&message, &["wants a number"]),
        other => panic!("{other:?}"),
    }
    // Formulas that cannot be evaluated say so, without NaN or inf.
    for typed in ["B/(D-D)", "B^B^B^B", "(D-D)/(F-F)"] {
        for id in ids() {
            for p in &q(id).parts {
                if matches!(p.kind, AnswerKind::Number { .. }) {
                    let m = check(p, typed).message();
                    assert!(!m.contains("NaN") && !m.contains("inf"), "{m}");
                }
            }
        }
    }
}

/// Every hint and note, for the book's numbers and variants, reads as a
/// sentence with its numbers: no "NaN", no "inf", no dash for a missing
/// value, and every part whose answer follows from the FLOP count of a
/// matmul names both FLOP slips.
#[test]
fn every_hint_and_note_is_written_out() {
    for id in ids() {
        for seed in [0, 3, 42, 1234] {
            let q = question(id, seed).unwrap();
            for p in &q.parts {
                let texts = p
                    .mistakes
                    .iter()
                    .map(|m| m.hint.as_str())
                    .chain(p.notes.iter().map(|n| n.text.as_str()))
                    .chain(p.grows.iter().map(|g| g.hint.as_str()));
                for t in texts {
                    assert!(!t.is_empty(), "{id}/{}", p.id);
                    assert!(
                        !t.contains("NaN") && !t.contains("inf ") && !t.contains('—'),
                        "{id}/{}: {t}",
                        p.id
                    );
                }
            }
        }
    }
    for (id, pid) in [
        ("q1", "b"),
        ("q1", "c"),
        ("q1", "d-math"),
        ("q1", "f"),
        ("q2", "a"),
        ("q2", "b"),
        ("q2", "c"),
        ("q3", "a"),
        ("q3", "b"),
        ("q3", "c"),
        ("q4", "a"),
        ("q4", "b"),
        ("q5", "a"),
        ("ex-dot", "a"),
        ("ex-dot", "c"),
        ("ex-240", "b"),
        ("ex-240", "c"),
        ("ex-net", "a"),
        ("ex-net", "c"),
        ("x-fp8", "b"),
        ("x-fp8", "c"),
        ("x-vmem", "b"),
        ("x-pcie", "b"),
        ("x-pcie", "d"),
        ("x-time", "a"),
        ("x-v6e", "a"),
        ("x-v6e", "c"),
        ("x-int4", "b"),
        ("x-int4", "c"),
        ("x-small", "a"),
        ("x-small", "b"),
        ("x-small", "c"),
    ] {
        let p = part(id, pid);
        let hints: Vec<&str> = p.mistakes.iter().map(|m| m.hint.as_str()).collect();
        for concept in ["whatever the data type", "a multiply and an add"] {
            assert!(
                hints.iter().any(|h| h.contains(concept)),
                "{id}/{pid} lacks '{concept}': {hints:?}"
            );
        }
    }
}

/// Issue #46, item 10: q4(b) typed with the right operations over the
/// wrong bytes (DF for BF) is told the operations are right and which
/// byte term slipped; the wrong operations over the right bytes are told
/// the reverse.
#[test]
fn q4b_tells_a_byte_slip_from_an_operations_slip() {
    let p = part("q4", "b");
    assert!(q("q4").setup.contains("int8"), "{}", q("q4").setup);
    let h = wrong(&p, "2BDF/(BD+BDF+DF)");
    has(&h, &["on top, 2BDF, are right", "DF where BF belongs"]);
    assert!(!h.contains("OPs are"), "{h}");
    let h = wrong(&p, "2BDF/(BD+BDF)");
    has(&h, &["are right", "BF is missing"]);
    let h = wrong(&p, "2BDF/(2BD+2BDF+2BF)");
    has(&h, &["are right", "2 times the expected"]);
    let h = wrong(&p, "2*B^2*D*F/(BD+BDF+BF)");
    has(&h, &["bytes underneath are right", "operations on top"]);
    // The right answer, its terms in any order, still passes.
    assert!(check(&p, "2BDF/(BF+BDF+BD)").is_right());
}
