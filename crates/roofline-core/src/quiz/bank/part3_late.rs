//! Part 3's problems 5, 6, 7 and 9: the sharding with the least latency, three
//! shardings of a matmul on a v5e slice, a layer under a memory limit, and
//! multiplying then reducing when one input splits the summed dimension.
//! The book answers problem 5 in part and problems 6 and 7 hardly at all:
//! those answers are the app's, worked on sizes the app picks and says so.
//! Problem 8, the benchmark, is in `part3_bench`. Every time is the Scale
//! page's core ([`crate::scale`]).

use crate::format::{bytes, count};
use crate::quiz::answer::{ChoiceOption, Unit};
use crate::quiz::{CalcSetup, Part, Question, ScaleSetup, SOURCE_PRACTICE};
use crate::scale::{sharded_matmul, CollBound, CollOp, MeshLinks, ShardedMatmul};
use crate::{CoreError, DType, LevelKind};

use super::feedback::Era;
use super::helpers::question;
use super::part3::reduce_state;
use super::scales::{apart, bound_options, coll, coll_state, links, opens_scale, sizes, us};
use super::{invalid, Draw};

use CollOp::{AllGather, AllReduce, ReduceScatter};

/// How much of a problem the book answers.
#[derive(Clone, Copy)]
enum Book {
    /// All of it.
    Answers,
    /// Some of it: the rest, and the numbers, are the app's.
    InPart,
    /// None of it: the app's.
    Not,
}

/// The source line, saying whose answer it is.
fn source(n: u32, book: Book) -> String {
    let s = format!("Part 3, {} {n}", SOURCE_PRACTICE.to_lowercase());
    match book {
        Book::Answers => s,
        Book::InPart => {
            format!("{s} (the book answers it in part: the rest, and the numbers, are the app's)")
        }
        Book::Not => format!("{s} (the book gives no answer: the app's, on sizes it names)"),
    }
}

/// A three-dimension matmul's calculator setup, so that the Scale page
/// finds its sizes.
fn calc3(chip: &str, a: (&str, f64), b: (&str, f64), c: (&str, f64)) -> CalcSetup {
    CalcSetup::new(
        chip,
        &format!(
            "bf16[{0},{1}] * bf16[{1},{2}] -> bf16[{0},{2}]",
            a.0, b.0, c.0
        ),
        &[a, b, c],
        LevelKind::Hbm,
    )
}

/// The Scale page's sharded matmul `op` on the mesh.
fn matmul(
    op: &str,
    l: &MeshLinks,
    chip: &str,
    sz: &crate::op::Sizes,
) -> Result<ShardedMatmul, CoreError> {
    let c = crate::hardware::preset(chip).ok_or_else(|| invalid("no such chip"))?;
    sharded_matmul(op, l, &c, sz)
}

/// The book's form of a time beside the page's, with a note, where the two
/// differ by more than the tolerance.
pub(super) fn with_book(
    page: f64,
    book: f64,
    tol: f64,
) -> Result<(f64, Vec<(f64, Era)>), CoreError> {
    let era = Era::new(
        "the book's V / W, without the (n − 1)/n of V a chip receives and the hops' latency"
            .to_string(),
        "the Scale page counts both".to_string(),
    );
    Ok((
        page,
        if apart(page, book, tol)? {
            vec![(book, era)]
        } else {
            Vec::new()
        },
    ))
}

/// The collectives, and none.
pub(super) fn collective_options() -> Vec<ChoiceOption> {
    vec![
        ChoiceOption::new("AllGather", &["all gather", "gather", "all_gather"]),
        ChoiceOption::new(
            "ReduceScatter",
            &["reduce scatter", "psum_scatter", "reduce-scatter"],
        ),
        ChoiceOption::new("AllReduce", &["all reduce", "psum", "all_reduce"]),
        ChoiceOption::new("AllToAll", &["all to all", "all_to_all"]),
        ChoiceOption::new(
            "none",
            &[
                "no communication",
                "no comms",
                "nothing",
                "no collective",
                "local",
            ],
        ),
    ]
}

/// The options' indices: AllGather, ReduceScatter, AllReduce, none.
pub(super) const GATHER: usize = 0;
pub(super) const SCATTER: usize = 1;
pub(super) const REDUCE: usize = 2;
pub(super) const NONE: usize = 4;

