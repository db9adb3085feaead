//! A metric's value as Nsight Compute writes it, in its unit: thousands
//! separators, `nsecond`, `Kbyte`, `inst`.

use super::{Kind, Launch};
use crate::num::parse_f64_std;
use crate::points::read::{quote, quoted};

/// Metric `name` of `l` in base units (seconds, bytes, a count): `None`
/// when the export does not have it; an error when its value or unit cannot
/// be read.
pub(super) fn get(l: &Launch, name: &str, kind: Kind) -> Result<Option<f64>, String> {
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
    let x = number(&m.value).map_err(|why| format!("{name}{} {why}", quoted(&m.value)))?;
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

/// A value as Nsight Compute writes it: digits with an optional point and
/// thousands separators (`2,147,483,648`, `1,024.35`). Anything else is an
/// error that says why: a decimal comma (`6,72`), `n/a`, a negative number.
pub(in crate::points::read) fn number(text: &str) -> Result<f64, String> {
    let t = text.trim();
    let plain = if t.contains(',') {
        let (whole, frac) = t.split_once('.').unwrap_or((t, ""));
        let mut groups = whole.split(',');
        let first = groups.next().unwrap_or("");
        let digits = |g: &str| g.bytes().all(|b| b.is_ascii_digit());
        let grouped = (1..=3).contains(&first.len())
            && digits(first)
            && groups.all(|g| g.len() == 3 && digits(g))
            && digits(frac);
        if !grouped {
            let decimal = t.split(',').count() == 2
                && !t.contains('.')
                && t.split(',').all(|g| !g.is_empty() && digits(g));
            return Err(if decimal {
                "has a decimal comma (the profiler ran in a locale that writes one): export again with LC_ALL=C".into()
            } else {
                "is not a number".into()
            });
        }
        t.replace(',', "")
    } else {
        t.to_string()
    };
    match parse_f64_std(&plain) {
        Some(x) if x.is_finite() && x >= 0.0 => Ok(x),
        Some(x) if x < 0.0 => Err("is negative".into()),
        _ => Err("is not a number".into()),
    }
}
