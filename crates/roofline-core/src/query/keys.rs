//! A page's keys kept as the text of a link (`mesh=X:16&strat=mixed`): the
//! form in which [`AppState`](crate::pages::AppState) holds the state of a
//! page whose code is a chunk of its own (the Model and Scale pages), so
//! that the first load carries a `String`, not the state's type and its
//! code. The link codec reads the keys into that text at decode (with the
//! notices) and writes them back; the page's chunk reads its state from it
//! and writes it on each edit.

use super::notice::{Notes, Notice};
use super::{LinkOut, Params};

/// A reader of a page's keys: each bad value its default, with a notice.
pub(crate) type Reader<T> = fn(&mut Params, &mut Notes) -> T;

/// A writer of a page's keys: only what differs from the defaults.
pub(crate) type Writer<T> = fn(&T, &mut LinkOut);

/// The keys `write` puts for `state`, as a query (no leading `?`).
pub(crate) fn text<T>(state: &T, write: Writer<T>) -> String {
    let mut out = LinkOut::default();
    write(state, &mut out);
    let mut ser = form_urlencoded::Serializer::new(String::new());
    for (k, v) in out.pairs() {
        ser.append_pair(k, v);
    }
    ser.finish()
}

/// The state in `query` (a text [`text`] wrote, a query or a pasted link),
/// with the notices for what could not be used.
pub(crate) fn read<T>(query: &str, read: Reader<T>) -> (T, Vec<Notice>) {
    let mut p = Params::read(super::query_part(query));
    let mut n = Notes {
        list: Vec::new(),
        dropped: 0,
    };
    let s = read(&mut p, &mut n);
    (s, n.finish())
}

/// At decode: the page's keys read from the link (notices to `n`) and
/// written back as their text, valid values only.
pub(crate) fn take<T>(p: &mut Params, n: &mut Notes, read: Reader<T>, write: Writer<T>) -> String {
    text(&read(p, n), write)
}

/// At encode: the keys of a text [`take`] or [`text`] wrote, read again so
/// that only valid values, in the page's order, reach the link.
pub(crate) fn put<T>(keys: &str, out: &mut LinkOut, read: Reader<T>, write: Writer<T>) {
    write(&self::read(keys, read).0, out);
}
