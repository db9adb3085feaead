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

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::{Map, Number, Value};

use super::{
    finish, guess, input_error, left_out, map_guessed, resolve, unsafe_text, Cell, Choice, Format,
    Guess, Plan, Reader, Reading, MAX_KEYS, MAX_ROWS,
};
use crate::points::{At, Field, RowError};

/// The keys a wrapping object may hold its list under.
const LIST_KEYS: [&str; 4] = ["kernels", "points", "rows", "data"];

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
            Walk::End(_) => return (shape(), None),
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

/// Whether only white space follows byte `at` (else the reading fails).
fn ends(text: &str, reading: &mut Reading, at: usize) -> bool {
    let tail = skip_space(text, at);
    if tail < text.len() {
        fail(text, reading, tail, "trailing characters");
        return false;
    }
    true
}

/// What a wrapping object has held so far.
#[derive(Default)]
struct Wrapper {
    /// Whether its list is found (and read).
    found: bool,
    /// Whether it is not of the shape read: a list key holding something
    /// other than a list, or a second list key.
    wrong: bool,
}

/// Where a walk over a wrapping object's pairs stopped.
enum Walk {
    /// At the first item of the list to read.
    List(usize),
    /// At the object's end, which ended the document; whether it is of the
    /// shape read (its list found, nothing wrong).
    End(bool),
    /// At a syntax error (the reading says which).
    Failed,
}

/// Walks a wrapping object's pairs from `at` (just past its `{` when
/// `first`, else just past a value), each value checked as serde would read
/// it, up to the list to read or the object's end.
fn walk(
    text: &str,
    reading: &mut Reading,
    mut at: usize,
    mut first: bool,
    w: &mut Wrapper,
) -> Walk {
    let b = text.as_bytes();
    let room = ROOM - 1;
    loop {
        at = skip_space(text, at);
        let key = match b.get(at) {
            Some(b'}') => {
                return if ends(text, reading, at + 1) {
                    Walk::End(w.found && !w.wrong)
                } else {
                    Walk::Failed
                };
            }
            Some(b',') if !first => {
                let key = skip_space(text, at + 1);
                match b.get(key) {
                    Some(b'"') => key,
                    Some(b'}') => return failed(text, reading, key, "trailing comma"),
                    Some(_) => return failed(text, reading, key, "key must be a string"),
                    None => return failed(text, reading, key, "EOF while parsing a value"),
                }
            }
            Some(b'"') if first => at,
            Some(_) if first => return failed(text, reading, at, "key must be a string"),
            Some(_) => return failed(text, reading, at, "expected `,` or `}`"),
            None => return failed(text, reading, at, "EOF while parsing an object"),
        };
        first = false;
        let (Key(name), ended) = match value_at(text, key, PhantomData::<Key>) {
            Ok(read) => read,
            Err(e) => {
                fail_at(text, reading, key, room, &e);
                return Walk::Failed;
            }
        };
        at = skip_space(text, ended);
        match b.get(at) {
            Some(b':') => at = skip_space(text, at + 1),
            Some(_) => return failed(text, reading, at, "expected `:`"),
            None => return failed(text, reading, at, "EOF while parsing an object"),
        }
        if LIST_KEYS.contains(&name.as_ref()) {
            if !w.found && !w.wrong && b.get(at) == Some(&b'[') {
                w.found = true;
                return Walk::List(at + 1);
            }
            w.wrong = true;
        }
        at = match value_at(text, at, Check::skip(room)) {
            Ok((_, ended)) => ended,
            Err(e) => {
                fail_at(text, reading, at, room, &e);
                return Walk::Failed;
            }
        };
    }
}

/// [`fail`], as a [`Walk`].
fn failed(text: &str, reading: &mut Reading, at: usize, what: &str) -> Walk {
    fail(text, reading, at, what);
    Walk::Failed
}

