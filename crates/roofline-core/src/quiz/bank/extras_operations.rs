//! Roofline Lab extras on the operation's side, in the spirit of the
//! chapter but not in it: an elementwise add (`x-add`), small matrices where
//! the small-B approximation fails (`x-small`) and a matmul's times, with
//! units (`x-time`).

use crate::format::{self, sci, sig};
use crate::quiz::answer::{ChoiceOption, Unit};
use crate::quiz::{CalcSetup, Part, Question, SOURCE_EXTRA};
use crate::{critical_size, CoreError, CriticalSize, DType, LevelKind};

use super::feedback::{era_note, ops_word, with_eras};
use super::helpers::{
    approx_text, chip_name, matmul, never_options, question, regime_index, regime_options,
    BF16_CHIPS, POW2,
};
use super::setup::analysis;
use super::texts::{bw_text, ci_text, plain, rate_text, with_article};
use super::{invalid, Draw};
use crate::analysis::{byte_terms, flops_term, sum_text};
use crate::small::Join;

use DType::{Bf16, Fp32, Int8};
use LevelKind::Hbm;

pub(super) fn x_add(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick("h100", &["h100", "a100", "h200", "b200", "rtx3090"]);
    let n = d.pick(1e8, &[1e6, 1e7, 1e8, 1e9]);
    let calc = CalcSetup::new(chip, "fp32[N] + fp32[N] -> fp32[N]", &[("N", n)], Hbm);
    let name = chip_name(&calc)?;
    let a_name = with_article(&name);
    let a = analysis(&calc)?;
    let op = calc.operation()?;
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
        .mistake_number(1.0 / 8.0, "Don't forget the output: it is written back, another 4 bytes per element.".to_string())
        .flop_slips(&op, Some(2.0 * a.intensity), None)
        .growth(
            "N",
            format!(
                "That grows with N, but the intensity does not: the {}, {}, and the bytes, {}, both grow in proportion to N, so N cancels.",
                ops_word(&op),
                flops_term(&op).compact(),
                sum_text(&byte_terms(&op))
            ),
        ),
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

pub(super) fn x_small(d: &mut Draw) -> Result<Question, CoreError> {
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
    let op = calc.operation()?;
    let with_b: Vec<String> = byte_terms(&op)
        .iter()
        .filter(|t| t.dims.iter().any(|d| d == "B"))
        .map(|t| t.compact())
        .collect();
    let levels_off = format!(
        "That grows with B, but this intensity levels off: for large B the activations' bytes, {}, grow with B as fast as the {}, {}, so B cancels.",
        with_b.joined(" + "),
        ops_word(&op),
        flops_term(&op).compact()
    );
    let parts = vec![
        Part::number(
            "a",
            format!("With B = {b}, what intensity does the small-B rule (about 2B) promise?"),
            Unit::FlopsPerByte,
            0.01,
            (ap.intensity, Vec::new()),
            "Just apply the rule of thumb from question 2.".to_string(),
            vec![format!("{}: {} at B = {b}.", approx_text(&op, &a)?, sig(ap.intensity, 4))],
        )
        .flop_slips(&op, Some(2.0 * ap.intensity), Some(ap.intensity / 2.0)),
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
        )
        .mistake_number(ap.intensity, "That is what the small-B rule promises (part a); counting every byte, the activations' bytes dominate when B is larger than D and F.".to_string())
        .flop_slips(&op, Some(2.0 * a.intensity), Some(a.intensity / 2.0)),
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
        )
        .growth("B", levels_off)
        .flop_slips(&op, Some(2.0 * max_i), Some(max_i / 2.0)),
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

pub(super) fn x_time(d: &mut Draw) -> Result<Question, CoreError> {
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
    let t_comms = with_eras(&calc, &|c| Ok(analysis(c)?.t_comms))?;
    let lower = with_eras(&calc, &|c| Ok(analysis(c)?.t_lower))?;
    let upper = with_eras(&calc, &|c| Ok(analysis(c)?.t_upper))?;
    let weights_only = 2.0 * dd * ff / a.bandwidth;
    let op = calc.operation()?;
    let t_math = |c: &CalcSetup| Ok(analysis(c)?.t_math);
    let t_lower = |c: &CalcSetup| Ok(analysis(c)?.t_lower);
    let t_upper = |c: &CalcSetup| Ok(analysis(c)?.t_upper);
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
        .flop_slips_by_peak(&op, &calc, &t_math)
        .sparse_slip(&calc, &t_math),
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
        )
        .flop_slips_by_peak(&op, &calc, &t_lower)
        .sparse_slip(&calc, &t_lower),
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
        )
        .flop_slips_by_peak(&op, &calc, &t_upper)
        .sparse_slip(&calc, &t_upper),
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
