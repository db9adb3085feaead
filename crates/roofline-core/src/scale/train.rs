//! Training a transformer over a mesh (the book's Part 5): each strategy's
//! time per layer, its comms, its bound and the chapter's conditions with
//! the numbers in them.
//!
//! As in the chapter, a layer is its MLP, `In[B,D] ·_D W_in[D,F] ·_F
//! W_out[F,D]` in bf16 (attention and a gated MLP's third matrix are left
//! out), B the tokens of the global batch, C the chip's bf16 FLOP/s, W the
//! per-chip bandwidth of one mesh axis (both directions when it wraps:
//! the book's bidirectional W_ici), and M_X, M_Y the mesh axes each degree
//! spans (M axes give M times the bandwidth). Each strategy is compared on
//! the pass the chapter compares it on: the backward pass for DP and
//! across pods, the forward pass for the others (its ratio of comms to math
//! is the largest).

/// A training strategy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Strategy {
    /// Pure data parallelism: weights replicated, batch split over X.
    Dp,
    /// Fully sharded data parallelism (ZeRO 1 to 3) over X.
    Fsdp,
    /// Tensor (Megatron) parallelism over Y.
    Tp,
    /// FSDP over X and TP over Y.
    #[default]
    Mixed,
    /// Pipeline stages (X of them), ZeRO-1 data parallelism inside each.
    Pp,
    /// FSDP + TP inside each pod (slice), data parallelism across pods
    /// over DCN.
    Pods,
}

impl Strategy {
    /// Every strategy, in the menu's order.
    pub const ALL: [Strategy; 6] = [
        Strategy::Dp,
        Strategy::Fsdp,
        Strategy::Tp,
        Strategy::Mixed,
        Strategy::Pp,
        Strategy::Pods,
    ];

    /// The link value.
    pub fn key(self) -> &'static str {
        match self {
            Strategy::Dp => "dp",
            Strategy::Fsdp => "fsdp",
            Strategy::Tp => "tp",
            Strategy::Mixed => "mixed",
            Strategy::Pp => "pp",
            Strategy::Pods => "pods",
        }
    }

    /// Its name on the page.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Dp => "data parallelism",
            Strategy::Fsdp => "FSDP",
            Strategy::Tp => "tensor parallelism",
            Strategy::Mixed => "FSDP + tensor parallelism",
            Strategy::Pp => "pipelining",
            Strategy::Pods => "data parallelism across pods",
        }
    }

    /// The strategy of a link value.
    pub fn from_key(k: &str) -> Option<Strategy> {
        let k = k.trim().to_ascii_lowercase();
        Strategy::ALL.into_iter().find(|s| s.key() == k)
    }
}

/// The numbers one layer's comparison needs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LayerInput {
    /// B: tokens in the global batch (for pods: all pods together).
    pub batch: f64,
    /// D: model width.
    pub d: f64,
    /// F: MLP width.
    pub f: f64,
    /// C: the chip's FLOP/s.
    pub c: f64,
    /// W: one axis's per-chip bandwidth, bytes/s.
    pub w: f64,
    /// X: the FSDP/DP degree (the stages for pipelining).
    pub x: f64,
    /// Y: the TP degree.
    pub y: f64,
    /// M_X: axes X spans.
    pub mx: f64,
    /// M_Y: axes Y spans.
    pub my: f64,
    /// Pods (1 unless across pods).
    pub pods: f64,
    /// DCN per chip, bytes/s.
    pub w_dcn: f64,
}

/// One layer's comparison.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LayerTimes {
    /// T_math of the pass compared, s.
    pub t_math: f64,
    /// T_comms over ICI (the larger of FSDP's and TP's when both), s.
    pub t_ici: f64,
    /// T_comms over DCN (across pods), s.
    pub t_dcn: f64,
    /// FSDP's part of T_ici (the weights' gathers), s.
    pub t_fsdp: f64,
    /// TP's part of T_ici (the activations' gathers and scatters), s.
    pub t_tp: f64,
    /// Bytes a chip's collectives move in the pass, per layer.
    pub bytes: f64,
    /// How many times the pass's comms make one training step's (forward
    /// and backward): 3 for a forward pass whose backward sends twice as
    /// much, 1 for the backward alone.
    pub passes: f64,
}

