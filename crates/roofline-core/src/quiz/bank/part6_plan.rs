//! Part 6's questions on sharding LLaMA-3-70B over the v5p pod: FSDP alone
//! (with and without splitting sequences), FSDP + TP, and the worked
//! problem on four pods over DCN (the app's answer: the book gives none).

use crate::format::{count, sci, sig};
use crate::quiz::answer::Unit;
use crate::quiz::{Part, Question, ScaleSetup};
use crate::scale::{choose, conditions, LayerInput, ScaleState, Strategy};
use crate::CoreError;

use super::feedback::Era;
use super::helpers::question;
use super::part6::{pick_of, pod, source_of, val, POD_BATCH, POD_MESH};
use super::scales::{apart, bound_options, links, model_calc, opens_scale, train_state};
use super::{invalid, Draw};

const C: f64 = 4.59e14;
const W: f64 = 1.8e11;

/// The chapter's layer input on the pod: FSDP over all 8960 chips.
fn base(batch: f64, f: f64, d: f64, w_dcn: f64) -> LayerInput {
    LayerInput {
        batch,
        d,
        f,
        c: C,
        w: W,
        x: 8960.0,
        y: 1.0,
        mx: 3.0,
        my: 0.0,
        pods: 1.0,
        w_dcn,
    }
}

fn dcn() -> Result<f64, CoreError> {
    links("v5p", POD_MESH)?.dcn.ok_or_else(|| invalid("no DCN"))
}

/// Questions 7 and 8: FSDP alone, over sequences only and then over
/// tokens.
pub(super) fn p6_pop7(d: &mut Draw) -> Result<Question, CoreError> {
    let p = pod(d)?;
    let seq = d.pick(4096.0, &[2048.0, 4096.0, 8192.0]);
    let batch = d.pick(POD_BATCH, &[2_097_152.0, POD_BATCH, 6_291_456.0]);
    let s = train_state(POD_MESH, batch, seq, Strategy::Fsdp);
    let per_chip = val(&s, &p.m, "train-tokens-per-chip")?;
    let thr = val(&s, &p.m, "train-threshold")?;
    let bound = pick_of(&s, &p.m, "train-bound", "compute")?;
    let seqs = batch / seq;
    let alpha = C / W;
    let parts = vec![
        Part::number(
            "a",
            "Splitting whole sequences only, over how many chips at most can data parallelism (or FSDP) go?".to_string(),
            Unit::None,
            0.001,
            (seqs, Vec::new()),
            "Each chip needs at least one whole sequence.".to_string(),
            vec![format!("{} tokens ÷ {} a sequence = {} sequences: at most {} chips, far fewer than 8960.", sci(batch), count(seq), count(seqs), count(seqs))],
        )
        .mistake_number(batch / 8960.0, "That is the tokens each of 8960 chips would get; without splitting sequences a chip takes whole ones, so the chips are at most the sequences.".to_string()),
        Part::number(
            "b",
            "Splitting the sequences too (context parallelism), how many tokens does each of the 8960 chips get?".to_string(),
            Unit::None,
            0.05,
            (per_chip, Vec::new()),
            "Tokens are tokens to the MLP: divide the batch over every chip.".to_string(),
            vec![format!("{} ÷ 8960 = {} tokens a chip (the tolerance is 5%, for a batch of 4M read as 4e6).", sci(batch), count(per_chip))],
        ),
        Part::number(
            "c",
            "FSDP over the pod's three axes is compute-bound above how many tokens a chip?".to_string(),
            Unit::None,
            0.02,
            (thr, Vec::new()),
            "B/N > α / M_X, α = C / W_ici with W_ici both directions of a wrapped axis.".to_string(),
            vec![format!("α = 4.59e14 / 1.8e11 = {}; ÷ 3 axes = {}.", count(alpha), count(thr))],
        )
        .mistake_number(alpha, "That is one axis's α; over three axes FSDP has three axes' links: α / 3.".to_string())
        .mistake_number(2.0 * thr, "That uses one direction's 9e10 bytes/s; a wrapped axis sends both ways, 1.8e11.".to_string())
        .mistake_number(C / dcn()?, "That is C / W_dcn, the threshold across pods over DCN; inside the pod the links are ICI.".to_string()),
        Part::choice(
            "d",
            "So is pure FSDP on the pod compute-bound or comms-bound?".to_string(),
            bound_options(),
            bound,
            "Compare (b) with (c).".to_string(),
            vec![format!("{} {} {}: {}.", count(per_chip), if bound == 1 { "<" } else { ">" }, count(thr), if bound == 1 { "comms-bound, even with three axes" } else { "compute-bound" })],
        )
        .mistake_choice(1 - bound, "Compute-bound needs more tokens a chip than α / M_X.".to_string()),
    ];
    let q = question(
        "p6-pop7",
        &source_of(7, false),
        format!(
            "{} trains with a batch of {} tokens ({} sequences of {}) on the full v5p pod, 16×20×28 = 8960 chips (4.59e14 FLOPs/s, 1.8e11 bytes/s an axis both ways).",
            p.name, sci(batch), count(seqs), count(seq)
        ),
        parts,
        model_calc("v5p", &p.m),
    )?;
    Ok(opens_scale(q, ScaleSetup::new(s), Some(p.ms)))
}

