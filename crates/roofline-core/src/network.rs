//! The network roofline: a contraction split over several chips.
//!
//! One contracted dimension (the *shard dimension*, `D` in the chapter's
//! example) is cut into `N` equal pieces, one per chip. Each chip contracts
//! its piece, so it does `FLOPs / N` of the math, and ends with a *partial*
//! output of the full output shape that must be combined with the others.
//! The bandwidth that matters is now the link between chips (ICI, NVLink or
//! DCN), not memory.
//!
//! The chapter's two-chip matmul `bf16[B,D] * bf16[D,F] -> bf16[B,F]` on TPU
//! v5e: each chip does `2BDF / 2` FLOPs, so `T_math = BDF / 1.97e14`, and sends
//! its bf16 partial sum, `2BF` bytes, so `T_comms = 2BF / 4.5e10`. The
//! comparison becomes `D / 2` against `1.97e14 / 4.5e10`: the threshold
//! depends on `D`, not on `B`.
//!
//! Each chip also reads its own share of the inputs from its memory and
//! writes its partial output there: that memory's time per chip
//! ([`NetworkAnalysis::t_memory`]) is the third bound, beside the math and
//! the link; the slowest of the three binds.
//!
//! Assumptions (see also [`Collective::assumptions`]):
//! * the partial outputs are combined by a [`Collective`]: either each chip
//!   sends its partial once (the chapter's count; what two chips trading
//!   halves, or a reduction done in the network's switches, needs), or a
//!   ring all-reduce, where each chip sends 2(N−1)/N of its partial;
//! * each byte crosses one link in one direction, at the output's type;
//! * the additions that combine the partials are ignored.

use crate::analysis::{solve, CriticalSize, Regime, Scenario};
use crate::format::clip;
use crate::roofline;
use crate::small::Join;
use crate::{CoreError, DType, LevelKind};

/// How the chips' partial outputs are combined, which sets the bytes each
/// chip sends over the link.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Collective {
    /// Each chip sends its partial output once: the chapter's count. Two
    /// chips trading their partials need exactly this; with more, it is
    /// what a reduction inside the network's switches needs (NVLink SHARP,
    /// say), and a lower bound for any other.
    #[default]
    Once,
    /// A ring all-reduce: a reduce-scatter then an all-gather, each moving
    /// (N−1)/N of the partial per chip, so 2(N−1)/N of it in all; every
    /// chip ends with the whole sum.
    Ring,
}

impl Collective {
    /// Every collective, in the order offered.
    pub const ALL: [Collective; 2] = [Collective::Once, Collective::Ring];

    /// The link key (`coll=`): `once` or `ring`.
    pub fn key(self) -> &'static str {
        match self {
            Collective::Once => "once",
            Collective::Ring => "ring",
        }
    }

    /// The collective with link key `key`.
    pub fn from_key(key: &str) -> Option<Collective> {
        Collective::ALL.into_iter().find(|c| c.key() == key)
    }

    /// Its name, for a menu and the results.
    pub fn name(self) -> &'static str {
        match self {
            Collective::Once => "each chip sends its partial once",
            Collective::Ring => "ring all-reduce",
        }
    }

    /// The bytes each chip sends, as a multiple of its partial output.
    pub fn send_factor(self, chips: u32) -> f64 {
        let n = f64::from(chips.max(1));
        match self {
            Collective::Once => 1.0,
            Collective::Ring => 2.0 * (n - 1.0) / n,
        }
    }

    /// The factor as a formula for the derivation.
    pub fn factor_formula(self) -> &'static str {
        match self {
            Collective::Once => "partial output",
            Collective::Ring => "2(N−1)/N × partial output",
        }
    }

    /// The assumptions behind the link's bound, ready to show under it.
    pub fn assumptions(self) -> &'static str {
        match self {
            Collective::Once => "Each chip works on 1/N of the summed dimension and sends its partial result once, over one link, in one direction: the chapter's count. Two chips trading partials need exactly this; with more chips, it is what a reduction done inside the network's switches needs, and a lower bound for any other way of summing. A ring all-reduce (choose it above) sends 2(N−1)/N times as much. The additions that combine the partial results are not counted.",
            Collective::Ring => "Each chip works on 1/N of the summed dimension; the partial results are summed by a ring all-reduce: a reduce-scatter and then an all-gather, each passing (N−1)/N of a partial around the ring, so each chip sends 2(N−1)/N of its partial result, over one link in one direction, and every chip ends with the whole sum. The additions that combine the partial results are not counted.",
        }
    }
}