impl LayerTimes {
    /// T_comms: the ICI and DCN parts, the larger (overlapped).
    pub fn t_comms(&self) -> f64 {
        self.t_ici.max(self.t_dcn)
    }

    /// Whether the comms take longer than the math.
    pub fn comms_bound(&self) -> bool {
        self.t_comms() > self.t_math
    }
}

/// The chapter's time per layer for `s`.
pub fn layer(s: Strategy, i: &LayerInput) -> LayerTimes {
    let LayerInput {
        batch: b,
        d,
        f,
        c,
        w,
        x,
        y,
        ..
    } = *i;
    let mx = i.mx.max(1.0);
    let my = i.my.max(1.0);
    let n = (x * y).max(1.0);
    let zero = LayerTimes {
        t_math: 0.0,
        t_ici: 0.0,
        t_dcn: 0.0,
        t_fsdp: 0.0,
        t_tp: 0.0,
        bytes: 0.0,
        passes: 1.0,
    };
    // Weights' gathers: 2 matrices of DF bf16 values (2 bytes each) = 4DF
    // bytes, each chip holding 1/Y of them when TP splits them too.
    let fsdp = if x > 1.0 {
        4.0 * d * f / (y * w * mx)
    } else {
        0.0
    };
    // Activations: an AllGather and a ReduceScatter of [B, D] bf16 (2BD
    // bytes each), each chip's batch being 1/X of B.
    let tp = if y > 1.0 {
        4.0 * b * d / (x * w * my)
    } else {
        0.0
    };
    match s {
        Strategy::Dp => LayerTimes {
            // Backward: 4 matmuls of 2·(B/X)·D·F; two AllReduces of 2DF
            // bytes, each 2·V/W.
            t_math: 8.0 * b * d * f / (x * c),
            t_ici: if x > 1.0 { 8.0 * d * f / (w * mx) } else { 0.0 },
            bytes: if x > 1.0 { 8.0 * d * f } else { 0.0 },
            passes: 1.0,
            ..zero
        },
        Strategy::Fsdp | Strategy::Tp | Strategy::Mixed => LayerTimes {
            t_math: 4.0 * b * d * f / (n * c),
            t_ici: fsdp.max(tp),
            t_fsdp: fsdp,
            t_tp: tp,
            bytes: fsdp * w * mx + tp * w * my,
            // A step's comms over the forward's: FSDP's backward gathers the
            // weights again and scatters the gradients (3 in all); TP's
            // backward moves the activations' gradients as the forward
            // moved the activations (2: the chapter's table, 4BD + 4BD).
            passes: if s == Strategy::Tp { 2.0 } else { 3.0 },
            ..zero
        },
        Strategy::Pp => {
            // X stages of L/X layers each, the Y = N/X chips of a stage in
            // ZeRO-1 data parallelism: a layer lives on one stage, whose Y
            // chips run the whole batch through it; per layer, as DP over
            // Y chips (not over all N: the other stages hold other layers).
            let dp = (i.x * i.y / x.max(1.0)).max(1.0);
            LayerTimes {
                t_math: 8.0 * b * d * f / (dp * c),
                t_ici: if dp > 1.0 {
                    8.0 * d * f / (w * mx)
                } else {
                    0.0
                },
                bytes: if dp > 1.0 { 8.0 * d * f } else { 0.0 },
                passes: 1.0,
                ..zero
            }
        }
        Strategy::Pods => {
            let pods = i.pods.max(1.0);
            let m = n;
            LayerTimes {
                // Backward over all N = M·pods chips; a ring AllReduce of
                // the 2DF-byte gradients of both matrices over the pods,
                // every chip of a slice with its own DCN share: 8DF/(M·W_dcn).
                t_math: 8.0 * b * d * f / (m * pods * c),
                t_ici: 2.0 * fsdp.max(tp / pods),
                t_dcn: if pods > 1.0 {
                    8.0 * d * f / (m * i.w_dcn)
                } else {
                    0.0
                },
                t_fsdp: 2.0 * fsdp,
                t_tp: 2.0 * tp / pods,
                bytes: 8.0 * d * f / m,
                // The backward pass and half again for the forward's ICI.
                passes: 1.5,
            }
        }
    }
}

