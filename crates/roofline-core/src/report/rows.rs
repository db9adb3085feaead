//! The result rows: every number of an analysis labelled, formatted and
//! explained in a sentence, the regime's row, and the notes beside them
//! (the matrix unit's peak against the vector unit's, the sparse peak).

use crate::analysis::{Analysis, CriticalSize, Regime};
use crate::format;
use crate::small::Join;

use super::{row, ResultRow};

/// Text for a critical size: `B > 272.1`, `never`, `always`.
pub fn critical_text(dim: &str, c: &CriticalSize) -> String {
    match c {
        CriticalSize::At {
            size,
            compute_bound_above: true,
        } => format!("{dim} > {}", format::count(*size)),
        CriticalSize::At { size, .. } => format!("{dim} < {}", format::count(*size)),
        CriticalSize::Never { .. } => "never compute-bound".to_string(),
        CriticalSize::Always => "compute-bound at every size".to_string(),
    }
}

/// What a critical size means, in a sentence.
pub fn critical_meaning(dim: &str, c: &CriticalSize, critical_intensity: f64) -> String {
    match c {
        CriticalSize::At {
            compute_bound_above: true,
            ..
        } => format!(
            "Compute-bound once {dim} passes this; below it, moving bytes takes longer than \
             the math. Solved with the exact bytes."
        ),
        CriticalSize::At { .. } => format!(
            "Compute-bound while {dim} stays below this; above it, moving bytes takes longer."
        ),
        CriticalSize::Never { max_intensity } => format!(
            "Never compute-bound: however large {dim} gets, the intensity stays at or below {}, \
             under the critical {}.",
            format::intensity(*max_intensity),
            format::intensity(critical_intensity)
        ),
        CriticalSize::Always => {
            format!("Compute-bound at every size of {dim}.")
        }
    }
}

/// Every result row, in display order. `critical` is the critical size and
/// the dimension it is about (usually the small dimension, `B`).
pub fn rows(a: &Analysis, critical: Option<(&str, &CriticalSize)>) -> Vec<ResultRow> {
    let level = a.level_name;
    let dtype = a.compute_dtype.name();
    let roof = roof_name(a);
    let mut v = vec![
        row(
            "flops",
            "FLOPs",
            Some(a.flops),
            format::flops(a.flops),
            "Operations the algorithm performs; a multiply and an add count as two, whatever the data type."
                .to_string(),
        ),
        row(
            "bytes-read",
            "Bytes read",
            Some(a.bytes_read),
            format::bytes(a.bytes_read),
            format!("Every input loaded once from {level}, at its own data type's size."),
        ),
        row(
            "bytes-written",
            "Bytes written",
            Some(a.bytes_written),
            format::bytes(a.bytes_written),
            format!("The output stored once to {level}, at its data type's size."),
        ),
        row(
            "intensity",
            "Arithmetic intensity",
            Some(a.intensity),
            format::intensity(a.intensity),
            "FLOPs per byte moved, with every byte counted.".to_string(),
        ),
    ];
    let approx_label = match &a.small_dim {
        Some(d) => format!("Intensity with {d} small"),
        None => "Approximate intensity".to_string(),
    };
    v.push(match &a.approx {
        Some(ap) => row(
            "intensity-approx",
            &approx_label,
            Some(ap.intensity),
            format::intensity(ap.intensity),
            format!(
                "Keeping only the largest byte terms ({}) and dropping {}: {}.",
                ap.kept_terms.joined(" + "),
                ap.dropped_terms.joined(" + "),
                ap.formula
            ),
        ),
        None => row(
            "intensity-approx",
            &approx_label,
            None,
            String::new(),
            "No byte term is smaller than the others, so there is nothing to drop: the exact \
             intensity is the only one."
                .to_string(),
        ),
    });
    v.extend([
        row(
            "critical-intensity",
            "Critical intensity",
            Some(a.critical_intensity),
            format::intensity(a.critical_intensity),
            format!(
                "The {roof} ÷ {level} bandwidth: an algorithm needs more FLOPs per byte than this to be compute-bound."
            ),
        ),
        row(
            "t-math",
            "T_math",
            Some(a.t_math),
            format::seconds(a.t_math),
            match a.unit {
                crate::ComputeUnit::Matrix => {
                    format!("FLOPs ÷ the {dtype} peak of the matrix unit: the time the math alone takes.")
                }
                crate::ComputeUnit::Vector => "FLOPs ÷ the vector unit's peak FLOPs/s (elementwise work runs there, not on the matrix unit): the time the math alone takes.".to_string(),
            },
        ),
        row(
            "t-comms",
            "T_comms",
            Some(a.t_comms),
            format::seconds(a.t_comms),
            format!("Bytes ÷ {level} bandwidth: the time moving the bytes alone takes."),
        ),
        row(
            "t-lower",
            "Lower bound",
            Some(a.t_lower),
            format::seconds(a.t_lower),
            "The larger of the two: math and transfers overlap perfectly.".to_string(),
        ),
        row(
            "t-upper",
            "Upper bound",
            Some(a.t_upper),
            format::seconds(a.t_upper),
            "The sum of the two: nothing overlaps. Never more than twice the lower bound."
                .to_string(),
        ),
        row(
            "attained-flops",
            if a.compute_dtype.is_integer() {
                "Attained OPs/s"
            } else {
                "Attained FLOPs/s"
            },
            Some(a.attained),
            format::rate(a.attained, a.compute_dtype),
            "FLOPs ÷ lower bound, which equals min(peak, intensity × bandwidth).".to_string(),
        ),
        row(
            "peak-fraction",
            "Fraction of peak",
            Some(a.peak_fraction),
            format::percent(a.peak_fraction),
            "Attained ÷ peak, at the lower bound.".to_string(),
        ),
    ]);
    v.push(match critical {
        Some((dim, c)) => {
            let label = if dim == "B" {
                "Critical batch size".to_string()
            } else {
                format!("Critical size of {dim}")
            };
            let value = match c {
                CriticalSize::At { size, .. } => Some(*size),
                _ => None,
            };
            let text = critical_text(dim, c);
            let meaning = critical_meaning(dim, c, a.critical_intensity);
            row("critical-batch", &label, value, text, meaning)
        }
        None => row(
            "critical-batch",
            "Critical batch size",
            None,
            String::new(),
            "No dimension chosen to solve for.".to_string(),
        ),
    });
    v
}

