//! A second look at a reading with the roof in hand: a column headed as
//! people write a rate (`TFLOPS`) but guessed as a count, whose counts put
//! the kernels orders of magnitude above the roof, is a rate.

use super::headers::scaled_plural;
use super::{quote, Choice, Reading};
use crate::format;
use crate::points::place::Roof;
use crate::points::Field;

/// How far above the roof counts must put most kernels
/// before the column is read as a rate: two orders of magnitude.
pub const RATE_BY_ROOF: f64 = 100.0;

/// The choice that reads a column as FLOP/s, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct RateByRoof {
    /// The column's header and its new field ([`Field::Rate`]).
    pub choice: Choice,
    /// What the preview says: which reading was chosen, and why.
    pub note: String,
}

/// The column of `reading` guessed as FLOPs from a header such as
/// `TFLOPS` (not one the user chose in `mapping`), when, read as counts,
/// most of its kernels would be more than [`RATE_BY_ROOF`] times above
/// `roof`: read it as FLOP/s. `None` otherwise.
pub fn rate_by_roof(reading: &Reading, mapping: &[Choice], roof: &Roof) -> Option<RateByRoof> {
    let col = reading.columns.iter().find(|c| {
        c.field == Field::Flops
            && scaled_plural(&c.header)
            && !mapping.iter().any(|(h, _)| *h == c.header)
    })?;
    // Read as counts, how far above the roof each measured kernel is.
    let times = reading
        .kernels
        .iter()
        .filter(|k| k.predicted.is_none())
        .map(|k| k.rate / roof.at(k.intensity));
    let (n, far) = times.fold((0, 0), |(n, far), x| {
        (n + 1, far + usize::from(x > RATE_BY_ROOF))
    });
    // Most of them (more than half) far above: a rate.
    if 2 * far <= n {
        return None;
    }
    let h = quote(&col.header).unwrap_or_else(|| "the FLOPs column".to_string());
    Some(RateByRoof {
        choice: (col.header.clone(), Field::Rate),
        note: format!(
            "'{h}' is read as FLOP/s, a rate: read as FLOPs (a count), it would put {far} of the {n} kernels more than {} times above the roof.",
            format::count(RATE_BY_ROOF)
        ),
    })
}
