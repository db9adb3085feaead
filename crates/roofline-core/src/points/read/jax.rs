//! JAX's printed `cost_analysis()`: a Python dict (`print(d)` on one line,
//! `pprint` over several), the list of one dict older JAX returned, or the
//! same in JSON spelling. Several functions are read too, each a named dict
//! (`matmul: {...}` or `matmul = {...}`, the name on the dict's line or
//! alone on the line before it, ending in `:` or `=`), or a dict of dicts
//! (`{'matmul': {...}, 'gelu': {...}}`); unnamed ones are `function N`.
//!
//! FLOPs come from `'flops'`, bytes from the total `'bytes accessed'`. The
//! cost analysis has no measured time (`'optimal_seconds'` is XLA's guess
//! and never read); a time the user adds to the dict as `'time'`,
//! `'seconds'`, `'time_s'`, `'time_ms'`, `'time_us'` or `'time_ns'` is.
//! Reading is one pass over the text, nesting at most [`DEPTH`] deep.

use super::measured::{Measured, Parsed};
use super::{quoted, At, Format, RowError};
use crate::num::parse_f64_std;
use std::collections::HashSet;

/// The deepest nesting of dicts and lists read.
const DEPTH: usize = 32;

/// The keys holding a time the user added, with their unit in seconds.
const TIME_KEYS: [(&str, f64); 6] = [
    ("time", 1.0),
    ("seconds", 1.0),
    ("time_s", 1.0),
    ("time_ms", 1e-3),
    ("time_us", 1e-6),
    ("time_ns", 1e-9),
];

/// Why a function without `'flops'`, or with 0, cannot be placed.
const NO_WORK: &str = "the function does no floating-point work that XLA counts, \
                       and a roofline point needs FLOPs";

/// A literal read: a dict, a list (or tuple), a string, or any other word
/// (a number, `True`, `None`, `inf`) as written.
enum Value {
    /// A dict's entries in order; whether its `}` was reached (the text
    /// may end first).
    Dict(Vec<(String, Value)>, bool),
    /// A list's (or tuple's) items.
    List(Vec<Value>),
    /// A quoted string's content.
    Str(String),
    /// An unquoted word as written.
    Word(String),
}

/// A problem that stops the reading of a value: its line and what it is.
struct Syntax(usize, String);

/// A cursor over the text.
struct Parser<'a> {
    /// The text's bytes.
    b: &'a [u8],
    /// The next byte's index.
    pos: usize,
    /// The next byte's line, 1-based.
    line: usize,
}

