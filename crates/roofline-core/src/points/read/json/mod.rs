//! JSON: a list of objects, or an object holding one, read with serde an
//! item at a time, so that a slice of items is read without the rest.
//!
//! Each item is read by serde where the one before it ended, straight into
//! its cells; the commas, brackets and a wrapping object's pairs between
//! items are walked here, with serde's words for what is wrong. Parts that
//! are not read (a list in a cell, the wrapper's other values, items past
//! the limit) are still read whole by serde, and the document's depth is
//! counted across items, so a text fails where and as serde reading the
//! whole document would fail (the tests compare the two).
//!
//! The columns are the keys in first-appearance order, so they are known
//! only once every item is read: a reading goes on with the keys seen so
//! far, and a new key that changes which column gives a field starts it
//! again from the first item (the keys stay known). A reading therefore
//! ends exactly as one reading of the whole list would, however it is
//! sliced; a list whose items share their keys, as a profiler writes them,
//! is read once.
//!
//! Here: where a reading stopped ([`Rest`]), the items read a slice at a
//! time and the columns learnt from their keys. `item.rs` has the serde
//! seeds that read an item into its cells (and check the parts not read);
//! `syntax.rs` the text walked between items (a wrapping object's pairs,
//! commas, brackets, white space); `errors.rs` where a text that cannot be
//! read fails, placed and worded as serde places and words it.

mod errors;
mod item;
mod syntax;

use std::borrow::Cow;
use std::collections::HashMap;

use serde::de::{DeserializeSeed, IgnoredAny};

use super::{
    finish, guess, input_error, left_out, map_guessed, resolve, Cell, Choice, Format, Guess, Plan,
    Reader, Reading, MAX_KEYS, MAX_ROWS,
};
use crate::points::{At, Field, RowError};
use errors::{fail, fail_at};
use item::{Check, Item, ItemSeed, JsonCell};
use syntax::{after_item, ends, skip_space, walk, Walk, Wrapper};

/// The message for a list in the wrong place or of the wrong shape.
const SHAPE: &str = "The JSON should be a list of objects, or an object with the list under kernels, points, rows or data.";

/// Lists and objects that may open in a document, nested, as serde_json
/// reads one (its limit of 128 levels: the 128th is refused).
const ROOM: usize = 127;

/// The word our depth check stops with (serde's own, for its limit).
const DEEP: &str = "recursion limit exceeded";

/// Where a reading of JSON stopped, and what it carries on with.
pub(super) struct Rest {
    /// Where the list's first item (or its `]`) is looked for.
    first: usize,
    /// Where the next item (or the list's `]`) is looked for.
    at: usize,
    /// Whether the list is in a wrapping object, whose pairs after the list
    /// are read when the list ends (else only white space may follow it).
    wrapped: bool,
    /// Lists and objects that may open in an item, its own included: the
    /// document's [`ROOM`] less the list and any wrapper.
    room: usize,
    /// Items walked since the reading (re)started (the `n` of "item n").
    n: usize,
    /// The keys seen, in first-appearance order: the columns.
    headers: Vec<String>,
    /// Each key's place in `headers`.
    seen: HashMap<String, usize>,
    /// Each header's guessed field and unit, made once.
    guesses: Vec<Guess>,
    /// The guesses made final (`resolve`): the field and unit each column
    /// is read as.
    resolved: Vec<Guess>,
    /// Whether the reading's columns and notes are behind the keys (they
    /// are made when a slice ends).
    stale: bool,
    /// Whether keys past [`MAX_KEYS`] were left out.
    too_many_keys: bool,
    /// The user's choices.
    mapping: Vec<Choice>,
    /// The columns' reader; `None` while the columns cannot place a row.
    reader: Option<Reader>,
    /// For each column, the item's cell (`usize::MAX` for none); kept to
    /// save an allocation per item.
    slots: Vec<usize>,
}

