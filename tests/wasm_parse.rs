//! In the browser, `roofline_core::num::parse_f64` reads decimal text with
//! the browser's `parseFloat` (the core's `host-parse` feature, on for the
//! app's wasm build). Here, in headless Chromium, it must give std's value,
//! bit for bit: on hard cases (halfway points, subnormals, overflow, long
//! mantissas) and on the shortest text of many values, which is what links
//! carry.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

use roofline_core::num::{parse_f64, set_host_parser};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn same_as_std(text: &str) {
    set_host_parser(js_sys::parse_float);
    let ours = parse_f64(text).map(f64::to_bits);
    let std = text.parse::<f64>().ok().map(f64::to_bits);
    assert_eq!(ours, std, "{text}");
}

#[wasm_bindgen_test]
fn hard_cases_match_std() {
    for text in [
        "0",
        "-0",
        "4096",
        "1.97e14",
        "1.97E+14",
        "5.",
        ".5",
        "-.5e-3",
        "+7",
        "0.1",
        "0.3",
        "1e23",
        "8.98846567431158e307",
        "1.7976931348623157e308",
        "1.7976931348623159e308",
        "1e400",
        "-1e400",
        "1e-400",
        "2.2250738585072011e-308",
        "2.2250738585072014e-308",
        "4.9406564584124654e-324",
        "2.4703282292062327e-324",
        "2.4703282292062328e-324",
        "9007199254740993",
        "9007199254740992.5",
        "9007199254740993.0000000001",
        "123456789012345678901234567890",
        "0.000000000000000000000000000001",
        "1.00000000000000011102230246251565404236316680908203125",
        "1.00000000000000011102230246251565404236316680908203124",
        "1.00000000000000011102230246251565404236316680908203126",
        "7.1362384635297994e-10",
        "3.0517578125e-05",
        "1e21",
        "1e-5",
        "inf",
        "NaN",
        "",
        ".",
        "1e",
        "1_000",
        "0x10",
        " 1",
        "Infinity1",
    ] {
        same_as_std(text);
    }
}

#[wasm_bindgen_test]
fn shortest_text_of_many_values_matches_std() {
    // xorshift64*: a fixed sequence of bit patterns, so a failure repeats.
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    let mut checked = 0;
    while checked < 20_000 {
        let x = f64::from_bits(next());
        if !x.is_finite() {
            continue;
        }
        same_as_std(&x.to_string());
        same_as_std(&format!("{x:e}"));
        // Fewer digits than the shortest: a value between two doubles.
        same_as_std(&format!("{x:.6e}"));
        checked += 1;
    }
}
