//! The GPU chapter's (Part 12) Quiz 1 questions on the hardware, Quiz 2 on
//! one node and the AllToAll pop quiz: the book's printed answers pass
//! (with a note where the book rounded), the readers' known mistakes get
//! the concept they miss, each question opens the calculator on its chip,
//! where the calculator computes the same numbers, and every variant stays
//! sensible.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod quiz_common;
use quiz_common::{all_pass, mistakes_named, near, pass_with_note, value, verdict};

use roofline_core::collective::{all_gather, all_to_all, LinkModel};
use roofline_core::pages::View;
use roofline_core::quiz::{by_chapter, evaluate_formula, question, Expected, Question};
use roofline_core::{analyze, LevelKind};

const MINE: &[&str] = &[
    "p12-q1-1", "p12-q1-5", "p12-q1-6", "p12-q1-7", "p12-q2-1", "p12-q2-2", "p12-q2-3", "p12-pop2",
];

fn formula(q: &Question, part: &str) -> String {
    match &q.part(part).unwrap().expected {
        Expected::Formula { expr, .. } => expr.clone(),
        _ => panic!("{part} is not a formula"),
    }
}

/// A formula in B at `b`.
fn at_b(expr: &str, b: f64) -> f64 {
    evaluate_formula(expr, &["B".to_string()], &[("B".to_string(), b)]).unwrap()
}

/// The book's answers, as it prints them, each accepted; where it rounded
/// (kB as 1,000 bytes, 120MB of VMEM, (N − 1)/N dropped), with a note.
#[test]
fn the_books_printed_answers_pass() {
    all_pass(&[
        ("p12-q1-1", "a", "16896"),
        ("p12-q1-1", "b", "18944"),
        ("p12-q1-1", "c", "8192"),
        ("p12-q1-1", "d", "2"),
        ("p12-q1-5", "a", "33MB"),
        ("p12-q1-5", "b", "33 MB"),
        ("p12-q1-5", "c", "66MB"),
        ("p12-q1-5", "d", "0.5"),
        ("p12-q1-5", "d", "1/2"),
        ("p12-q1-6", "a", "37888"),
        ("p12-q1-6", "b", "2.1e9"),
        ("p12-q1-6", "b", "2.1G"),
        ("p12-q1-7", "a", "1/12"),
        ("p12-q1-7", "c", "3.84ms"),
        ("p12-q1-7", "d", "10"),
        ("p12-q1-7", "e", "0.23us"),
        ("p12-q2-1", "a", "6.4e12"),
        ("p12-q2-1", "b", "3.6TB/s"),
        ("p12-q2-1", "c", "3.6TB/s"),
        ("p12-q2-2", "a", "1800 GB/s"),
        ("p12-q2-2", "b", "3.6TB/s"),
        ("p12-q2-3", "a", "B * (8 - 1) / (8 * 450e9)"),
        ("p12-q2-3", "a", "B / 450e9"),
        ("p12-q2-3", "b", "536e6"),
        ("p12-q2-3", "c", "1.04ms"),
        ("p12-q2-3", "c", "1.19ms"),
        ("p12-pop2", "a", "2 * B * 8"),
        ("p12-pop2", "b", "2*B*8 * (8-1) / (450e9 * 8^2)"),
        ("p12-pop2", "b", "2*B*8 / (450e9 * 8)"),
        ("p12-pop2", "c", "2*B*8 / (2 * 450e9 * 8)"),
    ]);
    pass_with_note(&[
        ("p12-q1-5", "a", "33MB", "1,000 bytes"),
        ("p12-q1-5", "c", "66MB", "1,000 bytes"),
        ("p12-q1-5", "d", "0.55", "120MB"),
        ("p12-q2-3", "a", "B / 450e9", "(N − 1)/N"),
        ("p12-q2-3", "c", "1.19ms", "(N − 1)/N"),
        ("p12-pop2", "b", "2*B*8 / (450e9 * 8)", "keeps 1/N"),
        ("p12-pop2", "c", "2*B*8 / (2 * 450e9 * 8)", "keeps 1/N"),
    ]);
    // Counts are shown whole, as the book prints them.
    let q = question("p12-q1-1", 0).unwrap();
    assert_eq!(q.part("a").unwrap().expected_text, "16896");
    let q = question("p12-q1-6", 0).unwrap();
    assert_eq!(q.part("a").unwrap().expected_text, "37888 FLOPs");
    // The exact answers pass plainly.
    for (id, part, answer) in [
        ("p12-q1-5", "a", "34.6MB"),
        ("p12-q2-3", "c", "1.044ms"),
        ("p12-pop2", "b", "2*B*8*7/(64*450e9)"),
    ] {
        assert_eq!(
            verdict(id, part, answer),
            roofline_core::Verdict::Right,
            "{id}/{part}"
        );
    }
}

