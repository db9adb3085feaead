//! The preset chips as their sources give them: one [`Sheet`] per chip in
//! [`SHEETS`], and [`chip_of`], which turns a sheet into a [`Chip`]. Each
//! number names its source by a [`Source`] index; the texts are in
//! `sources.rs`, read only where they are shown (the chip's numbers, a
//! chunk of the app), so the first load carries the numbers, not the texts.

use super::{Chip, Family, LevelKind, MemLevel, Peak, Source};
use crate::DType;

// Sources (their texts are in `sources.rs`, in this order). A vendor's
// figure is used where one is published; where the book prints another,
// the source says so.
const BOOK_TPU: Source = Source(1);
const TPU_HOST: Source = Source(2);
const TPU_DCN: Source = Source(3);
const TPU_ICI: Source = Source(4);
const V5E_VMEM: Source = Source(5);
const V3: Source = Source(6);
const V4: Source = Source(7);
const V5E: Source = Source(8);
const V5P: Source = Source(9);
const V6E: Source = Source(10);
const TPU7X: Source = Source(11);
// The VPU: 8 sublanes x 128 lanes per TensorCore (Google's v6e page, the
// book's TPU chapter), ALUs per lane from the book, the clock from the
// published matrix peak over the MXUs' multiply-adds. Google publishes no
// vector figure.
const VPU_V3: Source = Source(12);
const VPU_V4: Source = Source(13);
const VPU_V5E: Source = Source(14);
const VPU_V5P: Source = Source(15);
const A100: Source = Source(16);
const H100: Source = Source(17);
const H100_FP32: Source = Source(18);
const H200: Source = Source(19);
const B200: Source = Source(20);
const B200_FP32: Source = Source(21);
const B300: Source = Source(22);
const GB200: Source = Source(23);
const MI300X: Source = Source(24);
const MI325X: Source = Source(25);
const MI355X: Source = Source(26);
const AMD_FABRIC: Source = Source(27);
const TRN2: Source = Source(28);
const TRN2_LINK: Source = Source(29);
const TRN2_EFA: Source = Source(30);
const TRN2_VECTOR: Source = Source(31);
const GAUDI3: Source = Source(32);
const GAUDI3_VECTOR: Source = Source(33);
const GAUDI3_NET: Source = Source(34);
const GPU_NVLINK: Source = Source(35);
const PCIE4: Source = Source(36);
const PCIE5: Source = Source(37);
const PCIE6: Source = Source(38);
const IB: Source = Source(39);
const IB_A100: Source = Source(40);
const CX8: Source = Source(41);
const GA102: Source = Source(42);

/// A peak: data type, dense FLOP/s, the vendor's sparse figure, source.
type PeakRow = (DType, f64, Option<f64>, Source);
/// A level: kind, bytes/s one way, capacity in bytes, source.
type LevelRow = (LevelKind, f64, Option<f64>, Source);

/// One chip as its sources give it.
pub(super) struct Sheet {
    id: &'static str,
    name: &'static str,
    family: Family,
    peaks: &'static [PeakRow],
    vector: Option<PeakRow>,
    levels: &'static [LevelRow],
    /// What the main memory (the `Hbm` level) is: `HBM`, or the part's
    /// own memory where it is not HBM (`GDDR6X`).
    memory: &'static str,
}

use DType::{Bf16, Fp16, Fp32, Fp4, Fp8, Int4, Int8};
use LevelKind::{Dcn, Fabric, Hbm, Ici, NvLink, Pcie, Vmem};

const GIB: f64 = 1024.0 * 1024.0 * 1024.0;

