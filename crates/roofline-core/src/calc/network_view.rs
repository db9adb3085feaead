//! [`NetworkView`]: the network roofline's results as the calculator
//! shows them, one row per quantity.

use crate::analysis::CriticalSize;
use crate::format;
use crate::network::NetworkAnalysis;
use crate::report::{self, ResultRow};

/// The network roofline's results, formatted.
#[derive(Debug, Clone, PartialEq)]
pub struct NetworkView {
    /// The computation.
    pub analysis: NetworkAnalysis,
    /// Rows: per-chip FLOPs, bytes sent, T_math, T_comms, bounds, threshold.
    pub rows: Vec<ResultRow>,
    /// The regime sentence: the link against the math.
    pub regime: String,
    /// Which of the chip's three times binds, in a sentence.
    pub binding: String,
    /// The model's assumptions (the collective's).
    pub assumptions: &'static str,
}

fn net_row(key: &'static str, label: &str, value: f64, text: String, meaning: &str) -> ResultRow {
    ResultRow {
        key,
        label: label.to_string(),
        value: Some(value).filter(|v| v.is_finite()),
        text,
        meaning: meaning.to_string(),
    }
}

/// The network roofline's rows and sentences for `n`, formatted: what the
/// app's network chunk shows (the numbers are computed in the first load,
/// the words come with the chunk).
pub fn network_view(n: NetworkAnalysis) -> NetworkView {
    let d = n.shard_dim.clone();
    let threshold = report::critical_text(&d, &n.threshold);
    let threshold_value = match n.threshold {
        CriticalSize::At { size, .. } => size,
        _ => f64::NAN,
    };
    let link = n.link.name();
    let mem = n.memory_name;
    let sent = match n.collective {
        crate::network::Collective::Once => {
            "Its partial result, sent once over the link.".to_string()
        }
        crate::network::Collective::Ring => format!(
            "2(N−1)/N = {} × its partial result ({}): a ring all-reduce.",
            format::sig(n.bytes_sent / n.partial_bytes, 4),
            format::bytes(n.partial_bytes)
        ),
    };
    let rows = vec![
        net_row(
            "net-flops",
            "FLOPs per chip",
            n.flops_per_chip,
            format::flops(n.flops_per_chip),
            "Each chip does its share of the sum.",
        ),
        net_row(
            "net-t-math",
            "T_math per chip",
            n.t_math,
            format::seconds(n.t_math),
            "FLOPs per chip ÷ peak.",
        ),
        net_row(
            "net-memory-bytes",
            &format!("{mem} bytes per chip"),
            n.memory_bytes,
            format::bytes(n.memory_bytes),
            &format!("Its share of the inputs read from {mem}, and its partial result written there."),
        ),
        net_row(
            "net-t-memory",
            &format!("T_{mem} per chip"),
            n.t_memory,
            format::seconds(n.t_memory),
            &format!("{mem} bytes per chip ÷ {mem} bandwidth: each chip's own memory bound."),
        ),
        net_row("net-bytes", "Bytes sent per chip", n.bytes_sent, format::bytes(n.bytes_sent), &sent),
        net_row(
            "net-t-comms",
            &format!("T_comms over {link}"),
            n.t_comms,
            format::seconds(n.t_comms),
            "Bytes sent ÷ link bandwidth (one direction).",
        ),
        net_row(
            "net-t-lower",
            "Lower bound per chip",
            n.t_lower,
            format::seconds(n.t_lower),
            &format!("max(T_math, T_{mem}, T_comms): the three overlap perfectly; the slowest decides."),
        ),
        net_row(
            "net-critical",
            &format!("Threshold on {d}"),
            threshold_value,
            threshold,
            &format!("Above it each chip's math takes longer than its send, so the link hides behind the math; below it the link is the slower. It depends on {d}, not on B."),
        ),
    ];
    // The link against the math only: a comparison, not a verdict (the
    // binding, with the memory too, is the one verdict).
    let regime = format!(
        "Over {}: network intensity {} against its critical {}, so {}.",
        n.link,
        format::intensity(n.intensity),
        format::intensity(n.critical_intensity),
        match n.regime {
            crate::analysis::Regime::Compute => "each chip's math takes longer than its send",
            crate::analysis::Regime::Bandwidth => "each chip's send takes longer than its math",
        }
    );
    let (slowest, first, second) = match n.binding {
        crate::network::NetBinding::Link => (
            format!("the send over {link}"),
            ("math", n.t_math),
            (mem, n.t_memory),
        ),
        crate::network::NetBinding::Memory => {
            (mem.to_string(), ("math", n.t_math), (link, n.t_comms))
        }
        crate::network::NetBinding::Math => {
            ("the math".to_string(), (mem, n.t_memory), (link, n.t_comms))
        }
    };
    let binding = format!(
        "Per chip, {slowest} is the slowest: {}, against {} for {} and {} for {}. The split operation is bound by {slowest}.",
        format::seconds(n.t_lower),
        format::seconds(first.1),
        first.0,
        format::seconds(second.1),
        second.0,
    );
    NetworkView {
        analysis: n.clone(),
        assumptions: n.collective.assumptions(),
        rows,
        regime,
        binding,
    }
}
