//! Reading numbers as people type them into a field.

use crate::format::clip;
use crate::CoreError;

/// The smallest number accepted for a size, peak or bandwidth.
pub const MIN_VALUE: f64 = 1.0;
/// The largest number accepted (sizes, FLOP/s, bytes/s): beyond it the
/// model's products and the charts' axes leave floating point's range.
pub const MAX_VALUE: f64 = 1e21;
/// The accepted range, for messages.
pub const RANGE_TEXT: &str = "the range 1 to 1e21";

/// Whether `v` lies in the accepted range.
pub fn in_range(v: f64) -> bool {
    (MIN_VALUE..=MAX_VALUE).contains(&v)
}

/// Parses a positive, finite number typed into the field `field`: plain
/// (`4096`), with an exponent (`1.97e14`), with thousands separators
/// (`1,000` or `1_000`), or with an SI suffix (`197T`, `4k`, `8.2 G`) or a
/// binary one (`4Ki` = 4096). The error names the field and says what was
/// wrong.
pub fn parse_positive(field: &str, text: &str) -> Result<f64, CoreError> {
    read_number(field, text).map(|(v, _)| v)
}

/// Like [`parse_positive`], for a dimension's size: with a suffix, also a
/// note saying what the text was read as (`4k` is 4,000, not 4,096), shown
/// next to the field and in a link's notices.
pub fn parse_size(field: &str, text: &str) -> Result<(f64, Option<String>), CoreError> {
    let (v, suffix) = read_number(field, text)?;
    let note = suffix.map(|(s, scale)| {
        let binary = if scale == 1e3 {
            "; for 4,096 write 4096 or 4Ki"
        } else {
            ""
        };
        format!(
            "{} read as {} ({s} = {}{binary})",
            clip(text.trim(), 24),
            crate::format::plain_number(v),
            crate::format::plain_number(scale)
        )
    });
    Ok((v, note))
}

/// A suffix as typed (`k`, `Ki`) and what it multiplies by.
type Suffix = (&'static str, f64);

/// The number in `text` and the suffix it had.
fn read_number(field: &str, text: &str) -> Result<(f64, Option<Suffix>), CoreError> {
    let shown = clip(text.trim(), 24);
    let bad = |why: &str| CoreError::Invalid(format!("{field}: '{shown}' {why}"));
    let t: String = text
        .trim()
        .chars()
        .filter(|c| !matches!(c, ',' | '_' | ' '))
        .collect();
    if t.is_empty() {
        return Err(CoreError::Invalid(format!("{field}: enter a number")));
    }
    const SUFFIXES: [(&str, f64); 10] = [
        ("Ki", 1024.0),
        ("Mi", 1048576.0),
        ("Gi", 1073741824.0),
        ("Ti", 1099511627776.0),
        ("k", 1e3),
        ("K", 1e3),
        ("M", 1e6),
        ("G", 1e9),
        ("T", 1e12),
        ("P", 1e15),
    ];
    let (num, suffix) = match SUFFIXES.iter().find(|(s, _)| t.ends_with(s)) {
        Some(&(s, scale)) => (&t[..t.len() - s.len()], Some((s, scale))),
        None => (t.as_str(), None),
    };
    let ok_chars = num
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'));
    // The text is not echoed when it is not a number: it may be anything.
    let not_number =
        || CoreError::Invalid(format!("{field}: enter a number such as 4096 or 1.97e14"));
    if !ok_chars || num.is_empty() {
        return Err(not_number());
    }
    let v = crate::num::parse_f64(num).ok_or_else(not_number)?;
    let v = v * suffix.map_or(1.0, |s| s.1);
    if !v.is_finite() {
        return Err(CoreError::Invalid(format!(
            "{field}: this number is too large"
        )));
    }
    if v <= 0.0 {
        return Err(bad("must be greater than zero"));
    }
    if !in_range(v) {
        return Err(bad(&format!("is outside {RANGE_TEXT}")));
    }
    Ok((v, suffix))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn reads_what_people_type() {
        assert_eq!(parse_positive("D", "4096").unwrap(), 4096.0);
        assert_eq!(parse_positive("D", " 1,000 ").unwrap(), 1000.0);
        assert_eq!(parse_positive("peak", "1.97e14").unwrap(), 1.97e14);
        assert_eq!(parse_positive("peak", "197T").unwrap(), 1.97e14);
        assert_eq!(parse_positive("B", "4k").unwrap(), 4000.0);
        assert_eq!(parse_positive("B", "4Ki").unwrap(), 4096.0);
        assert_eq!(parse_positive("B", "2Mi").unwrap(), 2097152.0);
    }

    #[test]
    fn names_the_field_when_wrong() {
        for bad in [
            "", "-5", "0", "abc", "1e400", "NaN", "inf", "<script>", "0.5", "1e22",
        ] {
            let e = parse_positive("D", bad).unwrap_err().to_string();
            assert!(e.starts_with("D: "), "{e}");
            assert!(
                !e.contains("NaN") && !e.contains("inf") && !e.contains('<'),
                "{e}"
            );
        }
    }

    #[test]
    fn a_size_with_a_suffix_says_what_it_became() {
        let (v, note) = parse_size("B", "4k").unwrap();
        assert_eq!(v, 4000.0);
        assert_eq!(
            note.as_deref(),
            Some("4k read as 4000 (k = 1000; for 4,096 write 4096 or 4Ki)")
        );
        let (v, note) = parse_size("B", "4Ki").unwrap();
        assert_eq!(v, 4096.0);
        assert_eq!(note.as_deref(), Some("4Ki read as 4096 (Ki = 1024)"));
        assert_eq!(parse_size("B", "4096").unwrap(), (4096.0, None));
        assert!(parse_size("B", "4x").is_err());
    }
}
