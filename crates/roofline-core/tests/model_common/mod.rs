//! Helpers the Model page's tests share: a preset's run at the page's
//! default step, a comparison with a relative tolerance, and the input
//! that shows a run.
// Each test file uses some of these.
#![allow(dead_code)]

use roofline_core::model::{preset, ModelInput, ModelRun, ModelState, Phase, ServingStep};
use roofline_core::DType;

#[track_caller]
pub fn close(got: f64, want: f64, rel: f64, what: &str) {
    assert!(
        (got - want).abs() <= rel * want.abs(),
        "{what}: {got} against {want}"
    );
}

/// `model` at B = 8, S = 2048, int8 weights, bf16 KV cache and
/// activations, on one chip.
pub fn run(model: &str) -> ModelRun {
    ModelRun {
        config: preset(model).unwrap().config.clone(),
        step: ServingStep {
            phase: Phase::Decode,
            batch: 8.0,
            context: 2048.0,
            prompt: 2048.0,
            weights: DType::Int8,
            kv: DType::Bf16,
            act: DType::Bf16,
            math: None,
            eff_flops: 1.0,
            eff_bw: 1.0,
            overlap: true,
        },
        chips: 1.0,
    }
}

/// The input that shows `r` (a preset).
pub fn input_of(r: &ModelRun) -> ModelInput {
    let preset_id = roofline_core::model::PRESETS
        .iter()
        .find(|p| p.config == r.config)
        .map_or("custom", |p| p.id);
    ModelInput::from_state(&ModelState {
        model: preset_id.to_string(),
        custom: r.config.clone(),
        step: r.step.clone(),
    })
}