/// The readers' mistakes get the concept they miss.
#[test]
fn each_known_mistake_gets_its_concept() {
    mistakes_named(&[
        // Cores: SIMD units for lanes, one subpartition, one TensorCore.
        ("p12-q1-1", "a", "528", "SIMD units"),
        ("p12-q1-1", "a", "4224", "4 subpartitions"),
        ("p12-q1-1", "c", "4096", "one TensorCore"),
        ("p12-q1-1", "c", "2048", "4 independent ALUs"),
        ("p12-q1-1", "d", "0.485", "TPU's over the GPU's"),
        // Memories: one SM, registers counted for bytes, SMEM alone.
        ("p12-q1-5", "a", "262144", "one SM"),
        ("p12-q1-5", "b", "8.65e6", "not bytes"),
        ("p12-q1-5", "d", "0.258", "SMEM alone"),
        // An FMA is 2 FLOPs in the figure, 1 in an add.
        ("p12-q1-6", "a", "18944", "FMA"),
        ("p12-q1-6", "b", "4.2e9", "FMA"),
        ("p12-q1-6", "b", "8.4e9", "4 subpartitions"),
        ("p12-q1-7", "b", "16us", "FMA"),
        ("p12-q1-7", "d", "20", "FMA"),
        ("p12-q1-7", "d", "295", "Tensor Cores"),
        // Bytes: the output forgotten, elements for bytes.
        ("p12-q1-7", "a", "1/8", "output"),
        ("p12-q1-7", "a", "1/6", "an add is one"),
        ("p12-q1-7", "a", "1/3", "elements"),
        ("p12-q1-7", "c", "0.96ms", "elements"),
        ("p12-q1-7", "c", "32us", "T_math"),
        // One direction or both.
        ("p12-q2-1", "c", "7.2e12", "both directions"),
        ("p12-q2-1", "c", "6.4e12", "smaller one limits"),
        ("p12-q2-2", "a", "3.6e12", "both directions"),
        ("p12-q2-2", "b", "1.8e12", "one direction"),
        ("p12-q2-2", "b", "7.2e12", "sender"),
        ("p12-q2-3", "a", "B * 7 / (8 * 900e9)", "both ways"),
        ("p12-q2-3", "c", "0.52ms", "both ways"),
        // bf16's 2 bytes.
        ("p12-q2-3", "b", "268e6", "elements"),
        ("p12-q2-3", "c", "0.52ms", "elements"),
        ("p12-pop2", "a", "B * 8", "elements"),
        ("p12-pop2", "b", "B*8*7/(64*450e9)", "elements"),
        // An AllReduce taken for an AllGather; one shard.
        ("p12-q2-3", "a", "2 * B * 7 / (8 * 450e9)", "AllReduce"),
        ("p12-q2-3", "c", "2.09ms", "AllReduce"),
        ("p12-q2-3", "c", "0.149ms", "one shard"),
        // The book's measured time given for the bandwidth's.
        ("p12-q2-3", "c", "1.5ms", "measured"),
        // V in the AllToAll read as per-device bytes; a TPU ring's V/4W.
        ("p12-pop2", "b", "2*B*8*7/(8*450e9)", "each GPU's bytes"),
        ("p12-pop2", "b", "2*B*8/450e9", "V/N"),
        ("p12-pop2", "b", "2*B*8/(4*450e9)", "TPU ring"),
        ("p12-pop2", "b", "2*B*8*7/(64*900e9)", "both ways"),
        // The sparse AllToAll given the dense time.
        ("p12-pop2", "c", "2*B*8*7/(64*450e9)", "dense time"),
    ]);
}

