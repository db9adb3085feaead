//! The table of measured kernels: each row's columns formatted, sorted by
//! the user's choice, and the hover readout of a point.

use std::cmp::Ordering;

use crate::format;

use super::place::{Binding, Placed, Roof};

/// What the table is sorted by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortKey {
    /// Percentage of the roof reached.
    Fraction,
    /// Measured time.
    Time,
    /// Arithmetic intensity.
    Intensity,
    /// Time reaching the roof would save.
    Saved,
}

impl SortKey {
    /// Every key, in the order the table's headers show them.
    pub const ALL: [SortKey; 4] = [
        SortKey::Intensity,
        SortKey::Fraction,
        SortKey::Time,
        SortKey::Saved,
    ];

    /// The key in test ids: `fraction`, `time`, `intensity`, `saved`.
    pub fn key(self) -> &'static str {
        match self {
            SortKey::Fraction => "fraction",
            SortKey::Time => "time",
            SortKey::Intensity => "intensity",
            SortKey::Saved => "saved",
        }
    }

    /// The sort key of a test id key.
    pub fn from_key(key: &str) -> Option<SortKey> {
        SortKey::ALL.into_iter().find(|k| k.key() == key)
    }

    /// The value sorted on; a missing one sorts last.
    fn value(self, p: &Placed) -> Option<f64> {
        match self {
            SortKey::Fraction => Some(p.fraction),
            SortKey::Time => p.kernel.time,
            SortKey::Intensity => Some(p.kernel.intensity),
            SortKey::Saved => p.saved,
        }
    }
}

/// One row of the table, every number formatted.
#[derive(Debug, Clone, PartialEq)]
pub struct PointRow {
    /// Index of the kernel in the input order.
    pub index: usize,
    /// The kernel's name.
    pub name: String,
    /// Its intensity: `512 FLOPs/byte`.
    pub intensity: String,
    /// Its attained throughput: `120 TFLOP/s`.
    pub attained: String,
    /// The roof at its intensity.
    pub roof: String,
    /// Attained over roof, as a percentage.
    pub percent: String,
    /// Attained over roof (for `data-fraction`).
    pub fraction: f64,
    /// The key of what binds: the line's level or the roof's data type.
    pub binding_key: String,
    /// What binds, in words: `HBM bandwidth` or `bf16 peak`.
    pub binding: String,
    /// The measured time, or "—".
    pub time: String,
    /// The time at the roof, or "—".
    pub lower_bound: String,
    /// What reaching the roof would save, or "—" (for a point above the
    /// roof, "none").
    pub saved: String,
    /// Above the roof: the numbers cannot all be right.
    pub above: bool,
    /// FLOPs, bytes and seconds, unrounded (for `data-flops`,
    /// `data-bytes`, `data-time`); empty where the kernel has no time.
    pub values: [String; 3],
}

/// What binds a placed kernel, in words.
fn binding_words(p: &Placed, roof: &Roof) -> String {
    match p.binding {
        Binding::Memory => format!("{} bandwidth", roof.line_name),
        Binding::Compute => format!("{} peak", roof.peak_key),
    }
}

/// The row of a placed kernel (`index` in input order).
pub fn row(index: usize, p: &Placed, roof: &Roof) -> PointRow {
    let opt = |v: Option<f64>| v.map_or_else(|| format::MISSING.to_string(), format::seconds);
    PointRow {
        index,
        name: p.kernel.name.to_string(),
        intensity: format::intensity(p.kernel.intensity),
        attained: format::flops_rate(p.kernel.rate),
        roof: format::flops_rate(p.roof),
        percent: format::percent(p.fraction),
        fraction: p.fraction,
        binding_key: p.binding_key(roof).to_string(),
        binding: binding_words(p, roof),
        time: opt(p.kernel.time),
        lower_bound: opt(p.lower_bound),
        saved: match p.saved {
            Some(s) if s <= 0.0 => "none".to_string(),
            s => opt(s),
        },
        above: p.above(),
        values: [p.kernel.flops(), p.kernel.bytes(), p.kernel.time]
            .map(|v| v.map_or_else(String::new, |v| v.to_string())),
    }
}

/// The order of `placed` by `key` (indices), ascending or descending; a
/// missing value sorts last either way, ties keep the input order.
pub fn order(placed: &[Placed], key: SortKey, descending: bool) -> Vec<usize> {
    top(placed, key, descending, placed.len())
}

/// The first `n` of [`order`] (the table shows a few hundred of up to
/// twenty thousand kernels).
pub fn top(placed: &[Placed], key: SortKey, descending: bool, n: usize) -> Vec<usize> {
    let value = |i: usize| placed.get(i).and_then(|p| key.value(p));
    // A total order: by value (missing last), then by input position, so
    // that an unstable selection gives the stable sort's answer.
    let cmp = |&a: &usize, &b: &usize| {
        let by_value = match (value(a), value(b)) {
            (Some(x), Some(y)) => {
                let o = x.partial_cmp(&y).unwrap_or(Ordering::Equal);
                if descending {
                    o.reverse()
                } else {
                    o
                }
            }
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        };
        by_value.then(a.cmp(&b))
    };
    let mut idx: Vec<usize> = (0..placed.len()).collect();
    idx.sort_unstable_by(cmp);
    idx.truncate(n);
    idx
}

/// The hover readout of a point: what it attains, the roof there and the
/// share of it reached, what binds, and its time against the roof's.
pub fn readout(p: &Placed, roof: &Roof) -> String {
    let mut s = format!(
        "{}: {} at {}; the roof there is {} ({} binds), {} of it reached",
        p.kernel.name,
        format::flops_rate(p.kernel.rate),
        format::intensity(p.kernel.intensity),
        format::flops_rate(p.roof),
        binding_words(p, roof),
        format::percent(p.fraction),
    );
    if let (Some(t), Some(lb)) = (p.kernel.time, p.lower_bound) {
        s.push_str(&format!(
            "; measured {}, at least {} at the roof",
            format::seconds(t),
            format::seconds(lb)
        ));
    }
    if p.above() {
        s.push_str(" — above the roof: check the units and counts");
    }
    s
}