/// Question 5: the sharding of A[I, J] · B[J, K] with the least latency
/// when C must end up on every chip. The book lists the options and says
/// (1) and (2) tie; the sizes and times are the app's.
pub(super) fn p3_q5(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick("v4p", &["v4p", "v5p"]);
    let ik = d.pick(8192.0, &[4096.0, 8192.0, 16384.0]);
    let j = d.pick(8192.0, &[256.0, 512.0, 1024.0, 4096.0, 8192.0, 16384.0]);
    let mesh = "X:4,Y:4,Z:4";
    let l = links(chip, mesh)?;
    let sz = sizes(&[("I", ik), ("J", j), ("K", ik)]);
    let gather = coll(&l, AllGather, "bf16[I_XYZ,K]", "XYZ", &sz)?;
    let reduce = coll(&l, AllReduce, "bf16[I,K]{U_XYZ}", "XYZ", &sz)?;
    let op3 = "bf16[I,J_XYZ]*bf16[J_XYZ,K]->bf16[I,K]";
    let m3 = matmul(op3, &l, chip, &sz)?;
    let peak = crate::hardware::preset(chip)
        .ok_or_else(|| invalid("no chip"))?
        .peak(DType::Bf16)?;
    let flops = 2.0 * ik * j * ik;
    let t_split = m3.t_math;
    let t_rep = flops / peak;
    let w = l.axis('X').ok_or_else(|| invalid("no axis"))?.per_chip();
    let times = [
        t_split.max(gather.cost.cost.time),
        t_split.max(reduce.cost.cost.time),
        t_rep,
    ];
    let best = (0..3)
        .min_by(|a, b| times[*a].total_cmp(&times[*b]))
        .unwrap_or(0);
    let second = (0..3)
        .filter(|i| *i != best)
        .map(|i| times[i])
        .fold(f64::INFINITY, f64::min);
    if second / times[best] < 1.25 {
        return Err(invalid("too close to call"));
    }
    let sym3 = &["I", "J", "K"];
    let sym = &["I", "J", "K", "W"];
    let name = crate::hardware::preset(chip).map_or_else(|| "TPU".to_string(), |c| c.name);
    let options = vec![
        ChoiceOption::new(
            "(1) or (2): split I (or K) over XYZ, AllGather C at the end",
            &[
                "1",
                "2",
                "1 or 2",
                "(1) or (2)",
                "1 and 2",
                "option 1",
                "option 2",
            ],
        ),
        ChoiceOption::new(
            "(3): split J over XYZ, AllReduce C at the end",
            &["3", "option 3"],
        ),
        ChoiceOption::new(
            "(4): replicate both, no communication",
            &["4", "option 4", "replicated", "fully replicated"],
        ),
    ];
    let parts = vec![
        Part::formula(
            "a",
            "With the work split over all 64 chips (options 1 to 3), how many FLOPs does each chip do? A formula in I, J, K.".to_string(),
            sym3,
            "2*I*J*K*(1/64)".to_string(),
            Vec::new(),
            "A matmul is 2IJK FLOPs (a multiply and an add per product); splitting any one dimension over the 64 chips divides it by 64.".to_string(),
            vec!["2IJK / 64 on every chip for (1), (2) and (3) alike; (4) does all 2IJK on each chip.".to_string()],
        )
        .mistake_formula("2*I*J*K", "That is option (4), every chip doing the whole matmul; (1) to (3) split it over the 64 chips.".to_string())
        .mistake_formula("I*J*K/64", "That counts one FLOP a product; a multiply and an add are 2 FLOPs: 2IJK.".to_string())
        .mistake_formula("2*I*J*K/4", "That splits over one axis of 4; the dimension is split over X, Y and Z, 64 chips.".to_string()),
        Part::formula(
            "b",
            "Option (1): C[I_XYZ, K] is AllGathered over XYZ. Its comms time, in bf16, with W the bytes/s one axis gives a chip (both directions)?".to_string(),
            sym,
            "2*I*K/W/3".to_string(),
            Vec::new(),
            "V is all of C in bf16; a gather over three axes uses all three axes' links at once.".to_string(),
            vec![
                "V = 2IK bytes (2 bytes a bf16 value); over three axes the bandwidth is 3W: T = 2IK / (3W).".to_string(),
                "An AllGather's time does not shrink with the chips: each chip receives nearly all of V.".to_string(),
            ],
        )
        .mistake_formula("2*I*K/W", "That uses one axis's links; gathering over X, Y and Z uses all three axes' links at once: 3W.".to_string())
        .mistake_formula("I*K/(3*W)", "That counts values, not bytes: bf16 takes 2 bytes a value. The 2 in 2IK is bytes, not hops or directions.".to_string())
        .mistake_formula("4*I*K/(3*W)", "That is an AllReduce, option (3)'s; option (1) only gathers C, one collective.".to_string())
        .mistake_formula("2*I*K/(64*W)", "An AllGather's time does not shrink with the chips: each chip receives nearly all of V, so T = V / (3W).".to_string())
        .mistake_formula("2*I*J/(3*W)", "That gathers A; option (1) multiplies the shards first and gathers the output C[I, K].".to_string()),
        Part::formula(
            "c",
            "Option (3): C[I, K]{U_XYZ} is AllReduced over XYZ. Its comms time, in the same symbols?".to_string(),
            sym,
            "4*I*K/W/3".to_string(),
            Vec::new(),
            "An AllReduce is a ReduceScatter then an AllGather.".to_string(),
            vec!["2 · V / (3W) = 4IK / (3W): twice option (1)'s, for the same FLOPs, so (3) never beats (1) or (2).".to_string()],
        )
        .mistake_formula("2*I*K/(3*W)", "That is one AllGather; an AllReduce is a ReduceScatter then an AllGather, twice the time.".to_string())
        .mistake_formula("4*I*K/W", "That uses one axis's links; over X, Y and Z the bandwidth is 3W.".to_string()),
        Part::number(
            "d",
            format!("With the app's sizes (C = {peak:e} FLOPs/s), how long is each chip's math in (1) to (3)?"),
            Unit::Seconds,
            0.02,
            (t_split, Vec::new()),
            "2IJK / 64 FLOPs at the chip's bf16 peak.".to_string(),
            vec![format!("2 · {} · {} · {} / 64 = {} FLOPs ÷ {peak:e} = {}.", count(ik), count(j), count(ik), count(flops / 64.0), us(t_split))],
        )
        .mistake_number(t_rep, "That is the whole matmul on one chip, option (4); (1) to (3) split it 64 ways.".to_string())
        .mistake_number(t_split / 2.0, "That counts one FLOP a product; a multiply and an add are 2.".to_string()),
        Part::number(
            "e",
            "And option (1)'s AllGather of C?".to_string(),
            Unit::Seconds,
            0.03,
            with_book(gather.cost.cost.time, gather.cost.book_time, 0.03)?,
            "V = 2IK bytes over three axes' links, W a wrapped axis's both directions.".to_string(),
            vec![
                format!("V = 2 · {}² = {}; 3W = 3 · {w:e} = {:e} bytes/s.", count(ik), bytes(gather.v), 3.0 * w),
                format!("V / (3W) = {}; the Scale page, with the (n − 1)/n of V a chip receives and 6 hops of latency: {}.", us(gather.cost.book_time), us(gather.cost.cost.time)),
            ],
        )
        .mistake_number(gather.v / w, "That uses one axis's links; the gather over X, Y and Z uses all three: 3W.".to_string())
        .mistake_number(gather.v / (1.5 * w), "That uses one direction of each axis; every axis of a 4x4x4 cube wraps, so a ring sends both ways.".to_string())
        .mistake_number(reduce.cost.cost.time, "That is an AllReduce, option (3)'s; option (1) only gathers.".to_string()),
        Part::choice(
            "f",
            "At these sizes, which option takes the least time (math and comms overlapped, so the larger of the two)?".to_string(),
            options,
            best,
            "Compare max(math, comms) of (1) and (3) with (4)'s whole matmul on one chip.".to_string(),
            vec![
                format!("(1) or (2): max({}, {}) = {}.", us(t_split), us(gather.cost.cost.time), us(times[0])),
                format!("(3): max({}, {}) = {}.", us(t_split), us(reduce.cost.cost.time), us(times[1])),
                format!("(4): 2IJK / C = {} and no comms.", us(t_rep)),
                format!("The book: (1) and (2) are equally good. Replicating wins only when J is small enough that one chip's whole matmul beats the gather: J < C / (3W) = {}.", count(peak / (3.0 * w))),
            ],
        )
        .mistake_choice(if best == 0 { 1 } else { 0 }, "Compare each option's larger time, math or comms: the AllReduce's 2 counts, and so do the FLOPs (4) does on one chip.".to_string()),
    ];
    let q = question(
        "p3-q5",
        &source(5, Book::InPart),
        format!(
            "A[I, J] ·_J B[J, K] → C[I, K] in bf16 on a {name} 4x4x4 (mesh {{X: 4, Y: 4, Z: 4}}, every axis wrapped), as fast as possible, C replicated on every chip at the end. The book's options: (1) A[I_XYZ, J] · B[J, K], AllGather C; (2) A[I, J] · B[J, K_XYZ], AllGather C; (3) A[I, J_XYZ] · B[J_XYZ, K], AllReduce C; (4) everything replicated. For the numbers the app takes I = K = {}, J = {}.",
            count(ik),
            count(j)
        ),
        parts,
        calc3(chip, ("I", ik), ("J", j), ("K", ik)),
    )?;
    // The page shows option (3) as its sharded matmul (case 3, the
    // AllReduce and the split math) and option (1)'s gather of C as its
    // collective.
    let setup = ScaleSetup {
        op: Some(op3.to_string()),
        ..ScaleSetup::new(coll_state(mesh, AllGather, "XYZ", "bf16[I_XYZ,K]"))
    };
    Ok(opens_scale(q, setup, None))
}

