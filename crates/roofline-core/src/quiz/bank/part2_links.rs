//! Part 2's questions on moving bytes between chips (`p2-q5`, `p2-q6`):
//! a send across a slice over ICI, hop by hop, and an array gathered from
//! host memory onto one chip over PCIe and ICI, then multiplied.
//!
//! The calculator times one chip against one memory or link; these
//! questions open it on the link each part asks about (the Scale page
//! computes whole collectives).

use crate::collective::ICI_HOP;
use crate::format::{self, sci};
use crate::quiz::answer::Unit;
use crate::quiz::{CalcSetup, Part, Question};
use crate::{CoreError, LevelKind};

use super::feedback::Era;
use super::models::{hbm_capacity, whole};
use super::part2::source;
use super::setup::analysis;
use super::texts::bw_text;
use super::Draw;

use LevelKind::{Hbm, Ici, Pcie};

/// Question 5: an array sent corner to corner across a slice with no
/// wraparound links: when the first byte arrives and when the last does.
pub(super) fn p2_q5(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick("v5e", &["v5e", "v6e"]);
    let (x, y) = d.pick(
        (4.0, 4.0),
        &[(2.0, 4.0), (4.0, 4.0), (4.0, 8.0), (8.0, 8.0)],
    );
    let (a0, a1, a2) = d.pick(
        (8.0, 128.0, 8192.0),
        &[
            (8.0, 128.0, 8192.0),
            (4.0, 256.0, 4096.0),
            (16.0, 128.0, 16384.0),
            (8.0, 512.0, 8192.0),
        ],
    );
    let hop = d.pick(ICI_HOP, &[0.5e-6, 1e-6, 2e-6]);
    let elems = a0 * a1 * a2;
    let calc = CalcSetup::new(chip, "bf16[N] -> bf16[N]", &[("N", elems)], Ici);
    let c = calc.chip()?;
    let one_way = c.bandwidth(Ici)?;
    let v = 2.0 * elems;
    let hops = (x - 1.0) + (y - 1.0);
    let first = hops * hop;
    let stream = v / (2.0 * one_way);
    let total = stream + first;
    let us = |t: f64| format::seconds(t);
    let parts = vec![
        Part::number(
            "a",
            "How soon does the first byte arrive?".to_string(),
            Unit::Seconds,
            0.02,
            (first, Vec::new()),
            "Count the hops from corner to corner, each costing the per-hop latency.".to_string(),
            vec![format!("({} − 1) + ({} − 1) = {} hops · {} = {}.", whole(x), whole(y), whole(hops), us(hop), us(first))],
        )
        .mistake_number(2.0 * hop, "That takes wraparound links; a slice has them only on axes of 16 chips, so the bytes cross every chip in between.".to_string()),
        Part::number(
            "b",
            "How long does the whole transfer take?".to_string(),
            Unit::Seconds,
            0.02,
            (total, Vec::new()),
            "The source sends half the array along each axis, one direction of each of its two links; add the hops' latency for the last byte.".to_string(),
            vec![
                format!("Bytes: 2 · {} · {} · {} = {}.", whole(a0), whole(a1), whole(a2), sci(v)),
                format!("Two links, one way each: {} ÷ (2 · {}) = {}.", sci(v), bw_text(one_way), us(stream)),
                format!("Plus {} for the last byte's hops: {}.", us(first), us(total)),
            ],
        )
        .mistake_number(v / one_way + first, "That sends over one link; the corner chip has two, one per axis, and can use both.".to_string())
        .mistake_number(v / (4.0 * one_way) + first, format!("That uses the bidirectional {} per link; the two directions are separate, and a send uses one of them, {}.", bw_text(2.0 * one_way), bw_text(one_way)))
        .mistake_number(elems / (2.0 * one_way) + first, "That counts elements, not bytes: bf16 takes 2 bytes each.".to_string()),
    ];
    question_with(
        "p2-q5",
        5,
        format!(
            "A {} {}x{} slice has no wraparound links (its axes are shorter than 16). Send bf16[{}, {}, {}] from TPU{{0,0}} to TPU{{{},{}}}. Each ICI link carries {} each way; each hop adds about {}. The calculator's link opens the chip's ICI link with a copy of the array; it times a copy's read and write, not this send.",
            c.name,
            whole(x),
            whole(y),
            whole(a0),
            whole(a1),
            whole(a2),
            whole(x - 1.0),
            whole(y - 1.0),
            bw_text(one_way),
            us(hop)
        ),
        parts,
        calc,
    )
}

fn question_with(
    id: &str,
    n: u32,
    setup: String,
    parts: Vec<Part>,
    calc: CalcSetup,
) -> Result<Question, CoreError> {
    super::helpers::question(id, &source(n), setup, parts, calc)
}

