//! The GPU chapter's questions, the book's Part 12 (`p12-…`), where it
//! asks for numbers: a GPU's vector FLOPs/s, its matmul critical
//! intensities, a matmul's time on a B200, and an AllGather within a node.
//!
//! The chapter numbers its questions within each of its five quizzes, so
//! an id names both: `p12-q1-2` is Quiz 1's Question 2. Its pop quizzes
//! are numbered through the chapter (`p12-pop1`).

use crate::collective::{all_gather, LinkModel};
use crate::format::{self, sci, sig};
use crate::quiz::answer::Unit;
use crate::quiz::{CalcSetup, Part, Question, SOURCE_POP, SOURCE_PRACTICE};
use crate::{CoreError, DType, LevelKind};

use super::feedback::{sparse_setup, Era};
use super::helpers::{matmul, question};
use super::models::whole;
use super::setup::analysis;
use super::texts::{bw_text, rate_text, with_article};
use super::{invalid, Draw};

use DType::{Bf16, Fp16, Fp8};
use LevelKind::{Hbm, NvLink};

/// "Part 12, quiz q, question n": the chapter numbers its quizzes.
pub(super) fn source(quiz: u32, n: u32) -> String {
    format!(
        "Part 12, quiz {quiz}, {} {n}",
        SOURCE_PRACTICE.to_lowercase()
    )
}

/// An fp16 matmul on `chip`, at HBM.
fn fp16_matmul(chip: &str, dtype: DType, b: f64, d: f64, f: f64) -> CalcSetup {
    CalcSetup::new(
        chip,
        &matmul(dtype, dtype, dtype),
        &[("B", b), ("D", d), ("F", f)],
        Hbm,
    )
}

/// Quiz 1, question 2: a GPU's vector fp32 FLOPs/s from its SMs and
/// clock, at base and boost, against its matmul peak.
pub(super) fn p12_q1_2(d: &mut Draw) -> Result<Question, CoreError> {
    // SMs from the book (H100: 132, B200: 148); 4 subpartitions of 32
    // fp32 cores each.
    let (chip, sms) = d.pick(("h100", 132.0), &[("h100", 132.0), ("b200", 148.0)]);
    let (base, boost) = d.pick(
        (1.59e9, 1.98e9),
        &[
            (1.59e9, 1.98e9),
            (1.4e9, 1.8e9),
            (1.6e9, 2.1e9),
            (1.2e9, 1.9e9),
        ],
    );
    let calc = CalcSetup::new(
        chip,
        "fp32[N] + fp32[N] -> fp32[N]",
        &[("N", 1048576.0)],
        Hbm,
    );
    let c = calc.chip()?;
    let cores = sms * 4.0 * 32.0;
    let (v_base, v_boost) = (cores * base, cores * boost);
    let mm = c.peak(Bf16)?;
    let ratio = mm / v_boost;
    let sparse = c.peak_entry(Bf16).and_then(|p| p.sparse);
    let ghz = |x: f64| format!("{} GHz", sig(x / 1e9, 3));
    let mut c_part = Part::number(
        "c",
        "How many times more FLOPs/s do its tensor cores do in a dense bf16 matmul, against the boosted vector figure?".to_string(),
        Unit::None,
        0.05,
        (ratio, Vec::new()),
        "The matmul peak over the vector FLOPs/s.".to_string(),
        vec![format!("{} ÷ {} = {} (the book: around 30).", rate_text(mm, Bf16), sci(v_boost), sig(ratio, 3))],
    )
    .mistake_number(ratio / 2.0, "That counts an FMA as 2 vector FLOPs; the question takes one op per cycle per ALU.".to_string());
    if let Some(s) = sparse {
        c_part = c_part.mistake_number(
            s / v_boost,
            format!(
                "That uses the spec sheet's sparse figure, {}; a dense matmul gets {}.",
                rate_text(s, Bf16),
                rate_text(mm, Bf16)
            ),
        );
    }
    let parts = vec![
        Part::number(
            "a",
            format!("How many vector fp32 FLOPs/s at {}?", ghz(base)),
            Unit::FlopsPerSecond,
            0.02,
            (v_base, Vec::new()),
            "SMs × 4 subpartitions × 32 fp32 cores × cycles per second.".to_string(),
            vec![format!("{} · 4 · 32 = {} cores; · {} = {}.", whole(sms), whole(cores), ghz(base), sci(v_base))],
        )
        .mistake_number(2.0 * v_base, "That counts an FMA as 2 FLOPs, as the spec sheet does; the question takes one op per cycle per ALU.".to_string())
        .mistake_number(v_base / 4.0, "Each SM has 4 subpartitions of 32 fp32 cores, 128 in all.".to_string()),
        Part::number(
            "b",
            format!("And at the {} boost?", ghz(boost)),
            Unit::FlopsPerSecond,
            0.02,
            (v_boost, Vec::new()),
            "The same cores at the boost clock.".to_string(),
            vec![format!("{} · {} = {}.", whole(cores), ghz(boost), sci(v_boost))],
        )
        .mistake_number(2.0 * v_boost, "That counts an FMA as 2 FLOPs; the question takes one op per cycle per ALU.".to_string()),
        c_part,
    ];
    question(
        "p12-q1-2",
        &source(1, 2),
        format!(
            "{} has {} SMs, each with 4 subpartitions of 32 fp32 cores, and runs at {} (up to {} boost). Take one vector op per cycle per core. Its dense bf16 matmul peak is {}.",
            upper_first(&with_article(&c.name)),
            whole(sms),
            ghz(base),
            ghz(boost),
            rate_text(mm, Bf16)
        ),
        parts,
        calc,
    )
}

