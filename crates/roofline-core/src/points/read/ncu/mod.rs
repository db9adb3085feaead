//! Nsight Compute's CSV exports (`ncu --csv`): the default page (the long
//! form, one row per kernel and metric) and `--page raw` (one row per
//! kernel, a metric per column, then a units row).
//!
//! The table starts at the line that starts `"ID",`; lines around it that
//! are not quoted (`==PROF==`, the application's output) are skipped.
//! Columns are found by name. For each kernel (one `ID`):
//!
//! * time: `gpu__time_duration.sum`, else the `Duration` of the
//!   `GPU Speed Of Light Throughput` section;
//! * bytes: `dram__bytes.sum`, else `dram__bytes_read.sum` +
//!   `dram__bytes_write.sum`;
//! * FLOPs: as Nsight Compute's roofline counts them, per precision (fp64,
//!   fp32, fp16) `add + mul + 2 × fma` thread instructions
//!   (`smsp__sass_thread_inst_executed_op_{d,f,h}{add,mul,fma}_pred_on.sum`),
//!   plus the tensor cores' operations (`sm__ops_path_tensor_src_*.sum`,
//!   integer sources left out) when the export has them.

use std::collections::HashMap;

use super::profiler::{Measured, Parsed};
use super::{quote, quoted, Format, NAME_CHARS};
use crate::format;
use crate::num::parse_f64_std;
use crate::points::{At, RowError};

/// The kernel's duration.
const TIME: &str = "gpu__time_duration.sum";
/// Where the long form's `Duration` label is (when no raw time metric is).
const SOL: &str = "GPU Speed Of Light Throughput";
/// The key the `Duration` of [`SOL`] is kept under.
const SOL_TIME: &str = "GPU Speed Of Light Throughput: Duration";
/// Bytes moved to and from DRAM (HBM).
const BYTES: &str = "dram__bytes.sum";
/// Bytes read from DRAM, when [`BYTES`] is absent.
const BYTES_READ: &str = "dram__bytes_read.sum";
/// Bytes written to DRAM, when [`BYTES`] is absent.
const BYTES_WRITE: &str = "dram__bytes_write.sum";
/// The start of the tensor cores' per-source operation counts.
const TENSOR: &str = "sm__ops_path_tensor_src_";
/// The metrics to ask for, in messages.
const ADVICE: &str = "profile with --metrics gpu__time_duration.sum,dram__bytes.sum,\
smsp__sass_thread_inst_executed_op_fadd_pred_on.sum,\
smsp__sass_thread_inst_executed_op_fmul_pred_on.sum,\
smsp__sass_thread_inst_executed_op_ffma_pred_on.sum (and the dadd/dmul/dfma, hadd/hmul/hfma ones for fp64, fp16)";
/// The precisions counted: the letter in the metric names, a name, and the
/// FLOPs of one add, mul and fma instruction, as Nsight Compute's roofline
/// sections weigh them: an FMA is two operations, and the half-precision
/// counters count a packed pair (HADD2, HMUL2, HFMA2) as one instruction,
/// so each counts twice again (its `_x2` and `_x4` derived metrics).
const PRECISIONS: [(&str, &str, [f64; 3]); 3] = [
    ("d", "fp64", [1.0, 1.0, 2.0]),
    ("f", "fp32", [1.0, 1.0, 2.0]),
    ("h", "fp16", [2.0, 2.0, 4.0]),
];
/// The instructions counted, in the order of [`PRECISIONS`]' weights.
const OPS: [&str; 3] = ["add", "mul", "fma"];

/// What a metric's value measures, which decides the units it may have.
#[derive(Clone, Copy)]
enum Kind {
    /// A duration, read in seconds.
    Time,
    /// Bytes.
    Bytes,
    /// A count (instructions, operations).
    Count,
}

/// One metric of a kernel as the export gives it.
struct Metric {
    /// Its unit, as written (`Kbyte`, `nsecond`, `inst`, empty).
    unit: String,
    /// Its value, as written (`1,024.35`, `n/a`).
    value: String,
}

/// One kernel (one `ID`) as gathered from its rows.
struct Launch {
    /// Its `ID`.
    id: String,
    /// Its `Kernel Name`.
    name: String,
    /// The line of its first row, 1-based.
    line: usize,
    /// Its metrics by name.
    metrics: HashMap<String, Metric>,
}

