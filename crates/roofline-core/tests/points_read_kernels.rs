//! Reading measurement tables: how a kernel is derived from a row, bad
//! values and what their messages say, and the limits of the input.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{assert_close, error, one, rd};
use roofline_core::points::read::{MAX_BYTES, MAX_ROWS};
use roofline_core::points::{read, At};

// ---------------------------------------------------------------------------
// Deriving a kernel.

#[test]
fn each_way_of_giving_a_kernel() {
    // FLOPs from FLOP/s × time, bytes from FLOPs ÷ intensity.
    let k = one("flop/s,time,intensity\n1e14,0.01,1000\n");
    assert_close(k.flops().unwrap(), 1e12);
    assert_close(k.bytes().unwrap(), 1e9);
    // FLOP/s and intensity alone: placed, with no time.
    let k = one("flop/s,intensity\n1e14,1000\n");
    assert_eq!(k.time, None);
    assert_eq!(k.flops(), None);
    // FLOPs, FLOP/s and intensity: the time is FLOPs ÷ FLOP/s.
    let k = one("flops,flop/s,intensity\n1e12,1e14,1000\n");
    assert_close(k.time.unwrap(), 0.01);
    // FLOPs, bytes and FLOP/s.
    let k = one("flops,bytes,flop/s\n1e12,1e9,1e14\n");
    assert_close(k.intensity, 1000.0);
    assert_close(k.time.unwrap(), 0.01);
    // Given FLOP/s and intensity win over the ones derived.
    let k = one("flops,bytes,time,flop/s,intensity\n1e12,1e9,0.01,5e13,10\n");
    assert_close(k.rate, 5e13);
    assert_close(k.intensity, 10.0);
}

#[test]
fn an_operation_with_sizes_gives_flops_and_bytes() {
    let k = one(
        "name,op,sizes,time\nmm,\"bf16[B,D] * bf16[D,F] -> bf16[B,F]\",B=8 D=4096 F=4096,12 us\n",
    );
    let flops = 2.0 * 8.0 * 4096.0 * 4096.0;
    let bytes = 2.0 * (8.0 * 4096.0 + 4096.0 * 4096.0 + 8.0 * 4096.0);
    assert_close(k.flops().unwrap(), flops);
    assert_close(k.bytes().unwrap(), bytes);
    assert_close(k.intensity, flops / bytes);
    assert_close(k.rate, flops / 12e-6);
    // Sizes separated by commas or semicolons, `=` with spaces around it.
    for sizes in [
        "B=8, D=4096, F=4096",
        "B=8;D=4096;F=4096",
        "B = 8 D = 4096 F=4096",
    ] {
        let k = one(&format!(
            "op\tsizes\ttime\nbf16[B,D] * bf16[D,F] -> bf16[B,F]\t{sizes}\t12 us\n"
        ));
        assert_close(k.intensity, flops / bytes);
    }
    // Bytes given: the operation gives only the FLOPs.
    let k = one("op\tsizes\ttime\tbytes\nbf16[B,D] * bf16[D,F] -> bf16[B,F]\tB=8 D=4096 F=4096\t12 us\t1e8\n");
    assert_close(k.intensity, flops / 1e8);
    // JSON sizes may be an object.
    let k = one(
        r#"[{"op": "bf16[B,D] * bf16[D,F] -> bf16[B,F]", "sizes": {"B": 8, "D": 4096, "F": 4096}, "time_us": 12}]"#,
    );
    assert_close(k.rate, flops / 12e-6);
}

#[test]
fn operation_problems_quote_the_parser() {
    let (at, m) = error("name,op,sizes,time\nx,\"bf16[B,D] *\",B=8,1 ms\n");
    assert_eq!(at, At::Line(2));
    assert!(
        m.starts_with("the operation could not be read: at character"),
        "{m}"
    );
    let (_, m) =
        error("name,op,sizes,time\nx,\"bf16[B,D] * bf16[D,F] -> bf16[B,F]\",B=8 D=4096,1 ms\n");
    assert!(m.contains("dimension F has no size"), "{m}");
    let (_, m) =
        error("name,op,sizes,time\nx,\"bf16[B,D] * bf16[D,F] -> bf16[B,F]\",B=8 D F=3,1 ms\n");
    assert!(m.contains("'D' is not name=value"), "{m}");
    let (_, m) =
        error("name,op,sizes,time\nx,\"bf16[B,D] * bf16[D,F] -> bf16[B,F]\",B=8 D=-1 F=3,1 ms\n");
    assert!(m.contains("'-1' is not a positive number"), "{m}");
}

// ---------------------------------------------------------------------------
// Bad values.

