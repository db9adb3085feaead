//! CSV and TSV, read with the csv crate a slice of rows at a time: after
//! each slice the reading stops at a record's first byte (the csv crate
//! says where, so a quoted cell's newline is never taken for a row's end),
//! and [`more`] starts a new csv reader there.

use csv::{ReaderBuilder, StringRecord};

use super::{finish, left_out, map_columns, Cell, Choice, Format, Plan, Reader, Reading, MAX_ROWS};
use crate::points::units;
use crate::points::{At, RowError};

/// Where a reading of CSV or TSV stopped, and what it carries on with.
pub(super) struct Rest {
    /// The byte offset of the next record (or of blank lines and comments
    /// before it).
    at: usize,
    /// The field separator.
    delimiter: u8,
    /// Data rows read so far (the `n` of "row n").
    n: usize,
    /// Rows beyond [`MAX_ROWS`], counted and left out.
    extra: usize,
    /// Line numbers of byte offsets.
    lines: LineCounter,
    /// The columns' reader.
    reader: Reader,
}

/// Nsight Compute's units of counts, in its units row.
const COUNT_UNITS: [&str; 6] = ["inst", "Kinst", "Minst", "Ginst", "cycle", "%"];

/// A csv reader of `bytes` with the app's settings.
fn csv_reader(delimiter: u8, bytes: &[u8]) -> csv::Reader<&[u8]> {
    ReaderBuilder::new()
        .delimiter(delimiter)
        .flexible(true)
        .comment(Some(b'#'))
        .has_headers(false)
        .from_reader(bytes)
}

/// The message for a record the csv crate could not read, starting at
/// byte `at` of the text.
fn csv_error(lines: &mut LineCounter, text: &str, at: usize, e: &csv::Error) -> RowError {
    let line = e
        .position()
        .map(|p| lines.line_at(text, at + usize::try_from(p.byte()).unwrap_or(usize::MAX)));
    RowError {
        at: line.map_or(At::Input, At::Line),
        message: "this line could not be read as CSV".to_string(),
    }
}

/// Reads the header (and a row of units under it), then up to `rows`
/// records; the [`Rest`] is `None` when the text is read to its end.
/// `export`: the text is a profiler's export (Nsight Compute's) read as a
/// plain table: its numbers have thousands separators, and its units row
/// has count units (`inst`) too.
pub(super) fn start(
    text: &str,
    mapping: &[Choice],
    rows: usize,
    export: bool,
) -> (Reading, Option<Rest>) {
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .unwrap_or("");
    let (format, delimiter) = if first.contains('\t') {
        (Format::Tsv, b'\t')
    } else if first.contains(';') && !first.contains(',') {
        (Format::Csv, b';')
    } else {
        (Format::Csv, b',')
    };
    let mut reading = Reading {
        format: Some(format),
        ..Reading::default()
    };
    let mut rdr = csv_reader(delimiter, text.as_bytes());
    let mut record = StringRecord::new();
    let mut lines = LineCounter::default();
    match rdr.read_record(&mut record) {
        Ok(true) => {}
        Ok(false) => return (reading, None),
        Err(e) => {
            reading.errors.push(csv_error(&mut lines, text, 0, &e));
            return (reading, None);
        }
    }
    // Cells are trimmed where they are read (the csv crate's own trimming
    // rebuilds every record, which is most of the reading time).
    let headers: Vec<String> = record.iter().map(|h| h.trim().to_string()).collect();
    let (mut columns, mut header_units) = map_columns(&headers, mapping, &mut reading.notes);
    // Where the data rows start: after the header, or after a row of units
    // under it (as Nsight Compute writes): every non-empty cell a unit.
    let mut at = byte(rdr.position());
    match rdr.read_record(&mut record) {
        Ok(true) => {
            let blank = |c: &str| c.trim().is_empty();
            let count = |c: &str| export && COUNT_UNITS.contains(&c.trim());
            let is_units = record.iter().any(|c| !blank(c))
                && record
                    .iter()
                    .all(|c| blank(c) || count(c) || units::unit(c).is_some());
            if is_units {
                for (i, c) in record.iter().enumerate() {
                    let (Some(col), Some(hu)) = (columns.get_mut(i), header_units.get_mut(i))
                    else {
                        continue;
                    };
                    if hu.is_none() {
                        if let Some(u) = units::unit(c).and_then(|u| u.read_as(col.field)) {
                            *hu = Some(u);
                            col.unit = u.symbol.to_string();
                        }
                    }
                }
                reading.notes.push(
                    "The line under the header gives units; it is read as units.".to_string(),
                );
                at = byte(rdr.position());
            }
        }
        Ok(false) => {}
        Err(e) => {
            reading.errors.push(csv_error(&mut lines, text, 0, &e));
            at = byte(rdr.position());
        }
    }
    reading.columns = columns;
    let mut plan = Plan::new(&reading.columns, &header_units);
    if export {
        plan.allow_thousands();
    }
    let Some(reader) = finish(&mut reading, plan) else {
        return (reading, None);
    };
    let rest = Rest {
        at,
        delimiter,
        n: 0,
        extra: 0,
        lines,
        reader,
    };
    let rest = more(text, &mut reading, rest, rows);
    (reading, rest)
}

