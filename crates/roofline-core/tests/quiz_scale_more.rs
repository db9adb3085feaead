//! The later questions of the sharding chapter (Part 3, problems 5 to 9) and the training chapter's LLaMA-3-405B problem (Part 6,
//! problem 2): the book's printed answers pass, the app's worked answers
//! (where the book gives none) are the hand-computed numbers, the readers'
//! known mistakes get the concept they miss, every variant builds, and the
//! Scale page each opens computes the same numbers.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod quiz_common;
use quiz_common::{all_pass, mistakes_named, page_text, pass_with_note, scale_page};

use roofline_core::pages::View;
use roofline_core::quiz::{by_chapter, check, question, Expected, OUTLINE};
use roofline_core::url::{decode_with, encode};

const MINE: [&str; 6] = ["p3-q5", "p3-q6", "p3-q7", "p3-q8", "p3-q9", "p6-q2"];

/// The new rows sit in the book's order within their chapters.
#[test]
fn the_rows_sit_in_the_books_order() {
    let ids = |ch: &str| -> Vec<&'static str> {
        by_chapter()
            .into_iter()
            .filter(|c| c.id == ch)
            .flat_map(|c| c.questions.into_iter().map(|(id, _, _)| id))
            .collect()
    };
    let p3 = ids("p3");
    let at = |v: &[&str], id: &str| v.iter().position(|x| *x == id).unwrap();
    let order = [
        "p3-q4", "p3-q5", "p3-q6", "p3-q7", "p3-q8", "p3-q9", "p3-q10",
    ];
    for w in order.windows(2) {
        assert!(at(&p3, w[0]) < at(&p3, w[1]), "{p3:?}");
    }
    let p6 = ids("p6");
    assert_eq!(at(&p6, "p6-q2"), at(&p6, "p6-q1") + 1, "{p6:?}");
}

/// The book's printed answers, as it prints them, pass.
#[test]
fn the_books_printed_answers_pass() {
    all_pass(&[
        // "The TLDR is that (1) and (2) are equally good."
        ("p3-q5", "f", "1"),
        ("p3-q5", "f", "2"),
        ("p3-q5", "f", "(1) or (2)"),
        // "Each of our two big matrices uses 2 * 8192 * 32768 = 536MB";
        // the second sharding, tensor parallelism.
        ("p3-q7", "a", "536MB"),
        ("p3-q7", "b", "tensor parallelism"),
        ("p3-q7", "b", "2"),
        // AllReduce the partial sums; a ReduceScatter instead; M/K.
        ("p3-q9", "a", "AllReduce"),
        ("p3-q9", "b", "ReduceScatter"),
        ("p3-q9", "c", "M/K"),
        ("p3-q9", "c", "N*M/(N*K)"),
    ]);
}

