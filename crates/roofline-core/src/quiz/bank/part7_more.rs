//! Part 7's practice questions 4, 6 and 7 (`p7-q…`): sharding the chapter's
//! model on a v5e 4x4 (the book gives no answer: the app's), the model as
//! an MoE with its experts sharded over a v5e slice (the book gives no
//! answer: the app's), and 2D weight-stationary sharding's comms against
//! 1D tensor parallelism.

use crate::format::{sci, sig};
use crate::quiz::answer::Unit;
use crate::quiz::{CalcSetup, Part, Question, ScaleSetup, SOURCE_PRACTICE};
use crate::scale::CollOp;
use crate::{format, CoreError, DType, LevelKind};

use super::feedback::{era_note, with_eras, Era};
use super::helpers::{matmul, question};
use super::models::{chips_setup, count_text, hbm_capacity, moe, opens, page, peak_bw, whole};
use super::part7::{chapter_model, model_text};
use super::part8_worked::slice_for;
use super::scales::{coll, coll_state, links, opens_scale, sizes, yes_no};
use super::texts::{bw_text, rate_text};
use super::{invalid, Draw};

use DType::{Bf16, Int8};

fn source(n: u32, app: bool) -> String {
    let s = format!("Part 7, {} {n}", SOURCE_PRACTICE.to_lowercase());
    if app {
        format!("{s} (the book gives no answer: the app's)")
    } else {
        s
    }
}

