//! The table of measured kernels: each row's columns formatted, sorted by
//! the user's choice, and the hover readout of a point.

use std::cmp::Ordering;

use crate::format;

use super::place::{Against, Binding, Placed, Roof};

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
            SortKey::Fraction => p.kernel.predicted.is_none().then_some(p.fraction),
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
    /// A prediction (no time yet): the table offers a field for its time.
    pub predicted: bool,
    /// The roof it is read against when it names its own data type
    /// (`int8 roof`), or why it is not; empty for the roof drawn.
    pub against: String,
    /// The data type it names (for `data-dtype`); empty for none.
    pub dtype: String,
    /// FLOPs, bytes and seconds, unrounded (for `data-flops`,
    /// `data-bytes`, `data-time`); empty where the kernel has no time.
    pub values: [String; 3],
}

/// What binds a placed kernel, in words.
fn binding_words(p: &Placed, roof: &Roof) -> String {
    match p.binding {
        Binding::Memory => format!("{} bandwidth", roof.line_name),
        Binding::Compute => format!("{} peak", p.binding_key(roof)),
    }
}

/// The roof a kernel with its own data type is read against, in words
/// (empty for the roof drawn).
fn against_words(p: &Placed, roof: &Roof) -> String {
    match p.against {
        Against::Drawn => String::new(),
        Against::Own(d) => format!("{} roof", d.name()),
        Against::Missing(d) => format!(
            "no {} peak on this chip: read against the {} roof",
            d.name(),
            roof.peak_key
        ),
    }
}

/// The row of a placed kernel (`index` in input order).
pub fn row(index: usize, p: &Placed, roof: &Roof) -> PointRow {
    let predicted = p.kernel.predicted.is_some();
    let opt = |v: Option<f64>| v.map_or_else(|| format::MISSING.to_string(), format::seconds);
    PointRow {
        index,
        name: p.kernel.name.to_string(),
        intensity: format::intensity(p.kernel.intensity),
        attained: if predicted {
            "predicted".to_string()
        } else {
            format::flops_rate(p.kernel.rate)
        },
        roof: format::flops_rate(p.roof),
        percent: if predicted {
            format::MISSING.to_string()
        } else {
            format::percent(p.fraction)
        },
        predicted,
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
        against: against_words(p, roof),
        dtype: p
            .kernel
            .dtype
            .map(|d| d.name().to_string())
            .unwrap_or_default(),
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
    if p.kernel.predicted.is_some() {
        return format!(
            "{}: predicted, at {}: at the roof it would run at {} ({} binds) and take {}; type its measured time in the table to place it",
            p.kernel.name,
            format::intensity(p.kernel.intensity),
            format::flops_rate(p.roof),
            binding_words(p, roof),
            p.lower_bound.map_or_else(|| format::MISSING.to_string(), format::seconds),
        );
    }
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

/// The whole profile at a glance, as a profiler's summary gives it.
#[derive(Debug, Clone, PartialEq)]
pub struct Totals {
    /// Kernels with a measured time.
    pub measured: usize,
    /// Predictions (no time yet).
    pub predicted: usize,
    /// Their measured time, summed (seconds).
    pub time: f64,
    /// Their time at the roof, summed (seconds).
    pub at_roof: f64,
}

impl Totals {
    /// The time reaching the roof would save (never negative overall).
    pub fn saved(&self) -> f64 {
        (self.time - self.at_roof).max(0.0)
    }

    /// The summary line the panel shows above the table; `None` with no
    /// measured kernel.
    pub fn text(&self) -> Option<String> {
        if self.measured == 0 || self.time <= 0.0 {
            return None;
        }
        let mut s = format!(
            "{} measured: {} in all; at the roof they would take {}, so reaching it would save {} ({} of the time). Time-weighted, they reach {} of the roof.",
            count_words(self.measured, "kernel"),
            format::seconds(self.time),
            format::seconds(self.at_roof),
            format::seconds(self.saved()),
            format::percent(self.saved() / self.time),
            format::percent(self.at_roof / self.time),
        );
        if self.predicted > 0 {
            s.push_str(&format!(
                " {} not counted (no time yet).",
                count_words(self.predicted, "prediction")
            ));
        }
        Some(s)
    }
}

/// `1 kernel`, `3 kernels`.
fn count_words(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// The totals of `placed`: measured time, time at the roof, counts.
pub fn totals(placed: &[Placed]) -> Totals {
    let mut t = Totals {
        measured: 0,
        predicted: 0,
        time: 0.0,
        at_roof: 0.0,
    };
    for p in placed {
        match (p.kernel.time, p.lower_bound) {
            (Some(time), Some(lb)) => {
                t.measured += 1;
                t.time += time;
                t.at_roof += lb.min(time);
            }
            _ if p.kernel.predicted.is_some() => t.predicted += 1,
            _ => {}
        }
    }
    t
}

/// Kernels of one name, as a profiler groups launches of one kernel.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// The name (` #ID` suffixes of repeated launches taken off).
    pub name: String,
    /// How many kernels have it.
    pub count: usize,
    /// Their measured time, summed (seconds).
    pub time: f64,
    /// Their share of all the measured time.
    pub share: f64,
}

/// The measured kernels grouped by name, longest total time first, at
/// most `n` groups.
pub fn groups(placed: &[Placed], n: usize) -> Vec<Group> {
    let mut by: Vec<Group> = Vec::new();
    let mut index: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let mut all = 0.0;
    for p in placed {
        let Some(t) = p.kernel.time else { continue };
        all += t;
        let name = base_name(&p.kernel.name);
        let i = *index.entry(name).or_insert_with(|| {
            by.push(Group {
                name: name.to_string(),
                count: 0,
                time: 0.0,
                share: 0.0,
            });
            by.len() - 1
        });
        if let Some(g) = by.get_mut(i) {
            g.count += 1;
            g.time += t;
        }
    }
    for g in &mut by {
        g.share = if all > 0.0 { g.time / all } else { 0.0 };
    }
    by.sort_by(|a, b| b.time.total_cmp(&a.time).then_with(|| a.name.cmp(&b.name)));
    by.truncate(n);
    by
}

/// A kernel's name without the ` #ID` that tells repeated launches apart.
fn base_name(name: &str) -> &str {
    match name.rsplit_once(" #") {
        Some((head, id)) if !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()) => head,
        _ => name,
    }
}
