//! The GPU chapter's collectives beyond the node (Part 12, `p12-…`): an
//! AllGather over two axes in one Scalable Unit (pop quiz 3), and the
//! collectives quiz (Quiz 4): the bytes through the switches, in-network
//! (SHARP) AllReduces, and the exact cost of an AllGather over two nodes.
//!
//! A GPU's links are the presets' (NVLink one way, and one InfiniBand NIC
//! a GPU as its DCN level); the switches and cables, which no preset
//! holds, are in [`super::gpu_pod::SuperPod`]. Where the Scale page can
//! cost a collective (an NVLink axis, then axes across nodes) the question
//! opens it.

use crate::format::{count, sci, seconds};
use crate::quiz::answer::{ChoiceOption, Unit};
use crate::quiz::{CalcSetup, Part, Question, ScaleSetup};
use crate::scale::CollOp;
use crate::{CoreError, LevelKind};

use super::feedback::Era;
use super::gpu_pod::POD;
use super::helpers::question;
use super::part3::vec_calc;
use super::scales::{coll, coll_state, links, opens_scale, sizes};
use super::texts::bw_text;
use super::{invalid, Draw};

use CollOp::AllGather;
use LevelKind::{Dcn, NvLink};

/// "Part 12, quiz q, question n".
fn source(quiz: u32, n: u32) -> String {
    format!("Part 12, quiz {quiz}, question {n}")
}

/// A preset's one-way bandwidth at `level`.
fn bw(chip: &str, level: LevelKind) -> Result<f64, CoreError> {
    crate::hardware::preset(chip)
        .ok_or_else(|| invalid("no such chip"))?
        .bandwidth(level)
}

/// The calculator on the chip's link with a copy of the array (it times a
/// copy's read and write, not the collective).
fn link_calc(chip: &str, level: LevelKind, d: f64, f: f64) -> CalcSetup {
    CalcSetup::new(chip, "bf16[D,F] -> bf16[D,F]", &[("D", d), ("F", f)], level)
}

fn other_way() -> String {
    "That counts both directions of the links; the question asks one way.".to_string()
}

