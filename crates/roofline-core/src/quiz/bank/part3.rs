//! Part 3's questions, the sharded-matrices chapter (`p3-…`): the pop
//! quizzes on a sharded array's bytes and an AllGather's time, and the
//! problems on replication, collectives over one and two axes, a
//! latency-bound gather, and the two strategies for a matmul whose
//! contracting dimension one input splits. Every answer is the Scale
//! page's core ([`crate::scale`]) on the question's mesh.

use crate::format::{bytes, count, sci};
use crate::quiz::answer::{ChoiceOption, Unit};
use crate::quiz::{CalcSetup, Part, Question, ScaleSetup, SOURCE_POP, SOURCE_PRACTICE};
use crate::scale::{axes_size, CollOp, Mesh, ShardedArray};
use crate::{CoreError, LevelKind};

use super::feedback::Era;
use super::helpers::question;
use super::scales::{
    apart, coll, coll_state, latency_options, links, opens_scale, sizes, us, which_w,
};
use super::{invalid, Draw};

use CollOp::{AllGather, AllReduce};

fn source(what: &str, n: u32) -> String {
    format!("Part 3, {} {n}", what.to_lowercase())
}

/// The calculator's setup a collective's question carries: a
/// matrix-vector product over the array's two dimensions, so that the
/// Scale page finds their sizes.
pub(super) fn vec_calc(chip: &str, dt: &str, a: (&str, f64), b: (&str, f64)) -> CalcSetup {
    CalcSetup::new(
        chip,
        &format!("{dt}[{},{}] * {dt}[{}] -> {dt}[{}]", a.0, b.0, b.0, a.0),
        &[a, b],
        LevelKind::Hbm,
    )
}

/// Pop quiz 1: an fp32 array split over two axes, its bytes a device and
/// their load time from HBM.
pub(super) fn p3_pop1(d: &mut Draw) -> Result<Question, CoreError> {
    let (mx, my) = d.pick((8u64, 2u64), &[(4, 2), (8, 2), (4, 4), (8, 4), (2, 8)]);
    let i = d.pick(1024.0, &[512.0, 1024.0, 2048.0]);
    let j = d.pick(4096.0, &[2048.0, 4096.0, 8192.0]);
    let bw = 3.4e12;
    let mesh = format!("X:{mx},Y:{my}");
    let m = Mesh::parse(&mesh)?;
    let arr = ShardedArray::parse("fp32[I_XY,J]")?;
    let sz = sizes(&[("I", i), ("J", j)]);
    let whole = arr.bytes(&sz)?;
    let per = whole / axes_size(&arr.axes(), &m);
    let t = per / bw;
    let mib = 1_048_576.0;
    let rounded = Era::new(
        "the book's rounding of a MiB to 1e6 bytes".to_string(),
        format!("{} bytes ÷ {bw:e} bytes/s is {}", count(per), us(t)),
    );
    let parts = vec![
        Part::number(
            "a",
            "How many bytes does each device hold?".to_string(),
            Unit::Bytes,
            0.05,
            (per, Vec::new()),
            "I is split over X and Y together: each device holds I/(|X|·|Y|) rows of every column, 4 bytes a value.".to_string(),
            vec![
                format!("Local shape fp32[{}, {}]: I/({mx}·{my}) by J.", count(i / (mx * my) as f64), count(j)),
                format!("4 · {} · {} = {} ({}).", count(i / (mx * my) as f64), count(j), count(per), bytes(per)),
                "The tolerance is 5%, so that MiB and MB both pass, as the book writes one and computes with the other.".to_string(),
            ],
        )
        .mistake_number(whole, "That is the whole array; A[I_XY, J] splits I over both axes, so each device holds 1/(|X|·|Y|) of it.".to_string())
        .mistake_number(whole / mx as f64, "That splits I over X only; the subscript XY splits it over X and Y together.".to_string())
        .mistake_number(per / 2.0, "That takes 2 bytes a value, bf16's; the array is fp32, 4 bytes.".to_string()),
        Part::number(
            "b",
            format!("How long does one device take to load its shard from HBM at {bw:e} bytes/s?"),
            Unit::Seconds,
            0.06,
            (t, vec![(per / mib * 1e6 / bw, rounded)]),
            "Every device loads its own shard at the same time: the shard's bytes over one device's bandwidth.".to_string(),
            vec![
                format!("{} bytes ÷ {bw:e} bytes/s = {}.", count(per), crate::format::seconds(t)),
                "In practice overheads make so small a load take longer.".to_string(),
            ],
        )
        .mistake_number(whole / bw, "That loads the whole array on one device; each device loads only its shard, all at once.".to_string()),
    ];
    let calc = vec_calc("h100", "fp32", ("I", i), ("J", j));
    let q = question(
        "p3-pop1",
        &source(SOURCE_POP, 1),
        format!(
            "An array fp32[{}, {}] is sharded A[I_XY, J] over the mesh {{X: {mx}, Y: {my}}} of H100s, with {bw:e} bytes/s of HBM bandwidth a GPU.",
            count(i), count(j)
        ),
        parts,
        calc,
    )?;
    let s = coll_state(&mesh, AllGather, "XY", "fp32[I_XY,J]");
    Ok(opens_scale(q, ScaleSetup::new(s), None))
}

