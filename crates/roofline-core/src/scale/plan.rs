//! Choosing a split: how many mesh axes each degree spans, the plan the
//! chapter would choose for a model, a batch and some chips (with its
//! reasoning), and the training-roofline figure's series: time per layer
//! against batch for one FSDP × TP split, and every split's crossover.
//!
//! **Axes a degree spans.** Tensor parallelism takes the mesh's axes from
//! the last one, as few as hold Y chips (M_Y; 0 when Y = 1); FSDP spans the
//! rest (M_X; at least 1 when X > 1). On a 16×16×16 pod this is the book's
//! script's ⌈log₁₆ n⌉ for Y, and it never counts more axes than the mesh
//! has: FSDP 512 × TP 8 there is M_X = 2, M_Y = 1 (the chapter's
//! M_X·M_Y = 2 for a 3-D mesh), where the script would count 3 + 1.

use super::train::{conditions, layer, Conditions, LayerInput, LayerTimes, Strategy};

/// M_X and M_Y on a mesh of `axes` sizes (in order) for degrees `x`, `y`.
pub fn axes_spanned(axes: &[u64], x: f64, y: f64) -> (f64, f64) {
    let total = axes.len() as f64;
    let mut my = 0.0;
    if y > 1.0 {
        let mut held = 1.0;
        for a in axes.iter().rev() {
            my += 1.0;
            held *= *a as f64;
            if held >= y {
                break;
            }
        }
    }
    let mx = if x > 1.0 { (total - my).max(1.0) } else { 0.0 };
    (mx, my)
}

/// The power of two nearest `v` on a log scale (at least 1).
pub fn nearest_pow2(v: f64) -> f64 {
    if !v.is_finite() || v <= 1.0 {
        return 1.0;
    }
    2f64.powi(v.log2().round().min(1000.0) as i32)
}

/// The largest power of two at most `v` (at least 1).
pub fn floor_pow2(v: f64) -> f64 {
    if !v.is_finite() || v < 2.0 {
        return 1.0;
    }
    2f64.powi(v.log2().floor().min(1000.0) as i32)
}

/// The chapter's axes for mixed FSDP + TP on a mesh of `axes` axes: FSDP
/// over all but one (at least one), TP over that one (M_X·M_Y = 2 on a 3-D
/// mesh).
pub fn chapter_axes(axes: usize) -> (f64, f64) {
    ((axes as f64 - 1.0).max(1.0), 1.0)
}

/// The chapter's FSDP + TP optimum (X_opt and its threshold) for `n` chips
/// on a mesh of `axes` axes, whatever split `i` shows.
pub fn optimum(i: &LayerInput, axes: usize, n: f64) -> Conditions {
    let (mx, my) = chapter_axes(axes);
    conditions(&LayerInput {
        x: n,
        y: 1.0,
        mx,
        my,
        ..*i
    })
}

/// The plan the chapter would choose.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The strategy.
    pub strategy: Strategy,
    /// FSDP degree.
    pub x: f64,
    /// TP degree.
    pub y: f64,
    /// Chips it uses (X·Y per pod × pods).
    pub chips: f64,
    /// Whether it is compute-bound.
    pub compute_bound: bool,
    /// The reasoning, a sentence a step.
    pub words: Vec<String>,
}

