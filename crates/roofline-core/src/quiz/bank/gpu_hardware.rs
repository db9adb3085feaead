//! The GPU chapter's Quiz 1 questions on the hardware itself (the book's
//! Part 12): how many CUDA cores a GPU has against a TPU's vector ALUs, its
//! SMEM and registers against a TPU's VMEM, a clock from a vector figure,
//! and an fp32 add's roofline on an H100.
//!
//! The SM counts, memories and clocks the hardware presets do not hold are
//! in [`gpu`], each with its source.

use crate::format::{self, sci, sig};
use crate::quiz::answer::Unit;
use crate::quiz::{CalcSetup, Part, Question};
use crate::{CoreError, DType, LevelKind};

use super::feedback::Era;
use super::gpu::source;
use super::helpers::question;
use super::models::whole;
use super::part2::vpu;
use super::setup::analysis;
use super::texts::{bw_text, plain, rate_text};
use super::{invalid, Draw};

use DType::{Bf16, Fp32};
use LevelKind::Hbm;

/// What the GPU chapter says of one GPU's SMs, beyond the presets.
#[derive(Debug, Clone, Copy)]
pub(super) struct Gpu {
    /// Streaming multiprocessors.
    pub sms: f64,
    /// fp32 CUDA cores per SM (4 subpartitions of them).
    pub fp32_per_sm: f64,
    /// SMEM (the L1 cache) per SM, bytes.
    pub smem: f64,
    /// Register file per SM, bytes.
    pub registers: f64,
    /// Boost clock, Hz, where the book gives one.
    pub boost: Option<f64>,
}

/// 256 KiB.
const KIB256: f64 = 256.0 * 1024.0;

/// The GPUs of the chapter's tables. Sources: the book's Part 12 ("Summary
/// of GPU specs": SMs, clocks, SMEM per SM; "Memory": 4 × 16,384 32-bit
/// registers per SM on every generation; "CUDA cores": 4 × 32 fp32 cores
/// per SM), and NVIDIA's A100 whitepaper for the A100's 64 fp32 cores per
/// SM. The book leaves the B200's clock blank.
pub(super) fn gpu(chip: &str) -> Option<Gpu> {
    let regs = 4.0 * 16384.0 * 4.0;
    match chip {
        "h100" | "h200" => Some(Gpu {
            sms: 132.0,
            fp32_per_sm: 128.0,
            smem: KIB256,
            registers: regs,
            boost: Some(1.98e9),
        }),
        "b200" => Some(Gpu {
            sms: 148.0,
            fp32_per_sm: 128.0,
            smem: KIB256,
            registers: regs,
            boost: None,
        }),
        "a100" => Some(Gpu {
            sms: 108.0,
            fp32_per_sm: 64.0,
            smem: 192.0 * 1024.0,
            registers: regs,
            boost: Some(1.41e9),
        }),
        _ => None,
    }
}

fn gpu_of(chip: &str) -> Result<Gpu, CoreError> {
    gpu(chip).ok_or_else(|| invalid("no SM table for this chip"))
}

fn chip_name(chip: &str) -> String {
    crate::hardware::preset(chip).map_or_else(String::new, |c| c.name)
}

/// An fp32 add on `chip` with N = `n`, at HBM.
fn add_setup(chip: &str, n: f64) -> CalcSetup {
    CalcSetup::new(chip, "fp32[N] + fp32[N] -> fp32[N]", &[("N", n)], Hbm)
}

/// One GPU's CUDA cores, as a part.
fn cores_part(id: &str, chip: &str) -> Result<Part, CoreError> {
    let g = gpu_of(chip)?;
    let cores = g.sms * g.fp32_per_sm;
    let lanes = g.fp32_per_sm / 4.0;
    let mut p = Part::number(
        id,
        format!("How many fp32 CUDA cores does the {} have?", chip_name(chip)),
        Unit::None,
        0.01,
        (cores, Vec::new()),
        "SMs × 4 subpartitions × the fp32 cores in each.".to_string(),
        vec![format!("{} · 4 · {} = {}.", whole(g.sms), whole(lanes), whole(cores))],
    )
    .mistake_number(g.sms * 4.0, format!("That counts the SIMD units (warp schedulers), 4 an SM; each is {} lanes wide, one CUDA core a lane.", whole(lanes)))
    .mistake_number(g.sms * lanes, format!("That is one subpartition an SM; each SM has 4 subpartitions of {} cores.", whole(lanes)));
    // A count is shown whole (16896), not rounded (1.69e4).
    p.expected_text = whole(cores);
    Ok(p)
}

