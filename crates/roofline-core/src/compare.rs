//! The comparison table: critical intensity and critical batch size for every
//! preset, data type and memory level.

use crate::hardware::catalogue;
use crate::{format, DType, LevelKind};

/// One row of the comparison table.
#[derive(Debug, Clone, PartialEq)]
pub struct CompareRow {
    /// Preset id (to load it).
    pub chip_id: String,
    /// Chip display name.
    pub chip: String,
    /// Data type of the peak.
    pub dtype: DType,
    /// Memory level or link.
    pub level: LevelKind,
    /// Dense peak FLOPs/s.
    pub peak: f64,
    /// Bandwidth, bytes/s.
    pub bandwidth: f64,
    /// Peak ÷ bandwidth, FLOPs/byte.
    pub critical_intensity: f64,
    /// Critical batch of a matmul with every operand in `dtype`, under the
    /// B ≪ D, F approximation: its intensity is `2B / bytes(dtype)`, so the
    /// batch is `critical_intensity × bytes(dtype) / 2`.
    pub critical_batch: f64,
    /// Formatted peak.
    pub peak_text: String,
    /// Formatted bandwidth.
    pub bandwidth_text: String,
    /// Formatted critical intensity.
    pub critical_intensity_text: String,
    /// Formatted critical batch.
    pub critical_batch_text: String,
}

/// Every preset × data type × level, in catalogue order.
pub fn compare_rows() -> Vec<CompareRow> {
    let mut rows = Vec::new();
    for chip in catalogue() {
        for p in &chip.peaks {
            for l in &chip.levels {
                let ci = p.dense / l.bandwidth;
                let batch = ci * p.dtype.bytes() / 2.0;
                rows.push(CompareRow {
                    chip_id: chip.id.clone(),
                    chip: chip.name.clone(),
                    dtype: p.dtype,
                    level: l.kind,
                    peak: p.dense,
                    bandwidth: l.bandwidth,
                    critical_intensity: ci,
                    critical_batch: batch,
                    peak_text: format::flops_rate(p.dense),
                    bandwidth_text: format::bandwidth(l.bandwidth),
                    critical_intensity_text: format::sig(ci, 3),
                    critical_batch_text: format::sig(batch, 3),
                });
            }
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
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
            (bf16.critical_batch - 1.97e14 / 8.2e11).abs() < 1e-9,
            "bf16: B = intensity"
        );
        let int8 = rows
            .iter()
            .find(|r| r.chip_id == "v5e" && r.dtype == DType::Int8 && r.level == LevelKind::Hbm)
            .unwrap();
        assert!(
            (int8.critical_batch - 3.94e14 / 8.2e11 / 2.0).abs() < 1e-9,
            "int8: 2B"
        );
    }
}
