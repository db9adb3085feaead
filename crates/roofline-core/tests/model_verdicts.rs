//! The Model page's verdicts against its numbers (issue #46): the headline
//! names the step's longest term (a proptest), the link is weighed against
//! the whole step, the MoE critical batch and the embeddings are said as
//! computed, and the messages read right.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::*;
use roofline_core::hardware::preset as chip;
use roofline_core::model::{analyze, evaluate_model, ModelInput, ModelState, Phase};
use roofline_core::DType;

mod model_common;
use model_common::{close, input_of, run};

/// The headline names the KV read when it dominates (issue #46's first
/// case: 105 of the 110 ms step reads the KV cache, yet the weight
/// matmuls alone are compute-bound).
#[test]
fn the_headline_names_the_kv_read() {
    let v5e = chip("v5e").unwrap();
    let mut r = run("llama3-70b");
    r.chips = 16.0;
    r.step.batch = 128.0;
    r.step.context = 32768.0;
    let a = analyze(&r, &v5e).unwrap();
    assert_eq!(a.dominant.key(), "kv");
    assert!(a.t_kv > 0.9 * a.step_time, "{} of {}", a.t_kv, a.step_time);
    assert!(a.compute_bound, "the weight matmuls alone");
    let v = evaluate_model(&input_of(&r), Some(&v5e), 16);
    assert_eq!(v.regime.0, "kv");
    assert!(
        v.regime
            .1
            .starts_with("Reading the KV cache takes the longest"),
        "{}",
        v.regime.1
    );
    assert!(v
        .regime
        .1
        .contains("The weight matmuls alone are compute-bound"));
}

/// Issue #46's link cases: a prefill on 8 H100s is the math's, not
/// NVLink's; no sentence says a bigger batch would help the link.
#[test]
fn the_link_is_weighed_against_the_whole_step() {
    let h100 = chip("h100").unwrap();
    let mut r = run("llama3-70b");
    r.chips = 8.0;
    r.step.weights = DType::Bf16;
    r.step.phase = Phase::Prefill;
    r.step.batch = 1.0;
    r.step.context = 0.0;
    r.step.prompt = 2048.0;
    let a = analyze(&r, &h100).unwrap();
    assert_eq!(a.dominant.key(), "math");
    let l = a.link.clone().unwrap();
    assert!(l.time < a.step_time);
    let v = evaluate_model(&input_of(&r), Some(&h100), 8);
    assert!(v.link.contains("hides behind"), "{}", v.link);
    assert!(!v.link.contains("bigger batch"), "{}", v.link);
    assert!(v
        .layout
        .starts_with("Layout: tensor parallelism over 8 chips"));
    // NVLink's latency: NCCL's ring model, 3.6 µs + 0.47 µs a step, 2 × 7
    // steps per all-reduce, 2 all-reduces a layer.
    close(
        l.all_reduce.latency,
        2.0 * 3.6e-6 + 14.0 * 0.47e-6,
        1e-9,
        "NVLink latency",
    );
    // At B = 1 in decode the link is mostly latency.
    let mut d = run("llama3-70b");
    d.chips = 16.0;
    d.step.batch = 1.0;
    let v5e = chip("v5e").unwrap();
    let a = analyze(&d, &v5e).unwrap();
    let l = a.link.unwrap();
    assert!(l.latency > 0.9 * l.time, "{} of {}", l.latency, l.time);
}

/// The MoE critical batch is what the page says it computes:
/// (C ÷ W) × (w ÷ 2) × P_read ÷ P_mm, not E ÷ k times the dense one.
#[test]
fn moe_critical_batch_is_stated_as_computed() {
    let v5e = chip("v5e").unwrap();
    let r = run("qwen3-235b-a22b");
    let a = analyze(&r, &v5e).unwrap();
    let m = &r.config;
    let ratio = (m.params() - m.input_table_params()) / m.matmul_params();
    close(
        a.critical_batch,
        1.97e14 / 8.2e11 * 0.5 * ratio,
        1e-12,
        "critical",
    );
    let v = evaluate_model(&input_of(&r), Some(&v5e), 1);
    let row = v.rows.iter().find(|r| r.key == "critical-batch").unwrap();
    assert!(
        row.meaning.contains(&roofline_core::format::sig(ratio, 3)),
        "{}",
        row.meaning
    );
    assert!(row.meaning.contains("E ÷ k = 16"), "{}", row.meaning);
}

/// Only the output projection multiplies by the embedding: FLOPs per token
/// are 2·(P_act − D·V) for an untied model, 2·P_act for a tied one.
#[test]
fn embeddings_count_as_the_matmuls_use_them() {
    let v5e = chip("v5e").unwrap();
    let r = run("llama3-8b");
    let a = analyze(&r, &v5e).unwrap();
    let dv = 4096.0 * 128_256.0;
    close(
        a.weight_flops,
        2.0 * 8.0 * (a.active_params - dv),
        1e-12,
        "FLOPs",
    );
    close(a.weights_read, (a.params - dv) * 1.0, 1e-12, "bytes read");
    let mut t = r.clone();
    t.config.tied = true;
    let b = analyze(&t, &v5e).unwrap();
    close(
        b.weight_flops,
        2.0 * 8.0 * b.active_params,
        1e-12,
        "tied FLOPs",
    );
    close(b.weights_read, b.params, 1e-12, "tied: the table is read");
}

