//! Reading JSON measurement lists: plain and wrapped lists, keys as
//! columns, and every kind of broken document read as serde reads it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{assert_close, error, one, rd, same_as_serde};
use roofline_core::points::read::{Format, MAX_ROWS};
use roofline_core::points::{read, At};

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
