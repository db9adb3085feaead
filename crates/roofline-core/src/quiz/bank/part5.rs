//! Part 5's problems, the training chapter (`p5-q…`), on LLaMA-2-13B: its
//! parameters, its training memory, and a 3M-token batch on a v5p slice
//! (pure DP, pure FSDP, or FSDP + TP, and the step time). Every answer is
//! the Scale page's (its core, [`crate::scale`]) for the question's state.

use crate::format::{bytes, count, sci, sig};
use crate::quiz::answer::Unit;
use crate::quiz::{Part, Question, ScaleSetup, SOURCE_PRACTICE};
use crate::scale::{memory, MemoryInput, ScaleState, Strategy};
use crate::CoreError;

use super::helpers::question;
use super::models::count_text;
use super::scales::{
    bound_options, model_calc, opens_scale, page_value, page_word, preset_state, train_state,
    yes_no,
};
use super::Draw;

fn source(n: u32) -> String {
    format!("Part 5, {} {n}", SOURCE_PRACTICE.to_lowercase())
}

fn name_of(id: &str) -> &'static str {
    crate::model::preset(id).map_or("the model", |p| p.name)
}

/// Question 1: a model's parameters, by kind.
pub(super) fn p5_q1(d: &mut Draw) -> Result<Question, CoreError> {
    let id = d.pick(
        "llama2-13b",
        &["llama2-13b", "llama3-8b", "llama3-70b", "llama31-405b"],
    );
    let (ms, m) = preset_state(id)?;
    let (l, dm, f) = (m.layers, m.d_model, m.d_ff);
    let (n, k, h) = (m.heads, m.kv_heads, m.head_dim);
    let ffw = 3.0 * l * dm * f;
    let attn = l * (2.0 * dm * n * h + 2.0 * dm * k * h);
    let full = 4.0 * l * dm * n * h;
    let p = m.params();
    let emb = m.embedding_params();
    let parts = vec![
        Part::number(
            "a",
            "How many parameters do the MLPs hold, over all layers?".to_string(),
            Unit::None,
            0.01,
            (ffw, Vec::new()),
            "A gated MLP has three D×F matrices: two up-projections and one down.".to_string(),
            vec![format!("3LDF = 3 · {} · {} · {} = {}.", l, dm, f, count_text(ffw))],
        )
        .mistake_number(2.0 * l * dm * f, "That counts two MLP matrices; a gated MLP has three (the gate behaves as W_in does).".to_string()),
        Part::number(
            "b",
            "How many do the attention projections hold?".to_string(),
            Unit::None,
            0.02,
            (attn, Vec::new()),
            "Q and O are D×NH; K and V are D×KH, with K the KV heads.".to_string(),
            vec![format!(
                "L·(2DNH + 2DKH) = {l}·(2·{dm}·{n}·{h} + 2·{dm}·{k}·{h}) = {}{}.",
                count_text(attn),
                if k == n { " (K = N: multi-head, 4DNHL)" } else { "" }
            )],
        )
        .mistake_number(full, format!("That is 4DNHL, every head with its own keys and values; with grouped-query attention K and V have K = {k} heads, not N = {n}: L·(2DNH + 2DKH).")),
        Part::number(
            "c",
            "How many parameters in all?".to_string(),
            Unit::None,
            0.01,
            (p, Vec::new()),
            "Add the embeddings: the input and the output matrices are separate, V×D each.".to_string(),
            vec![
                format!("2VD = {}.", count_text(emb)),
                format!("{} + {} + {} = {} (the page adds the norms' 2DL, a rounding error).", sci(ffw), sci(attn), sci(emb), count_text(p)),
            ],
        )
        .mistake_number(p - attn + full, format!("That counts full multi-head attention; K and V have K = {k} heads (grouped-query)."))
        .mistake_number(p - emb / 2.0, "That counts one embedding matrix; this model's input and output embeddings are separate.".to_string())
        .mistake_number(p - emb, "That leaves out the embeddings, 2VD.".to_string()),
    ];
    let q = question(
        "p5-q1",
        &source(1),
        format!(
            "{}: L = {l}, D = {dm}, F = {f}, N = {n}, K = {k}, H = {h}, V = {}; a gated MLP and separate input and output embeddings.",
            name_of(id),
            m.vocab
        ),
        parts,
        model_calc("v5p", &m),
    )?;
    let s = train_state("X:16,Y:16,Z:16", 3e6, 32768.0, Strategy::Fsdp);
    Ok(opens_scale(q, ScaleSetup::new(s), Some(ms)))
}

