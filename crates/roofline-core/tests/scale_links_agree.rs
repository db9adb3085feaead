//! The Scale page's links after a fourth reading: an axis of one chip adds
//! no link, axes whose links differ (one wraps, one does not) give the
//! training their mean W, and a GPU mesh whose NVLink is slower than a
//! node's InfiniBand egress says that NVLink sets the pace. Each test fails
//! on the figure or wording it replaced.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod scale_common;
use scale_common::{close, links, sizes};

use roofline_core::hardware::preset;
use roofline_core::model::preset as model;
use roofline_core::scale::{
    array_collective, evaluate_scale, CollOp, ScaleState, ScaleView, ShardedArray, Strategy,
};
use roofline_core::CalcState;

fn train(chip: &str, mesh: &str, m: &str, strat: Strategy) -> ScaleView {
    let calc = CalcState::default();
    let s = ScaleState {
        mesh: Some(mesh.to_string()),
        strat,
        ..ScaleState::default()
    };
    let cfg = &model(m).unwrap().config;
    let v = evaluate_scale(&s, &preset(chip).unwrap(), &calc.op, &calc.sizes, cfg);
    assert!(v.errors.is_empty(), "{:?}", v.errors);
    v
}

fn num(v: &ScaleView, id: &str) -> f64 {
    v.value(id).unwrap().parse().unwrap()
}

/// v5p X:64,Y:1,Z:1 is the 64 chips of X:64: Y and Z have no neighbour,
/// so FSDP's threshold is α / M_X with M_X = 1, 4.59e14 / 1.8e11 = 2550
/// tokens a chip on both, not α / 3 = 850.
#[test]
fn axes_of_one_chip_add_no_link_to_the_training() {
    let long = train("v5p", "X:64,Y:1,Z:1", "llama3-8b", Strategy::Fsdp);
    let one = train("v5p", "X:64", "llama3-8b", Strategy::Fsdp);
    close(num(&long, "train-threshold"), 2550.0, 1e-3, "threshold");
    close(
        num(&long, "train-threshold"),
        num(&one, "train-threshold"),
        1e-12,
        "same chips",
    );
    let t = long.train.as_ref().unwrap();
    assert!(
        t.conditions.iter().all(|c| !c.contains("M_X = 3")),
        "{:?}",
        t.conditions
    );
}

/// An AllGather over XYZ on v5p X:64,Y:1,Z:1 moves over X alone: 180 GB/s
/// a chip (X wraps), not 360 GB/s with Y's link added, and the
/// derivation says why Y and Z add nothing.
#[test]
fn a_collective_over_an_axis_of_one_chip_leaves_it_out() {
    let l = links("v5p", "X:64,Y:1,Z:1");
    let s = sizes(&[("B", 4096.0), ("D", 8192.0)]);
    let a = ShardedArray::parse("bf16[B_XYZ,D]").unwrap();
    let g = array_collective(CollOp::AllGather, &a, &['X', 'Y', 'Z'], &l, &s).unwrap();
    close(g.cost.rate, 1.8e11, 1e-12, "W");
    assert!(
        g.derivation
            .iter()
            .any(|d| d.starts_with("Axes Y and Z each have one chip")),
        "{:?}",
        g.derivation
    );
    assert!(
        g.derivation.iter().all(|d| !d.contains("1 chips")),
        "{:?}",
        g.derivation
    );
}

/// v5e X:16 wraps (90 GB/s a chip), Y:4 does not (45 GB/s): FSDP over
/// both moves 135 GB/s, as the collective's "W in all" says, so its
/// threshold is 1.97e14 / 1.35e11 = 1459 tokens a chip whichever axis
/// comes first (it was 1094 with X first and 2189 with Y first).
#[test]
fn axes_whose_links_differ_give_the_training_their_mean() {
    let xy = train("v5e", "X:16,Y:4", "llama3-8b", Strategy::Fsdp);
    let yx = train("v5e", "X:4,Y:16", "llama3-8b", Strategy::Fsdp);
    let want = 1.97e14 / 1.35e11;
    close(num(&xy, "train-threshold"), want, 1e-9, "X first");
    close(num(&yx, "train-threshold"), want, 1e-9, "Y first");
    let alpha = &xy.train.as_ref().unwrap().conditions[0];
    assert!(
        alpha.contains("the mean of the axes' ICI per chip") && alpha.contains("135 GB/s"),
        "{alpha}"
    );
}

