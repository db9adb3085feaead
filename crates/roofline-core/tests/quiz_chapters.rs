//! The quiz's chapters after Part 1 (Parts 4, 7 and 8): the book's printed
//! answers pass, the known mistakes get the concept they miss, every
//! variant builds a solvable question with finite numbers, the questions
//! are listed by chapter, and each opens the page that computes it with
//! its numbers.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod quiz_common;
use quiz_common::{all_pass, mistakes_named, verdict};

use roofline_core::pages::View;
use roofline_core::quiz::{by_chapter, chapter_of, check, ids, question, Verdict, OUTLINE};
use roofline_core::url::{decode_with, encode};

/// The questions of the chapters after Part 1.
fn chapter_ids() -> Vec<&'static str> {
    ids()
        .into_iter()
        .filter(|id| chapter_of(id) != "p1")
        .collect()
}

/// The book's printed answers, as the book prints them (rounded where it
/// rounds), each accepted: plainly or with a note saying what it used.
#[test]
fn the_books_printed_answers_pass() {
    let printed = [
        ("p4-q1", "a", "16e9"),
        ("p4-q1", "a", "17.4e9"),
        ("p4-q1", "b", "1/4"),
        ("p4-q1", "c", "512 KiB"),
        ("p4-q1", "c", "524 kB"),
        ("p4-q3", "a", "2*I*J*K*L*M*N*O"),
        ("p4-q5", "a", "8192"),
        ("p4-q7", "a", "0.217"),
        ("p4-q8", "a", "120*E/k"),
        ("p4-q8", "a", "240*E/(2*k)"),
        ("p4-q8", "b", "3840"),
        ("p7-pop1", "a", "2.5 ms"),
        ("p7-pop1", "b", "21ms"),
        ("p7-q1", "a", "18.4e9"),
        ("p7-q1", "b", "262kB"),
        ("p7-q2", "a", "33.5GB"),
        ("p7-q2", "b", "7"),
        ("p7-q2", "c", "56"),
        ("p7-q3", "a", "1.4ms"),
        ("p7-q5", "a", "212e9"),
        ("p7-q5", "b", "31.2e9"),
        ("p7-q5", "c", "1920"),
        ("p7-q5", "d", "262 kB"),
        ("p7-q5", "e", "62.4e9"),
        ("p8-pop1", "a", "160kB"),
        ("p8-pop1", "b", "5.3GB"),
        ("p8-pop1", "c", "1.3TB"),
        ("p8-pop2", "a", "112GB"),
        ("p8-pop2", "b", "8"),
        ("p8-pop3", "a", "17ms"),
        ("p8-pop3", "b", "235"),
        ("p8-pop3", "c", "8.5ms"),
        ("p8-pop4", "a", "240"),
        ("p8-pop4", "b", "120"),
        ("p8-pop4", "c", "240"),
        ("p8-pop5", "a", "8.75"),
        ("p8-pop5", "b", "4.38"),
        ("p8-pop6", "a", "19ms"),
    ];
    all_pass(&printed);
    // The book's 16e9 rounds D and F: accepted, with a note that says so.
    match verdict("p4-q1", "a", "16e9") {
        Verdict::RightWithNote { note } => assert!(note.contains("rounded"), "{note}"),
        other => panic!("16e9: {other:?}"),
    }
    // The book's 86 chips round its caches up to 1.3e12: close, not wrong.
    match verdict("p8-pop1", "d", "86") {
        Verdict::Close { hint } => assert!(hint.contains("1.3e12"), "{hint}"),
        other => panic!("86: {other:?}"),
    }
    // The older v5e bandwidth passes too, with its note.
    match verdict("p7-q3", "a", "1.419 ms") {
        Verdict::RightWithNote { note } => assert!(note.contains("8.1e11"), "{note}"),
        other => panic!("1.419 ms: {other:?}"),
    }
}

