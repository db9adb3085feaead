//! The question bank. Each builder reads its parameters from a [`Draw`]
//! (the book's numbers, or a variant's) and computes every expected answer
//! with the core: [`analyze`], [`critical_size`], [`network`] and the
//! hardware presets. Formulas are written from the operation's own byte and
//! FLOP terms and checked against the core's counts at the setup's sizes.

use crate::analysis::{byte_terms, coef_text, flops_term, sum_text, Analysis, Term};
use crate::format::{self, sci, sig};
use crate::op::Operation;
use crate::small::Join;
use crate::{analyze, critical_size, network, CoreError, CriticalSize, DType, LevelKind, Regime};

use super::answer::{evaluate_formula, ChoiceOption, Unit};
use super::{
    check, AnswerKind, CalcSetup, Expected, Mistake, Part, Question, SplitMix, Verdict,
    SOURCE_EXAMPLE, SOURCE_EXTRA, SOURCE_PRACTICE,
};

use DType::{Bf16, Fp32, Fp4, Fp8, Int4, Int8};
use LevelKind::{Hbm, Ici, NvLink, Pcie, Vmem};

/// A question builder.
pub(super) type Builder = fn(&mut Draw) -> Result<Question, CoreError>;

/// Every question (id, title, builder), in the chapter's order, then the
/// extras. The titles are here, not in the builders, so that the quiz can
/// list the questions without building them.
pub(super) const BANK: &[(&str, &str, Builder)] = &[
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
];

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

/// Builds question `id`, titled `title`, for `seed`: the book's numbers for 0, else a
/// variant (a few draws are tried until one passes every check; if none
/// does, the book's numbers).
pub(super) fn build(id: &str, title: &str, builder: Builder, seed: u64) -> Option<Question> {
    let built = |d: &mut Draw| {
        builder(d)
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
/// tolerance, and no text shows a missing value.
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
    }
    if texts.iter().any(|t| has_bad_text(t)) {
        return Err(invalid("a quiz text shows a missing number"));
    }
    Ok(q)
}

// ---------------------------------------------------------------- helpers

fn syms(s: &[&str]) -> Vec<String> {
    s.iter().map(|x| x.to_string()).collect()
}

const BDF: &[&str] = &["B", "D", "F"];

fn analysis(c: &CalcSetup) -> Result<Analysis, CoreError> {
    analyze(&c.scenario()?)
}

/// The size of `dim` where the operation turns compute-bound, exact bytes.
fn crossing(c: &CalcSetup, dim: &str) -> Result<f64, CoreError> {
    match critical_size(&c.scenario()?, dim)? {
        CriticalSize::At {
            size,
            compute_bound_above: true,
        } => Ok(size),
        _ => Err(invalid("no crossing")),
    }
}

/// Under the small-`B` approximation the intensity is `slope × B`; the
/// threshold is where it meets the critical intensity. Returns
/// (threshold, slope, analysis).
fn approx_threshold(c: &CalcSetup) -> Result<(f64, f64, Analysis), CoreError> {
    let a = analysis(c)?;
    let b = c.size("B")?;
    let ap = a
        .approx
        .as_ref()
        .ok_or_else(|| invalid("no approximation"))?;
    let slope = ap.intensity / b;
    Ok((a.critical_intensity / slope, slope, a))
}

/// Setups with the numbers other versions of the book used, where the
/// question does not fix them: TPU v5e HBM at 8.1e11 bytes/s, TPU v6e bf16
/// at 9.1e14 FLOPs/s (the roofline chapter's rounding).
fn eras(c: &CalcSetup) -> Vec<CalcSetup> {
    let mut out = Vec::new();
    let uses_hbm = c.level == Hbm || c.level == Vmem;
    if c.chip == "v5e" && uses_hbm && !c.bw_overrides.iter().any(|(k, _)| *k == Hbm) {
        let mut alt = c.clone();
        alt.bw_overrides.push((Hbm, 8.1e11));
        out.push(alt);
    }
    if c.chip == "v6e" && !c.peak_overrides.iter().any(|(d, _)| *d == Bf16) {
        let mut alt = c.clone();
        alt.peak_overrides.push((Bf16, 9.1e14));
        out.push(alt);
    }
    out
}

fn era_note(c: &CalcSetup) -> String {
    if c.chip == "v5e" && (c.level == Hbm || c.level == Vmem) {
        " Earlier versions of the book used 8.1e11 bytes/s for the v5e's HBM; answers from either value pass.".to_string()
    } else if c.chip == "v6e" {
        " The roofline chapter rounds the v6e's bf16 peak to 9.1e14 FLOPs/s; answers from either value pass.".to_string()
    } else {
        String::new()
    }
}

/// The value for `c` and, distinct from it, the values for its eras.
fn with_eras(
    c: &CalcSetup,
    f: impl Fn(&CalcSetup) -> Result<f64, CoreError>,
) -> Result<(f64, Vec<f64>), CoreError> {
    let v = f(c)?;
    let also = eras(c)
        .iter()
        .filter_map(|e| f(e).ok())
        .filter(|x| x.is_finite() && (x - v).abs() > 1e-9 * v.abs())
        .collect();
    Ok((v, also))
}

/// A number as a learner would type it.
fn plain(x: f64) -> String {
    for k in 2..=64u32 {
        let kf = f64::from(k);
        if (x * kf - 1.0).abs() < 1e-9 {
            return format!("1/{k}");
        }
    }
    if x.abs() >= 1e4 {
        sci(x)
    } else {
        sig(x, 4)
    }
}

fn number_text(x: f64, unit: Unit) -> String {
    match unit {
        Unit::None => plain(x),
        Unit::FlopsPerByte => format!("{} FLOPs/byte", plain(x)),
        Unit::Seconds => format::seconds(x),
        Unit::Bytes => format::bytes(x),
        Unit::Flops => format::flops(x),
        Unit::FlopsPerSecond => format::flops_rate(x),
        Unit::BytesPerSecond => format::bandwidth(x),
    }
}

fn ci_text(x: f64) -> String {
    format!("{} FLOPs/byte", sig(x, 4))
}

fn bw_text(x: f64) -> String {
    format!("{} bytes/s", sci(x))
}

fn rate_text(x: f64, dtype: DType) -> String {
    if dtype.is_integer() {
        format!("{} OPs/s", sci(x))
    } else {
        format!("{} FLOPs/s", sci(x))
    }
}

/// A constant exactly as Rust writes it (`3.94e14`), for formulas.
fn exact(x: f64) -> String {
    format!("{x:e}")
}

fn dtype_size(d: DType) -> String {
    match d {
        Int8 | Fp8 => "1 byte".to_string(),
        Int4 | Fp4 => "half a byte".to_string(),
        other => format!("{} bytes", sig(other.bytes(), 3)),
    }
}

/// "a TPU v5e", "an H100 SXM": the article follows how the first letter
/// is read aloud.
fn with_article(name: &str) -> String {
    let an = name
        .chars()
        .next()
        .is_some_and(|c| "AEFHILMNORSX".contains(c.to_ascii_uppercase()));
    format!("{} {name}", if an { "an" } else { "a" })
}

fn chip_name(c: &CalcSetup) -> Result<String, CoreError> {
    Ok(c.chip()?.name)
}

fn input_terms(op: &Operation) -> Vec<Term> {
    let mut t = byte_terms(op);
    t.pop();
    t
}

fn output_term(op: &Operation) -> Result<Term, CoreError> {
    byte_terms(op).pop().ok_or_else(|| invalid("no output"))
}

fn intensity_formula(op: &Operation) -> String {
    format!(
        "{} / ({})",
        flops_term(op).compact(),
        sum_text(&byte_terms(op))
    )
}

/// The result of the approximation, `2B` from `2BDF / DF = 2B`.
fn approx_formula(a: &Analysis) -> Result<String, CoreError> {
    let ap = a
        .approx
        .as_ref()
        .ok_or_else(|| invalid("no approximation"))?;
    Ok(ap
        .formula
        .rsplit("= ")
        .next()
        .unwrap_or(&ap.formula)
        .trim()
        .to_string())
}

/// The approximation written out: the core's text (`2BDF / DF = 2B`), with
/// parentheses where a kept term is a fraction (`2BDF / (DF/2) = 4B`).
fn approx_text(op: &Operation, a: &Analysis) -> Result<String, CoreError> {
    let ap = a
        .approx
        .as_ref()
        .ok_or_else(|| invalid("no approximation"))?;
    let kept = ap.kept_terms.joined(" + ");
    if !kept.contains('/') {
        // The core's own text combines like terms: `2N / 4N = 1/2`.
        return Ok(ap.formula.clone());
    }
    let den = format!("({kept})");
    Ok(format!(
        "{} / {den} = {}",
        flops_term(op).compact(),
        approx_formula(a)?
    ))
}

/// `2B > 480.5 ⇔ B > 240.2`, or just `B > 240.2` when the intensity is B.
fn threshold_step(approx: &str, ci: f64, thr: f64) -> String {
    if approx == "B" {
        format!("B > {}", sig(thr, 4))
    } else {
        format!("{approx} > {} ⇔ B > {}", sig(ci, 4), sig(thr, 4))
    }
}

/// Checks a formula against a number the core computed at the setup's sizes.
fn verified(expr: String, symbols: &[&str], c: &CalcSetup, want: f64) -> Result<String, CoreError> {
    let values: Vec<(String, f64)> = c.sizes.iter().map(|(k, v)| (k.clone(), *v)).collect();
    let got = evaluate_formula(&expr, &syms(symbols), &values).map_err(CoreError::Invalid)?;
    if (got - want).abs() <= 1e-9 * want.abs().max(1e-300) {
        Ok(expr)
    } else {
        Err(invalid("a quiz formula disagrees with the core"))
    }
}