/// Where the book gives no answer, the app's: numbers computed here by
/// hand from the question's, not read from the builders.
#[test]
fn the_apps_worked_answers_are_the_hand_computed_ones() {
    // p3-q5 on v4p (2.75e14 FLOPs/s, 9e10 bytes/s an axis both ways),
    // I = J = K = 8192: 2·8192³/64/2.75e14 = 62.47 µs; V = 2·8192² bytes
    // over 3 axes: 134.2e6 / 2.7e11 = 497 µs (the page, 63/64 and 6 hops:
    // 495 µs).
    let math5 = 2.0 * 8192f64.powi(3) / 64.0 / 2.75e14;
    let gather5 = 2.0 * 8192f64.powi(2) / 2.7e11;
    // p3-q6 on v5e 4x4 (lines: 4.5e10 one way; 1.97e14 FLOPs/s),
    // I = J = K = 8192: math 2·8192³/16/1.97e14 = 349 µs; the AllReduce of
    // C[I_X, K]: V = 2·8192²/4, 2·(3/4)·V/W + 6 hops = 1.124 ms; the
    // gather of B[J_X, K_Y]: (3/4)·V/W + 3 hops = 562 µs.
    let v6 = 2.0 * 8192f64.powi(2) / 4.0;
    let math6 = 2.0 * 8192f64.powi(3) / 16.0 / 1.97e14;
    let red6 = 2.0 * 0.75 * v6 / 4.5e10 + 6e-6;
    let gat6 = 0.75 * v6 / 4.5e10 + 3e-6;
    // p3-q7 on v5e 2x2, B = 128, D = 8192, F = 32768: weights a chip
    // 2·2DF/4; math 2·2BDF/4/1.97e14 = 174 µs; comms two collectives of
    // V = 2BD over both axes one way, (3/4)·V/(9e10) + 2 hops each.
    let (b, d, f) = (128.0, 8192.0, 32768.0);
    let math7 = 4.0 * b * d * f / 4.0 / 1.97e14;
    let comms7 = 2.0 * (0.75 * 2.0 * b * d / 9e10 + 2e-6);
    // p3-q8 on v5e 8x16 over the wrapped 16 (9e10 both ways), N = 8192,
    // M = 2048: V = 2NM; the gather (15/16)·V/W + 8 hops = 358 µs; the
    // AllReduce twice that; the AllToAll V/(4W) + 8 hops = 101 µs.
    let v8 = 2.0 * 8192.0 * 2048.0;
    let gat8 = 15.0 / 16.0 * v8 / 9e10 + 8e-6;
    let red8 = 2.0 * (15.0 / 16.0 * v8 / 9e10 + 8e-6);
    let a2a8 = v8 / (4.0 * 9e10) + 8e-6;
    // p3-q9 on a v5p ring of 8 (1.8e11 both ways), N = K = 4096: the
    // ReduceScatter of O, (7/8)·2NK/W + 4 hops = 167 µs.
    let rs9 = 0.875 * 2.0 * 4096f64.powi(2) / 1.8e11 + 4e-6;
    // p6-q2: LLaMA-3-405B's config; α = 2550, M_X·M_Y = 2.
    let (l, dm, ff, n, k, h, v) = (126.0, 16384.0, 53248.0, 128.0, 8.0, 128.0, 128_256.0);
    let p = 3.0 * l * dm * ff + l * (2.0 * dm * n * h + 2.0 * dm * k * h) + 2.0 * v * dm;
    let thr = 2550f64.powi(2) / (2.0 * ff);
    let cases: Vec<(&str, &str, String)> = vec![
        ("p3-q5", "a", "2*I*J*K/64".into()),
        ("p3-q5", "b", "2*I*K/(3*W)".into()),
        ("p3-q5", "c", "4*I*K/(3*W)".into()),
        ("p3-q5", "d", format!("{math5:e} s")),
        ("p3-q5", "e", format!("{gather5:e} s")),
        ("p3-q6", "a", "AllReduce".into()),
        ("p3-q6", "b", format!("{red6:e} s")),
        ("p3-q6", "c", format!("{math6:e} s")),
        ("p3-q6", "d", "AllGather".into()),
        ("p3-q6", "e", format!("{gat6:e} s")),
        ("p3-q6", "f", "none".into()),
        ("p3-q7", "c", format!("{}", 4.0 * d * f / 4.0)),
        ("p3-q7", "d", format!("{math7:e} s")),
        ("p3-q7", "e", format!("{comms7:e} s")),
        ("p3-q7", "f", "compute-bound".into()),
        ("p3-q8", "a", "AllReduce".into()),
        ("p3-q8", "b", "ReduceScatter".into()),
        ("p3-q8", "c", format!("{gat8:e} s")),
        ("p3-q8", "d", format!("{red8:e} s")),
        ("p3-q8", "e", format!("{a2a8:e} s")),
        ("p3-q9", "d", format!("{rs9:e} s")),
        ("p6-q2", "a", format!("{p:e}")),
        ("p6-q2", "b", format!("{:e}", 6.0 * p)),
        ("p6-q2", "c", format!("{:e}", 6.0 * p * 15e12)),
        ("p6-q2", "d", "compute-bound".into()),
        ("p6-q2", "e", format!("{thr}")),
        // 64 tokens a chip on FSDP 512 × TP 16 in each of 8 pods: above
        // the threshold at X_opt, yet the rounded split's gathers bind.
        ("p6-q2", "f", "comms-bound".into()),
    ];
    let borrowed: Vec<(&str, &str, &str)> =
        cases.iter().map(|(i, p, a)| (*i, *p, a.as_str())).collect();
    all_pass(&borrowed);
    assert!((p / 405.85e9 - 1.0).abs() < 1e-3, "{p}");
    assert!((thr - 61.06).abs() < 0.01, "{thr}");
    // Each says the answer is the app's.
    for id in ["p3-q5", "p3-q6", "p3-q7", "p3-q8", "p6-q2"] {
        let q = question(id, 0).unwrap();
        assert!(
            q.source.contains("the app's"),
            "{id}: {} does not say whose answer it is",
            q.source
        );
    }
}

/// The book's own form of a time (V / W, without (n − 1)/n and the hops)
/// passes with a note that names the difference; the all-chips,
/// compute-bound days with a note too.
#[test]
fn the_books_form_passes_with_a_note() {
    pass_with_note(&[
        ("p3-q6", "b", "1.49ms", "(n − 1)/n"),
        ("p3-q6", "e", "746us", "(n − 1)/n"),
        ("p3-q7", "e", "46.6us", "(n − 1)/n"),
        ("p3-q9", "d", "186us", "(n − 1)/n"),
        ("p3-q8", "c", "373us", "(n − 1)/n"),
        ("p3-q8", "d", "746us", "(n − 1)/n"),
        ("p3-q8", "e", "93.2us", "hops' latency"),
        ("p3-q5", "e", "497us", ""),
        ("p6-q2", "g", "32.1", "chips in each pod"),
    ]);
}

