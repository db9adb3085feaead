//! Measured kernels under the roof: a pasted or dropped profile (CSV, TSV
//! or JSON) read into kernels (`read`, with units from `units`), each placed
//! against the chip's roof (`place`), the table of points (`table`), and the
//! forms they travel in: the link's compact text (`compact`) and the CSV
//! export (`export`). `example` builds the synthetic profile offered to try.
//!
//! None of this is in the calculator's first load: the app calls it only
//! from the measurements panel's chunk.

use std::sync::Arc;

use crate::dtype::DType;

pub mod compact;
pub mod example;
pub mod export;
pub mod place;
pub mod read;
pub mod table;
pub mod units;

pub use place::{place, Against, Binding, Placed, Roof};
pub use read::{read, Reading};

/// What a column of the table holds; the preview lets the user change it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Field {
    /// Not used.
    Ignore,
    /// The kernel's name.
    Name,
    /// FLOPs done (a count).
    Flops,
    /// Bytes moved to and from the memory level drawn first.
    Bytes,
    /// Measured time.
    Time,
    /// Attained throughput, FLOP/s.
    Rate,
    /// Arithmetic intensity, FLOPs/byte.
    Intensity,
    /// The operation in the book's notation, e.g. `bf16[B,D] * bf16[D,F] -> bf16[B,F]`.
    Op,
    /// The operation's sizes, e.g. `B=8 D=4096 F=4096`.
    Sizes,
    /// The data type the kernel's math ran at (`bf16`, `fp8`): it is read
    /// against the chip's peak at that type.
    Dtype,
}

impl Field {
    /// Every field, in the order the mapping's menus list them.
    pub const ALL: [Field; 10] = [
        Field::Ignore,
        Field::Name,
        Field::Flops,
        Field::Bytes,
        Field::Time,
        Field::Rate,
        Field::Intensity,
        Field::Op,
        Field::Sizes,
        Field::Dtype,
    ];

    /// The key used in menus and tests: `ignore`, `name`, `flops`, `bytes`,
    /// `time`, `rate`, `intensity`, `op`, `sizes`, `dtype`.
    pub fn key(self) -> &'static str {
        match self {
            Field::Ignore => "ignore",
            Field::Name => "name",
            Field::Flops => "flops",
            Field::Bytes => "bytes",
            Field::Time => "time",
            Field::Rate => "rate",
            Field::Intensity => "intensity",
            Field::Op => "op",
            Field::Sizes => "sizes",
            Field::Dtype => "dtype",
        }
    }

    /// The field of a key, or `None`.
    pub fn from_key(key: &str) -> Option<Field> {
        Field::ALL.into_iter().find(|f| f.key() == key)
    }

    /// What the mapping's menu shows: "FLOPs", "time", ...
    pub fn label(self) -> &'static str {
        match self {
            Field::Ignore => "(not used)",
            Field::Name => "name",
            Field::Flops => "FLOPs",
            Field::Bytes => "bytes",
            Field::Time => "time",
            Field::Rate => "FLOP/s",
            Field::Intensity => "intensity (FLOPs/byte)",
            Field::Op => "operation (notation)",
            Field::Sizes => "sizes (B=… D=…)",
            Field::Dtype => "data type (bf16, fp8, …)",
        }
    }
}

/// One measured kernel, in base units, ready to place under a roof.
#[derive(Debug, Clone, PartialEq)]
pub struct Kernel {
    /// Its name (from the table, or `row N` when it has none); shared, so
    /// that placing ten thousand kernels on each edit copies no text.
    pub name: Arc<str>,
    /// Arithmetic intensity, FLOPs/byte: positive and finite.
    pub intensity: f64,
    /// Attained throughput, FLOP/s: positive and finite.
    pub rate: f64,
    /// Measured time in seconds, when the row gave one (FLOPs = rate × time).
    pub time: Option<f64>,
    /// A prediction's FLOPs: a kernel with FLOPs and bytes but no time (JAX's
    /// cost analysis alone), placed at the roof its intensity gives until a
    /// time is typed for it. Its `rate` is 0 and its `time` `None`; `None`
    /// for a measured kernel.
    pub predicted: Option<f64>,
    /// The data type its math ran at, when the table says: it is read
    /// against the chip's peak at that type, not the roof drawn.
    pub dtype: Option<DType>,
}

impl Kernel {
    /// A predicted kernel: `flops` at `intensity`, no time.
    pub fn prediction(name: Arc<str>, intensity: f64, flops: f64) -> Kernel {
        Kernel {
            name,
            intensity,
            rate: 0.0,
            time: None,
            predicted: Some(flops),
            dtype: None,
        }
    }

    /// The kernel measured at `time` seconds: a prediction becomes a
    /// measurement (rate = FLOPs ÷ time); a measured kernel with FLOPs
    /// known is re-timed. `None` when the FLOPs are not known or the time
    /// is not positive and finite.
    pub fn timed(&self, time: f64) -> Option<Kernel> {
        let flops = self.flops()?;
        (time.is_finite() && time > 0.0).then(|| Kernel {
            name: self.name.clone(),
            intensity: self.intensity,
            rate: flops / time,
            time: Some(time),
            predicted: None,
            dtype: self.dtype,
        })
    }

    /// FLOPs done, when the time is known (or predicted).
    pub fn flops(&self) -> Option<f64> {
        self.predicted.or_else(|| self.time.map(|t| self.rate * t))
    }

    /// Bytes moved, when the time is known.
    pub fn bytes(&self) -> Option<f64> {
        self.flops().map(|f| f / self.intensity)
    }
}

/// Where a problem is: the whole input, a line of CSV or TSV text
/// (1-based, the header is line 1), or an item of a JSON list (1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum At {
    /// The whole input (too large, not a table, no usable columns, ...).
    Input,
    /// A line of CSV or TSV text, 1-based.
    Line(usize),
    /// An object of a JSON list, 1-based.
    Item(usize),
}

/// A problem with one row, or with the whole input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowError {
    /// Where it is.
    pub at: At,
    /// What is wrong, worded for the user: `time is negative (-3 ms)`.
    pub message: String,
}

impl RowError {
    /// The message as the list shows it: `line 4: time is negative (-3 ms)`.
    pub fn text(&self) -> String {
        match self.at {
            At::Input => self.message.clone(),
            At::Line(n) => format!("line {n}: {}", self.message),
            At::Item(n) => format!("item {n}: {}", self.message),
        }
    }
}