/// Pop quiz 3: AllGather_X(bf16[D_X, F_Y]) over one SU, Y the inner axis,
/// within a node and spanning nodes.
pub(super) fn p12_pop3(d: &mut Draw) -> Result<Question, CoreError> {
    let (dd, f) = d.pick(
        (8192.0, 32768.0),
        &[(8192.0, 32768.0), (4096.0, 16384.0), (8192.0, 28672.0)],
    );
    let y = d.pick(32u64, &[16, 32, 64]);
    let su = 256u64;
    let sz = sizes(&[("D", dd), ("F", f)]);
    let whole = 2.0 * dd * f;
    // Y = 8: the node's NVLink axis, X the SU's 32 nodes.
    let in_node = format!("Y:8,X:{}", su / 8);
    let a = coll(
        &links("h100", &in_node)?,
        AllGather,
        "bf16[D_X,F_Y]",
        "X",
        &sz,
    )?;
    let t_a = a.cost.cost.bandwidth_time;
    // Y spanning nodes: 8 in a node (Y) by y/8 nodes (Z); X the rest.
    let z = y / 8;
    let x = su / y;
    let across = format!("Y:8,Z:{z},X:{x}");
    let b = coll(
        &links("h100", &across)?,
        AllGather,
        "bf16[D_X,F_YZ]",
        "X",
        &sz,
    )?;
    let t_b = b.cost.cost.bandwidth_time;
    let w_nic = bw("h100", Dcn)?;
    let rough = whole / (y as f64 * w_nic);
    let mut eras = Vec::new();
    let rough_era = Era::new(
        "the book's rough 2DF / (Y · 50 GB/s)".to_string(),
        format!("exactly each GPU receives ({x} − 1)/{x} of its group's 2DF/Y"),
    );
    if d.is_book() {
        eras.push((rough, rough_era));
    }
    let yf = y as f64;
    let parts = vec![
        Part::number(
            "a",
            "Y = 8, one node's GPUs: how long does the AllGather take, bandwidth alone?".to_string(),
            Unit::Seconds,
            0.03,
            (t_a, Vec::new()),
            "Y within a node leaves the leaf level as it was: each node sends and receives over its 400 GB/s.".to_string(),
            vec![
                format!("2DF = {} bytes; each GPU gathers its Y shard, 2DF/8, from the 32 nodes' GPUs over its own 50 GB/s NIC.", sci(whole)),
                format!("T = 2DF · 31 / (32 · 400 GB/s) = {}.", seconds(t_a)),
            ],
        )
        .mistake_number(t_a / 2.0, "That counts values, not bytes (bf16 takes 2), or both directions of the links; an AllGather's bytes arrive one way.".to_string())
        .mistake_number(t_a / 8.0, "That divides by Y; sharding within a node cuts the node-level cost but each node still sends its whole slab over its 400 GB/s.".to_string())
        .mistake_number(t_a * 8.0, "That sends the whole 2DF a node over one GPU's 50 GB/s NIC; the node has 8 NICs.".to_string()),
        Part::number(
            "b",
            format!("Y = {y}, spanning {z} nodes: and now?"),
            Unit::Seconds,
            0.03,
            (t_b, eras),
            "Each GPU now gathers only 2DF/Y, from the other X groups, over its own NIC.".to_string(),
            vec![
                format!("X = 256 / {y} = {x} groups; each GPU receives ({x} − 1)/{x} of 2DF/{y} = {} bytes over 50 GB/s: {}.", sci(whole / yf * (x as f64 - 1.0) / x as f64), seconds(t_b)),
                format!("Roughly 2DF / (Y · 50 GB/s) = {}, the book's form: the cost falls with the nodes Y spans.", seconds(rough)),
            ],
        )
        .mistake_number(t_a, "That is the cost with Y inside a node; once Y spans nodes the leaf-level cost falls by the nodes it spans.".to_string())
        .mistake_number(t_b / 2.0, "That counts values, not bytes (bf16 takes 2), or both directions of the links.".to_string()),
        Part::formula(
            "c",
            "For any Y above 8, roughly: a formula in D, F, Y and W (one GPU's InfiniBand bytes/s, one way).".to_string(),
            &["D", "F", "Y", "W"],
            // 2 · (…), not one fraction: the checker reads a fraction as
            // an intensity (operations over bytes).
            "2*(D*F/(Y*W))".to_string(),
            Vec::new(),
            "Each GPU gathers 2DF/Y bytes over its own NIC.".to_string(),
            vec!["The book: 2DF · 256 / (Y · 12.8e12) = 2DF / (Y · 50 GB/s), the (X − 1)/X dropped: the more nodes Y spans, the cheaper.".to_string()],
        )
        .mistake_formula("2*D*F/(8*W)", "That is Y within a node, 2DF over the node's 8 NICs; once Y spans nodes each GPU gathers only 2DF/Y.".to_string())
        .mistake_formula("D*F/(Y*W)", "That counts values, not bytes: bf16 takes 2 bytes a value.".to_string())
        .mistake_formula("2*D*F/W", "That gathers the whole array on each GPU; each gathers only its F/Y columns, 2DF/Y bytes.".to_string()),
    ];
    let calc = vec_calc("h100", "bf16", ("D", dd), ("F", f));
    let q = question(
        "p12-pop3",
        "Part 12, pop quiz 3",
        format!(
            "One SU of 256 H100s (32 nodes of 8, 400 GB/s out of each node, 50 GB/s a GPU). AllGather_X(bf16[D_X, F_Y]) with Y the inner axis; D = {}, F = {}. On the Scale page, Y = {y} is two axes: Y (8 GPUs, NVLink) and Z ({z} nodes).",
            count(dd),
            count(f)
        ),
        parts,
        calc,
    )?;
    let mut setup = ScaleSetup::new(coll_state(&in_node, AllGather, "X", "bf16[D_X,F_Y]"));
    for part in ["b", "c"] {
        setup.parts.push((
            part.to_string(),
            coll_state(&across, AllGather, "X", "bf16[D_X,F_YZ]"),
        ));
    }
    Ok(opens_scale(q, setup, None))
}

const SWITCH_SYMBOLS: &[&str] = &["B", "M", "N"];

