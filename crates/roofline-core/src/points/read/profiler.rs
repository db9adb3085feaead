//! Profilers' own exports, recognised before the generic table reader:
//! Nsight Compute's CSV pages (`ncu.rs`), XProf's roofline table
//! (`xprof.rs`) and JAX's printed `cost_analysis()` (`jax.rs`). Each reader either does not recognise the
//! text (`None`: the generic reader takes it) or reads all of it into
//! [`Parsed`]: FLOPs, bytes and a time per kernel, which
//! [`super::start`] turns into kernels with the generic reader's limits.

use super::{
    quote, Format, Reading, MAX_FLOPS, MAX_INTENSITY, MAX_MOVED, MAX_RATE, MAX_ROWS, MAX_TIME,
    MIN_INTENSITY, MIN_TIME, NAME_CHARS,
};
use crate::format;
use crate::points::{At, Kernel, RowError};

/// One kernel (or compiled function) as a profiler reported it, in base
/// units: FLOPs, bytes, seconds.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Measured {
    /// Its name as the export gives it (a kernel name, a JAX function's
    /// name); repeated names are kept apart by the reader (`name #ID`).
    pub name: String,
    /// Floating-point operations, a multiply-add counted as two.
    pub flops: f64,
    /// Bytes moved to and from main memory (HBM, DRAM).
    pub bytes: f64,
    /// Measured time, seconds; `None` when the export has none (a
    /// prediction: JAX's cost analysis alone).
    pub time: Option<f64>,
    /// Where the row is (for messages about it).
    pub at: super::At,
}

/// What a profiler reader read.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Parsed {
    /// The format recognised.
    pub format: Format,
    /// Every kernel read, in input order.
    pub kernels: Vec<Measured>,
    /// Kernels (or the input) that could not be read, with the reason.
    pub errors: Vec<RowError>,
    /// Remarks: which precisions were counted, lines skipped, ...
    pub notes: Vec<String>,
}

/// The profiler export `text` is, read whole; `None` when it is none of
/// them.
pub(super) fn recognise(text: &str) -> Option<Parsed> {
    super::ncu::read(text)
        .or_else(|| super::xprof::read(text))
        .or_else(|| super::jax::read(text))
}

/// The kernels of `p` as a [`Reading`]: each with its intensity (FLOPs ÷
/// bytes) and throughput (FLOPs ÷ time), in the generic reader's limits
/// (one out of them becomes an error that says why); one without a time is
/// a prediction ([`Kernel::prediction`]), and a note says how many.
pub(super) fn into_reading(p: Parsed) -> Reading {
    let mut reading = Reading {
        format: Some(p.format),
        errors: p.errors,
        notes: p.notes,
        ..Reading::default()
    };
    for m in p.kernels.into_iter().take(MAX_ROWS) {
        match kernel(&m) {
            Ok(k) => reading.kernels.push(k),
            Err(message) => reading.errors.push(RowError { at: m.at, message }),
        }
    }
    let predicted = reading
        .kernels
        .iter()
        .filter(|k| k.predicted.is_some())
        .count();
    if predicted > 0 {
        reading.notes.push(format!(
            "{predicted} without a measured time: predicted, placed at the roof (a square on the chart). Type a time in the table to place one where it ran."
        ));
    }
    reading.errors.sort_by_key(|e| order(e.at));
    reading
}

/// A measured kernel checked against the reader's limits.
fn kernel(m: &Measured) -> Result<Kernel, String> {
    let name = format::clip(&m.name, NAME_CHARS);
    let shown = quote(&name).unwrap_or_else(|| "this kernel".to_string());
    if !(m.flops > 0.0 && m.flops <= MAX_FLOPS) {
        return Err(format!("{shown}: no floating-point work was counted"));
    }
    if !(m.bytes > 0.0 && m.bytes <= MAX_MOVED) {
        return Err(format!("{shown}: no bytes were counted"));
    }
    let intensity = m.flops / m.bytes;
    if !(MIN_INTENSITY..=MAX_INTENSITY).contains(&intensity) {
        return Err(format!(
            "{shown}: its FLOPs and bytes put it outside the chart (intensity {})",
            format::intensity(intensity)
        ));
    }
    // No time: a prediction, placed at the roof until a time is typed.
    let Some(time) = m.time else {
        return Ok(Kernel::prediction(name.into(), intensity, m.flops));
    };
    if !(MIN_TIME..=MAX_TIME).contains(&time) {
        return Err(format!("{shown}: its time is outside 1 ps to 11 days"));
    }
    let rate = m.flops / time;
    if !(rate > 0.0 && rate <= MAX_RATE) {
        return Err(format!(
            "{shown}: its FLOPs and time put it outside the chart (throughput {})",
            format::flops_rate(rate)
        ));
    }
    Ok(Kernel {
        name: name.into(),
        intensity,
        rate,
        time: Some(time),
        predicted: None,
    })
}

/// Errors in input order: the whole input first, then by line or item.
fn order(at: At) -> (u8, usize) {
    match at {
        At::Input => (0, 0),
        At::Line(n) | At::Item(n) => (1, n),
    }
}
