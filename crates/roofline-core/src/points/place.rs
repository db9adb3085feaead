//! A kernel placed under the roof: the roof at its intensity, the fraction
//! of it reached, what binds, and the time it would take at the roof.

use crate::calc::CalcView;
use crate::dtype::DType;
use crate::roofline::attained;

use super::Kernel;

/// What measured kernels are read against: one peak (the math's data type)
/// and one bandwidth line (the memory level drawn first).
#[derive(Debug, Clone, PartialEq)]
pub struct Roof {
    /// Peak FLOP/s.
    pub peak: f64,
    /// The roof's key: the data type's name (`bf16`), or `vector`.
    pub peak_key: String,
    /// Bandwidth of the line, bytes/s.
    pub bandwidth: f64,
    /// The line's key, the level's: `hbm`.
    pub line_key: String,
    /// The line's name as shown: `HBM`.
    pub line_name: String,
    /// The chip's peak at each data type it has, FLOP/s: a kernel that
    /// names its type is read against that peak.
    pub peaks: Vec<(DType, f64)>,
}

impl Roof {
    /// The roof of what the calculator shows: the peak its operation runs
    /// at (the matrix unit's at the math's data type, or the vector unit's)
    /// and its first level's bandwidth; `None` while the calculator has no
    /// results.
    pub fn for_view(v: &CalcView) -> Option<Roof> {
        let (s, a) = (v.scenario.as_ref()?, v.analysis.as_ref()?);
        Some(Roof {
            peak: a.peak,
            peak_key: a.roof().key().to_string(),
            bandwidth: s.chip.bandwidth(v.level1).ok()?,
            line_key: v.level1.key().to_string(),
            line_name: v.level1.name().to_string(),
            peaks: s
                .chip
                .dtypes()
                .into_iter()
                .filter_map(|d| Some((d, s.chip.peak(d).ok()?)))
                .collect(),
        })
    }

    /// The peak a kernel of data type `dtype` is read against, and which
    /// roof that is.
    pub fn peak_for(&self, dtype: Option<DType>) -> (f64, Against) {
        match dtype {
            Some(d) if d.name() != self.peak_key => {
                match self.peaks.iter().find(|(x, _)| *x == d) {
                    Some(&(_, p)) => (p, Against::Own(d)),
                    None => (self.peak, Against::Missing(d)),
                }
            }
            _ => (self.peak, Against::Drawn),
        }
    }

    /// The roof at intensity `i`: `min(peak, i × bandwidth)`.
    pub fn at(&self, i: f64) -> f64 {
        attained(self.peak, self.bandwidth, i)
    }

    /// Where the line meets the roof, FLOPs/byte.
    pub fn critical(&self) -> f64 {
        self.peak / self.bandwidth
    }
}

/// The roof a kernel is read against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Against {
    /// The roof drawn (the calculator's data type).
    Drawn,
    /// The chip's peak at the kernel's own data type.
    Own(DType),
    /// The roof drawn, because the chip has no peak at the kernel's type.
    Missing(DType),
}

/// Which ceiling binds a kernel: the bandwidth line left of the critical
/// intensity, the peak at or right of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Binding {
    /// The memory line: bandwidth-bound.
    Memory,
    /// The peak: compute-bound.
    Compute,
}

/// A kernel read against a roof.
#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    /// The kernel.
    pub kernel: Kernel,
    /// The roof at its intensity, FLOP/s.
    pub roof: f64,
    /// The throughput it is drawn at: measured, or the roof for a
    /// prediction.
    pub rate: f64,
    /// Attained over roof: 0 to 1 under the roof, above 1 over it (1 for a
    /// prediction).
    pub fraction: f64,
    /// What binds at its intensity.
    pub binding: Binding,
    /// The time at the roof, `FLOPs / roof` (= max(FLOPs/peak, bytes/bandwidth)),
    /// when the FLOPs are known (a prediction's predicted time).
    pub lower_bound: Option<f64>,
    /// Measured time minus the time at the roof (what reaching the roof would
    /// save; negative above the roof), when the time is known.
    pub saved: Option<f64>,
    /// The roof it is read against: the one drawn, or its data type's.
    pub against: Against,
}

impl Placed {
    /// Above the roof: the numbers cannot all be right (see [`ABOVE_CAUSES`]).
    pub fn above(&self) -> bool {
        self.fraction > 1.0 + 1e-9
    }

    /// The key of the binding ceiling: the line's level (`hbm`) or the
    /// roof's data type (`bf16`).
    pub fn binding_key<'a>(&self, roof: &'a Roof) -> &'a str {
        match self.binding {
            Binding::Memory => &roof.line_key,
            Binding::Compute => match self.against {
                Against::Own(d) => d.name(),
                _ => &roof.peak_key,
            },
        }
    }
}

/// Likely reasons for a point above the roof, worded for the table.
pub const ABOVE_CAUSES: [&str; 5] = [
    "a unit misread (µs taken as ms, GB as GiB, FLOPs as TFLOPs)",
    "a sparse peak taken for the dense one the chip really runs at",
    "a kernel that ran at a lower precision (fp8, int8) than the roof drawn: give the table a dtype column (fp8) to read it against its own roof, or choose that type under \"Math runs at\"",
    "FLOPs counted once per multiply-add, where the roofline counts two",
    "data served by a faster level (a cache or VMEM) than the line drawn, so fewer bytes crossed it than were counted",
];

/// Places `k` under `roof`.
pub fn place(k: &Kernel, roof: &Roof) -> Placed {
    let (peak, against) = roof.peak_for(k.dtype);
    let r = attained(peak, roof.bandwidth, k.intensity);
    let binding = if k.intensity < peak / roof.bandwidth {
        Binding::Memory
    } else {
        Binding::Compute
    };
    let lower_bound = k.flops().map(|f| f / r);
    let rate = if k.predicted.is_some() { r } else { k.rate };
    Placed {
        kernel: k.clone(),
        roof: r,
        rate,
        fraction: rate / r,
        binding,
        lower_bound,
        saved: k.time.zip(lower_bound).map(|(t, lb)| t - lb),
        against,
    }
}