/// The chapter's conditions, with the numbers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Conditions {
    /// α = C / W: the ICI's arithmetic intensity.
    pub alpha: f64,
    /// Tokens per chip: B / N.
    pub tokens_per_chip: f64,
    /// DP/FSDP: compute-bound when B/X > α / M_X.
    pub dp_threshold: f64,
    /// TP: compute-bound when Y < M_Y · F / α.
    pub tp_limit: f64,
    /// Mixed: X_opt = sqrt((B/F)·(M_X/M_Y)·N).
    pub x_opt: f64,
    /// Mixed: compute-bound when B/N > α² / (M_X·M_Y·F).
    pub mixed_threshold: f64,
    /// Across pods: C / W_dcn.
    pub dcn_threshold: f64,
    /// Tokens per slice: B / pods.
    pub tokens_per_slice: f64,
}

/// The conditions for `i` (N = X·Y chips in a slice).
pub fn conditions(i: &LayerInput) -> Conditions {
    let mx = i.mx.max(1.0);
    let my = i.my.max(1.0);
    let alpha = i.c / i.w;
    let n = (i.x * i.y).max(1.0);
    let pods = i.pods.max(1.0);
    Conditions {
        alpha,
        tokens_per_chip: i.batch / (n * pods),
        dp_threshold: alpha / mx,
        tp_limit: my * i.f / alpha,
        x_opt: ((i.batch / pods / i.f) * (mx / my) * n).sqrt(),
        mixed_threshold: alpha * alpha / (mx * my * i.f),
        dcn_threshold: i.c / i.w_dcn,
        tokens_per_slice: i.batch / pods,
    }
}

/// The tokens a chip above which split `i` of strategy `s` is compute-bound
/// by the chapter's per-layer test (T_math ≥ T_comms, at peak FLOP/s), over
/// `chips` chips: the comms that do not grow with the batch (FSDP's and
/// DP's gathers, DCN) over the math a token. `Some(0.0)` when nothing such
/// is sent; `None` when a part that grows with the batch (TP's) outgrows
/// the math: TP beyond its limit is comms-bound at any batch. Unlike
/// [`threshold`], which is the strategy's condition as the chapter writes
/// it (for FSDP + TP, at the best split X_opt), this is the split's own,
/// so it agrees with [`LayerTimes::comms_bound`] at every batch.
pub fn split_threshold(s: Strategy, i: &LayerInput, chips: f64) -> Option<f64> {
    // Every part of a layer's times is linear in the batch: one token's.
    let one = layer(s, &LayerInput { batch: 1.0, ..*i });
    let grows = one.t_tp;
    let fixed = match s {
        Strategy::Dp | Strategy::Pp => one.t_ici,
        _ => one.t_fsdp,
    }
    .max(one.t_dcn);
    if grows > one.t_math {
        return None;
    }
    if fixed <= 0.0 {
        return Some(0.0);
    }
    let tokens = fixed / one.t_math / chips.max(1.0);
    tokens.is_finite().then_some(tokens)
}

/// The threshold on tokens per chip that `s` must exceed to be
/// compute-bound (the TP limit is on Y, not on the batch: for TP this is
/// `None`).
pub fn threshold(s: Strategy, k: &Conditions) -> Option<f64> {
    match s {
        Strategy::Dp | Strategy::Fsdp | Strategy::Pp => Some(k.dp_threshold),
        Strategy::Mixed | Strategy::Pods => Some(k.mixed_threshold),
        Strategy::Tp => None,
    }
}