/// Reads `text` when it is an Nsight Compute CSV export; `None` when it is
/// not (no header line starting `"ID",` with a `Kernel Name` column, and
/// either `Metric Name`/`Metric Value` columns or metric columns).
pub(super) fn read(text: &str) -> Option<Parsed> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
    let header = lines.find(|(_, l)| l.starts_with("\"ID\","))?.1;
    let header = split(header)?;
    let col = |name: &str| header.iter().position(|h| h == name);
    let (id, name) = (col("ID")?, col("Kernel Name")?);
    let long = match (col("Metric Name"), col("Metric Unit"), col("Metric Value")) {
        (Some(m), Some(u), Some(v)) => Some([m, u, v]),
        _ => None,
    };
    if long.is_none() && !header.iter().any(|h| h.contains("__")) {
        return None;
    }
    let mut parsed = Parsed {
        format: if long.is_some() {
            Format::NcuLong
        } else {
            Format::NcuRaw
        },
        kernels: Vec::new(),
        errors: Vec::new(),
        notes: Vec::new(),
    };
    let mut launches: HashMap<String, Launch> = HashMap::new();
    let mut units: Option<Vec<String>> = None;
    for (n, line) in lines {
        if !line.starts_with('"') {
            continue;
        }
        let error = |message: &str| RowError {
            at: At::Line(n),
            message: message.to_string(),
        };
        let Some(row) = split(line) else {
            parsed.errors.push(error(
                "this line is cut off (a quote is not closed); it is left out",
            ));
            continue;
        };
        if row == header {
            continue;
        }
        let field = |i: usize| row.get(i).map(|s| s.trim().to_string());
        let (Some(kid), Some(kname)) = (field(id), field(name)) else {
            parsed.errors.push(error(
                "this line ends before the Kernel Name column; it is left out",
            ));
            continue;
        };
        if let Some([m, u, v]) = long {
            let (Some(metric), Some(unit), Some(value)) = (field(m), field(u), field(v)) else {
                parsed.errors.push(error(
                    "this line ends before the Metric Value column; it is left out",
                ));
                continue;
            };
            let section = col("Section Name").and_then(field).unwrap_or_default();
            let key = if section == SOL && metric == "Duration" {
                SOL_TIME.to_string()
            } else {
                metric
            };
            if !key.is_empty() {
                launch(&mut launches, kid, kname, n)
                    .metrics
                    .insert(key, Metric { unit, value });
            }
        } else if kid.is_empty() {
            units = Some(row);
        } else if row.len() < header.len() {
            parsed.errors.push(error(
                "this line has fewer fields than the header (it looks cut off); it is left out",
            ));
        } else {
            let l = launch(&mut launches, kid, kname, n);
            for (j, (h, value)) in header.iter().zip(&row).enumerate() {
                if h.contains("__") {
                    let unit = units
                        .as_ref()
                        .and_then(|u| u.get(j))
                        .cloned()
                        .unwrap_or_default();
                    let value = value.trim().to_string();
                    l.metrics.insert(
                        h.clone(),
                        Metric {
                            unit: unit.trim().to_string(),
                            value,
                        },
                    );
                }
            }
        }
    }
    if launches.is_empty() && parsed.errors.is_empty() {
        parsed.errors.push(RowError {
            at: At::Input,
            message: "The Nsight Compute table has no kernels.".into(),
        });
    }
    let mut launches: Vec<Launch> = launches.into_values().collect();
    launches.sort_by_key(|l| l.line);
    let names = names(&launches);
    for (l, name) in launches.iter().zip(names) {
        match measure(l) {
            Ok((flops, bytes, time, note)) => {
                if !parsed.notes.contains(&note) {
                    parsed.notes.push(note);
                }
                let at = At::Line(l.line);
                parsed.kernels.push(Measured {
                    name,
                    flops,
                    bytes,
                    time: Some(time),
                    at,
                });
            }
            Err(message) => parsed.errors.push(RowError {
                at: At::Line(l.line),
                message: format!("{}{message}", shown(&name)),
            }),
        }
    }
    Some(parsed)
}

/// The launch with ID `id`, added (named `name`, first seen at `line`)
/// when it is new.
fn launch(
    launches: &mut HashMap<String, Launch>,
    id: String,
    name: String,
    line: usize,
) -> &mut Launch {
    launches.entry(id.clone()).or_insert_with(|| Launch {
        id,
        name,
        line,
        metrics: HashMap::new(),
    })
}

