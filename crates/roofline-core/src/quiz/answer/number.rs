//! Numbers with units: reading `1.97e14`, `197 T`, `500 us`, `~240` or
//! `B > 240` in the unit a part asks for.
//!
//! ## Numbers
//!
//! [`parse_number`] reads one number the way people write it: `1.97e14`,
//! `197e12`, `1.97E+14`, `1.97 × 10^14`, `1,000`, `1/12`, with a leading
//! `~`, `≈`, `about`, or a relation such as `B > 240`, and an optional unit
//! with a decimal prefix (`197 T`, `197 TFLOPs/s`, `0.5 ms`, `500 µs`,
//! `8.39 MB`). A number without a unit is taken in the part's base unit
//! (seconds, bytes, FLOPs/s...).

use crate::format::clip;
use crate::num::parse_f64;

use super::scan::Scan;
use super::{clean, too_long};

/// The unit a numeric answer is measured in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unit {
    /// A plain number or a count (a batch size in tokens, a ratio).
    None,
    /// A time, in seconds.
    Seconds,
    /// An amount of data, in bytes.
    Bytes,
    /// A number of operations.
    Flops,
    /// A throughput, in FLOPs (or OPs) per second.
    FlopsPerSecond,
    /// A bandwidth, in bytes per second.
    BytesPerSecond,
    /// An arithmetic intensity, in FLOPs per byte.
    FlopsPerByte,
}

const LARGE_PREFIXES: &[(&str, f64)] = &[
    ("kilo", 1e3),
    ("mega", 1e6),
    ("giga", 1e9),
    ("tera", 1e12),
    ("peta", 1e15),
    ("exa", 1e18),
    ("Ki", 1024.0),
    ("Mi", 1_048_576.0),
    ("Gi", 1_073_741_824.0),
    ("Ti", 1_099_511_627_776.0),
    ("k", 1e3),
    ("K", 1e3),
    ("M", 1e6),
    ("G", 1e9),
    ("g", 1e9),
    ("T", 1e12),
    ("t", 1e12),
    ("P", 1e15),
    ("p", 1e15),
    // A pod's FLOPs/s, as `format::flops_rate` shows them (4.1 EFLOP/s).
    ("E", 1e18),
];

const SMALL_PREFIXES: &[(&str, f64)] = &[
    ("milli", 1e-3),
    ("micro", 1e-6),
    ("nano", 1e-9),
    ("pico", 1e-12),
    ("m", 1e-3),
    ("u", 1e-6),
    ("µ", 1e-6),
    ("μ", 1e-6),
    ("n", 1e-9),
    ("p", 1e-12),
];

impl Unit {
    /// Every unit.
    pub const ALL: [Unit; 7] = [
        Unit::None,
        Unit::Seconds,
        Unit::Bytes,
        Unit::Flops,
        Unit::FlopsPerSecond,
        Unit::BytesPerSecond,
        Unit::FlopsPerByte,
    ];

