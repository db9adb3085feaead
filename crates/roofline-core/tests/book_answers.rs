//! The chapter's worked examples and the corrected answers to its practice
//! questions (see shared/reference/book-model.md). Every expected value is
//! derived by hand from the formulas here, not by calling the code under
//! test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use roofline_core::hardware::preset;
use roofline_core::network::network;
use roofline_core::sweep::Sweep;
use roofline_core::{
    analyze, critical_size, Chip, CriticalSize, DType, LevelKind, Operation, Regime, Scenario,
    Shortcut, Sizes,
};

const V5E_BF16: f64 = 1.97e14;
const V5E_INT8: f64 = 3.94e14;
const V5E_HBM: f64 = 8.2e11;
const V5E_HBM_OLD: f64 = 8.1e11;
const V5E_ICI: f64 = 4.5e10;

fn close(got: f64, want: f64, rel: f64) {
    assert!(
        (got - want).abs() <= rel * want.abs(),
        "got {got}, want {want} (relative tolerance {rel})"
    );
}

fn sizes(b: f64, d: f64, f: f64) -> Sizes {
    [("B", b), ("D", d), ("F", f)]
        .iter()
        .map(|(k, v)| (k.to_string(), *v))
        .collect()
}

fn scenario(chip: Chip, op: &str, s: Sizes) -> Scenario {
    Scenario::new(chip, Operation::parse(op).unwrap(), s, LevelKind::Hbm)
}

fn v5e() -> Chip {
    preset("v5e").unwrap()
}

fn crossing(c: CriticalSize) -> f64 {
    match c {
        CriticalSize::At {
            size,
            compute_bound_above: true,
        } => size,
        other => panic!("expected a crossing above which it is compute-bound, got {other:?}"),
    }
}

/// Exact crossover in B for flops = a·B, bytes = b·B + c:
/// B = (c / W) / (a / P − b / W).
fn hand_crossover(a: f64, b: f64, c: f64, peak: f64, bw: f64) -> f64 {
    (c / bw) / (a / peak - b / bw)
}

const INT8_MATMUL: &str = "int8[B,D] * int8[D,F] -> int8[B,F]";
const MIXED_MATMUL: &str = "bf16[B,D] * int8[D,F] -> bf16[B,F]";

#[test]
fn q1_int8_matmul_counts_times_and_critical_480() {
    let (b, d, f) = (256.0, 4096.0, 4096.0);
    let s = scenario(v5e(), INT8_MATMUL, sizes(b, d, f));
    let a = analyze(&s).unwrap();
    assert_eq!(a.compute_dtype, DType::Int8);
    // Loads BD + DF bytes, writes BF, does 2BDF OPs.
    assert_eq!(a.bytes_read, b * d + d * f);
    assert_eq!(a.bytes_written, b * f);
    assert_eq!(a.flops, 2.0 * b * d * f);
    close(
        a.intensity,
        2.0 * b * d * f / (b * d + d * f + b * f),
        1e-12,
    );
    close(a.t_math, 2.0 * b * d * f / V5E_INT8, 1e-12);
    close(a.t_comms, (b * d + d * f + b * f) / V5E_HBM, 1e-12);
    close(a.t_lower, a.t_math.max(a.t_comms), 1e-12);
    close(a.t_upper, a.t_math + a.t_comms, 1e-12);
    // Critical int8 intensity: 3.94e14 / 8.2e11 ≈ 480.
    close(a.critical_intensity, V5E_INT8 / V5E_HBM, 1e-12);
    assert!((a.critical_intensity - 480.0).abs() < 1.0);
    // Intensity about 2B, so compute-bound for B > 480 / 2 = 240.
    let ap = a.approx.unwrap();
    assert_eq!(ap.formula, "2BDF / DF = 2B");
    close(ap.intensity, 2.0 * b, 1e-12);
    let b_approx = (V5E_INT8 / V5E_HBM) / 2.0;
    assert!((b_approx - 240.0).abs() < 0.5);
    // The exact crossover with every byte counted sits a little higher.
    let exact = crossing(critical_size(&s, "B").unwrap());
    close(
        exact,
        hand_crossover(2.0 * d * f, d + f, d * f, V5E_INT8, V5E_HBM),
        1e-9,
    );
    assert!(exact > b_approx);
}

