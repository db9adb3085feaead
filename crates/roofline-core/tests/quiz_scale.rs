//! The quiz's chapters on a mesh of chips (Parts 3, 5 and 6): the book's
//! printed answers pass (with a note where the book rounds or changed a
//! number), the readers' known mistakes get the concept they miss, every
//! variant builds, and each question opens the Scale page with its numbers,
//! where the page computes the question's own answers.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod quiz_common;
use quiz_common::{all_pass, mistakes_named, page_text, pass_with_note, scale_page};

use roofline_core::pages::View;
use roofline_core::quiz::{by_chapter, check, question, OUTLINE};
use roofline_core::url::{decode_with, encode};

fn mine() -> Vec<&'static str> {
    by_chapter()
        .into_iter()
        .filter(|c| ["p3", "p5", "p6"].contains(&c.id))
        .flat_map(|c| c.questions.into_iter().map(|(id, _, _)| id))
        .collect()
}

/// The chapters are listed in part order, with their questions.
#[test]
fn the_chapters_hold_their_questions() {
    let chapters: Vec<&str> = by_chapter().iter().map(|c| c.id).collect();
    let at = |c: &str| chapters.iter().position(|x| *x == c).unwrap();
    assert!(at("p1") < at("p3") && at("p3") < at("p4") && at("p4") < at("p5"));
    assert!(at("p5") < at("p6") && at("p6") < at("p7"));
    assert_eq!(
        mine(),
        [
            "p3-pop1", "p3-pop2", "p3-pop3", "p3-q1", "p3-q2", "p3-q3", "p3-q4", "p3-q5", "p3-q6",
            "p3-q7", "p3-q8", "p3-q9", "p3-q10", "p5-q1", "p5-q2", "p5-q3", "p6-pop1", "p6-pop2",
            "p6-pop5", "p6-pop7", "p6-pop9", "p6-q1", "p6-q2"
        ]
    );
    let d = decode_with("v=1&view=quiz&q=p3-q2&part=3", OUTLINE);
    assert!(d.notices.is_empty(), "{:?}", d.notices);
}

/// The book's printed answers, as it prints them, pass.
#[test]
fn the_books_printed_answers_pass() {
    let printed = [
        ("p3-pop1", "a", "1MiB"),
        ("p3-pop1", "a", "1 MB"),
        ("p3-pop1", "b", "294ns"),
        ("p3-pop2", "a", "16,384"),
        ("p3-pop2", "b", "512 KiB"),
        ("p3-pop3", "a", "560us"),
        ("p3-pop3", "b", "latency bound"),
        ("p3-pop3", "c", "3us"),
        ("p3-q1", "a", "16"),
        ("p3-q2", "a", "23us"),
        ("p3-q2", "b", "46us"),
        ("p3-q2", "c", "11.6us"),
        ("p3-q3", "a", "latency"),
        ("p3-q3", "b", "2us"),
        ("p3-q4", "a", "2*D*F/W"),
        ("p3-q4", "b", "4*B*F/W"),
        ("p3-q4", "c", "strategy 2"),
        ("p3-q10", "a", "N^2*(1-1/D)"),
        ("p3-q10", "b", "N^2/2*(1-1/D)"),
        ("p3-q10", "c", "4"),
        ("p5-q1", "a", "8.5e9"),
        ("p5-q1", "b", "4.2e9"),
        ("p5-q1", "c", "13.0e9"),
        ("p5-q2", "a", "130GB"),
        ("p5-q2", "b", "42TB"),
        ("p5-q3", "a", "no"),
        ("p5-q3", "b", "850"),
        ("p5-q3", "c", "comms-bound"),
        ("p5-q3", "d", "235"),
        ("p5-q3", "e", "1333"),
        ("p5-q3", "f", "300ms"),
        ("p6-pop1", "a", "12e9"),
        ("p6-pop1", "b", "70.4e9"),
        ("p6-pop2", "a", "4.2e11"),
        ("p6-pop2", "b", "6.3e24"),
        ("p6-pop2", "c", "435"),
        ("p6-pop2", "d", "44"),
        ("p6-pop5", "a", "21.6TB"),
        ("p6-pop5", "b", "225"),
        ("p6-pop5", "c", "2.4GB"),
        ("p6-pop7", "a", "1024"),
        ("p6-pop7", "b", "468"),
        ("p6-pop7", "c", "850"),
        ("p6-pop7", "d", "comms"),
        ("p6-pop9", "a", "113"),
        ("p6-pop9", "b", "1618"),
        ("p6-pop9", "c", "2048"),
        ("p6-pop9", "d", "4"),
        ("p6-q1", "a", "73,440"),
        ("p6-q1", "b", "compute-bound"),
    ];
    all_pass(&printed);
    // Where the book rounds, or changed a number, the other answer passes
    // with a note that says which.
    pass_with_note(&[
        ("p6-q1", "a", "71000", "71,000"),
        ("p3-q2", "a", "19.5us", "Scale page"),
        ("p3-pop3", "c", "5.2us", "Scale page"),
        ("p6-pop5", "b", "228", ""),
        ("p3-pop1", "b", "308ns", ""),
    ]);
}

