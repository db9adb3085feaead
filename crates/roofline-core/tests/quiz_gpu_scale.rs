//! The GPU chapter beyond the node (Part 12's Quizzes 3, 4 and 5 and pop
//! quiz 3): the book's printed answers pass (with a note where the book
//! rounds or is off), the readers' known mistakes get the concept they
//! miss, every variant builds, and each question opens the page that
//! computes its numbers (the Scale page's collectives and training view,
//! or the calculator's critical intensity on a link).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod quiz_common;
use quiz_common::{all_pass, mistakes_named, near, page_text, pass_with_note, scale_page, value};

use roofline_core::analyze;
use roofline_core::quiz::{by_chapter, check, question, OUTLINE};
use roofline_core::url::encode;
use roofline_core::LevelKind;

const MINE: &[&str] = &[
    "p12-q3-1", "p12-q3-2", "p12-pop3", "p12-q4-1", "p12-q4-2", "p12-q4-3", "p12-q4-4", "p12-q4-5",
    "p12-q5-1", "p12-q5-2", "p12-q5-3",
];

/// The chapter lists the questions after its first four, in the book's
/// order.
#[test]
fn the_chapter_holds_the_questions_in_order() {
    let list = by_chapter();
    let p12: Vec<&str> = list
        .iter()
        .find(|c| c.id == "p12")
        .unwrap()
        .questions
        .iter()
        .map(|(id, _, _)| *id)
        .collect();
    let at = |id: &str| p12.iter().position(|x| *x == id).unwrap();
    // The book puts Quiz 3 before the collectives' pop quizzes.
    assert!(at("p12-q3-2") < at("p12-pop1"));
    for w in MINE.windows(2) {
        assert!(at(w[0]) < at(w[1]), "{} before {}", w[0], w[1]);
    }
    for id in MINE {
        let parts = question(id, 0).unwrap().parts.len() as u32;
        assert!(OUTLINE.contains(&(id, parts)), "{id}: {parts} parts");
    }
}

/// The book's printed answers pass; where it rounds or is off, with a
/// note.
#[test]
fn the_books_printed_answers_pass() {
    all_pass(&[
        ("p12-q3-1", "a", "400 GB/s"),
        ("p12-q3-1", "b", "12.8TB/s"),
        ("p12-q3-1", "c", "12.8 TB/s"),
        ("p12-q3-1", "d", "51.2 TB/s"),
        // 2048 GPUs: "8 SUs with 32 spine switches", "1x 400 Gbps NDR
        // cable per spine"; 4096 runs out of ports.
        ("p12-q3-2", "a", "8"),
        ("p12-q3-2", "b", "32"),
        ("p12-q3-2", "c", "1"),
        ("p12-q3-2", "d", "128"),
        ("p12-q3-2", "e", "no"),
        // The book's formula at the figure's D = 8192, F = 32768:
        // 2DF · 31 / (32 · 400e9).
        ("p12-pop3", "a", "1.3ms"),
        ("p12-pop3", "c", "2*D*F/(Y*W)"),
        ("p12-q4-1", "a", "B"),
        ("p12-q4-1", "b", "N*B"),
        ("p12-q4-1", "c", "B*(M-1)"),
        ("p12-q4-2", "a", "B*(N-1) + B"),
        ("p12-q4-2", "b", "B*N"),
        // The book's B(M − 1)/(M · 400e9) and B / W at the app's sizes.
        ("p12-q4-1", "d", "1.14ms"),
        ("p12-q4-2", "c", "1.04ms"),
        ("p12-q4-3", "a", "2*D*F/(Y*W)"),
        ("p12-q4-4", "a", "12.8TB/s"),
        // 2DF / 12.8e12 at D = 8192, F = 28672.
        ("p12-q4-4", "b", "36.7us"),
        ("p12-q4-5", "a", "514e9"),
        ("p12-q4-5", "b", "800e9"),
        ("p12-q4-5", "c", "node level"),
        ("p12-q5-1", "a", "2500"),
        ("p12-q5-1", "b", "5625"),
        ("p12-q5-1", "c", "2.25"),
        ("p12-q5-2", "a", "9"),
        ("p12-q5-2", "b", "40"),
        ("p12-q5-2", "d", "87.5GB"),
        ("p12-q5-2", "e", "no"),
        ("p12-q5-2", "f", "976"),
        ("p12-q5-2", "g", "comms-bound"),
        ("p12-q5-2", "h", "309"),
        ("p12-q5-3", "a", "4096"),
        ("p12-q5-3", "b", "2048"),
        ("p12-q5-3", "c", "2048"),
        ("p12-q5-3", "f", "yes"),
    ]);
    pass_with_note(&[
        // The book's rough 2DF / (Y · 50 GB/s) drops (X − 1)/X.
        ("p12-pop3", "b", "336us", "2DF / (Y · 50 GB/s)"),
        // "At least 9 GPUs, or (rounding up) at least 2 8xH100 nodes".
        ("p12-q5-2", "a", "16", "whole 8-GPU nodes"),
        // The book divides by 1995 FLOPs/byte, its text elsewhere 2200.
        ("p12-q5-2", "c", "14.372", "1995"),
        // "Compute-bound at roughly 1k and 300 tokens / step".
        ("p12-q5-3", "d", "1k", "round 1000"),
        ("p12-q5-3", "e", "300", "round 300"),
    ]);
}

