//! The JSON text walked here rather than by serde: a wrapping object's
//! pairs up to the list to read, the commas and `]` between items, white
//! space, and what may follow the document.

use std::marker::PhantomData;

use super::errors::{fail, fail_at};
use super::item::{Check, Key};
use super::{value_at, ROOM};
use crate::points::read::Reading;

/// The keys a wrapping object may hold its list under.
const LIST_KEYS: [&str; 4] = ["kernels", "points", "rows", "data"];

/// Whether only white space follows byte `at` (else the reading fails).
pub(super) fn ends(text: &str, reading: &mut Reading, at: usize) -> bool {
    let tail = skip_space(text, at);
    if tail < text.len() {
        fail(text, reading, tail, "trailing characters");
        return false;
    }
    true
}

/// What a wrapping object has held so far.
#[derive(Default)]
pub(super) struct Wrapper {
    /// Whether its list is found (and read).
    pub(super) found: bool,
    /// Whether it is not of the shape read: a list key holding something
    /// other than a list, or a second list key.
    pub(super) wrong: bool,
}

/// Where a walk over a wrapping object's pairs stopped.
pub(super) enum Walk {
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
pub(super) fn walk(
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
pub(super) fn after_item(text: &str, at: usize) -> Result<usize, (usize, &'static str)> {
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
pub(super) fn skip_space(text: &str, at: usize) -> usize {
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
