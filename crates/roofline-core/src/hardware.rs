//! The hardware catalogue: chips, their dense peaks per data type and their
//! memory levels and links, each number with its source.
//!
//! Peaks are *dense* FLOPs/s (or OPs/s for integers). Where a vendor quotes a
//! structured-sparsity figure it is kept in [`Peak::sparse`] for reference and
//! never used by the model. Bandwidths are bytes/s in one direction.

use std::fmt;

use crate::error::positive;
use crate::{CoreError, DType};

/// Which kind of accelerator a chip is (used to group presets).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    /// A Google TPU.
    Tpu,
    /// An NVIDIA GPU.
    Gpu,
    /// A chip the user described.
    Custom,
}

impl Family {
    /// A label for grouping presets.
    pub fn label(self) -> &'static str {
        match self {
            Family::Tpu => "TPUs",
            Family::Gpu => "GPUs",
            Family::Custom => "Custom",
        }
    }
}

/// A memory level or link whose bandwidth feeds the compute units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LevelKind {
    /// High-bandwidth memory (or GDDR on consumer GPUs): the main memory.
    Hbm,
    /// TPU vector memory, the on-chip scratchpad.
    Vmem,
    /// GPU shared memory / L1 on each SM.
    SharedMem,
    /// PCIe link to host memory.
    Pcie,
    /// TPU inter-chip interconnect, one direction of one link.
    Ici,
    /// NVLink, one direction, per GPU.
    NvLink,
    /// Data-centre network between hosts / pods, per chip.
    Dcn,
}

impl LevelKind {
    /// Every level kind, fastest-memory first.
    pub const ALL: [LevelKind; 7] = [
        LevelKind::Vmem,
        LevelKind::SharedMem,
        LevelKind::Hbm,
        LevelKind::NvLink,
        LevelKind::Ici,
        LevelKind::Pcie,
        LevelKind::Dcn,
    ];

    /// Short name shown in the app and used in links.
    pub fn name(self) -> &'static str {
        match self {
            LevelKind::Hbm => "HBM",
            LevelKind::Vmem => "VMEM",
            LevelKind::SharedMem => "SMEM",
            LevelKind::Pcie => "PCIe",
            LevelKind::Ici => "ICI",
            LevelKind::NvLink => "NVLink",
            LevelKind::Dcn => "DCN",
        }
    }

    /// A lower-case key for links (`hbm`, `vmem`, ...).
    pub fn key(self) -> &'static str {
        match self {
            LevelKind::Hbm => "hbm",
            LevelKind::Vmem => "vmem",
            LevelKind::SharedMem => "smem",
            LevelKind::Pcie => "pcie",
            LevelKind::Ici => "ici",
            LevelKind::NvLink => "nvlink",
            LevelKind::Dcn => "dcn",
        }
    }

    /// Parses a key or name, case-insensitively.
    pub fn from_key(s: &str) -> Option<LevelKind> {
        let t = s.trim().to_ascii_lowercase();
        LevelKind::ALL
            .into_iter()
            .find(|k| k.key() == t || k.name().to_ascii_lowercase() == t)
    }

    /// Whether this level is a link between chips (network roofline).
    pub fn is_network(self) -> bool {
        matches!(self, LevelKind::Ici | LevelKind::NvLink | LevelKind::Dcn)
    }
}

impl fmt::Display for LevelKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A chip's peak throughput for one data type.
#[derive(Debug, Clone, PartialEq)]
pub struct Peak {
    /// The data type the math runs at.
    pub dtype: DType,
    /// Dense peak, FLOPs/s (OPs/s for integer types). The model uses this.
    pub dense: f64,
    /// The vendor's structured-sparsity figure, if it quotes one. Never used
    /// by the model; shown so users can recognise a spec sheet's number.
    pub sparse: Option<f64>,
    /// Where the number comes from.
    pub source: &'static str,
}

/// One memory level or link of a chip.
#[derive(Debug, Clone, PartialEq)]
pub struct MemLevel {
    /// Which level this is.
    pub kind: LevelKind,
    /// Bandwidth in bytes/s, one direction, per chip.
    pub bandwidth: f64,
    /// Capacity in bytes, where it has one.
    pub capacity: Option<f64>,
    /// Where the numbers come from.
    pub source: &'static str,
}