/// The readers' known mistakes, and the chapter's own, get the concept.
#[test]
fn each_known_mistake_gets_its_concept() {
    mistakes_named(&[
        // The other direction's bandwidth.
        ("p12-q3-1", "a", "800 GB/s", "both directions"),
        ("p12-q3-1", "e", "25.6 TB/s", "one direction"),
        ("p12-q4-4", "a", "25.6TB/s", "both directions"),
        ("p12-q4-5", "a", "1028e9", "both directions"),
        ("p12-q5-1", "a", "1250", "both directions"),
        ("p12-q5-2", "c", "26.1", "both directions"),
        // bf16's 2 bytes: values counted as bytes.
        ("p12-pop3", "a", "650us", "values, not bytes"),
        ("p12-q4-3", "a", "D*F/(Y*W)", "2 bytes"),
        ("p12-q4-3", "b", "261us", "values, not bytes"),
        // Bits as bytes.
        ("p12-q3-1", "a", "3.2 TB/s", "bits as bytes"),
        // An AllReduce without SHARP: twice the bytes.
        ("p12-q4-2", "a", "2*B*(N-1)", "without the switch"),
        ("p12-q4-3", "a", "4*D*F/(Y*W)", "SHARP"),
        ("p12-q4-3", "b", "783us", "SHARP"),
        ("p12-q4-3", "b", "1.04ms", "SHARP"),
        ("p12-q4-4", "b", "73.4us", "SHARP"),
        ("p12-q4-2", "c", "1.83ms", "SHARP"),
        ("p12-q4-1", "d", "36.4ms", "one node's link"),
        // 2 FLOPs per parameter for training.
        ("p12-q5-2", "b", "13.4", "6 in all"),
        // NVLink's bandwidth used between nodes, or the node's IB inside.
        ("p12-q3-1", "a", "450 GB/s", "NVLink"),
        ("p12-q4-5", "b", "900e9", "InfiniBand"),
        ("p12-q5-1", "a", "5625", "NVLink"),
        ("p12-q5-1", "b", "2500", "InfiniBand"),
        ("p12-q5-2", "c", "11.6", "NVLink"),
        ("p12-q5-2", "h", "275", "InfiniBand"),
        // One NIC for a node's eight.
        ("p12-q3-1", "a", "50 GB/s", "one NIC"),
        ("p12-q4-5", "b", "100e9", "8 NICs"),
        ("p12-q5-1", "b", "45000", "one GPU's NIC"),
        ("p12-pop3", "a", "10.4ms", "8 NICs"),
        // The chapter's own: the fat tree's ports and cables.
        ("p12-q3-1", "b", "25.6 TB/s", "64 ports"),
        ("p12-q3-1", "c", "6.4 TB/s", "one cable"),
        ("p12-q3-2", "a", "256", "counts nodes"),
        ("p12-q3-2", "b", "16", "both ways"),
        ("p12-q3-2", "c", "2", "2 cables"),
        ("p12-q3-2", "d", "64", "before doubling"),
        ("p12-q3-2", "e", "yes", "it has 64"),
        ("p12-q4-4", "a", "51.2TB/s", "shared"),
        ("p12-q4-4", "b", "9.2us", "51.2 TB/s"),
        ("p12-q4-4", "b", "1.17ms", "32 nodes"),
        // The switches' bytes.
        ("p12-q4-1", "a", "B/M", "top-level switch"),
        ("p12-q4-1", "b", "B", "N GPUs"),
        ("p12-q4-1", "c", "B*M", "own"),
        ("p12-q4-2", "a", "B*(N-1)", "finished shard"),
        ("p12-q4-2", "b", "B*(N-1)", "partial sums"),
        // An inner axis within a node, and spanning nodes.
        ("p12-pop3", "a", "163us", "divides by Y"),
        ("p12-pop3", "b", "1.3ms", "inside a node"),
        ("p12-pop3", "c", "2*D*F/(8*W)", "within a node"),
        ("p12-pop3", "c", "D*F/(Y*W)", "2 bytes"),
        ("p12-q4-3", "a", "2*D*F/W", "F/Y"),
        // Approximations where the question asks the exact cost.
        ("p12-q4-5", "a", "450e9", "7/8"),
        ("p12-q4-5", "b", "400e9", "(M − 1)/M"),
        ("p12-q4-5", "c", "network", "exact costs"),
        // Sparse peaks, upside-down ratios, the state and the plans.
        ("p12-q5-1", "a", "5000", "sparse"),
        ("p12-q5-1", "c", "0.44", "upside down"),
        ("p12-q5-2", "a", "2", "Adam"),
        ("p12-q5-2", "b", "18.1", "MFU"),
        ("p12-q5-2", "d", "172MB", "ZeRO-3"),
        ("p12-q5-2", "e", "yes", "copy"),
        ("p12-q5-2", "g", "compute-bound", "twice"),
        ("p12-q5-2", "h", "2472", "8 nodes"),
        ("p12-q5-3", "a", "1", "counts sequences"),
        // Grouped-query attention counted as full attention.
        ("p12-q5-2", "a", "10", "grouped-query"),
        ("p12-q5-2", "b", "45.6", "grouped-query"),
        ("p12-q5-3", "d", "2472", "no credit"),
        ("p12-q5-3", "d", "154.5", "whole 16-way"),
        ("p12-q5-3", "e", "38.6", "whole 64-way"),
        ("p12-q5-3", "e", "154.5", "both directions"),
        ("p12-q5-3", "f", "no", "own critical batch"),
    ]);
}

