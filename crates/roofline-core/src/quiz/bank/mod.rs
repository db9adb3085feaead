//! The question bank. Each builder reads its parameters from a [`Draw`]
//! (the book's numbers, or a variant's) and computes every expected answer
//! with the core: [`analyze`], [`critical_size`](crate::critical_size),
//! [`network`](crate::network()) and the hardware presets. Formulas are
//! written from the operation's own byte and FLOP terms and checked against
//! the core's counts at the setup's sizes.
//!
//! This file holds the table of questions ([`BANK`]), the draw of a
//! variant's numbers and the checks every built question passes. The
//! builders live by where the questions come from:
//!
//! * `examples`: the chapter's worked examples (`ex-…`);
//! * `practice`: the chapter's practice questions (`q1` to `q5`);
//! * `extras_hardware` and `extras_operations`: Roofline Lab's own
//!   questions (`x-…`), on data types, memories and chips, and on other
//!   operations and times;
//! * `helpers`: what they share (parts, formulas), with `setup` (the
//!   answers the core computes for a setup) and `texts` (how numbers,
//!   rates and chips are shown);
//! * `part2` and `part2_links`: the TPU chapter's worked problems and pop
//!   quiz (`p2-…`), on one chip's memories and links and on sends between
//!   chips;
//! * `part3`, `part3_more`, `part3_late` and `part3_bench`: the sharding chapter's
//!   (`p3-…`), on a mesh of chips, with `scales` (what the Parts 3, 5 and
//!   6 questions share: the mesh, the collective, the Scale page they
//!   open);
//! * `part5`, `part6`, `part6_plan` and `part6_405b`: the training
//!   chapters' (`p5-…`, `p6-…`);
//! * `gpu`, `gpu_hardware` and `gpu_nodes`: the GPU chapter's questions
//!   (`p12-…`), the book's Part 12: a GPU's rates and matmuls, its cores,
//!   memories and clock, and the 8-GPU node's bandwidth and collectives;
//!   with `gpu_pod` (the SuperPod's fat tree and its growth), `gpu_scale`
//!   (collectives beyond the node) and `gpu_rooflines` (the LLM rooflines
//!   quiz);
//! * `part4`, `part7` and `part8`: the transformer, inference and
//!   serving chapters' questions (`p4-…`, `p7-…`, `p8-…`), on whole models, with `models` (what
//!   they share: a model's shape, the Model page they open);
//! * `part4_more` and `part7_more`: those chapters' other practice
//!   questions (Part 4's 2, 4 and 6; Part 7's 4, 6 and 7), and
//!   `part8_worked`: Part 8's worked problems (`p8-q…`), the app's answers;
//! * `feedback`: the feedback they share (other versions' numbers, the
//!   FLOP-count and sparse-peak slips, answers that grow with B).

mod examples;
mod extras_hardware;
mod extras_operations;
mod feedback;
mod gpu;
mod gpu_hardware;
mod gpu_nodes;
mod gpu_pod;
mod gpu_rooflines;
mod gpu_scale;
mod helpers;
mod models;
mod part2;
mod part2_links;
mod part3;
mod part3_bench;
mod part3_late;
mod part3_more;
mod part4;
mod part4_more;
mod part5;
mod part6;
mod part6_405b;
mod part6_plan;
mod part7;
mod part7_more;
mod part8;
mod part8_worked;
mod practice;
mod scales;
mod setup;
mod texts;

use crate::format;
use crate::{analyze, CoreError};

use super::{check, AnswerKind, Expected, Question, SplitMix, Verdict};

use examples::{ex_240, ex_dot, ex_net};
use extras_hardware::{x_fp8, x_int4, x_pcie, x_v6e, x_vmem};
use extras_operations::{x_add, x_small, x_time};
use gpu::{p12_pop1, p12_q1_2, p12_q1_3, p12_q1_4};
use gpu_hardware::{p12_q1_1, p12_q1_5, p12_q1_6, p12_q1_7};
use gpu_nodes::{p12_pop2, p12_q2_1, p12_q2_2, p12_q2_3};
use gpu_pod::{p12_q3_1, p12_q3_2};
use gpu_rooflines::{p12_q5_1, p12_q5_2, p12_q5_3};
use gpu_scale::{p12_pop3, p12_q4_1, p12_q4_2, p12_q4_3, p12_q4_4, p12_q4_5};
use part2::{p2_pop1, p2_q1, p2_q2, p2_q3, p2_q4};
use part2_links::{p2_q5, p2_q6};
use part3::{p3_pop1, p3_pop2, p3_pop3, p3_q1, p3_q10, p3_q2, p3_q3, p3_q4};
use part3_bench::p3_q8;
use part3_late::{p3_q5, p3_q6, p3_q7, p3_q9};
use part4::{p4_q1, p4_q3, p4_q5, p4_q7, p4_q8};
use part4_more::{p4_q2, p4_q4, p4_q6};
use part5::{p5_q1, p5_q2, p5_q3};
use part6::{p6_pop1, p6_pop2, p6_pop5, p6_pop7, p6_pop9, p6_q1};
use part6_405b::p6_q2;
use part7::{p7_pop1, p7_q1, p7_q2, p7_q3, p7_q5};
use part7_more::{p7_q4, p7_q6, p7_q7};
use part8::{p8_pop1, p8_pop2, p8_pop3, p8_pop4, p8_pop5, p8_pop6};
use part8_worked::{p8_q1, p8_q2, p8_q3};
use practice::{q1, q2, q3, q4, q5};

