//! The quiz bank: every question builds, every official answer passes its
//! own checker, nearby wrong answers fail, and the book's numbers (both
//! eras where the book changed them) come out as in
//! shared/reference/book-model.md.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use roofline_core::analyze;
use roofline_core::quiz::{
    check, ids, next_seed, parse_number, question, AnswerKind, Expected, Part, PartState, Question,
    Unit, Verdict,
};

const SEEDS: [u64; 9] = [0, 1, 2, 3, 7, 42, 1234, 987_654_321, 9_007_199_254_740_991];

fn q(id: &str) -> Question {
    question(id, 0).unwrap_or_else(|| panic!("no question {id}"))
}

fn part(id: &str, part_id: &str) -> Part {
    q(id)
        .part(part_id)
        .unwrap_or_else(|| panic!("no part {id}/{part_id}"))
        .clone()
}

fn right(p: &Part, answer: &str) {
    let v = check(p, answer);
    assert_eq!(v, Verdict::Right, "{}: '{answer}' should pass", p.id);
}

fn wrong(p: &Part, answer: &str) -> String {
    match check(p, answer) {
        Verdict::Wrong { hint } => hint,
        other => panic!("{}: '{answer}' should be wrong, got {other:?}", p.id),
    }
}

fn unreadable(p: &Part, answer: &str) -> String {
    match check(p, answer) {
        Verdict::Unreadable { message } => message,
        other => panic!("{}: '{answer}' should be unreadable, got {other:?}", p.id),
    }
}

fn expected_number(p: &Part) -> f64 {
    match p.expected {
        Expected::Number { value, .. } => value,
        _ => panic!("{} is not numeric", p.id),
    }
}

fn close(got: f64, want: f64, rel: f64) {
    assert!(
        (got - want).abs() <= rel * want.abs(),
        "got {got}, want {want}"
    );
}

#[test]
fn at_least_fifteen_questions_with_unique_ids() {
    let ids = ids();
    assert!(ids.len() >= 15, "{} questions", ids.len());
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), ids.len());
    for id in ["q1", "q2", "q3", "q4", "q5", "ex-dot", "ex-240", "ex-net"] {
        assert!(ids.contains(&id), "{id}");
    }
    let extras = ids.iter().filter(|i| i.starts_with("x-")).count();
    assert!(extras >= 6, "{extras} extras");
    for id in ids {
        let q = q(id);
        assert!(!q.parts.is_empty());
        let mut pids: Vec<&str> = q.parts.iter().map(|p| p.id.as_str()).collect();
        pids.sort_unstable();
        pids.dedup();
        assert_eq!(pids.len(), q.parts.len(), "{id} repeats a part id");
    }
    assert!(question("nope", 0).is_none());
}

#[test]
fn sources_name_the_book() {
    for i in 1..=5 {
        assert_eq!(q(&format!("q{i}")).source, format!("Practice question {i}"));
    }
    assert_eq!(q("ex-240").source, "Worked example");
    assert_eq!(q("x-vmem").source, "Roofline Lab extra");
}

/// Every official answer passes; answers 3 tolerances away fail; every
/// other option fails; a formula scaled by 1.5 fails.
fn official_answers_hold(q: &Question) {
    for p in &q.parts {
        right(p, &p.expected_text);
        assert!(
            !p.hint.is_empty() && !p.solution.is_empty(),
            "{}/{}",
            q.id,
            p.id
        );
        match (&p.kind, &p.expected) {
            (AnswerKind::Number { rel_tol, .. }, Expected::Number { value, also_accept }) => {
                right(p, &format!("{value:e}"));
                // Another version's number passes, and says which it is.
                for a in also_accept {
                    let v = check(p, &format!("{a:e}"));
                    assert!(
                        matches!(v, Verdict::RightWithNote { .. }),
                        "{}/{}: {v:?}",
                        q.id,
                        p.id
                    );
                }
                for k in [1.0 + 3.0 * rel_tol, 1.0 - 3.0 * rel_tol] {
                    let v = check(p, &format!("{:e}", value * k));
                    assert!(
                        matches!(v, Verdict::Wrong { .. }),
                        "{}/{} seed {}: {} should fail, got {v:?}",
                        q.id,
                        p.id,
                        q.seed,
                        value * k
                    );
                }
            }
            (AnswerKind::Formula { .. }, Expected::Formula { expr, .. }) => {
                let scaled = format!("1.5*({expr})");
                assert!(
                    matches!(check(p, &scaled), Verdict::Wrong { .. }),
                    "{}/{}: {scaled}",
                    q.id,
                    p.id
                );
            }
            (AnswerKind::Choice { options }, Expected::Choice(i)) => {
                assert!(*i < options.len());
                for (j, o) in options.iter().enumerate() {
                    let v = check(p, &o.label);
                    assert_eq!(v.is_right(), j == *i, "{}/{} option {j}", q.id, p.id);
                }
            }
            _ => panic!("{}/{}: kind and expected disagree", q.id, p.id),
        }
    }
}

