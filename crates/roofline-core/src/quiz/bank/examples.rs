//! The chapter's worked examples, as questions: the intensity of a dot
//! product (`ex-dot`), when a bf16 matmul turns compute-bound (`ex-240`) and
//! a matmul split over chips (`ex-net`).

use crate::analysis::{coef_text, flops_term};
use crate::format::{self, sci, sig};
use crate::quiz::answer::{ChoiceOption, Unit};
use crate::quiz::{CalcSetup, Part, Question, SOURCE_EXAMPLE};
use crate::small::Join;
use crate::{network, CoreError, CriticalSize, DType, LevelKind};

use super::feedback::{ci_growth_hint, era_note, ops_word, with_eras};
use super::helpers::{
    approx_formula, approx_text, chip_name, clear_regime, intensity_formula, matmul, output_term,
    question, regime_index, regime_options, verified, BATCHES, BDF,
};
use super::setup::{analysis, approx_threshold, crossing};
use super::texts::{bw_text, ci_text, dtype_size, exact, rate_text, with_article};
use super::{invalid, Draw};

use DType::{Bf16, Fp32, Fp8, Int8};
use LevelKind::{Hbm, Ici, NvLink};

pub(super) fn ex_dot(d: &mut Draw) -> Result<Question, CoreError> {
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
    let w = ops_word(&op);

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
        .flop_slips_formula(&op),
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
        )
        .flop_slips(&op, Some(2.0 * limit), Some(limit / 2.0))
        .growth(
            "N",
            format!("That grows with N, but the intensity does not: the {w}, {flops_book}, and the bytes, {bytes}, both grow in proportion to N, so N cancels."),
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

pub(super) fn ex_240(d: &mut Draw) -> Result<Question, CoreError> {
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
    let ci = with_eras(&calc, &|c| Ok(analysis(c)?.critical_intensity))?;
    let th = with_eras(&calc, &|c| Ok(approx_threshold(c)?.0))?;
    let approx = approx_formula(&a)?;
    let ap = a
        .approx
        .as_ref()
        .ok_or_else(|| invalid("no approximation"))?;
    let regime = clear_regime(&a)?;
    let op = calc.operation()?;
    let parts = vec![
        Part::number(
            "a",
            "What is the chip's critical intensity for bf16 against HBM (FLOPs per byte)?".to_string(),
            Unit::FlopsPerByte,
            0.01,
            ci,
            "Critical intensity = peak FLOPs/s ÷ memory bandwidth in bytes/s.".to_string(),
            vec![format!("{} ÷ {} = {}.", rate_text(a.peak, Bf16), bw_text(a.bandwidth), ci_text(a.critical_intensity))],
        )
        .growth("B", ci_growth_hint(&calc)?)
        .sparse_slip(&calc, &|c| Ok(analysis(c)?.critical_intensity)),
        Part::formula(
            "b",
            "With B much smaller than D and F, what is the matmul's arithmetic intensity? A formula in B, D, F.".to_string(),
            BDF,
            approx.clone(),
            Vec::new(),
            "The bytes are 2BD + 2DF + 2BF. When B is small, which term is by far the largest? Divide 2BDF by it.".to_string(),
            vec![
                format!("Exact: {}.", intensity_formula(&calc.operation()?)),
                format!("Keep only {} (drop {}): {}.", ap.kept_terms.joined(" + "), ap.dropped_terms.joined(" + "), approx_text(&op, &a)?),
            ],
        )
        .flop_slips_formula(&op),
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
        .mistake_number(thr / 2.0, "That assumes an intensity of 2B; with 2-byte weights a bf16 matmul only reaches about B.".to_string())
        .flop_slips_by_peak(&op, &calc, &|c| Ok(approx_threshold(c)?.0))
        .sparse_slip(&calc, &|c| Ok(approx_threshold(c)?.0)),
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

pub(super) fn ex_net(d: &mut Draw) -> Result<Question, CoreError> {
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
    let threshold_d = |c: &CalcSetup| match network(&c.scenario()?, "D", n, link)?.threshold {
        CriticalSize::At {
            size,
            compute_bound_above: true,
        } => Ok(size),
        _ => Err(invalid("no threshold")),
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
        )
        .flop_slips_formula(&op)
        .sparse_formula(&calc, &|peak| format!("{flops} / ({n} × {})", exact(peak))),
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
        )
        .flop_slips_by_peak(&op, &calc, &threshold_d)
        .sparse_slip(&calc, &threshold_d)
        .growth(
            "B",
            format!("That grows with B, but the threshold on D does not: each chip's {} ({flops} / {n}) and the bytes it sends ({out}) both grow in proportion to B·F, so B and F cancel.", ops_word(&op)),
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
