//! Part 5's worked problems on LLaMA-2-13B, through the Scale page's view
//! as a reader would set them up: the parameter count, the memory of a
//! 16M-token batch, and a 3M-token batch of 32k sequences on a v5p
//! 16×16×16 slice (DP does not fit, FSDP is comms-bound, FSDP + TP is not:
//! 1024 × 4, about 300 ms a step). Every expected value is the book's
//! arithmetic, written out.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod scale_common;
use scale_common::close;

use roofline_core::hardware::preset;
use roofline_core::model::preset as model;
use roofline_core::scale::{evaluate_scale, memory, MemoryInput, ScaleState, ScaleView, Strategy};
use roofline_core::CalcState;

const P13: f64 = 40.0 * (3.0 * 5120.0 * 13824.0 + 4.0 * 5120.0 * 40.0 * 128.0 + 2.0 * 5120.0)
    + 2.0 * 32000.0 * 5120.0;

fn view(strat: Strategy) -> ScaleView {
    let s = ScaleState {
        mesh: Some("X:16,Y:16,Z:16".to_string()),
        tokens: 3e6,
        seq: 32768.0,
        strat,
        ..ScaleState::default()
    };
    let calc = CalcState::default();
    let m = &model("llama2-13b").unwrap().config;
    evaluate_scale(&s, &preset("v5p").unwrap(), &calc.op, &calc.sizes, m)
}

fn num(v: &ScaleView, t: &str) -> f64 {
    v.value(t).unwrap().parse().unwrap()
}

/// Question 1: 3LDF = 8.5e9, 4DNHL = 4.2e9, 2VD = 0.33e9: 13.0e9 (the
/// page adds the norms' 2DL).
#[test]
fn question_1_parameters() {
    let v = view(Strategy::Fsdp);
    assert_eq!(num(&v, "train-params"), P13);
    close(3.0 * 40.0 * 5120.0 * 13824.0, 8.5e9, 0.01, "FFW");
    close(4.0 * 5120.0 * 40.0 * 128.0 * 40.0, 4.2e9, 0.01, "attention");
    close(P13, 13.0e9, 0.005, "total");
}

/// Question 2: (2 + 4 + 4) bytes a parameter ≈ 130 GB; checkpoints after
/// the three big matmuls, [B, F] twice and [B, D] once, are
/// 2·L·B·(D + 2F) ≈ 42 TB at 16M tokens: (D + 2F)/D = 6.4 [B, D] tensors
/// a layer. At 3M tokens, 7.86e12.
#[test]
fn question_2_memory() {
    let ckpt = (5120.0 + 2.0 * 13824.0) / 5120.0;
    assert_eq!(ckpt, 6.4);
    let m = |batch| {
        memory(&MemoryInput {
            params: 13e9,
            layers: 40.0,
            d: 5120.0,
            batch,
            ckpt,
            strategy: Strategy::Dp,
            zero: 3,
            x: 1.0,
            y: 1.0,
            pods: 1.0,
        })
    };
    let big = m(16e6);
    close(
        big.params + big.optimizer,
        130e9,
        1e-12,
        "(2 + 4 + 4) × 13e9",
    );
    close(
        big.checkpoints,
        2.0 * 40.0 * 16e6 * 5120.0 * 6.4,
        1e-12,
        "2·L·B·(D + 2F)",
    );
    close(big.checkpoints, 42e12, 0.01, "42 TB");
    close(m(3e6).checkpoints, 7.86e12, 0.001, "7.86e12 at 3M tokens");
}

/// Question 3 on v5p 16×16×16: pure DP replicates 12 bytes a parameter
/// (10 in the book, without gradients): 156 GB > 96 GB, it does not fit.
/// Pure FSDP over 3 axes needs 850 tokens a chip (850 × 4096 = 3.48M >
/// 3M): comms-bound at 3e6/4096 = 732. Mixed needs 2550²/(2·13824) ≈ 235
/// a chip; X_opt = √(3e6 · 2 · 4096 / 13824) ≈ 1333, so 1024-way FSDP and
/// 4-way TP, and a step of 6·3e6·P / (4096·C·40%) ≈ 300 ms.
#[test]
fn question_3_on_a_v5p_slice() {
    let dp = view(Strategy::Dp);
    assert_eq!(dp.value("train-fits"), Some("no"));
    assert!(num(&dp, "train-memory") > 12.0 * P13);
    let fsdp = view(Strategy::Fsdp);
    close(num(&fsdp, "train-threshold"), 850.0, 1e-12, "2550 / 3");
    close(
        num(&fsdp, "train-tokens-per-chip"),
        3e6 / 4096.0,
        1e-12,
        "732 a chip",
    );
    assert_eq!(fsdp.value("train-bound"), Some("comms"));
    close(850.0 * 4096.0, 3.48e6, 0.001, "the book's 3.48M");
    let mixed = view(Strategy::Mixed);
    let t = mixed.train.as_ref().unwrap();
    assert!(
        t.degrees
            .starts_with("X = 1024 (M_X = 2 axes), Y = 4 (M_Y = 1)"),
        "{}",
        t.degrees
    );
    close(
        num(&mixed, "train-threshold-opt"),
        2550.0 * 2550.0 / (2.0 * 13824.0),
        1e-12,
        "α²/(2F)",
    );
    close(
        num(&mixed, "train-threshold-opt"),
        235.0,
        0.001,
        "the book's 235",
    );
    close(
        num(&mixed, "train-x-opt"),
        (3e6 * 2.0 * 4096.0 / 13824.0f64).sqrt(),
        1e-12,
        "X_opt",
    );
    close(num(&mixed, "train-x-opt"), 1333.0, 0.001, "the book's 1333");
    assert_eq!(mixed.value("train-bound"), Some("compute"));
    let step = 6.0 * 3e6 * P13 / (4096.0 * 4.59e14 * 0.4);
    close(num(&mixed, "train-step-time"), step, 1e-12, "step");
    close(step, 0.3, 0.05, "about 300 ms");
    assert!(
        t.plan
            .last()
            .unwrap()
            .contains("X = 1024, Y = 4 on 4096 chips"),
        "{:?}",
        t.plan
    );
}