#[test]
fn official_answers_pass_and_near_misses_fail_for_book_and_variants() {
    for id in ids() {
        for seed in SEEDS {
            let q = question(id, seed).unwrap();
            assert_eq!(q.seed, seed, "{id} fell back to the book for seed {seed}");
            official_answers_hold(&q);
        }
    }
}

#[test]
fn calculator_setups_load() {
    for id in ids() {
        for seed in SEEDS {
            let q = question(id, seed).unwrap();
            analyze(&q.calc.scenario().unwrap()).unwrap();
            for p in &q.parts {
                analyze(&q.calc_for(&p.id).scenario().unwrap()).unwrap();
            }
            assert!(q.calc.chips >= 1);
        }
    }
    let net = q("ex-net");
    assert_eq!(net.calc.chips, 2);
    assert_eq!(net.calc.shard_dim.as_deref(), Some("D"));
    let q3 = q("q3");
    assert_eq!(q3.calc_for("b").sizes.get("D"), Some(&1024.0));
    assert_eq!(q3.calc_for("a").sizes.get("D"), Some(&4096.0));
}

#[test]
fn variants_are_deterministic_and_differ() {
    for id in ids() {
        let a = question(id, 99).unwrap();
        assert_eq!(a, question(id, 99).unwrap());
        let distinct = (1..20u64)
            .map(|s| question(id, s).unwrap().setup)
            .collect::<std::collections::BTreeSet<_>>();
        assert!(distinct.len() > 1, "{id} has no variety");
    }
    for seed in 1..150u64 {
        for id in ids() {
            assert_eq!(question(id, seed).unwrap().seed, seed, "{id} {seed}");
        }
    }
}

#[test]
fn next_seed_is_never_zero_and_fits_javascript() {
    let mut s = 0;
    for _ in 0..1000 {
        let n = next_seed(s);
        assert_ne!(n, 0);
        assert!(n < 1 << 53);
        assert_eq!(n, next_seed(s));
        s = n;
    }
}

#[test]
fn book_numbers_come_out() {
    close(expected_number(&part("ex-dot", "c")), 0.5, 1e-9);
    close(
        expected_number(&part("ex-240", "c")),
        1.97e14 / 8.2e11,
        1e-12,
    );
    close(
        expected_number(&part("ex-net", "c")),
        2.0 * 1.97e14 / 4.5e10,
        1e-9,
    );
    close(expected_number(&part("q1", "e")), 3.94e14 / 8.2e11, 1e-12);
    close(expected_number(&part("q1", "f")), 240.24, 1e-3);
    close(expected_number(&part("q2", "c")), 120.12, 1e-3);
    close(expected_number(&part("q3", "a")), 136.1, 1e-3);
    close(expected_number(&part("q3", "b")), 226.3, 1e-3);
    close(expected_number(&part("q4", "a")), 2.0, 1e-9);
    close(expected_number(&part("q5", "a")), 9.89e14 / 3.35e12, 1e-12);
    // The sheet's sparse figure, as the book quotes it.
    close(expected_number(&part("q5", "c")), 1.979e15 / 3.35e12, 1e-12);
    close(
        expected_number(&part("x-fp8", "c")),
        // NVIDIA's 1,979 TFLOPS fp8 (the book's table rounds to 1.98e15).
        1.979e15 / 3.35e12 / 2.0,
        1e-12,
    );
    close(
        expected_number(&part("x-vmem", "a")),
        1.97e14 / 1.8e13,
        1e-12,
    );
    close(
        expected_number(&part("x-pcie", "a")),
        1.97e14 / 1.6e10,
        1e-12,
    );
    close(expected_number(&part("x-add", "a")), 1.0 / 12.0, 1e-12);
    close(expected_number(&part("x-small", "c")), 64.0, 1e-12);
    close(expected_number(&part("x-v6e", "a")), 9.2e14 / 1.6e12, 1e-12);
    close(
        expected_number(&part("x-int4", "c")),
        1.97e14 / 8.2e11 / 4.0,
        1e-12,
    );
    let t = expected_number(&part("x-time", "a"));
    close(t, 2.0 * 128.0 * 8192.0 * 8192.0 / 1.97e14, 1e-12);
}