/// One chip's critical intensity for `dtype`, as a part.
fn intensity_part(
    id: &str,
    chip: &str,
    dtype: DType,
    book: Option<f64>,
) -> Result<Part, CoreError> {
    let calc = fp16_matmul(chip, dtype, 512.0, 4096.0, 4096.0);
    let c = calc.chip()?;
    let (peak, bw) = (c.peak(dtype)?, c.bandwidth(Hbm)?);
    let ci = peak / bw;
    let mut sol = vec![format!(
        "{} ÷ {} = {} FLOPs/byte.",
        rate_text(peak, dtype),
        bw_text(bw),
        sig(ci, 4)
    )];
    if let Some(b) = book {
        sol.push(format!("The book prints {}.", sig(b, 3)));
    }
    let mut p = Part::number(
        id,
        format!("The {} {dtype} matmul critical intensity?", c.name),
        Unit::FlopsPerByte,
        0.01,
        (ci, Vec::new()),
        format!("The dense {dtype} peak over HBM bandwidth."),
        sol,
    );
    if let Some((alt, hint)) = sparse_setup(&calc) {
        // In fp16, twice the dense figure is also the fp8 one: name both.
        let hint = if dtype == Fp16 {
            "That is twice the dense fp16 figure: the spec sheet's sparse fp16 peak, or the fp8 peak; a dense fp16 matmul gets half of it.".to_string()
        } else {
            hint
        };
        p = p.mistake_number(analysis(&alt)?.critical_intensity, hint);
    }
    if dtype == Fp8 {
        p = p.mistake_number(
            c.critical_intensity(Fp16, Hbm)?,
            "That is the fp16 figure; fp8 doubles the peak at the same bandwidth.".to_string(),
        );
    }
    Ok(p.with_calc(calc))
}

/// Quiz 1, question 3: two GPUs' critical intensities in fp16 and fp8.
pub(super) fn p12_q1_3(d: &mut Draw) -> Result<Question, CoreError> {
    let (one, two) = d.pick(
        ("h100", "b200"),
        &[
            ("h100", "b200"),
            ("h200", "b200"),
            ("h100", "h200"),
            ("h200", "b300"),
        ],
    );
    let book = d.is_book();
    let printed = |x: f64| book.then_some(x);
    let parts = vec![
        intensity_part("a", one, Fp16, printed(295.0))?,
        intensity_part("b", two, Fp16, printed(281.0))?,
        intensity_part("c", one, Fp8, printed(590.0))?,
        intensity_part("d", two, Fp8, printed(562.0))?,
    ];
    let calc = parts
        .first()
        .and_then(|p| p.calc.clone())
        .ok_or_else(|| invalid("no setup"))?;
    let name = |id: &str| crate::hardware::preset(id).map_or_else(String::new, |c| c.name);
    question(
        "p12-q1-3",
        &source(1, 3),
        format!(
            "The peak matmul intensity of a chip is its matmul FLOPs/s over its HBM bandwidth. Take the {} and the {}, dense peaks.",
            name(one),
            name(two)
        ),
        parts,
        calc,
    )
}

/// One matmul's time on `chip`, as a part.
fn time_part(id: &str, chip: &str, b: f64, dd: f64, f: f64) -> Result<Part, CoreError> {
    let calc = fp16_matmul(chip, Fp16, b, dd, f);
    let a = analysis(&calc)?;
    let t = a.t_math.max(a.t_comms);
    let (bound, other) = if a.t_math > a.t_comms {
        ("compute-bound: T = 2BDF ÷ peak", a.t_comms)
    } else {
        (
            "bandwidth-bound: T = (2BD + 2DF + 2BF) ÷ bandwidth",
            a.t_math,
        )
    };
    let mut p = Part::number(
        id,
        format!("How long does fp16[{}, {}] · fp16[{}, {}] take?", whole(b), whole(dd), whole(dd), whole(f)),
        Unit::Seconds,
        0.03,
        (t, Vec::new()),
        "Compare B with the critical intensity, then take the larger of T_math and T_comms.".to_string(),
        vec![
            format!("T_math = {} ÷ {} = {}; T_comms = {} bytes ÷ {} = {}.", sci(a.flops), rate_text(a.peak, Fp16), format::seconds(a.t_math), sci(a.bytes), bw_text(a.bandwidth), format::seconds(a.t_comms)),
            format!("B = {} against {} FLOPs/byte: {bound}, {}.", whole(b), sig(a.critical_intensity, 3), format::seconds(t)),
        ],
    )
    .mistake_number(other, "That is the smaller of the two times; the matmul waits for the larger.".to_string())
    .mistake_number(a.t_math + a.t_comms, "That adds the two times; the bytes stream while the math runs, so the larger one sets the time.".to_string());
    if let Some((alt, hint)) = sparse_setup(&calc) {
        let s = analysis(&alt)?;
        p = p.mistake_number(s.t_math.max(s.t_comms), hint);
    }
    Ok(p.with_calc(calc))
}