/// Question 6: three shardings of a matmul on a v5e slice whose axes do
/// not wrap: which collective each needs, its time, and the math. The book
/// gives no answer: the app's, on sizes it picks.
pub(super) fn p3_q6(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick("v5e", &["v5e", "v6e"]);
    let (x, y) = d.pick((4u64, 4u64), &[(4, 4), (8, 4), (4, 8), (8, 8), (2, 4)]);
    let (i, j, k) = d.pick(
        (8192.0, 8192.0, 8192.0),
        &[
            (8192.0, 8192.0, 8192.0),
            (4096.0, 8192.0, 16384.0),
            (16384.0, 4096.0, 8192.0),
            (2048.0, 8192.0, 8192.0),
            (8192.0, 16384.0, 4096.0),
        ],
    );
    let mesh = format!("X:{x},Y:{y}");
    let l = links(chip, &mesh)?;
    let sz = sizes(&[("I", i), ("J", j), ("K", k)]);
    let op1 = "bf16[I_X,J_Y]*bf16[J_Y,K]->bf16[I_X,K]";
    let m1 = matmul(op1, &l, chip, &sz)?;
    let m2 = matmul("bf16[I_X,J]*bf16[J_X,K_Y]->bf16[I_X,K_Y]", &l, chip, &sz)?;
    let m3 = matmul("bf16[I_X,J]*bf16[J,K_Y]->bf16[I_X,K_Y]", &l, chip, &sz)?;
    let red = coll(&l, AllReduce, "bf16[I_X,K]{U_Y}", "Y", &sz)?;
    let gat = coll(&l, AllGather, "bf16[J_X,K_Y]", "X", &sz)?;
    if [m1.case, m2.case, m3.case] != [3, 2, 1]
        || [&red, &gat]
            .iter()
            .any(|c| c.cost.bound != CollBound::Bandwidth)
    {
        return Err(invalid("not the chapter's three cases"));
    }
    let (ay, ax) = (
        l.axis('Y').ok_or_else(|| invalid("no axis"))?,
        l.axis('X').ok_or_else(|| invalid("no axis"))?,
    );
    if ax.wraps || ay.wraps {
        return Err(invalid("an axis wraps"));
    }
    let peak = crate::hardware::preset(chip)
        .ok_or_else(|| invalid("no chip"))?
        .peak(DType::Bf16)?;
    let name = crate::hardware::preset(chip).map_or_else(|| "TPU".to_string(), |c| c.name);
    let (xf, yf) = (x as f64, y as f64);
    let w = ay.one_way;
    let t_red = red.cost.cost.time;
    let t_gat = gat.cost.cost.time;
    let t_math = m1.t_math;
    let line = format!(
        "A {name} axis wraps around only at 16 chips: these axes of {x} and {y} are lines, so each chip sends one way, W = {w:e} bytes/s."
    );
    let parts = vec![
        Part::choice(
            "a",
            "A[I_X, J_Y] · B[J_Y, K] → C[I_X, K]: which collective does it need?".to_string(),
            collective_options(),
            REDUCE,
            "Both inputs split the summed J over the same axis Y: each chip's product holds partial sums.".to_string(),
            vec!["Case 3: multiply the local blocks into C[I_X, K]{U_Y}, then AllReduce over Y, since C is not split over Y.".to_string()],
        )
        .mistake_choice(GATHER, "Both inputs split J over Y, so no input needs gathering: each chip's product holds partial sums over Y, to be summed (Case 3).".to_string())
        .mistake_choice(SCATTER, "C[I_X, K] is not split over Y, so every chip of a Y-ring needs the whole sum: an AllReduce. A ReduceScatter would leave C split over Y.".to_string()),
        Part::number(
            "b",
            format!("With the app's sizes I = {}, J = {}, K = {}: how long does that collective take?", count(i), count(j), count(k)),
            Unit::Seconds,
            0.05,
            with_book(t_red, red.cost.book_time, 0.05)?,
            "Each Y-ring reduces its own 1/|X| of C; is axis Y wrapped?".to_string(),
            vec![
                format!("V = 2IK / |X| = {} (2 bytes a bf16 value).", bytes(red.v)),
                line.clone(),
                format!("An AllReduce is a ReduceScatter then an AllGather: 2 · ({}/{}) · V / W = {}, with the hops' latency; the book's 2V / W gives {}.", y - 1, y, us(t_red), us(red.cost.book_time)),
            ],
        )
        .mistake_number(t_red / 2.0, format!("That uses both directions; a {name} axis shorter than 16 has no wraparound, so a chip sends one way. Another slip gives about the same number: one AllGather for an AllReduce, which is a ReduceScatter then an AllGather."))
        .mistake_number(red.cost.book_time / 2.0, format!("That uses both directions; a {name} axis shorter than 16 has no wraparound, so a chip sends one way. Another slip gives about the same number: one AllGather for an AllReduce, which is a ReduceScatter then an AllGather."))
        .mistake_number(t_red * xf, "That reduces all of C; C is split over X, so each Y-ring reduces only its 1/|X|.".to_string())
        .mistake_number(red.cost.book_time * xf, "That reduces all of C; C is split over X, so each Y-ring reduces only its 1/|X|.".to_string()),
        Part::number(
            "c",
            "And each chip's math, the same for all three shardings?".to_string(),
            Unit::Seconds,
            0.02,
            (t_math, Vec::new()),
            "Each chip multiplies 1/(|X|·|Y|) of the matmul's 2IJK FLOPs.".to_string(),
            vec![
                format!("2 · {} · {} · {} / ({x} · {y}) = {} FLOPs ÷ {peak:e} = {}.", count(i), count(j), count(k), count(m1.local_flops), us(t_math)),
                format!("So the first sharding spends {} on comms against {} on math: {}.", us(t_red), us(t_math), if t_red > t_math { "comms-bound" } else { "compute-bound" }),
            ],
        )
        .mistake_number(t_math * xf, "That splits the work over Y only; I is split over X too, so each chip does 1/(|X|·|Y|) of it.".to_string())
        .mistake_number(t_math * xf * yf, "That is the whole matmul on one chip; the shards split it over every chip.".to_string())
        .mistake_number(t_math / 2.0, "That counts one FLOP a product; a multiply and an add are 2.".to_string()),
        Part::choice(
            "d",
            "A[I_X, J] · B[J_X, K_Y] → C[I_X, K_Y] (data, tensor and ZeRO sharding together): which collective?".to_string(),
            collective_options(),
            GATHER,
            "Only B splits the summed J (over X); A holds all of J.".to_string(),
            vec!["Case 2: AllGather B over X, B[J_X, K_Y] → B[J, K_Y] (the weights, as FSDP does), then multiply locally.".to_string()],
        )
        .mistake_choice(REDUCE, "Only B splits J; A holds all of J, so the products would not be partial sums of the same terms. Gather B over X first (Case 2).".to_string())
        .mistake_choice(NONE, "B splits the summed J over X while A does not: the local blocks do not match. Gather B over X first.".to_string()),
        Part::number(
            "e",
            "How long does that gather take?".to_string(),
            Unit::Seconds,
            0.05,
            with_book(t_gat, gat.cost.book_time, 0.05)?,
            "B keeps K split over Y: each X-ring gathers 1/|Y| of B.".to_string(),
            vec![
                format!("V = 2JK / |Y| = {}.", bytes(gat.v)),
                line,
                format!("({}/{}) · V / W = {}, with the hops' latency; the book's V / W gives {}.", x - 1, x, us(t_gat), us(gat.cost.book_time)),
            ],
        )
        .mistake_number(t_gat / 2.0, format!("That uses both directions; a {name} axis shorter than 16 has no wraparound: one way."))
        .mistake_number(gat.cost.book_time / 2.0, format!("That uses both directions; a {name} axis shorter than 16 has no wraparound: one way."))
        .mistake_number(t_gat * yf, "That gathers all of B; K stays split over Y, so each X-ring gathers 1/|Y| of it.".to_string())
        .mistake_number(gat.cost.book_time * yf, "That gathers all of B; K stays split over Y, so each X-ring gathers 1/|Y| of it.".to_string()),
        Part::choice(
            "f",
            "A[I_X, J] · B[J, K_Y] → C[I_X, K_Y] (tensor parallelism with data, for inference): which collective?".to_string(),
            collective_options(),
            NONE,
            "Is either input split on the summed J?".to_string(),
            vec!["Case 1: neither input splits J, so each chip multiplies its own blocks and nothing is sent; only the math, as in (c).".to_string()],
        )
        .mistake_choice(GATHER, "Neither input splits the summed J; the output keeps both splits, C[I_X, K_Y]: nothing to gather.".to_string()),
    ];
    let q = question(
        "p3-q6",
        &source(6, Book::Not),
        format!(
            "Three shardings of A[I, J] ·_J B[J, K] in bf16 on a {name} {x}x{y} slice (mesh {{X: {x}, Y: {y}}}; {w:e} bytes/s one way a link, about 1 µs a hop). The sizes are the app's: I = {}, J = {}, K = {}.",
            count(i), count(j), count(k)
        ),
        parts,
        calc3(chip, ("I", i), ("J", j), ("K", k)),
    )?;
    let gather = coll_state(&mesh, AllGather, "X", "bf16[J_X,K_Y]");
    let setup = ScaleSetup {
        op: Some(op1.to_string()),
        parts: vec![("d".to_string(), gather.clone()), ("e".to_string(), gather)],
        ..ScaleSetup::new(reduce_state(&mesh, "Y", "bf16[I_X,K]{U_Y}"))
    };
    Ok(opens_scale(q, setup, None))
}

