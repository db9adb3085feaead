//! Reading large tables and JSON lists a slice at a time
//! ([`roofline_core::points::read::start`], `Progress::more`): the same
//! reading as one read gives.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{assert_close, in_slices, rd, KERNELS, MATMULS};
use roofline_core::points::read::{start, MAX_ROWS};
use roofline_core::points::{read, At};

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

#[test]
fn a_large_nsight_export_is_read_a_slice_at_a_time() {
    // Nsight Compute's default page: a line per kernel and metric, the
    // program's output between them, one kernel missing its bytes, and
    // kernels past the limit.
    let q = |cells: &[&str]| format!("\"{}\"\n", cells.join("\",\""));
    let mut text = String::from("==PROF== Connected to process 7\n");
    text += &q(&[
        "ID",
        "Process Name",
        "Kernel Name",
        "Metric Name",
        "Metric Unit",
        "Metric Value",
    ]);
    let n = MAX_ROWS + 3;
    for i in 0..n {
        let (id, flops) = (i.to_string(), (1000 * (i + 1)).to_string());
        if i == 5 {
            text += "step 5 done\n";
        } else {
            text += &q(&[&id, "python3", "gemm", "dram__bytes.sum", "Kbyte", "1,000"]);
        }
        text += &q(&[
            &id,
            "python3",
            "gemm",
            "gpu__time_duration.sum",
            "usecond",
            "2",
        ]);
        let ffma = "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum";
        text += &q(&[&id, "python3", "gemm", ffma, "inst", &flops]);
    }
    let whole = read(&text, &[]);
    assert_eq!(whole.kernels.len(), MAX_ROWS);
    // Every name is shared, so each keeps its ID; FLOPs are 2 × FMAs.
    let k = &whole.kernels[0];
    assert_eq!(&*k.name, "gemm #0");
    assert_close(k.intensity, 2000.0 / 1e6);
    assert_close(k.rate, 2000.0 / 2e-6);
    assert_eq!(&*whole.kernels[5].name, "gemm #6");
    let got: Vec<String> = whole.errors.iter().map(|e| e.text()).collect();
    assert_eq!(got.len(), 2, "{got:?}");
    assert!(
        got[0].starts_with("line 19: 'gemm #5': the export has no dram__bytes.sum"),
        "{}",
        got[0]
    );
    assert_eq!(
        got[1],
        "Only the first 20,000 rows were read; 2 more were left out. Split the input to read them."
    );
    // The first slice has lines, not kernels: none is measured until every
    // line is gathered.
    let p = start(&text, &[], 500);
    assert!(!p.done());
    assert!(p.reading().kernels.is_empty());
    let (sliced, slices) = in_slices(&text, 500, &[500]);
    assert_eq!(sliced, whole);
    assert!(slices > 100, "{slices}");
    assert_eq!(in_slices(&text, 0, &[1, 4096, 7]).0, whole);
}

#[test]
fn every_example_file_reads_the_same_in_slices() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/measurements");
    let mut read_any = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if !matches!(ext, "csv" | "tsv" | "json" | "txt") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let whole = read(&text, &[]);
        // Every example has kernels, but for Nsight Compute's printed
        // summary, which is answered with how to export CSV.
        let refused = whole.errors.iter().any(|e| e.at == At::Input);
        assert!(!whole.kernels.is_empty() || refused, "{}", path.display());
        for steps in [&[1][..], &[2, 7], &[4096]] {
            assert_eq!(in_slices(&text, 0, steps).0, whole, "{}", path.display());
        }
        read_any += 1;
    }
    assert!(read_any >= 8, "{read_any} example files");
}