/// The readers' known mistakes, and the chapters' own, get the concept.
#[test]
fn each_known_mistake_gets_its_concept() {
    mistakes_named(&[
        // The other direction's bandwidth.
        ("p3-q5", "e", "994us", "both ways"),
        ("p3-q6", "b", "746us", "both directions"),
        ("p3-q6", "e", "281us", "both directions"),
        ("p3-q7", "e", "23.3us", "both directions"),
        ("p3-q9", "d", "373us", "both ways"),
        ("p3-q8", "c", "746us", "both ways"),
        ("p3-q8", "d", "1.49ms", "both ways"),
        // bf16's factor of 2 mistaken for hops, or values for bytes.
        ("p3-q5", "b", "I*K/(3*W)", "not hops"),
        ("p3-q7", "a", "268MB", "values, not bytes"),
        ("p3-q7", "a", "1.07GB", "4 bytes"),
        ("p3-q8", "c", "186us", "not directions"),
        // An AllReduce taken as one AllGather.
        (
            "p3-q5",
            "c",
            "2*I*K/(3*W)",
            "ReduceScatter then an AllGather",
        ),
        ("p3-q6", "b", "562us", "one AllGather"),
        ("p3-q8", "d", "358us", "ReduceScatter then an AllGather"),
        // V in the AllToAll read as one device's bytes; the AllToAll as an
        // AllGather, or as a one-way ring's half.
        ("p3-q8", "e", "6.3us", "whole array over all devices"),
        ("p3-q8", "e", "373us", "quarter"),
        ("p3-q8", "e", "186us", "one-way ring"),
        ("p3-q8", "a", "ReduceScatter", "psum_scatter"),
        ("p3-q8", "b", "AllReduce", "half an AllReduce"),
        // The DCN inequality turned round.
        ("p6-q2", "d", "comms-bound", "tokens a pod"),
        // Grouped-query attention counted as full attention.
        ("p6-q2", "a", "4.69e11", "grouped-query"),
        // 2 FLOPs per parameter for training.
        ("p6-q2", "b", "8.12e11", "6 in all"),
        ("p6-q2", "c", "1.22e25", "6 in all"),
        ("p6-q2", "g", "11.7", "training is 6"),
        // The chapters' own: the axes a collective spans, the chips it
        // does not shrink with, the case of a sharded matmul, the
        // cheaper ReduceScatter, the ratio's direction, the gated MLP, the
        // superseded mixed formula, the threshold at X_opt only.
        ("p3-q5", "a", "2*I*J*K", "option (4)"),
        ("p3-q5", "b", "2*I*K/W", "all three"),
        ("p3-q5", "b", "2*I*K/(64*W)", "does not shrink"),
        ("p3-q5", "d", "4ms", "option (4)"),
        ("p3-q5", "f", "3", "AllReduce's 2"),
        ("p3-q6", "a", "AllGather", "Case 3"),
        ("p3-q6", "a", "ReduceScatter", "not split over Y"),
        ("p3-q6", "b", "4.5ms", "1/|X|"),
        ("p3-q6", "c", "1.4ms", "over Y only"),
        ("p3-q6", "d", "AllReduce", "Case 2"),
        ("p3-q6", "f", "AllGather", "Neither input"),
        ("p3-q7", "b", "fsdp", "big weight"),
        ("p3-q7", "b", "replicate", "300 MB"),
        ("p3-q7", "c", "134MB", "one matrix"),
        ("p3-q7", "d", "698us", "whole block"),
        ("p3-q7", "e", "58.4us", "ReduceScatter, half"),
        ("p3-q9", "a", "AllGather", "summed, not gathered"),
        ("p3-q9", "b", "AllReduce", "half"),
        ("p3-q9", "c", "K/M", "other way round"),
        ("p3-q9", "c", "M/(2*K)", "AllReduce"),
        ("p3-q9", "d", "656us", "AllGather of A"),
        ("p6-q2", "a", "2.96e11", "three"),
        ("p6-q2", "e", "244", "older copies"),
        ("p6-q2", "e", "850", "pure FSDP"),
        ("p6-q2", "f", "compute-bound", "X_opt"),
        ("p6-q2", "g", "281", "one pod's"),
    ]);
}

