//! A collective over one or more mesh axes, costed with
//! [`crate::collective`]'s link model: bytes per chip, time, which of
//! latency and bandwidth binds and the message size where that switches,
//! with and without the wraparound, and the series of its chart.
//!
//! Over several axes at once the chips use every axis's links together:
//! the bandwidth is the sum of the axes' (the book's `V / (W·N_axes)` when
//! the axes are alike) and the hops add up (`T_min·Σ|X_i|/2`). An
//! all-to-all over several axes is the book's `V·max(|X_i|)/(4·N·W)`: the
//! largest axis's all-to-all of `V·max/N`. Axes of different links (a
//! GPU's NVLink and InfiniBand) go at the slower's pace, shared by a node:
//! the GPU chapter's W_node egress.

use crate::collective::{all_gather, all_reduce, all_to_all, Cost, LinkModel, Wiring};
use crate::CoreError;

use super::mesh::AxisLink;

/// Which collective.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CollOp {
    /// `[A_X, B] → [A, B]`.
    #[default]
    AllGather,
    /// `[A, B]{U_X} → [A_X, B]`.
    ReduceScatter,
    /// `[A, B]{U_X} → [A, B]`: a reduce-scatter then an all-gather.
    AllReduce,
    /// `[A, B_X] → [A_X, B]`.
    AllToAll,
}

impl CollOp {
    /// Every collective, in the menu's order.
    pub const ALL: [CollOp; 4] = [
        CollOp::AllGather,
        CollOp::ReduceScatter,
        CollOp::AllReduce,
        CollOp::AllToAll,
    ];

    /// The link value: `allgather`, `reducescatter`, `allreduce`, `alltoall`.
    pub fn key(self) -> &'static str {
        match self {
            CollOp::AllGather => "allgather",
            CollOp::ReduceScatter => "reducescatter",
            CollOp::AllReduce => "allreduce",
            CollOp::AllToAll => "alltoall",
        }
    }

    /// The book's name: `AllGather`.
    pub fn name(self) -> &'static str {
        match self {
            CollOp::AllGather => "AllGather",
            CollOp::ReduceScatter => "ReduceScatter",
            CollOp::AllReduce => "AllReduce",
            CollOp::AllToAll => "AllToAll",
        }
    }

    /// The collective of a link value (any case, `-`/`_` ignored).
    pub fn from_key(key: &str) -> Option<CollOp> {
        let k: String = key
            .trim()
            .chars()
            .filter(|c| !matches!(c, '-' | '_' | ' '))
            .collect::<String>()
            .to_ascii_lowercase();
        CollOp::ALL.into_iter().find(|c| c.key() == k)
    }
}

/// Which part of a collective's time is larger.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CollBound {
    /// The hops' latency.
    Latency,
    /// The bytes over the bandwidth.
    Bandwidth,
}

impl CollBound {
    /// `latency` or `bandwidth`.
    pub fn key(self) -> &'static str {
        match self {
            CollBound::Latency => "latency",
            CollBound::Bandwidth => "bandwidth",
        }
    }
}

/// What a collective costs over some axes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CollCost {
    /// The collective's cost ([`crate::collective::Cost`]): bytes each
    /// chip sends, hops, bandwidth time, latency, their sum.
    pub cost: Cost,
    /// Chips in the group (the product of the axes).
    pub chips: f64,
    /// Bytes/s each chip moves in it: the sum over the axes of each axis's
    /// per-chip rate (both directions on a wrapped axis), or across
    /// different links a node's egress ([`node_pace`]).
    pub rate: f64,
    /// The book's form: `max(latency, V / rate)` without (n − 1)/n.
    pub book_time: f64,
    /// Which part is larger.
    pub bound: CollBound,
    /// The whole array's bytes at which latency and bandwidth time are
    /// equal (below it, latency-bound); `None` when there is no latency.
    pub switch_bytes: Option<f64>,
}

/// The pace of axes that join different links (a GPU's NVLink within a
/// node, InfiniBand across nodes): what crosses the slower link goes at its
/// pace, shared by the chips of a node (the axes of the fastest link), the
/// GPU chapter's W_node egress (8 × 50 GB/s = 400 GB/s on H100).
#[derive(Debug, Clone, Copy)]
pub(crate) struct NodePace<'a> {
    /// The axis of the slower link.
    pub(crate) slow: &'a AxisLink,
    /// Chips in a node: the product of the fastest link's axes.
    pub(crate) node: f64,
    /// The node's egress: the slower link's per-chip rate × `node`.
    pub(crate) w: f64,
}