/// Question 6: an int8 matrix in host memory, sharded over a slice,
/// gathered onto one chip and multiplied by a few rows: each piece's time
/// and the whole, the slowest piece when they overlap.
pub(super) fn p2_q6(d: &mut Draw) -> Result<Question, CoreError> {
    let side = d.pick(131072.0, &[32768.0, 65536.0, 98304.0]);
    let (x, y) = d.pick((4.0, 4.0), &[(2.0, 2.0), (2.0, 4.0), (4.0, 4.0)]);
    let rows = d.pick(8.0, &[8.0, 16.0, 32.0]);
    let op = "bf16[B,D] * int8[D,F] -> bf16[B,F]";
    let calc = CalcSetup::new("v5e", op, &[("B", rows), ("D", side), ("F", side)], Hbm);
    let c = calc.chip()?;
    let (pcie, one_way) = (c.bandwidth(Pcie)?, c.bandwidth(Ici)?);
    let n = x * y;
    let v = side * side;
    let a = analysis(&calc)?;
    let t_pcie = v / (n * pcie);
    let t_ici = (n - 1.0) / n * v / (2.0 * one_way);
    let (t_hbm, t_math) = (a.t_comms, a.t_math);
    let total = t_pcie.max(t_ici).max(t_hbm).max(t_math);
    let book = d.is_book();
    // The book takes A as 16e9 bytes (it is 2^34, 1.72e10).
    let era = || {
        Era::new(
            "the book's 16e9 bytes for A".to_string(),
            format!("A is {}² = {} bytes", whole(side), sci(v)),
        )
    };
    let with_book = |exact: f64, then: f64| {
        let eras = if book {
            vec![(then, era())]
        } else {
            Vec::new()
        };
        (exact, eras)
    };
    let ms = |t: f64| format::seconds(t);
    let mut last = vec![
        format!("max({}, {}, {}, {}) = {}.", ms(t_pcie), ms(t_ici), ms(t_hbm), ms(t_math), ms(total)),
        "Summed they would take longer, but the pieces pipeline; imperfect overlap makes it somewhat slower in practice.".to_string(),
    ];
    let cap = hbm_capacity(&calc)?;
    if v > cap {
        last.push(format!("(The app's note: {} bytes is more than one v5e's {} of HBM, so TPU{{0,0}} could not in fact hold all of A; the estimate keeps the book's exercise.)", sci(v), format::bytes(cap)));
    }
    let parts = vec![
        Part::number(
            "a",
            "How long does loading A from host memory into the chips' HBM take?".to_string(),
            Unit::Seconds,
            0.01,
            with_book(t_pcie, 16e9 / (n * pcie)),
            "Each chip loads its own shard over its own PCIe link, all at once.".to_string(),
            vec![format!("{} ÷ ({} · {}) = {}.", sci(v), whole(n), bw_text(pcie), ms(t_pcie))],
        )
        .mistake_number(v / pcie, format!("That loads all of A over one PCIe link; the {} chips each load their shard over their own.", whole(n)))
        .with_calc(CalcSetup { level: Pcie, ..calc.clone() }),
        Part::number(
            "b",
            "How long, at least, does gathering the shards onto TPU{0,0} over ICI take?".to_string(),
            Unit::Seconds,
            0.01,
            with_book(t_ici, 15e9 / (2.0 * one_way)),
            "TPU{0,0} receives every shard but its own, over its two links (one per axis; no wraparounds), one direction each.".to_string(),
            vec![format!("({} − 1)/{} · {} ÷ (2 · {}) = {}.", whole(n), whole(n), sci(v), bw_text(one_way), ms(t_ici))],
        )
        .mistake_number((n - 1.0) / n * v / one_way, "That receives over one link; TPU{0,0} has two in this slice, one per axis.".to_string())
        .mistake_number((n - 1.0) / n * v / (4.0 * one_way), format!("That uses the bidirectional {} per link; the bytes come in one direction, {}.", bw_text(2.0 * one_way), bw_text(one_way)))
        .with_calc(CalcSetup { level: Ici, ..calc.clone() }),
        Part::number(
            "c",
            "How long does reading A (and the rows) from HBM into the MXU take?".to_string(),
            Unit::Seconds,
            0.05,
            with_book(t_hbm, 16e9 / c.bandwidth(Hbm)?),
            "A's bytes (1 each, int8) plus the small bf16 rows, over HBM's bandwidth.".to_string(),
            vec![format!("{} bytes ÷ {} = {}.", sci(a.bytes), bw_text(a.bandwidth), ms(t_hbm))],
        )
        .mistake_number(2.0 * t_hbm, "That takes 2 bytes an element; A is int8, one byte.".to_string()),
        Part::number(
            "d",
            "How long does the math take?".to_string(),
            Unit::Seconds,
            0.03,
            (t_math, Vec::new()),
            "2 · rows · D · F FLOPs at the bf16 peak (the rows are bf16).".to_string(),
            vec![format!("2 · {} · {}² = {} FLOPs ÷ {} = {}.", whole(rows), whole(side), sci(a.flops), sci(a.peak), ms(t_math))],
        )
        .mistake_number(2.0 * t_math, "That counts 4 FLOPs a multiply-add; it is 2, whatever the data types.".to_string())
        .mistake_number(t_math / 2.0, "That counts one FLOP a multiply-add; the add is another.".to_string()),
        Part::number(
            "e",
            "If the pieces overlap perfectly, about how long does the whole take?".to_string(),
            Unit::Seconds,
            0.01,
            with_book(total, (16e9 / (n * pcie)).max(15e9 / (2.0 * one_way))),
            "Pipelined, the slowest piece sets the pace.".to_string(),
            last,
        )
        .mistake_number(t_pcie + t_ici + t_hbm + t_math, "That adds the pieces; they overlap, so the slowest one bounds the whole.".to_string()),
    ];
    question_with(
        "p2-q6",
        6,
        format!(
            "A = int8[{}, {}] is sharded evenly over a TPU v5e {}x{} slice, each shard in its chip's host memory. Copy all of A to TPU{{0,0}} and multiply bf16[{}, {}] by it. PCIe: {} per chip; ICI: {} per link each way; HBM: {}; bf16 peak {} FLOPs/s.",
            whole(side),
            whole(side),
            whole(x),
            whole(y),
            whole(rows),
            whole(side),
            bw_text(pcie),
            bw_text(one_way),
            bw_text(a.bandwidth),
            sci(a.peak)
        ),
        parts,
        calc,
    )
}
