//! The eight steps of the Learn page: each builds a calculator state from
//! its controls' values and words its paragraphs from that state's
//! evaluation. The words are the project's own; the numbers are computed.

use super::words::n;
use super::words::{
    batch_words, dtype_words, exact_words, intensity_words, levels_words, model_words,
    network_words, reading_words, time_words,
};
use super::{Control, ControlKind, Figure, Step};
use crate::analysis::CriticalSize;
use crate::calc::CalcView;
use crate::format;
use crate::hardware::preset;
use crate::op::{Operation, Shortcut};
use crate::report::critical_text;
use crate::small::map_of;
use crate::state::{default_batch_dim, CalcState, DEFAULT_CHIP};
use crate::{CoreError, DType, LevelKind};

/// The batch sizes the sliders offer (tokens on one chip).
const BATCHES: &[f64] = &[
    1.0, 4.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0, 1024.0, 4096.0, 16384.0,
];

/// The eight steps, in the chapter's order.
pub static STEPS: [Step; 9] = [
    Step {
        title: "Where the time goes",
        controls: &[Control {
            key: "b",
            label: "Batch B (tokens)",
            kind: ControlKind::Slider,
            values: BATCHES,
            names: &[],
            default: 4,
        }],
        figure: Figure::Roofline,
        axes_switch: false,
        build: |v| matmul(Shortcut::Matmul, v[0], 4096.0, None),
        words: time_words,
    },
    Step {
        title: "Arithmetic intensity",
        controls: &[Control {
            key: "op",
            label: "Operation",
            kind: ControlKind::Select,
            values: &[0.0, 1.0, 2.0, 3.0],
            names: &[
                "Dot product in bf16, N = 10⁶ (vector unit)",
                "Matmul, all bf16, B = 256, D = F = 4096",
                "Matmul, int8 weights, bf16 activations and output, B = 256, D = F = 4096",
                "Batched matmul, all int8 (int8 peak), a matrix per example, B = 256, D = F = 4096",
            ],
            default: 1,
        }],
        figure: Figure::Roofline,
        axes_switch: false,
        build: intensity_state,
        words: intensity_words,
    },
    Step {
        title: "Reading the roofline figure",
        controls: &[Control {
            key: "bw",
            label: "HBM bandwidth",
            kind: ControlKind::Slider,
            values: &[0.25, 0.5, 1.0, 2.0, 4.0, 8.0],
            names: &[
                "¼ × the chip’s",
                "½ × the chip’s",
                "the chip’s own",
                "2 × the chip’s",
                "4 × the chip’s",
                "8 × the chip’s",
            ],
            default: 2,
        }],
        figure: Figure::Roofline,
        axes_switch: true,
        build: bandwidth_state,
        words: reading_words,
    },
    Step {
        title: "Two memory levels, two lines, two bends",
        controls: &[
            Control {
                key: "level",
                label: "The weights come from",
                kind: ControlKind::Select,
                values: &[0.0, 1.0],
                names: &["HBM", "VMEM"],
                default: 0,
            },
            Control {
                key: "b",
                label: "Batch B (tokens)",
                kind: ControlKind::Slider,
                values: BATCHES,
                names: &[],
                default: 4,
            },
        ],
        figure: Figure::Roofline,
        axes_switch: true,
        build: levels_state,
        words: levels_words,
    },
    Step {
        title: "The matmul and the critical batch",
        controls: &[
            Control {
                key: "seqs",
                label: "Sequences on this chip",
                kind: ControlKind::Slider,
                values: &[1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0],
                names: &[],
                default: 3,
            },
            Control {
                key: "len",
                label: "Tokens per sequence in this step",
                kind: ControlKind::Slider,
                values: &[1.0, 2.0, 4.0, 8.0, 16.0, 64.0, 256.0],
                names: &[],
                default: 0,
            },
        ],
        figure: Figure::Roofline,
        axes_switch: false,
        build: |v| matmul(Shortcut::Matmul, v[0] * v[1], 4096.0, None),
        words: batch_words,
    },
    Step {
        title: "Data types: FLOPs stay, bytes change",
        controls: &[
            Control {
                key: "weights",
                label: "Weights stored as",
                kind: ControlKind::Select,
                values: &[0.0, 1.0, 2.0],
                names: &["bf16", "int8", "int4"],
                default: 1,
            },
            Control {
                key: "math",
                label: "Math runs in",
                kind: ControlKind::Select,
                values: &[0.0, 1.0],
                names: &["bf16", "int8"],
                default: 0,
            },
        ],
        figure: Figure::Roofline,
        axes_switch: false,
        build: dtype_state,
        words: dtype_words,
    },
    Step {
        title: "When “B ≪ D, F” stops being true",
        controls: &[Control {
            key: "df",
            label: "D = F",
            kind: ControlKind::Slider,
            values: &[128.0, 256.0, 512.0, 1024.0, 2048.0, 4096.0, 8192.0, 16384.0],
            names: &[],
            default: 3,
        }],
        figure: Figure::Batch,
        axes_switch: false,
        build: |v| {
            let mut s = matmul(Shortcut::MixedMatmul, 256.0, v[0], None)?;
            s.pairs = vec![(4096.0, 4096.0), (v[0], v[0])];
            s.pairs.dedup();
            Ok(s)
        },
        words: exact_words,
    },
    Step {
        title: "The network roofline",
        controls: &[
            Control {
                key: "chips",
                label: "Chips N that split D",
                kind: ControlKind::Slider,
                values: &[2.0, 4.0, 8.0, 16.0],
                names: &[],
                default: 0,
            },
            Control {
                key: "d",
                label: "D",
                kind: ControlKind::Slider,
                values: &[1024.0, 2048.0, 4096.0, 8192.0, 16384.0, 32768.0, 65536.0],
                names: &[],
                default: 3,
            },
        ],
        figure: Figure::Roofline,
        axes_switch: false,
        build: network_state,
        words: network_words,
    },
    Step {
        title: "A whole model: decode is the small-B matmul",
        controls: &[
            Control {
                key: "seqs",
                label: "Sequences B",
                kind: ControlKind::Slider,
                values: &[1.0, 4.0, 16.0, 64.0, 128.0, 256.0, 512.0, 1024.0],
                names: &[],
                default: 2,
            },
            Control {
                key: "weights",
                label: "Weights stored as",
                kind: ControlKind::Select,
                values: &[0.0, 1.0],
                names: &["bf16", "int8"],
                default: 1,
            },
        ],
        figure: Figure::Roofline,
        axes_switch: false,
        build: model_state,
        words: model_words,
    },
];

