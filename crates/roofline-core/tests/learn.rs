//! The Learn page's steps against the chapter: each step's state and the
//! numbers its paragraphs show, checked against values derived by hand
//! from the formulas here (TPU v5e, the book's figures), not by calling the
//! code under test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use roofline_core::learn::{step, step_view, Figure, STEPS, STEP_COUNT};
use roofline_core::{format, CriticalSize, DType, LevelKind};

const V5E_BF16: f64 = 1.97e14;
const V5E_INT8: f64 = 3.94e14;
const V5E_HBM: f64 = 8.2e11;
const V5E_ICI: f64 = 4.5e10;

fn close(got: f64, want: f64, rel: f64) {
    assert!(
        (got - want).abs() <= rel * want.abs(),
        "got {got}, want {want} (relative tolerance {rel})"
    );
}

/// The option of `step`'s control `c` whose value is `value`.
fn option(n: u32, c: usize, value: f64) -> usize {
    step(n).unwrap().controls[c]
        .values
        .iter()
        .position(|v| *v == value)
        .unwrap_or_else(|| panic!("step {n} control {c} has no option {value}"))
}

fn text(n: u32, choices: &[usize]) -> String {
    step_view(n, choices).unwrap().paragraphs.join("\n")
}

#[test]
fn the_chapters_eight_steps_in_order_then_a_whole_model() {
    assert_eq!(STEPS.len(), 10);
    assert_eq!(STEP_COUNT, 10);
    let titles: Vec<&str> = STEPS.iter().map(|s| s.title).collect();
    assert!(titles[0].contains("time"));
    assert!(titles[1].contains("intensity"));
    assert!(titles[7].contains("network"));
    assert_eq!(STEPS[6].figure, Figure::Batch);
    assert!(titles[8].contains("whole model"));
    assert!(titles[9].contains("AllReduce"));
}

/// Step 10: step 8's split (B = 256, F = 4096, D = 8192 over N = 4 v5e
/// chips) with its partials summed by an AllReduce, counted by hand.
#[test]
fn step_10_the_sum_is_an_allreduce() {
    use roofline_core::format;
    let v = step_view(10, &[option(10, 0, 4.0), option(10, 1, 8192.0)]).unwrap();
    let t = v.paragraphs.join("\n");
    let (b, d, f, n) = (256.0, 8192.0, 4096.0, 4.0);
    let partial = 2.0 * b * f; // Z[B, F] in bf16
    let ring = 2.0 * (n - 1.0) / n * partial;
    assert!(t.contains("X[B, D_X] · Y[D_X, F] → Z[B, F]{U_X}"), "{t}");
    assert!(
        t.contains(&format!("V = 2BF = {} (bf16", format::bytes(partial))),
        "{t}"
    );
    assert!(
        t.contains(&format!("1.5 × V = {} per chip", format::bytes(ring))),
        "{t}"
    );
    // The calculator's count: one link, one way (v5e: 4.5e10 B/s).
    assert!(
        t.contains(&format!("T_comms = {}", format::seconds(ring / 4.5e10))),
        "{t}"
    );
    // Part 3's: both directions of a wrapped axis, 2 × 4.5e10.
    assert!(t.contains("2 × 45 GB/s = 90 GB/s"), "{t}");
    assert!(
        t.contains(&format!(
            "= {}, about V ÷ W_ici",
            format::seconds(0.75 * partial / 9e10)
        )),
        "{t}"
    );
    assert!(
        t.contains(&format!(
            "V ÷ W_ici = {}, plus",
            format::seconds(ring / 9e10)
        )),
        "{t}"
    );
    // T_math = 2BDF ÷ N ÷ 1.97e14, shorter than the AllReduce.
    assert!(
        t.contains(&format!(
            "T_math = 2BDF ÷ N = {}",
            format::seconds(2.0 * b * d * f / n / 1.97e14)
        )),
        "{t}"
    );
    assert!(
        t.contains("by its count the split is bound by the link"),
        "{t}"
    );
    assert!(t.contains("takes longer too"), "{t}");
    // A larger D makes it compute-bound.
    let big = step_view(10, &[option(10, 0, 4.0), option(10, 1, 65536.0)]).unwrap();
    assert!(big.paragraphs.join(" ").contains("stays compute-bound"));
}

