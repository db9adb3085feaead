//! Reading the example files of `docs/measurements/`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{assert_close, fields, rd, BAD, KERNELS, MATMULS, OPS, PROFILE};
use roofline_core::points::read::Format;
use roofline_core::points::{At, Field};

// ---------------------------------------------------------------------------
// The example files of docs/measurements/.

#[test]
fn example_matmuls_csv() {
    let r = rd(MATMULS);
    assert_eq!(r.format, Some(Format::Csv));
    assert_eq!((r.kernels.len(), r.errors.len(), r.notes.len()), (6, 0, 2));
    let units: Vec<&str> = r.columns.iter().map(|c| c.unit.as_str()).collect();
    assert_eq!(units, ["", "GFLOP", "MiB", "ms"]);
    // 8192³ bf16: 2·8192³ FLOPs, 3·8192²·2 bytes, 1.25 ms.
    let k = &r.kernels[0];
    assert_close(k.rate, 2.0 * 8192f64.powi(3) / 1.25e-3);
    assert_close(k.intensity, 2.0 * 8192.0 / 6.0);
    // 12 µs in a ms column.
    let k = &r.kernels[5];
    assert_eq!(&*k.name, "decode B=8 D=4096 F=4096");
    assert_close(k.time.unwrap(), 12e-6);
    assert_close(k.bytes().unwrap(), 32.125 * 1_048_576.0);
}

#[test]
fn example_profile_tsv() {
    let r = rd(PROFILE);
    assert_eq!(r.format, Some(Format::Tsv));
    assert_eq!((r.kernels.len(), r.errors.len(), r.notes.len()), (5, 0, 2));
    assert_eq!(
        fields(&r),
        [
            Field::Ignore,
            Field::Name,
            Field::Time,
            Field::Bytes,
            Field::Flops
        ]
    );
    // Units from the line under the header (usecond, Mbyte).
    assert_eq!(r.columns[2].unit, "µs");
    assert_eq!(r.columns[3].unit, "MB");
    let k = &r.kernels[0];
    assert_close(k.time.unwrap(), 160e-6);
    assert_close(k.intensity, 4096.0 / 3.0);
    assert_close(k.rate, 137_438_953_472.0 / 160e-6);
    assert_close(r.kernels[2].intensity, 1.25);
}

#[test]
fn example_kernels_json() {
    let r = rd(KERNELS);
    assert_eq!(r.format, Some(Format::Json));
    assert_eq!((r.kernels.len(), r.errors.len()), (5, 0));
    let k = &r.kernels[2];
    assert_eq!(&*k.name, "attention decode");
    assert_close(k.rate, 0.8e12);
    assert_close(k.intensity, 1.0);
    // logits from the notation: 2·128·8192·32000 FLOPs.
    let k = &r.kernels[4];
    let flops = 2.0 * 128.0 * 8192.0 * 32000.0;
    let bytes = 2.0 * (128.0 * 8192.0 + 8192.0 * 32000.0 + 128.0 * 32000.0);
    assert_close(k.intensity, flops / bytes);
    assert_close(k.rate, flops / 0.9e-3);
    assert_close(r.kernels[3].intensity, 0.5);
}

#[test]
fn example_ops_csv() {
    let r = rd(OPS);
    assert_eq!((r.kernels.len(), r.errors.len(), r.notes.len()), (5, 0, 0));
    let k = &r.kernels[0];
    let flops = 2.0 * 8.0 * 4096.0 * 4096.0;
    let bytes = 2.0 * (8.0 * 4096.0 + 4096.0 * 4096.0 + 8.0 * 4096.0);
    assert_close(k.intensity, flops / bytes);
    assert_close(k.rate, flops / 12e-6);
    // int8 weights: 1 byte per weight.
    let int8_bytes = 2.0 * 256.0 * 8192.0 + 8192.0 * 8192.0 + 2.0 * 256.0 * 8192.0;
    assert_close(
        r.kernels[2].intensity,
        2.0 * 256.0 * 8192.0 * 8192.0 / int8_bytes,
    );
    // fp32 add: N FLOPs, 12N bytes.
    assert_close(r.kernels[4].intensity, 1.0 / 12.0);
}

#[test]
fn example_bad_csv() {
    let r = rd(BAD);
    assert_eq!((r.kernels.len(), r.errors.len()), (3, 13));
    assert_eq!(&*r.kernels[1].name, "<script>alert(1)</script>");
    assert_eq!(&*r.kernels[2].name, "row 16");
    assert_close(r.kernels[0].intensity, 1000.0);
    let lines: Vec<At> = r.errors.iter().map(|e| e.at).collect();
    assert_eq!(lines, (5..=17).map(At::Line).collect::<Vec<_>>());
    let texts: Vec<String> = r.errors.iter().map(|e| e.text()).collect();
    assert_eq!(texts[0], "line 5: flops is not a number ('abc')");
    assert_eq!(texts[1], "line 6: time is negative ('-3 ms')");
    assert_eq!(
        texts[5],
        "line 10: time ('3 GB') is in GB, a unit of bytes, not a time"
    );
}
