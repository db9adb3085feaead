//! The Scale page's state, as a link carries it. The chip, its edited
//! numbers, the operation (`op`) and its sizes (`sz`) are the
//! calculator's; the model (`model`, `m.*`) is the Model page's.

use super::coll::CollOp;
use super::train::Strategy;

/// The array the collective acts on when the link names none.
pub const DEFAULT_ARRAY: &str = "bf16[B_X,D]";

/// What the Scale page shows besides the calculator's and the Model
/// page's keys.
#[derive(Debug, Clone, PartialEq)]
pub struct ScaleState {
    /// The mesh (`X:16,Y:16`); `None` = the chip's default (a 4x4x4 cube on
    /// 3-D TPUs, 4x4 on 2-D ones, 8 on GPUs).
    pub mesh: Option<String>,
    /// The axes that wrap around (`XY`, or `none`); `None` = the chip's
    /// rules.
    pub wrap: Option<String>,
    /// The collective.
    pub cop: CollOp,
    /// Its axes (`X`, `XY`).
    pub cax: String,
    /// The array it acts on, in sharded notation; sizes from `sz`.
    pub arr: String,
    /// B: tokens in the global batch.
    pub tokens: f64,
    /// Sequence length, tokens.
    pub seq: f64,
    /// The training strategy.
    pub strat: Strategy,
    /// X, the FSDP (or DP, or pipeline-stage) degree; `None` = derived.
    pub x: Option<f64>,
    /// Y, the TP degree; `None` = derived.
    pub y: Option<f64>,
    /// M_X, the mesh axes X spans; `None` = derived from the mesh.
    pub mx: Option<f64>,
    /// M_Y; `None` = derived from the mesh.
    pub my: Option<f64>,
    /// ZeRO stage, 1 to 3.
    pub zero: u8,
    /// Activation checkpoints per layer.
    pub ckpt: f64,
    /// Model FLOPs utilisation, above 0 and at most 1.
    pub mfu: f64,
    /// Training tokens in all.
    pub budget: f64,
    /// Pods (slices joined by DCN).
    pub pods: f64,
}

impl Default for ScaleState {
    fn default() -> Self {
        ScaleState {
            mesh: None,
            wrap: None,
            cop: CollOp::AllGather,
            cax: "X".to_string(),
            arr: DEFAULT_ARRAY.to_string(),
            // The book's LLaMA-3 batch: 1024 sequences of 4096 tokens.
            tokens: 4_194_304.0,
            seq: 4096.0,
            strat: Strategy::Fsdp,
            x: None,
            y: None,
            mx: None,
            my: None,
            zero: 3,
            // Part 6's conservative 4 checkpoints a layer, its 40% MFU and
            // LLaMA-3's 15T tokens.
            ckpt: 4.0,
            mfu: 0.4,
            budget: 15e12,
            pods: 1.0,
        }
    }
}
