//! The GPU chapter's LLM rooflines quiz (Part 12, Quiz 5, `p12-q5-…`):
//! the critical batches of a B200 SuperPod against an H100's, and how to
//! shard LLaMA-3-70B on H100s: memory, days, the most tensor parallelism,
//! and whether pure DP, ZeRO-3 or pipelining stays compute-bound, and
//! Megatron-LM's batches a GPU.
//!
//! A node's egress is its 8 GPUs' InfiniBand NICs (the presets' DCN level,
//! one NIC a GPU), as the chapter's table of node egress has it.

use crate::format::{count, sci, sig};
use crate::quiz::answer::Unit;
use crate::quiz::{CalcSetup, Part, Question, ScaleSetup};
use crate::scale::{run_time, ScaleState, Strategy, ADAM, BF16};
use crate::{CoreError, DType, LevelKind};

use super::feedback::Era;
use super::helpers::{matmul, question};
use super::scales::{
    bound_options, model_calc, opens_scale, page_value, preset_state, train_state, yes_no,
};
use super::setup::analysis;
use super::texts::{bw_text, rate_text};
use super::{invalid, Draw};

use DType::Bf16;
use LevelKind::{Dcn, Hbm, NvLink};

/// GPUs in a node (an HGX/DGX board), whose NICs make the node's egress:
/// the chapter's table of node egress bandwidth.
const NODE: f64 = 8.0;

fn source(n: u32) -> String {
    format!("Part 12, quiz 5, question {n}")
}

/// A bf16 matmul on `chip` at `level`: the calculator's critical
/// intensity there is the chip's peak over that link's bandwidth.
fn link_matmul(chip: &str, level: LevelKind) -> CalcSetup {
    CalcSetup::new(
        chip,
        &matmul(Bf16, Bf16, Bf16),
        &[("B", 4096.0), ("D", 8192.0), ("F", 28672.0)],
        level,
    )
}

/// A chip's dense bf16 peak, one GPU's NVLink and the node's egress.
fn rates(chip: &str) -> Result<(f64, f64, f64), CoreError> {
    let c = crate::hardware::preset(chip).ok_or_else(|| invalid("no such chip"))?;
    Ok((
        c.peak(Bf16)?,
        c.bandwidth(NvLink)?,
        NODE * c.bandwidth(Dcn)?,
    ))
}

fn sparse(chip: &str) -> Option<f64> {
    crate::hardware::preset(chip)?
        .peak_entry(Bf16)
        .and_then(|p| p.sparse)
}

