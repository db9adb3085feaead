//! The texts the questions show numbers, rates, sizes and chips with (a
//! number as a learner would type it, a rate with its unit, "an H100").

use crate::format::{self, sci, sig};
use crate::quiz::answer::Unit;
use crate::DType;

use DType::{Fp4, Fp8, Int4, Int8};

/// A number as a learner would type it.
pub(super) fn plain(x: f64) -> String {
    for k in 2..=64u32 {
        let kf = f64::from(k);
        if (x * kf - 1.0).abs() < 1e-9 {
            return format!("1/{k}");
        }
    }
    if x.abs() >= 1e4 {
        sci(x)
    } else {
        sig(x, 4)
    }
}

pub(super) fn number_text(x: f64, unit: Unit) -> String {
    match unit {
        Unit::None => plain(x),
        Unit::FlopsPerByte => format!("{} FLOPs/byte", plain(x)),
        Unit::Seconds => format::seconds(x),
        Unit::Bytes => format::bytes(x),
        Unit::Flops => format::flops(x),
        Unit::FlopsPerSecond => format::flops_rate(x),
        Unit::BytesPerSecond => format::bandwidth(x),
    }
}

pub(super) fn ci_text(x: f64) -> String {
    format!("{} FLOPs/byte", sig(x, 4))
}

pub(super) fn bw_text(x: f64) -> String {
    format!("{} bytes/s", sci(x))
}

pub(super) fn rate_text(x: f64, dtype: DType) -> String {
    if dtype.is_integer() {
        format!("{} OPs/s", sci(x))
    } else {
        format!("{} FLOPs/s", sci(x))
    }
}

/// A constant exactly as Rust writes it (`3.94e14`), for formulas.
pub(super) fn exact(x: f64) -> String {
    format!("{x:e}")
}

pub(super) fn dtype_size(d: DType) -> String {
    match d {
        Int8 | Fp8 => "1 byte".to_string(),
        Int4 | Fp4 => "half a byte".to_string(),
        other => format!("{} bytes", sig(other.bytes(), 3)),
    }
}

/// "a TPU v5e", "an H100 SXM": the article follows how the first letter
/// is read aloud.
pub(super) fn with_article(name: &str) -> String {
    let an = name
        .chars()
        .next()
        .is_some_and(|c| "AEFHILMNORSX".contains(c.to_ascii_uppercase()));
    format!("{} {name}", if an { "an" } else { "a" })
}

/// `text` with its first letter in lower case, to follow a colon (hints
/// start with an ASCII letter; ASCII only, so no Unicode case tables).
pub(super) fn lower_first(text: &str) -> String {
    let mut out = text.to_string();
    if let Some(first) = out.get_mut(..1) {
        first.make_ascii_lowercase();
    }
    out
}

/// The shortest text of a value in a note (`240`, `480 FLOPs/byte`).
pub(super) fn gives_text(x: f64, unit: Unit) -> String {
    let n = if (1e-3..1e6).contains(&x.abs()) {
        sig(x, 3)
    } else {
        sci(x)
    };
    match unit {
        Unit::None => n,
        Unit::FlopsPerByte => format!("{n} FLOPs/byte"),
        other => crate::quiz::check::value_text(x, other),
    }
}
