//! Reading a pasted or dropped table (CSV, TSV or JSON) into kernels: the
//! format detected, each column's field guessed from its header (the user
//! may override it), units read from headers and cells, and a message for
//! each row that cannot be placed.
//!
//! The rules (header names, units, how a kernel is derived, the limits) are
//! written for users in `docs/measurements.md`; in short:
//!
//! * A first non-space character `[` or `{` means JSON; a tab in the first
//!   line TSV; otherwise CSV (`;`-separated when the first line has `;` and
//!   no `,`). Lines starting with `#` are comments.
//! * Headers are matched case-insensitively, ignoring spaces, `_`, `-` and
//!   `.`. A FLOP word alone (`flops`, `tflop`, `gflops`) is a **count**; a
//!   rate says so: `flop/s`, `tflops/s`, `flops_per_s(ec)`, `flop_s`,
//!   `throughput`, or a FLOP word next to `achieved` / `attained`.
//! * Each kernel needs FLOP/s and an intensity: FLOPs = FLOPs, else FLOP/s ×
//!   time, else the operation's count at its sizes; bytes = bytes, else the
//!   operation's bytes, else FLOPs ÷ intensity; FLOP/s = FLOP/s, else
//!   FLOPs ÷ time; intensity = intensity, else FLOPs ÷ bytes.

mod delimited;
mod json;

use serde_json::{Map, Value};

use super::units::{self, Kind, Problem, Unit};
use super::{At, Field, Kernel, RowError};
use crate::format;
use crate::num::parse_f64_std;
use crate::op::{Operation, Sizes};
use crate::small::Join;

/// The input's format, as detected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Comma-separated values (also `;`-separated).
    Csv,
    /// Tab-separated values.
    Tsv,
    /// A JSON list of objects, or an object holding one.
    Json,
}

/// A column of the input as mapped.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// Its header as written (a JSON key).
    pub header: String,
    /// What it is read as: guessed from the header, or the user's choice.
    pub field: Field,
    /// The unit read from the header, as shown (`ms`, `GB`); empty for none.
    pub unit: String,
}

/// Everything read from an input.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Reading {
    /// The format detected; `None` for an empty or unreadable input.
    pub format: Option<Format>,
    /// The columns, in order, with their mapping.
    pub columns: Vec<Column>,
    /// The rows that could be placed, in input order.
    pub kernels: Vec<Kernel>,
    /// The rows (or the input) that could not, in input order.
    pub errors: Vec<RowError>,
    /// Remarks that are not errors: "the time column mixes ms and µs; each
    /// cell is read in its own unit".
    pub notes: Vec<String>,
}

/// The largest input read, in bytes.
pub const MAX_BYTES: usize = 2_000_000;
/// The most rows read.
pub const MAX_ROWS: usize = 20_000;
/// The most keys of a JSON list read as columns (a CSV or TSV header is
/// read whole).
pub const MAX_KEYS: usize = 1_000;

/// The shortest time read, in seconds (1 ps): below it a row is refused.
pub const MIN_TIME: f64 = 1e-12;
/// The longest time read, in seconds (about 11.6 days).
pub const MAX_TIME: f64 = 1e6;
/// The most FLOPs one kernel may do.
pub const MAX_FLOPS: f64 = 1e24;
/// The most bytes one kernel may move.
pub const MAX_MOVED: f64 = 1e20;
/// The highest throughput read, FLOP/s (10 EFLOP/s).
pub const MAX_RATE: f64 = 1e19;
/// The lowest arithmetic intensity read, FLOPs/byte.
pub const MIN_INTENSITY: f64 = 1e-6;
/// The highest arithmetic intensity read, FLOPs/byte.
pub const MAX_INTENSITY: f64 = 1e9;

/// The longest name kept, in characters (longer ones are clipped).
const NAME_CHARS: usize = 80;
/// The longest cell quoted in a message, in characters.
const QUOTE_CHARS: usize = 40;