/// Question 1: a B200 SuperPod's rooflines within and across nodes.
pub(super) fn p12_q5_1(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick("b200", &["b200", "b300", "h200"]);
    // The GPU it is set against: the book's H100, or an A100 (8 NICs of
    // 200 Gbps a node, the preset's DCN).
    let base = d.pick("h100", &["h100", "a100"]);
    let (c, w_gpu, w_node) = rates(chip)?;
    let (c0, _, w_node0) = rates(base)?;
    let base_name = link_matmul(base, Hbm).chip()?.name;
    let tp = analysis(&link_matmul(chip, NvLink))?.critical_intensity;
    let dp = c / w_node;
    let dp0 = c0 / w_node0;
    let ratio = dp / dp0;
    let name = link_matmul(chip, Hbm).chip()?.name;
    let mut a = Part::number(
        "a",
        "Within a node (tensor parallelism over NVLink), what is C / W, the critical intensity (Y < F / that)?".to_string(),
        Unit::FlopsPerByte,
        0.02,
        (tp, Vec::new()),
        "The GPU's bf16 FLOPs/s over its own NVLink bandwidth.".to_string(),
        vec![format!("{} ÷ {} = {}.", rate_text(c, Bf16), bw_text(w_gpu), sig(tp, 4))],
    )
    .mistake_number(dp, "That uses the node's InfiniBand egress; within a node the GPUs talk over NVLink.".to_string())
    .mistake_number(tp / 2.0, "That counts both directions of NVLink; a collective's bytes go one way.".to_string());
    let mut b = Part::number(
        "b",
        "Across nodes (data parallelism), what critical batch, in tokens a GPU, must B / X exceed?".to_string(),
        Unit::None,
        0.02,
        (dp, Vec::new()),
        "The same FLOPs/s over the node's egress, which did not grow.".to_string(),
        vec![format!("{} ÷ {} (8 NICs of {}) = {}.", rate_text(c, Bf16), bw_text(w_node), bw_text(w_node / NODE), sig(dp, 4))],
    )
    .mistake_number(c / (w_node / NODE), "That uses one GPU's NIC; across nodes the book's W is the node's egress, its 8 NICs together.".to_string())
    .mistake_number(tp, "That uses NVLink; across nodes the bytes leave through the node's InfiniBand.".to_string())
    .mistake_number(dp / 2.0, "That counts both directions of the links; a collective's bytes go one way.".to_string());
    if let Some(s) = sparse(chip) {
        a = a.mistake_number(
            s / w_gpu,
            "That uses the spec sheet's sparse peak; training matmuls get the dense one."
                .to_string(),
        );
        b = b.mistake_number(
            s / w_node,
            "That uses the spec sheet's sparse peak; training matmuls get the dense one."
                .to_string(),
        );
    }
    let parts = vec![
        a.with_calc(link_matmul(chip, NvLink)),
        b.with_calc(link_matmul(chip, Dcn)),
        Part::number(
            "c",
            format!("How many times the {base_name}'s critical batch across nodes is that?"),
            Unit::None,
            0.03,
            (ratio, Vec::new()),
            "Each GPU's FLOPs/s over its node's egress, one over the other.".to_string(),
            vec![
                format!("{base_name}: {} ÷ {} = {}.", rate_text(c0, Bf16), bw_text(w_node0), sig(dp0, 4)),
                format!("{} ÷ {} = {}: the critical batch grows with the FLOPs a GPU does for each byte its node can send.", sig(dp, 4), sig(dp0, 4), sig(ratio, 3)),
            ],
        )
        .mistake_number(1.0 / ratio, "That is the ratio upside down: the newer GPU needs the larger batch.".to_string())
        .with_calc(link_matmul(base, Dcn)),
    ];
    question(
        "p12-q5-1",
        &source(1),
        format!(
            "A DGX SuperPod of {name} nodes (not an NVL72): {} dense bf16 a GPU, {} of NVLink a GPU, and {} out of each node over InfiniBand (8 NICs of {}), one way. Against the {base_name}'s {} and {}. The calculator opens a bf16 matmul on NVLink (a) and on one GPU's NIC (b, c): its critical intensity there is C over that link.",
            rate_text(c, Bf16),
            bw_text(w_gpu),
            bw_text(w_node),
            bw_text(w_node / NODE),
            rate_text(c0, Bf16),
            bw_text(w_node0)
        ),
        parts,
        link_matmul(chip, NvLink),
    )
}

