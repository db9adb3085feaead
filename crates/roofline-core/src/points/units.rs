//! Units in headers and cells: `time_ms`, `duration (µs)`, `3 GB`, `1.2 TFLOP`.
//!
//! A [`Unit`] is a kind of quantity ([`Kind`]) and a factor to its base unit
//! (seconds, bytes, FLOPs, FLOP/s, FLOPs/byte). [`unit`] reads the text of a
//! unit, case-insensitively; [`quantity`] splits a cell such as `12.5 µs`
//! into its number (read by [`crate::num::parse_f64_std`], which gives
//! `parse_f64`'s value, like every decimal of a table) and its unit.
//!
//! The units read:
//!
//! * time: `s` (also `sec`, `second(s)`), `ms`, `us`, `µs`, `μs` (either
//!   micro sign), `ns`, `ps`, and the long forms (`msec`, `usecond`,
//!   `nanoseconds`, ...);
//! * bytes: `B` (also `byte(s)`), `kB`, `MB`, `GB`, `TB`, `PB`, `EB` (powers
//!   of 1000) and `KiB`, `MiB`, `GiB`, `TiB`, `PiB`, `EiB` (powers of 1024);
//!   `kbyte`, `Mbyte`, ... too;
//! * FLOPs: `FLOP` or `FLOPs` with an optional prefix `k`, `M`, `G`, `T`,
//!   `P`, `E`;
//! * FLOP/s: the same followed by `/s` (or `/sec`): `TFLOP/s`, `GFLOPs/s`;
//! * intensity: `FLOP/B`, `FLOPs/byte`.
//!
//! A count such as `TFLOPS` read in a FLOP/s column means T FLOP/s
//! ([`Unit::read_as`]).

use super::Field;
use crate::num::parse_f64_std;

/// What a unit measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A time; base unit the second.
    Time,
    /// Bytes moved; base unit the byte.
    Bytes,
    /// A count of FLOPs; base unit one FLOP.
    Flops,
    /// A throughput; base unit one FLOP/s.
    Rate,
    /// An arithmetic intensity; base unit one FLOP per byte.
    Intensity,
}

impl Kind {
    /// The column field that holds quantities of this kind.
    pub fn field(self) -> Field {
        match self {
            Kind::Time => Field::Time,
            Kind::Bytes => Field::Bytes,
            Kind::Flops => Field::Flops,
            Kind::Rate => Field::Rate,
            Kind::Intensity => Field::Intensity,
        }
    }

    /// The kind of quantity a field holds; `None` for the name, the
    /// operation, its sizes, and an ignored column.
    pub fn of(field: Field) -> Option<Kind> {
        match field {
            Field::Time => Some(Kind::Time),
            Field::Bytes => Some(Kind::Bytes),
            Field::Flops => Some(Kind::Flops),
            Field::Rate => Some(Kind::Rate),
            Field::Intensity => Some(Kind::Intensity),
            Field::Ignore | Field::Name | Field::Op | Field::Sizes | Field::Dtype => None,
        }
    }

    /// The kind in words, for messages: "a time", "bytes", "FLOPs", ...
    pub fn noun(self) -> &'static str {
        match self {
            Kind::Time => "a time",
            Kind::Bytes => "bytes",
            Kind::Flops => "FLOPs",
            Kind::Rate => "FLOP/s",
            Kind::Intensity => "an intensity",
        }
    }

    /// Units of this kind to suggest in messages: "s, ms, µs or ns".
    pub fn examples(self) -> &'static str {
        match self {
            Kind::Time => "s, ms, µs or ns",
            Kind::Bytes => "B, kB, MB, GB, TB or KiB, MiB, GiB, TiB",
            Kind::Flops => "FLOP, MFLOP, GFLOP, TFLOP or PFLOP",
            Kind::Rate => "FLOP/s, GFLOP/s, TFLOP/s or PFLOP/s",
            Kind::Intensity => "FLOPs/byte",
        }
    }

    /// The base unit of the kind, in which a number without a unit is read:
    /// `s`, `B`, `FLOP`, `FLOP/s`, `FLOPs/byte`.
    pub fn base(self) -> Unit {
        match self {
            Kind::Time => TIME[0],
            Kind::Bytes => Unit::new(Kind::Bytes, BYTES_SYM[0], 1.0, 1.0),
            Kind::Flops => Unit::new(Kind::Flops, FLOP_SYM[0], 1.0, 1.0),
            Kind::Rate => Unit::new(Kind::Rate, RATE_SYM[0], 1.0, 1.0),
            Kind::Intensity => INTENSITY,
        }
    }
}