/// Quiz 4, question 1: the bytes through a node's switch and the SU's
/// top-level switch in an AllGather.
pub(super) fn p12_q4_1(d: &mut Draw) -> Result<Question, CoreError> {
    let m = d.pick(32u64, &[8, 16, 32]);
    let (dd, f) = mlp(d);
    let mesh = format!("X:8,Y:{m}");
    let sz = sizes(&[("D", dd), ("F", f)]);
    // Each GPU gathers its node-mates' column of shards: 1/8 of B over
    // its own NIC, so the node's 8 NICs carry the node's share.
    let net = coll(&links("h100", &mesh)?, AllGather, "bf16[D_XY,F]", "Y", &sz)?;
    let t = net.cost.cost.bandwidth_time;
    let b = 2.0 * dd * f;
    let w_node = POD.gpus_per_node * bw("h100", Dcn)?;
    let mf = m as f64;
    let mut parts = vec![
        Part::formula(
            "a",
            "How many bytes does the node-level switch take in, in all? A formula in B (the array's bytes), M (nodes) and N (GPUs a node).".to_string(),
            SWITCH_SYMBOLS,
            "B".to_string(),
            Vec::new(),
            "It takes in its GPUs' shards, then the other nodes' part from above.".to_string(),
            vec!["N GPUs send B/(MN) each: B/M; from the top-level switch, the other nodes' B(M − 1)/M. In all B.".to_string()],
        )
        .mistake_formula("B/M", "That is only its own GPUs' shards; the other nodes' B(M − 1)/M comes down from the top-level switch too.".to_string()),
        Part::formula(
            "b",
            "And how many does it send out?".to_string(),
            SWITCH_SYMBOLS,
            "B*N".to_string(),
            Vec::new(),
            "It sends its node's B/M up, and to each of its N GPUs everything that GPU lacks.".to_string(),
            vec!["B/M up to the top; N · (B − B/(MN)) = NB − B/M down to the GPUs. In all BN: egress binds.".to_string()],
        )
        .mistake_formula("B", "That is what it takes in; it sends each of its N GPUs nearly all of B, so BN.".to_string())
        .mistake_formula("N*B - B/M", "That leaves out the B/M it sends up to the top-level switch.".to_string()),
        Part::formula(
            "c",
            "The top-level (leaf) switch of the SU: how many bytes does it send out?".to_string(),
            SWITCH_SYMBOLS,
            "B*(M-1)".to_string(),
            Vec::new(),
            "Each of the M nodes needs the other nodes' part of B.".to_string(),
            vec![
                "It takes in B/M from each node (B in all) and sends each node B(M − 1)/M: B(M − 1) out.".to_string(),
                "So T = B(M − 1) / (M · W_node), with W_node = 400 GB/s.".to_string(),
            ],
        )
        .mistake_formula("B", "That is what it takes in; it sends each of the M nodes the other M − 1 parts.".to_string())
        .mistake_formula("B*M", "Each node already holds its own B/M; it gets only the other M − 1 parts.".to_string()),
    ];
    parts.push(
        Part::number(
            "d",
            format!("(The app's numbers.) With M = {m} nodes of 8 H100s, 400 GB/s out of each node, and B = bf16[{}, {}], how long does the top-level switch's traffic take?", count(dd), count(f)),
            Unit::Seconds,
            0.03,
            (t, Vec::new()),
            "Each node takes in B(M − 1)/M through its 400 GB/s.".to_string(),
            vec![format!("B = {} bytes; T = B · ({m} − 1) / ({m} · {}) = {}.", sci(b), bw_text(w_node), seconds(t))],
        )
        .mistake_number(b * (mf - 1.0) / w_node, "That sends the switch's whole B(M − 1) through one node's link; it spreads over the M nodes, B(M − 1)/M each.".to_string())
        .mistake_number(b / w_node, "That is the approximation B / W_node; the exact cost keeps (M − 1)/M.".to_string())
        .mistake_number(t / 2.0, "That counts values, not bytes: bf16 takes 2 bytes a value.".to_string()),
    );
    let q = question(
        "p12-q4-1",
        &source(4, 1),
        format!("One SU of M nodes, N GPUs a node, under one top-level switch. AllGather an array of B bytes sharded over all MN GPUs. The Scale page opens it for M = {m} and B = bf16[{}, {}]: 8 GPUs a node (X, NVLink) by {m} nodes (Y, InfiniBand), gathering over Y.", count(dd), count(f)),
        parts,
        vec_calc("h100", "bf16", ("D", dd), ("F", f)),
    )?;
    let s = coll_state(&mesh, AllGather, "Y", "bf16[D_XY,F]");
    Ok(opens_scale(q, ScaleSetup::new(s), None))
}