    /// The unit's symbol as shown after a number (empty for [`Unit::None`]).
    pub fn symbol(self) -> &'static str {
        match self {
            Unit::None => "",
            Unit::Seconds => "s",
            Unit::Bytes => "bytes",
            Unit::Flops => "FLOPs",
            Unit::FlopsPerSecond => "FLOPs/s",
            Unit::BytesPerSecond => "bytes/s",
            Unit::FlopsPerByte => "FLOPs/byte",
        }
    }

    /// What the unit measures, for messages ("a time", "a number of bytes").
    pub fn describe(self) -> &'static str {
        match self {
            Unit::None => "a plain number",
            Unit::Seconds => "a time",
            Unit::Bytes => "a number of bytes",
            Unit::Flops => "a number of operations",
            Unit::FlopsPerSecond => "a rate in FLOPs/s",
            Unit::BytesPerSecond => "a bandwidth in bytes/s",
            Unit::FlopsPerByte => "an intensity in FLOPs/byte",
        }
    }

    /// How to write an answer in this unit, for messages.
    pub fn example(self) -> &'static str {
        match self {
            Unit::None => "240, ~240, 2.4e2 or B > 240",
            Unit::Seconds => "0.5 ms, 500 us, 500 µs or 5e-4 (seconds)",
            Unit::Bytes => "8.4e6, 8.4 MB or 8,400,000 bytes",
            Unit::Flops => "1.7e10, 17 GFLOPs",
            Unit::FlopsPerSecond => "1.97e14, 197e12, 197 T or 197 TFLOPs/s",
            Unit::BytesPerSecond => "8.2e11, 820 GB/s",
            Unit::FlopsPerByte => "240, ~240, 1/12 or 240 FLOPs/byte",
        }
    }

    fn words(self) -> &'static [&'static str] {
        match self {
            Unit::None => &["tokens", "token", "x", "×", "times"],
            Unit::Seconds => &["s", "sec", "secs", "second", "seconds"],
            Unit::Bytes => &["b", "byte", "bytes"],
            Unit::Flops => &["flop", "flops", "op", "ops", "operations"],
            Unit::FlopsPerSecond => &[
                "flop/s",
                "flops/s",
                "flop/sec",
                "flops/sec",
                "flops/second",
                "flopspersecond",
                "flops",
                "flop",
                "ops/s",
                "op/s",
                "ops/sec",
                "opspersecond",
                "ops",
            ],
            Unit::BytesPerSecond => &[
                "b/s",
                "byte/s",
                "bytes/s",
                "b/sec",
                "bytes/sec",
                "bytespersecond",
            ],
            Unit::FlopsPerByte => &[
                "flops/byte",
                "flop/byte",
                "flops/bytes",
                "flops/b",
                "flop/b",
                "ops/byte",
                "op/byte",
                "ops/b",
                "flopsperbyte",
                "opsperbyte",
            ],
        }
    }

    fn prefixes(self) -> &'static [(&'static str, f64)] {
        match self {
            Unit::Seconds => SMALL_PREFIXES,
            _ => LARGE_PREFIXES,
        }
    }

    /// The multiplier a unit text (whitespace removed) stands for, if it is a
    /// unit of this kind: `ms` is 1e-3 for seconds, `T` 1e12 for any larger
    /// quantity.
    fn multiplier(self, key: &str) -> Option<f64> {
        let lower = key.to_ascii_lowercase();
        if self.words().contains(&lower.as_str()) {
            return Some(1.0);
        }
        for (p, m) in self.prefixes() {
            let rest = if p.chars().count() > 2 {
                lower.strip_prefix(p).map(str::to_string)
            } else {
                key.strip_prefix(p).map(str::to_ascii_lowercase)
            };
            if let Some(rest) = rest {
                if rest.is_empty() || self.words().contains(&rest.as_str()) {
                    return Some(*m);
                }
            }
        }
        None
    }
}

/// A number read from an answer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ReadNumber {
    /// The value in the part's base unit.
    pub value: f64,
    /// Whether the learner wrote a unit (or a prefix) after the number.
    pub unit_given: bool,
}

/// Reads one number written as a person writes it, in `unit` (see the
/// module documentation). A number without a unit is in the base unit
/// (seconds, bytes, ...). The error is a message for the learner.
pub fn parse_number(text: &str, unit: Unit) -> Result<f64, String> {
    read_number(text, unit).map(|n| n.value)
}

const APPROX_WORDS: &[&str] = &[
    "approximately",
    "approx.",
    "approx",
    "about",
    "around",
    "roughly",
    "nearly",
    "circa",
    "ca.",
    "~",
    "≈",
    "≃",
    "∼",
];

const RELATIONS: &[char] = &['<', '>', '=', '≥', '≤', '≈', '~', '≃', '∼', ':'];