/// Writes the table of questions ([`BANK`]: id and title) and, for each
/// shelf, a function (named after it) that calls one of its questions'
/// builders by id. The builders are called by name in a `match`, not kept
/// as function pointers: a pointer to a chunk's function costs the first
/// load a stub (wasm-split's), so each question would grow the first load.
/// One function per shelf, so that the web app's chunk for a shelf reaches
/// that shelf's builders only ([`super::Shelf`]).
macro_rules! bank {
    ($($shelf:ident: [$(($id:literal, $title:expr, $builder:ident $(,)?)),* $(,)?]),* $(,)?) => {
        /// Every question (id, title), in the chapters' order. The titles
        /// are here, not in the builders, so that the quiz can list the
        /// questions without building them.
        pub(super) const BANK: &[(&str, &str)] = &[$($(($id, $title)),*),*];

        $(
            /// Builds question `id` of this shelf from the draw `d`; `None`
            /// for no such id on the shelf.
            pub(super) fn $shelf(id: &str, d: &mut Draw) -> Option<Result<Question, CoreError>> {
                Some(match id {
                    $($id => $builder(d),)*
                    _ => return None,
                })
            }
        )*
    };
}

bank! {
    roofline: [
        ("ex-dot", "Intensity of a dot product", ex_dot),
        ("ex-240", "When a bf16 matmul turns compute-bound", ex_240),
        ("ex-net", "A matmul split over chips", ex_net),
        ("q1", "An int8 matmul", q1),
        ("q2", "int8 weights, bf16 activations", q2),
        ("q3", "Reading the crossover from the chart", q3),
        ("q4", "A matrix per example", q4),
        ("q5", "GPU spec sheets: dense or sparse?", q5),
        ("x-fp8", "A low-precision matmul", x_fp8),
        ("x-vmem", "Weights in VMEM", x_vmem),
        ("x-pcie", "Weights offloaded to the host", x_pcie),
        ("x-add", "An elementwise add", x_add),
        ("x-small", "When the approximation fails", x_small),
        ("x-time", "Times with units", x_time),
        ("x-v6e", "Newer chips need bigger batches", x_v6e),
        ("x-int4", "4-bit weights", x_int4),
    ],
    book: [
        ("p2-q1", "Loading a model's weights from HBM", p2_q1),
        ("p2-q2", "A pod's hosts, cores, FLOPs and HBM", p2_q2),
        ("p2-q3", "A matmul over PCIe", p2_q3),
        ("p2-q4", "An int8 matmul from HBM and from VMEM", p2_q4),
        ("p2-q5", "A send across a slice over ICI", p2_q5),
        ("p2-q6", "Gathering a matrix onto one chip", p2_q6),
        ("p2-pop1", "A TPU's vector FLOPs/s", p2_pop1),
        ("p3-pop1", "An fp32 array's shard and its load time", p3_pop1),
        ("p3-pop2", "An int8 array copied along an axis", p3_pop2),
        ("p3-pop3", "An AllGather on an axis without wraparound", p3_pop3),
        ("p3-q1", "Copies of an array split over one axis", p3_q1),
        ("p3-q2", "Gathers and a reduce on a v4p cube", p3_q2),
        ("p3-q3", "A latency-bound AllGather", p3_q3),
        ("p3-q4", "Gather the weights or reduce the output?", p3_q4),
        ("p3-q5", "The sharding with the least latency", p3_q5),
        ("p3-q6", "Three shardings on a v5e slice", p3_q6),
        ("p3-q7", "A layer under a memory limit", p3_q7),
        ("p3-q8", "Predict the collectives before timing them", p3_q8),
        ("p3-q9", "Multiply first, then reduce", p3_q9),
        ("p3-q10", "Where an AllToAll's 4 comes from", p3_q10),
        ("p4-q1", "A model's parameters and KV cache", p4_q1),
        ("p4-q2", "A matmul one mesh axis repeats", p4_q2),
        ("p4-q3", "The FLOPs of a contraction", p4_q3),
        ("p4-q4", "The intensity of attention", p4_q4),
        ("p4-q5", "When attention's FLOPs catch up", p4_q5),
        ("p4-q6", "Rematerialising attention", p4_q6),
        ("p4-q7", "A training run's utilisation", p4_q7),
        ("p4-q8", "The batch an MoE needs", p4_q8),
        ("p5-q1", "LLaMA-2-13B's parameters", p5_q1),
        ("p5-q2", "Training memory without parallelism", p5_q2),
        ("p5-q3", "DP, FSDP or FSDP + TP on a v5p slice", p5_q3),
        ("p6-pop1", "LLaMA-3-70B's parameters", p6_pop1),
        ("p6-pop2", "Training FLOPs and days", p6_pop2),
        ("p6-pop5", "The fewest chips, and memory a chip", p6_pop5),
        ("p6-pop7", "FSDP alone on a v5p pod", p6_pop7),
        ("p6-pop9", "FSDP + TP on a v5p pod", p6_pop9),
        ("p6-q1", "Four pods over DCN", p6_q1),
        ("p6-q2", "A 405B model on eight pods", p6_q2),
        ("p7-pop1", "A decode step's lower bound", p7_pop1),
        ("p7-q1", "The chapter's model: size and KV cache", p7_q1),
        ("p7-q2", "The largest batch that fits", p7_q2),
        ("p7-q3", "Reading every weight once", p7_q3),
        ("p7-q4", "Sharding the chapter's model on a v5e 4x4", p7_q4),
        ("p7-q5", "The chapter's model as an MoE", p7_q5),
        ("p7-q6", "Experts sharded over a v5e slice", p7_q6),
        ("p7-q7", "2D weight-stationary sharding", p7_q7),
        ("p8-pop1", "KV caches and the chips that hold them", p8_pop1),
        ("p8-pop2", "The memory of a batch", p8_pop2),
        ("p8-pop3", "Step time and throughput per chip", p8_pop3),
        ("p8-pop4", "The critical batch for three data types", p8_pop4),
        ("p8-pop5", "How many chips the weights fill", p8_pop5),
        ("p8-pop6", "A decode step with HBM full", p8_pop6),
        ("p8-q1", "LLaMA 3-405B's FLOPs and step bounds", p8_q1),
        ("p8-q2", "LLaMA 3-8B's memory at a batch of 240", p8_q2),
        ("p8-q3", "LLaMA 3-405B within 15 ms a token", p8_q3),
        ("p12-q1-1", "CUDA cores against a TPU's ALUs", p12_q1_1),
        ("p12-q1-2", "A GPU's vector FLOPs/s", p12_q1_2),
        ("p12-q1-3", "GPU matmul critical intensities", p12_q1_3),
        ("p12-q1-4", "Two matmuls on one GPU", p12_q1_4),
        ("p12-q1-5", "SMEM and registers against VMEM", p12_q1_5),
        ("p12-q1-6", "A clock from a vector figure", p12_q1_6),
        ("p12-q1-7", "An fp32 add on a GPU", p12_q1_7),
        ("p12-q2-1", "A node's total bandwidth", p12_q2_1),
        ("p12-q2-2", "A node's bisection bandwidth", p12_q2_2),
        ("p12-q2-3", "An AllGather of B bytes in a node", p12_q2_3),
        ("p12-q3-1", "A SuperPod's fat tree", p12_q3_1),
        ("p12-q3-2", "Growing the SuperPod", p12_q3_2),
        ("p12-pop1", "An AllGather within a node", p12_pop1),
        ("p12-pop2", "An AllToAll within a node", p12_pop2),
        ("p12-pop3", "An AllGather with an inner axis", p12_pop3),
        ("p12-q4-1", "Bytes through the switches", p12_q4_1),
        ("p12-q4-2", "An in-network AllReduce's bytes", p12_q4_2),
        ("p12-q4-3", "An in-network AllReduce in a node", p12_q4_3),
        ("p12-q4-4", "An AllReduce over the spine", p12_q4_4),
        ("p12-q4-5", "An AllGather over two nodes, exactly", p12_q4_5),
        ("p12-q5-1", "Rooflines within and across nodes", p12_q5_1),
        ("p12-q5-2", "Sharding LLaMA-3-70B on H100s", p12_q5_2),
        ("p12-q5-3", "Megatron-LM's batches a GPU", p12_q5_3),
    ],
}

