//! Part 2's questions, how to think about TPUs (`p2-…`): the chapter's
//! worked problems on one chip's memories and links (loading a model's
//! weights, a pod's totals, a matmul over PCIe and out of VMEM) and its
//! pop quiz on the vector unit. The questions on moving bytes between
//! chips (5 and 6) are in `part2_links.rs`.

use crate::format::{self, sci, sig};
use crate::quiz::answer::Unit;
use crate::quiz::{CalcSetup, Part, Question, SOURCE_POP, SOURCE_PRACTICE};
use crate::{CoreError, CriticalSize, DType, LevelKind};

use super::feedback::Era;
use super::helpers::{matmul, never_options, question};
use super::models::{hbm_capacity, whole};
use super::setup::{analysis, approx_threshold, crossing};
use super::texts::{bw_text, rate_text};
use super::{invalid, Draw};

use DType::{Bf16, Fp32, Int8};
use LevelKind::{Hbm, Pcie, Vmem};

/// "Part 2, practice question n": the chapter's worked problems.
pub(super) fn source(n: u32) -> String {
    format!("Part 2, {} {n}", SOURCE_PRACTICE.to_lowercase())
}

/// How a TPU generation is built, from the book's TPU chapter: chips per
/// host (the specs table's host size) and TensorCores per chip (its text:
/// v4 and v5p pair two cores as a megacore, the inference chip v5e has
/// one).
fn layout(chip: &str) -> Option<(f64, f64)> {
    match chip {
        "v4p" | "v5p" => Some((4.0, 2.0)),
        "v5e" => Some((8.0, 1.0)),
        _ => None,
    }
}

/// Question 1: a model's weights loaded from HBM, its bytes per chip and
/// the time, a lower bound on a sampling step.
pub(super) fn p2_q1(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick("v4p", &["v4p", "v5e", "v5p", "v6e"]);
    let params = d.pick(200e9, &[8e9, 70e9, 200e9, 405e9]);
    let n = d.pick(32u32, &[8, 16, 32, 64, 128]);
    let nf = f64::from(n);
    let per = 2.0 * params / nf;
    let side = (params / nf).sqrt().round();
    let calc = CalcSetup::new(
        chip,
        &matmul(Bf16, Bf16, Bf16),
        &[("B", 1.0), ("D", side), ("F", side)],
        Hbm,
    );
    let c = calc.chip()?;
    if per > hbm_capacity(&calc)? || per < 1e9 {
        return Err(invalid("the weights do not fit, or hardly load"));
    }
    let bw = c.bandwidth(Hbm)?;
    let t = per / bw;
    let mut solution = vec![
        format!(
            "{} chips read their shares at once: {} ÷ {} = {}.",
            n,
            sci(per),
            bw_text(bw),
            format::seconds(t)
        ),
        "Every sampling step reads every weight once, so no step can take less.".to_string(),
    ];
    if d.is_book() {
        solution.push(format!("The book divides by 1.23e12 bytes/s and says about 10 ms; its table gives the v4p {}, which gives {}. The tolerance is 5%, so both pass.", bw_text(bw), format::seconds(t)));
    }
    let parts = vec![
        Part::number(
            "a",
            "How many bytes of weights does each chip hold?".to_string(),
            Unit::Bytes,
            0.01,
            (per, Vec::new()),
            "2 bytes a bf16 parameter, shared evenly by the chips.".to_string(),
            vec![format!("2 · {} ÷ {} = {}.", sci(params), n, format::bytes(per))],
        )
        .mistake_number(2.0 * params, format!("That is the whole model; each of the {n} chips holds 1/{n} of it."))
        .mistake_number(per / 2.0, "That counts one byte a parameter; bf16 takes 2.".to_string()),
        Part::number(
            "b",
            "How long does loading every parameter from HBM into the matrix units take?".to_string(),
            Unit::Seconds,
            0.05,
            (t, Vec::new()),
            "Each chip reads its own share over its own HBM, all at the same time.".to_string(),
            solution,
        )
        .mistake_number(nf * t, format!("That reads the whole model through one chip's HBM; the {n} chips read their shares at once."))
        .mistake_number(t / 2.0, "That counts one byte a parameter; bf16 takes 2.".to_string()),
    ];
    question(
        "p2-q1",
        &source(1),
        format!(
            "A model of {} parameters, in bf16, is split evenly over {} {} chips, each reading HBM at {}. The calculator's link opens one chip's share as a square weight matmul with B = 1.",
            sci(params),
            n,
            c.name,
            bw_text(bw)
        ),
        parts,
        calc,
    )
}