// ---- building the states -------------------------------------------------

/// A state on the default chip for operation `op` with the given sizes.
pub(super) fn state_of(op: &Operation, sizes: &[(&str, f64)]) -> CalcState {
    CalcState {
        op: op.notation(),
        sizes: map_of(sizes.iter().map(|(k, v)| (k.to_string(), *v))),
        batch_dim: default_batch_dim(op),
        level2: None,
        ..CalcState::default()
    }
}

/// The matmul `shortcut` with batch `b` and D = F = `df`; `weights`
/// replaces the second operand's type.
pub(super) fn matmul(
    shortcut: Shortcut,
    b: f64,
    df: f64,
    weights: Option<DType>,
) -> Result<CalcState, CoreError> {
    let mut op = shortcut.operation();
    if let (Some(w), Some(y)) = (weights, op.inputs.get_mut(1)) {
        y.dtype = w;
    }
    Ok(state_of(&op, &[("B", b), ("D", df), ("F", df)]))
}

fn intensity_state(v: &[f64]) -> Result<CalcState, CoreError> {
    Ok(match v[0] as u32 {
        0 => state_of(&Shortcut::DotProduct.operation(), &[("N", 1e6)]),
        2 => matmul(Shortcut::MixedMatmul, 256.0, 4096.0, None)?,
        3 => state_of(
            &Shortcut::BatchedMatmul.operation(),
            &[("B", 256.0), ("D", 4096.0), ("F", 4096.0)],
        ),
        _ => matmul(Shortcut::Matmul, 256.0, 4096.0, None)?,
    })
}

