//! Part 6's second worked problem: LLaMA-3-405B, its parameters and
//! FLOPs, and training it on eight v5p pods. The book gives no answer: the
//! app's, worked by the Scale page's plan ([`crate::scale::choose`]) on
//! the chapter's batch of 4M tokens, which the problem does not fix.

use crate::format::{count, sci, sig};
use crate::quiz::answer::Unit;
use crate::quiz::{Part, Question, ScaleSetup};
use crate::scale::{axes_spanned, choose, layer, LayerInput, ScaleState, Strategy};
use crate::CoreError;

use super::feedback::Era;
use super::helpers::question;
use super::models::count_text;
use super::part6::{pick_of, source_of, val, POD_BATCH, POD_MESH};
use super::scales::{
    apart, bound_options, links, model_calc, opens_scale, preset_state, train_state,
};
use super::{invalid, Draw};

const C: f64 = 4.59e14;
const W: f64 = 1.8e11;

fn two_flops() -> String {
    "That counts 2 FLOPs per parameter per token, the forward pass; training adds the backward pass's 4: 6 in all.".to_string()
}

/// Worked problem 2: LLaMA-3-405B's parameters and FLOPs (part (a)) and
/// its training on eight pods (part (b)). The book gives no answer: the
/// app's.
pub(super) fn p6_q2(d: &mut Draw) -> Result<Question, CoreError> {
    let (ms, m) = preset_state("llama31-405b")?;
    let pods = d.pick(8.0, &[4.0, 8.0, 16.0]);
    let batch = d.pick(POD_BATCH, &[POD_BATCH, 8_388_608.0, 16_777_216.0]);
    let mfu = d.pick(0.4, &[0.3, 0.4, 0.5]);
    let s = ScaleState {
        pods,
        mfu,
        ..train_state(POD_MESH, batch, 4096.0, Strategy::Pods)
    };
    let (l, dm, f, n, k, h) = (m.layers, m.d_model, m.d_ff, m.heads, m.kv_heads, m.head_dim);
    let params = val(&s, &m, "train-params")?;
    let total = val(&s, &m, "train-flops")?;
    let per_token = total / s.budget;
    let thr = val(&s, &m, "train-threshold-opt")?;
    let per_chip = val(&s, &m, "train-tokens-per-chip")?;
    let bound = pick_of(&s, &m, "train-bound", "compute")?;
    let days = val(&s, &m, "train-days")?;
    let step = val(&s, &m, "train-step-time")?;
    let w_dcn = links("v5p", POD_MESH)?
        .dcn
        .ok_or_else(|| invalid("no DCN"))?;
    let need = C / w_dcn;
    let per_pod = batch / pods;
    let dcn_bound = usize::from(per_pod <= need);
    let alpha = C / W;
    // The page's plan, as its training view makes it: the split in each
    // pod, and the layer's times with it.
    let base = LayerInput {
        batch,
        d: m.d_model,
        f: m.d_ff,
        c: C,
        w: W,
        x: 8960.0,
        y: 1.0,
        mx: 3.0,
        my: 0.0,
        pods,
        w_dcn,
    };
    let plan = choose(&base, &[16, 20, 28], 8960.0, pods);
    let (px, py) = (plan.x, plan.y);
    let (smx, smy) = axes_spanned(&[16, 20, 28], px, py);
    let t = layer(
        Strategy::Pods,
        &LayerInput {
            x: px,
            y: py,
            mx: smx,
            my: smy,
            ..base
        },
    );
    let us = |x: f64| crate::format::seconds(x);
    let mxy = alpha * alpha / (thr * f);
    let attn = l * (2.0 * dm * n * h + 2.0 * dm * k * h);
    let full = 4.0 * l * dm * n * h;
    let all = total / (pods * 8960.0 * C * mfu) / 86_400.0;
    // The step is the larger of the math at the MFU on the plan's chips
    // and the comms; at peak FLOPs a layer may be comms-bound (f) while
    // the slower math at the MFU still sets the step.
    let plan_chips = px * py * pods;
    let step_math = 6.0 * params * batch / (plan_chips * C * mfu);
    let math_sets_step = step <= step_math * 1.001;
    let all_chips = Era::new(
        format!("all {} chips of the pods", count(pods * 8960.0)),
        format!(
            "the app's plan uses the split's {} chips in each pod",
            count(px * py)
        ),
    );
    let day_eras = if math_sets_step && apart(days, all, 0.05)? {
        vec![(all, all_chips)]
    } else {
        Vec::new()
    };
    let parts = vec![
        Part::number(
            "a",
            "How many parameters does it have in all?".to_string(),
            Unit::None,
            0.02,
            (params, Vec::new()),
            "The gated MLP's 3LDF, attention with K and V on the KV heads only, and the two embeddings, 2VD.".to_string(),
            vec![
                format!("3LDF = 3 · {l} · {} · {} = {}.", count(dm), count(f), count_text(3.0 * l * dm * f)),
                format!("L·(2·D·N·H + 2·D·K·H) = {l} · (2 · {} · {n} · {h} + 2 · {} · {k} · {h}) = {}.", count(dm), count(dm), count_text(attn)),
                format!("2VD = {}; in all {} (the app's answer: the page adds the norms; the book gives none).", count_text(m.embedding_params()), count_text(params)),
            ],
        )
        .mistake_number(params - attn + full, format!("That counts full multi-head attention; grouped-query attention gives K and V only the K = {k} KV heads."))
        .mistake_number(params - m.embedding_params() / 2.0, "That counts one embedding matrix; the input and output ones are separate.".to_string())
        .mistake_number(params - l * dm * f, "That counts two MLP matrices; the gated MLP has three: gate, up and down.".to_string()),
        Part::number(
            "b",
            "How many FLOPs does a training step spend per token?".to_string(),
            Unit::Flops,
            0.02,
            (per_token, Vec::new()),
            "About 6 FLOPs per parameter per token: 2 forward, 4 backward.".to_string(),
            vec![format!("6 · {} = {} FLOPs a token.", sci(params), sci(per_token))],
        )
        .mistake_number(per_token / 3.0, two_flops()),
        Part::number(
            "c",
            "How many FLOPs over 15T tokens (e.g. 1e25)?".to_string(),
            Unit::None,
            0.02,
            (total, Vec::new()),
            "FLOPs a token times the tokens.".to_string(),
            vec![format!("{} · 1.5e13 = {} FLOPs.", sci(per_token), sci(total))],
        )
        .mistake_number(total / 3.0, two_flops()),
        Part::choice(
            "d",
            format!(
                "Data parallelism across the {} pods sends the gradients over DCN ({w_dcn:e} bytes/s a chip). With {} tokens a pod, is that AllReduce compute-bound or comms-bound?",
                count(pods),
                count(per_pod)
            ),
            bound_options(),
            dcn_bound,
            "The tokens a pod must exceed C / W_dcn.".to_string(),
            vec![format!("C / W_dcn = 4.59e14 / {w_dcn:e} = {}; {} tokens a pod {} it.", count(need), count(per_pod), if dcn_bound == 0 { "exceed" } else { "do not exceed" })],
        )
        .mistake_choice(1 - dcn_bound, "The DCN condition is on the tokens a pod, B / pods > C / W_dcn; the tokens a chip are for the ICI's conditions.".to_string()),
        Part::number(
            "e",
            "Inside each pod, FSDP + TP: compute-bound above how many tokens a chip?".to_string(),
            Unit::None,
            0.02,
            (thr, Vec::new()),
            "α² / (M_X·M_Y·F), α = C / W_ici = 2550, M_X·M_Y the axes the two strategies span.".to_string(),
            vec![
                format!("{}² / ({} · {}) = {} tokens a chip (M_X·M_Y = {} for the plan's split).", count(alpha), sig(mxy, 2), count(f), count(thr), sig(mxy, 2)),
                format!("Pure FSDP would need α / 3 = {}: far more.", count(alpha / 3.0)),
            ],
        )
        .mistake_number(2.0 * alpha * alpha / f, "That is 2·α²/F, the formula older copies of the chapter printed; the current text has α²/(2F).".to_string())
        .mistake_number(alpha / 3.0, "That is pure FSDP's threshold, α / M_X; mixing in TP lowers it to α² / (M_X·M_Y·F).".to_string()),
        Part::choice(
            "f",
            format!(
                "The plan splits each pod FSDP {} × TP {} and gives each chip {} tokens. At peak FLOPs, is a layer compute-bound or comms-bound?",
                count(px),
                count(py),
                count(per_chip)
            ),
            bound_options(),
            bound,
            "Both conditions must hold: DCN across pods (d) and the ICI inside each (e).".to_string(),
            vec![
                format!(
                    "The plan splits each pod FSDP {} × TP {} ({} chips): {} tokens a chip {} {}, and DCN {}.",
                    count(px),
                    count(py),
                    count(px * py),
                    count(per_chip),
                    if per_chip > thr { ">" } else { "≤" },
                    count(thr),
                    if dcn_bound == 0 { "keeps up" } else { "does not" },
                ),
                format!(
                    "The threshold holds at X_opt; with the powers of two, a layer's backward takes {} of math against {} for FSDP's gathers, {} for TP's and {} over DCN: {}.",
                    us(t.t_math),
                    us(t.t_fsdp),
                    us(t.t_tp),
                    us(t.t_dcn),
                    if bound == 0 { "compute-bound" } else { "comms-bound: the batch is too small for so many chips" }
                ),
            ],
        )
        .mistake_choice(
            1 - bound,
            if bound == 1 && per_chip > thr {
                "The threshold of (e) holds only at X = X_opt; the plan's power-of-two split leaves the gathers longer than the math, so the comms bind.".to_string()
            } else {
                "Check both: the tokens a pod against C / W_dcn, and the tokens a chip against the mixed threshold of (e).".to_string()
            },
        ),
        Part::number(
            "g",
            format!("Roughly how many days for 15T tokens at {}% MFU (the app's plan)?", sig(mfu * 100.0, 2)),
            Unit::None,
            0.05,
            (days, day_eras),
            "A step takes the longer of its math at the MFU, 6·P·batch ÷ (chips · C · MFU), and its comms; days = steps × step.".to_string(),
            vec![
                format!("The Scale page's plan: {} pods, FSDP + TP inside each ({} chips a pod), data parallelism over DCN between them.", count(pods), count(px * py)),
                if math_sets_step {
                    format!(
                        "At {}% MFU the math takes {} a step, longer than the comms{}: {} FLOPs over {} chips gives {} days (the app's answer; the book gives none).",
                        sig(mfu * 100.0, 2),
                        crate::format::seconds(step_math),
                        if bound == 0 { "" } else { " (which bind only at peak FLOPs, part (f))" },
                        sci(total),
                        count(plan_chips),
                        sig(days, 3)
                    )
                } else {
                    format!("The comms take {} a step, longer than the math at {}% MFU ({}), × {} steps: {} days (the app's answer; the book gives none).", crate::format::seconds(step), sig(mfu * 100.0, 2), crate::format::seconds(step_math), count(s.budget / batch), sig(days, 3))
                },
            ],
        )
        .mistake_number(days / 3.0, "That counts 2 FLOPs per parameter per token; training is 6.".to_string())
        .mistake_number(days * pods, "That is one pod's time; the pods share the batch.".to_string()),
    ];
    let q = question(
        "p6-q2",
        &source_of(2, true),
        format!(
            "LLaMA-3-405B (its config: L = {l}, D = {}, F = {}, N = {n}, K = {k}, H = {h}, V = {}; gated MLP, separate embeddings) trains on {} v5p pods of 8960 chips. The problem fixes no batch: the app takes {} tokens (the chapter's is 4M).",
            count(dm), count(f), count(m.vocab), count(pods), sci(batch)
        ),
        parts,
        model_calc("v5p", &m),
    )?;
    Ok(opens_scale(q, ScaleSetup::new(s), Some(ms)))
}
