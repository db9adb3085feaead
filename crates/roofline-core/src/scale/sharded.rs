//! A collective applied to an array in sharded notation: which arrays it
//! accepts, what it leaves (`bf16[B_X,D] → bf16[B,D]` for an AllGather
//! over X), the bytes V it moves (the whole array within one group of the
//! axes), its cost with the mesh's wraparound, with every axis wrapped and
//! with none, and a derivation that names the bandwidth at every step.

use crate::format;
use crate::op::Sizes;
use crate::CoreError;

use super::array::{axes_size, ShardedArray};
use super::coll::{collective, node_pace, CollCost, CollOp};
use super::mesh::{AxisLink, MeshLinks};

/// A collective on an array, costed.
#[derive(Debug, Clone, PartialEq)]
pub struct ArrayCollective {
    /// The collective.
    pub op: CollOp,
    /// The axes, in the order given.
    pub axes: Vec<char>,
    /// The array it starts from.
    pub input: ShardedArray,
    /// The array it leaves.
    pub output: ShardedArray,
    /// V: bytes of the whole array within one group of the axes (the
    /// global bytes over the axes the array is split on outside the group).
    pub v: f64,
    /// Bytes one chip holds of the input.
    pub local_in: f64,
    /// The cost with the mesh's wraparound as set.
    pub cost: CollCost,
    /// The cost with every torus axis wrapped (bidirectional rings).
    pub wrapped: CollCost,
    /// The cost with no axis wrapped (lines).
    pub unwrapped: CollCost,
    /// The derivation, one sentence a step, with the numbers.
    pub derivation: Vec<String>,
}

fn err(m: String) -> CoreError {
    CoreError::Invalid(m)
}

/// The array `op` over `axes` leaves, or why `input` cannot take it.
fn output_of(op: CollOp, input: &ShardedArray, axes: &[char]) -> Result<ShardedArray, CoreError> {
    let mut out = input.clone();
    let held: Vec<char> = input.axes();
    match op {
        CollOp::AllGather => {
            for a in axes {
                if !held.contains(a) {
                    return Err(err(format!(
                        "AllGather over {a}: no dimension of {} is split over {a}, so there is nothing to gather",
                        input.text()
                    )));
                }
            }
            for d in &mut out.dims {
                d.axes.retain(|a| !axes.contains(a));
            }
        }
        CollOp::ReduceScatter | CollOp::AllReduce => {
            if !input.unreduced.is_empty() {
                let mut u = input.unreduced.clone();
                let mut x = axes.to_vec();
                u.sort_unstable();
                x.sort_unstable();
                if u != x {
                    return Err(err(format!(
                        "{} over {}: the array holds partial sums over {}, so that is what it reduces over",
                        op.name(),
                        axes.iter().collect::<String>(),
                        input.unreduced.iter().collect::<String>()
                    )));
                }
            }
            out.unreduced.clear();
            if let Some(a) = axes.iter().find(|a| held.contains(a)) {
                return Err(err(format!(
                    "{} over {a}: the array holds partial sums over {a}, so no dimension may be split over it; write it unsplit, as {}",
                    op.name(),
                    unsplit(input, axes).text()
                )));
            }
            if op == CollOp::ReduceScatter {
                let Some(d) = out.dims.first_mut() else {
                    return Err(err(
                        "ReduceScatter: a scalar has nothing to scatter".to_string()
                    ));
                };
                d.axes.extend_from_slice(axes);
            }
        }
        CollOp::AllToAll => {
            let Some(from) = axes.iter().find_map(|a| input.dim_of(*a)) else {
                return Err(err(format!(
                    "AllToAll over {}: no dimension of {} is split over it",
                    axes.iter().collect::<String>(),
                    input.text()
                )));
            };
            if axes.iter().any(|a| input.dim_of(*a) != Some(from)) {
                return Err(err(
                    "AllToAll: the axes must all split the same dimension".to_string()
                ));
            }
            let Some(to) = (0..out.dims.len()).find(|i| *i != from) else {
                return Err(err(
                    "AllToAll: it moves the split to another dimension; the array has one"
                        .to_string(),
                ));
            };
            out.dims[from].axes.retain(|a| !axes.contains(a));
            out.dims[to].axes.extend_from_slice(axes);
        }
    }
    Ok(out)
}

fn unsplit(input: &ShardedArray, axes: &[char]) -> ShardedArray {
    let mut a = input.clone();
    for d in &mut a.dims {
        d.axes.retain(|x| !axes.contains(x));
    }
    a
}

