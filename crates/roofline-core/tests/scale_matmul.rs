//! Part 3's sharded matmuls in the chapter's four cases, with the times
//! derived by hand: the collective each case needs and where it goes,
//! T_math against T_comms, the comms roofline's crossover, and the
//! messages for bad specs.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod scale_common;
use scale_common::{close, links, sizes};

use roofline_core::hardware::preset;
use roofline_core::scale::{comms_roofline, sharded_matmul, unsharded_op, CollOp, Placement};

const N: f64 = 4096.0;

fn square() -> roofline_core::op::Sizes {
    sizes(&[("B", N), ("D", N), ("F", N)])
}

/// Case 1: `A[B_X, D] · W[D, F_Y] → C[B_X, F_Y]`: no input split on D,
/// nothing sent; each chip multiplies (B/4)·D·(F/4).
#[test]
fn case_1_sends_nothing() {
    let l = links("v5e", "X:4,Y:4");
    let v5e = preset("v5e").unwrap();
    let m = sharded_matmul(
        "bf16[B_X,D]*bf16[D,F_Y]->bf16[B_X,F_Y]",
        &l,
        &v5e,
        &square(),
    )
    .unwrap();
    assert_eq!(m.case, 1);
    assert_eq!(m.collective, None);
    assert_eq!(m.placement, Placement::None);
    close(
        m.local_flops,
        2.0 * (N / 4.0) * N * (N / 4.0),
        1e-12,
        "local FLOPs",
    );
    close(
        m.t_math,
        2.0 * (N / 4.0) * N * (N / 4.0) / 1.97e14,
        1e-12,
        "T_math",
    );
    assert_eq!(m.t_comms, 0.0);
    assert!(!m.comms_bound);
}

/// Case 2: `A[B, D_X] · W[D, F] → C[B, F]`: AllGather A over X first
/// (V = 2·B·D bytes, W_ici = 9e10 on a wrapped v5e axis of 16), then the
/// whole matmul on each chip.
#[test]
fn case_2_gathers_the_split_input_first() {
    let l = links("v5e", "X:16");
    let v5e = preset("v5e").unwrap();
    let m = sharded_matmul("bf16[B,D_X]*bf16[D,F]->bf16[B,F]", &l, &v5e, &square()).unwrap();
    assert_eq!(m.case, 2);
    assert_eq!(m.collective, Some((CollOp::AllGather, vec!['X'], 0)));
    assert_eq!(m.placement, Placement::Before);
    let v = 2.0 * N * N;
    close(m.t_comms, 15.0 / 16.0 * v / 9e10 + 8e-6, 1e-12, "T_comms");
    close(m.t_math, 2.0 * N * N * N / 1.97e14, 1e-12, "T_math");
    assert_eq!(m.swept.as_deref(), Some("F"));
    // Which bandwidth: both directions of the wrapped axis, 2 × 4.5e10.
    assert!(
        m.words
            .iter()
            .any(|w| w.contains("W = 90 GB/s: both directions of axis X")),
        "{:?}",
        m.words
    );
    // The alternative: T_math/16 ≈ 44 µs, but an AllReduce of the 2·B·F
    // output, about 2 × 349 µs + 16 µs, is longer than gathering and
    // multiplying, max(357 µs, 698 µs): slower.
    let alt = m
        .words
        .iter()
        .find(|w| w.starts_with("The alternative"))
        .unwrap();
    assert!(alt.contains("slower"), "{alt}");
    // With a narrow output (F = 128) the AllReduce of 2·B·F bytes is far
    // smaller than the gather of 2·B·D: the alternative is faster.
    let narrow = sizes(&[("B", 65536.0), ("D", N), ("F", 128.0)]);
    let m = sharded_matmul("bf16[B,D_X]*bf16[D,F]->bf16[B,F]", &l, &v5e, &narrow).unwrap();
    let alt = m
        .words
        .iter()
        .find(|w| w.starts_with("The alternative"))
        .unwrap();
    assert!(alt.contains("faster"), "{alt}");
    // The case's own sentence does not say the opposite.
    assert!(
        !m.words[0].contains("usually moves more bytes"),
        "{}",
        m.words[0]
    );
    // Sharding's Question 6b, A[I_X, J] · B[J_X, K_Y]: the other input, A,
    // already has X on I, so it cannot be sliced on J over X too: no
    // alternative is offered.
    let l2 = links("v5e", "X:16,Y:16");
    let s2 = sizes(&[("I", 4096.0), ("J", 8192.0), ("K", 4096.0)]);
    let m = sharded_matmul("bf16[I_X,J]*bf16[J_X,K_Y]->bf16[I_X,K_Y]", &l2, &v5e, &s2).unwrap();
    assert_eq!(m.case, 2);
    assert!(
        !m.words.iter().any(|w| w.starts_with("The alternative")),
        "{:?}",
        m.words
    );
}

