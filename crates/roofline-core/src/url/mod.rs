//! Shareable links: the whole [`AppState`] in a URL query string.
//!
//! The schema (version [`VERSION`]) is documented, with example links, in
//! `docs/url-schema.md`. In short: `v=1`, then only the values that differ
//! from their defaults, in a fixed order, with short human-readable keys:
//!
//! ```text
//! ?v=1&chip=h100&op=matmul&sz=B:512,D:8192,F:8192&l2=none&pairs=8192x8192
//! ```
//!
//! [`encode`] writes a state; [`decode`] reads anything pasted and never
//! panics. Every value it cannot use is replaced by its default and reported
//! in a [`Notice`] that names the parameter and says what was used instead
//! (`D = '-5' is not a positive size; using 4096`). Unknown parameters are
//! ignored with a notice, and so is a link from a newer schema version.
//!
//! Query strings are split and percent-decoded by the `form_urlencoded`
//! crate (the `application/x-www-form-urlencoded` rules browsers use; `+` is
//! a space). Text from a link is only ever data: it is compared with known
//! names, parsed as numbers or as an operation's notation, and echoed in
//! notices clipped to 40 characters (and not at all when it spells a
//! non-finite number, so a notice never reads "NaN" or "inf").
//!
//! [`encode`]: fn@encode
//! [`decode`]: fn@decode

// Where the code is: `encode` writes a link and `decode` reads one. Each
// page's own keys are read and written in its folder's `link.rs`, through
// the page table (`crate::pages`), with what `crate::query` gives them.
mod decode;
mod encode;

pub use crate::calc::link::op_key;
pub use crate::query::notice::Notice;
pub use crate::query::{MAX_NOTICES, MAX_OP_CHARS, MAX_PARAMS};
pub use decode::{decode, decode_with};
pub use encode::encode;

use crate::pages::AppState;

/// A number as short as it can be written and still read back exactly
/// (now [`crate::num::shortest`]; kept here for existing paths).
pub use crate::num::shortest as number;

/// The schema version this build writes and reads.
pub const VERSION: u32 = 1;

/// What [`encode`] writes for the default state (a test checks it), so
/// that the app can write it without the encoder.
pub const DEFAULT_QUERY: &str = "v=1";

/// The result of reading a link: a valid state, and a notice for each
/// value that could not be used.
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded {
    /// The state the link describes (defaults where it says nothing or
    /// something unusable).
    pub state: AppState,
    /// One notice per problem, in the order the schema lists the keys.
    pub notices: Vec<Notice>,
}