/// `op` over `axes` on `input` (sizes from the calculator's `sizes`), on
/// the mesh `links`.
pub fn array_collective(
    op: CollOp,
    input: &ShardedArray,
    axes: &[char],
    links: &MeshLinks,
    sizes: &Sizes,
) -> Result<ArrayCollective, CoreError> {
    input.check_on(&links.mesh, sizes)?;
    let output = output_of(op, input, axes)?;
    output.check_on(&links.mesh, sizes)?;
    let chosen: Vec<&AxisLink> = axes.iter().filter_map(|a| links.axis(*a)).collect();
    if chosen.len() != axes.len() || chosen.is_empty() {
        return Err(err(format!(
            "the collective's axes must be in the mesh ({})",
            links.mesh.text()
        )));
    }
    let global = input.bytes(sizes)?;
    let outside: Vec<char> = input
        .axes()
        .into_iter()
        .filter(|a| !axes.contains(a))
        .collect();
    let v = global / axes_size(&outside, &links.mesh);
    let local_in = global / axes_size(&input.axes(), &links.mesh);
    // An axis of one chip carries nothing: the cost is over the others
    // (when every axis has one chip there are none, and the time is 0).
    let busy = chosen.iter().any(|a| a.size > 1);
    let idle: Vec<char> = chosen
        .iter()
        .filter(|a| a.size == 1 && busy)
        .map(|a| a.name)
        .collect();
    let chosen = super::coll::carrying(&chosen);
    let cost = collective(op, v, &chosen)?;
    let w: Vec<AxisLink> = chosen.iter().map(|a| a.with_wrap(true)).collect();
    let u: Vec<AxisLink> = chosen.iter().map(|a| a.with_wrap(false)).collect();
    let wrapped = collective(op, v, &w.iter().collect::<Vec<_>>())?;
    let unwrapped = collective(op, v, &u.iter().collect::<Vec<_>>())?;
    let mut derivation = derive(op, input, &output, v, &chosen, &cost);
    if !idle.is_empty() {
        derivation.insert(
            2,
            format!(
                "{} {} one chip: no neighbour to send to, so {} no link, hop or bandwidth.",
                super::words::axes_named(&idle),
                if idle.len() == 1 { "has" } else { "each have" },
                if idle.len() == 1 {
                    "it adds"
                } else {
                    "they add"
                }
            ),
        );
    }
    if chosen
        .iter()
        .any(|a| a.link.wiring != crate::collective::Wiring::Switch)
    {
        let switch = |c: &CollCost| {
            c.switch_bytes
                .map_or(format::MISSING.to_string(), format::bytes)
        };
        derivation.push(format!(
            "With every axis wrapped: {} (latency-bound below {}); with none: {} (below {}).",
            format::seconds(wrapped.cost.time),
            switch(&wrapped),
            format::seconds(unwrapped.cost.time),
            switch(&unwrapped)
        ));
    }
    Ok(ArrayCollective {
        op,
        axes: axes.to_vec(),
        input: input.clone(),
        output,
        v,
        local_in,
        cost,
        wrapped,
        unwrapped,
        derivation,
    })
}

fn axis_words(a: &AxisLink) -> String {
    let rate = if a.link.wiring == crate::collective::Wiring::BidirectionalRing {
        format!(
            "it wraps around, so a ring uses both directions: W = 2 × {} one way = {} (the bidirectional figure; this 2 is the two directions)",
            format::bandwidth(a.one_way),
            format::bandwidth(a.bidirectional)
        )
    } else if a.link.wiring == crate::collective::Wiring::Ring {
        format!(
            "it does not wrap around, so the ring is a line and each chip sends one way: W = {} (the one-way figure)",
            format::bandwidth(a.one_way)
        )
    } else {
        format!(
            "a switch: each chip sends its port's one-way {}",
            format::bandwidth(a.one_way)
        )
    };
    format!(
        "Axis {} ({}, {}): {}.",
        a.name,
        super::words::chips(a.size as f64),
        a.kind,
        rate
    )
}