/// Question 2: parameters, Adam's state and the checkpoints of a batch.
pub(super) fn p5_q2(d: &mut Draw) -> Result<Question, CoreError> {
    let id = d.pick("llama2-13b", &["llama2-13b", "llama3-8b", "llama3-70b"]);
    let batch = d.pick(16e6, &[4e6, 8e6, 16e6, 32e6]);
    let (ms, m) = preset_state(id)?;
    let (l, dm, f) = (m.layers, m.d_model, m.d_ff);
    let ckpt = (dm + 2.0 * f) / dm;
    let mem = memory(&MemoryInput {
        params: m.params(),
        layers: l,
        d: dm,
        batch,
        ckpt,
        strategy: Strategy::Dp,
        zero: 3,
        x: 1.0,
        y: 1.0,
        pods: 1.0,
    });
    let states = mem.params + mem.optimizer;
    let p = m.params();
    let parts = vec![
        Part::number(
            "a",
            "How many bytes do the parameters (bf16) and Adam's state (fp32) take?".to_string(),
            Unit::Bytes,
            0.02,
            (states, Vec::new()),
            "bf16 parameters take 2 bytes each; Adam keeps two fp32 moments, 4 bytes each.".to_string(),
            vec![format!("(2 + 4 + 4) · {} = {}.", sci(p), bytes(states))],
        )
        .mistake_number(2.0 * p, "That is the parameters alone; Adam adds two fp32 moments a parameter, 8 bytes.".to_string())
        .mistake_number(6.0 * p, "That keeps one fp32 moment; Adam keeps two, the first and the second.".to_string())
        .mistake_number(12.0 * p, "That adds bf16 gradients; the question counts the parameters and the optimizer (the Scale page adds the gradients too).".to_string()),
        Part::number(
            "b",
            format!("With a batch of {} tokens, how many bytes do the checkpoints take, in bf16, after the three big matmuls of each layer?", sci(batch)),
            Unit::Bytes,
            0.03,
            (mem.checkpoints, Vec::new()),
            "After the two up-projections the activations are [B, F]; after the down-projection [B, D].".to_string(),
            vec![
                format!("2 bytes · L · B · (D + 2F) = 2 · {l} · {} · ({dm} + 2·{f}) = {}.", sci(batch), bytes(mem.checkpoints)),
                format!("The Scale page counts them as (D + 2F)/D = {} [B, D] tensors a layer.", sig(ckpt, 4)),
            ],
        )
        .mistake_number(2.0 * l * batch * 3.0 * dm, "That keeps three [B, D] tensors; after the up-projections the activations are [B, F], F wide.".to_string())
        .mistake_number(2.0 * mem.checkpoints, "That takes 4 bytes a value; the checkpoints are bf16, 2.".to_string())
        .mistake_number(mem.checkpoints / l, "That is one layer's; every layer keeps its own.".to_string()),
    ];
    let q = question(
        "p5-q2",
        &source(2),
        format!(
            "{} (L = {l}, D = {dm}, F = {f}) trains with Adam on a batch of {} tokens. Ignore parallelism.",
            name_of(id),
            sci(batch)
        ),
        parts,
        model_calc("v5p", &m),
    )?;
    let s = ScaleState {
        ckpt,
        zero: 1,
        ..train_state("X:1", batch, 4096.0, Strategy::Dp)
    };
    Ok(opens_scale(q, ScaleSetup::new(s), Some(ms)))
}