fn regime_options() -> Vec<ChoiceOption> {
    vec![
        ChoiceOption::new(
            "compute-bound",
            &[
                "compute",
                "compute bound",
                "compute limited",
                "math bound",
                "flops bound",
            ],
        ),
        ChoiceOption::new(
            "bandwidth-bound",
            &[
                "bandwidth",
                "memory bound",
                "memory",
                "bandwidth limited",
                "memory limited",
                "comms bound",
                "communication bound",
                "hbm bound",
                "io bound",
                "mem bound",
            ],
        ),
    ]
}

fn regime_index(r: Regime) -> usize {
    match r {
        Regime::Compute => 0,
        Regime::Bandwidth => 1,
    }
}

fn never_options(dim: &str) -> Vec<ChoiceOption> {
    vec![
        ChoiceOption::new(
            &format!("Yes, once {dim} is large enough"),
            &["yes", "compute bound", "large enough", "eventually"],
        ),
        ChoiceOption::new(
            &format!("No, it stays bandwidth-bound at every {dim}"),
            &[
                "no",
                "never",
                "never compute",
                "never compute bound",
                "stays bandwidth",
                "always bandwidth",
                "bandwidth bound",
                "memory bound",
            ],
        ),
    ]
}

/// A regime far enough from the crossing that the answer is clear.
fn clear_regime(a: &Analysis) -> Result<Regime, CoreError> {
    let r = a.intensity / a.critical_intensity;
    if (0.75..1.33).contains(&r) {
        Err(invalid("too close to call"))
    } else {
        Ok(a.regime)
    }
}

impl Part {
    fn number(
        id: &str,
        prompt: String,
        unit: Unit,
        rel_tol: f64,
        (value, also_accept): (f64, Vec<f64>),
        hint: String,
        solution: Vec<String>,
    ) -> Part {
        Part {
            id: id.to_string(),
            prompt,
            kind: AnswerKind::Number { unit, rel_tol },
            expected_text: number_text(value, unit),
            expected: Expected::Number { value, also_accept },
            hint,
            solution,
            mistakes: Vec::new(),
            calc: None,
        }
    }

    fn formula(
        id: &str,
        prompt: String,
        symbols: &[&str],
        expr: String,
        also_accept: Vec<String>,
        hint: String,
        solution: Vec<String>,
    ) -> Part {
        Part {
            id: id.to_string(),
            prompt,
            kind: AnswerKind::Formula {
                symbols: syms(symbols),
            },
            expected_text: expr.clone(),
            expected: Expected::Formula { expr, also_accept },
            hint,
            solution,
            mistakes: Vec::new(),
            calc: None,
        }
    }

    fn choice(
        id: &str,
        prompt: String,
        options: Vec<ChoiceOption>,
        right: usize,
        hint: String,
        solution: Vec<String>,
    ) -> Part {
        let expected_text = options
            .get(right)
            .map(|o| o.label.clone())
            .unwrap_or_default();
        Part {
            id: id.to_string(),
            prompt,
            kind: AnswerKind::Choice { options },
            expected: Expected::Choice(right),
            expected_text,
            hint,
            solution,
            mistakes: Vec::new(),
            calc: None,
        }
    }

    fn mistake_number(mut self, value: f64, hint: String) -> Part {
        self.mistakes.push(Mistake {
            answer: Expected::Number {
                value,
                also_accept: Vec::new(),
            },
            hint,
        });
        self
    }

    fn mistake_formula(mut self, expr: &str, hint: String) -> Part {
        self.mistakes.push(Mistake {
            answer: Expected::Formula {
                expr: expr.to_string(),
                also_accept: Vec::new(),
            },
            hint,
        });
        self
    }

    fn with_calc(mut self, c: CalcSetup) -> Part {
        self.calc = Some(c);
        self
    }
}

/// A question; [`build`] sets its title from [`BANK`].
fn question(
    id: &str,
    source: &str,
    setup: String,
    parts: Vec<Part>,
    calc: CalcSetup,
) -> Result<Question, CoreError> {
    Ok(Question {
        id: id.to_string(),
        seed: 0,
        title: String::new(),
        source: source.to_string(),
        setup,
        parts,
        calc,
    })
}

fn matmul(x: DType, w: DType, out: DType) -> String {
    format!("{x}[B,D] * {w}[D,F] -> {out}[B,F]")
}

const POW2: &[f64] = &[1024.0, 2048.0, 4096.0, 8192.0, 16384.0];
const BATCHES: &[f64] = &[16.0, 32.0, 64.0, 128.0, 256.0, 512.0, 1024.0, 2048.0];
const BF16_CHIPS: &[&str] = &[
    "v4p", "v5e", "v5p", "v6e", "tpu7x", "a100", "h100", "h200", "b200",
];

// ------------------------------------------------------- worked examples

fn ex_dot(d: &mut Draw) -> Result<Question, CoreError> {
    let (dt, chip) = d.pick(
        (Bf16, "v5e"),
        &[
            (Bf16, "v5e"),
            (Bf16, "h100"),
            (Bf16, "v6e"),
            (Fp32, "h100"),
            (Fp32, "a100"),
            (Int8, "v5p"),
            (Int8, "v6e"),
            (Fp8, "h200"),
        ],
    );
    let n = d.pick(1e6, &[1e5, 1e6, 1e7, 1e8]);
    let op_text = format!("{dt}[N] * {dt}[N] -> {dt}[]");
    let calc = CalcSetup::new(chip, &op_text, &[("N", n)], Hbm);
    let op = calc.operation()?;
    let a = analysis(&calc)?;
    let name = chip_name(&calc)?;
    let a_name = with_article(&name);
    let size = dtype_size(dt);

    let flops_exact = verified("2N - 1".to_string(), &["N"], &calc, a.flops_exact_adds)?;
    let flops_book = verified(flops_term(&op).compact(), &["N"], &calc, a.flops)?;
    let per_elem_read = a.bytes_read / n;
    let bytes = verified(
        format!(
            "{}N + {}",
            coef_text(per_elem_read),
            coef_text(a.bytes_written)
        ),
        &["N"],
        &calc,
        a.bytes,
    )?;
    let ap = a
        .approx
        .as_ref()
        .ok_or_else(|| invalid("no approximation"))?;
    let limit = ap.intensity;

    let parts = vec![
        Part::formula(
            "a",
            "How many operations does the dot product take? Answer with a formula in N, counting every multiply and every add.".to_string(),
            &["N"],
            flops_exact.clone(),
            vec![flops_book.clone()],
            "There are N products to form, and adding up N numbers takes one addition fewer than N.".to_string(),
            vec![
                "One multiplication per pair of elements: N.".to_string(),
                "Summing the N products: N − 1 additions.".to_string(),
                format!("Total {flops_exact}; the book rounds it to {flops_book} for large N, and both pass."),
            ],
        )
        .mistake_formula(
            "N",
            "That counts only the multiplies (or only the adds): each product needs both.".to_string(),
        ),
        Part::formula(
            "b",
            "How many bytes travel between memory and the compute units? A formula in N.".to_string(),
            &["N"],
            bytes.clone(),
            Vec::new(),
            format!("Each input vector is read once at {size} per element, and the single result is written once."),
            vec![
                format!("Reading two vectors of N elements at {size} each: {}N bytes.", coef_text(per_elem_read)),
                format!("Writing one {dt} number: {}.", format::bytes(a.bytes_written).replace("1 bytes", "1 byte")),
                format!("Total: {bytes}."),
            ],
        )
        .mistake_formula(
            &format!("{}N", coef_text(per_elem_read)),
            format!("Almost: the result is written back too, {} more bytes. It hardly matters for large N, but count it here.", coef_text(a.bytes_written)),
        ),
        Part::number(
            "c",
            "As N grows, what value does the arithmetic intensity approach (FLOPs per byte)?".to_string(),
            Unit::FlopsPerByte,
            0.02,
            (limit, Vec::new()),
            "Divide the operation count by the bytes and let N grow: the constant terms stop mattering.".to_string(),
            vec![
                format!("Intensity = ({flops_exact}) / ({bytes})."),
                format!("For large N only the N terms count: {}.", approx_text(&op, &a)?),
                format!("At N = {}, the exact value is {}.", sci(n), sig(a.intensity, 6)),
            ],
        ),
        Part::choice(
            "d",
            format!("On {a_name} (critical intensity {} for {}), is the dot product compute-bound or bandwidth-bound?", ci_text(a.critical_intensity), a.compute_dtype),
            regime_options(),
            regime_index(a.regime),
            "Compare the intensity from the previous part with the chip's critical intensity (peak ÷ bandwidth).".to_string(),
            vec![
                format!("Critical intensity: {} ÷ {} = {}.", rate_text(a.peak, dt), bw_text(a.bandwidth), ci_text(a.critical_intensity)),
                format!("The dot product reaches only about {}, far below it: {}.", sig(limit, 3), a.regime.label()),
                "Every byte loaded is used in a single multiply-add, so the compute units spend most of their time waiting for memory.".to_string(),
            ],
        ),
    ];
    question(
        "ex-dot",
        SOURCE_EXAMPLE,
        format!(
            "Take two vectors of N = {} {dt} numbers ({size} each) and compute their dot product, {dt}[N] · {dt}[N] → {dt}[], a single number. It runs on {a_name}.",
            sci(n)
        ),
        parts,
        calc,
    )
}

