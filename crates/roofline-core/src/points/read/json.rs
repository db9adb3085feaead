//! JSON: a list of objects, or an object holding one, read with serde an
//! item at a time, so that a slice of items is read without the rest.
//!
//! Each item is read where the one before it ended (serde_json's
//! `StreamDeserializer` says where an item ends), straight into its cells.
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

use serde::de::value::MapAccessDeserializer;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::{
    finish, input_error, left_out, map_columns, unsafe_text, Cell, Choice, Format, Plan, Reader,
    Reading, MAX_ROWS,
};
use crate::points::{At, Field, RowError};

/// An object holding the list of rows under `kernels`, `points`, `rows` or
/// `data` (other keys are ignored).
#[derive(Deserialize)]
struct Wrapped<'a> {
    #[serde(borrow, alias = "points", alias = "rows", alias = "data")]
    kernels: &'a RawValue,
}

/// The message for a list in the wrong place or of the wrong shape.
const SHAPE: &str = "The JSON should be a list of objects, or an object with the list under kernels, points, rows or data.";

/// Where a reading of JSON stopped, and what it carries on with.
pub(super) struct Rest {
    /// Where the list's first item (or its `]`) is looked for.
    first: usize,
    /// Where the next item (or the list's `]`) is looked for.
    at: usize,
    /// Whether the list is the whole document (then only white space may
    /// follow it; a wrapping object was checked whole by serde).
    bare: bool,
    /// Items walked since the reading (re)started (the `n` of "item n").
    n: usize,
    /// The keys seen, in first-appearance order: the columns.
    headers: Vec<String>,
    /// Each key's place in `headers`.
    seen: HashMap<String, usize>,
    /// The user's choices.
    mapping: Vec<Choice>,
    /// The columns' reader; `None` while the columns cannot place a row.
    reader: Option<Reader>,
    /// For each column, the item's cell (`usize::MAX` for none); kept to
    /// save an allocation per item.
    slots: Vec<usize>,
}

/// Starts reading: the list found (a wrapping object is checked by serde
/// first), then up to `rows` items; the [`Rest`] is `None` when all are read.
pub(super) fn start(text: &str, mapping: &[Choice], rows: usize) -> (Reading, Option<Rest>) {
    let mut reading = Reading {
        format: Some(Format::Json),
        ..Reading::default()
    };
    let lead = text.len() - text.trim_start().len();
    let (first, bare) = if text.get(lead..).is_some_and(|t| t.starts_with('[')) {
        (lead + 1, true)
    } else {
        match serde_json::from_str::<Wrapped>(text) {
            Ok(w) if w.kernels.get().starts_with('[') => (span(text, w.kernels.get()) + 1, false),
            Ok(_) => {
                reading.errors.push(input_error(SHAPE.to_string()));
                return (reading, None);
            }
            Err(e) => {
                let at = if e.is_data() {
                    None
                } else {
                    Some((e.line(), e.column()))
                };
                reading.errors.push(doc_error(at, &e.to_string()));
                return (reading, None);
            }
        }
    };
    let rest = Rest {
        first,
        at: first,
        bare,
        n: 0,
        headers: Vec::new(),
        seen: HashMap::new(),
        mapping: mapping.to_vec(),
        reader: None,
        slots: Vec::new(),
    };
    let rest = more(text, &mut reading, rest, rows);
    (reading, rest)
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
        let here = text.get(at..).unwrap_or("");
        let i = rest.n;
        // Past the limit, items are only checked and counted.
        if i >= MAX_ROWS {
            let mut items = serde_json::Deserializer::from_str(here).into_iter::<IgnoredAny>();
            match items.next() {
                Some(Ok(_)) => {}
                Some(Err(e)) => return fail_at(text, reading, at, &e),
                None => return fail(text, reading, at, "EOF while parsing a list"),
            }
            rest.n += 1;
            rest.at = match after_item(text, at + items.byte_offset()) {
                Ok(next) => next,
                Err((at, what)) => return fail(text, reading, at, what),
            };
            continue;
        }
        let mut items = serde_json::Deserializer::from_str(here).into_iter::<Item>();
        let item = match items.next() {
            Some(Ok(item)) => item,
            Some(Err(e)) => return fail_at(text, reading, at, &e),
            None => return fail(text, reading, at, "EOF while parsing a list"),
        };
        let next = match after_item(text, at + items.byte_offset()) {
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
    Some(rest)
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
            } else {
                self.seen.insert(k.to_string(), self.headers.len());
                self.headers.push(k.to_string());
                next = self.headers.len();
            }
        }
        if self.headers.len() == known {
            return false;
        }
        let mut notes = Vec::new();
        let (columns, header_units) = map_columns(&self.headers, &self.mapping, &mut notes);
        let plan = Plan::new(&columns, &header_units);
        let usable = plan.missing().is_none();
        // Rows were read with other columns: a column read as another field
        // (or in another unit), or a new column used.
        let moved = reading
            .columns
            .iter()
            .zip(&columns)
            .any(|(a, b)| a.field != b.field || a.unit != b.unit)
            || columns
                .get(known..)
                .unwrap_or(&[])
                .iter()
                .any(|c| c.field != Field::Ignore);
        let again = self.n > 0 && if self.reader.is_some() { moved } else { usable };
        reading.columns = columns;
        reading.notes = notes;
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

