//! The training plan's words: the chapter's conditions with the chosen
//! numbers in them, and the notes on what the page assumes and where the
//! book contradicts itself.

use crate::format::{self, count};
use crate::LevelKind;

use super::train::{Conditions, Strategy};

/// The numbers the words need.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Facts {
    pub(crate) k: Conditions,
    pub(crate) c: f64,
    pub(crate) w: f64,
    pub(crate) w_dcn: f64,
    pub(crate) axis_name: char,
    pub(crate) axis_kind: LevelKind,
    pub(crate) wraps: bool,
    /// The chips sharing the slower link's W in a mesh of mixed links (a
    /// GPU node); 1 on a mesh of one kind.
    pub(crate) node: f64,
    pub(crate) b: f64,
    pub(crate) x: f64,
    pub(crate) y: f64,
    pub(crate) mx: f64,
    pub(crate) my: f64,
    pub(crate) pods: f64,
    pub(crate) n: f64,
    pub(crate) seq: f64,
    pub(crate) seqs: f64,
    pub(crate) microbatches: f64,
    pub(crate) chips_used: f64,
    pub(crate) plan_chips: f64,
    pub(crate) strat: Strategy,
    pub(crate) set_axes: bool,
    pub(crate) v5p: bool,
}

/// The chapter's conditions, each with its numbers.
pub(crate) fn conditions_words(f: &Facts) -> Vec<String> {
    let mut conds = vec![
        if f.node > 1.0 {
            format!(
                "α = C / W = {} / {} = {} (W: a node's egress, axis {}'s InfiniBand at {} a chip × the node's {} chips).",
                format::flops_rate(f.c),
                format::bandwidth(f.w),
                count(f.k.alpha),
                f.axis_name,
                format::bandwidth(f.w / f.node),
                count(f.node)
            )
        } else {
            format!(
                "α = C / W_ici = {} / {} = {} (W: axis {}'s {} per chip, {}).",
                format::flops_rate(f.c),
                format::bandwidth(f.w),
                count(f.k.alpha),
                f.axis_name,
                f.axis_kind,
                if f.wraps { "both directions, as it wraps" } else { "one direction" }
            )
        },
        if f.strat == Strategy::Pp {
            // Pipelining's Y is each stage's data-parallel degree, its X
            // the stages: a stage's Y chips run the whole batch.
            format!(
                "DP and FSDP: compute-bound when the batch over the data-parallel chips exceeds α / M = {} tokens a chip; here each stage's Y = {} (over M = {}) share all B: B/Y = {}.",
                count(f.k.dp_threshold),
                super::words::chips(f.y),
                super::words::axes(f.mx),
                count(f.b / f.y.max(1.0))
            )
        } else {
            format!(
                "DP and FSDP: compute-bound when B/X > α / M_X = {} tokens a chip; here B/X = {}.",
                count(f.k.dp_threshold),
                count(f.b / f.x.max(1.0) / f.pods)
            )
        },
        format!(
            "TP: compute-bound when Y < M_Y·F / α = {} (whatever the batch); {}.",
            count(f.k.tp_limit),
            if f.strat == Strategy::Pp {
                "here no TP".to_string()
            } else {
                format!("here Y = {}", count(f.y))
            }
        ),
        format!(
            "FSDP + TP: X_opt = √((B/F)·(M_X/M_Y)·N) = {}; compute-bound when B/N > α² / (M_X·M_Y·F) = {}; here B/N = {}.",
            count(f.k.x_opt),
            count(f.k.mixed_threshold),
            count(f.k.tokens_per_chip)
        ),
    ];
    if f.w_dcn > 0.0 {
        conds.push(format!(
            "Across pods: compute-bound when the tokens a pod exceed C / W_dcn = {} / {} = {}; here {}.",
            format::flops_rate(f.c),
            format::bandwidth(f.w_dcn),
            count(f.k.dcn_threshold),
            count(f.k.tokens_per_slice)
        ));
    }
    conds
}

/// What the page assumes, and where the book contradicts itself.
pub(crate) fn notes(f: &Facts) -> Vec<String> {
    let mut notes = vec![
        "A layer is its MLP, as in the chapter: D and F of the model, two matrices, attention left out; the whole model's FLOPs are 6·P·tokens.".to_string(),
        "Memory counts bf16 gradients (2 bytes a parameter), which the book's Part 6 table leaves out; its weights (2 bytes) and Adam's moments (8 bytes) are the book's.".to_string(),
        "A checkpoint is a [B, D] tensor in bf16, the count a layer you set (Part 6's); Part 5's questions also keep the MLP's [B, F] activations, 2·L·B·(D + 2F) bytes in all, which this count leaves out.".to_string(),
        format!(
            "The axes a degree spans: TP takes the mesh's axes from the last, as few as hold Y; FSDP the rest (here M_X = {}, M_Y = {}){}.",
            count(f.mx),
            count(f.my),
            if f.set_axes { ", as you set them" } else { "" }
        ),
    ];
    if f.v5p {
        notes.push("C / W_dcn uses the catalogue's DCN per chip: 4.59e14 / 6.25e9 = 73,440 on v5p, the chapter's derivation; its takeaways' \"about 71,000\" is an older rounding.".to_string());
    }
    if f.n > 8960.0 && f.v5p {
        notes.push("The largest v5p slice has 8960 chips (the chapter's current text): more chips than that cross DCN.".to_string());
    }
    if f.plan_chips < f.n * f.pods {
        notes.push(format!(
            "The chapter's plan rounds its degrees to powers of two and so uses {} of the {} chips, as its LLaMA-3 plan (2048 × 4 = 8192 of a 8960-chip pod) does.",
            count(f.plan_chips),
            count(f.n * f.pods)
        ));
    }
    if f.b < f.chips_used {
        notes.push(format!(
            "The batch ({}) is smaller than the chips ({}): some chips would have no token.",
            super::words::counted(f.b, "token", "tokens"),
            count(f.chips_used)
        ));
    }
    if f.x * f.pods > f.seqs && f.strat != Strategy::Pp {
        notes.push(format!(
            "{} sequences of {} tokens: splitting the batch {}-way also splits sequences (context parallelism), which the chapter allows.",
            count(f.seqs),
            count(f.seq),
            count(f.x * f.pods)
        ));
    }
    if f.strat == Strategy::Pp {
        let mb = f.microbatches;
        notes.push(format!(
            "Pipelining is qualitative in the chapter. With {} a step, a GPipe/1F1B bubble of (stages − 1)/(microbatches + stages − 1) = {} idles the chips, and the step time and days include it (a usual figure, not the book's). The page pairs pipelining with ZeRO-1, as the GPU chapter does: ZeRO-3 would gather the weights again for every microbatch.",
            if mb == 1.0 {
                "1 microbatch".to_string()
            } else {
                format!("{} microbatches", count(mb))
            },
            format::percent((f.x - 1.0) / (mb + f.x - 1.0))
        ));
    }
    notes
}