/// The regime as a key (`compute` or `bandwidth`) and a sentence.
pub fn regime_row(a: &Analysis) -> (&'static str, String) {
    let i = format::intensity(a.intensity);
    let c = format::intensity(a.critical_intensity);
    let roof = roof_name(a);
    let line = a.level_name;
    let text = match a.regime {
        Regime::Compute => format!(
            "Compute-bound: the {roof} binds. The intensity, {i}, is above the critical {c} (that peak over {line} bandwidth)."
        ),
        Regime::Bandwidth => format!(
            "Bandwidth-bound: the {line} line binds. The intensity, {i}, is at or below the critical {c} (the {roof} over {line} bandwidth)."
        ),
    };
    (a.regime.key(), text)
}

/// The row that sets an operation run on the vector unit against the
/// matrix unit's peak at `dtype`, `matrix_peak` (FLOPs/s): the comparison
/// the chapter makes for the dot product (its 240 on TPU v5e), shown
/// beside the vector unit's own.
pub fn matrix_comparison_row(a: &Analysis, dtype: crate::DType, matrix_peak: f64) -> ResultRow {
    let c = matrix_peak / a.bandwidth;
    let level = a.level_name;
    let verdict = if a.intensity > c {
        "compute-bound"
    } else {
        "bandwidth-bound"
    };
    row(
        "critical-intensity-matrix",
        "… on the matrix unit",
        Some(c),
        format::intensity(c),
        format!(
            "The {dtype} peak of the matrix unit ({}) ÷ {level} bandwidth: what the chapter compares the dot product with. Against it too the operation is {verdict}; the vector unit's lower peak, above, is where it really runs.",
            format::rate(matrix_peak, dtype)
        ),
    )
}

/// A note on the peak in use when the vendor's sheet also quotes a sparse
/// figure for it (2:4 structured sparsity, usually twice the dense): both,
/// and the critical intensity each gives against the analysis's level.
/// `None` on the vector unit or without a sparse figure.
pub fn sparse_note(chip: &crate::Chip, a: &Analysis) -> Option<String> {
    if a.unit != crate::ComputeUnit::Matrix {
        return None;
    }
    let p = chip.peak_entry(a.compute_dtype)?;
    let sparse = p.sparse?;
    Some(format!(
        "{} {}: {} dense, used here (the sheet’s {} is with sparsity). Critical intensity: {}, not {}.{}",
        chip.name,
        a.compute_dtype,
        format::rate(p.dense, a.compute_dtype),
        format::rate(sparse, a.compute_dtype),
        format::intensity(p.dense / a.bandwidth),
        format::intensity(sparse / a.bandwidth),
        readers_note(chip, a),
    ))
}

/// The readers' discussion of Part 1 on the RTX 3090: the fp16 figure it
/// quoted (a sparse one, see the catalogue's source for the card's fp16)
/// and the card's bandwidth, which it divided into a critical batch.
const READERS_RTX3090: (f64, f64) = (2.68e14, 9.36e11);

/// On the RTX 3090, a sentence that ties the readers' critical batch to the
/// ones this card gives dense: all-fp16 and all in the math's type, by the
/// B ≪ D, F shortcut (the comparison table's), and the results' own.
fn readers_note(chip: &crate::Chip, a: &Analysis) -> String {
    if chip.id != "rtx3090" {
        return String::new();
    }
    let (quoted, bw) = READERS_RTX3090;
    let batch = |peak: f64, d: crate::DType| peak / a.bandwidth * d.bytes() / 2.0;
    let fp16 = chip.peak(crate::DType::Fp16).map_or_else(
        |_| format::MISSING.to_string(),
        |p| format::sig(batch(p, crate::DType::Fp16), 3),
    );
    format!(
        " The readers’ discussion put this card’s critical batch at about {}: {} ÷ {}, a sparse fp16 figure. Dense, a matmul all in fp16 turns compute-bound past B ≈ {fp16}, one all in {} past B ≈ {}; the critical batch size in the results is this operation’s, with its own data types and every byte counted.",
        format::sig(quoted / bw, 3),
        format::flops_rate(quoted),
        format::bandwidth(bw),
        a.compute_dtype,
        format::sig(batch(p_dense(chip, a), a.compute_dtype), 3),
    )
}

/// The dense peak the analysis runs at.
fn p_dense(chip: &crate::Chip, a: &Analysis) -> f64 {
    chip.peak(a.compute_dtype).unwrap_or(a.peak)
}

/// The roof an analysis is read against: `bf16 peak of the matrix unit`
/// or `vector unit's peak`.
pub fn roof_name(a: &Analysis) -> String {
    match a.unit {
        crate::ComputeUnit::Matrix => format!("{} peak of the matrix unit", a.compute_dtype),
        crate::ComputeUnit::Vector => "vector unit's peak".to_string(),
    }
}
