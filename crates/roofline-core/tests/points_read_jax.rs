//! Reading JAX's printed `cost_analysis()` through the public reader: the
//! example file `docs/measurements/jax-cost-analysis.txt`, checked against
//! the values worked out by hand in its comments.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{assert_close, rd};
use roofline_core::points::read::Format;

const JAX: &str = include_str!("../../../docs/measurements/jax-cost-analysis.txt");

#[test]
fn the_example_reads_as_jax_cost_analysis() {
    let r = rd(JAX);
    assert_eq!(r.format, Some(Format::JaxCost));
    assert!(r.columns.is_empty(), "{:?}", r.columns);
    let names: Vec<&str> = r.kernels.iter().map(|k| &*k.name).collect();
    assert_eq!(names[..2], ["matmul", "gelu"]);
    // matmul: 2 * 8192^3 FLOPs over 3 * 8192^2 bf16 values, in 1.6 ms.
    let mm = &r.kernels[0];
    assert_close(mm.intensity, 8192.0 / 3.0);
    assert_close(mm.time.unwrap(), 1.6e-3);
    assert_close(mm.rate, 1_099_511_627_776.0 / 1.6e-3);
    assert_close(mm.flops().unwrap(), 1_099_511_627_776.0);
    // gelu: 8 FLOPs per element, 4 bytes per element (read and written).
    let gelu = &r.kernels[1];
    assert_close(gelu.intensity, 2.0);
    assert_close(gelu.time.unwrap(), 2e-4);
    assert_close(gelu.rate, 536_870_912.0 / 2e-4);
}

#[test]
fn the_prediction_has_no_measured_time() {
    // softmax has only XLA's 'optimal_seconds', which is never a time: it
    // is a predicted point, its FLOPs kept, no time, no rate; a note says
    // how to measure it.
    let r = rd(JAX);
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    let k = &r.kernels[2];
    assert_eq!(&*k.name, "softmax");
    assert_eq!((k.time, k.rate), (None, 0.0));
    assert_eq!(k.predicted, Some(268_435_456.0));
    assert_close(k.intensity, 1.0);
    assert_close(k.bytes().unwrap(), 268_435_456.0);
    assert!(
        r.notes
            .iter()
            .any(|n| n.starts_with("1 without a measured time")),
        "{:?}",
        r.notes
    );
    // A time typed for it makes it measured: rate = FLOPs ÷ time.
    let m = k.timed(1e-3).unwrap();
    assert_eq!((m.predicted, m.time), (None, Some(1e-3)));
    assert_close(m.rate, 268_435_456.0 / 1e-3);
    assert!(k.timed(0.0).is_none() && k.timed(f64::NAN).is_none());
}

#[test]
fn tables_and_kernel_lists_are_not_taken_for_it() {
    let list = r#"[{"name":"a","flops":1e9,"bytes":1e6,"time_ms":0.2}]"#;
    assert_eq!(rd(list).format, Some(Format::Json));
    assert_eq!(
        rd("name,flops,bytes,time_ms\na,1e9,1e6,0.2").format,
        Some(Format::Csv)
    );
}