/// Each known mistake gets a hint naming the concept it misses.
#[test]
fn each_known_mistake_gets_its_concept() {
    let mistakes = [
        // Grouped-query attention counted as full attention.
        ("p7-q1", "a", "21.6e9", "grouped-query"),
        ("p7-q1", "b", "1 MiB", "grouped-query"),
        ("p7-q2", "a", "134 GB", "grouped-query"),
        // 2 FLOPs per parameter for training instead of 6, and back.
        ("p4-q7", "a", "0.072", "6 in all"),
        ("p7-q5", "e", "1.88e11", "training"),
        ("p7-pop1", "b", "30.6 ms", "training"),
        // bf16's factor of 2 where the numbers are int8.
        ("p4-q1", "c", "1 MiB", "bf16"),
        ("p7-q3", "a", "2.8 ms", "bf16"),
        ("p7-pop1", "a", "4.82 ms", "bf16"),
        ("p7-q2", "b", "3", "bf16"),
        // One chip's bandwidth where every chip reads its own shard.
        ("p7-q3", "a", "22.4 ms", "one chip"),
        ("p7-pop1", "a", "40.6 ms", "one chip"),
        // A spec sheet's sparse figure.
        ("p4-q7", "a", "0.108", "sparse"),
        // An MoE's batch without E/k, or with it upside down.
        ("p4-q8", "b", "120", "E/k"),
        ("p4-q8", "b", "3.75", "swapped"),
        ("p7-q5", "c", "240", "E/k"),
        ("p7-q5", "c", "961", "bf16 peak"),
        // Overlapped times added.
        ("p7-pop1", "b", "23.1 ms", "larger of the two"),
        // The KV cache left out of a decode step.
        ("p7-pop1", "a", "2.29 ms", "KV cache"),
        // Keys and values: a factor of 2.
        ("p4-q1", "c", "256 KiB", "both"),
        // A gated MLP's three matrices.
        ("p4-q1", "a", "13.1e9", "three"),
        // One FLOP per product instead of a multiply and an add.
        ("p4-q3", "a", "I*J*K*L*M*N*O", "2 FLOPs"),
        ("p4-q5", "a", "16384", "two matmuls"),
        ("p8-pop1", "a", "1.31 MB", "grouped-query"),
        ("p8-pop2", "a", "414 GB", "grouped-query"),
        ("p8-pop4", "b", "240", "1-byte weights"),
        ("p8-pop4", "c", "120", "bf16 peak"),
        ("p8-pop3", "a", "138 ms", "one chip"),
        ("p8-pop3", "a", "10.8 ms", "KV caches"),
        // Chips are whole: round up.
        ("p8-pop1", "d", "84", "Round up"),
        ("p8-pop2", "b", "7", "Round up"),
        // The book's table slips on int4 (2.81 for 2.19).
        ("p8-pop5", "c", "2.81", "slip"),
        // A percentage where a fraction is asked.
        ("p4-q7", "a", "21.6", "fraction"),
    ];
    mistakes_named(&mistakes);
}

/// Every seed from 0 to 50 builds its own variant (none falls back to the
/// book's numbers), whose expected answers pass their own check and whose
/// texts show no missing number.
#[test]
fn every_variant_is_solvable_and_finite() {
    assert!(chapter_ids().len() >= 16);
    for id in chapter_ids() {
        let mut setups = std::collections::BTreeSet::new();
        for seed in 0..=50u64 {
            let q = question(id, seed).unwrap();
            assert_eq!(q.seed, seed, "{id} fell back for seed {seed}");
            let mut texts = vec![q.setup.clone(), q.title.clone(), q.source.clone()];
            for p in &q.parts {
                assert!(
                    check(p, &p.expected_text).is_right(),
                    "{id}/{seed}/{}",
                    p.id
                );
                texts.extend([p.prompt.clone(), p.hint.clone(), p.expected_text.clone()]);
                texts.extend(p.solution.clone());
                texts.extend(p.mistakes.iter().map(|m| m.hint.clone()));
                texts.extend(p.notes.iter().map(|n| n.text.clone()));
            }
            for t in texts {
                let lower = t.to_lowercase();
                assert!(
                    !lower.contains("nan") && !lower.contains("inf ") && !lower.ends_with("inf"),
                    "{id}/{seed}: {t}"
                );
            }
            setups.insert(q.setup);
        }
        assert!(setups.len() > 3, "{id}: {} setups", setups.len());
    }
}