/// Question 2: LLaMA-3-70B on H100s: the fewest GPUs, the days, the most
/// tensor parallelism, and which plans stay compute-bound.
pub(super) fn p12_q5_2(d: &mut Draw) -> Result<Question, CoreError> {
    let id = d.pick("llama3-70b", &["llama3-8b", "llama3-70b", "llama31-405b"]);
    let (ms, m) = preset_state(id)?;
    let name = crate::model::preset(id).map_or("the model", |p| p.name);
    let chips = d.pick(4096.0, &[2048.0, 4096.0, 8192.0]);
    let budget = d.pick(15e12, &[2e12, 8e12, 15e12]);
    let mfu = d.pick(0.45, &[0.4, 0.45, 0.5]);
    let batch = d.pick(4e6, &[2e6, 4e6, 8e6]);
    let tp = 8.0;
    let stages = 8.0;
    let chip = "h100";
    let (c, w_gpu, w_node) = rates(chip)?;
    let hbm = crate::hardware::preset(chip)
        .and_then(|h| h.level(Hbm).ok().and_then(|l| l.capacity))
        .ok_or_else(|| invalid("no HBM capacity"))?;
    let s = ScaleState {
        budget,
        mfu,
        ..train_state(
            &format!("X:8,Y:{}", chips / 8.0),
            batch,
            4096.0,
            Strategy::Fsdp,
        )
    };
    let params = page_value(&s, chip, &m, "train-params")?;
    let flops = page_value(&s, chip, &m, "train-flops")?;
    let state_bytes = params * (BF16 + ADAM);
    // Full multi-head attention, K = N: the grouped-query slip.
    let mha = crate::model::ModelConfig {
        kv_heads: m.heads,
        ..m.clone()
    }
    .params();
    let gqa = "That counts full multi-head attention; the model's grouped-query attention has fewer K and V heads, so fewer parameters.".to_string();
    let fewest = (state_bytes / hbm).ceil();
    let rt = run_time(params, batch, budget, chips, c, mfu, 0.0);
    let days = rt.days_compute;
    let f = m.d_ff;
    let y_max = f * w_gpu / c;
    let per_gpu = state_bytes / tp;
    let fits = usize::from(per_gpu > hbm);
    let per_chip = batch / chips;
    let fsdp = 2.0 * c / w_node;
    let fsdp_bound = usize::from(per_chip < fsdp);
    let pp = c / (stages * w_node);
    let mut eras = Vec::new();
    if d.is_book() {
        eras.push((
            2.0 * NODE,
            Era::new(
                "whole 8-GPU nodes, the book's 2 nodes".to_string(),
                "counted GPU by GPU".to_string(),
            ),
        ));
    }
    let book_ci = 1995.0;
    let mut tp_eras = Vec::new();
    if d.is_book() {
        tp_eras.push((
            f / book_ci,
            Era::new(
                "the book's 1995 FLOPs/byte".to_string(),
                format!(
                    "its text elsewhere, and the presets, give C / W = {} ÷ {} = {}",
                    rate_text(c, Bf16),
                    bw_text(w_gpu),
                    sig(c / w_gpu, 4)
                ),
            ),
        ));
    }
    let two_flops = "That counts 2 FLOPs per parameter per token, the forward pass; training adds the backward pass's 4: 6 in all.".to_string();
    let parts = vec![
        Part::number(
            "a",
            "At the least, how many H100s hold the bf16 weights and Adam's fp32 state?".to_string(),
            Unit::None,
            0.01,
            (fewest, eras),
            "2 bytes a parameter for the weights and 8 for Adam's two fp32 moments, over 80 GB a GPU, rounded up.".to_string(),
            vec![format!("{} parameters × 10 bytes = {} bytes; ÷ {} = {}: {} GPUs.", sci(params), sci(state_bytes), sci(hbm), sig(state_bytes / hbm, 3), count(fewest))],
        )
        .mistake_number((params * BF16 / hbm).ceil(), "That holds the weights only; Adam's two fp32 moments add 8 bytes a parameter.".to_string())
        .mistake_number((params * (BF16 + 4.0) / hbm).ceil(), "That keeps one fp32 moment; Adam keeps two, 8 bytes a parameter.".to_string())
        .mistake_number((mha * (BF16 + ADAM) / hbm).ceil(), gqa.clone()),
        Part::number(
            "b",
            format!("On {} H100s for {} tokens at {}% MFU, how many days?", count(chips), sci(budget), sig(mfu * 100.0, 2)),
            Unit::None,
            0.03,
            (days, Vec::new()),
            "6 FLOPs per parameter per token, over the GPUs' FLOPs/s at the MFU.".to_string(),
            vec![format!("6 · {} · {} = {} FLOPs; ÷ ({} · {} · {}) = {} s: {} days.", sci(params), sci(budget), sci(flops), count(chips), sci(c), mfu, sci(days * 86_400.0), sig(days, 3))],
        )
        .mistake_number(days / 3.0, two_flops)
        .mistake_number(days * mha / params, gqa)
        .mistake_number(days * mfu, format!("That runs at the full peak; at {}% MFU it takes longer.", sig(mfu * 100.0, 2))),
        Part::number(
            "c",
            format!("With F = {}, how much tensor parallelism within a node before the comms bind (Y < F · W / C)?", count(f)),
            Unit::None,
            0.02,
            (y_max, tp_eras),
            "Within a node W is a GPU's NVLink.".to_string(),
            vec![
                format!("{} · {} ÷ {} = {}.", count(f), bw_text(w_gpu), rate_text(c, Bf16), sig(y_max, 3)),
                if y_max >= 16.0 {
                    "That reaches 2 nodes (16-way) in theory; the book keeps TP to 1 or 2 nodes.".to_string()
                } else if y_max >= 8.0 {
                    "A node holds 8 GPUs and this does not reach 2 nodes (16), so 8-way in practice.".to_string()
                } else {
                    "That is less than a node's 8 GPUs: TP over part of a node.".to_string()
                },
            ],
        )
        .mistake_number(f * w_node / c, "That uses the node's InfiniBand; within a node the GPUs talk over NVLink.".to_string())
        .mistake_number(2.0 * y_max, "That counts both directions of NVLink; a collective's bytes go one way.".to_string()),
        Part::number(
            "d",
            "With 8-way TP and pure DP on the rest, how many bytes of weights and optimizer state a GPU?".to_string(),
            Unit::Bytes,
            0.02,
            (per_gpu, Vec::new()),
            "Pure DP copies the state; only the 8-way TP splits it.".to_string(),
            vec![format!("{} ÷ 8 = {} bytes, against {} of HBM.", sci(state_bytes), sci(per_gpu), sci(hbm))],
        )
        .mistake_number(per_gpu * tp / chips, "That splits the state over every GPU, as ZeRO-3 would; pure DP keeps a copy on each TP group.".to_string())
        .mistake_number(per_gpu * BF16 / (BF16 + ADAM), "That leaves out Adam's 8 bytes a parameter.".to_string()),
        Part::choice(
            "e",
            "Does it fit in 80 GB?".to_string(),
            yes_no(),
            fits,
            "Compare with the GPU's HBM, before activations.".to_string(),
            vec![format!("{} against {}: {}.", sci(per_gpu), sci(hbm), if fits == 0 { "it fits" } else { "it does not fit" })],
        )
        .mistake_choice(1 - fits, if fits == 1 {
            "Pure DP keeps a whole copy of the state on every TP group: only the 8-way TP splits it.".to_string()
        } else {
            format!("The 8-way TP splits the state: {} a GPU, under {}.", sci(per_gpu), sci(hbm))
        }),
        Part::number(
            "f",
            format!("With ZeRO-3 instead, over all {} GPUs and a batch of {} tokens: how many tokens a GPU?", count(chips), sci(batch)),
            Unit::None,
            0.02,
            (per_chip, Vec::new()),
            "The batch over the GPUs.".to_string(),
            vec![format!("{} ÷ {} = {}.", sci(batch), count(chips), sig(per_chip, 4))],
        )
        .mistake_number(batch / (chips / tp), "That divides by the DP groups; every GPU of a TP group sees the same tokens, but the question counts tokens over all GPUs.".to_string()),
        Part::choice(
            "g",
            "Compute-bound or comms-bound?".to_string(),
            bound_options(),
            fsdp_bound,
            "ZeRO-3 moves the weights as well as the gradients: twice pure DP's C / W_node.".to_string(),
            vec![format!("Needed: 2 · {} ÷ {} = {} tokens a GPU; it has {}.", rate_text(c, Bf16), bw_text(w_node), sig(fsdp, 4), sig(per_chip, 4))],
        )
        .mistake_choice(1 - fsdp_bound, if fsdp_bound == 1 {
            "Compare with twice pure DP's C / W_node: ZeRO-3 gathers the weights as well as reducing the gradients, and across nodes W is the node's 400 GB/s.".to_string()
        } else {
            format!("It has {} tokens a GPU, above twice pure DP's C / W_node, {}.", sig(per_chip, 4), sig(fsdp, 4))
        }),
        Part::number(
            "h",
            "With 8-way pipelining, each model-parallel group spans 8 nodes: what critical batch, in tokens a GPU, now?".to_string(),
            Unit::None,
            0.02,
            (pp, Vec::new()),
            "Spanning 8 nodes cuts the leaf-level cost by 8: W = 8 × 400 GB/s.".to_string(),
            vec![format!("{} ÷ (8 · {}) = {}.", rate_text(c, Bf16), bw_text(w_node), sig(pp, 3))],
        )
        .mistake_number(c / w_node, "That is one node's egress; a group spanning 8 nodes has 8 × 400 GB/s.".to_string())
        .mistake_number(c / (stages * w_gpu), "That uses NVLink; the data-parallel reduction crosses nodes over InfiniBand.".to_string()),
    ];
    let q = question(
        "p12-q5-2",
        &source(2),
        format!(
            "{name}, trained in bf16 with Adam's state in fp32, on H100s ({} dense bf16, {} of HBM, {} of NVLink a GPU, {} out of a node). The run: {} GPUs, {} tokens at {}% MFU, batches of {} tokens. The Scale page opens it with the run's GPUs, tokens and MFU.",
            rate_text(c, Bf16),
            crate::format::bytes(hbm),
            bw_text(w_gpu),
            bw_text(w_node),
            count(chips),
            sci(budget),
            sig(mfu * 100.0, 2),
            sci(batch)
        ),
        parts,
        model_calc(chip, &m),
    )?;
    Ok(opens_scale(q, ScaleSetup::new(s), Some(ms)))
}