/// Quiz 4, question 2: the bytes through a node's switch in an AllReduce
/// with in-network reduction (SHARP).
pub(super) fn p12_q4_2(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick("h100", &["h100", "b200"]);
    let (dd, f) = mlp(d);
    let w = bw(chip, NvLink)?;
    let b = 2.0 * dd * f;
    let t = b / w;
    let plain =
        crate::collective::all_reduce(b, 8.0, &crate::collective::LinkModel::new(NvLink, w));
    let sym = &["B", "N"];
    let mut parts = vec![
        Part::formula(
            "a",
            "How many bytes does the switch take in? A formula in B (the array's bytes) and N (GPUs).".to_string(),
            sym,
            "B*N".to_string(),
            Vec::new(),
            "Each GPU sends all but its own shard; later it sends its reduced shard back.".to_string(),
            vec![
                "Each GPU sends B(N − 1)/N for the switch to sum: B(N − 1) in all.".to_string(),
                "Each then sends back its finished B/N shard: B more. In all BN.".to_string(),
            ],
        )
        .mistake_formula("B*(N-1)", "That is the first step only; each GPU also sends its finished shard (B/N) back to the switch to multicast: B more.".to_string())
        .mistake_formula("2*B*(N-1)", "That is an AllReduce without the switch's help, a ReduceScatter then an AllGather; with SHARP the switch sums, so the GPUs send less.".to_string()),
        Part::formula(
            "b",
            "And how many does it send out?".to_string(),
            sym,
            "B*N".to_string(),
            Vec::new(),
            "It returns each GPU its partial shard, then multicasts the finished shards.".to_string(),
            vec![
                "B/N partial sums to each GPU: B; then every finished shard to the N − 1 GPUs without it: B(N − 1). In all BN.".to_string(),
                "So each GPU moves B bytes each way: T = B / W, half an AllReduce without SHARP.".to_string(),
            ],
        )
        .mistake_formula("B*(N-1)", "That is the multicast only; the partial sums (B/N to each GPU, B in all) go out first.".to_string()),
    ];
    let calc = link_calc(chip, NvLink, dd, f);
    let name = calc.chip()?.name;
    parts.push(
        Part::number(
            "c",
            format!("(The app's numbers.) With N = 8 {name} GPUs at {} of NVLink each, one way, and B = bf16[{}, {}], how long does it take?", bw_text(w), count(dd), count(f)),
            Unit::Seconds,
            0.03,
            (t, Vec::new()),
            "BN bytes each way through the switch, B through each GPU's port.".to_string(),
            vec![format!("B = {} bytes; T = B / W = {}; without SHARP, 2B(N − 1)/(N · W) = {}.", sci(b), seconds(t), seconds(plain.bandwidth_time))],
        )
        .mistake_number(plain.bandwidth_time, sharp_double())
        .mistake_number(2.0 * t, sharp_double())
        .mistake_number(t / 2.0, "That counts values, not bytes: bf16 takes 2 bytes a value.".to_string()),
    );
    question(
        "p12-q4-2",
        &source(4, 2),
        format!("One node of N GPUs on a switch that can sum (NVIDIA SHARP). AllReduce an array of B bytes; part (c) takes B = bf16[{}, {}]. The calculator opens {name} NVLink with a copy of B: it times the copy's read and write, 2B, not the collective.", count(dd), count(f)),
        parts,
        calc,
    )
}

fn options_level() -> Vec<ChoiceOption> {
    vec![
        ChoiceOption::new(
            "the node level (NVLink)",
            &[
                "node",
                "node level",
                "nvlink",
                "intra-node",
                "within the node",
            ],
        ),
        ChoiceOption::new(
            "the network between nodes (InfiniBand)",
            &[
                "network",
                "infiniband",
                "ib",
                "leaf",
                "scale-out",
                "cross-node",
                "between nodes",
            ],
        ),
    ]
}

