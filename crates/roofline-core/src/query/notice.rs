//! What reading a link tells the user: the [`Notice`] type, the capped
//! list the decoder fills, and the wording of its messages, which echo text
//! from a link only where it is safe to show.

use std::fmt;

use crate::format::clip;
use crate::small::Join;

use super::{NumErr, MAX_NOTICES};

/// How many characters of a bad value a notice echoes.
const ECHO_CHARS: usize = 40;

/// A problem with one parameter of a link, and what was done about it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Notice {
    /// The parameter's key as written in the link (lower-cased, clipped),
    /// such as `sz` or `peak.bf16`; empty for a notice about the whole link.
    pub param: String,
    /// What was wrong and what was used instead, ready to show.
    pub message: String,
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

pub(crate) struct Notes {
    pub(crate) list: Vec<Notice>,
    pub(crate) dropped: usize,
}

impl Notes {
    pub(crate) fn push(&mut self, param: &str, message: String) {
        if self.list.len() < MAX_NOTICES {
            self.list.push(Notice {
                param: clip(param, ECHO_CHARS),
                message,
            });
        } else {
            self.dropped += 1;
        }
    }

    pub(crate) fn finish(mut self) -> Vec<Notice> {
        if self.dropped > 0 {
            self.list.push(Notice {
                param: String::new(),
                message: format!(
                    "{} more problems with this link are not listed",
                    self.dropped
                ),
            });
        }
        self.list
    }
}

/// Characters that could reorder or hide text around them.
fn is_invisible(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}')
}

/// `s` as a notice may echo it: trimmed, clipped, invisible characters
/// shown as spaces; `None` if it spells a non-finite number ("NaN", "inf").
pub(crate) fn shown(s: &str) -> Option<String> {
    let t: String = s
        .chars()
        .map(|c| if is_invisible(c) { ' ' } else { c })
        .collect();
    let t = clip(t.trim(), ECHO_CHARS);
    if spells_non_finite(&t) {
        None
    } else {
        Some(t)
    }
}

/// Whether `s` holds "nan" or "inf" in any case: text that would read as a
/// non-finite number is not echoed.
fn spells_non_finite(s: &str) -> bool {
    s.as_bytes()
        .windows(3)
        .any(|w| w.eq_ignore_ascii_case(b"nan") || w.eq_ignore_ascii_case(b"inf"))
}

/// `name = 'value'`, or just `name` when the value cannot be echoed.
pub(crate) fn said(name: &str, raw: &str) -> String {
    match shown(raw) {
        Some(s) => format!("{name} = '{s}'"),
        None => name.to_string(),
    }
}

/// `'text'`, or `a value` when it cannot be echoed.
pub(crate) fn quoted(raw: &str) -> String {
    match shown(raw) {
        Some(s) => format!("'{s}'"),
        None => "a value".to_string(),
    }
}

/// A dimension name from an operation, for a message.
pub(crate) fn dim_name(d: &str) -> String {
    shown(d).unwrap_or_else(|| "a dimension".to_string())
}

pub(crate) fn dim_list(dims: &[String]) -> String {
    dims.iter()
        .map(|d| dim_name(d))
        .collect::<Vec<_>>()
        .joined(", ")
}

/// Like [`shown`] for a longer message of the core's own (a parse error,
/// which echoes at most a few characters of the text).
pub(crate) fn shown_long(s: &str) -> Option<String> {
    if spells_non_finite(s) {
        None
    } else {
        Some(clip(s, 160))
    }
}

/// `D = '-5' is not a positive size` (the subject echoes the value when it can).
pub(crate) fn num_problem(name: &str, raw: &str, e: NumErr, what: &str) -> String {
    let subject = said(name, raw);
    match e {
        NumErr::NotNumber => format!("{subject} is not a number"),
        NumErr::NotPositive => format!("{subject} is not a positive {what}"),
        NumErr::TooLarge => format!("{subject} is too large"),
        NumErr::OutOfRange => format!("{subject} is outside {}", crate::input::RANGE_TEXT),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    #[test]
    fn non_finite_spellings_are_found_in_any_case() {
        for s in ["NaN", "nan", "-inf", "Infinity", "xINFy", "1e9nAn"] {
            assert!(spells_non_finite(s), "{s}");
        }
        for s in ["", "na n", "in", "4096", "βinδ", "fine"] {
            assert!(!spells_non_finite(s), "{s}");
        }
    }

    #[test]
    fn echoes_are_safe() {
        assert_eq!(shown("NaN"), None);
        assert_eq!(shown("a\u{202E}b\n"), Some("a b".to_string()));
        assert_eq!(shown("\u{202E}ab"), Some("ab".to_string()));
        assert_eq!(shown(&"x".repeat(100)).unwrap().chars().count(), 41);
    }
}
