//! The Scale page's view and link: every result of the contract
//! has its unrounded `data-value`, LLaMA-3-70B on a v5p pod reads as Part 6
//! works it, each bad field gets its own message, and the link keys read
//! back what they wrote, replacing bad values by defaults with a notice.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod scale_common;
use scale_common::{close, sizes};

use roofline_core::hardware::preset;
use roofline_core::model::preset as model;
use roofline_core::scale::{evaluate_scale, read_query, state_text, CollOp, ScaleState, Strategy};
use roofline_core::CalcState;

const TESTIDS: [&str; 21] = [
    "scale-coll-bytes",
    "scale-coll-time",
    "scale-coll-bound",
    "scale-case",
    "scale-collective",
    "scale-math-time",
    "scale-comms-time",
    "scale-bound",
    "train-params",
    "train-flops",
    "train-days",
    "train-step-time",
    "train-tokens-per-chip",
    "train-threshold",
    "train-threshold-opt",
    "train-per-step",
    "train-bound",
    "train-x-opt",
    "train-memory",
    "train-fits",
    "train-min-chips",
];

/// The defaults (the calculator's op and sizes, the Model page's model)
/// give every result, no error, on a chip of each kind.
#[test]
fn defaults_give_every_result() {
    let calc = CalcState::default();
    let m = &model("llama3-8b").unwrap().config;
    for id in ["v5e", "v5p", "h100"] {
        let v = evaluate_scale(
            &ScaleState::default(),
            &preset(id).unwrap(),
            &calc.op,
            &calc.sizes,
            m,
        );
        assert!(v.errors.is_empty(), "{id}: {:?}", v.errors);
        for t in TESTIDS {
            assert!(v.value(t).is_some_and(|s| !s.is_empty()), "{id}: {t}");
        }
    }
    let v5p = evaluate_scale(
        &ScaleState::default(),
        &preset("v5p").unwrap(),
        &calc.op,
        &calc.sizes,
        m,
    );
    assert_eq!(v5p.mesh, "X:4,Y:4,Z:4", "a cube on a 3-D chip");
    let v5e = evaluate_scale(
        &ScaleState::default(),
        &preset("v5e").unwrap(),
        &calc.op,
        &calc.sizes,
        m,
    );
    assert_eq!(v5e.mesh, "X:4,Y:4");
    assert!(
        v5e.axes.iter().all(|a| a.wraps == "no"),
        "4 < 16: no wraparound on v5e"
    );
    let h100 = evaluate_scale(
        &ScaleState::default(),
        &preset("h100").unwrap(),
        &calc.op,
        &calc.sizes,
        m,
    );
    assert_eq!(h100.mesh, "X:8");
    assert_eq!(h100.axes[0].wraps, "switch");
    assert_eq!(h100.axes[0].w, "450 GB/s (a switch port, one direction)");
    assert!(
        h100.layout.starts_with("a switch (NVLink)"),
        "{}",
        h100.layout
    );
    assert_eq!(v5p.layout, "a 3-D torus (ICI) on every axis");
    assert_eq!(
        v5p.axes[0].w, "180 GB/s (both directions)",
        "4 is a multiple of 4"
    );
    assert_eq!(v5e.axes[0].w, "45 GB/s (one direction)");
}

