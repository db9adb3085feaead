//! Headers: each column's field and unit guessed from its header (see the
//! rules in the module documentation of [`super`]), then the user's mapping
//! applied and one column kept per field.

use super::{quote, Choice, Column};
use crate::points::units::{self, Kind, Unit};
use crate::points::Field;

/// A header's guessed field and unit; `strength` breaks ties between two
/// columns guessed as the same field (`kernel name` beats `id`).
#[derive(Debug, Clone, Copy)]
pub(super) struct Guess {
    pub(super) field: Field,
    pub(super) unit: Option<Unit>,
    pub(super) strength: u8,
}

const IGNORE: Guess = Guess {
    field: Field::Ignore,
    unit: None,
    strength: 0,
};

/// Headers starting with these (squashed) are the app's own results or a
/// chip's numbers, not measurements.
const IGNORED: [&str; 8] = [
    "roof",
    "lowerbound",
    "timesaved",
    "saved",
    "fraction",
    "percent",
    "binding",
    "peak",
];

/// Words of a header about a kernel's launch, not its sizes.
const LAUNCH_WORDS: [&str; 6] = ["block", "grid", "waves", "registers", "threads", "cluster"];

/// Words of a header naming where a kernel ran, not the kernel.
const HOST_WORDS: [&str; 6] = ["process", "host", "device", "context", "stream", "gpu"];

/// Headers (squashed) of a data type column.
const DTYPE_HEADERS: [&str; 6] = [
    "dtype",
    "datatype",
    "precision",
    "mathdtype",
    "computedtype",
    "computeprecision",
];

/// Words next to a FLOP word that make it a rate.
const RATE_WORDS: [&str; 5] = ["achieved", "attained", "throughput", "perf", "performance"];

const PER_SECOND: [&str; 4] = ["s", "sec", "second", "seconds"];
const PER_BYTE: [&str; 3] = ["b", "byte", "bytes"];

/// Keywords for each field (token-exact), with strength.
const KEYWORDS: [(Field, &[&str], u8); 6] = [
    (
        Field::Time,
        &[
            "time", "duration", "elapsed", "latency", "runtime", "dur", "walltime",
        ],
        2,
    ),
    (
        Field::Bytes,
        &["bytes", "byte", "traffic", "memory", "mem", "dram", "hbm"],
        2,
    ),
    (Field::Intensity, &["intensity", "ai", "oi"], 2),
    (Field::Rate, &["throughput"], 1),
    (
        Field::Sizes,
        &["sizes", "size", "shape", "shapes", "dims", "dimensions"],
        2,
    ),
    (
        Field::Op,
        &["op", "ops", "operation", "notation", "einsum", "expr"],
        2,
    ),
];

/// `time (µs)` → (`time`, Some(`µs`)); other headers are all stem.
fn split_bracket(h: &str) -> (&str, Option<&str>) {
    let open = if h.ends_with(')') {
        '('
    } else if h.ends_with(']') {
        '['
    } else {
        return (h, None);
    };
    match h.rfind(open) {
        Some(i) => (
            h.get(..i).unwrap_or(""),
            h.get(i + 1..h.len().saturating_sub(1)),
        ),
        None => (h, None),
    }
}