/// Pop quiz 2: an int8 array split over two of three axes: its bytes a
/// device and over all devices (replicated over the third).
pub(super) fn p3_pop2(d: &mut Draw) -> Result<Question, CoreError> {
    let (x, y, z) = d.pick(
        (2u64, 8u64, 2u64),
        &[(2, 8, 2), (4, 4, 2), (2, 4, 4), (4, 8, 2), (8, 2, 4)],
    );
    let i = d.pick(128.0, &[128.0, 256.0, 512.0]);
    let j = d.pick(2048.0, &[1024.0, 2048.0, 4096.0]);
    let mesh = format!("X:{x},Y:{y},Z:{z}");
    let m = Mesh::parse(&mesh)?;
    let arr = ShardedArray::parse("int8[I_XY,J]")?;
    let sz = sizes(&[("I", i), ("J", j)]);
    let whole = arr.bytes(&sz)?;
    let per = whole / axes_size(&arr.axes(), &m);
    let total = per * m.chips();
    let parts = vec![
        Part::number(
            "a",
            "How many bytes does A take on each device?".to_string(),
            Unit::Bytes,
            0.03,
            (per, Vec::new()),
            "Divide I by the axes it is split over; Z does not split it.".to_string(),
            vec![format!(
                "int8[{}/({x}·{y}), {}] = int8[{}, {}]: {} bytes.",
                count(i),
                count(j),
                count(i / (x * y) as f64),
                count(j),
                count(per)
            )],
        )
        .mistake_number(
            whole / m.chips(),
            "That divides by every device; A is split over X and Y only, and copied along Z."
                .to_string(),
        )
        .mistake_number(
            whole / x as f64,
            "That splits I over X only; XY splits it over both.".to_string(),
        )
        .mistake_number(
            2.0 * per,
            "That takes 2 bytes a value; int8 takes one.".to_string(),
        ),
        Part::number(
            "b",
            "How many bytes does A take over all the devices together?".to_string(),
            Unit::Bytes,
            0.03,
            (total, Vec::new()),
            "Each Z-plane holds one whole copy, split over its X·Y devices.".to_string(),
            vec![
                format!(
                    "{} devices × {} bytes = {} ({}).",
                    count(m.chips()),
                    count(per),
                    count(total),
                    bytes(total)
                ),
                format!("That is |Z| = {z} copies of the {} array.", bytes(whole)),
            ],
        )
        .mistake_number(
            whole,
            "That is one copy; A is replicated along Z, so there are |Z| copies.".to_string(),
        )
        .mistake_number(
            whole * m.chips(),
            "That gives every device the whole array; each holds only its shard.".to_string(),
        ),
    ];
    let calc = vec_calc("v5p", "int8", ("I", i), ("J", j));
    let q = question(
        "p3-pop2",
        &source(SOURCE_POP, 2),
        format!(
            "An array int8[{}, {}] is sharded A[I_XY, J] over the mesh {{X: {x}, Y: {y}, Z: {z}}} ({} devices).",
            count(i), count(j), count(m.chips())
        ),
        parts,
        calc,
    )?;
    let s = coll_state(&mesh, AllGather, "XY", "int8[I_XY,J]");
    Ok(opens_scale(q, ScaleSetup::new(s), None))
}