/// A unit: its kind, how it is shown, and its factor to the base unit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Unit {
    /// What it measures.
    pub kind: Kind,
    /// How it is shown: `ms`, `µs`, `GB`, `GiB`, `TFLOP`, `TFLOP/s`.
    pub symbol: &'static str,
    // A value in this unit is `x * mul / div` in the base unit (a division
    // for the sub-units, so `12 ms` is exactly `12 / 1000` s).
    mul: f64,
    div: f64,
}

impl Unit {
    const fn new(kind: Kind, symbol: &'static str, mul: f64, div: f64) -> Unit {
        Unit {
            kind,
            symbol,
            mul,
            div,
        }
    }

    /// How many base units one of this unit is (`ms` is 0.001).
    pub fn factor(self) -> f64 {
        self.mul / self.div
    }

    /// `x` of this unit in the base unit: `Unit(ms).to_base(12.0)` is 0.012.
    pub fn to_base(self, x: f64) -> f64 {
        if self.div == 1.0 {
            x * self.mul
        } else {
            x / self.div
        }
    }

    /// The unit as read in a column of `field`: itself when its kind is the
    /// field's, a FLOP count as FLOP/s in a FLOP/s column (`TFLOPS` there
    /// means T FLOP/s), and `None` when it does not fit (`GB` for a time).
    pub fn read_as(self, field: Field) -> Option<Unit> {
        let kind = Kind::of(field)?;
        if kind == self.kind {
            return Some(self);
        }
        if kind == Kind::Rate && self.kind == Kind::Flops {
            let i = FLOP_SYM.iter().position(|s| *s == self.symbol)?;
            let symbol = RATE_SYM.get(i)?;
            return Some(Unit::new(Kind::Rate, symbol, self.mul, self.div));
        }
        None
    }
}

/// Why a cell is not a quantity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem<'a> {
    /// It does not start with a number.
    NotANumber,
    /// A number followed by text that is not a known unit (the text).
    UnknownUnit(&'a str),
    /// A number written with a decimal comma or thousands separators
    /// (`1,5`, `1,024`).
    Comma,
}

/// The shortest time read, in seconds (1 ps): below it a row is refused.
pub const MIN_TIME: f64 = 1e-12;
/// The longest time read, in seconds (about 11.6 days).
pub const MAX_TIME: f64 = 1e6;

const TIME: [Unit; 5] = [
    Unit::new(Kind::Time, "s", 1.0, 1.0),
    Unit::new(Kind::Time, "ms", 1.0, 1e3),
    Unit::new(Kind::Time, "µs", 1.0, 1e6),
    Unit::new(Kind::Time, "ns", 1.0, 1e9),
    Unit::new(Kind::Time, "ps", 1.0, 1e12),
];

const INTENSITY: Unit = Unit::new(Kind::Intensity, "FLOPs/byte", 1.0, 1.0);

/// Decimal prefixes, lower case, with their factors.
const SI: [(&str, f64); 7] = [
    ("", 1.0),
    ("k", 1e3),
    ("m", 1e6),
    ("g", 1e9),
    ("t", 1e12),
    ("p", 1e15),
    ("e", 1e18),
];
const FLOP_SYM: [&str; 7] = ["FLOP", "kFLOP", "MFLOP", "GFLOP", "TFLOP", "PFLOP", "EFLOP"];
const RATE_SYM: [&str; 7] = [
    "FLOP/s", "kFLOP/s", "MFLOP/s", "GFLOP/s", "TFLOP/s", "PFLOP/s", "EFLOP/s",
];
const BYTES_SYM: [&str; 7] = ["B", "kB", "MB", "GB", "TB", "PB", "EB"];
/// Binary prefixes, lower case, with their symbols and factors.
const BINARY: [(&str, &str, f64); 6] = [
    ("ki", "KiB", 1024.0),
    ("mi", "MiB", 1_048_576.0),
    ("gi", "GiB", 1_073_741_824.0),
    ("ti", "TiB", 1_099_511_627_776.0),
    ("pi", "PiB", 1_125_899_906_842_624.0),
    ("ei", "EiB", 1_152_921_504_606_846_976.0),
];

