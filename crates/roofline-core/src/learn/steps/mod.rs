//! The steps of the Learn page: the chapter's eight, a whole model, and
//! Part 3's AllReduce. Each builds a calculator state from its controls'
//! values and words its paragraphs from that state's evaluation. The words
//! are the project's own; the numbers are computed. The states are built
//! in `states.rs`, the words in `../words.rs` (the tenth's in
//! `../words_collective.rs`).

pub(super) mod states;

use super::words::{
    batch_words, dtype_words, exact_words, intensity_words, levels_words, model_words,
    network_words, reading_words, time_words,
};
use super::words_collective::allreduce_words;
use super::{Control, ControlKind, Figure, Step};
use crate::op::Shortcut;
use states::{
    allreduce_state, bandwidth_state, dtype_state, intensity_state, levels_state, matmul,
    model_state, network_state,
};

/// The batch sizes the sliders offer (tokens on one chip).
const BATCHES: &[f64] = &[
    1.0, 4.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0, 1024.0, 4096.0, 16384.0,
];

/// The steps: the chapter's eight in its order, a whole model, then Part 3.
pub static STEPS: [Step; 10] = [
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
    Step {
        title: "Part 3: the chips’ sum is an AllReduce",
        controls: &[
            Control {
                key: "chips",
                label: "Chips N on the axis X",
                kind: ControlKind::Slider,
                values: &[2.0, 4.0, 8.0, 16.0],
                names: &[],
                default: 1,
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
        build: allreduce_state,
        words: allreduce_words,
    },
];
