//! The network roofline's steps in the derivation: what each chip computes
//! and sends when the summed-over dimension is split over several chips.

use crate::analysis::{byte_terms, Scenario};
use crate::format::{self, sci};
use crate::network::NetworkAnalysis;

use super::{step, sum_dotted, sum_numbers, Step};

/// The derivation's network steps for `n`, the split of `s` over chips:
/// FLOPs per chip, the partial output each one sends, the network
/// intensity against the link's critical intensity, and both times.
pub fn network_steps(s: &Scenario, n: &NetworkAnalysis) -> Vec<Step> {
    let terms = byte_terms(&s.op);
    let output = &terms[terms.len().saturating_sub(1)..];
    let link = n.link.name();
    let chips = n.chips;
    vec![
        step(
            format!(
                "Network: FLOPs per chip ({} split over {chips} chips)",
                n.shard_dim
            ),
            format!("FLOPs ÷ {chips}"),
            format!("{} ÷ {chips}", sci(n.flops_total)),
            format!("{} FLOPs", sci(n.flops_per_chip)),
        ),
        step(
            "Network: bytes each chip sends (its partial sum of the output)",
            sum_dotted(output),
            sum_numbers(output, &s.sizes),
            format!("{} bytes", sci(n.bytes_sent)),
        ),
        step(
            "Network intensity",
            "FLOPs per chip ÷ bytes sent",
            format!("{} ÷ {}", sci(n.flops_per_chip), sci(n.bytes_sent)),
            format::intensity(n.intensity),
        ),
        step(
            format!("Critical intensity of {link} (one direction)"),
            format!("peak ÷ {link} bandwidth"),
            format!("{} ÷ {}", sci(n.peak), sci(n.bandwidth)),
            format::intensity(n.critical_intensity),
        ),
        step(
            "Network: T_math per chip",
            "FLOPs per chip ÷ peak",
            format!("{} ÷ {}", sci(n.flops_per_chip), sci(n.peak)),
            format::seconds(n.t_math),
        ),
        step(
            format!("Network: T_comms over {link}"),
            format!("bytes sent ÷ {link} bandwidth"),
            format!("{} ÷ {}", sci(n.bytes_sent), sci(n.bandwidth)),
            format::seconds(n.t_comms),
        ),
    ]
}
