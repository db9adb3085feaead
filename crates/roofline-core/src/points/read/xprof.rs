//! XProf's Roofline Model tool, exported as CSV ("Export as CSV"): one row
//! per operation (and a row for the whole program), with its time in µs,
//! its FLOP rate in GFLOP/s and its operational intensity in FLOP/byte.
//!
//! Each operation becomes one kernel: FLOPs = the normalized FLOP rate ×
//! the total time (XProf computes that rate over the total time), bytes =
//! FLOPs ÷ the HBM operational intensity (the app's line is HBM), time =
//! the total time. The program's row (category `Program`) sums the others
//! and is left out; when the table has per-step rows and `Total` rows, the
//! `Total` rows are read.

use csv::ReaderBuilder;

use super::measured::{Measured, Parsed};
use super::{quote, Format};
use crate::num::parse_f64_std;
use crate::points::{At, RowError};

/// Headers that say the table is XProf's roofline export.
const SIGNS: [&str; 3] = ["Operation", "Bound by", "Operational Intensity (FLOP/Byte)"];

/// Time, rate and intensity columns, each in order of preference.
const TIME: [&str; 1] = ["Total Time (us)"];
const RATE: [&str; 2] = [
    "Normalized FLOP Rate (GFLOP/s)",
    "Model FLOP Rate (GFLOP/s)",
];
const INTENSITY: [&str; 2] = [
    "HBM Operational Intensity (FLOP/Byte)",
    "Operational Intensity (FLOP/Byte)",
];

/// Reads `text` when its header is XProf's roofline table.
pub(super) fn read(text: &str) -> Option<Parsed> {
    let first = text.lines().find(|l| !l.trim().is_empty())?;
    if !SIGNS
        .iter()
        .all(|s| first.contains(&format!("\"{s}\"")) || first.contains(s))
    {
        return None;
    }
    let mut csv = ReaderBuilder::new()
        .flexible(true)
        .has_headers(false)
        .from_reader(text.as_bytes());
    let mut records = csv.records();
    let header = records.next()?.ok()?;
    let col = |names: &[&str]| {
        names
            .iter()
            .find_map(|n| header.iter().position(|h| h.trim() == *n))
    };
    let mut parsed = Parsed {
        format: Format::XprofCsv,
        kernels: Vec::new(),
        errors: Vec::new(),
        notes: Vec::new(),
    };
    let (Some(time), Some(rate), Some(intensity), Some(name)) =
        (col(&TIME), col(&RATE), col(&INTENSITY), col(&["Operation"]))
    else {
        parsed.errors.push(RowError {
            at: At::Input,
            message: "This is XProf's roofline table, but it lacks a column the app needs: it reads Operation, Total Time (us), Normalized FLOP Rate (GFLOP/s) and Operational Intensity (FLOP/Byte). Export the table again with every column.".to_string(),
        });
        return Some(parsed);
    };
    let (step, category) = (col(&["Step"]), col(&["Category"]));
    let mut rows = Vec::new();
    for (i, record) in records.enumerate() {
        let line = i + 2;
        match record {
            Ok(r) => rows.push((line, r)),
            Err(_) => parsed.errors.push(RowError {
                at: At::Line(line),
                message: "this line is not a whole CSV record (cut off?)".to_string(),
            }),
        }
    }
    let cell = |r: &csv::StringRecord, c: Option<usize>| {
        c.and_then(|c| r.get(c)).unwrap_or("").trim().to_string()
    };
    let totals = rows.iter().any(|(_, r)| cell(r, step) == "Total");
    let mut program = false;
    for (line, r) in &rows {
        if cell(r, category) == "Program" {
            program = true;
            continue;
        }
        if totals && cell(r, step) != "Total" {
            continue;
        }
        let at = At::Line(*line);
        match kernel(r, time, rate, intensity) {
            Ok((flops, bytes, seconds)) => parsed.kernels.push(Measured {
                name: cell(r, Some(name)),
                flops,
                bytes,
                time: Some(seconds),
                at,
                dtype: None,
            }),
            Err(message) => parsed.errors.push(RowError { at, message }),
        }
    }
    if program {
        parsed.notes.push(
            "The whole program's row (category Program) is left out: it sums the operations."
                .to_string(),
        );
    }
    parsed.notes.push(
        "XProf's rates are per core: read the points against one core's roof (a TPU's TensorCore, one GPU).".to_string(),
    );
    Some(parsed)
}

