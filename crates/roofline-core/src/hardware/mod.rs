//! The hardware catalogue: chips, their dense peaks per data type and their
//! memory levels and links, each number with its source.
//!
//! Peaks are *dense* FLOPs/s (or OPs/s for integers). Where a vendor quotes a
//! structured-sparsity figure it is kept in [`Peak::sparse`] for reference and
//! never used by the model. Bandwidths are bytes/s in one direction.
//!
//! The preset chips' spec sheets and where each number comes from are in
//! `catalogue.rs`.

mod catalogue;
mod sources;

use std::fmt;

use crate::error::positive;
use crate::{CoreError, DType};

use catalogue::{chip_of, SHEETS};

/// Which kind of accelerator a chip is (used to group presets).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    /// A Google TPU.
    Tpu,
    /// A GPU (NVIDIA, AMD).
    Gpu,
    /// Another accelerator (AWS Trainium, Intel Gaudi).
    Other,
    /// A chip the user described.
    Custom,
}

impl Family {
    /// A label for grouping presets.
    pub fn label(self) -> &'static str {
        match self {
            Family::Tpu => "TPUs",
            Family::Gpu => "GPUs",
            Family::Other => "Other accelerators",
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
    /// Another scale-up link between chips (AMD Infinity Fabric, AWS
    /// NeuronLink, Intel Gaudi's scale-up ports), one direction, per chip.
    Fabric,
    /// Data-centre network between hosts / pods, per chip.
    Dcn,
}

impl LevelKind {
    /// Every level kind, fastest-memory first.
    pub const ALL: [LevelKind; 8] = [
        LevelKind::Vmem,
        LevelKind::SharedMem,
        LevelKind::Hbm,
        LevelKind::NvLink,
        LevelKind::Fabric,
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
            LevelKind::Fabric => "Fabric",
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
            LevelKind::Fabric => "fabric",
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
        matches!(
            self,
            LevelKind::Ici | LevelKind::NvLink | LevelKind::Fabric | LevelKind::Dcn
        )
    }
}

impl fmt::Display for LevelKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where an operation's arithmetic runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ComputeUnit {
    /// The matrix unit (a TPU's MXU, a GPU's tensor cores): contractions.
    Matrix,
    /// The vector unit (a TPU's VPU, a GPU's CUDA cores): elementwise work
    /// and reductions.
    Vector,
}

impl ComputeUnit {
    /// The key used in links and menus: `matrix` or `vector`.
    pub fn key(self) -> &'static str {
        match self {
            ComputeUnit::Matrix => "matrix",
            ComputeUnit::Vector => "vector",
        }
    }

    /// `matrix unit` or `vector unit`.
    pub fn label(self) -> &'static str {
        match self {
            ComputeUnit::Matrix => "matrix unit",
            ComputeUnit::Vector => "vector unit",
        }
    }

    /// The unit of a key, or `None`.
    pub fn from_key(key: &str) -> Option<ComputeUnit> {
        [ComputeUnit::Matrix, ComputeUnit::Vector]
            .into_iter()
            .find(|u| u.key() == key.trim())
    }
}

/// A roof a chip has: its matrix unit's peak at one data type, or its
/// vector unit's peak.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RoofKey {
    /// The matrix unit at a data type.
    Matrix(DType),
    /// The vector unit.
    Vector,
}

impl RoofKey {
    /// The key used in links and data attributes: the data type's name
    /// (`bf16`) or `vector`.
    pub fn key(self) -> &'static str {
        match self {
            RoofKey::Matrix(d) => d.name(),
            RoofKey::Vector => "vector",
        }
    }

    /// The roof of a key, or `None`.
    pub fn from_key(key: &str) -> Option<RoofKey> {
        let t = key.trim();
        if t.eq_ignore_ascii_case("vector") {
            return Some(RoofKey::Vector);
        }
        t.parse::<DType>().ok().map(RoofKey::Matrix)
    }

    /// How a chart names it: `fp8 peak`, `vector unit peak`.
    pub fn name(self) -> String {
        match self {
            RoofKey::Matrix(d) => format!("{d} peak"),
            RoofKey::Vector => "vector unit peak".to_string(),
        }
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
    pub source: Source,
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
    pub source: Source,
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
    /// The vector unit's peak (a TPU's VPU, a GPU's CUDA cores), where
    /// elementwise work and reductions run; `dtype` is the type the figure
    /// is quoted for. `None` when no figure is published.
    pub vector: Option<Peak>,
    /// What its main memory (the [`LevelKind::Hbm`] level) is called:
    /// `HBM`, as the chapter calls every accelerator's, or the part's own
    /// where it is not HBM (`GDDR6X` on an RTX 3090).
    pub memory: &'static str,
}