/// Question 9: FSDP + TP: its threshold, X_opt and the split.
pub(super) fn p6_pop9(d: &mut Draw) -> Result<Question, CoreError> {
    let p = pod(d)?;
    let batch = d.pick(POD_BATCH, &[2_097_152.0, 3_145_728.0, POD_BATCH]);
    let w_dcn = dcn()?;
    let b = base(batch, p.m.d_ff, p.m.d_model, w_dcn);
    let plan = choose(&b, &[16, 20, 28], 8960.0, 1.0);
    if plan.strategy != Strategy::Mixed {
        return Err(invalid("FSDP alone is enough"));
    }
    let s = train_state(POD_MESH, batch, 4096.0, Strategy::Mixed);
    let thr = val(&s, &p.m, "train-threshold-opt")?;
    let page_x = val(&s, &p.m, "train-x-opt")?;
    let k = conditions(&LayerInput {
        mx: 2.0,
        my: 1.0,
        ..b
    });
    let f = p.m.d_ff;
    let alpha = C / W;
    let per_chip = batch / 8960.0;
    let page_era = Era::new(
        format!(
            "the Scale page's X_opt for the {} chips its plan uses",
            count(plan.chips)
        ),
        format!(
            "the book's N is the pod's 8960, which gives {}",
            count(k.x_opt)
        ),
    );
    let x_eras = if apart(k.x_opt, page_x, 0.03)? {
        vec![(page_x, page_era)]
    } else {
        Vec::new()
    };
    let parts = vec![
        Part::number(
            "a",
            "Mixed FSDP + TP is compute-bound above how many tokens a chip?".to_string(),
            Unit::None,
            0.02,
            (thr, Vec::new()),
            "B/N > α² / (M_X·M_Y·F), M_X·M_Y = 2 on a 3-D pod.".to_string(),
            vec![
                format!("{}² / (2 · {}) = {}; here {} tokens a chip: compute-bound.", count(alpha), count(f), count(thr), count(per_chip)),
                "Older copies of the chapter wrote 2·2550²/F; the current text has 2550²/(2F).".to_string(),
            ],
        )
        .mistake_number(2.0 * alpha * alpha / f, "That is 2·α²/F, the formula older copies of the chapter printed; the current text has α²/(2F).".to_string())
        .mistake_number(alpha * alpha / f, "That leaves out M_X·M_Y = 2.".to_string()),
        Part::number(
            "b",
            "What is X_opt = √((B/F)·(M_X/M_Y)·N), with N the pod's 8960 chips?".to_string(),
            Unit::None,
            0.03,
            (k.x_opt, x_eras),
            "M_X / M_Y = 2: FSDP spans two axes, TP one.".to_string(),
            vec![format!("√(2 · {} · 8960 / {}) = {}.", sci(batch), count(f), count(k.x_opt))],
        )
        .mistake_number(k.x_opt / 2f64.sqrt(), "That takes M_X / M_Y = 1; FSDP spans two axes and TP one: 2.".to_string()),
        Part::number(
            "c",
            "Rounded to a power of two, how much FSDP (X)?".to_string(),
            Unit::None,
            0.001,
            (plan.x, Vec::new()),
            "Take the power of two nearest X_opt on a log scale.".to_string(),
            vec![format!("log₂ {} = {}: X = {}.", count(k.x_opt), sig(k.x_opt.log2(), 3), count(plan.x))],
        ),
        Part::number(
            "d",
            "And how much TP (Y), the most that fits in 8960 chips with that X?".to_string(),
            Unit::None,
            0.001,
            (plan.y, Vec::new()),
            "Y is a power of two with X·Y ≤ 8960.".to_string(),
            vec![format!(
                "8960 / {} = {}: Y = {}, {} chips in all; TP's limit M_Y·F/α = {} allows it.",
                count(plan.x), sig(8960.0 / plan.x, 3), count(plan.y), count(plan.chips), sig(f / alpha, 3)
            )],
        )
        .mistake_number(2.0 * plan.y, format!("X·Y would be {} chips; the pod has 8960.", count(2.0 * plan.y * plan.x))),
    ];
    let q = question(
        "p6-pop9",
        &source_of(9, false),
        format!(
            "{} (F = {}) trains with a batch of {} tokens on the v5p pod of 8960 chips, mixing FSDP (X) and TP (Y).",
            p.name, count(f), sci(batch)
        ),
        parts,
        model_calc("v5p", &p.m),
    )?;
    Ok(opens_scale(q, ScaleSetup::new(s), Some(p.ms)))
}

