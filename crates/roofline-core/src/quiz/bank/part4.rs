//! Part 4's practice questions, the transformer chapter (`p4-q…`): a
//! model's parameters and KV cache, the FLOPs of a contraction, where
//! attention's FLOPs catch up with the projections', a training run's
//! utilisation, and the batch an MoE needs to be compute-bound.

use crate::analysis::flops_term;
use crate::format::{sci, sig};
use crate::quiz::answer::Unit;
use crate::quiz::{CalcSetup, Part, Question, SOURCE_PRACTICE};
use crate::{CoreError, DType, LevelKind};

use super::feedback::{era_note, with_eras, Era};
use super::helpers::{matmul, question, verified};
use super::models::{
    chips_setup, count_text, dense, moe, opens, page, peak_bw, prefill, whole, PAGE_CRITICAL,
};
use super::setup::analysis;
use super::texts::{bw_text, exact, rate_text};
use super::{invalid, Draw};

use DType::{Bf16, Fp8, Int8};

fn source(n: u32) -> String {
    format!("Part 4, {} {n}", SOURCE_PRACTICE.to_lowercase())
}

/// Parameters, attention's share and the KV cache of a model given by D,
/// F = m·D, V and L, with N·H = D and multi-head attention.
pub(super) fn p4_q1(d: &mut Draw) -> Result<Question, CoreError> {
    let dm = d.pick(4096.0, &[2048.0, 3072.0, 4096.0, 5120.0, 8192.0]);
    let mult = d.pick(4.0, &[3.0, 3.5, 4.0]);
    let l = d.pick(64.0, &[24.0, 32.0, 40.0, 48.0, 64.0, 80.0]);
    let v = d.pick(32000.0, &[32000.0, 50304.0, 128256.0]);
    let (f, h) = (mult * dm, 128.0);
    let n = dm / h;
    let cfg = dense(l, dm, f, n, n, h, v, false);
    let p = cfg.params();
    // The book's own arithmetic rounds D and F to thousands.
    let dr = (dm / 1000.0).round() * 1000.0;
    let fr = mult * dr;
    let rounded = l * (3.0 * dr * fr + 4.0 * dr * dr + 2.0 * dr) + 2.0 * dr * v;
    let era = Era::new(
        format!(
            "D rounded to {} and F to {}, {}",
            whole(dr),
            whole(fr),
            if d.is_book() {
                "as the book's printed answer does"
            } else {
                "the book's way of rounding"
            }
        ),
        format!(
            "the exact count takes D = {} and F = {}",
            whole(dm),
            whole(f)
        ),
    );
    let ungated = p - l * dm * f;
    let qo_only = p - l * 2.0 * dm * n * h;
    let attn = 4.0 * dm * n * h;
    let mlp = 3.0 * dm * f;
    let share = attn / (attn + mlp);
    let kv = cfg.kv_bytes_per_token(Int8);
    let parts = vec![
        Part::number(
            "a",
            "How many parameters does the model have, embeddings included (e.g. 8e9)?".to_string(),
            Unit::None,
            0.04,
            (p, vec![(rounded, era)]),
            "Per layer: the gated MLP's three D×F matrices, attention's four D×NH matrices (Q, K, V, O) and two norms of D; then the input and output embeddings, D×V each.".to_string(),
            vec![
                "P = L·(3DF + 4DNH + 2D) + 2DV, with NH = D.".to_string(),
                format!(
                    "= {}·(3·{}·{} + 4·{}² + 2·{}) + 2·{}·{} = {}.",
                    whole(l), whole(dm), whole(f), whole(dm), whole(dm), whole(dm), whole(v), count_text(p)
                ),
                "The tolerance is 4%: the book rounds D and F to thousands and prints the rounded sum.".to_string(),
            ],
        )
        .mistake_number(ungated, "That counts two MLP matrices; a gated MLP (SwiGLU) has three D×F matrices: the gate, the up and the down projections.".to_string())
        .mistake_number(qo_only, "That counts two attention matrices of D×NH; Q, K, V and O make four, since this model's attention is multi-head (K = N).".to_string()),
        Part::number(
            "b",
            "What fraction of a layer's weight matrices belong to attention?".to_string(),
            Unit::None,
            0.02,
            (share, Vec::new()),
            "Compare attention's 4DNH with the sum of attention's and the MLP's weights, 4DNH + 3DF.".to_string(),
            vec![
                format!("4DNH ÷ (4DNH + 3DF) = 4D² ÷ (4D² + 3·{}D²) = {}.", sig(mult, 3), sig(share, 3)),
                "The MLP holds most of the weights, and so most of the FLOPs.".to_string(),
            ],
        )
        .mistake_number(attn / mlp, "That is attention's weights over the MLP's; the fraction divides by both together.".to_string())
        .mistake_number(2.0 * dm * n * h / (2.0 * dm * n * h + mlp), "That counts attention as two D×NH matrices; Q, K, V and O are four.".to_string())
        .mistake_number(attn / (attn + 2.0 * dm * f), "That counts two MLP matrices; a gated MLP has three.".to_string()),
        Part::number(
            "c",
            "How many bytes does one token's KV cache take, in int8, over all layers?".to_string(),
            Unit::Bytes,
            0.03,
            (kv, Vec::new()),
            "Each layer keeps a key and a value for each KV head: 2·K·H numbers, here at one byte each.".to_string(),
            vec![
                format!("2·L·K·H = 2·{}·{}·{} = {} bytes (K = N, multi-head).", whole(l), whole(n), whole(h), whole(kv)),
                "The tolerance is 3%, so that KiB and kB both pass.".to_string(),
            ],
        )
        .mistake_number(2.0 * kv, "That is the cache in bf16, 2 bytes a number; int8 takes one.".to_string())
        .mistake_number(kv / 2.0, "That keeps only the keys or only the values; the cache holds both, a factor of 2.".to_string())
        .mistake_number(kv / l, "That is one layer's cache; every layer keeps its own keys and values.".to_string()),
    ];
    let calc = chips_setup("v5e", 1, dm, f);
    let q = question(
        "p4-q1",
        &source(1),
        format!(
            "A dense transformer has D = {}, F = {}·D = {}, V = {} and L = {}. Its MLP is gated (three D×F matrices), its attention multi-head with N·H = D (N = {}, H = {}), its input and output embeddings separate, and its KV cache in int8.",
            whole(dm), sig(mult, 2), whole(f), whole(v), whole(l), whole(n), whole(h)
        ),
        parts,
        calc,
    )?;
    Ok(opens(q, page(&cfg, 1.0, 2048.0, Bf16, Int8)?))
}

