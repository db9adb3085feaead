//! Part 3's problems 2 to 4: collectives over one and two axes of a v4p
//! cube, a latency-bound gather, and the two strategies for a matmul
//! whose contracting dimension one input splits.

use crate::format::{bytes, count};
use crate::quiz::answer::Unit;
use crate::quiz::{Part, Question, ScaleSetup, SOURCE_PRACTICE};
use crate::scale::{CollBound, CollOp};
use crate::{CoreError, DType};

use super::feedback::Era;
use super::helpers::question;
use super::part3::{reduce_state, s, strategy_options, vec_calc};
use super::scales::{
    apart, coll, coll_state, latency_options, links, opens_scale, sizes, us, which_w,
};
use super::{invalid, Draw};

use CollOp::{AllGather, AllReduce};

fn source(n: u32) -> String {
    format!("Part 3, {} {n}", SOURCE_PRACTICE.to_lowercase())
}

fn page_era(book: f64) -> Era {
    Era::new(
        "(n − 1)/n of V and the hops' latency added, as the Scale page counts".to_string(),
        format!("the book's V / W drops both: {}", us(book)),
    )
}

/// Question 2: AllGather over X, over XY, and an AllReduce over Z, on a
/// cube whose every axis wraps.
pub(super) fn p3_q2(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick("v4p", &["v4p", "v5p"]);
    let b = d.pick(1024.0, &[512.0, 1024.0, 2048.0, 4096.0]);
    let dd = d.pick(4096.0, &[2048.0, 4096.0, 8192.0]);
    let mesh = "X:4,Y:4,Z:4";
    let l = links(chip, mesh)?;
    let sz = sizes(&[("B", b), ("D", dd)]);
    let gx = coll(&l, AllGather, "bf16[B_X,D_Y]", "X", &sz)?;
    let gxy = coll(&l, AllGather, "bf16[B_X,D_Y]", "XY", &sz)?;
    let rz = coll(&l, AllReduce, "bf16[B_X,D_Y]{U_Z}", "Z", &sz)?;
    if [&gx, &gxy, &rz]
        .iter()
        .any(|c| c.cost.bound != CollBound::Bandwidth)
    {
        return Err(invalid("a collective is latency-bound"));
    }
    let a = l.axis('X').ok_or_else(|| invalid("no axis"))?;
    let w = a.per_chip();
    let whole = 2.0 * b * dd;
    // The Scale page's own time passes too, with a note, where it differs
    // from the book's by more than the tolerance.
    let with = |c: &super::scales::Coll, tol: f64| -> Result<(f64, Vec<(f64, Era)>), CoreError> {
        let (book, page) = (c.cost.book_time, c.cost.cost.time);
        let eras = if apart(book, page, tol)? {
            vec![(page, page_era(book))]
        } else {
            Vec::new()
        };
        Ok((book, eras))
    };
    let parts = vec![
        Part::number(
            "a",
            "How long does AllGather_X([B_X, D_Y]) take?".to_string(),
            Unit::Seconds,
            0.03,
            with(&gx, 0.03)?,
            "Within one Y-shard, the gather over X is an unsharded gather of 1/|Y| of the array; which W does a full 4-chip axis give?".to_string(),
            vec![
                format!("V = 2BD/|Y| = 2 · {} · {} / 4 = {} (2 bytes a bf16 value).", count(b), count(dd), bytes(gx.v)),
                format!("A full cube wraps every axis: {}.", which_w(&l, 'X')?),
                format!("T = V / W = {}, well above the 2 hops' 2 µs.", us(gx.cost.book_time)),
            ],
        )
        .mistake_number(gx.v / a.one_way, "That uses one direction's bandwidth; every axis of a full cube wraps around, so a ring sends both ways: W is twice the one-way figure.".to_string())
        .mistake_number(whole / w, "That gathers the whole array; D stays split over Y, so each X-ring gathers only 1/|Y| of it.".to_string()),
        Part::number(
            "b",
            "How long does AllGather_XY([B_X, D_Y]) take?".to_string(),
            Unit::Seconds,
            0.03,
            with(&gxy, 0.03)?,
            "Now the whole array is gathered, but over two axes' links at once.".to_string(),
            vec![
                format!("V = 2BD = {}; two axes give 2W = {:e} bytes/s.", bytes(whole), 2.0 * w),
                format!("T = V / (2W) = {}; the latency, (4 + 4)/2 = 4 hops, is about 4 µs.", us(gxy.cost.book_time)),
            ],
        )
        .mistake_number(whole / w, "That uses one axis's links; gathering over X and Y uses both axes' links at once, twice the bandwidth.".to_string()),
        Part::number(
            "c",
            "How long does AllReduce_Z([B_X, D_Y]{U_Z}) take?".to_string(),
            Unit::Seconds,
            0.02,
            with(&rz, 0.02)?,
            "The partial sums to reduce are each chip's shard, 2BD/(|X|·|Y|) bytes; and an AllReduce is a ReduceScatter then an AllGather.".to_string(),
            vec![
                format!("V = 2BD/(|X|·|Y|) = {}.", bytes(rz.v)),
                format!("T = 2 · V / W = {}: the 2 is the two collectives.", us(rz.cost.book_time)),
            ],
        )
        .mistake_number(rz.v / w, "That is one AllGather; an AllReduce is a ReduceScatter then an AllGather, twice the time: 2V/W.".to_string())
        .mistake_number(2.0 * whole / w, "That reduces the whole array; each Z-ring holds one X·Y shard, 1/16 of it.".to_string())
        .mistake_number(2.0 * rz.v / a.one_way, "That uses one direction; the wrapped axis sends both ways.".to_string()),
    ];
    let calc = vec_calc(chip, "bf16", ("B", b), ("D", dd));
    let name = calc.chip()?.name;
    let q = question(
        "p3-q2",
        &source(2),
        format!(
            "On a {name} 4x4x4 slice with the mesh {{X: 4, Y: 4, Z: 4}}, B = {} and D = {} in bf16 (1 µs a hop).",
            count(b), count(dd)
        ),
        parts,
        calc,
    )?;
    let setup = ScaleSetup {
        state: coll_state(mesh, AllGather, "X", "bf16[B_X,D_Y]"),
        op: None,
        parts: vec![
            (
                "b".to_string(),
                coll_state(mesh, AllGather, "XY", "bf16[B_X,D_Y]"),
            ),
            (
                "c".to_string(),
                reduce_state(mesh, "Z", "bf16[B_X,D_Y]{U_Z}"),
            ),
        ],
    };
    Ok(opens_scale(q, setup, None))
}

