//! Collectives over a group of chips (the book's Part 3): what each chip
//! sends and how long it takes, for an all-gather, a reduce-scatter, an
//! all-reduce and an all-to-all, over the link a chip lists. The Model
//! page's tensor-parallel layout uses them, and so will the Scale page.
//!
//! The model, with V the bytes of the whole array and n chips:
//! * an all-gather (or a reduce-scatter) has each chip receive (or send)
//!   the (n − 1)/n of V it lacks, in `steps` hops of V/n;
//! * a ring uses one direction of one link per chip; a bidirectional ring
//!   (a TPU torus axis with its wraparound) both, so it is twice as fast in
//!   half the hops; a switch (NVLink) gives each chip its whole port;
//! * the time is the bytes over the bandwidth plus a latency: a fixed part
//!   per collective and a part per hop ([`LinkModel`] names its source).
//!   The book's form takes the larger of the two instead of their sum and
//!   drops the (n − 1)/n: `T = max(T_hop·n/2, V/W_bidirectional)`;
//! * an all-reduce is a reduce-scatter then an all-gather: twice the bytes
//!   and the hops, so each chip sends 2(n − 1)/n of V.

use crate::hardware::Chip;
use crate::LevelKind;

/// How a collective's chips reach each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wiring {
    /// A ring using both directions (a TPU torus axis with wraparound).
    BidirectionalRing,
    /// A ring using one direction of one link per chip.
    Ring,
    /// Every chip on a switch, each with its whole port (NVLink).
    Switch,
}

impl Wiring {
    /// How it is said on the page.
    pub fn text(self) -> &'static str {
        match self {
            Wiring::BidirectionalRing => "a bidirectional ring, both directions of a torus axis",
            Wiring::Ring => "a ring, one direction of one link per chip",
            Wiring::Switch => "a switch, each chip's whole port in one direction",
        }
    }
}

/// A link as the collectives see it.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkModel {
    /// Which link (ICI, NVLink, ...).
    pub kind: LevelKind,
    /// Bytes/s one chip sends in one direction over it (the chip's figure).
    pub one_way: f64,
    /// How the chips are wired.
    pub wiring: Wiring,
    /// Seconds once per collective.
    pub base_latency: f64,
    /// Seconds per hop.
    pub hop_latency: f64,
    /// Where the latency figures come from; empty when none is known (the
    /// link's time is then its bytes alone, and the page says so).
    pub latency_source: &'static str,
}

/// The book's per-hop latency on ICI, seconds (Part 3: about 1 µs a hop).
pub const ICI_HOP: f64 = 1e-6;
/// NCCL's own cost model for a ring on NVLink (its tuning table, ring
/// algorithm, low-latency protocol): a base latency per collective, s.
pub const NVLINK_BASE: f64 = 3.6e-6;
/// The same model's latency per ring step on NVLink, s.
pub const NVLINK_HOP: f64 = 0.47e-6;

impl LinkModel {
    /// The model of link `kind` with `one_way` bytes/s per chip.
    pub fn new(kind: LevelKind, one_way: f64) -> LinkModel {
        let (wiring, base_latency, hop_latency, latency_source) = match kind {
            LevelKind::Ici => (
                Wiring::BidirectionalRing,
                0.0,
                ICI_HOP,
                "about 1 µs a hop on ICI (the book's Part 3)",
            ),
            LevelKind::NvLink => (
                Wiring::Switch,
                NVLINK_BASE,
                NVLINK_HOP,
                "3.6 µs per collective and 0.47 µs a step on NVLink (NCCL's cost model for a ring, low-latency protocol)",
            ),
            LevelKind::Fabric => (Wiring::Switch, 0.0, 0.0, ""),
            _ => (Wiring::Ring, 0.0, 0.0, ""),
        };
        LinkModel {
            kind,
            one_way,
            wiring,
            base_latency,
            hop_latency,
            latency_source,
        }
    }

    /// The first link between chips `chip` lists (in the order of
    /// [`LevelKind::ALL`]: NVLink, Fabric, ICI, then DCN), if any.
    pub fn of_chip(chip: &Chip) -> Option<LinkModel> {
        chip.level_kinds()
            .into_iter()
            .find(|k| k.is_network())
            .and_then(|kind| chip.bandwidth(kind).ok().map(|bw| LinkModel::new(kind, bw)))
    }