/// The FLOPs of a contraction over two dimensions with five kept ones.
pub(super) fn p4_q3(d: &mut Draw) -> Result<Question, CoreError> {
    const DIMS: [&str; 7] = ["I", "J", "K", "L", "M", "N", "O"];
    let mut sizes: Vec<(&str, f64)> = Vec::new();
    for (i, dim) in DIMS.iter().enumerate() {
        let book = [64.0, 32.0, 16.0, 8.0, 16.0, 8.0, 4.0][i];
        sizes.push((dim, d.pick(book, &[4.0, 8.0, 16.0, 32.0, 64.0])));
    }
    let calc = CalcSetup::new(
        "v5e",
        "bf16[I,J,K,L] * bf16[I,J,M,N,O] -> bf16[K,L,M,N,O]",
        &sizes,
        LevelKind::Hbm,
    );
    let op = calc.operation()?;
    let a = analysis(&calc)?;
    let formula = verified(flops_term(&op).compact(), &DIMS, &calc, a.flops)?;
    let sizes_text = sizes
        .iter()
        .map(|(k, v)| format!("{k} = {}", whole(*v)))
        .collect::<Vec<_>>()
        .join(", ");
    let product: f64 = sizes.iter().map(|(_, v)| v).product();
    let parts = vec![
        Part::formula(
            "a",
            "How many FLOPs does it take? A formula in I, J, K, L, M, N, O.".to_string(),
            &DIMS,
            formula.clone(),
            Vec::new(),
            "I and J appear in both inputs and not in the output: they are summed over. Every other dimension is kept. Each product is a multiply and an add.".to_string(),
            vec![
                "Summed over: I, J. Kept: K, L, M, N, O. No dimension is shared by all three (a batch dimension, counted once).".to_string(),
                format!("FLOPs = 2 × the product of every dimension = {formula}."),
            ],
        )
        .mistake_formula("I*J*K*L*M*N*O", "That counts one operation per product; each is a multiply and an add, 2 FLOPs.".to_string())
        .mistake_formula("2*K*L*M*N*O", "That is one FLOP pair per output element; each output sums I·J products.".to_string()),
        Part::number(
            "b",
            "At the sizes above, how many FLOPs is that?".to_string(),
            Unit::Flops,
            0.01,
            (a.flops, Vec::new()),
            "Multiply every size together and double.".to_string(),
            vec![format!("2 × {} = {}.", sci(product), sci(a.flops))],
        )
        .mistake_number(product, "That counts one operation per product; each is a multiply and an add, 2 FLOPs.".to_string())
        .mistake_number(4.0 * product, "That counts 4 FLOPs per product; a multiply and an add are 2, whatever the data type.".to_string()),
    ];
    question(
        "p4-q3",
        &source(3),
        format!("A contraction: A[I,J,K,L] · B[I,J,M,N,O] → C[K,L,M,N,O], in bf16. The book gives no sizes; part (b) takes the app's own: {sizes_text}."),
        parts,
        calc,
    )
}

