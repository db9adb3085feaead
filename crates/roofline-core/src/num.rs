//! Decimal text to `f64`, in one place; the shortest text of an `f64`
//! that reads back exactly ([`shortest`]); and powers of ten ([`pow10`]).
//!
//! [`parse_f64`] accepts exactly what std's `f64::from_str` accepts and
//! returns the same value. Natively (and in every test of this crate) it is
//! std's parser. With the `host-parse` feature, which the browser app turns
//! on for its wasm build only, std's parser is left out of the build: its
//! correctly rounded algorithm carries a table of powers of five that is
//! about 10 KB of the gzipped wasm. (The quiz's `evalexpr` reads its
//! literals through here too, see `quiz::numbers`.) The text is still
//! checked here against std's grammar, and its value is then asked of the
//! host, which the app installs at start with [`set_host_parser`]: the
//! browser's `parseFloat`, correctly rounded as well (ECMAScript requires it
//! up to 20 significant digits; the links this app writes carry at most 17).
//! A wasm-bindgen test in Chromium checks that the two agree
//! (`tests/wasm_parse.rs` in the app).

#[cfg(feature = "host-parse")]
use std::sync::OnceLock;

/// The host's parser, given only text that [`is_decimal`] accepts.
#[cfg(feature = "host-parse")]
static HOST: OnceLock<fn(&str) -> f64> = OnceLock::new();

/// Installs the host's parser (the first call wins). It is given only
/// decimal text of std's grammar without `inf` or `nan`, and must return
/// the correctly rounded value. Without the `host-parse` feature this does
/// nothing: std's parser is used.
pub fn set_host_parser(parse: fn(&str) -> f64) {
    #[cfg(feature = "host-parse")]
    {
        let _ = HOST.set(parse);
    }
    #[cfg(not(feature = "host-parse"))]
    {
        let _ = parse;
    }
}

/// The value of `text` when std's `f64::from_str` accepts it: an optional
/// sign, then `inf`, `infinity` or `nan` in any case, or digits with at most
/// one point and at least one digit, and an optional exponent (`e` or `E`,
/// an optional sign, digits). `None` otherwise, and, with `host-parse`,
/// when no host parser is installed.
pub fn parse_f64(text: &str) -> Option<f64> {
    let body = text.strip_prefix(['+', '-']).unwrap_or(text);
    let negative = text.starts_with('-');
    let special = if body.eq_ignore_ascii_case("inf") || body.eq_ignore_ascii_case("infinity") {
        Some(f64::INFINITY)
    } else if body.eq_ignore_ascii_case("nan") {
        Some(f64::NAN)
    } else {
        None
    };
    if let Some(v) = special {
        return Some(if negative { -v } else { v });
    }
    if !is_decimal(body) {
        return None;
    }
    decimal_value(text)
}

/// [`parse_f64`] for the measurements' reader, always std's parser, even
/// with `host-parse`: a table's every cell is a number, and ten thousand rows
/// were thirty thousand calls into the browser's `parseFloat`, each with its
/// text copied out of the wasm memory and decoded (about 12 ms of a 41 ms
/// paste). Only the reader calls it, so in the app std's parser and its
/// table are in the measurements' chunk, loaded when that panel opens, not
/// in the first load.
pub fn parse_f64_std(text: &str) -> Option<f64> {
    text.parse().ok()
}

/// A number as short as it can be written and still read back exactly:
/// `4096`, `1.97e14`, `0.5`.
pub fn shortest(x: f64) -> String {
    let plain = format!("{x}");
    let exp = format!("{x:e}");
    if exp.len() < plain.len() {
        exp
    } else {
        plain
    }
}

