//! Formatting of every quantity the app shows, with units.
//!
//! *Invariant:* no function here returns "NaN" or "inf"; a non-finite input
//! formats as an em dash (or, for [`plain_number`], as words).

/// The text shown in place of a value that cannot be computed.
pub const MISSING: &str = "—";

/// Formats `x` with `digits` significant digits, no exponent, trailing zeros
/// trimmed (`240`, `0.5`, `1.23`). Meant for values between 1e-3 and 1e6.
pub fn sig(x: f64, digits: usize) -> String {
    if !x.is_finite() {
        return MISSING.to_string();
    }
    if x == 0.0 {
        return "0".to_string();
    }
    let mag = x.abs().log10().floor() as i32;
    let decimals = (digits as i32 - 1 - mag).max(0) as usize;
    let s = format!("{x:.decimals$}");
    trim_zeros(&s)
}

fn trim_zeros(s: &str) -> String {
    if s.as_bytes().contains(&b'.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

/// Scientific notation the way the book writes it: `1.97e14`, `8.2e11`,
/// `240` for values between 0.01 and 10,000.
pub fn sci(x: f64) -> String {
    if !x.is_finite() {
        return MISSING.to_string();
    }
    if x == 0.0 {
        return "0".to_string();
    }
    let a = x.abs();
    if (0.01..10_000.0).contains(&a) {
        return sig(x, 4);
    }
    let exp = a.log10().floor() as i32;
    let mut mant = x / 10f64.powi(exp);
    let mut exp = exp;
    // Rounding can carry (9.9996 -> 10.000).
    if (mant.abs() * 1000.0).round() / 1000.0 >= 10.0 {
        mant /= 10.0;
        exp += 1;
    }
    format!("{}e{}", trim_zeros(&format!("{mant:.3}")), exp)
}

/// A size or a threshold on one (tokens, elements): 4 significant digits
/// below 10,000 (`272.2`), the whole number up to a billion (`17511`, not
/// `1.751e4`, so that sizes side by side read alike), [`sci`] beyond.
pub fn count(x: f64) -> String {
    let a = x.abs();
    if !x.is_finite() || a < 10_000.0 {
        sci(x)
    } else if a < 1e9 {
        format!("{}", x.round() as i64)
    } else {
        sci(x)
    }
}

const PREFIXES: [(f64, &str); 9] = [
    (1e24, "Y"),
    (1e21, "Z"),
    (1e18, "E"),
    (1e15, "P"),
    (1e12, "T"),
    (1e9, "G"),
    (1e6, "M"),
    (1e3, "k"),
    (1.0, ""),
];

/// Formats with a decimal SI prefix and 3 significant digits:
/// `si(1.97e14, "FLOP/s")` is `197 TFLOP/s`. Values above 1e27 or below 1
/// fall back to scientific notation.
pub fn si(x: f64, unit: &str) -> String {
    if !x.is_finite() {
        return MISSING.to_string();
    }
    let a = x.abs();
    if a == 0.0 {
        return format!("0 {unit}");
    }
    for (scale, p) in PREFIXES {
        let v = x / scale;
        if a >= scale * 0.9995 && a < scale * 1e3 * 0.9995 || (scale == 1e24 && a >= scale) {
            if a >= 1e27 {
                break;
            }
            return format!("{} {p}{unit}", sig(v, 3));
        }
    }
    format!("{} {unit}", sci(x))
}

/// A time in seconds with the unit that fits: `s`, `ms`, `µs` or `ns`
/// (`ps` below a nanosecond, and seconds in scientific notation for very
/// long times).
pub fn seconds(t: f64) -> String {
    if !t.is_finite() {
        return MISSING.to_string();
    }
    let a = t.abs();
    if a == 0.0 {
        return "0 s".to_string();
    }
    let (v, unit) = if a >= 0.9995 {
        if a >= 1e6 {
            return format!("{} s", sci(t));
        }
        (t, "s")
    } else if a >= 0.9995e-3 {
        (t * 1e3, "ms")
    } else if a >= 0.9995e-6 {
        (t * 1e6, "µs")
    } else if a >= 0.9995e-9 {
        (t * 1e9, "ns")
    } else {
        (t * 1e12, "ps")
    };
    if unit == "ps" && v.abs() < 0.01 {
        return format!("{} s", sci(t));
    }
    format!("{} {unit}", sig(v, 3))
}

/// Bytes with a decimal prefix (1 kB = 1000 bytes): `8.39 MB`.
pub fn bytes(b: f64) -> String {
    if b.is_finite() && b.abs() < 1000.0 {
        return format!("{} bytes", sig(b, 3));
    }
    si(b, "B")
}

/// A throughput in FLOPs/s (`197 TFLOP/s`).
pub fn flops_rate(x: f64) -> String {
    si(x, "FLOP/s")
}

/// A rate of the math in data type `d`: `394 TOP/s` for an integer type,
/// whose operations are not floating-point (the book's OPs/s), else
/// [`flops_rate`] (`197 TFLOP/s`).
pub fn rate(x: f64, d: crate::DType) -> String {
    if d.is_integer() {
        si(x, "OP/s")
    } else {
        flops_rate(x)
    }
}

/// A count of operations (`8.59 GFLOP`).
pub fn flops(x: f64) -> String {
    if x.is_finite() && x.abs() < 1000.0 {
        return format!("{} FLOPs", sig(x, 4));
    }
    si(x, "FLOP")
}

/// A bandwidth in bytes/s (`820 GB/s`).
pub fn bandwidth(x: f64) -> String {
    si(x, "B/s")
}

/// An arithmetic intensity in FLOPs per byte (`240 FLOPs/byte`).
pub fn intensity(x: f64) -> String {
    if !x.is_finite() {
        return MISSING.to_string();
    }
    let v = if x.abs() >= 10_000.0 {
        sci(x)
    } else {
        sig(x, 3)
    };
    format!("{v} FLOPs/byte")
}

/// A fraction as a percentage (`41.7%`).
pub fn percent(f: f64) -> String {
    if !f.is_finite() {
        return MISSING.to_string();
    }
    format!("{}%", sig(f * 100.0, 3))
}

/// A number for an error message: finite values in [`sci`] form, others in
/// words (never "NaN" or "inf").
pub fn plain_number(x: f64) -> String {
    if x.is_nan() {
        "not a number".to_string()
    } else if x.is_infinite() {
        "too large".to_string()
    } else {
        sci(x)
    }
}

/// Cuts `s` to at most `max` characters (on a char boundary), adding `…`.
pub fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max).collect();
        t.push('…');
        t
    }
}