/// A slice's shape as the book writes it: `16x20x28`.
fn shape(dims: &[f64]) -> String {
    dims.iter().map(|x| whole(*x)).collect::<Vec<_>>().join("x")
}

/// One slice's four totals: hosts, TensorCores, bf16 FLOPs/s and HBM.
fn slice_parts(ids: [&str; 4], chip: &str, dims: &[f64]) -> Result<Vec<Part>, CoreError> {
    let (host, cores) = layout(chip).ok_or_else(|| invalid("no layout"))?;
    let calc = CalcSetup::new(
        chip,
        &matmul(Bf16, Bf16, Bf16),
        &[("B", 512.0), ("D", 8192.0), ("F", 8192.0)],
        Hbm,
    );
    let c = calc.chip()?;
    let (peak, cap) = (c.peak(Bf16)?, hbm_capacity(&calc)?);
    let chips: f64 = dims.iter().product();
    let shape = shape(dims);
    let name = c.name.clone();
    let other_host = if host == 8.0 { 4.0 } else { 8.0 };
    let one_core = if cores == 1.0 {
        format!("A {name} has one TensorCore: an inference chip.")
    } else {
        format!("A {name} has two TensorCores (a megacore).")
    };
    let wrong_cores = if cores == 1.0 { 2.0 } else { 1.0 };
    let flops = Part::number(
        ids[2],
        format!("The {shape} slice's total bf16 FLOPs/s?"),
        Unit::FlopsPerSecond,
        0.02,
        (chips * peak, Vec::new()),
        "Chips × each chip's bf16 peak.".to_string(),
        vec![format!(
            "{} · {} = {}.",
            whole(chips),
            rate_text(peak, Bf16),
            sci(chips * peak)
        )],
    );
    let flops = if cores > 1.0 {
        flops.mistake_number(
            chips * cores * peak,
            format!("{} is the whole chip's peak, both cores together; multiply it by the chips, not the cores.", rate_text(peak, Bf16)),
        )
    } else {
        flops.mistake_number(
            chips * c.peak(Int8)?,
            "That uses the int8 peak (OPs/s); the question asks bf16.".to_string(),
        )
    };
    Ok(vec![
        Part::number(
            ids[0],
            format!("How many CPU hosts has a {name} {shape} slice?"),
            Unit::None,
            0.001,
            (chips / host, Vec::new()),
            format!("A {name} host drives {} chips.", whole(host)),
            vec![format!(
                "{} chips ÷ {} per host = {}.",
                whole(chips),
                whole(host),
                whole(chips / host)
            )],
        )
        .mistake_number(
            chips / other_host,
            format!(
                "A {name} host drives {} chips ({}), not {}.",
                whole(host),
                if host == 8.0 { "4x2" } else { "2x2x1" },
                whole(other_host)
            ),
        ),
        Part::number(
            ids[1],
            "How many TensorCores?".to_string(),
            Unit::None,
            0.001,
            (chips * cores, Vec::new()),
            "Chips × TensorCores per chip.".to_string(),
            vec![format!(
                "{one_core} {} · {} = {}.",
                whole(chips),
                whole(cores),
                whole(chips * cores)
            )],
        )
        .mistake_number(chips * wrong_cores, one_core.clone()),
        flops,
        Part::number(
            ids[3],
            "And its total HBM, in bytes?".to_string(),
            Unit::Bytes,
            0.03,
            (chips * cap, Vec::new()),
            "Chips × each chip's HBM.".to_string(),
            vec![format!(
                "{} · {} = {}.",
                whole(chips),
                format::bytes(cap),
                format::bytes(chips * cap)
            )],
        )
        .mistake_number(
            chips * cores * cap,
            format!(
                "{} is the chip's HBM, shared by its cores.",
                format::bytes(cap)
            ),
        ),
    ]
    .into_iter()
    .map(|p| p.with_calc(calc.clone()))
    .collect())
}

