//! Parts 5 and 6 on the Scale page: the chapter's thresholds (α = 2550,
//! 850 over three axes, the mixed 2550²/(2F), TP's F/α, DCN's 73,440),
//! X_opt, the training-roofline figure's splits, LLaMA-3-70B's FLOPs, days
//! and memory, and the plan the chapter chooses, each derived by hand.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod scale_common;
use scale_common::close;

use roofline_core::scale::{
    axes_spanned, choose, conditions, crossover, layer, memory, min_chips, run_time, splits,
    LayerInput, MemoryInput, Strategy,
};

/// TPU v5p: C = 4.59e14 bf16 FLOP/s, W_ici = 1.8e11 (both directions of
/// a wrapped axis), DCN 6.25e9 a chip; D = 8192.
fn v5p(batch: f64, f: f64, x: f64, y: f64, mx: f64, my: f64) -> LayerInput {
    LayerInput {
        batch,
        d: 8192.0,
        f,
        c: 4.59e14,
        w: 1.8e11,
        x,
        y,
        mx,
        my,
        pods: 1.0,
        w_dcn: 6.25e9,
    }
}

/// α = 4.59e14 / 1.8e11 = 2550; DP and FSDP need 2550 tokens a chip, 850
/// over three axes; across pods C / W_dcn = 4.59e14 / 6.25e9 = 73,440.
#[test]
fn the_chapters_thresholds() {
    let k = conditions(&v5p(1e6, 32768.0, 64.0, 1.0, 1.0, 0.0));
    close(k.alpha, 2550.0, 1e-12, "α");
    close(k.dp_threshold, 2550.0, 1e-12, "one axis");
    let k3 = conditions(&v5p(1e6, 32768.0, 64.0, 1.0, 3.0, 0.0));
    close(k3.dp_threshold, 850.0, 1e-12, "three axes");
    close(k.dcn_threshold, 73_440.0, 1e-12, "DCN");
    // 850 a chip on a pod of 8960: the book's 7.6M tokens.
    close(850.0 * 8960.0, 7.6e6, 0.01, "a pod's batch");
}

/// Mixed FSDP + TP: compute-bound above α² / (M_X·M_Y·F): 2550²/(2·32768)
/// ≈ 99 (Part 5), 2550²/(2·28672) ≈ 113 (Part 6), 2550²/(2·30000) ≈ 108.
/// TP: Y < M_Y·F / α = 28672 / 2550 ≈ 11.2.
#[test]
fn mixed_and_tp_limits() {
    for (f, want) in [(32768.0, 99.2), (28672.0, 113.4), (30000.0, 108.4)] {
        let k = conditions(&v5p(4e6, f, 1024.0, 8.0, 2.0, 1.0));
        close(
            k.mixed_threshold,
            2550.0 * 2550.0 / (2.0 * f),
            1e-12,
            "formula",
        );
        close(k.mixed_threshold, want, 0.001, "the book's figure");
    }
    let k = conditions(&v5p(4e6, 28672.0, 1024.0, 8.0, 2.0, 1.0));
    close(k.tp_limit, 28672.0 / 2550.0, 1e-12, "TP limit");
    assert!(k.tp_limit > 11.0 && k.tp_limit < 12.0);
}

/// Part 6: X_opt = √((B/F)·(M_X/M_Y)·N) = √(2·4.19e6·8960 / 28672) ≈ 1618.
#[test]
fn x_opt_for_llama3_70b() {
    let k = conditions(&v5p(4.19e6, 28672.0, 8960.0, 1.0, 2.0, 1.0));
    close(
        k.x_opt,
        (2.0 * 4.19e6 * 8960.0 / 28672.0f64).sqrt(),
        1e-12,
        "formula",
    );
    close(k.x_opt, 1618.0, 0.001, "the book's 1618");
    // 468 tokens a chip: below FSDP's 850, above the mixed 113.
    close(k.tokens_per_chip, 4.19e6 / 8960.0, 1e-12, "B/N");
    assert!(k.tokens_per_chip < 850.0 && k.tokens_per_chip > k.mixed_threshold);
}

