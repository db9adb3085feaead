//! The training part of the Scale page's view: a model, a batch and a
//! strategy on the mesh, with the chapter's conditions in numbers, memory
//! per chip, time, the training roofline and the plan the chapter would
//! choose.

use crate::format::{self, count};
use crate::hardware::Chip;
use crate::model::ModelConfig;
use crate::{DType, LevelKind};

use super::memory::{memory, min_chips, run_time, MemoryInput};
use super::mesh::MeshLinks;
use super::plan::{axes_spanned, choose, crossover, optimum, roofline, splits, RooflinePoint};
use super::state::ScaleState;
use super::train::{conditions, layer, split_threshold, LayerInput, Strategy};
use super::train_words::{conditions_words, notes, Facts};
use super::view::raw;

/// One split of the training roofline's slider.
#[derive(Debug, Clone, PartialEq)]
pub struct SplitRow {
    /// `FSDP 512 × TP 8`.
    pub label: String,
    /// Its crossover batch, or a dash when always comms-bound.
    pub crossover: String,
    /// The crossover, unrounded (empty when none).
    pub crossover_value: String,
    /// Whether it is the split shown.
    pub chosen: bool,
}

/// The training plan, as the page shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct TrainView {
    /// The strategy's name.
    pub strategy: &'static str,
    /// The degrees and the axes they span, and how they were chosen.
    pub degrees: String,
    /// Parameters.
    pub params: String,
    /// Per layer (the pass the chapter compares): T_math.
    pub layer_math: String,
    /// Per layer: T_comms, and its parts.
    pub layer_comms: String,
    /// Per step: compute at the MFU.
    pub step_compute: String,
    /// Per step: comms.
    pub step_comms: String,
    /// The per-step row in words: both times, at which MFU, and which of
    /// them sets the step (the step time is the larger).
    pub per_step: String,
    /// `compute` or `comms`: the chapter's test, per layer at peak FLOP/s.
    pub bound: &'static str,
    /// The bound in words, with the comparison it rests on.
    pub bound_words: String,
    /// Tokens of the batch per chip.
    pub tokens_per_chip: String,
    /// The per-chip batch above which this split is compute-bound by the
    /// same test as [`TrainView::bound`], or why there is none.
    pub threshold: String,
    /// The chapter's X_opt for mixed FSDP + TP on these chips.
    pub x_opt: String,
    /// The chapter's per-chip threshold for FSDP + TP at X_opt,
    /// α² / (M_X·M_Y·F), with the chapter's M_X = axes − 1 and M_Y = 1.
    pub threshold_opt: String,
    /// The chapter's conditions with the numbers, a sentence each.
    pub conditions: Vec<String>,
    /// Memory per chip, by kind: (label, bytes).
    pub memory: Vec<(&'static str, String)>,
    /// Memory per chip in all, against HBM.
    pub memory_total: String,
    /// `yes` or `no`.
    pub fits: &'static str,
    /// The fewest chips by memory.
    pub min_chips: String,
    /// Training FLOPs over the budget.
    pub flops: String,
    /// The step time.
    pub step_time: String,
    /// Days for the budget, and if compute-bound.
    pub days: String,
    /// The plan the chapter would choose, a sentence a step.
    pub plan: Vec<String>,
    /// Notes: what the page assumes, where the book contradicts itself.
    pub notes: Vec<String>,
    /// The training roofline for the split shown.
    pub roofline: Vec<RooflinePoint>,
    /// Its crossover, in words.
    pub crossover: String,
    /// Every split.
    pub splits: Vec<SplitRow>,
}