/// Checks that the text before the number is only a qualifier (`~`,
/// `about`) or a relation (`B >`, `batch size =`).
fn check_lead(lead: &str) -> Result<(), String> {
    let mut rest = lead.trim().to_ascii_lowercase();
    loop {
        let before = rest.clone();
        for w in APPROX_WORDS {
            if let Some(r) = rest.strip_prefix(w) {
                rest = r.trim_start().to_string();
            }
        }
        if let Some(pos) = rest.find(RELATIONS) {
            let name = &rest[..pos];
            if name
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == ' ')
            {
                rest = rest[pos..]
                    .trim_start_matches(RELATIONS)
                    .trim_start()
                    .to_string();
            }
        }
        if rest == before {
            break;
        }
    }
    if rest.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "I could not read '{}' before the number: type just the number, such as 240, ~240 or B > 240.",
            clip(lead.trim(), 24)
        ))
    }
}

/// Reads a number with its unit (see [`parse_number`]).
pub(crate) fn read_number(text: &str, unit: Unit) -> Result<ReadNumber, String> {
    let cleaned = clean(text);
    let t = cleaned.trim();
    if t.is_empty() {
        return Err(format!("Type a number, such as {}.", unit.example()));
    }
    if too_long(t) {
        return Err(
            "That answer is too long: type just the number and, if you like, its unit.".to_string(),
        );
    }
    let chars: Vec<char> = t.chars().collect();
    let start = (0..chars.len()).find(|&i| {
        chars[i].is_ascii_digit()
            || (chars[i] == '.' && chars.get(i + 1).is_some_and(|c| c.is_ascii_digit()))
    });
    let Some(start) = start else {
        return Err(format!(
            "I could not find a number in '{}'. Write one such as {}.",
            clip(t, 24),
            unit.example()
        ));
    };
    let (lead_end, sign) = match start.checked_sub(1).and_then(|k| chars.get(k)) {
        Some('-') => (start - 1, -1.0),
        Some('+') => (start - 1, 1.0),
        _ => (start, 1.0),
    };
    let lead: String = chars[..lead_end].iter().collect();
    check_lead(&lead)?;
    let mut s = Scan {
        c: &chars,
        i: start,
    };
    let mantissa = s.literal(true)?;
    let mut value = parse_f64(&mantissa)
        .ok_or_else(|| format!("'{}' is not a number I can read.", clip(&mantissa, 24)))?;
    if let Some(e) = s.times_ten() {
        value *= 10f64.powi(e);
    }
    // A fraction: `1/12`.
    let save = s.i;
    s.skip_ws();
    if s.peek() == Some('/') {
        s.i += 1;
        s.skip_ws();
        if s.digit_at(0) || (s.peek() == Some('.') && s.digit_at(1)) {
            let den_text = s.literal(false)?;
            let den = parse_f64(&den_text).unwrap_or(0.0);
            if den == 0.0 || !den.is_finite() {
                return Err("A fraction needs a denominator that is not zero.".to_string());
            }
            value /= den;
        } else {
            s.i = save;
        }
    } else {
        s.i = save;
    }
    let suffix: String = chars[s.i..].iter().collect();
    let key: String = suffix
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .trim_end_matches(['.', '!'])
        .to_string();
    let (mult, unit_given) = if key.is_empty() {
        (1.0, false)
    } else if let Some(m) = unit.multiplier(&key) {
        (m, true)
    } else if let Some(other) = Unit::ALL
        .into_iter()
        .find(|u| *u != unit && u.multiplier(&key).is_some())
    {
        return Err(format!(
            "This part asks for {}, but '{}' is a unit of {}. Write it as {}.",
            unit.describe(),
            clip(suffix.trim(), 16),
            other.describe(),
            unit.example()
        ));
    } else {
        return Err(format!(
            "I could not read '{}' after the number. Type one number, such as {}.",
            clip(suffix.trim(), 24),
            unit.example()
        ));
    };
    let v = sign * value * mult;
    if !v.is_finite() {
        return Err("That number is too large to work with.".to_string());
    }
    Ok(ReadNumber {
        value: v,
        unit_given,
    })
}
