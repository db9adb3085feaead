//! Every preset's numbers against its sources' figures, written here as the
//! sources print them (TFLOPS, GB/s, GB), so that a typo in the catalogue
//! or a figure taken from the wrong column fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use roofline_core::hardware::{catalogue, preset};
use roofline_core::{DType, LevelKind};

/// A source's figures for one chip: dense peaks (TFLOPS), vendor sparse
/// figures (TFLOPS), the vector unit (TFLOPS), bandwidths (GB/s, one
/// direction) and HBM capacity (GB).
struct Figures {
    id: &'static str,
    dense: &'static [(DType, f64)],
    sparse: &'static [(DType, f64)],
    vector: Option<f64>,
    gbps: &'static [(LevelKind, f64)],
    hbm_gb: f64,
}

use DType::*;
use LevelKind::*;

const GIB_IN_GB: f64 = 1.073741824;

const FIGURES: &[Figures] = &[
    // Google Cloud TPU v3: 123 TFLOPS; the book's 900 GB/s HBM, 32 GB.
    Figures {
        id: "v3",
        dense: &[(Bf16, 123.0), (Int8, 123.0)],
        sparse: &[],
        vector: Some(3.8),
        gbps: &[(Hbm, 900.0), (Ici, 100.0), (Pcie, 16.0), (Dcn, 6.25)],
        hbm_gb: 32.0,
    },
    // Google Cloud TPU v4: 275 TFLOPS bf16 or int8, 1,200 GB/s.
    Figures {
        id: "v4p",
        dense: &[(Bf16, 275.0), (Int8, 275.0)],
        sparse: &[],
        vector: Some(4.3),
        gbps: &[(Hbm, 1200.0), (Ici, 45.0), (Pcie, 16.0), (Dcn, 6.25)],
        hbm_gb: 32.0,
    },
    // The book's v5e (Google: 197 TFLOPS), VMEM at about 22x HBM.
    Figures {
        id: "v5e",
        dense: &[(Bf16, 197.0), (Int8, 394.0)],
        sparse: &[],
        vector: Some(6.1),
        gbps: &[
            (Hbm, 820.0),
            (Vmem, 18000.0),
            (Ici, 45.0),
            (Pcie, 16.0),
            (Dcn, 3.125),
        ],
        hbm_gb: 16.0,
    },
    // The book's v5p (Google: 459 TFLOPS); its VPU about 1.4e13.
    Figures {
        id: "v5p",
        dense: &[(Bf16, 459.0), (Int8, 918.0)],
        sparse: &[],
        vector: Some(14.3),
        gbps: &[(Hbm, 2800.0), (Ici, 90.0), (Pcie, 16.0), (Dcn, 6.25)],
        hbm_gb: 96.0,
    },
    Figures {
        id: "v6e",
        dense: &[(Bf16, 920.0), (Int8, 1840.0)],
        sparse: &[],
        vector: None,
        gbps: &[(Hbm, 1600.0), (Ici, 90.0), (Pcie, 32.0), (Dcn, 12.5)],
        hbm_gb: 32.0,
    },
    // Google Cloud TPU7x: 2,307 TFLOPS bf16, 4,614 fp8, 192 GiB.
    Figures {
        id: "tpu7x",
        dense: &[(Bf16, 2307.0), (Fp8, 4614.0)],
        sparse: &[],
        vector: None,
        gbps: &[(Hbm, 7400.0), (Ici, 90.0), (Pcie, 16.0), (Dcn, 12.5)],
        hbm_gb: 192.0 * GIB_IN_GB,
    },
    // NVIDIA A100 80 GB SXM datasheet: 312 / 624* TFLOPS, 19.5 fp32, 2,039 GB/s.
    Figures {
        id: "a100",
        dense: &[(Fp32, 19.5), (Bf16, 312.0), (Fp16, 312.0), (Int8, 624.0)],
        sparse: &[(Bf16, 624.0), (Int8, 1248.0)],
        vector: Some(19.5),
        gbps: &[(Hbm, 2039.0), (NvLink, 300.0), (Pcie, 32.0), (Dcn, 25.0)],
        hbm_gb: 80.0,
    },
    // NVIDIA H100 SXM datasheet: 1,979* bf16, 3,958* fp8, 67 fp32, 3.35 TB/s.
    Figures {
        id: "h100",
        dense: &[
            (Fp32, 67.0),
            (Bf16, 989.0),
            (Fp16, 989.0),
            (Fp8, 1979.0),
            (Int8, 1979.0),
        ],
        sparse: &[(Bf16, 1979.0), (Fp8, 3958.0)],
        vector: Some(67.0),
        gbps: &[(Hbm, 3350.0), (NvLink, 450.0), (Pcie, 64.0), (Dcn, 50.0)],
        hbm_gb: 80.0,
    },
    Figures {
        id: "h200",
        dense: &[(Fp32, 67.0), (Bf16, 989.0), (Fp8, 1979.0)],
        sparse: &[(Bf16, 1979.0)],
        vector: Some(67.0),
        gbps: &[(Hbm, 4800.0), (NvLink, 450.0)],
        hbm_gb: 141.0,
    },
    // NVIDIA Blackwell technical brief, HGX B200 per GPU: 2.25 / 4.5 PF bf16, 9 / 18 fp4, 75 TF fp32.
    Figures {
        id: "b200",
        dense: &[
            (Fp32, 75.0),
            (Bf16, 2250.0),
            (Fp8, 4500.0),
            (Int8, 4500.0),
            (Fp4, 9000.0),
        ],
        sparse: &[(Bf16, 4500.0), (Fp4, 18000.0)],
        vector: Some(75.0),
        gbps: &[(Hbm, 8000.0), (NvLink, 900.0), (Pcie, 64.0)],
        hbm_gb: 192.0,
    },
    // HGX B300 per GPU: 2.25 / 4.5 PF bf16, 4.5 / 9 fp8, 0.15 / 0.3 POPS int8, 14 / 18 fp4, 270 GB at 7.7 TB/s.
    Figures {
        id: "b300",
        dense: &[
            (Fp32, 75.0),
            (Bf16, 2250.0),
            (Fp8, 4500.0),
            (Int8, 150.0),
            (Fp4, 14000.0),
        ],
        sparse: &[(Bf16, 4500.0), (Int8, 300.0), (Fp4, 18000.0)],
        vector: Some(75.0),
        gbps: &[(Hbm, 7700.0), (NvLink, 900.0), (Pcie, 128.0), (Dcn, 100.0)],
        hbm_gb: 270.0,
    },
    // GB200 NVL72 over 72 GPUs: 180 / 360 PF bf16, 720 / 1,440 fp4, 576 TB/s, 130 TB/s NVLink both ways.
    Figures {
        id: "gb200",
        dense: &[
            (Fp32, 80.0),
            (Bf16, 2500.0),
            (Fp8, 5000.0),
            (Int8, 5000.0),
            (Fp4, 10000.0),
        ],
        sparse: &[(Bf16, 5000.0), (Fp4, 20000.0)],
        vector: Some(80.0),
        gbps: &[(Hbm, 8000.0), (NvLink, 900.0)],
        hbm_gb: 186.0,
    },
    // AMD ROCm MI300X peak table: 1,307.4 bf16, 2,614.9 fp8, 163.4 fp32 vector; 5.3 TB/s; 7 links of 64 GB/s.
    Figures {
        id: "mi300x",
        dense: &[
            (Fp32, 163.4),
            (Bf16, 1307.4),
            (Fp16, 1307.4),
            (Fp8, 2614.9),
            (Int8, 2614.9),
        ],
        sparse: &[(Fp8, 5229.8)],
        vector: Some(163.4),
        gbps: &[(Hbm, 5300.0), (Fabric, 448.0), (Pcie, 64.0)],
        hbm_gb: 192.0,
    },
    Figures {
        id: "mi325x",
        dense: &[(Bf16, 1307.4), (Fp8, 2614.9)],
        sparse: &[(Fp8, 5229.8)],
        vector: Some(163.4),
        gbps: &[(Hbm, 6000.0), (Fabric, 448.0)],
        hbm_gb: 256.0,
    },
    // AMD MI355X: 2.5 PF bf16 (2,516.6), 5 fp8, 10.1 fp4, 157.3 fp32 vector; 288 GB at 8 TB/s.
    Figures {
        id: "mi355x",
        dense: &[(Bf16, 2516.6), (Fp8, 5033.2), (Fp4, 10066.3)],
        sparse: &[(Fp8, 10066.3)],
        vector: Some(157.3),
        gbps: &[(Hbm, 8000.0), (Fabric, 537.6)],
        hbm_gb: 288.0,
    },
    // NVIDIA GA102 whitepaper, RTX 3090: 35.6 fp32, 71 bf16, 142 fp16 (fp16 accumulate), 284 int8; 936 GB/s.
    Figures {
        id: "rtx3090",
        dense: &[
            (Fp32, 35.6),
            (Bf16, 71.0),
            (Fp16, 142.0),
            (Int8, 284.0),
            (Int4, 568.0),
        ],
        sparse: &[(Fp16, 284.0)],
        vector: Some(35.6),
        gbps: &[(Hbm, 936.0), (Pcie, 32.0)],
        hbm_gb: 24.0,
    },
    // AWS Trainium2: 667 bf16, 1,299 fp8, 2,563 sparse, 181 fp32; 8 cores x 1 TFLOPS vector; 2.9 TB/s, 96 GiB.
    Figures {
        id: "trn2",
        dense: &[(Fp32, 181.0), (Bf16, 667.0), (Fp8, 1299.0)],
        sparse: &[(Bf16, 2563.0), (Fp8, 2563.0)],
        vector: Some(8.0),
        gbps: &[(Hbm, 2900.0), (Fabric, 512.0), (Dcn, 25.0)],
        hbm_gb: 96.0 * GIB_IN_GB,
    },
    // Intel Gaudi 3: 1,835 bf16 and fp8, 28.7 bf16 vector, 3.67 TB/s, 21 + 3 ports of 200 Gb/s, PCIe Gen5.
    Figures {
        id: "gaudi3",
        dense: &[(Bf16, 1835.0), (Fp8, 1835.0)],
        sparse: &[],
        vector: Some(28.7),
        gbps: &[(Hbm, 3670.0), (Fabric, 525.0), (Pcie, 64.0), (Dcn, 75.0)],
        hbm_gb: 128.0,
    },
];