type Err = (&'static str, String);

/// A run's length in days with 3 significant digits (`44.7 days`), whole
/// beyond a thousand, in the book's scientific form beyond a billion; under
/// a hundredth of a day, as a time (`105 µs`), not a long decimal.
fn days_text(d: f64) -> String {
    if d.abs() < 0.01 {
        format::seconds(d * 86_400.0)
    } else if d.abs() < 1000.0 {
        format!("{} days", format::sig(d, 3))
    } else {
        format!("{} days", count(d))
    }
}

/// `a` and `b` as bytes, with the digits it takes to tell them apart when
/// they differ: `96.04 GB` against `96 GB`, where three digits would show
/// `96 GB` against `96 GB` beside a verdict that they differ.
fn bytes_apart(a: f64, b: f64) -> (String, String) {
    let (sa, sb) = (format::bytes(a), format::bytes(b));
    if sa != sb || a == b {
        return (sa, sb);
    }
    let (scale, unit) = [(1e12, "TB"), (1e9, "GB"), (1e6, "MB"), (1e3, "kB")]
        .into_iter()
        .find(|(scale, _)| b.abs() >= *scale)
        .unwrap_or((1.0, "bytes"));
    for digits in 4..=9 {
        let (ta, tb) = (
            format::sig(a / scale, digits),
            format::sig(b / scale, digits),
        );
        if ta != tb {
            return (format!("{ta} {unit}"), format!("{tb} {unit}"));
        }
    }
    (sa, sb)
}

/// The training view of state `s` on `links` and `chip`, for `model`.
pub fn train_view(
    s: &ScaleState,
    links: &MeshLinks,
    chip: &Chip,
    model: &ModelConfig,
    values: &mut Vec<(&'static str, String)>,
) -> Result<TrainView, Err> {
    super::input::check(s)?;
    model.check().map_err(|e| ("model", e.to_string()))?;
    let c = chip
        .peak(DType::Bf16)
        .map_err(|e| ("train", e.to_string()))?;
    let hbm = chip
        .level(LevelKind::Hbm)
        .ok()
        .and_then(|l| l.capacity)
        .unwrap_or(0.0);
    // The training's W. On a TPU mesh every axis is ICI, and each axis a
    // degree spans adds its links (M). A mesh that joins different links
    // (a GPU's NVLink within a node, InfiniBand across) is bound by the
    // slower, whose chips share it within a node: the GPU chapter's
    // W_node egress, a GPU's InfiniBand × the node's GPUs (8 × 50 GB/s =
    // 400 GB/s on H100), and its axes count as one (M = 1).
    // Axes of one chip carry nothing (no neighbour): W and M count the
    // others, as the collectives do.
    let all = super::coll::carrying(&links.axes.iter().collect::<Vec<_>>());
    let first = *all
        .first()
        .ok_or(("mesh", "the mesh has no axis".to_string()))?;
    let mixed = super::coll::node_pace(&all);
    let uniform = mixed.is_none();
    // On one kind of link an axis that wraps moves twice what a line does:
    // W is the axes' mean, so that a degree over all of them gets their
    // sum, M·W (the collective's "W in all").
    let mean = all.iter().map(|a| a.per_chip()).sum::<f64>() / all.len() as f64;
    let (axis, w, node) = match mixed {
        // The node's chips share W only when the slower link sets it.
        Some(p) if p.w != p.slow.per_chip() => (p.slow, p.w, p.node),
        Some(p) => (p.slow, p.w, 1.0),
        None => (first, mean, 1.0),
    };
    // Axes that do not add up count as one: M is 1 whatever the degree.
    let sizes: Vec<u64> = if uniform {
        all.iter().map(|a| a.size).collect()
    } else {
        vec![links.mesh.chips() as u64]
    };
    let n = links.mesh.chips();
    let strat = s.strat;
    let pods = if strat == Strategy::Pods { s.pods } else { 1.0 };
    let w_dcn = links.dcn.unwrap_or(0.0);
    if strat == Strategy::Pods && pods > 1.0 && w_dcn <= 0.0 {
        return Err((
            "pods",
            format!("{} lists no DCN bandwidth to join pods", chip.name),
        ));
    }
    let b = s.tokens;
    let base = LayerInput {
        batch: b,
        d: model.d_model,
        f: model.d_ff,
        c,
        w,
        x: n,
        y: 1.0,
        mx: sizes.len() as f64,
        my: 0.0,
        pods,
        w_dcn: if w_dcn > 0.0 { w_dcn } else { f64::MAX },
    };
    let plan = choose(&base, &sizes, n, pods);
    let (dx, dy) = match strat {
        Strategy::Dp | Strategy::Fsdp => (n, 1.0),
        Strategy::Tp => (1.0, n),
        Strategy::Mixed | Strategy::Pods => (plan.x, plan.y),
        Strategy::Pp => {
            let stages = [4.0, 2.0, 1.0]
                .into_iter()
                .find(|k| n % k == 0.0)
                .unwrap_or(1.0);
            (stages, n / stages)
        }
    };
    // One degree given: the other fills the mesh (or stays 1 where the
    // strategy has no such degree).
    let uses_y = !matches!(strat, Strategy::Dp | Strategy::Fsdp);
    // DP and FSDP have no TP degree: a Y left from another strategy is
    // not used (the notes say so), by the comms, the math or the memory.
    let set_y = if uses_y { s.y } else { None };
    let (x, y) = match (s.x, set_y) {
        (Some(x), Some(y)) => (x, y),
        (Some(x), None) if uses_y => (x, (n / x).floor().max(1.0)),
        (Some(x), None) => (x, 1.0),
        (None, Some(y)) if strat == Strategy::Tp => (1.0, y),
        (None, Some(y)) => ((n / y).floor().max(1.0), y),
        (None, None) => (dx, dy),
    };
    if x * y > n {
        return Err((
            "x",
            format!("X·Y = {} chips; the mesh has {}", count(x * y), count(n)),
        ));
    }
    let derived = match strat {
        Strategy::Pp => axes_spanned(&sizes, y, x),
        _ => axes_spanned(&sizes, x, y),
    };
    let (mx, my) = match strat {
        Strategy::Pp => (derived.0, 0.0),
        _ => derived,
    };

    let mx = s.mx.unwrap_or(mx);
    let my = s.my.unwrap_or(my);
    let i = LayerInput {
        x,
        y,
        mx,
        my,
        ..base
    };
    let per_layer = layer(strat, &i);
    // X_opt and its threshold are the chapter's FSDP + TP optimum for these
    // chips whatever split is shown: FSDP over all axes but one, TP over
    // that one (M_X·M_Y = 2 on a 3-D mesh), as the plan below takes them.
    let opt = optimum(&i, sizes.len(), n);
    let k = super::train::Conditions {
        x_opt: opt.x_opt,
        mixed_threshold: opt.mixed_threshold,
        ..conditions(&i)
    };
    let bound = if per_layer.comms_bound() {
        "comms"
    } else {
        "compute"
    };
    let params = model.params();
    // A token's FLOPs touch k of a mixture's E experts: 6 · P_active a
    // token (all of P for a dense model); memory holds every expert.
    let active = model.active_params();
    let chips_used = if strat == Strategy::Pp {
        n * pods
    } else {
        x * y * pods
    };
    let seqs = b / s.seq;
    let microbatches = (seqs / y.max(1.0)).floor().max(1.0);
    let step_comms = if strat == Strategy::Pp {
        // A stage holds L/X layers; its activations cross to the next stage
        // in N_MB + X − 2 hops of 2·B·D/(Y·N_MB) bytes a hop, forward and
        // backward (the GPU chapter's count), over one axis's W.
        let hops = microbatches + x - 2.0;
        let pipe = 2.0 * hops.max(0.0) * 2.0 * b * model.d_model / (y.max(1.0) * w * microbatches);
        per_layer.t_comms() * model.layers / x.max(1.0) + pipe
    } else {
        per_layer.t_comms() * per_layer.passes * model.layers
    };
    // Pipelining idles each stage for the bubble, (X − 1)/(N_MB + X − 1) of
    // a step (GPipe/1F1B): its chips do the step's math at that much less
    // than the MFU.
    let bubble = if strat == Strategy::Pp {
        (x - 1.0).max(0.0) / (microbatches + x - 1.0).max(1.0)
    } else {
        0.0
    };
    let rt = run_time(
        active,
        b,
        s.budget,
        chips_used,
        c,
        s.mfu * (1.0 - bubble),
        step_comms,
    );
    // A chip holds its pod's batch; the run holds every pod's.
    let held = MemoryInput {
        params,
        layers: model.layers,
        d: model.d_model,
        batch: b / pods,
        ckpt: s.ckpt,
        strategy: strat,
        zero: s.zero,
        x,
        y,
        pods: 1.0,
    };
    let mem = memory(&held);
    let per_chip = mem.per_chip();
    let fits = if hbm > 0.0 && per_chip <= hbm {
        "yes"
    } else {
        "no"
    };
    // The fewest chips hold the whole run: every pod's batch, not one's.
    let min = min_chips(&memory(&MemoryInput { batch: b, ..held }), hbm);
    let thr = split_threshold(strat, &i, chips_used);
    values.push(("train-params", raw(params)));
    values.push(("train-flops", raw(rt.flops)));
    values.push(("train-days", raw(rt.days)));
    values.push(("train-step-time", raw(rt.step)));
    // Which sets the step at the MFU: the larger of the two.
    values.push((
        "train-per-step",
        if rt.step_compute >= rt.step_comms {
            "compute"
        } else {
            "comms"
        }
        .to_string(),
    ));
    values.push(("train-tokens-per-chip", raw(b / chips_used)));
    values.push(("train-threshold", thr.map_or_else(String::new, raw)));
    values.push(("train-bound", bound.to_string()));
    values.push(("train-x-opt", raw(k.x_opt)));
    values.push(("train-threshold-opt", raw(k.mixed_threshold)));
    values.push(("train-memory", raw(per_chip)));
    values.push(("train-fits", fits.to_string()));
    values.push(("train-min-chips", raw(min)));

    let facts = Facts {
        k,
        c,
        w,
        w_dcn,
        axis_name: axis.name,
        axis_kind: axis.kind,
        node,
        wraps: axis.wraps,
        b,
        x,
        y,
        mx,
        my,
        pods,
        n,
        seq: s.seq,
        seqs,
        microbatches,
        chips_used,
        plan_chips: plan.chips,
        strat,
        set_axes: s.mx.is_some() || s.my.is_some(),
        v5p: chip.id == "v5p",
    };
    let mut conds = conditions_words(&facts);
    if uniform && all.iter().any(|a| a.per_chip() != first.per_chip()) {
        let each: Vec<String> = all
            .iter()
            .map(|a| {
                format!(
                    "{}'s {} {}",
                    a.name,
                    format::bandwidth(a.per_chip()),
                    if a.wraps {
                        "(both ways: it wraps)"
                    } else {
                        "(one way)"
                    }
                )
            })
            .collect();
        conds[0] = format!(
            "α = C / W_ici = {} / {} = {}. W is the mean of the axes' {} per chip, {}: a degree over all of them moves their sum, {}; one over some of them is counted at the mean.",
            format::flops_rate(c),
            format::bandwidth(w),
            count(k.alpha),
            first.kind,
            super::words::listed(&each),
            format::bandwidth(w * all.len() as f64)
        );
    }
    let mut notes = notes(&facts);
    if let Some(unused) = s.y.filter(|y| !uses_y && *y != 1.0) {
        notes.push(format!(
            "Y = {} is not used: {} has no tensor parallelism, so Y is 1 (mixed FSDP + TP uses both degrees).",
            count(unused),
            strat.name()
        ));
    }
    if let Some(p) = mixed {
        notes.push(format!(
            "This mesh joins different links: {}, with the axes counted as one (M = 1).",
            super::coll::pace_words(&p, &all)
        ));
    }
    let moe_factor = model.experts / model.active.max(1.0);
    if model.is_moe() {
        notes.push(format!(
            "A mixture of experts: the per-layer test takes a layer as one expert's MLP (D, F), the chapter's dense layer, and the bound above uses it; the FLOPs count the {} experts a token uses (6 · P_active · tokens), the memory all {}. With every expert's weights gathered and k experts' math, the GPU chapter puts a mixture's DP and FSDP threshold E/k = {}× the dense one's: {} tokens a chip, against {} here, by which the batch is {}. Sharding the experts themselves is Part 7's expert parallelism.",
            count(model.active),
            count(model.experts),
            format::sig(moe_factor, 3),
            count(k.dp_threshold * moe_factor),
            count(b / chips_used),
            if b / chips_used > k.dp_threshold * moe_factor {
                "above it"
            } else {
                "below it: comms-bound by that estimate"
            }
        ));
    }
    // The bound is the chapter's test at peak FLOP/s; the step runs at the
    // MFU. Say so where the two rows beside each other point different ways.
    if per_layer.comms_bound() && rt.step_compute >= rt.step_comms {
        notes.push(format!(
            "At peak FLOP/s a layer's comms outlast its math: the chapter's test, on its layer of two D × F matrices, calls it comms-bound. The step's compute counts the whole model's FLOPs (6 · P_active · B: attention, a gated MLP's third matrix, every active expert) at {} MFU, and takes longer than the comms, which hide behind it: the compute sets the step.",
            format::percent(s.mfu)
        ));
    } else if !per_layer.comms_bound() && rt.step_comms > rt.step_compute {
        notes.push(format!(
            "A layer's math outlasts its comms at peak FLOP/s, but the step's comms ({}) take longer than its compute at {} MFU: they set the step.",
            format::seconds(rt.step_comms),
            format::percent(s.mfu)
        ));
    }
    let split = LayerInput {
        x: if strat == Strategy::Pods || strat == Strategy::Mixed {
            x
        } else {
            plan.x
        },
        y: if strat == Strategy::Pods || strat == Strategy::Mixed {
            y
        } else {
            plan.y
        },
        ..base
    };
    let (smx, smy) = axes_spanned(&sizes, split.x, split.y);
    let split = LayerInput {
        mx: smx,
        my: smy,
        ..split
    };
    // A crossover is a pod's batch (the FSDP groups are a pod's): across
    // pods it is the whole batch, every pod's, and DCN's C / W_dcn tokens a
    // pod binds it too.
    let whole = |v: f64| {
        if pods > 1.0 {
            v.max(k.dcn_threshold) * pods
        } else {
            v
        }
    };
    let cross = crossover(&split).map(whole);
    // The splits of the chips the split shown uses (8192 of 8960 for
    // the chapter's LLaMA-3 plan), so that it is one of them.
    let mut all_splits = splits(&base, &sizes, split.x * split.y);
    // A split whose X is no power of two (FSDP over 8960 chips) is a row
    // too, first, so that the split shown is always in the table.
    if !all_splits
        .iter()
        .any(|sp| sp.x == split.x && sp.y == split.y)
    {
        all_splits.insert(
            0,
            super::plan::Split {
                x: split.x,
                y: split.y,
                mx: split.mx,
                my: split.my,
                crossover: crossover(&split),
            },
        );
    }
    let rows = all_splits
        .into_iter()
        .map(|sp| {
            let c = sp.crossover.map(whole);
            SplitRow {
                label: format!("FSDP {} × TP {}", count(sp.x), count(sp.y)),
                crossover: c.map_or(format::MISSING.to_string(), count),
                crossover_value: c.map_or_else(String::new, raw),
                chosen: sp.x == split.x && sp.y == split.y,
            }
        })
        .collect();
    let mem_rows = vec![
        ("parameters (bf16)", format::bytes(mem.params)),
        ("gradients (bf16)", format::bytes(mem.grads)),
        ("optimizer (Adam, fp32)", format::bytes(mem.optimizer)),
        ("checkpoints", format::bytes(mem.checkpoints)),
    ];
    let mut plan_words = plan.words.clone();
    plan_words.push(format!(
        "The plan: {} with X = {}, Y = {} on {}, {}.",
        plan.strategy.name(),
        count(plan.x),
        count(plan.y),
        super::words::chips(plan.chips),
        if plan.compute_bound {
            "compute-bound"
        } else {
            "comms-bound"
        }
    ));
    // The chapter asks whether a plan fits before its comms; the plan
    // above weighs the comms alone.
    if fits == "no" && hbm > 0.0 && min.is_finite() {
        let (held, room) = bytes_apart(per_chip, hbm);
        plan_words.push(format!(
            "It weighs the comms, not memory: as set, {held} a chip does not fit {room} of HBM; with every state split over the chips (ZeRO-3) the run fits on {} or more (the fewest chips, below).",
            super::words::chips(min)
        ));
    }
    Ok(TrainView {
        tokens_per_chip: count(b / chips_used),
        threshold: match thr {
            Some(v) if v > 0.0 => count(v),
            Some(_) => "0: compute-bound at any batch".to_string(),
            None => format!(
                "none: TP's Y = {} is past its limit M_Y·F / α = {}",
                count(y),
                format::sig(k.tp_limit, 3)
            ),
        },
        x_opt: count(k.x_opt),
        threshold_opt: count(k.mixed_threshold),
        strategy: strat.name(),
        degrees: if strat == Strategy::Pp {
            format!(
                "X = {}, each Y = {} in data parallelism (over M = {}){}",
                super::words::counted(x, "stage", "stages"),
                super::words::chips(y),
                super::words::axes(mx),
                if s.x.is_none() && s.y.is_none() {
                    "; derived from the mesh"
                } else {
                    ""
                }
            )
        } else {
            format!(
                "X = {} (M_X = {}), Y = {} (M_Y = {}){}",
                count(x),
                super::words::axes(mx),
                count(y),
                count(my),
                if s.x.is_none() && s.y.is_none() {
                    "; derived from the mesh"
                } else {
                    ""
                }
            )
        },
        params: if model.is_moe() {
            format!(
                "{} ({}); {} active ({}: {} of {} experts a token), which the FLOPs use",
                count(params),
                crate::model::params_text(params),
                count(active),
                crate::model::params_text(active),
                count(model.active),
                count(model.experts)
            )
        } else {
            format!("{} ({})", count(params), crate::model::params_text(params))
        },
        layer_math: format::seconds(per_layer.t_math),
        layer_comms: match strat {
            // DP's and a pipeline stage's comms are the gradients'
            // AllReduce, neither FSDP's gathers nor TP's.
            Strategy::Dp | Strategy::Pp => format!(
                "{} (the gradients' AllReduce)",
                format::seconds(per_layer.t_comms())
            ),
            _ => format!(
                "{} (FSDP {}, TP {}, DCN {})",
                format::seconds(per_layer.t_comms()),
                format::seconds(per_layer.t_fsdp),
                format::seconds(per_layer.t_tp),
                format::seconds(per_layer.t_dcn)
            ),
        },
        step_compute: format::seconds(rt.step_compute),
        step_comms: format::seconds(rt.step_comms),
        per_step: format!(
            "{} / {} at {} MFU{}: the {} the step",
            format::seconds(rt.step_compute),
            format::seconds(rt.step_comms),
            format::percent(s.mfu),
            if bubble > 0.0 {
                format!(", less a {} pipeline bubble", format::percent(bubble))
            } else {
                String::new()
            },
            if rt.step_compute >= rt.step_comms {
                "compute sets"
            } else {
                "comms set"
            }
        ),
        bound,
        bound_words: if per_layer.comms_bound() {
            "comms: per layer at peak FLOP/s, T_comms > T_math".to_string()
        } else {
            "compute: per layer at peak FLOP/s, T_math ≥ T_comms".to_string()
        },
        conditions: conds,
        memory: mem_rows,
        memory_total: if hbm > 0.0 {
            let (held, room) = bytes_apart(per_chip, hbm);
            format!("{held} a chip of {room} HBM")
        } else {
            format!(
                "{} a chip of {} HBM",
                format::bytes(per_chip),
                format::MISSING
            )
        },
        fits,
        min_chips: count(min),
        flops: format::flops(rt.flops),
        step_time: format::seconds(rt.step),
        days: format!(
            "{} ({} if compute-bound)",
            days_text(rt.days),
            days_text(rt.days_compute)
        ),
        plan: plan_words,
        notes,
        roofline: roofline(&split),
        crossover: format!(
            "{}{}",
            // The chart and the table walk FSDP × TP splits: under another
            // strategy, the plan's.
            if strat == Strategy::Pods || strat == Strategy::Mixed {
                String::new()
            } else {
                format!(
                    "the plan's FSDP {} × TP {}: ",
                    count(split.x),
                    count(split.y)
                )
            },
            match cross {
                Some(v) if v > 0.0 => format!("compute-bound above {} tokens", count(v)),
                Some(_) => "compute-bound at any batch".to_string(),
                None => "comms-bound at any batch: TP beyond its limit".to_string(),
            }
        ),
        splits: rows,
    })
}