/// Guesses the field and unit of a header (see the module documentation).
pub(super) fn guess(header: &str) -> Guess {
    let lower = header.trim().to_lowercase();
    let (stem, bracket) = split_bracket(&lower);
    let bracket_unit = bracket.and_then(units::unit);
    let tokens: Vec<&str> = stem
        .split([' ', '_', '-', '.', ':', '\t'])
        .filter(|t| !t.is_empty())
        .collect();
    let with = |field: Field, unit: Option<Unit>, strength: u8| Guess {
        field,
        unit: bracket_unit
            .and_then(|u| u.read_as(field))
            .or_else(|| unit.and_then(|u| u.read_as(field))),
        strength,
    };
    if tokens.is_empty() {
        return bracket_unit.map_or(IGNORE, |u| with(u.kind.field(), Some(u), 1));
    }
    let squashed = tokens.concat();
    if IGNORED.iter().any(|p| squashed.starts_with(p)) {
        return IGNORE;
    }
    // Launch dimensions and the like (`Block Size`, `Grid Size`, `Waves
    // Per SM`) describe how a kernel ran, never its operation's sizes.
    if tokens.iter().any(|t| LAUNCH_WORDS.contains(t)) {
        return IGNORE;
    }
    // Names first: `kernel name`, `op name`; a process's or a host's name
    // only when nothing names the kernel.
    if tokens.iter().any(|t| matches!(*t, "name" | "names")) {
        let weak = tokens.iter().any(|t| HOST_WORDS.contains(t));
        return with(Field::Name, None, if weak { 1 } else { 3 });
    }
    if tokens.contains(&"label") || matches!(squashed.as_str(), "kernel" | "kernels" | "function") {
        return with(Field::Name, None, 2);
    }
    if squashed == "id" {
        return with(Field::Name, None, 1);
    }
    // The data type the math ran at.
    if DTYPE_HEADERS.contains(&squashed.as_str()) {
        return with(Field::Dtype, None, 2);
    }
    // A FLOP word, and what follows it.
    for (i, tok) in tokens.iter().enumerate() {
        let Some(u) = units::unit(tok) else { continue };
        let rest = tokens.get(i + 1..).unwrap_or(&[]);
        let after = |j: usize| rest.get(j).copied().unwrap_or("");
        let field = match u.kind {
            Kind::Flops => {
                if PER_SECOND.contains(&after(0))
                    || (after(0) == "per" && PER_SECOND.contains(&after(1)))
                {
                    Field::Rate
                } else if after(0) == "per" && PER_BYTE.contains(&after(1)) {
                    return with(Field::Intensity, None, 2);
                } else if tokens.iter().any(|t| RATE_WORDS.contains(t)) {
                    Field::Rate
                } else {
                    Field::Flops
                }
            }
            Kind::Rate | Kind::Intensity => u.kind.field(),
            Kind::Time | Kind::Bytes => continue,
        };
        return with(field, Some(u), 2);
    }
    // The whole header is a unit: `GB`, `ms` (not one letter: `B` is more
    // likely a dimension than bytes).
    if squashed.chars().count() > 1 {
        if let Some(u) = units::unit(&squashed) {
            return with(u.kind.field(), Some(u), 2);
        }
    }
    if squashed == "arithmeticintensity" {
        return with(Field::Intensity, None, 2);
    }
    // Keywords, with a unit after them (`time_ms`) or glued on (`timems`).
    // A profiler's metric name (`sm__ops_path_tensor_…`) is never read as
    // an operation or its sizes.
    let metric = lower.contains("__");
    for (field, words, strength) in KEYWORDS {
        if metric && matches!(field, Field::Op | Field::Sizes) {
            continue;
        }
        for (i, tok) in tokens.iter().enumerate() {
            let glued = words.iter().find_map(|w| {
                let rest = tok.strip_prefix(w)?;
                if rest.is_empty() {
                    Some(None)
                } else {
                    units::unit(rest).and_then(|u| u.read_as(field)).map(Some)
                }
            });
            let Some(glued) = glued else { continue };
            let after = tokens
                .get(i + 1..)
                .unwrap_or(&[])
                .iter()
                .filter(|t| !words.contains(t))
                .find_map(|t| units::unit(t).and_then(|u| u.read_as(field)));
            return with(field, glued.or(after), strength);
        }
    }
    // Last: a time or bytes unit anywhere (`kernel_ms`, `dram_gb`).
    for tok in tokens.iter().rev() {
        if let Some(u) = units::unit(tok).filter(|u| matches!(u.kind, Kind::Time | Kind::Bytes)) {
            if tok.len() > 1 {
                return with(u.kind.field(), Some(u), 1);
            }
        }
    }
    // Unknown: ignored, keeping a bracketed unit for the user's mapping.
    Guess {
        unit: bracket_unit,
        ..IGNORE
    }
}

/// The columns of `headers`: guessed, then the user's `mapping`, then one
/// column per field (the strongest guess, or the first; the user's choice
/// beats a guess), with a note for each column left out.
pub(super) fn map_columns(
    headers: &[String],
    mapping: &[Choice],
    notes: &mut Vec<String>,
) -> (Vec<Column>, Vec<Option<Unit>>) {
    map_guessed(
        headers,
        headers.iter().map(|h| guess(h)).collect(),
        mapping,
        notes,
    )
}