/// Each strategy's time per layer is the chapter's formula: DP's backward
/// 8BDF/(XC) against 8DF/(W·M_X), equal at B/X = α/M_X; TP's forward
/// 4BDF/(YC) against 4BD/(W·M_Y), whose ratio ignores the batch.
#[test]
fn layer_times_are_the_chapters() {
    let (d, f) = (8192.0, 32768.0);
    let x = 64.0;
    let dp = layer(Strategy::Dp, &v5p(2550.0 * x, f, x, 1.0, 1.0, 0.0));
    close(
        dp.t_math,
        8.0 * 2550.0 * x * d * f / (x * 4.59e14),
        1e-12,
        "T_math",
    );
    close(dp.t_ici, 8.0 * d * f / 1.8e11, 1e-12, "T_comms");
    close(dp.t_math, dp.t_ici, 1e-12, "equal at α tokens a chip");
    let fsdp = layer(Strategy::Fsdp, &v5p(1e5 * x, f, x, 1.0, 3.0, 0.0));
    close(
        fsdp.t_ici,
        4.0 * d * f / (1.8e11 * 3.0),
        1e-12,
        "FSDP's gathers",
    );
    for b in [1e4, 1e6, 1e8] {
        let small = layer(Strategy::Tp, &v5p(b, f, 1.0, 8.0, 0.0, 1.0));
        let big = layer(Strategy::Tp, &v5p(b, f, 1.0, 16.0, 0.0, 1.0));
        close(small.t_ici, 4.0 * b * d / 1.8e11, 1e-12, "TP's comms");
        // F/α = 12.85: 8-way is compute-bound, 16-way is not, at any batch.
        assert!(!small.comms_bound() && big.comms_bound(), "batch {b}");
    }
}

/// The chapter's figure: v5p 16×16×16 (N = 4096), D = 8192, F = 32768,
/// 13 splits FSDP x × TP 4096/x. FSDP 512 × TP 8 spans M_X = 2, M_Y = 1
/// axes and turns compute-bound above X·α/M_X = 512 × 2550 / 2 = 652,800
/// tokens; TP 4096 is beyond M_Y·F/α and never does.
#[test]
fn the_training_roofline_figure() {
    let axes = [16, 16, 16];
    assert_eq!(axes_spanned(&axes, 512.0, 8.0), (2.0, 1.0));
    assert_eq!(axes_spanned(&axes, 4096.0, 1.0), (3.0, 0.0));
    assert_eq!(axes_spanned(&axes, 1.0, 4096.0), (0.0, 3.0));
    let base = v5p(1e6, 32768.0, 4096.0, 1.0, 3.0, 0.0);
    let all = splits(&base, &axes, 4096.0);
    assert_eq!(all.len(), 13);
    let s = all.iter().find(|s| s.x == 512.0).unwrap();
    assert_eq!((s.y, s.mx, s.my), (8.0, 2.0, 1.0));
    close(s.crossover.unwrap(), 652_800.0, 1e-12, "crossover");
    assert_eq!(all.last().unwrap().crossover, None);
    let i = v5p(652_800.0, 32768.0, 512.0, 8.0, 2.0, 1.0);
    let t = layer(Strategy::Mixed, &i);
    close(t.t_math, t.t_ici, 1e-12, "the lines meet at the crossover");
    assert_eq!(crossover(&i), Some(652_800.0));
}

/// Part 6's LLaMA-3-70B: 6 × 70e9 = 4.2e11 FLOPs a token, 6.3e24 for 15T
/// tokens, 435 years on one v5p, 44 days on 8960 at 40% MFU; Part 5's 16M
/// batch over 18,823 chips at 50%: about 17 days.
#[test]
fn llama3_70b_time() {
    let one = run_time(70e9, 4e6, 15e12, 1.0, 4.59e14, 1.0, 0.0);
    close(one.flops, 6.3e24, 1e-12, "6·P·tokens");
    close(one.days_compute / 365.0, 435.0, 0.001, "years on one chip");
    let pod = run_time(70e9, 4e6, 15e12, 8960.0, 4.59e14, 0.4, 0.0);
    close(
        pod.days_compute,
        6.3e24 / (8960.0 * 4.59e14 * 0.4) / 86_400.0,
        1e-12,
        "days",
    );
    close(pod.days_compute, 44.0, 0.01, "the book's 44 days");
    close(pod.days, pod.days_compute, 1e-12, "no comms: the same");
    let part5 = run_time(70e9, 16e6, 15e12, 18_823.0, 4.59e14, 0.5, 0.0);
    close(part5.days_compute, 17.0, 0.01, "the book's 17 days");
    // A comms-bound step sets the days.
    let slow = run_time(70e9, 4e6, 15e12, 8960.0, 4.59e14, 0.4, 10.0);
    close(
        slow.days,
        15e12 / 4e6 * 10.0 / 86_400.0,
        1e-12,
        "comms-bound",
    );
}

