//! The texts of the catalogue's sources, by [`Source`] index: the chapter
//! or the vendor's sheet each number comes from. Only the chip's numbers
//! (a chunk of the app) read them, through [`Source::text`].

use super::Source;

/// Every source's text; index 0 is a number the user set.
const TEXTS: [&str; 46] = [
    "set by you",
    "How To Scale Your Model, TPU chapter, 'TPU specs' table",
    "How To Scale Your Model, TPU chapter (PCIe to host, about 1.6e10 B/s per chip; 3.2e10 on v6e)",
    "How To Scale Your Model, TPU chapter (DCN per chip: 6.25e9 B/s; 3.125e9 on v5e; 1.25e10 on v6e and TPU7x)",
    "How To Scale Your Model, TPU chapter, 'TPU specs' table (ICI per link, one direction; bidirectional is 2x)",
    "How To Scale Your Model, TPU chapter: 128 MiB VMEM at about 22x HBM bandwidth on v5e",
    "Google Cloud TPU v3 documentation: 123 TFLOPS bf16 per chip (the book's table: 1.4e14)",
    "Google Cloud TPU v4 documentation: 275 TFLOPS bf16 or int8, 32 GiB at 1,200 GB/s",
    "How To Scale Your Model, TPU chapter (Google's v5e documentation: 197 TFLOPS bf16, 393 TOPS int8, 819 GB/s)",
    "How To Scale Your Model, TPU chapter (Google's v5p documentation: 459 TFLOPS, 95 GiB at 2,765 GB/s)",
    "How To Scale Your Model, TPU chapter (Google's v6e documentation: 918 TFLOPS bf16, 1,836 TOPS int8, 1,638 GB/s)",
    "Google Cloud TPU7x documentation: 2,307 TFLOPS bf16, 4,614 fp8, 192 GiB of HBM (the book: 2.30e15, 4.61e15 as int8, and 192 GB); HBM bandwidth 7.4e12 B/s from the book's TPU chapter",
    "derived: 2 cores x 1,024 lanes x 2 ALUs (as v4) x 0.94 GHz (123 TFLOPS over 4 MXUs)",
    "derived: 2 cores x 1,024 lanes x 2 ALUs (the book) x 1.05 GHz (275 TFLOPS over 8 MXUs)",
    "derived: 1 core x 1,024 lanes x 4 ALUs (as v5p) x 1.5 GHz (the book)",
    "derived: 2 cores x 1,024 lanes x 4 ALUs (the book) x 1.75 GHz (459 TFLOPS over 8 MXUs); the book: about 1.4e13",
    "NVIDIA A100 Tensor Core GPU datasheet, 80 GB SXM (the book: 3.1e14 and 2.0e12 B/s)",
    "NVIDIA H100 Tensor Core GPU datasheet, SXM",
    "NVIDIA H100 datasheet: 67 TFLOPS fp32, a multiply-add as 2 FLOPs (the book's 3.35e13 counts it once)",
    "NVIDIA H200 Tensor Core GPU datasheet, SXM (compute as H100 SXM)",
    "NVIDIA Blackwell technical brief, HGX B200 per GPU (the book rounds bf16 to 2.3e15)",
    "NVIDIA Blackwell technical brief: 75 TFLOPS fp32 (the book: 8e13)",
    "NVIDIA Blackwell technical brief, HGX B300 per GPU (int8 as listed: 0.15 POPS)",
    "NVIDIA GB200 NVL72: rack figures over 72 GPUs",
    "AMD ROCm documentation, MI300 microarchitecture: peak table of the MI300X OAM",
    "AMD Instinct MI325X data sheet (compute as MI300X; 256 GB HBM3E at 6 TB/s)",
    "AMD Instinct MI355X product page (256 CUs at 2.4 GHz reproduce every figure)",
    "AMD: 7 Infinity Fabric links to the other 7 GPUs, 64 GB/s each way (76.8 on MI355X)",
    "AWS Neuron documentation, Trainium2 architecture (sparse: up to 4:16 sparsity, not 2x)",
    "AWS Neuron documentation: NeuronLink-v3 1,024 GB/s per chip in an instance, taken as both ways",
    "AWS Neuron documentation: EFAv3 3,200 Gb/s per 16 chips",
    "AWS Neuron documentation: Vector Engine 1 TFLOPS fp32 per core, 8 cores",
    "Intel Gaudi 3 (Hot Chips 2024): 1,835 TFLOPS bf16 and fp8 (matrix engines), 128 GB at 3.67 TB/s",
    "Intel Gaudi 3 (Hot Chips 2024): 28.7 TFLOPS bf16 on the TPCs; no fp32 figure",
    "Intel Gaudi documentation: 21 scale-up, 3 scale-out ports of 200 Gb/s",
    "NVIDIA: NVLink per GPU, both ways: 1.8 TB/s (Blackwell), 900 GB/s (H100), 600 GB/s (A100)",
    "PCIe Gen4 x16: 64 GB/s both directions, 32 GB/s each (NVIDIA datasheet)",
    "PCIe Gen5 x16: 128 GB/s both directions, 64 GB/s each (vendor datasheet)",
    "PCIe Gen6 x16: 256 GB/s both directions, 128 GB/s each (NVIDIA, HGX B300)",
    "How To Scale Your Model, GPU chapter (400 Gb/s InfiniBand NIC per GPU)",
    "NVIDIA DGX A100 (200 Gb/s HDR InfiniBand NIC per GPU)",
    "NVIDIA HGX B300 (ConnectX-8, 800 Gb/s per GPU)",
    "NVIDIA Ampere GA102 whitepaper, GeForce RTX 3090 column (dense; sparse is 2x)",
    "NVIDIA Ampere GA102 whitepaper, RTX 3090 (bf16 with fp32 accumulate, dense)",
    "NVIDIA Ampere GA102 whitepaper, RTX 3090 (fp16 with fp16 accumulate, dense; 7.1e13 with fp32 accumulate; the 2.68e14-2.85e14 figures quoted online are sparse)",
    "NVIDIA GeForce RTX 3090 specifications (24 GB GDDR6X, 936 GB/s)",
];

impl Source {
    /// What the number comes from, in words.
    // A function of its own, not inlined, so that the size rules see where
    // it is (the chip chunk's, tests/size-rules.mjs).
    #[inline(never)]
    pub fn text(self) -> &'static str {
        TEXTS.get(usize::from(self.0)).copied().unwrap_or("")
    }
}