/// Issue #46's small things: one message for any out-of-range size, 0
/// allowed where it is; a tiny bandwidth fraction prints tokens/s in
/// scientific notation; "1 chip holds".
#[test]
fn messages_and_numbers_read_right() {
    let v5e = chip("v5e").unwrap();
    let d = ModelInput::from_state(&ModelState::default());
    let err = |f: &dyn Fn(&mut ModelInput)| {
        let mut i = d.clone();
        f(&mut i);
        let v = evaluate_model(&i, Some(&v5e), 1);
        v.fields
            .iter()
            .find_map(|f| f.error.clone())
            .unwrap_or_default()
    };
    for b in ["1e30", "1e10", "-1", "0", "2.5"] {
        assert_eq!(
            err(&|i| i.batch = b.to_string()),
            "Batch B: a whole number from 1 to 1e9",
            "b = {b}"
        );
    }
    for s in ["-1", "1e30", "1e10"] {
        assert_eq!(
            err(&|i| i.context = s.to_string()),
            "Context S: a whole number from 0 to 1e9",
            "ctx = {s}"
        );
    }
    assert_eq!(err(&|i| i.context = "0".to_string()), "");
    assert_eq!(err(&|i| i.batch = "4k".to_string()), "");
    let mut i = d.clone();
    i.eff_bw = "1e-300".to_string();
    let v = evaluate_model(&i, Some(&v5e), 1);
    let tps = v.rows.iter().find(|r| r.key == "tokens-per-s").unwrap();
    assert!(
        tps.text.len() < 24 && tps.text.contains('e'),
        "{}",
        tps.text
    );
    // 70B in bf16 does not fit one v5e: "1 chip holds".
    let mut i = d.clone();
    i.model = "llama3-70b".to_string();
    i.weights = DType::Bf16;
    let v = evaluate_model(&i, Some(&v5e), 1);
    assert!(v.fits.1.contains("1 chip holds"), "{}", v.fits.1);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    /// The headline names the term of the step that takes the longest on
    /// its own: decode's math, weights, KV read or link; prefill's math,
    /// memory traffic (weights and KV cache) or link; and its sentence
    /// starts with that term's words.
    #[test]
    fn the_headline_names_the_largest_term(
        model in prop::sample::select(vec!["llama3-8b", "llama3-70b", "mixtral-8x7b", "qwen3-235b-a22b"]),
        chip_id in prop::sample::select(vec!["v5e", "h100", "b200", "v6e"]),
        chips in prop::sample::select(vec![1.0, 2.0, 8.0, 16.0, 64.0]),
        batch in 1u32..2048,
        context in 0u32..200_000,
        prefill in any::<bool>(),
        overlap in any::<bool>(),
    ) {
        let c = chip(chip_id).unwrap();
        let mut r = run(model);
        r.chips = chips;
        r.step.batch = f64::from(batch);
        r.step.context = f64::from(context);
        r.step.prompt = 512.0;
        r.step.overlap = overlap;
        if prefill {
            r.step.phase = Phase::Prefill;
        }
        let a = analyze(&r, &c).unwrap();
        let link = a.link.as_ref().map_or(0.0, |l| l.time);
        let terms: Vec<(&str, f64)> = if prefill {
            let math = (a.weight_flops + a.attention_flops) / a.flops_rate;
            let mem = (a.weights_read + a.kv_traffic) / a.bandwidth;
            let mem_key = if a.weights_read >= a.kv_traffic { "weights" } else { "kv" };
            vec![("math", math), (mem_key, mem), ("link", link)]
        } else {
            vec![("math", a.t_weight_math), ("weights", a.t_weight_load), ("kv", a.t_kv), ("link", link)]
        };
        let named = terms.iter().find(|t| t.0 == a.dominant.key()).unwrap().1;
        for t in &terms {
            prop_assert!(named >= t.1, "{} ({named}) named, but {} takes {}", a.dominant.key(), t.0, t.1);
        }
        let v = evaluate_model(&input_of(&r), Some(&c), chips as u32);
        prop_assert_eq!(v.regime.0, a.dominant.key());
        let start = match (a.dominant.key(), prefill) {
            ("link", _) => "The ",
            ("kv", false) => "Reading the KV cache takes the longest",
            ("weights", false) => "Loading the weights takes the longest",
            ("math", false) => "The weights' math takes the longest",
            ("math", true) => "The math takes the longest",
            _ => "Memory traffic takes the longest",
        };
        prop_assert!(v.regime.1.starts_with(start), "{}", v.regime.1);
        if a.dominant.key() == "link" {
            let name = a.link.as_ref().unwrap().model.kind.name();
            prop_assert!(v.regime.1.starts_with(&format!("The {name} takes the longest")), "{}", v.regime.1);
        }
    }
}