/// Starts reading: the list found (the pairs of a wrapping object before
/// it checked), then up to `rows` items; the [`Rest`] is `None` when all
/// are read.
pub(super) fn start(text: &str, mapping: &[Choice], rows: usize) -> (Reading, Option<Rest>) {
    let mut reading = Reading {
        format: Some(Format::Json),
        ..Reading::default()
    };
    let lead = skip_space(text, 0);
    let (first, wrapped) = match text.as_bytes().get(lead) {
        Some(b'[') => (lead + 1, false),
        Some(b'{') => match walk(text, &mut reading, lead + 1, true, &mut Wrapper::default()) {
            Walk::List(first) => (first, true),
            // No list in it: a single object is a list of one.
            Walk::End(_) => return (single(text, mapping), None),
            Walk::Failed => return (reading, None),
        },
        _ => {
            // Not a list or an object: serde says what is wrong, if anything.
            let mut de = serde_json::Deserializer::from_str(text);
            let checked = Check::skip(ROOM)
                .deserialize(&mut de)
                .and_then(|_| de.end());
            return match checked {
                Ok(()) => (shape(), None),
                Err(e) => {
                    fail_at(text, &mut reading, 0, ROOM, &e);
                    (reading, None)
                }
            };
        }
    };
    let rest = Rest {
        first,
        at: first,
        wrapped,
        room: ROOM - 1 - usize::from(wrapped),
        n: 0,
        headers: Vec::new(),
        seen: HashMap::new(),
        guesses: Vec::new(),
        resolved: Vec::new(),
        stale: false,
        too_many_keys: false,
        mapping: mapping.to_vec(),
        reader: None,
        slots: Vec::new(),
    };
    let rest = more(text, &mut reading, rest, rows);
    (reading, rest)
}

/// A document that is one object with no list in it, read as a list of
/// that one object (whole: it is one item).
fn single(text: &str, mapping: &[Choice]) -> Reading {
    let list = format!("[{text}]");
    let (mut reading, rest) = start(&list, mapping, usize::MAX);
    // Nothing usable in it (no key read as a measurement): not a kernel,
    // so the shape is what is wrong.
    let usable = !reading.kernels.is_empty() || reading.errors.iter().any(|e| e.at != At::Input);
    if rest.is_some() || !usable {
        return shape();
    }
    reading
        .notes
        .push("One object, read as a list of one kernel.".to_string());
    reading
}

/// The reading of a document that is JSON but not of the shape read.
fn shape() -> Reading {
    Reading {
        format: Some(Format::Json),
        errors: vec![input_error(SHAPE.to_string())],
        ..Reading::default()
    }
}

/// Reads up to `rows` more items of `text` (the text `start` was given)
/// into `reading`; `None` when the list is read to its end, and then the
/// reading's closing messages (no usable column, items left out, mixed
/// units) are added.
pub(super) fn more(text: &str, reading: &mut Reading, mut rest: Rest, rows: usize) -> Option<Rest> {
    for _ in 0..rows {
        let at = skip_space(text, rest.at);
        match text.as_bytes().get(at) {
            Some(b']') => return end(text, reading, rest, at + 1),
            None => return fail(text, reading, at, "EOF while parsing a list"),
            Some(_) => {}
        }
        let i = rest.n;
        // Past the limit, items are only checked and counted.
        if i >= MAX_ROWS {
            let ended = match value_at(text, at, Check::skip(rest.room)) {
                Ok((_, ended)) => ended,
                Err(e) => return fail_at(text, reading, at, rest.room, &e),
            };
            rest.n += 1;
            rest.at = match after_item(text, ended) {
                Ok(next) => next,
                Err((at, what)) => return fail(text, reading, at, what),
            };
            continue;
        }
        let (item, ended) = match value_at(text, at, ItemSeed { room: rest.room }) {
            Ok(read) => read,
            Err(e) => return fail_at(text, reading, at, rest.room, &e),
        };
        let next = match after_item(text, ended) {
            Ok(next) => next,
            Err((at, what)) => return fail(text, reading, at, what),
        };
        if let Item::Object(cells) = &item {
            if rest.learn(cells, reading) {
                // The columns changed: read again from the first item.
                rest.at = rest.first;
                rest.n = 0;
                continue;
            }
        }
        rest.n += 1;
        rest.at = next;
        rest.read(item, i, reading);
    }
    if rest.stale {
        rest.columns(reading);
    }
    Some(rest)
}

/// Reads one value of `text` at byte `at` with `seed`: the value, and the
/// byte just past it.
fn value_at<'a, S: DeserializeSeed<'a>>(
    text: &'a str,
    at: usize,
    seed: S,
) -> Result<(S::Value, usize), serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text.get(at..).unwrap_or(""));
    let value = seed.deserialize(&mut de)?;
    Ok((value, at + de.into_iter::<IgnoredAny>().byte_offset()))
}