/// Question 2: a whole pod's hosts, TensorCores, FLOPs/s and HBM, for a
/// 2D pod (v5e) and a 3D one (v5p); variants take slices of them.
pub(super) fn p2_q2(d: &mut Draw) -> Result<Question, CoreError> {
    let flat: &[f64] = d.pick(&[16.0, 16.0], &[&[16.0, 16.0], &[8.0, 16.0], &[8.0, 8.0]]);
    let (deep_chip, deep): (&str, &[f64]) = d.pick(
        ("v5p", &[16.0, 20.0, 28.0]),
        &[
            ("v5p", &[16.0, 20.0, 28.0]),
            ("v5p", &[8.0, 8.0, 16.0]),
            ("v4p", &[16.0, 16.0, 16.0]),
            ("v4p", &[4.0, 4.0, 8.0]),
        ],
    );
    let mut parts = slice_parts(["a", "b", "c", "d"], "v5e", flat)?;
    parts.extend(slice_parts(["e", "f", "g", "h"], deep_chip, deep)?);
    let mut note = String::new();
    if d.is_book() {
        note = " The book rounds the v5e's peak to 2e14 (5.1e16 for the pod) and its HBM total to 4 TB; both pass.".to_string();
    }
    let calc = parts
        .first()
        .and_then(|p| p.calc.clone())
        .ok_or_else(|| invalid("no setup"))?;
    question(
        "p2-q2",
        &source(2),
        format!("Take the book's TPU specs table: a v5e host drives 8 chips (4x2) and a v5e has one TensorCore; v4p and v5p hosts drive 4 chips (2x2x1) and their chips have two TensorCores each.{note} Parts a to d ask about a TPU v5e {} slice, e to h about a {} {} one.", shape(flat), if deep_chip == "v5p" { "TPU v5p" } else { "TPU v4p" }, shape(deep)),
        parts,
        calc,
    )
}