/// Question 4's checkable parts (the book gives no answer: the app's):
/// whether a v5e 4x4 wraps, the tensor-parallel bound in prefill and in
/// decode, how the KV cache splits over the chips, and the decode step.
pub(super) fn p7_q4(d: &mut Draw) -> Result<Question, CoreError> {
    let named = chapter_model(d);
    let m = named.0.clone();
    let ctx = d.pick(128e3, &[32e3, 64e3, 128e3]);
    let (mx, my) = d.pick((4u32, 4u32), &[(2, 4), (4, 4), (4, 8)]);
    let chips = mx * my;
    let n = f64::from(chips);
    let calc = chips_setup("v5e", chips, m.d_model, m.d_ff);
    let cap = hbm_capacity(&calc)?;
    let p = m.params();
    let kv_seq = m.kv_bytes_per_token(Int8) * ctx;
    let b = ((n * cap - p) / kv_seq).floor();
    if !(1.0..=2000.0).contains(&b) {
        return Err(invalid("no batch fits"));
    }
    let l = links("v5e", &format!("X:{mx},Y:{my}"))?;
    let ax = l.axis('X').ok_or_else(|| invalid("no axis"))?;
    let (wraps, ici) = (ax.wraps, ax.bidirectional);
    let (peak, bw) = peak_bw(&calc, Bf16)?;
    let alpha = peak / ici;
    let y_prefill = m.d_ff / alpha;
    let beta = bw / ici;
    let y_decode = with_eras(&calc, &|c| Ok(m.d_ff / (b * peak_bw(c, Bf16)?.1 / ici)))?;
    let rounded = m.d_ff / (b * 8.0);
    let mut y_decode = y_decode;
    if (rounded - y_decode.value).abs() > 0.05 * y_decode.value {
        y_decode.eras.push((
            rounded,
            Era::new(
                "the book's round β ≈ 8".to_string(),
                format!("the chips' own numbers give β = {}", sig(beta, 3)),
            ),
        ));
    }
    // This slice does not wrap (part (a)), so a ring sends one way round;
    // the chapter's α ≈ 2200 and β take both. Both pass, with a note.
    let one_way = || {
        Era::new(
            "this slice's one-way links (it has no wraparound, part (a))".to_string(),
            "the chapter's α ≈ 2200 and β take a ring both ways, as a wrapped axis has".to_string(),
        )
    };
    y_decode
        .eras
        .push((m.d_ff / (b * bw / ax.one_way), one_way()));
    let heads = m.kv_heads.min(n);
    let batch_ways = n / heads;
    let step = with_eras(&calc, &|c| {
        let w = n * peak_bw(c, Int8)?.1;
        let (cc, _) = peak_bw(c, Int8)?;
        Ok(b * kv_seq / w + (2.0 * b * p / (n * cc)).max(p / w))
    })?;
    let w = n * bw;
    // int8 weights and math: (C ÷ W) × 1 byte ÷ 2.
    let crit = peak_bw(&calc, Int8)?.0 / bw / 2.0;
    let copies = n * (m.kv_heads / n).ceil() / m.kv_heads;
    let mut step_solution = vec![
        format!("The largest batch that fits: ⌊({} · {} − {}) ÷ {}⌋ = {} sequences; {}.", whole(n), format::bytes(cap), sci(p), sci(kv_seq), whole(b), if b < crit { format!("below the critical batch, {}: the weights' read binds", sig(crit, 3)) } else { format!("above the critical batch, {}: the weights' FLOPs bind", sig(crit, 3)) }),
        format!("KV: {} · {} ÷ {} = {}; weights: {} ÷ {} = {}; step ≈ {}.", whole(b), sci(kv_seq), bw_text(w), format::seconds(b * kv_seq / w), sci(p), bw_text(w), format::seconds(p / w), format::seconds(step.value)),
        "With HBM nearly full, a bandwidth-bound step is about one chip's HBM read at its bandwidth.".to_string(),
    ];
    if copies > 1.0 {
        step_solution.push(format!("The Model page splits the {} KV heads over the chips and keeps copies where the chips outnumber them, so its KV read comes out {} times this; sharding the cache by batch too avoids the copies.", whole(m.kv_heads), sig(copies, 3)));
    }
    let parts = vec![
        Part::choice(
            "a",
            format!("Do the axes of a TPU v5e {mx}x{my} wrap around?"),
            yes_no(),
            usize::from(!wraps),
            "Which v5e axes have wraparound links?".to_string(),
            vec![
                "A v5e pod is one 16x16 torus: only an axis of 16 wraps. Smaller slices have none, so a ring along an axis is a line and sends one way round.".to_string(),
            ],
        )
        .mistake_choice(usize::from(wraps), "Only axes of 16 chips wrap on v5e (the full pod's); a smaller slice has no wraparound links.".to_string()),
        Part::number(
            "b",
            "In prefill (compute-bound), tensor parallelism over one axis stays compute-bound up to about Y = F / α, α = C / W_ici (bf16 peak over a chip's ICI bandwidth, both ways as the chapter's α ≈ 2200 takes it). What is that Y?".to_string(),
            Unit::None,
            0.03,
            (y_prefill, vec![(m.d_ff / (peak / ax.one_way), one_way())]),
            "The MLP's FLOPs shrink with Y; the AllReduce of the activations does not.".to_string(),
            vec![
                format!("α = {} ÷ {} = {}, the chapter's ~2200.", rate_text(peak, Bf16), bw_text(ici), sig(alpha, 4)),
                format!("Y ≈ {} ÷ {} = {}: about {}-way model parallelism, then sequence parallelism. int8 math and activations double C and halve the bytes: the same bound.", whole(m.d_ff), sig(alpha, 4), sig(y_prefill, 3), whole(y_prefill.floor())),
            ],
        ),
        Part::number(
            "c",
            format!("In decode, with the batch of part (e) ({} sequences), ICI binds past Y = F / (B·β), β = W_hbm / W_ici. What is that Y?", whole(b)),
            Unit::None,
            0.03,
            y_decode.clone(),
            "Bandwidth-bound, the weights' read shrinks with Y while each layer's activations cross ICI whatever Y.".to_string(),
            vec![
                format!("β = {} ÷ {} = {}.", bw_text(bw), bw_text(ici), sig(beta, 3)),
                format!("Y = {} ÷ ({} · {}) = {}: {}.", whole(m.d_ff), whole(b), sig(beta, 3), sig(y_decode.value, 3), if y_decode.value >= n { format!("more than the {} chips, so every chip can take a share of the model", whole(n)) } else { format!("fewer than the {} chips: sharding the model over all of them, ICI would outlast the weights' read", whole(n)) }),
            ],
        )
        .mistake_number(y_prefill, "That is prefill's compute-bound limit; decode is bandwidth-bound, so the weights' read, not the FLOPs, is what ICI must not outlast.".to_string()),
        Part::number(
            "d",
            format!("The cache is split over the K = {} KV heads first. Over how many ways must the batch be split so that no chip holds a copy?", whole(m.kv_heads)),
            Unit::None,
            0.002,
            (batch_ways, Vec::new()),
            "Heads can be split at most K ways; the rest of the chips split the batch.".to_string(),
            vec![format!("KV[2, B_Z, S, K_Y, H] with Y = {} and Z = {} ÷ {} = {}.", whole(heads), whole(n), whole(heads), whole(batch_ways))],
        )
        .mistake_number(n, "That splits the batch alone; the heads take the first K ways.".to_string()),
        Part::number(
            "e",
            format!("With int8 weights, KV cache and math, serving the largest batch that fits at {} tokens, what is the step's lower bound?", whole(ctx)),
            Unit::Seconds,
            0.03,
            step.clone(),
            "KV read plus the larger of the weights' FLOP time and read time, over all chips.".to_string(),
            step_solution,
        )
        .mistake_number(p / w, "That reads the weights only; each step reads every sequence's cache too, by far the larger part here.".to_string())
        .mistake_number(2.0 * step.value, "That is bf16's 2 bytes a number; everything here is int8.".to_string())
        .mistake_number(n * step.value, "That is one chip's bandwidth; every chip reads its own shard at once.".to_string()),
    ];
    let q = question(
        "p7-q4",
        &source(4, true),
        format!(
            "{} Serve it on a TPU v5e {mx}x{my} ({} chips) with int8 weights, activations and math, sequences of {} tokens.{}",
            model_text(&named),
            whole(n),
            whole(ctx),
            era_note(&calc)
        ),
        parts,
        calc,
    )?;
    let mut state = page(&m, b, ctx, Int8, Int8)?;
    state.step.act = Int8;
    Ok(opens(q, state))
}