/// A user's choice of what a column holds, by the column's header (every
/// column with that header).
pub type Choice = (String, Field);

/// Reads `text`; `mapping` overrides the guessed field of the columns it
/// names (by index). Never panics.
pub fn read(text: &str, mapping: &[Choice]) -> Reading {
    start(text, mapping, usize::MAX).into_reading()
}

/// A reading that can stop after some rows and go on later, so that a
/// large table is read a slice at a time and no frame of the page waits
/// for all of it. Read in any number of slices, a table gives the same
/// [`Reading`] as [`read`] gives in one.
pub struct Progress {
    /// What is read so far.
    reading: Reading,
    /// Bytes skipped at the text's start (a byte-order mark).
    skip: usize,
    /// Where the reading stopped; `None` once it is done.
    rest: Option<Rest>,
}

/// Where a reading stopped, by format.
enum Rest {
    Delimited(delimited::Rest),
    Json(json::Rest),
}

impl Progress {
    /// What is read so far (all of it once [`Progress::done`]).
    pub fn reading(&self) -> &Reading {
        &self.reading
    }

    /// The reading, whether done or not.
    pub fn into_reading(self) -> Reading {
        self.reading
    }

    /// Whether the whole text is read.
    pub fn done(&self) -> bool {
        self.rest.is_none()
    }

    /// Reads up to `rows` more rows (at least one, so that a loop of calls
    /// always ends) of `text`, which must be the text given to [`start`]
    /// (another text gives rows that mean nothing, but never a panic). Does
    /// nothing once done.
    pub fn more(&mut self, text: &str, rows: usize) {
        if let Some(rest) = self.rest.take() {
            let text = text.get(self.skip..).unwrap_or("");
            let (reading, rows) = (&mut self.reading, rows.max(1));
            self.rest = match rest {
                Rest::Delimited(r) => delimited::more(text, reading, r, rows).map(Rest::Delimited),
                Rest::Json(r) => json::more(text, reading, r, rows).map(Rest::Json),
            };
        }
    }
}

/// Starts reading `text` (`mapping` as for [`read`]): the columns and the
/// first `rows` rows; [`Progress::more`] reads on.
pub fn start(text: &str, mapping: &[Choice], rows: usize) -> Progress {
    let done = |reading: Reading| Progress {
        reading,
        skip: 0,
        rest: None,
    };
    if text.len() > MAX_BYTES {
        return done(Reading {
            errors: vec![input_error(format!(
                "The input is {}; the limit is {}. Split it or keep the kernels that matter.",
                format::bytes(text.len() as f64),
                format::bytes(MAX_BYTES as f64)
            ))],
            ..Reading::default()
        });
    }
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let skip = text.len() - body.len();
    let first = body.trim_start();
    if first.is_empty() {
        return done(Reading::default());
    }
    let (reading, rest) = if first.starts_with(['[', '{']) {
        let (reading, rest) = json::start(body, mapping, rows);
        (reading, rest.map(Rest::Json))
    } else {
        let (reading, rest) = delimited::start(body, mapping, rows);
        (reading, rest.map(Rest::Delimited))
    };
    Progress {
        reading,
        skip,
        rest,
    }
}

fn input_error(message: String) -> RowError {
    RowError {
        at: At::Input,
        message,
    }
}

// ---------------------------------------------------------------------------
// Text a user wrote, in messages.

/// Whether `s` would put "NaN" or "inf" (in any case) into a message.
fn unsafe_text(s: &str) -> bool {
    let b = s.as_bytes();
    b.windows(3)
        .any(|w| w.eq_ignore_ascii_case(b"nan") || w.eq_ignore_ascii_case(b"inf"))
}

/// User text clipped for a message, or `None` when it would show "NaN" or
/// "inf" (the app's messages never do).
fn quote(s: &str) -> Option<String> {
    let c = format::clip(s.trim(), QUOTE_CHARS);
    (!unsafe_text(&c)).then_some(c)
}