/// Step 9: a decode step's MLP matrix is Part 1's small-B matmul, and the
/// whole model's step comes from the Model page's formulas.
#[test]
fn step_9_decode_is_the_small_b_matmul() {
    let v = step_view(9, &[option(9, 0, 16.0), option(9, 1, 1.0)]).unwrap();
    let a = v.view.analysis.as_ref().unwrap();
    let (b, d, f) = (16.0, 4096.0, 14336.0);
    close(
        a.intensity,
        2.0 * b * d * f / (2.0 * b * d + d * f + 2.0 * b * f),
        1e-12,
    );
    let t = v.paragraphs.join("\n");
    assert!(t.contains("D = 4096, F = 14336, int8 weights"), "{t}");
    // The whole model: the book's decode step for LLaMA-3-8B on one v5e;
    // the input table (D·V) is a lookup, neither multiplied nor read whole.
    let p = 8_030_257_152.0 - 4096.0 * 128_256.0;
    let step = b * 2048.0 * 131_072.0 / V5E_HBM + (2.0 * b * p / V5E_BF16).max(p / V5E_HBM);
    assert!(
        t.contains(&format!("a decode step takes {}", format::seconds(step))),
        "{t}"
    );
    assert!(t.contains("Model page"), "{t}");
    // The matrix's exact crossing and the model's critical batch are two
    // numbers, each named for what it is (int8 weights: 240 ÷ 2).
    let critical = V5E_BF16 / V5E_HBM / 2.0;
    assert!(
        t.contains(&format!(
            "critical batch, by the book’s shortcut (C ÷ W) × bytes per weight ÷ 2, is {} sequences",
            format::count(critical)
        )),
        "{t}"
    );
    assert!(
        t.contains("Counted with every byte, this matrix is compute-bound when B > "),
        "{t}"
    );
}

#[test]
fn step_1_times_follow_b() {
    let b = 1024.0;
    let (d, f) = (4096.0, 4096.0);
    let v = step_view(1, &[option(1, 0, b)]).unwrap();
    let a = v.view.analysis.as_ref().unwrap();
    let flops = 2.0 * b * d * f;
    let bytes = 2.0 * b * d + 2.0 * d * f + 2.0 * b * f;
    close(a.t_math, flops / V5E_BF16, 1e-12);
    close(a.t_comms, bytes / V5E_HBM, 1e-12);
    let t = v.paragraphs.join("\n");
    assert!(t.contains(&format!("T_math = {}", format::seconds(flops / V5E_BF16))));
    assert!(t.contains(&format!(
        "max(T_math, T_comms) = {}",
        format::seconds((flops / V5E_BF16).max(bytes / V5E_HBM))
    )));
    // B = 1024 is past the bend: the math takes longer.
    assert!(t.contains("T_math is the larger"));
    assert!(text(1, &[option(1, 0, 16.0)]).contains("T_comms is the larger"));
}

#[test]
fn step_2_compares_with_240() {
    let t = text(2, &[1]);
    assert!(t.contains("= 240 FLOPs/byte"), "{t}");
    // The exact intensity of the bf16 matmul at B = 256, D = F = 4096:
    // BDF / (BD + DF + BF) = 256·4096 / (2·256 + 4096) ≈ 227.6.
    let i = 256.0 * 4096.0 / (2.0 * 256.0 + 4096.0);
    assert!(t.contains(&format::intensity(i)), "{t}");
    assert!(t.contains("bandwidth-bound"));
    // The dot product: 2N / 4N → 1/2.
    let t = text(2, &[0]);
    assert!(t.contains("0.5 FLOPs/byte"), "{t}");
}

#[test]
fn step_3_moves_the_bend_with_the_bandwidth() {
    let v = step_view(3, &[option(3, 0, 2.0)]).unwrap();
    let a = v.view.analysis.as_ref().unwrap();
    close(a.bandwidth, 2.0 * V5E_HBM, 1e-12);
    close(a.critical_intensity, V5E_BF16 / (2.0 * V5E_HBM), 1e-12);
    assert_eq!(v.state.bw_overrides, vec![(LevelKind::Hbm, 2.0 * V5E_HBM)]);
    // The chip's own bandwidth is no override at all.
    assert!(step_view(3, &[option(3, 0, 1.0)])
        .unwrap()
        .state
        .bw_overrides
        .is_empty());
}