impl Chip {
    /// What the chip calls the level `kind`: its main memory's own name
    /// ([`Chip::memory`]) for [`LevelKind::Hbm`], else the level's.
    pub fn level_name(&self, kind: LevelKind) -> &'static str {
        match kind {
            LevelKind::Hbm => self.memory,
            k => k.name(),
        }
    }

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

    /// The roofs this chip has: a matrix peak per data type (widest
    /// first), then the vector unit's when one is published.
    pub fn roofs(&self) -> Vec<RoofKey> {
        let mut r: Vec<RoofKey> = self.dtypes().into_iter().map(RoofKey::Matrix).collect();
        if self.vector.is_some() {
            r.push(RoofKey::Vector);
        }
        r
    }

    /// The unit work that `wanted` it runs on here: the matrix unit when
    /// the chip lists no vector-unit peak.
    pub fn runs_on(&self, wanted: ComputeUnit) -> ComputeUnit {
        match wanted {
            ComputeUnit::Vector if self.vector.is_some() => ComputeUnit::Vector,
            _ => ComputeUnit::Matrix,
        }
    }

    /// The peak of `roof`, FLOP/s, if the chip has it.
    pub fn roof_peak(&self, roof: RoofKey) -> Option<f64> {
        match roof {
            RoofKey::Matrix(d) => self.peak(d).ok(),
            RoofKey::Vector => self.vector.as_ref().map(|v| v.dense),
        }
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
        if let Some(v) = &self.vector {
            positive(&format!("{} vector-unit peak", self.name), v.dense)?;
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
                p.source = Source::USER;
            }
            None => self.peaks.push(Peak {
                dtype,
                dense: value,
                sparse: None,
                source: Source::USER,
            }),
        }
        Ok(())
    }

    /// Sets (or adds) the vector unit's peak, validated; the figure is then
    /// read as fp32 unless the chip's own was quoted for another type.
    pub fn set_vector(&mut self, value: f64) -> Result<(), CoreError> {
        positive("vector-unit peak", value)?;
        self.family_to_custom();
        let dtype = self.vector.as_ref().map_or(DType::Fp32, |v| v.dtype);
        self.vector = Some(Peak {
            dtype,
            dense: value,
            sparse: None,
            source: Source::USER,
        });
        Ok(())
    }

    /// Sets (or adds) the bandwidth of `kind`, validated.
    pub fn set_bandwidth(&mut self, kind: LevelKind, value: f64) -> Result<(), CoreError> {
        positive(&format!("{kind} bandwidth"), value)?;
        self.family_to_custom();
        match self.levels.iter_mut().find(|l| l.kind == kind) {
            Some(l) => {
                l.bandwidth = value;
                l.source = Source::USER;
            }
            None => self.levels.push(MemLevel {
                kind,
                bandwidth: value,
                capacity: None,
                source: Source::USER,
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

/// The note under a number the user typed.
pub const USER: &str = "set by you";

/// Where a catalogue number comes from: an index into the sources' texts,
/// which [`Source::text`] reads (in the app, only the chip's numbers do,
/// from a chunk of their own).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Source(pub u16);

impl Source {
    /// A number the user set (its text is [`USER`]).
    pub const USER: Source = Source(0);
}

/// The preset chips: TPUs first, then GPUs and other accelerators, in
/// generation order. Built on first use and kept: every evaluation looks
/// its chip up here.
pub fn catalogue() -> &'static [Chip] {
    static CHIPS: std::sync::OnceLock<Vec<Chip>> = std::sync::OnceLock::new();
    CHIPS.get_or_init(|| SHEETS.iter().map(chip_of).collect())
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
            assert!(chip.peaks.iter().all(|p| p.source.text().len() > 10));
            assert!(chip.levels.iter().all(|l| l.source.text().len() > 10));
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
        assert_eq!(e.sparse, Some(1.979e15));
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
        assert_eq!(c.level(LevelKind::Hbm).unwrap().source.text(), USER);
    }

    #[test]
    fn missing_levels_and_peaks_are_errors() {
        let c = preset("rtx3090").unwrap();
        assert!(c.level(LevelKind::Ici).is_err());
        assert!(preset("v5e").unwrap().peak(DType::Fp16).is_err());
    }
}