impl Parser<'_> {
    /// The next byte, if any.
    fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    /// Steps over one byte, counting lines.
    fn bump(&mut self) {
        if self.peek() == Some(b'\n') {
            self.line += 1;
        }
        self.pos += 1;
    }

    /// Steps to the end of the line (not over it).
    fn skip_line(&mut self) {
        while !matches!(self.peek(), None | Some(b'\n')) {
            self.pos += 1;
        }
    }

    /// Skips spaces, line ends and `#` comments.
    fn skip(&mut self) {
        while let Some(c) = self.peek() {
            match c {
                b'#' => self.skip_line(),
                c if c.is_ascii_whitespace() => self.bump(),
                _ => break,
            }
        }
    }

    /// Reads one value at the cursor; `Ok(None)` when the text ends first.
    fn value(&mut self, depth: usize) -> Result<Option<Value>, Syntax> {
        self.skip();
        let Some(c) = self.peek() else {
            return Ok(None);
        };
        if matches!(c, b'{' | b'[' | b'(') && depth >= DEPTH {
            return Err(Syntax(self.line, format!("nested more than {DEPTH} deep")));
        }
        match c {
            b'{' | b'[' | b'(' => {
                let close = match c {
                    b'{' => b'}',
                    b'[' => b']',
                    _ => b')',
                };
                self.items(close, depth).map(Some)
            }
            b'\'' | b'"' => self.string(c).map(|s| s.map(Value::Str)),
            c if c.is_ascii_alphanumeric() || matches!(c, b'-' | b'+' | b'.' | b'_') => {
                let start = self.pos;
                while self.peek().is_some_and(|c| {
                    c.is_ascii_alphanumeric() || matches!(c, b'-' | b'+' | b'.' | b'_')
                }) {
                    self.pos += 1;
                }
                let word = String::from_utf8_lossy(&self.b[start..self.pos]).into_owned();
                Ok(Some(Value::Word(word)))
            }
            _ => Err(self.unexpected("a value")),
        }
    }

    /// A message for the byte at the cursor, which is not `wanted`.
    fn unexpected(&self, wanted: &str) -> Syntax {
        let found = match self.peek() {
            Some(c) if c.is_ascii_graphic() => format!("'{}'", c as char),
            _ => "something else".to_string(),
        };
        Syntax(self.line, format!("expected {wanted}, found {found}"))
    }

    /// A quoted string (`\` escapes the next character); `None` when the
    /// text ends inside it; an error at a line's end.
    fn string(&mut self, quote: u8) -> Result<Option<String>, Syntax> {
        self.pos += 1;
        let start = self.pos;
        loop {
            match self.peek() {
                None => return Ok(None),
                Some(b'\n') => {
                    return Err(Syntax(self.line, "a string is not closed".to_string()));
                }
                Some(b'\\') => self.pos += 2,
                Some(c) if c == quote => break,
                Some(_) => self.pos += 1,
            }
        }
        let s = String::from_utf8_lossy(&self.b[start..self.pos.min(self.b.len())]);
        self.pos += 1;
        Ok(Some(s.into_owned()))
    }

    /// A dict (`close` is `}`), list or tuple, up to `close`; left open
    /// when the text ends first, a half-read entry dropped.
    fn items(&mut self, close: u8, depth: usize) -> Result<Value, Syntax> {
        self.pos += 1;
        let (mut entries, mut items) = (Vec::new(), Vec::new());
        let end = |entries, items, closed| match close {
            b'}' => Value::Dict(entries, closed),
            _ => Value::List(items),
        };
        loop {
            self.skip();
            if self.peek() == Some(close) {
                self.pos += 1;
                return Ok(end(entries, items, true));
            }
            let Some(first) = self.value(depth + 1)? else {
                return Ok(end(entries, items, false));
            };
            if close == b'}' {
                let (Value::Str(key) | Value::Word(key)) = first else {
                    return Err(Syntax(self.line, "a dict's key is a dict or list".into()));
                };
                self.skip();
                match self.peek() {
                    Some(b':') => self.pos += 1,
                    None => return Ok(end(entries, items, false)),
                    _ => return Err(self.unexpected("':'")),
                }
                let Some(v) = self.value(depth + 1)? else {
                    return Ok(end(entries, items, false));
                };
                entries.push((key, v));
            } else {
                items.push(first);
            }
            self.skip();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(c) if c == close => {}
                None => return Ok(end(entries, items, false)),
                _ => return Err(self.unexpected(&format!("',' or '{}'", close as char))),
            }
        }
    }
}

/// Whether `key` is one of XLA's cost-analysis keys.
fn cost_key(key: &str) -> bool {
    key == "flops"
        || key == "transcendentals"
        || key == "optimal_seconds"
        || key.starts_with("bytes accessed")
        || key.starts_with("utilization")
}

/// Whether `text` has a quoted `'bytes accessed…'` key and another of
/// XLA's keys (each quoted and followed by `:`): a cost analysis, and
/// nothing the generic readers should take. One pass.
fn recognised(text: &str) -> bool {
    if !text.contains("bytes accessed") {
        return false;
    }
    let (b, mut i) = (text.as_bytes(), 0);
    let (mut bytes, mut other) = (false, false);
    while i < b.len() {
        let q = b[i];
        i += 1;
        if q != b'\'' && q != b'"' {
            continue;
        }
        let Some(len) = b[i..].iter().position(|&c| c == q || c == b'\n') else {
            break;
        };
        let key = &text[i..i + len];
        i += len + 1;
        let next = b[i.min(b.len())..]
            .iter()
            .find(|c| !c.is_ascii_whitespace());
        if b.get(i - 1) == Some(&q) && next == Some(&b':') && cost_key(key) {
            if key == "bytes accessed" && !bytes {
                bytes = true;
            } else {
                other = true;
            }
        }
    }
    bytes && other
}

