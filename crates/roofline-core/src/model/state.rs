//! The Model page's state, as a link carries it (docs/url-schema.md). The
//! chip, its edited numbers and the chip count are the calculator's.

use super::config::ModelConfig;
use super::presets::LLAMA3_8B;
use super::run::{Phase, ServingStep};
use crate::DType;

/// The preset the page opens on.
pub const DEFAULT_MODEL: &str = "llama3-8b";

/// What the Model page shows (with the calculator's chip and chip count).
#[derive(Debug, Clone, PartialEq)]
pub struct ModelState {
    /// A preset id, or `custom`.
    pub model: String,
    /// The custom model (the fields' values; with a preset, the preset's
    /// shape, kept so that switching to custom starts from it).
    pub custom: ModelConfig,
    /// The step: phase, sizes, types, fractions reached.
    pub step: ServingStep,
}

impl Default for ModelState {
    fn default() -> Self {
        ModelState {
            model: DEFAULT_MODEL.to_string(),
            custom: LLAMA3_8B,
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
            },
        }
    }
}