/// An accelerator: its peaks and memory levels.
#[derive(Debug, Clone, PartialEq)]
pub struct Chip {
    /// Stable identifier used in links (`v5e`, `h100`, ...).
    pub id: String,
    /// Display name.
    pub name: String,
    /// TPU, GPU or custom.
    pub family: Family,
    /// Dense peaks per data type.
    pub peaks: Vec<Peak>,
    /// Memory levels and links.
    pub levels: Vec<MemLevel>,
}

impl Chip {
    /// The dense peak for `dtype`, or an error naming the chip and type.
    pub fn peak(&self, dtype: DType) -> Result<f64, CoreError> {
        self.peaks
            .iter()
            .find(|p| p.dtype == dtype)
            .map(|p| p.dense)
            .ok_or_else(|| CoreError::NoPeak {
                chip: self.name.clone(),
                dtype: dtype.name().to_string(),
            })
    }

    /// The full peak record for `dtype`, if the chip lists one.
    pub fn peak_entry(&self, dtype: DType) -> Option<&Peak> {
        self.peaks.iter().find(|p| p.dtype == dtype)
    }

    /// The memory level of `kind`, or an error naming the chip and level.
    pub fn level(&self, kind: LevelKind) -> Result<&MemLevel, CoreError> {
        self.levels
            .iter()
            .find(|l| l.kind == kind)
            .ok_or_else(|| CoreError::NoLevel {
                chip: self.name.clone(),
                level: kind.name().to_string(),
            })
    }

    /// Bandwidth of `kind` in bytes/s.
    pub fn bandwidth(&self, kind: LevelKind) -> Result<f64, CoreError> {
        self.level(kind).map(|l| l.bandwidth)
    }

    /// Critical (hardware) intensity for `dtype` against `kind`:
    /// peak FLOPs/s ÷ bandwidth, in FLOPs per byte.
    pub fn critical_intensity(&self, dtype: DType, kind: LevelKind) -> Result<f64, CoreError> {
        Ok(self.peak(dtype)? / self.bandwidth(kind)?)
    }

    /// The data types this chip lists peaks for, widest first.
    pub fn dtypes(&self) -> Vec<DType> {
        let mut d: Vec<DType> = self.peaks.iter().map(|p| p.dtype).collect();
        crate::small::sort_small_by(&mut d, DType::cmp);
        d
    }

    /// The level kinds this chip lists, fastest first.
    pub fn level_kinds(&self) -> Vec<LevelKind> {
        LevelKind::ALL
            .into_iter()
            .filter(|k| self.levels.iter().any(|l| l.kind == *k))
            .collect()
    }

    /// Checks every number is positive and finite; the error names the field
    /// (for example "TPU v5e bf16 peak").
    pub fn validate(&self) -> Result<(), CoreError> {
        if self.peaks.is_empty() {
            return Err(CoreError::Invalid(format!(
                "{} lists no peak FLOPs/s",
                self.name
            )));
        }
        if self.levels.is_empty() {
            return Err(CoreError::Invalid(format!(
                "{} lists no memory bandwidth",
                self.name
            )));
        }
        for p in &self.peaks {
            positive(&format!("{} {} peak", self.name, p.dtype), p.dense)?;
            if let Some(s) = p.sparse {
                positive(&format!("{} {} sparse peak", self.name, p.dtype), s)?;
            }
        }
        for l in &self.levels {
            positive(&format!("{} {} bandwidth", self.name, l.kind), l.bandwidth)?;
            if let Some(c) = l.capacity {
                positive(&format!("{} {} capacity", self.name, l.kind), c)?;
            }
        }
        Ok(())
    }

    /// Sets (or adds) the dense peak for `dtype`, validated; the source
    /// becomes "set by you".
    pub fn set_peak(&mut self, dtype: DType, value: f64) -> Result<(), CoreError> {
        positive(&format!("{dtype} peak"), value)?;
        self.family_to_custom();
        match self.peaks.iter_mut().find(|p| p.dtype == dtype) {
            Some(p) => {
                p.dense = value;
                p.sparse = None;
                p.source = USER;
            }
            None => self.peaks.push(Peak {
                dtype,
                dense: value,
                sparse: None,
                source: USER,
            }),
        }
        Ok(())
    }

