//! The comparison table: critical intensity and critical batch size for every
//! preset, roof (each data type's matrix peak and the vector unit's) and
//! memory level.

use crate::hardware::catalogue;
use crate::{format, DType, LevelKind, RoofKey};

/// One row of the comparison table.
#[derive(Debug, Clone, PartialEq)]
pub struct CompareRow {
    /// Preset id (to load it).
    pub chip_id: String,
    /// Chip display name.
    pub chip: String,
    /// The roof: a data type's matrix peak, or the vector unit's.
    pub roof: RoofKey,
    /// Data type of the peak (the one the vector figure is quoted for).
    pub dtype: DType,
    /// Memory level or link.
    pub level: LevelKind,
    /// What the chip calls it (`HBM`, `GDDR6X`, `ICI`...).
    pub level_name: &'static str,
    /// Dense peak FLOPs/s.
    pub peak: f64,
    /// Bandwidth, bytes/s.
    pub bandwidth: f64,
    /// Peak ÷ bandwidth, FLOPs/byte.
    pub critical_intensity: f64,
    /// Critical batch of a matmul with every operand in `dtype`, under the
    /// B ≪ D, F approximation: its intensity is `2B / bytes(dtype)`, so the
    /// batch is `critical_intensity × bytes(dtype) / 2`. `None` for the
    /// vector unit, where matmuls do not run.
    pub critical_batch: Option<f64>,
    /// Formatted peak.
    pub peak_text: String,
    /// Formatted bandwidth.
    pub bandwidth_text: String,
    /// Formatted critical intensity.
    pub critical_intensity_text: String,
    /// Formatted critical batch.
    pub critical_batch_text: String,
}

/// Every preset × roof × level, in catalogue order: the matrix peaks
/// (widest type first), then the vector unit's. Not inlined, so that the
/// size rules see where it is (the compare chunk's, tests/size-rules.mjs).
#[inline(never)]
pub fn compare_rows() -> Vec<CompareRow> {
    let mut rows = Vec::new();
    for chip in catalogue() {
        let roofs = chip
            .peaks
            .iter()
            .map(|p| (RoofKey::Matrix(p.dtype), p))
            .chain(chip.vector.iter().map(|v| (RoofKey::Vector, v)));
        for (roof, p) in roofs {
            for l in &chip.levels {
                let ci = p.dense / l.bandwidth;
                let batch = match roof {
                    RoofKey::Matrix(_) => Some(ci * p.dtype.bytes() / 2.0),
                    RoofKey::Vector => None,
                };
                rows.push(CompareRow {
                    chip_id: chip.id.clone(),
                    chip: chip.name.clone(),
                    roof,
                    dtype: p.dtype,
                    level: l.kind,
                    level_name: chip.level_name(l.kind),
                    peak: p.dense,
                    bandwidth: l.bandwidth,
                    critical_intensity: ci,
                    critical_batch: batch,
                    peak_text: format::flops_rate(p.dense),
                    bandwidth_text: format::bandwidth(l.bandwidth),
                    critical_intensity_text: format::sig(ci, 3),
                    critical_batch_text: batch
                        .map_or_else(|| format::MISSING.to_string(), |b| format::sig(b, 3)),
                });
            }
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::panic)]
    use super::*;

    #[test]
    fn v5e_rows_match_the_book() {
        let rows = compare_rows();
        let bf16 = rows
            .iter()
            .find(|r| r.chip_id == "v5e" && r.dtype == DType::Bf16 && r.level == LevelKind::Hbm)
            .unwrap();
        assert!((bf16.critical_intensity - 1.97e14 / 8.2e11).abs() < 1e-9);
        assert!(
            (bf16.critical_batch.unwrap() - 1.97e14 / 8.2e11).abs() < 1e-9,
            "bf16: B = intensity"
        );
        let int8 = rows
            .iter()
            .find(|r| r.chip_id == "v5e" && r.dtype == DType::Int8 && r.level == LevelKind::Hbm)
            .unwrap();
        assert!(
            (int8.critical_batch.unwrap() - 3.94e14 / 8.2e11 / 2.0).abs() < 1e-9,
            "int8: 2B"
        );
        // The vector unit against every level, with no critical batch.
        let vector: Vec<_> = rows
            .iter()
            .filter(|r| r.chip_id == "v5e" && r.roof == RoofKey::Vector)
            .collect();
        assert_eq!(vector.len(), 5, "HBM, VMEM, ICI, PCIe, DCN");
        let hbm = vector.iter().find(|r| r.level == LevelKind::Hbm).unwrap();
        assert!((hbm.critical_intensity - 6.1e12 / 8.2e11).abs() < 1e-9);
        assert_eq!(hbm.critical_batch, None);
        assert_eq!(hbm.critical_batch_text, "—");
        // Every roof and level of every chip has its row.
        for chip in catalogue() {
            let n = rows.iter().filter(|r| r.chip_id == chip.id).count();
            assert_eq!(n, chip.roofs().len() * chip.levels.len(), "{}", chip.id);
        }
    }
}