#[test]
fn bad_cells_name_the_column_and_quote_the_cell() {
    let cases: &[(&str, &str)] = &[
        ("abc", "time_ms is not a number ('abc')"),
        ("-3", "time_ms is negative ('-3')"),
        ("-3 µs", "time_ms is negative ('-3 µs')"),
        ("0", "time_ms is zero ('0')"),
        ("NaN", "time_ms is not a number"),
        ("nan", "time_ms is not a number"),
        ("inf", "time_ms is too large"),
        ("-Infinity", "time_ms is too large"),
        ("1e400", "time_ms is too large"),
        ("3 GB", "time_ms ('3 GB') is in GB, a unit of bytes, not a time"),
        (
            "3 parsecs",
            "time_ms ('3 parsecs') has a unit 'parsecs' that is not known; use s, ms, µs or ns",
        ),
        ("1,5", "time_ms ('1,5') has a comma; write numbers with a decimal point and no thousands separators"),
        ("2e10", "time_ms is 2e7 s, above the limit of 1e6 s; check its unit"),
        ("1e-13 s", "time_ms is 1e-13 s, below the limit of 1e-12 s; check its unit"),
        ("information", "time_ms is not a number"),
    ];
    for (cell, want) in cases {
        let (at, m) = error(&format!("flops,bytes,time_ms\n1e9,1e6,\"{cell}\"\n"));
        assert_eq!(at, At::Line(2));
        assert_eq!(m, *want, "{cell}");
    }
    let long = "x".repeat(100);
    let (_, m) = error(&format!("flops,bytes,time_ms\n1e9,1e6,{long}\n"));
    assert_eq!(
        m,
        format!("time_ms is not a number ('{}…')", "x".repeat(40))
    );
}

#[test]
fn absurd_values_are_refused() {
    let cases: &[(&str, &str)] = &[
        (
            "1e25,1e9,1,,",
            "flops is 1e25 FLOPs, above the limit of 1e24 FLOPs",
        ),
        (
            "1e12,1e21,1,,",
            "bytes is 1e21 bytes, above the limit of 1e20 bytes",
        ),
        (
            ",,,1e20,10",
            "flop/s is 1e20 FLOP/s, above the limit of 1e19 FLOP/s",
        ),
        (
            ",,,1e12,1e10",
            "intensity is 1e10 FLOPs/byte, above the limit of 1e9 FLOPs/byte",
        ),
        (
            ",,,1e12,1e-7",
            "intensity is 1e-7 FLOPs/byte, below the limit of 1e-6 FLOPs/byte",
        ),
        (
            "1e24,1,1e6,,",
            "the intensity (FLOPs ÷ bytes) is 1e24 FLOPs/byte, above the limit",
        ),
        (
            "1e24,1e16,1e-6,,",
            "FLOP/s (FLOPs ÷ time) is 1e30 FLOP/s, above the limit",
        ),
    ];
    for (row, want) in cases {
        let (at, m) = error(&format!("flops,bytes,time,flop/s,intensity\n{row}\n"));
        assert_eq!(at, At::Line(2));
        assert!(m.starts_with(want), "{m} / {want}");
    }
}

#[test]
fn missing_values_say_what_is_needed() {
    let cases: &[(&str, &str)] = &[
        ("1e12,1e9,", "needs a time (or FLOP/s) to place it"),
        ("1e12,,1", "needs bytes, an intensity, or an operation with sizes"),
        (
            ",1e9,1",
            "needs FLOPs (or FLOP/s, or an operation with sizes) with its time; it also needs FLOPs with bytes, an intensity, or an operation with sizes",
        ),
        (",,", "needs a time (or FLOP/s) to place it; it also needs FLOPs with bytes, an intensity, or an operation with sizes"),
    ];
    for (row, want) in cases {
        let r = rd(&format!("name,flops,bytes,time\nx,{row}\n"));
        assert_eq!(r.errors.len(), 1, "{row}");
        assert_eq!(r.errors[0].message, *want);
    }
    // A row of empty cells is skipped.
    let r = rd("name,flops,bytes,time\n,,,\n");
    assert!(r.errors.is_empty() && r.kernels.is_empty());
}

#[test]
fn unusable_columns_are_one_input_error() {
    for text in [
        "name,color\na,red\n",
        "name,flops\na,1e12\n",
        "name,time\na,1\n",
        "1,2,3\n4,5,6\n",
    ] {
        let r = rd(text);
        assert!(r.kernels.is_empty());
        assert_eq!(r.errors.len(), 1, "{text}");
        assert_eq!(r.errors[0].at, At::Input);
        assert!(
            r.errors[0].message.starts_with("No column gives"),
            "{}",
            r.errors[0].message
        );
        assert!(!r.columns.is_empty());
    }
    let r = rd("name,time\na,1\n");
    assert!(r.errors[0].message.starts_with("No column gives FLOPs"));
}

