//! A metric's value as Nsight Compute writes it, in its unit: thousands
//! separators and a decimal point or comma (its locale's), `nsecond`,
//! `Kbyte`, `inst`.

use super::{Kind, Launch};
use crate::num::parse_f64_std;
use crate::points::read::{quote, quoted};

/// Metric `name` of `l` in base units (seconds, bytes, a count), its
/// decimals read as `decimal` where they read both ways: `None`
/// when the export does not have it; an error when its value or unit cannot
/// be read.
pub(super) fn get(
    l: &Launch,
    name: &str,
    kind: Kind,
    decimal: Decimal,
) -> Result<Option<f64>, String> {
    let Some(m) = l.metric(name) else {
        return Ok(None);
    };
    if m.unit.is_empty() && !matches!(kind, Kind::Count) {
        return Err(format!(
            "{name} has no unit (on the raw page, keep the units row under the header)"
        ));
    }
    let Some(scale) = scale(&m.unit, kind) else {
        return Err(format!(
            "{name} is in '{}', a unit not read here",
            quote(&m.unit).unwrap_or_default()
        ));
    };
    let x = number(&m.value, decimal).map_err(|why| format!("{name}{} {why}", quoted(&m.value)))?;
    Ok(Some(x * scale))
}

/// What one `unit` of `kind` is in base units; `None` for a unit that is
/// not one of `kind`'s. Nsight Compute's prefixes are powers of 1000.
fn scale(unit: &str, kind: Kind) -> Option<f64> {
    let prefix = |p: &str| match p {
        "" => Some(1.0),
        "K" => Some(1e3),
        "M" => Some(1e6),
        "G" => Some(1e9),
        "T" => Some(1e12),
        "P" => Some(1e15),
        _ => None,
    };
    match kind {
        Kind::Time => match unit {
            "nsecond" | "ns" => Some(1e-9),
            "usecond" | "us" => Some(1e-6),
            "msecond" | "ms" => Some(1e-3),
            "second" | "s" => Some(1.0),
            _ => None,
        },
        Kind::Bytes => prefix(unit.strip_suffix("byte")?),
        Kind::Count => {
            let word = unit.trim_start_matches(|c: char| c.is_ascii_uppercase());
            let ok = word.is_empty() || word.chars().all(|c| c.is_ascii_lowercase());
            if !ok || (word.is_empty() && !unit.is_empty()) {
                return None;
            }
            prefix(&unit[..unit.len() - word.len()])
        }
    }
}

/// How an export writes its decimals: Nsight Compute writes numbers in
/// its locale, `1,024.35` in English, `1.024,35` where a comma is the
/// decimal mark (German, French, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(in crate::points::read) enum Decimal {
    /// A decimal point, `,` grouping thousands.
    #[default]
    Point,
    /// A decimal comma, `.` grouping thousands.
    Comma,
}

/// Whether `t` is digits grouped in threes by `sep` after a first group of
/// one to three digits that is not a lone `0` (`2,147,483,648`, `1.024`;
/// not `0,257`, `12,34`).
fn grouped(t: &str, sep: char) -> bool {
    let digits = |g: &str| !g.is_empty() && g.bytes().all(|b| b.is_ascii_digit());
    let mut groups = t.split(sep);
    let first = groups.next().unwrap_or("");
    (1..=3).contains(&first.len())
        && digits(first)
        && !first.starts_with('0')
        && groups.all(|g| g.len() == 3 && digits(g))
}

/// The decimal mark and thousands separator of `t` (either may be
/// absent), when `t` reads one way only; `None` when it reads both ways:
/// one separator with three digits after it (`2,048`, `1.024`).
///
/// The rule: with both `,` and `.`, the last is the decimal mark
/// (`1,024.35`, `1.024,35`); one of them written twice or more groups
/// thousands (`2,147,483,648`, `2.147.483.648`); written once, it is the
/// decimal mark unless three digits follow it and it could group
/// thousands (`0,257` and `6,72` have a decimal comma, `2,048` is either).
fn marks(t: &str) -> Option<(Option<char>, Option<char>)> {
    let (commas, points) = (t.matches(',').count(), t.matches('.').count());
    let other = |c: char| if c == ',' { '.' } else { ',' };
    match (commas, points) {
        (0, 0) => Some((None, None)),
        (_, 0) | (0, _) => {
            let c = if commas > 0 { ',' } else { '.' };
            if commas + points > 1 {
                return Some((None, Some(c)));
            }
            let (whole, frac) = t.split_once(c).unwrap_or((t, ""));
            if frac.len() == 3 && grouped(whole, c) {
                return None;
            }
            Some((Some(c), None))
        }
        _ => {
            let last = t.rfind([',', '.']).and_then(|i| t[i..].chars().next());
            last.map(|c| (Some(c), Some(other(c))))
        }
    }
}

/// What value `text` shows of its export's decimals: `Some` when it reads
/// one way only ([`marks`]), `None` when either way or not a number.
pub(in crate::points::read) fn shows(text: &str) -> Option<Decimal> {
    let t = text.trim().trim_start_matches('-');
    if !t.bytes().any(|b| b == b',' || b == b'.')
        || !t
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b',' || b == b'.')
    {
        return None;
    }
    match marks(t)? {
        (Some(','), _) | (None, Some('.')) => Some(Decimal::Comma),
        _ => Some(Decimal::Point),
    }
}

/// A value as Nsight Compute writes it: digits with thousands separators
/// and a decimal mark, read by the rule of [`marks`]; a value that reads
/// both ways (`2,048`) is read as `decimal`, the export's way (a
/// decimal-comma export writes `2,048` for 2.048). Anything else is an
/// error that says why: `n/a`, a negative number, digits grouped wrongly
/// (`1,23,456`).
pub(in crate::points::read) fn number(text: &str, decimal: Decimal) -> Result<f64, String> {
    let t = text.trim();
    let body = t.strip_prefix('-').unwrap_or(t);
    let separated = body.contains([',', '.']);
    let plain = if separated
        && body
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b',' || b == b'.')
    {
        // Read both ways: one separator, a thousands one in the export's
        // way (a comma where the decimal mark is a point), else its mark.
        let (mark, thousands) = marks(body).unwrap_or_else(|| {
            let c = if body.contains(',') { ',' } else { '.' };
            if (c == ',') == (decimal == Decimal::Point) {
                (None, Some(c))
            } else {
                (Some(c), None)
            }
        });
        let (whole, frac) = match mark {
            Some(m) => body.rsplit_once(m).unwrap_or((body, "")),
            None => (body, ""),
        };
        let digits = |g: &str| g.bytes().all(|b| b.is_ascii_digit());
        let whole_ok = match thousands {
            Some(sep) if whole.contains(sep) => grouped(whole, sep),
            _ => !whole.is_empty() && digits(whole),
        };
        if !whole_ok || !digits(frac) || (mark.is_some() && frac.is_empty()) {
            return Err("is not a number".into());
        }
        let whole: String = whole.chars().filter(char::is_ascii_digit).collect();
        let sign = if body.len() < t.len() { "-" } else { "" };
        format!("{sign}{whole}.{}", if frac.is_empty() { "0" } else { frac })
    } else if separated {
        return Err("is not a number".into());
    } else {
        t.to_string()
    };
    match parse_f64_std(&plain) {
        Some(x) if x.is_finite() && x >= 0.0 => Ok(x),
        Some(x) if x < 0.0 => Err("is negative".into()),
        _ => Err("is not a number".into()),
    }
}
