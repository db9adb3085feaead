//! The GPU chapter's questions on one node of 8 GPUs (the book's Part 12,
//! Quiz 2 and the second pop quiz): the node's total and bisection
//! bandwidth, an AllGather and an AllToAll over NVLink.
//!
//! Each GPU's NVLink egress is the preset's; the ports and switches that
//! make it up are in [`node`], each with its source.

use crate::collective::{all_gather, all_to_all, LinkModel};
use crate::format::{self, sci};
use crate::quiz::answer::{evaluate_formula, Unit};
use crate::quiz::{CalcSetup, Part, Question, SOURCE_POP};
use crate::{CoreError, LevelKind};

use super::feedback::Era;
use super::gpu::source;
use super::helpers::question;
use super::models::whole;
use super::texts::bw_text;
use super::{invalid, Draw};

use LevelKind::NvLink;

/// GPUs in a node (the NVLink domain) in these questions.
const GPUS: f64 = 8.0;

/// An 8-GPU node's NVLink and NVSwitches.
#[derive(Debug, Clone, Copy)]
struct Node {
    /// NVLink ports per GPU.
    ports: f64,
    /// Bytes/s one port carries each way.
    per_port: f64,
    /// NVSwitches in the node.
    switches: f64,
    /// NVLink ports per NVSwitch.
    switch_ports: f64,
}

/// The nodes of the chapter's NVLink table (ports per GPU, 25 GB/s a link
/// each way, 50 on Blackwell, switches per node) and its text (an NVSwitch
/// of Hopper's generation has 64 ports); the A100's NVSwitch (second
/// generation) has 36 ports, NVIDIA's DGX A100 user guide; Blackwell's
/// NVLink Switch chip 72, NVIDIA's GB200 NVL72 page (144 ports a tray of
/// two chips).
fn node(chip: &str) -> Option<Node> {
    match chip {
        "h100" | "h200" => Some(Node {
            ports: 18.0,
            per_port: 25e9,
            switches: 4.0,
            switch_ports: 64.0,
        }),
        "b200" => Some(Node {
            ports: 18.0,
            per_port: 50e9,
            switches: 2.0,
            switch_ports: 72.0,
        }),
        "a100" => Some(Node {
            ports: 12.0,
            per_port: 25e9,
            switches: 6.0,
            switch_ports: 36.0,
        }),
        _ => None,
    }
}

/// A chip's node and its NVLink egress, checked against the preset's.
fn node_of(chip: &str) -> Result<(Node, f64), CoreError> {
    let n = node(chip).ok_or_else(|| invalid("no node table for this chip"))?;
    let egress = n.ports * n.per_port;
    let c = crate::hardware::preset(chip).ok_or_else(|| invalid("no chip"))?;
    if (c.bandwidth(NvLink)? / egress - 1.0).abs() > 1e-9 {
        return Err(invalid("the node table disagrees with the preset"));
    }
    Ok((n, egress))
}

/// The calculator on the chip's NVLink, with a copy of `op` (it shows the
/// link's bandwidth; it times a copy, not the collective).
fn nvlink_setup(chip: &str, op: &str, sizes: &[(&str, f64)]) -> CalcSetup {
    CalcSetup::new(chip, op, sizes, NvLink)
}

const NODE_CHIPS: &[&str] = &["h100", "h200", "a100", "b200"];