/// The GPU chapter lists its questions in the book's order.
#[test]
fn the_chapter_lists_them_in_the_books_order() {
    let list = by_chapter();
    let p12: Vec<&str> = list
        .iter()
        .find(|c| c.id == "p12")
        .unwrap()
        .questions
        .iter()
        .map(|(id, _, _)| *id)
        .collect();
    assert_eq!(
        p12,
        [
            "p12-q1-1", "p12-q1-2", "p12-q1-3", "p12-q1-4", "p12-q1-5", "p12-q1-6", "p12-q1-7",
            "p12-q2-1", "p12-q2-2", "p12-q2-3", "p12-q3-1", "p12-q3-2", "p12-pop1", "p12-pop2",
            "p12-pop3", "p12-q4-1", "p12-q4-2", "p12-q4-3", "p12-q4-4", "p12-q4-5", "p12-q5-1",
            "p12-q5-2", "p12-q5-3"
        ]
    );
}

/// Each question opens the calculator on its chip, and the calculator's
/// numbers (its chip's bandwidths and vector figure, the add's intensity
/// and times, a copy's bytes) are the question's own.
#[test]
fn the_calculator_computes_the_same_numbers() {
    for seed in [0, 3, 17, 40] {
        for id in MINE {
            let q = question(id, seed).unwrap();
            assert_eq!(q.opening(0).view, View::Calculator, "{id}");
        }

        // The add: its intensity, its bytes' time, and T_math at the
        // spec sheet's vector figure (an FMA as 2) against the question's.
        let q = question("p12-q1-7", seed).unwrap();
        let s = q.opening(0).calc;
        let chip = s.chip().unwrap();
        let a = analyze(&s.scenario().unwrap()).unwrap();
        near(a.intensity, value(&q, "a"), 1e-9, "add intensity");
        near(a.t_comms, value(&q, "c"), 1e-9, "add T_comms");
        let n = s.sizes.get("N").copied().unwrap();
        let sheet = chip.vector.as_ref().unwrap().dense;
        near(a.t_math, n / sheet, 1e-9, "calculator T_math");
        near(
            sheet / 2.0,
            n / value(&q, "b"),
            0.01,
            "no FMA: half the sheet",
        );
        let hbm = chip.bandwidth(LevelKind::Hbm).unwrap();
        near(n / value(&q, "b") / hbm, value(&q, "d"), 1e-9, "vector CI");
        let small = analyze(&q.opening(4).calc.scenario().unwrap()).unwrap();
        near(small.t_comms, value(&q, "e"), 1e-6, "small add");

        // The clock: the chip's vector figure over its FLOPs a cycle (the
        // variants quote the preset; the book NVIDIA's 80 TFLOP/s).
        let q = question("p12-q1-6", seed).unwrap();
        let sheet = q.calc.chip().unwrap().vector.unwrap().dense;
        let quoted = if seed == 0 { 80e12 } else { sheet };
        near(quoted / value(&q, "a"), value(&q, "b"), 1e-9, "clock");

        // The node: 8 GPUs at the chip's NVLink egress.
        for id in ["p12-q2-1", "p12-q2-2"] {
            let q = question(id, seed).unwrap();
            let s = q.opening(0).calc;
            assert_eq!(s.level1, LevelKind::NvLink, "{id}");
            let w = s.chip().unwrap().bandwidth(LevelKind::NvLink).unwrap();
            near(8.0 * w, value(&q, "b"), 1e-9, id);
        }

        // The AllGather: the copy's bytes are twice the array's (a read
        // and a write), and the collective of them is the answer.
        let q = question("p12-q2-3", seed).unwrap();
        let s = q.opening(0).calc;
        let a = analyze(&s.scenario().unwrap()).unwrap();
        near(a.bytes / 2.0, value(&q, "b"), 1e-9, "array bytes");
        let w = s.chip().unwrap().bandwidth(LevelKind::NvLink).unwrap();
        let link = LinkModel::new(LevelKind::NvLink, w);
        let t = all_gather(value(&q, "b"), 8.0, &link).bandwidth_time;
        near(t, value(&q, "c"), 1e-9, "AllGather");
        near(at_b(&formula(&q, "a"), value(&q, "b")), t, 1e-9, "formula");

        // The AllToAll's formulas at the setup's B are the core's.
        let q = question("p12-pop2", seed).unwrap();
        let s = q.opening(0).calc;
        let (b, n) = (
            s.sizes.get("B").copied().unwrap(),
            s.sizes.get("N").copied().unwrap(),
        );
        assert_eq!(n, 8.0);
        let w = s.chip().unwrap().bandwidth(LevelKind::NvLink).unwrap();
        let t = all_to_all(2.0 * b * n, n, &LinkModel::new(LevelKind::NvLink, w)).bandwidth_time;
        near(at_b(&formula(&q, "a"), b), 2.0 * b * n, 1e-9, "V");
        near(at_b(&formula(&q, "b"), b), t, 1e-9, "AllToAll");
        assert!(at_b(&formula(&q, "c"), b) < t, "the sparse one is faster");
    }
    // The book's numbers in the links.
    let q = question("p12-q1-7", 0).unwrap();
    assert_eq!(q.calc.chip, "h100");
    assert_eq!(q.calc.sizes.get("N").copied().unwrap(), 1073741824.0);
    assert_eq!(q.opening(4).calc.sizes.get("N").copied().unwrap(), 65536.0);
    let q = question("p12-q2-3", 0).unwrap();
    assert_eq!(
        (
            q.calc.sizes.get("D").copied().unwrap(),
            q.calc.sizes.get("F").copied().unwrap()
        ),
        (4096.0, 65536.0)
    );
}

