//! The Model page's numbers against the reference's checks and cases
//! derived by hand: a dense model, grouped-query attention, an MoE, decode
//! and prefill, several chips; and a proptest: no input makes it panic or
//! show NaN, inf or a negative time.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::*;
use roofline_core::hardware::preset as chip;
use roofline_core::model::{
    analyze, evaluate_model, ops, ModelInput, ModelRun, ModelState, Phase, CUSTOM_FIELDS,
};
use roofline_core::DType;

mod model_common;
use model_common::{close, run};

/// The reference's two checks: LLaMA-3-8B has 8.03e9 parameters and
/// 131,072 bytes of bf16 KV cache per token.
#[test]
fn the_references_checks() {
    let a = analyze(&run("llama3-8b"), &chip("v5e").unwrap()).unwrap();
    close(a.params, 8.03e9, 0.001, "parameters");
    assert_eq!(a.kv_per_token, 131_072.0);
}

/// The book's critical batches on TPU v5e (C/W = 240): bf16 weights and
/// math 240; int8 weights with bf16 math 120; int8 weights and math 240.
#[test]
fn critical_batches_on_v5e() {
    let v5e = chip("v5e").unwrap();
    let mut r = run("llama3-8b");
    let c = |r: &ModelRun| analyze(r, &v5e).unwrap().critical_batch;
    let ratio = 1.97e14 / 8.2e11;
    r.step.weights = DType::Bf16;
    close(c(&r), ratio, 1e-12, "bf16");
    r.step.weights = DType::Int8;
    close(c(&r), ratio / 2.0, 1e-12, "int8 weights, bf16 math");
    r.step.act = DType::Int8;
    close(
        c(&r),
        3.94e14 / 8.2e11 / 2.0,
        1e-12,
        "int8 weights and math",
    );
    close(c(&r), ratio, 0.001, "int8 both: about 240");
}

/// Dense decode by hand: LLaMA-3-8B, int8 weights, bf16 KV and math,
/// B = 8, S = 2048 on one v5e.
#[test]
fn dense_decode_by_hand() {
    let v5e = chip("v5e").unwrap();
    let r = run("llama3-8b");
    let a = analyze(&r, &v5e).unwrap();
    let p = 8_030_257_152.0;
    // The input table (D·V) is a lookup: not multiplied, not read whole.
    let p_mm = p - 4096.0 * 128_256.0;
    let (c, w) = (1.97e14, 8.2e11);
    let t_kv = 8.0 * 2048.0 * 131_072.0 / w;
    let t_math = 2.0 * 8.0 * p_mm / c;
    let t_load = p_mm / w;
    close(a.t_kv, t_kv, 1e-12, "KV read");
    close(a.t_weight_math, t_math, 1e-12, "math");
    close(a.t_weight_load, t_load, 1e-12, "load");
    close(
        a.step_time,
        t_kv + t_load,
        1e-12,
        "step: the book's formula",
    );
    close(a.tokens_per_s, 8.0 / (t_kv + t_load), 1e-12, "tokens/s");
    assert!(!a.compute_bound, "B = 8 is far below 120");
    // Memory: weights and 8 × 2049 tokens of KV against 16 GB.
    close(a.memory, p + 8.0 * 2049.0 * 131_072.0, 1e-12, "memory");
    assert_eq!(a.fits, Some(true));
    assert_eq!(
        a.max_batch,
        Some(((16e9 - p) / (2049.0 * 131_072.0)).floor())
    );
}

/// Grouped-query attention: LLaMA-2-13B has K = N = 40 (no GQA), LLaMA-3-70B
/// K = 8 of N = 64: its KV per token is 8/64 of what 64 KV heads would hold.
#[test]
fn grouped_query_attention() {
    let v5e = chip("v5e").unwrap();
    let a13 = analyze(&run("llama2-13b"), &v5e).unwrap();
    assert_eq!(a13.kv_per_token, 2.0 * 40.0 * 40.0 * 128.0 * 2.0);
    let a70 = analyze(&run("llama3-70b"), &v5e).unwrap();
    assert_eq!(a70.kv_per_token, 2.0 * 80.0 * 8.0 * 128.0 * 2.0);
    // The QK einsum groups G = N/K query heads per KV head: FLOPs
    // 2·B·T·K·G·H·A = 2·B·N·H·A, bytes read of the cache B·A·K·H·2.
    let r = run("llama3-70b");
    let a = analyze(&r, &v5e).unwrap();
    let qk = ops(&r, &a, &v5e)
        .unwrap()
        .into_iter()
        .find(|o| o.key == "qk")
        .unwrap();
    assert_eq!(
        qk.notation,
        "bf16[B,T,K,G,H] * bf16[B,A,K,H] -> bf16[B,T,K,G,A]"
    );
    let attended = 2049.0;
    assert_eq!(qk.flops, 2.0 * 8.0 * 64.0 * 128.0 * attended);
    assert_eq!(
        qk.bytes,
        8.0 * 64.0 * 128.0 * 2.0 + 8.0 * attended * 8.0 * 128.0 * 2.0 + 8.0 * 64.0 * attended * 2.0
    );
    assert!(
        qk.intensity < 8.0,
        "attention's intensity is about G at best"
    );
}

