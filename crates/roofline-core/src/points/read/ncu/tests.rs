//! The Nsight Compute reader's unit tests: hand-made exports.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use super::*;

/// The old (2020–2022) long-form header.
const HEAD: &str = r#""ID","Process ID","Process Name","Host Name","Kernel Name","Kernel Time","Context","Stream","Section Name","Metric Name","Metric Unit","Metric Value""#;
/// The fp32 FMA count's name.
const FFMA: &str = "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum";

/// A long-form export of `rows` (ID, kernel, metric, unit, value) after
/// a `==PROF==` preamble.
fn long(rows: &[(&str, &str, &str, &str, &str)]) -> String {
    let mut s = format!("==PROF== Connected to process 1 (/bin/app)\nhello from the app\n{HEAD}\n");
    for (id, k, m, u, v) in rows {
        s += &format!(
            "\"{id}\",\"1\",\"app\",\"127.0.0.1\",\"{k}\",\"2020-Aug-30 00:50:42\",\"1\",\"7\",\"Command line profiler metrics\",\"{m}\",\"{u}\",\"{v}\"\n"
        );
    }
    s
}

/// The rows of a kernel with the given time, bytes and fp32 FMAs.
fn kernel<'a>(
    id: &'a str,
    name: &'a str,
    t: &'a str,
    b: &'a str,
    f: &'a str,
) -> Vec<(&'a str, &'a str, &'a str, &'a str, &'a str)> {
    vec![
        (id, name, TIME, "nsecond", t),
        (id, name, BYTES, "Kbyte", b),
        (id, name, FFMA, "inst", f),
    ]
}

#[track_caller]
fn close(got: f64, want: f64) {
    assert!(
        (got - want).abs() <= want.abs() * 1e-12,
        "got {got}, want {want}"
    );
}

#[test]
fn long_form_is_read_with_units_and_separators() {
    let mut rows = kernel(
        "0",
        "gemm(float, int)",
        "1,024.35",
        "2,048",
        "2,147,483,648",
    );
    rows.push((
        "0",
        "gemm(float, int)",
        "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
        "inst",
        "10",
    ));
    rows.push((
        "0",
        "gemm(float, int)",
        "sm__sass_thread_inst_executed_op_hmul_pred_on.sum",
        "inst",
        "5",
    ));
    rows.push((
        "0",
        "gemm(float, int)",
        "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum",
        "Kinst",
        "1.5",
    ));
    let p = read(&long(&rows)).unwrap();
    assert_eq!(p.format, Format::NcuLong);
    assert!(p.errors.is_empty(), "{:?}", p.errors);
    let k = &p.kernels[0];
    assert_eq!(k.name, "gemm(float, int)");
    assert_eq!(k.at, At::Line(4));
    close(k.time.unwrap(), 1024.35e-9);
    close(k.bytes, 2_048_000.0);
    // A half-precision instruction is a packed pair: hmul 2, hfma 4.
    close(
        k.flops,
        2.0 * 2_147_483_648.0 + 10.0 + 2.0 * 5.0 + 4.0 * 1500.0,
    );
    assert_eq!(p.notes.len(), 1);
    assert!(
        p.notes[0].contains("fp32 and fp16 instructions"),
        "{}",
        p.notes[0]
    );
    assert!(
        p.notes[0].contains("tensor-core work is not counted"),
        "{}",
        p.notes[0]
    );
}

#[test]
fn repeated_names_are_kept_apart_by_id() {
    let mut rows = kernel("3", "add", "10", "1", "100");
    rows.extend(kernel("4", "add", "20", "2", "200"));
    rows.extend(kernel("5", "mul", "30", "3", "300"));
    let p = read(&long(&rows)).unwrap();
    let names: Vec<_> = p.kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["add #3", "add #4", "mul"]);
    close(p.kernels[1].flops, 400.0);
    assert_eq!(p.kernels[2].at, At::Line(10));
    assert_eq!(p.notes.len(), 1);
}

#[test]
fn long_repeated_names_keep_their_id_when_clipped() {
    let name = "x".repeat(200);
    let mut rows = kernel("7", &name, "10", "1", "100");
    rows.extend(kernel("12", &name, "20", "2", "200"));
    let p = read(&long(&rows)).unwrap();
    let shown = |i: usize| format::clip(&p.kernels[i].name, NAME_CHARS);
    assert!(shown(0).ends_with("… #7"), "{}", shown(0));
    assert!(shown(1).ends_with("… #12"), "{}", shown(1));
    assert_eq!(shown(1).chars().count(), NAME_CHARS);
}

