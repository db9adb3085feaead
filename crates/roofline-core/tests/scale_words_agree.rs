//! The Scale page's sentences against the numbers beside them, after a
//! second reading: a collective across a GPU's NVLink and InfiniBand, an
//! AllToAll over several axes, the AllReduce's 2V / W, the plan's split
//! where the chapter's rounding is comms-bound, one chip, DP's comms, a
//! mixture's E/k and a plan that does not fit. Each test fails on the
//! wording or choice it replaced.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod scale_common;
use scale_common::{close, links, sizes};

use roofline_core::hardware::preset;
use roofline_core::model::preset as model;
use roofline_core::scale::{
    array_collective, evaluate_scale, CollOp, ScaleState, ScaleView, ShardedArray, Strategy,
};
use roofline_core::CalcState;

fn arr(t: &str) -> ShardedArray {
    ShardedArray::parse(t).unwrap()
}

fn train(chip: &str, mesh: &str, m: &str, strat: Strategy, tokens: f64) -> ScaleView {
    let calc = CalcState::default();
    let s = ScaleState {
        mesh: Some(mesh.to_string()),
        strat,
        tokens,
        ..ScaleState::default()
    };
    let cfg = &model(m).unwrap().config;
    let v = evaluate_scale(&s, &preset(chip).unwrap(), &calc.op, &calc.sizes, cfg);
    assert!(v.errors.is_empty(), "{:?}", v.errors);
    v
}

/// H100 X:8 (NVLink) by Y:4 (InfiniBand): a collective over both axes goes
/// at the node's egress, 8 × 50 GB/s = 400 GB/s, not NVLink's and
/// InfiniBand's sum; its AllToAll is the GPU chapter's
/// V·(M − 1)/(M²·W_node) for M = 4 nodes: 67.1 MB · 3/16 / 400 GB/s =
/// 31.5 µs.
#[test]
fn a_collective_across_nvlink_and_infiniband_goes_at_the_nodes_egress() {
    let l = links("h100", "X:8,Y:4");
    let s = sizes(&[("B", 4096.0), ("D", 8192.0)]);
    let a = arr("bf16[B_XY,D]");
    let v = 4096.0 * 8192.0 * 2.0;
    let g = array_collective(CollOp::AllGather, &a, &['X', 'Y'], &l, &s).unwrap();
    close(g.cost.rate, 400e9, 1e-9, "W_node");
    close(
        g.cost.cost.bandwidth_time,
        31.0 / 32.0 * v / 400e9,
        1e-9,
        "gather",
    );
    assert!(
        g.derivation.iter().any(|d| d.contains("W_node egress")),
        "{:?}",
        g.derivation
    );
    let t = array_collective(CollOp::AllToAll, &a, &['X', 'Y'], &l, &s).unwrap();
    close(
        t.cost.cost.bandwidth_time,
        v * 3.0 / 16.0 / 400e9,
        1e-9,
        "AllToAll",
    );
    assert!(
        t.derivation.iter().any(|d| d.contains("across 4 nodes")),
        "{:?}",
        t.derivation
    );
}

/// v5e X:16,Y:16, an AllToAll over both axes: the book's V·max/(4·N·W)
/// is about 1/32 of the AllGather over them, not "a quarter"; an
/// AllReduce's book form is 2V / W.
#[test]
fn an_alltoall_over_two_axes_says_its_own_share() {
    let l = links("v5e", "X:16,Y:16");
    let s = sizes(&[("B", 4096.0), ("D", 8192.0)]);
    let t = array_collective(CollOp::AllToAll, &arr("bf16[B_XY,D]"), &['X', 'Y'], &l, &s).unwrap();
    let words = t.derivation.join(" ");
    assert!(!words.contains("a quarter of an AllGather"), "{words}");
    assert!(words.contains("about 1/32 of an AllGather"), "{words}");
    let r = array_collective(CollOp::AllReduce, &arr("bf16[B,D]"), &['X'], &l, &s).unwrap();
    let words = r.derivation.join(" ");
    assert!(words.contains("max(latency, 2V / W)"), "{words}");
}