/// Quiz 2, question 1: a node's total bandwidth, at the switches and at
/// the GPUs.
pub(super) fn p12_q2_1(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick("h100", NODE_CHIPS);
    let (n, egress) = node_of(chip)?;
    let calc = nvlink_setup(
        chip,
        "bf16[B,F] -> bf16[B,F]",
        &[("B", 1024.0), ("F", 16384.0)],
    );
    let name = calc.chip()?.name;
    let switches = n.switches * n.switch_ports * n.per_port;
    let gpus = GPUS * egress;
    let total = switches.min(gpus);
    let limit = if switches > gpus {
        "the GPUs' ports are the limit"
    } else if switches < gpus {
        "the switches are the limit"
    } else {
        "the two match"
    };
    let gb = |x: f64| format!("{} GB/s", whole(x / 1e9));
    let both_ways =
        "That counts both directions; the node's figure, like a GPU's NVLink egress, is one way."
            .to_string();
    let parts = vec![
        Part::number(
            "a",
            "How much can the NVSwitches carry, all together, one way?".to_string(),
            Unit::BytesPerSecond,
            0.02,
            (switches, Vec::new()),
            "Switches × ports × each port's bandwidth.".to_string(),
            vec![format!("{} · {} · {} = {}.", whole(n.switches), whole(n.switch_ports), gb(n.per_port), bw_text(switches))],
        )
        .mistake_number(2.0 * switches, both_ways.clone()),
        Part::number(
            "b",
            "How much can the 8 GPUs send, all together?".to_string(),
            Unit::BytesPerSecond,
            0.02,
            (gpus, Vec::new()),
            "Each GPU's NVLink egress, 8 times.".to_string(),
            vec![format!("{} links · {} = {} a GPU; · 8 = {}.", whole(n.ports), gb(n.per_port), gb(egress), bw_text(gpus))],
        )
        .mistake_number(2.0 * gpus, both_ways.clone())
        .mistake_number(egress, "That is one GPU; the node has 8.".to_string()),
        Part::number(
            "c",
            "So how much total bandwidth does the node have?".to_string(),
            Unit::BytesPerSecond,
            0.02,
            (total, Vec::new()),
            "Bytes pass through both: the smaller limits.".to_string(),
            vec![format!("min({}, {}) = {}: {limit}.", bw_text(switches), bw_text(gpus), bw_text(total))],
        )
        .mistake_number(switches.max(gpus), "That is the larger of the two; every byte goes through a GPU's ports and a switch, so the smaller one limits.".to_string())
        .mistake_number(2.0 * total, both_ways),
    ];
    question(
        "p12-q2-1",
        &source(2, 1),
        format!(
            "A node of 8 {name} GPUs and {} NVSwitches. Each GPU has {} NVLink links of {} each way ({} of egress); each NVSwitch has {} ports of the same links.",
            whole(n.switches),
            whole(n.ports),
            gb(n.per_port),
            gb(egress),
            whole(n.switch_ports)
        ),
        parts,
        calc,
    )
}

/// Quiz 2, question 2: a node's bisection bandwidth, both directions.
pub(super) fn p12_q2_2(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick("h100", NODE_CHIPS);
    let (_, egress) = node_of(chip)?;
    let calc = nvlink_setup(
        chip,
        "bf16[B,F] -> bf16[B,F]",
        &[("B", 1024.0), ("F", 16384.0)],
    );
    let name = calc.chip()?.name;
    let half = GPUS / 2.0;
    let one_way = half * egress;
    let both = 2.0 * one_way;
    let parts = vec![
        Part::number(
            "a",
            "Split the node into two halves of 4. How much can one half send to the other?".to_string(),
            Unit::BytesPerSecond,
            0.02,
            (one_way, Vec::new()),
            "Every GPU reaches every other through the switches at its full egress.".to_string(),
            vec![format!("4 GPUs · {} = {}.", bw_text(egress), bw_text(one_way))],
        )
        .mistake_number(both, "That counts both directions; this part asks what one half sends.".to_string())
        .mistake_number(egress, "That is one GPU; each of the half's 4 sends at its full egress.".to_string()),
        Part::number(
            "b",
            "The node's bisection bandwidth, counting flow both ways?".to_string(),
            Unit::BytesPerSecond,
            0.02,
            (both, Vec::new()),
            "Both halves send to each other at once.".to_string(),
            vec![format!("2 · {} = 8 · {} = {} (NVIDIA's figure for the node).", bw_text(one_way), bw_text(egress), bw_text(both))],
        )
        .mistake_number(one_way, "That is one direction; the bisection bandwidth counts the flow both ways.".to_string())
        .mistake_number(2.0 * both, format!("That counts every GPU's {} both ways: each byte across the cut is counted at its sender and again at its receiver.", bw_text(2.0 * egress))),
    ];
    question(
        "p12-q2-2",
        &source(2, 2),
        format!(
            "The bisection bandwidth is the least bandwidth between two equal halves of a network. A node of 8 {name} GPUs on NVSwitches, each GPU with {} of NVLink egress each way.",
            bw_text(egress)
        ),
        parts,
        calc,
    )
}

