//! Part 4's practice questions 2, 4 and 6 (`p4-q…`): the FLOPs of a matmul
//! sharded over a mesh that leaves one axis out, the arithmetic intensity
//! of self-attention, and the FLOPs that rematerialising attention costs.

use crate::format::sci;
use crate::model::preset;
use crate::quiz::answer::Unit;
use crate::quiz::{CalcSetup, Expected, Mistake, Part, Question, ScaleSetup, SOURCE_PRACTICE};
use crate::scale::{sharded_matmul, ScaleState};
use crate::{format, CoreError, DType, LevelKind};

use super::feedback::{era_note, with_eras};
use super::helpers::{matmul, never_options, question, verified};
use super::models::{chips_setup, opens, page_preset, peak_bw, prefill, whole};
use super::scales::{links, opens_scale, sizes};
use super::setup::analysis;
use super::texts::{bw_text, rate_text};
use super::{invalid, Draw};

use DType::Bf16;

fn source(n: u32) -> String {
    format!("Part 4, {} {n}", SOURCE_PRACTICE.to_lowercase())
}

/// Question 2: A[B_X, D_Y] ·_D W[D_Y, F] on a mesh {X, Y, Z}: the FLOPs of
/// all the chips together (Z repeats the work) and of one chip.
pub(super) fn p4_q2(d: &mut Draw) -> Result<Question, CoreError> {
    let (x, y, z) = d.pick(
        (4u32, 8u32, 4u32),
        &[
            (4, 4, 4),
            (4, 8, 4),
            (8, 4, 2),
            (2, 8, 8),
            (4, 4, 8),
            (8, 8, 2),
        ],
    );
    let b = d.pick(4096.0, &[1024.0, 2048.0, 4096.0, 8192.0]);
    let dm = d.pick(8192.0, &[4096.0, 8192.0, 16384.0]);
    let f = d.pick(32768.0, &[16384.0, 32768.0, 65536.0]);
    let (xf, yf, zf) = (f64::from(x), f64::from(y), f64::from(z));
    let mesh = format!("X:{x},Y:{y},Z:{z}");
    let calc = CalcSetup::new(
        "v5p",
        &matmul(Bf16, Bf16, Bf16),
        &[("B", b), ("D", dm), ("F", f)],
        LevelKind::Hbm,
    );
    let once = analysis(&calc)?.flops;
    let op = "bf16[B_X,D_Y]*bf16[D_Y,F]->bf16[B_X,F]";
    let l = links("v5p", &mesh)?;
    let chip = calc.chip()?;
    let local =
        sharded_matmul(op, &l, &chip, &sizes(&[("B", b), ("D", dm), ("F", f)]))?.local_flops;
    let bdf = &["B", "D", "F"];
    let total = verified(format!("2*B*D*F*{z}"), bdf, &calc, once * zf)?;
    // A product, not a ratio, so that the check does not read it as an
    // intensity (operations over bytes); shown as the book writes it.
    let each = verified(format!("2*B*D*F*(1/({x}*{y}))"), bdf, &calc, local)?;
    let each_text = format!("2*B*D*F/({x}*{y})");
    let parts = vec![
        Part::formula(
            "a",
            format!("How many FLOPs do all {} chips perform together? A formula in B, D, F.", x * y * z),
            bdf,
            total,
            Vec::new(),
            "Counted once, the matmul is 2BDF. Which mesh axis does not split it?".to_string(),
            vec![
                "Counted once: 2·B·D·F (B kept, D summed, F kept).".to_string(),
                format!("B is split over X and D over Y; nothing is split over Z, so the {z} chips that differ only in Z hold the same shards and repeat the same work: 2·B·D·F·Z = 2·B·D·F·{z}."),
            ],
        )
        .mistake_formula("2*B*D*F", format!("That counts the matmul once; nothing is split over Z, so each of the Z = {z} groups of chips repeats all of it: Z times the FLOPs."))
        .mistake_formula(&format!("B*D*F*{z}"), "That counts one FLOP per product; a multiply and an add make 2.".to_string()),
        Part::formula(
            "b",
            "How many FLOPs does each chip perform? A formula in B, D, F.".to_string(),
            bdf,
            each,
            Vec::new(),
            "Each chip multiplies its own block: B/X rows by a D/Y slice of the summed dimension, against all of F.".to_string(),
            vec![
                format!("2 · (B/X) · (D/Y) · F = {each_text} = 2BDF/{}; each chip's result is a partial sum over its D/Y slice (an AllReduce over Y finishes it).", x * y),
                "Check: the chips together do X·Y·Z times that, part (a).".to_string(),
            ],
        )
        .mistake_formula(&format!("2*B*D*F/({x}*{y}*{z})"), format!("That divides by every chip; Z does not split the work: chips that differ only in Z repeat the same {x}·{y} blocks."))
        .mistake_formula(&format!("2*B*D*F/{x}"), "That splits B alone; D is split over Y too: each chip multiplies only its D/Y slice (a partial sum).".to_string())
        .mistake_formula(&format!("B*D*F/({x}*{y})"), "That counts one FLOP per product; a multiply and an add make 2.".to_string())
        .shown_as(&each_text),
        Part::number(
            "c",
            format!("(The app's sizes.) With B = {}, D = {} and F = {}, how many FLOPs is that per chip?", whole(b), whole(dm), whole(f)),
            Unit::Flops,
            0.01,
            (local, Vec::new()),
            "Put the sizes into part (b)'s formula.".to_string(),
            vec![format!("2 · {} · {} · {} / {} = {} FLOPs, the Scale page's local matmul.", whole(b), whole(dm), whole(f), x * y, sci(local))],
        )
        .mistake_number(once / (xf * yf * zf), "That divides by every chip; Z does not split the work.".to_string())
        .mistake_number(once / xf, "That splits B alone; D is split over Y too.".to_string()),
    ];
    let q = question(
        "p4-q2",
        &source(2),
        format!(
            "A[B_X, D_Y] ·_D W[D_Y, F] → [B_X, F] on a mesh {{X: {x}, Y: {y}, Z: {z}}} ({} chips), in bf16. The book gives no sizes; part (c) takes the app's, on TPU v5p.",
            x * y * z
        ),
        parts,
        calc,
    )?;
    let setup = ScaleSetup {
        op: Some(op.to_string()),
        ..ScaleSetup::new(ScaleState {
            mesh: Some(mesh),
            ..ScaleState::default()
        })
    };
    Ok(opens_scale(q, setup, None))
}