/// Seeds 0 to 150 each build their own variant, with finite numbers that
/// pass their own check and no missing number in any text.
#[test]
fn every_variant_builds() {
    for id in MINE {
        let mut setups = std::collections::BTreeSet::new();
        for seed in 0..=150u64 {
            let q = question(id, seed).unwrap();
            assert_eq!(q.seed, seed, "{id} fell back for seed {seed}");
            setups.insert(q.setup.clone());
            for p in &q.parts {
                if let Expected::Number { value, also_accept } = &p.expected {
                    assert!(
                        value.is_finite() && also_accept.iter().all(|a| a.is_finite()),
                        "{id}/{seed}/{}",
                        p.id
                    );
                }
                assert!(
                    check(p, &p.expected_text).is_right(),
                    "{id}/{seed}/{}",
                    p.id
                );
                let texts = [&p.prompt, &p.hint, &p.expected_text]
                    .into_iter()
                    .chain(p.solution.iter())
                    .chain(p.mistakes.iter().map(|m| &m.hint));
                for t in texts {
                    assert!(
                        !t.contains("NaN") && !t.contains("inf "),
                        "{id}/{seed}: {t}"
                    );
                }
            }
        }
        assert!(setups.len() > 3, "{id} has {} variants", setups.len());
    }
}

/// The page's `data-value` of `testid` for part `part` of `id`.
fn page_value(id: &str, seed: u64, part: usize, testid: &str) -> String {
    let (_, v) = scale_page(id, seed, part);
    page_text(&v, &format!("{id}/{seed}"), testid)
}

fn num(s: &str) -> f64 {
    s.parse().unwrap()
}

/// Each question opens the Scale page with its numbers, and the page's
/// own results pass as the parts' answers.
#[test]
fn the_scale_page_computes_the_same_answers() {
    let single = [
        ("p3-q5", 3, "scale-math-time"),
        ("p3-q5", 4, "scale-coll-time"),
        ("p3-q6", 1, "scale-comms-time"),
        ("p3-q6", 2, "scale-math-time"),
        ("p3-q6", 4, "scale-coll-time"),
        ("p3-q9", 3, "scale-coll-time"),
        ("p3-q8", 2, "scale-coll-time"),
        ("p3-q8", 3, "scale-coll-time"),
        ("p3-q8", 4, "scale-coll-time"),
        ("p6-q2", 0, "train-params"),
        ("p6-q2", 4, "train-threshold-opt"),
        ("p6-q2", 6, "train-days"),
    ];
    for seed in [0, 3, 17, 40] {
        for (id, part, testid) in single {
            let value = page_value(id, seed, part, testid);
            let q = question(id, seed).unwrap();
            let p = &q.parts[part];
            let unit = if testid.ends_with("time") { " s" } else { "" };
            let v = check(p, &format!("{value}{unit}"));
            assert!(
                v.is_right(),
                "{id}/{seed}/{}: the page's {testid} {value} got {v:?}",
                p.id
            );
        }
        // p3-q6: the page's sharded matmul is the first sharding's case 3
        // and its AllReduce.
        assert_eq!(page_value("p3-q6", seed, 0, "scale-case"), "3");
        let key = page_value("p3-q6", seed, 0, "scale-collective");
        let q6 = question("p3-q6", seed).unwrap();
        assert!(
            check(q6.part("a").unwrap(), &key).is_right(),
            "{seed}: {key}"
        );
        // p3-q7: the block's math is twice the first matmul's; its comms
        // the first matmul's gather plus the collective, the ReduceScatter.
        let q7 = question("p3-q7", seed).unwrap();
        let math = 2.0 * num(&page_value("p3-q7", seed, 3, "scale-math-time"));
        let comms = num(&page_value("p3-q7", seed, 4, "scale-comms-time"))
            + num(&page_value("p3-q7", seed, 4, "scale-coll-time"));
        assert!(
            check(q7.part("d").unwrap(), &format!("{math:e} s")).is_right(),
            "{seed}: {math}"
        );
        assert!(
            check(q7.part("e").unwrap(), &format!("{comms:e} s")).is_right(),
            "{seed}: {comms}"
        );
        assert_eq!(page_value("p3-q7", seed, 0, "scale-case"), "2");
        // p3-q9: the page's matmul is Case 2, whose alternative this is.
        assert_eq!(page_value("p3-q9", seed, 0, "scale-case"), "2");
        // p6-q2: the page's bound is the answer.
        let bound = page_value("p6-q2", seed, 5, "train-bound");
        let q2 = question("p6-q2", seed).unwrap();
        assert!(
            check(q2.part("f").unwrap(), &format!("{bound}-bound")).is_right(),
            "{seed}: {bound}"
        );
    }
    // Every part of every question opens without a notice.
    for id in MINE {
        for seed in [0, 5, 77] {
            let q = question(id, seed).unwrap();
            for i in 0..q.parts.len() {
                let s = q.opening(i);
                assert_eq!(s.view, View::Scale, "{id}");
                let d = decode_with(&encode(&s), OUTLINE);
                assert!(d.notices.is_empty(), "{id}/{seed}/{i}: {:?}", d.notices);
                assert_eq!(d.state.calc, s.calc, "{id}/{seed}");
            }
        }
    }
}