    /// Bytes/s each chip moves in a collective: both directions on a
    /// bidirectional ring, one otherwise.
    pub fn per_chip(&self) -> f64 {
        match self.wiring {
            Wiring::BidirectionalRing => 2.0 * self.one_way,
            Wiring::Ring | Wiring::Switch => self.one_way,
        }
    }

    /// Hops of an all-gather over `n` chips: n − 1 around a ring, half of
    /// that (rounded up) each way around a bidirectional one.
    fn gather_hops(&self, n: f64) -> f64 {
        match self.wiring {
            Wiring::BidirectionalRing => (n / 2.0).floor(),
            Wiring::Ring | Wiring::Switch => n - 1.0,
        }
    }
}

/// What one collective costs each chip.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cost {
    /// Bytes each chip sends.
    pub bytes_per_chip: f64,
    /// Hops (ring steps) one after the other.
    pub hops: f64,
    /// The bytes' time: bytes per chip ÷ the chip's bandwidth in it.
    pub bandwidth_time: f64,
    /// The latency: base + hops × per hop.
    pub latency: f64,
    /// Their sum.
    pub time: f64,
}

fn cost(link: &LinkModel, bytes_per_chip: f64, hops: f64, collectives: f64) -> Cost {
    let bandwidth_time = bytes_per_chip / link.per_chip();
    let latency = collectives * link.base_latency + hops * link.hop_latency;
    Cost {
        bytes_per_chip,
        hops,
        bandwidth_time,
        latency,
        time: bandwidth_time + latency,
    }
}

/// An all-gather of an array of `v` bytes (whole) over `n` chips: each
/// receives the (n − 1)/n of it it lacks. One chip costs nothing.
pub fn all_gather(v: f64, n: f64, link: &LinkModel) -> Cost {
    if n <= 1.0 {
        return cost(link, 0.0, 0.0, 0.0);
    }
    cost(link, (n - 1.0) / n * v, link.gather_hops(n), 1.0)
}

/// A reduce-scatter of `v` bytes of partial sums on each of `n` chips into
/// n shards: the transpose of an all-gather, the same cost.
pub fn reduce_scatter(v: f64, n: f64, link: &LinkModel) -> Cost {
    all_gather(v, n, link)
}

/// An all-reduce of `v` bytes of partial sums on each of `n` chips: a
/// reduce-scatter then an all-gather, so each chip sends 2(n − 1)/n of V.
pub fn all_reduce(v: f64, n: f64, link: &LinkModel) -> Cost {
    if n <= 1.0 {
        return cost(link, 0.0, 0.0, 0.0);
    }
    cost(
        link,
        2.0 * (n - 1.0) / n * v,
        2.0 * link.gather_hops(n),
        2.0,
    )
}