/// Question 4: self-attention's intensity in T, S and G, the prompt length
/// where prefill attention turns compute-bound, and decode's.
pub(super) fn p4_q4(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick("v5e", &["v4p", "v5e", "v5p", "v6e"]);
    let id = d.pick("llama3-70b", &["llama3-8b", "llama3-70b", "llama31-405b"]);
    let pr = preset(id).ok_or_else(|| invalid("no such model"))?;
    let g = pr.config.heads / pr.config.kv_heads;
    let calc = chips_setup(chip, 1, pr.config.d_model, pr.config.d_ff);
    let bf = CalcSetup::new(
        chip,
        &matmul(Bf16, Bf16, Bf16),
        &[
            ("B", 512.0),
            ("D", pr.config.d_model),
            ("F", pr.config.d_ff),
        ],
        LevelKind::Hbm,
    );
    let ci = |c: &CalcSetup| -> Result<f64, CoreError> {
        let (peak, bw) = peak_bw(c, Bf16)?;
        Ok(peak / bw)
    };
    let mha = with_eras(&bf, &|c| Ok(2.0 * ci(c)?))?;
    let gqa = with_eras(&bf, &|c| Ok(ci(c)? * (g + 1.0) / g))?;
    let (peak, bw) = peak_bw(&bf, Bf16)?;
    let crit = peak / bw;
    let name = calc.chip()?.name;
    // B, K and H pass too: the book's unsimplified 4BTSKGH / 4BHK(TG + S).
    let sym = &["T", "S", "G", "B", "K", "H"];
    // The book's printed 240 is the intensity taken as T: G large. Only
    // with the book's numbers, where it lies well outside the tolerance.
    let is_book = d.is_book();
    let book_240 = |p: Part, at: f64| {
        if is_book {
            close_miss(
                p,
                crit,
                format!("That is the book's printed 240: it takes the intensity as T, its limit for large G. With G = {} the intensity is T·G/(G + 1), so T must pass {}.", whole(at), format::plain_number((crit * (at + 1.0) / at).round())),
            )
        } else {
            p
        }
    };
    let parts = vec![
        Part::formula(
            "a",
            "What is self-attention's arithmetic intensity (FLOPs per byte of HBM traffic)? A formula in T, S and G (B, K and H cancel).".to_string(),
            sym,
            "T*S*G/(T*G + S)".to_string(),
            Vec::new(),
            "FLOPs: Q·Kᵀ and the weighted sum of V, 2·B·T·S·N·H each. Bytes: read Q and write the output (B·T·N·H each), read K and V (B·S·K·H each), 2 bytes a number.".to_string(),
            vec![
                "FLOPs: 4·B·T·S·N·H = 4·B·T·S·K·G·H (N = K·G); the softmax's O(B·T·S·N) is small.".to_string(),
                "Bytes: 2·2·B·T·N·H + 2·2·B·S·K·H = 4·B·H·K·(T·G + S).".to_string(),
                "Intensity: 4BTSKGH ÷ 4BHK(TG + S) = T·S·G / (T·G + S).".to_string(),
            ],
        )
        .mistake_formula("T*S/(T+S)", "That counts K and V with every query head, full attention's; grouped-query attention keeps K KV heads for N = K·G query heads, so the cache's bytes shrink by G.".to_string())
        .mistake_formula("2*T*S*G/(T*G + S)", "That counts numbers, not bytes; in bf16 each number takes 2 bytes.".to_string())
        .mistake_formula("2*T*S*G/(T*G + 2*S)", "That leaves out writing the output back to HBM: it is as large as Q.".to_string()),
        book_240(
            Part::number(
                "b",
                format!("In prefill S = T. With multi-head attention (G = 1), above what prompt length T is attention compute-bound on {name} in bf16?"),
                Unit::None,
                0.02,
                mha.clone(),
                "With S = T and G = 1 the intensity is T/2; compare with the chip's peak ÷ bandwidth.".to_string(),
                vec![
                    format!("T·T·1 / (T + T) = T/2 > {} ÷ {} = {}.", rate_text(peak, Bf16), bw_text(bw), format::plain_number(crit.round())),
                    format!("T > {}.", format::plain_number(mha.value.round())),
                ],
            )
            .mistake_number(crit / 2.0, "That halves the threshold; the intensity T/2 must reach the critical intensity, so T must be twice it.".to_string()),
            1.0,
        ),
        book_240(
            Part::number(
                "c",
                format!("With {}'s grouped-query attention, G = N/K = {}, above what T?", pr.name, whole(g)),
                Unit::None,
                0.02,
                gqa.clone(),
                "With S = T the intensity is T·G/(G + 1).".to_string(),
                vec![
                    format!("T·{} / {} > {} ⇔ T > {}.", whole(g), whole(g + 1.0), format::plain_number(crit.round()), format::plain_number(gqa.value.round())),
                    "The larger G, the nearer the intensity comes to T.".to_string(),
                ],
            )
            .mistake_number(2.0 * crit, "That is multi-head attention's (G = 1); with G query heads a KV head the intensity is T·G/(G + 1).".to_string()),
            g,
        ),
        Part::choice(
            "d",
            format!("In decode T = 1. With G = {}, can attention be compute-bound on {name} at any context length S?", whole(g)),
            never_options("S"),
            1,
            "Take T = 1 in part (a) and let S grow.".to_string(),
            vec![
                format!("S·G / (G + S) < G = {}, far below {}: every step reads the whole cache for a handful of FLOPs a byte.", whole(g), format::plain_number(crit.round())),
                "A larger G brings decode nearer, which is one reason for grouped-query attention.".to_string(),
            ],
        ),
    ];
    let q = question(
        "p4-q4",
        &source(4),
        format!(
            "Self-attention alone (no projections): Q[B, T, N, H] against K and V[B, S, K, H], G = N/K query heads per KV head, all in bf16 in HBM (the output written back), the scores kept on chip as Flash Attention does, on {name}.{}",
            era_note(&bf)
        ),
        parts,
        calc,
    )?;
    let m = page_preset(pr.id, 1.0, 0.0, Bf16, Bf16)?;
    Ok(opens(q, prefill(m, gqa.value.ceil())))
}

