//! Part 3's problem 8, a benchmark: the book asks the reader to time the
//! four collectives in JAX and fixes no sizes, so there is no measured
//! number to check. What can be checked is the prediction to hold the
//! benchmark against: which collective each JAX function performs, and
//! each one's time by the roofline on the slice the chapter measured its
//! AllGather on (a v5e 8x16, over the axis of 16, which wraps). The
//! sizes are the app's.

use crate::format::{bytes, count};
use crate::quiz::answer::Unit;
use crate::quiz::{CalcSetup, Part, Question, ScaleSetup, SOURCE_PRACTICE};
use crate::scale::{CollBound, CollOp};
use crate::{CoreError, LevelKind};

use super::feedback::Era;
use super::helpers::question;
use super::part3_late::{collective_options, with_book, GATHER, REDUCE, SCATTER};
use super::scales::{apart, coll, coll_state, links, opens_scale, sizes, us, which_w};
use super::{invalid, Draw};

use CollOp::{AllGather, AllReduce, AllToAll};

/// Question 8: the JAX functions' collectives and the roofline's times
/// for an AllGather (and ReduceScatter), an AllReduce and an AllToAll.
pub(super) fn p3_q8(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick("v5e", &["v5e", "v6e"]);
    let (n, m) = d.pick(
        (8192.0, 2048.0),
        &[
            (8192.0, 2048.0),
            (4096.0, 4096.0),
            (2048.0, 8192.0),
            (16384.0, 1024.0),
            (8192.0, 4096.0),
            (1024.0, 1024.0),
            (4096.0, 8192.0),
            (16384.0, 2048.0),
        ],
    );
    let mesh = "X:8,Y:16";
    let l = links(chip, mesh)?;
    let sz = sizes(&[("N", n), ("M", m)]);
    let g = coll(&l, AllGather, "bf16[N_Y,M]", "Y", &sz)?;
    let r = coll(&l, AllReduce, "bf16[N,M]{U_Y}", "Y", &sz)?;
    let a = coll(&l, AllToAll, "bf16[N,M_Y]", "Y", &sz)?;
    if [&g, &r, &a]
        .iter()
        .any(|c| c.cost.bound != CollBound::Bandwidth)
    {
        return Err(invalid("latency-bound"));
    }
    let y = l.axis('Y').ok_or_else(|| invalid("no axis"))?;
    if !y.wraps {
        return Err(invalid("the axis of 16 does not wrap"));
    }
    let w = y.per_chip();
    let v = g.v;
    let name = crate::hardware::preset(chip).map_or_else(|| "TPU".to_string(), |c| c.name);
    let (tg, tr, ta) = (g.cost.cost.time, r.cost.cost.time, a.cost.cost.time);
    let parts = vec![
        Part::choice(
            "a",
            "Which collective does jax.lax.psum perform over an axis?".to_string(),
            collective_options(),
            REDUCE,
            "psum sums an array over the axis and leaves the sum on every device.".to_string(),
            vec!["psum: every device ends with the whole sum, an AllReduce: [N, M]{U_Y} → [N, M].".to_string()],
        )
        .mistake_choice(SCATTER, "psum leaves the whole sum on every device; psum_scatter is the one that leaves each its piece.".to_string())
        .mistake_choice(GATHER, "psum sums the devices' arrays; all_gather concatenates their shards.".to_string()),
        Part::choice(
            "b",
            "And jax.lax.psum_scatter?".to_string(),
            collective_options(),
            SCATTER,
            "It sums, then scatters: each device keeps one piece of the sum.".to_string(),
            vec!["psum_scatter: [N, M]{U_Y} → [N_Y, M], a ReduceScatter, the transpose of an AllGather.".to_string()],
        )
        .mistake_choice(REDUCE, "psum_scatter leaves each device only its piece of the sum: a ReduceScatter, half an AllReduce.".to_string()),
        Part::number(
            "c",
            format!("What should all_gather over Y of bf16[N_Y, M] take, with N = {}, M = {} (psum_scatter of the same bytes takes as long)?", count(n), count(m)),
            Unit::Seconds,
            0.03,
            with_book(tg, g.cost.book_time, 0.03)?,
            "V is the whole gathered array in bf16; does the axis of 16 wrap?".to_string(),
            vec![
                format!("V = 2NM = {} (2 bytes a bf16 value).", bytes(v)),
                format!("{}.", which_w(&l, 'Y')?),
                format!("V / W = {}; the Scale page, with (15/16) of V and 8 hops: {}. The chapter measured about 95% of the link's bandwidth at this size.", us(g.cost.book_time), us(tg)),
            ],
        )
        .mistake_number(v / y.one_way, "That uses one direction; the axis of 16 wraps around, so a ring sends both ways.".to_string())
        .mistake_number(v / 2.0 / w, "That counts values, not bytes: bf16 takes 2 bytes a value. The 2 in 2NM is bytes, not directions.".to_string())
        .mistake_number(v / 16.0 / w, "That takes V as one device's shard; V is the whole gathered array.".to_string()),
        Part::number(
            "d",
            "And psum of bf16[N, M] over Y?".to_string(),
            Unit::Seconds,
            0.03,
            with_book(tr, r.cost.book_time, 0.03)?,
            "An AllReduce is a ReduceScatter then an AllGather.".to_string(),
            vec![format!("2V / W = {}; the Scale page: {}.", us(r.cost.book_time), us(tr))],
        )
        .mistake_number(tg, "That is one AllGather; an AllReduce is a ReduceScatter then an AllGather, twice the time.".to_string())
        .mistake_number(g.cost.book_time, "That is one AllGather; an AllReduce is a ReduceScatter then an AllGather, twice the time.".to_string())
        .mistake_number(2.0 * v / y.one_way, "That uses one direction; the axis of 16 wraps, so the ring sends both ways.".to_string()),
        Part::number(
            "e",
            "And all_to_all of bf16[N, M_Y] → [N_Y, M] over Y?".to_string(),
            Unit::Seconds,
            0.05,
            (ta, if apart(ta, a.cost.book_time, 0.05)? {
                vec![(a.cost.book_time, Era::new(
                    "the book's V / (4W), without the hops' latency".to_string(),
                    "the Scale page adds it".to_string(),
                ))]
            } else {
                Vec::new()
            }),
            "T = V · max(axis) / (4 · N_devices · W), with V the whole array's bytes over all the axis's devices.".to_string(),
            vec![
                format!("V · 16 / (4 · 16 · W) = V / (4W) = {}: a quarter of the AllGather's V / W.", us(a.cost.book_time)),
                format!("The Scale page adds the 8 hops' latency: {}.", us(ta)),
            ],
        )
        .mistake_number(ta / 16.0, "That takes V as one device's bytes; in V·max/(4·N·W), V is the whole array over all devices (per device: (V/N)·max/(4W)).".to_string())
        .mistake_number(g.cost.book_time, "That is an AllGather's V / W; an AllToAll moves each block only part of the way: a quarter of it.".to_string())
        .mistake_number(v / (2.0 * w), "That is the one-way ring's half; both ways an AllToAll takes a quarter of an AllGather.".to_string()),
    ];
    let q = question(
        "p3-q8",
        &format!(
            "Part 3, {} 8 (a benchmark: the book fixes no sizes; the prediction and its numbers are the app's)",
            SOURCE_PRACTICE.to_lowercase()
        ),
        format!(
            "Before timing the four collectives with jax.lax.all_gather, psum, psum_scatter and all_to_all, predict them: a {name} 8x16 slice (mesh {{X: 8, Y: 16}}, the chapter's AllGather measurement), each over Y, the axis of 16, on a bf16 array with N = {}, M = {}.",
            count(n),
            count(m)
        ),
        parts,
        CalcSetup::new(
            chip,
            "bf16[N,M] * bf16[M] -> bf16[N]",
            &[("N", n), ("M", m)],
            LevelKind::Hbm,
        ),
    )?;
    let setup = ScaleSetup {
        parts: vec![
            (
                "d".to_string(),
                coll_state(mesh, AllReduce, "Y", "bf16[N,M]{U_Y}"),
            ),
            (
                "e".to_string(),
                coll_state(mesh, AllToAll, "Y", "bf16[N,M_Y]"),
            ),
        ],
        ..ScaleSetup::new(coll_state(mesh, AllGather, "Y", "bf16[N_Y,M]"))
    };
    Ok(opens_scale(q, setup, None))
}