/// The preset chips, TPUs first, then GPUs and other accelerators, in
/// generation order.
pub(super) const SHEETS: [Sheet; 18] = [
    Sheet {
        id: "v3",
        name: "TPU v3",
        family: Family::Tpu,
        peaks: &[(Bf16, 1.23e14, None, V3), (Int8, 1.23e14, None, V3)],
        vector: Some((Fp32, 3.8e12, None, VPU_V3)),
        levels: &[
            (Hbm, 9.0e11, Some(32e9), BOOK_TPU),
            (Ici, 1e11, None, TPU_ICI),
            (Pcie, 1.6e10, None, TPU_HOST),
            (Dcn, 6.25e9, None, TPU_DCN),
        ],
        memory: "HBM",
    },
    Sheet {
        id: "v4p",
        name: "TPU v4p",
        family: Family::Tpu,
        peaks: &[(Bf16, 2.75e14, None, V4), (Int8, 2.75e14, None, V4)],
        vector: Some((Fp32, 4.3e12, None, VPU_V4)),
        levels: &[
            (Hbm, 1.2e12, Some(32e9), V4),
            (Ici, 4.5e10, None, TPU_ICI),
            (Pcie, 1.6e10, None, TPU_HOST),
            (Dcn, 6.25e9, None, TPU_DCN),
        ],
        memory: "HBM",
    },
    Sheet {
        id: "v5e",
        name: "TPU v5e",
        family: Family::Tpu,
        peaks: &[(Bf16, 1.97e14, None, V5E), (Int8, 3.94e14, None, V5E)],
        vector: Some((Fp32, 6.1e12, None, VPU_V5E)),
        levels: &[
            (Hbm, 8.2e11, Some(16e9), V5E),
            (Vmem, 1.8e13, Some(128.0 * 1024.0 * 1024.0), V5E_VMEM),
            (Ici, 4.5e10, None, TPU_ICI),
            (Pcie, 1.6e10, None, TPU_HOST),
            (Dcn, 3.125e9, None, TPU_DCN),
        ],
        memory: "HBM",
    },
    Sheet {
        id: "v5p",
        name: "TPU v5p",
        family: Family::Tpu,
        peaks: &[(Bf16, 4.59e14, None, V5P), (Int8, 9.18e14, None, V5P)],
        vector: Some((Fp32, 1.43e13, None, VPU_V5P)),
        levels: &[
            (Hbm, 2.8e12, Some(96e9), V5P),
            (Ici, 9e10, None, TPU_ICI),
            (Pcie, 1.6e10, None, TPU_HOST),
            (Dcn, 6.25e9, None, TPU_DCN),
        ],
        memory: "HBM",
    },
    Sheet {
        id: "v6e",
        name: "TPU v6e",
        family: Family::Tpu,
        peaks: &[(Bf16, 9.20e14, None, V6E), (Int8, 1.84e15, None, V6E)],
        vector: None,
        levels: &[
            (Hbm, 1.6e12, Some(32e9), V6E),
            (Ici, 9e10, None, TPU_ICI),
            (Pcie, 3.2e10, None, TPU_HOST),
            (Dcn, 1.25e10, None, TPU_DCN),
        ],
        memory: "HBM",
    },
    Sheet {
        id: "tpu7x",
        name: "TPU7x",
        family: Family::Tpu,
        peaks: &[(Bf16, 2.307e15, None, TPU7X), (Fp8, 4.614e15, None, TPU7X)],
        vector: None,
        levels: &[
            (Hbm, 7.4e12, Some(192.0 * GIB), TPU7X),
            (Ici, 9e10, None, TPU_ICI),
            (Pcie, 1.6e10, None, TPU_HOST),
            (Dcn, 1.25e10, None, TPU_DCN),
        ],
        memory: "HBM",
    },
    Sheet {
        id: "a100",
        name: "A100",
        family: Family::Gpu,
        peaks: &[
            (Fp32, 1.95e13, None, A100),
            (Bf16, 3.12e14, Some(6.24e14), A100),
            (Fp16, 3.12e14, Some(6.24e14), A100),
            (Int8, 6.24e14, Some(1.248e15), A100),
        ],
        vector: Some((Fp32, 1.95e13, None, A100)),
        levels: &[
            (Hbm, 2.039e12, Some(80e9), A100),
            (NvLink, 3.0e11, None, GPU_NVLINK),
            (Pcie, 3.2e10, None, PCIE4),
            (Dcn, 2.5e10, None, IB_A100),
        ],
        memory: "HBM",
    },
    Sheet {
        id: "h100",
        name: "H100 SXM",
        family: Family::Gpu,
        peaks: &[
            (Fp32, 6.7e13, None, H100_FP32),
            (Bf16, 9.89e14, Some(1.979e15), H100),
            (Fp16, 9.89e14, Some(1.979e15), H100),
            (Fp8, 1.979e15, Some(3.958e15), H100),
            (Int8, 1.979e15, Some(3.958e15), H100),
        ],
        vector: Some((Fp32, 6.7e13, None, H100_FP32)),
        levels: &[
            (Hbm, 3.35e12, Some(80e9), H100),
            (NvLink, 4.5e11, None, GPU_NVLINK),
            (Pcie, 6.4e10, None, PCIE5),
            (Dcn, 5e10, None, IB),
        ],
        memory: "HBM",
    },
    Sheet {
        id: "h200",
        name: "H200",
        family: Family::Gpu,
        peaks: &[
            (Fp32, 6.7e13, None, H100_FP32),
            (Bf16, 9.89e14, Some(1.979e15), H200),
            (Fp16, 9.89e14, Some(1.979e15), H200),
            (Fp8, 1.979e15, Some(3.958e15), H200),
            (Int8, 1.979e15, Some(3.958e15), H200),
        ],
        vector: Some((Fp32, 6.7e13, None, H100_FP32)),
        levels: &[
            (Hbm, 4.8e12, Some(141e9), H200),
            (NvLink, 4.5e11, None, GPU_NVLINK),
            (Pcie, 6.4e10, None, PCIE5),
            (Dcn, 5e10, None, IB),
        ],
        memory: "HBM",
    },
    Sheet {
        id: "b200",
        name: "B200",
        family: Family::Gpu,
        peaks: &[
            (Fp32, 7.5e13, None, B200_FP32),
            (Bf16, 2.25e15, Some(4.5e15), B200),
            (Fp16, 2.25e15, Some(4.5e15), B200),
            (Fp8, 4.5e15, Some(9e15), B200),
            (Int8, 4.5e15, Some(9e15), B200),
            (Fp4, 9e15, Some(1.8e16), B200),
        ],
        vector: Some((Fp32, 7.5e13, None, B200_FP32)),
        levels: &[
            (Hbm, 8.0e12, Some(192e9), B200),
            (NvLink, 9.0e11, None, GPU_NVLINK),
            (Pcie, 6.4e10, None, PCIE5),
            (Dcn, 5e10, None, IB),
        ],
        memory: "HBM",
    },
    Sheet {
        id: "b300",
        name: "B300 (HGX)",
        family: Family::Gpu,
        peaks: &[
            (Fp32, 7.5e13, None, B300),
            (Bf16, 2.25e15, Some(4.5e15), B300),
            (Fp16, 2.25e15, Some(4.5e15), B300),
            (Fp8, 4.5e15, Some(9e15), B300),
            (Int8, 1.5e14, Some(3e14), B300),
            (Fp4, 1.4e16, Some(1.8e16), B300),
        ],
        vector: Some((Fp32, 7.5e13, None, B300)),
        levels: &[
            (Hbm, 7.7e12, Some(270e9), B300),
            (NvLink, 9.0e11, None, GPU_NVLINK),
            (Pcie, 1.28e11, None, PCIE6),
            (Dcn, 1e11, None, CX8),
        ],
        memory: "HBM",
    },
    Sheet {
        id: "gb200",
        name: "GB200 (per GPU)",
        family: Family::Gpu,
        peaks: &[
            (Fp32, 8e13, None, GB200),
            (Bf16, 2.5e15, Some(5e15), GB200),
            (Fp16, 2.5e15, Some(5e15), GB200),
            (Fp8, 5e15, Some(1e16), GB200),
            (Int8, 5e15, Some(1e16), GB200),
            (Fp4, 1e16, Some(2e16), GB200),
        ],
        vector: Some((Fp32, 8e13, None, GB200)),
        levels: &[
            (Hbm, 8.0e12, Some(186e9), GB200),
            (NvLink, 9.0e11, None, GPU_NVLINK),
        ],
        memory: "HBM",
    },
    Sheet {
        id: "mi300x",
        name: "MI300X",
        family: Family::Gpu,
        peaks: &[
            (Fp32, 1.634e14, None, MI300X),
            (Bf16, 1.3074e15, Some(2.6149e15), MI300X),
            (Fp16, 1.3074e15, Some(2.6149e15), MI300X),
            (Fp8, 2.6149e15, Some(5.2298e15), MI300X),
            (Int8, 2.6149e15, Some(5.2298e15), MI300X),
        ],
        vector: Some((Fp32, 1.634e14, None, MI300X)),
        levels: &[
            (Hbm, 5.3e12, Some(192e9), MI300X),
            (Fabric, 4.48e11, None, AMD_FABRIC),
            (Pcie, 6.4e10, None, PCIE5),
        ],
        memory: "HBM",
    },
    Sheet {
        id: "mi325x",
        name: "MI325X",
        family: Family::Gpu,
        peaks: &[
            (Fp32, 1.634e14, None, MI325X),
            (Bf16, 1.3074e15, Some(2.6149e15), MI325X),
            (Fp16, 1.3074e15, Some(2.6149e15), MI325X),
            (Fp8, 2.6149e15, Some(5.2298e15), MI325X),
            (Int8, 2.6149e15, Some(5.2298e15), MI325X),
        ],
        vector: Some((Fp32, 1.634e14, None, MI325X)),
        levels: &[
            (Hbm, 6.0e12, Some(256e9), MI325X),
            (Fabric, 4.48e11, None, AMD_FABRIC),
            (Pcie, 6.4e10, None, PCIE5),
        ],
        memory: "HBM",
    },
    Sheet {
        id: "mi355x",
        name: "MI355X",
        family: Family::Gpu,
        peaks: &[
            (Fp32, 1.573e14, None, MI355X),
            (Bf16, 2.5166e15, Some(5.0332e15), MI355X),
            (Fp16, 2.5166e15, Some(5.0332e15), MI355X),
            (Fp8, 5.0332e15, Some(1.00663e16), MI355X),
            (Int8, 5.0332e15, Some(1.00663e16), MI355X),
            (Fp4, 1.00663e16, Some(2.01327e16), MI355X),
        ],
        vector: Some((Fp32, 1.573e14, None, MI355X)),
        levels: &[
            (Hbm, 8.0e12, Some(288e9), MI355X),
            (Fabric, 5.376e11, None, AMD_FABRIC),
        ],
        memory: "HBM",
    },
    Sheet {
        id: "rtx3090",
        name: "RTX 3090",
        family: Family::Gpu,
        peaks: &[
            (Fp32, 3.56e13, None, GA102),
            (Bf16, 7.1e13, Some(1.42e14), Source(43)),
            (Fp16, 1.42e14, Some(2.84e14), Source(44)),
            (Int8, 2.84e14, Some(5.68e14), GA102),
            (Int4, 5.68e14, Some(1.136e15), GA102),
        ],
        vector: Some((Fp32, 3.56e13, None, GA102)),
        levels: &[
            (Hbm, 9.36e11, Some(24e9), Source(45)),
            (Pcie, 3.2e10, None, PCIE4),
        ],
        memory: "GDDR6X",
    },
    Sheet {
        id: "trn2",
        name: "Trainium2",
        family: Family::Other,
        peaks: &[
            (Fp32, 1.81e14, None, TRN2),
            (Bf16, 6.67e14, Some(2.563e15), TRN2),
            (Fp16, 6.67e14, Some(2.563e15), TRN2),
            (Fp8, 1.299e15, Some(2.563e15), TRN2),
        ],
        vector: Some((Fp32, 8e12, None, TRN2_VECTOR)),
        levels: &[
            (Hbm, 2.9e12, Some(96.0 * GIB), TRN2),
            (Fabric, 5.12e11, None, TRN2_LINK),
            (Dcn, 2.5e10, None, TRN2_EFA),
        ],
        memory: "HBM",
    },
    Sheet {
        id: "gaudi3",
        name: "Gaudi 3",
        family: Family::Other,
        peaks: &[
            (Bf16, 1.835e15, None, GAUDI3),
            (Fp8, 1.835e15, None, GAUDI3),
        ],
        vector: Some((Bf16, 2.87e13, None, GAUDI3_VECTOR)),
        levels: &[
            (Hbm, 3.67e12, Some(128e9), GAUDI3),
            (Fabric, 5.25e11, None, GAUDI3_NET),
            (Pcie, 6.4e10, None, PCIE5),
            (Dcn, 7.5e10, None, GAUDI3_NET),
        ],
        memory: "HBM",
    },
];

fn peak_of(&(dtype, dense, sparse, source): &PeakRow) -> Peak {
    Peak {
        dtype,
        dense,
        sparse,
        source,
    }
}

pub(super) fn chip_of(s: &Sheet) -> Chip {
    Chip {
        id: s.id.to_string(),
        name: s.name.to_string(),
        family: s.family,
        peaks: s.peaks.iter().map(peak_of).collect(),
        levels: s
            .levels
            .iter()
            .map(|&(kind, bandwidth, capacity, source)| MemLevel {
                kind,
                bandwidth,
                capacity,
                source,
            })
            .collect(),
        vector: s.vector.as_ref().map(peak_of),
        memory: s.memory,
    }
}