/// The chapter's choice for batch `b` tokens on `n` chips a slice (mesh
/// `axes`) and `pods` slices, for a layer of `base` (its batch, C, W, D,
/// F, DCN).
pub fn choose(base: &LayerInput, axes: &[u64], n: f64, pods: f64) -> Plan {
    use crate::format::count;
    let mut words = Vec::new();
    let all = axes.len() as f64;
    let per_chip = base.batch / (n * pods);
    let alpha = base.c / base.w;
    let fsdp_need = alpha / all.max(1.0);
    words.push(format!(
        "α = C / W = {}: {} a chip ({} of batch over {}).",
        count(alpha),
        super::words::counted(per_chip, "token", "tokens"),
        count(base.batch),
        super::words::chips(n * pods)
    ));
    let fsdp_over = if all > 1.0 {
        format!("FSDP over all {} axes", count(all))
    } else {
        "FSDP over the mesh's one axis".to_string()
    };
    let mut plan = if n * pods <= 1.0 {
        words.push(
            "One chip: no collectives, so it is compute-bound at any batch (memory is its limit)."
                .to_string(),
        );
        Plan {
            strategy: Strategy::Fsdp,
            x: 1.0,
            y: 1.0,
            chips: 1.0,
            compute_bound: true,
            words: Vec::new(),
        }
    } else if per_chip > fsdp_need {
        words.push(format!(
            "{fsdp_over} needs more than α / {} = {} tokens a chip, and has them: the chapter picks FSDP (ZeRO-3), the simplest plan that stays compute-bound.",
            count(all),
            count(fsdp_need)
        ));
        Plan {
            strategy: Strategy::Fsdp,
            x: n,
            y: 1.0,
            chips: n,
            compute_bound: true,
            words: Vec::new(),
        }
    } else {
        words.push(format!(
            "Pure FSDP would need more than α / {} = {} tokens a chip: it would be comms-bound.",
            count(all),
            count(fsdp_need)
        ));
        let (mx0, my0) = chapter_axes(axes.len());
        let k = optimum(&LayerInput { pods, ..*base }, axes.len(), n);
        let x = nearest_pow2(k.x_opt).min(floor_pow2(n));
        let y = floor_pow2(n / x);
        // A split's forward layer at a pod's batch, with the axes it spans.
        let at = |x: f64, y: f64| {
            let (mx, my) = axes_spanned(axes, x, y);
            layer(
                Strategy::Mixed,
                &LayerInput {
                    x,
                    y,
                    mx,
                    my,
                    pods,
                    ..LayerInput {
                        batch: base.batch / pods,
                        ..*base
                    }
                },
            )
        };
        let t = at(x, y);
        words.push(format!(
            "Mixed FSDP + TP is compute-bound above α² / (M_X·M_Y·F) = {} tokens a chip (M_X = {mx0}, M_Y = {my0}); the best FSDP degree is X_opt = √((B/F)·(M_X/M_Y)·N) = {}, rounded to the power of two {}, with TP {} (the largest power of two that fits): {} of the {} chips.",
            count(k.mixed_threshold),
            count(k.x_opt),
            count(x),
            count(y),
            count(x * y),
            count(n)
        ));
        // Where the rounded split is comms-bound, the other power-of-two
        // splits of the same chips (the table below), each with the axes
        // it really spans: a compute-bound one nearest X_opt, else the one
        // with the least comms.
        let (mut px, mut py, mut pt) = (x, y, t);
        if t.comms_bound() {
            let others: Vec<(f64, f64, LayerTimes)> = splits(base, axes, x * y)
                .iter()
                .map(|sp| (sp.x, sp.y, at(sp.x, sp.y)))
                .collect();
            let off = |sx: f64| (sx / k.x_opt.max(1.0)).log2().abs();
            let bound_free = others
                .iter()
                .filter(|o| !o.2.comms_bound())
                .min_by(|a, b| off(a.0).total_cmp(&off(b.0)));
            let least = others.iter().min_by(|a, b| a.2.t_ici.total_cmp(&b.2.t_ici));
            let why = format!(
                "in X = {}, Y = {}'s forward pass a layer's math takes {} against {} for FSDP's gathers and {} for TP's",
                count(x),
                count(y),
                crate::format::seconds(t.t_math),
                crate::format::seconds(t.t_fsdp),
                crate::format::seconds(t.t_tp)
            );
            let pick = match bound_free {
                Some(o) => {
                    words.push(format!(
                        "The powers of two move X off X_opt, and this split is comms-bound: {why}. The split X = {}, Y = {} (in the table below) is compute-bound at this batch: the plan takes it.",
                        count(o.0),
                        count(o.1)
                    ));
                    Some(*o)
                }
                None if per_chip <= k.mixed_threshold => {
                    words.push("Even so the batch is too small for these chips: every split is comms-bound. Fewer chips, or a larger batch, would be.".to_string());
                    least.copied()
                }
                None => {
                    words.push(format!(
                        "The powers of two move X off X_opt, and this split is comms-bound: {why}. No power-of-two split of these chips is compute-bound at this batch: a larger batch, or fewer chips, would be."
                    ));
                    least.copied()
                }
            };
            if let Some((ox, oy, ot)) = pick {
                if bound_free.is_none() && (ox, oy) != (x, y) {
                    words.push(format!(
                        "The split with the least comms, X = {}, Y = {} ({} against {} of math), is the plan.",
                        count(ox),
                        count(oy),
                        crate::format::seconds(ot.t_ici),
                        crate::format::seconds(ot.t_math)
                    ));
                }
                (px, py, pt) = (ox, oy, ot);
            }
        }
        Plan {
            strategy: Strategy::Mixed,
            x: px,
            y: py,
            chips: px * py,
            compute_bound: !pt.comms_bound(),
            words: Vec::new(),
        }
    };
    if pods > 1.0 {
        let k: Conditions = conditions(&LayerInput {
            x: plan.x,
            y: plan.y,
            pods,
            ..*base
        });
        words.push(format!(
            "Across {} pods the gradients cross DCN: compute-bound while the tokens a pod, {}, exceed C / W_dcn = {}{}.",
            count(pods),
            count(k.tokens_per_slice),
            count(k.dcn_threshold),
            if k.tokens_per_slice > k.dcn_threshold { " (they do)" } else { " (they do not: fewer pods)" }
        ));
        plan.strategy = Strategy::Pods;
        plan.chips *= pods;
        plan.compute_bound = plan.compute_bound && k.tokens_per_slice > k.dcn_threshold;
    }
    plan.words = words;
    plan
}