/// Reads up to `rows` more records of `text` (the text `start` was given)
/// into `reading`; `None` when the text is read to its end, and then the
/// reading's closing messages (rows left out, mixed units) are added.
pub(super) fn more(text: &str, reading: &mut Reading, mut rest: Rest, rows: usize) -> Option<Rest> {
    // A new csv reader drops a byte-order mark at its start, as at a file's
    // start; one pass would keep a record's leading U+FEFF as text. Such a
    // slice starts one byte earlier, on the line end before it (a blank line).
    let bom = text
        .as_bytes()
        .get(rest.at..)
        .is_some_and(|b| b.starts_with(b"\xEF\xBB\xBF"));
    let at = if bom && rest.at > 0 {
        rest.at - 1
    } else {
        rest.at
    };
    let mut rdr = csv_reader(rest.delimiter, text.as_bytes().get(at..).unwrap_or(&[]));
    let mut record = StringRecord::new();
    let mut records = 0usize;
    loop {
        if records >= rows {
            rest.at = at + byte(rdr.position());
            return Some(rest);
        }
        records += 1;
        match rdr.read_record(&mut record) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                reading
                    .errors
                    .push(csv_error(&mut rest.lines, text, at, &e));
                continue;
            }
        }
        if record.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        if rest.n >= MAX_ROWS {
            rest.extra += 1;
            continue;
        }
        rest.n += 1;
        let line = record.position().map_or(0, |p| {
            rest.lines
                .line_at(text, at + usize::try_from(p.byte()).unwrap_or(usize::MAX))
        });
        let rec = &record;
        match rest
            .reader
            .row(|i| Cell::of_text(rec.get(i).unwrap_or("")), rest.n)
        {
            Ok(k) => reading.kernels.push(k),
            Err(message) => reading.errors.push(RowError {
                at: At::Line(line),
                message,
            }),
        }
    }
    if rest.extra > 0 {
        reading.errors.push(left_out(rest.extra));
    }
    rest.reader.plan.mixed_notes(&mut reading.notes);
    None
}

/// A csv position's byte offset.
fn byte(p: &csv::Position) -> usize {
    usize::try_from(p.byte()).unwrap_or(usize::MAX)
}

/// 1-based line numbers of byte offsets, for offsets that only grow.
#[derive(Default)]
pub(super) struct LineCounter {
    /// The offset counted up to, and the newlines before it.
    at: usize,
    newlines: usize,
}

impl LineCounter {
    /// The line of the record the csv crate says starts at `byte`: its
    /// offset can be that of blank lines or comments before the record.
    fn line_at(&mut self, text: &str, byte: usize) -> usize {
        let b = text.as_bytes();
        let mut byte = byte.min(text.len());
        loop {
            match b.get(byte) {
                Some(b'\n') => byte += 1,
                Some(b'\r') if b.get(byte + 1) == Some(&b'\n') => byte += 2,
                Some(b'#') => {
                    let rest = b.get(byte..).unwrap_or(&[]);
                    byte += rest
                        .iter()
                        .position(|&c| c == b'\n')
                        .map_or(rest.len(), |i| i + 1);
                }
                _ => break,
            }
        }
        if byte < self.at {
            *self = LineCounter::default();
        }
        let gap = text.as_bytes().get(self.at..byte).unwrap_or(&[]);
        self.newlines += gap.iter().filter(|&&b| b == b'\n').count();
        self.at = byte;
        self.newlines + 1
    }
}