/// The readers' known mistakes, and the chapters' own, get the concept.
#[test]
fn each_known_mistake_gets_its_concept() {
    let mistakes = [
        // The other direction's bandwidth.
        ("p3-pop3", "a", "377us", "one way"),
        ("p3-q2", "a", "46.6us", "both ways"),
        ("p3-q2", "c", "23.3us", "both ways"),
        ("p5-q3", "b", "1700", "both ways"),
        ("p6-pop7", "c", "1700", "both ways"),
        ("p3-q3", "b", "3us", "both ways"),
        // bf16's factor of 2 mistaken for hops.
        ("p3-pop3", "a", "280us", "not directions or hops"),
        ("p3-q4", "a", "D*F/W", "2 bytes"),
        // An AllReduce taken as one AllGather.
        ("p3-q2", "c", "5.83us", "ReduceScatter then an AllGather"),
        ("p3-q4", "b", "2*B*F/W", "twice"),
        // V in the AllToAll read as one device's bytes.
        ("p3-q10", "d", "11.65us", "whole array over all devices"),
        ("p3-q10", "d", "746us", "AllGather"),
        // The DCN inequality turned round.
        ("p6-q1", "a", "1.36e-5", "turns the inequality round"),
        ("p6-q1", "b", "comms-bound", "tokens a pod"),
        ("p6-q1", "a", "2550", "DCN"),
        // 2 FLOPs per parameter for training.
        ("p5-q3", "f", "104ms", "6 in all"),
        ("p6-pop2", "a", "1.41e11", "6 in all"),
        ("p6-pop2", "d", "14.9", "6 in all"),
        ("p6-q1", "c", "4.07", "training is 6"),
        // Grouped-query attention counted as full attention.
        ("p6-pop1", "a", "21.5e9", "grouped-query"),
        ("p6-pop1", "b", "79.9e9", "full multi-head"),
        // The chapters' own: one axis for three, the superseded mixed
        // formula, replication, shards, the gated MLP's three matrices,
        // Adam's two moments, checkpoints left out.
        ("p5-q3", "b", "2550", "three axes"),
        ("p6-pop9", "a", "453.5", "older copies"),
        ("p5-q3", "d", "940.7", "older copies"),
        ("p3-q1", "a", "4", "copied"),
        ("p3-pop2", "b", "256KiB", "|Z| copies"),
        ("p3-pop1", "a", "16MiB", "1/(|X|·|Y|)"),
        ("p5-q1", "a", "5.66e9", "three"),
        ("p5-q2", "a", "78GB", "two"),
        ("p6-pop5", "b", "8", "checkpoints"),
        ("p6-pop7", "c", "73440", "DCN"),
        ("p3-q4", "c", "strategy 1", "AllReduce's 2"),
    ];
    mistakes_named(&mistakes);
}

/// Every seed from 0 to 60 builds its own variant of each question, whose
/// answers pass their own check.
#[test]
fn every_variant_builds() {
    for id in mine() {
        for seed in 0..=60u64 {
            let q = question(id, seed).unwrap();
            assert_eq!(q.seed, seed, "{id} fell back for seed {seed}");
            for p in &q.parts {
                assert!(
                    check(p, &p.expected_text).is_right(),
                    "{id}/{seed}/{}",
                    p.id
                );
            }
        }
    }
}

