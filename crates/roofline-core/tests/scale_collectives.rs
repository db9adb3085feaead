//! Part 2's links and Part 3's collectives on the Scale page's mesh,
//! against numbers derived by hand from the chapters' formulas: W_ici, the
//! v5e latency threshold, AllReduce = 2 × AllGather, AllToAll = ¼
//! AllGather, no wraparound, several axes, a GPU's switch, and the
//! messages for arrays a collective cannot take.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod scale_common;
use scale_common::{close, links, sizes};

use roofline_core::hardware::preset;
use roofline_core::scale::{
    array_collective, mesh_links, parse_wrap, CollBound, CollOp, Mesh, ShardedArray,
};
use roofline_core::LevelKind;

fn arr(t: &str) -> ShardedArray {
    ShardedArray::parse(t).unwrap()
}

/// Part 2's table: v5p ICI 9e10 one way a link, 1.8e11 both ways; v5e
/// 4.5e10 and 9e10. A v5e axis wraps only at 16; a v5p axis at multiples
/// of 4.
#[test]
fn links_and_wraparound() {
    let v5p = links("v5p", "X:16,Y:20,Z:28");
    for a in &v5p.axes {
        assert_eq!(a.kind, LevelKind::Ici);
        assert_eq!((a.one_way, a.bidirectional), (9e10, 1.8e11));
        assert!(a.wraps, "{} wraps (a multiple of 4)", a.name);
        assert_eq!(a.per_chip(), 1.8e11);
    }
    assert_eq!(v5p.dcn, Some(6.25e9));
    let v5e = links("v5e", "X:16,Y:8");
    assert!(v5e.axes[0].wraps && !v5e.axes[1].wraps);
    assert_eq!(v5e.axes[0].per_chip(), 9e10, "both directions");
    assert_eq!(v5e.axes[1].per_chip(), 4.5e10, "one direction on a line");
    assert!(!links("v5p", "X:6").axes[0].wraps, "6 is no multiple of 4");
    // The user's wraparound wins.
    let mesh = Mesh::parse("X:16,Y:8").unwrap();
    let w = parse_wrap(Some("Y"), &mesh).unwrap();
    let l = mesh_links(&mesh, &preset("v5e").unwrap(), w.as_deref()).unwrap();
    assert!(!l.axes[0].wraps && l.axes[1].wraps);
    assert!(parse_wrap(Some("Q"), &mesh).is_err());
}

/// The book's v5e AllGather over a wrapped axis of 16: T = max(T_min·X/2,
/// V/W_ici) with W_ici = 9e10 and T_min = 1 µs, so the bound switches at
/// V = 8 µs × 9e10 = 720 kB, 45 kB a chip (4.5e10 × 1e-6). The page's own
/// model adds the two and keeps (n − 1)/n: V = 8e-6 × 9e10 × 16/15.
#[test]
fn v5e_gather_is_latency_bound_under_45_kb_a_chip() {
    let l = links("v5e", "X:16");
    // B = 16 × 22,500 rows of D = 1 bf16: 720 kB in all, 45 kB a chip.
    let s = sizes(&[("B", 16.0 * 22_500.0), ("D", 1.0)]);
    let c = array_collective(CollOp::AllGather, &arr("bf16[B_X,D]"), &['X'], &l, &s).unwrap();
    close(c.v, 720e3, 1e-12, "V");
    close(c.local_in, 45e3, 1e-12, "a chip's shard");
    close(c.cost.cost.latency, 8e-6, 1e-12, "8 hops of 1 µs");
    close(
        c.cost.book_time,
        8e-6,
        1e-12,
        "the book: latency = V / W here",
    );
    close(720e3 / 9e10, 8e-6, 1e-12, "V / W");
    close(
        c.cost.switch_bytes.unwrap(),
        8e-6 * 9e10 * 16.0 / 15.0,
        1e-12,
        "the page's switch",
    );
    // A 40 kB shard is latency-bound, a 60 kB one bandwidth-bound.
    let small = sizes(&[("B", 16.0 * 20_000.0), ("D", 1.0)]);
    let big = sizes(&[("B", 16.0 * 30_000.0), ("D", 1.0)]);
    let bound = |s| {
        array_collective(CollOp::AllGather, &arr("bf16[B_X,D]"), &['X'], &l, s)
            .unwrap()
            .cost
            .bound
    };
    assert_eq!(bound(&small), CollBound::Latency);
    assert_eq!(bound(&big), CollBound::Bandwidth);
    assert_eq!(c.output.text(), "bf16[B,D]");
}