/// ` ('cell')`, or nothing when the cell cannot be shown.
fn quoted(s: &str) -> String {
    quote(s).map_or(String::new(), |q| format!(" ('{q}')"))
}

/// Numbers written in thousands: `25,000`.
fn count(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

// ---------------------------------------------------------------------------
// Headers.

/// A header's guessed field and unit; `strength` breaks ties between two
/// columns guessed as the same field (`kernel name` beats `id`).
#[derive(Debug, Clone, Copy)]
struct Guess {
    field: Field,
    unit: Option<Unit>,
    strength: u8,
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
fn guess(header: &str) -> Guess {
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
    // Names first: `kernel name`, `op name`.
    if tokens.iter().any(|t| matches!(*t, "name" | "names")) {
        return with(Field::Name, None, 3);
    }
    if tokens.contains(&"label") || matches!(squashed.as_str(), "kernel" | "kernels" | "function") {
        return with(Field::Name, None, 2);
    }
    if squashed == "id" {
        return with(Field::Name, None, 1);
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
    for (field, words, strength) in KEYWORDS {
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
fn map_columns(
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
fn map_guessed(
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
fn resolve(
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
    guesses
}

// ---------------------------------------------------------------------------
// The plan: which column gives which field.

/// A column used for a field.
#[derive(Debug, Clone)]
struct Col {
    index: usize,
    /// How messages name it: its header, or the field's label.
    label: String,
    /// The header's unit (cells without a unit are read in it).
    unit: Option<Unit>,
    /// The units its cells were read in, for the note on mixed units.
    seen: Vec<&'static str>,
    /// The last unit text read in a cell, and its unit (a column's cells
    /// mostly repeat one).
    cache: (String, Option<Unit>),
}

#[derive(Debug, Default)]
struct Plan {
    name: Option<Col>,
    flops: Option<Col>,
    bytes: Option<Col>,
    time: Option<Col>,
    rate: Option<Col>,
    intensity: Option<Col>,
    op: Option<Col>,
    sizes: Option<Col>,
}

impl Plan {
    fn new(columns: &[Column], header_units: &[Option<Unit>]) -> Plan {
        let mut plan = Plan::default();
        for (index, c) in columns.iter().enumerate() {
            let label = quote(&c.header)
                .filter(|h| !h.is_empty())
                .unwrap_or_else(|| c.field.label().to_string());
            let col = Col {
                index,
                label,
                unit: header_units.get(index).copied().flatten(),
                seen: Vec::new(),
                cache: (String::new(), None),
            };
            let slot = match c.field {
                Field::Ignore => continue,
                Field::Name => &mut plan.name,
                Field::Flops => &mut plan.flops,
                Field::Bytes => &mut plan.bytes,
                Field::Time => &mut plan.time,
                Field::Rate => &mut plan.rate,
                Field::Intensity => &mut plan.intensity,
                Field::Op => &mut plan.op,
                Field::Sizes => &mut plan.sizes,
            };
            if slot.is_none() {
                *slot = Some(col);
            }
        }
        plan
    }

    /// What no row can have, given the columns: `None` when every need can
    /// be met by some row.
    fn missing(&self) -> Option<String> {
        let flops = self.flops.is_some()
            || self.op.is_some()
            || (self.rate.is_some() && self.time.is_some());
        let bytes = self.bytes.is_some() || self.op.is_some();
        let rate = self.rate.is_some() || (flops && self.time.is_some());
        let intensity = self.intensity.is_some() || (flops && bytes);
        let mut lacks = Vec::new();
        if !rate {
            lacks.push(if self.time.is_none() {
                "time or FLOP/s"
            } else {
                "FLOPs, FLOP/s or an operation with sizes"
            });
        }
        if !intensity {
            lacks.push(if flops {
                "bytes, an intensity or an operation with sizes"
            } else {
                "FLOPs (or an operation with sizes) with bytes, or an intensity"
            });
        }
        if lacks.is_empty() {
            return None;
        }
        Some(format!(
            "No column gives {}. Each kernel needs its FLOP/s (or FLOPs and a time) and its intensity (or FLOPs and bytes): name the columns (e.g. name, flops, bytes, time_ms) or choose what each holds in the mapping.",
            lacks.joined("; nor ")
        ))
    }

    /// Notes on columns whose cells mixed units.
    fn mixed_notes(&self, notes: &mut Vec<String>) {
        let cols = [
            (&self.flops, Field::Flops),
            (&self.bytes, Field::Bytes),
            (&self.time, Field::Time),
            (&self.rate, Field::Rate),
            (&self.intensity, Field::Intensity),
        ];
        for (col, field) in cols {
            if let Some(c) = col {
                if c.seen.len() > 1 {
                    let list = match c.seen.split_last() {
                        Some((last, first)) => format!("{} and {last}", first.joined(", ")),
                        None => String::new(),
                    };
                    notes.push(format!(
                        "the {} column mixes {list}; each cell is read in its own unit",
                        field.label()
                    ));
                }
            }
        }
    }
}

/// A cell of a row, from CSV text or a JSON value.
#[derive(Debug, Clone, Copy)]
enum Cell<'a> {
    Empty,
    Text(&'a str),
    Num(f64),
    Object(&'a Map<String, Value>),
    /// A JSON value that is neither (a list, `true`), in words.
    Other(&'static str),
}

impl<'a> Cell<'a> {
    fn of_text(s: &'a str) -> Cell<'a> {
        if s.trim().is_empty() {
            Cell::Empty
        } else {
            Cell::Text(s)
        }
    }
}

/// A cell as quoted in a message.
fn shown(cell: Cell<'_>) -> String {
    match cell {
        Cell::Text(s) => quoted(s),
        Cell::Num(x) => format!(" ({})", format::plain_number(x)),
        Cell::Empty | Cell::Object(_) | Cell::Other(_) => String::new(),
    }
}

/// Limits of each kind, in base units: (least, most).
fn limits(kind: Kind) -> (f64, f64) {
    match kind {
        Kind::Time => (MIN_TIME, MAX_TIME),
        Kind::Bytes => (0.0, MAX_MOVED),
        Kind::Flops => (0.0, MAX_FLOPS),
        Kind::Rate => (0.0, MAX_RATE),
        Kind::Intensity => (MIN_INTENSITY, MAX_INTENSITY),
    }
}

/// A value of `kind` in base units for a limit message: `2e7 s`.
fn show_plain(kind: Kind, x: f64) -> String {
    let unit = match kind {
        Kind::Time => "s",
        Kind::Bytes => "bytes",
        Kind::Flops => "FLOPs",
        Kind::Rate => "FLOP/s",
        Kind::Intensity => "FLOPs/byte",
    };
    format!("{} {unit}", format::plain_number(x))
}

/// Checks a value in base units against the limits of `kind`; `what`
/// names it in the message.
fn in_limits(kind: Kind, x: f64, what: &str) -> Result<f64, String> {
    let (least, most) = limits(kind);
    if !x.is_finite() {
        return Err(format!("{what} is too large"));
    }
    if x > most {
        return Err(format!(
            "{what} is {}, above the limit of {}; check its unit",
            show_plain(kind, x),
            show_plain(kind, most)
        ));
    }
    if x <= 0.0 {
        return Err(format!("{what} is not positive"));
    }
    if x < least {
        return Err(format!(
            "{what} is {}, below the limit of {}; check its unit",
            show_plain(kind, x),
            show_plain(kind, least)
        ));
    }
    Ok(x)
}

/// [`units::quantity`], remembering the last unit read in `cache`.
fn quantity<'s>(
    s: &'s str,
    cache: &mut (String, Option<Unit>),
) -> Result<(f64, Option<Unit>), Problem<'s>> {
    if let Some((x, rest)) = units::split_quantity(s) {
        if rest.is_empty() {
            return Ok((x, None));
        }
        if let (true, Some(u)) = (cache.0 == rest, cache.1) {
            return Ok((x, Some(u)));
        }
        if let Some(u) = units::unit(rest) {
            cache.0.clear();
            cache.0.push_str(rest);
            cache.1 = Some(u);
        }
    }
    units::quantity(s)
}

/// Reads a numeric cell of column `col` (of `kind`) in base units; `None`
/// for an empty cell.
fn value(cell: Cell<'_>, col: &mut Col, kind: Kind) -> Result<Option<f64>, String> {
    let label = &col.label;
    let field = kind.field();
    let (x, unit) = match cell {
        Cell::Empty => return Ok(None),
        Cell::Num(x) => (x, None),
        Cell::Text(s) => match quantity(s, &mut col.cache) {
            Ok((x, None)) => (x, None),
            Ok((x, Some(u))) => match u.read_as(field) {
                Some(u) => (x, Some(u)),
                None => {
                    return Err(format!(
                        "{label}{} is in {}, a unit of {}, not {}",
                        quoted(s),
                        u.symbol,
                        u.kind.noun(),
                        kind.noun()
                    ))
                }
            },
            Err(Problem::NotANumber) => return Err(format!("{label} is not a number{}", quoted(s))),
            Err(Problem::Comma) => {
                return Err(format!(
                    "{label}{} has a comma; write numbers with a decimal point and no thousands separators",
                    quoted(s)
                ))
            }
            Err(Problem::UnknownUnit(u)) => {
                let unit = quote(u).map_or(String::new(), |u| format!(" '{u}'"));
                return Err(format!(
                    "{label}{} has a unit{unit} that is not known; use {}",
                    quoted(s),
                    kind.examples()
                ));
            }
        },
        Cell::Object(_) | Cell::Other(_) => {
            let what = match cell {
                Cell::Other(w) => w,
                _ => "an object",
            };
            return Err(format!("{label} is not a number ({what})"));
        }
    };
    if x.is_nan() {
        return Err(format!("{label} is not a number"));
    }
    if x.is_infinite() {
        return Err(format!("{label} is too large"));
    }
    if x < 0.0 {
        return Err(format!("{label} is negative{}", shown(cell)));
    }
    if x == 0.0 {
        return Err(format!("{label} is zero{}", shown(cell)));
    }
    let unit = unit.or(col.unit).unwrap_or_else(|| kind.base());
    if !col.seen.contains(&unit.symbol) && col.seen.len() < 6 {
        col.seen.push(unit.symbol);
    }
    let v = unit.to_base(x);
    in_limits(kind, v, label).map(Some)
}

/// Reads sizes: `B=8 D=4096 F=4096` (separated by spaces, `,` or `;`;
/// `:` also works for `=`), or a JSON object `{"B": 8, ...}`.
fn sizes_of(cell: Cell<'_>, label: &str) -> Result<Sizes, String> {
    let mut out = Sizes::new();
    let bad = |v: &str| {
        format!(
            "{label}: {} is not a positive number (write B=8 D=4096)",
            quote(v).map_or("a size".to_string(), |v| format!("'{v}'"))
        )
    };
    match cell {
        Cell::Empty => {}
        Cell::Text(text) => {
            let sep = |c: char| c.is_whitespace() || c == ',' || c == ';';
            let mut rest = text;
            loop {
                rest = rest.trim_start_matches(sep);
                if rest.is_empty() {
                    break;
                }
                let end = rest
                    .find(|c: char| c == '=' || c == ':' || sep(c))
                    .unwrap_or(rest.len());
                let name = rest.get(..end).unwrap_or("");
                rest = rest.get(end..).unwrap_or("").trim_start();
                let Some(r) = rest.strip_prefix(['=', ':']) else {
                    return Err(format!(
                        "{label}: {} is not name=value (write B=8 D=4096)",
                        quote(name).map_or("a part".to_string(), |n| format!("'{n}'"))
                    ));
                };
                rest = r.trim_start();
                let end = rest.find(sep).unwrap_or(rest.len());
                let v = rest.get(..end).unwrap_or("");
                rest = rest.get(end..).unwrap_or("");
                if name.is_empty() {
                    return Err(format!("{label}: a size has no name (write B=8 D=4096)"));
                }
                match parse_f64_std(v) {
                    Some(x) if x.is_finite() && x > 0.0 => {
                        out.insert(name.to_string(), x);
                    }
                    _ => return Err(bad(v)),
                }
            }
        }
        Cell::Object(m) => {
            for (k, v) in m {
                match v.as_f64() {
                    Some(x) if x.is_finite() && x > 0.0 => {
                        out.insert(k.clone(), x);
                    }
                    _ => return Err(bad(k)),
                }
            }
        }
        Cell::Num(_) | Cell::Other(_) => {
            return Err(format!("{label} should be like B=8 D=4096"));
        }
    }
    Ok(out)
}

/// What a row reads into, before the kernel is derived.
struct Row<'a> {
    name: Option<String>,
    flops: Option<f64>,
    bytes: Option<f64>,
    time: Option<f64>,
    rate: Option<f64>,
    intensity: Option<f64>,
    op: Option<&'a str>,
    sizes: Cell<'a>,
}

/// The state kept across rows.
struct Reader {
    plan: Plan,
    /// The last operation read, by its text (rows often repeat one).
    last_op: Option<(String, Result<Operation, String>)>,
}

impl Reader {
    /// Reads one row (`cell(i)` gives column `i`), the `n`-th data row.
    fn row<'c>(&mut self, cell: impl Fn(usize) -> Cell<'c>, n: usize) -> Result<Kernel, String> {
        let get = |c: &Option<Col>| c.as_ref().map_or(Cell::Empty, |c| cell(c.index));
        let name_cell = get(&self.plan.name);
        let op_cell = get(&self.plan.op);
        let sizes_cell = get(&self.plan.sizes);
        let (fc, bc, tc, rc, ic) = (
            get(&self.plan.flops),
            get(&self.plan.bytes),
            get(&self.plan.time),
            get(&self.plan.rate),
            get(&self.plan.intensity),
        );
        let mut problems: Vec<String> = Vec::new();
        let mut read = |c: Cell<'_>, col: &mut Option<Col>, kind: Kind| match col {
            Some(col) => value(c, col, kind).unwrap_or_else(|e| {
                problems.push(e);
                None
            }),
            None => None,
        };
        let flops = read(fc, &mut self.plan.flops, Kind::Flops);
        let bytes = read(bc, &mut self.plan.bytes, Kind::Bytes);
        let time = read(tc, &mut self.plan.time, Kind::Time);
        let rate = read(rc, &mut self.plan.rate, Kind::Rate);
        let intensity = read(ic, &mut self.plan.intensity, Kind::Intensity);
        let name = match name_cell {
            Cell::Text(s) => Some(format::clip(s.trim(), NAME_CHARS)),
            Cell::Num(x) => Some(format::plain_number(x)),
            _ => None,
        };
        let op = match op_cell {
            Cell::Text(s) => Some(s.trim()),
            Cell::Empty => None,
            _ => {
                problems.push(format!(
                    "{} should be an operation in the book's notation",
                    self.plan.op.as_ref().map_or("op", |c| c.label.as_str())
                ));
                None
            }
        };
        if !problems.is_empty() {
            return Err(problems.joined("; "));
        }
        let row = Row {
            name,
            flops,
            bytes,
            time,
            rate,
            intensity,
            op,
            sizes: sizes_cell,
        };
        self.derive(row, n)
    }

    /// The operation of `text`, parsed once for a run of rows.
    fn operation(&mut self, text: &str) -> Result<Operation, String> {
        if let Some((t, r)) = &self.last_op {
            if t == text {
                return r.clone();
            }
        }
        let r = Operation::parse(text).map_err(|e| {
            let m = e.to_string();
            if unsafe_text(&m) {
                "the operation could not be read".to_string()
            } else {
                format!("the operation could not be read: {m}")
            }
        });
        self.last_op = Some((text.to_string(), r.clone()));
        r
    }

    /// The kernel of a row (see the module documentation).
    fn derive(&mut self, row: Row<'_>, n: usize) -> Result<Kernel, String> {
        let t = row.time;
        let mut f = row.flops.or(match (row.rate, t) {
            (Some(r), Some(t)) => Some(r * t),
            _ => None,
        });
        let mut b = row.bytes;
        let need_op = f.is_none() || (b.is_none() && row.intensity.is_none());
        let op = match row.op {
            Some(text) => Some(self.operation(text)?),
            None => None,
        };
        let sizes_label = self
            .plan
            .sizes
            .as_ref()
            .map_or("sizes", |c| c.label.as_str());
        let sizes = sizes_of(row.sizes, sizes_label)?;
        if let (Some(op), true) = (&op, need_op) {
            let counts = op.counts(&sizes).map_err(|e| {
                let m = e.to_string();
                if unsafe_text(&m) {
                    "the operation's sizes are incomplete (write B=8 D=4096)".to_string()
                } else {
                    format!("operation: {m} (give it in the sizes, e.g. B=8 D=4096)")
                }
            })?;
            if f.is_none() {
                f = Some(in_limits(
                    Kind::Flops,
                    counts.flops,
                    "FLOPs of the operation",
                )?);
            }
            if b.is_none() {
                b = Some(in_limits(
                    Kind::Bytes,
                    counts.bytes(),
                    "bytes of the operation",
                )?);
            }
        }
        if b.is_none() {
            if let (Some(f), Some(i)) = (f, row.intensity) {
                b = Some(f / i);
            }
        }
        let rate = match (row.rate, f, t) {
            (Some(r), _, _) => Some(r),
            (None, Some(f), Some(t)) => {
                Some(in_limits(Kind::Rate, f / t, "FLOP/s (FLOPs ÷ time)")?)
            }
            _ => None,
        };
        let intensity = match (row.intensity, f, b) {
            (Some(i), _, _) => Some(i),
            (None, Some(f), Some(b)) => Some(in_limits(
                Kind::Intensity,
                f / b,
                "the intensity (FLOPs ÷ bytes)",
            )?),
            _ => None,
        };
        let mut lacks = Vec::new();
        if rate.is_none() {
            lacks.push(if t.is_none() {
                "a time (or FLOP/s) to place it"
            } else {
                "FLOPs (or FLOP/s, or an operation with sizes) with its time"
            });
        }
        if intensity.is_none() {
            lacks.push(if f.is_none() {
                "FLOPs with bytes, an intensity, or an operation with sizes"
            } else {
                "bytes, an intensity, or an operation with sizes"
            });
        }
        let (Some(rate), Some(intensity)) = (rate, intensity) else {
            return Err(format!("needs {}", lacks.joined("; it also needs ")));
        };
        let time = t
            .or_else(|| f.map(|f| f / rate))
            .filter(|t| t.is_finite() && *t > 0.0);
        let name = row
            .name
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| format!("row {n}"));
        Ok(Kernel {
            name: name.into(),
            intensity,
            rate,
            time,
        })
    }
}

/// The reader of the rows once the columns are known, or `None` (with one
/// error of the input) when no row could be placed with these columns.
fn finish(reading: &mut Reading, plan: Plan) -> Option<Reader> {
    if let Some(m) = plan.missing() {
        reading.errors.push(input_error(m));
        return None;
    }
    Some(Reader {
        plan,
        last_op: None,
    })
}

fn left_out(extra: usize) -> RowError {
    input_error(format!(
        "Only the first {} rows were read; {} more were left out. Split the input to read them.",
        count(MAX_ROWS),
        count(extra)
    ))
}
