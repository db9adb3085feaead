//! The preset chips as their sources give them: the source strings, one
//! [`Sheet`] per chip in [`SHEETS`], and [`chip_of`], which turns a sheet
//! into a [`Chip`].

use super::{Chip, Family, LevelKind, MemLevel, Peak};
use crate::DType;

// Sources. A vendor's figure is used where one is published; where the
// book prints another, the source says so.
const BOOK_TPU: &str = "How To Scale Your Model, TPU chapter, 'TPU specs' table";
const TPU_HOST: &str =
    "How To Scale Your Model, TPU chapter (PCIe to host, about 1.6e10 B/s per chip; 3.2e10 on v6e)";
const TPU_DCN: &str =
    "How To Scale Your Model, TPU chapter (DCN per chip: 6.25e9 B/s; 3.125e9 on v5e; 1.25e10 on v6e and TPU7x)";
const TPU_ICI: &str =
    "How To Scale Your Model, TPU chapter, 'TPU specs' table (ICI per link, one direction; bidirectional is 2x)";
const V5E_VMEM: &str =
    "How To Scale Your Model, TPU chapter: 128 MiB VMEM at about 22x HBM bandwidth on v5e";
const V3: &str =
    "Google Cloud TPU v3 documentation: 123 TFLOPS bf16 per chip (the book's table: 1.4e14)";
const V4: &str = "Google Cloud TPU v4 documentation: 275 TFLOPS bf16 or int8, 32 GiB at 1,200 GB/s";
const V5E: &str = "How To Scale Your Model, TPU chapter (Google's v5e documentation: 197 TFLOPS bf16, 393 TOPS int8, 819 GB/s)";
const V5P: &str = "How To Scale Your Model, TPU chapter (Google's v5p documentation: 459 TFLOPS, 95 GiB at 2,765 GB/s)";
const V6E: &str = "How To Scale Your Model, TPU chapter (Google's v6e documentation: 918 TFLOPS bf16, 1,836 TOPS int8, 1,638 GB/s)";
const TPU7X: &str = "Google Cloud TPU7x documentation: 2,307 TFLOPS bf16, 4,614 fp8 (the book: 2.30e15, 4.61e15 as int8)";
// The VPU: 8 sublanes x 128 lanes per TensorCore (Google's v6e page, the
// book's TPU chapter), ALUs per lane from the book, the clock from the
// published matrix peak over the MXUs' multiply-adds. Google publishes no
// vector figure.
const VPU_V3: &str =
    "derived: 2 cores x 1,024 lanes x 2 ALUs (as v4) x 0.94 GHz (123 TFLOPS over 4 MXUs)";
const VPU_V4: &str =
    "derived: 2 cores x 1,024 lanes x 2 ALUs (the book) x 1.05 GHz (275 TFLOPS over 8 MXUs)";
const VPU_V5E: &str = "derived: 1 core x 1,024 lanes x 4 ALUs (as v5p) x 1.5 GHz (the book)";
const VPU_V5P: &str = "derived: 2 cores x 1,024 lanes x 4 ALUs (the book) x 1.75 GHz (459 TFLOPS over 8 MXUs); the book: about 1.4e13";
const A100: &str =
    "NVIDIA A100 Tensor Core GPU datasheet, 80 GB SXM (the book: 3.1e14 and 2.0e12 B/s)";
const H100: &str = "NVIDIA H100 Tensor Core GPU datasheet, SXM";
const H100_FP32: &str = "NVIDIA H100 datasheet: 67 TFLOPS fp32, a multiply-add as 2 FLOPs (the book's 3.35e13 counts it once)";
const H200: &str = "NVIDIA H200 Tensor Core GPU datasheet, SXM (compute as H100 SXM)";
const B200: &str =
    "NVIDIA Blackwell technical brief, HGX B200 per GPU (the book rounds bf16 to 2.3e15)";
const B200_FP32: &str = "NVIDIA Blackwell technical brief: 75 TFLOPS fp32 (the book: 8e13)";
const B300: &str = "NVIDIA Blackwell technical brief, HGX B300 per GPU (int8 as listed: 0.15 POPS)";
const GB200: &str = "NVIDIA GB200 NVL72: rack figures over 72 GPUs";
const MI300X: &str =
    "AMD ROCm documentation, MI300 microarchitecture: peak table of the MI300X OAM";