    /// Sets (or adds) the bandwidth of `kind`, validated.
    pub fn set_bandwidth(&mut self, kind: LevelKind, value: f64) -> Result<(), CoreError> {
        positive(&format!("{kind} bandwidth"), value)?;
        self.family_to_custom();
        match self.levels.iter_mut().find(|l| l.kind == kind) {
            Some(l) => {
                l.bandwidth = value;
                l.source = USER;
            }
            None => self.levels.push(MemLevel {
                kind,
                bandwidth: value,
                capacity: None,
                source: USER,
            }),
        }
        Ok(())
    }

    fn family_to_custom(&mut self) {
        if !self.name.ends_with(" (edited)") && self.family != Family::Custom {
            self.name.push_str(" (edited)");
        }
    }
}

/// Source text for numbers the user typed.
pub const USER: &str = "set by you";

const TPU_SPECS: &str = "How To Scale Your Model, TPU chapter, 'TPU specs' table";
const TPU_HOST: &str =
    "How To Scale Your Model, TPU chapter (PCIe to host, about 1.6e10 B/s per chip; 3.2e10 on v6e)";
const TPU_DCN: &str =
    "How To Scale Your Model, TPU chapter (DCN per chip: 6.25e9 B/s; 3.125e9 on v5e; 1.25e10 on v6e and TPU7x)";
const TPU_ICI: &str =
    "How To Scale Your Model, TPU chapter, 'TPU specs' table (ICI per link, one direction; bidirectional is 2x)";
const V5E_VMEM: &str =
    "How To Scale Your Model, TPU chapter: 128 MiB VMEM at about 22x HBM bandwidth on v5e";
const GPU_SPECS: &str = "How To Scale Your Model, GPU chapter, GPU specs table (dense)";
const GPU_NVLINK: &str =
    "How To Scale Your Model, GPU chapter (NVLink bandwidth per GPU, one direction)";
const GPU_FP32: &str = "How To Scale Your Model, GPU chapter (vector fp32, CUDA cores)";

fn peak(dtype: DType, dense: f64, sparse: Option<f64>, source: &'static str) -> Peak {
    Peak {
        dtype,
        dense,
        sparse,
        source,
    }
}

fn level(kind: LevelKind, bandwidth: f64, capacity: Option<f64>, source: &'static str) -> MemLevel {
    MemLevel {
        kind,
        bandwidth,
        capacity,
        source,
    }
}

/// Row of the TPU specs table: (id, name, HBM bytes, HBM B/s, bf16, int8, ICI one-way, PCIe, DCN).
type TpuRow = (
    &'static str,
    &'static str,
    f64,
    f64,
    f64,
    f64,
    f64,
    f64,
    f64,
);

const TPUS: [TpuRow; 6] = [
    (
        "v3", "TPU v3", 32e9, 9.0e11, 1.4e14, 1.4e14, 1e11, 1.6e10, 6.25e9,
    ),
    (
        "v4p", "TPU v4p", 32e9, 1.2e12, 2.75e14, 2.75e14, 4.5e10, 1.6e10, 6.25e9,
    ),
    (
        "v5e", "TPU v5e", 16e9, 8.2e11, 1.97e14, 3.94e14, 4.5e10, 1.6e10, 3.125e9,
    ),
    (
        "v5p", "TPU v5p", 96e9, 2.8e12, 4.59e14, 9.18e14, 9e10, 1.6e10, 6.25e9,
    ),
    (
        "v6e", "TPU v6e", 32e9, 1.6e12, 9.20e14, 1.84e15, 9e10, 3.2e10, 1.25e10,
    ),
    (
        "tpu7x", "TPU7x", 192e9, 7.4e12, 2.30e15, 4.61e15, 9e10, 1.6e10, 1.25e10,
    ),
];

fn tpu(row: &TpuRow) -> Chip {
    let (id, name, cap, hbm, bf16, int8, ici, pcie, dcn) = *row;
    let mut levels = vec![
        level(LevelKind::Hbm, hbm, Some(cap), TPU_SPECS),
        level(LevelKind::Ici, ici, None, TPU_ICI),
        level(LevelKind::Pcie, pcie, None, TPU_HOST),
        level(LevelKind::Dcn, dcn, None, TPU_DCN),
    ];
    if id == "v5e" {
        levels.insert(
            1,
            level(
                LevelKind::Vmem,
                1.8e13,
                Some(128.0 * 1024.0 * 1024.0),
                V5E_VMEM,
            ),
        );
    }
    Chip {
        id: id.to_string(),
        name: name.to_string(),
        family: Family::Tpu,
        peaks: vec![
            peak(DType::Bf16, bf16, None, TPU_SPECS),
            peak(DType::Int8, int8, None, TPU_SPECS),
        ],
        levels,
    }
}