/// One Megatron-LM run from the book's answer: its name, global batch in
/// sequences, GPUs, and model-parallel degree (PP × TP; `None` where the
/// book gives none).
struct Run {
    name: &'static str,
    seqs: f64,
    gpus: f64,
    mp: Option<f64>,
}

/// The runs in the book's answer to Quiz 5, question 3 (its figure from
/// the Megatron-LM repository, its numbers quoted in the answer).
const RUNS: [Run; 3] = [
    Run {
        name: "16B",
        seqs: 192.0,
        gpus: 192.0,
        mp: None,
    },
    Run {
        name: "70B",
        seqs: 384.0,
        gpus: 768.0,
        mp: Some(16.0),
    },
    Run {
        name: "314B",
        seqs: 1536.0,
        gpus: 3072.0,
        mp: Some(64.0),
    },
];

/// Question 3: Megatron-LM's runs: tokens a GPU, and the data-parallel
/// critical batch once the model-parallel groups span nodes.
pub(super) fn p12_q5_3(d: &mut Draw) -> Result<Question, CoreError> {
    let seq = d.pick(4096.0, &[2048.0, 4096.0, 8192.0]);
    let chip = d.pick("h100", &["h100", "h200", "b200"]);
    let (c, _, w_node) = rates(chip)?;
    let dp = c / w_node;
    let per = |r: &Run| r.seqs * seq / r.gpus;
    let spanned = |r: &Run| (r.mp.unwrap_or(NODE) / NODE).max(1.0);
    let mut parts = Vec::new();
    for (id, r) in ["a", "b", "c"].into_iter().zip(RUNS.iter()) {
        let t = per(r);
        parts.push(
            Part::number(
                id,
                format!(
                    "The {} run: {} sequences on {} GPUs. Tokens a GPU?",
                    r.name,
                    count(r.seqs),
                    count(r.gpus)
                ),
                Unit::None,
                0.01,
                (t, Vec::new()),
                "Sequences × tokens a sequence, over the GPUs.".to_string(),
                vec![format!(
                    "{} · {} ÷ {} = {}.",
                    count(r.seqs),
                    count(seq),
                    count(r.gpus),
                    count(t)
                )],
            )
            .mistake_number(
                r.seqs / r.gpus,
                format!("That counts sequences; each holds {} tokens.", count(seq)),
            ),
        );
    }
    for (id, r) in ["d", "e"].into_iter().zip(RUNS.iter().skip(1)) {
        let k = spanned(r);
        let mp = r.mp.unwrap_or(NODE);
        let thr = dp / k;
        // The book: "compute-bound at roughly 1k and 300 tokens".
        let mut eras = Vec::new();
        if d.is_book() {
            let rough = if mp > 16.0 { 300.0 } else { 1000.0 };
            eras.push((
                rough,
                Era::new(
                    format!("the book's round {}", count(rough)),
                    format!("the exact C / W_node ÷ {}", count(k)),
                ),
            ));
        }
        parts.push(
            Part::number(
                id,
                format!("The {} run's model-parallel groups are {}-way (PP × TP). What critical batch, in tokens a GPU, must its data parallelism beat?", r.name, count(mp)),
                Unit::None,
                0.02,
                (thr, eras),
                "A model-parallel group spanning k nodes cuts the data-parallel reduction's cost between nodes by k.".to_string(),
                vec![
                    format!("C / W_node = {} ÷ {} = {}.", rate_text(c, Bf16), bw_text(w_node), sig(dp, 4)),
                    format!("{}-way spans {} nodes of 8: {} ÷ {} = {}.", count(mp), count(k), sig(dp, 4), count(k), sig(thr, 4)),
                ],
            )
            .mistake_number(dp, format!("That gives no credit for the model-parallel groups; spanning {} nodes, they cut the reduction's cost by {}.", count(k), count(k)))
            .mistake_number(dp / mp, format!("That divides by the whole {}-way degree; only the nodes spanned count, {} ÷ 8 = {}.", count(mp), count(mp), count(k)))
            .mistake_number(thr / 2.0, "That counts both directions of the links; a collective's bytes go one way.".to_string())
            .with_calc(link_matmul(chip, Dcn)),
        );
    }
    let bound = |r: &Run| usize::from(per(r) < dp / spanned(r));
    let all = RUNS.iter().all(|r| bound(r) == 0);
    let worst = RUNS
        .iter()
        .map(|r| {
            format!(
                "{}: {} against {}",
                r.name,
                count(per(r)),
                sig(dp / spanned(r), 4)
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    parts.push(
        Part::choice(
            "f",
            "Are all three compute-bound (the 16B with no credit for model parallelism)?".to_string(),
            super::scales::yes_no(),
            usize::from(!all),
            "Each run's tokens a GPU against its own critical batch.".to_string(),
            vec![format!("{worst}.")],
        )
        .mistake_choice(
            usize::from(all),
            if all {
                format!("Set each run against its own critical batch, C / W_node divided by the nodes its model parallelism spans: {worst}.")
            } else {
                format!("At least one run falls short of its critical batch: {worst}.")
            },
        ),
    );
    let name = link_matmul(chip, Hbm).chip()?.name;
    question(
        "p12-q5-3",
        &source(3),
        format!(
            "Megatron-LM's runs on {name} GPUs ({} dense bf16, {} out of each node), sequences of {} tokens, data parallelism the outermost axis, bf16 reductions. The calculator opens a bf16 matmul on one GPU's NIC: C over 50 GB/s, 8 times C / W_node.",
            rate_text(c, Bf16),
            bw_text(w_node),
            count(seq)
        ),
        parts,
        link_matmul(chip, Dcn),
    )
}