/// [`map_columns`] with the headers' `guesses` already made (a JSON list's
/// columns are mapped again as keys appear; each key is guessed once).
pub(super) fn map_guessed(
    headers: &[String],
    guesses: Vec<Guess>,
    mapping: &[Choice],
    notes: &mut Vec<String>,
) -> (Vec<Column>, Vec<Option<Unit>>) {
    let guesses = resolve(headers, guesses, mapping, Some(notes));
    let columns = headers
        .iter()
        .zip(&guesses)
        .map(|(h, g)| Column {
            header: h.clone(),
            field: g.field,
            unit: g.unit.map_or(String::new(), |u| u.symbol.to_string()),
        })
        .collect();
    (columns, guesses.iter().map(|g| g.unit).collect())
}

/// The headers' `guesses` made final: the user's `mapping` applied, then
/// one column per field (the strongest guess, or the first; the user's
/// choice beats a guess), the others ignored, each with a note when `notes`
/// is given.
pub(super) fn resolve(
    headers: &[String],
    mut guesses: Vec<Guess>,
    mapping: &[Choice],
    mut notes: Option<&mut Vec<String>>,
) -> Vec<Guess> {
    if !mapping.is_empty() {
        for (h, g) in headers.iter().zip(guesses.iter_mut()) {
            if let Some(&(_, field)) = mapping.iter().find(|(m, _)| m == h) {
                g.field = field;
                g.strength = u8::MAX;
                g.unit = g.unit.and_then(|u| u.read_as(field));
            }
        }
    }
    // One column per field.
    for field in Field::ALL {
        if field == Field::Ignore {
            continue;
        }
        let same: Vec<usize> = (0..guesses.len())
            .filter(|&i| guesses.get(i).is_some_and(|g| g.field == field))
            .collect();
        if same.len() < 2 {
            continue;
        }
        let mut best = same.first().copied().unwrap_or(0);
        for &i in &same {
            let s = |k: usize| guesses.get(k).map_or(0, |g| g.strength);
            if s(i) > s(best) {
                best = i;
            }
        }
        for &i in &same {
            if i == best {
                continue;
            }
            if let Some(g) = guesses.get_mut(i) {
                *g = IGNORE;
            }
            let Some(notes) = notes.as_deref_mut() else {
                continue;
            };
            let name = |k: usize| {
                headers
                    .get(k)
                    .and_then(|h| quote(h))
                    .map_or(format!("column {}", k + 1), |h| format!("'{h}'"))
            };
            notes.push(format!(
                "Two columns look like {}: {} is used and {} is not (choose another in the mapping).",
                field.label(),
                name(best),
                name(i)
            ));
        }
    }
    rate_by_data(headers, &mut guesses, notes);
    guesses
}

/// Whether header `h` is a scaled plural of FLOP (`TFLOPS`, `GFLOPS`),
/// as people write a rate; a bare `flops` is as often a count.
pub(super) fn scaled_plural(h: &str) -> bool {
    let lower = h.trim().to_lowercase();
    let stem = split_bracket(&lower).0.trim();
    stem.strip_suffix("flops")
        .is_some_and(|p| matches!(p, "k" | "m" | "g" | "t" | "p" | "e"))
}

/// A FLOP column headed as people write a rate (`TFLOPS`, `GFLOPS`, not
/// a bare `flops`) beside an intensity, in a table with no time, bytes or
/// FLOP/s column: the data can only mean a rate, so it is read as one, and
/// a note says so and how to choose the other.
fn rate_by_data(headers: &[String], guesses: &mut [Guess], notes: Option<&mut Vec<String>>) {
    let has = |f: Field| guesses.iter().any(|g| g.field == f);
    // Only an intensity beside it: a rate places the kernel, a count
    // does not say when it ran.
    if has(Field::Time) || has(Field::Rate) || has(Field::Bytes) || !has(Field::Intensity) {
        return;
    }
    let looks = |h: &String| scaled_plural(h);
    let Some(i) = (0..guesses.len()).find(|&i| {
        guesses
            .get(i)
            .is_some_and(|g| g.field == Field::Flops && g.strength < u8::MAX)
            && headers.get(i).is_some_and(looks)
    }) else {
        return;
    };
    if let Some(g) = guesses.get_mut(i) {
        g.field = Field::Rate;
        g.unit = g.unit.and_then(|u| u.read_as(Field::Rate));
    }
    if let (Some(notes), Some(h)) = (notes, headers.get(i).and_then(|h| quote(h))) {
        notes.push(format!(
            "'{h}' is read as FLOP/s, a rate: the table has no time column. If it counts operations, choose FLOPs for it in the mapping and add a time."
        ));
    }
}