/// Quiz 1, question 1: two GPUs' fp32 CUDA cores against a TPU's vector
/// ALUs.
pub(super) fn p12_q1_1(d: &mut Draw) -> Result<Question, CoreError> {
    let (one, two) = d.pick(
        ("h100", "b200"),
        &[("h100", "b200"), ("a100", "h100"), ("a100", "b200")],
    );
    let tpu = d.pick("v5p", &["v5p", "v5e", "v4p"]);
    let (tcs, alus, _) = vpu(tpu).ok_or_else(|| invalid("no VPU"))?;
    let g = gpu_of(one)?;
    let gpu_cores = g.sms * g.fp32_per_sm;
    let per_tc = 8.0 * 128.0 * alus;
    let tpu_alus = tcs * per_tc;
    let ratio = gpu_cores / tpu_alus;
    let tpu_name = chip_name(tpu);
    let gpu_name = chip_name(one);
    let roughly = if d.is_book() {
        " (the book: roughly twice, at about the same clock)"
    } else {
        ""
    };
    let parts = vec![
        cores_part("a", one)?,
        cores_part("b", two)?,
        Part::number(
            "c",
            format!("How many independent vector ALUs does a {tpu_name} have?"),
            Unit::None,
            0.01,
            (tpu_alus, Vec::new()),
            "TensorCores × the VPU's (8, 128) lanes × the ALUs in each lane.".to_string(),
            vec![format!("{} · 8 · 128 · {} = {}.", whole(tcs), whole(alus), whole(tpu_alus))],
        )
        .mistake_number(per_tc, format!("That is one TensorCore's VPU; the {tpu_name} has {}.", whole(tcs)))
        .mistake_number(tcs * 1024.0, format!("Each of the 8 × 128 lanes has {} independent ALUs.", whole(alus))),
        Part::number(
            "d",
            format!("How many times as many vector lanes does the {gpu_name} have as the {tpu_name} (its CUDA cores over the TPU's ALUs)?"),
            Unit::None,
            0.05,
            (ratio, Vec::new()),
            "The CUDA cores over the TPU's ALUs; both run at a similar clock.".to_string(),
            vec![format!("{} ÷ {} = {}{roughly}.", whole(gpu_cores), whole(tpu_alus), sig(ratio, 3))],
        )
        .mistake_number(1.0 / ratio, "That is the TPU's over the GPU's; the question asks the GPU's cores over the TPU's ALUs.".to_string()),
    ];
    question(
        "p12-q1-1",
        &source(1, 1),
        format!(
            "A GPU's SM has 4 subpartitions, each with its own SIMD unit whose fp32 lanes NVIDIA calls CUDA cores. The {} has {} SMs, the {} {}; each subpartition's unit is {} fp32 lanes wide on the first, {} on the second. A {tpu_name} has {} TensorCore{}, each with one VPU of (8, 128) lanes and {} ALUs a lane.",
            gpu_name,
            whole(g.sms),
            chip_name(two),
            whole(gpu_of(two)?.sms),
            whole(g.fp32_per_sm / 4.0),
            whole(gpu_of(two)?.fp32_per_sm / 4.0),
            whole(tcs),
            if tcs > 1.0 { "s" } else { "" },
            whole(alus)
        ),
        parts,
        add_setup(one, 1048576.0),
    )
}

/// The TPU v5p's VMEM, bytes: the GPU chapter's comparison table gives
/// 128MB (the Pallas docs: 128 MiB on v5p). The answer to question 5
/// rounds a modern TPU's to 120MB.
const V5P_VMEM: f64 = 128.0 * 1024.0 * 1024.0;