/// The [`NodePace`] of `axes`, or `None` when they are all one kind of
/// link (their rates then add up).
pub(crate) fn node_pace<'a>(axes: &[&'a AxisLink]) -> Option<NodePace<'a>> {
    let first = axes.first()?;
    if axes.iter().all(|a| a.kind == first.kind) {
        return None;
    }
    let fastest = axes.iter().map(|a| a.per_chip()).fold(0.0, f64::max);
    let node: f64 = axes
        .iter()
        .filter(|a| a.per_chip() == fastest)
        .map(|a| a.size as f64)
        .product();
    let pace = |a: &AxisLink| {
        if a.per_chip() == fastest {
            a.per_chip()
        } else {
            a.per_chip() * node
        }
    };
    let slow = axes
        .iter()
        .copied()
        .min_by(|a, b| pace(a).total_cmp(&pace(b)))
        .unwrap_or(first);
    Some(NodePace {
        slow,
        node,
        w: pace(slow),
    })
}

/// How `p` sets the W of `axes`, in words: the slower link's rate shared by
/// a node's chips (the GPU chapter's W_node egress), or, when a node's
/// egress is faster than the fast link itself, the fast link.
pub(crate) fn pace_words(p: &NodePace, axes: &[&AxisLink]) -> String {
    let bw = crate::format::bandwidth;
    let fast = p.slow.per_chip();
    match axes.iter().find(|a| a.per_chip() < fast) {
        // The node's egress outpaces the fast link: the fast link binds.
        Some(out) if p.w == fast => format!(
            "a node's {} share an {} egress of {} × {} = {}, more than axis {}'s {} at {} a chip, so the {} sets the pace: W = {}",
            super::words::chips(p.node),
            link_name(out, axes),
            crate::format::count(p.node),
            bw(out.per_chip()),
            bw(out.per_chip() * p.node),
            p.slow.name,
            link_name(p.slow, axes),
            bw(fast),
            link_name(p.slow, axes),
            bw(p.w)
        ),
        _ => format!(
            "what crosses axis {}'s {} goes at its pace, {} a chip, shared by a node's {}: W = {} (the GPU chapter's W_node egress)",
            p.slow.name,
            link_name(p.slow, axes),
            bw(p.slow.per_chip()),
            super::words::chips(p.node),
            bw(p.w)
        ),
    }
}

/// The name of `axis`'s link among `axes`: a GPU's network between its
/// NVLink nodes is InfiniBand.
pub(crate) fn link_name(axis: &AxisLink, axes: &[&AxisLink]) -> &'static str {
    if axis.kind == crate::LevelKind::Dcn && axes.iter().any(|a| a.kind == crate::LevelKind::NvLink)
    {
        "InfiniBand"
    } else {
        axis.kind.name()
    }
}

/// The axes of `axes` that carry data: those of more than one chip (an axis
/// of one chip has no neighbour to send to, so it adds no bandwidth, hop or
/// link kind), or the first axis when none has more.
pub(crate) fn carrying<'a>(axes: &[&'a AxisLink]) -> Vec<&'a AxisLink> {
    let more: Vec<&AxisLink> = axes.iter().copied().filter(|a| a.size > 1).collect();
    if more.is_empty() {
        axes.iter().copied().take(1).collect()
    } else {
        more
    }
}

/// Bytes/s a chip moves in a collective over `axes`: the sum of the axes'
/// rates, or across different links the node's egress ([`node_pace`]).
fn rate_of(axes: &[&AxisLink]) -> f64 {
    node_pace(axes).map_or_else(|| axes.iter().map(|a| a.per_chip()).sum(), |p| p.w)
}

fn combined(axes: &[&AxisLink]) -> LinkModel {
    let first = &axes[0].link;
    LinkModel {
        kind: first.kind,
        one_way: rate_of(axes),
        wiring: Wiring::Ring,
        base_latency: axes.iter().map(|a| a.link.base_latency).fold(0.0, f64::max),
        hop_latency: first.hop_latency,
        latency_source: first.latency_source,
    }
}

/// Hops of one gather along an axis: half the ring each way when it wraps.
fn hops(a: &AxisLink) -> f64 {
    let n = a.size as f64;
    match a.link.wiring {
        Wiring::BidirectionalRing => (n / 2.0).floor(),
        Wiring::Ring | Wiring::Switch => (n - 1.0).max(0.0),
    }
}