/// An AllGather's time does not depend on the axis's size (the book's
/// V / W_ici), up to (n − 1)/n.
#[test]
fn gather_time_ignores_the_axis_size() {
    let s = sizes(&[("B", 2048.0), ("D", 8192.0)]);
    let v = 2.0 * 2048.0 * 8192.0;
    for n in [4.0, 8.0, 16.0] {
        // v5p: every multiple of 4 wraps.
        let l = links("v5p", &format!("X:{n}"));
        let c = array_collective(CollOp::AllGather, &arr("bf16[B_X,D]"), &['X'], &l, &s).unwrap();
        close(
            c.cost.cost.bandwidth_time,
            (n - 1.0) / n * v / 1.8e11,
            1e-12,
            "bytes' time",
        );
        close(c.cost.book_time, v / 1.8e11, 1e-12, "V / W");
    }
}

/// AllReduce = ReduceScatter + AllGather: 2V / W_ici, twice an
/// AllGather's bytes and hops. AllToAll on a wrapped ring: V / (4·W), a
/// quarter of an AllGather.
#[test]
fn allreduce_is_two_gathers_and_alltoall_a_quarter() {
    let l = links("v5p", "X:16");
    let s = sizes(&[("B", 4096.0), ("D", 8192.0)]);
    let v = 2.0 * 4096.0 * 8192.0;
    let g = array_collective(CollOp::AllGather, &arr("bf16[B_X,D]"), &['X'], &l, &s).unwrap();
    let r = array_collective(CollOp::AllReduce, &arr("bf16[B,D]"), &['X'], &l, &s).unwrap();
    let rs = array_collective(CollOp::ReduceScatter, &arr("bf16[B,D]"), &['X'], &l, &s).unwrap();
    let a = array_collective(CollOp::AllToAll, &arr("bf16[B,D_X]"), &['X'], &l, &s).unwrap();
    close(
        r.cost.cost.bytes_per_chip,
        2.0 * g.cost.cost.bytes_per_chip,
        1e-12,
        "bytes",
    );
    close(
        r.cost.cost.bandwidth_time,
        2.0 * g.cost.cost.bandwidth_time,
        1e-12,
        "time",
    );
    close(
        r.cost.cost.latency,
        2.0 * g.cost.cost.latency,
        1e-12,
        "latency",
    );
    close(r.cost.book_time, 2.0 * v / 1.8e11, 1e-12, "2V / W");
    close(
        rs.cost.cost.time,
        g.cost.cost.time,
        1e-12,
        "ReduceScatter = AllGather",
    );
    close(
        a.cost.cost.bandwidth_time,
        v / (4.0 * 1.8e11),
        1e-12,
        "V·n / (4·n·W)",
    );
    close(
        a.cost.cost.bytes_per_chip,
        15.0 / 256.0 * v,
        1e-12,
        "(n − 1)/n² of V",
    );
    assert_eq!(rs.output.text(), "bf16[B_X,D]");
    assert_eq!(a.output.text(), "bf16[B_X,D]");
}

/// AllToAll on a line (the same axis unwrapped): each half sends the other
/// a quarter of V over the one link each way that crosses the middle,
/// V / (4·W_one-way): twice the wrapped ring's, still a quarter of the
/// line's own AllGather (up to its (n − 1)/n), and the derivation says
/// so. Through a switch (8 H100s) it is 1/n of an AllGather.
#[test]
fn alltoall_on_a_line_and_a_switch() {
    let s = sizes(&[("B", 4096.0), ("D", 8192.0)]);
    let v = 2.0 * 4096.0 * 8192.0;
    let wrapped = links("v5p", "X:16");
    let mesh = Mesh::parse("X:16").unwrap();
    let wrap = parse_wrap(Some("none"), &mesh).unwrap();
    let line = mesh_links(&mesh, &preset("v5p").unwrap(), wrap.as_deref()).unwrap();
    let a2a = |l| array_collective(CollOp::AllToAll, &arr("bf16[B,D_X]"), &['X'], l, &s).unwrap();
    let (ring, flat) = (a2a(&wrapped), a2a(&line));
    close(
        flat.cost.cost.bandwidth_time,
        v / (4.0 * 9e10),
        1e-12,
        "V / (4·W_one-way)",
    );
    close(
        flat.cost.cost.bandwidth_time,
        2.0 * ring.cost.cost.bandwidth_time,
        1e-12,
        "twice the wrapped ring's",
    );
    let gather =
        array_collective(CollOp::AllGather, &arr("bf16[B_X,D]"), &['X'], &line, &s).unwrap();
    close(
        flat.cost.cost.bandwidth_time,
        gather.cost.cost.bandwidth_time / 4.0 * 16.0 / 15.0,
        1e-12,
        "a quarter of the line's AllGather, without its (n − 1)/n",
    );
    assert!(
        flat.derivation
            .iter()
            .any(|d| d.contains("on a line (no wraparound)")),
        "{:?}",
        flat.derivation
    );
    let gpu = links("h100", "X:8");
    let sw = a2a(&gpu);
    let sw_gather =
        array_collective(CollOp::AllGather, &arr("bf16[B_X,D]"), &['X'], &gpu, &s).unwrap();
    close(
        sw.cost.cost.bandwidth_time,
        sw_gather.cost.cost.bandwidth_time / 8.0,
        1e-12,
        "1/n of an AllGather through a switch",
    );
    assert!(
        sw.derivation
            .iter()
            .any(|d| d.contains("1/n of an AllGather")),
        "{:?}",
        sw.derivation
    );
}