impl Part {
    /// The same part, its answer shown as `text` (an equivalent formula).
    fn shown_as(mut self, text: &str) -> Part {
        self.expected_text = text.to_string();
        self
    }
}

/// A near miss: `value` judged close, not wrong, with `hint`.
pub(super) fn close_miss(mut p: Part, value: f64, hint: String) -> Part {
    p.mistakes.push(Mistake {
        answer: Expected::Number {
            value,
            also_accept: Vec::new(),
        },
        hint,
        close: true,
    });
    p
}

/// Question 6: the FLOPs of recomputing attention's two matmuls when only
/// the seven weight matmuls' outputs are saved.
pub(super) fn p4_q6(d: &mut Draw) -> Result<Question, CoreError> {
    let id = d.pick("llama3-8b", &["llama3-8b", "llama3-70b", "llama2-13b"]);
    let t = d.pick(8192.0, &[2048.0, 4096.0, 8192.0]);
    let pr = preset(id).ok_or_else(|| invalid("no such model"))?;
    let m = &pr.config;
    let extra = m.layers * 4.0 * t * t * m.heads * m.head_dim;
    let sym = &["B", "T", "N", "K", "H"];
    let parts = vec![
        Part::formula(
            "a",
            "How many extra FLOPs does each layer's backward pass need? A formula in B, T, N, K, H (the O(B·T·D) and O(B·T·F) terms left out).".to_string(),
            sym,
            "4*B*T^2*N*H".to_string(),
            Vec::new(),
            "What lies between the saved Q, K, V and the saved O projection's output? Those matmuls must run again.".to_string(),
            vec![
                "The two attention matmuls, Q·Kᵀ and softmax(Q·Kᵀ)·V, are not saved: the backward pass reruns them.".to_string(),
                "Each is T × T per head, batched over B sequences and N query heads: 2·B·T²·N·H each, 4·B·T²·N·H together.".to_string(),
                "The book counts every T² pair; a causal mask needs about half.".to_string(),
            ],
        )
        .mistake_formula("2*B*T^2*N*H", "That reruns one of the two matmuls; the weighted sum over V must run again too.".to_string())
        .mistake_formula("12*B*T^2*N*H", "That is attention's forward and backward; rematerialising reruns only the forward, 4BT²NH.".to_string())
        .mistake_formula("4*B*T^2*K*H", "That counts K heads; the scores are computed for every query head, N, even where K and V are shared (grouped-query attention).".to_string())
        .mistake_formula("2*B*T^2*K*H", "That counts one matmul and K heads; both matmuls run again, for every query head N.".to_string()),
        Part::number(
            "b",
            format!("(The app's numbers.) For {}'s one sequence of {} tokens, over all {} layers?", pr.name, whole(t), whole(m.layers)),
            Unit::Flops,
            0.02,
            (extra, Vec::new()),
            "Part (a) at B = 1, times the layers.".to_string(),
            vec![
                format!("L · 4 · T² · N · H = {} · 4 · {}² · {} · {} = {} FLOPs.", whole(m.layers), whole(t), whole(m.heads), whole(m.head_dim), sci(extra)),
                format!("Against the forward pass's 2·P·T = {} FLOPs for the weights; the Model page's prefill counts attention with a causal mask, about half of the T² pairs.", sci(2.0 * m.params() * t)),
            ],
        )
        .mistake_number(extra / 2.0, "That is one matmul, or the causal half; the book counts both matmuls over every T² pair.".to_string())
        .mistake_number(extra * m.kv_heads / m.heads, "That counts K heads; the scores are computed for every query head.".to_string())
        .mistake_number(extra / m.layers, "That is one layer; every layer reruns its attention.".to_string()),
    ];
    let q = question(
        "p4-q6",
        &source(6),
        format!(
            "Training saves only the outputs of each layer's seven weight matmuls (Q, K, V, O and the MLP's three) for the backward pass. The layer has N query heads, K KV heads of dimension H, and sees B sequences of T tokens. Part (b) takes {} ({} layers, N = {}, K = {}, H = {}) and one sequence of {} tokens.",
            pr.name, whole(m.layers), whole(m.heads), whole(m.kv_heads), whole(m.head_dim), whole(t)
        ),
        parts,
        chips_setup("v5e", 1, m.d_model, m.d_ff),
    )?;
    let page = page_preset(pr.id, 1.0, 0.0, Bf16, Bf16)?;
    Ok(opens(q, prefill(page, t)))
}