/// LLaMA-3-70B, 4M tokens, FSDP + TP on a v5p pod of 16×20×28: the
/// chapter's 2048 × 4 split (M_X = 2, M_Y = 1), 113 tokens a chip to be
/// compute-bound, X_opt ≈ 1619, and P = 80·(3·8192·28672 + 2·8192·64·128
/// + 2·8192·8·128 + 2·8192) + 2·8192·128256 = 70,553,698,304 parameters.
#[test]
fn llama3_70b_on_a_v5p_pod() {
    let s = ScaleState {
        mesh: Some("X:16,Y:20,Z:28".to_string()),
        strat: Strategy::Mixed,
        ..ScaleState::default()
    };
    let calc = CalcState::default();
    let m = &model("llama3-70b").unwrap().config;
    let v = evaluate_scale(&s, &preset("v5p").unwrap(), &calc.op, &calc.sizes, m);
    assert!(v.errors.is_empty(), "{:?}", v.errors);
    let num = |t: &str| v.value(t).unwrap().parse::<f64>().unwrap();
    let p = 80.0
        * (3.0 * 8192.0 * 28672.0
            + 2.0 * 8192.0 * 64.0 * 128.0
            + 2.0 * 8192.0 * 8.0 * 128.0
            + 2.0 * 8192.0)
        + 2.0 * 8192.0 * 128_256.0;
    assert_eq!(p, 70_553_698_304.0);
    assert_eq!(num("train-params"), p);
    close(num("train-flops"), 6.0 * p * 15e12, 1e-12, "6·P·tokens");
    close(
        num("train-threshold-opt"),
        2550.0 * 2550.0 / (2.0 * 28672.0),
        1e-12,
        "α²/(2F), at X_opt",
    );
    // The split shown (2048 × 4, M_X = 2) needs B/N > α / (Y·M_X): the
    // FSDP gathers' time over the math a token, which the bound uses.
    close(
        num("train-threshold"),
        2550.0 / (4.0 * 2.0),
        1e-12,
        "α/(Y·M_X)",
    );
    close(
        num("train-x-opt"),
        (4_194_304.0 / 28672.0 * 2.0 * 8960.0f64).sqrt(),
        1e-12,
        "X_opt over the pod's 8960 chips, as the chapter and the plan take it",
    );
    close(num("train-x-opt"), 1618.0, 0.001, "the book's 1618");
    close(
        num("train-tokens-per-chip"),
        4_194_304.0 / 8192.0,
        1e-12,
        "B / (X·Y)",
    );
    assert_eq!(v.value("train-bound"), Some("compute"));
    assert_eq!(v.value("train-fits"), Some("yes"));
    let t = v.train.as_ref().unwrap();
    assert!(
        t.degrees
            .starts_with("X = 2048 (M_X = 2 axes), Y = 4 (M_Y = 1)"),
        "{}",
        t.degrees
    );
    // Compute-bound, so the days are 6·P·tokens / (8192 · C · 40%).
    close(
        num("train-days"),
        6.0 * p * 15e12 / (8192.0 * 4.59e14 * 0.4) / 86_400.0,
        1e-12,
        "days",
    );
    let ckpt = 2.0 * 8192.0 * 4_194_304.0 * 4.0 * 80.0;
    close(
        num("train-memory"),
        (2.0 * p / 4.0 + 10.0 * p / 4.0) / 2048.0 + ckpt / 8192.0,
        1e-12,
        "memory a chip",
    );
    close(
        num("train-min-chips"),
        ((12.0 * p + ckpt) / 96e9).ceil(),
        0.0,
        "min chips",
    );
    assert!(t.notes.iter().any(|n| n.contains("73,440")));
    assert!(
        t.notes.iter().any(|n| n.contains("8192 of the 8960")),
        "{:?}",
        t.notes
    );
}