/// Questions are listed by chapter, each once; Part 1 keeps its ids, and a
/// link names a chapter's question.
#[test]
fn questions_are_listed_by_chapter() {
    assert_eq!(chapter_of("q1"), "p1");
    assert_eq!(chapter_of("x-vmem"), "p1");
    assert_eq!(chapter_of("p4-q1"), "p4");
    assert_eq!(chapter_of("p7-pop1"), "p7");
    assert_eq!(chapter_of("p9-q1"), "p1");
    let chapters = by_chapter();
    let listed: Vec<&str> = chapters
        .iter()
        .flat_map(|c| c.questions.iter().map(|(id, _, _)| *id))
        .collect();
    assert_eq!(listed, ids());
    let ids_of = |c: &str| -> Vec<&str> {
        chapters
            .iter()
            .find(|ch| ch.id == c)
            .unwrap()
            .questions
            .iter()
            .map(|(id, _, _)| *id)
            .collect()
    };
    assert_eq!(
        ids_of("p4"),
        ["p4-q1", "p4-q2", "p4-q3", "p4-q4", "p4-q5", "p4-q6", "p4-q7", "p4-q8"]
    );
    assert_eq!(ids_of("p7")[0], "p7-pop1");
    assert_eq!(ids_of("p8").len(), 9);
    assert_eq!(ids_of("p7")[4..], ["p7-q4", "p7-q5", "p7-q6", "p7-q7"]);
    assert!(ids_of("p1").contains(&"q1") && ids_of("p1").contains(&"ex-240"));
    let d = decode_with("v=1&view=quiz&q=p7-q2&part=3", OUTLINE);
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    let q = roofline_core::quiz::read_query(&d.state.quiz).0;
    assert_eq!((q.question.as_str(), q.part), ("p7-q2", 3));
    let d = decode_with("v=1&view=quiz&q=p7-q2&part=4", OUTLINE);
    assert_eq!(d.notices[0].param, "part");
}

/// Each question opens the page that computes its answer, with its
/// numbers: the Model page for a whole model, the calculator otherwise;
/// the link reads back without a notice and as the same state.
#[test]
fn each_question_opens_its_page_with_its_numbers() {
    for id in chapter_ids() {
        for seed in [0, 3, 17] {
            let q = question(id, seed).unwrap();
            for i in 0..q.parts.len() {
                let state = q.opening(i);
                let link = encode(&state);
                let d = decode_with(&link, OUTLINE);
                assert!(d.notices.is_empty(), "{id}/{seed}: {link} {:?}", d.notices);
                assert_eq!(d.state.view, state.view, "{id}");
                assert_eq!(d.state.calc, state.calc, "{id}/{seed}: {link}");
                if state.view == View::Model {
                    assert_eq!(d.state.model, state.model, "{id}/{seed}: {link}");
                }
            }
        }
    }
    let model_page = |id: &str| question(id, 0).unwrap().opening(0).view == View::Model;
    for id in [
        "p4-q1", "p4-q5", "p4-q8", "p7-q1", "p7-q2", "p7-q3", "p7-q5",
    ] {
        assert!(model_page(id), "{id}");
    }
    for id in ["p4-q3", "p4-q7", "p7-pop1", "p8-pop4"] {
        assert!(!model_page(id), "{id}");
    }
    // Worked problem 2: the chapter's model on 16 chips, 7 sequences of
    // 128,000 tokens, all int8: the page's own numbers.
    let s = question("p7-q2", 0).unwrap().opening(1);
    let link = encode(&s);
    for key in [
        "view=model",
        "model=custom",
        "m.layers=64",
        "m.kvheads=8",
        "m.headdim=256",
        "m.tied=1",
        "b=7",
        "ctx=128000",
        "n=16",
        "kv=int8",
    ] {
        assert!(link.contains(key), "{key} not in {link}");
    }
    // Part 1's questions still open the calculator.
    assert_eq!(question("q1", 0).unwrap().opening(0).view, View::Calculator);
}

