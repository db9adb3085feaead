//! Reading measurement tables (CSV, TSV, JSON) into kernels: formats,
//! headers, units, derivations, every kind of bad input, the limits, the
//! example files of `docs/measurements/`, and properties over arbitrary
//! input.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::*;
use roofline_core::points::read::{start, Choice, Format, MAX_BYTES, MAX_ROWS};
use roofline_core::points::units::{self, Kind};
use roofline_core::points::{read, At, Field, Kernel, Reading};

const MATMULS: &str = include_str!("../../../docs/measurements/matmuls.csv");
const PROFILE: &str = include_str!("../../../docs/measurements/profile.tsv");
const KERNELS: &str = include_str!("../../../docs/measurements/kernels.json");
const OPS: &str = include_str!("../../../docs/measurements/ops.csv");
const BAD: &str = include_str!("../../../docs/measurements/bad.csv");

fn close(got: f64, want: f64) -> bool {
    (got - want).abs() <= want.abs() * 1e-12
}

#[track_caller]
fn assert_close(got: f64, want: f64) {
    assert!(close(got, want), "got {got}, want {want}");
}

/// No message or note shows "NaN" or "inf", in any case.
#[track_caller]
fn clean(r: &Reading) {
    for text in r
        .errors
        .iter()
        .map(|e| e.text())
        .chain(r.notes.iter().cloned())
    {
        let l = text.to_lowercase();
        assert!(!l.contains("nan") && !l.contains("inf"), "{text}");
    }
}

/// Reads `text` and checks its messages are clean.
fn rd(text: &str) -> Reading {
    let r = read(text, &[]);
    clean(&r);
    r
}

/// The single kernel of `text`, which must read without error.
#[track_caller]
fn one(text: &str) -> Kernel {
    let r = rd(text);
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    assert_eq!(r.kernels.len(), 1, "{r:?}");
    r.kernels[0].clone()
}

/// The single error of `text`, which must give no kernel.
#[track_caller]
fn error(text: &str) -> (At, String) {
    let r = rd(text);
    assert!(r.kernels.is_empty(), "{:?}", r.kernels);
    assert_eq!(r.errors.len(), 1, "{:?}", r.errors);
    (r.errors[0].at, r.errors[0].message.clone())
}

/// `text` reads as serde reads the whole document: where serde finds an
/// error, the one message is serde's, at its line and column; where serde
/// reads it, no message says the JSON could not be read.
#[track_caller]
fn same_as_serde(text: &str) {
    let r = rd(text);
    let short: String = text.chars().take(80).collect();
    match serde_json::from_str::<serde_json::Value>(text) {
        Err(e) => {
            let what = e.to_string();
            let what = what.split(" at line ").next().unwrap();
            let want = format!(
                "The JSON could not be read at line {}, column {}: {what}.",
                e.line(),
                e.column()
            );
            let got: Vec<String> = r.errors.iter().map(|e| e.message.clone()).collect();
            assert_eq!(got, [want], "{short:?}");
            assert!(r.kernels.is_empty(), "{short:?}");
        }
        Ok(_) => {
            let bad = r
                .errors
                .iter()
                .find(|e| e.message.starts_with("The JSON could not be read"));
            assert!(bad.is_none(), "{short:?}: {bad:?}");
        }
    }
}

fn fields(r: &Reading) -> Vec<Field> {
    r.columns.iter().map(|c| c.field).collect()
}

// ---------------------------------------------------------------------------
// The basics.

#[test]
fn a_csv_row_gives_intensity_rate_and_time() {
    let r = rd("name,flops,bytes,time\nmatmul,1e12,1e9,10 ms\n");
    assert_eq!(r.format, Some(Format::Csv));
    assert_eq!(
        fields(&r),
        [Field::Name, Field::Flops, Field::Bytes, Field::Time]
    );
    assert!(r.errors.is_empty() && r.notes.is_empty(), "{r:?}");
    let k = &r.kernels[0];
    assert_eq!(&*k.name, "matmul");
    assert_close(k.intensity, 1000.0);
    assert_close(k.rate, 1e14);
    assert_close(k.time.unwrap(), 0.01);
    assert_close(k.flops().unwrap(), 1e12);
    assert_close(k.bytes().unwrap(), 1e9);
}

#[test]
fn empty_input_reads_as_nothing() {
    for t in ["", "   ", "\n\n\t \n", "\u{feff}"] {
        assert_eq!(read(t, &[]), Reading::default(), "{t:?}");
    }
}

#[test]
fn a_header_alone_gives_no_kernel_and_no_error() {
    let r = rd("name,flops,bytes,time_ms\n");
    assert_eq!(r.columns.len(), 4);
    assert!(r.kernels.is_empty() && r.errors.is_empty());
}

#[test]
fn tsv_semicolons_and_comments() {
    let k = one("# a comment\nname\tflops\tbytes\ttime_ms\nmm\t1e12\t1e9\t10\n");
    assert_close(k.rate, 1e14);
    let r = rd("name\tflops\tbytes\ttime_ms\nmm\t1e12\t1e9\t10\n");
    assert_eq!(r.format, Some(Format::Tsv));
    let r = rd("name;flops;bytes;time\nmm;1e12;1e9;10 ms\nmm2;2e12;1e9;10 ms\n");
    assert_eq!(r.format, Some(Format::Csv));
    assert_eq!(r.kernels.len(), 2);
    assert_close(r.kernels[1].intensity, 2000.0);
    // Spaces around cells are trimmed; quoted cells keep their commas.
    let k = one("name , flops , bytes , time\n\"a, b\" , 1e12 , 1e9 , 10 ms \n");
    assert_eq!(&*k.name, "a, b");
}