/// Question 3: a tiny AllGather is latency-bound.
pub(super) fn p3_q3(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick("v4p", &["v4p", "v5p"]);
    let x = d.pick(4u64, &[4, 8, 12, 16]);
    let b = d.pick(128.0, &[64.0, 128.0, 256.0, 512.0]);
    let mesh = format!("X:{x},Y:4,Z:4");
    let l = links(chip, &mesh)?;
    let c = coll(&l, AllGather, "bf16[B_X]", "X", &sizes(&[("B", b)]))?;
    if c.cost.bound != CollBound::Latency {
        return Err(invalid("not latency-bound"));
    }
    let n = x as f64;
    let hops = (n / 2.0).floor();
    let parts = vec![
        Part::choice(
            "a",
            "Is it latency-bound or bandwidth-bound?".to_string(),
            latency_options(),
            0,
            "Compare a chip's shard over one link with the 1 µs a hop costs.".to_string(),
            vec![format!(
                "The array is {} in all, {} a chip: well under a µs on the link, far below a hop's 1 µs.",
                bytes(2.0 * b),
                bytes(c.local_in)
            )],
        )
        .mistake_choice(1, "A few hundred bytes take a few ns on a link; each hop costs about 1 µs, so the hops bind.".to_string()),
        Part::number(
            "b",
            "About how long does it take?".to_string(),
            Unit::Seconds,
            0.1,
            (c.cost.book_time, Vec::new()),
            "Count the hops: does axis X wrap around?".to_string(),
            vec![
                format!("{}.", which_w(&l, 'X')?),
                format!("Sending both ways, the gather takes ⌊{x}/2⌋ = {hops} hops of 1 µs: about {}.", us(c.cost.book_time)),
            ],
        )
        .mistake_number((n - 1.0) * 1e-6, format!("That sends one way round, n − 1 hops; axis X of {x} wraps around, so the data goes both ways: ⌊n/2⌋ hops."))
        .mistake_number(c.cost.cost.bandwidth_time, "That is the bytes' time alone; every hop costs about 1 µs whatever it carries.".to_string()),
    ];
    let calc = vec_calc(chip, "bf16", ("B", b), ("D", 128.0));
    let name = calc.chip()?.name;
    let q = question(
        "p3-q3",
        &source(3),
        format!(
            "AllGather_X([B_X]) with B = {} in bf16 on a {name} slice with the mesh {{X: {x}, Y: 4, Z: 4}} (1 µs a hop).",
            count(b)
        ),
        parts,
        calc,
    )?;
    let s = coll_state(&mesh, AllGather, "X", "bf16[B_X]");
    Ok(opens_scale(q, ScaleSetup::new(s), None))
}