fn bandwidth_state(v: &[f64]) -> Result<CalcState, CoreError> {
    let mut s = matmul(Shortcut::Matmul, 256.0, 4096.0, None)?;
    if v[0] != 1.0 {
        let chip = preset(DEFAULT_CHIP).ok_or_else(|| no_chip(DEFAULT_CHIP))?;
        s.bw_overrides = vec![(LevelKind::Hbm, chip.bandwidth(LevelKind::Hbm)? * v[0])];
    }
    Ok(s)
}

fn levels_state(v: &[f64]) -> Result<CalcState, CoreError> {
    let mut s = matmul(Shortcut::Matmul, v[1], 4096.0, None)?;
    let (first, second) = if v[0] == 1.0 {
        (LevelKind::Vmem, LevelKind::Hbm)
    } else {
        (LevelKind::Hbm, LevelKind::Vmem)
    };
    s.level1 = first;
    s.level2 = Some(second);
    Ok(s)
}

pub(super) fn dtype_of(i: f64, names: &[DType]) -> DType {
    names.get(i as usize).copied().unwrap_or(DType::Bf16)
}

fn dtype_state(v: &[f64]) -> Result<CalcState, CoreError> {
    let weights = dtype_of(v[0], &[DType::Bf16, DType::Int8, DType::Int4]);
    let math = dtype_of(v[1], &[DType::Bf16, DType::Int8]);
    let mut s = matmul(Shortcut::Matmul, 256.0, 4096.0, Some(weights))?;
    if math == DType::Int8 {
        // The activations are quantised too: the math reads int8 inputs.
        let mut op = Operation::parse(&s.op)?;
        if let Some(x) = op.inputs.get_mut(0) {
            x.dtype = DType::Int8;
        }
        s.op = op.notation();
        s.compute = Some(DType::Int8);
    } else {
        s.compute = Some(DType::Bf16);
    }
    Ok(s)
}

/// LLaMA-3-8B's MLP matrix in a decode step: B sequences, one token each,
/// times W[D, F] with D = 4096, F = 14336, the weights as chosen.
fn model_state(v: &[f64]) -> Result<CalcState, CoreError> {
    let weights = dtype_of(v[1], &[DType::Bf16, DType::Int8]);
    let mut s = matmul(Shortcut::Matmul, v[0], 4096.0, Some(weights))?;
    s.sizes.insert("F".to_string(), 14336.0);
    s.compute = Some(DType::Bf16);
    Ok(s)
}

fn network_state(v: &[f64]) -> Result<CalcState, CoreError> {
    let mut s = matmul(Shortcut::Matmul, 256.0, 4096.0, None)?;
    s.sizes.insert("D".to_string(), v[1]);
    s.chips = v[0] as u32;
    s.shard = Some("D".to_string());
    Ok(s)
}

/// "1 token", "8 tokens".
pub(super) fn plural(x: f64, what: &str) -> String {
    format!("{} {what}{}", n(x), if x == 1.0 { "" } else { "s" })
}

/// "2 bytes", "1 byte", "0.5 bytes": one element of `d`.
pub(super) fn per_element(d: DType) -> String {
    let b = d.bytes();
    format!(
        "{} byte{}",
        format::sig(b, 3),
        if b == 1.0 { "" } else { "s" }
    )
}

/// When `c` says the operation is compute-bound: "when B > 240", "never",
/// "at every size".
pub(super) fn when(dim: &str, c: &CriticalSize) -> String {
    match c {
        CriticalSize::At { .. } => format!("when {}", critical_text(dim, c)),
        CriticalSize::Never { .. } => "never".to_string(),
        CriticalSize::Always => "at every size".to_string(),
    }
}

/// When `v`'s operation is compute-bound as its batch dimension grows
/// ([`when`] of its critical size); empty without one.
pub(super) fn compute_bound(v: &CalcView) -> String {
    v.critical
        .as_ref()
        .map_or_else(String::new, |(d, c)| when(d, c))
}

pub(super) fn no_chip(id: &str) -> CoreError {
    CoreError::Invalid(format!("the chip {id} is not in the catalogue"))
}
