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
//! Assumptions (see also [`ASSUMPTIONS`]):
//! * each chip sends its partial output once, over one link, in one
//!   direction, at the output's data type;
//! * the additions that combine the partials are ignored;
//! * for more than two chips the same per-chip rule is used. It is a lower
//!   bound on the communication time: it ignores how a real reduction is
//!   organised (a ring or a tree sends more than one partial per chip, or
//!   takes several steps).

use crate::analysis::{solve, CriticalSize, Regime, Scenario};
use crate::format::clip;
use crate::roofline;
use crate::small::Join;
use crate::{CoreError, DType, LevelKind};

/// The assumptions of the network roofline, ready to show under a result.
pub const ASSUMPTIONS: &str = "Each chip works on 1/N of the summed dimension and sends its \
partial result once, over one link, in one direction. The additions that combine the partial \
results are not counted. With more than two chips this is a lower bound on the communication \
time: a real reduction over a ring or a tree moves more data or takes several steps.";

/// The network roofline of one scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct NetworkAnalysis {
    /// Number of chips the shard dimension is split over.
    pub chips: u32,
    /// The link the partial outputs travel over.
    pub link: LevelKind,
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
    /// Bytes each chip sends: its partial output.
    pub bytes_sent: f64,
    /// FLOPs per chip ÷ bytes sent per chip.
    pub intensity: f64,
    /// Peak ÷ link bandwidth.
    pub critical_intensity: f64,
    /// FLOPs per chip ÷ peak, seconds.
    pub t_math: f64,
    /// Bytes sent ÷ link bandwidth, seconds.
    pub t_comms: f64,
    /// max(T_math, T_comms).
    pub t_lower: f64,
    /// T_math + T_comms.
    pub t_upper: f64,
    /// Compute-bound iff intensity > critical intensity.
    pub regime: Regime,
    /// FLOPs/s per chip: min(peak, intensity × bandwidth).
    pub attained: f64,
    /// Where the regime changes, in terms of the full size of the shard
    /// dimension (for the chapter's example, `D = N × peak / bandwidth`).
    pub threshold: CriticalSize,
}

/// The network roofline of `s` with `shard_dim` split over `chips` chips
/// that exchange partial outputs over `link`.
pub fn network(
    s: &Scenario,
    shard_dim: &str,
    chips: u32,
    link: LevelKind,
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
    let flops_per_chip = counts.flops / n;
    let bytes_sent = counts.bytes_written;
    let intensity = flops_per_chip / bytes_sent;
    let critical_intensity = peak / bandwidth;
    let t_math = flops_per_chip / peak;
    let t_comms = bytes_sent / bandwidth;
    let threshold = solve(lin.flops.scale(1.0 / n), lin.bytes_written, peak, bandwidth)?;
    let out = NetworkAnalysis {
        chips,
        link,
        shard_dim: shard_dim.to_string(),
        shard_size,
        shard_per_chip: shard_size / n,
        compute_dtype: link_scenario.resolved_dtype(),
        peak,
        bandwidth,
        flops_total: counts.flops,
        flops_per_chip,
        bytes_sent,
        intensity,
        critical_intensity,
        t_math,
        t_comms,
        t_lower: t_math.max(t_comms),
        t_upper: t_math + t_comms,
        regime: Regime::of(intensity, critical_intensity),
        attained: roofline::attained(peak, bandwidth, intensity),
        threshold,
    };
    let finite = [
        out.shard_per_chip,
        out.intensity,
        out.t_math,
        out.t_comms,
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
