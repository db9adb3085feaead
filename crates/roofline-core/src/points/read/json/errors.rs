//! Where a text that cannot be read fails: the line and column serde
//! would give (its depth limit included) and the message shown.

use super::{Rest, DEEP};
use crate::points::read::{input_error, unsafe_text, Format, Reading};
use crate::points::RowError;

/// The reading of a text that could not be read at byte `at`, placed as
/// serde places what it finds there (at the text's end: the column of its
/// last byte, 0 after a line break).
pub(super) fn fail(text: &str, reading: &mut Reading, at: usize, what: &str) -> Option<Rest> {
    let (line, column) = place(text, at);
    let column = column + usize::from(at < text.len());
    fail_line(reading, line, column, what)
}

/// The line of byte `at` (1-based) and the bytes before it on that line.
fn place(text: &str, at: usize) -> (usize, usize) {
    let before = text.as_bytes().get(..at).unwrap_or(text.as_bytes());
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    (line, before.len() - line_start)
}

/// The reading of a text that could not be read at a line and column.
fn fail_line(reading: &mut Reading, line: usize, column: usize, what: &str) -> Option<Rest> {
    *reading = Reading {
        format: Some(Format::Json),
        errors: vec![doc_error(line, column, what)],
        ..Reading::default()
    };
    None
}

/// [`fail`] for serde's error `e` reading a value at byte `at`, which had
/// `room` levels to open (our depth check's error is placed by
/// [`too_deep`]).
pub(super) fn fail_at(
    text: &str,
    reading: &mut Reading,
    at: usize,
    room: usize,
    e: &serde_json::Error,
) -> Option<Rest> {
    if e.is_data() && e.to_string().starts_with(DEEP) {
        return fail(text, reading, too_deep(text, at, room), DEEP);
    }
    // Serde counts lines and columns from `at`.
    let (line, before) = place(text, at);
    if e.line() > 1 {
        fail_line(reading, line + e.line() - 1, e.column(), &e.to_string())
    } else {
        fail_line(reading, line, before + e.column(), &e.to_string())
    }
}

/// The first `[` or `{` of the value at `at` that opens beyond `room`
/// levels (where serde stops for its depth limit); the text's end if none.
fn too_deep(text: &str, at: usize, room: usize) -> usize {
    let b = text.as_bytes();
    let (mut left, mut i, mut in_str) = (room, at, false);
    while let Some(&c) = b.get(i) {
        match (in_str, c) {
            (true, b'\\') => i += 1,
            (_, b'"') => in_str = !in_str,
            (false, b'[' | b'{') if left == 0 => return i,
            (false, b'[' | b'{') => left -= 1,
            (false, b']' | b'}') => left += 1,
            _ => {}
        }
        i += 1;
    }
    text.len()
}

/// The message for JSON that serde could not read at a line and column.
fn doc_error(line: usize, column: usize, what: &str) -> RowError {
    let what = what.split(" at line ").next().unwrap_or("");
    let what = if unsafe_text(what) { "not valid" } else { what };
    input_error(format!(
        "The JSON could not be read at line {line}, column {column}: {what}."
    ))
}