fn ex_240(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick(
        "v5e",
        &[
            "v3", "v4p", "v5e", "v5p", "v6e", "tpu7x", "a100", "h100", "h200", "b200",
        ],
    );
    let b = d.pick(64.0, BATCHES);
    let dd = d.pick(4096.0, &[4096.0, 8192.0, 16384.0]);
    let calc = CalcSetup::new(
        chip,
        &matmul(Bf16, Bf16, Bf16),
        &[("B", b), ("D", dd), ("F", dd)],
        Hbm,
    );
    let name = chip_name(&calc)?;
    let a_name = with_article(&name);
    let (thr, _, a) = approx_threshold(&calc)?;
    let ci = with_eras(&calc, |c| Ok(analysis(c)?.critical_intensity))?;
    let th = with_eras(&calc, |c| Ok(approx_threshold(c)?.0))?;
    let approx = approx_formula(&a)?;
    let ap = a
        .approx
        .as_ref()
        .ok_or_else(|| invalid("no approximation"))?;
    let regime = clear_regime(&a)?;
    let parts = vec![
        Part::number(
            "a",
            "What is the chip's critical intensity for bf16 against HBM (FLOPs per byte)?".to_string(),
            Unit::FlopsPerByte,
            0.01,
            ci,
            "Critical intensity = peak FLOPs/s ÷ memory bandwidth in bytes/s.".to_string(),
            vec![format!("{} ÷ {} = {}.", rate_text(a.peak, Bf16), bw_text(a.bandwidth), ci_text(a.critical_intensity))],
        ),
        Part::formula(
            "b",
            "With B much smaller than D and F, what is the matmul's arithmetic intensity? A formula in B, D, F.".to_string(),
            BDF,
            approx.clone(),
            Vec::new(),
            "The bytes are 2BD + 2DF + 2BF. When B is small, which term is by far the largest? Divide 2BDF by it.".to_string(),
            vec![
                format!("Exact: {}.", intensity_formula(&calc.operation()?)),
                format!("Keep only {} (drop {}): {}.", ap.kept_terms.joined(" + "), ap.dropped_terms.joined(" + "), approx_text(&calc.operation()?, &a)?),
            ],
        ),
        Part::number(
            "c",
            "Above which batch size B (tokens per chip) does the matmul become compute-bound?".to_string(),
            Unit::None,
            0.01,
            th,
            "Set the approximate intensity equal to the critical intensity and solve for B.".to_string(),
            vec![
                format!("Intensity ≈ {approx}; critical intensity {}.", ci_text(a.critical_intensity)),
                format!("Compute-bound once B > {} tokens.", sig(thr, 4)),
                format!("With every byte counted (D = F = {dd}) the crossing is at B = {}, a little higher.", sig(crossing(&calc, "B")?, 4)),
            ],
        )
        .mistake_number(thr / 2.0, "That assumes an intensity of 2B; with 2-byte weights a bf16 matmul only reaches about B.".to_string()),
        Part::choice(
            "d",
            format!("With D = F = {dd} and B = {b}, is it compute-bound or bandwidth-bound?"),
            regime_options(),
            regime_index(regime),
            "Compare B with the threshold you found, or compute the exact intensity.".to_string(),
            vec![
                format!("Exact intensity at B = {b}: {}.", ci_text(a.intensity)),
                format!("Critical intensity: {}, so it is {}.", ci_text(a.critical_intensity), regime.label()),
            ],
        ),
    ];
    question(
        "ex-240",
        SOURCE_EXAMPLE,
        format!(
            "A bf16 matmul X[B,D] · W[D,F] → Z[B,F] runs on {a_name}: {} of bf16 peak and HBM at {}. B counts the tokens on this chip; D and F are the model's dimensions.{}",
            rate_text(a.peak, Bf16),
            bw_text(a.bandwidth),
            era_note(&calc)
        ),
        parts,
        calc,
    )
}

fn ex_net(d: &mut Draw) -> Result<Question, CoreError> {
    let (chip, link) = d.pick(
        ("v5e", Ici),
        &[
            ("v5e", Ici),
            ("v4p", Ici),
            ("v5p", Ici),
            ("v6e", Ici),
            ("a100", NvLink),
            ("h100", NvLink),
            ("b200", NvLink),
        ],
    );
    let n: u32 = d.pick(2, &[2, 2, 4, 8]);
    let b = d.pick(256.0, &[128.0, 256.0, 512.0, 1024.0]);
    let mut calc = CalcSetup::new(
        chip,
        &matmul(Bf16, Bf16, Bf16),
        &[("B", b), ("D", 4096.0), ("F", 4096.0)],
        Hbm,
    );
    calc.chips = n;
    calc.link = Some(link);
    calc.shard_dim = Some("D".to_string());
    calc.solve_for = Some("D".to_string());
    let name = chip_name(&calc)?;
    let s = calc.scenario()?;
    let net = network(&s, "D", n, link)?;
    let op = calc.operation()?;
    let threshold = match net.threshold {
        CriticalSize::At {
            size,
            compute_bound_above: true,
        } => size,
        _ => return Err(invalid("no threshold")),
    };
    let other = network(&calc.with_size("B", b * 4.0).scenario()?, "D", n, link)?;
    let depends_on_b = match other.threshold {
        CriticalSize::At { size, .. } => (size - threshold).abs() > 1e-9 * threshold,
        _ => true,
    };
    let flops = flops_term(&op).compact();
    let t_math = verified(
        format!("{flops} / ({n} × {})", exact(net.peak)),
        BDF,
        &calc,
        net.t_math,
    )?;
    let out = output_term(&op)?.compact();
    let t_comms = verified(
        format!("{out} / {}", exact(net.bandwidth)),
        BDF,
        &calc,
        net.t_comms,
    )?;
    let options = vec![
        ChoiceOption::new("Yes, it grows with B", &["yes", "grows", "depends on b"]),
        ChoiceOption::new(
            "No, B cancels: only D matters",
            &[
                "no",
                "cancels",
                "only d",
                "independent",
                "does not depend",
                "doesn't depend",
            ],
        ),
    ];
    let parts = vec![
        Part::formula(
            "a",
            "How long does each chip spend on math, T_math, in seconds? A formula in B, D, F.".to_string(),
            BDF,
            t_math.clone(),
            Vec::new(),
            format!("The whole matmul is 2BDF FLOPs and each chip does 1/{n} of it, at the per-chip peak."),
            vec![
                format!("FLOPs per chip: {flops} / {n}."),
                format!("T_math = {t_math} seconds."),
            ],
        )
        .mistake_formula(
            &format!("{flops} / {}", exact(net.peak)),
            format!("That is the time for the whole matmul on one chip; each of the {n} chips does only its share."),
        ),
        Part::formula(
            "b",
            format!("How long does each chip spend sending its partial result over {link}, T_comms, in seconds? A formula in B, D, F."),
            BDF,
            t_comms.clone(),
            Vec::new(),
            "Each chip ends with a full-size partial output [B,F] in bf16 and must send it to the others.".to_string(),
            vec![
                format!("Bytes sent per chip: the bf16 partial output, {out}."),
                format!("T_comms = {t_comms} seconds ({} one way).", bw_text(net.bandwidth)),
            ],
        ),
        Part::number(
            "c",
            "Above which size of D is the split matmul compute-bound?".to_string(),
            Unit::None,
            0.01,
            (threshold, Vec::new()),
            "Set T_math equal to T_comms: B and F appear on both sides.".to_string(),
            vec![
                format!("T_math > T_comms ⇔ 2BDF / ({n} × {}) > {out} / {}.", sci(net.peak), sci(net.bandwidth)),
                format!("B and F cancel: D / {n} > {} / {} = {}.", sci(net.peak), sci(net.bandwidth), sig(net.critical_intensity, 4)),
                format!("So D > {}.", sig(threshold, 4)),
            ],
        )
        .mistake_number(
            net.critical_intensity,
            format!("That is peak ÷ link bandwidth itself; each chip only handles D/{n} of the summed dimension, so compare D/{n} with it."),
        ),
        Part::choice(
            "d",
            "Does that threshold depend on the batch size B?".to_string(),
            options,
            usize::from(!depends_on_b),
            "Write T_math and T_comms side by side and see which letters cancel.".to_string(),
            vec![
                "Both times are proportional to B·F: the FLOPs per chip are 2BDF/N and the bytes sent are 2BF.".to_string(),
                "So only D (and the number of chips) decides the regime; growing the batch does not help.".to_string(),
            ],
        ),
    ];
    question(
        "ex-net",
        SOURCE_EXAMPLE,
        format!(
            "The bf16 matmul bf16[B,D] · bf16[D,F] → bf16[B,F] is split over {n} {name} chips along D. Each chip holds 1/{n} of D (that slice of X's columns and of W's rows), multiplies its slices at {} per chip, and sends its partial [B,F] result, in bf16, over {link} at {} in one direction. Ignore the additions that combine the partial results.",
            rate_text(net.peak, Bf16),
            bw_text(net.bandwidth)
        ),
        parts,
        calc,
    )
}

// ------------------------------------------------------ practice questions