/// Reads `text` when it is one or several printed cost analyses.
pub(super) fn read(text: &str) -> Option<Parsed> {
    if !recognised(text) {
        return None;
    }
    let (found, errors) = values(text);
    let mut items = Vec::new();
    for (name, v) in &found {
        collect(v, name.clone(), &mut items);
    }
    let note = "FLOPs and bytes are XLA's counts ('flops', 'bytes accessed'): \
                estimates from the compiled program, not measurements.";
    let mut parsed = Parsed {
        format: Format::JaxCost,
        kernels: Vec::new(),
        errors,
        notes: vec![note.into()],
    };
    let mut names = HashSet::new();
    for (i, (name, entries, closed)) in items.iter().enumerate() {
        let at = At::Item(i + 1);
        let mut name = name
            .clone()
            .unwrap_or_else(|| format!("function {}", i + 1));
        if !names.insert(name.clone()) {
            name = format!("{name} #{}", i + 1);
        }
        match measure(entries, *closed) {
            Ok((flops, bytes, time)) => {
                let m = Measured {
                    name,
                    flops,
                    bytes,
                    time,
                    at,
                    dtype: None,
                };
                parsed.kernels.push(m);
            }
            Err(message) => parsed.errors.push(RowError { at, message }),
        }
    }
    if items.is_empty() && parsed.errors.is_empty() {
        let message = "no cost analysis dict ({'flops': ..., 'bytes accessed': ...}) was found";
        parsed.errors.push(RowError {
            at: At::Input,
            message: message.into(),
        });
    }
    Some(parsed)
}

/// The top-level values of `text` that hold a dict, each with the name
/// written before it, and the problems met. A `{` or `[` starts a value;
/// other text is names, or skipped; a line starting with `#` is a comment.
fn values(text: &str) -> (Vec<(Option<String>, Value)>, Vec<RowError>) {
    let mut p = Parser {
        b: text.as_bytes(),
        pos: 0,
        line: 1,
    };
    let (mut found, mut errors) = (Vec::new(), Vec::new());
    let (mut line_start, mut seg_start, mut lost, mut blank) = (0, 0, false, true);
    while let Some(c) = p.peek() {
        match c {
            b'\n' => {
                p.bump();
                (line_start, seg_start, blank) = (p.pos, p.pos, true);
            }
            b'#' if blank => p.skip_line(),
            b'{' | b'[' => {
                let (at, line) = (p.pos, p.line);
                blank = false;
                match p.value(0) {
                    Ok(Some(v)) if holds_dict(&v) => {
                        found.push((name(text, line_start, seg_start, at), v));
                        lost = false;
                        if p.line != line {
                            line_start = text[..p.pos].rfind('\n').map_or(0, |i| i + 1);
                        }
                        seg_start = p.pos;
                    }
                    Ok(_) => {}
                    Err(Syntax(line, m)) => {
                        let message = format!(
                            "cannot read the cost analysis here: {m}; this dict is skipped"
                        );
                        errors.push(RowError {
                            at: At::Line(line),
                            message,
                        });
                        lost = true;
                        p.skip_line();
                    }
                }
            }
            b'}' | b']' if !lost => {
                let message = format!(
                    "a '{}' closes nothing: is the start of the text missing?",
                    c as char
                );
                errors.push(RowError {
                    at: At::Line(p.line),
                    message,
                });
                lost = true;
                p.pos += 1;
            }
            _ => {
                blank &= c.is_ascii_whitespace();
                p.pos += 1;
            }
        }
    }
    (found, errors)
}

/// Whether `v` is a dict or a list holding one.
fn holds_dict(v: &Value) -> bool {
    match v {
        Value::Dict(..) => true,
        Value::List(items) => items.iter().any(holds_dict),
        Value::Str(_) | Value::Word(_) => false,
    }
}