/// Question 7: an MLP block on a v5e 2x2 with 300 MB free a chip: the
/// weights' bytes, the sharding that fits and is fastest (the book's), and
/// its math and comms (the app's: the book leaves them as an exercise).
pub(super) fn p3_q7(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick("v5e", &["v5e", "v6e"]);
    let b = d.pick(128.0, &[64.0, 128.0, 256.0, 512.0]);
    let (dm, f) = d.pick(
        (8192.0, 32768.0),
        &[(8192.0, 32768.0), (8192.0, 28672.0), (6144.0, 24576.0)],
    );
    let free = 300e6;
    let mesh = "X:2,Y:2";
    let l = links(chip, mesh)?;
    let sz = sizes(&[("B", b), ("D", dm), ("F", f)]);
    let op_in = "bf16[B,D_XY]*bf16[D,F_XY]->bf16[B,F_XY]";
    let m_in = matmul(op_in, &l, chip, &sz)?;
    let m_out = matmul("bf16[B,F_XY]*bf16[F_XY,D]->bf16[B,D_XY]", &l, chip, &sz)?;
    let ag = coll(&l, AllGather, "bf16[B,D_XY]", "XY", &sz)?;
    let rs = coll(&l, ReduceScatter, "bf16[B,D]{U_XY}", "XY", &sz)?;
    let ar = coll(&l, AllReduce, "bf16[B,D]{U_XY}", "XY", &sz)?;
    let w_gather = coll(&l, AllGather, "bf16[D_XY,F]", "XY", &sz)?;
    if m_in.case != 2 || m_out.case != 3 {
        return Err(invalid("not the chapter's cases"));
    }
    let one = 2.0 * dm * f;
    let tp_chip = 2.0 * one / 4.0;
    if 2.0 * one <= free || tp_chip + 2.0 * b * dm >= free {
        return Err(invalid("the memory limit does not decide"));
    }
    let math = m_in.t_math + m_out.t_math;
    let comms = ag.cost.cost.time + rs.cost.cost.time;
    let book_comms = ag.cost.book_time + rs.cost.book_time;
    let t_tp = math.max(comms);
    // FSDP: In[B_X, D] · W_in[D_XY, F]: the weights gathered before each
    // matmul, the batch split over X only.
    let t_fsdp = (2.0 * w_gather.cost.cost.time).max(2.0 * math);
    if t_fsdp / t_tp < 1.25 {
        return Err(invalid("too close to call"));
    }
    let bound = usize::from(comms > math);
    let name = crate::hardware::preset(chip).map_or_else(|| "TPU".to_string(), |c| c.name);
    let w = l.axis('X').ok_or_else(|| invalid("no axis"))?.one_way;
    let options = vec![
        ChoiceOption::new(
            "FSDP: In[B_X, D] · W_in[D_XY, F] · W_out[F, D_XY] → Out[B_X, D]",
            &[
                "fsdp",
                "1",
                "zero",
                "zero-3",
                "data parallel",
                "shard the weights",
            ],
        ),
        ChoiceOption::new(
            "TP: In[B, D_XY] · W_in[D, F_XY] · W_out[F_XY, D] → Out[B, D_XY]",
            &[
                "tp",
                "2",
                "tensor parallel",
                "tensor parallelism",
                "megatron",
                "model parallel",
            ],
        ),
        ChoiceOption::new(
            "Replicate the weights, split the batch",
            &["replicate", "replicated", "3", "pure data parallel", "dp"],
        ),
    ];
    let parts = vec![
        Part::number(
            "a",
            "How many bytes does one weight matrix, W_in or W_out, take?".to_string(),
            Unit::Bytes,
            0.03,
            (one, Vec::new()),
            "D × F values, 2 bytes each in bf16.".to_string(),
            vec![format!("2 · {} · {} = {} ({}): more than the 300 MB a chip has free, so the weights must be split.", count(dm), count(f), count(one), bytes(one))],
        )
        .mistake_number(one / 2.0, "That counts values, not bytes: bf16 takes 2 bytes a value.".to_string())
        .mistake_number(2.0 * one, "That takes 4 bytes a value; bf16 takes 2.".to_string()),
        Part::choice(
            "b",
            "Which sharding stays under 300 MB a chip and takes the least time?".to_string(),
            options,
            1,
            "Replicating does not fit. Of the two that split the weights, which one moves the small activations rather than the big weights?".to_string(),
            vec![
                format!("Replicated, the two matrices take {}: more than 300 MB.", bytes(2.0 * one)),
                format!("FSDP must AllGather each weight matrix before using it: 2 × {} over both axes, and a gathered matrix ({}) would not even fit.", us(w_gather.cost.cost.time), bytes(one)),
                format!("TP moves only the activations, [B, D] = {}: an AllGather of In at the start and a ReduceScatter of Out at the end (cheaper than an AllReduce), and leaves Out split like In, so the layer repeats.", bytes(2.0 * b * dm)),
            ],
        )
        .mistake_choice(0, "FSDP must AllGather the big weight matrices before each matmul, far more bytes than TP's activations; a gathered matrix would not even fit in 300 MB.".to_string())
        .mistake_choice(2, format!("Replicated, the two matrices take {} a chip, more than the 300 MB free.", bytes(2.0 * one))),
        Part::number(
            "c",
            "With TP, how many bytes of weights does each chip hold?".to_string(),
            Unit::Bytes,
            0.03,
            (tp_chip, Vec::new()),
            "Both matrices, each split over the 4 chips.".to_string(),
            vec![format!("2 × {} / 4 = {}, under 300 MB; In's shard, {}, is small.", bytes(one), bytes(tp_chip), bytes(2.0 * b * dm / 4.0))],
        )
        .mistake_number(2.0 * one, "That is both matrices unsplit; TP splits each over the 4 chips.".to_string())
        .mistake_number(one / 4.0, "That is one matrix's shard; each chip holds a shard of both W_in and W_out.".to_string()),
        Part::number(
            "d",
            format!("With TP on the {name} ({peak:e} FLOPs/s), how long is each chip's math for the whole block?", peak = m_in.local_flops / m_in.t_math),
            Unit::Seconds,
            0.02,
            (math, Vec::new()),
            "Two matmuls of 2BDF FLOPs each, split over 4 chips.".to_string(),
            vec![format!("2 · 2 · {} · {} · {} / 4 = {} FLOPs a chip: {} (the app's answer; the book leaves it as an exercise).", count(b), count(dm), count(f), count(m_in.local_flops + m_out.local_flops), us(math))],
        )
        .mistake_number(4.0 * math, "That is the whole block on one chip; TP splits it over the 4 chips.".to_string())
        .mistake_number(math / 2.0, "That is one matmul, or one FLOP a product; the block has two matmuls of 2BDF each (a multiply and an add are 2 FLOPs).".to_string()),
        Part::number(
            "e",
            "And the comms: the AllGather of In plus the ReduceScatter of Out?".to_string(),
            Unit::Seconds,
            0.03,
            with_book(comms, book_comms, 0.03)?,
            "Each moves V = 2BD bytes over both axes; an axis of 2 chips does not wrap.".to_string(),
            vec![
                format!("V = 2 · {} · {} = {} each; over X and Y one way each, W = 2 · {w:e} bytes/s.", count(b), count(dm), bytes(ag.v)),
                format!("Each is (3/4) · V / W plus 2 hops: {} + {} = {} (the app's answer; the book's V / W each gives {}).", us(ag.cost.cost.time), us(rs.cost.cost.time), us(comms), us(book_comms)),
            ],
        )
        .mistake_number(ag.cost.cost.time + ar.cost.cost.time, "That AllReduces Out; Out may stay split like In, so a ReduceScatter, half an AllReduce, is enough.".to_string())
        .mistake_number(ag.cost.cost.time, "That is the AllGather alone; TP also ReduceScatters Out at the end.".to_string())
        .mistake_number(book_comms / 2.0, "That uses both directions; a v5e or v6e axis wraps only at 16 chips, so an axis of 2 sends one way.".to_string()),
        Part::choice(
            "f",
            "So is the block compute-bound or comms-bound?".to_string(),
            bound_options(),
            bound,
            "Compare (d) with (e).".to_string(),
            vec![format!("{} of math against {} of comms: {}.", us(math), us(comms), if bound == 0 { "compute-bound" } else { "comms-bound" })],
        )
        .mistake_choice(1 - bound, "Compare the math of (d) with the comms of (e): the larger binds.".to_string()),
    ];
    let q = question(
        "p3-q7",
        &source(7, Book::InPart),
        format!(
            "An MLP block In[B, D] · W_in[D, F] · W_out[F, D] in bf16 with B = {}, D = {}, F = {}, on a {name} 2x2 slice (mesh {{X: 2, Y: 2}}, {w:e} bytes/s one way a link), pretending each chip has only 300 MB free. Out must be sharded like In, so the layer can repeat.",
            count(b), count(dm), count(f)
        ),
        parts,
        calc3(chip, ("B", b), ("D", dm), ("F", f)),
    )?;
    // The page shows the first matmul (Case 2, In gathered before it) and,
    // as its collective, the ReduceScatter of Out (it scatters the first
    // dimension; the bytes are the same).
    let setup = ScaleSetup {
        op: Some(op_in.to_string()),
        ..ScaleSetup::new(coll_state(mesh, ReduceScatter, "XY", "bf16[B,D]{U_XY}"))
    };
    Ok(opens_scale(q, setup, None))
}