#[test]
fn raw_page_with_units_row_and_fallbacks() {
    let text = "\
\"ID\",\"Kernel Name\",\"dram__bytes_read.sum\",\"dram__bytes_write.sum\",\"gpu__time_duration.sum\",\"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum\",\"sm__ops_path_tensor_src_fp16.sum\",\"sm__ops_path_tensor_src_int8.sum\"
\"\",\"\",\"Mbyte\",\"Kbyte\",\"usecond\",\"inst\",\"\",\"\"
\"0\",\"k(int, int)\",\"1.5\",\"500\",\"2.5\",\"1,000\",\"4,000\",\"99\"
==PROF== Disconnected
";
    let p = read(text).unwrap();
    assert_eq!(p.format, Format::NcuRaw);
    assert!(p.errors.is_empty(), "{:?}", p.errors);
    let k = &p.kernels[0];
    close(k.bytes, 2_000_000.0);
    close(k.time.unwrap(), 2.5e-6);
    close(k.flops, 2000.0 + 4000.0);
    assert!(
        p.notes[0].contains("fp64 instructions (an FMA as 2) and tensor-core operations"),
        "{}",
        p.notes[0]
    );
}

#[test]
fn raw_page_without_units_row_asks_for_it() {
    let text = "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n\"0\",\"k\",\"5\"\n";
    let p = read(text).unwrap();
    assert!(
        p.errors[0].message.contains("has no unit"),
        "{:?}",
        p.errors
    );
}

#[test]
fn speed_of_light_duration_is_the_fallback_time() {
    let mut s = long(&[
        ("0", "k", BYTES, "byte", "100"),
        ("0", "k", FFMA, "inst", "100"),
    ]);
    s += r#""0","1","app","h","k","t","1","7","GPU Speed Of Light Throughput","Duration","msecond","1.5""#;
    let p = read(&s).unwrap();
    close(p.kernels[0].time.unwrap(), 1.5e-3);
}

#[test]
fn missing_metrics_are_named() {
    let p = read(&long(&[
        ("0", "k", BYTES, "byte", "100"),
        ("0", "k", FFMA, "inst", "100"),
    ]))
    .unwrap();
    assert!(p.kernels.is_empty());
    assert_eq!(p.errors.len(), 1);
    assert_eq!(p.errors[0].at, At::Line(4));
    let m = &p.errors[0].message;
    assert!(
        m.starts_with("'k': the export has no gpu__time_duration.sum;"),
        "{m}"
    );
    assert!(
        m.contains("--metrics 'gpu__time_duration.sum,dram__bytes.sum,"),
        "{m}"
    );

    let p = read(&long(&[
        ("0", "k", TIME, "ns", "100"),
        ("0", "k", BYTES_READ, "byte", "100"),
    ]))
    .unwrap();
    let m = &p.errors[0].message;
    assert!(
        m.contains("no dram__bytes.sum, no smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"),
        "{m}"
    );
}

#[test]
fn zero_flops_and_bad_values_are_errors() {
    let p = read(&long(&kernel("0", "k", "10", "1", "0"))).unwrap();
    assert!(p.errors[0]
        .message
        .contains("no floating-point instructions were counted"));

    for (bad, why) in [
        ("n/a", "is not a number"),
        ("-3", "is negative"),
        ("1,23,456", "is not a number"),
        ("inf", "is not a number"),
    ] {
        let p = read(&long(&kernel("0", "k", "10", bad, "5"))).unwrap();
        let m = &p.errors[0].message;
        assert!(m.contains(why), "{bad}: {m}");
    }
    let p = read(&long(&[("0", "k", TIME, "cycle", "10")])).unwrap();
    assert!(p.errors[0]
        .message
        .contains("'cycle', a unit not read here"));
}