/// Pop quiz 3 (the book's "Pop Quiz 2"): AllGather_Y([E_Y, F]) on a v5e
/// axis too short to wrap, for a large and a small array.
pub(super) fn p3_pop3(d: &mut Draw) -> Result<Question, CoreError> {
    let (x, y) = d.pick((8u64, 4u64), &[(8, 4), (4, 8), (16, 4), (2, 8), (16, 8)]);
    let (e, f) = d.pick(
        (2048.0, 8192.0),
        &[
            (2048.0, 8192.0),
            (4096.0, 4096.0),
            (1024.0, 16384.0),
            (8192.0, 8192.0),
        ],
    );
    let small = d.pick(256.0, &[128.0, 256.0]);
    let mesh = format!("X:{x},Y:{y}");
    let l = links("v5e", &mesh)?;
    let big = coll(
        &l,
        AllGather,
        "bf16[E_Y,F]",
        "Y",
        &sizes(&[("E", e), ("F", f)]),
    )?;
    let tiny = coll(
        &l,
        AllGather,
        "bf16[E_Y,F]",
        "Y",
        &sizes(&[("E", small), ("F", small)]),
    )?;
    if tiny.cost.bound != crate::scale::CollBound::Latency {
        return Err(invalid("the small gather is not latency-bound"));
    }
    let a = l.axis('Y').ok_or_else(|| invalid("no axis"))?;
    let n = y as f64;
    let v = big.v;
    let t_big = big.cost.cost.time;
    let book_big = (n - 1.0) * (v / n) / a.one_way;
    let t_small = tiny.cost.book_time;
    let summed = Era::new(
        "the Scale page's sum of the hops' latency and the bytes' time".to_string(),
        format!("the book takes the larger, {}", us(t_small)),
    );
    let parts = vec![
        Part::number(
            "a",
            format!("With E = {}, F = {}: how long does the AllGather take?", count(e), count(f)),
            Unit::Seconds,
            0.05,
            (t_big, Vec::new()),
            "Check first whether axis Y wraps around on a v5e: that decides whether a chip can send both ways.".to_string(),
            vec![
                format!("V = 2 bytes · {} · {} = {} (the whole array; the 2 is bf16's bytes).", count(e), count(f), bytes(v)),
                format!("A v5e axis wraps only at 16 chips: {}.", which_w(&l, 'Y')?),
                format!("Each chip receives the (n − 1)/n of V it lacks: {} · {} ÷ {:e} = {} (the book: {} shards of {} over one direction).", (n - 1.0) / n, bytes(v), a.one_way, us(book_big), n - 1.0, bytes(v / n)),
                format!("Add {} hops of 1 µs: {}. The tolerance is 5%: the book's rounding and the hops.", (n - 1.0), us(t_big)),
            ],
        )
        .mistake_number(v / a.bidirectional, "That uses both directions, W = 9e10 bytes/s; a v5e axis shorter than 16 has no wraparound, so the ring is a line and each chip sends one way, 4.5e10 bytes/s.".to_string())
        .mistake_number(v / 2.0 * (n - 1.0) / n / a.one_way, "That counts values, not bytes: bf16 takes 2 bytes a value. The 2 in V = 2·E·F is bytes, not directions or hops.".to_string())
        .mistake_number(2.0 * v * (n - 1.0) / n / a.one_way, "That counts 4 bytes a value; bf16 takes 2.".to_string()),
        Part::choice(
            "b",
            format!("With E = F = {}: is it latency-bound or bandwidth-bound?", count(small)),
            latency_options(),
            0,
            "Compare a shard's time over one link with the 1 µs a hop costs at least.".to_string(),
            vec![
                format!("Each shard: 2 · {} · {} ÷ {y} = {}; ÷ {:e} bytes/s = {}.", count(small), count(small), bytes(tiny.local_in), a.one_way, us(tiny.local_in / a.one_way)),
                "That is under the 1 µs a hop takes: latency-bound.".to_string(),
            ],
        )
        .mistake_choice(1, "Each shard takes less than a µs on the link, less than one hop's latency: the hops bind.".to_string()),
        Part::number(
            "c",
            format!("With E = F = {}: about how long does it take?", count(small)),
            Unit::Seconds,
            0.1,
            (t_small, if apart(t_small, tiny.cost.cost.time, 0.1)? { vec![(tiny.cost.cost.time, summed)] } else { Vec::new() }),
            "Latency-bound: count the hops from one end of the line to the other, about 1 µs each.".to_string(),
            vec![
                format!("{} hops of 1 µs: about {} (the book measured nearer 8 µs).", n - 1.0, us(t_small)),
                format!("The Scale page adds the bytes' time to the hops: {}.", us(tiny.cost.cost.time)),
            ],
        )
        .mistake_number(tiny.cost.cost.bandwidth_time, "That is the bytes' time alone; each hop costs at least about 1 µs, and there are several.".to_string())
        .mistake_number((n / 2.0).floor() * 1e-6, "That counts hops both ways around a ring; without a wraparound the data crosses the whole line, n − 1 hops.".to_string()),
    ];
    let calc = vec_calc("v5e", "bf16", ("E", e), ("F", f));
    let small_calc = vec_calc("v5e", "bf16", ("E", small), ("F", small));
    let parts: Vec<Part> = parts
        .into_iter()
        .map(|p| {
            if p.id == "a" {
                p
            } else {
                p.with_calc(small_calc.clone())
            }
        })
        .collect();
    let q = question(
        "p3-pop3",
        &format!("{} (the book's \"Pop Quiz 2\")", source(SOURCE_POP, 3)),
        format!(
            "AllGather_Y([E_Y, F]) → [E, F] in bf16 on TPU v5e with the mesh {{X: {x}, Y: {y}}} (Part 2's numbers: 4.5e10 bytes/s one way a link, about 1 µs a hop)."
        ),
        parts,
        calc,
    )?;
    let s = coll_state(&mesh, AllGather, "Y", "bf16[E_Y,F]");
    Ok(opens_scale(q, ScaleSetup::new(s), None))
}