/// Every variant builds, with finite positive numbers and answers in
/// sensible ranges, and says "the book" only with the book's numbers.
#[test]
fn the_variants_stay_sensible() {
    for seed in 1..=50u64 {
        for id in MINE {
            let q = question(id, seed).unwrap_or_else(|| panic!("{id} seed {seed}"));
            let mut texts = vec![q.setup.clone()];
            for p in &q.parts {
                if let Expected::Number { value, .. } = p.expected {
                    assert!(value.is_finite() && value > 0.0, "{id}/{} {seed}", p.id);
                }
                texts.extend(p.solution.iter().cloned());
            }
            assert!(
                !texts
                    .iter()
                    .any(|t| t.contains("the book:") || t.contains("The book rounds")),
                "{id} seed {seed} quotes the book: {texts:?}"
            );
        }
        let clock = value(&question("p12-q1-6", seed).unwrap(), "b");
        assert!((1.2e9..2.5e9).contains(&clock), "clock {clock}");
        let frac = value(&question("p12-q1-5", seed).unwrap(), "d");
        assert!(frac > 0.2 && frac < 1.0, "VMEM share {frac}");
        let q = question("p12-q2-1", seed).unwrap();
        assert!(value(&q, "c") <= value(&q, "a"), "the GPUs' ports limit");
        let q = question("p12-q1-1", seed).unwrap();
        assert_ne!(q.part("a").unwrap().prompt, q.part("b").unwrap().prompt);
    }
}