fn q1(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick(
        "v5e",
        &[
            "v5e", "v5p", "v6e", "tpu7x", "v4p", "a100", "h100", "h200", "b200",
        ],
    );
    let dd = d.pick(4096.0, POW2);
    let ff = d.pick(4096.0, POW2);
    let b = d.pick(512.0, BATCHES);
    let calc = CalcSetup::new(
        chip,
        &matmul(Int8, Int8, Int8),
        &[("B", b), ("D", dd), ("F", ff)],
        Hbm,
    );
    let name = chip_name(&calc)?;
    let a_name = with_article(&name);
    let op = calc.operation()?;
    let a = analysis(&calc)?;
    let (thr, _slope, _) = approx_threshold(&calc)?;
    let regime = clear_regime(&a)?;

    let read = verified(sum_text(&input_terms(&op)), BDF, &calc, a.bytes_read)?;
    let written = verified(output_term(&op)?.compact(), BDF, &calc, a.bytes_written)?;
    let flops = verified(flops_term(&op).compact(), BDF, &calc, a.flops)?;
    let intensity = verified(intensity_formula(&op), BDF, &calc, a.intensity)?;
    let total = sum_text(&byte_terms(&op));
    let t_math = verified(format!("{flops} / {}", exact(a.peak)), BDF, &calc, a.t_math)?;
    let comms_for = |c: &CalcSetup| -> Result<String, CoreError> {
        let a = analysis(c)?;
        verified(
            format!("({total}) / {}", exact(a.bandwidth)),
            BDF,
            c,
            a.t_comms,
        )
    };
    let t_comms = comms_for(&calc)?;
    let t_comms_alt: Vec<String> = eras(&calc)
        .iter()
        .filter_map(|c| comms_for(c).ok())
        .collect();
    let ci = with_eras(&calc, |c| Ok(analysis(c)?.critical_intensity))?;
    let th = with_eras(&calc, |c| Ok(approx_threshold(c)?.0))?;

    // The bounds: which expression equals the core's lower and upper bound.
    let candidates = [
        (
            "max(T_math, T_comms)",
            a.t_math.max(a.t_comms),
            &["max", "maximum", "larger", "bigger", "greater"][..],
        ),
        (
            "T_math + T_comms",
            a.t_math + a.t_comms,
            &["sum", "plus", "add", "tmath+tcomms", "t_math + t_comms"][..],
        ),
        (
            "min(T_math, T_comms)",
            a.t_math.min(a.t_comms),
            &["min", "minimum", "smaller", "lesser"][..],
        ),
    ];
    let bound_options: Vec<ChoiceOption> = candidates
        .iter()
        .map(|(l, _, s)| ChoiceOption::new(l, s))
        .collect();
    let close = |x: f64, y: f64| (x - y).abs() <= 1e-12 * y.abs();
    let lower = candidates
        .iter()
        .position(|c| close(c.1, a.t_lower))
        .ok_or_else(|| invalid("no lower bound"))?;
    let upper = candidates
        .iter()
        .position(|c| close(c.1, a.t_upper))
        .ok_or_else(|| invalid("no upper bound"))?;
    if lower == upper {
        return Err(invalid("bounds coincide"));
    }

    let parts = vec![
        Part::formula(
            "a",
            "How many bytes are loaded from HBM? A formula in B, D, F.".to_string(),
            BDF,
            read.clone(),
            Vec::new(),
            "Each input is read once, and an int8 element is one byte: count the elements of X and of Y.".to_string(),
            vec![
                "X[B,D] has B·D elements and Y[D,F] has D·F, at 1 byte each.".to_string(),
                format!("Bytes loaded: {read}."),
            ],
        )
        .mistake_formula("2*B*D + 2*D*F", "Those are bf16 sizes; int8 takes one byte per element.".to_string()),
        Part::formula(
            "a2",
            "How many bytes are written back to HBM?".to_string(),
            BDF,
            written.clone(),
            Vec::new(),
            "The output Z[B,F] is written once, one byte per element.".to_string(),
            vec![format!("Z has B·F elements of 1 byte: {written}.")],
        ),
        Part::formula(
            "b",
            "How many operations (OPs) does it perform in total?".to_string(),
            BDF,
            flops.clone(),
            Vec::new(),
            "Each of the B·F outputs is a sum over D products; count a multiply and an add per product. The data type does not change the count.".to_string(),
            vec![
                "B·F outputs, each needing D multiplies and D adds.".to_string(),
                format!("Total: {flops}, the same as in bf16."),
            ],
        )
        .mistake_formula("B*D*F", "That counts only the multiplies (or only the adds): each product needs one of each.".to_string()),
        Part::formula(
            "c",
            "What is its arithmetic intensity, counting every byte? A formula in B, D, F.".to_string(),
            BDF,
            intensity.clone(),
            Vec::new(),
            "Intensity = operations ÷ bytes moved, read plus written.".to_string(),
            vec![
                format!("OPs: {flops}; bytes: {total}."),
                format!("Intensity = {intensity}, about 2B when B is much smaller than D and F."),
            ],
        ),
        Part::formula(
            "d-math",
            "Roofline estimate of T_math, in seconds, as a formula in B, D, F.".to_string(),
            BDF,
            t_math.clone(),
            Vec::new(),
            "T_math = operations ÷ the chip's int8 peak.".to_string(),
            vec![format!("T_math = {t_math} seconds.")],
        )
        .mistake_formula(&format!("B*D*F / {}", exact(a.peak)), "Half of it: the operation count is 2BDF.".to_string()),
        Part::formula(
            "d-comms",
            "Roofline estimate of T_comms, in seconds, as a formula in B, D, F.".to_string(),
            BDF,
            t_comms.clone(),
            t_comms_alt,
            "T_comms = bytes moved (read plus written) ÷ HBM bandwidth.".to_string(),
            vec![format!("T_comms = {t_comms} seconds.")],
        ),
        Part::choice(
            "d-lower",
            "Which expression is a lower bound on the runtime (math and transfers perfectly overlapped)?".to_string(),
            bound_options.clone(),
            lower,
            "With perfect overlap, the slower of the two hides the faster one.".to_string(),
            vec!["The runtime cannot be shorter than either part alone: max(T_math, T_comms).".to_string()],
        ),
        Part::choice(
            "d-upper",
            "And an upper bound (nothing overlaps)?".to_string(),
            bound_options,
            upper,
            "With no overlap at all, one waits for the other to finish.".to_string(),
            vec!["Done one after the other: T_math + T_comms, never more than twice the lower bound.".to_string()],
        ),
        Part::number(
            "e",
            "What is the chip's critical intensity for int8 against HBM (OPs per byte)?".to_string(),
            Unit::FlopsPerByte,
            0.01,
            ci,
            "Critical intensity = int8 peak OPs/s ÷ HBM bandwidth.".to_string(),
            vec![format!("{} ÷ {} = {}.", rate_text(a.peak, Int8), bw_text(a.bandwidth), ci_text(a.critical_intensity))],
        ),
        Part::number(
            "f",
            "With B much smaller than D and F, above which batch size is it compute-bound?".to_string(),
            Unit::None,
            0.01,
            th,
            "With B small, the DF term dominates the bytes, so the intensity is about 2B. Set that equal to the critical intensity.".to_string(),
            vec![
                "Intensity ≈ 2BDF / DF = 2B.".to_string(),
                format!("2B > {} ⇔ B > {}.", sig(a.critical_intensity, 4), sig(thr, 4)),
            ],
        )
        .mistake_number(
            a.critical_intensity,
            "That is the critical intensity itself; the intensity is about 2B, so B only needs half of it.".to_string(),
        ),
        Part::choice(
            "g",
            format!("With B = {b}, D = {dd} and F = {ff}, is it compute-bound or bandwidth-bound?"),
            regime_options(),
            regime_index(regime),
            "Compute the intensity with every byte and compare it with the critical intensity.".to_string(),
            vec![
                format!("Intensity at these sizes: {}.", ci_text(a.intensity)),
                format!("Critical intensity: {}, so it is {}.", ci_text(a.critical_intensity), regime.label()),
            ],
        ),
    ];
    question(
        "q1",
        &format!("{SOURCE_PRACTICE} 1"),
        format!(
            "A matmul X[B,D] · Y[D,F] → Z[B,F] runs entirely in int8, one byte per element: inputs, output and math. The chip is {a_name} with an int8 peak of {} and HBM bandwidth of {}.{}",
            rate_text(a.peak, Int8),
            bw_text(a.bandwidth),
            era_note(&calc)
        ),
        parts,
        calc,
    )
}

fn q2(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick("v5e", BF16_CHIPS);
    let w = d.pick(Int8, &[Int8, Int8, Fp8, Int4]);
    let calc = CalcSetup::new(
        chip,
        &matmul(Bf16, w, Bf16),
        &[("B", 256.0), ("D", 4096.0), ("F", 4096.0)],
        Hbm,
    );
    let name = chip_name(&calc)?;
    let a_name = with_article(&name);
    let op = calc.operation()?;
    let (thr, slope, a) = approx_threshold(&calc)?;
    let exact_i = verified(intensity_formula(&op), BDF, &calc, a.intensity)?;
    let approx = approx_formula(&a)?;
    let ap = a
        .approx
        .as_ref()
        .ok_or_else(|| invalid("no approximation"))?;
    let th = with_eras(&calc, |c| Ok(approx_threshold(c)?.0))?;
    let parts = vec![
        Part::formula(
            "a",
            "What is the arithmetic intensity with every byte counted? A formula in B, D, F.".to_string(),
            BDF,
            exact_i.clone(),
            Vec::new(),
            format!("The FLOPs do not change with the data type. For the bytes, X and Z are bf16 (2 bytes per element) and W is {w} ({} per element).", dtype_size(w)),
            vec![
                format!("FLOPs: {}.", flops_term(&op).compact()),
                format!("Bytes: {}.", sum_text(&byte_terms(&op))),
                format!("Intensity = {exact_i}."),
            ],
        ),
        Part::formula(
            "b",
            "With B much smaller than D and F, what does the intensity simplify to?".to_string(),
            BDF,
            approx.clone(),
            Vec::new(),
            "Keep only the largest byte term, the weights'.".to_string(),
            vec![format!("Keeping {} and dropping {}: {}.", ap.kept_terms.joined(" + "), ap.dropped_terms.joined(" + "), approx_text(&op, &a)?)],
        )
        .mistake_formula("B", format!("That is the all-bf16 answer; the weights now take {} per element, so each byte carries more FLOPs.", dtype_size(w))),
        Part::number(
            "c",
            "Above which batch size B does it become compute-bound?".to_string(),
            Unit::None,
            0.015,
            th,
            "Set the simplified intensity equal to the bf16 critical intensity (peak ÷ HBM bandwidth) and solve for B.".to_string(),
            vec![
                format!("Critical intensity: {} ÷ {} = {}.", rate_text(a.peak, Bf16), bw_text(a.bandwidth), ci_text(a.critical_intensity)),
                format!("{}.", threshold_step(&approx, a.critical_intensity, thr)),
            ],
        )
        .mistake_number(
            a.critical_intensity,
            "That is where an all-bf16 matmul turns compute-bound. With smaller weights each byte carries more FLOPs, so a smaller batch suffices.".to_string(),
        )
        .mistake_number(
            thr * slope / 2.0,
            "That assumes 1-byte weights; check how many bytes a weight takes here.".to_string(),
        ),
    ];
    question(
        "q2",
        &format!("{SOURCE_PRACTICE} 2"),
        format!(
            "Activations and math stay in bf16, but the weights are stored in {w} ({} per element): bf16[B,D] · {w}[D,F] → bf16[B,F]. The chip is {a_name}: {} of bf16 peak, HBM at {}.{}",
            dtype_size(w),
            rate_text(a.peak, Bf16),
            bw_text(a.bandwidth),
            era_note(&calc)
        ),
        parts,
        calc,
    )
}

