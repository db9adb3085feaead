//! Profilers' own exports, recognised before the generic table reader:
//! Nsight Compute's CSV pages (`ncu/`), XProf's roofline table
//! (`xprof.rs`) and JAX's printed `cost_analysis()` (`jax.rs`). Each reader either does not recognise the
//! text (`None`: the generic reader takes it) or reads it into [`Parsed`]:
//! FLOPs, bytes and a time per kernel, which [`start`] and [`more`] turn
//! into kernels with the generic reader's limits (the readers and this
//! file share those types through `measured.rs`). Nsight Compute's pages
//! (a line per kernel and metric: ten thousand kernels are fifty thousand
//! lines) are read a slice at a time; the others whole.

use super::measured::{Measured, Parsed};
use super::{
    quote, Reading, MAX_FLOPS, MAX_INTENSITY, MAX_MOVED, MAX_RATE, MAX_ROWS, MAX_TIME,
    MIN_INTENSITY, MIN_TIME, NAME_CHARS,
};
use crate::format;
use crate::points::{At, Kernel, RowError};

/// Starts reading `text` when it is a profiler's export: Nsight Compute's
/// pages its first `rows` lines (the [`Rest`] reads on, see [`more`]),
/// XProf's table and JAX's cost analysis whole (they are short). `None`
/// when it is none of them.
pub(super) fn start(text: &str, rows: usize) -> Option<(Reading, Option<Rest>)> {
    if let Some(rest) = super::ncu::start(text) {
        let mut reading = Reading {
            format: Some(rest.format),
            ..Reading::default()
        };
        let rest = Rest {
            ncu: rest,
            extra: 0,
        };
        let rest = more(text, &mut reading, rest, rows);
        return Some((reading, rest));
    }
    let p = super::xprof::read(text).or_else(|| super::jax::read(text))?;
    let mut reading = Reading {
        format: Some(p.format),
        ..Reading::default()
    };
    let extra = add(&mut reading, p);
    finish(&mut reading, extra);
    Some((reading, None))
}

/// Where a reading of a profiler's export (Nsight Compute's) stopped.
pub(super) struct Rest {
    /// The export's own reader.
    ncu: super::ncu::Rest,
    /// Kernels beyond [`MAX_ROWS`], counted and left out.
    extra: usize,
}

/// Reads up to `rows` more lines (or kernels) of `text` into `reading`;
/// the [`Rest`] is `None` once the export is read to its end.
pub(super) fn more(text: &str, reading: &mut Reading, mut rest: Rest, rows: usize) -> Option<Rest> {
    let mut p = Parsed {
        format: rest.ncu.format,
        kernels: Vec::new(),
        errors: Vec::new(),
        notes: Vec::new(),
    };
    let done = rest.ncu.step(text, rows, &mut p);
    rest.extra += add(reading, p);
    if done {
        finish(reading, rest.extra);
        None
    } else {
        Some(rest)
    }
}

/// The kernels of `p` added to `reading`: each with its intensity (FLOPs
/// ÷ bytes) and throughput (FLOPs ÷ time), in the generic reader's limits
/// (one out of them becomes an error that says why; those beyond
/// [`MAX_ROWS`] are left out); one without a time is a prediction
/// ([`Kernel::prediction`]). Returns how many were left out.
fn add(reading: &mut Reading, p: Parsed) -> usize {
    reading.errors.extend(p.errors);
    for note in p.notes {
        if !reading.notes.contains(&note) {
            reading.notes.push(note);
        }
    }
    let mut extra = 0;
    for m in p.kernels {
        if reading.kernels.len() >= MAX_ROWS {
            extra += 1;
            continue;
        }
        match kernel(&m) {
            Ok(k) => reading.kernels.push(k),
            Err(message) => reading.errors.push(RowError { at: m.at, message }),
        }
    }
    extra
}

/// A reading read to its end: its errors in input order (then how many
/// kernels beyond [`MAX_ROWS`] were left out, `extra`), and a note on how
/// many kernels are predictions.
fn finish(reading: &mut Reading, extra: usize) {
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
    if extra > 0 {
        reading.errors.push(super::left_out(extra));
    }
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
        return Ok(Kernel {
            dtype: m.dtype,
            ..Kernel::prediction(name.into(), intensity, m.flops)
        });
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
        dtype: m.dtype,
    })
}

/// Errors in input order: the whole input first, then by line or item.
fn order(at: At) -> (u8, usize) {
    match at {
        At::Input => (0, 0),
        At::Line(n) | At::Item(n) => (1, n),
    }
}