/// Quiz 4, question 5: the exact cost of an AllGather over a few nodes,
/// at the node level and between nodes.
pub(super) fn p12_q4_5(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick("h100", &["h100", "b200"]);
    let m = d.pick(2u64, &[2, 4]);
    let (n_rows, dd) = d.pick(
        (8192.0, 32768.0),
        // Arrays large enough that NVLink's latency, which the Scale page
        // adds, stays within the tolerance.
        &[(8192.0, 32768.0), (16384.0, 65536.0), (16384.0, 28672.0)],
    );
    let sz = sizes(&[("N", n_rows), ("D", dd)]);
    let mesh = format!("X:8,Y:{m}");
    let l = links(chip, &mesh)?;
    // The node level: the GPUs gather the whole B over NVLink.
    let node = coll(&l, AllGather, "bf16[N_X,D]", "X", &sz)?;
    // Between nodes: each GPU gathers its 1/8 over its own NIC.
    let net = coll(&l, AllGather, "bf16[N_XY,D]", "Y", &sz)?;
    let b = node.v;
    let w_node = b / node.cost.cost.bandwidth_time;
    let w_net = b / net.cost.cost.bandwidth_time;
    let (gpu, nic) = (bw(chip, NvLink)?, bw(chip, Dcn)?);
    let node_egress = 8.0 * nic;
    let mf = m as f64;
    if (w_node / w_net - 1.0).abs() < 0.05 {
        return Err(invalid("too close to call"));
    }
    let binds = usize::from(w_net < w_node);
    let t = b / w_node.min(w_net);
    let parts = vec![
        Part::number(
            "a",
            "At the node level, the exact cost is B / W: what is W?".to_string(),
            Unit::BytesPerSecond,
            0.02,
            (w_node, Vec::new()),
            "Within a node an AllGather costs B · (N − 1) / (N · W_GPU), N = 8.".to_string(),
            vec![format!("B · 7 / (8 · {}) = B / {}.", bw_text(gpu), bw_text(w_node))],
        )
        .mistake_number(gpu, "That is the approximation B / W_GPU; the exact cost keeps (N − 1)/N = 7/8.".to_string())
        .mistake_number(2.0 * w_node, "That counts both directions of NVLink; an AllGather's bytes arrive one way.".to_string()),
        Part::number(
            "b",
            format!("Between the {m} nodes, the exact cost is B / W: what is W?"),
            Unit::BytesPerSecond,
            0.02,
            (w_net, Vec::new()),
            format!("Across M nodes an AllGather costs B · (M − 1) / (M · W_node), W_node = {}.", bw_text(node_egress)),
            vec![format!("B · ({m} − 1) / ({m} · {}) = B / {}.", bw_text(node_egress), bw_text(w_net))],
        )
        .mistake_number(node_egress, "That is the approximation B / W_node; over so few nodes (M − 1)/M matters.".to_string())
        .mistake_number(w_net / 8.0, "That uses one GPU's NIC for the whole node; the node's 8 NICs send together.".to_string())
        .mistake_number(mf / (mf - 1.0) * gpu, "That uses NVLink between nodes; they are joined by InfiniBand.".to_string()),
        Part::choice(
            "c",
            "Which level bounds the AllGather?".to_string(),
            options_level(),
            binds,
            "The slower of the two levels: the smaller W.".to_string(),
            vec![format!(
                "{} against {}: {} binds; for B = {} bytes, T = {}.",
                bw_text(w_node),
                bw_text(w_net),
                if binds == 0 { "the node level" } else { "the network" },
                sci(b),
                seconds(t)
            )],
        )
        .mistake_choice(
            1 - binds,
            if binds == 0 {
                "Compare the exact costs, not the approximations: with (N − 1)/N and (M − 1)/M kept, the node level is slower.".to_string()
            } else {
                format!("Compare the two W: the network's {} is below the node level's {}.", bw_text(w_net), bw_text(w_node))
            },
        ),
    ];
    let calc = vec_calc(chip, "bf16", ("N", n_rows), ("D", dd));
    let c = calc.chip()?;
    let q = question(
        "p12-q4-5",
        &source(4, 5),
        format!(
            "AllGather B bytes over exactly {m} nodes of 8 {} GPUs: {} of NVLink a GPU and {} of InfiniBand out of each node (8 NICs of {}), one way. The Scale page opens B = bf16[{}, {}] on X (8 GPUs, NVLink) by Y ({m} nodes).",
            c.name,
            bw_text(gpu),
            bw_text(node_egress),
            bw_text(nic),
            count(n_rows),
            count(dd)
        ),
        parts,
        calc,
    )?;
    let mut setup = ScaleSetup::new(coll_state(&mesh, AllGather, "X", "bf16[N_X,D]"));
    setup.parts.push((
        "b".to_string(),
        coll_state(&mesh, AllGather, "Y", "bf16[N_XY,D]"),
    ));
    Ok(opens_scale(q, setup, None))
}