/// Where the next item starts after one that ends at `at`: past a `,`, or
/// at the list's `]`; or where the text is wrong, and how.
fn after_item(text: &str, at: usize) -> Result<usize, (usize, &'static str)> {
    let at = skip_space(text, at);
    match text.as_bytes().get(at) {
        Some(b',') => {
            let next = skip_space(text, at + 1);
            match text.as_bytes().get(next) {
                Some(b']') => Err((next, "trailing comma")),
                Some(_) => Ok(next),
                None => Err((next, "EOF while parsing a value")),
            }
        }
        Some(b']') => Ok(at),
        Some(_) => Err((at, "expected `,` or `]`")),
        None => Err((at, "EOF while parsing a list")),
    }
}

/// The first byte at or after `at` that is not JSON white space.
fn skip_space(text: &str, at: usize) -> usize {
    let b = text.as_bytes();
    let mut at = at;
    while b
        .get(at)
        .is_some_and(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r'))
    {
        at += 1;
    }
    at
}

/// The reading of a text that could not be read at byte `at`, placed as
/// serde places what it finds there (at the text's end: the column of its
/// last byte, 0 after a line break).
fn fail(text: &str, reading: &mut Reading, at: usize, what: &str) -> Option<Rest> {
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
fn fail_at(
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

/// An item of the list: an object's keys and cells in order, or what else
/// it is, in words.
enum Item<'a> {
    Object(Vec<(Cow<'a, str>, JsonCell<'a>)>),
    Other(&'static str),
}

/// A value in an item, borrowed from the text where it can be.
enum JsonCell<'a> {
    Empty,
    Text(Cow<'a, str>),
    Num(f64),
    Object(Map<String, Value>),
    Other(&'static str),
}

impl JsonCell<'_> {
    fn cell(&self) -> Cell<'_> {
        match self {
            JsonCell::Empty => Cell::Empty,
            JsonCell::Text(s) => Cell::of_text(s),
            JsonCell::Num(x) => Cell::Num(*x),
            JsonCell::Object(m) => Cell::Object(m),
            JsonCell::Other(what) => Cell::Other(what),
        }
    }
}

/// One more level opened in a value that had `room`: the room inside it,
/// or our depth check's error.
fn enter<E: de::Error>(room: usize) -> Result<usize, E> {
    room.checked_sub(1).ok_or_else(|| E::custom(DEEP))
}

/// Reads an item, with `room` levels to open.
#[derive(Clone, Copy)]
struct ItemSeed {
    room: usize,
}

impl<'de> DeserializeSeed<'de> for ItemSeed {
    type Value = Item<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Item<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ItemSeed {
    type Value = Item<'de>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Item<'de>, A::Error> {
        let room = enter(self.room)?;
        let mut cells = Vec::new();
        while let Some(Key(k)) = map.next_key::<Key<'de>>()? {
            cells.push((k, map.next_value_seed(CellSeed { room })?));
        }
        Ok(Item::Object(cells))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Item<'de>, A::Error> {
        Check::skip(self.room).visit_seq(seq)?;
        Ok(Item::Other("a list"))
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Item<'de>, E> {
        Ok(Item::Other("a string"))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Item<'de>, E> {
        Ok(Item::Other("a number"))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Item<'de>, E> {
        Ok(Item::Other("a number"))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Item<'de>, E> {
        Ok(Item::Other("a number"))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Item<'de>, E> {
        Ok(Item::Other("true or false"))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Item<'de>, E> {
        Ok(Item::Other("null"))
    }
}

/// Reads an item's value, with `room` levels to open.
#[derive(Clone, Copy)]
struct CellSeed {
    room: usize,
}

impl<'de> DeserializeSeed<'de> for CellSeed {
    type Value = JsonCell<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<JsonCell<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for CellSeed {
    type Value = JsonCell<'de>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<JsonCell<'de>, E> {
        Ok(JsonCell::Text(Cow::Borrowed(s)))
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<JsonCell<'de>, E> {
        Ok(JsonCell::Text(Cow::Owned(s.to_string())))
    }
    fn visit_f64<E: de::Error>(self, x: f64) -> Result<JsonCell<'de>, E> {
        Ok(JsonCell::Num(x))
    }
    // As serde_json's `Value::as_f64` reads integers.
    #[allow(clippy::cast_precision_loss)]
    fn visit_u64<E: de::Error>(self, x: u64) -> Result<JsonCell<'de>, E> {
        Ok(JsonCell::Num(x as f64))
    }
    #[allow(clippy::cast_precision_loss)]
    fn visit_i64<E: de::Error>(self, x: i64) -> Result<JsonCell<'de>, E> {
        Ok(JsonCell::Num(x as f64))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<JsonCell<'de>, E> {
        Ok(JsonCell::Other("true or false"))
    }
    fn visit_unit<E: de::Error>(self) -> Result<JsonCell<'de>, E> {
        Ok(JsonCell::Empty)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<JsonCell<'de>, A::Error> {
        Check::skip(self.room).visit_seq(seq)?;
        Ok(JsonCell::Other("a list"))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<JsonCell<'de>, A::Error> {
        let inner = Check {
            room: enter(self.room)?,
            keep: true,
        };
        inner.entries(map).map(JsonCell::Object)
    }
}