/// Reads the text of a unit (surrounding spaces and case ignored): `ms`,
/// `µs`, `GiB`, `TFLOP/s`, `FLOPs/byte`. `None` for anything else,
/// including an empty text.
pub fn unit(text: &str) -> Option<Unit> {
    let t = text.trim();
    if t.is_empty() || t.len() > 24 {
        return None;
    }
    // Both micro signs (U+00B5 and U+03BC) read as `u`.
    if let Some(rest) = t.strip_prefix(['µ', 'μ']) {
        let rest = rest.to_ascii_lowercase();
        return match rest.as_str() {
            "s" | "sec" | "secs" => Some(TIME[2]),
            _ => None,
        };
    }
    // Lower case on the stack: this runs for every cell with a unit.
    let mut buf = [0u8; 24];
    let l = match buf.get_mut(..t.len()) {
        Some(b) => {
            b.copy_from_slice(t.as_bytes());
            b.make_ascii_lowercase();
            std::str::from_utf8(b).ok()?
        }
        None => return None,
    };
    time_unit(l)
        .or_else(|| bytes_unit(l))
        .or_else(|| flop_unit(l))
}

fn time_unit(l: &str) -> Option<Unit> {
    let i = match l {
        "s" | "sec" | "secs" | "second" | "seconds" => 0,
        "ms" | "msec" | "msecs" | "msecond" | "millisecond" | "milliseconds" => 1,
        "us" | "usec" | "usecs" | "usecond" | "microsecond" | "microseconds" => 2,
        "ns" | "nsec" | "nsecs" | "nsecond" | "nanosecond" | "nanoseconds" => 3,
        "ps" | "psec" | "psecs" | "psecond" | "picosecond" | "picoseconds" => 4,
        _ => return None,
    };
    TIME.get(i).copied()
}

fn bytes_unit(l: &str) -> Option<Unit> {
    let prefix = l
        .strip_suffix("bytes")
        .or_else(|| l.strip_suffix("byte"))
        .or_else(|| l.strip_suffix('b'))?;
    for (i, (p, f)) in SI.iter().enumerate() {
        if prefix == *p {
            return Some(Unit::new(Kind::Bytes, BYTES_SYM.get(i)?, *f, 1.0));
        }
    }
    BINARY
        .iter()
        .find(|(p, _, _)| prefix == *p)
        .map(|(_, s, f)| Unit::new(Kind::Bytes, s, *f, 1.0))
}

fn flop_unit(l: &str) -> Option<Unit> {
    let at = l.find("flop")?;
    let (prefix, after) = (l.get(..at)?, l.get(at + 4..)?);
    let i = SI.iter().position(|(p, _)| *p == prefix)?;
    let (_, f) = SI.get(i)?;
    let after = after.strip_prefix('s').unwrap_or(after);
    match after {
        "" => Some(Unit::new(Kind::Flops, FLOP_SYM.get(i)?, *f, 1.0)),
        "/s" | "/sec" | "/second" => Some(Unit::new(Kind::Rate, RATE_SYM.get(i)?, *f, 1.0)),
        "/b" | "/byte" | "/bytes" if prefix.is_empty() => Some(INTENSITY),
        _ => None,
    }
}

/// Splits a cell into its number and the rest, trimmed: `12.5 µs` is
/// `(12.5, "µs")`, `4.1e12` is `(4.1e12, "")`, `2GiB` is `(2.0, "GiB")`.
/// The number is an optional sign, digits with at most one point, and an
/// optional exponent, read by [`crate::num::parse_f64_std`]; text that is a
/// whole number to it (`NaN`, `inf` included) has an empty rest.
/// `None` when the cell does not start with a number.
pub fn split_quantity(text: &str) -> Option<(f64, &str)> {
    let t = text.trim();
    if let Some(x) = parse_f64_std(t) {
        return Some((x, ""));
    }
    let b = t.as_bytes();
    let digits = |from: usize| {
        b.get(from..)
            .map_or(0, |s| s.iter().take_while(|c| c.is_ascii_digit()).count())
    };
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let int = digits(i);
    i += int;
    let mut frac = 0;
    if b.get(i) == Some(&b'.') {
        frac = digits(i + 1);
        i += 1 + frac;
    }
    if int + frac == 0 {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let sign = usize::from(matches!(b.get(i + 1), Some(b'+' | b'-')));
        let exp = digits(i + 1 + sign);
        if exp > 0 {
            i += 1 + sign + exp;
        }
    }
    let x = parse_f64_std(t.get(..i)?)?;
    Some((x, t.get(i..)?.trim()))
}