/// Question 6: expert sharding on a v5e 8x16: the weights' load time, the
/// HBM left a chip, and the smallest slice that holds the model.
pub(super) fn p7_q6(d: &mut Draw) -> Result<Question, CoreError> {
    let named = chapter_model(d);
    let (e, k) = d.pick((16.0, 2.0), &[(8.0, 2.0), (16.0, 2.0), (32.0, 4.0)]);
    let m = moe(named.0.clone(), e, k);
    let (y, z) = (8u32, 16u32);
    let n = f64::from(y * z);
    let calc = chips_setup("v5e", y * z, m.d_model, m.d_ff);
    let cap = hbm_capacity(&calc)?;
    let (p, act) = (m.params(), m.active_params());
    let load = with_eras(&calc, &|c| Ok(p / (n * peak_bw(c, Int8)?.1)))?;
    let bw = peak_bw(&calc, Int8)?.1;
    let free = cap - p / n;
    let (fit, shape) = slice_for(p / cap).ok_or_else(|| invalid("too large"))?;
    let raw = (p / cap).ceil();
    if free <= 0.0 || fit == raw {
        return Err(invalid("the slice rule makes no difference"));
    }
    let parts = vec![
        Part::number(
            "a",
            "How long does reading every int8 weight from HBM take, once?".to_string(),
            Unit::Seconds,
            0.03,
            load.clone(),
            "Every expert is stored, and at a large batch every one is read. The weights are split over all Y·Z chips, each reading its own shard.".to_string(),
            vec![
                format!("Parameters: {} (all E experts), {} bytes in int8.", count_text(p), sci(p)),
                format!("{} ÷ ({} · {}) = {}.", sci(p), whole(n), bw_text(bw), format::seconds(load.value)),
                "X is the training's FSDP axis: at inference it is 1, so D is not split and the Y·Z chips hold everything.".to_string(),
            ],
        )
        .mistake_number(act / (n * bw), "That reads the active parameters only; at a large batch the tokens use every expert, and every one is read.".to_string())
        .mistake_number(2.0 * load.value, "That is bf16's 2 bytes a weight; int8 takes one.".to_string())
        .mistake_number(n * load.value, "That is one chip's bandwidth; every chip reads its own shard at once.".to_string()),
        Part::number(
            "b",
            "How much HBM is left free on each chip?".to_string(),
            Unit::Bytes,
            0.02,
            (free, Vec::new()),
            "One chip's HBM less its share of the weights.".to_string(),
            vec![format!("{} − {} ÷ {} = {} − {} = {}, for the KV caches and activations.", format::bytes(cap), sci(p), whole(n), format::bytes(cap), format::bytes(p / n), format::bytes(free))],
        )
        .mistake_number(cap - 2.0 * p / n, "That stores the weights in bf16; they are int8, one byte each.".to_string())
        .mistake_number(cap - act / n, "That stores the active parameters only; every expert must be in HBM.".to_string())
        .mistake_number(p / n, "That is the weights' share; the question asks what is left.".to_string()),
        Part::number(
            "c",
            "How many chips has the smallest v5e slice that holds the int8 weights?".to_string(),
            Unit::None,
            0.002,
            (fit, Vec::new()),
            "The weights over one chip's HBM, rounded up to a slice.".to_string(),
            vec![
                format!("{} ÷ {} = {}: a {shape}, {} chips (with little left for the caches).", sci(p), format::bytes(cap), sig(p / cap, 3), whole(fit)),
            ],
        )
        .mistake_number(raw, "That many chips hold the weights, but v5e slices come as 2x2, 2x4, 4x4, 4x8, 8x8, 8x16 and 16x16: take the first one that large.".to_string())
        .mistake_number(slice_for(act / cap).map_or(1.0, |s| s.0), "That holds the active parameters only; every expert must be stored.".to_string())
        .mistake_number(slice_for(2.0 * p / cap).map_or(1.0, |s| s.0), "That stores the weights in bf16; they are int8.".to_string()),
    ];
    let q = question(
        "p7-q6",
        &source(6, true),
        format!(
            "{} Make it an MoE with E = {} experts, k = {} used per token, weights in int8. The first MLP weight, [E, D, F], is sharded [E_Z, D_X, F_Y], X used only in training (FSDP). Serve it on a TPU v5e 8x16 slice with Y = {y}, Z = {z}.{}",
            model_text(&named),
            whole(e),
            whole(k),
            era_note(&calc)
        ),
        parts,
        calc,
    )?;
    // The page at a batch large enough that every expert is read.
    Ok(opens(q, page(&m, 256.0, 2048.0, Int8, Int8)?))
}