/// Mixed FSDP + TP over meshes, models and batches: wherever a split in
/// the table is compute-bound at the batch (its crossover at most the
/// batch), the plan is compute-bound too. The chapter's rounding of X_opt
/// alone was comms-bound in some of them (its TP spanning two axes).
#[test]
fn the_plan_takes_a_compute_bound_split_where_there_is_one() {
    let mut taken = 0;
    for (chip, mesh) in [
        ("v5p", "X:4,Y:4,Z:4"),
        ("v5p", "X:8,Y:8,Z:8"),
        ("v5p", "X:16,Y:20,Z:28"),
        ("v5e", "X:16,Y:16"),
        ("v5e", "X:8,Y:8"),
    ] {
        for m in ["llama3-8b", "llama3-70b", "llama31-405b"] {
            for k in 12..24 {
                let tokens = f64::from(1u32 << k);
                let v = train(chip, mesh, m, Strategy::Mixed, tokens);
                let t = v.train.as_ref().unwrap();
                let any = t
                    .splits
                    .iter()
                    .any(|r| r.crossover_value.parse::<f64>().is_ok_and(|c| c <= tokens));
                let plan = t.plan.iter().find(|p| p.starts_with("The plan:")).unwrap();
                if any {
                    assert!(
                        plan.ends_with("compute-bound."),
                        "{chip} {mesh} {m} {tokens}: {:?}",
                        t.plan
                    );
                }
                taken += usize::from(t.plan.iter().any(|p| p.contains("the plan takes it")));
            }
        }
    }
    assert!(
        taken > 0,
        "no case where the rounding's split was comms-bound"
    );
}

/// v5p 16×20×28, LLaMA-3-70B, 131,072 tokens: every split is comms-bound,
/// and the plan is the one with the least comms (128 × 64 rather than the
/// rounding's 256 × 32, whose TP spans two axes).
#[test]
fn with_every_split_comms_bound_the_plan_has_the_least_comms() {
    let v = train(
        "v5p",
        "X:16,Y:20,Z:28",
        "llama3-70b",
        Strategy::Mixed,
        131_072.0,
    );
    let t = v.train.as_ref().unwrap();
    let words = t.plan.join(" ");
    assert!(words.contains("every split is comms-bound"), "{words}");
    assert!(
        words.contains("The split with the least comms, X = 128, Y = 64"),
        "{words}"
    );
    assert!(words.contains("X = 128, Y = 64 on 8192 chips"), "{words}");
}

/// One chip: no collectives, and no "1 chips".
#[test]
fn one_chip_is_compute_bound_and_singular() {
    let v = train("v5p", "X:1", "llama3-8b", Strategy::Fsdp, 4096.0);
    let t = v.train.as_ref().unwrap();
    let words = t.plan.join(" ");
    assert!(words.contains("One chip: no collectives"), "{words}");
    assert!(!words.contains("comms-bound"), "{words}");
    assert!(
        !words.contains(" 1 chips") && !t.degrees.contains("1 axes"),
        "{words}"
    );
}

/// DP: its comms are the gradients' AllReduce, not FSDP 0, TP 0, DCN 0.
#[test]
fn dp_names_its_allreduce() {
    let v = train("v5e", "X:16,Y:16", "llama3-8b", Strategy::Dp, 32_768.0);
    let t = v.train.as_ref().unwrap();
    assert!(
        t.layer_comms.contains("the gradients' AllReduce"),
        "{}",
        t.layer_comms
    );
}

/// Mixtral on H100 X:8,Y:64 under DP: the note gives the E/k threshold's
/// number and says the batch is below it; the default v5e 4×4 with
/// LLaMA-3-8B at 4M tokens does not fit, and the plan says so.
#[test]
fn a_mixtures_threshold_and_a_plan_that_does_not_fit_are_said() {
    let v = train(
        "h100",
        "X:8,Y:64",
        "mixtral-8x7b",
        Strategy::Dp,
        4_194_304.0,
    );
    let t = v.train.as_ref().unwrap();
    let note = t.notes.iter().find(|n| n.contains("E/k")).unwrap();
    assert!(
        note.contains("below it: comms-bound by that estimate"),
        "{note}"
    );
    let v = train("v5e", "X:4,Y:4", "llama3-8b", Strategy::Fsdp, 4_194_304.0);
    assert_eq!(v.value("train-fits"), Some("no"));
    let t = v.train.as_ref().unwrap();
    assert!(
        t.plan
            .iter()
            .any(|p| p.contains("does not fit") && p.contains("fits on 281 chips or more")),
        "{:?}",
        t.plan
    );
}

/// v5p 16×20×28, LLaMA-3-70B, 67,108,864 tokens: the plan is FSDP over all
/// 8960 chips, an X that is no power of two; its split is still a row of
/// the table, and the one marked.
#[test]
fn the_plans_split_is_a_row_of_the_table() {
    let v = train(
        "v5p",
        "X:16,Y:20,Z:28",
        "llama3-70b",
        Strategy::Fsdp,
        67_108_864.0,
    );
    let t = v.train.as_ref().unwrap();
    let chosen: Vec<_> = t.splits.iter().filter(|r| r.chosen).collect();
    assert_eq!(chosen.len(), 1, "{:?}", t.splits);
    assert_eq!(chosen[0].label, "FSDP 8960 × TP 1");
    assert!(
        t.crossover
            .starts_with("the plan's FSDP 8960 × TP 1: compute-bound above"),
        "{}",
        t.crossover
    );
}