/// Reads a cell as a number and its unit, if it has one: `12.5 µs`,
/// `3 GB`, `150 TFLOP/s`, `4.1e12`. The number may be NaN or infinite
/// (`NaN`, `inf`): the caller checks it.
pub fn quantity(text: &str) -> Result<(f64, Option<Unit>), Problem<'_>> {
    let (x, rest) = split_quantity(text).ok_or(Problem::NotANumber)?;
    if rest.is_empty() {
        return Ok((x, None));
    }
    if rest.starts_with(',') {
        return Err(Problem::Comma);
    }
    match unit(rest) {
        Some(u) => Ok((x, Some(u))),
        None => Err(Problem::UnknownUnit(rest)),
    }
}

/// A time typed for a kernel (the table's field for a prediction's time):
/// a number and a time unit (`1.2 ms`, `350us`), or seconds without one; in
/// seconds, positive and within the reader's limits, or the message to
/// show beside the field.
pub fn typed_time(text: &str) -> Result<f64, String> {
    let example = "type the time it took, with its unit: 1.2 ms";
    let (x, rest) = split_quantity(text).ok_or_else(|| format!("Not a time: {example}."))?;
    let seconds = if rest.is_empty() {
        x
    } else {
        match unit(rest).filter(|u| u.kind == Kind::Time) {
            Some(u) => u.to_base(x),
            None => return Err(format!("Not a time unit: {example}.")),
        }
    };
    if seconds.is_finite() && (MIN_TIME..=MAX_TIME).contains(&seconds) {
        Ok(seconds)
    } else {
        Err("A time from 1 ps to 11 days, above zero.".to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_read() {
        for (t, sym, f) in [
            ("ms", "ms", 1e-3),
            ("µs", "µs", 1e-6),
            ("μs", "µs", 1e-6),
            ("us", "µs", 1e-6),
            ("NS", "ns", 1e-9),
            ("GB", "GB", 1e9),
            ("kB", "kB", 1e3),
            ("KB", "kB", 1e3),
            ("GiB", "GiB", 1_073_741_824.0),
            ("bytes", "B", 1.0),
            ("TFLOP", "TFLOP", 1e12),
            ("gflops", "GFLOP", 1e9),
            ("TFLOP/s", "TFLOP/s", 1e12),
            ("flops/s", "FLOP/s", 1.0),
            ("FLOPs/byte", "FLOPs/byte", 1.0),
            ("flop/b", "FLOPs/byte", 1.0),
        ] {
            let u = unit(t);
            assert_eq!(u.map(|u| u.symbol), Some(sym), "{t}");
            assert_eq!(u.map(Unit::factor), Some(f), "{t}");
        }
        for t in ["", "x", "times", "gflopz", "tflop/b", "µB", "kms"] {
            assert_eq!(unit(t), None, "{t}");
        }
    }

    #[test]
    fn cells_split() {
        assert_eq!(split_quantity("12.5 µs"), Some((12.5, "µs")));
        assert_eq!(split_quantity("12.5us"), Some((12.5, "us")));
        assert_eq!(split_quantity("4.1e12"), Some((4.1e12, "")));
        assert_eq!(split_quantity("2e3GB"), Some((2e3, "GB")));
        assert_eq!(split_quantity("1.2 EFLOP"), Some((1.2, "EFLOP")));
        assert_eq!(split_quantity("-3 ms"), Some((-3.0, "ms")));
        assert_eq!(split_quantity("ms"), None);
        assert_eq!(quantity("1,5"), Err(Problem::Comma));
        assert_eq!(quantity("3 parsecs"), Err(Problem::UnknownUnit("parsecs")));
        assert_eq!(unit("ms").map(|u| u.to_base(12.0)), Some(0.012));
    }
}