/// Reads a value whole as serde reads a document (numbers in range,
/// strings' escapes valid, depth within `room` levels), kept as a
/// [`Value`] when `keep` (else `Value::Null`, and nothing is built).
#[derive(Clone, Copy)]
struct Check {
    room: usize,
    keep: bool,
}

impl Check {
    /// A check that keeps nothing.
    fn skip(room: usize) -> Check {
        Check { room, keep: false }
    }

    /// An object's entries, each value read with this check.
    fn entries<'de, A: MapAccess<'de>>(self, mut map: A) -> Result<Map<String, Value>, A::Error> {
        let mut out = Map::new();
        while let Some(Key(k)) = map.next_key::<Key<'de>>()? {
            let v = map.next_value_seed(self)?;
            if self.keep {
                out.insert(k.into_owned(), v);
            }
        }
        Ok(out)
    }

    /// `v`, when kept.
    fn kept(self, v: impl FnOnce() -> Value) -> Value {
        if self.keep {
            v()
        } else {
            Value::Null
        }
    }
}

impl<'de> DeserializeSeed<'de> for Check {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Check {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Value, E> {
        Ok(self.kept(|| Value::String(s.to_string())))
    }
    fn visit_f64<E: de::Error>(self, x: f64) -> Result<Value, E> {
        Ok(self.kept(|| Number::from_f64(x).map_or(Value::Null, Value::Number)))
    }
    fn visit_u64<E: de::Error>(self, x: u64) -> Result<Value, E> {
        Ok(self.kept(|| Value::from(x)))
    }
    fn visit_i64<E: de::Error>(self, x: i64) -> Result<Value, E> {
        Ok(self.kept(|| Value::from(x)))
    }
    fn visit_bool<E: de::Error>(self, x: bool) -> Result<Value, E> {
        Ok(self.kept(|| Value::Bool(x)))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let inner = Check {
            room: enter(self.room)?,
            ..self
        };
        let mut out = Vec::new();
        while let Some(v) = seq.next_element_seed(inner)? {
            if self.keep {
                out.push(v);
            }
        }
        Ok(self.kept(|| Value::Array(out)))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Value, A::Error> {
        let inner = Check {
            room: enter(self.room)?,
            ..self
        };
        let m = inner.entries(map)?;
        Ok(self.kept(|| Value::Object(m)))
    }
}

/// An object's key, borrowed from the text when it has no escapes.
struct Key<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(s)))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(s.to_string())))
            }
        }
        d.deserialize_str(V)
    }
}