#[test]
fn formulas_are_checked_by_value() {
    let b = part("q1", "b");
    for a in [
        "2*B*D*F",
        "B*F*(2*D)",
        "2BDF",
        "2 B D F",
        "2·B·D·F",
        "2×B×D×F",
        "(B*D*F)*2",
        "OPs = 2BDF",
        "4*B*D*F/2",
        "2bdf",
    ] {
        right(&b, a);
    }
    assert!(wrong(&b, "B*D*F").contains("multipl"));
    assert!(wrong(&b, "3*B*D*F").contains("1.5 times"));
    assert!(unreadable(&b, "2*B*D*X").contains("'X', which is not one of B, D or F"));
    assert!(unreadable(&b, "2*B*").contains("ends too early"));
    assert!(unreadable(&b, "2*(B*D*F").contains("never closed"));
    assert!(wrong(&b, "240").contains("formula"));

    let c = part("q1", "c");
    right(&c, "2BDF/(BD+DF+BF)");
    right(&c, "2*B*D*F / (B*D + D*F + B*F)");
    right(&c, "2/(1/F + 1/B + 1/D)");
    wrong(&c, "2B");

    let approx = part("q2", "b");
    right(&approx, "2B");
    right(&approx, "2BDF/DF");
    right(&approx, "B*2");
    assert!(wrong(&approx, "B").contains("all-bf16"));

    let q4 = part("q4", "b");
    right(&q4, "2BDF/(BD + BDF + BF)");
    assert!(wrong(&q4, "2B^2DF/(BD + BDF + BF)").contains("2BDF"));
    assert!(wrong(&q4, "2B²DF/(BD + BDF + BF)").contains("2BDF"));

    let dot = part("ex-dot", "a");
    right(&dot, "2N-1");
    right(&dot, "2N");
    right(&dot, "2*N − 1");
    wrong(&dot, "N");
    wrong(&dot, "2N+1");

    let tm = part("q1", "d-math");
    right(&tm, "2BDF/3.94e14");
    right(&tm, "BDF/1.97e14");
    right(&tm, "2*B*D*F/(3.94*10^14)");
    assert!(wrong(&tm, "BDF/3.94e14").contains("half of 2BDF"));

    let int4 = part("x-int4", "a");
    right(&int4, "2BD + DF/2");
    right(&int4, "2BD + 0.5DF");
    assert!(wrong(&int4, "2BD + DF").contains("half a byte"));
}

#[test]
fn numbers_are_read_as_people_write_them() {
    let s = Unit::Seconds;
    for a in [
        "0.5 ms",
        "500 us",
        "500 µs",
        "500 μs",
        "5e-4",
        "5e-4 s",
        "500us",
        "0.0005",
        "500 microseconds",
        "5 × 10^-4 s",
    ] {
        close(parse_number(a, s).unwrap(), 5e-4, 1e-12);
    }
    let r = Unit::FlopsPerSecond;
    for a in [
        "1.97e14",
        "197e12",
        "1.97E+14",
        "197 T",
        "197T",
        "197 TFLOPs/s",
        "197 TFLOPS",
        "1.97 × 10^14",
        "1.97x10**14",
        "197,000,000,000,000",
    ] {
        close(parse_number(a, r).unwrap(), 1.97e14, 1e-12);
    }
    let n = Unit::None;
    close(parse_number("1,000", n).unwrap(), 1000.0, 0.0);
    for a in [
        "~240",
        "≈240",
        "about 240",
        "B > 240",
        "B>240",
        "240 tokens",
        "batch size = 240",
        "approx. 240",
        "+240",
    ] {
        close(parse_number(a, n).unwrap(), 240.0, 0.0);
    }
    close(
        parse_number("1/12", Unit::FlopsPerByte).unwrap(),
        1.0 / 12.0,
        1e-12,
    );
    close(parse_number("12.3k", n).unwrap(), 12_300.0, 1e-12);
    close(parse_number("8.39 MB", Unit::Bytes).unwrap(), 8.39e6, 1e-12);
    close(parse_number("1 KiB", Unit::Bytes).unwrap(), 1024.0, 0.0);
    close(
        parse_number("820 GB/s", Unit::BytesPerSecond).unwrap(),
        8.2e11,
        1e-12,
    );
    close(
        parse_number("240 FLOPs/byte", Unit::FlopsPerByte).unwrap(),
        240.0,
        0.0,
    );
    close(parse_number("-3", n).unwrap(), -3.0, 0.0);
    for bad in [
        "",
        "   ",
        "abc",
        "240 bananas",
        "1,5",
        "12,34",
        "240 or 243",
        "2/0",
        "I think 240",
    ] {
        let e = parse_number(bad, n).unwrap_err();
        assert!(!e.is_empty(), "{bad}");
    }
    let e = parse_number("5 GB", s).unwrap_err();
    assert!(e.contains("a time") && e.contains("bytes"), "{e}");
    assert!(parse_number("1e400", n).is_err());
}