/// An MoE: Mixtral reads, in expectation, 8·(1 − (3/4)^B) experts a layer;
/// its critical batch is P_read/P_mm (about 3.65, against E/k = 4) times a
/// dense model's.
#[test]
fn mixture_of_experts() {
    let v5e = chip("v5e").unwrap();
    let mut r = run("mixtral-8x7b");
    r.step.batch = 1.0;
    let a = analyze(&r, &v5e).unwrap();
    close(a.experts_read, 2.0, 1e-12, "one token reads its 2 experts");
    let m = &r.config;
    let expert = 3.0 * 4096.0 * 14336.0;
    close(
        a.weights_read,
        a.params - 4096.0 * 32000.0 - 32.0 * 6.0 * expert,
        1e-12,
        "six experts and the input table unread",
    );
    r.step.batch = 64.0;
    let a = analyze(&r, &v5e).unwrap();
    close(
        a.experts_read,
        8.0 * (1.0 - 0.75f64.powi(64)),
        1e-12,
        "64 tokens",
    );
    let dense = 1.97e14 / 8.2e11 / 2.0;
    close(
        a.critical_batch,
        dense * (m.params() - 4096.0 * 32000.0) / (m.active_params() - 4096.0 * 32000.0),
        1e-12,
        "× P_read/P_mm",
    );
    assert!(
        a.critical_batch / dense > 3.0 && a.critical_batch / dense < 4.0,
        "about E/k = 4"
    );
    // The MLP rows count the experts read.
    let up = ops(&r, &a, &v5e)
        .unwrap()
        .into_iter()
        .find(|o| o.key == "mlp-up")
        .unwrap();
    close(
        up.count,
        2.0 * a.experts_read * 32.0,
        1e-12,
        "gate and up, per expert read, per layer",
    );
}

/// Prefill by hand: LLaMA-3-8B, B = 1, T = 2048, S = 0, bf16 on one v5e at
/// 40% of peak: compute-bound; the attention counts the causal half.
#[test]
fn prefill_by_hand() {
    let v5e = chip("v5e").unwrap();
    let mut r = run("llama3-8b");
    r.step.phase = Phase::Prefill;
    r.step.batch = 1.0;
    r.step.context = 0.0;
    r.step.weights = DType::Bf16;
    r.step.eff_flops = 0.4;
    let a = analyze(&r, &v5e).unwrap();
    let p = 8_030_257_152.0 - 4096.0 * 128_256.0;
    let flops = 2.0 * 2048.0 * p + 4.0 * 2048.0 * (2049.0 / 2.0) * 32.0 * 128.0 * 32.0;
    close(a.weight_flops + a.attention_flops, flops, 1e-12, "FLOPs");
    close(
        a.step_time,
        flops / (0.4 * 1.97e14),
        1e-12,
        "time to first token",
    );
    assert!(a.compute_bound);
    close(
        a.tokens_per_s,
        2048.0 / a.step_time,
        1e-12,
        "prompt tokens/s",
    );
}