fn close(got: f64, want: f64, what: &str) {
    assert!(
        (got / want - 1.0).abs() < 1e-9,
        "{what}: the catalogue has {got:e}, the source {want:e}"
    );
}

#[test]
fn every_preset_matches_its_sources_figures() {
    for f in FIGURES {
        let chip = preset(f.id).unwrap_or_else(|| panic!("{} is a preset", f.id));
        for &(d, tflops) in f.dense {
            close(
                chip.peak(d).unwrap(),
                tflops * 1e12,
                &format!("{} {d} dense", f.id),
            );
        }
        for &(d, tflops) in f.sparse {
            let s = chip.peak_entry(d).and_then(|p| p.sparse);
            close(
                s.unwrap_or(0.0),
                tflops * 1e12,
                &format!("{} {d} sparse", f.id),
            );
        }
        match (f.vector, &chip.vector) {
            (Some(t), Some(v)) => close(v.dense, t * 1e12, &format!("{} vector unit", f.id)),
            (None, None) => {}
            (want, got) => panic!(
                "{}: vector unit {want:?} in the source, {got:?} in the catalogue",
                f.id
            ),
        }
        for &(k, gbps) in f.gbps {
            close(
                chip.bandwidth(k).unwrap(),
                gbps * 1e9,
                &format!("{} {k}", f.id),
            );
        }
        let cap = chip.level(Hbm).unwrap().capacity.unwrap();
        close(cap, f.hbm_gb * 1e9, &format!("{} HBM capacity", f.id));
    }
    // Every preset is checked here, and every one has a source for each number.
    for chip in catalogue() {
        assert!(
            FIGURES.iter().any(|f| f.id == chip.id),
            "{} has no figures here",
            chip.id
        );
        assert!(chip.peaks.iter().all(|p| p.source.text().len() > 10));
        assert!(chip.levels.iter().all(|l| l.source.text().len() > 10));
        assert!(chip
            .vector
            .as_ref()
            .is_none_or(|v| v.source.text().len() > 10));
    }
}

#[test]
fn sparse_figures_are_never_the_ones_used() {
    for chip in catalogue() {
        for p in &chip.peaks {
            if let Some(s) = p.sparse {
                assert!(
                    s > p.dense,
                    "{} {}: sparse {s:e} above dense {:e}",
                    chip.id,
                    p.dtype,
                    p.dense
                );
                assert_eq!(chip.peak(p.dtype).unwrap(), p.dense);
            }
        }
    }
}

#[test]
fn the_vector_unit_is_slower_than_the_matrix_unit() {
    for chip in catalogue() {
        if let Some(v) = &chip.vector {
            let matrix = chip.peak(DType::Bf16).unwrap();
            assert!(
                v.dense < matrix,
                "{}: vector {:e} against bf16 {matrix:e}",
                chip.id,
                v.dense
            );
        }
    }
}