/// A tick label for a log axis: powers of ten as `1e14`, `100`, `0.1`;
/// other values in [`sci`] form.
pub fn log_tick(x: f64) -> String {
    if !x.is_finite() || x <= 0.0 {
        return String::new();
    }
    let e = x.log10().round();
    if (x.log10() - e).abs() < 1e-9 {
        let e = e as i32;
        return match e {
            -2..=4 => sig(10f64.powi(e), 1),
            _ => format!("1e{e}"),
        };
    }
    sci(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn si_prefixes() {
        assert_eq!(flops_rate(1.97e14), "197 TFLOP/s");
        assert_eq!(flops_rate(9.89e14), "989 TFLOP/s");
        assert_eq!(flops_rate(1.979e15), "1.98 PFLOP/s");
        assert_eq!(bandwidth(8.2e11), "820 GB/s");
        assert_eq!(bytes(512.0), "512 bytes");
        assert_eq!(bytes(8_388_608.0), "8.39 MB");
        assert_eq!(flops_rate(999_999.0), "1 MFLOP/s");
    }

    #[test]
    fn integer_math_is_counted_in_ops() {
        assert_eq!(rate(3.94e14, crate::DType::Int8), "394 TOP/s");
        assert_eq!(rate(3.94e14, crate::DType::Int4), "394 TOP/s");
        assert_eq!(rate(1.97e14, crate::DType::Bf16), "197 TFLOP/s");
    }

    #[test]
    fn times() {
        assert_eq!(seconds(1.5e-3), "1.5 ms");
        assert_eq!(seconds(5e-4), "500 µs");
        assert_eq!(seconds(2.0), "2 s");
        assert_eq!(seconds(3.3e-8), "33 ns");
        assert_eq!(seconds(f64::NAN), MISSING);
    }

    #[test]
    fn scientific() {
        assert_eq!(sci(1.97e14), "1.97e14");
        assert_eq!(sci(8.2e11), "8.2e11");
        assert_eq!(sci(240.24), "240.2");
        assert_eq!(sci(9.9999e14), "1e15");
        assert_eq!(sci(f64::INFINITY), MISSING);
    }

    #[test]
    fn ticks_never_look_like_99999e_minus_5() {
        assert_eq!(log_tick(100.0), "100");
        assert_eq!(log_tick(0.1), "0.1");
        assert_eq!(log_tick(1e14), "1e14");
        assert_eq!(log_tick(0.999_999_999_99), "1");
    }

    #[test]
    fn no_nan_or_inf_text() {
        for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            for s in [
                sig(x, 3),
                sci(x),
                si(x, "B"),
                seconds(x),
                intensity(x),
                percent(x),
                plain_number(x),
            ] {
                assert!(!s.contains("NaN") && !s.contains("inf"), "{s}");
            }
        }
    }
}