/// The name written before the bracket at `at`: the text from `seg_start`
/// (its line's start, or the end of a dict before it on the line), else,
/// when the bracket starts its line, the line before if it ends in `:` or
/// `=`. Quotes and a trailing `:` or `=` are taken off.
fn name(text: &str, line_start: usize, seg_start: usize, at: usize) -> Option<String> {
    let strip = |s: &str| {
        let s = s.trim().trim_end_matches([':', '=']).trim();
        let s = s
            .trim_start_matches([',', '{'])
            .trim()
            .trim_matches(['\'', '"']);
        Some(crate::format::clip(s.trim(), super::NAME_CHARS)).filter(|s| !s.is_empty())
    };
    let own = strip(&text[seg_start..at]);
    if own.is_some() || seg_start != line_start {
        return own;
    }
    let before = text[..line_start].strip_suffix('\n').unwrap_or("");
    let prev = before[before.rfind('\n').map_or(0, |i| i + 1)..].trim();
    let named = prev.ends_with([':', '=']) && !prev.starts_with('#');
    named.then(|| strip(prev)).flatten()
}

/// A function found: its name, its dict's entries, whether the dict closed.
type Item<'a> = (Option<String>, &'a [(String, Value)], bool);

/// The cost dicts in `v`: `v` itself when it has XLA's keys, else the dicts
/// (or lists of them) it holds, named by their key.
fn collect<'a>(v: &'a Value, name: Option<String>, out: &mut Vec<Item<'a>>) {
    match v {
        Value::Dict(entries, closed) if entries.iter().any(|(k, _)| cost_key(k)) => {
            out.push((name, entries, *closed));
        }
        Value::Dict(entries, _) => {
            for (k, v) in entries {
                collect(v, Some(k.clone()), out);
            }
        }
        Value::List(items) if items.len() == 1 => collect(&items[0], name, out),
        Value::List(items) => {
            for (i, v) in items.iter().enumerate() {
                collect(v, name.as_ref().map(|n| format!("{n} {}", i + 1)), out);
            }
        }
        Value::Str(_) | Value::Word(_) => {}
    }
}

/// The number under `key`: `Ok(None)` when absent, a message when it is not
/// a finite number.
fn number(entries: &[(String, Value)], key: &str) -> Result<Option<f64>, String> {
    let Some((_, v)) = entries.iter().find(|(k, _)| k == key) else {
        return Ok(None);
    };
    match v {
        Value::Word(w) => match parse_f64_std(w) {
            Some(x) if x.is_finite() => Ok(Some(x)),
            Some(_) => Err(format!("'{key}' is not a finite number")),
            None => Err(format!("'{key}' is not a number{}", quoted(w))),
        },
        Value::Str(s) => Err(format!("'{key}' is text, not a number{}", quoted(s))),
        _ => Err(format!("'{key}' is a dict or list, not a number")),
    }
}