/// Every seed from 0 to 50 builds its own variant, every number finite,
/// every answer passing its own check.
#[test]
fn every_variant_builds() {
    for id in MINE {
        let mut differs = false;
        let book = question(id, 0).unwrap();
        for seed in 0..=50u64 {
            let q = question(id, seed).unwrap();
            assert_eq!(q.seed, seed, "{id} fell back for seed {seed}");
            differs |= q.setup != book.setup
                || q.parts
                    .iter()
                    .zip(&book.parts)
                    .any(|(a, b)| a.prompt != b.prompt);
            let mut texts = vec![q.setup.clone()];
            for p in &q.parts {
                assert!(
                    check(p, &p.expected_text).is_right(),
                    "{id}/{seed}/{}",
                    p.id
                );
                texts.push(p.prompt.clone());
                texts.extend(p.solution.iter().cloned());
                texts.extend(p.mistakes.iter().map(|m| m.hint.clone()));
            }
            assert!(!texts.iter().any(|t| t.contains("NaN")), "{id}/{seed}");
        }
        // The switch-byte formulas have no numbers to vary.
        if !["p12-q4-1", "p12-q4-2"].contains(id) {
            assert!(differs, "{id}: no variant differs from the book");
        }
    }
}

/// The Scale page's `testid` for part `part` of `id` at `seed`, as a
/// number, after the link's round trip.
fn page(id: &str, seed: u64, part: usize, testid: &str) -> f64 {
    let (_, v) = scale_page(id, seed, part);
    page_text(&v, &format!("{id}/{seed}"), testid)
        .parse()
        .unwrap()
}

