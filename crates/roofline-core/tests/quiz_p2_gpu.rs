//! The quiz's TPU chapter (Part 2) and GPU chapter (Part 12): the book's
//! printed answers pass (with a note where the book rounded or used
//! another count), the known mistakes get the concept they miss, each
//! question opens the calculator with its numbers, and the calculator
//! computes the same answers.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod quiz_common;
use quiz_common::{all_pass, mistakes_named, near, pass_with_note, value, verdict};

use roofline_core::pages::View;
use roofline_core::quiz::{by_chapter, question};
use roofline_core::{analyze, critical_size, CriticalSize, LevelKind};

/// The book's printed answers, as it prints them, each accepted.
#[test]
fn the_books_printed_answers_pass() {
    let printed = [
        ("p2-q1", "a", "12.5e9"),
        ("p2-q1", "b", "10ms"),
        ("p2-q2", "a", "32"),
        ("p2-q2", "b", "256"),
        ("p2-q2", "c", "5.1e16"),
        ("p2-q2", "d", "4TB"),
        ("p2-q2", "e", "2,240"),
        ("p2-q2", "f", "17,920"),
        ("p2-q2", "g", "4.1e18"),
        ("p2-q2", "h", "860TB"),
        ("p2-q3", "a", "B"),
        ("p2-q3", "b", "57,500"),
        ("p2-q4", "a", "267"),
        ("p2-q4", "b", "11"),
        ("p2-q5", "a", "6us"),
        ("p2-q5", "b", "194us"),
        ("p2-q6", "a", "63ms"),
        ("p2-q6", "b", "167ms"),
        ("p2-q6", "c", "20ms"),
        ("p2-q6", "d", "1.4ms"),
        ("p2-q6", "e", "167ms"),
        ("p2-pop1", "a", "7e12"),
        ("p2-pop1", "c", "30"),
        ("p12-q1-2", "a", "26.9 TFLOPs/s"),
        ("p12-q1-2", "b", "33.5e12"),
        ("p12-q1-2", "c", "30"),
        ("p12-q1-3", "a", "295"),
        ("p12-q1-3", "b", "281"),
        ("p12-q1-3", "c", "590"),
        ("p12-q1-3", "d", "562"),
        ("p12-q1-4", "a", "8.6us"),
        ("p12-q1-4", "b", "15us"),
        ("p12-pop1", "a", "65us"),
        ("p12-pop1", "a", "75us"),
    ];
    all_pass(&printed);
    // Where the book rounded its counts or took A as 16e9 bytes, the
    // answer passes with a note giving the exact one.
    pass_with_note(&[
        ("p2-q4", "a", "267", "1.3e8"),
        ("p2-q6", "a", "62.5ms", "16e9"),
        ("p2-q6", "b", "167ms", "16e9"),
        ("p2-q6", "e", "167ms", "16e9"),
        ("p12-pop1", "a", "75us", "(N − 1)/N"),
    ]);
    // The app's own part: a real D leaves the PCIe matmul bandwidth-bound.
    assert!(verdict("p2-q3", "c", "no").is_right());
}

/// Answers that match a known mistake get the concept they miss.
#[test]
fn each_known_mistake_gets_its_concept() {
    let mistakes = [
        // The other direction's bandwidth: a link's bidirectional figure.
        ("p2-q5", "b", "99us", "bidirectional"),
        ("p2-q6", "b", "89.5ms", "bidirectional"),
        ("p12-pop1", "a", "32.6us", "both ways"),
        // bf16's factor 2: elements for bytes.
        ("p2-q5", "b", "99us", "elements"),
        ("p2-q3", "a", "2*B", "2 bytes"),
        ("p2-q3", "b", "115000", "2 bytes"),
        ("p12-pop1", "a", "32.6us", "elements"),
        // An AllGather costed as an AllReduce, and the other way round.
        ("p12-pop1", "a", "130us", "AllReduce"),
        ("p12-pop1", "a", "9.3us", "one shard"),
        // One link or one chip where several work at once.
        ("p2-q1", "b", "333ms", "32 chips"),
        ("p2-q5", "b", "379us", "two"),
        ("p2-q6", "a", "1.07s", "own"),
        ("p2-q6", "b", "358ms", "two"),
        // No wraparound on a small slice.
        ("p2-q5", "a", "2us", "wraparound"),
        // Hosts and cores.
        ("p2-q2", "a", "64", "8 chips"),
        ("p2-q2", "f", "8960", "two TensorCores"),
        ("p2-q2", "g", "8.2e18", "both cores"),
        // The small-B approximation given for the exact crossing.
        ("p2-q4", "a", "240", "approximation"),
        ("p2-q4", "b", "259", "HBM"),
        // Overlapped times added; the smaller time taken.
        ("p2-q6", "e", "268ms", "overlap"),
        ("p12-q1-4", "a", "1.9us", "smaller"),
        ("p12-q1-4", "b", "25.2us", "adds"),
        // Counting FLOPs: an FMA as 2, the sparse peak, the VPU's ALUs.
        ("p12-q1-2", "a", "53.7e12", "FMA"),
        ("p12-q1-3", "a", "590", "sparse"),
        ("p12-q1-3", "c", "295", "fp16"),
        ("p2-pop1", "a", "1.79e12", "ALUs"),
        ("p2-pop1", "a", "1.43e13", "whole chip"),
        ("p2-q1", "a", "6.25e9", "bf16"),
        ("p2-q6", "c", "41.9ms", "int8"),
    ];
    mistakes_named(&mistakes);
}