/// Question 9: A[I, J_X] · B[J, K] by multiplying the shards and reducing
/// the output, against gathering A first.
pub(super) fn p3_q9(d: &mut Draw) -> Result<Question, CoreError> {
    let x = d.pick(8u64, &[4, 8, 16]);
    let (n, m, k) = d.pick(
        (4096.0, 16384.0, 4096.0),
        &[
            (4096.0, 16384.0, 4096.0),
            (8192.0, 8192.0, 32768.0),
            (2048.0, 32768.0, 8192.0),
            (8192.0, 4096.0, 16384.0),
        ],
    );
    let mesh = format!("X:{x}");
    let l = links("v5p", &mesh)?;
    let sz = sizes(&[("N", n), ("M", m), ("K", k)]);
    let op = "bf16[N,M_X]*bf16[M,K]->bf16[N,K]";
    let case = matmul(op, &l, "v5p", &sz)?;
    let gather = coll(&l, AllGather, "bf16[N,M_X]", "X", &sz)?;
    let scatter = coll(&l, ReduceScatter, "bf16[N,K]{U_X}", "X", &sz)?;
    if case.case != 2 || scatter.cost.bound != CollBound::Bandwidth {
        return Err(invalid("not the chapter's case 2"));
    }
    let w = l.axis('X').ok_or_else(|| invalid("no axis"))?.per_chip();
    let t = scatter.cost.cost.time;
    let sym = &["N", "M", "K"];
    let parts = vec![
        Part::choice(
            "a",
            "Each chip multiplies its columns of A by the matching rows of B into a whole O[N, K] of partial sums. Which collective leaves O complete on every chip?".to_string(),
            collective_options(),
            REDUCE,
            "Every chip holds a partial sum of the whole output, over its share of the summed index.".to_string(),
            vec![
                "Chip i computes o_nk = Σ a_nj b_jk over the j it holds: O[N, K]{U_X}.".to_string(),
                "An AllReduce over X sums the partial sums onto every chip: O[N, K], replicated.".to_string(),
            ],
        )
        .mistake_choice(GATHER, "Each chip holds partial sums of the whole O, not a piece of it: they must be summed, not gathered.".to_string())
        .mistake_choice(SCATTER, "A ReduceScatter leaves O split over X; to have it whole on every chip, AllReduce.".to_string()),
        Part::choice(
            "b",
            "If O may end up split (over N or K), which cheaper collective will do?".to_string(),
            collective_options(),
            SCATTER,
            "Sum the partial sums, but leave each chip only its piece.".to_string(),
            vec!["A ReduceScatter: [N, K]{U_X} → [N_X, K] or [N, K_X], half an AllReduce.".to_string()],
        )
        .mistake_choice(REDUCE, "An AllReduce also gathers the sums onto every chip; with O split, a ReduceScatter, half of it, is enough.".to_string()),
        Part::formula(
            "c",
            "Gathering A first moves A's bytes; multiply-then-ReduceScatter moves O's. The first's comms ÷ the second's? A formula in N, M, K.".to_string(),
            sym,
            "N*M/(N*K)".to_string(),
            Vec::new(),
            "An AllGather and a ReduceScatter cost the same for the same V: the whole array's bytes over W.".to_string(),
            vec![
                "AllGather of A[N, M]: V = 2NM; ReduceScatter of O[N, K]: V = 2NK.".to_string(),
                "The ratio is NM / NK = M / K: multiplying first wins when the summed M is larger than the output's K.".to_string(),
            ],
        )
        .mistake_formula("K/M", "That is the ratio the other way round: gathering A moves 2NM bytes, reducing O moves 2NK.".to_string())
        .mistake_formula("M/(2*K)", "That reduces with an AllReduce, twice a ReduceScatter; part (b)'s ReduceScatter costs the same as an AllGather of the same bytes.".to_string()),
        Part::number(
            "d",
            format!(
                "On a TPU v5p ring of {x} (wrapped, W = {w:e} bytes/s) with N = {}, M = {}, K = {} in bf16: how long does the ReduceScatter of O take?",
                count(n), count(m), count(k)
            ),
            Unit::Seconds,
            0.02,
            with_book(t, scatter.cost.book_time, 0.02)?,
            "V is the whole O[N, K] in bf16; the ring sends both ways.".to_string(),
            vec![
                format!("V = 2NK = {}; T ≈ V / W = {}; the Scale page, with (n − 1)/n and the hops: {}.", bytes(scatter.v), us(scatter.cost.book_time), us(t)),
                format!("Gathering A instead: V = 2NM = {}, {}: {} as long (M / K).", bytes(gather.v), us(gather.cost.cost.time), crate::format::sig(m / k, 3)),
            ],
        )
        .mistake_number(2.0 * t, "That is an AllReduce; with O split, a ReduceScatter is half of it.".to_string())
        .mistake_number(gather.cost.cost.time, "That is the AllGather of A, 2NM bytes; the ReduceScatter moves O, 2NK.".to_string())
        .mistake_number(scatter.v / (w / 2.0), "That uses one direction; the v5p ring wraps, so it sends both ways.".to_string()),
    ];
    let q = question(
        "p3-q9",
        &source(9, Book::Answers),
        format!(
            "A[N, M] is sharded A[I, J_X] (the summed M split over X) and B[M, K] is whole. Instead of gathering A, multiply the shards into O[N, K]{{U_X}} and reduce. Then the app's numbers: a TPU v5p ring of {x}, N = {}, M = {}, K = {}.",
            count(n), count(m), count(k)
        ),
        parts,
        calc3("v5p", ("N", n), ("M", m), ("K", k)),
    )?;
    // The page shows the matmul (Case 2, with this alternative beside it)
    // and the ReduceScatter of O.
    let setup = ScaleSetup {
        op: Some(op.to_string()),
        ..ScaleSetup::new(coll_state(&mesh, ReduceScatter, "X", "bf16[N,K]{U_X}"))
    };
    Ok(opens_scale(q, setup, None))
}