fn raw(op: CollOp, v: f64, axes: &[&AxisLink]) -> Cost {
    let n: f64 = axes.iter().map(|a| a.size as f64).product();
    if let [one] = axes {
        return match op {
            CollOp::AllGather | CollOp::ReduceScatter => all_gather(v, n, &one.link),
            CollOp::AllReduce => all_reduce(v, n, &one.link),
            CollOp::AllToAll => all_to_all(v, n, &one.link),
        };
    }
    let total_hops: f64 = axes.iter().map(|a| hops(a)).sum();
    let mut c = match op {
        CollOp::AllGather | CollOp::ReduceScatter => all_gather(v, n, &combined(axes)),
        CollOp::AllReduce => all_reduce(v, n, &combined(axes)),
        // Across nodes each node sends every other node its pieces once,
        // through its egress: the GPU chapter's B·(M − 1)/(M²·W_node) for
        // M nodes.
        CollOp::AllToAll if node_pace(axes).is_some() => {
            let p = node_pace(axes).map_or(1.0, |p| p.node);
            let nodes = (n / p).max(1.0);
            let link = LinkModel {
                wiring: Wiring::Switch,
                ..combined(axes)
            };
            let mut c = all_to_all(v, nodes, &link);
            c.bytes_per_chip = (n - 1.0) / (n * n) * v;
            c
        }
        CollOp::AllToAll => {
            let big = axes
                .iter()
                .copied()
                .fold(axes[0], |m, a| if a.size > m.size { a } else { m });
            let nmax = big.size as f64;
            let mut c = all_to_all(v * nmax / n, nmax, &big.link);
            c.bytes_per_chip = (n - 1.0) / (n * n) * v;
            c
        }
    };
    if n > 1.0 {
        let passes = if op == CollOp::AllReduce { 2.0 } else { 1.0 };
        let link = &axes[0].link;
        c.hops = passes * total_hops;
        c.latency = passes * link.base_latency + c.hops * link.hop_latency;
        c.time = c.bandwidth_time + c.latency;
    }
    c
}

/// The cost of `op` on an array of `v` bytes (the whole array within the
/// group) over `axes`. An error when no axis is given.
pub fn collective(op: CollOp, v: f64, axes: &[&AxisLink]) -> Result<CollCost, CoreError> {
    if axes.is_empty() {
        return Err(CoreError::Invalid(
            "a collective needs at least one axis".to_string(),
        ));
    }
    if !v.is_finite() || v < 0.0 {
        return Err(CoreError::Invalid(
            "the array's bytes are not a finite size".to_string(),
        ));
    }
    let axes = &carrying(axes)[..];
    let cost = raw(op, v, axes);
    let per_byte = raw(op, 1.0, axes).bandwidth_time;
    let rate = rate_of(axes);
    let chips: f64 = axes.iter().map(|a| a.size as f64).product();
    let full = match op {
        CollOp::AllReduce => 2.0 * v / rate,
        // Already the book's V·max/(4·N·W): no (n − 1)/n to drop.
        CollOp::AllToAll => cost.bandwidth_time,
        _ => v / rate,
    };
    let book_time = if chips > 1.0 {
        full.max(cost.latency)
    } else {
        0.0
    };
    let bound = if cost.latency > cost.bandwidth_time {
        CollBound::Latency
    } else {
        CollBound::Bandwidth
    };
    let switch_bytes = (cost.latency > 0.0 && per_byte > 0.0).then(|| cost.latency / per_byte);
    Ok(CollCost {
        cost,
        chips,
        rate,
        book_time,
        bound,
        switch_bytes,
    })
}

/// One point of the chart of time against message size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CollPoint {
    /// The whole array's bytes.
    pub bytes: f64,
    /// The collective's time (latency + bytes' time).
    pub time: f64,
    /// The latency floor.
    pub latency: f64,
    /// The bytes' time alone (the bandwidth line).
    pub bandwidth: f64,
}

/// Points of the chart per decade of message size.
pub const POINTS_PER_DECADE: usize = 4;

/// Time against message size from 1 kB to 100 GB, log-spaced: the
/// collective's time, its latency floor and its bandwidth line.
pub fn series(op: CollOp, axes: &[&AxisLink]) -> Vec<CollPoint> {
    if axes.is_empty() {
        return Vec::new();
    }
    let axes = &carrying(axes)[..];
    let steps = 8 * POINTS_PER_DECADE;
    (0..=steps)
        .map(|i| {
            let bytes = 1e3 * crate::num::pow10(i as f64 / POINTS_PER_DECADE as f64);
            let c = raw(op, bytes, axes);
            CollPoint {
                bytes,
                time: c.time,
                latency: c.latency,
                bandwidth: c.bandwidth_time,
            }
        })
        .collect()
}