#[test]
fn line_numbers_count_every_line_of_the_input() {
    let text = "# comment\nname,flops,bytes,time\n# another\na,1e12,1e9,1 ms\n\nb,x,1e9,1 ms\n";
    let r = rd(text);
    assert_eq!(r.kernels.len(), 1);
    assert_eq!(r.errors.len(), 1);
    assert_eq!(r.errors[0].at, At::Line(6));
    assert_eq!(r.errors[0].text(), "line 6: flops is not a number ('x')");
    // Windows line ends, blank lines and comments between rows.
    let r = rd("name,flops,bytes,time\r\n\r\na,1e12,1e9,1 ms\r\n# c\r\n\r\nb,x,1e9,1 ms\r\n");
    assert_eq!(r.errors[0].at, At::Line(6));
    // A quoted cell over two lines.
    let r = rd("name,flops,bytes,time\n\"a\nb\",x,1e9,1\nc,y,1e9,1\n");
    let lines: Vec<At> = r.errors.iter().map(|e| e.at).collect();
    assert_eq!(lines, [At::Line(2), At::Line(4)]);
}

// ---------------------------------------------------------------------------
// Headers.

#[test]
fn each_header_alias_is_recognised() {
    let cases: &[(&str, Field)] = &[
        ("name", Field::Name),
        ("Kernel", Field::Name),
        ("kernel name", Field::Name),
        ("Kernel Name", Field::Name),
        ("op name", Field::Name),
        ("op_name", Field::Name),
        ("label", Field::Name),
        ("id", Field::Name),
        ("flops", Field::Flops),
        ("flop", Field::Flops),
        ("FLOPs", Field::Flops),
        ("flop_count", Field::Flops),
        ("gflop", Field::Flops),
        ("gflops", Field::Flops),
        ("GFLOPs", Field::Flops),
        ("tflop", Field::Flops),
        ("tflops", Field::Flops),
        ("bytes", Field::Bytes),
        ("dram_bytes", Field::Bytes),
        ("hbm_bytes", Field::Bytes),
        ("memory bytes", Field::Bytes),
        ("bytes_accessed", Field::Bytes),
        ("GB", Field::Bytes),
        ("mb", Field::Bytes),
        ("bytes_gb", Field::Bytes),
        ("bytes (MiB)", Field::Bytes),
        ("dram__bytes.sum", Field::Bytes),
        ("time", Field::Time),
        ("Duration", Field::Time),
        ("elapsed", Field::Time),
        ("latency", Field::Time),
        ("runtime", Field::Time),
        ("time_ms", Field::Time),
        ("duration_us", Field::Time),
        ("time (µs)", Field::Time),
        ("time [ns]", Field::Time),
        ("time_s", Field::Time),
        ("gpu__time_duration.sum", Field::Time),
        ("flop/s", Field::Rate),
        ("FLOP/s", Field::Rate),
        ("flops_per_s", Field::Rate),
        ("flops_per_sec", Field::Rate),
        ("tflop/s", Field::Rate),
        ("tflops_per_sec", Field::Rate),
        ("throughput", Field::Rate),
        ("achieved flop/s", Field::Rate),
        ("attained_flop_s", Field::Rate),
        ("flop_s", Field::Rate),
        ("intensity", Field::Intensity),
        ("arithmetic intensity", Field::Intensity),
        ("Arithmetic-Intensity", Field::Intensity),
        ("ai", Field::Intensity),
        ("flops/byte", Field::Intensity),
        ("flop_per_byte", Field::Intensity),
        ("op", Field::Op),
        ("operation", Field::Op),
        ("notation", Field::Op),
        ("einsum", Field::Op),
        ("sizes", Field::Sizes),
        ("shape", Field::Sizes),
        ("dims", Field::Sizes),
        ("roof_flop_s", Field::Ignore),
        ("fraction_of_roof", Field::Ignore),
        ("binding", Field::Ignore),
        ("lower_bound_s", Field::Ignore),
        ("time_saved_s", Field::Ignore),
        ("saved", Field::Ignore),
        ("percent of peak", Field::Ignore),
        ("color", Field::Ignore),
        ("", Field::Ignore),
        ("B", Field::Ignore),
    ];
    for (header, field) in cases {
        let r = rd(&format!("{header},x\n"));
        assert_eq!(r.columns[0].header, *header);
        assert_eq!(r.columns[0].field, *field, "{header}");
    }
}

#[test]
fn header_units_are_shown_and_applied() {
    // (header, cell, field, value in base units)
    let cases: &[(&str, &str, Field, f64, &str)] = &[
        ("time_ms", "12", Field::Time, 0.012, "ms"),
        ("duration_us", "12.5", Field::Time, 12.5e-6, "µs"),
        ("time (µs)", "12.5", Field::Time, 12.5e-6, "µs"),
        ("time (μs)", "12.5", Field::Time, 12.5e-6, "µs"),
        ("time [ns]", "1500", Field::Time, 1.5e-6, "ns"),
        ("time_s", "2", Field::Time, 2.0, "s"),
        ("time", "2", Field::Time, 2.0, ""),
        ("bytes_gb", "3", Field::Bytes, 3e9, "GB"),
        ("GB", "3", Field::Bytes, 3e9, "GB"),
        ("bytes (MiB)", "2", Field::Bytes, 2_097_152.0, "MiB"),
        ("tflop", "1.5", Field::Flops, 1.5e12, "TFLOP"),
        ("gflops", "8", Field::Flops, 8e9, "GFLOP"),
        ("tflop/s", "150", Field::Rate, 1.5e14, "TFLOP/s"),
        ("tflops_per_sec", "150", Field::Rate, 1.5e14, "TFLOP/s"),
    ];
    for &(header, cell, field, want, unit) in cases {
        let r = rd(&format!("{header}\n{cell}\n"));
        assert_eq!(r.columns[0].field, field, "{header}");
        assert_eq!(r.columns[0].unit, unit, "{header}");
        // Read the value back through a kernel that needs it.
        let (others, get): (&str, fn(&Kernel) -> f64) = match field {
            Field::Time => ("flops,bytes", |k| k.time.unwrap()),
            Field::Bytes => ("flops,time", |k| k.bytes().unwrap()),
            Field::Flops => ("bytes,time", |k| k.flops().unwrap()),
            Field::Rate => ("intensity,time", |k| k.rate),
            _ => unreachable!(),
        };
        let text = format!("{others},{header}\n1e6,1e-3,{cell}\n");
        let text = if field == Field::Time {
            format!("{others},{header}\n1e9,1e6,{cell}\n")
        } else {
            text
        };
        let k = one(&text);
        assert_close(get(&k), want);
    }
}

