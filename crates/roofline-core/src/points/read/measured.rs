//! What a profiler's reader hands back: each kernel as the export gave it
//! ([`Measured`]) and the reading's errors and notes ([`Parsed`]). The
//! readers (`ncu/`, `xprof.rs`, `jax.rs`) build them; `profiler.rs` turns
//! them into kernels with the generic reader's limits.

use super::Format;
use crate::dtype::DType;
use crate::points::{At, RowError};

/// One kernel (or compiled function) as a profiler reported it, in base
/// units: FLOPs, bytes, seconds.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Measured {
    /// Its name as the export gives it (a kernel name, a JAX function's
    /// name); repeated names are kept apart by the reader (`name #ID`).
    pub name: String,
    /// Floating-point operations, a multiply-add counted as two.
    pub flops: f64,
    /// Bytes moved to and from main memory (HBM, DRAM).
    pub bytes: f64,
    /// Measured time, seconds; `None` when the export has none (a
    /// prediction: JAX's cost analysis alone).
    pub time: Option<f64>,
    /// Where the row is (for messages about it).
    pub at: At,
    /// The data type its math ran at, when the export says (Nsight
    /// Compute's tensor-core counts by source type).
    pub dtype: Option<DType>,
}

/// What a profiler reader read.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Parsed {
    /// The format recognised.
    pub format: Format,
    /// Every kernel read, in input order.
    pub kernels: Vec<Measured>,
    /// Kernels (or the input) that could not be read, with the reason.
    pub errors: Vec<RowError>,
    /// Remarks: which precisions were counted, lines skipped, ...
    pub notes: Vec<String>,
}