#[test]
fn step_4_has_two_lines_and_vmem_binds_less() {
    let hbm = step_view(4, &[0, option(4, 1, 64.0)]).unwrap();
    assert_eq!(hbm.state.level1, LevelKind::Hbm);
    assert_eq!(hbm.state.level2, Some(LevelKind::Vmem));
    let vmem = step_view(4, &[1, option(4, 1, 64.0)]).unwrap();
    assert_eq!(vmem.state.level1, LevelKind::Vmem);
    let a = vmem.view.analysis.as_ref().unwrap();
    // VMEM is about 22x HBM: critical intensity 10 to 20, so B = 64 is past it.
    assert!(a.critical_intensity > 10.0 && a.critical_intensity < 20.0);
    assert!(vmem.paragraphs.join(" ").contains("compute-bound"));
    assert!(hbm.paragraphs.join(" ").contains("bandwidth-bound"));
}

#[test]
fn step_5_b_is_sequences_times_tokens() {
    let v = step_view(5, &[option(5, 0, 16.0), option(5, 1, 16.0)]).unwrap();
    assert_eq!(v.state.sizes.get("B"), Some(&256.0));
    let t = v.paragraphs.join("\n");
    assert!(
        t.contains("16 sequences × 16 tokens each gives B = 256"),
        "{t}"
    );
    let t = text(5, &[option(5, 0, 8.0), option(5, 1, 1.0)]);
    assert!(t.contains("8 sequences × 1 token each gives B = 8"), "{t}");
    // Exact critical batch with D = F = 4096 (bf16), the same matmul as
    // step 6's: 2BDF/peak = (2BD + 2DF + 2BF)/bw
    // → B (2DF/peak − 4D/bw) = 2DF/bw → B = (DF/bw) / (DF/peak − 2D/bw).
    let (d, f) = (4096.0, 4096.0);
    let b = (d * f / V5E_HBM) / (d * f / V5E_BF16 - 2.0 * d / V5E_HBM);
    assert!(t.contains(&format!("B > {}", format::sci(b))), "{t} / {b}");
    assert!(t.contains("D = F = 4096"), "{t}");
    // Step 6 says the same for the all-bf16 matmul.
    let six = text(6, &[0, 0]);
    assert!(six.contains(&format!("B > {}", format::sci(b))), "{six}");
}

#[test]
fn step_6_flops_stay_bytes_change() {
    let bf16 = step_view(6, &[0, 0]).unwrap();
    let int8 = step_view(6, &[1, 0]).unwrap();
    let int4 = step_view(6, &[2, 0]).unwrap();
    let a = |v: &roofline_core::learn::StepView| v.view.analysis.clone().unwrap();
    assert_eq!(a(&bf16).flops, a(&int8).flops);
    assert_eq!(a(&bf16).flops, a(&int4).flops);
    let (b, d, f) = (256.0, 4096.0, 4096.0);
    close(a(&int8).bytes, 2.0 * b * d + d * f + 2.0 * b * f, 1e-12);
    close(
        a(&int4).bytes,
        2.0 * b * d + 0.5 * d * f + 2.0 * b * f,
        1e-12,
    );
    assert_eq!(a(&int8).peak, V5E_BF16);
    // int8 math: int8 activations too, and the int8 peak.
    let q = step_view(6, &[1, 1]).unwrap();
    assert_eq!(a(&q).compute_dtype, DType::Int8);
    assert_eq!(a(&q).peak, V5E_INT8);
    close(a(&q).bytes, b * d + d * f + 2.0 * b * f, 1e-12);
    // int8 weights, bf16 math: the approximation is 2B.
    assert!(int8.paragraphs.join(" ").contains("= 2B"));
}

