//! Reading Nsight Compute's CSV exports (`ncu --csv`, the default page and
//! `--page raw`) through the public reader: the example files of
//! `docs/measurements/` with hand-computed FLOPs, bytes and times.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use roofline_core::points::read::Format;
use roofline_core::points::{read, At, Reading};

const DETAILS: &str = include_str!("../../../docs/measurements/ncu-details.csv");
const RAW: &str = include_str!("../../../docs/measurements/ncu-raw.csv");

const MATMUL: &str =
    "void matmul_bf16<128, 128, 64>(const __nv_bfloat16 *, const __nv_bfloat16 *, __nv_bfloat16 *, int, int, int)";
const RMSNORM: &str = "void rmsnorm_pass<float>(float *, const float *, const float *, int, int)";

/// Each example kernel: name, seconds, FLOPs, bytes (computed by hand).
fn expected() -> [(String, f64, f64, f64); 3] {
    [
        // 2·4096³ bf16 tensor ops + 2 × 16,777,216 FFMA + 4 × 8,388,608 HFMA
        // (a packed pair of FMAs each); 118.45 Mbyte; 196.38 µs.
        (
            roofline_core::format::clip(MATMUL, 80),
            196.38e-6,
            137_438_953_472.0 + 33_554_432.0 + 33_554_432.0,
            118_450_000.0,
        ),
        // 2,097,152 FADD + 2 × 67,108,864 FFMA; 268.47 Mbyte; 62.43 µs.
        (
            format!("{RMSNORM} #1"),
            62.43e-6,
            136_314_880.0,
            268_470_000.0,
        ),
        // 134,217,728 FMUL; 536,903.68 Kbyte; 124,862.08 ns.
        (
            format!("{RMSNORM} #2"),
            124_862.08e-9,
            134_217_728.0,
            536_903_680.0,
        ),
    ]
}

#[track_caller]
fn close(got: f64, want: f64) {
    assert!(
        (got - want).abs() <= want.abs() * 1e-9,
        "got {got}, want {want}"
    );
}