/// A cost dict's FLOPs, bytes and (when the user added one) time, seconds.
fn measure(entries: &[(String, Value)], closed: bool) -> Result<(f64, f64, Option<f64>), String> {
    if !closed {
        return Err("the text ends before this dict's closing '}'".into());
    }
    let (flops, bytes) = match (
        number(entries, "flops")?,
        number(entries, "bytes accessed")?,
    ) {
        (Some(f), Some(b)) => (f, b),
        (None, Some(_)) => return Err(format!("has no 'flops': {NO_WORK}")),
        (_, None) => return Err("has no 'bytes accessed' (the total bytes XLA counts)".into()),
    };
    if flops < 0.0 {
        return Err("'flops' is negative".into());
    }
    if bytes < 0.0 {
        return Err("'bytes accessed' is negative".into());
    }
    if flops == 0.0 {
        return Err(format!("'flops' is 0: {NO_WORK}"));
    }
    if bytes == 0.0 {
        return Err("'bytes accessed' is 0: XLA counted no memory traffic".into());
    }
    let mut time = None;
    for (key, unit) in TIME_KEYS {
        if let Some(t) = number(entries, key)? {
            if time.is_some() {
                return Err("has more than one time key; keep one".into());
            }
            if t <= 0.0 {
                return Err(format!("'{key}' is not above zero"));
            }
            time = Some(t * unit);
        }
    }
    Ok((flops, bytes, time))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    /// The reading of `text`, which must be recognised.
    fn rd(text: &str) -> Parsed {
        read(text).expect("recognised")
    }

    /// `(name, flops, bytes, time)` of each function read.
    fn got(p: &Parsed) -> Vec<(String, f64, f64, Option<f64>)> {
        let k = p.kernels.iter();
        k.map(|m| (m.name.clone(), m.flops, m.bytes, m.time))
            .collect()
    }

    /// The only error's place and message.
    fn error(text: &str) -> (At, String) {
        let p = rd(text);
        assert_eq!(p.errors.len(), 1, "{p:?}");
        (p.errors[0].at, p.errors[0].message.clone())
    }

    const PY: &str = "{'utilization1{}': 1.0, 'bytes accessed0{}': 3072.0, 'transcendentals': 256.0, 'bytes accessed': 5632.0, 'flops': 8192.0, 'bytes accessed1{}': 512.0, 'optimal_seconds': 2.5e-06}";

    #[test]
    fn one_dict_in_each_spelling() {
        let json = PY.replace('\'', "\"");
        for text in [
            PY.to_string(),
            format!("[{PY}]"),
            json,
            format!("cost={PY}\n"),
        ] {
            let p = rd(&text);
            assert_eq!(p.format, Format::JaxCost);
            let name = if text.starts_with("cost") {
                "cost"
            } else {
                "function 1"
            };
            assert_eq!(got(&p), [(name.into(), 8192.0, 5632.0, None)], "{text}");
            assert!(p.errors.is_empty(), "{p:?}");
        }
        // Python floats as printed: exponents, no fraction.
        let p = rd("[{'flops': 1e+16, 'bytes accessed': 4.0E9, 'utilization0{}': 2}]");
        assert_eq!(got(&p), [("function 1".into(), 1e16, 4e9, None)]);
    }

    #[test]
    fn several_named_and_dict_of_dicts() {
        let text = "# a comment: {'flops': 1}\nmatmul: {'flops': 8.0, 'bytes accessed': 2.0, 'time_ms': 1.5}\n\ngelu (tanh) = [{'flops': 3.0,\n 'bytes accessed': 6.0}]\nsoftmax:\n{'flops': 1.0,\n 'bytes accessed': 1.0, 'time_us': 4}\n{'flops': 5.0, 'bytes accessed': 5.0}";
        let p = rd(text);
        assert!(p.errors.is_empty(), "{p:?}");
        let want = [
            ("matmul".into(), 8.0, 2.0, Some(1.5e-3)),
            ("gelu (tanh)".into(), 3.0, 6.0, None),
            ("softmax".into(), 1.0, 1.0, Some(4e-6)),
            ("function 4".into(), 5.0, 5.0, None),
        ];
        assert_eq!(got(&p), want);
        assert_eq!(p.kernels[2].at, At::Item(3));
        let p = rd("{'mm': {'flops': 8.0, 'bytes accessed': 2.0, 'time': 0.5},\n 'mm2': [{'flops': 1.0, 'bytes accessed': 1.0, 'seconds': 2}], 'mm': {'flops': 1.0, 'bytes accessed': 3.0}}");
        let want = [
            ("mm".into(), 8.0, 2.0, Some(0.5)),
            ("mm2".into(), 1.0, 1.0, Some(2.0)),
            ("mm #3".into(), 1.0, 3.0, None),
        ];
        assert_eq!(got(&p), want);
    }

    #[test]
    fn times_are_the_users_keys_only() {
        // optimal_seconds is XLA's estimate, never a time.
        assert_eq!(rd(PY).kernels[0].time, None);
        let with = |t: &str| rd(&format!("{{'flops': 2.0, 'bytes accessed': 1.0, {t}}}"));
        for (t, s) in [
            ("'time_ms': 0.5", 5e-4),
            ("'time_s': 3", 3.0),
            ("'time_ns': 10", 1e-8),
        ] {
            assert_eq!(with(t).kernels[0].time, Some(s), "{t}");
        }
        let p = with("'time_ms': 1, 'time_us': 1000");
        assert_eq!(p.errors[0].message, "has more than one time key; keep one");
        assert_eq!(
            with("'time_ms': -1").errors[0].message,
            "'time_ms' is not above zero"
        );
    }

    #[test]
    fn problems_name_the_key() {
        let text =
            "a: {'flops': 2.0, 'bytes accessed': 1.0}\nb: {'flops': 2.0, 'transcendentals': 1.0}";
        let p = rd(text);
        assert_eq!(p.kernels.len(), 1);
        let e = &p.errors[0];
        assert_eq!(e.at, At::Item(2));
        assert!(e.message.contains("'bytes accessed'"), "{}", e.message);
        let (at, m) = error("[{'bytes accessed': 1440.0, 'utilization1{}': 2.0}]");
        assert_eq!(at, At::Item(1));
        assert!(
            m.contains("'flops'") && m.contains("no floating-point work"),
            "{m}"
        );
        let (_, m) = error("{'flops': 0.0, 'bytes accessed': 8.0}");
        assert!(m.contains("no floating-point work"), "{m}");
        for (v, want) in [
            ("-1.0", "'flops' is negative"),
            ("inf", "'flops' is not a finite number"),
            ("-Infinity", "'flops' is not a finite number"),
            ("nan", "'flops' is not a finite number"),
            ("'many'", "'flops' is text, not a number ('many')"),
            ("True", "'flops' is not a number ('True')"),
        ] {
            let (_, m) = error(&format!("{{'flops': {v}, 'bytes accessed': 8.0}}"));
            assert_eq!(m, want);
        }
    }

    #[test]
    fn broken_text_is_told_and_never_panics() {
        let (at, m) = error("matmul: {'flops': 8.0, 'bytes accessed': 2.0,\n 'bytes accessed0{}'");
        assert_eq!(at, At::Item(1));
        assert!(m.contains("ends before"), "{m}");
        let p = rd("a: {'flops': 8.0, 'bytes accessed': 2.0}\nb: {'flops' 8.0, 'bytes accessed': 2.0}\nc: {'flops': 1.0, 'bytes accessed': 1.0}");
        assert_eq!(p.kernels.len(), 2);
        assert_eq!(p.errors[0].at, At::Line(2));
        assert!(
            p.errors[0].message.contains("expected ':'"),
            "{:?}",
            p.errors
        );
        let (at, _) = error("'flops': 8.0, 'bytes accessed': 2.0}");
        assert_eq!(at, At::Line(1));
        let deep = format!("{}{{'flops': 1, 'bytes accessed': 1}}", "[".repeat(100));
        assert!(error(&deep).1.contains("nested"));
        let big = "x: {'flops': 1.0, 'bytes accessed': 2.0}\n".repeat(50_000);
        assert_eq!(rd(&big).kernels.len(), 50_000);
        let text = format!(
            "[{{'flops': 1, 'bytes accessed': 2, 'k': \"\\\"{{ {}",
            "{[(".repeat(20)
        );
        for end in 0..=text.len() {
            if let Some(t) = text.get(..end) {
                let p = read(t);
                for e in p.iter().flat_map(|p| &p.errors) {
                    let m = e.message.to_lowercase();
                    assert!(!m.contains("nan") && !m.contains("inf"), "{m}");
                }
            }
        }
    }

    #[test]
    fn other_text_is_left_to_the_generic_readers() {
        for text in [
            r#"[{"name":"a","flops":1e9,"bytes":1e6,"time_ms":0.2}]"#,
            "name,flops,bytes accessed,time_ms\nmm,1e9,1e6,0.2",
            "name,'flops','bytes accessed'\nmm,1,2",
            "{'flops': 1e9, 'bytes': 3}",
            "",
        ] {
            assert!(read(text).is_none(), "{text}");
        }
    }
}