/// One point of the training roofline.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RooflinePoint {
    /// Tokens in the batch.
    pub batch: f64,
    /// The math's time per layer (forward), s.
    pub compute: f64,
    /// The comms' time per layer (forward): max(T_FSDP, T_TP), s.
    pub comms: f64,
}

/// Time per layer against batch from 10 to 1e8 tokens, 4 points a decade,
/// for the split `i` (its batch ignored).
pub fn roofline(i: &LayerInput) -> Vec<RooflinePoint> {
    (0..=28)
        .map(|k| {
            let batch = crate::num::pow10(1.0 + k as f64 / 4.0);
            let t = layer(Strategy::Mixed, &LayerInput { batch, ..*i });
            RooflinePoint {
                batch,
                compute: t.t_math,
                comms: t.t_ici,
            }
        })
        .collect()
}

/// The batch above which the split `i` is compute-bound (the comms line
/// crosses the compute line), or `None` when it never is (TP beyond its
/// limit). With no FSDP (X = 1) and TP within its limit, any batch is.
pub fn crossover(i: &LayerInput) -> Option<f64> {
    let k = conditions(i);
    if i.y > 1.0 && i.y >= k.tp_limit {
        return None;
    }
    if i.x > 1.0 {
        Some(i.x * k.alpha / i.mx.max(1.0))
    } else {
        Some(0.0)
    }
}

/// One FSDP × TP split of the slice.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Split {
    /// FSDP degree.
    pub x: f64,
    /// TP degree.
    pub y: f64,
    /// M_X.
    pub mx: f64,
    /// M_Y.
    pub my: f64,
    /// Its crossover batch.
    pub crossover: Option<f64>,
}

/// Every split of `n` chips with X a power of two dividing N (from X = N
/// down to 1), as the chapter's slider walks them, each with its crossover.
pub fn splits(base: &LayerInput, axes: &[u64], n: f64) -> Vec<Split> {
    let mut out = Vec::new();
    let mut x = floor_pow2(n);
    while x >= 1.0 && out.len() < 64 {
        if n % x == 0.0 {
            let y = n / x;
            let (mx, my) = axes_spanned(axes, x, y);
            let i = LayerInput {
                x,
                y,
                mx,
                my,
                ..*base
            };
            out.push(Split {
                x,
                y,
                mx,
                my,
                crossover: crossover(&i),
            });
        }
        x /= 2.0;
    }
    out
}
