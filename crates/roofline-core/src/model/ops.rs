//! Every operation of a layer as the einsum Part 1 analyses: the Q, K, V
//! and O projections, the MLP's matrices (per expert for an MoE), QK and
//! attention × V, and the output projection once per step, each with its
//! FLOPs, bytes, intensity and time on the chips serving the model, and the
//! notation and sizes that open it in the calculator.

use super::run::{wider, ModelAnalysis, ModelRun};
use super::state::Phase;
use crate::hardware::{Chip, LevelKind};
use crate::{CoreError, DType};

/// One operation of the step.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelOp {
    /// Stable key (`q`, `mlp-up`, `qk`...): `data-op` in the app.
    pub key: &'static str,
    /// What it is, for the table.
    pub name: String,
    /// The einsum in the book's notation.
    pub notation: String,
    /// Each dimension's size, for the calculator (whole numbers ≥ 1).
    pub sizes: Vec<(&'static str, f64)>,
    /// How many times it runs per step (layers × experts read × matrices).
    pub count: f64,
    /// FLOPs of one run.
    pub flops: f64,
    /// Bytes of one run: its inputs read, its output written.
    pub bytes: f64,
    /// FLOPs ÷ bytes.
    pub intensity: f64,
    /// The type its math runs at.
    pub math: DType,
    /// One run's time on the chips: max(FLOPs ÷ C, bytes ÷ W).
    pub time: f64,
    /// Whether one run is compute-bound.
    pub compute_bound: bool,
    /// Its share of the sum of every operation's total time.
    pub share: f64,
    /// The dimension the tensor-parallel layout splits over the chips, and
    /// whether it is summed over (the chips then all-reduce their partial
    /// outputs, the calculator's network case).
    pub split: (&'static str, bool),
}

/// How the calculator opens one chip's part of `op` served by `chips`
/// chips: its sizes, the chips and the split dimension. A summed-over
/// split opens as the calculator's network case over all the chips (each
/// holds a slice of the sum, then they all-reduce); any other as one chip's
/// share, the split dimension divided (the KV heads at least one each,
/// the query heads per KV head following).
pub fn calc_share(
    op: &ModelOp,
    chips: f64,
) -> (Vec<(&'static str, f64)>, u32, Option<&'static str>) {
    let (dim, summed) = op.split;
    if chips <= 1.0 {
        return (op.sizes.clone(), 1, None);
    }
    if summed {
        return (
            op.sizes.clone(),
            chips.min(f64::from(u32::MAX)) as u32,
            Some(dim),
        );
    }
    let size = |d: &str| op.sizes.iter().find(|s| s.0 == d).map_or(1.0, |s| s.1);
    let mut sizes = op.sizes.clone();
    for s in &mut sizes {
        if s.0 == dim {
            s.1 = (s.1 / chips).ceil().max(1.0);
        }
    }
    // Attention: K heads over n chips; beyond K each chip keeps one KV
    // head and N/n query heads, so G = N/n.
    if dim == "K" && chips > size("K") {
        let n_heads = size("K") * size("G");
        for s in &mut sizes {
            if s.0 == "G" {
                s.1 = (n_heads / chips).ceil().max(1.0);
            }
        }
    }
    (sizes, 1, None)
}

/// An einsum with two inputs: `a[dims_a] * b[dims_b] -> out[dims_out]`.
struct Einsum<'a> {
    a: (DType, &'a [&'static str]),
    b: (DType, &'a [&'static str]),
    out: (DType, &'a [&'static str]),
}

impl Einsum<'_> {
    fn notation(&self) -> String {
        let side = |(d, dims): (DType, &[&str])| format!("{d}[{}]", dims.join(","));
        format!("{} * {} -> {}", side(self.a), side(self.b), side(self.out))
    }
}

