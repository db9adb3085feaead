//! The example profile offered to try: the chapter's operations at a few
//! sizes, each given a measured time from the roof of the chosen chip and a
//! plausible efficiency. The times are invented, and the names say so.

use crate::num::shortest;
use crate::op::Shortcut;
use crate::small::map_of;

use super::place::Roof;

/// An operation of the example: name, shortcut, sizes, share of the roof
/// it reaches.
type Case = (&'static str, Shortcut, &'static [(&'static str, f64)], f64);

/// The example's kernels. Efficiencies are typical of tuned kernels: large
/// matmuls near the peak, small ones and elementwise work near the
/// bandwidth line, a dot product well under it.
const CASES: [Case; 6] = [
    (
        "example: matmul, B=4096",
        Shortcut::Matmul,
        &[("B", 4096.0), ("D", 8192.0), ("F", 8192.0)],
        0.78,
    ),
    (
        "example: matmul, B=256",
        Shortcut::Matmul,
        &[("B", 256.0), ("D", 8192.0), ("F", 8192.0)],
        0.7,
    ),
    (
        "example: matmul, B=16",
        Shortcut::Matmul,
        &[("B", 16.0), ("D", 8192.0), ("F", 8192.0)],
        0.85,
    ),
    (
        "example: int8 weights, B=64",
        Shortcut::MixedMatmul,
        &[("B", 64.0), ("D", 8192.0), ("F", 8192.0)],
        0.6,
    ),
    (
        "example: elementwise add",
        Shortcut::ElementwiseAdd,
        &[("N", 16_777_216.0)],
        0.9,
    ),
    (
        "example: dot product",
        Shortcut::DotProduct,
        &[("N", 1_048_576.0)],
        0.35,
    ),
];

/// The example profile for `roof`, as CSV text with a name, the operation
/// in the book's notation, its sizes and a time in µs (bytes and FLOPs are
/// then counted from the notation when it is read).
pub fn profile(roof: &Roof) -> String {
    let mut w = csv::WriterBuilder::new().from_writer(Vec::new());
    let _ = w.write_record(["name", "op", "sizes", "time_us"]);
    for (name, sc, sizes, eff) in CASES {
        let sizes_map = map_of(sizes.iter().map(|(k, v)| (k.to_string(), *v)));
        let Ok(c) = sc.operation().counts(&sizes_map) else {
            continue;
        };
        let t = c.flops / (eff * roof.at(c.intensity()));
        let sizes_text: Vec<String> = sizes
            .iter()
            .map(|(k, v)| format!("{k}={}", shortest(*v)))
            .collect();
        // Microseconds to three significant digits, as a profiler prints.
        let us = crate::format::sig(t * 1e6, 3);
        let _ = w.write_record([name.to_string(), sc.notation(), sizes_text.join(" "), us]);
    }
    w.into_inner()
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .unwrap_or_default()
}