/// The shape of LLaMA-3-70B's MLP matrices, the chapter's example array
/// (bf16[8192, 28672]), or a variant's.
fn mlp(d: &mut Draw) -> (f64, f64) {
    d.pick(
        (8192.0, 28672.0),
        &[
            (8192.0, 28672.0),
            (4096.0, 14336.0),
            (16384.0, 53248.0),
            (8192.0, 32768.0),
            (5120.0, 13824.0),
        ],
    )
}

fn sharp_double() -> String {
    "That is an AllReduce without in-network reduction, a ReduceScatter then an AllGather; with SHARP the switch sums, so each GPU sends its bytes once.".to_string()
}

/// Quiz 4, question 3: AllReduce(bf16[D, F_Y] {U_X}) within one node, with
/// SHARP.
pub(super) fn p12_q4_3(d: &mut Draw) -> Result<Question, CoreError> {
    let chip = d.pick("h100", &["h100", "b200"]);
    let (dd, f) = mlp(d);
    let y = d.pick(2.0, &[2.0, 4.0]);
    let x = 8.0 / y;
    let w = bw(chip, NvLink)?;
    let shard = 2.0 * dd * f / y;
    let t = shard / w;
    let plain =
        crate::collective::all_reduce(shard, x, &crate::collective::LinkModel::new(NvLink, w));
    let sym = &["D", "F", "Y", "W"];
    let parts = vec![
        Part::formula(
            "a",
            "How long does it take, bandwidth alone? A formula in D, F, Y and W (a GPU's NVLink bytes/s, one way).".to_string(),
            sym,
            // Written as 2 · (…), not one fraction: the checker reads a
            // fraction as an intensity (operations over bytes) and would
            // say so of a time.
            "2*(D*F/(Y*W))".to_string(),
            Vec::new(),
            "Each group of X GPUs reduces its own F/Y slice, 2DF/Y bytes; with SHARP each GPU sends and receives that once.".to_string(),
            vec![
                "Each GPU sends (X − 1)/X of 2DF/Y to the switch, gets back its 1/X partial sum, returns it, and receives the other (X − 1)/X finished: 2DF/Y each way.".to_string(),
                "T = 2DF / (Y · W): it falls with Y.".to_string(),
            ],
        )
        .mistake_formula("4*D*F/(Y*W)", sharp_double())
        .mistake_formula("2*D*F/W", "That reduces the whole array; each GPU holds only F/Y of it, so 2DF/Y bytes.".to_string())
        .mistake_formula("D*F/(Y*W)", "That counts values, not bytes: bf16 takes 2 bytes a value.".to_string()),
        Part::number(
            "b",
            format!("(The app's numbers; the book gives none.) With D = {}, F = {}, Y = {} (X = {}), how long?", count(dd), count(f), count(y), count(x)),
            Unit::Seconds,
            0.03,
            (t, Vec::new()),
            "2DF/Y bytes over one GPU's NVLink.".to_string(),
            vec![format!("2 · {} · {} / {} = {} bytes; ÷ {} = {}.", count(dd), count(f), count(y), sci(shard), bw_text(w), seconds(t))],
        )
        .mistake_number(plain.bandwidth_time, sharp_double())
        .mistake_number(2.0 * t, format!("{} Or it reduces the whole array, 2DF, not the GPU's F/Y slice.", sharp_double()))
        .mistake_number(t / 2.0, "That counts values, not bytes: bf16 takes 2 bytes a value.".to_string()),
    ];
    let calc = link_calc(chip, NvLink, dd, f / y);
    let c = calc.chip()?;
    question(
        "p12-q4-3",
        &source(4, 3),
        format!(
            "One node of 8 {} GPUs, {} of NVLink each, one way, on switches that sum (SHARP). bf16[D_X, F_Y] over the node's 8 GPUs (X · Y = 8); AllReduce(bf16[D, F_Y] {{U_X}}); part (b) takes D = {}, F = {}, Y = {}. The calculator opens a GPU's F/Y slice on NVLink: it times a copy's read and write, not the collective.",
            c.name,
            bw_text(w),
            count(dd),
            count(f),
            count(y)
        ),
        parts,
        calc,
    )
}

