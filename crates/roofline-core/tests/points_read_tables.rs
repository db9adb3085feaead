//! Reading measurement tables: the formats (CSV, TSV, `;`, comments), line
//! numbers, each column's field and unit from its header, cell units, the
//! user's mapping, and the units' public API.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{assert_close, fields, one, rd};
use roofline_core::points::read::Format;
use roofline_core::points::units::{self, Kind};
use roofline_core::points::{read, At, Field, Kernel, Reading};

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
    // A column can be switched off (the time: the kernel is then a
    // prediction).
    let r = read(
        "name,flops,bytes,time\na,1e12,1e9,1\n",
        &[("time".to_string(), Field::Ignore)],
    );
    assert!(r.errors.is_empty());
    assert_eq!(r.kernels[0].predicted, Some(1e12));
    let r = read(
        "name,flops,bytes,time\na,1e12,1e9,1\n",
        &[("flops".to_string(), Field::Ignore)],
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
            time: Some(0.01),
            predicted: None,
            dtype: None,
        }
    );
    assert_eq!(
        r.kernels[1],
        Kernel {
            name: "add, fused".into(),
            intensity: 0.08333333333333333,
            rate: 258111015384.61542,
            time: Some(6.5e-5),
            predicted: None,
            dtype: None,
        }
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