/// Each question on a mesh opens the Scale page, whose collective (or
/// training view) gives the question's numbers.
#[test]
fn the_scale_page_computes_the_same_answers() {
    for seed in 0..30u64 {
        // Pop quiz 3: the page's AllGather over X, Y in a node and across.
        for (i, part) in [(0, "a"), (1, "b")] {
            let q = question("p12-pop3", seed).unwrap();
            near(
                page("p12-pop3", seed, i, "scale-coll-time"),
                value(&q, part),
                1e-6,
                "pop3",
            );
        }
        // Quiz 4, question 5: B over the page's time at each level (with
        // NVLink's latency at the node level, within the tolerance).
        let q = question("p12-q4-5", seed).unwrap();
        let c = &q.opening(0).calc;
        let b = 2.0 * c.sizes.get("N").unwrap() * c.sizes.get("D").unwrap();
        for (i, part) in [(0, "a"), (1, "b")] {
            let t = page("p12-q4-5", seed, i, "scale-coll-time");
            let v = check(q.part(part).unwrap(), &format!("{} bytes/s", b / t));
            assert!(v.is_right(), "q4-5/{seed}/{part}: {v:?}");
        }
        let t = page("p12-q4-5", seed, 1, "scale-coll-time");
        near(b / t, value(&q, "b"), 1e-6, "q4-5 b");
        // Quiz 4, question 1: the top-level switch's share of each node.
        let q = question("p12-q4-1", seed).unwrap();
        near(
            page("p12-q4-1", seed, 3, "scale-coll-time"),
            value(&q, "d"),
            1e-6,
            "q4-1",
        );
        // Quiz 3, question 1: a node's 8 GPUs each send over their NIC.
        let q = question("p12-q3-1", seed).unwrap();
        let bytes = page("p12-q3-1", seed, 0, "scale-coll-bytes");
        let t = page("p12-q3-1", seed, 0, "scale-coll-time");
        near(8.0 * bytes / t, value(&q, "a"), 1e-6, "q3-1");
        // Quiz 4, question 4: the page has no SHARP; without it an
        // AllReduce over the 4 SUs costs 2 · (4 − 1)/4 times as much.
        let q = question("p12-q4-4", seed).unwrap();
        let t = page("p12-q4-4", seed, 1, "scale-coll-time");
        near(t / 1.5, value(&q, "b"), 1e-6, "q4-4");
        // Quiz 5, question 2: the page's FLOPs over the GPUs at the MFU.
        let q = question("p12-q5-2", seed).unwrap();
        let s = q.scale.as_ref().unwrap().state.clone();
        let flops = page("p12-q5-2", seed, 1, "train-flops");
        let chip = q.opening(1).calc.chip().unwrap();
        let peak = chip.peak(roofline_core::DType::Bf16).unwrap();
        let chips = 8.0
            * s.mesh
                .unwrap()
                .rsplit(':')
                .next()
                .unwrap()
                .parse::<f64>()
                .unwrap();
        near(
            flops / (chips * peak * s.mfu) / 86_400.0,
            value(&q, "b"),
            1e-6,
            "q5-2",
        );
    }
    // The book's pod in the link.
    let link = encode(&question("p12-q3-1", 0).unwrap().opening(0));
    for key in ["view=scale", "mesh=X:8,Y:128", "cax=Y"] {
        assert!(link.contains(key), "{key} not in {link}");
    }
    let link = encode(&question("p12-q3-2", 0).unwrap().opening(1));
    assert!(link.contains("mesh=X:8,Y:256"), "{link}");
}

/// Quiz 5, question 1 opens the calculator on NVLink and on one GPU's
/// NIC: its critical intensity there, and 8 NICs a node, are the answers;
/// Quiz 4, question 2 a copy of the array on NVLink.
#[test]
fn the_calculator_computes_the_rooflines() {
    for seed in [0, 3, 17, 40] {
        let q = question("p12-q5-1", seed).unwrap();
        let ci = |i: usize| {
            analyze(&q.opening(i).calc.scenario().unwrap())
                .unwrap()
                .critical_intensity
        };
        assert_eq!(q.opening(0).calc.level1, LevelKind::NvLink);
        assert_eq!(q.opening(1).calc.level1, LevelKind::Dcn);
        near(ci(0), value(&q, "a"), 1e-9, "q5-1 a");
        near(ci(1) / 8.0, value(&q, "b"), 1e-9, "q5-1 b");
        near(ci(1) / ci(2), value(&q, "c"), 1e-9, "q5-1 c");
        // Quiz 5, question 3: C over one NIC, ÷ 8 NICs, ÷ nodes spanned.
        let q = question("p12-q5-3", seed).unwrap();
        for (i, part, k) in [(3, "d", 2.0), (4, "e", 8.0)] {
            let ci = analyze(&q.opening(i).calc.scenario().unwrap())
                .unwrap()
                .critical_intensity;
            near(ci / 8.0 / k, value(&q, part), 1e-9, "q5-3");
        }
        // Quiz 4, question 2: the copy of B reads and writes it, 2B.
        let q = question("p12-q4-2", seed).unwrap();
        let a = analyze(&q.opening(2).calc.scenario().unwrap()).unwrap();
        near(a.t_comms / 2.0, value(&q, "c"), 1e-9, "q4-2");
    }
}
