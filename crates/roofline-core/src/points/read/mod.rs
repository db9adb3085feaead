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
//!
//! The reading starts here ([`start`], [`Progress::more`]); the format's own
//! reading is in `delimited.rs` (CSV, TSV) and `json/` (JSON). Both share:
//! `headers.rs`, each column's field and unit guessed from its header and
//! the user's mapping applied; `plan.rs`, which column gives which field;
//! `cells.rs`, a cell read as a number, in limits, or as sizes; and
//! `rows.rs`, a row's cells made into a kernel.

mod by_roof;
mod cells;
mod delimited;
mod headers;
mod jax;
mod json;
mod measured;
mod ncu;
mod plan;
mod profiler;
mod rows;
mod xprof;

pub use by_roof::{rate_by_roof, RateByRoof, RATE_BY_ROOF};
use cells::Cell;
use headers::{guess, map_columns, map_guessed, resolve, Guess};
use plan::Plan;
use rows::{finish, left_out, Reader};

use super::{At, Field, Kernel, RowError};
use crate::format;

/// The input's format, as detected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Comma-separated values (also `;`-separated).
    Csv,
    /// Tab-separated values.
    Tsv,
    /// A JSON list of objects, or an object holding one.
    Json,
    /// Nsight Compute's CSV, the default page (one row per kernel and
    /// metric).
    NcuLong,
    /// Nsight Compute's CSV, `--page raw` (one row per kernel, a units row).
    NcuRaw,
    /// JAX's `cost_analysis()` as printed (a Python dict or list, or JSON).
    JaxCost,
    /// XProf's Roofline Model tool, exported as CSV.
    XprofCsv,
}

impl Format {
    /// Whether it is a profiler's own export (read by its own rules, not
    /// by the mapping).
    pub fn is_profiler(self) -> bool {
        !matches!(self, Format::Csv | Format::Tsv | Format::Json)
    }

    /// The format's name as the preview shows it.
    pub fn name(self) -> &'static str {
        match self {
            Format::Csv => "CSV",
            Format::Tsv => "TSV",
            Format::Json => "JSON",
            Format::NcuLong => "Nsight Compute CSV (default page)",
            Format::NcuRaw => "Nsight Compute CSV (raw page)",
            Format::JaxCost => "JAX cost_analysis()",
            Format::XprofCsv => "XProf roofline table (CSV)",
        }
    }
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

/// The largest input read, in bytes: room for Nsight Compute's default
/// page, a line per kernel and metric (ten thousand kernels with five
/// metrics and real names are about 12 MB).
pub const MAX_BYTES: usize = 16_000_000;
/// The most rows read.
pub const MAX_ROWS: usize = 20_000;
/// The most keys of a JSON list read as columns (a CSV or TSV header is
/// read whole).
pub const MAX_KEYS: usize = 1_000;

/// The time limits are the units' (a typed time is held to them too).
pub use super::units::{MAX_TIME, MIN_TIME};
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
    Profiler(profiler::Rest),
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
                Rest::Profiler(r) => profiler::more(text, reading, r, rows).map(Rest::Profiler),
            };
        }
    }
}

/// Starts reading `text` (`mapping` as for [`read`]): the columns and the
/// first `rows` rows; [`Progress::more`] reads on.
pub fn start(text: &str, mapping: &[Choice], rows: usize) -> Progress {
    start_as(text, mapping, rows, false)
}

/// The profiler export `text` is, by its format ([`Format::NcuLong`], …);
/// `None` when it is a plain table (or nothing).
pub fn profiler_format(text: &str) -> Option<Format> {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    profiler::start(body, 0).and_then(|(r, _)| r.format)
}

/// [`start`], or, when `plain`, `text` read as a plain table (CSV, TSV,
/// JSON) even when it is a profiler's export, so that its columns can be
/// mapped by hand.
pub fn start_as(text: &str, mapping: &[Choice], rows: usize, plain: bool) -> Progress {
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
    if let Some((reading, rest)) = (!plain).then(|| profiler::start(body, rows)).flatten() {
        return Progress {
            reading,
            skip,
            rest: rest.map(Rest::Profiler),
        };
    }
    // Nsight Compute's printed text (its summary, its report without
    // --csv) is no table: the message says how to export one.
    if let Some(message) = (!plain).then(|| ncu::printed(body)).flatten() {
        return done(Reading {
            errors: vec![input_error(message)],
            ..Reading::default()
        });
    }
    // Read as a plain table, a profiler's export starts at its header:
    // the lines before it (`==PROF==`) are the profiler's own.
    let table = if plain { ncu::table_start(body) } else { 0 };
    let (body, skip) = match body.get(table..) {
        Some(b) if table > 0 => (b, skip + table),
        _ => (body, skip),
    };
    let (mut reading, rest) = if first.starts_with(['[', '{']) {
        let (reading, rest) = json::start(body, mapping, rows);
        (reading, rest.map(Rest::Json))
    } else {
        let (reading, rest) = delimited::start(body, mapping, rows, table > 0);
        (reading, rest.map(Rest::Delimited))
    };
    if table > 0 {
        reading.notes.insert(
            0,
            "The lines before the profiler's header are left out; line numbers count from the header.".to_string(),
        );
    }
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