#[test]
fn a_cut_off_file_keeps_what_is_whole() {
    let mut rows = kernel("0", "a", "10", "1", "5");
    rows.extend(kernel("1", "b", "10", "1", "5"));
    let text = long(&rows);
    let cut = &text[..text.len() - 8];
    let p = read(cut).unwrap();
    assert_eq!(p.kernels.len(), 1);
    assert_eq!(p.errors.len(), 2, "{:?}", p.errors);
    assert_eq!(p.errors[0].at, At::Line(9));
    assert!(p.errors[0].message.contains("cut off"));
    assert!(p.errors[1]
        .message
        .contains("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"));
    // Every prefix reads without a panic.
    for (i, _) in text.char_indices() {
        let _ = read(&text[..i]);
    }
}

#[test]
fn other_tables_are_not_read() {
    assert!(read("name,flops,bytes,time_ms\nmm,1e12,1e9,10\n").is_none());
    assert!(read("\"ID\",\"name\",\"flops\"\n\"1\",\"a\",\"2\"\n").is_none());
    assert!(read("").is_none());
    let p = read(&format!("{HEAD}\n")).unwrap();
    assert_eq!(p.errors[0].at, At::Input);
}

#[test]
fn splitter_handles_quotes() {
    assert_eq!(
        split(r#""a,b","c""d",,e"#, b',').unwrap(),
        ["a,b", "c\"d", "", "e"]
    );
    assert!(split(r#""a","b"#, b',').is_none());
    assert_eq!(split(r#""a;b";"c";d"#, b';').unwrap(), ["a;b", "c", "d"]);
}

#[test]
fn an_sm_count_stands_in_only_where_smsp_is_missing() {
    let sm = "sm__sass_thread_inst_executed_op_ffma_pred_on.sum";
    for order in [[FFMA, sm], [sm, FFMA]] {
        let mut rows = vec![
            ("0", "k", TIME, "nsecond", "10"),
            ("0", "k", BYTES, "byte", "100"),
            (
                "0",
                "k",
                "sm__throughput.avg.pct_of_peak_sustained_elapsed",
                "%",
                "n/a",
            ),
        ];
        rows.push((
            "0",
            "k",
            order[0],
            "inst",
            if order[0] == sm { "7" } else { "50" },
        ));
        rows.push((
            "0",
            "k",
            order[1],
            "inst",
            if order[1] == sm { "7" } else { "50" },
        ));
        // Only the sm__ count: it is read.
        rows.push(("1", "j", TIME, "nsecond", "10"));
        rows.push(("1", "j", BYTES, "byte", "100"));
        rows.push(("1", "j", sm, "inst", "7"));
        let p = read(&long(&rows)).unwrap();
        // The unread metric's "n/a" is no error: it is not kept.
        assert!(p.errors.is_empty(), "{:?}", p.errors);
        close(p.kernels[0].flops, 100.0);
        close(p.kernels[1].flops, 14.0);
    }
}

#[test]
fn tensor_work_of_one_type_gives_the_kernels_data_type() {
    let fp8 = "sm__ops_path_tensor_src_fp8_sparsity_off.sum";
    let bf16 = "sm__ops_path_tensor_src_bf16_dst_fp32.sum";
    let mut rows = kernel("0", "gemm_fp8", "10", "1", "5");
    rows.push(("0", "gemm_fp8", fp8, "", "1,000,000"));
    // Mostly fp32 FMAs: not the tensor type.
    rows.extend(kernel("1", "mostly_fma", "10", "1", "5,000,000"));
    rows.push(("1", "mostly_fma", fp8, "", "1,000"));
    // Two types: none.
    rows.extend(kernel("2", "mixed", "10", "1", "5"));
    rows.push(("2", "mixed", fp8, "", "1,000"));
    rows.push(("2", "mixed", bf16, "", "1,000"));
    // A type the app has no peak for.
    rows.extend(kernel("3", "tf32", "10", "1", "5"));
    rows.push((
        "3",
        "tf32",
        "sm__ops_path_tensor_src_tf32_dst_fp32.sum",
        "",
        "1,000",
    ));
    let p = read(&long(&rows)).unwrap();
    assert!(p.errors.is_empty(), "{:?}", p.errors);
    let types: Vec<_> = p.kernels.iter().map(|k| k.dtype).collect();
    assert_eq!(types, [Some(DType::Fp8), None, None, None]);
    assert!(p
        .notes
        .iter()
        .any(|n| n.starts_with("A kernel whose tensor-core work")));
    assert_eq!(source_type("bf16_dst_fp32"), Some(DType::Bf16));
    assert_eq!(source_type("fp4_fp6_fp8_dst_fp16"), None);
    assert_eq!(source_type("fp16"), Some(DType::Fp16));
}

/// A bf16 GEMM (4096³) on an H100 as the advice's metrics give it: its
/// FLOPs are the tensor cores' operations (2·4096³), not its few
/// bookkeeping FMAs, which alone put it at 0.257 FLOPs/byte.
#[test]
fn the_advice_asks_for_the_tensor_work_a_gemm_is_read_by() {
    let tensor_regex = "regex:^sm__ops_path_tensor_src_.*\\.sum$";
    assert!(ADVICE.contains(tensor_regex), "{ADVICE}");
    for m in [TIME, BYTES, FFMA] {
        assert!(ADVICE.contains(m), "{m}");
    }
    // What the regex gives on Hopper (the names of Nsight Compute's
    // tensor roofline section for GH100), integers and all.
    let hopper = [
        (
            "sm__ops_path_tensor_src_bf16_dst_fp32.sum",
            "137,438,953,472",
        ),
        ("sm__ops_path_tensor_src_fp16.sum", "0"),
        ("sm__ops_path_tensor_src_fp8_sparsity_off.sum", "0"),
        ("sm__ops_path_tensor_src_fp8_sparsity_on.sum", "0"),
        ("sm__ops_path_tensor_src_tf32_dst_fp32.sum", "0"),
        ("sm__ops_path_tensor_src_fp64.sum", "0"),
        ("sm__ops_path_tensor_src_int8.sum", "99"),
    ];
    let bytes = 3.0 * 4096.0 * 4096.0 * 2.0;
    let mut rows = vec![
        ("0", "gemm", TIME, "usecond", "196.38"),
        ("0", "gemm", BYTES, "byte", "100,663,296"),
        ("0", "gemm", FFMA, "inst", "12,935,234"),
    ];
    // Without the tensor metrics: the bug's 0.257 FLOPs/byte.
    let p = read(&long(&rows)).unwrap();
    let k = &p.kernels[0];
    assert!(
        (k.flops / k.bytes - 0.257).abs() < 1e-3,
        "{}",
        k.flops / k.bytes
    );
    assert!(p.notes[0].contains(tensor_regex), "{}", p.notes[0]);
    for (m, v) in hopper {
        assert!(m.starts_with("sm__ops_path_tensor_src_") && m.ends_with(".sum"));
        rows.push(("0", "gemm", m, "", v));
    }
    let p = read(&long(&rows)).unwrap();
    assert!(p.errors.is_empty(), "{:?}", p.errors);
    let k = &p.kernels[0];
    close(k.flops, 2.0 * 4096f64.powi(3) + 2.0 * 12_935_234.0);
    assert!(
        (k.flops / k.bytes - 1365.6).abs() < 0.1,
        "{}",
        k.flops / bytes
    );
    assert_eq!(k.dtype, Some(DType::Bf16));
}

/// A total and its breakdown by destination or sparsity are counted once;
/// sources of several types are counted beside single ones.
#[test]
fn tensor_totals_and_their_breakdowns_count_once() {
    let t = |s: &str| format!("sm__ops_path_tensor_src_{s}.sum");
    let names = [
        (t("fp8"), "1,000"),
        (t("fp8_sparsity_off"), "600"),
        (t("fp8_sparsity_on"), "400"),
        (t("fp16"), "500"),
        (t("fp16_dst_fp32"), "500"),
        (t("bf16_dst_fp32_sparsity_off"), "300"),
        (t("bf16_dst_fp32_sparsity_on"), "100"),
        (t("fp4_fp6_fp8_dst_fp32"), "50"),
        (t("fp4_dst_fp32"), "70"),
    ];
    let mut rows = vec![
        ("0", "k", TIME, "nsecond", "10"),
        ("0", "k", BYTES, "byte", "100"),
    ];
    for (m, v) in &names {
        rows.push(("0", "k", m.as_str(), "", v));
    }
    let p = read(&long(&rows)).unwrap();
    assert!(p.errors.is_empty(), "{:?}", p.errors);
    close(p.kernels[0].flops, 1000.0 + 500.0 + 400.0 + 50.0 + 70.0);
    assert!(breaks_down("fp16_dst_fp32", "fp16"));
    assert!(!breaks_down("fp4_fp6_fp8_dst_fp32", "fp4"));
    assert!(!breaks_down("fp16", "fp16"));
}

/// Numbers in a locale's way: the last of `,` and `.` is the decimal
/// mark; one written twice groups thousands; one written once is the mark
/// unless it could group thousands, and then it is read in the export's
/// way, as its other values show it.
#[test]
fn decimal_marks_and_thousands_read_by_the_rule() {
    use values::{number, shows, Decimal::*};
    for (t, point, comma) in [
        ("1,024.35", 1024.35, 1024.35),
        ("1.024,35", 1024.35, 1024.35),
        ("2,147,483,648", 2_147_483_648.0, 2_147_483_648.0),
        ("2.147.483.648", 2_147_483_648.0, 2_147_483_648.0),
        ("0,257", 0.257, 0.257),
        ("6,72", 6.72, 6.72),
        ("1234,5", 1234.5, 1234.5),
        ("1.5", 1.5, 1.5),
        ("100", 100.0, 100.0),
        // Either way: the export's.
        ("2,048", 2048.0, 2.048),
        ("1.024", 1.024, 1024.0),
    ] {
        assert_eq!(number(t, Point), Ok(point), "{t}");
        assert_eq!(number(t, Comma), Ok(comma), "{t}");
    }
    for bad in [
        "1,23,456",
        "1.2.34",
        ",5",
        "5,",
        "1,2.3",
        "1.234,5.6",
        "n/a",
    ] {
        assert!(number(bad, Point).is_err(), "{bad}");
        assert!(number(bad, Comma).is_err(), "{bad}");
    }
    assert_eq!(number("-1,5", Comma), Err("is negative".into()));
    assert_eq!(shows("0,257"), Some(Comma));
    assert_eq!(shows("1.024,35"), Some(Comma));
    assert_eq!(shows("2.147.483.648"), Some(Comma));
    assert_eq!(shows("1,024.35"), Some(Point));
    assert_eq!(shows("2,147,483,648"), Some(Point));
    assert_eq!(shows("2,048"), None);
    assert_eq!(shows("n/a"), None);
}

/// A default page written where the decimal mark is a comma, quoted and
/// comma-separated: `2,048` (either way) is read as 2.048 since another
/// value (`0,257`) shows the comma; and the same export `;`-separated.
#[test]
fn a_decimal_comma_export_is_read_in_its_way() {
    let rows = [
        ("0", "k", TIME, "usecond", "1.024,35"),
        ("0", "k", BYTES, "Kbyte", "2,048"),
        ("0", "k", FFMA, "Kinst", "0,257"),
    ];
    let text = long(&rows);
    let p = read(&text).unwrap();
    assert!(p.errors.is_empty(), "{:?}", p.errors);
    let k = &p.kernels[0];
    close(k.time.unwrap(), 1024.35e-6);
    close(k.bytes, 2048.0);
    close(k.flops, 2.0 * 257.0);
    let semi = text
        .lines()
        .map(|l| {
            if l.starts_with('"') {
                l.replace("\",\"", "\";\"")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let p = read(&semi).unwrap();
    assert!(p.errors.is_empty(), "{:?}", p.errors);
    assert_eq!(p.kernels.len(), 1);
    close(p.kernels[0].bytes, 2048.0);
    // Without a value that shows the comma, `2,048` is two thousand.
    let p = read(&long(&kernel("0", "k", "10", "2,048", "5"))).unwrap();
    close(p.kernels[0].bytes, 2_048_000.0);
    // The raw page: the units row and a value in the comma's way.
    let raw = "\"ID\",\"Kernel Name\",\"dram__bytes.sum\",\"gpu__time_duration.sum\",\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum\"\n\"\",\"\",\"Mbyte\",\"usecond\",\"inst\"\n\"0\",\"k\",\"1,500\",\"2,5\",\"1.000\"\n";
    let p = read(raw).unwrap();
    assert!(p.errors.is_empty(), "{:?}", p.errors);
    close(p.kernels[0].bytes, 1.5e6);
    close(p.kernels[0].time.unwrap(), 2.5e-6);
    close(p.kernels[0].flops, 2000.0);
}