/// Question 4: AllGather the split weights then multiply, or multiply the
/// shards then AllReduce the output.
pub(super) fn p3_q4(d: &mut Draw) -> Result<Question, CoreError> {
    let x = d.pick(4u64, &[4, 8, 16]);
    let b = d.pick(1024.0, &[256.0, 512.0, 1024.0, 2048.0, 8192.0]);
    let dd = d.pick(8192.0, &[2048.0, 4096.0, 8192.0]);
    let f = d.pick(32768.0, &[8192.0, 16384.0, 32768.0]);
    let mesh = format!("X:{x}");
    let l = links("v5p", &mesh)?;
    let chip = crate::hardware::preset("v5p").ok_or_else(|| invalid("no chip"))?;
    let sz = sizes(&[("B", b), ("D", dd), ("F", f)]);
    let op = "bf16[B,D]*bf16[D_X,F]->bf16[B,F]";
    // Strategy 1, the Scale page's Case 2: gather the weights, 2DF bytes,
    // then the whole matmul on each chip.
    let c = chip.peak(DType::Bf16)?;
    let gather = coll(&l, AllGather, "bf16[D_X,F]", "X", &sz)?;
    let red = coll(&l, AllReduce, "bf16[B,F]", "X", &sz)?;
    let m_math = 2.0 * b * dd * f / c;
    let m_comms = gather.cost.cost.time;
    let n = x as f64;
    let t1 = m_math.max(m_comms);
    let t2 = (m_math / n).max(red.cost.cost.time);
    let r = t1 / t2;
    if (0.8..1.25).contains(&r) {
        return Err(invalid("too close to call"));
    }
    let right = usize::from(t2 < t1);
    let w = l.axis('X').ok_or_else(|| invalid("no axis"))?.per_chip();
    let sym = &["B", "D", "F", "X", "W", "C"];
    let parts = vec![
        Part::formula(
            "a",
            "Strategy 1's comms time: a formula in B, D, F, X, W (bytes/s a chip) and C (FLOPs/s).".to_string(),
            sym,
            "2*D*F/W".to_string(),
            Vec::new(),
            "It gathers the weights Y[D_X, F]: V is the whole bf16 matrix.".to_string(),
            vec!["AllGather of V = 2DF bytes (bf16): T = 2DF / W, whatever X is; then 2BDF / C of math on each chip.".to_string()],
        )
        .mistake_formula("D*F/W", "That counts values, not bytes: bf16 takes 2 bytes a value, so V = 2DF.".to_string())
        .mistake_formula("2*D*F/(X*W)", "That divides by the axis; an AllGather's time does not depend on the axis's size: each chip receives nearly all of V.".to_string()),
        Part::formula(
            "b",
            "Strategy 2's comms time, in the same symbols?".to_string(),
            sym,
            "4*B*F/W".to_string(),
            Vec::new(),
            "It AllReduces the output Z[B, F]{U_X}: V = 2BF bytes; what does an AllReduce cost?".to_string(),
            vec![
                "V = 2BF bytes; an AllReduce is a ReduceScatter then an AllGather: 2V / W = 4BF / W.".to_string(),
                "Its math is 2BDF / (X·C): the shards are multiplied where they lie.".to_string(),
            ],
        )
        .mistake_formula("2*B*F/W", "That is one AllGather; an AllReduce is a ReduceScatter and an AllGather, twice as long: 4BF / W.".to_string())
        .mistake_formula("2*D*F/W", "That is Strategy 1's gather of the weights; Strategy 2 reduces the output [B, F].".to_string()),
        Part::choice(
            "c",
            format!(
                "On TPU v5p (C = {c:e} FLOPs/s, W = {w:e} bytes/s) with X = {x}, B = {}, D = {}, F = {}: which strategy is faster?",
                count(b), count(dd), count(f)
            ),
            strategy_options(),
            right,
            "Each takes the larger of its math and its comms (they overlap). Compare max(2BDF/C, 2DF/W) with max(2BDF/(XC), 4BF/W).".to_string(),
            vec![
                format!("Strategy 1: max({}, {}) = {} (the Scale page: hops and (n − 1)/n included).", us(m_math), us(m_comms), us(t1)),
                format!("Strategy 2: max({}, {}) = {}.", us(m_math / n), us(red.cost.cost.time), us(t2)),
                format!("The book: Strategy 2 wins when the batch is small (D > 2B) or when D > 2·C/W = {}.", s(2.0 * c / w)),
            ],
        )
        .mistake_choice(1 - right, "Compare both strategies' larger time, math or comms: the AllReduce's 2 counts, and so does the math Strategy 2 saves.".to_string()),
    ];
    let calc = crate::quiz::CalcSetup::new(
        "v5p",
        "bf16[B,D] * bf16[D,F] -> bf16[B,F]",
        &[("B", b), ("D", dd), ("F", f)],
        crate::LevelKind::Hbm,
    );
    let q = question(
        "p3-q4",
        &source(4),
        format!(
            "X[B, D] ·_D Y[D_X, F] → Z[B, F]. Strategy 1 AllGathers Y over X, then multiplies whole matrices (Case 2). Strategy 2 multiplies the local shards, X[B, D_X] · Y[D_X, F] → Z[B, F]{{U_X}}, then AllReduces Z over X (Case 3). Here on a TPU v5p ring of {x}, bf16, with B = {}, D = {}, F = {}.",
            count(b),
            count(dd),
            count(f)
        ),
        parts,
        calc,
    )?;
    // The page shows Strategy 1 as its sharded matmul (Case 2, with the
    // alternative beside it) and Strategy 2's AllReduce as its collective.
    let setup = ScaleSetup {
        op: Some(op.to_string()),
        ..ScaleSetup::new(reduce_state(&mesh, "X", "bf16[B,F]"))
    };
    Ok(opens_scale(q, setup, None))
}