/// Without the wraparound a ring is a line: one direction, W = 4.5e10 on
/// v5e, so twice the time (the book's "about twice as long"), and n − 1
/// hops instead of n/2.
#[test]
fn no_wraparound_takes_twice_as_long() {
    let l = links("v5e", "X:16");
    let s = sizes(&[("B", 1_048_576.0), ("D", 1024.0)]);
    let c = array_collective(CollOp::AllGather, &arr("bf16[B_X,D]"), &['X'], &l, &s).unwrap();
    let v = 2.0 * 1_048_576.0 * 1024.0;
    close(
        c.wrapped.cost.bandwidth_time,
        15.0 / 16.0 * v / 9e10,
        1e-12,
        "wrapped",
    );
    close(
        c.unwrapped.cost.bandwidth_time,
        15.0 / 16.0 * v / 4.5e10,
        1e-12,
        "a line",
    );
    close(c.unwrapped.cost.latency, 15e-6, 1e-12, "15 hops");
    close(c.wrapped.cost.latency, 8e-6, 1e-12, "8 hops");
}

/// Over two axes at once: the book's max(T_min·Σ|X_i|/2, V/(W·2)), here
/// on v5p 4×4×4 (every axis wraps): 4 hops of 1 µs and 2 × 1.8e11 B/s.
/// The array split over Z as well moves V = global / |Z|.
#[test]
fn two_axes_add_bandwidth_and_hops() {
    let l = links("v5p", "X:4,Y:4,Z:4");
    let s = sizes(&[("B", 4096.0), ("D", 8192.0)]);
    let c = array_collective(
        CollOp::AllGather,
        &arr("bf16[B_XY,D_Z]"),
        &['X', 'Y'],
        &l,
        &s,
    )
    .unwrap();
    let v = 2.0 * 4096.0 * 8192.0 / 4.0;
    close(c.v, v, 1e-12, "V within a group");
    close(c.cost.rate, 3.6e11, 1e-12, "two axes' W");
    close(
        c.cost.cost.bandwidth_time,
        15.0 / 16.0 * v / 3.6e11,
        1e-12,
        "bytes",
    );
    close(c.cost.cost.latency, 4e-6, 1e-12, "(4 + 4)/2 hops");
    close(c.cost.book_time, v / 3.6e11, 1e-12, "V / (W·2)");
    assert_eq!(c.output.text(), "bf16[B,D_Z]");
}

/// An H100's NVLink domain is a switch: each GPU sends (n − 1)/n of V at
/// its port's 4.5e11 B/s one way; NCCL's latency 3.6 µs + 0.47 µs a step.
/// A second axis crosses nodes over InfiniBand, 5e10 B/s per GPU.
#[test]
fn a_gpu_domain_is_a_switch() {
    let l = links("h100", "X:8,Y:4");
    assert_eq!(l.axes[0].kind, LevelKind::NvLink);
    assert_eq!(l.axes[1].kind, LevelKind::Dcn);
    assert_eq!(l.axes[1].one_way, 5e10);
    let s = sizes(&[("B", 8192.0), ("D", 4096.0)]);
    let c = array_collective(CollOp::AllGather, &arr("bf16[B_X,D]"), &['X'], &l, &s).unwrap();
    let v = 2.0 * 8192.0 * 4096.0;
    close(
        c.cost.cost.bandwidth_time,
        7.0 / 8.0 * v / 4.5e11,
        1e-12,
        "a port",
    );
    close(c.cost.cost.latency, 3.6e-6 + 7.0 * 0.47e-6, 1e-12, "NCCL");
    close(
        c.unwrapped.cost.time,
        c.cost.cost.time,
        1e-12,
        "nothing to wrap",
    );
}

