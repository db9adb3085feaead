//! Roofline Lab extras on the hardware's side, in the spirit of the chapter
//! but not in it: narrower data types (`x-fp8`, `x-int4`), weights in
//! another memory (`x-vmem`, `x-pcie`) and a newer chip (`x-v6e`).

use crate::analysis::sum_text;
use crate::format::{self, sci, sig};
use crate::quiz::answer::{ChoiceOption, Unit};
use crate::quiz::{CalcSetup, Part, Question, SOURCE_EXTRA};
use crate::{CoreError, DType, LevelKind};

use super::feedback::{ci_growth_hint, era_note, eras, with_eras, Era};
use super::helpers::{
    approx_formula, approx_text, chip_name, clear_regime, input_terms, matmul, question,
    regime_index, regime_options, threshold_step, verified, BDF, BF16_CHIPS,
};
use super::setup::{analysis, approx_threshold};
use super::texts::{bw_text, ci_text, dtype_size, rate_text, with_article};
use super::{invalid, Draw};

use DType::{Bf16, Fp4, Fp8, Int4, Int8};
use LevelKind::{Hbm, Pcie, Vmem};

pub(super) fn x_fp8(d: &mut Draw) -> Result<Question, CoreError> {
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
    let op = calc.operation()?;
    let threshold_b = |c: &CalcSetup| Ok(approx_threshold(c)?.0);
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
        )
        .growth("B", ci_growth_hint(&calc)?)
        .sparse_slip(&calc, &|c| Ok(analysis(c)?.critical_intensity)),
        Part::formula(
            "b",
            "With B small next to D and F, what is the intensity? A formula in B, D, F.".to_string(),
            BDF,
            approx.clone(),
            Vec::new(),
            format!("Weights are {} per element now; divide the FLOPs by the weights' bytes.", dtype_size(dt)),
            vec![format!("{}.", approx_text(&op, &a)?)],
        )
        .flop_slips_formula(&op),
        Part::number(
            "c",
            "Above which batch size is it compute-bound?".to_string(),
            Unit::None,
            0.01,
            (thr, Vec::new()),
            "Set the intensity from part b equal to the critical intensity.".to_string(),
            vec![format!("{}.", threshold_step(&approx, a.critical_intensity, thr))],
        )
        .mistake_number(a.critical_intensity, format!("That is the critical intensity itself; the intensity is {approx}, not B."))
        .flop_slips_by_peak(&op, &calc, &threshold_b)
        .sparse_slip(&calc, &threshold_b),
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