/// The operations of `run`'s step on `chip`, given its analysis `a`.
pub fn ops(run: &ModelRun, a: &ModelAnalysis, chip: &Chip) -> Result<Vec<ModelOp>, CoreError> {
    let m = &run.config;
    let (w, kv, act) = (run.step.weights, run.step.kv, run.step.act);
    let n = run.chips;
    let peak = |d: DType| -> Result<f64, CoreError> { Ok(chip.peak(d)? * n * run.step.eff_flops) };
    let bw = chip.bandwidth(LevelKind::Hbm)? * n * run.step.eff_bw;
    let t = match run.step.phase {
        Phase::Decode => 1.0,
        Phase::Prefill => run.step.prompt,
    };
    let tokens = run.step.batch * t;
    // Keys each query attends to (see `run::analyze`).
    let attended = match run.step.phase {
        Phase::Decode => run.step.context + 1.0,
        Phase::Prefill => run.step.context + (t + 1.0) / 2.0,
    };
    // Tokens each expert read sees: the step's k choices per token spread
    // over the experts read.
    let per_expert = tokens * m.active / a.experts_read;
    let (nh, kh) = (m.heads * m.head_dim, m.kv_heads * m.head_dim);
    let mut out = Vec::new();
    let mut push = |key: &'static str,
                    name: String,
                    e: Einsum,
                    sizes: Vec<(&'static str, f64)>,
                    count: f64,
                    split: (&'static str, bool)|
     -> Result<(), CoreError> {
        let size = |dims: &[&str]| -> f64 {
            dims.iter()
                .map(|d| sizes.iter().find(|s| s.0 == *d).map_or(1.0, |s| s.1))
                .product()
        };
        let all: Vec<&str> = {
            let mut v: Vec<&str> = Vec::new();
            for d in e.a.1.iter().chain(e.b.1).chain(e.out.1) {
                if !v.contains(d) {
                    v.push(d);
                }
            }
            v
        };
        let flops = 2.0 * size(&all);
        let bytes = size(e.a.1) * e.a.0.bytes()
            + size(e.b.1) * e.b.0.bytes()
            + size(e.out.1) * e.out.0.bytes();
        let math = run.step.math.unwrap_or_else(|| wider(e.a.0, e.b.0));
        let (t_math, t_bytes) = (flops / peak(math)?, bytes / bw);
        out.push(ModelOp {
            key,
            name,
            notation: e.notation(),
            sizes: sizes.iter().map(|(d, v)| (*d, v.ceil().max(1.0))).collect(),
            count,
            flops,
            bytes,
            intensity: flops / bytes,
            math,
            time: t_math.max(t_bytes),
            compute_bound: t_math > t_bytes,
            share: 0.0,
            split,
        });
        Ok(())
    };
    let layers = m.layers;
    push(
        "q",
        "Q projection".to_string(),
        Einsum {
            a: (act, &["BT", "D"]),
            b: (w, &["D", "NH"]),
            out: (act, &["BT", "NH"]),
        },
        vec![("BT", tokens), ("D", m.d_model), ("NH", nh)],
        layers,
        ("NH", false),
    )?;
    push(
        "kv",
        "K and V projections (each)".to_string(),
        Einsum {
            a: (act, &["BT", "D"]),
            b: (w, &["D", "KH"]),
            out: (act, &["BT", "KH"]),
        },
        vec![("BT", tokens), ("D", m.d_model), ("KH", kh)],
        2.0 * layers,
        ("KH", false),
    )?;
    push(
        "qk",
        "QK (attention scores)".to_string(),
        Einsum {
            a: (act, &["B", "T", "K", "G", "H"]),
            b: (kv, &["B", "A", "K", "H"]),
            out: (act, &["B", "T", "K", "G", "A"]),
        },
        vec![
            ("B", run.step.batch),
            ("T", t),
            ("K", m.kv_heads),
            ("G", m.group()),
            ("H", m.head_dim),
            ("A", attended),
        ],
        layers,
        ("K", false),
    )?;
    push(
        "av",
        "Attention × V".to_string(),
        Einsum {
            a: (act, &["B", "T", "K", "G", "A"]),
            b: (kv, &["B", "A", "K", "H"]),
            out: (act, &["B", "T", "K", "G", "H"]),
        },
        vec![
            ("B", run.step.batch),
            ("T", t),
            ("K", m.kv_heads),
            ("G", m.group()),
            ("A", attended),
            ("H", m.head_dim),
        ],
        layers,
        ("K", false),
    )?;
    push(
        "o",
        "O projection".to_string(),
        Einsum {
            a: (act, &["BT", "NH"]),
            b: (w, &["NH", "D"]),
            out: (act, &["BT", "D"]),
        },
        vec![("BT", tokens), ("NH", nh), ("D", m.d_model)],
        layers,
        ("NH", true),
    )?;
    let (each, experts) = if m.is_moe() {
        (" (each expert read)", a.experts_read)
    } else {
        ("", 1.0)
    };
    let up_count = if m.gated { 2.0 } else { 1.0 };
    push(
        "mlp-up",
        if m.gated {
            format!("MLP gate and up{each}")
        } else {
            format!("MLP up{each}")
        },
        Einsum {
            a: (act, &["BT", "D"]),
            b: (w, &["D", "F"]),
            out: (act, &["BT", "F"]),
        },
        vec![("BT", per_expert), ("D", m.d_model), ("F", m.d_ff)],
        up_count * experts * layers,
        ("F", false),
    )?;
    push(
        "mlp-down",
        format!("MLP down{each}"),
        Einsum {
            a: (act, &["BT", "F"]),
            b: (w, &["F", "D"]),
            out: (act, &["BT", "D"]),
        },
        vec![("BT", per_expert), ("F", m.d_ff), ("D", m.d_model)],
        experts * layers,
        ("F", true),
    )?;
    push(
        "unembed",
        "Output projection (once per step)".to_string(),
        Einsum {
            a: (act, &["B", "D"]),
            b: (w, &["D", "V"]),
            out: (act, &["B", "V"]),
        },
        vec![("B", run.step.batch), ("D", m.d_model), ("V", m.vocab)],
        1.0,
        ("V", false),
    )?;
    let total: f64 = out.iter().map(|o| o.time * o.count).sum();
    if !(total.is_finite() && total > 0.0) {
        return Err(CoreError::Invalid(
            "the numbers are out of range: the operations' times cannot be computed".to_string(),
        ));
    }
    for o in &mut out {
        o.share = o.time * o.count / total;
    }
    Ok(out)
}