/// Arrays a collective cannot take, each with a message that says why.
#[test]
fn bad_specs_say_why() {
    let l = links("v5e", "X:4,Y:4");
    let s = sizes(&[("B", 1024.0), ("D", 1000.0)]);
    let err = |op, a: &str, ax: &[char], s| {
        array_collective(op, &arr(a), ax, &l, s)
            .unwrap_err()
            .to_string()
    };
    assert!(err(CollOp::AllGather, "bf16[B_Y,D]", &['X'], &s).contains("nothing to gather"));
    assert!(err(CollOp::AllReduce, "bf16[B_X,D]", &['X'], &s).contains("partial sums"));
    assert!(err(CollOp::AllGather, "bf16[B_Z,D]", &['Z'], &s).contains("not in the mesh"));
    let odd = sizes(&[("B", 1000.0), ("D", 4.0)]);
    let e = array_collective(CollOp::AllGather, &arr("bf16[B_XY,D]"), &['X'], &l, &odd)
        .unwrap_err()
        .to_string();
    assert!(e.contains("not divided by the 16 chips"), "{e}");
    assert!(ShardedArray::parse("bf16[B_X,D_X]")
        .unwrap_err()
        .to_string()
        .contains("two dimensions"));
    let none = sizes(&[("B", 1024.0)]);
    assert!(err(CollOp::AllGather, "bf16[B_X,D]", &['X'], &none).contains("no size for D"));
}

/// Part 3's Pop Quiz 2: AllGather_Y([E_Y, F]) on v5e `{X: 8, Y: 4}`, bf16.
/// Y = 4 has no wraparound on v5e, so the ring is a line at 4.5e10 one
/// way: with E = 2048, F = 8192 the book's 3 × 8.4e6 / 4.5e10 ≈ 560 µs
/// (here (n − 1)/n · V / W + 3 hops); with E = F = 256 a 32 kB shard is
/// latency-bound, about 3 µs (3 hops of 1 µs).
#[test]
fn pop_quiz_2_allgather_on_v5e() {
    let l = links("v5e", "X:8,Y:4");
    let big = sizes(&[("E", 2048.0), ("F", 8192.0)]);
    let c = array_collective(CollOp::AllGather, &arr("bf16[E_Y,F]"), &['Y'], &l, &big).unwrap();
    let v = 2.0 * 2048.0 * 8192.0;
    close(
        c.cost.cost.bandwidth_time,
        3.0 / 4.0 * v / 4.5e10,
        1e-12,
        "a line",
    );
    close(
        c.cost.cost.bandwidth_time,
        3.0 * 8.4e6 / 4.5e10,
        0.002,
        "the book's 560 µs",
    );
    close(c.cost.cost.latency, 3e-6, 1e-12, "3 hops");
    // With a wraparound it would be the book's first estimate, V / 9e10.
    close(c.wrapped.book_time, v / 9e10, 1e-12, "377 µs wrapped");
    let small = sizes(&[("E", 256.0), ("F", 256.0)]);
    let c = array_collective(CollOp::AllGather, &arr("bf16[E_Y,F]"), &['Y'], &l, &small).unwrap();
    close(c.local_in, 32_768.0, 1e-12, "a 32 kB shard");
    assert_eq!(c.cost.bound, CollBound::Latency);
    close(c.cost.cost.latency, 3e-6, 1e-12, "about 3 µs");
}