/// The sequence length where attention's FLOPs equal the Q, K, V and O
/// projections' (multi-head attention): T = 2D.
pub(super) fn p4_q5(d: &mut Draw) -> Result<Question, CoreError> {
    let dm = d.pick(4096.0, &[1024.0, 2048.0, 3072.0, 5120.0, 8192.0, 16384.0]);
    let h = 128.0;
    let n = dm / h;
    let t = 2.0 * dm;
    let parts = vec![Part::number(
        "a",
        "At what sequence length T do attention's FLOPs (Q·Kᵀ and the weighted sum of V) equal the four projections' FLOPs?".to_string(),
        Unit::None,
        0.01,
        (t, Vec::new()),
        "Per sequence and layer, the projections take 2 FLOPs per weight per token: 2·T·4DNH. Attention's two matmuls take 2·T²·NH each.".to_string(),
        vec![
            "Projections: 2·B·T·4DNH = 8BTDNH. Attention: 2·B·T²·NH for Q·Kᵀ and as much for the sum over V, 4BT²NH.".to_string(),
            format!("8BTDNH = 4BT²NH ⇔ T = 2D = {}.", whole(t)),
            "Below that length the projections (and the MLP) cost more than attention.".to_string(),
        ],
    )
    .mistake_number(4.0 * dm, "That counts one of attention's two matmuls; the weighted sum over V costs as much as Q·Kᵀ.".to_string())
    .mistake_number(dm, "That counts 1 FLOP per weight and token for the projections; a multiply and an add make 2.".to_string())];
    let cfg = dense(32.0, dm, 4.0 * dm, n, n, h, 32000.0, false);
    let calc = chips_setup("v5e", 1, dm, 4.0 * dm);
    let q = question(
        "p4-q5",
        &source(5),
        format!(
            "A transformer with multi-head attention has D = {} and N·H = D (N = {}, H = {}). Count the forward pass of one layer on B sequences of T tokens.",
            whole(dm), whole(n), whole(h)
        ),
        parts,
        calc,
    )?;
    Ok(opens(q, prefill(page(&cfg, 1.0, 0.0, Bf16, Bf16)?, t)))
}

/// A training run's FLOPs utilisation from its chip-hours, tokens and
/// active parameters.
pub(super) fn p4_q7(d: &mut Draw) -> Result<Question, CoreError> {
    let hours = d.pick(2.79e6, &[1.0e6, 1.5e6, 2.0e6, 2.79e6, 4.0e6]);
    let tokens = d.pick(14.8e12, &[2e12, 8e12, 14.8e12, 15e12, 30e12]);
    let active = d.pick(37e9, &[8e9, 13e9, 37e9, 70e9]);
    let dense_peak = 1.513e15;
    let mut calc = CalcSetup::new(
        "h100",
        &matmul(Fp8, Fp8, Fp8),
        &[("B", 4096.0), ("D", 8192.0), ("F", 8192.0)],
        LevelKind::Hbm,
    );
    calc.peak_overrides.push((Fp8, dense_peak));
    let (peak, _) = peak_bw(&calc, Fp8)?;
    let available = hours * 3600.0 * peak;
    let used = 6.0 * active * tokens;
    let mfu = used / available;
    if !(0.08..0.7).contains(&mfu) {
        return Err(invalid("an unlikely utilisation"));
    }
    let parts = vec![Part::number(
        "a",
        "What fraction of the chips' dense FP8 FLOPs did training use (e.g. 0.5 for 50%)?".to_string(),
        Unit::None,
        0.03,
        (mfu, Vec::new()),
        "Training costs about 6 FLOPs per active parameter per token (2 forward, 4 backward). Divide by what the chips could do in those hours at the dense FP8 peak.".to_string(),
        vec![
            format!("Used: 6 · {} · {} = {} FLOPs.", sci(active), sci(tokens), sci(used)),
            format!("Available: {} h · 3600 s/h · {} = {} FLOPs.", sci(hours), rate_text(peak, Fp8), sci(available)),
            format!("Utilisation: {} ÷ {} = {}.", sci(used), sci(available), sig(mfu, 3)),
        ],
    )
    .mistake_number(mfu / 3.0, "That counts 2 FLOPs per parameter and token, the forward pass alone; training adds the backward pass, 4 more: 6 in all.".to_string())
    .mistake_number(mfu / 2.0, "That divides by the spec sheet's sparse figure; dense training reaches at most half of it.".to_string())
    .mistake_number(mfu * 100.0, "Write the fraction, not the percentage: 25% is 0.25.".to_string())];
    question(
        "p4-q7",
        &source(7),
        format!(
            "A mixture-of-experts model with {} active parameters was trained on {} tokens in {} GPU-hours. Its GPUs' FP8 figure is 3.026e15 FLOPs/s with structured sparsity, {} dense.",
            sci(active), sci(tokens), sci(hours), rate_text(dense_peak, Fp8)
        ),
        parts,
        calc,
    )
}