/// Quiz 1, question 5: a GPU's SMEM and registers in all, against a TPU
/// v5p's VMEM.
pub(super) fn p12_q1_5(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick("h100", &["h100", "h200", "b200", "a100"]);
    let g = gpu_of(chip)?;
    let name = chip_name(chip);
    let smem = g.sms * g.smem;
    let regs = g.sms * g.registers;
    let both = smem + regs;
    let frac = both / V5P_VMEM;
    let kb = |x: f64| format!("{} kB", sig(x / 1024.0, 3));
    // The book writes 256kB and multiplies by 1,000: 132 · 256e3.
    let book_kb = |per_sm: f64, what: &str| -> Vec<(f64, Era)> {
        if !d.is_book() {
            return Vec::new();
        }
        let v = g.sms * per_sm / 1024.0 * 1000.0;
        vec![(
            v,
            Era::new(
                format!("{what} kB as 1,000 bytes ({} · 256e3)", whole(g.sms)),
                "the SM's 256 kB are 256 · 1,024 bytes".to_string(),
            ),
        )]
    };
    let half = if d.is_book() {
        let v = (smem + regs) / 1024.0 * 1000.0 / 120e6;
        vec![(
            v,
            Era::new(
                "the book's 66MB over its 120MB for a modern TPU's VMEM".to_string(),
                "the chapter's table gives the v5p 128MB (128 MiB)".to_string(),
            ),
        )]
    } else {
        Vec::new()
    };
    let parts = vec![
        Part::number(
            "a",
            format!("How much SMEM (L1) does the {name} have in all?"),
            Unit::Bytes,
            0.03,
            (smem, book_kb(g.smem, "the")),
            "Each SM has its own SMEM.".to_string(),
            vec![format!("{} SMs · {} = {}.", whole(g.sms), kb(g.smem), format::bytes(smem))],
        )
        .mistake_number(g.smem, format!("That is one SM's; the {name} has {}.", whole(g.sms)))
        .mistake_number(4.0 * smem, "SMEM is one per SM, shared by its 4 subpartitions, not one per subpartition.".to_string()),
        Part::number(
            "b",
            "And register memory in all?".to_string(),
            Unit::Bytes,
            0.03,
            (regs, book_kb(g.registers, "the")),
            "Each of an SM's 4 subpartitions has a register file of 16,384 32-bit words.".to_string(),
            vec![format!("4 · 16,384 · 4 bytes = {} an SM; · {} = {}.", kb(g.registers), whole(g.sms), format::bytes(regs))],
        )
        .mistake_number(regs / 4.0, "That counts registers, not bytes: each holds 32 bits, 4 bytes. Another slip gives the same number: each of the 4 subpartitions has its own file.".to_string())
        .mistake_number(g.registers, format!("That is one SM's; the {name} has {}.", whole(g.sms))),
        Part::number(
            "c",
            "SMEM and registers together?".to_string(),
            Unit::Bytes,
            0.03,
            (both, book_kb(g.smem + g.registers, "the")),
            "The two sums added.".to_string(),
            vec![format!("{} + {} = {}.", format::bytes(smem), format::bytes(regs), format::bytes(both))],
        ),
        Part::number(
            "d",
            "What fraction of a TPU v5p's 128 MiB of VMEM is that?".to_string(),
            Unit::None,
            0.05,
            (frac, half),
            "The GPU's SMEM and registers over the TPU's VMEM.".to_string(),
            vec![
                format!("{} ÷ {} = {}{}.", format::bytes(both), format::bytes(V5P_VMEM), sig(frac, 3), if d.is_book() { " (the book: about half)" } else { "" }),
                "A TPU has only 256 kB of vector registers in all: spills to VMEM are cheap, so it needs few.".to_string(),
            ],
        )
        .mistake_number(smem / V5P_VMEM, "That is the SMEM alone; add the registers, about as large.".to_string())
        .mistake_number(1.0 / frac, "That is the TPU's over the GPU's; the question asks the GPU's share of the TPU's.".to_string()),
    ];
    question(
        "p12-q1-5",
        &source(1, 5),
        format!(
            "The {name} has {} SMs, each with {} of SMEM (its L1 cache) and 4 subpartitions, each with a register file of 16,384 32-bit registers. A TPU v5p has 128 MiB of VMEM.",
            whole(g.sms),
            kb(g.smem)
        ),
        parts,
        add_setup(chip, 1048576.0),
    )
}