#[test]
fn cell_units_beat_the_headers() {
    let time = |cell: &str| {
        one(&format!("flops,bytes,time_ms\n1e6,1e6,{cell}\n"))
            .time
            .unwrap()
    };
    assert_close(time("12.5 µs"), 12.5e-6);
    assert_close(time("12.5us"), 12.5e-6);
    assert_close(time("12.5 μs"), 12.5e-6);
    assert_close(time("3 ns"), 3e-9);
    assert_close(time("0.5 s"), 0.5);
    assert_close(time("7"), 7e-3);
    assert_close(time("4.1e-2"), 4.1e-5);
    assert_close(time("20 ps"), 20e-12);
    let bytes = |cell: &str| {
        one(&format!("flops,bytes,time\n1e12,{cell},1\n"))
            .bytes()
            .unwrap()
    };
    assert_close(bytes("3 GB"), 3e9);
    assert_close(bytes("2 GiB"), 2.0 * 1_073_741_824.0);
    assert_close(bytes("64 kB"), 64e3);
    assert_close(bytes("64 KiB"), 65536.0);
    assert_close(bytes("1.5 TB"), 1.5e12);
    assert_close(bytes("4.1e12"), 4.1e12);
    let flops = |cell: &str| {
        one(&format!("flops,bytes,time\n{cell},1e9,1\n"))
            .flops()
            .unwrap()
    };
    assert_close(flops("1.2 TFLOP"), 1.2e12);
    assert_close(flops("1.2 TFLOPs"), 1.2e12);
    assert_close(flops("3 GFLOP"), 3e9);
    assert_close(flops("2 PFLOP"), 2e15);
    assert_close(flops("4.1e12"), 4.1e12);
    let rate = |cell: &str| one(&format!("flop/s,intensity\n{cell},10\n")).rate;
    assert_close(rate("150 TFLOP/s"), 1.5e14);
    assert_close(rate("150 TFLOPS"), 1.5e14);
    assert_close(rate("3 GFLOP/s"), 3e9);
    assert_close(rate("4.1e12"), 4.1e12);
    let intensity = |cell: &str| one(&format!("flop/s,intensity\n1e12,{cell}\n")).intensity;
    assert_close(intensity("250 FLOPs/byte"), 250.0);
    assert_close(intensity("250 FLOP/B"), 250.0);
    assert_close(intensity("0.5"), 0.5);
}

#[test]
fn mixed_units_give_a_note() {
    let r = rd("flops,bytes,time_ms\n1e9,1e6,1\n1e9,1e6,30 µs\n1e9,1e6,2\n");
    assert_eq!(r.kernels.len(), 3);
    assert_eq!(
        r.notes,
        ["the time column mixes ms and µs; each cell is read in its own unit"]
    );
    let r = rd("flops,bytes,time_ms\n1e9,1e6,1\n1e9,1e6,2 ms\n");
    assert!(r.notes.is_empty(), "{:?}", r.notes);
}

#[test]
fn two_columns_for_one_field_keep_the_first() {
    let r = rd("name,flops,bytes,time_ms,duration_us\na,1e12,1e9,10,5\n");
    assert_eq!(
        fields(&r),
        [
            Field::Name,
            Field::Flops,
            Field::Bytes,
            Field::Time,
            Field::Ignore
        ]
    );
    assert_eq!(r.notes.len(), 1);
    assert!(r.notes[0].contains("'time_ms' is used"), "{}", r.notes[0]);
    assert_close(r.kernels[0].time.unwrap(), 0.01);
    // A name beats an id, whatever the order.
    let r = rd("id,kernel name,flops,bytes,time\n1,gemm,1e12,1e9,1\n");
    assert_eq!(fields(&r)[..2], [Field::Ignore, Field::Name]);
    assert_eq!(&*r.kernels[0].name, "gemm");
}

#[test]
fn the_mapping_overrides_the_guess() {
    let text = "a,b,c,d\nk,1e12,1e9,10\n";
    let r = rd(text);
    assert_eq!(r.errors.len(), 1);
    assert_eq!(r.errors[0].at, At::Input);
    assert!(r.errors[0].message.starts_with("No column gives"));
    assert_eq!(r.columns.len(), 4);
    let mapping = [
        ("a".to_string(), Field::Name),
        ("b".to_string(), Field::Flops),
        ("c".to_string(), Field::Bytes),
        ("d".to_string(), Field::Time),
        ("zz".to_string(), Field::Rate),
    ];
    let r = read(text, &mapping);
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    assert_eq!(
        fields(&r),
        [Field::Name, Field::Flops, Field::Bytes, Field::Time]
    );
    assert_close(r.kernels[0].rate, 1e11);
    // A user's choice beats a guess for the same field; a header unit goes
    // with its column when it fits the field chosen.
    let r = read(
        "time_ms,other (us),flops,bytes\n5,10,1e12,1e9\n",
        &[("other (us)".to_string(), Field::Time)],
    );
    assert_eq!(fields(&r)[..2], [Field::Ignore, Field::Time]);
    assert_eq!(r.columns[1].unit, "µs");
    assert_close(r.kernels[0].time.unwrap(), 1e-5);
    // A column can be switched off.
    let r = read(
        "name,flops,bytes,time\na,1e12,1e9,1\n",
        &[("time".to_string(), Field::Ignore)],
    );
    assert_eq!(r.errors.len(), 1);
    assert_eq!(r.errors[0].at, At::Input);
}