/// Several chips: LLaMA-3-70B in bf16 over 16 v5e: W and C add up, the
/// weights need the chips' HBM, the 8 KV heads are held twice over 16
/// chips, and each layer ends with two all-reduces of the B·D activations
/// over ICI (a bidirectional ring, 1 µs a hop), beside the book's sketch.
#[test]
fn several_chips() {
    let v5e = chip("v5e").unwrap();
    let mut r = run("llama3-70b");
    r.step.weights = DType::Bf16;
    r.step.batch = 32.0;
    let one = analyze(&r, &v5e).unwrap();
    assert_eq!(one.fits, Some(false));
    assert_eq!(one.max_batch, Some(0.0), "the weights alone are 141 GB");
    assert_eq!(one.kv_copies, 1.0);
    r.chips = 16.0;
    let a = analyze(&r, &v5e).unwrap();
    assert_eq!(a.fits, Some(true));
    close(a.bandwidth, 16.0 * 8.2e11, 1e-12, "W");
    let dv = 8192.0 * 128_256.0;
    close(
        a.t_weight_load,
        (a.params - dv) * 2.0 / (16.0 * 8.2e11),
        1e-12,
        "load: every weight but the input table",
    );
    // 16 chips, K = 8: each chip keeps one KV head, so two copies.
    assert_eq!(a.kv_copies, 2.0);
    close(
        a.memory,
        a.weight_bytes + 2.0 * a.kv_bytes,
        1e-12,
        "held twice",
    );
    close(
        a.t_kv,
        2.0 * 32.0 * 2048.0 * a.kv_per_token / (16.0 * 8.2e11),
        1e-12,
        "each chip reads its copy",
    );
    let link = a.link.clone().unwrap();
    let v = 32.0 * 8192.0 * 2.0;
    close(
        link.book_bytes_per_layer,
        v,
        1e-12,
        "the book's 2·B·D bytes at bf16",
    );
    close(
        link.book_time,
        80.0 * v / 4.5e10,
        1e-12,
        "the book's sketch",
    );
    // One all-reduce: 2·15/16 of V per chip, both directions of the ring
    // (9e10 B/s), 2 × 8 hops of 1 µs.
    close(
        link.all_reduce.bytes_per_chip,
        2.0 * 15.0 / 16.0 * v,
        1e-12,
        "2(n−1)/n·V",
    );
    close(
        link.all_reduce.time,
        2.0 * 15.0 / 16.0 * v / 9e10 + 16e-6,
        1e-12,
        "bytes and latency",
    );
    close(
        link.time,
        80.0 * 2.0 * link.all_reduce.time,
        1e-12,
        "L × 2 all-reduces",
    );
    close(link.latency, 80.0 * 2.0 * 16e-6, 1e-12, "latency per step");
    // Overlapped (the book's view): the step is the larger.
    close(a.step_time, a.base_time.max(link.time), 1e-12, "overlapped");
    close(
        a.base_time,
        a.t_kv + a.t_weight_math.max(a.t_weight_load),
        1e-12,
        "the book's decode step",
    );
    close(
        a.tokens_per_s_chip,
        a.tokens_per_s / 16.0,
        1e-12,
        "per chip",
    );
    // Not overlapped: it adds.
    r.step.overlap = false;
    let s = analyze(&r, &v5e).unwrap();
    close(
        s.step_time,
        s.base_time + link.time,
        1e-12,
        "not overlapped",
    );
}

/// The page's view: the default state evaluates, every row has a finite
/// value, and bad fields give messages, not results.
#[test]
fn the_view_of_the_default_and_of_bad_fields() {
    let v5e = chip("v5e").unwrap();
    let v = evaluate_model(
        &ModelInput::from_state(&ModelState::default()),
        Some(&v5e),
        1,
    );
    assert!(v.error.is_none(), "{:?}", v.error);
    for key in [
        "params",
        "active-params",
        "weight-bytes",
        "kv-per-token",
        "kv-bytes",
        "memory",
        "hbm",
        "max-batch",
        "step-time",
        "tokens-per-s",
        "tokens-per-s-chip",
        "critical-batch",
    ] {
        let r = v
            .rows
            .iter()
            .find(|r| r.key == key)
            .unwrap_or_else(|| panic!("{key}"));
        assert!(r.value.is_some_and(f64::is_finite), "{key}");
    }
    assert_eq!(v.fits.0, "yes");
    assert_eq!(v.regime.0, "weights", "{}", v.regime.1);
    assert_eq!(v.ops.len(), 8);
    assert!(!v.curve.is_empty());
    let mut i = ModelInput::from_state(&ModelState::default());
    i.model = "custom".to_string();
    i.custom = CUSTOM_FIELDS
        .iter()
        .map(|(k, _)| (*k, "1".to_string()))
        .collect();
    i.custom[4].1 = "2".to_string(); // K > N
    let v = evaluate_model(&i, Some(&v5e), 1);
    assert!(v.analysis.is_none());
    assert!(v.error.unwrap().contains("at most the query heads"));
    i.custom[0].1 = "0".to_string(); // L = 0
    let v = evaluate_model(&i, Some(&v5e), 1);
    assert!(v
        .fields
        .iter()
        .any(|f| f.id == "m-layers" && f.error.is_some()));
    let mut i = ModelInput::from_state(&ModelState::default());
    i.batch = "1e30".to_string();
    let v = evaluate_model(&i, Some(&v5e), 1);
    assert!(v
        .fields
        .iter()
        .any(|f| f.id == "model-b" && f.error.is_some()));
    i.batch = "8".to_string();
    i.eff_flops = "0".to_string();
    assert!(evaluate_model(&i, Some(&v5e), 1).analysis.is_none());
    i.eff_flops = "40%".to_string();
    let v = evaluate_model(&i, Some(&v5e), 1);
    assert_eq!(v.run.unwrap().step.eff_flops, 0.4);
    // fp32 activations make the matmuls fp32, which v5e does not list: the
    // page runs them at bf16 and says so (as the calculator falls back),
    // and the link keeps what was chosen.
    i.act = DType::Fp32;
    let v = evaluate_model(&i, Some(&v5e), 1);
    assert!(v.analysis.is_some(), "{:?}", v.error);
    let note = v.math_note.clone().unwrap();
    assert!(
        note.contains("TPU v5e lists no fp32 peak, so the matmuls run at bf16"),
        "{note}"
    );
    assert_eq!(v.analysis.unwrap().math, DType::Bf16);
    i.act = DType::Bf16;
    i.math = Some(DType::Fp4);
    let v = evaluate_model(&i, Some(&v5e), 1);
    assert!(v.math_note.clone().unwrap().contains("lists no fp4 peak"));
    assert_eq!(v.to_state(&i).unwrap().step.math, Some(DType::Fp4));
    i.math = Some(DType::Bf16);
    let v = evaluate_model(&i, Some(&v5e), 1);
    assert!(v.analysis.is_some(), "{:?}", v.error);
    assert!(v.math_note.is_none());
}

