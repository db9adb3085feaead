//! The calculator's keys of a link (docs/url-schema.md): `read.rs` reads
//! them, `viable.rs` makes sure the page can show what was read, and
//! `write.rs` writes them. The link codec (`crate::url`) calls them through
//! the page table (`crate::pages`); they are the link chunk's code.

mod level;
mod lines;
mod network;
mod read;
mod viable;
mod write;

pub use write::op_key;
pub(crate) use write::write;

use crate::query::notice::Notes;
use crate::query::Params;
use crate::state::CalcState;

/// The calculator's state from its keys: every bad value replaced by a
/// fallback with a notice, then made viable (the page can show it).
pub(crate) fn read(p: &mut Params, n: &mut Notes) -> CalcState {
    viable::viable(read::read_calc(p, n), n)
}