/// Whether `body` (after any sign) is `digits [. digits] [exponent]` with at
/// least one digit before the exponent.
fn is_decimal(body: &str) -> bool {
    let bytes = body.as_bytes();
    let digits = |from: usize| {
        bytes[from..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let int = digits(0);
    let mut i = int;
    let mut frac = 0;
    if bytes.get(i) == Some(&b'.') {
        frac = digits(i + 1);
        i += 1 + frac;
    }
    if int + frac == 0 {
        return false;
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let exp = digits(i);
        if exp == 0 {
            return false;
        }
        i += exp;
    }
    i == bytes.len()
}

/// The value of decimal text (sign included) that [`is_decimal`] accepted.
#[cfg(not(feature = "host-parse"))]
fn decimal_value(text: &str) -> Option<f64> {
    text.parse().ok()
}

/// The value of decimal text (sign included) that [`is_decimal`] accepted.
#[cfg(feature = "host-parse")]
fn decimal_value(text: &str) -> Option<f64> {
    HOST.get().map(|parse| parse(text))
}

/// 10 to the power `e`, without `f64::powf`, whose libm code (1.2 KB of
/// the gzipped wasm) nothing else needs. A whole `e` (a decade from
/// `floor` or `ceil`, as the charts' axes use) goes through `powi`: exact
/// up to 10²², correctly rounded down to 10⁻²², within a few units in the
/// last place beyond; any other `e` (a position between decades) through
/// `exp`, within a few units in the last place too. NaN stays NaN, like
/// `powf`.
pub fn pow10(e: f64) -> f64 {
    if e.is_nan() {
        f64::NAN
    } else if e.fract() == 0.0 || e.is_infinite() {
        // `as` saturates; 10^±400 is already inf / 0.
        10f64.powi(e.clamp(-400.0, 400.0) as i32)
    } else {
        (e * std::f64::consts::LN_10).exp()
    }
}

#[cfg(test)]
// The tests compare with std's powf: the rule of clippy.toml is about the wasm.
#[allow(clippy::disallowed_methods)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn pow10_matches_powf() {
        // Whole exponents: the same double as powf up to 10^±22 (exact
        // above 1), within a few units in the last place beyond.
        for e in -22..=22 {
            let e = f64::from(e);
            assert_eq!(pow10(e), 10f64.powf(e), "10^{e}");
        }
        for e in (-300..-22).chain(23..=300) {
            let (got, want) = (pow10(f64::from(e)), 10f64.powf(f64::from(e)));
            assert!((got - want).abs() <= want * 8.0 * f64::EPSILON, "10^{e}");
        }
        assert_eq!(pow10(22.0), 1e22);
        assert_eq!(pow10(-3.0), 0.001);
        assert_eq!(pow10(400.0), f64::INFINITY);
        assert_eq!(pow10(1e9), f64::INFINITY);
        assert_eq!(pow10(-1e9), 0.0);
        assert_eq!(pow10(f64::INFINITY), f64::INFINITY);
        assert_eq!(pow10(f64::NEG_INFINITY), 0.0);
        assert!(pow10(f64::NAN).is_nan());
    }

    #[test]
    fn std_reads_what_parse_f64_reads() {
        for t in [
            "0",
            "-0",
            "+0.0",
            "1",
            "1.",
            ".5",
            "4096",
            "1.97e14",
            "8.2E11",
            "2.5e-3",
            "1e22",
            "1e23",
            "123456789012345",
            "1234567890123456",
            "9007199254740993",
            "0.1",
            "-7.25",
            "1e-22",
            "3e-23",
            "00000000000000000001",
            "1.000000000000000000001",
            "",
            ".",
            "e5",
            "1e",
            "1e+",
            "--1",
            "1..2",
            "1e5.5",
            "inf",
            "NaN",
            "1,5",
            " 1",
            "1 ",
            "0x10",
            "1e9999",
            "5e-324",
        ] {
            let (a, b) = (parse_f64_std(t), parse_f64(t));
            assert_eq!(a.map(f64::to_bits), b.map(f64::to_bits), "{t:?}");
        }
    }

    proptest! {
        #[test]
        fn pow10_between_decades_is_close(e in -30.0f64..30.0) {
            let want = 10f64.powf(e);
            prop_assert!((pow10(e) - want).abs() <= want * 1e-13, "10^{}", e);
        }
    }

    #[test]
    fn numbers_are_short_and_exact() {
        for (x, s) in [
            (4096.0, "4096"),
            (1.97e14, "1.97e14"),
            (8.2e11, "8.2e11"),
            (0.5, "0.5"),
            (1e6, "1e6"),
            (256.0, "256"),
        ] {
            assert_eq!(shortest(x), s);
            assert_eq!(s.parse::<f64>(), Ok(x));
        }
    }

    #[test]
    fn accepts_what_std_accepts() {
        for t in [
            "0",
            "4096",
            "1.97e14",
            "1.97E+14",
            "5.",
            ".5",
            "-.5e-3",
            "+7",
            "1e400",
            "1e-400",
            "inf",
            "-Infinity",
            "NaN",
            "+nan",
            "00012",
            "0.1",
            "2.2250738585072014e-308",
            "9007199254740993",
            "1.7976931348623157e308",
        ] {
            let ours = parse_f64(t).map(f64::to_bits);
            let std = t.parse::<f64>().ok().map(f64::to_bits);
            assert_eq!(ours, std, "{t}");
            assert!(ours.is_some(), "{t}");
        }
    }

    #[test]
    fn rejects_what_std_rejects() {
        for t in [
            "", ".", "+", "-", "e5", ".e5", "1e", "1e+", "1.2.3", "1_000", " 1", "1 ", "0x10",
            "in", "infin", "nan1", "--1", "+-1", "1e5.0", "١", "1,5",
        ] {
            assert_eq!(parse_f64(t), None, "{t}");
            assert!(t.parse::<f64>().is_err(), "std accepts {t}");
        }
    }

    proptest! {
        /// Over text made of the characters a number can hold, the grammar
        /// check accepts exactly what std accepts, with std's value.
        #[test]
        fn same_as_std(t in "[-+0-9.eEinfatyINFATY]{0,12}") {
            let ours = parse_f64(&t).map(f64::to_bits);
            let std = t.parse::<f64>().ok().map(f64::to_bits);
            prop_assert_eq!(ours, std);
        }

        /// Every finite value's shortest text (what links carry) reads back.
        #[test]
        fn shortest_text_reads_back(bits in any::<u64>()) {
            let x = f64::from_bits(bits);
            prop_assume!(x.is_finite());
            prop_assert_eq!(parse_f64(&x.to_string()).map(f64::to_bits), Some(bits));
            prop_assert_eq!(parse_f64(&format!("{x:e}")).map(f64::to_bits), Some(bits));
        }
    }
}