/// Each bad field gets its own message, and the rest still shows.
#[test]
fn bad_fields_have_their_messages() {
    let calc = CalcState::default();
    let m = &model("llama3-8b").unwrap().config;
    let v5e = preset("v5e").unwrap();
    let eval = |s: &ScaleState| evaluate_scale(s, &v5e, &calc.op, &calc.sizes, m);
    let v = eval(&ScaleState {
        mesh: Some("X:0".into()),
        ..ScaleState::default()
    });
    assert!(v.error("mesh").unwrap().contains("whole number"));
    assert_eq!(v.mesh, "X:4,Y:4", "the default stands in");
    let v = eval(&ScaleState {
        wrap: Some("Q".into()),
        ..ScaleState::default()
    });
    assert!(v.error("wrap").unwrap().contains("not in the mesh"));
    let v = eval(&ScaleState {
        cax: "Z".into(),
        ..ScaleState::default()
    });
    assert!(v.error("cax").unwrap().contains("not in the mesh"));
    assert!(v.train.is_some());
    let v = eval(&ScaleState {
        x: Some(64.0),
        y: Some(2.0),
        ..ScaleState::default()
    });
    assert!(v.error("x").unwrap().contains("the mesh has 16"));
    let op = "bf16[B_X,D]*bf16[D,F_X]->bf16[B_X,F]";
    let s = sizes(&[("B", 4096.0), ("D", 4096.0), ("F", 4096.0)]);
    let v = evaluate_scale(&ScaleState::default(), &v5e, op, &s, m);
    assert_eq!(v.value("scale-case"), Some("4"));
    assert!(v.matmul.unwrap().words[0].contains("AllGather"));
    let v = eval(&ScaleState {
        cop: CollOp::AllReduce,
        ..ScaleState::default()
    });
    assert!(v.error("arr").unwrap().contains("partial sums"));
}

/// A state with every key set reads back from its link; the defaults
/// write nothing; bad values are their defaults, each with a notice.
#[test]
fn the_link_round_trips() {
    assert_eq!(state_text(&ScaleState::default()), "");
    let s = ScaleState {
        mesh: Some("X:16,Y:20,Z:28".into()),
        wrap: Some("XY".into()),
        cop: CollOp::AllToAll,
        cax: "XY".into(),
        arr: "bf16[B,D_XY]".into(),
        tokens: 2e6,
        seq: 8192.0,
        strat: Strategy::Pods,
        x: Some(1024.0),
        y: Some(8.0),
        mx: Some(2.0),
        my: Some(1.0),
        zero: 1,
        ckpt: 1.0,
        mfu: 0.5,
        budget: 1e12,
        pods: 4.0,
    };
    let q = state_text(&s);
    let keys: Vec<&str> = q.split('&').filter_map(|kv| kv.split('=').next()).collect();
    assert_eq!(
        keys,
        [
            "mesh", "wrap", "cop", "cax", "arr", "tokens", "seq", "strat", "x", "y", "mx", "my",
            "zero", "ckpt", "mfu", "budget", "pods"
        ]
    );
    let (back, notices) = read_query(&q);
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(back, s);
    let (bad, notices) = read_query(
        "mesh=X:0&wrap=1&cop=gather&cax=%3F&arr=bf16[B_X,D_X]&tokens=-5&seq=1e30&strat=zz&x=NaN&zero=4&mfu=0&budget=inf&pods=0.5",
    );
    assert_eq!(bad, ScaleState::default());
    let params: Vec<&str> = notices.iter().map(|n| n.param.as_str()).collect();
    assert_eq!(
        params,
        [
            "mesh", "wrap", "cop", "cax", "arr", "strat", "tokens", "seq", "x", "zero", "mfu",
            "budget", "pods"
        ]
    );
    for n in &notices {
        let m = n.message.to_ascii_lowercase();
        assert!(!m.contains("nan") && !m.contains("inf"), "{}", n.message);
    }
}

/// One degree given, the other fills the mesh: FSDP + TP with X = 16 on
/// v5p's 64 chips is Y = 4; FSDP with X = 32 uses 32 chips.
#[test]
fn one_degree_fills_the_mesh() {
    let calc = CalcState::default();
    let m = &model("llama3-8b").unwrap().config;
    let v5p = preset("v5p").unwrap();
    let s = ScaleState {
        strat: Strategy::Mixed,
        x: Some(16.0),
        ..ScaleState::default()
    };
    let v = evaluate_scale(&s, &v5p, &calc.op, &calc.sizes, m);
    let t = v.train.unwrap();
    assert!(
        t.degrees
            .starts_with("X = 16 (M_X = 2 axes), Y = 4 (M_Y = 1)"),
        "{}",
        t.degrees
    );
    let s = ScaleState {
        x: Some(32.0),
        ..ScaleState::default()
    };
    let v = evaluate_scale(&s, &v5p, &calc.op, &calc.sizes, m);
    close(
        v.value("train-tokens-per-chip").unwrap().parse().unwrap(),
        4_194_304.0 / 32.0,
        1e-12,
        "B / 32",
    );
}

