//! The roofline applied to a whole transformer: the book's transformer and
//! inference chapters. A model's shape ([`ModelConfig`], or a [`Preset`])
//! and a step on some chips ([`ModelRun`]) give the parameters, the KV
//! cache, whether it fits, the decode or prefill step time, tokens per
//! second, the critical batch ([`analyze`]); every operation of a layer as
//! Part 1's einsum ([`ops`]); and the latency–throughput curve ([`curve`]).
//! [`evaluate_model`] turns the page's typed input into the view it shows.
//!
//! The formulas (symbols as in the book: B, T, S, L, D, F, N, K, H, V, E,
//! k; C and W the chips' FLOP/s and bandwidth):
//! * P = L·(E·3DF + 2DNH + 2DKH + 2D + D·E) + D·V·(1 or 2);
//! * KV per token = 2·L·K·H × the KV type's bytes;
//! * P_mm, the parameters a token multiplies = P_act − D·V when untied
//!   (the input table is a lookup);
//! * decode: T_step = B·S·KV ÷ W + max(2·B·P_mm ÷ C, weights read ÷ W);
//! * prefill: max((2·B·T·P_mm + attention) ÷ C, bytes ÷ W);
//! * critical batch = (C ÷ W) × bytes per weight ÷ 2 × P_read ÷ P_mm;
//! * over n chips, tensor parallelism: two all-reduces of tokens·D
//!   activations a layer ([`crate::collective`]), overlapping the step or
//!   added to it; the KV heads are replicated when n exceeds K.
//!
//! An MoE reads, in expectation, E·(1 − (1 − k/E)^tokens) experts a layer
//! (uniform routing), so a small batch reads fewer weights than P.

mod config;
mod derivation;
pub(crate) mod link;
mod ops;
mod presets;
mod run;
mod state;
mod sweep;
mod verdict;
mod view;
mod words;

pub use config::{ModelConfig, MAX_DIM};
pub use link::{read_query, state_text};
pub use ops::{calc_share, ops, ModelOp};
pub(crate) use presets::dense;
pub use presets::{preset, Preset, PRESETS};
pub use run::{analyze, group_chip, wider, LinkTime, ModelAnalysis, ModelRun, StepTerm};
pub use state::{ModelState, Phase, ServingStep, DEFAULT_MODEL};
pub use sweep::{curve, CurvePoint, CURVE_POINTS};
pub use view::{custom_value, evaluate_model, set_custom, ModelInput, ModelView, CUSTOM_FIELDS};
pub use words::params_text;
