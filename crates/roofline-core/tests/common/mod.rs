//! Helpers shared by the `points_read_*` tests: the example files of
//! `docs/measurements/`, comparisons, readings whose messages are checked,
//! and readings made in slices.
// Each test file uses some of these.
#![allow(dead_code)]

use roofline_core::points::read::{start, Choice};
use roofline_core::points::{read, At, Field, Kernel, Reading};

pub const MATMULS: &str = include_str!("../../../../docs/measurements/matmuls.csv");
pub const PROFILE: &str = include_str!("../../../../docs/measurements/profile.tsv");
pub const KERNELS: &str = include_str!("../../../../docs/measurements/kernels.json");
pub const OPS: &str = include_str!("../../../../docs/measurements/ops.csv");
pub const BAD: &str = include_str!("../../../../docs/measurements/bad.csv");

pub fn close(got: f64, want: f64) -> bool {
    (got - want).abs() <= want.abs() * 1e-12
}

#[track_caller]
pub fn assert_close(got: f64, want: f64) {
    assert!(close(got, want), "got {got}, want {want}");
}

/// No message or note shows "NaN" or "inf", in any case.
#[track_caller]
pub fn clean(r: &Reading) {
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
pub fn rd(text: &str) -> Reading {
    let r = read(text, &[]);
    clean(&r);
    r
}

/// The single kernel of `text`, which must read without error.
#[track_caller]
pub fn one(text: &str) -> Kernel {
    let r = rd(text);
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    assert_eq!(r.kernels.len(), 1, "{r:?}");
    r.kernels[0].clone()
}

/// The single error of `text`, which must give no kernel.
#[track_caller]
pub fn error(text: &str) -> (At, String) {
    let r = rd(text);
    assert!(r.kernels.is_empty(), "{:?}", r.kernels);
    assert_eq!(r.errors.len(), 1, "{:?}", r.errors);
    (r.errors[0].at, r.errors[0].message.clone())
}

/// `text` reads as serde reads the whole document: where serde finds an
/// error, the one message is serde's, at its line and column; where serde
/// reads it, no message says the JSON could not be read.
#[track_caller]
pub fn same_as_serde(text: &str) {
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

pub fn fields(r: &Reading) -> Vec<Field> {
    r.columns.iter().map(|c| c.field).collect()
}

/// `text` read in slices: `first` rows, then each of `steps` in turn
/// (cycling), until done.
pub fn in_slices(text: &str, first: usize, steps: &[usize]) -> (Reading, usize) {
    in_slices_mapped(text, &[], first, steps)
}

/// [`in_slices`] with a mapping.
pub fn in_slices_mapped(
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