#[test]
fn times_accept_any_unit_and_a_missing_unit_gets_a_hint() {
    let a = part("x-time", "a");
    for ans in [
        "87.2 us",
        "87.2 µs",
        "0.0872 ms",
        "8.72e-5",
        "87200 ns",
        "8.72e-5 s",
    ] {
        right(&a, ans);
    }
    assert!(wrong(&a, "87.2").contains("unit"));
    wrong(&a, "100 us");
    let msg = unreadable(&a, "87 GB");
    assert!(msg.contains("a time"), "{msg}");
    let c = part("x-pcie", "c");
    right(&c, "8.9 ms");
    right(&c, "8900 us");
}

#[test]
fn worked_example_240_takes_a_tilde() {
    let c = part("ex-240", "c");
    right(&c, "~240");
    right(&c, "240");
    right(&c, "B > 240");
    let a = part("ex-240", "a");
    right(&a, "240 FLOPs/byte");
}

#[test]
fn choices_take_synonyms() {
    let d = part("ex-dot", "d");
    for a in [
        "bandwidth-bound",
        "Bandwidth",
        "memory bound",
        "memory-bound",
        "band",
        "2",
        "it is bandwidth bound",
    ] {
        right(&d, a);
    }
    for a in ["compute-bound", "compute", "1"] {
        wrong(&d, a);
    }
    assert!(unreadable(&d, "not compute bound").contains("rather than"));
    unreadable(&d, "");
    unreadable(&d, "banana");
    let q4 = part("q4", "c");
    for a in [
        "no",
        "No.",
        "never",
        "never compute-bound",
        "always bandwidth-bound",
        "stays bandwidth-bound",
    ] {
        right(&q4, a);
    }
    wrong(&q4, "yes");
    let net = part("ex-net", "d");
    right(&net, "no");
    right(&net, "it does not depend on B");
    wrong(&net, "yes");
    let low = part("q1", "d-lower");
    right(&low, "max");
    right(&low, "max(T_math, T_comms)");
    wrong(&low, "sum");
    let up = part("q1", "d-upper");
    right(&up, "T_math + T_comms");
    right(&up, "the sum");
    let q5 = part("q5", "b");
    right(&q5, "dense");
    wrong(&q5, "sparse");
}

#[test]
fn feedback_gives_a_hint_then_the_answer() {
    let p = part("q2", "c");
    let mut st = PartState::default();
    assert!(!st.shows_solution());
    assert!(matches!(st.submit(&p, "what"), Verdict::Unreadable { .. }));
    assert_eq!(st.wrong_tries, 0);
    let Verdict::Wrong { hint } = st.submit(&p, "1000") else {
        panic!("should be wrong")
    };
    assert_eq!(hint, p.hint);
    assert!(!st.shows_solution());
    st.submit(&p, "999");
    assert!(st.shows_solution());
    assert!(
        p.solution.iter().any(|s| s.contains("120.1")),
        "{:?}",
        p.solution
    );

    let mut st = PartState::default();
    st.reveal();
    assert!(st.shows_solution());
    let mut st = PartState::default();
    assert!(st.submit(&p, "120").is_right());
    assert!(st.solved && st.shows_solution());
}

#[test]
fn messages_never_show_nan_or_inf() {
    let odd = [
        "NaN", "inf", "-inf", "1e400", "1/0", "0", "-0", "B/0", "B/(D-D)", "0*B", "inf ms",
        "nan s", "1e-400", "Infinity",
    ];
    for id in ids() {
        let q = q(id);
        for p in &q.parts {
            for a in odd {
                let m = check(p, a).message();
                for w in m.split(|c: char| !c.is_alphanumeric()) {
                    let w = w.to_lowercase();
                    assert!(
                        w != "nan" && w != "inf" && w != "infinity",
                        "{id}/{}: '{a}' gave '{m}'",
                        p.id
                    );
                }
            }
        }
    }
}