/// Part 3's Question 2 on TPU v4p 4×4×4 (every axis wraps; W = 9e10 both
/// ways), B = 1024, D = 4096, bf16: AllGather_X([B_X, D_Y]) moves 2BD/Y,
/// 2·1024·4096/(9e10·4) ≈ 23 µs; AllGather_XY the whole 2BD over twice the
/// bandwidth, ≈ 46 µs, with a latency of 4 hops; AllReduce_Z of
/// [B_X, D_Y]{U_Z}, 4BD/(16·W) ≈ 11.6 µs. Question 3: AllGather_X([B_X])
/// of 128 values is latency-bound, 2 hops, about 2 µs.
#[test]
fn question_2_and_3_on_v4p() {
    let l = links("v4p", "X:4,Y:4,Z:4");
    let s = sizes(&[("B", 1024.0), ("D", 4096.0)]);
    let a = arr("bf16[B_X,D_Y]");
    let x = array_collective(CollOp::AllGather, &a, &['X'], &l, &s).unwrap();
    close(
        x.cost.book_time,
        2.0 * 1024.0 * 4096.0 / (9e10 * 4.0),
        1e-12,
        "part 1",
    );
    close(x.cost.book_time, 23.3e-6, 0.001, "23 µs");
    let xy = array_collective(CollOp::AllGather, &a, &['X', 'Y'], &l, &s).unwrap();
    close(
        xy.cost.book_time,
        2.0 * 1024.0 * 4096.0 / (2.0 * 9e10),
        1e-12,
        "part 2",
    );
    close(xy.cost.cost.latency, 4e-6, 1e-12, "4 µs of latency");
    let u = arr("bf16[B_X,D_Y]{U_Z}");
    assert_eq!(u.text(), "bf16[B_X,D_Y]{U_Z}");
    let z = array_collective(CollOp::AllReduce, &u, &['Z'], &l, &s).unwrap();
    assert_eq!(z.output.text(), "bf16[B_X,D_Y]");
    let wrong = array_collective(CollOp::AllReduce, &u, &['X'], &l, &s).unwrap_err();
    assert!(wrong.to_string().contains("partial sums over Z"), "{wrong}");
    assert!(
        ShardedArray::parse("bf16[B_X,D]{U_X}").is_err(),
        "split and unreduced"
    );
    assert!(ShardedArray::parse("bf16[B,D]{Z}").is_err());
    close(
        z.cost.book_time,
        4.0 * 1024.0 * 4096.0 / (16.0 * 9e10),
        1e-12,
        "part 3",
    );
    close(z.cost.book_time, 11.6e-6, 0.005, "11.6 µs");
    let tiny = sizes(&[("B", 128.0)]);
    let q3 = array_collective(CollOp::AllGather, &arr("bf16[B_X]"), &['X'], &l, &tiny).unwrap();
    assert_eq!(q3.cost.bound, CollBound::Latency);
    close(q3.cost.cost.latency, 2e-6, 1e-12, "2 hops");
    close(q3.cost.cost.time, 2e-6, 0.01, "about 2 µs");
}

/// The chart: 33 message sizes from 1 kB to 100 GB; each time is the
/// latency floor plus the bandwidth line; small messages sit on the floor,
/// large ones on the line.
#[test]
fn the_chart_has_a_floor_and_a_line() {
    let l = links("v5e", "X:16");
    let axes: Vec<_> = l.axes.iter().collect();
    let pts = roofline_core::scale::series(CollOp::AllGather, &axes);
    assert_eq!(pts.len(), 33);
    close(pts[0].bytes, 1e3, 1e-12, "from 1 kB");
    close(pts[32].bytes, 1e11, 1e-9, "to 100 GB");
    for p in &pts {
        close(p.time, p.latency + p.bandwidth, 1e-12, "sum");
        close(p.latency, 8e-6, 1e-12, "the floor");
        close(p.bandwidth, 15.0 / 16.0 * p.bytes / 9e10, 1e-12, "the line");
    }
    assert!(pts[0].latency > pts[0].bandwidth && pts[32].bandwidth > pts[32].latency);
}

/// Part 3's pop quiz 2 on a v5e X:8,Y:4 (Y does not wrap): AllGather_Y of
/// bf16[E_Y, F], E = 2048, F = 8192, is (n − 1)/n · V / W_one-way = 560 µs
/// as the book answers it, and the derivation says the book keeps the
/// (n − 1)/n there though its formula, shown beside, drops it.
#[test]
fn a_lines_gather_keeps_n_minus_one_as_the_pop_quiz() {
    let l = links("v5e", "X:8,Y:4");
    let s = sizes(&[("E", 2048.0), ("F", 8192.0)]);
    let g = array_collective(CollOp::AllGather, &arr("bf16[E_Y,F]"), &['Y'], &l, &s).unwrap();
    let v = 2.0 * 2048.0 * 8192.0;
    close(
        g.cost.cost.bandwidth_time,
        0.75 * v / 4.5e10,
        1e-12,
        "3 · V/4 / W_one-way",
    );
    close(
        g.cost.cost.bandwidth_time,
        560e-6,
        0.01,
        "the book's 560 µs",
    );
    close(g.cost.book_time, v / 4.5e10, 1e-12, "the formula's V / W");
    assert!(
        g.derivation
            .iter()
            .any(|d| d.contains("its own pop quiz keeps it")),
        "{:?}",
        g.derivation
    );
}