#[test]
fn step_7_small_d_needs_a_larger_batch_or_never_gets_there() {
    // The approximation: 2B > 240 ↔ B > 120.
    let t = text(7, &[option(7, 0, 1024.0)]);
    assert!(
        t.contains(&format!(
            "= {}: that is what it promises",
            format::sig(V5E_BF16 / V5E_HBM / 2.0, 4)
        )),
        "{t}"
    );
    // Exact, int8 weights: 2BDF/peak = (2BD + DF + 2BF)/bw.
    let exact = |d: f64| (d * d / V5E_HBM) / (2.0 * d * d / V5E_BF16 - 4.0 * d / V5E_HBM);
    let (small, big) = (exact(1024.0), exact(4096.0));
    assert!(t.contains(&format!("B > {}", format::sci(small))), "{t}");
    assert!(t.contains(&format!("B > {}", format::sci(big))), "{t}");
    // "almost doubles": 1024 needs well over 1.5x what 4096 needs.
    assert!(small / big > 1.5);
    let v = step_view(7, &[option(7, 0, 1024.0)]).unwrap();
    assert_eq!(v.state.pairs, vec![(4096.0, 4096.0), (1024.0, 1024.0)]);
    // D = F = 128: the intensity tops out at DF·2B / (2BD + 2BF) = F/2 = 64 < 240.
    let t = text(7, &[option(7, 0, 128.0)]);
    assert!(t.contains("never compute-bound"), "{t}");
    assert!(t.contains("64 FLOPs/byte"), "{t}");
    match step_view(7, &[0]).unwrap().view.critical.unwrap().1 {
        CriticalSize::Never { .. } => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn step_8_network_threshold_is_n_times_4378() {
    let v = step_view(8, &[option(8, 0, 4.0), option(8, 1, 16384.0)]).unwrap();
    let n = v.view.network.as_ref().unwrap();
    let (b, d, f) = (256.0, 16384.0, 4096.0);
    close(n.flops_per_chip, 2.0 * b * d * f / 4.0, 1e-12);
    close(n.bytes_sent, 2.0 * b * f, 1e-12);
    close(n.intensity, d / 4.0, 1e-12);
    close(n.critical_intensity, V5E_BF16 / V5E_ICI, 1e-12);
    let t = v.paragraphs.join("\n");
    assert!(t.contains(&format::intensity(V5E_BF16 / V5E_ICI)), "{t}");
    assert!(
        t.contains(&format!("D > {}", format::count(4.0 * V5E_BF16 / V5E_ICI))),
        "{t}"
    );
    assert!(t.contains("the link is the bottleneck"), "{t}");
    assert!(t.contains("a lower bound for any other"), "{t}");
    // Each chip's own HBM time is set against the link's: X[B, D/4],
    // Y[D/4, F] read and Z[B, F] written, all bf16, at 8.2e11 bytes/s.
    let own = 2.0 * (b * d / 4.0 + d / 4.0 * f + b * f);
    close(n.memory_bytes, own, 1e-12);
    assert!(t.contains(&format::seconds(own / 8.2e11)), "{t}");
    assert!(t.contains("B = 256, D = 16384, F = 4096 and N = 4"), "{t}");
    assert!(!t.contains("e4"), "one number format: {t}");
    assert_eq!(v.state.chips, 4);
}

/// Issue #46, item 7: the decode step grows with B (the KV read), and the
/// words say so with the times they show; nothing says it "hardly grows".
#[test]
fn step_9_says_the_step_grows_with_its_own_numbers() {
    // The weights a token multiplies and a step reads: every one but the
    // input table (D·V), a lookup.
    let p = 8_030_257_152.0 - 4096.0 * 128_256.0;
    let kv = |b: f64| b * 2048.0 * 131_072.0 / V5E_HBM;
    let step = |b: f64| kv(b) + (2.0 * b * p / V5E_BF16).max(p / V5E_HBM);
    for b in [16.0, 64.0] {
        let t = text(9, &[option(9, 0, b), option(9, 1, 1.0)]);
        assert!(!t.contains("hardly grows"), "{t}");
        assert!(!t.contains("almost free"), "{t}");
        assert!(
            t.contains(&format!(
                "the step grows from {} to {}",
                format::seconds(step(1.0)),
                format::seconds(step(b))
            )),
            "{t}"
        );
        assert!(
            t.contains(&format!(
                "the KV read grows with B, from {} to {}",
                format::seconds(kv(1.0)),
                format::seconds(kv(b))
            )),
            "{t}"
        );
    }
}

/// Issue #46, item 8: with int8 math the sentence about the critical
/// batch against the all-bf16 one follows the two numbers shown: above or
/// below, and the exact ratio of the two.
#[test]
fn step_6_int8_math_words_follow_the_critical_batches() {
    let base = match step_view(6, &[0, 0]).unwrap().view.critical.unwrap().1 {
        CriticalSize::At { size, .. } => size,
        other => panic!("{other:?}"),
    };
    for w in 0..3 {
        let v = step_view(6, &[w, 1]).unwrap();
        let now = match v.view.critical.as_ref().unwrap().1 {
            CriticalSize::At { size, .. } => size,
            ref other => panic!("{other:?}"),
        };
        let t = v.paragraphs.join("\n");
        assert!(!t.contains("a little further"), "{t}");
        let side = if now > base { "above" } else { "below" };
        assert!(
            t.contains(&format!("the critical batch is {side} the all-bf16 one")),
            "{t}"
        );
        assert!(
            t.contains(&format!(
                "{} ÷ {} = {}",
                format::count(now),
                format::count(base),
                format::sig(now / base, 3)
            )),
            "{t}"
        );
    }
    // bf16 weights, int8 math: twice the all-bf16 batch, not "a little".
    let t = text(6, &[0, 1]);
    assert!(t.contains("2 × 1 = 2"), "{t}");
}

/// Issue #46, item 12: step 7 names the chip, its peak, its bandwidth and
/// the critical intensity that its promise divides.
#[test]
fn step_7_names_where_its_promise_comes_from() {
    let t = text(7, &[option(7, 0, 1024.0)]);
    let c = V5E_BF16 / V5E_HBM;
    assert!(t.contains("TPU v5e"), "{t}");
    assert!(t.contains(&format::flops_rate(V5E_BF16)), "{t}");
    assert!(t.contains(&format::bandwidth(V5E_HBM)), "{t}");
    assert!(
        t.contains(&format!(
            "B > {} ÷ 2 = {}",
            format::sig(c, 4),
            format::sig(c / 2.0, 4)
        )),
        "{t}"
    );
}

/// Issue #46, item 12: step 3's words follow the axes shown, and its
/// calculator link keeps them.
#[test]
fn step_3_words_follow_the_axes() {
    use roofline_core::learn::step_view_on;
    use roofline_core::ChartScale;
    let log = step_view_on(3, &[2], ChartScale::Log).unwrap();
    assert!(log.paragraphs.join(" ").contains("axes are logarithmic"));
    let lin = step_view_on(3, &[2], ChartScale::Linear).unwrap();
    let t = lin.paragraphs.join(" ");
    assert!(!t.contains("logarithmic"), "{t}");
    assert!(t.contains("axes are linear"), "{t}");
    assert_eq!(lin.state.roofline_scale, ChartScale::Linear);
    // A step without the switch stays on log axes.
    let one = step_view_on(1, &[0], ChartScale::Linear).unwrap();
    assert_eq!(one.state.roofline_scale, ChartScale::Log);
}

/// Issue #46, item 12: an integer type's rate is in OP/s, never FLOP/s.
#[test]
fn int8_rates_read_in_ops() {
    let t = text(6, &[1, 1]);
    assert!(
        t.contains(&format!("{} in int8", format::rate(V5E_INT8, DType::Int8))),
        "{t}"
    );
    assert!(t.contains("394 TOP/s"), "{t}");
    assert!(!t.contains("394 TFLOP/s"), "{t}");
    let t = text(2, &[3]);
    assert!(t.contains("394 TOP/s") && !t.contains("394 TFLOP/s"), "{t}");
}

/// Step 4 with a batch too large for VMEM: streamed from HBM the matmul
/// is read against HBM's line, and the words say whether it binds from the
/// two intensities (at B = 16384 it does not: 1820 > 240).
#[test]
fn step_4_streamed_from_hbm_follows_the_intensities() {
    let t = text(4, &[1, option(4, 1, 16384.0)]);
    assert!(!t.contains("HBM’s line would bind"), "{t}");
    assert!(t.contains("it would still be compute-bound"), "{t}");
}