/// Quiz 1, question 6: a GPU's clock from its vector fp32 figure, each
/// CUDA core doing an FMA (2 FLOPs) a cycle.
pub(super) fn p12_q1_6(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick("b200", &["b200", "h100", "a100"]);
    let calc = add_setup(chip, 1048576.0);
    let c = calc.chip()?;
    let preset = c.vector.as_ref().map_or(0.0, |v| v.dense);
    // The book quotes NVIDIA's Blackwell page, 80 TFLOP/s; the preset
    // holds the B200 sheet's 75. Variants take the preset's figure.
    let figure = if d.is_book() { 80e12 } else { preset };
    let g = gpu_of(chip)?;
    let cores = g.sms * g.fp32_per_sm;
    let per_cycle = 2.0 * cores;
    let clock = figure / per_cycle;
    let lanes = g.fp32_per_sm / 4.0;
    let ghz = |x: f64| format!("{} GHz", sig(x / 1e9, 3));
    let mut parts = vec![
        Part::number(
            "a",
            "How many fp32 FLOPs can it do a cycle?".to_string(),
            Unit::Flops,
            0.01,
            (per_cycle, Vec::new()),
            "CUDA cores × 2, an FMA a cycle each.".to_string(),
            vec![format!("{} · 4 · {} = {} cores; · 2 = {}.", whole(g.sms), whole(lanes), whole(cores), whole(per_cycle))],
        )
        .mistake_number(cores, "That counts an FMA as one FLOP; a fused multiply-add is 2, which is how the figure counts.".to_string())
        .mistake_number(per_cycle / 4.0, format!("Each SM has 4 subpartitions of {} cores.", whole(lanes))),
        Part::number(
            "b",
            "Estimate its peak clock, in cycles per second (1.5e9 for 1.5 GHz).".to_string(),
            Unit::None,
            0.03,
            (clock, Vec::new()),
            "The vector figure over the FLOPs a cycle.".to_string(),
            vec![format!("{} ÷ {} = {} Hz, {}.", rate_text(figure, Fp32), whole(per_cycle), sci(clock), ghz(clock))],
        )
        .mistake_number(2.0 * clock, "That counts an FMA as one FLOP; the figure counts it as 2, so each core does 2 a cycle.".to_string())
        .mistake_number(4.0 * clock, format!("Each SM has 4 subpartitions of {} cores.", whole(lanes))),
    ];
    if let Some(p) = parts.first_mut() {
        // A count is shown whole (37888), not rounded (37.9 kFLOP).
        p.expected_text = format!("{} FLOPs", whole(per_cycle));
    }
    let mut note = String::new();
    if d.is_book() {
        note = format!(
            " (The calculator's {} lists the B200 sheet's {}, which gives {}.)",
            c.name,
            rate_text(preset, Fp32),
            ghz(preset / per_cycle)
        );
    }
    question(
        "p12-q1-6",
        &source(1, 6),
        format!(
            "NVIDIA quotes {} of vector fp32 for the {}, which has {} SMs of {} fp32 CUDA cores. Each core can do one FMA (fused multiply-add, 2 FLOPs) a cycle.{note}",
            rate_text(figure, Fp32),
            c.name,
            whole(g.sms),
            whole(g.fp32_per_sm)
        ),
        parts,
        calc,
    )
}

