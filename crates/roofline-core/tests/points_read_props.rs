//! Properties of reading measurement tables over arbitrary input: slices
//! read what one reading reads, JSON errors are serde's, JSON places what
//! its CSV places, nothing panics, and kernels round-trip through CSV.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{clean, close, in_slices, in_slices_mapped, same_as_serde};
use proptest::prelude::*;
use roofline_core::points::read::Choice;
use roofline_core::points::{read, Field};

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

    /// Nsight Compute's pages read in slices of any sizes give exactly the
    /// reading of one read: the long form (a line per kernel and metric,
    /// with the program's output, cut-off and short lines among them) and
    /// the raw page (with its units row).
    #[test]
    fn nsight_slices_read_what_one_reading_reads(
        rows in prop::collection::vec(
            prop::sample::select(vec![
                r#""1","app","k","gpu__time_duration.sum","usecond","1,024.5""#,
                r#""1","app","k","dram__bytes.sum","Mbyte","2""#,
                r#""1","app","k","smsp__sass_thread_inst_executed_op_ffma_pred_on.sum","inst","2,000,000""#,
                r#""2","app","k","gpu__time_duration.sum","nsecond","900""#,
                r#""2","app","k","dram__bytes_read.sum","Kbyte","5""#,
                r#""2","app","k","dram__bytes_write.sum","Kbyte","5""#,
                r#""2","app","k","smsp__sass_thread_inst_executed_op_hfma_pred_on.sum","inst","7""#,
                r#""3","app","m","dram__bytes.sum","byte","6,72""#,
                r#""3","app","m","gpu__time_duration.sum","msecond","1""#,
                r#""ID","Process Name","Kernel Name","Metric Name","Metric Unit","Metric Value""#,
                "==PROF== Disconnected", "hello from the app", "", r#""4","app"#, r#""5","app","k""#,
            ]),
            0..40,
        ),
        raw in any::<bool>(),
        crlf in any::<bool>(),
        first in 0usize..5,
        steps in prop::collection::vec(0usize..6, 1..4),
    ) {
        let mut lines = vec!["==PROF== Connected to process 1"];
        let body: Vec<String> = if raw {
            lines.push(r#""ID","Kernel Name","gpu__time_duration.sum","dram__bytes.sum","smsp__sass_thread_inst_executed_op_ffma_pred_on.sum""#);
            lines.push(r#""","","usecond","Mbyte","inst""#);
            // The long form's rows, each a raw row: its ID, name and value
            // in every metric column.
            rows
                .iter()
                .map(|r| {
                    let f: Vec<&str> = r.split("\",\"").collect();
                    match f.as_slice() {
                        [id, _, k, _, _, v] => {
                            let v = v.trim_end_matches('"');
                            format!(r#"{id}","{k}","{v}","{v}","{v}""#)
                        }
                        _ => (*r).to_string(),
                    }
                })
                .collect()
        } else {
            lines.push(r#""ID","Process Name","Kernel Name","Metric Name","Metric Unit","Metric Value""#);
            rows.iter().map(|r| (*r).to_string()).collect()
        };
        lines.extend(body.iter().map(String::as_str));
        let text = lines.join(if crlf { "\r\n" } else { "\n" });
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