fn q3(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick("v5e", BF16_CHIPS);
    let big = d.pick(4096.0, &[4096.0, 8192.0, 16384.0]);
    let small = d.pick(1024.0, &[512.0, 1024.0, 2048.0]);
    let mut base = CalcSetup::new(
        chip,
        &matmul(Bf16, Int8, Bf16),
        &[("B", 128.0), ("D", big), ("F", big)],
        Hbm,
    );
    // The batch-size chart draws both sizes.
    base.pairs = vec![(big, big), (small, small)];
    let small_calc = base.with_size("D", small).with_size("F", small);
    let name = chip_name(&base)?;
    let a_name = with_article(&name);
    let (thr, _, a) = approx_threshold(&base)?;
    let x_big = with_eras(&base, |c| crossing(c, "B"))?;
    let x_small = with_eras(&small_calc, |c| crossing(c, "B"))?;
    if x_small.0 > 6.0 * thr || x_small.0 < 1.2 * x_big.0 {
        return Err(invalid("variant not instructive"));
    }
    let th = with_eras(&base, |c| Ok(approx_threshold(c)?.0))?;
    let exact_i = intensity_formula(&base.operation()?);
    let solve = |n: f64, x: f64| {
        vec![
            format!("With D = F = {n}: intensity(B) = {exact_i}, with every byte counted."),
            format!(
                "On the chart, the curve reaches the flat roof ({}) where the intensity equals {}.",
                rate_text(a.peak, Bf16),
                ci_text(a.critical_intensity)
            ),
            format!(
                "Solving that numerically (or reading the chart): B ≈ {}.",
                sig(x, 4)
            ),
        ]
    };
    let parts = vec![
        Part::number(
            "a",
            format!("Read the batch size where the D = F = {big} curve reaches the roof."),
            Unit::None,
            0.03,
            x_big.clone(),
            "Open the batch-size chart in the calculator: attained FLOPs/s against B. Find where the curve stops rising.".to_string(),
            solve(big, x_big.0),
        )
        .with_calc(base.clone()),
        Part::number(
            "b",
            format!("And for D = F = {small}?"),
            Unit::None,
            0.03,
            x_small.clone(),
            "With small matrices the activation bytes are no longer negligible next to the weights: expect a larger batch.".to_string(),
            solve(small, x_small.0),
        )
        .with_calc(small_calc)
        .mistake_number(th.0, "That is what the approximation promises; with small D and F the exact bytes push the crossing higher.".to_string()),
        Part::number(
            "c",
            "What crossing does the small-B approximation (intensity ≈ 2B) predict, for either size?".to_string(),
            Unit::None,
            0.015,
            th,
            "The approximation ignores D and F entirely: 2B against the critical intensity.".to_string(),
            vec![
                format!("2B > {} ⇔ B > {}, whatever D and F are.", sig(a.critical_intensity, 4), sig(thr, 4)),
                format!("The exact crossings, {} and {}, are both higher: the dropped byte terms cost something, and more so for small matrices.", sig(x_big.0, 4), sig(x_small.0, 4)),
            ],
        ),
    ];
    question(
        "q3",
        &format!("{SOURCE_PRACTICE} 3"),
        format!(
            "Take question 2's matmul, bf16[B,D] · int8[D,F] → bf16[B,F], on {a_name} ({} of bf16 peak, HBM at {}). Plot attained FLOPs/s against B for D = F = {big} and for D = F = {small}, counting every byte rather than using the approximation, and read where each curve reaches the roof.{}",
            rate_text(a.peak, Bf16),
            bw_text(a.bandwidth),
            era_note(&base)
        ),
        parts,
        base,
    )
}

fn q4(d: &mut Draw) -> Result<Question, CoreError> {
    let (dt, chip) = d.pick(
        (Int8, "v5e"),
        &[
            (Int8, "v5e"),
            (Int8, "h100"),
            (Int8, "v6e"),
            (Bf16, "v5p"),
            (Bf16, "a100"),
            (Fp8, "h100"),
            (Fp8, "b200"),
        ],
    );
    let dd = d.pick(4096.0, POW2);
    let ff = d.pick(4096.0, POW2);
    let op_text = format!("{dt}[B,D] * {dt}[B,D,F] -> {dt}[B,F]");
    let calc = CalcSetup::new(chip, &op_text, &[("B", 64.0), ("D", dd), ("F", ff)], Hbm);
    let name = chip_name(&calc)?;
    let a_name = with_article(&name);
    let op = calc.operation()?;
    let a = analysis(&calc)?;
    let ap = a
        .approx
        .as_ref()
        .ok_or_else(|| invalid("no approximation"))?;
    let exact_i = verified(intensity_formula(&op), BDF, &calc, a.intensity)?;
    let never = match critical_size(&calc.scenario()?, "B")? {
        CriticalSize::Never { .. } => true,
        CriticalSize::At { .. } | CriticalSize::Always => false,
    };
    let parts = vec![
        Part::number(
            "a",
            "Roughly how many operations does it perform per byte moved, for any B?".to_string(),
            Unit::FlopsPerByte,
            0.02,
            (ap.intensity, Vec::new()),
            "Count FLOPs and bytes per example: each example brings its own D×F matrix, used only once.".to_string(),
            vec![
                format!("FLOPs: {} (each example does 2DF).", flops_term(&op).compact()),
                format!("Bytes: {}; the per-example matrices, {}, dominate.", sum_text(&byte_terms(&op)), ap.kept_terms.joined(" + ")),
                format!("Intensity ≈ {}, about {} at D = {dd}, F = {ff}.", approx_text(&op, &a)?, sig(a.intensity, 4)),
            ],
        )
        ,
        Part::formula(
            "b",
            "The exact intensity, as a formula in B, D, F?".to_string(),
            BDF,
            exact_i.clone(),
            Vec::new(),
            format!("FLOPs as for a matmul; bytes: X is [B,D], the stack of matrices [B,D,F], the output [B,F], each at {} per element.", dtype_size(dt)),
            vec![
                format!("Intensity = {exact_i}."),
                format!("B cancels: each example does 2DF FLOPs on D + DF + F elements of {}, whatever the batch size.", dtype_size(dt)),
            ],
        )
        .mistake_formula(
            &format!("2*B^2*D*F / ({})", sum_text(&byte_terms(&op))),
            "The FLOPs are 2BDF, not B × 2BDF: each example multiplies its own matrix once.".to_string(),
        ),
        Part::choice(
            "c",
            format!("On {a_name}, can a larger batch make it compute-bound?"),
            never_options("B"),
            usize::from(never),
            "What happens to the intensity as B grows?".to_string(),
            vec![
                format!("The intensity stays about {} however large B is, far below the critical {}.", sig(ap.intensity, 3), ci_text(a.critical_intensity)),
                "Batching only helps when examples share weights; here they do not, so it stays bandwidth-bound.".to_string(),
            ],
        ),
    ];
    question(
        "q4",
        &format!("{SOURCE_PRACTICE} 4"),
        format!(
            "Each example in the batch has its own weight matrix: {dt}[B,D] · {dt}[B,D,F] → {dt}[B,F], where example b multiplies its row of X by its own D×F matrix. All operands are {dt} ({}), D = {dd}, F = {ff}, on {a_name}.",
            dtype_size(dt)
        ),
        parts,
        calc,
    )
}

fn q5(d: &mut Draw) -> Result<Question, CoreError> {
    let (chip, dt) = d.pick(
        ("h100", Bf16),
        &[
            ("h100", Bf16),
            ("h100", Fp8),
            ("h200", Bf16),
            ("h200", Fp8),
            ("b200", Bf16),
            ("b200", Fp8),
            ("b200", Fp4),
            ("a100", Bf16),
        ],
    );
    let dd = d.pick(8192.0, &[8192.0, 16384.0]);
    let calc = CalcSetup::new(
        chip,
        &matmul(dt, dt, dt),
        &[("B", 256.0), ("D", dd), ("F", dd)],
        Hbm,
    );
    let c = calc.chip()?;
    let name = c.name.clone();
    let entry = c.peak_entry(dt).ok_or_else(|| invalid("no peak"))?.clone();
    let sparse = entry.sparse.ok_or_else(|| invalid("no sparse figure"))?;
    let (thr, slope, a) = approx_threshold(&calc)?;
    let sparse_thr = sparse / a.bandwidth / slope;
    let mut also = Vec::new();
    if chip == "h100" && dt == Bf16 {
        // An older version of the book used 1e15 dense (298).
        let mut alt = calc.clone();
        alt.peak_overrides.push((Bf16, 1e15));
        also.push(approx_threshold(&alt)?.0);
    }
    let dense_index = usize::from(sparse <= a.peak);
    let options = vec![
        ChoiceOption::new(
            "The dense peak, half the spec-sheet figure",
            &["dense", "half", "without sparsity", "dense peak"],
        ),
        ChoiceOption::new(
            "The spec-sheet figure as printed",
            &[
                "sparse",
                "spec sheet",
                "printed",
                "as printed",
                "full figure",
            ],
        ),
    ];
    let parts = vec![
        Part::number(
            "a",
            format!("Using the dense peak, above which batch size is the {dt} matmul compute-bound?"),
            Unit::None,
            0.02,
            (thr, also),
            "Halve the spec-sheet figure to get the dense peak, divide by the HBM bandwidth, and use the small-B intensity of this matmul.".to_string(),
            vec![
                format!("Dense peak: {} ÷ 2 = {}.", sci(sparse), rate_text(a.peak, dt)),
                format!("Critical intensity: {} ÷ {} = {}.", sci(a.peak), bw_text(a.bandwidth), ci_text(a.critical_intensity)),
                format!("Intensity ≈ {}; compute-bound once B > {}.", approx_formula(&a)?, sig(thr, 4)),
            ],
        )
        .mistake_number(sparse_thr, "That uses the spec sheet's figure, which assumes structured sparsity; a dense matmul gets half of it.".to_string()),
        Part::choice(
            "b",
            "Which peak belongs in the roofline of an ordinary (dense) matmul?".to_string(),
            options,
            dense_index,
            "Read the footnote: the printed figure needs structured sparsity, which a dense matmul does not have.".to_string(),
            vec![format!("The printed {} assumes 2:4 structured sparsity; dense math reaches {}.", sci(sparse), sci(a.peak))],
        ),
        Part::number(
            "c",
            "What threshold would the printed figure have suggested (the mistake to avoid)?".to_string(),
            Unit::None,
            0.02,
            (sparse_thr, Vec::new()),
            "Redo part a with the printed, sparse figure.".to_string(),
            vec![format!("{} ÷ {} gives B > {}, twice the real answer.", sci(sparse), bw_text(a.bandwidth), sig(sparse_thr, 4))],
        )
        .mistake_number(thr, "That is the right answer to part a; this part asks what the printed figure would give.".to_string()),
    ];
    question(
        "q5",
        &format!("{SOURCE_PRACTICE} 5"),
        format!(
            "NVIDIA's sheet for the {name} lists {} for {dt} tensor-core math, with a footnote: the figure assumes structured sparsity. HBM delivers {}. Take the matmul {dt}[B,D] · {dt}[D,F] → {dt}[B,F] with B much smaller than D = F = {dd}.",
            rate_text(sparse, dt),
            bw_text(a.bandwidth)
        ),
        parts,
        calc,
    )
}