/// The preset chips: TPUs first, then GPUs, in generation order. Built on
/// first use and kept: every evaluation looks its chip up here, and building
/// all the chips (with their sources) each time was most of a lookup.
pub fn catalogue() -> &'static [Chip] {
    static CHIPS: std::sync::OnceLock<Vec<Chip>> = std::sync::OnceLock::new();
    CHIPS.get_or_init(build_catalogue)
}

fn build_catalogue() -> Vec<Chip> {
    let mut chips: Vec<Chip> = TPUS.iter().map(tpu).collect();

    let h100_sheet = "NVIDIA H100 datasheet (sparse figure: 1,979 TFLOPS bf16); dense per How To Scale Your Model, GPU chapter";
    let pcie4 = "PCIe Gen4 x16: 64 GB/s both directions, 32 GB/s each (NVIDIA datasheet)";
    let pcie5 = "PCIe Gen5 x16: 128 GB/s both directions, 64 GB/s each (NVIDIA datasheet)";
    let ib = "How To Scale Your Model, GPU chapter (400 Gb/s InfiniBand NIC per GPU)";
    let ib_a100 = "NVIDIA DGX A100 (200 Gb/s HDR InfiniBand NIC per GPU)";

    // (id, name, HBM bytes, HBM B/s, bf16, fp8/int8, NVLink one-way, PCIe, DCN, fp32)
    type GpuRow<'a> = (
        &'a str,
        &'a str,
        f64,
        f64,
        f64,
        f64,
        f64,
        f64,
        &'a str,
        f64,
        &'a str,
        f64,
    );
    let gpus: [GpuRow; 4] = [
        (
            "a100", "A100", 80e9, 2.0e12, 3.1e14, 6.2e14, 3.0e11, 3.2e10, pcie4, 2.5e10, ib_a100,
            1.95e13,
        ),
        (
            "h100", "H100 SXM", 80e9, 3.35e12, 9.89e14, 1.98e15, 4.5e11, 6.4e10, pcie5, 5e10, ib,
            3.35e13,
        ),
        (
            "h200", "H200", 141e9, 4.8e12, 9.89e14, 1.98e15, 4.5e11, 6.4e10, pcie5, 5e10, ib,
            3.35e13,
        ),
        (
            "b200", "B200", 192e9, 8.0e12, 2.3e15, 4.5e15, 9.0e11, 6.4e10, pcie5, 5e10, ib, 8e13,
        ),
    ];
    for (id, name, cap, hbm, bf16, f8, nvl, pcie, pcie_src, dcn, dcn_src, fp32) in gpus {
        let sparse = |x: f64| Some(2.0 * x);
        let bf16_src = if id == "h100" { h100_sheet } else { GPU_SPECS };
        let mut peaks = vec![
            peak(DType::Fp32, fp32, None, GPU_FP32),
            peak(DType::Bf16, bf16, sparse(bf16), bf16_src),
            peak(DType::Fp16, bf16, sparse(bf16), GPU_SPECS),
        ];
        if id != "a100" {
            peaks.push(peak(DType::Fp8, f8, sparse(f8), GPU_SPECS));
        }
        peaks.push(peak(DType::Int8, f8, sparse(f8), GPU_SPECS));
        if id == "b200" {
            peaks.push(peak(DType::Fp4, 9.0e15, sparse(9.0e15), GPU_SPECS));
        }
        chips.push(Chip {
            id: id.to_string(),
            name: name.to_string(),
            family: Family::Gpu,
            peaks,
            levels: vec![
                level(LevelKind::Hbm, hbm, Some(cap), GPU_SPECS),
                level(LevelKind::NvLink, nvl, None, GPU_NVLINK),
                level(LevelKind::Pcie, pcie, None, pcie_src),
                level(LevelKind::Dcn, dcn, None, dcn_src),
            ],
        });
    }

    let ga102 = "NVIDIA Ampere GA102 whitepaper, GeForce RTX 3090 column (dense; sparse is 2x)";
    chips.push(Chip {
        id: "rtx3090".to_string(),
        name: "RTX 3090".to_string(),
        family: Family::Gpu,
        peaks: vec![
            peak(DType::Fp32, 3.56e13, None, ga102),
            peak(
                DType::Bf16,
                7.1e13,
                Some(1.42e14),
                "NVIDIA Ampere GA102 whitepaper, RTX 3090 (bf16 with fp32 accumulate, dense)",
            ),
            peak(
                DType::Fp16,
                1.42e14,
                Some(2.84e14),
                "NVIDIA Ampere GA102 whitepaper, RTX 3090 (fp16 with fp16 accumulate, dense; the 2.68e14-2.85e14 figures quoted online are sparse)",
            ),
            peak(DType::Int8, 2.84e14, Some(5.68e14), ga102),
            peak(DType::Int4, 5.68e14, Some(1.136e15), ga102),
        ],
        levels: vec![
            level(
                LevelKind::Hbm,
                9.36e11,
                Some(24e9),
                "NVIDIA GeForce RTX 3090 specifications (24 GB GDDR6X, 936 GB/s)",
            ),
            level(LevelKind::Pcie, 3.2e10, None, pcie4),
        ],
    });
    chips
}