/// Question 10: where an AllToAll's factor of 4 comes from, and one on a
/// wrapped v5p ring.
pub(super) fn p3_q10(d: &mut Draw) -> Result<Question, CoreError> {
    let x = d.pick(16u64, &[4, 8, 16, 32]);
    let nn = d.pick(8192.0, &[2048.0, 4096.0, 8192.0, 16384.0]);
    let mesh = format!("X:{x}");
    let l = links("v5p", &mesh)?;
    let c = coll(
        &l,
        CollOp::AllToAll,
        "bf16[I,J_X]",
        "X",
        &sizes(&[("I", nn), ("J", nn)]),
    )?;
    let g = coll(
        &l,
        AllGather,
        "bf16[I,J_X]",
        "X",
        &sizes(&[("I", nn), ("J", nn)]),
    )?;
    if c.cost.bound != CollBound::Bandwidth {
        return Err(invalid("latency-bound"));
    }
    let w = l.axis('X').ok_or_else(|| invalid("no axis"))?.per_chip();
    let n = x as f64;
    let t = c.cost.book_time;
    let sym = &["N", "D"];
    let parts = vec![
        Part::formula(
            "a",
            "On a one-way ring of D devices, an AllGather of an N×N matrix A[I_X, J]: how many values cross one link in all? A formula in N and D.".to_string(),
            sym,
            "N^2*(D-1)/D".to_string(),
            Vec::new(),
            "Each step every device passes one strip of N/D × N values to its neighbour; how many steps?".to_string(),
            vec!["D − 1 steps of N²/D values: N²(D − 1)/D, about N².".to_string()],
        )
        .mistake_formula("N^2/D", "That is one step; a strip must reach all D − 1 other devices: D − 1 steps.".to_string()),
        Part::formula(
            "b",
            "And an AllToAll on the same one-way ring?".to_string(),
            sym,
            "N^2*(D-1)/(2*D)".to_string(),
            Vec::new(),
            "A device's strip is D blocks of N²/D² values; each block goes only as far as its own device.".to_string(),
            vec!["Blocks travel D − 1, D − 2, …, 1 links: D(D − 1)/2 block-hops of N²/D² values, per link N²(D − 1)/(2D): half an AllGather's.".to_string()],
        )
        .mistake_formula("N^2*(D-1)/D", "That moves every block all the way round, as an AllGather does; in an AllToAll a block stops at its own device.".to_string()),
        Part::number(
            "c",
            "On a ring that sends both ways, an AllGather takes how many times an AllToAll's time?".to_string(),
            Unit::None,
            0.01,
            (g.cost.book_time / t, Vec::new()),
            "Both ways halves an AllGather's time, but cuts an AllToAll's by 4: blocks go at most D/2 either way.".to_string(),
            vec!["One way: 2 (part b). Both ways: the gather gains 2, the AllToAll 4 (D²/2 block-hops become D²/8): 2 · 4 / 2 = 4.".to_string()],
        )
        .mistake_number(2.0, "That is the one-way ring's ratio; both directions help the AllToAll twice as much as the gather: 4.".to_string()),
        Part::number(
            "d",
            format!("AllToAll_X of bf16[I, J_X] → [I_X, J] with I = J = {} on a TPU v5p ring of {x} (wrapped, W = {w:e} bytes/s): how long?", count(nn)),
            Unit::Seconds,
            0.03,
            (t, if apart(t, c.cost.cost.time, 0.03)? { vec![(c.cost.cost.time, page_era(t))] } else { Vec::new() }),
            "T = V · max(axis) / (4 · N · W), with V the whole array's bytes over all devices.".to_string(),
            vec![
                format!("V = 2 · {}² = {} over all {x} devices.", count(nn), bytes(c.v)),
                format!("T = V · {x} / (4 · {x} · W) = V / (4W) = {}.", us(t)),
            ],
        )
        .mistake_number(t / n, "That takes V as one device's bytes; in V·max/(4·N·W), V is the whole array over all devices (per device, (V/N)·max/(4W)).".to_string())
        .mistake_number(c.v / w, "That is an AllGather's V / W; an AllToAll moves each block only part way: a quarter of it.".to_string())
        .mistake_number(c.v / (2.0 * w), "That is the one-way ring's half; both ways an AllToAll takes a quarter of an AllGather.".to_string()),
    ];
    let q = question(
        "p3-q10",
        &source(10),
        format!("An AllToAll, A[I, J_X] → A[I_X, J], against an AllGather, on a ring of devices; then one on a TPU v5p ring of {x}, I = J = {}.", count(nn)),
        parts,
        vec_calc("v5p", "bf16", ("I", nn), ("J", nn)),
    )?;
    let s = coll_state(&mesh, CollOp::AllToAll, "X", "bf16[I,J_X]");
    Ok(opens_scale(q, ScaleSetup::new(s), None))
}