/// Quiz 4, question 4: the same AllReduce with Y = 256, a whole SU, so
/// that it runs over the spine.
pub(super) fn p12_q4_4(d: &mut Draw) -> Result<Question, CoreError> {
    let (dd, f) = mlp(d);
    let p = &POD;
    let su_gpus = p.gpus_per_node * p.nodes_per_su;
    let up = p.leaves_per_su * p.spines * p.cables * p.port();
    let spine = p.spines * p.ports * p.port();
    let whole = 2.0 * dd * f;
    let t = whole / up;
    let sus = 4u64;
    let mesh = format!("Y:8,Z:{},X:{sus}", p.nodes_per_su);
    let sz = sizes(&[("D", dd), ("F", f)]);
    let page = coll(
        &links("h100", &mesh)?,
        CollOp::AllReduce,
        "bf16[D,F_YZ]{U_X}",
        "X",
        &sz,
    )?;
    let node_egress = p.gpus_per_node * bw("h100", Dcn)?;
    let parts = vec![
        Part::number(
            "a",
            "How many bytes/s does one SU have up to the spine, one way?".to_string(),
            Unit::BytesPerSecond,
            0.02,
            (up, Vec::new()),
            "8 leaves, each with 2 cables of 400 Gbps to each of 16 spines.".to_string(),
            vec![format!("8 · 16 · 2 · {} = {}, 50 GB/s for each of its {} GPUs.", bw_text(p.port()), bw_text(up), count(su_gpus))],
        )
        .mistake_number(spine, "That is the whole spine, shared by the 4 SUs; each SU has a quarter of it.".to_string())
        .mistake_number(2.0 * up, other_way()),
        Part::number(
            "b",
            format!("(The app's numbers; the book gives the formula 2DF / 12.8e12.) With D = {}, F = {}, how long does the AllReduce take with SHARP?", count(dd), count(f)),
            Unit::Seconds,
            0.03,
            (t, Vec::new()),
            "Each SU holds its own 1/256 slices; it sends the whole 2DF up once, at the SU's bandwidth to the spine.".to_string(),
            vec![
                format!("2DF = {} bytes; ÷ {} = {}.", sci(whole), bw_text(up), seconds(t)),
                format!("The Scale page costs it without SHARP: 2 · (X − 1)/X · 2DF/256 ÷ 50 GB/s = {}.", seconds(page.cost.cost.bandwidth_time)),
            ],
        )
        .mistake_number(2.0 * t, sharp_double())
        .mistake_number(page.cost.cost.bandwidth_time, sharp_double())
        .mistake_number(whole / spine, "That uses the whole spine's 51.2 TB/s; the 4 SUs share it, 12.8 TB/s each.".to_string())
        .mistake_number(whole / node_egress, "That sends the whole array out of one node; with Y = 256 each of the SU's 32 nodes sends only its own slices.".to_string())
        .mistake_number(t / 2.0, "That counts values, not bytes: bf16 takes 2 bytes a value.".to_string()),
    ];
    let calc = vec_calc("h100", "bf16", ("D", dd), ("F", f));
    let q = question(
        "p12-q4-4",
        &source(4, 4),
        format!(
            "The 1024-GPU DGX H100 SuperPod: 4 SUs of 256 GPUs, 16 spine switches of 64 ports of 400 Gbps, 2 cables from each leaf to each spine. AllReduce(bf16[D, F_Y] {{U_X}}) with Y = 256, a whole SU, and X = 4 SUs, with in-network reduction; D = {dd_text}, F = {f_text}. On the Scale page Y is two axes, Y (8 GPUs) and Z (32 nodes); it has no SHARP, so it shows the AllReduce without it.",
            dd_text = count(dd),
            f_text = count(f)
        ),
        parts,
        calc,
    )?;
    let s = coll_state(&mesh, CollOp::AllReduce, "X", "bf16[D,F_YZ]{U_X}");
    Ok(opens_scale(q, ScaleSetup::new(s), None))
}
