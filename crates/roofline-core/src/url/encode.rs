//! Writing a state as a link: `v=1`, then only the values that differ from
//! their defaults, in the order of `docs/url-schema.md`, escaped so that
//! sizes and pairs stay readable.

use crate::pages::AppState;
use crate::pages::View;
use crate::small::Join;

use super::VERSION;
use crate::query::LinkOut;

/// Percent-encodes a key or value (form encoding: a space becomes `+`),
/// then restores `:` and `,`, which are safe in a query and keep `sz` and
/// `pairs` readable. (A `%` in the text is itself encoded as `%25`, so every
/// `%3A` or `%2C` in the output came from a `:` or a `,`.)
fn escape(s: &str) -> String {
    // The serializer yields each escaped byte as its own `%XX` piece, so the
    // two are restored piece by piece (no substring search in the wasm).
    form_urlencoded::byte_serialize(s.as_bytes())
        .map(|piece| match piece {
            "%3A" => ":",
            "%2C" => ",",
            other => other,
        })
        .collect()
}

/// Writes `state` as a query string without the leading `?`: `v=1` first,
/// then only the values that differ from their defaults, in the order of
/// `docs/url-schema.md`. The default state is `v=1`.
pub fn encode(state: &AppState) -> String {
    let mut out = LinkOut::default();
    out.put("v", VERSION.to_string());
    if state.view != View::default() {
        out.put("view", state.view.key().to_string());
    }
    state.write_pages(&mut out);
    out.pairs()
        .iter()
        .map(|(k, v)| format!("{}={}", escape(k), escape(v)))
        .collect::<Vec<_>>()
        .joined("&")
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    #[test]
    fn escape_keeps_colons_and_commas_readable() {
        assert_eq!(escape("a:b,c d"), "a:b,c+d");
        // A `%` is escaped itself, so an escaped colon in the text stays escaped.
        assert_eq!(escape("%3A,%2C"), "%253A,%252C");
        assert_eq!(escape("β→δ"), "%CE%B2%E2%86%92%CE%B4");
    }
}