/// The (N − 1)/N dropped from a collective's time, as an [`Era`]; `now`
/// says where the exact form keeps it.
fn rough_era(now: &str) -> Era {
    Era::new(
        "the rough form, dropping (N − 1)/N".to_string(),
        now.to_string(),
    )
}

const GATHER_EXACT: &str = "exactly each GPU receives the (N − 1)/N of the array it lacks";
const TO_ALL_EXACT: &str = "exactly each GPU keeps 1/N of its share and sends the other (N − 1)/N";

/// Checks a formula in B against the core's number at `b`.
fn in_b(expr: String, b: f64, want: f64) -> Result<String, CoreError> {
    let got = evaluate_formula(&expr, &["B".to_string()], &[("B".to_string(), b)])
        .map_err(CoreError::Invalid)?;
    if (got - want).abs() <= 1e-9 * want.abs() {
        Ok(expr)
    } else {
        Err(invalid("a quiz formula disagrees with the core"))
    }
}

/// Quiz 2, question 3: an AllGather within a node, for B bytes and for
/// bf16[D_X, F].
pub(super) fn p12_q2_3(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick("h100", &["h100", "h200", "a100", "b200"]);
    let dd = d.pick(4096.0, &[2048.0, 4096.0, 8192.0]);
    let f = d.pick(65536.0, &[16384.0, 32768.0, 65536.0]);
    let calc = nvlink_setup(chip, "bf16[D,F] -> bf16[D,F]", &[("D", dd), ("F", f)]);
    let c = calc.chip()?;
    let w = c.bandwidth(NvLink)?;
    let link = LinkModel::new(NvLink, w);
    let v = 2.0 * dd * f;
    let t = all_gather(v, GPUS, &link).bandwidth_time;
    let rough = v / w;
    let exact = in_b(format!("B * 7 / (8 * {w})"), v, t)?;
    let approx = in_b(format!("B / {w}"), v, rough)?;
    let eras = |x: f64| {
        if d.is_book() {
            vec![(x, rough_era(GATHER_EXACT))]
        } else {
            Vec::new()
        }
    };
    let parts = vec![
        Part::formula(
            "a",
            format!("For an array of B bytes, how long does the AllGather take, bandwidth alone? Write it in B, with W = {}.", sci(w)),
            &["B"],
            exact,
            vec![approx.clone()],
            "Each GPU holds B/N and receives the N − 1 shards it lacks through its own port, one direction.".to_string(),
            vec![format!("T = (N − 1) · B ÷ (N · W) = 7B ÷ (8 · {}) ≈ B ÷ {}.", sci(w), sci(w))],
        )
        .notes_formulas(&[(approx, rough_era(GATHER_EXACT))])
        .mistake_formula(&format!("B * 7 / (8 * {})", 2.0 * w), format!("That uses {} both ways together; an AllGather's bytes come in one direction, {} each way.", bw_text(2.0 * w), bw_text(w)))
        .mistake_formula(&format!("2 * B * 7 / (8 * {w})"), "That is an AllReduce's cost, a ReduceScatter then an AllGather; an AllGather alone moves the bytes once.".to_string())
        .mistake_formula(&format!("B / (8 * {w})"), "That is one shard; each GPU receives the N − 1 shards it lacks.".to_string()),
        Part::number(
            "b",
            format!("How many bytes is bf16[D, F] with D = {} and F = {}?", whole(dd), whole(f)),
            Unit::Bytes,
            0.02,
            (v, Vec::new()),
            "Elements × 2 bytes for bf16.".to_string(),
            vec![format!("2 · {} · {} = {} bytes.", whole(dd), whole(f), sci(v))],
        )
        .mistake_number(v / 2.0, "That counts elements, not bytes: bf16 takes 2 bytes each.".to_string())
        .mistake_number(v / GPUS, "That is one GPU's shard; B is the whole array's bytes.".to_string()),
        Part::number(
            "c",
            "So how long does AllGather_X(bf16[D_X, F]) take?".to_string(),
            Unit::Seconds,
            0.03,
            (t, eras(rough)),
            "The formula at B = the array's bytes.".to_string(),
            vec![format!("{} · 7 ÷ (8 · {}) = {}; roughly {} ÷ {} = {}.", sci(v), bw_text(w), format::seconds(t), sci(v), bw_text(w), format::seconds(rough))],
        )
        .mistake_number(t / 2.0, format!("That uses {} both ways together, or counts elements for bytes (bf16 takes 2 bytes each); an AllGather's bytes come in one direction, {} each way.", bw_text(2.0 * w), bw_text(w)))
        .mistake_number(2.0 * t, "That is an AllReduce's cost, a ReduceScatter then an AllGather; an AllGather alone moves the bytes once.".to_string())
        .mistake_number(v / GPUS / w, "That is one shard; each GPU receives the N − 1 shards it lacks.".to_string()),
    ];
    let mut note = String::new();
    let mut parts = parts;
    if d.is_book() {
        note = " Measured, it takes about 1.5 ms: latency adds to the bytes' time.".to_string();
        if let Some(p) = parts.pop() {
            parts.push(p.mistake_number(1.5e-3, "That is the measured time, latency and all; the question asks the bandwidth-bound time.".to_string()));
        }
    }
    question(
        "p12-q2-3",
        &source(2, 3),
        format!(
            "A node of 8 {} GPUs, each with {} of NVLink each way, AllGathers an array sharded over its GPUs (X, 8 ways). The calculator's link opens the chip's NVLink with a copy of the array; it times a copy's read and write, not the collective.{note}",
            c.name,
            bw_text(w)
        ),
        parts,
        calc,
    )
}