/// Case 3: `A[B, D_X] · W[D_X, F] → C[B, F]`: multiply locally (D/16 a
/// chip) into partial sums, then AllReduce C (V = 2·B·F) over X; with the
/// output split over X, a ReduceScatter instead. The comms roofline sweeps
/// D: T_math = 2·B·(D/16)·F / C equals T_comms at D = 16·C·T_comms/(2BF),
/// about 2·16·α (α = C/W = 2189) when latency and (n − 1)/n are dropped.
#[test]
fn case_3_reduces_after_the_local_matmul() {
    let l = links("v5e", "X:16");
    let v5e = preset("v5e").unwrap();
    let s = square();
    let m = sharded_matmul("bf16[B,D_X]*bf16[D_X,F]->bf16[B,F]", &l, &v5e, &s).unwrap();
    assert_eq!(m.case, 3);
    assert_eq!(m.collective, Some((CollOp::AllReduce, vec!['X'], 2)));
    assert_eq!(m.placement, Placement::After);
    let v = 2.0 * N * N;
    let t_comms = 2.0 * 15.0 / 16.0 * v / 9e10 + 16e-6;
    close(
        m.t_comms,
        t_comms,
        1e-12,
        "AllReduce: 2(n − 1)/n·V / W + 16 hops",
    );
    close(
        m.t_math,
        2.0 * N * (N / 16.0) * N / 1.97e14,
        1e-12,
        "T_math",
    );
    assert!(m.comms_bound, "D/16 = 256 is far below 2·16·α");
    let d_star = 16.0 * 1.97e14 * t_comms / (2.0 * N * N);
    close(m.crossover.unwrap(), d_star, 1e-12, "crossover");
    close(d_star, 2.0 * 16.0 * 1.97e14 / 9e10, 0.1, "about 2·16·α");
    let series = comms_roofline(&m, &s);
    assert_eq!(series.len(), 25);
    assert!(series
        .iter()
        .all(|p| p.t_comms == t_comms && p.t_math > 0.0));
    assert!(series.first().unwrap().t_math < t_comms && series.last().unwrap().t_math > t_comms);
    let rs = sharded_matmul("bf16[B,D_X]*bf16[D_X,F]->bf16[B,F_X]", &l, &v5e, &s).unwrap();
    assert_eq!(rs.collective, Some((CollOp::ReduceScatter, vec!['X'], 2)));
    close(
        rs.t_comms,
        15.0 / 16.0 * v / 9e10 + 8e-6,
        1e-12,
        "half an AllReduce",
    );
}

/// Case 4: `A[B_X, D] · W[D, F_X]`: both non-summed dimensions over X;
/// the page names the AllGather that fixes it.
#[test]
fn case_4_names_its_fix() {
    let l = links("v5p", "X:4,Y:4");
    let v5p = preset("v5p").unwrap();
    let m = sharded_matmul("bf16[B_X,D]*bf16[D,F_X]->bf16[B_X,F]", &l, &v5p, &square()).unwrap();
    assert_eq!(m.case, 4);
    assert_eq!(m.collective, Some((CollOp::AllGather, vec!['X'], 1)));
    assert!(
        m.words[0].contains("AllGather one input over X"),
        "{}",
        m.words[0]
    );
    assert!(m.words[0].contains("bf16[D,F]"), "{}", m.words[0]);
}

/// Specs the chapter forbids, and the sizes an axis does not divide.
#[test]
fn bad_specs_say_why() {
    let l = links("v5e", "X:4,Y:4");
    let v5e = preset("v5e").unwrap();
    let e = |op: &str, s| sharded_matmul(op, &l, &v5e, s).unwrap_err().to_string();
    let s = square();
    assert!(e("bf16[B_X,D_X]*bf16[D,F]->bf16[B,F]", &s).contains("shards both B and D"));
    assert!(e("bf16[B_Z,D]*bf16[D,F]->bf16[B_Z,F]", &s).contains("not in the mesh"));
    let odd = sizes(&[("B", 1000.0), ("D", N), ("F", N)]);
    assert!(e("bf16[B_XY,D]*bf16[D,F]->bf16[B_XY,F]", &odd).contains("not divided"));
    assert!(e("bf16[B,D_X]*bf16[D_Y,F]->bf16[B,F]", &s).contains("AllGather one of them"));
    assert!(e("bf16[B,D]+bf16[B,D]->bf16[B,D]", &s).contains("two inputs"));
}

/// The op the calculator should count: the axes taken off, so that `D_X`
/// and `D` are one dimension.
#[test]
fn the_unsharded_op() {
    assert_eq!(
        unsharded_op("bf16[B,D_X]*bf16[D_X,F]->bf16[B,F_X]").unwrap(),
        "bf16[B,D]*bf16[D,F]->bf16[B,F]"
    );
    assert!(unsharded_op("bf16[B,D").is_err());
}