/// Question 3: weights and activations in host memory, streamed over
/// PCIe: the intensity, the batch that is compute-bound, and whether a
/// real D lets it be.
pub(super) fn p2_q3(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick("v6e", &["v6e", "v5e", "v5p", "v4p"]);
    let dd = d.pick(8192.0, &[8192.0, 32768.0, 131072.0, 1048576.0]);
    let mut calc = CalcSetup::new(
        chip,
        &matmul(Bf16, Bf16, Bf16),
        &[("B", 1024.0), ("D", dd), ("F", 4.0 * dd)],
        Pcie,
    );
    calc.level2 = Some(Hbm);
    if d.is_book() {
        // The question fixes PCIe at 1.6e10 bytes/s.
        calc.bw_overrides.push((Pcie, 1.6e10));
    }
    let (thr, _, a) = approx_threshold(&calc)?;
    let hbm = {
        let mut h = calc.clone();
        h.level = Hbm;
        approx_threshold(&h)?.0
    };
    let name = crate::hardware::preset(chip).map_or_else(String::new, |c| c.name);
    let peak_at = |k: f64| -> Result<f64, CoreError> {
        let mut c = calc.clone();
        c.peak_overrides.push((Bf16, a.peak * k));
        Ok(approx_threshold(&c)?.0)
    };
    let limit = dd * 4.0 * dd / (dd + 4.0 * dd);
    let never = match crate::critical_size(&calc.scenario()?, "B")? {
        CriticalSize::Never { .. } => true,
        CriticalSize::At { .. } | CriticalSize::Always => false,
    };
    if (limit / thr - 1.0).abs() < 0.3 {
        return Err(invalid("too close to call"));
    }
    let mut b = Part::number(
        "b",
        "What is the smallest batch B that stays compute-bound over PCIe?".to_string(),
        Unit::None,
        0.01,
        (thr, Vec::new()),
        "Compare the intensity with the chip's bf16 peak over the PCIe bandwidth.".to_string(),
        vec![format!("B > {} ÷ {} = {}.", rate_text(a.peak, Bf16), bw_text(a.bandwidth), sig(thr, 4))],
    )
    .mistake_number(hbm, "That is the HBM threshold; the link to the host is far slower.".to_string())
    .mistake_number(2.0 * thr, "That takes 2BDF ÷ DF = 2B, counting elements: each bf16 element is 2 bytes, so the intensity is B.".to_string())
    .mistake_number(peak_at(0.5)?, "That halves the FLOPs or doubles the bytes: 2BDF FLOPs over 2DF bytes is B.".to_string());
    b = b.mistake_number(
        peak_at(2.0)?,
        "That counts 4BDF FLOPs: a multiply and an add are 2 FLOPs, whatever the data type."
            .to_string(),
    );
    if d.is_book() {
        b = b.mistake_number(
            a.peak / 3.2e10,
            "That uses the v6e's 3.2e10 bytes/s from the chapter's text; the question fixes PCIe at 1.6e10.".to_string(),
        );
    }
    let parts = vec![
        Part::formula(
            "a",
            "With B ≪ D and F = 4D, what is the matmul's intensity over PCIe, in B?".to_string(),
            &["B"],
            "B".to_string(),
            Vec::new(),
            "2BDF FLOPs over 2BD + 2DF + 2BF bytes; keep the term B does not shrink.".to_string(),
            vec!["2BDF ÷ (2BD + 2DF + 2BF) ≈ 2BDF ÷ 2DF = B, since DF ≫ BD and BF when B ≪ D.".to_string()],
        )
        .mistake_formula("2*B", "That divides the FLOPs by elements; each bf16 element is 2 bytes, so 2BDF over 2DF bytes is B.".to_string())
        .mistake_formula("B/2", "That counts 4 bytes an element; bf16 takes 2.".to_string()),
        b,
        Part::choice(
            "c",
            format!("(The app's question.) With D = {} and F = 4D, can the matmul be compute-bound over PCIe at any B?", whole(dd)),
            never_options("B"),
            usize::from(never),
            "As B grows, 2BDF ÷ (2BD + 2DF + 2BF) tends to DF ÷ (D + F). Compare that with the threshold.".to_string(),
            vec![format!(
                "The intensity never passes DF ÷ (D + F) = 0.8D = {}, {} {}: {}.",
                sig(limit, 4),
                if never { "below" } else { "above" },
                sig(thr, 4),
                if never { "the book's B ≪ D fails at this D, and no batch gets there" } else { "a large enough batch gets there (the exact crossing is higher than the approximation's)" }
            )],
        )
        .with_calc(calc.with_size("B", thr.round())),
    ];
    question(
        "p2-q3",
        &source(3),
        format!(
            "A weight matrix bf16[D, F] and activations bf16[B, D] sit in host memory; one {name} ({} bf16) multiplies them, reading both over PCIe at {} and writing bf16[B, F] back.",
            rate_text(a.peak, Bf16),
            bw_text(a.bandwidth)
        ),
        parts,
        calc.with_size("B", thr.round()),
    )
}