fn any_dtype() -> impl Strategy<Value = DType> {
    prop::sample::select(DType::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    /// Whatever is typed, the page gives results with finite, non-negative
    /// numbers and no NaN or inf in any text, or messages; never a panic.
    #[test]
    fn no_input_breaks_it(
        fields in prop::collection::vec(prop_oneof![
            (1u32..200_000).prop_map(|v| v.to_string()),
            Just("0".to_string()), Just("1e30".to_string()), Just("-3".to_string()),
            Just("abc".to_string()), Just("".to_string()), Just("4k".to_string()),
        ], 9),
        batch in prop_oneof![(1u32..100_000).prop_map(|v| v.to_string()), Just("0".to_string()), Just("1e30".to_string())],
        context in prop_oneof![(0u32..1_000_000).prop_map(|v| v.to_string()), Just("0".to_string()), Just("NaN".to_string())],
        prompt in (1u32..100_000).prop_map(|v| v.to_string()),
        (w, kv, act) in (any_dtype(), any_dtype(), any_dtype()),
        prefill in any::<bool>(),
        chips in 1u32..4096,
        custom in any::<bool>(),
        chip_id in prop::sample::select(vec!["v5e", "h100", "b200", "rtx3090", "v6e", "mi300x"]),
        eff in prop_oneof![Just("100%".to_string()), Just("0.4".to_string()), Just("0".to_string()), Just("150%".to_string())],
    ) {
        let mut i = ModelInput::from_state(&ModelState::default());
        if custom {
            i.model = "custom".to_string();
            i.custom = CUSTOM_FIELDS.iter().zip(fields).map(|((k, _), f)| (*k, f)).collect();
        }
        i.batch = batch;
        i.context = context;
        i.prompt = prompt;
        i.weights = w;
        i.kv = kv;
        i.act = act;
        i.phase = if prefill { Phase::Prefill } else { Phase::Decode };
        i.eff_flops = eff.clone();
        i.eff_bw = eff;
        let c = chip(chip_id).unwrap();
        let v = evaluate_model(&i, Some(&c), chips);
        for r in &v.rows {
            if let Some(x) = r.value {
                prop_assert!(x.is_finite() && x >= 0.0, "{}: {x}", r.key);
            }
            for t in [&r.text, &r.meaning] {
                prop_assert!(!t.contains("NaN") && !t.contains("inf"), "{}", t);
            }
        }
        for o in &v.ops {
            prop_assert!(o.time.is_finite() && o.time >= 0.0 && o.intensity.is_finite(), "{}", o.key);
        }
        for p in &v.curve {
            prop_assert!(p.step_time > 0.0 && p.tokens_per_s.is_finite());
        }
        for s in &v.derivation {
            prop_assert!(!s.numbers.contains("NaN") && !s.result.contains("inf"));
        }
        if let Some(a) = &v.analysis {
            prop_assert!(a.step_time > 0.0 && a.step_time.is_finite());
        }
    }
}