/// The launches' names; a name shared by several IDs (as the app shows it,
/// clipped) gets ` #ID`, kept whole when the app clips the name.
fn names(launches: &[Launch]) -> Vec<String> {
    let clipped: Vec<String> = launches
        .iter()
        .map(|l| format::clip(&l.name, NAME_CHARS))
        .collect();
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for c in &clipped {
        *seen.entry(c).or_default() += 1;
    }
    launches
        .iter()
        .zip(&clipped)
        .map(|(l, c)| {
            if seen.get(c.as_str()).is_none_or(|&n| n < 2) {
                return l.name.clone();
            }
            let suffix = format!(" #{}", l.id);
            // `clip` adds an ellipsis to what it cuts.
            let room = NAME_CHARS.saturating_sub(suffix.chars().count() + 1);
            format!("{}{suffix}", format::clip(&l.name, room.max(1)))
        })
        .collect()
}

/// `'name': ` for a message, or nothing when the name cannot be shown.
fn shown(name: &str) -> String {
    quote(name).map_or(String::new(), |q| format!("'{q}': "))
}

/// A launch's FLOPs, bytes, seconds and the note on what was counted; or
/// why it cannot be read.
fn measure(l: &Launch) -> Result<(f64, f64, f64, String), String> {
    let mut missing = Vec::new();
    let time = match get(l, TIME, Kind::Time)? {
        Some(t) => Some(t),
        None => get(l, SOL_TIME, Kind::Time)?,
    };
    if time.is_none() {
        missing.push(TIME.to_string());
    }
    let bytes = match get(l, BYTES, Kind::Bytes)? {
        Some(b) => Some(b),
        None => match (
            get(l, BYTES_READ, Kind::Bytes)?,
            get(l, BYTES_WRITE, Kind::Bytes)?,
        ) {
            (Some(r), Some(w)) => Some(r + w),
            _ => None,
        },
    };
    if bytes.is_none() {
        missing.push(BYTES.to_string());
    }
    let (mut flops, mut counted) = (0.0, Vec::new());
    for (p, label, weights) in PRECISIONS {
        let mut found = false;
        for (op, weight) in OPS.into_iter().zip(weights) {
            let name = format!("smsp__sass_thread_inst_executed_op_{p}{op}_pred_on.sum");
            let value = match get(l, &name, Kind::Count)? {
                Some(v) => Some(v),
                None => get(l, &name.replacen("smsp__", "sm__", 1), Kind::Count)?,
            };
            if let Some(v) = value {
                flops += weight * v;
                found = true;
            }
        }
        if found {
            counted.push(label);
        }
    }
    let mut tensor = false;
    let mut keys: Vec<&String> = l.metrics.keys().collect();
    keys.sort();
    for key in keys {
        let rest = key
            .strip_prefix(TENSOR)
            .and_then(|r| r.strip_suffix(".sum"));
        if rest.is_some_and(|r| !r.contains("int") && !r.contains('.')) {
            if let Ok(Some(v)) = get(l, key, Kind::Count) {
                flops += v;
                tensor = true;
            }
        }
    }
    if counted.is_empty() && !tensor {
        missing.push(
            "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum (and the other FLOP counts)"
                .into(),
        );
    }
    let (Some(time), Some(bytes)) = (time, bytes) else {
        return Err(format!(
            "the export has no {}; {ADVICE}",
            missing.join(", no ")
        ));
    };
    if !missing.is_empty() {
        return Err(format!(
            "the export has no {}; {ADVICE}",
            missing.join(", no ")
        ));
    }
    if flops <= 0.0 {
        return Err(
            "no floating-point instructions were counted (its FLOP counts are all 0)".into(),
        );
    }
    Ok((flops, bytes, time, note(&counted, tensor)))
}

/// The note on what a kernel's FLOPs were counted from.
fn note(counted: &[&str], tensor: bool) -> String {
    let from = match counted {
        [] => String::new(),
        [one] => format!("{one} instructions"),
        [rest @ .., last] => format!("{} and {last} instructions", rest.join(", ")),
    };
    match (from.is_empty(), tensor) {
        (_, false) => format!(
            "FLOPs counted from {from} (an FMA as 2); tensor-core work is not counted: add the \
             sm__ops_path_tensor_src_* metrics (--section SpeedOfLight_HierarchicalTensorRooflineChart)"
        ),
        (true, true) => "FLOPs counted from tensor-core operations (sm__ops_path_tensor_src_*.sum)".into(),
        (false, true) => format!(
            "FLOPs counted from {from} (an FMA as 2) and tensor-core operations (sm__ops_path_tensor_src_*.sum)"
        ),
    }
}