#[test]
fn the_apps_export_reads_back() {
    let text = "name,flops,bytes,time_s,intensity,attained_flop_s,roof_flop_s,fraction_of_roof,binding,lower_bound_s,time_saved_s\n\
        matmul,1000000000000,1000000000,0.01,1000,100000000000000,989000000000000,0.10111223458038422,compute,0.0010111223458038423,0.008988877654196158\n\
        \"add, fused\",16777216,201326592,6.5e-5,0.08333333333333333,258111015384.61542,279166666666.6667,0.9245,memory,6.0096e-5,4.9e-6\n";
    let r = rd(text);
    assert!(r.errors.is_empty() && r.notes.is_empty(), "{r:?}");
    assert_eq!(
        fields(&r),
        [
            Field::Name,
            Field::Flops,
            Field::Bytes,
            Field::Time,
            Field::Intensity,
            Field::Rate,
            Field::Ignore,
            Field::Ignore,
            Field::Ignore,
            Field::Ignore,
            Field::Ignore
        ]
    );
    assert_eq!(
        r.kernels[0],
        Kernel {
            name: "matmul".into(),
            intensity: 1000.0,
            rate: 1e14,
            time: Some(0.01)
        }
    );
    assert_eq!(
        r.kernels[1],
        Kernel {
            name: "add, fused".into(),
            intensity: 0.08333333333333333,
            rate: 258111015384.61542,
            time: Some(6.5e-5)
        }
    );
}

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
        "name,flops,bytes\na,1e12,1e9\n",
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
    let r = rd("name,flops,bytes\na,1e12,1e9\n");
    assert!(r.errors[0]
        .message
        .starts_with("No column gives time or FLOP/s"));
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
        row.repeat(5_000_000 / row.len() + 1)
    );
    assert!(text.len() > MAX_BYTES);
    let r = rd(&text);
    assert_eq!(r.format, None);
    assert!(r.kernels.is_empty() && r.columns.is_empty());
    assert_eq!(r.errors.len(), 1);
    assert_eq!(r.errors[0].at, At::Input);
    assert_eq!(
        r.errors[0].message,
        "The input is 5 MB; the limit is 2 MB. Split it or keep the kernels that matter."
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

// ---------------------------------------------------------------------------
// JSON.

#[test]
fn json_lists_and_wrapped_lists() {
    let list = r#"[{"name": "mm", "flops": 1e12, "bytes": "1 GB", "time": "10 ms"}]"#;
    let r = rd(list);
    assert_eq!(r.format, Some(Format::Json));
    assert_eq!(r.kernels.len(), 1);
    assert_close(r.kernels[0].intensity, 1000.0);
    assert_close(r.kernels[0].rate, 1e14);
    for key in ["kernels", "points", "rows", "data"] {
        let text = format!(r#"{{"chip": "H100", "{key}": {list}}}"#);
        let r = rd(&text);
        assert_eq!(r.kernels.len(), 1, "{key}");
        assert_eq!(&*r.kernels[0].name, "mm");
    }
    // Keys in first-appearance order across items; missing keys are empty.
    let r = rd(
        r#"[{"name": "a", "flop/s": 1e12, "intensity": 3}, {"time_ms": 2, "name": "b", "flop/s": "2 TFLOP/s", "intensity": "4 FLOPs/byte"}]"#,
    );
    let headers: Vec<&str> = r.columns.iter().map(|c| c.header.as_str()).collect();
    assert_eq!(headers, ["name", "flop/s", "intensity", "time_ms"]);
    assert_eq!(r.kernels.len(), 2);
    assert_close(r.kernels[1].rate, 2e12);
    assert_close(r.kernels[1].time.unwrap(), 2e-3);
    // Header units apply to JSON numbers too; a number can be a name.
    let k = one(r#"[{"id": 7, "gflops": 1000, "bytes": 1e9, "time_us": 10000}]"#);
    assert_eq!(&*k.name, "7");
    assert_close(k.flops().unwrap(), 1e12);
    assert_close(k.time.unwrap(), 0.01);
}

#[test]
fn json_problems() {
    let (at, m) = error("[{\"name\": \"a\",\n \"flops\": 1e12,}]");
    assert_eq!(at, At::Input);
    assert!(
        m.starts_with("The JSON could not be read at line 2, column"),
        "{m}"
    );
    // Where serde reading the whole document would say, and what.
    let k = r#"{"a": 1}"#;
    let nest = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    let deep = |n: usize| format!("{}1{}", r#"{"b":"#.repeat(n), "}".repeat(n));
    let mut texts: Vec<String> = [
        "[1, [2]",
        "[1 2]",
        "[1,]",
        "[{\"a\": 1},\n  ]",
        "[{\"a\": 1}] x",
        "[{\"a\": 1},\n {\"b\": 1e999}]",
        "[{\"a\": 1},\n {\"b\":\n\n tru}]",
        "{\"points\": [{\"a\": 1},\n 1e999]}",
        "[\n",
        // An error just after a line break: column 0 of the next line.
        "[{\"a\":1\n",
        "[{\"a\":1},\n",
        "[{\"a\": \"x\ny\"}]",
        // Parts that are only checked, not read: a list item, a list in a
        // cell, the wrapper's other keys (before and after the list).
        &format!("[{k},[1e999]]"),
        &format!("[{k},[\"\\ud800\"]]"),
        &format!("[{{\"a\": [1, 1e999]}}, {k}]"),
        "[{\"a\": {\"u\": \"\\udc00\"}}]",
        &format!("{{\"meta\": 1e999, \"kernels\": [{k}]}}"),
        &format!("{{\"kernels\": [{k}], \"meta\": [1e999]}}"),
        &format!("{{\"kernels\": [{k}], \"meta\": [1e999],}}"),
        &format!("{{\"kernels\": [{k}]\n \"meta\": 1}}"),
        &format!("{{\"kernels\" [{k}]}}"),
        &format!("{{\"kernels\": [{k}]"),
        &format!("{{\"kernels\": [{k}],"),
        &format!("{{\"kernels\": [{k}]}} x"),
        &format!("{{\"kernels\": [{k}, 1e999]}}"),
        "{1: 2}",
        "{,}",
        "{\"a\": 1,}",
        "{\"a\":",
        "{",
        // The end of an item: a bad byte, or the text's end after a comma.
        "[1x]",
        &format!("[{k},"),
        &format!("[{k}, \n"),
        // Read as JSON (a first character that is not space for serde).
        "\u{a0}[{\"a\": 1}]",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    // The document's depth, counted over the list and the wrapper, on both
    // sides of serde's limit, in a list item, a list in a cell and an
    // object in a cell.
    for n in [124, 125, 126, 127, 200] {
        texts.push(format!("[{k}, {}]", nest(n)));
        texts.push(format!("[{{\"a\": {}}}]", nest(n)));
        texts.push(format!("[{{\"a\": {}}}]", deep(n)));
        texts.push(format!("{{\"rows\": [{{\"a\":\n {}}}]}}", nest(n)));
        texts.push(format!("{{\"m\": {}, \"rows\": [{k}]}}", deep(n)));
    }
    // Past the limit of rows, items are still checked.
    let mut many = "[".to_string();
    for _ in 0..=MAX_ROWS {
        many.push_str("{\"flops\": 1, \"bytes\": 1, \"time\": 1},\n");
    }
    many.push_str("1e999]");
    texts.push(many);
    for text in &texts {
        same_as_serde(text);
    }
    for text in ["{\"chip\": \"H100\"}", "[1, [2]", "{\"kernels\": 3}"] {
        let (at, m) = error(text);
        assert_eq!(at, At::Input, "{text}");
        assert!(m.starts_with("The JSON"), "{m}");
    }
    let r = rd(
        r#"[{"flops": 1e12, "bytes": 1e9, "time": 1}, 3, "x", null, {"flops": true, "bytes": 1e9, "time": 1}, {"flops": -1, "bytes": 1e9, "time": 1}]"#,
    );
    assert_eq!(r.kernels.len(), 1);
    let got: Vec<String> = r.errors.iter().map(|e| e.text()).collect();
    assert_eq!(
        got,
        [
            "item 2: is a number, not an object with the kernel's columns",
            "item 3: is a string, not an object with the kernel's columns",
            "item 4: is null, not an object with the kernel's columns",
            "item 5: flops is not a number (true or false)",
            "item 6: flops is negative (-1)",
        ]
    );
    // An empty list has nothing to place, and nothing wrong.
    let r = read("[]", &[]);
    assert_eq!((r.format, r.errors.len()), (Some(Format::Json), 0));
}

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

// ---------------------------------------------------------------------------
// Units.

#[test]
fn units_public_api() {
    let ms = units::unit("ms").unwrap();
    assert_eq!((ms.kind, ms.symbol), (Kind::Time, "ms"));
    assert_eq!(ms.to_base(12.0), 0.012);
    let t = units::unit("TFLOPS").unwrap();
    assert_eq!(t.kind, Kind::Flops);
    assert_eq!(t.read_as(Field::Rate).unwrap().symbol, "TFLOP/s");
    assert_eq!(t.read_as(Field::Time), None);
    assert_eq!(units::split_quantity("2GiB"), Some((2.0, "GiB")));
    assert_eq!(units::quantity("3 GB").unwrap().1.unwrap().symbol, "GB");
    assert_eq!(Kind::of(Field::Time), Some(Kind::Time));
    assert_eq!(Kind::Bytes.base().factor(), 1.0);
}

// ---------------------------------------------------------------------------
// Properties.

/// Units to write a value in: (text, factor to base).
const TIME_UNITS: [(&str, f64); 6] = [
    ("s", 1.0),
    ("ms", 1e-3),
    ("us", 1e-6),
    ("µs", 1e-6),
    ("μs", 1e-6),
    ("ns", 1e-9),
];
const BYTE_UNITS: [(&str, f64); 6] = [
    ("B", 1.0),
    ("kB", 1e3),
    ("MB", 1e6),
    ("GB", 1e9),
    ("MiB", 1_048_576.0),
    ("GiB", 1_073_741_824.0),
];
const FLOP_UNITS: [(&str, f64); 5] = [
    ("FLOP", 1.0),
    ("MFLOP", 1e6),
    ("GFLOP", 1e9),
    ("TFLOP", 1e12),
    ("PFLOP", 1e15),
];

fn written(x: f64, factor: f64) -> f64 {
    if factor < 1.0 {
        x * (1.0 / factor).round()
    } else {
        x / factor
    }
}

/// `text` read in slices: `first` rows, then each of `steps` in turn
/// (cycling), until done.
fn in_slices(text: &str, first: usize, steps: &[usize]) -> (Reading, usize) {
    in_slices_mapped(text, &[], first, steps)
}

/// [`in_slices`] with a mapping.
fn in_slices_mapped(
    text: &str,
    mapping: &[Choice],
    first: usize,
    steps: &[usize],
) -> (Reading, usize) {
    let mut p = start(text, mapping, first);
    let mut slices = 1;
    for step in steps.iter().cycle() {
        if p.done() {
            break;
        }
        p.more(text, *step);
        slices += 1;
    }
    (p.into_reading(), slices)
}

#[test]
fn a_large_table_is_read_a_slice_at_a_time() {
    let mut text = String::from("\u{feff}name,flops,bytes,time (us)\n,,,\n# a comment\n");
    for i in 0..5000 {
        text.push_str(&format!(
            "k{i},{},{},{}\n",
            1e9 * f64::from(i + 1),
            1e6,
            5 + i % 7
        ));
    }
    // A quoted name across two lines, a bad row, and blank lines.
    text.push_str("\"two\nlines\",2e9,1e6,5\n\nbad,x,1e6,5\n\n");
    let whole = read(&text, &[]);
    assert_eq!(whole.kernels.len(), 5001);
    assert_eq!(whole.errors.len(), 1, "{:?}", whole.errors);
    assert_eq!(whole.errors[0].at, At::Line(5007));
    let mut p = start(&text, &[], 1000);
    assert!(!p.done());
    // A slice counts records, the blank one under the header too.
    assert_eq!(p.reading().kernels.len(), 999);
    assert_eq!(p.reading().columns, whole.columns);
    p.more(&text, 2500);
    assert_eq!(p.reading().kernels.len(), 3499);
    p.more(&text, usize::MAX);
    assert!(p.done());
    assert_eq!(p.reading(), &whole);
    // Done stays done.
    p.more(&text, 10);
    assert_eq!(p.into_reading(), whole);
    let (sliced, slices) = in_slices(&text, 0, &[1, 7, 999]);
    assert_eq!(sliced, whole);
    assert!(slices > 10, "{slices}");
    // A row of units under the header, and rows past the limit.
    let mut text = String::from("name,flops,bytes,time\n,GFLOP,MB,ms\n");
    for i in 0..MAX_ROWS + 3 {
        text.push_str(&format!(
            "k{i},{},2,{}\n",
            i + 1,
            if i % 2 == 0 { "3" } else { "3 us" }
        ));
    }
    let whole = read(&text, &[]);
    assert_eq!(whole.kernels.len(), MAX_ROWS);
    assert_eq!(in_slices(&text, 5, &[4096]).0, whole);
    // A record starting with U+FEFF is text, whichever slice it starts.
    let text = "time,flops,bytes\n1,1e9,1e6\n\u{feff}2,1e9,1e6\n";
    let whole = read(text, &[]);
    assert_eq!(whole.kernels.len(), 1);
    assert_eq!(whole.errors.len(), 1, "{:?}", whole.errors);
    assert_eq!(whole.errors[0].at, At::Line(3));
    assert_eq!(in_slices(text, 1, &[1]).0, whole);
    // No rows asked for is one row read, so that a loop of calls ends.
    let mut p = start(MATMULS, &[], 0);
    let mut calls = 0;
    while !p.done() {
        p.more(MATMULS, 0);
        calls += 1;
        assert!(calls < 1000);
    }
    assert_eq!(p.into_reading(), read(MATMULS, &[]));
    // The example JSON, a row at a time.
    let p = start(KERNELS, &[], 1);
    assert!(!p.done());
    assert_eq!(p.reading().kernels.len(), 1);
    assert_eq!(in_slices(KERNELS, 1, &[1]).0, read(KERNELS, &[]));
}

#[test]
fn a_json_list_reads_its_first_thousand_keys_as_columns() {
    use roofline_core::points::read::MAX_KEYS;
    // Each item brings a key of its own; the kernel's columns come first.
    let mut text = String::from(r#"[{"name": "k", "flops": 1e12, "bytes": 1e9, "time": 2}"#);
    for i in 0..MAX_KEYS + 500 {
        text.push_str(&format!(
            ",\n{{\"extra {i}\": 1, \"flops\": 2e12, \"bytes\": 1e9, \"time\": 2}}"
        ));
    }
    // A field first named past the limit is not a column.
    text.push_str(r#", {"flop/s": 1e12, "intensity": 3, "name": "late"}]"#);
    let r = rd(&text);
    assert_eq!(r.columns.len(), MAX_KEYS);
    assert_eq!(
        r.columns[MAX_KEYS - 1].header,
        format!("extra {}", MAX_KEYS - 5)
    );
    assert_eq!(r.kernels.len(), MAX_KEYS + 501);
    assert_eq!(r.errors.len(), 1, "{:?}", r.errors);
    assert_eq!(
        r.errors[0].text(),
        format!(
            "item {}: needs a time (or FLOP/s) to place it; it also needs FLOPs with bytes, an intensity, or an operation with sizes",
            MAX_KEYS + 502
        )
    );
    assert!(
        r.notes.iter().any(|n| n
            == "Only the first 1,000 keys of the items were read as columns; the others were left out."),
        "{:?}",
        r.notes
    );
    // In slices, the same.
    assert_eq!(in_slices(&text, 7, &[300, 1]).0, r);
}

#[test]
fn a_large_json_list_is_read_a_slice_at_a_time() {
    // 5,000 objects, then a number, a bad cell and an object whose keys
    // `flop/s` and `intensity` first appear at the end.
    let mut text = String::from("\u{feff} [");
    for i in 0..5000 {
        text.push_str(&format!(
            "{{\"name\": \"k{i}\", \"flops\": {}, \"bytes\": \"1 MB\", \"time (us)\": {}}},\n",
            1e9 * f64::from(i + 1),
            5 + i % 7
        ));
    }
    text.push_str(
        r#"3, {"name": "bad", "flops": "x", "bytes": 1e6},
        {"name": "late", "flop/s": "3 TFLOP/s", "intensity": 5}]"#,
    );
    let whole = read(&text, &[]);
    assert_eq!(whole.kernels.len(), 5001, "{:?}", whole.errors);
    let headers: Vec<&str> = whole.columns.iter().map(|c| c.header.as_str()).collect();
    assert_eq!(
        headers,
        ["name", "flops", "bytes", "time (us)", "flop/s", "intensity"]
    );
    let got: Vec<String> = whole.errors.iter().map(|e| e.text()).collect();
    assert_eq!(
        got,
        [
            "item 5001: is a number, not an object with the kernel's columns",
            "item 5002: flops is not a number ('x')",
        ]
    );
    // The last item is placed by its FLOP/s and intensity: those columns
    // were known from the first slice on.
    let last = whole.kernels.last().unwrap();
    assert_eq!(&*last.name, "late");
    assert_close(last.rate, 3e12);
    assert_close(last.intensity, 5.0);
    // The columns so far are those of the keys seen so far.
    let mut p = start(&text, &[], 1000);
    assert!(!p.done());
    assert_eq!(p.reading().kernels.len(), 1000);
    assert_eq!(p.reading().columns, whole.columns[..4]);
    p.more(&text, usize::MAX);
    assert!(p.done());
    assert_eq!(p.into_reading(), whole);
    let (sliced, slices) = in_slices(&text, 0, &[1, 7, 999]);
    assert_eq!(sliced, whole);
    assert!(slices > 10, "{slices}");
    // Wrapped, and past the limit.
    let mut text = String::from(r#"{"chip": "v5e", "points": ["#);
    for i in 0..MAX_ROWS + 3 {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&format!(r#"{{"flops": {}, "bytes": 2, "time": 3}}"#, i + 1));
    }
    text.push_str("]}");
    let whole = read(&text, &[]);
    assert_eq!(whole.kernels.len(), MAX_ROWS);
    assert_eq!(
        whole.errors.last().map(|e| e.text()).unwrap_or_default(),
        "Only the first 20,000 rows were read; 3 more were left out. Split the input to read them."
    );
    assert_eq!(in_slices(&text, 5, &[4096]).0, whole);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// A table read in slices of any sizes gives exactly the reading of
    /// one read: kernels, errors and their lines, notes, columns.
    #[test]
    fn slices_read_what_one_reading_reads(
        rows in prop::collection::vec(
            prop::sample::select(vec![
                "k,1e12,1e9,2", "\"a,b\",2e12,3e9,4 ms", "\"x\ny\",1e9,1e6,1", "", "# note",
                "bad,x,1e6,5", "k,-1,2,3", "k,1e12,1e9", ";;;", "\"open,1,2,3", "k,1 TFLOP,1 GB,2 us",
                "k,1e12,1e9,2,extra", "  ", "k,\"1e12\",1e9,2", "\u{feff}k,1e12,1e9,2",
            ]),
            0..40,
        ),
        units in any::<bool>(),
        bom in any::<bool>(),
        crlf in any::<bool>(),
        first in 0usize..5,
        steps in prop::collection::vec(0usize..6, 1..4),
    ) {
        let mut lines = vec!["name,flops,bytes,time (ms)"];
        if units {
            lines.push(",FLOP,B,");
        }
        lines.extend(rows.iter().copied());
        let mut text = lines.join(if crlf { "\r\n" } else { "\n" });
        if bom {
            text.insert(0, '\u{feff}');
        }
        let whole = read(&text, &[]);
        prop_assert_eq!(in_slices(&text, first, &steps).0, whole);
    }

    /// Any text made of JSON's pieces, right or wrong, reads as serde reads
    /// the whole document: the same error at the same place, or none.
    #[test]
    fn json_errors_are_serdes(
        open in prop::sample::select(vec!["[", "{", " [", "\n{", "[\n"]),
        pieces in prop::collection::vec(
            prop::sample::select(vec![
                "[", "]", "{", "}", ",", ":", " ", "\n", "\"a\"", "\"kernels\"", "\"rows\"",
                "\"flops\"", "1", "-2.5", "1e999", "\"\\ud800\"", "\"x\\ny\"", "null", "tru",
                "x", "{\"flops\": 1, \"bytes\": 2, \"time\": 3}",
            ]),
            0..24,
        ),
    ) {
        let text = format!("{open}{}", pieces.concat());
        same_as_serde(&text);
    }

    /// A JSON list read in slices of any sizes gives exactly the reading of
    /// one read.
    #[test]
    fn json_slices_read_what_one_reading_reads(
        items in prop::collection::vec(
            prop::sample::select(vec![
                r#"{"name": "k", "flops": 1e12, "bytes": 1e9, "time": 2}"#,
                r#"{"name": "a", "flop/s": "2 TFLOP/s", "intensity": 4}"#,
                r#"{"flops": "x", "bytes": 1e9, "time": 1}"#,
                r#"{"flops": 1e999}"#, "3", "null", r#""s""#, "[1]", "{}",
                r#"{"time_ms": 3, "flops": 1e9, "bytes": "1 MB"}"#,
                r#"{"time_ms": "3 us", "flops": 1e9, "bytes": 1e6, "extra": {"a": 1}}"#,
                r#"{"name": "d", "name": "e", "flops": 1, "bytes": 1, "time": 1}"#,
                r#"{"na\u006de": "esc", "flops": 1e9, "bytes": 1e6, "time": 1}"#,
                r#"{"id": 5, "flops": 1e9, "bytes": 1e6, "time": 1}"#,
                r#"{"kernel name": "z", "flops": 2e9, "dram_bytes": "2 MB", "time": "1 ms"}"#,
                r#"{"op": "bf16[B,D] * bf16[D,F] -> bf16[B,F]", "sizes": {"B": 8, "D": 64, "F": 64}, "time": 1}"#,
            ]),
            0..30,
        ),
        wrapped in any::<bool>(),
        first in 0usize..5,
        steps in prop::collection::vec(0usize..6, 1..4),
        choices in prop::collection::vec((0usize..6, 0usize..9), 0..3),
    ) {
        let list = format!("[{}]", items.join(",\n"));
        let text = if wrapped { format!(r#"{{"rows": {list}}}"#) } else { list };
        let heads = ["name", "flops", "time_ms", "id", "intensity", "extra"];
        let mapping: Vec<Choice> = choices
            .into_iter()
            .map(|(i, f)| (heads[i].to_string(), Field::ALL[f]))
            .collect();
        let whole = read(&text, &mapping);
        prop_assert_eq!(in_slices_mapped(&text, &mapping, first, &steps).0, whole);
    }

    /// A JSON list places the kernels its table as CSV places: the columns
    /// are all the keys, however late a key first appears (the reading
    /// starts again when a late key changes the columns).
    #[test]
    fn json_places_what_its_csv_places(
        items in prop::collection::vec(
            prop::collection::vec((0usize..9, 0usize..6), 1..5),
            1..25,
        ),
        choices in prop::collection::vec((0usize..9, 0usize..9), 0..2),
        first in 0usize..4,
    ) {
        let keys = [
            "name", "id", "flops", "bytes", "time_ms", "time (us)", "flop/s", "intensity", "dram_bytes",
        ];
        let values = ["\"k\"", "7", "1e12", "2.5e9", "\"3 ms\"", "null"];
        let mut headers: Vec<&str> = Vec::new();
        let mut objects = Vec::new();
        let mut rows = Vec::new();
        for item in &items {
            let mut row: Vec<(usize, usize)> = Vec::new();
            for &(k, v) in item {
                if !row.iter().any(|&(j, _)| j == k) {
                    row.push((k, v));
                }
            }
            // A CSV line of empty cells is skipped, where a JSON item
            // without values is a row without values: each has a value.
            if row.iter().all(|&(_, v)| values[v] == "null") {
                row[0].1 = 1;
            }
            let mut fields = Vec::new();
            for &(k, v) in &row {
                if !headers.contains(&keys[k]) {
                    headers.push(keys[k]);
                }
                fields.push(format!("{:?}: {}", keys[k], values[v]));
            }
            objects.push(format!("{{{}}}", fields.join(", ")));
            rows.push(row);
        }
        let json = format!("[{}]", objects.join(",\n"));
        let mut csv = headers.iter().map(|h| format!("{h:?}")).collect::<Vec<_>>().join(",");
        for row in &rows {
            let cells: Vec<String> = headers
                .iter()
                .map(|h| {
                    row.iter()
                        .find(|&&(k, _)| keys[k] == *h)
                        .map_or(String::new(), |&(_, v)| match values[v] {
                            "null" => String::new(),
                            s => s.to_string(),
                        })
                })
                .collect();
            csv.push('\n');
            csv.push_str(&cells.join(","));
        }
        let mapping: Vec<Choice> = choices
            .into_iter()
            .map(|(i, f)| (keys[i].to_string(), Field::ALL[f]))
            .collect();
        let from_json = in_slices_mapped(&json, &mapping, first, &[1, 3]).0;
        let from_csv = read(&csv, &mapping);
        prop_assert_eq!(&from_json.columns, &from_csv.columns);
        prop_assert_eq!(&from_json.kernels, &from_csv.kernels);
        prop_assert_eq!(from_json.errors.len(), from_csv.errors.len());
    }

    /// Anything at all reads without a panic, and no message shows NaN or inf.
    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        clean(&read(&text, &[]));
    }

    /// Text made of a table's characters reads without a panic.
    #[test]
    fn tableish_text_never_panics(
        text in "[a-z_ ,;\t\n#\"0-9.eE+µ/\\[\\]{}:=()-]{0,200}",
        mapping in prop::collection::vec((0usize..8, 0usize..9), 0..4),
    ) {
        // Choices by headers the text may hold.
        let heads = ["name", "flops", "bytes", "time", "op", "sizes", "", "a"];
        let mapping: Vec<Choice> = mapping
            .into_iter()
            .map(|(i, f)| (heads[i].to_string(), Field::ALL[f]))
            .collect();
        for t in [
            text.clone(),
            format!("name,flops,bytes,time,op,sizes\n{text}"),
            format!("[{text}]"),
            format!("{{\"kernels\": [{text}"),
        ] {
            let r = read(&t, &mapping);
            clean(&r);
            prop_assert_eq!(&in_slices_mapped(&t, &mapping, 1, &[2, 1]).0, &r);
            for k in &r.kernels {
                prop_assert!(k.rate.is_finite() && k.rate > 0.0);
                prop_assert!(k.intensity.is_finite() && k.intensity > 0.0);
            }
        }
    }

    /// Kernels written as CSV, each value in a random unit either in the
    /// header or in the cell, read back within 1e-12.
    #[test]
    fn kernels_round_trip_through_csv(
        rows in prop::collection::vec((1e3f64..1e20, 1e3f64..1e15, 1e-9f64..10.0), 1..20),
        tu in 0usize..6, bu in 0usize..6, fu in 0usize..5,
        in_header in any::<[bool; 3]>(),
        sep in prop::sample::select(vec![",", ";", "\t"]),
    ) {
        let (t_sym, t_f) = TIME_UNITS[tu];
        let (b_sym, b_f) = BYTE_UNITS[bu];
        let (f_sym, f_f) = FLOP_UNITS[fu];
        let head = |name: &str, sym: &str, h: bool| {
            if h { format!("{name} ({sym})") } else { name.to_string() }
        };
        let mut text = [
            "name".to_string(),
            head("flops", f_sym, in_header[0]),
            head("bytes", b_sym, in_header[1]),
            head("time", t_sym, in_header[2]),
        ]
        .join(sep);
        text.push('\n');
        for (i, (f, b, t)) in rows.iter().enumerate() {
            let cell = |x: f64, factor: f64, sym: &str, h: bool| {
                let v = written(x, factor);
                if h { format!("{v}") } else { format!("{v} {sym}") }
            };
            text.push_str(&[
                format!("k{i}"),
                cell(*f, f_f, f_sym, in_header[0]),
                cell(*b, b_f, b_sym, in_header[1]),
                cell(*t, t_f, t_sym, in_header[2]),
            ].join(sep));
            text.push('\n');
        }
        let r = read(&text, &[]);
        // Some random kernels are outside the limits; every other one reads.
        let mut k = r.kernels.iter();
        for (f, b, t) in &rows {
            let (rate, intensity) = (f / t, f / b);
            if rate > 1e19 || !(1e-6..=1e9).contains(&intensity) || *f > 1e24 {
                continue;
            }
            let got = k.next().unwrap();
            prop_assert!(close(got.rate, rate), "{} vs {}", got.rate, rate);
            prop_assert!(close(got.intensity, intensity), "{} vs {}", got.intensity, intensity);
            prop_assert!(close(got.time.unwrap(), *t));
        }
        prop_assert!(k.next().is_none());
        prop_assert_eq!(r.kernels.len() + r.errors.len(), rows.len());
    }
}
