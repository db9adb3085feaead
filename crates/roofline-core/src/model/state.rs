//! The Model page's state, as a link carries it (docs/url-schema.md). The
//! chip, its edited numbers and the chip count are the calculator's.

use super::config::ModelConfig;
use super::presets::LLAMA3_8B;
use crate::DType;

/// The preset the page opens on.
pub const DEFAULT_MODEL: &str = "llama3-8b";

/// Which step: generating one token per sequence, or reading the prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Phase {
    /// One new token for each of the B sequences (T = 1).
    #[default]
    Decode,
    /// The T prompt tokens of each of the B sequences.
    Prefill,
}

impl Phase {
    /// The link value: `decode` or `prefill`.
    pub fn key(self) -> &'static str {
        match self {
            Phase::Decode => "decode",
            Phase::Prefill => "prefill",
        }
    }

    /// The phase with link value `key`.
    pub fn from_key(key: &str) -> Option<Phase> {
        match key {
            "decode" => Some(Phase::Decode),
            "prefill" => Some(Phase::Prefill),
            _ => None,
        }
    }
}

/// The step a model is served at: which phase, its sizes, the data types
/// and the fractions of the peaks reached. The Model page's state and a
/// [`super::ModelRun`] both hold one.
#[derive(Debug, Clone, PartialEq)]
pub struct ServingStep {
    /// Decode or prefill.
    pub phase: Phase,
    /// B: sequences in the batch.
    pub batch: f64,
    /// S: tokens already in each sequence's KV cache.
    pub context: f64,
    /// T: prompt tokens per sequence (prefill; decode processes 1).
    pub prompt: f64,
    /// The weights' data type.
    pub weights: DType,
    /// The KV cache's data type.
    pub kv: DType,
    /// The activations' data type.
    pub act: DType,
    /// The type every matmul runs at; `None` = the wider of its two inputs
    /// (for the weight matmuls, weights' and activations', as in the
    /// calculator).
    pub math: Option<DType>,
    /// The fraction of the peak FLOP/s actually reached (0 to 1).
    pub eff_flops: f64,
    /// The fraction of the memory bandwidth actually reached (0 to 1).
    pub eff_bw: f64,
    /// Whether the link's time overlaps the step (the book's view: the
    /// step is the larger of the two) or adds to it.
    pub overlap: bool,
}

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
                overlap: true,
            },
        }
    }
}
