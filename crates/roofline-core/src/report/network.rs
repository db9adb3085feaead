//! The network roofline's steps in the derivation: what each chip computes
//! and sends when the summed-over dimension is split over several chips.

use crate::analysis::{byte_terms, Scenario};
use crate::format::{self, sci};
use crate::network::{Collective, NetBinding, NetworkAnalysis};

use super::derivation::{sum_dotted, sum_numbers};
use super::{step, Step};

/// The derivation's network steps for `n`, the split of `s` over chips:
/// FLOPs per chip, the partial output each one sends, the network
/// intensity against the link's critical intensity, the three times per
/// chip (math, its own memory, the link) and the slowest.
pub fn network_steps(s: &Scenario, n: &NetworkAnalysis) -> Vec<Step> {
    let terms = byte_terms(&s.op);
    let output = &terms[terms.len().saturating_sub(1)..];
    let link = n.link.name();
    let mem = n.memory_name;
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
        match n.collective {
            Collective::Once => step(
                "Network: bytes each chip sends (its partial sum of the output)",
                sum_dotted(output),
                sum_numbers(output, &s.sizes),
                format!("{} bytes", sci(n.bytes_sent)),
            ),
            Collective::Ring => step(
                "Network: bytes each chip sends in a ring all-reduce",
                format!("2(N−1)/N × ({})", sum_dotted(output)),
                format!("2×{}/{chips} × {}", chips - 1, sci(n.partial_bytes)),
                format!("{} bytes", sci(n.bytes_sent)),
            ),
        },
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
        step(
            format!("Network: {mem} bytes per chip (its share of the inputs, its partial output)",),
            format!("the bytes above with {} ÷ {chips}", n.shard_dim),
            format!(
                "{} = {} ÷ {chips}",
                n.shard_dim,
                format::sig(n.shard_size, 6)
            ),
            format!("{} bytes", sci(n.memory_bytes)),
        ),
        step(
            format!("Network: T_{mem} per chip"),
            format!("{mem} bytes per chip ÷ {mem} bandwidth"),
            format!("{} ÷ {}", sci(n.memory_bytes), sci(n.memory_bandwidth)),
            format::seconds(n.t_memory),
        ),
        step(
            "Network: the slowest per chip binds",
            format!("max(T_math, T_{mem}, T_comms)"),
            format!(
                "max({}, {}, {})",
                format::seconds(n.t_math),
                format::seconds(n.t_memory),
                format::seconds(n.t_comms)
            ),
            format!(
                "{} ({})",
                format::seconds(n.t_lower),
                match n.binding {
                    NetBinding::Math => "the math".to_string(),
                    NetBinding::Memory => mem.to_string(),
                    NetBinding::Link => link.to_string(),
                }
            ),
        ),
    ]
}