fn derive(
    op: CollOp,
    input: &ShardedArray,
    output: &ShardedArray,
    v: f64,
    axes: &[&AxisLink],
    c: &CollCost,
) -> Vec<String> {
    let n = c.chips;
    let mut d = vec![format!(
        "{}: {} → {} over {} chips.",
        op.name(),
        input.text(),
        output.text(),
        format::count(n)
    )];
    d.push(format!(
        "V = {}: the whole array within one group ({} bytes an element{}).",
        format::bytes(v),
        format::sig(input.dtype.bytes(), 3),
        if input.dtype.bytes() == 2.0 {
            "; bf16's 2 bytes are a factor of 2 that is not hops"
        } else {
            ""
        }
    ));
    for a in axes {
        d.push(axis_words(a));
    }
    let mixed = node_pace(axes);
    if let Some(p) = mixed {
        d.push(format!(
            "These axes join different links: {}, not the links' sum.",
            super::coll::pace_words(&p, axes)
        ));
    } else if axes.len() > 1 {
        d.push(format!(
            "Over {} axes at once each chip uses all their links: W = {} in all (the book's W·N_axes).",
            axes.len(),
            format::bandwidth(c.rate)
        ));
    }
    let bw = format::seconds(c.cost.bandwidth_time);
    let per = format::bytes(c.cost.bytes_per_chip);
    d.push(match op {
        CollOp::AllGather | CollOp::ReduceScatter
            if axes.iter().all(|a| {
                a.link.wiring == crate::collective::Wiring::Ring
                    && a.link.kind == crate::LevelKind::Ici
            }) =>
        {
            format!(
                "Each chip receives the (n − 1)/n of V it lacks: {per}; ÷ W = {bw}. The book's formula drops (n − 1)/n (V / W, below), but on a line (no wraparound) its own pop quiz keeps it, as this time does: the edges' data crosses n − 1 links one way (3 · 8.4e6 / 4.5e10 = 560 µs on a v5e axis of 4)."
            )
        }
        CollOp::AllGather | CollOp::ReduceScatter => format!(
            "Each chip receives the (n − 1)/n of V it lacks: {per}; ÷ W = {bw}. The book drops (n − 1)/n: V / W, which is why the time does not depend on the axis's size."
        ),
        CollOp::AllReduce => format!(
            "An AllReduce is a ReduceScatter then an AllGather, so each chip sends 2(n − 1)/n of V: {per}; ÷ W = {bw}. This 2 is the two collectives: the book's 2V / W."
        ),
        CollOp::AllToAll if mixed.is_some() => {
            let nodes = n / mixed.map_or(1.0, |p| p.node);
            format!(
                "Each chip keeps 1/n of its shard and sends the rest ({per}); across {} nodes each node sends every other its pieces once through its egress, the GPU chapter's V·(M − 1)/(M²·W_node) = {bw}.",
                format::count(nodes)
            )
        }
        CollOp::AllToAll if axes.len() > 1 => {
            // The book's form over several axes: the largest axis's
            // all-to-all of V·max/N.
            let big = axes.iter().map(|a| a.size).max().unwrap_or(1);
            let gather = collective(CollOp::AllGather, v, axes)
                .map_or(0.0, |g| g.cost.bandwidth_time);
            let share = if gather > 0.0 {
                format!(
                    ", about 1/{} of an AllGather over the same axes ({})",
                    format::count((gather / c.cost.bandwidth_time).round()),
                    format::seconds(gather)
                )
            } else {
                String::new()
            };
            format!(
                "Each chip keeps 1/n of its shard and sends the rest ({per}); over several axes the largest (|X| = {big}) sets the pace, the book's V·max(|X_i|) / (4·N·W_axis) = {bw}{share}."
            )
        }
        CollOp::AllToAll => {
            use crate::collective::Wiring;
            let link = &axes[0].link;
            let how = match link.wiring {
                Wiring::BidirectionalRing => format!("on a wrapped ring a piece crosses n/4 links on average each way, so the time is V·n / (4·n·W) = {bw}: a quarter of an AllGather"),
                Wiring::Ring if link.kind == crate::LevelKind::Ici => format!("on a line (no wraparound) the middle link carries a quarter of V each way (⌊n/2⌋·⌈n/2⌉/n² of it for an odd n), so the time is V / (4·W_one-way) = {bw}: a quarter of an AllGather on the same line, twice the wrapped ring's"),
                Wiring::Ring => format!("one way around a ring a piece crosses n/2 links on average, so the time is V / (2·W) = {bw}: half an AllGather"),
                Wiring::Switch => format!("through a switch each piece crosses once, so the time is (n − 1)/n² of V ÷ W = {bw}: 1/n of an AllGather"),
            };
            format!("Each chip keeps 1/n of its shard and sends the rest ({per}); {how}.")
        }
    });
    d.push(format!(
        "Latency: {} hops of {} = {}{}.",
        format::count(c.cost.hops),
        format::seconds(axes[0].link.hop_latency),
        format::seconds(c.cost.latency),
        if axes[0].link.latency_source.is_empty() {
            " (no latency figure is known for this link)".to_string()
        } else {
            format!(" ({})", axes[0].link.latency_source)
        }
    ));
    d.push(format!(
        "Time = bytes' time + latency = {}; the book's max(latency, {}) = {}. It is {}-bound{}.",
        format::seconds(c.cost.time),
        match op {
            CollOp::AllReduce => "2V / W",
            CollOp::AllToAll => "the AllToAll's form above",
            _ => "V / W",
        },
        format::seconds(c.book_time),
        c.bound.key(),
        match c.switch_bytes {
            Some(s) => format!(
                "; below V = {} ({} a chip) the latency is the larger",
                format::bytes(s),
                format::bytes(s / n.max(1.0))
            ),
            None => String::new(),
        }
    ));
    d
}