pub(super) fn x_vmem(d: &mut Draw) -> Result<Question, CoreError> {
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
    let ci = with_eras(&calc, &|c| Ok(analysis(c)?.critical_intensity))?;
    let ratio_e = with_eras(&calc, &|c| {
        let mut h = c.clone();
        h.level = Hbm;
        Ok(approx_threshold(&h)?.0 / approx_threshold(c)?.0)
    })?;
    let approx = approx_formula(&a)?;
    let op = calc.operation()?;
    let parts = vec![
        Part::number(
            "a",
            format!("What is the critical intensity for {dt} against VMEM?"),
            Unit::FlopsPerByte,
            0.02,
            ci,
            "Same peak as always, but divide by the VMEM bandwidth instead of HBM's.".to_string(),
            vec![format!("{} ÷ {} = {}.", rate_text(a.peak, dt), bw_text(a.bandwidth), ci_text(a.critical_intensity))],
        )
        .growth("B", ci_growth_hint(&calc)?),
        Part::number(
            "b",
            "With the weights in VMEM and B small, above which batch size is the matmul compute-bound?".to_string(),
            Unit::None,
            0.02,
            (thr, Vec::new()),
            format!("The intensity is still about {approx}; only the critical intensity changed."),
            vec![format!("{}.", threshold_step(&approx, a.critical_intensity, thr))],
        )
        .mistake_number(thr_hbm, "That is the HBM answer; VMEM is much faster, so a far smaller batch suffices.".to_string())
        .flop_slips_by_peak(&op, &calc, &|c| Ok(approx_threshold(c)?.0)),
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

pub(super) fn x_pcie(d: &mut Draw) -> Result<Question, CoreError> {
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
    let ci = with_eras(&calc, &|c| Ok(analysis(c)?.critical_intensity))?;
    let op = calc.operation()?;
    let threshold_b = |c: &CalcSetup| Ok(approx_threshold(c)?.0);
    let t_math = |c: &CalcSetup| Ok(analysis(c)?.t_math);
    let parts = vec![
        Part::number(
            "a",
            "What is the critical intensity against PCIe?".to_string(),
            Unit::FlopsPerByte,
            0.01,
            ci,
            "bf16 peak ÷ PCIe bandwidth.".to_string(),
            vec![format!("{} ÷ {} = {}.", rate_text(a.peak, Bf16), bw_text(a.bandwidth), ci_text(a.critical_intensity))],
        )
        .growth("B", ci_growth_hint(&calc)?)
        .sparse_slip(&calc, &|c| Ok(analysis(c)?.critical_intensity)),
        Part::number(
            "b",
            "With B small next to D and F, above which batch size would the matmul be compute-bound?".to_string(),
            Unit::None,
            0.01,
            (thr, Vec::new()),
            "The intensity is about B, as for any bf16 matmul; compare it with the PCIe critical intensity.".to_string(),
            vec![format!("B > {} tokens, against {} when the weights sit in HBM.", sig(thr, 4), sig(hbm, 4))],
        )
        .mistake_number(hbm, "That is the HBM threshold; the link to the host is far slower.".to_string())
        .flop_slips_by_peak(&op, &calc, &threshold_b)
        .sparse_slip(&calc, &threshold_b),
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
        )
        .flop_slips_by_peak(&op, &calc, &t_math)
        .sparse_slip(&calc, &t_math),
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

pub(super) fn x_v6e(d: &mut Draw) -> Result<Question, CoreError> {
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
    let th = with_eras(&calc, &|c| Ok(approx_threshold(c)?.0))?;
    let mixed_th = with_eras(&mixed, &|c| Ok(approx_threshold(c)?.0))?;
    let ratio = thr / thr_ref;
    if ratio < 1.2 {
        return Err(invalid("the newer chip does not need a larger batch"));
    }
    // Either chip's number from another version, or both.
    let with_era = |c: &CalcSetup| -> Vec<(CalcSetup, Option<Era>)> {
        std::iter::once((c.clone(), None))
            .chain(eras(c).into_iter().map(|(e, era)| (e, Some(era))))
            .collect()
    };
    let mut also_ratio = Vec::new();
    for (c, ec) in with_era(&calc) {
        for (r, er) in with_era(&ref_calc) {
            let era = match (&ec, er) {
                (None, None) => continue,
                (Some(a), None) => a.clone(),
                (None, Some(b)) => b,
                (Some(a), Some(b)) => a.and(&b),
            };
            let v = approx_threshold(&c)?.0 / approx_threshold(&r)?.0;
            if (v - ratio).abs() > 1e-9 * ratio {
                also_ratio.push((v, era));
            }
        }
    }
    let op = mixed.operation()?;
    let threshold_b = |c: &CalcSetup| Ok(approx_threshold(c)?.0);
    let parts = vec![
        Part::number(
            "a",
            format!("Above which batch size is the bf16 matmul compute-bound on the {name}?"),
            Unit::None,
            0.01,
            th,
            "The intensity is about B; compare it with this chip's critical intensity.".to_string(),
            vec![format!("{} ÷ {} = {}, so B > {}.", rate_text(a.peak, Bf16), bw_text(a.bandwidth), ci_text(a.critical_intensity), sig(thr, 4))],
        )
        .flop_slips_by_peak(&calc.operation()?, &calc, &threshold_b)
        .sparse_slip(&calc, &threshold_b),
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
            vec![format!("2B > {} ⇔ B > {}.", sig(a.critical_intensity, 4), sig(mixed_th.value, 4))],
        )
        .mistake_number(thr, "That is the all-bf16 answer from part a; 1-byte weights double the intensity.".to_string())
        .flop_slips_by_peak(&op, &mixed, &threshold_b)
        .sparse_slip(&mixed, &threshold_b),
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

pub(super) fn x_int4(d: &mut Draw) -> Result<Question, CoreError> {
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
    let th = with_eras(&calc, &|c| Ok(approx_threshold(c)?.0))?;
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
        )
        .flop_slips_formula(&op),
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
        )
        .flop_slips_by_peak(&op, &calc, &|c| Ok(approx_threshold(c)?.0))
        .sparse_slip(&calc, &|c| Ok(approx_threshold(c)?.0)),
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