#[test]
fn q1_with_the_older_bandwidth_8_1e11_gives_486_and_243() {
    let mut chip = v5e();
    chip.set_bandwidth(LevelKind::Hbm, V5E_HBM_OLD).unwrap();
    let s = scenario(chip, INT8_MATMUL, sizes(256.0, 4096.0, 4096.0));
    let a = analyze(&s).unwrap();
    close(a.critical_intensity, V5E_INT8 / V5E_HBM_OLD, 1e-12);
    assert!((a.critical_intensity - 486.0).abs() < 1.0);
    assert!((a.critical_intensity / 2.0 - 243.0).abs() < 0.5);
}

#[test]
fn q2_bf16_activations_int8_weights_compute_bound_above_120() {
    let (b, d, f) = (256.0, 4096.0, 4096.0);
    let s = scenario(v5e(), MIXED_MATMUL, sizes(b, d, f));
    let a = analyze(&s).unwrap();
    // The math runs in bf16 (the widest input) at 1.97e14.
    assert_eq!(a.compute_dtype, DType::Bf16);
    assert_eq!(a.peak, V5E_BF16);
    assert_eq!(a.flops, 2.0 * b * d * f);
    assert_eq!(a.bytes_read, 2.0 * b * d + d * f);
    assert_eq!(a.bytes_written, 2.0 * b * f);
    let ap = a.approx.unwrap();
    assert_eq!(ap.formula, "2BDF / DF = 2B");
    close(ap.intensity, 2.0 * b, 1e-12);
    // 2B > 240 when B > 120.
    let b_approx = V5E_BF16 / V5E_HBM / 2.0;
    assert!((b_approx - 120.0).abs() < 0.5);
    let exact = crossing(critical_size(&s, "B").unwrap());
    close(
        exact,
        hand_crossover(2.0 * d * f, 2.0 * (d + f), d * f, V5E_BF16, V5E_HBM),
        1e-9,
    );
}

#[test]
fn q3_small_matrices_nearly_double_the_critical_batch() {
    let big = scenario(v5e(), MIXED_MATMUL, sizes(256.0, 4096.0, 4096.0));
    let small = scenario(v5e(), MIXED_MATMUL, sizes(256.0, 1024.0, 1024.0));
    let hand = |n: f64| hand_crossover(2.0 * n * n, 4.0 * n, n * n, V5E_BF16, V5E_HBM);
    let b_big = crossing(critical_size(&big, "B").unwrap());
    let b_small = crossing(critical_size(&small, "B").unwrap());
    close(b_big, hand(4096.0), 1e-9);
    close(b_small, hand(1024.0), 1e-9);
    // About 136 against about 226: almost double, and both above the 120
    // the approximation promises.
    assert!((b_big - 136.1).abs() < 0.1, "{b_big}");
    assert!((b_small - 226.3).abs() < 0.1, "{b_small}");
    let ratio = b_small / b_big;
    assert!(ratio > 1.5 && ratio < 2.0, "{ratio}");

    // The plot: attained FLOPs/s against B with the exact bytes. At every B
    // the smaller matrices attain less, and never what the approximation
    // (min(peak, 2B × bandwidth)) promises.
    let sw_big = Sweep::new(&big, "B").unwrap();
    let sw_small = Sweep::new(&small, "B").unwrap();
    for bb in [8.0, 64.0, 120.0, 200.0] {
        let promised = V5E_BF16.min(2.0 * bb * V5E_HBM);
        let small_hand = {
            let n = 1024.0;
            let i = 2.0 * bb * n * n / (2.0 * bb * n + n * n + 2.0 * bb * n);
            V5E_BF16.min(i * V5E_HBM)
        };
        close(sw_small.attained_at(bb), small_hand, 1e-12);
        assert!(sw_small.attained_at(bb) < sw_big.attained_at(bb));
        assert!(sw_small.attained_at(bb) < promised);
    }
}