/// Question 3: a 3M-token batch on a v5p slice: pure DP, pure FSDP, then
/// FSDP + TP and its step time.
pub(super) fn p5_q3(d: &mut Draw) -> Result<Question, CoreError> {
    let id = d.pick("llama2-13b", &["llama2-13b", "llama3-70b"]);
    let tokens = d.pick(3e6, &[1.5e6, 2e6, 3e6, 4e6, 6e6]);
    let mesh = d.pick(
        "X:16,Y:16,Z:16",
        &["X:16,Y:16,Z:16", "X:8,Y:16,Z:16", "X:16,Y:20,Z:28"],
    );
    let seq = 32768.0;
    let (ms, m) = preset_state(id)?;
    let st = |s| train_state(mesh, tokens, seq, s);
    let (dp, fsdp, mixed) = (st(Strategy::Dp), st(Strategy::Fsdp), st(Strategy::Mixed));
    let val = |s: &ScaleState, k| page_value(s, "v5p", &m, k);
    let word = |s: &ScaleState, k| page_word(s, "v5p", &m, k);
    let fits = usize::from(word(&dp, "train-fits")? != "yes");
    let dp_mem = val(&dp, "train-memory")?;
    let thr = val(&fsdp, "train-threshold")?;
    let per_chip = val(&fsdp, "train-tokens-per-chip")?;
    let fsdp_bound = usize::from(word(&fsdp, "train-bound")? != "compute");
    let mixed_thr = val(&mixed, "train-threshold-opt")?;
    let x_opt = val(&mixed, "train-x-opt")?;
    let step = val(&mixed, "train-step-time")?;
    let f = m.d_ff;
    let alpha = 4.59e14 / 1.8e11;
    let p = m.params();
    let chips = tokens / per_chip;
    let parts = vec![
        Part::choice(
            "a",
            "Can pure data parallelism hold the model? (yes or no)".to_string(),
            yes_no(),
            fits,
            "Pure DP keeps every parameter and Adam's moments on every chip; compare with a v5p's 96 GB.".to_string(),
            vec![
                format!("(2 + 8) bytes · {} = {} on every chip, before gradients and checkpoints (the page: {} with them).", sci(p), bytes(10.0 * p), bytes(dp_mem)),
                "A v5p has 96 GB of HBM.".to_string(),
            ],
        )
        .mistake_choice(1 - fits, "Count 10 bytes a parameter (bf16 weights, two fp32 moments) on every chip: DP copies them all.".to_string()),
        Part::number(
            "b",
            "Pure FSDP over all three axes is compute-bound above how many tokens a chip?".to_string(),
            Unit::None,
            0.02,
            (thr, Vec::new()),
            "FSDP is compute-bound when B/X > C / (W_ici · M_X), with W_ici both directions of a wrapped axis.".to_string(),
            vec![
                format!("α = C / W_ici = 4.59e14 / 1.8e11 = {}.", count(alpha)),
                format!("Over M_X = 3 axes: α / 3 = {}; here {} tokens a chip ({} ÷ {} chips).", count(thr), count(per_chip), sci(tokens), count(chips)),
            ],
        )
        .mistake_number(alpha, "That is one axis's α; FSDP over three axes uses three axes' links, so it needs a third: α / M_X.".to_string())
        .mistake_number(2.0 * thr, "That uses one direction's 9e10 bytes/s; a wrapped v5p axis sends both ways, W_ici = 1.8e11.".to_string()),
        Part::choice(
            "c",
            format!("With {} tokens a chip, is pure FSDP compute-bound or comms-bound?", count(per_chip)),
            bound_options(),
            fsdp_bound,
            "Compare the tokens a chip with the threshold of (b).".to_string(),
            vec![format!("{} {} {}: {}.", count(per_chip), if fsdp_bound == 1 { "<" } else { ">" }, count(thr), if fsdp_bound == 1 { "comms-bound" } else { "compute-bound" })],
        )
        .mistake_choice(1 - fsdp_bound, "Compute-bound needs more tokens a chip than the threshold: compare the two numbers.".to_string()),
        Part::number(
            "d",
            "Mixed FSDP + TP is compute-bound above how many tokens a chip?".to_string(),
            Unit::None,
            0.02,
            (mixed_thr, Vec::new()),
            "B/N > α² / (M_X·M_Y·F), with M_X·M_Y = 2 on a 3-D mesh.".to_string(),
            vec![
                format!("{}² / (2 · {f}) = {}.", count(alpha), count(mixed_thr)),
                "Older copies of the chapter wrote 2·2550²/F; the current text has 2550²/(2F).".to_string(),
            ],
        )
        .mistake_number(2.0 * alpha * alpha / f, "That is 2·α²/F, the formula older copies of the chapter printed; the current text has α²/(2F): M_X·M_Y = 2 divides.".to_string())
        .mistake_number(alpha * alpha / f, "That leaves out M_X·M_Y = 2: FSDP and TP each use their own axes' links.".to_string()),
        Part::number(
            "e",
            "What is the best FSDP degree X_opt, before rounding?".to_string(),
            Unit::None,
            0.02,
            (x_opt, Vec::new()),
            "X_opt = √((B / F) · (M_X / M_Y) · N).".to_string(),
            vec![
                format!("√({} / {f} · 2 · {}) = {}; the chapter rounds it to a power of two and lets TP take the rest of the chips.", sci(tokens), count(chips), count(x_opt)),
            ],
        )
        .mistake_number(x_opt / 2f64.sqrt(), "That takes M_X / M_Y = 1; on a 3-D mesh FSDP spans two axes and TP one: M_X / M_Y = 2.".to_string()),
        Part::number(
            "f",
            "At 40% MFU, how long does a step take?".to_string(),
            Unit::Seconds,
            0.05,
            (step, Vec::new()),
            "Training costs 6 FLOPs per parameter per token; divide by every chip's FLOPs/s at the MFU.".to_string(),
            vec![format!(
                "6 · {} · {} ÷ ({} · 4.59e14 · 0.4) = {}.",
                sci(tokens), sci(p), count(chips), crate::format::seconds(step)
            )],
        )
        .mistake_number(step / 3.0, "That counts 2 FLOPs per parameter, the forward pass; training adds the backward pass's 4: 6 in all.".to_string())
        .mistake_number(step * 0.4, "That assumes 100% of the peak; at 40% MFU the step takes 2.5 times as long.".to_string()),
    ];
    let q = question(
        "p5-q3",
        &source(3),
        format!(
            "{} trains on TPU v5p ({mesh}, {} chips; 96 GB, 4.59e14 FLOPs/s and W_ici = 1.8e11 bytes/s an axis) with sequences of {} tokens and a batch of {} tokens, bf16 weights and an fp32 Adam.",
            name_of(id),
            count(chips),
            count(seq),
            sci(tokens)
        ),
        parts,
        model_calc("v5p", &m),
    )?;
    let setup = ScaleSetup {
        state: fsdp,
        op: None,
        parts: vec![
            ("a".to_string(), dp),
            ("d".to_string(), mixed.clone()),
            ("e".to_string(), mixed.clone()),
            ("f".to_string(), mixed),
        ],
    };
    Ok(opens_scale(q, setup, Some(ms)))
}