// ----------------------------------------------------------------- extras

fn x_fp8(d: &mut Draw) -> Result<Question, CoreError> {
    let (chip, dt) = d.pick(
        ("h100", Fp8),
        &[
            ("h100", Fp8),
            ("h200", Fp8),
            ("b200", Fp8),
            ("b200", Fp4),
            ("h100", Int8),
            ("a100", Int8),
            ("v5p", Int8),
        ],
    );
    let calc = CalcSetup::new(
        chip,
        &matmul(dt, dt, dt),
        &[("B", 256.0), ("D", 8192.0), ("F", 8192.0)],
        Hbm,
    );
    let name = chip_name(&calc)?;
    let a_name = with_article(&name);
    let (thr, _, a) = approx_threshold(&calc)?;
    let bf = CalcSetup::new(
        chip,
        &matmul(Bf16, Bf16, Bf16),
        &[("B", 256.0), ("D", 8192.0), ("F", 8192.0)],
        Hbm,
    );
    let (thr_bf, _, _) = approx_threshold(&bf)?;
    let ratio = thr / thr_bf;
    let cmp = if ratio < 0.7 {
        0
    } else if (0.8..1.25).contains(&ratio) {
        1
    } else if ratio > 1.4 {
        2
    } else {
        return Err(invalid("ratio too close to call"));
    };
    let approx = approx_formula(&a)?;
    let options = vec![
        ChoiceOption::new("About half as large", &["half", "smaller"]),
        ChoiceOption::new("About the same", &["same", "similar", "equal"]),
        ChoiceOption::new("About twice as large", &["twice", "double", "larger"]),
    ];
    let parts = vec![
        Part::number(
            "a",
            format!("What is the critical intensity for {dt} against HBM?"),
            Unit::FlopsPerByte,
            0.01,
            (a.critical_intensity, Vec::new()),
            format!("Dense {dt} peak ÷ HBM bandwidth."),
            vec![format!("{} ÷ {} = {}.", rate_text(a.peak, dt), bw_text(a.bandwidth), ci_text(a.critical_intensity))],
        ),
        Part::formula(
            "b",
            "With B small next to D and F, what is the intensity? A formula in B, D, F.".to_string(),
            BDF,
            approx.clone(),
            Vec::new(),
            format!("Weights are {} per element now; divide the FLOPs by the weights' bytes.", dtype_size(dt)),
            vec![format!("{}.", approx_text(&calc.operation()?, &a)?)],
        ),
        Part::number(
            "c",
            "Above which batch size is it compute-bound?".to_string(),
            Unit::None,
            0.01,
            (thr, Vec::new()),
            "Set the intensity from part b equal to the critical intensity.".to_string(),
            vec![format!("{}.", threshold_step(&approx, a.critical_intensity, thr))],
        )
        .mistake_number(a.critical_intensity, format!("That is the critical intensity itself; the intensity is {approx}, not B.")),
        Part::choice(
            "d",
            "Compared with the same matmul in bf16 on this chip, the batch needed is:".to_string(),
            options,
            cmp,
            "Narrower numbers raise the peak and shrink the bytes: which effect wins?".to_string(),
            vec![
                format!("bf16: B > {}; {dt}: B > {}.", sig(thr_bf, 4), sig(thr, 4)),
                format!("Ratio {}: the faster math needs {}× the FLOPs per byte, and each byte now carries {}× the FLOPs.", sig(ratio, 3), sig(a.critical_intensity / approx_threshold(&bf)?.2.critical_intensity, 3), sig(Bf16.bytes() / dt.bytes(), 3)),
            ],
        ),
    ];
    question(
        "x-fp8",
        SOURCE_EXTRA,
        format!(
            "A matmul stored and computed entirely in {dt} ({} per element), {dt}[B,D] · {dt}[D,F] → {dt}[B,F], on {a_name}: dense {dt} peak {}, HBM at {}.",
            dtype_size(dt),
            rate_text(a.peak, dt),
            bw_text(a.bandwidth)
        ),
        parts,
        calc,
    )
}

fn x_vmem(d: &mut Draw) -> Result<Question, CoreError> {
    let dt = d.pick(Bf16, &[Bf16, Int8]);
    let k: Option<f64> = d.pick(
        None,
        &[None, Some(10.0), Some(15.0), Some(20.0), Some(30.0)],
    );
    let b = d.pick(64.0, &[4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0]);
    let dd = d.pick(4096.0, &[2048.0, 4096.0]);
    let mut calc = CalcSetup::new(
        "v5e",
        &matmul(dt, dt, dt),
        &[("B", b), ("D", dd), ("F", dd)],
        Vmem,
    );
    if let Some(k) = k {
        let hbm = calc.chip()?.bandwidth(Hbm)?;
        calc.bw_overrides.push((Vmem, k * hbm));
    }
    let hbm_calc = {
        let mut c = calc.clone();
        c.level = Hbm;
        c
    };
    calc.level2 = Some(Hbm);
    let (thr, _, a) = approx_threshold(&calc)?;
    let (thr_hbm, _, ah) = approx_threshold(&hbm_calc)?;
    let regime = clear_regime(&a)?;
    let ratio = thr_hbm / thr;
    let ci = with_eras(&calc, |c| Ok(analysis(c)?.critical_intensity))?;
    let ratio_e = with_eras(&calc, |c| {
        let mut h = c.clone();
        h.level = Hbm;
        Ok(approx_threshold(&h)?.0 / approx_threshold(c)?.0)
    })?;
    let approx = approx_formula(&a)?;
    let parts = vec![
        Part::number(
            "a",
            format!("What is the critical intensity for {dt} against VMEM?"),
            Unit::FlopsPerByte,
            0.02,
            ci,
            "Same peak as always, but divide by the VMEM bandwidth instead of HBM's.".to_string(),
            vec![format!("{} ÷ {} = {}.", rate_text(a.peak, dt), bw_text(a.bandwidth), ci_text(a.critical_intensity))],
        ),
        Part::number(
            "b",
            "With the weights in VMEM and B small, above which batch size is the matmul compute-bound?".to_string(),
            Unit::None,
            0.02,
            (thr, Vec::new()),
            format!("The intensity is still about {approx}; only the critical intensity changed."),
            vec![format!("{}.", threshold_step(&approx, a.critical_intensity, thr))],
        )
        .mistake_number(thr_hbm, "That is the HBM answer; VMEM is much faster, so a far smaller batch suffices.".to_string()),
        Part::choice(
            "c",
            format!("With B = {b}, D = F = {dd} and the weights in VMEM, is it compute-bound or bandwidth-bound?"),
            regime_options(),
            regime_index(regime),
            "Compare the exact intensity at this B with the VMEM critical intensity.".to_string(),
            vec![
                format!("Intensity at B = {b}: {}.", ci_text(a.intensity)),
                format!("VMEM critical intensity: {}, so it is {}.", ci_text(a.critical_intensity), regime.label()),
                format!("Streamed from HBM instead (critical {}), the same matmul would be {}.", ci_text(ah.critical_intensity), ah.regime.label()),
            ],
        ),
        Part::number(
            "d",
            "How many times smaller is the batch needed with VMEM than with HBM?".to_string(),
            Unit::None,
            0.02,
            ratio_e,
            "The intensity is the same function of B in both cases; only the bandwidth changes.".to_string(),
            vec![
                format!("HBM: B > {}; VMEM: B > {}.", sig(thr_hbm, 4), sig(thr, 4)),
                format!("Ratio {}, the ratio of the two bandwidths.", sig(ratio, 4)),
            ],
        ),
    ];
    question(
        "x-vmem",
        SOURCE_EXTRA,
        format!(
            "On a TPU v5e, weights held in VMEM, the 128 MiB on-chip vector memory, reach the compute units at about {}, {}× the HBM bandwidth of {}. Take the {dt} matmul {dt}[B,D] · {dt}[D,F] → {dt}[B,F] with D = F = {dd}, weights small enough to sit in VMEM. Peak: {}.{}",
            bw_text(a.bandwidth),
            sig(a.bandwidth / ah.bandwidth, 3),
            bw_text(ah.bandwidth),
            rate_text(a.peak, dt),
            era_note(&calc)
        ),
        parts,
        calc,
    )
}