/// An all-to-all over `n` chips of `v` bytes in all (each chip holds v/n
/// and keeps 1/n of it): each chip sends (n − 1)/n² of V. On a ring the
/// pieces travel n/4 hops on average each way around, which the book's
/// form, `V·n / (4·n·W_bidirectional)` for a 1-D ring, counts; a switch
/// sends each piece once.
pub fn all_to_all(v: f64, n: f64, link: &LinkModel) -> Cost {
    if n <= 1.0 {
        return cost(link, 0.0, 0.0, 0.0);
    }
    let sent = (n - 1.0) / (n * n) * v;
    let (carried, hops) = match link.wiring {
        // Each piece crosses n/4 links on average, both ways around.
        Wiring::BidirectionalRing => (v / 4.0, (n / 2.0).floor()),
        // An ICI axis that does not wrap is a line with links both ways:
        // its middle link carries, each way, what one half sends the other,
        // ⌊n/2⌋·⌈n/2⌉/n² of V (a quarter for even n): twice the wrapped
        // ring's time, by the book's bisection argument with one cut plane
        // instead of two.
        Wiring::Ring if link.kind == LevelKind::Ici => {
            ((n / 2.0).floor() * (n / 2.0).ceil() / (n * n) * v, n - 1.0)
        }
        // One direction of one link per chip: n/2 links on average.
        Wiring::Ring => (v / 2.0, n - 1.0),
        Wiring::Switch => (sent, n - 1.0),
    };
    let mut c = cost(link, carried, hops, 1.0);
    c.bytes_per_chip = sent;
    c
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    fn close(got: f64, want: f64, what: &str) {
        assert!(
            (got - want).abs() <= 1e-12 * want.abs(),
            "{what}: {got} against {want}"
        );
    }

    /// The book's AllGather on v5e ICI (one-way 4.5e10, bidirectional
    /// 9e10): V / W_ici, independent of n, up to (n − 1)/n; latency 1 µs
    /// a hop, n/2 hops.
    #[test]
    fn all_gather_on_ici_is_the_books() {
        let ici = LinkModel::new(LevelKind::Ici, 4.5e10);
        let v = 1e9;
        for n in [2.0, 4.0, 16.0] {
            let c = all_gather(v, n, &ici);
            close(c.bandwidth_time, (n - 1.0) / n * v / 9e10, "bytes ÷ W_ici");
            close(c.latency, n / 2.0 * 1e-6, "T_min · n/2");
            close(c.time, c.bandwidth_time + c.latency, "sum");
        }
        // Below ~45 kB the latency is larger than the bytes' time (the
        // book's v5e example: 4.5e10 × 1e-6).
        let small = all_gather(40e3, 16.0, &ici);
        assert!(small.latency > small.bandwidth_time);
    }

    /// An all-reduce sends 2(n − 1)/n of V per chip and takes twice an
    /// all-gather: the book's 2·V / W_ici for large n.
    #[test]
    fn all_reduce_is_two_gathers() {
        for link in [
            LinkModel::new(LevelKind::Ici, 4.5e10),
            LinkModel::new(LevelKind::NvLink, 4.5e11),
            LinkModel::new(LevelKind::Dcn, 5e10),
        ] {
            let (v, n) = (3e6, 8.0);
            let r = all_reduce(v, n, &link);
            let g = all_gather(v, n, &link);
            close(r.bytes_per_chip, 2.0 * 7.0 / 8.0 * v, "2(n−1)/n · V");
            close(r.bandwidth_time, 2.0 * g.bandwidth_time, "bytes");
            close(r.hops, 2.0 * g.hops, "hops");
            close(r.latency, 2.0 * g.latency, "latency");
        }
        let nv = LinkModel::new(LevelKind::NvLink, 4.5e11);
        let r = all_reduce(1e6, 8.0, &nv);
        close(
            r.latency,
            2.0 * 3.6e-6 + 14.0 * 0.47e-6,
            "NCCL's ring model",
        );
        close(r.bandwidth_time, 1.75e6 / 4.5e11, "a switch port, one way");
    }

    #[test]
    fn one_chip_sends_nothing() {
        let ici = LinkModel::new(LevelKind::Ici, 4.5e10);
        for c in [
            all_gather(1e9, 1.0, &ici),
            all_reduce(1e9, 1.0, &ici),
            all_to_all(1e9, 1.0, &ici),
        ] {
            assert_eq!(c.time, 0.0);
        }
    }

    /// The book's AllToAll on a 1-D bidirectional ring: V·n / (4·n·W),
    /// a quarter of an AllGather's V / W.
    #[test]
    fn all_to_all_is_a_quarter_gather_on_a_ring() {
        let ici = LinkModel::new(LevelKind::Ici, 4.5e10);
        let (v, n) = (1e9, 16.0);
        let a = all_to_all(v, n, &ici);
        close(
            a.bandwidth_time,
            v * n / (4.0 * n * 9e10),
            "the book's form",
        );
    }

    #[test]
    fn the_first_link_a_chip_lists() {
        let v5e = crate::hardware::preset("v5e").unwrap();
        let l = LinkModel::of_chip(&v5e).unwrap();
        assert_eq!((l.kind, l.one_way), (LevelKind::Ici, 4.5e10));
        let h100 = crate::hardware::preset("h100").unwrap();
        assert_eq!(LinkModel::of_chip(&h100).unwrap().kind, LevelKind::NvLink);
    }
}
