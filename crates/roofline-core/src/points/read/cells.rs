//! Cells: a cell of a row (CSV text or a JSON value) read as a number in
//! its unit and checked against the limits, or read as an operation's
//! sizes.

use serde_json::{Map, Value};

use super::plan::Col;
use super::{quote, quoted};
use super::{MAX_FLOPS, MAX_INTENSITY, MAX_MOVED, MAX_RATE, MAX_TIME, MIN_INTENSITY, MIN_TIME};
use crate::format;
use crate::num::parse_f64_std;
use crate::op::Sizes;
use crate::points::units::{self, Kind, Problem, Unit};

/// A cell of a row, from CSV text or a JSON value.
#[derive(Debug, Clone, Copy)]
pub(super) enum Cell<'a> {
    Empty,
    Text(&'a str),
    Num(f64),
    Object(&'a Map<String, Value>),
    /// A JSON value that is neither (a list, `true`), in words.
    Other(&'static str),
}

impl<'a> Cell<'a> {
    pub(super) fn of_text(s: &'a str) -> Cell<'a> {
        if s.trim().is_empty() {
            Cell::Empty
        } else {
            Cell::Text(s)
        }
    }
}

/// A cell as quoted in a message.
fn shown(cell: Cell<'_>) -> String {
    match cell {
        Cell::Text(s) => quoted(s),
        Cell::Num(x) => format!(" ({})", format::plain_number(x)),
        Cell::Empty | Cell::Object(_) | Cell::Other(_) => String::new(),
    }
}

/// Limits of each kind, in base units: (least, most).
fn limits(kind: Kind) -> (f64, f64) {
    match kind {
        Kind::Time => (MIN_TIME, MAX_TIME),
        Kind::Bytes => (0.0, MAX_MOVED),
        Kind::Flops => (0.0, MAX_FLOPS),
        Kind::Rate => (0.0, MAX_RATE),
        Kind::Intensity => (MIN_INTENSITY, MAX_INTENSITY),
    }
}

/// A value of `kind` in base units for a limit message: `2e7 s`.
fn show_plain(kind: Kind, x: f64) -> String {
    let unit = match kind {
        Kind::Time => "s",
        Kind::Bytes => "bytes",
        Kind::Flops => "FLOPs",
        Kind::Rate => "FLOP/s",
        Kind::Intensity => "FLOPs/byte",
    };
    format!("{} {unit}", format::plain_number(x))
}

/// Checks a value in base units against the limits of `kind`; `what`
/// names it in the message.
pub(super) fn in_limits(kind: Kind, x: f64, what: &str) -> Result<f64, String> {
    let (least, most) = limits(kind);
    if !x.is_finite() {
        return Err(format!("{what} is too large"));
    }
    if x > most {
        return Err(format!(
            "{what} is {}, above the limit of {}; check its unit",
            show_plain(kind, x),
            show_plain(kind, most)
        ));
    }
    if x <= 0.0 {
        return Err(format!("{what} is not positive"));
    }
    if x < least {
        return Err(format!(
            "{what} is {}, below the limit of {}; check its unit",
            show_plain(kind, x),
            show_plain(kind, least)
        ));
    }
    Ok(x)
}

/// [`units::quantity`], remembering the last unit read in `cache`.
fn quantity<'s>(
    s: &'s str,
    cache: &mut (String, Option<Unit>),
) -> Result<(f64, Option<Unit>), Problem<'s>> {
    if let Some((x, rest)) = units::split_quantity(s) {
        if rest.is_empty() {
            return Ok((x, None));
        }
        if let (true, Some(u)) = (cache.0 == rest, cache.1) {
            return Ok((x, Some(u)));
        }
        if let Some(u) = units::unit(rest) {
            cache.0.clear();
            cache.0.push_str(rest);
            cache.1 = Some(u);
        }
    }
    units::quantity(s)
}

/// Reads a numeric cell of column `col` (of `kind`) in base units; `None`
/// for an empty cell.
pub(super) fn value(cell: Cell<'_>, col: &mut Col, kind: Kind) -> Result<Option<f64>, String> {
    let label = &col.label;
    let field = kind.field();
    let (x, unit) = match cell {
        Cell::Empty => return Ok(None),
        Cell::Num(x) => (x, None),
        Cell::Text(s) => match quantity(s, &mut col.cache) {
            Ok((x, None)) => (x, None),
            Ok((x, Some(u))) => match u.read_as(field) {
                Some(u) => (x, Some(u)),
                None => {
                    return Err(format!(
                        "{label}{} is in {}, a unit of {}, not {}",
                        quoted(s),
                        u.symbol,
                        u.kind.noun(),
                        kind.noun()
                    ))
                }
            },
            Err(Problem::NotANumber) => return Err(format!("{label} is not a number{}", quoted(s))),
            // An export that writes thousands separators or a decimal
            // comma (Nsight Compute's, read as a plain table, in its
            // locale): `2,147,483,648`, `0,257`, `1.024,35`,
            // `2.147.483.648`; a value that reads both ways (`2,048`) is
            // read with a decimal point.
            Err(Problem::Comma | Problem::UnknownUnit(_))
                if col.thousands && super::ncu::number(s, Default::default()).is_ok() =>
            {
                (super::ncu::number(s, Default::default()).unwrap_or_default(), None)
            }
            Err(Problem::Comma) => {
                return Err(format!(
                    "{label}{} has a comma; write numbers with a decimal point and no thousands separators",
                    quoted(s)
                ))
            }
            Err(Problem::UnknownUnit(u)) => {
                let unit = quote(u).map_or(String::new(), |u| format!(" '{u}'"));
                return Err(format!(
                    "{label}{} has a unit{unit} that is not known; use {}",
                    quoted(s),
                    kind.examples()
                ));
            }
        },
        Cell::Object(_) | Cell::Other(_) => {
            let what = match cell {
                Cell::Other(w) => w,
                _ => "an object",
            };
            return Err(format!("{label} is not a number ({what})"));
        }
    };
    if x.is_nan() {
        return Err(format!("{label} is not a number"));
    }
    if x.is_infinite() {
        return Err(format!("{label} is too large"));
    }
    if x < 0.0 {
        return Err(format!("{label} is negative{}", shown(cell)));
    }
    if x == 0.0 {
        return Err(format!("{label} is zero{}", shown(cell)));
    }
    let unit = unit.or(col.unit).unwrap_or_else(|| kind.base());
    if !col.seen.contains(&unit.symbol) && col.seen.len() < 6 {
        col.seen.push(unit.symbol);
    }
    let v = unit.to_base(x);
    in_limits(kind, v, label).map(Some)
}

/// Reads sizes: `B=8 D=4096 F=4096` (separated by spaces, `,` or `;`;
/// `:` also works for `=`), or a JSON object `{"B": 8, ...}`.
pub(super) fn sizes_of(cell: Cell<'_>, label: &str) -> Result<Sizes, String> {
    let mut out = Sizes::new();
    let bad = |v: &str| {
        format!(
            "{label}: {} is not a positive number (write B=8 D=4096)",
            quote(v).map_or("a size".to_string(), |v| format!("'{v}'"))
        )
    };
    match cell {
        Cell::Empty => {}
        Cell::Text(text) => {
            let sep = |c: char| c.is_whitespace() || c == ',' || c == ';';
            let mut rest = text;
            loop {
                rest = rest.trim_start_matches(sep);
                if rest.is_empty() {
                    break;
                }
                let end = rest
                    .find(|c: char| c == '=' || c == ':' || sep(c))
                    .unwrap_or(rest.len());
                let name = rest.get(..end).unwrap_or("");
                rest = rest.get(end..).unwrap_or("").trim_start();
                let Some(r) = rest.strip_prefix(['=', ':']) else {
                    return Err(format!(
                        "{label}: {} is not name=value (write B=8 D=4096)",
                        quote(name).map_or("a part".to_string(), |n| format!("'{n}'"))
                    ));
                };
                rest = r.trim_start();
                let end = rest.find(sep).unwrap_or(rest.len());
                let v = rest.get(..end).unwrap_or("");
                rest = rest.get(end..).unwrap_or("");
                if name.is_empty() {
                    return Err(format!("{label}: a size has no name (write B=8 D=4096)"));
                }
                match parse_f64_std(v) {
                    Some(x) if x.is_finite() && x > 0.0 => {
                        out.insert(name.to_string(), x);
                    }
                    _ => return Err(bad(v)),
                }
            }
        }
        Cell::Object(m) => {
            for (k, v) in m {
                match v.as_f64() {
                    Some(x) if x.is_finite() && x > 0.0 => {
                        out.insert(k.clone(), x);
                    }
                    _ => return Err(bad(k)),
                }
            }
        }
        Cell::Num(_) | Cell::Other(_) => {
            return Err(format!("{label} should be like B=8 D=4096"));
        }
    }
    Ok(out)
}