#[test]
fn q4_batched_matmul_is_never_compute_bound() {
    let (b, d, f) = (256.0, 4096.0, 4096.0);
    let s = scenario(
        v5e(),
        "int8[B,D] * int8[B,D,F] -> int8[B,F]",
        sizes(b, d, f),
    );
    let a = analyze(&s).unwrap();
    // Exactly 2DF / (D + DF + F), whatever B is: about 2, not 2B².
    let per_example = 2.0 * d * f / (d + d * f + f);
    close(a.intensity, per_example, 1e-12);
    assert!((a.intensity - 2.0).abs() < 0.01);
    assert_eq!(a.approx.as_ref().unwrap().formula, "2BDF / BDF = 2");
    assert_eq!(a.regime, Regime::Bandwidth);
    match critical_size(&s, "B").unwrap() {
        CriticalSize::Never { max_intensity } => close(max_intensity, per_example, 1e-12),
        other => panic!("{other:?}"),
    }
}

#[test]
fn q5_h100_dense_critical_batch_about_295() {
    let h100 = preset("h100").unwrap();
    let s = scenario(
        h100,
        "bf16[B,D] * bf16[D,F] -> bf16[B,F]",
        sizes(256.0, 8192.0, 8192.0),
    );
    let a = analyze(&s).unwrap();
    // Dense 9.89e14, not the sparse 1.979e15 of the spec sheet.
    assert_eq!(a.peak, 9.89e14);
    close(a.critical_intensity, 9.89e14 / 3.35e12, 1e-12);
    assert!((a.critical_intensity - 295.0).abs() < 0.5);
    // The bf16 matmul's intensity is about B, so B > about 295. The older
    // 1e15 / 3.35e12 ≈ 298 agrees within 2-3%.
    let old: f64 = 1e15 / 3.35e12;
    assert!((old - 298.5).abs() < 0.1);
    assert!((old - a.critical_intensity).abs() / a.critical_intensity < 0.03);
    let mut older = s.clone();
    older.chip.set_peak(DType::Bf16, 1e15).unwrap();
    let b = analyze(&older).unwrap();
    close(b.critical_intensity, old, 1e-12);
}

#[test]
fn dot_product_is_2n_minus_1_flops_and_intensity_one_half() {
    let n = 1e6;
    let s = Scenario::new(
        v5e(),
        Operation::parse("bf16[N] . bf16[N] -> bf16[]").unwrap(),
        [("N".to_string(), n)].into_iter().collect(),
        LevelKind::Hbm,
    );
    let a = analyze(&s).unwrap();
    assert_eq!(a.flops_exact_adds, 2.0 * n - 1.0);
    assert_eq!(a.flops, 2.0 * n);
    assert_eq!(a.bytes, 4.0 * n + 2.0);
    close(a.intensity, 2.0 * n / (4.0 * n + 2.0), 1e-12);
    assert!((a.intensity - 0.5).abs() < 1e-6);
    let ap = a.approx.unwrap();
    assert_eq!(ap.intensity, 0.5);
    assert_eq!(ap.formula, "2N / 4N = 1/2");
    assert_eq!(a.regime, Regime::Bandwidth);
    match critical_size(&s, "N").unwrap() {
        CriticalSize::Never { max_intensity } => assert_eq!(max_intensity, 0.5),
        other => panic!("{other:?}"),
    }
}