/// Pipelining LLaMA-3-8B on v5p 4×4×4: 4 stages of 16 chips in ZeRO-1
/// data parallelism (M_X = 2 axes), 1024 sequences, so 64 microbatches a
/// replica. A step's comms: the gradients' AllReduces of the 32/4 layers a
/// stage holds, 8·D·F/(W·2) each, and 64 + 4 − 2 hops of 2·B·D/(16·64)
/// bytes forward and backward; the bubble (4 − 1)/(64 + 4 − 1) ≈ 4.48%.
#[test]
fn pipelining_counts_its_hops() {
    let calc = CalcState::default();
    let m = &model("llama3-8b").unwrap().config;
    let s = ScaleState {
        strat: Strategy::Pp,
        ..ScaleState::default()
    };
    let v = evaluate_scale(&s, &preset("v5p").unwrap(), &calc.op, &calc.sizes, m);
    let t = v.train.unwrap();
    let (b, d, f, w) = (4_194_304.0, 4096.0, 14336.0, 1.8e11);
    let grads = 8.0 * d * f / (w * 2.0) * 32.0 / 4.0;
    let pipe = 2.0 * 66.0 * 2.0 * b * d / (16.0 * w * 64.0);
    assert_eq!(t.step_comms, roofline_core::format::seconds(grads + pipe));
    assert!(
        t.notes
            .iter()
            .any(|n| n.contains("64 microbatches") && n.contains("4.48%")),
        "{:?}",
        t.notes
    );
}

/// Every surprise the issue names has its "Why?".
#[test]
fn every_surprise_has_its_why() {
    for key in [
        "gather-size",
        "allreduce-twice",
        "tp-batch",
        "fsdp-dp",
        "which-bandwidth",
        "dcn",
    ] {
        assert!(
            roofline_core::scale::why(key).is_some_and(|w| w.len() > 100),
            "{key}"
        );
    }
    assert_eq!(roofline_core::scale::why("nope"), None);
}

/// A mixture of experts trains on the FLOPs of the experts a token uses:
/// Mixtral-8x7B's training FLOPs are 6 · P_active · tokens (2 of 8
/// experts), its parameters and memory all of them, and the step time
/// follows the active FLOPs.
#[test]
fn a_mixture_of_experts_counts_its_active_parameters() {
    let calc = CalcState::default();
    let m = &model("mixtral-8x7b").unwrap().config;
    assert!(m.is_moe() && m.active_params() < 0.5 * m.params());
    let s = ScaleState {
        strat: Strategy::Fsdp,
        ..ScaleState::default()
    };
    let v = evaluate_scale(&s, &preset("v5p").unwrap(), &calc.op, &calc.sizes, m);
    let num = |t: &str| v.value(t).unwrap().parse::<f64>().unwrap();
    assert_eq!(num("train-params"), m.params());
    close(
        num("train-flops"),
        6.0 * m.active_params() * s.budget,
        1e-12,
        "6·P_active·tokens",
    );
    let t = v.train.as_ref().unwrap();
    assert!(
        t.params.contains("active") && t.params.contains("2 of 8 experts"),
        "{}",
        t.params
    );
    assert!(t
        .notes
        .iter()
        .any(|n| n.starts_with("A mixture of experts")));
    // Memory holds every expert: at least 2 bytes a parameter of all P over
    // the 64 chips.
    assert!(num("train-memory") >= 2.0 * m.params() / 64.0);
}