/// Worked problem 1: four pods with the same batch, data parallelism over
/// DCN between them. The book gives no answer: the app's.
pub(super) fn p6_q1(d: &mut Draw) -> Result<Question, CoreError> {
    let p = pod(d)?;
    let pods = d.pick(4.0, &[2.0, 4.0, 8.0]);
    let s = ScaleState {
        pods,
        ..train_state(POD_MESH, POD_BATCH, 4096.0, Strategy::Pods)
    };
    let w_dcn = dcn()?;
    let need = C / w_dcn;
    let per_pod = POD_BATCH / pods;
    let dcn_bound = usize::from(per_pod <= need);
    let days = val(&s, &p.m, "train-days")?;
    let bound = pick_of(&s, &p.m, "train-bound", "compute")?;
    let params = val(&s, &p.m, "train-params")?;
    let step = val(&s, &p.m, "train-step-time")?;
    let steps = s.budget / POD_BATCH;
    let all = 6.0 * params * s.budget / (pods * 8960.0 * C * s.mfu) / 86_400.0;
    let takeaway = Era::new(
        "the chapter's takeaways' rounded 71,000".to_string(),
        format!("its text computes 4.59e14 / {w_dcn:e} = {}", count(need)),
    );
    let all_chips = Era::new(
        format!("all {} chips of the pods", count(pods * 8960.0)),
        "the app's plan uses the split's power-of-two chips in each pod".to_string(),
    );
    let day_eras = if apart(days, all, 0.05)? {
        vec![(all, all_chips)]
    } else {
        Vec::new()
    };
    let parts = vec![
        Part::number(
            "a",
            "Across pods the gradients' AllReduce crosses DCN. Each pod's tokens must exceed what, for it to stay compute-bound?".to_string(),
            Unit::None,
            0.02,
            (need, vec![(71_000.0, takeaway)]),
            "T_math = 8BDF/(N·C) against T_comms = 8DF/(M·W_dcn), M chips a pod, N in all.".to_string(),
            vec![
                "T_math > T_comms ⇔ B / (N/M) > C / W_dcn: the tokens a pod must exceed C / W_dcn.".to_string(),
                format!("4.59e14 / {w_dcn:e} (DCN egress a chip) = {}.", count(need)),
            ],
        )
        .mistake_number(w_dcn / C, "That turns the inequality round: the tokens a pod must exceed C / W_dcn, FLOPs a second over bytes a second.".to_string())
        .mistake_number(C / W, "That is the ICI's α; across pods the link is DCN, W_dcn = 6.25e9 bytes/s a chip.".to_string()),
        Part::choice(
            "b",
            format!("With {} tokens a pod, is the DCN AllReduce compute-bound or comms-bound?", count(per_pod)),
            bound_options(),
            dcn_bound,
            "Compare the tokens a pod, not a chip, with (a).".to_string(),
            vec![format!("{} {} {}.", count(per_pod), if dcn_bound == 0 { ">" } else { "≤" }, count(need))],
        )
        .mistake_choice(1 - dcn_bound, "The DCN condition is on the tokens a pod: B / pods > C / W_dcn. The tokens a chip are for the ICI's conditions.".to_string()),
        Part::number(
            "c",
            "Roughly how many days for 15T tokens at 40% MFU (the app's plan)?".to_string(),
            Unit::None,
            0.05,
            (days, day_eras),
            "Inside each pod FSDP + TP, as on one pod; if every bound is compute, days = 6·P·tokens ÷ (chips · C · MFU).".to_string(),
            vec![
                format!("The Scale page's plan: {} pods, FSDP + TP inside each; DCN keeps up, and the whole step is {}-bound.", count(pods), if bound == 0 { "compute" } else { "comms" }),
                if bound == 0 {
                    format!("6 · {} · 1.5e13 FLOPs over its chips at 40%: {} days (the app's answer; the book gives none).", sci(params), sig(days, 3))
                } else {
                    format!("Its step is set by the comms inside each pod, {} a step, × {} steps: {} days (the app's answer; the book gives none).", crate::format::seconds(step), count(steps), sig(days, 3))
                },
            ],
        )
        .mistake_number(days / 3.0, "That counts 2 FLOPs per parameter per token; training is 6.".to_string())
        .mistake_number(days * pods, "That is one pod's time; the pods share the batch.".to_string()),
    ];
    let q = question(
        "p6-q1",
        &source_of(1, true),
        format!(
            "{} trains on {} v5p pods of 8960 chips with the same batch of {} tokens, data parallelism over DCN ({w_dcn:e} bytes/s a chip) between pods.",
            p.name, count(pods), sci(POD_BATCH)
        ),
        parts,
        model_calc("v5p", &p.m),
    )?;
    Ok(opens_scale(q, ScaleSetup::new(s), Some(p.ms)))
}
