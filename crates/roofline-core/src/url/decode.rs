//! Reading a link: [`decode`] takes the query apart, reads the version and
//! the view, reads every page's keys through the page table
//! (`crate::pages`; the calculator's reader also makes sure the page can
//! show what it read), and reports repeated and unknown parameters.

use crate::pages::{AppState, View, PAGES};
use crate::small::Join;

use super::{Decoded, VERSION};
use crate::query::notice::{said, shown, Notes};
use crate::query::{query_part, whole, Params, MAX_PARAMS};

/// Reads a link (a query string with or without the leading `?`, or a
/// whole URL). Never panics; see the module documentation.
pub fn decode(query: &str) -> Decoded {
    decode_with(query, &[])
}

/// [`decode`], also checking the quiz question against `questions`: each
/// entry is a question id and its number of parts. With an empty list only
/// the form of the id is checked ([`crate::state::is_question_id`]) and parts run up to
/// [`crate::state::MAX_PART`].
pub fn decode_with(query: &str, questions: &[(&str, u32)]) -> Decoded {
    let mut p = Params::read(query_part(query));
    let mut n = Notes {
        list: Vec::new(),
        dropped: 0,
    };
    if p.skipped > 0 {
        n.push(
            "",
            format!(
                "the link has more than {MAX_PARAMS} parameters; the last {} were ignored",
                p.skipped
            ),
        );
    }
    let view = read_version_and_view(&mut p, &mut n);
    let state = AppState::read_pages(view, &mut p, &mut n, questions);
    for e in &p.list {
        if e.used && e.count > 1 {
            let name = shown(&e.key).unwrap_or_else(|| "a parameter".to_string());
            n.push(
                &e.key,
                format!("{name} is given {} times; using the last one", e.count),
            );
        }
    }
    for e in p.list.iter().filter(|e| !e.used) {
        let msg = if e.key.is_empty() {
            "a parameter without a name was ignored".to_string()
        } else {
            match shown(&e.key) {
                Some(k) => format!("unknown parameter '{k}' ignored"),
                None => "an unknown parameter was ignored".to_string(),
            }
        };
        n.push(&e.key, msg);
    }
    Decoded {
        state,
        notices: n.finish(),
    }
}

fn read_version_and_view(p: &mut Params, n: &mut Notes) -> View {
    if let Some(v) = p.take("v") {
        match whole(&v) {
            Some(1) => {}
            Some(x) if x > 1 && v.trim().parse::<u64>().is_ok() => n.push(
                "v",
                format!(
                    "this link was made by a newer version of Roofline Lab (v={x}); \
                     reading what this version understands"
                ),
            ),
            _ => n.push(
                "v",
                format!(
                    "{} is not a schema version; reading the link as version {VERSION}",
                    said("v", &v)
                ),
            ),
        }
    }
    match p.take("view") {
        None => View::default(),
        Some(raw) => View::from_key(&raw).unwrap_or_else(|| {
            let keys: Vec<&str> = PAGES.iter().map(|p| p.key).collect();
            let (last, rest) = keys.split_last().unwrap_or((&"calc", &[]));
            n.push(
                "view",
                format!(
                    "{} is not {} or {last}; using {}",
                    said("view", &raw),
                    rest.joined(", "),
                    View::default().key()
                ),
            );
            View::default()
        }),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;
    use crate::url::encode;

    #[test]
    fn default_state_is_just_the_version() {
        assert_eq!(encode(&AppState::default()), "v=1");
        let d = decode("");
        assert_eq!(d.state, AppState::default());
        assert!(d.notices.is_empty());
    }

    #[test]
    fn the_briefs_examples() {
        let d = decode("?v=1&sz=B:256,D:-5,F:4096");
        assert_eq!(
            d.notices[0].message,
            "D = '-5' is not a positive size; using 4096"
        );
        assert_eq!(d.notices[0].param, "sz");
        let d = decode("chip=xyz");
        assert_eq!(
            d.notices[0].message,
            "chip 'xyz' is not a preset; using TPU v5e"
        );
        let d = decode("v=2&foo=1");
        assert!(d.notices[0].message.contains("newer version"));
        assert_eq!(d.notices[1].message, "unknown parameter 'foo' ignored");
    }

    #[test]
    fn whole_urls_and_fragments() {
        let d = decode("  https://example.org/lab/?v=1&chip=h100#top ");
        assert_eq!(d.state.calc.chip, "h100");
        assert!(d.notices.is_empty());
        let d = decode("v=1&chip=h100&op=fp32[N]-fp32[N]->fp32[N]");
        assert!(d.notices.is_empty(), "{:?}", d.notices);
    }
}
