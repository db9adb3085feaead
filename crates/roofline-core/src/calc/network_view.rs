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
    /// The regime sentence.
    pub regime: String,
    /// The model's assumptions.
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

pub(super) fn network_view(n: NetworkAnalysis) -> NetworkView {
    let d = n.shard_dim.clone();
    let threshold = report::critical_text(&d, &n.threshold);
    let threshold_value = match n.threshold {
        CriticalSize::At { size, .. } => size,
        _ => f64::NAN,
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
            "net-bytes",
            "Bytes sent per chip",
            n.bytes_sent,
            format::bytes(n.bytes_sent),
            "Its partial result, sent once over the link.",
        ),
        net_row(
            "net-t-math",
            "T_math per chip",
            n.t_math,
            format::seconds(n.t_math),
            "FLOPs per chip ÷ peak.",
        ),
        net_row(
            "net-t-comms",
            &format!("T_comms over {}", n.link),
            n.t_comms,
            format::seconds(n.t_comms),
            "Bytes sent ÷ link bandwidth (one direction).",
        ),
        net_row(
            "net-t-lower",
            "Lower bound",
            n.t_lower,
            format::seconds(n.t_lower),
            "max(T_math, T_comms): perfect overlap.",
        ),
        net_row(
            "net-critical",
            &format!("Threshold on {d}"),
            threshold_value,
            threshold,
            "Where splitting this dimension stops paying for its communication; note it depends on this dimension, not on B.",
        ),
    ];
    let regime = format!(
        "{} over {}: intensity {} against {}.",
        n.regime.label(),
        n.link,
        format::intensity(n.intensity),
        format::intensity(n.critical_intensity)
    );
    NetworkView {
        analysis: n,
        rows,
        regime,
        assumptions: crate::network::ASSUMPTIONS,
    }
}