/// Question 1: the bytes of an array split over one axis of three, over
/// all devices, against one copy.
pub(super) fn p3_q1(d: &mut Draw) -> Result<Question, CoreError> {
    let (x, y, z) = d.pick(
        (4u64, 8u64, 2u64),
        &[(4, 8, 2), (2, 4, 8), (8, 4, 4), (4, 4, 4), (16, 2, 2)],
    );
    let mesh = format!("X:{x},Y:{y},Z:{z}");
    let m = Mesh::parse(&mesh)?;
    let arr = ShardedArray::parse("bf16[I_X,J,K]")?;
    let ratio = m.chips() / axes_size(&arr.axes(), &m);
    let parts = vec![Part::number(
        "a",
        "Bytes of A over all chips ÷ the bytes of one copy?".to_string(),
        Unit::None,
        0.001,
        (ratio, Vec::new()),
        "Each chip holds 1/|X| of A; count the chips and multiply.".to_string(),
        vec![
            format!("{} chips × 1/{x} of A = {} copies: |Y|·|Z| = {y} · {z}.", count(m.chips()), count(ratio)),
        ],
    )
    .mistake_number(x as f64, "That is how many pieces A is cut into; each piece is copied on every chip of the other axes.".to_string())
    .mistake_number(m.chips(), "That gives each chip a whole copy; each holds 1/|X| of A.".to_string())
    .mistake_number(1.0 / x as f64, "That is one chip's share of one copy; the question asks for all chips together.".to_string())];
    let calc = vec_calc("v5p", "bf16", ("I", 4096.0), ("J", 4096.0));
    let q = question(
        "p3-q1",
        &source(SOURCE_PRACTICE, 1),
        format!("An array is sharded A[I_X, J, K, …] (split over X only) on the mesh {{X: {x}, Y: {y}, Z: {z}}}."),
        parts,
        calc,
    )?;
    let s = coll_state(&mesh, AllGather, "X", "bf16[I_X,J]");
    Ok(opens_scale(q, ScaleSetup::new(s), None))
}

pub(super) use super::part3_more::{p3_q10, p3_q2, p3_q3, p3_q4};

/// Options: which strategy is faster.
pub(super) fn strategy_options() -> Vec<ChoiceOption> {
    vec![
        ChoiceOption::new(
            "Strategy 1: AllGather the weights, then multiply",
            &["1", "strategy 1", "allgather", "gather", "all gather"],
        ),
        ChoiceOption::new(
            "Strategy 2: multiply the shards, then AllReduce",
            &["2", "strategy 2", "allreduce", "reduce", "all reduce"],
        ),
    ]
}

/// The AllReduce of the Scale page's collective for a question.
pub(super) fn reduce_state(mesh: &str, axes: &str, arr: &str) -> crate::scale::ScaleState {
    coll_state(mesh, AllReduce, axes, arr)
}

/// `x` in scientific form, for solutions.
pub(super) fn s(x: f64) -> String {
    sci(x)
}