/// Question 4: an int8 matmul on a v5e, the batch where it turns
/// compute-bound with every byte counted, from HBM and from VMEM.
pub(super) fn p2_q4(d: &mut Draw) -> Result<Question, CoreError> {
    let f = d.pick(16384.0, &[8192.0, 16384.0, 32768.0]);
    let dd = d.pick(4096.0, &[2048.0, 4096.0, 8192.0]);
    let calc = CalcSetup::new(
        "v5e",
        &matmul(Int8, Int8, Int8),
        &[("B", 256.0), ("D", dd), ("F", f)],
        Hbm,
    );
    let hbm = crossing(&calc, "B")?;
    let vmem_calc = CalcSetup {
        level: Vmem,
        ..calc.clone()
    };
    let vmem = crossing(&vmem_calc, "B")?;
    let a = analysis(&calc)?;
    let (peak, bw) = (a.peak, a.bandwidth);
    let approx = approx_threshold(&calc)?.0;
    let at_peak = |k: f64| -> Result<f64, CoreError> {
        let mut c = calc.clone();
        c.peak_overrides.push((Int8, peak * k));
        crossing(&c, "B")
    };
    // The book rounds 2·D·F to 1.3e8 and D·F to 6.7e7 before solving.
    let mut eras = Vec::new();
    let mut notes = Vec::new();
    if d.is_book() {
        let rounded = 6.7e7 / bw / (1.3e8 / peak - 2e4 / bw);
        eras.push((
            rounded,
            Era::new(
                "the book's rounded counts, 1.3e8 OPs and 6.7e7 bytes".to_string(),
                format!(
                    "exactly they are 2·D·F = {} and D·F = {}",
                    sci(2.0 * dd * f),
                    sci(dd * f)
                ),
            ),
        ));
        notes.push(
            "The book rounds the counts and gets 267; exactly it is 259. Both pass.".to_string(),
        );
    }
    let mut sol_a = vec![
        format!(
            "T_math = 2·B·{}·{} ÷ {}; T_comms = ({}·{} + {}·B + {}·B) ÷ {}.",
            whole(dd),
            whole(f),
            rate_text(peak, Int8),
            whole(dd),
            whole(f),
            whole(dd),
            whole(f),
            bw_text(bw)
        ),
        format!(
            "They meet at B = {}: above it the matmul is compute-bound.",
            sig(hbm, 4)
        ),
    ];
    sol_a.extend(notes);
    let parts = vec![
        Part::number(
            "a",
            "Reading from HBM, above which batch size B is it compute-bound?".to_string(),
            Unit::None,
            0.005,
            (hbm, eras),
            "Count every byte: the weights, the activations read and the output written, 1 byte each. Set T_math = T_comms and solve for B.".to_string(),
            sol_a,
        )
        .mistake_number(approx, format!("That is the small-B approximation (intensity 2B against {}); counting the activations' and output's bytes pushes it up.", sig(peak / bw, 4)))
        .mistake_number(at_peak(0.5)?, "That counts 4 OPs per multiply-add; a multiply and an add are 2, in int8 as in bf16.".to_string())
        .mistake_number(at_peak(2.0)?, "That counts one OP per multiply-add; the add is another.".to_string()),
        Part::number(
            "b",
            "Out of VMEM, about 22 times the HBM bandwidth, above which B?".to_string(),
            Unit::None,
            0.02,
            (vmem, Vec::new()),
            "The same sum with VMEM's bandwidth in place of HBM's.".to_string(),
            vec![
                format!("With {}: B = {}.", bw_text(vmem_calc.chip()?.bandwidth(Vmem)?), sig(vmem, 4)),
                "The book adds that VMEM's bandwidth is not all free for the weights, so in practice nearer 20.".to_string(),
            ],
        )
        .mistake_number(hbm, "That is the HBM crossing; VMEM's bandwidth is about 22 times higher.".to_string())
        .with_calc(vmem_calc),
    ];
    question(
        "p2-q4",
        &source(4),
        format!(
            "On one TPU v5e ({} int8, HBM at {}), multiply a weight matrix int8[{}, {}] by activations int8[B, {}], writing int8 out.",
            rate_text(peak, Int8),
            bw_text(bw),
            whole(f),
            whole(dd),
            whole(dd)
        ),
        parts,
        calc.with_size("B", hbm.round()),
    )
}

/// The vector unit of a TPU: cores per chip, ALUs per lane of its
/// (8, 128) VPU, clock in Hz. From the book's TPU chapter (v5p: 4 ALUs,
/// 1.75 GHz; v5e: 1.5 GHz; v4: 2 ALUs), the rest as the catalogue's vector
/// sources derive them (v5e's ALUs as v5p's; v4p's clock from its matrix
/// peak), so that their product is the preset's vector peak.
pub(super) fn vpu(chip: &str) -> Option<(f64, f64, f64)> {
    match chip {
        "v5p" => Some((2.0, 4.0, 1.75e9)),
        "v5e" => Some((1.0, 4.0, 1.5e9)),
        "v4p" => Some((2.0, 2.0, 1.05e9)),
        _ => None,
    }
}