fn x_pcie(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick("v5e", &["v5e", "v4p", "v5p", "v6e", "a100", "h100", "b200"]);
    let b = d.pick(256.0, &[64.0, 128.0, 256.0, 512.0, 1024.0]);
    let dd = d.pick(8192.0, &[4096.0, 8192.0, 16384.0]);
    let mut calc = CalcSetup::new(
        chip,
        &matmul(Bf16, Bf16, Bf16),
        &[("B", b), ("D", dd), ("F", dd)],
        Pcie,
    );
    calc.level2 = Some(Hbm);
    let name = chip_name(&calc)?;
    let a_name = with_article(&name);
    let (thr, _, a) = approx_threshold(&calc)?;
    let hbm = {
        let mut c = calc.clone();
        c.level = Hbm;
        approx_threshold(&c)?.0
    };
    let ci = with_eras(&calc, |c| Ok(analysis(c)?.critical_intensity))?;
    let parts = vec![
        Part::number(
            "a",
            "What is the critical intensity against PCIe?".to_string(),
            Unit::FlopsPerByte,
            0.01,
            ci,
            "bf16 peak ÷ PCIe bandwidth.".to_string(),
            vec![format!("{} ÷ {} = {}.", rate_text(a.peak, Bf16), bw_text(a.bandwidth), ci_text(a.critical_intensity))],
        ),
        Part::number(
            "b",
            "With B small next to D and F, above which batch size would the matmul be compute-bound?".to_string(),
            Unit::None,
            0.01,
            (thr, Vec::new()),
            "The intensity is about B, as for any bf16 matmul; compare it with the PCIe critical intensity.".to_string(),
            vec![format!("B > {} tokens, against {} when the weights sit in HBM.", sig(thr, 4), sig(hbm, 4))],
        )
        .mistake_number(hbm, "That is the HBM threshold; the link to the host is far slower.".to_string()),
        Part::number(
            "c",
            format!("With B = {b} and D = F = {dd}, how long does moving the bytes over PCIe take (T_comms)?"),
            Unit::Seconds,
            0.02,
            (a.t_comms, Vec::new()),
            "Count the bytes of X, W and Z (2 bytes per element) and divide by the PCIe bandwidth.".to_string(),
            vec![
                format!("Bytes: 2BD + 2DF + 2BF = {}.", format::bytes(a.bytes)),
                format!("T_comms = {} ÷ {} = {}.", sci(a.bytes), bw_text(a.bandwidth), format::seconds(a.t_comms)),
            ],
        ),
        Part::number(
            "d",
            "And how long does the math take (T_math)?".to_string(),
            Unit::Seconds,
            0.02,
            (a.t_math, Vec::new()),
            "2BDF FLOPs ÷ the bf16 peak.".to_string(),
            vec![
                format!("FLOPs: 2BDF = {}.", sci(a.flops)),
                format!("T_math = {} ÷ {} = {}; the transfer takes {} times longer.", sci(a.flops), rate_text(a.peak, Bf16), format::seconds(a.t_math), sig(a.t_comms / a.t_math, 3)),
            ],
        ),
    ];
    question(
        "x-pcie",
        SOURCE_EXTRA,
        format!(
            "The weights do not fit in HBM, so they live in host memory and stream to {a_name} over PCIe at {} per chip. The chip's bf16 peak is {}. Take the bf16 matmul bf16[B,D] · bf16[D,F] → bf16[B,F] and, to keep it simple, count every operand as crossing PCIe.",
            bw_text(a.bandwidth),
            rate_text(a.peak, Bf16)
        ),
        parts,
        calc,
    )
}

fn x_add(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick("h100", &["h100", "a100", "h200", "b200", "rtx3090"]);
    let n = d.pick(1e8, &[1e6, 1e7, 1e8, 1e9]);
    let calc = CalcSetup::new(chip, "fp32[N] + fp32[N] -> fp32[N]", &[("N", n)], Hbm);
    let name = chip_name(&calc)?;
    let a_name = with_article(&name);
    let a = analysis(&calc)?;
    let never = matches!(
        critical_size(&calc.scenario()?, "N")?,
        CriticalSize::Never { .. }
    );
    let options = vec![
        ChoiceOption::new("Yes, a large enough N gets there", &["yes", "large enough"]),
        ChoiceOption::new(
            "No, the intensity is the same at every N",
            &["no", "never", "same", "constant", "does not change"],
        ),
    ];
    let parts = vec![
        Part::number(
            "a",
            "What is its arithmetic intensity (FLOPs per byte)?".to_string(),
            Unit::FlopsPerByte,
            0.02,
            (a.intensity, Vec::new()),
            "One addition per output element; each output element means two 4-byte reads and one 4-byte write.".to_string(),
            vec![
                "FLOPs: N (one add per element).".to_string(),
                "Bytes: 4N + 4N read, 4N written = 12N.".to_string(),
                format!("Intensity: N / 12N = {}.", plain(a.intensity)),
            ],
        )
        .mistake_number(1.0 / 8.0, "Don't forget the output: it is written back, another 4 bytes per element.".to_string()),
        Part::choice(
            "b",
            format!("On the {name} (fp32 critical intensity {}), is it compute-bound or bandwidth-bound?", ci_text(a.critical_intensity)),
            regime_options(),
            regime_index(a.regime),
            "Compare the intensity with the critical intensity.".to_string(),
            vec![format!("{} is far below {}: {}.", plain(a.intensity), ci_text(a.critical_intensity), a.regime.label())],
        ),
        Part::number(
            "c",
            format!("With N = {}, how long does it take at best (the lower bound)?", sci(n)),
            Unit::Seconds,
            0.02,
            (a.t_lower, Vec::new()),
            "The lower bound is the larger of T_math and T_comms; here moving the bytes dominates.".to_string(),
            vec![
                format!("T_comms = 12N bytes ÷ {} = {}.", bw_text(a.bandwidth), format::seconds(a.t_comms)),
                format!("T_math = N ÷ {} = {}.", rate_text(a.peak, Fp32), format::seconds(a.t_math)),
                format!("Lower bound: {}.", format::seconds(a.t_lower)),
            ],
        ),
        Part::choice(
            "d",
            "Would a larger N make it compute-bound?".to_string(),
            options,
            usize::from(never),
            "Does N appear in the intensity?".to_string(),
            vec!["FLOPs and bytes both grow in proportion to N, so the intensity stays 1/12: only fusing it with other work raises it.".to_string()],
        ),
    ];
    question(
        "x-add",
        SOURCE_EXTRA,
        format!(
            "Add two fp32 vectors element by element on {a_name}: fp32[N] + fp32[N] → fp32[N]. The vector units run fp32 at {}; HBM delivers {}.",
            rate_text(a.peak, Fp32),
            bw_text(a.bandwidth)
        ),
        parts,
        calc,
    )
}

fn x_small(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick(
        "v5e",
        &["v5e", "v6e", "v5p", "tpu7x", "h100", "b200", "a100"],
    );
    let dd = d.pick(128.0, &[64.0, 128.0, 256.0]);
    let ff = d.pick(128.0, &[64.0, 128.0, 256.0]);
    let b = d.pick(512.0, &[256.0, 512.0, 1024.0, 4096.0]);
    let calc = CalcSetup::new(
        chip,
        &matmul(Bf16, Int8, Bf16),
        &[("B", b), ("D", dd), ("F", ff)],
        Hbm,
    );
    let name = chip_name(&calc)?;
    let a_name = with_article(&name);
    let a = analysis(&calc)?;
    let ap = a
        .approx
        .as_ref()
        .ok_or_else(|| invalid("no approximation"))?;
    let max_i = match critical_size(&calc.scenario()?, "B")? {
        CriticalSize::Never { max_intensity } => max_intensity,
        _ => return Err(invalid("not a failing case")),
    };
    if (a.intensity - max_i).abs() < 0.05 * max_i {
        return Err(invalid("parts too close"));
    }
    let parts = vec![
        Part::number(
            "a",
            format!("With B = {b}, what intensity does the small-B rule (about 2B) promise?"),
            Unit::FlopsPerByte,
            0.01,
            (ap.intensity, Vec::new()),
            "Just apply the rule of thumb from question 2.".to_string(),
            vec![format!("{}: {} at B = {b}.", approx_text(&calc.operation()?, &a)?, sig(ap.intensity, 4))],
        ),
        Part::number(
            "b",
            format!("What is the real intensity at B = {b}, with every byte counted?"),
            Unit::FlopsPerByte,
            0.02,
            (a.intensity, Vec::new()),
            "2BDF ÷ (2BD + DF + 2BF): with B larger than D and F, the activation terms dominate.".to_string(),
            vec![
                format!("FLOPs: {}; bytes: {}.", sci(a.flops), sci(a.bytes)),
                format!("Intensity: {}, nowhere near the promised {}.", sig(a.intensity, 4), sig(ap.intensity, 4)),
            ],
        ),
        Part::number(
            "c",
            "However large B gets, what intensity can it at most reach?".to_string(),
            Unit::FlopsPerByte,
            0.02,
            (max_i, Vec::new()),
            "Let B grow without limit in 2BDF ÷ (2BD + DF + 2BF): keep only the terms with B.".to_string(),
            vec![
                format!("2BDF ÷ (2BD + 2BF) = DF ÷ (D + F) = {}.", sig(max_i, 4)),
                format!("The critical intensity is {}, so no batch size is enough.", ci_text(a.critical_intensity)),
            ],
        ),
        Part::choice(
            "d",
            format!("On {a_name}, can a large enough batch make it compute-bound?"),
            never_options("B"),
            1,
            "Compare the ceiling from part c with the chip's critical intensity.".to_string(),
            vec![format!("Its intensity never passes {}, below the critical {}: it stays bandwidth-bound. The small-B approximation assumed B ≪ D, F, which fails here.", sig(max_i, 4), ci_text(a.critical_intensity))],
        ),
    ];
    question(
        "x-small",
        SOURCE_EXTRA,
        format!(
            "Take question 2's matmul, bf16[B,D] · int8[D,F] → bf16[B,F], with small matrices: D = {dd}, F = {ff}. The chip is {a_name} ({} of bf16 peak, HBM at {}).",
            rate_text(a.peak, Bf16),
            bw_text(a.bandwidth)
        ),
        parts,
        calc,
    )
}