/// Part 6's memory: bf16 weights 2·70e9 = 140 GB, Adam 8·70e9 = 560 GB,
/// checkpoints 2·8192·4e6·4·80 = 20.9 TB: 21.6 TB without gradients (the
/// page adds 140 GB of bf16 gradients); over 8960 chips about 2.4 GB a
/// chip; at least ⌈21.81e12 / 96e9⌉ = 228 chips (the book: 225, from
/// 21.6 TB without gradients).
#[test]
fn llama3_70b_memory() {
    let input = MemoryInput {
        params: 70e9,
        layers: 80.0,
        d: 8192.0,
        batch: 4e6,
        ckpt: 4.0,
        strategy: Strategy::Fsdp,
        zero: 3,
        x: 8960.0,
        y: 1.0,
        pods: 1.0,
    };
    let m = memory(&input);
    let ckpt = 2.0 * 8192.0 * 4e6 * 4.0 * 80.0;
    close(ckpt, 20.9e12, 0.01, "20.9 TB of checkpoints");
    close(m.total_once, 140e9 + 140e9 + 560e9 + ckpt, 1e-12, "total");
    close(m.total_once - 140e9, 21.6e12, 0.005, "the book's 21.6 TB");
    close(
        m.per_chip(),
        m.total_once / 8960.0,
        1e-12,
        "ZeRO-3 splits all",
    );
    close(m.per_chip(), 2.4e9, 0.02, "about 2.4 GB a chip");
    assert_eq!(min_chips(&m, 96e9), 228.0);
    close((21.6e12f64 / 96e9).ceil(), 225.0, 0.0, "the book's figure");
    // ZeRO stages: 1 splits Adam, 2 gradients too, 3 weights too.
    let p = 70e9;
    for (zero, want) in [
        (1, 2.0 * p + 2.0 * p + 8.0 * p / 64.0),
        (2, 2.0 * p + 10.0 * p / 64.0),
        (3, 12.0 * p / 64.0),
    ] {
        let m = memory(&MemoryInput {
            zero,
            x: 64.0,
            ckpt: 0.0,
            ..input
        });
        close(m.per_chip(), want, 1e-12, "ZeRO stage");
    }
    // Pure DP replicates everything: 12 bytes a parameter here, the book's
    // "HBM / 10" rule without gradients (96 GB / 10 ≈ 9B parameters).
    let dp = memory(&MemoryInput {
        strategy: Strategy::Dp,
        ckpt: 0.0,
        ..input
    });
    close(
        dp.params + dp.optimizer,
        10.0 * p,
        1e-12,
        "10 bytes a parameter",
    );
}

/// The plan the chapter chooses for LLaMA-3-70B, 4M tokens, a v5p pod of
/// 8960 chips (16×20×28): not FSDP (468 < 850 a chip), but mixed, X_opt
/// 1619 rounded to 2048 and TP 4, on 8192 chips; with 16M tokens FSDP is
/// enough (1786 > 850); over 4 pods, 1M tokens a pod exceed 73,440.
#[test]
fn the_chapters_plan() {
    let axes = [16, 20, 28];
    let base = v5p(4_194_304.0, 28672.0, 8960.0, 1.0, 3.0, 0.0);
    let p = choose(&base, &axes, 8960.0, 1.0);
    assert_eq!(p.strategy, Strategy::Mixed);
    assert_eq!((p.x, p.y, p.chips), (2048.0, 4.0, 8192.0));
    assert!(p.compute_bound, "{:?}", p.words);
    let big = choose(
        &LayerInput {
            batch: 16e6,
            ..base
        },
        &axes,
        8960.0,
        1.0,
    );
    assert_eq!(big.strategy, Strategy::Fsdp);
    let pods = choose(&base, &axes, 8960.0, 4.0);
    assert_eq!(pods.strategy, Strategy::Pods);
    assert!(
        pods.words.last().unwrap().contains("73440"),
        "{:?}",
        pods.words
    );
    assert_eq!(pods.chips, 4.0 * 8192.0);
}