/// Pop quiz: a TPU's vector FLOPs/s, per core and per chip, against its
/// matrix unit's.
pub(super) fn p2_pop1(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick("v5p", &["v5p", "v5e", "v4p"]);
    let (cores, alus, book_clock) = vpu(chip).ok_or_else(|| invalid("no VPU"))?;
    // Variants also clock the chip up or down.
    let clock = book_clock * d.pick(1.0, &[0.8, 1.0, 1.2]);
    let calc = CalcSetup::new(
        chip,
        "fp32[N] + fp32[N] -> fp32[N]",
        &[("N", 1048576.0)],
        Hbm,
    );
    let c = calc.chip()?;
    let per_core = 8.0 * 128.0 * alus * clock;
    let per_chip = cores * per_core;
    // The preset's vector peak is this same product; a guard against drift.
    let preset = c.vector.as_ref().map_or(0.0, |v| v.dense);
    let preset_clock = clock == book_clock;
    if preset_clock && (preset / per_chip - 1.0).abs() > 0.02 {
        return Err(invalid("the VPU disagrees with the preset"));
    }
    let mxu = c.peak(Bf16)? / cores;
    let ratio = mxu / per_core;
    let mut sol = vec![format!(
        "8 · 128 lanes · {} ALUs · {} Hz = {}.",
        whole(alus),
        sci(clock),
        rate_text(per_core, Fp32)
    )];
    if d.is_book() {
        sol.push("The book rounds it to 7e12; both pass.".to_string());
    }
    let parts = vec![
        Part::number(
            "a",
            "How many vector FLOPs/s can one TensorCore's VPU do?".to_string(),
            Unit::FlopsPerSecond,
            0.03,
            (per_core, Vec::new()),
            "Lanes × ALUs per lane × cycles per second: each ALU does one op a cycle.".to_string(),
            sol,
        )
        .mistake_number(
            per_core / alus,
            format!(
                "Each of the 8 × 128 lanes has {} ALUs, each working every cycle.",
                whole(alus)
            ),
        )
        .mistake_number(
            per_core * 2.0,
            "That counts each op as 2 FLOPs; the VPU's add or multiply is one.".to_string(),
        )
        .mistake_number(
            per_chip,
            "That is the whole chip, every TensorCore; the question asks one.".to_string(),
        ),
        Part::number(
            "b",
            "(The app's question; the book stops at one core.) And the whole chip?".to_string(),
            Unit::FlopsPerSecond,
            0.03,
            (per_chip, Vec::new()),
            format!(
                "A {} has {} TensorCore{}.",
                c.name,
                whole(cores),
                if cores > 1.0 { "s" } else { "" }
            ),
            vec![format!(
                "{} · {} = {}{}.",
                whole(cores),
                sci(per_core),
                sci(per_chip),
                if preset_clock {
                    ", the calculator's vector peak"
                } else {
                    ""
                }
            )],
        ),
        Part::number(
            "c",
            "How many times more FLOPs/s does one core's matrix unit do (bf16)?".to_string(),
            Unit::None,
            0.08,
            (ratio, Vec::new()),
            "The chip's bf16 peak over its cores, divided by the VPU's.".to_string(),
            vec![format!(
                "({} ÷ {}) ÷ {} = {} (the book: roughly 30).",
                rate_text(c.peak(Bf16)?, Bf16),
                whole(cores),
                sci(per_core),
                sig(ratio, 3)
            )],
        )
        .mistake_number(
            ratio * cores,
            "That sets the whole chip's matrix peak against one core's VPU.".to_string(),
        ),
    ];
    question(
        "p2-pop1",
        &format!("Part 2, {} 1", SOURCE_POP.to_lowercase()),
        format!(
            "A {} TensorCore's VPU is an (8, 128) grid of lanes with {} independent ALUs per lane, each doing one fp32 op a cycle; the clock is about {} GHz.",
            c.name,
            whole(alus),
            sig(clock / 1e9, 3)
        ),
        parts,
        calc,
    )
}