/// A100 X:16 (NVLink, 300 GB/s a chip) by Y:16 (InfiniBand, 25 GB/s a
/// chip): a node's egress, 16 × 25 = 400 GB/s, outpaces NVLink, so NVLink
/// sets W = 300 GB/s; the note no longer calls it the slower link shared
/// by "a node's 1 chips".
#[test]
fn a_slower_nvlink_sets_the_pace_and_says_so() {
    let v = train("a100", "X:16,Y:16", "llama3-8b", Strategy::Fsdp);
    let t = v.train.as_ref().unwrap();
    let note = t
        .notes
        .iter()
        .find(|n| n.starts_with("This mesh joins different links"))
        .unwrap();
    assert!(
        note.contains("more than axis X's NVLink") && note.contains("W = 300 GB/s"),
        "{note}"
    );
    assert!(!note.contains("1 chips"), "{note}");
    let l = links("a100", "X:16,Y:16");
    let s = sizes(&[("B", 4096.0), ("D", 8192.0)]);
    let a = ShardedArray::parse("bf16[B_XY,D]").unwrap();
    let g = array_collective(CollOp::AllGather, &a, &['X', 'Y'], &l, &s).unwrap();
    close(g.cost.rate, 300e9, 1e-12, "W");
    assert!(
        g.derivation
            .iter()
            .any(|d| d.contains("so the NVLink sets the pace")),
        "{:?}",
        g.derivation
    );
}

fn train_with(chip: &str, m: &str, s: ScaleState) -> ScaleView {
    let calc = CalcState::default();
    let cfg = &model(m).unwrap().config;
    let v = evaluate_scale(&s, &preset(chip).unwrap(), &calc.op, &calc.sizes, cfg);
    // The collective's array (B = 256) need not divide these meshes.
    assert!(v.errors.iter().all(|(k, _)| *k == "arr"), "{:?}", v.errors);
    v
}

/// LLaMA-3-70B with FSDP (ZeRO-3) over 238 v5p chips at 4,197,000 tokens
/// holds 96.01 GB a chip against 96 GB of HBM: it does not fit, and the
/// memory's line and the plan show enough digits to say so, not "96 GB a
/// chip of 96 GB".
#[test]
fn a_chip_just_over_its_hbm_shows_the_digits_that_tell() {
    let v = train_with(
        "v5p",
        "llama3-70b",
        ScaleState {
            mesh: Some("X:238".to_string()),
            strat: Strategy::Fsdp,
            zero: 3,
            tokens: 4_197_000.0,
            ..ScaleState::default()
        },
    );
    assert_eq!(v.value("train-fits"), Some("no"));
    let t = v.train.as_ref().unwrap();
    let held: f64 = v.value("train-memory").unwrap().parse().unwrap();
    assert!(held > 96e9 && held < 96.1e9, "{held}");
    // Shown with the digits that tell it from 96 GB (96.01 GB here).
    let shown = t.memory_total.split(" a chip of ").next().unwrap();
    assert!(
        shown.starts_with("96.0") && t.memory_total.ends_with("of 96 GB HBM"),
        "{}",
        t.memory_total
    );
    assert!(
        t.plan
            .iter()
            .any(|p| p.contains(&format!("{shown} a chip does not fit 96 GB"))),
        "{:?}",
        t.plan
    );
}

/// One chip, one token, a budget of one token at 100% MFU: the run takes
/// a tenth of a millisecond, shown as a time rather than
/// "0.00000000121 days"; the nouns agree with 1.
#[test]
fn a_tiny_run_reads_as_a_time_and_its_nouns_agree_with_one() {
    let v = train_with(
        "v5p",
        "llama3-8b",
        ScaleState {
            mesh: Some("X:1".to_string()),
            strat: Strategy::Pp,
            tokens: 1.0,
            seq: 1.0,
            budget: 1.0,
            mfu: 1.0,
            ..ScaleState::default()
        },
    );
    let t = v.train.as_ref().unwrap();
    let days: f64 = v.value("train-days").unwrap().parse().unwrap();
    assert!(days < 1e-6, "{days}");
    assert!(!t.days.contains("days"), "{}", t.days);
    assert!(t.days.contains("µs"), "{}", t.days);
    assert!(t.degrees.starts_with("X = 1 stage,"), "{}", t.degrees);
    let all = [t.plan.clone(), t.notes.clone(), t.conditions.clone()].concat();
    for s in &all {
        for bad in ["1 tokens", "1 stages", "1 chips", "1 axes"] {
            assert!(
                !s.contains(&format!(" {bad}")) && !s.starts_with(bad),
                "{s}"
            );
        }
    }
}

/// FSDP has no TP degree: a Y of 4 left from another strategy is not used
/// by the comms, the math or the memory (it split the weights' comms by 4
/// but not the weights), and a note says so.
#[test]
fn fsdp_leaves_a_set_y_unused_everywhere() {
    let with = |y: Option<f64>| {
        train_with(
            "v5p",
            "llama3-8b",
            ScaleState {
                mesh: Some("X:4,Y:4,Z:4".to_string()),
                strat: Strategy::Fsdp,
                x: Some(16.0),
                y,
                ..ScaleState::default()
            },
        )
    };
    let (set, unset) = (with(Some(4.0)), with(None));
    for id in [
        "train-memory",
        "train-step-time",
        "train-threshold",
        "train-tokens-per-chip",
        "train-bound",
    ] {
        assert_eq!(set.value(id), unset.value(id), "{id}");
    }
    let t = set.train.as_ref().unwrap();
    assert!(
        t.notes.iter().any(|n| n.starts_with("Y = 4 is not used")),
        "{:?}",
        t.notes
    );
}
