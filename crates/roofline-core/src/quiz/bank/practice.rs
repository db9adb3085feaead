//! The chapter's practice questions 1 to 5 (`q1` to `q5`): an int8 matmul,
//! int8 weights with bf16 activations, reading the crossover from the
//! batch-size chart, a matrix per example, and the dense or sparse peak of
//! a GPU spec sheet.

use crate::analysis::{byte_terms, flops_term, sum_text};
use crate::format::{sci, sig};
use crate::quiz::answer::{ChoiceOption, Unit};
use crate::quiz::{CalcSetup, Part, Question, SOURCE_PRACTICE};
use crate::small::Join;
use crate::{critical_size, CoreError, CriticalSize, DType, LevelKind};

use super::feedback::{ci_growth_hint, era_note, eras, ops_word, with_eras, Era};
use super::helpers::{
    approx_formula, approx_text, chip_name, clear_regime, input_terms, intensity_formula, matmul,
    never_options, output_term, question, regime_index, regime_options, threshold_step, verified,
    BATCHES, BDF, BF16_CHIPS, POW2,
};
use super::setup::{analysis, approx_threshold, crossing};
use super::texts::{bw_text, ci_text, dtype_size, exact, rate_text, with_article};
use super::{invalid, Draw};

use DType::{Bf16, Fp4, Fp8, Int4, Int8};
use LevelKind::Hbm;

pub(super) fn q1(d: &mut Draw) -> Result<Question, CoreError> {
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
    let t_comms_eras: Vec<(String, Era)> = eras(&calc)
        .into_iter()
        .filter_map(|(c, era)| comms_for(&c).ok().map(|f| (f, era)))
        .collect();
    let t_comms_alt: Vec<String> = t_comms_eras.iter().map(|(f, _)| f.clone()).collect();
    let ci = with_eras(&calc, &|c| Ok(analysis(c)?.critical_intensity))?;
    let th = with_eras(&calc, &|c| Ok(approx_threshold(c)?.0))?;

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
        .flop_slips_formula(&op)
        .near_exact_count(&op),
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
        )
        .flop_slips_formula(&op),
        Part::formula(
            "d-math",
            "Roofline estimate of T_math, in seconds, as a formula in B, D, F.".to_string(),
            BDF,
            t_math.clone(),
            Vec::new(),
            "T_math = operations ÷ the chip's int8 peak.".to_string(),
            vec![format!("T_math = {t_math} seconds.")],
        )
        .flop_slips_formula(&op)
        .sparse_formula(&calc, &|peak| format!("{flops} / {}", exact(peak))),
        Part::formula(
            "d-comms",
            "Roofline estimate of T_comms, in seconds, as a formula in B, D, F.".to_string(),
            BDF,
            t_comms.clone(),
            t_comms_alt,
            "T_comms = bytes moved (read plus written) ÷ HBM bandwidth.".to_string(),
            vec![format!("T_comms = {t_comms} seconds.")],
        )
        .notes_formulas(&t_comms_eras),
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
        )
        .growth("B", ci_growth_hint(&calc)?)
        .sparse_slip(&calc, &|c| Ok(analysis(c)?.critical_intensity)),
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
        )
        .flop_slips_by_peak(&op, &calc, &|c| Ok(approx_threshold(c)?.0))
        .sparse_slip(&calc, &|c| Ok(approx_threshold(c)?.0)),
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