/// The preset `id` with the given peaks and bandwidths set on it (a custom
/// chip); an error names the preset or the value that is not valid.
pub fn customised(
    id: &str,
    peaks: &[(DType, f64)],
    bandwidths: &[(LevelKind, f64)],
) -> Result<Chip, CoreError> {
    let mut chip = preset(id).ok_or_else(|| {
        CoreError::Invalid(format!(
            "chip '{}' is not a preset",
            crate::format::clip(id, 24)
        ))
    })?;
    for (d, v) in peaks {
        chip.set_peak(*d, *v)?;
    }
    for (k, v) in bandwidths {
        chip.set_bandwidth(*k, *v)?;
    }
    Ok(chip)
}

/// The preset with this id (case-insensitive), if any.
pub fn preset(id: &str) -> Option<Chip> {
    let t = id.trim().to_ascii_lowercase();
    catalogue().iter().find(|c| c.id == t).cloned()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    #[test]
    fn every_preset_is_valid_and_sourced() {
        for chip in catalogue() {
            chip.validate().unwrap();
            assert!(chip.peaks.iter().all(|p| !p.source.is_empty()));
            assert!(chip.levels.iter().all(|l| !l.source.is_empty()));
            assert!(chip.level(LevelKind::Hbm).is_ok(), "{} has HBM", chip.name);
        }
    }

    #[test]
    fn v5e_critical_intensity_is_240() {
        let v5e = preset("v5e").unwrap();
        let ci = v5e.critical_intensity(DType::Bf16, LevelKind::Hbm).unwrap();
        assert!((ci - 1.97e14 / 8.2e11).abs() < 1e-9);
        assert!((ci - 240.0).abs() < 1.0);
        let int8 = v5e.critical_intensity(DType::Int8, LevelKind::Hbm).unwrap();
        assert!((int8 - 480.5).abs() < 0.5);
    }

    #[test]
    fn h100_uses_dense_by_default() {
        let h = preset("h100").unwrap();
        let e = h.peak_entry(DType::Bf16).unwrap();
        assert_eq!(e.dense, 9.89e14);
        assert_eq!(e.sparse, Some(1.978e15));
        let ci = h.critical_intensity(DType::Bf16, LevelKind::Hbm).unwrap();
        assert!((ci - 295.2).abs() < 0.1);
    }

    #[test]
    fn overrides_are_validated_and_named() {
        let mut c = preset("v5e").unwrap();
        let err = c.set_bandwidth(LevelKind::Hbm, -1.0).unwrap_err();
        assert!(err.to_string().contains("HBM bandwidth"));
        assert!(c.set_peak(DType::Bf16, f64::NAN).is_err());
        c.set_bandwidth(LevelKind::Hbm, 1e12).unwrap();
        assert_eq!(c.bandwidth(LevelKind::Hbm).unwrap(), 1e12);
        assert_eq!(c.level(LevelKind::Hbm).unwrap().source, USER);
    }

    #[test]
    fn missing_levels_and_peaks_are_errors() {
        let c = preset("rtx3090").unwrap();
        assert!(c.level(LevelKind::Ici).is_err());
        assert!(preset("v5e").unwrap().peak(DType::Fp16).is_err());
    }
}