#[test]
fn v5e_bf16_matmul_critical_intensity_240() {
    let (b, d, f) = (256.0, 4096.0, 4096.0);
    let s = Scenario::shortcut(v5e(), Shortcut::Matmul);
    let a = analyze(&s).unwrap();
    close(a.critical_intensity, V5E_BF16 / V5E_HBM, 1e-12);
    assert!((a.critical_intensity - 240.0).abs() < 0.5);
    // Intensity BDF / (BD + DF + BF), about B.
    close(a.intensity, b * d * f / (b * d + d * f + b * f), 1e-12);
    assert_eq!(a.approx.as_ref().unwrap().formula, "2BDF / 2DF = B");
    // At B = 256 the exact intensity (228) is still under 240.
    assert_eq!(a.regime, Regime::Bandwidth);
    let exact = crossing(critical_size(&s, "B").unwrap());
    close(
        exact,
        hand_crossover(2.0 * d * f, 2.0 * (d + f), 2.0 * d * f, V5E_BF16, V5E_HBM),
        1e-9,
    );
    assert!((exact - 272.1).abs() < 0.1, "{exact}");
}

#[test]
fn two_chip_network_threshold_depends_on_d_not_b() {
    let (b, d, f) = (256.0, 4096.0, 4096.0);
    let s = Scenario::shortcut(v5e(), Shortcut::Matmul);
    let n = network(&s, "D", 2, LevelKind::Ici).unwrap();
    close(n.t_math, b * d * f / V5E_BF16, 1e-12);
    close(n.t_comms, 2.0 * b * f / V5E_ICI, 1e-12);
    close(n.flops_per_chip, 2.0 * b * d * f / 2.0, 1e-12);
    assert_eq!(n.bytes_sent, 2.0 * b * f);
    // Compute-bound iff D / 2 > 1.97e14 / 4.5e10, i.e. D > 8756.
    let threshold = 2.0 * V5E_BF16 / V5E_ICI;
    close(crossing(n.threshold), threshold, 1e-12);
    assert_eq!(n.regime, Regime::Bandwidth);
    // The threshold does not move with B.
    for bb in [1.0, 64.0, 4096.0] {
        let mut t = s.clone();
        t.sizes.insert("B".into(), bb);
        let m = network(&t, "D", 2, LevelKind::Ici).unwrap();
        close(crossing(m.threshold), threshold, 1e-12);
    }
    let mut above = s.clone();
    above.sizes.insert("D".into(), threshold * 1.001);
    assert_eq!(
        network(&above, "D", 2, LevelKind::Ici).unwrap().regime,
        Regime::Compute
    );
}

/// The derivation's network steps for the chapter's two-chip matmul: each
/// chip's BDF FLOPs, its 2BF bytes sent, the network intensity D / 2 and
/// the link's critical intensity 1.97e14 / 4.5e10, written out.
#[test]
fn two_chip_network_steps_spell_out_the_per_chip_case() {
    let (b, d, f) = (256.0, 4096.0, 4096.0);
    let s = Scenario::shortcut(v5e(), Shortcut::Matmul);
    let n = network(&s, "D", 2, LevelKind::Ici).unwrap();
    let steps = roofline_core::report::network_steps(&s, &n);
    let find = |title: &str| {
        steps
            .iter()
            .find(|st| st.title.starts_with(title))
            .unwrap_or_else(|| panic!("no step {title}"))
    };
    let flops = find("Network: FLOPs per chip");
    assert_eq!(flops.formula, "FLOPs ÷ 2");
    assert_eq!(
        flops.result,
        format!("{} FLOPs", roofline_core::format::sci(b * d * f))
    );
    let sent = find("Network: bytes each chip sends");
    assert_eq!(sent.formula, "2·B·F");
    assert_eq!(sent.numbers, "2 × 256 × 4096");
    let intensity = find("Network intensity");
    assert_eq!(intensity.result, roofline_core::format::intensity(d / 2.0));
    let critical = find("Critical intensity of ICI");
    assert_eq!(
        critical.result,
        roofline_core::format::intensity(V5E_BF16 / V5E_ICI)
    );
    let comms = find("Network: T_comms over ICI");
    assert_eq!(
        comms.result,
        roofline_core::format::seconds(2.0 * b * f / V5E_ICI)
    );
}