pub(super) fn q2(d: &mut Draw) -> Result<Question, CoreError> {
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
    let th = with_eras(&calc, &|c| Ok(approx_threshold(c)?.0))?;
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
        )
        .flop_slips_formula(&op),
        Part::formula(
            "b",
            "With B much smaller than D and F, what does the intensity simplify to?".to_string(),
            BDF,
            approx.clone(),
            Vec::new(),
            "Keep only the largest byte term, the weights'.".to_string(),
            vec![format!("Keeping {} and dropping {}: {}.", ap.kept_terms.joined(" + "), ap.dropped_terms.joined(" + "), approx_text(&op, &a)?)],
        )
        .mistake_formula("B", format!("That is the all-bf16 answer; the weights now take {} per element, so each byte carries more FLOPs.", dtype_size(w)))
        .flop_slips_formula(&op),
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
        )
        .flop_slips_by_peak(&op, &calc, &|c| Ok(approx_threshold(c)?.0))
        .sparse_slip(&calc, &|c| Ok(approx_threshold(c)?.0)),
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

pub(super) fn q3(d: &mut Draw) -> Result<Question, CoreError> {
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
    let x_big = with_eras(&base, &|c| crossing(c, "B"))?;
    let x_small = with_eras(&small_calc, &|c| crossing(c, "B"))?;
    if x_small.value > 6.0 * thr || x_small.value < 1.2 * x_big.value {
        return Err(invalid("variant not instructive"));
    }
    let th = with_eras(&base, &|c| Ok(approx_threshold(c)?.0))?;
    let op = base.operation()?;
    let exact_i = intensity_formula(&op);
    let approx = approx_formula(&a)?;
    let dropped = a
        .approx
        .as_ref()
        .ok_or_else(|| invalid("no approximation"))?
        .dropped_terms
        .joined(" + ");
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
    // The approximation's crossing where the exact one is asked.
    let approx_hint = |n: f64| {
        format!(
            "That is the approximation's crossing: taking the intensity as {approx}, {}. Counting every byte at D = F = {n}, the activations' bytes ({dropped}) lower the intensity, so the curve reaches the roof at a larger B.",
            threshold_step(&approx, a.critical_intensity, thr)
        )
    };
    let other_curve = |n: f64, asked: f64| {
        format!("That is where the D = F = {n} curve reaches the roof; this part asks about D = F = {asked}.")
    };
    let exact_hint = |n: f64| {
        format!("That is the exact crossing for D = F = {n}. The approximation drops the activations' bytes ({dropped}), so it predicts one crossing for every D and F.")
    };
    let crossing_b = |c: &CalcSetup| crossing(c, "B");
    let threshold_b = |c: &CalcSetup| Ok(approx_threshold(c)?.0);
    let mut part_a = Part::number(
        "a",
        format!("Read the batch size where the D = F = {big} curve reaches the roof."),
        Unit::None,
        0.03,
        x_big.clone(),
        "Open the batch-size chart in the calculator: attained FLOPs/s against B. Find where the curve stops rising.".to_string(),
        solve(big, x_big.value),
    )
    .with_calc(base.clone());
    let mut part_b = Part::number(
        "b",
        format!("And for D = F = {small}?"),
        Unit::None,
        0.03,
        x_small.clone(),
        "With small matrices the activation bytes are no longer negligible next to the weights: expect a larger batch.".to_string(),
        solve(small, x_small.value),
    )
    .with_calc(small_calc.clone());
    let mut part_c = Part::number(
        "c",
        "What crossing does the small-B approximation (intensity ≈ 2B) predict, for either size?".to_string(),
        Unit::None,
        0.015,
        th.clone(),
        "The approximation ignores D and F entirely: 2B against the critical intensity.".to_string(),
        vec![
            format!("2B > {} ⇔ B > {}, whatever D and F are.", sig(a.critical_intensity, 4), sig(thr, 4)),
            format!("The exact crossings, {} and {}, are both higher: the dropped byte terms cost something, and more so for small matrices.", sig(x_big.value, 4), sig(x_small.value, 4)),
        ],
    );
    for v in th.all() {
        part_a = part_a.mistake_number(v, approx_hint(big));
        part_b = part_b.mistake_number(v, approx_hint(small));
    }
    for v in x_small.all() {
        part_a = part_a.mistake_number(v, other_curve(small, big));
        part_c = part_c.mistake_number(v, exact_hint(small));
    }
    for v in x_big.all() {
        part_b = part_b.mistake_number(v, other_curve(big, small));
        part_c = part_c.mistake_number(v, exact_hint(big));
    }
    let parts = vec![
        part_a
            .flop_slips_by_peak(&op, &base, &crossing_b)
            .sparse_slip(&base, &crossing_b),
        part_b
            .flop_slips_by_peak(&op, &small_calc, &crossing_b)
            .sparse_slip(&small_calc, &crossing_b),
        part_c
            .flop_slips_by_peak(&op, &base, &threshold_b)
            .sparse_slip(&base, &threshold_b),
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

pub(super) fn q4(d: &mut Draw) -> Result<Question, CoreError> {
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
    let w = ops_word(&op);
    let flops = flops_term(&op).compact();
    let kept = ap.kept_terms.joined(" + ");
    // The learner's notes in the seeds: B × 2BDF, and 2B² with the bytes
    // cut to DF.
    let grows = format!(
        "That grows with B, but this intensity does not. The {w} are {flops}, not B × {flops}: each of the B rows is multiplied by its own D×F matrix, once. And those B matrices are {kept} bytes, so the bytes grow with B as fast as the {w}, and B cancels."
    );
    let b = calc.size("B")?;
    let parts = vec![
        Part::number(
            "a",
            "Roughly how many operations does it perform per byte moved, for any B?".to_string(),
            Unit::FlopsPerByte,
            0.02,
            (ap.intensity, Vec::new()),
            format!("Count {w} and bytes per example: each example brings its own D×F matrix, used only once."),
            vec![
                format!("{w}: {flops} (each example does 2DF)."),
                format!("Bytes: {}; the per-example matrices, {kept}, dominate.", sum_text(&byte_terms(&op))),
                format!("Intensity ≈ {}, about {} at D = {dd}, F = {ff}.", approx_text(&op, &a)?, sig(a.intensity, 4)),
            ],
        )
        .growth("B", grows.clone())
        .mistake_number(b * ap.intensity, grows.clone())
        .mistake_number(b * b * ap.intensity, grows.clone())
        .flop_slips(&op, Some(2.0 * ap.intensity), Some(ap.intensity / 2.0)),
        Part::formula(
            "b",
            "The exact intensity, as a formula in B, D, F?".to_string(),
            BDF,
            exact_i.clone(),
            Vec::new(),
            format!("{w} as for a matmul; bytes: X is [B,D], the stack of matrices [B,D,F], the output [B,F], each at {} per element.", dtype_size(dt)),
            vec![
                format!("Intensity = {exact_i}."),
                format!("B cancels: each example does 2DF {w} on D + DF + F elements of {}, whatever the batch size.", dtype_size(dt)),
            ],
        )
        .mistake_formula(
            &format!("2*B^2*D*F / ({})", sum_text(&byte_terms(&op))),
            format!("The {w} are {flops}, not B × {flops}: each of the B rows is multiplied by its own D×F matrix, once."),
        )
        .flop_slips_formula(&op)
        .growth("B", grows),
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

pub(super) fn q5(d: &mut Draw) -> Result<Question, CoreError> {
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
        let era = Era::new(
            format!("the older dense peak, {}", rate_text(1e15, Bf16)),
            format!("the book now uses {}", rate_text(a.peak, Bf16)),
        );
        also.push((approx_threshold(&alt)?.0, era));
    }
    let op = calc.operation()?;
    let threshold_b = |c: &CalcSetup| Ok(approx_threshold(c)?.0);
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
        .sparse_slip(&calc, &threshold_b)
        .flop_slips_by_peak(&op, &calc, &threshold_b),
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
        .mistake_number(thr, "That is the right answer to part a; this part asks what the printed figure would give.".to_string())
        .flop_slips(&op, Some(sparse_thr / 2.0), Some(sparse_thr * 2.0)),
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