/// Metric `name` of `l` in base units (seconds, bytes, a count): `None`
/// when the export does not have it; an error when its value or unit cannot
/// be read.
fn get(l: &Launch, name: &str, kind: Kind) -> Result<Option<f64>, String> {
    let Some(m) = l.metrics.get(name) else {
        return Ok(None);
    };
    if m.unit.is_empty() && !matches!(kind, Kind::Count) {
        return Err(format!(
            "{name} has no unit (on the raw page, keep the units row under the header)"
        ));
    }
    let Some(scale) = scale(&m.unit, kind) else {
        return Err(format!(
            "{name} is in '{}', a unit not read here",
            quote(&m.unit).unwrap_or_default()
        ));
    };
    let x = number(&m.value).map_err(|why| format!("{name}{} {why}", quoted(&m.value)))?;
    Ok(Some(x * scale))
}

/// What one `unit` of `kind` is in base units; `None` for a unit that is
/// not one of `kind`'s. Nsight Compute's prefixes are powers of 1000.
fn scale(unit: &str, kind: Kind) -> Option<f64> {
    let prefix = |p: &str| match p {
        "" => Some(1.0),
        "K" => Some(1e3),
        "M" => Some(1e6),
        "G" => Some(1e9),
        "T" => Some(1e12),
        "P" => Some(1e15),
        _ => None,
    };
    match kind {
        Kind::Time => match unit {
            "nsecond" | "ns" => Some(1e-9),
            "usecond" | "us" => Some(1e-6),
            "msecond" | "ms" => Some(1e-3),
            "second" | "s" => Some(1.0),
            _ => None,
        },
        Kind::Bytes => prefix(unit.strip_suffix("byte")?),
        Kind::Count => {
            let word = unit.trim_start_matches(|c: char| c.is_ascii_uppercase());
            let ok = word.is_empty() || word.chars().all(|c| c.is_ascii_lowercase());
            if !ok || (word.is_empty() && !unit.is_empty()) {
                return None;
            }
            prefix(&unit[..unit.len() - word.len()])
        }
    }
}

/// A value as Nsight Compute writes it: digits with an optional point and
/// thousands separators (`2,147,483,648`, `1,024.35`). Anything else is an
/// error that says why: a decimal comma (`6,72`), `n/a`, a negative number.
fn number(text: &str) -> Result<f64, String> {
    let t = text.trim();
    let plain = if t.contains(',') {
        let (whole, frac) = t.split_once('.').unwrap_or((t, ""));
        let mut groups = whole.split(',');
        let first = groups.next().unwrap_or("");
        let digits = |g: &str| g.bytes().all(|b| b.is_ascii_digit());
        let grouped = (1..=3).contains(&first.len())
            && digits(first)
            && groups.all(|g| g.len() == 3 && digits(g))
            && digits(frac);
        if !grouped {
            let decimal = t.split(',').count() == 2
                && !t.contains('.')
                && t.split(',').all(|g| !g.is_empty() && digits(g));
            return Err(if decimal {
                "has a decimal comma (the profiler ran in a locale that writes one): export again with LC_ALL=C".into()
            } else {
                "is not a number".into()
            });
        }
        t.replace(',', "")
    } else {
        t.to_string()
    };
    match parse_f64_std(&plain) {
        Some(x) if x.is_finite() && x >= 0.0 => Ok(x),
        Some(x) if x < 0.0 => Err("is negative".into()),
        _ => Err("is not a number".into()),
    }
}

/// The fields of one CSV line (`"` quotes a field, `""` is a quote in
/// one); `None` when a quote is left open (a line cut off).
fn split(line: &str) -> Option<Vec<String>> {
    let (mut fields, mut field, mut quoted) = (Vec::new(), String::new(), false);
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (_, '"') => quoted = !quoted,
            (false, ',') => fields.push(std::mem::take(&mut field)),
            _ => field.push(c),
        }
    }
    if quoted {
        return None;
    }
    fields.push(field);
    Some(fields)
}

#[cfg(test)]
mod tests;