impl Rest {
    /// Adds an item's new keys to the columns; whether the columns now
    /// place some field differently (then the rows read so far are read
    /// again). The reading's columns and notes follow the keys.
    fn learn(&mut self, cells: &[(Cow<'_, str>, JsonCell<'_>)], reading: &mut Reading) -> bool {
        let known = self.headers.len();
        let mut next = 0;
        for (k, _) in cells {
            if self.headers.get(next).is_some_and(|h| h == k) {
                next += 1;
            } else if let Some(&i) = self.seen.get(k.as_ref()) {
                next = i + 1;
            } else if self.headers.len() < MAX_KEYS {
                self.seen.insert(k.to_string(), self.headers.len());
                self.headers.push(k.to_string());
                self.guesses.push(guess(k));
                next = self.headers.len();
            } else {
                // Left out: its cells are read as no column's.
                self.too_many_keys = true;
            }
        }
        if self.headers.len() == known {
            return false;
        }
        // Rows were read with other columns when a column is now read as
        // another field (or in another unit), or a new column is used.
        let resolved = resolve(&self.headers, self.guesses.clone(), &self.mapping, None);
        let moved = self
            .resolved
            .iter()
            .zip(&resolved)
            .any(|(a, b)| a.field != b.field || a.unit != b.unit)
            || resolved
                .get(known..)
                .unwrap_or(&[])
                .iter()
                .any(|g| g.field != Field::Ignore);
        self.resolved = resolved;
        if self.n > 0 && !moved {
            // Only columns left out: the reader stands, and the reading's
            // columns and notes are made when the slice ends.
            self.stale = true;
            return false;
        }
        let plan = self.columns(reading);
        let usable = plan.missing().is_none();
        let again = self.n > 0 && (self.reader.is_some() || usable);
        if self.n == 0 || again {
            reading.kernels.clear();
            reading.errors.clear();
            self.reader = usable.then_some(Reader {
                plan,
                last_op: None,
            });
        }
        again
    }

    /// Sets the reading's columns and notes from the keys seen: the plan
    /// they give.
    fn columns(&mut self, reading: &mut Reading) -> Plan {
        let mut notes = Vec::new();
        let (columns, header_units) = map_guessed(
            &self.headers,
            self.guesses.clone(),
            &self.mapping,
            &mut notes,
        );
        let plan = Plan::new(&columns, &header_units);
        reading.columns = columns;
        reading.notes = notes;
        self.stale = false;
        plan
    }

    /// Reads item `i` (0-based) into the reading, when a row can be placed.
    fn read(&mut self, item: Item<'_>, i: usize, reading: &mut Reading) {
        let Some(reader) = self.reader.as_mut() else {
            return;
        };
        let at = At::Item(i + 1);
        let cells = match item {
            Item::Object(cells) => cells,
            Item::Other(what) => {
                reading.errors.push(RowError {
                    at,
                    message: format!("is {what}, not an object with the kernel's columns"),
                });
                return;
            }
        };
        self.slots.clear();
        self.slots.resize(self.headers.len(), usize::MAX);
        let mut next = 0;
        for (j, (k, _)) in cells.iter().enumerate() {
            let c = if self.headers.get(next).is_some_and(|h| h == k) {
                next
            } else {
                self.seen.get(k.as_ref()).copied().unwrap_or(usize::MAX)
            };
            next = c.wrapping_add(1);
            if let Some(s) = self.slots.get_mut(c) {
                // A repeated key: its last value, as serde_json keeps.
                *s = j;
            }
        }
        let slots = &self.slots;
        let result = reader.row(
            |c| {
                slots
                    .get(c)
                    .and_then(|&j| cells.get(j))
                    .map_or(Cell::Empty, |(_, v)| v.cell())
            },
            i + 1,
        );
        match result {
            Ok(k) => reading.kernels.push(k),
            Err(message) => reading.errors.push(RowError { at, message }),
        }
    }
}

/// The list's end, at `after` (just past its `]`): the rest of the
/// document checked, then the closing messages.
fn end(text: &str, reading: &mut Reading, mut rest: Rest, after: usize) -> Option<Rest> {
    // The reading's columns and notes, made from every key (the plan is
    // what the closing message uses when no row could be placed).
    let plan = rest.columns(reading);
    if rest.wrapped {
        let mut w = Wrapper {
            found: true,
            wrong: false,
        };
        match walk(text, reading, after, false, &mut w) {
            Walk::End(true) => {}
            Walk::End(false) | Walk::List(_) => {
                *reading = shape();
                return None;
            }
            Walk::Failed => return None,
        }
    } else if !ends(text, reading, after) {
        return None;
    }
    if rest.n == 0 {
        // An empty list: nothing to place, and nothing wrong.
        return None;
    }
    if rest.too_many_keys {
        reading.notes.push(format!(
            "Only the first {} keys of the items were read as columns; the others were left out.",
            super::count(MAX_KEYS)
        ));
    }
    let Some(reader) = rest.reader else {
        finish(reading, plan);
        return None;
    };
    if rest.n > MAX_ROWS {
        reading.errors.push(left_out(rest.n - MAX_ROWS));
    }
    reader.plan.mixed_notes(&mut reading.notes);
    None
}