/// The list's end, at `after` (just past its `]`): the closing messages.
fn end(text: &str, reading: &mut Reading, rest: Rest, after: usize) -> Option<Rest> {
    if rest.bare {
        let tail = skip_space(text, after);
        if tail < text.len() {
            return fail(text, reading, tail, "trailing characters");
        }
    }
    if rest.n == 0 {
        // An empty list: nothing to place, and nothing wrong.
        return None;
    }
    let Some(reader) = rest.reader else {
        let mut unused = Vec::new();
        let (columns, header_units) = map_columns(&rest.headers, &rest.mapping, &mut unused);
        finish(reading, Plan::new(&columns, &header_units));
        return None;
    };
    if rest.n > MAX_ROWS {
        reading.errors.push(left_out(rest.n - MAX_ROWS));
    }
    reader.plan.mixed_notes(&mut reading.notes);
    None
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
                _ => Ok(next),
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

/// The reading of a text that could not be read at byte `at` (at its end:
/// the end of the text, whose column is that of its last byte, as serde
/// counts).
fn fail(text: &str, reading: &mut Reading, at: usize, what: &str) -> Option<Rest> {
    let before = text.as_bytes().get(..at).unwrap_or(text.as_bytes());
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let column = before.len()
        - before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1)
        + usize::from(at < text.len());
    *reading = Reading {
        format: Some(Format::Json),
        errors: vec![doc_error(Some((line, column)), what)],
        ..Reading::default()
    };
    None
}

/// [`fail`] for serde's error `e` in the text from byte `at`.
fn fail_at(text: &str, reading: &mut Reading, at: usize, e: &serde_json::Error) -> Option<Rest> {
    // Serde counts lines and (1-based) columns from `at`.
    let from = text.get(at..).unwrap_or("");
    let line_start = match e.line() {
        0 | 1 => 0,
        line => from
            .bytes()
            .enumerate()
            .filter(|&(_, b)| b == b'\n')
            .nth(line - 2)
            .map_or(from.len(), |(i, _)| i + 1),
    };
    let err = at + (line_start + e.column()).saturating_sub(1);
    fail(text, reading, err.min(text.len()), &e.to_string())
}

/// The message for JSON that serde could not read: at a line and column,
/// or of the wrong shape (`None`).
fn doc_error(at: Option<(usize, usize)>, what: &str) -> RowError {
    let Some((line, column)) = at else {
        return input_error(SHAPE.to_string());
    };
    let what = what.split(" at line ").next().unwrap_or("");
    let what = if unsafe_text(what) { "not valid" } else { what };
    input_error(format!(
        "The JSON could not be read at line {line}, column {column}: {what}."
    ))
}

/// The byte where `part`, a slice of `text`, starts.
fn span(text: &str, part: &str) -> usize {
    (part.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize)
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

impl<'de> Deserialize<'de> for Item<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Item<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Item<'de>, A::Error> {
                let mut cells = Vec::new();
                while let Some(Key(k)) = map.next_key::<Key<'de>>()? {
                    cells.push((k, map.next_value::<JsonCell<'de>>()?));
                }
                Ok(Item::Object(cells))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Item<'de>, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
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
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for JsonCell<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
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
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<JsonCell<'de>, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(JsonCell::Other("a list"))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<JsonCell<'de>, A::Error> {
                Map::deserialize(MapAccessDeserializer::new(map)).map(JsonCell::Object)
            }
        }
        d.deserialize_any(V)
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