/// Part 2 and Part 12 are listed in part-number order among the
/// chapters.
#[test]
fn the_chapters_are_listed_in_order() {
    let chapters: Vec<&str> = by_chapter().iter().map(|c| c.id).collect();
    let at = |c: &str| chapters.iter().position(|x| *x == c).unwrap();
    assert!(at("p1") < at("p2") && at("p2") < at("p4"));
    assert!(at("p8") < at("p12"));
    let list = by_chapter();
    let of = |c: &str| list.iter().find(|x| x.id == c).unwrap().questions.len();
    assert_eq!(of("p2"), 7);
    assert_eq!(of("p12"), 23);
}

/// Each question opens the calculator with its numbers, and the
/// calculator's own results are the question's answers.
#[test]
fn the_calculator_computes_the_same_answers() {
    for seed in [0, 3, 17] {
        // A weight matmul of one chip's share: its T_comms is the load time.
        let q = question("p2-q1", seed).unwrap();
        let s = q.opening(1);
        assert_eq!(s.view, View::Calculator);
        let a = analyze(&s.calc.scenario().unwrap()).unwrap();
        near(a.t_comms, value(&q, "b"), 1e-3, "p2-q1 load time");

        // The int8 matmul's crossing, from HBM and from VMEM.
        let q = question("p2-q4", seed).unwrap();
        for (i, part) in [(0, "a"), (1, "b")] {
            let s = q.opening(i);
            match critical_size(&s.calc.scenario().unwrap(), "B").unwrap() {
                CriticalSize::At { size, .. } => near(size, value(&q, part), 1e-9, "p2-q4"),
                other => panic!("p2-q4: {other:?}"),
            }
        }
        assert_eq!(q.opening(1).calc.level1, LevelKind::Vmem);

        // The HBM read and the math of question 6.
        let q = question("p2-q6", seed).unwrap();
        let a = analyze(&q.opening(2).calc.scenario().unwrap()).unwrap();
        near(a.t_comms, value(&q, "c"), 1e-9, "p2-q6 HBM");
        near(a.t_math, value(&q, "d"), 1e-9, "p2-q6 math");
        assert_eq!(q.opening(0).calc.level1, LevelKind::Pcie);
        assert_eq!(q.opening(1).calc.level1, LevelKind::Ici);

        // The GPU's critical intensities and matmul times.
        let q = question("p12-q1-3", seed).unwrap();
        for (i, part) in ["a", "b", "c", "d"].into_iter().enumerate() {
            let a = analyze(&q.opening(i).calc.scenario().unwrap()).unwrap();
            near(a.critical_intensity, value(&q, part), 1e-9, "p12-q1-3");
        }
        let q = question("p12-q1-4", seed).unwrap();
        for (i, part) in ["a", "b"].into_iter().enumerate() {
            let a = analyze(&q.opening(i).calc.scenario().unwrap()).unwrap();
            near(a.t_math.max(a.t_comms), value(&q, part), 1e-9, "p12-q1-4");
        }
    }
    // The book's numbers in the links.
    let q = question("p12-q1-4", 0).unwrap();
    let c = &q.opening(1).calc;
    assert_eq!(c.chip, "b200");
    assert_eq!(c.sizes.get("B"), Some(&512.0));
    let q = question("p2-q3", 0).unwrap();
    let c = &q.opening(1).calc;
    assert_eq!((c.chip.as_str(), c.level1), ("v6e", LevelKind::Pcie));
    assert_eq!(c.bw_overrides, vec![(LevelKind::Pcie, 1.6e10)]);
    // The vector peak the calculator shows is the pop quiz's chip total.
    let q = question("p2-pop1", 0).unwrap();
    let chip = q.opening(1).calc.chip().unwrap();
    near(chip.vector.unwrap().dense, value(&q, "b"), 0.02, "v5p VPU");
}