/// Which of a chip's three times is the longest in the network case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NetBinding {
    /// The math: FLOPs per chip ÷ peak.
    Math,
    /// The chip's own memory: its share of the inputs and its partial output.
    Memory,
    /// The link between chips.
    Link,
}

impl NetBinding {
    /// The `data-value` of the result: `math`, `memory` or `link`.
    pub fn key(self) -> &'static str {
        match self {
            NetBinding::Math => "math",
            NetBinding::Memory => "memory",
            NetBinding::Link => "link",
        }
    }
}

/// The network roofline of one scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct NetworkAnalysis {
    /// Number of chips the shard dimension is split over.
    pub chips: u32,
    /// The link the partial outputs travel over.
    pub link: LevelKind,
    /// How the partial outputs are combined.
    pub collective: Collective,
    /// The contracted dimension that is split.
    pub shard_dim: String,
    /// Its full size.
    pub shard_size: f64,
    /// Its size on each chip: `shard_size / chips`.
    pub shard_per_chip: f64,
    /// The data type the math runs at.
    pub compute_dtype: DType,
    /// Peak FLOPs/s per chip.
    pub peak: f64,
    /// Link bandwidth, bytes/s, one direction.
    pub bandwidth: f64,
    /// FLOPs of the whole operation.
    pub flops_total: f64,
    /// FLOPs each chip does: `flops_total / chips`.
    pub flops_per_chip: f64,
    /// Bytes of each chip's partial output (the whole output's shape).
    pub partial_bytes: f64,
    /// Bytes each chip sends: its partial output × the collective's factor.
    pub bytes_sent: f64,
    /// The memory each chip reads and writes (the scenario's level).
    pub memory: LevelKind,
    /// What the chip calls that memory (`HBM`, `GDDR6X`).
    pub memory_name: &'static str,
    /// That memory's bandwidth, bytes/s.
    pub memory_bandwidth: f64,
    /// Bytes each chip reads (its share of the inputs) and writes (its
    /// partial output) in that memory.
    pub memory_bytes: f64,
    /// Memory bytes per chip ÷ memory bandwidth, seconds.
    pub t_memory: f64,
    /// FLOPs per chip ÷ bytes sent per chip.
    pub intensity: f64,
    /// Peak ÷ link bandwidth.
    pub critical_intensity: f64,
    /// FLOPs per chip ÷ peak, seconds.
    pub t_math: f64,
    /// Bytes sent ÷ link bandwidth, seconds.
    pub t_comms: f64,
    /// The least time per chip: max(T_math, T_memory, T_comms), all three
    /// overlapping.
    pub t_lower: f64,
    /// T_math + T_memory + T_comms: nothing overlapping.
    pub t_upper: f64,
    /// Which of the three is the longest.
    pub binding: NetBinding,
    /// Compute-bound iff intensity > critical intensity.
    pub regime: Regime,
    /// FLOPs/s per chip: min(peak, intensity × bandwidth).
    pub attained: f64,
    /// Where the regime changes, in terms of the full size of the shard
    /// dimension (for the chapter's example, `D = N × peak / bandwidth`).
    pub threshold: CriticalSize,
}

/// The network roofline of `s` with `shard_dim` split over `chips` chips
/// that exchange partial outputs over `link`, each sending its partial once
/// (the chapter's count, [`Collective::Once`]).
pub fn network(
    s: &Scenario,
    shard_dim: &str,
    chips: u32,
    link: LevelKind,
) -> Result<NetworkAnalysis, CoreError> {
    network_with(s, shard_dim, chips, link, Collective::Once)
}