/// Pop quiz 2: an AllToAll of bf16[B_X, N] within a node, dense and with
/// k of N entries non-zero.
pub(super) fn p12_pop2(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick("h100", &["h100", "h200", "a100", "b200"]);
    let k = d.pick(4.0, &[2.0, 4.0, 6.0]);
    let b = d.pick(16384.0, &[4096.0, 16384.0, 65536.0]);
    let n = GPUS;
    let calc = nvlink_setup(chip, "bf16[B,N] -> bf16[B,N]", &[("B", b), ("N", n)]);
    let c = calc.chip()?;
    let w = c.bandwidth(NvLink)?;
    let link = LinkModel::new(NvLink, w);
    let v = 2.0 * b * n;
    let t = all_to_all(v, n, &link).bandwidth_time;
    let frac = k / n;
    let t_sparse = frac * t;
    // Formulas in B, checked against the core's AllToAll at the setup's B.
    let v_expr = format!("2 * B * {n}");
    let dense = in_b(
        format!("2 * B * {n} * {} / ({} * {w})", n - 1.0, n * n),
        b,
        t,
    )?;
    let dense_rough = in_b(format!("2 * B * {n} / ({n} * {w})"), b, v / (n * w))?;
    let sparse = in_b(
        format!("{frac} * 2 * B * {n} * {} / ({} * {w})", n - 1.0, n * n),
        b,
        t_sparse,
    )?;
    let sparse_rough = in_b(
        format!("{frac} * 2 * B * {n} / ({n} * {w})"),
        b,
        frac * v / (n * w),
    )?;
    let both_ways = format!(
        "That uses {} both ways together; each GPU's pieces leave in one direction, {} each way.",
        bw_text(2.0 * w),
        bw_text(w)
    );
    let parts = vec![
        Part::formula(
            "a",
            "How many bytes is the whole array, V, in B?".to_string(),
            &["B"],
            v_expr,
            Vec::new(),
            "B × N elements of 2 bytes.".to_string(),
            vec![format!("V = 2 · B · {} = {}B bytes.", whole(n), whole(2.0 * n))],
        )
        .mistake_formula(&format!("B * {n}"), "That counts elements, not bytes: bf16 takes 2 bytes each.".to_string()),
        Part::formula(
            "b",
            format!("How long does the AllToAll take, bandwidth alone, in B (W = {})?", sci(w)),
            &["B"],
            dense,
            vec![dense_rough.clone()],
            "Each GPU holds V/N and sends a 1/N piece of it to each of the N − 1 others, straight through the switch.".to_string(),
            vec![format!("T = V · (N − 1) ÷ (W · N²) = {}B · 7 ÷ (64 · {}) ≈ V ÷ (W · N).", whole(2.0 * n), sci(w))],
        )
        .notes_formulas(&[(dense_rough, rough_era(TO_ALL_EXACT))])
        .mistake_formula(&format!("2 * B * {n} * {} / ({n} * {w})", n - 1.0), "That reads V as each GPU's bytes: V is the whole array, each GPU holds V/N and sends (N − 1)/N of that. (That is an AllGather's cost.)".to_string())
        .mistake_formula(&format!("2 * B * {n} / {w}"), "That sends the whole array from each GPU; each GPU holds only V/N, and keeps 1/N of it.".to_string())
        .mistake_formula(&format!("2 * B * {n} / (4 * {w})"), "That is a TPU ring's V/(4W); through a switch each piece goes straight to its GPU, V/(8W) in a node of 8.".to_string())
        .mistake_formula(&format!("2 * B * {n} * {} / ({} * {})", n - 1.0, n * n, 2.0 * w), both_ways.clone())
        .mistake_formula(&format!("B * {n} * {} / ({} * {w})", n - 1.0, n * n), "That counts elements, not bytes: bf16 takes 2 bytes each.".to_string()),
        Part::formula(
            "c",
            format!("And if only {} of the {} entries in each row are non-zero, in B?", whole(k), whole(n)),
            &["B"],
            sparse,
            vec![sparse_rough.clone()],
            "Only the non-zero pieces are sent.".to_string(),
            vec![format!("k/N = {}/{} of the dense time: {} · V · 7 ÷ (64 · {}) ≈ {} · V ÷ (W · N).", whole(k), whole(n), format::plain_number(frac), sci(w), format::plain_number(frac))],
        )
        .notes_formulas(&[(sparse_rough, rough_era(TO_ALL_EXACT))])
        .mistake_formula(&format!("2 * B * {n} * {} / ({} * {w})", n - 1.0, n * n), format!("That is the dense time; only {} of the {} pieces leave each GPU, so k/N of it.", whole(k), whole(n)))
        .mistake_formula(&format!("{frac} * 2 * B * {n} * {} / ({} * {})", n - 1.0, n * n, 2.0 * w), both_ways),
    ];
    question(
        "p12-pop2",
        &format!("Part 12, {} 2", SOURCE_POP.to_lowercase()),
        format!(
            "A node of 8 {} GPUs, each with {} of NVLink each way, does AllToAll_X→N(bf16[B_X, N]) with N = {} (one entry a GPU). The book answers in symbols; the calculator's link opens the chip's NVLink with a copy of the array (at the app's B = {}); it times a copy's read and write, not the collective.",
            c.name,
            bw_text(w),
            whole(n),
            whole(b)
        ),
        parts,
        calc,
    )
}