/// Quiz 1, question 7: fp32[N] + fp32[N] on an H100, its intensity,
/// T_math and T_comms, at the vector units' boosted rate without FMAs.
pub(super) fn p12_q1_7(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick("h100", &["h100", "h200", "a100"]);
    let n = d.pick(1073741824.0, &[1048576.0, 268435456.0, 1073741824.0]);
    let small = d.pick(65536.0, &[16384.0, 65536.0, 262144.0]);
    let g = gpu_of(chip)?;
    let boost = g.boost.ok_or_else(|| invalid("no clock"))?;
    let calc = add_setup(chip, n);
    let c = calc.chip()?;
    let a = analysis(&calc)?;
    let name = c.name.clone();
    let cores = g.sms * g.fp32_per_sm;
    // One add per core per cycle: no FMA to pair it with.
    let vec = cores * boost;
    let preset = c.vector.as_ref().map_or(0.0, |v| v.dense);
    let bw = c.bandwidth(Hbm)?;
    let t_math = n / vec;
    let t_comms = a.t_comms;
    let ci = vec / bw;
    let small_calc = add_setup(chip, small);
    let s = analysis(&small_calc)?;
    let t_small = (small / vec).max(s.t_comms);
    let parts = vec![
        Part::number(
            "a",
            "What is the add's arithmetic intensity?".to_string(),
            Unit::FlopsPerByte,
            0.02,
            (a.intensity, Vec::new()),
            "N adds over the bytes: two fp32 inputs read and one written.".to_string(),
            vec![format!("N FLOPs ÷ (4N + 4N + 4N) bytes = {}.", plain(a.intensity))],
        )
        .mistake_number(2.0 * a.intensity, "That counts 2 FLOPs an element; an add is one.".to_string())
        .mistake_number(1.0 / 8.0, "Don't forget the output: it is written back, another 4 bytes an element.".to_string())
        .mistake_number(1.0 / 3.0, "That counts elements, not bytes: fp32 takes 4 bytes each.".to_string()),
        Part::number(
            "b",
            format!("T_math for N = {}, at the vector units' boosted rate? (The book gives only the rate; this number is the app's.)", whole(n)),
            Unit::Seconds,
            0.03,
            (t_math, Vec::new()),
            "N FLOPs over the CUDA cores' one add a cycle each at boost.".to_string(),
            vec![
                format!("{} cores · {} Hz = {} (one op a cycle, no FMA).", whole(cores), sci(boost), rate_text(vec, Fp32)),
                format!("{} ÷ {} = {}.", whole(n), sci(vec), format::seconds(t_math)),
            ],
        )
        .mistake_number(n / preset, format!("That uses the spec sheet's {}, which counts an FMA as 2 FLOPs; an add has no multiply to fuse, so one FLOP a cycle.", rate_text(preset, Fp32)))
        .mistake_number(n / c.peak(Bf16)?, "That is the Tensor Cores' matmul peak; an elementwise add runs on the CUDA cores.".to_string()),
        Part::number(
            "c",
            "T_comms for the same N (and so the runtime)?".to_string(),
            Unit::Seconds,
            0.03,
            (t_comms, Vec::new()),
            "12N bytes over HBM bandwidth.".to_string(),
            vec![format!("12 · {} ÷ {} = {}; far above T_math, so this is the runtime.", whole(n), bw_text(bw), format::seconds(t_comms))],
        )
        .mistake_number(t_comms * 2.0 / 3.0, "Don't forget the output: it is written back, another 4 bytes an element.".to_string())
        .mistake_number(t_comms / 4.0, "That counts elements, not bytes: fp32 takes 4 bytes each.".to_string())
        .mistake_number(t_math, "That is T_math, the smaller; the add waits for its bytes.".to_string()),
        Part::number(
            "d",
            format!("The {name}'s critical intensity for vector work (boosted vector FLOPs/s over HBM bandwidth)?"),
            Unit::FlopsPerByte,
            0.03,
            (ci, Vec::new()),
            "The vector rate over HBM bandwidth, as for a matmul.".to_string(),
            vec![format!("{} ÷ {} = {}, far above the add's {}: bandwidth-bound.", rate_text(vec, Fp32), bw_text(bw), sig(ci, 3), plain(a.intensity))],
        )
        .mistake_number(preset / bw, format!("That uses the spec sheet's {}, which counts an FMA as 2 FLOPs.", rate_text(preset, Fp32)))
        .mistake_number(c.peak(Bf16)? / bw, "That is the Tensor Cores' matmul critical intensity; an add runs on the CUDA cores.".to_string()),
        Part::number(
            "e",
            format!("The roofline time for N = {}?", whole(small)),
            Unit::Seconds,
            0.03,
            (t_small, Vec::new()),
            "The larger of T_math and T_comms, as before.".to_string(),
            vec![format!("12 · {} ÷ {} = {} (real runs take longer: this small an add is latency-bound).", whole(small), bw_text(bw), format::seconds(t_small))],
        )
        .mistake_number(small / vec, "That is T_math, the smaller; the add waits for its bytes.".to_string())
        .with_calc(small_calc),
    ];
    let mut note = String::new();
    if d.is_book() {
        note = " The book rounds these to 33.5 TFLOP/s, 10 and 3.84 ms.".to_string();
    }
    question(
        "p12-q1-7",
        &source(1, 7),
        format!(
            "Add two vectors on one {name}: fp32[N] + fp32[N] → fp32[N]. Its {} CUDA cores do one add a cycle each at the {} GHz boost, {}; HBM delivers {}. The calculator's {} lists the spec sheet's {}, which counts an FMA as 2 FLOPs, so its T_math is {}× this one's; its bytes and T_comms are the same.{note}",
            whole(cores),
            sig(boost / 1e9, 3),
            rate_text(vec, Fp32),
            bw_text(bw),
            name,
            rate_text(preset, Fp32),
            sig(vec / preset, 2)
        ),
        parts,
        calc,
    )
}