#[track_caller]
fn check(r: &Reading) {
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    assert_eq!(r.kernels.len(), 3, "{:?}", r.kernels);
    for (k, (name, time, flops, bytes)) in r.kernels.iter().zip(expected()) {
        assert_eq!(&*k.name, name);
        let t = k.time.unwrap();
        close(t, time);
        close(k.rate * t, flops);
        close(k.rate * t / k.intensity, bytes);
    }
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

#[test]
fn details_page_example() {
    let r = read(DETAILS, &[]);
    assert_eq!(r.format, Some(Format::NcuLong));
    check(&r);
    assert_eq!(r.notes.len(), 3, "{:?}", r.notes);
    assert!(
        r.notes[0].contains("fp32 and fp16 instructions (an FMA as 2) and tensor-core operations")
    );
    // The matmul's tensor work is all bf16: it is read at bf16.
    assert!(r.notes[1].starts_with("A kernel whose tensor-core work is mostly of one data type"));
    assert!(r.notes[2].contains("fp32 instructions (an FMA as 2); tensor-core work is not counted"));
    let types: Vec<_> = r.kernels.iter().map(|k| k.dtype).collect();
    assert_eq!(types, [Some(roofline_core::DType::Bf16), None, None]);
}

#[test]
fn raw_page_example() {
    let r = read(RAW, &[]);
    assert_eq!(r.format, Some(Format::NcuRaw));
    check(&r);
}

#[test]
fn a_kernel_without_time_is_an_error_at_its_first_row() {
    let text: String = DETAILS
        .lines()
        .filter(|l| !(l.starts_with("\"1\"") && l.contains("gpu__time_duration.sum")))
        .map(|l| format!("{l}\n"))
        .collect();
    let r = read(&text, &[]);
    assert_eq!(r.format, Some(Format::NcuLong));
    assert_eq!(r.kernels.len(), 2);
    assert_eq!(r.errors.len(), 1);
    assert_eq!(r.errors[0].at, At::Line(18));
    assert!(
        r.errors[0].message.contains("no gpu__time_duration.sum"),
        "{:?}",
        r.errors
    );
}

#[test]
fn plain_csv_is_left_to_the_table_reader() {
    let r = read("name,flops,bytes,time_ms\nmm,1e12,1e9,10\n", &[]);
    assert_eq!(r.format, Some(Format::Csv));
}

#[test]
fn a_large_raw_page_is_read_whole() {
    let mut text = String::from(
        "\"ID\",\"Kernel Name\",\"dram__bytes.sum\",\"gpu__time_duration.sum\",\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum\"\n\"\",\"\",\"byte\",\"nsecond\",\"inst\"\n",
    );
    for i in 0..15_000 {
        text += &format!(
            "\"{i}\",\"k{}\",\"1,000\",\"2,000\",\"{}\"\n",
            i % 2,
            1000 + i
        );
    }
    assert!(text.len() < roofline_core::points::read::MAX_BYTES);
    let r = read(&text, &[]);
    assert_eq!(r.format, Some(Format::NcuRaw));
    assert!(r.errors.is_empty(), "{:?}", r.errors.first());
    assert_eq!(r.kernels.len(), 15_000);
    assert_eq!(&*r.kernels[14_999].name, "k1 #14999");
    close(r.kernels[3].rate * 2e-6, 2.0 * 1003.0);
}

#[test]
fn an_export_read_as_a_plain_table_starts_at_its_header_and_maps_by_hand() {
    use roofline_core::points::read::{profiler_format, start_as};
    use roofline_core::points::Field;
    assert_eq!(profiler_format(RAW), Some(Format::NcuRaw));
    assert_eq!(profiler_format("name,flops\nk,1\n"), None);
    // The tensor count mapped as the FLOPs: the matmul's are its own.
    let mapping = [(
        "sm__ops_path_tensor_src_bf16_dst_fp32.sum".to_string(),
        Field::Flops,
    )];
    let mut p = start_as(RAW, &mapping, 1, true);
    while !p.done() {
        p.more(RAW, 1);
    }
    let r = p.into_reading();
    assert_eq!(r.format, Some(Format::Csv));
    assert_eq!(r.columns[0].header, "ID");
    assert!(r.notes[0].starts_with("The lines before the profiler's header are left out"));
    assert!(
        r.notes
            .iter()
            .any(|n| n == "The line under the header gives units; it is read as units."),
        "{:?} {:?} {:?}",
        r.notes,
        r.errors,
        r.columns
    );
    // The matmul is read (its bytes and time in the units row's units);
    // the norms count no tensor work: their FLOPs are 0, refused.
    assert_eq!(r.kernels.len(), 1, "{:?}", r.errors);
    let k = &r.kernels[0];
    assert!((k.flops().unwrap() / 137_438_953_472.0 - 1.0).abs() < 1e-12);
    assert!((k.time.unwrap() / 196.38e-6 - 1.0).abs() < 1e-12);
    assert_eq!(r.errors.len(), 2, "{:?}", r.errors);
    // Lines count from the header.
    assert_eq!(r.errors[0].at, At::Line(4));
    // Read whole, the same.
    let mut q = start_as(RAW, &mapping, usize::MAX, true);
    q.more(RAW, usize::MAX);
    assert_eq!(q.into_reading(), r);
}

/// The raw page as Nsight Compute writes it where the decimal mark is a
/// comma (`118.450,00`, `137.438.953.472`), each field quoted and
/// comma-separated.
fn comma_locale(text: &str) -> String {
    let swap = |f: &str| {
        if !f.is_empty()
            && f.bytes()
                .all(|b| b.is_ascii_digit() || b == b',' || b == b'.')
        {
            f.chars()
                .map(|c| match c {
                    ',' => '.',
                    '.' => ',',
                    c => c,
                })
                .collect()
        } else {
            f.to_string()
        }
    };
    text.lines()
        .map(|l| {
            match l
                .strip_prefix("\"0\"")
                .or(l.strip_prefix("\"1\""))
                .or(l.strip_prefix("\"2\""))
            {
                Some(_) => l.split("\",\"").map(swap).collect::<Vec<_>>().join("\",\""),
                None => l.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Read by the Nsight Compute reader and as a plain table (its units
/// row's path), a decimal-comma export gives the kernels the
/// decimal-point one gives.
#[test]
fn a_decimal_comma_raw_page_reads_as_the_point_one() {
    use roofline_core::points::read::start_as;
    use roofline_core::points::Field;
    let comma = comma_locale(RAW);
    assert!(
        comma.contains("\"118.450,00\",\"196.380,00\",\"137.438.953.472\""),
        "{comma}"
    );
    let (a, b) = (read(RAW, &[]), read(&comma, &[]));
    assert!(b.errors.is_empty(), "{:?}", b.errors);
    assert_eq!(a.kernels, b.kernels);
    let mapping = [(
        "sm__ops_path_tensor_src_bf16_dst_fp32.sum".to_string(),
        Field::Flops,
    )];
    let plain = |t: &str| {
        let mut p = start_as(t, &mapping, usize::MAX, true);
        p.more(t, usize::MAX);
        p.into_reading()
    };
    let (a, b) = (plain(RAW), plain(&comma));
    assert_eq!(b.kernels.len(), 1, "{:?}", b.errors);
    assert_eq!(a.kernels, b.kernels);
}

/// `ncu --print-summary per-kernel` is text, not CSV: the reading says so
/// and gives the command that exports CSV, not that no column gives a
/// time.
#[test]
fn the_printed_summary_asks_for_csv() {
    let text = include_str!("../../../docs/measurements/ncu-summary.txt");
    let r = read(text, &[]);
    assert!(r.kernels.is_empty());
    assert_eq!(r.errors.len(), 1, "{:?}", r.errors);
    assert_eq!(r.errors[0].at, At::Input);
    let m = &r.errors[0].message;
    assert!(
        m.starts_with("This is Nsight Compute's printed summary (--print-summary per-kernel)"),
        "{m}"
    );
    assert!(m.contains("ncu --csv --page raw --metrics"), "{m}");
    assert!(!m.contains("No column gives"), "{m}");
}