/// [`network`] with the partial outputs combined by `collective`.
pub fn network_with(
    s: &Scenario,
    shard_dim: &str,
    chips: u32,
    link: LevelKind,
    collective: Collective,
) -> Result<NetworkAnalysis, CoreError> {
    if chips < 2 {
        return Err(CoreError::Invalid(format!(
            "chips: the network roofline needs at least 2 chips (got {chips})"
        )));
    }
    let contracted = s.op.contracted_dims();
    if contracted.is_empty() {
        return Err(CoreError::Invalid(
            "this operation sums over no dimension, so splitting it leaves no partial results to send"
                .to_string(),
        ));
    }
    if !contracted.iter().any(|d| d == shard_dim) {
        return Err(CoreError::Invalid(format!(
            "shard dimension: {} is not summed over in this operation; pick {}",
            clip(shard_dim, 16),
            contracted.joined(" or ")
        )));
    }
    if !link.is_network() {
        return Err(CoreError::Invalid(format!(
            "link: {link} is not a link between chips; pick ICI, NVLink or DCN"
        )));
    }
    let counts = s.op.counts(&s.sizes)?;
    let lin = s.op.linear_counts(shard_dim, &s.sizes)?;
    let shard_size = s.sizes.get(shard_dim).copied().unwrap_or(f64::NAN);
    let mut link_scenario = s.clone();
    link_scenario.level = link;
    let (peak, bandwidth) = link_scenario.peak_and_bandwidth()?;
    let n = f64::from(chips);
    let factor = collective.send_factor(chips);
    let flops_per_chip = counts.flops / n;
    let partial_bytes = counts.bytes_written;
    let bytes_sent = partial_bytes * factor;
    let intensity = flops_per_chip / bytes_sent;
    let critical_intensity = peak / bandwidth;
    let t_math = flops_per_chip / peak;
    let t_comms = bytes_sent / bandwidth;
    let threshold = solve(
        lin.flops.scale(1.0 / n),
        lin.bytes_written.scale(factor),
        peak,
        bandwidth,
    )?;
    // Each chip's own memory traffic: the inputs with the split dimension
    // at its share, the partial output written whole.
    let mut shard_sizes = s.sizes.clone();
    shard_sizes.insert(shard_dim.to_string(), shard_size / n);
    let own = s.op.counts(&shard_sizes)?;
    let memory_bytes = own.bytes_read + own.bytes_written;
    let (_, memory_bandwidth) = s.peak_and_bandwidth()?;
    let t_memory = memory_bytes / memory_bandwidth;
    let t_lower = t_math.max(t_memory).max(t_comms);
    let binding = if t_comms >= t_math && t_comms >= t_memory {
        NetBinding::Link
    } else if t_memory >= t_math {
        NetBinding::Memory
    } else {
        NetBinding::Math
    };
    let out = NetworkAnalysis {
        chips,
        link,
        collective,
        shard_dim: shard_dim.to_string(),
        shard_size,
        shard_per_chip: shard_size / n,
        compute_dtype: link_scenario.resolved_dtype(),
        peak,
        bandwidth,
        flops_total: counts.flops,
        flops_per_chip,
        partial_bytes,
        bytes_sent,
        memory: s.level,
        memory_name: s.chip.level_name(s.level),
        memory_bandwidth,
        memory_bytes,
        t_memory,
        intensity,
        critical_intensity,
        t_math,
        t_comms,
        t_lower,
        t_upper: t_math + t_memory + t_comms,
        binding,
        regime: Regime::of(intensity, critical_intensity),
        attained: roofline::attained(peak, bandwidth, intensity),
        threshold,
    };
    let finite = [
        out.shard_per_chip,
        out.intensity,
        out.t_math,
        out.t_comms,
        out.t_memory,
        out.t_upper,
        out.attained,
    ]
    .iter()
    .all(|x| x.is_finite());
    if !finite {
        return Err(CoreError::Invalid(
            "the numbers are out of range: the network times cannot be computed".to_string(),
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;
    use crate::hardware::preset;
    use crate::op::Shortcut;

    fn matmul() -> Scenario {
        Scenario::shortcut(preset("v5e").unwrap(), Shortcut::Matmul)
    }

    #[test]
    fn two_chip_example() {
        let s = matmul();
        let n = network(&s, "D", 2, LevelKind::Ici).unwrap();
        let (b, d, f) = (256.0, 4096.0, 4096.0);
        assert!((n.t_math - b * d * f / 1.97e14).abs() / n.t_math < 1e-12);
        assert!((n.t_comms - 2.0 * b * f / 4.5e10).abs() / n.t_comms < 1e-12);
        match n.threshold {
            CriticalSize::At {
                size,
                compute_bound_above: true,
            } => assert!((size - 2.0 * 1.97e14 / 4.5e10).abs() < 1e-6),
            other => panic!("{other:?}"),
        }
        assert_eq!(n.regime, Regime::Bandwidth);
        // Each chip reads X[B, D/2] and Y[D/2, F] and writes its partial
        // Z[B, F], all bf16, from HBM at 8.2e11 bytes/s: about 24 µs,
        // against 46.6 µs over ICI, which binds.
        let own = 2.0 * (b * d / 2.0 + d / 2.0 * f + b * f);
        assert_eq!(n.memory_bytes, own);
        assert!((n.t_memory - own / 8.2e11).abs() / n.t_memory < 1e-12);
        assert!((n.t_memory * 1e6 - 24.3).abs() < 0.05, "{}", n.t_memory);
        assert!((n.t_comms * 1e6 - 46.6).abs() < 0.05, "{}", n.t_comms);
        assert_eq!(n.binding, NetBinding::Link);
        assert_eq!(n.t_lower, n.t_comms);
        assert_eq!(n.collective, Collective::Once);
    }

    #[test]
    fn a_ring_all_reduce_sends_2_n_minus_1_over_n_partials() {
        let s = matmul();
        for chips in [2u32, 4, 8] {
            let once = network(&s, "D", chips, LevelKind::Ici).unwrap();
            let ring = network_with(&s, "D", chips, LevelKind::Ici, Collective::Ring).unwrap();
            let k = 2.0 * f64::from(chips - 1) / f64::from(chips);
            assert!((ring.bytes_sent - k * once.bytes_sent).abs() < 1e-6);
            assert_eq!(ring.partial_bytes, once.partial_bytes);
            assert_eq!(ring.memory_bytes, once.memory_bytes);
            // The threshold on D scales with the bytes sent.
            match (once.threshold, ring.threshold) {
                (CriticalSize::At { size: a, .. }, CriticalSize::At { size: b, .. }) => {
                    assert!((b / a - k).abs() < 1e-9, "{chips}: {a} {b}");
                }
                other => panic!("{other:?}"),
            }
        }
        // With two chips a ring sends one partial, as the chapter counts.
        let two = network_with(&s, "D", 2, LevelKind::Ici, Collective::Ring).unwrap();
        assert_eq!(
            two.bytes_sent,
            network(&s, "D", 2, LevelKind::Ici).unwrap().bytes_sent
        );
        assert_eq!(Collective::from_key("ring"), Some(Collective::Ring));
        assert_eq!(Collective::from_key("tree"), None);
    }

    #[test]
    fn memory_binds_when_the_link_is_fast() {
        // With D large the math and the link shrink per chip against the
        // weights' share each chip reads: at B = 8 the memory binds.
        let mut s = matmul();
        s.sizes.insert("B".to_string(), 8.0);
        let n = network(&s, "D", 2, LevelKind::Ici).unwrap();
        assert_eq!(n.binding, NetBinding::Memory);
        assert_eq!(n.t_lower, n.t_memory);
    }

    #[test]
    fn errors() {
        let s = matmul();
        assert!(network(&s, "D", 1, LevelKind::Ici).is_err());
        assert!(network(&s, "B", 2, LevelKind::Ici)
            .unwrap_err()
            .to_string()
            .contains("pick D"));
        assert!(network(&s, "D", 2, LevelKind::NvLink).is_err());
        assert!(network(&s, "D", 2, LevelKind::Hbm).is_err());
    }
}