/// Where a question's parameters come from: the book (seed 0) or a
/// generator.
pub(super) struct Draw {
    rng: Option<SplitMix>,
}

impl Draw {
    fn book() -> Draw {
        Draw { rng: None }
    }

    fn variant(seed: u64) -> Draw {
        Draw {
            rng: Some(SplitMix::new(seed)),
        }
    }

    /// Whether these are the book's numbers (seed 0).
    fn is_book(&self) -> bool {
        self.rng.is_none()
    }

    /// The book's value, or one of `options` in a variant.
    fn pick<T: Clone>(&mut self, book: T, options: &[T]) -> T {
        match &mut self.rng {
            Some(r) if !options.is_empty() => options[r.below(options.len())].clone(),
            _ => book,
        }
    }
}

fn fnv(id: &str) -> u64 {
    id.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Builds question `id`, titled `title`, for `seed` with `shelf`, one of
/// the shelf functions the table writes: the book's numbers for 0, else a
/// variant (a few draws are tried until one passes every check; if none
/// does, the book's numbers). Generic, not a function pointer, so that each
/// shelf's chunk holds its own copy and reaches no other shelf.
pub(super) fn build<F>(shelf: F, id: &str, title: &str, seed: u64) -> Option<Question>
where
    F: Fn(&str, &mut Draw) -> Option<Result<Question, CoreError>>,
{
    let built = |d: &mut Draw| {
        shelf(id, d)
            .unwrap_or_else(|| Err(invalid("no such question")))
            .map(|mut q| {
                q.title = title.to_string();
                q
            })
            .and_then(validate)
    };
    if seed != 0 {
        for attempt in 0u64..32 {
            let mix = SplitMix::new(seed ^ fnv(id) ^ attempt.wrapping_mul(0x9E37_79B9)).next_u64();
            let mut d = Draw::variant(mix);
            if let Ok(mut q) = built(&mut d) {
                q.seed = seed;
                return Some(q);
            }
        }
    }
    built(&mut Draw::book()).ok()
}

fn invalid(msg: &str) -> CoreError {
    CoreError::Invalid(msg.to_string())
}

fn has_bad_text(s: &str) -> bool {
    s.contains("NaN") || s.contains("inf ") || s.ends_with("inf") || s.contains(format::MISSING)
}

/// Checks a built question: the setups load, every number is finite, every
/// expected answer passes its own checker, mistakes lie outside the
/// tolerance (those that do not are dropped), and no text (hints and notes
/// included) shows a missing value.
fn validate(mut q: Question) -> Result<Question, CoreError> {
    analyze(&q.calc.scenario()?)?;
    let mut texts = vec![q.setup.clone(), q.title.clone()];
    for p in &mut q.parts {
        if let Some(c) = &p.calc {
            analyze(&c.scenario()?)?;
        }
        if let (AnswerKind::Number { rel_tol, .. }, Expected::Number { value, also_accept }) =
            (&p.kind, &p.expected)
        {
            if !(value.is_finite() && *value > 0.0 && also_accept.iter().all(|v| v.is_finite())) {
                return Err(invalid("a quiz answer is not a positive number"));
            }
            let accepted: Vec<f64> = std::iter::once(*value).chain(also_accept.clone()).collect();
            let tol = *rel_tol;
            p.mistakes.retain(|m| match m.answer {
                Expected::Number { value: mv, .. } => {
                    mv.is_finite()
                        && accepted
                            .iter()
                            .all(|a| (mv - a).abs() > 2.0 * tol * a.abs().max(mv.abs()))
                }
                _ => true,
            });
        }
        if check(p, &p.expected_text) != Verdict::Right {
            return Err(invalid("a quiz answer fails its own check"));
        }
        texts.push(p.prompt.clone());
        texts.push(p.hint.clone());
        texts.push(p.expected_text.clone());
        texts.extend(p.solution.iter().cloned());
        texts.extend(p.mistakes.iter().map(|m| m.hint.clone()));
        texts.extend(p.notes.iter().map(|n| n.text.clone()));
        texts.extend(p.grows.iter().map(|g| g.hint.clone()));
    }
    if texts.iter().any(|t| has_bad_text(t)) {
        return Err(invalid("a quiz text shows a missing number"));
    }
    Ok(q)
}