#[test]
fn flops_and_bytes_without_a_time_are_predictions() {
    // No time column: each kernel is a prediction, placed at the roof.
    let r = rd("name,flops,bytes\na,1e12,1e9\n");
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    let k = &r.kernels[0];
    assert_eq!((k.predicted, k.time), (Some(1e12), None));
    assert_eq!(k.intensity, 1000.0);
    assert!(r
        .notes
        .iter()
        .any(|n| n.starts_with("No column gives a time")));
    // A blank time in a table of times is a mistake, said as one.
    let r = rd("name,flops,bytes,time\na,1e12,1e9,\n");
    assert_eq!(r.errors[0].message, "needs a time (or FLOP/s) to place it");
    // Both time and FLOP/s empty where the table has both: a prediction,
    // as the app's own export writes one.
    let r = rd("name,flops,bytes,time_s,attained_flop_s\na,1e12,1e9,,\n");
    assert_eq!(r.kernels[0].predicted, Some(1e12));
}

#[test]
fn names_are_data() {
    let k = one("name,flops,bytes,time\n<script>alert(1)</script>,1e12,1e9,1\n");
    assert_eq!(&*k.name, "<script>alert(1)</script>");
    let k = one("name,flops,bytes,time\n  spaced  ,1e12,1e9,1\n");
    assert_eq!(&*k.name, "spaced");
    let long = "n".repeat(200);
    let k = one(&format!("name,flops,bytes,time\n{long},1e12,1e9,1\n"));
    assert_eq!(&*k.name, format!("{}…", "n".repeat(80)));
    let r = rd("name,flops,bytes,time\na,1e12,1e9,1\n,1e12,1e9,1\n");
    assert_eq!(&*r.kernels[1].name, "row 2");
    let r = rd("flops,bytes,time\n1e12,1e9,1\n");
    assert_eq!(&*r.kernels[0].name, "row 1");
}

// ---------------------------------------------------------------------------
// Limits of the input.

#[test]
fn a_large_input_is_refused_whole() {
    let row = "matmul,1e12,1e9,10 ms\n";
    let text = format!(
        "name,flops,bytes,time\n{}",
        row.repeat(20_000_000 / row.len() + 1)
    );
    assert!(text.len() > MAX_BYTES);
    let r = rd(&text);
    assert_eq!(r.format, None);
    assert!(r.kernels.is_empty() && r.columns.is_empty());
    assert_eq!(r.errors.len(), 1);
    assert_eq!(r.errors[0].at, At::Input);
    assert_eq!(
        r.errors[0].message,
        "The input is 20 MB; the limit is 16 MB. Split it or keep the kernels that matter."
    );
}

#[test]
fn rows_past_the_limit_are_left_out() {
    let mut text = String::from("name,flops,bytes,time\n");
    for i in 0..25_000 {
        text.push_str(&format!("k{i},1e12,1e9,{}\n", 1 + i % 7));
    }
    assert!(text.len() <= MAX_BYTES);
    let r = rd(&text);
    assert_eq!(r.kernels.len(), MAX_ROWS);
    assert_eq!(&*r.kernels[MAX_ROWS - 1].name, "k19999");
    assert_eq!(r.errors.len(), 1);
    assert_eq!(r.errors[0].at, At::Input);
    assert_eq!(
        r.errors[0].message,
        "Only the first 20,000 rows were read; 5,000 more were left out. Split the input to read them."
    );
    // The same in JSON.
    let items: Vec<String> = (0..20_003)
        .map(|i| format!(r#"{{"flop/s":1e12,"intensity":{}}}"#, 1 + i % 5))
        .collect();
    let r = rd(&format!("[{}]", items.join(",")));
    assert_eq!(r.kernels.len(), MAX_ROWS);
    assert_eq!(r.errors.len(), 1);
    assert!(r.errors[0].message.contains("; 3 more were left out"));
}

#[test]
fn ten_thousand_rows_read_quickly() {
    let mut text = String::from("name,gflop,bytes (MiB),time_ms\n");
    for i in 0..10_000 {
        text.push_str(&format!(
            "kernel {i},{},{},0.{}\n",
            1 + i % 97,
            3 + i % 11,
            100 + i % 900
        ));
    }
    // The best of three runs, so that a busy machine does not fail it.
    let mut took = std::time::Duration::MAX;
    for _ in 0..3 {
        let start = std::time::Instant::now();
        let r = read(&text, &[]);
        took = took.min(start.elapsed());
        assert_eq!(r.kernels.len(), 10_000);
    }
    // Release builds read this in a few ms; debug builds are much slower.
    eprintln!("10,000 rows read in {took:?}");
    let limit = if cfg!(debug_assertions) { 2_000 } else { 16 };
    assert!(took.as_millis() < limit, "{took:?}");
}