/// FLOPs, bytes and seconds of a row.
fn kernel(
    r: &csv::StringRecord,
    time: usize,
    rate: usize,
    intensity: usize,
) -> Result<(f64, f64, f64), String> {
    let get = |c: usize, what: &str| {
        let text = r.get(c).unwrap_or("").trim();
        parse_f64_std(text)
            .filter(|v| v.is_finite() && *v >= 0.0)
            .ok_or_else(|| match quote(text) {
                Some(q) if !q.is_empty() => format!("its {what} is not a number ('{q}')"),
                _ => format!("its {what} is empty"),
            })
    };
    let us = get(time, "total time")?;
    let gflops = get(rate, "FLOP rate")?;
    let oi = get(intensity, "operational intensity")?;
    if us <= 0.0 {
        return Err("its total time is zero".to_string());
    }
    if gflops <= 0.0 {
        return Err("XProf counted no FLOPs for it (a copy or a collective): it has no place on the roofline".to_string());
    }
    if oi <= 0.0 {
        return Err("its operational intensity is zero".to_string());
    }
    let flops = gflops * 1e9 * us * 1e-6;
    Ok((flops, flops / oi, us * 1e-6))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    const HEADER: &str = "\"Step\",\"Rank\",\"Category\",\"Operation\",\"# Occurrences\",\"Total Time (us)\",\"Normalized FLOP Rate (GFLOP/s)\",\"Operational Intensity (FLOP/Byte)\",\"HBM Operational Intensity (FLOP/Byte)\",\"Bound by\"";

    #[test]
    fn operations_are_read_and_the_program_left_out() {
        let text = format!(
            "{HEADER}\n\"Total\",\"0\",\"Program\",\"Program\",\"0\",\"12345.6\",\"301234.5\",\"184.1\",\"184.1\",\"Compute\"\n\"Total\",\"1\",\"convolution fusion\",\"fusion.12\",\"64\",\"4100.0\",\"612345.0\",\"713.0\",\"700.0\",\"Compute\"\n\"1\",\"1\",\"convolution fusion\",\"fusion.12\",\"32\",\"2050.0\",\"612345.0\",\"713.0\",\"700.0\",\"Compute\"\n"
        );
        let p = read(&text).unwrap();
        assert_eq!(p.format, Format::XprofCsv);
        assert!(p.errors.is_empty(), "{:?}", p.errors);
        assert_eq!(p.kernels.len(), 1);
        let k = &p.kernels[0];
        assert_eq!(k.name, "fusion.12");
        let flops = 612345.0e9 * 4100.0e-6;
        assert!((k.flops / flops - 1.0).abs() < 1e-12);
        assert!((k.bytes / (flops / 700.0) - 1.0).abs() < 1e-12);
        assert!((k.time.unwrap() / 4.1e-3 - 1.0).abs() < 1e-12);
        assert_eq!(k.at, At::Line(3));
        assert!(p.notes.iter().any(|n| n.contains("Program")));
    }

    #[test]
    fn bad_rows_and_missing_columns_say_why() {
        let text = format!(
            "{HEADER}\n\"Total\",\"1\",\"data formatting\",\"copy.1\",\"1\",\"10.0\",\"0.0\",\"0.0\",\"0.0\",\"HBM\"\n\"Total\",\"2\",\"fusion\",\"f\",\"1\",\"x\",\"1.0\",\"1.0\",\"1.0\",\"HBM\"\n"
        );
        let p = read(&text).unwrap();
        assert_eq!(p.kernels.len(), 0);
        assert!(p.errors[0].message.contains("no FLOPs"), "{:?}", p.errors);
        assert_eq!(p.errors[1].message, "its total time is not a number ('x')");
        let p = read("\"Operation\",\"Bound by\",\"Operational Intensity (FLOP/Byte)\"\n\"a\",\"HBM\",\"1\"\n").unwrap();
        assert!(p.errors[0].message.contains("lacks a column"));
    }

    #[test]
    fn other_tables_are_not_read() {
        assert!(read("name,flops,bytes,time_ms\na,1,1,1\n").is_none());
        assert!(read("").is_none());
    }
}