/// The batch an MoE with int8 weights needs to be compute-bound: the dense
/// model's, times E/k.
pub(super) fn p4_q8(d: &mut Draw) -> Result<Question, CoreError> {
    let (e, k) = d.pick(
        (256.0, 8.0),
        &[
            (8.0, 2.0),
            (16.0, 2.0),
            (64.0, 6.0),
            (128.0, 8.0),
            (256.0, 8.0),
        ],
    );
    let chip = d.pick("v5e", &["v5e", "v5p", "v6e"]);
    let calc = CalcSetup::new(
        chip,
        &matmul(Bf16, Int8, Bf16),
        &[("B", 128.0), ("D", 7168.0), ("F", 2048.0)],
        LevelKind::Hbm,
    );
    let name = calc.chip()?.name;
    let ci = with_eras(&calc, &|c| Ok(analysis(c)?.critical_intensity))?;
    let half = ci.value / 2.0;
    let batch = with_eras(
        &calc,
        &|c| Ok(analysis(c)?.critical_intensity / 2.0 * e / k),
    )?;
    let book_constant = (half / 10.0).round() * 10.0;
    let (peak, bw) = peak_bw(&calc, Bf16)?;
    let ratio = format!("{}/{}", exact(peak), exact(bw));
    let formula = format!("{ratio}/2*E/k");
    // The book's constant is the v5e's, rounded: 120.
    let rounds = chip == "v5e" && (book_constant - half).abs() > 1e-9;
    let also: Vec<String> = [format!("{}*E/k", whole(book_constant))]
        .into_iter()
        .filter(|_| rounds)
        .collect();
    let mut steps = vec![
        "Intensity: 2·k·B·D·F ÷ (E·D·F) = 2kB/E.".to_string(),
        format!(
            "Compute-bound once 2kB/E > {} (bf16 peak ÷ HBM bandwidth), so B > {}·E/k.",
            sig(ci.value, 4),
            sig(half, 4)
        ),
    ];
    if rounds {
        steps.push(format!(
            "The book rounds the constant to {}; both pass.",
            whole(book_constant)
        ));
    }
    steps.push(PAGE_CRITICAL.to_string());
    let parts = vec![
        Part::formula(
            "a",
            format!("Above what batch B, in tokens, are the expert matmuls compute-bound on {name}? A formula in E and k."),
            &["E", "k"],
            formula,
            also,
            "Each matrix's E expert copies are all read (E·D·F bytes in int8) while each token multiplies k of them (2·k·D·F FLOPs per token).".to_string(),
            steps,
        )
        .mistake_formula(&format!("{ratio}/2*k/E"), "That has E and k swapped: more experts to read per token used means a larger batch, so E/k.".to_string())
        .mistake_formula(&format!("{ratio}*E/k"), "That misses the 2 FLOPs per multiply-add: the intensity is 2kB/E, so B needs half the critical intensity times E/k. (bf16 weights, 2 bytes each, would give this too.)".to_string()),
        Part::number(
            "b",
            format!("For E = {} experts with k = {} active per token, what batch is that?", whole(e), whole(k)),
            Unit::None,
            0.01,
            batch.clone(),
            "Put E and k into part (a)'s formula.".to_string(),
            vec![format!("B > {} · {} / {} = {}.", sig(half, 4), whole(e), whole(k), sig(batch.value, 4))],
        )
        .mistake_number(half, "That is a dense model's critical batch; an MoE reads E experts for k used, so multiply by E/k.".to_string())
        .mistake_number(batch.value * 2.0, "That is twice the answer: the bf16 factor of 2 in bytes (the weights are int8, one byte) or the 2 FLOPs per multiply-add left out.".to_string())
        .mistake_number(half * k / e, "That has E and k swapped; reading more experts per token used needs a larger batch, E/k.".to_string()),
    ];
    let cfg = moe(
        dense(61.0, 7168.0, 2048.0, 128.0, 128.0, 128.0, 129280.0, false),
        e,
        k,
    );
    let q = question(
        "p4-q8",
        &source(8),
        format!(
            "A mixture-of-experts layer keeps E copies of its MLP and sends each token through k of them; part (b) takes E = {} and k = {}. The weights are int8 and the math bf16, on {name} ({} of bf16 peak, HBM at {}).{}",
            whole(e),
            whole(k),
            rate_text(peak, Bf16),
            bw_text(bw),
            era_note(&calc)
        ),
        parts,
        chips_setup(chip, 1, 7168.0, 2048.0),
    )?;
    Ok(opens(
        q,
        page(&cfg, batch.value.ceil(), 2048.0, Int8, Bf16)?,
    ))
}