/// Question 7: 2D weight-stationary sharding: its comms time, the best
/// split of the chips, and the chip count above which it beats 1D tensor
/// parallelism (4BD/3W).
pub(super) fn p7_q7(d: &mut Draw) -> Result<Question, CoreError> {
    let r: f64 = d.pick(4.0, &[2.0, 3.0, 4.0, 8.0]);
    let nn: f64 = d.pick(128.0, &[32.0, 128.0, 512.0]);
    let b = d.pick(1024.0, &[256.0, 512.0, 1024.0, 2048.0]);
    let dm = 8192.0;
    let f = r * dm;
    // The Scale page's mesh: X chips by Y·Z, split 2-D for a 3-D chip.
    let x = (nn / (2.0 * r)).sqrt();
    let (mx, my, mz) = match nn as u32 {
        32 => (2u32, 4u32, 4u32),
        128 => (4, 4, 8),
        _ => (8, 8, 8),
    };
    let mesh = format!("X:{mx},Y:{my},Z:{mz}");
    let l = links("v5p", &mesh)?;
    let sz = sizes(&[("B", b), ("D", dm), ("F", f)]);
    let ar = coll(&l, CollOp::AllReduce, "bf16[B,F_YZ]{U_X}", "X", &sz)?;
    let w = l.axis('X').ok_or_else(|| invalid("no axis"))?.per_chip();
    let yz = f64::from(my * mz);
    // Step 3's term of the formula, checked against the Scale page's own
    // AllReduce over X.
    let term = 4.0 * b * f / (yz * w);
    if (ar.cost.book_time - term).abs() > 1e-9 * term {
        return Err(invalid("the formula's AllReduce disagrees with the core"));
    }
    let cross = 18.0 * r;
    let sym = &["B", "D", "F", "X", "Y", "Z", "W"];
    let parts = vec![
        Part::formula(
            "a",
            "What is T_comms for the algorithm, with W the ICI bandwidth a chip has along one axis? A formula in B, D, F, X, Y, Z, W (bf16 activations).".to_string(),
            sym,
            "2*B*D/(X*W) + 4*B*F/(Y*Z*W)".to_string(),
            Vec::new(),
            "Three collectives. Each moves the bf16 array it acts on, divided by the axes it runs over (two axes, twice the links); an AllReduce costs two AllGathers.".to_string(),
            vec![
                "Step 1, AllGather over YZ of In[B, D_X]: 2BD/X bytes over two axes, 2BD/(2X·W).".to_string(),
                "Step 3, AllReduce over X of Tmp[B, F_YZ]: 2BF/(YZ) bytes, an AllReduce twice an AllGather: 4BF/(YZ·W).".to_string(),
                "Step 5, ReduceScatter over YZ, like step 1: 2BD/(2X·W).".to_string(),
                "T = 2BD/(X·W) + 4BF/(YZ·W).".to_string(),
            ],
        )
        .mistake_formula("2*B*D/(X*W) + 2*B*F/(Y*Z*W)", "That takes the AllReduce as one AllGather; it is a ReduceScatter and an AllGather, twice the bytes.".to_string())
        .mistake_formula("4*B*D/(X*W) + 4*B*F/(Y*Z*W)", "That runs the collectives over YZ on one axis's links; over two axes a chip uses twice the links, half the time.".to_string())
        .mistake_formula("B*D/(X*W) + 2*B*F/(Y*Z*W)", "That counts numbers, not bytes; the activations are bf16, 2 bytes each.".to_string()),
        Part::number(
            "b",
            format!("With F = {}·D and N = X·Y·Z = {} chips, what X makes T_comms least (the app's N)?", sig(r, 2), whole(nn)),
            Unit::None,
            0.02,
            (x, Vec::new()),
            "Write YZ = N/X and set the derivative in X to zero.".to_string(),
            vec![
                format!("T ∝ D/X + 2F·X/N; its derivative −D/X² + 2F/N is zero at X = √(D·N / 2F) = √(N/{}) = {}.", sig(2.0 * r, 2), sig(x, 3)),
                format!("Then YZ = N/X = {}, and T = 4B·√(2DF/N)/W.", sig(nn / x, 3)),
            ],
        )
        .mistake_number((nn / r).sqrt(), "That takes the AllReduce as one AllGather; it costs twice, so the F term weighs twice as much.".to_string())
        .mistake_number(nn / x, "That is Y·Z; X is the smaller factor, √(D·N / 2F).".to_string()),
        Part::number(
            "c",
            "1D tensor parallelism's comms take 4BD/(3·W). Above how many chips N does 2D weight-stationary move less?".to_string(),
            Unit::None,
            0.02,
            (cross, Vec::new()),
            "Compare 4BD/(3W) with the least 2D time, 4B·√(2DF/N)/W, and solve for N.".to_string(),
            vec![
                format!("4BD/(3W) > 4B·√(2DF/N)/W ⇔ √N > 3·√(2F/D) ⇔ N > 18·F/D = {}.", whole(cross)),
                "The book writes it 32·(F/D)·(3/4)²; with F = 4D, √128·BD/(√N·W) against 4BD/(3W): N > 72.".to_string(),
            ],
        )
        .mistake_number(9.0 * r, "That takes the AllReduce as one AllGather; with its true cost the crossing doubles.".to_string())
        .mistake_number(24.0 * r, "That leaves (3/4) unsquared; N sits under a square root, so the ratio is squared.".to_string()),
    ];
    let calc = CalcSetup::new(
        "v5p",
        &matmul(Bf16, Bf16, Bf16),
        &[("B", b), ("D", dm), ("F", f)],
        LevelKind::Hbm,
    );
    let q = question(
        "p7-q7",
        &source(7, false),
        format!(
            "2D weight-stationary sharding on N = X·Y·Z chips: (1) In[B, D_X] = AllGather_YZ(In[B, D_XYZ]); (2) Tmp[B, F_YZ]{{U_X}} = In[B, D_X] ·_D W_in[D_X, F_YZ]; (3) Tmp[B, F_YZ] = AllReduce_X(Tmp); (4) Out[B, D_X]{{U_YZ}} = Tmp ·_F W_out[F_YZ, D_X]; (5) Out[B, D_XYZ] = ReduceScatter_YZ(Out). Activations in bf16; choose any topology. The Scale page shows step 3 on a TPU v5p mesh {{X: {mx}, Y: {my}, Z: {mz}}} with B = {}, D = {}, F = {}.",
            whole(b), whole(dm), whole(f)
        ),
        parts,
        calc,
    )?;
    let s = coll_state(&mesh, CollOp::AllReduce, "X", "bf16[B,F_YZ]{U_X}");
    Ok(opens_scale(q, ScaleSetup::new(s), None))
}