/// The Model page, opened from a question, computes the question's own
/// answers: the same parameters, KV cache, largest batch and load time.
#[test]
fn the_model_page_computes_the_same_answers() {
    use roofline_core::model::{analyze, ModelRun};
    use roofline_core::quiz::Expected;
    let page = |id: &str, seed: u64| {
        let q = question(id, seed).unwrap();
        let s = q.opening(0);
        let (m, notices) = roofline_core::model::read_query(&s.model);
        assert!(notices.is_empty(), "{notices:?}");
        let run = ModelRun {
            config: m.custom.clone(),
            step: m.step.clone(),
            chips: f64::from(s.calc.chips),
        };
        let a = analyze(&run, &s.calc.chip().unwrap()).unwrap();
        (q, a)
    };
    let value = |q: &roofline_core::quiz::Question, part: &str| match q.part(part).unwrap().expected
    {
        Expected::Number { value, .. } => value,
        _ => panic!("{part}"),
    };
    let same = |got: f64, want: f64, what: &str| {
        assert!(
            (got - want).abs() <= 1e-9 * want.abs(),
            "{what}: page {got}, question {want}"
        )
    };
    for seed in [0, 3, 17] {
        let (q, a) = page("p4-q1", seed);
        same(a.params, value(&q, "a"), "p4-q1 parameters");
        same(a.kv_per_token, value(&q, "c"), "p4-q1 KV per token");
        let (q, a) = page("p7-q1", seed);
        same(a.params, value(&q, "a"), "p7-q1 parameters");
        same(a.kv_per_token, value(&q, "b"), "p7-q1 KV per token");
        // The page splits the KV heads over the chips: with more chips
        // than heads it keeps each head on several, and its solution says
        // what it shows then.
        let (q, a) = page("p7-q2", seed);
        let shown = format!("fits {}", a.max_batch.unwrap());
        if a.kv_copies == 1.0 {
            same(a.max_batch.unwrap(), value(&q, "b"), "p7-q2 largest batch");
        } else {
            let said = q.part("b").unwrap().solution.join(" ");
            assert!(said.contains(&shown), "{said} / {shown}");
        }
        let (q, a) = page("p7-q3", seed);
        same(a.t_weight_load, value(&q, "a"), "p7-q3 load time");
        let (q, a) = page("p8-pop1", seed);
        same(a.kv_per_token, value(&q, "a"), "p8-pop1 KV per token");
        let (q, a) = page("p8-pop2", seed);
        // The page's decode step also caches the token it makes.
        let caches = a.kv_bytes / a.cached * (a.cached - 1.0);
        same(a.weight_bytes + caches, value(&q, "a"), "p8-pop2 memory");
        // Bandwidth-bound: the page's step reads the weights but the input
        // table (a lookup) and the caches, within the part's 3%.
        let (q, a) = page("p8-pop3", seed);
        let want = value(&q, "a");
        assert!(
            (a.step_time - want).abs() <= 0.03 * want,
            "p8-pop3/{seed}: page {} ({:?}, base {}, link {:?}), question {want}",
            a.step_time,
            a.dominant,
            a.base_time,
            a.link
        );
        let (q, a) = page("p7-q5", seed);
        same(a.params, value(&q, "a"), "p7-q5 parameters");
        same(a.active_params, value(&q, "b"), "p7-q5 active parameters");
    }
}