#[test]
fn texts_are_written_out() {
    for id in ids() {
        for seed in [0, 5, 77] {
            let q = question(id, seed).unwrap();
            let mut texts = vec![q.setup.clone(), q.title.clone()];
            for p in &q.parts {
                texts.extend([p.prompt.clone(), p.hint.clone(), p.expected_text.clone()]);
                texts.extend(p.solution.clone());
            }
            for t in texts {
                assert!(!t.is_empty(), "{id}");
                assert!(
                    !t.contains("NaN") && !t.contains("inf ") && !t.contains('—'),
                    "{id}: {t}"
                );
                assert!(
                    !t.contains(" a H") && !t.contains(" an T") && !t.contains(" an B"),
                    "{id}: {t}"
                );
            }
        }
    }
}

#[test]
fn every_setup_opens_in_the_calculator_without_notices() {
    use roofline_core::pages::{AppState, View};
    use roofline_core::url::{decode, encode};
    for id in roofline_core::quiz::ids() {
        for seed in [0, 7, 12345] {
            let q = roofline_core::quiz::question(id, seed).unwrap();
            for part in &q.parts {
                let state = AppState {
                    view: View::Calculator,
                    calc: q.calc_for(&part.id).calc_state(),
                    ..AppState::default()
                };
                let link = encode(&state);
                let d = decode(&link);
                assert!(
                    d.notices.is_empty(),
                    "{id}/{seed}/{}: {link} {:?}",
                    part.id,
                    d.notices
                );
                assert_eq!(d.state.calc, state.calc, "{id}/{seed}");
                d.state.calc.scenario().unwrap();
            }
        }
    }
}

#[test]
fn links_name_a_question_or_part_that_does_not_exist() {
    use roofline_core::url::decode_with;
    let index = roofline_core::quiz::index();
    assert_eq!(index.len(), roofline_core::quiz::ids().len());
    let d = decode_with("v=1&view=quiz&q=q99", &index);
    assert_eq!(d.notices.len(), 1, "{:?}", d.notices);
    assert_eq!(d.notices[0].param, "q");
    let d = decode_with("v=1&view=quiz&q=q1&part=99", &index);
    assert_eq!(d.notices[0].param, "part");
    assert!(decode_with("v=1&view=quiz&q=q5&part=2", &index)
        .notices
        .is_empty());
}

#[test]
fn the_outline_matches_the_bank_for_every_seed() {
    use roofline_core::quiz::{ids, question, OUTLINE};
    let listed: Vec<&str> = OUTLINE.iter().map(|(id, _)| *id).collect();
    assert_eq!(
        listed,
        ids(),
        "the outline lists the bank's questions in order"
    );
    for (id, parts) in OUTLINE {
        for seed in 0..40 {
            let q = question(id, seed).unwrap();
            assert_eq!(q.parts.len() as u32, *parts, "{id}/{seed}");
        }
    }
    assert_eq!(OUTLINE.to_vec(), roofline_core::quiz::index());
}

#[test]
fn the_contents_are_the_built_questions_titles_and_parts() {
    use roofline_core::quiz::{contents, question};
    let listed = contents();
    assert_eq!(listed.len(), roofline_core::quiz::OUTLINE.len());
    for (id, title, parts) in listed {
        for seed in [0, 1, 7] {
            let q = question(id, seed).unwrap();
            assert_eq!(q.title, title, "{id}/{seed}");
            assert_eq!(q.parts.len() as u32, parts, "{id}/{seed}");
            assert!(!title.is_empty());
        }
    }
}

/// The exact operation count of a matmul, B·F·(2D − 1) = 2BDF − BF, is a
/// near miss, not a wrong answer: the book counts 2BDF and drops the −BF.
/// It does not count as a wrong try, so it does not bring the answer out.
#[test]
fn the_exact_count_of_a_matmul_is_close() {
    let b = part("q1", "b");
    for exact in ["2BDF - BF", "B*F*(2*D - 1)", "BF(2D-1)", "2*B*D*F - B*F"] {
        match check(&b, exact) {
            Verdict::Close { hint } => {
                assert!(hint.contains("2BDF − BF"), "{hint}");
                assert!(
                    hint.contains("The book counts 2BDF, dropping the −BF"),
                    "{hint}"
                );
            }
            other => panic!("'{exact}' should be close, got {other:?}"),
        }
    }
    assert!(check(&b, "2BDF - BF").message().starts_with("Close."));
    // Other slips stay wrong.
    wrong(&b, "2BDF - 2BF");
    wrong(&b, "2BDF + BF");
    let mut state = roofline_core::quiz::PartState::default();
    state.submit(&b, "2BDF - BF");
    state.submit(&b, "BF(2D-1)");
    assert_eq!(state.wrong_tries, 0);
    assert!(!state.solved && !state.shows_solution());
    assert!(state.submit(&b, "2BDF").is_right());
}
