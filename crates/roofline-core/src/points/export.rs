//! The points as CSV: the kernels with every computed column, in a form
//! that "Add measurements" reads back (the computed columns are then
//! ignored and recomputed against the roof in use).

use crate::num::shortest;

use super::place::{place, Roof};
use super::Kernel;

/// The header of the export.
pub const HEADER: [&str; 12] = [
    "name",
    "flops",
    "bytes",
    "time_s",
    "intensity",
    "attained_flop_s",
    "roof_flop_s",
    "fraction_of_roof",
    "binding",
    "lower_bound_s",
    "time_saved_s",
    "dtype",
];

/// `kernels` placed under `roof`, as CSV text: [`HEADER`], then a row per
/// kernel in input order; unknown values are empty cells.
pub fn csv(kernels: &[Kernel], roof: &Roof) -> String {
    let mut w = csv::WriterBuilder::new().from_writer(Vec::new());
    let num = |v: Option<f64>| v.map(shortest).unwrap_or_default();
    let mut rows: Vec<Vec<String>> = vec![HEADER.iter().map(|h| h.to_string()).collect()];
    for k in kernels {
        let p = place(k, roof);
        rows.push(vec![
            k.name.to_string(),
            num(k.flops()),
            num(k.bytes()),
            num(k.time),
            shortest(k.intensity),
            // A prediction has no throughput of its own: empty, as its time.
            num(k.predicted.is_none().then_some(k.rate)),
            shortest(p.roof),
            num(k.predicted.is_none().then_some(p.fraction)),
            p.binding_key(roof).to_string(),
            num(p.lower_bound),
            num(p.saved),
            k.dtype.map(|d| d.name().to_string()).unwrap_or_default(),
        ]);
    }
    for r in rows {
        // Writing to a Vec cannot fail but for a bug in the writer; a row
        // it refuses is left out rather than panicking.
        let _ = w.write_record(&r);
    }
    w.into_inner()
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .unwrap_or_default()
}