/// Quiz 1, question 4: two fp16 matmuls on a B200, one each side of the
/// critical batch.
pub(super) fn p12_q1_4(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick("b200", &["b200", "h100", "h200"]);
    let (small, large) = d.pick(
        (64.0, 512.0),
        &[(64.0, 512.0), (32.0, 1024.0), (128.0, 2048.0)],
    );
    let (dd, f) = d.pick(
        (4096.0, 8192.0),
        &[(4096.0, 8192.0), (8192.0, 8192.0), (4096.0, 16384.0)],
    );
    let parts = vec![
        time_part("a", chip, small, dd, f)?,
        time_part("b", chip, large, dd, f)?,
    ];
    let calc = parts
        .first()
        .and_then(|p| p.calc.clone())
        .ok_or_else(|| invalid("no setup"))?;
    let c = calc.chip()?;
    let mut note = String::new();
    if d.is_book() {
        note = " The book rounds the B200's peak to 2.3e15 (15 µs for the second); both pass."
            .to_string();
    }
    question(
        "p12-q1-4",
        &source(1, 4),
        format!(
            "One {}: {} dense fp16, HBM at {}. Ignore what real kernels lose.{note}",
            c.name,
            rate_text(c.peak(Fp16)?, Fp16),
            bw_text(c.bandwidth(Hbm)?)
        ),
        parts,
        calc,
    )
}

/// Pop quiz 1: an AllGather of bf16[B_X, F] within one node.
pub(super) fn p12_pop1(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick("h100", &["h100", "b200"]);
    let b = d.pick(1024.0, &[512.0, 1024.0, 2048.0, 4096.0]);
    let f = d.pick(16384.0, &[8192.0, 16384.0, 32768.0]);
    let n = 8.0;
    let calc = CalcSetup::new(
        chip,
        "bf16[B,F] -> bf16[B,F]",
        &[("B", b), ("F", f)],
        NvLink,
    );
    let c = calc.chip()?;
    let w = c.bandwidth(NvLink)?;
    let link = LinkModel::new(NvLink, w);
    let v = 2.0 * b * f;
    let cost = all_gather(v, n, &link);
    let t = cost.bandwidth_time;
    let rough = v / w;
    let mut eras = Vec::new();
    if d.is_book() {
        eras.push((
            rough,
            Era::new(
                "the rough V ÷ W, dropping (N − 1)/N".to_string(),
                "exactly each GPU receives (N − 1)/N of V".to_string(),
            ),
        ));
    }
    let parts = vec![Part::number(
        "a",
        "How long does the AllGather take, bandwidth alone?".to_string(),
        Unit::Seconds,
        0.03,
        (t, eras),
        "Each GPU receives the N − 1 shards it lacks, through its own NVLink port, one direction.".to_string(),
        vec![
            format!("V = 2 · {} · {} = {} bytes.", whole(b), whole(f), sci(v)),
            format!("T = V · (N − 1) ÷ (N · W) = {} · 7 ÷ (8 · {}) = {}; roughly V ÷ W = {}.", sci(v), bw_text(w), format::seconds(t), format::seconds(rough)),
        ],
    )
    .mistake_number(t / 2.0, format!("That uses {} both ways together; an AllGather's bytes come in one direction, {} each way.", bw_text(2.0 * w), bw_text(w)))
    .mistake_number(v / 2.0 * (n - 1.0) / (n * w), "That counts elements, not bytes: bf16 takes 2 bytes each.".to_string())
    .mistake_number(2.0 * t, "That is an AllReduce's cost, a ReduceScatter then an AllGather; an AllGather alone moves the bytes once.".to_string())
    .mistake_number(v / n / w, "That is one shard; each GPU receives the N − 1 shards it lacks.".to_string())];
    question(
        "p12-pop1",
        &format!("Part 12, {} 1", SOURCE_POP.to_lowercase()),
        format!(
            "A node of 8 {} GPUs, each with {} of NVLink each way. AllGather bf16[B_X, F] with B = {} and F = {}. The calculator's link opens the chip's NVLink with a copy of the array; it times a copy's read and write, not the collective.",
            c.name,
            bw_text(w),
            whole(b),
            whole(f)
        ),
        parts,
        calc,
    )
}

/// `text` with its first letter in upper case (ASCII).
fn upper_first(text: &str) -> String {
    let mut out = text.to_string();
    if let Some(first) = out.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    out
}