fn x_time(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick("v5e", BF16_CHIPS);
    let b = d.pick(128.0, &[32.0, 64.0, 128.0, 256.0, 512.0, 1024.0, 4096.0]);
    let dd = d.pick(8192.0, POW2);
    let ff = d.pick(8192.0, POW2);
    let calc = CalcSetup::new(
        chip,
        &matmul(Bf16, Bf16, Bf16),
        &[("B", b), ("D", dd), ("F", ff)],
        Hbm,
    );
    let name = chip_name(&calc)?;
    let a_name = with_article(&name);
    let a = analysis(&calc)?;
    let t_comms = with_eras(&calc, |c| Ok(analysis(c)?.t_comms))?;
    let lower = with_eras(&calc, |c| Ok(analysis(c)?.t_lower))?;
    let upper = with_eras(&calc, |c| Ok(analysis(c)?.t_upper))?;
    let weights_only = 2.0 * dd * ff / a.bandwidth;
    let parts = vec![
        Part::number(
            "a",
            "How long does the math take, T_math?".to_string(),
            Unit::Seconds,
            0.02,
            (a.t_math, Vec::new()),
            "2BDF FLOPs ÷ bf16 peak.".to_string(),
            vec![format!(
                "2BDF = {}; ÷ {} = {}.",
                sci(a.flops),
                rate_text(a.peak, Bf16),
                format::seconds(a.t_math)
            )],
        )
        .mistake_number(
            a.t_math / 2.0,
            "Half of it: a multiply and an add per product, 2BDF FLOPs.".to_string(),
        ),
        Part::number(
            "b",
            "How long does moving the bytes take, T_comms?".to_string(),
            Unit::Seconds,
            0.02,
            t_comms,
            "Bytes of X, W and Z at 2 bytes per element, ÷ HBM bandwidth.".to_string(),
            vec![
                format!("Bytes: 2BD + 2DF + 2BF = {}.", sci(a.bytes)),
                format!(
                    "÷ {} = {}.",
                    bw_text(a.bandwidth),
                    format::seconds(a.t_comms)
                ),
            ],
        )
        .mistake_number(
            weights_only,
            "That counts only the weights; X and Z move too.".to_string(),
        ),
        Part::number(
            "c",
            "A lower bound on the runtime?".to_string(),
            Unit::Seconds,
            0.02,
            lower,
            "Perfect overlap: the larger of the two.".to_string(),
            vec![format!(
                "max({}, {}) = {}, {}.",
                format::seconds(a.t_math),
                format::seconds(a.t_comms),
                format::seconds(a.t_lower),
                a.regime.label()
            )],
        ),
        Part::number(
            "d",
            "An upper bound?".to_string(),
            Unit::Seconds,
            0.02,
            upper,
            "No overlap: one after the other.".to_string(),
            vec![format!(
                "{} + {} = {}.",
                format::seconds(a.t_math),
                format::seconds(a.t_comms),
                format::seconds(a.t_upper)
            )],
        ),
    ];
    question(
        "x-time",
        SOURCE_EXTRA,
        format!(
            "A bf16 matmul bf16[B,D] · bf16[D,F] → bf16[B,F] with B = {b}, D = {dd}, F = {ff} runs on {a_name}: {} of bf16 peak, HBM at {}. Give times in any unit: s, ms, µs (or us), ns.{}",
            rate_text(a.peak, Bf16),
            bw_text(a.bandwidth),
            era_note(&calc)
        ),
        parts,
        calc,
    )
}

fn x_v6e(d: &mut Draw) -> Result<Question, CoreError> {
    let (chip, reference) = d.pick(
        ("v6e", "v5e"),
        &[
            ("v6e", "v5e"),
            ("v6e", "v4p"),
            ("v6e", "v3"),
            ("tpu7x", "v5e"),
            ("tpu7x", "v4p"),
            ("v5e", "v3"),
            ("h100", "a100"),
            ("b200", "a100"),
        ],
    );
    let sizes = [("B", 256.0), ("D", 8192.0), ("F", 8192.0)];
    let calc = CalcSetup::new(chip, &matmul(Bf16, Bf16, Bf16), &sizes, Hbm);
    let ref_calc = CalcSetup::new(reference, &matmul(Bf16, Bf16, Bf16), &sizes, Hbm);
    let mixed = CalcSetup::new(chip, &matmul(Bf16, Int8, Bf16), &sizes, Hbm);
    let name = chip_name(&calc)?;
    let ref_name = chip_name(&ref_calc)?;
    let (thr, _, a) = approx_threshold(&calc)?;
    let (thr_ref, _, ar) = approx_threshold(&ref_calc)?;
    let th = with_eras(&calc, |c| Ok(approx_threshold(c)?.0))?;
    let mixed_th = with_eras(&mixed, |c| Ok(approx_threshold(c)?.0))?;
    let mut ratios = Vec::new();
    for c in std::iter::once(calc.clone()).chain(eras(&calc)) {
        for r in std::iter::once(ref_calc.clone()).chain(eras(&ref_calc)) {
            ratios.push(approx_threshold(&c)?.0 / approx_threshold(&r)?.0);
        }
    }
    let ratio = thr / thr_ref;
    if ratio < 1.2 {
        return Err(invalid("the newer chip does not need a larger batch"));
    }
    let also_ratio = ratios
        .into_iter()
        .filter(|r| (r - ratio).abs() > 1e-9 * ratio)
        .collect();
    let parts = vec![
        Part::number(
            "a",
            format!("Above which batch size is the bf16 matmul compute-bound on the {name}?"),
            Unit::None,
            0.01,
            th,
            "The intensity is about B; compare it with this chip's critical intensity.".to_string(),
            vec![format!("{} ÷ {} = {}, so B > {}.", rate_text(a.peak, Bf16), bw_text(a.bandwidth), ci_text(a.critical_intensity), sig(thr, 4))],
        ),
        Part::number(
            "b",
            format!("How many times larger is that than on the {ref_name}?"),
            Unit::None,
            0.02,
            (ratio, also_ratio),
            format!("Work out the {ref_name}'s threshold the same way and divide."),
            vec![
                format!("{ref_name}: {} ÷ {} = {}.", rate_text(ar.peak, Bf16), bw_text(ar.bandwidth), sig(thr_ref, 4)),
                format!("{} ÷ {} = {}: the peak grew faster than the bandwidth, so each chip needs a larger batch to keep busy.", sig(thr, 4), sig(thr_ref, 4), sig(ratio, 3)),
            ],
        ),
        Part::number(
            "c",
            format!("On the {name}, with int8 weights and bf16 activations (question 2's matmul), where is the threshold?"),
            Unit::None,
            0.015,
            mixed_th.clone(),
            "The intensity is about 2B now.".to_string(),
            vec![format!("2B > {} ⇔ B > {}.", sig(a.critical_intensity, 4), sig(mixed_th.0, 4))],
        )
        .mistake_number(thr, "That is the all-bf16 answer from part a; 1-byte weights double the intensity.".to_string()),
    ];
    question(
        "x-v6e",
        SOURCE_EXTRA,
        format!(
            "The {name} has {} of bf16 peak and HBM at {}. The older {ref_name} has {} and {}. Take the bf16 matmul bf16[B,D] · bf16[D,F] → bf16[B,F] with B small next to D and F.{}{}",
            rate_text(a.peak, Bf16),
            bw_text(a.bandwidth),
            rate_text(ar.peak, Bf16),
            bw_text(ar.bandwidth),
            era_note(&calc),
            era_note(&ref_calc)
        ),
        parts,
        calc,
    )
}

fn x_int4(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick("v5e", BF16_CHIPS);
    let w = d.pick(Int4, &[Int4, Fp4]);
    let calc = CalcSetup::new(
        chip,
        &matmul(Bf16, w, Bf16),
        &[("B", 128.0), ("D", 4096.0), ("F", 4096.0)],
        Hbm,
    );
    let name = chip_name(&calc)?;
    let a_name = with_article(&name);
    let op = calc.operation()?;
    let (thr, _, a) = approx_threshold(&calc)?;
    let read = verified(sum_text(&input_terms(&op)), BDF, &calc, a.bytes_read)?;
    let approx = approx_formula(&a)?;
    let th = with_eras(&calc, |c| Ok(approx_threshold(c)?.0))?;
    let parts = vec![
        Part::formula(
            "a",
            "How many bytes are read? A formula in B, D, F.".to_string(),
            BDF,
            read.clone(),
            Vec::new(),
            format!("X is bf16 (2 bytes per element); W is {w}, half a byte per element."),
            vec![format!("2BD for X plus DF/2 for W: {read}.")],
        )
        .mistake_formula(
            "2*B*D + D*F",
            format!("That counts the weights at a byte each; {w} takes half a byte."),
        ),
        Part::formula(
            "b",
            "With B small, what is the intensity? A formula in B, D, F.".to_string(),
            BDF,
            approx.clone(),
            Vec::new(),
            "Divide 2BDF by the weights' bytes.".to_string(),
            vec![format!("{}.", approx_text(&op, &a)?)],
        ),
        Part::number(
            "c",
            "Above which batch size is it compute-bound?".to_string(),
            Unit::None,
            0.015,
            th,
            format!("Set {approx} equal to the bf16 critical intensity."),
            vec![
                format!(
                    "Critical intensity: {} ÷ {} = {}.",
                    rate_text(a.peak, Bf16),
                    bw_text(a.bandwidth),
                    ci_text(a.critical_intensity)
                ),
                format!("{}.", threshold_step(&approx, a.critical_intensity, thr)),
            ],
        )
        .mistake_number(
            thr * 2.0,
            "That is the int8-weight answer; half-byte weights double the intensity again."
                .to_string(),
        ),
    ];
    question(
        "x-int4",
        SOURCE_EXTRA,
        format!(
            "Push the weights down to {w}, half a byte per element, keeping activations and math in bf16: bf16[B,D] · {w}[D,F] → bf16[B,F] on {a_name} ({} of bf16 peak, HBM at {}).{}",
            rate_text(a.peak, Bf16),
            bw_text(a.bandwidth),
            era_note(&calc)
        ),
        parts,
        calc,
    )
}