/// The part's answer as the page shows it: the `data-value` of `testid`.
fn page_value(id: &str, seed: u64, part: usize, testid: &str) -> (String, String) {
    let (q, v) = scale_page(id, seed, part);
    assert!(
        v.errors.is_empty() || testid.starts_with("scale-coll") || testid.starts_with("train"),
        "{id}: {:?}",
        v.errors
    );
    (
        page_text(&v, &format!("{id}/{seed}"), testid),
        q.parts[part].id.clone(),
    )
}

/// Each question opens the Scale page with its numbers, and the page's
/// own result for the part passes as its answer.
#[test]
fn the_scale_page_computes_the_same_answers() {
    let cases = [
        ("p3-pop3", 0, "scale-coll-time"),
        ("p3-q2", 0, "scale-coll-time"),
        ("p3-q2", 1, "scale-coll-time"),
        ("p3-q2", 2, "scale-coll-time"),
        ("p3-q3", 1, "scale-coll-time"),
        ("p3-q10", 3, "scale-coll-time"),
        ("p5-q1", 2, "train-params"),
        ("p5-q3", 1, "train-threshold"),
        ("p5-q3", 3, "train-threshold-opt"),
        ("p5-q3", 4, "train-x-opt"),
        ("p5-q3", 5, "train-step-time"),
        ("p6-pop1", 1, "train-params"),
        ("p6-pop7", 1, "train-tokens-per-chip"),
        ("p6-pop7", 2, "train-threshold"),
        ("p6-pop9", 0, "train-threshold-opt"),
        ("p6-pop9", 1, "train-x-opt"),
        ("p6-q1", 2, "train-days"),
    ];
    for (id, part, testid) in cases {
        for seed in [0, 3, 17, 40] {
            let (value, pid) = page_value(id, seed, part, testid);
            let q = question(id, seed).unwrap();
            let p = q.part(&pid).unwrap();
            let unit = if testid.ends_with("time") { " s" } else { "" };
            let v = check(p, &format!("{value}{unit}"));
            assert!(
                v.is_right(),
                "{id}/{seed}/{pid}: the page's {testid} {value} got {v:?}"
            );
        }
    }
    // The choices: the page's bound and fit are the answers.
    for seed in [0, 3, 17] {
        let (fits, _) = page_value("p5-q3", seed, 0, "train-fits");
        let (bound, _) = page_value("p5-q3", seed, 2, "train-bound");
        let q = question("p5-q3", seed).unwrap();
        assert!(
            check(q.part("a").unwrap(), &fits).is_right(),
            "{seed}: {fits}"
        );
        let word = if bound == "comms" {
            "comms-bound"
        } else {
            "compute-bound"
        };
        assert!(
            check(q.part("c").unwrap(), word).is_right(),
            "{seed}: {bound}"
        );
    }
    // The matmul strategies open the sharded matmul itself (Case 2) and
    // Strategy 2's AllReduce of the output.
    let link = encode(&question("p3-q4", 0).unwrap().opening(2));
    for key in ["view=scale", "mesh=X:4", "cop=allreduce", "D_X"] {
        assert!(link.contains(key), "{key} not in {link}");
    }
    let (case, _) = page_value("p3-q4", 0, 2, "scale-case");
    assert_eq!(case, "2");
    let (comms, _) = page_value("p3-q4", 0, 2, "scale-comms-time");
    let (math, _) = page_value("p3-q4", 0, 2, "scale-math-time");
    let t1 = comms.parse::<f64>().unwrap().max(math.parse().unwrap());
    let said = question("p3-q4", 0)
        .unwrap()
        .part("c")
        .unwrap()
        .solution
        .join(" ");
    assert!(
        said.contains(&format!("= {} µs", roofline_core::format::sig(t1 * 1e6, 3))),
        "{said}"
    );
    // Every part of every question opens without a notice.
    for id in mine() {
        for seed in [0, 5, 77] {
            let q = question(id, seed).unwrap();
            for i in 0..q.parts.len() {
                let s = q.opening(i);
                assert_eq!(s.view, View::Scale, "{id}");
                let d = decode_with(&encode(&s), OUTLINE);
                assert!(d.notices.is_empty(), "{id}/{seed}/{i}: {:?}", d.notices);
                assert_eq!(d.state.calc, s.calc, "{id}/{seed}");
                assert_eq!(d.state.model, s.model, "{id}/{seed}");
            }
        }
    }
}