const MI325X: &str = "AMD Instinct MI325X data sheet (compute as MI300X; 256 GB HBM3E at 6 TB/s)";
const MI355X: &str = "AMD Instinct MI355X product page (256 CUs at 2.4 GHz reproduce every figure)";
const AMD_FABRIC: &str =
    "AMD: 7 Infinity Fabric links to the other 7 GPUs, 64 GB/s each way (76.8 on MI355X)";
const TRN2: &str =
    "AWS Neuron documentation, Trainium2 architecture (sparse: up to 4:16 sparsity, not 2x)";
const TRN2_LINK: &str = "AWS Neuron documentation: NeuronLink-v3 1,024 GB/s per chip in an instance, taken as both ways";
const TRN2_EFA: &str = "AWS Neuron documentation: EFAv3 3,200 Gb/s per 16 chips";
const TRN2_VECTOR: &str = "AWS Neuron documentation: Vector Engine 1 TFLOPS fp32 per core, 8 cores";
const GAUDI3: &str = "Intel Gaudi 3 (Hot Chips 2024): 1,835 TFLOPS bf16 and fp8 (matrix engines), 128 GB at 3.67 TB/s";
const GAUDI3_VECTOR: &str =
    "Intel Gaudi 3 (Hot Chips 2024): 28.7 TFLOPS bf16 on the TPCs; no fp32 figure";
const GAUDI3_NET: &str = "Intel Gaudi documentation: 21 scale-up, 3 scale-out ports of 200 Gb/s";
const GPU_NVLINK: &str =
    "NVIDIA: NVLink per GPU, both ways: 1.8 TB/s (Blackwell), 900 GB/s (H100), 600 GB/s (A100)";
const PCIE4: &str = "PCIe Gen4 x16: 64 GB/s both directions, 32 GB/s each (NVIDIA datasheet)";
const PCIE5: &str = "PCIe Gen5 x16: 128 GB/s both directions, 64 GB/s each (vendor datasheet)";
const PCIE6: &str = "PCIe Gen6 x16: 256 GB/s both directions, 128 GB/s each (NVIDIA, HGX B300)";
const IB: &str = "How To Scale Your Model, GPU chapter (400 Gb/s InfiniBand NIC per GPU)";
const IB_A100: &str = "NVIDIA DGX A100 (200 Gb/s HDR InfiniBand NIC per GPU)";
const CX8: &str = "NVIDIA HGX B300 (ConnectX-8, 800 Gb/s per GPU)";
const GA102: &str = "NVIDIA Ampere GA102 whitepaper, GeForce RTX 3090 column (dense; sparse is 2x)";

/// A peak: data type, dense FLOP/s, the vendor's sparse figure, source.
type PeakRow = (DType, f64, Option<f64>, &'static str);
/// A level: kind, bytes/s one way, capacity in bytes, source.
type LevelRow = (LevelKind, f64, Option<f64>, &'static str);

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
            (Hbm, 7.4e12, Some(192.0 * GIB), BOOK_TPU),
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
            (Bf16, 7.1e13, Some(1.42e14), "NVIDIA Ampere GA102 whitepaper, RTX 3090 (bf16 with fp32 accumulate, dense)"),
            (Fp16, 1.42e14, Some(2.84e14), "NVIDIA Ampere GA102 whitepaper, RTX 3090 (fp16 with fp16 accumulate, dense; 7.1e13 with fp32 accumulate; the 2.68e14-2.85e14 figures quoted online are sparse)"),
            (Int8, 2.84e14, Some(5.68e14), GA102),
            (Int4, 5.68e14, Some(1.136e15), GA102),
        ],
        vector: Some((Fp32, 3.56e13, None, GA102)),
        levels: &[
            (Hbm, 9.36e11, Some(24e9), "NVIDIA GeForce RTX 3090 specifications (24 GB GDDR6X, 936 GB/s)"),
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
        peaks: &[(Bf16, 1.835e15, None, GAUDI3), (Fp8, 1.835e15, None, GAUDI3)],
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
