//! XProf's roofline table, exported as CSV: the documented example file is
//! read through the public reader, one kernel per operation, the program's
//! row left out, FLOPs = normalized rate × total time, bytes = FLOPs ÷ the
//! HBM operational intensity.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::assert_close;
use roofline_core::points::read::{read, Format};

#[test]
fn the_example_file_gives_each_operation() {
    let r = read(
        include_str!("../../../docs/measurements/xprof-roofline.csv"),
        &[],
    );
    assert_eq!(r.format, Some(Format::XprofCsv));
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    let got: Vec<&str> = r.kernels.iter().map(|k| &*k.name).collect();
    assert_eq!(got, ["fusion.12", "add_multiply_fusion.3", "reduce.7"]);
    // (GFLOP/s, µs, HBM FLOP/byte) as in the file, by hand.
    for (k, (gflops, us, oi)) in r.kernels.iter().zip([
        (612_345.0, 4100.0, 713.0),
        (410.5, 850.0, 0.0833),
        (980.0, 120.0, 0.25),
    ]) {
        let flops = gflops * 1e9 * us * 1e-6;
        assert_close(k.time.unwrap(), us * 1e-6);
        assert_close(k.flops().unwrap(), flops);
        assert_close(k.bytes().unwrap(), flops / oi);
        assert_close(k.intensity, oi);
    }
    assert!(r.notes.iter().any(|n| n.contains("per core")));
}
