//! The GPU chapter's Quiz 3, beyond the node (Part 12, `p12-q3-…`): the
//! DGX H100 SuperPod's fat tree, level by level, and how it grows by
//! Scalable Units until its spine runs out of ports. The switches and
//! cables, which no preset holds, are in [`SuperPod`]; a GPU's links are
//! the presets' (one InfiniBand NIC a GPU as its DCN level). Each question
//! opens the Scale page with the pod as nodes of 8 GPUs (NVLink) by nodes
//! (InfiniBand).

use crate::format::count;
use crate::quiz::answer::Unit;
use crate::quiz::{Part, Question, ScaleSetup};
use crate::scale::CollOp::AllGather;
use crate::{CoreError, LevelKind};

use super::helpers::question;
use super::part3::vec_calc;
use super::scales::{coll_state, opens_scale, yes_no};
use super::texts::bw_text;
use super::{invalid, Draw};

use LevelKind::{Dcn, NvLink};

/// GPUs in a node, whose NICs make the node's egress.
const NODE: f64 = 8.0;

/// A preset's one-way bandwidth at `level`.
fn bw(chip: &str, level: LevelKind) -> Result<f64, CoreError> {
    crate::hardware::preset(chip)
        .ok_or_else(|| invalid("no such chip"))?
        .bandwidth(level)
}

fn other_way() -> String {
    "That counts both directions of the links; the question asks one way.".to_string()
}

/// The DGX H100 SuperPod's switches and cables, which no preset holds.
/// Source: the book's "Beyond the node level" (after NVIDIA's DGX SuperPod
/// reference architecture, H100, network fabrics): 32 nodes of 8 GPUs
/// under 8 leaf switches make a Scalable Unit (SU); 4 SUs under 16 spine
/// switches; every IB switch has 64 NDR ports of 400 Gbps; two cables join
/// each leaf to each spine.
pub(super) struct SuperPod {
    /// GPUs in a node.
    pub gpus_per_node: f64,
    /// Nodes in an SU.
    pub nodes_per_su: f64,
    /// Leaf switches in an SU.
    pub leaves_per_su: f64,
    /// Spine switches.
    pub spines: f64,
    /// Ports of an IB switch.
    pub ports: f64,
    /// One NDR port or cable, bits/s one way.
    pub port_bits: f64,
    /// Cables from each leaf to each spine.
    pub cables: f64,
}

/// The book's pod.
pub(super) const POD: SuperPod = SuperPod {
    gpus_per_node: 8.0,
    nodes_per_su: 32.0,
    leaves_per_su: 8.0,
    spines: 16.0,
    ports: 64.0,
    port_bits: 400e9,
    cables: 2.0,
};

impl SuperPod {
    /// One port's bytes/s one way.
    pub fn port(&self) -> f64 {
        self.port_bits / 8.0
    }
}

/// Quiz 3, question 1: the fat tree's bandwidth at every level, and the
/// pod's bisection bandwidth.
pub(super) fn p12_q3_1(d: &mut Draw) -> Result<Question, CoreError> {
    let sus = d.pick(4.0, &[2.0, 3.0, 4.0]);
    // The DGX H200 SuperPod keeps the H100's network (8 NICs of 400 Gbps
    // a node, the same SU).
    let chip = d.pick("h100", &["h100", "h200"]);
    let p = &POD;
    let nic = bw(chip, Dcn)?;
    let node = p.gpus_per_node * nic;
    let down = p.ports / 2.0;
    let leaf = p.leaves_per_su * down * p.port();
    let up = p.leaves_per_su * p.spines * p.cables * p.port();
    let spine = p.spines * p.ports * p.port();
    let nodes = sus * p.nodes_per_su;
    let bisection = nodes * node;
    let per_node = |x: f64, n: f64| {
        format!(
            "{} over {} nodes is {} a node",
            bw_text(x),
            count(n),
            bw_text(x / n)
        )
    };
    let parts = vec![
        Part::number(
            "a",
            "How many bytes/s can one node send to its leaf switches, one way?".to_string(),
            Unit::BytesPerSecond,
            0.02,
            (node, Vec::new()),
            "Each of its 8 GPUs has its own 400 Gbps InfiniBand NIC.".to_string(),
            vec![format!("8 NICs × 400 Gbps ÷ 8 bits a byte = 8 × {} = {}.", bw_text(nic), bw_text(node))],
        )
        .mistake_number(8.0 * node, "That counts bits as bytes: 400 Gbps is 50 GB/s.".to_string())
        .mistake_number(2.0 * node, other_way())
        .mistake_number(nic, "That is one NIC; a node has 8, one a GPU.".to_string())
        .mistake_number(bw(chip, NvLink)?, "That is a GPU's NVLink, inside the node; the node leaves through its 8 InfiniBand NICs.".to_string()),
        Part::number(
            "b",
            "An SU's 8 leaf switches: how many bytes/s can they take in from the SU's 32 nodes?".to_string(),
            Unit::BytesPerSecond,
            0.02,
            (leaf, Vec::new()),
            "A leaf switch has 64 ports; half face the nodes, half go up to the spine.".to_string(),
            vec![
                format!("8 leaves × 32 ports × {} = {}.", bw_text(p.port()), bw_text(leaf)),
                format!("{}: exactly a node's NICs.", per_node(leaf, p.nodes_per_su)),
            ],
        )
        .mistake_number(2.0 * leaf, "That uses all 64 ports of each leaf; half of them go up to the spine.".to_string())
        .mistake_number(8.0 * leaf, "That counts bits as bytes: a 400 Gbps port is 50 GB/s.".to_string()),
        Part::number(
            "c",
            "And from the SU up to the spine switches?".to_string(),
            Unit::BytesPerSecond,
            0.02,
            (up, Vec::new()),
            "Each leaf has 2 cables to each of the 16 spine switches.".to_string(),
            vec![
                format!("8 leaves × 16 spines × 2 cables × {} = {}.", bw_text(p.port()), bw_text(up)),
                format!("{} again.", per_node(up, p.nodes_per_su)),
            ],
        )
        .mistake_number(up / 2.0, "That takes one cable from each leaf to each spine; the pod has two.".to_string()),
        Part::number(
            "d",
            "How many bytes/s can the 16 spine switches carry in all, one way?".to_string(),
            Unit::BytesPerSecond,
            0.02,
            (spine, Vec::new()),
            "16 switches of 64 ports.".to_string(),
            vec![
                format!("16 × 64 × {} = {}.", bw_text(p.port()), bw_text(spine)),
                format!("{} (the book's 4 SUs: exactly 400 GB/s).", per_node(spine, nodes)),
            ],
        )
        .mistake_number(spine / 2.0, "That counts half the ports; every spine port faces a leaf.".to_string()),
        Part::number(
            "e",
            format!("(The app's total; the book stops at 400 GB/s a node.) Split the {} nodes into two halves: how many bytes/s cross between them, both directions counted as for a node in Quiz 2?", count(nodes)),
            Unit::BytesPerSecond,
            0.02,
            (bisection, Vec::new()),
            "Every level gives each node its 400 GB/s, so each node can send that to the other half.".to_string(),
            vec![
                format!("{} nodes a half × {} each way × 2 directions = {}.", count(nodes / 2.0), bw_text(node), bw_text(bisection)),
                "Every level has exactly a node's 400 GB/s for each node below it: the full bisection bandwidth of a fat tree.".to_string(),
            ],
        )
        .mistake_number(bisection / 2.0, "That counts one direction; Quiz 2's bisection bandwidth counts the flow both ways.".to_string())
        .mistake_number(bisection * bw(chip, NvLink)? / node, "That uses NVLink's bandwidth; between nodes each has 400 GB/s of InfiniBand.".to_string()),
    ];
    let calc = vec_calc(chip, "bf16", ("N", 16384.0 * nodes), ("D", 8192.0));
    let name = calc.chip()?.name;
    let q = question(
        "p12-q3-1",
        "Part 12, quiz 3, question 1",
        format!(
            "A DGX SuperPod of {} SUs ({} {name} GPUs): each SU is 32 nodes of 8 GPUs under 8 leaf InfiniBand switches, and 16 spine switches join the SUs. Every switch has 64 ports of 400 Gbps (NDR); each GPU has one 400 Gbps NIC; two cables join each leaf to each spine. The Scale page opens the pod as 8 GPUs a node (X, NVLink) by {} nodes (Y, InfiniBand).",
            count(sus),
            count(nodes * p.gpus_per_node),
            count(nodes)
        ),
        parts,
        calc,
    )?;
    let mesh = format!("X:8,Y:{}", nodes);
    let s = coll_state(&mesh, AllGather, "Y", "bf16[N_XY,D]");
    Ok(opens_scale(q, ScaleSetup::new(s), None))
}

/// Quiz 3, question 2: growing the SuperPod by whole SUs: the SUs, the
/// spine switches and the cables that keep full bisection bandwidth, and
/// when the spine runs out of ports.
pub(super) fn p12_q3_2(d: &mut Draw) -> Result<Question, CoreError> {
    let sus = d.pick(8.0, &[2.0, 4.0, 8.0]);
    // The DGX H200 SuperPod keeps the H100's network.
    let chip = d.pick("h100", &["h100", "h200"]);
    let p = &POD;
    let node = NODE
        * crate::hardware::preset(chip)
            .ok_or_else(|| invalid("no such chip"))?
            .bandwidth(Dcn)?;
    let gpus = sus * p.nodes_per_su * p.gpus_per_node;
    let nodes = sus * p.nodes_per_su;
    let switch = p.ports * p.port();
    let spines = nodes * node / switch;
    let uplinks = p.ports / 2.0;
    let cables = uplinks / spines;
    if cables.fract() != 0.0 || cables < 1.0 {
        return Err(invalid("the cables do not divide"));
    }
    let leaves_next = 2.0 * sus * p.leaves_per_su;
    let fits = usize::from(leaves_next > p.ports);
    let parts = vec![
        Part::number(
            "a",
            format!("Keeping the SU (32 nodes under 8 leaves), how many SUs make {} GPUs?", count(gpus)),
            Unit::None,
            0.01,
            (sus, Vec::new()),
            "An SU is 32 nodes of 8 GPUs.".to_string(),
            vec![format!("{} ÷ 256 = {}.", count(gpus), count(sus))],
        )
        .mistake_number(gpus / 8.0, "That counts nodes; an SU holds 32 of them.".to_string()),
        Part::number(
            "b",
            "How many spine switches keep 400 GB/s for every node?".to_string(),
            Unit::None,
            0.01,
            (spines, Vec::new()),
            "The spine must carry every node's 400 GB/s; a switch carries 64 ports of 50 GB/s.".to_string(),
            vec![format!("{} nodes × {} = {}; ÷ {} a switch = {} spine switches.", count(nodes), bw_text(node), bw_text(nodes * node), bw_text(switch), count(spines))],
        )
        .mistake_number(spines / 2.0, "That lets each spine port carry both ways' worth; a port carries 50 GB/s each way, and the spine must carry every node's 400 GB/s one way.".to_string())
        .mistake_number(2.0 * spines, "That gives every node 800 GB/s; the nodes send 400 GB/s.".to_string()),
        Part::number(
            "c",
            "Each leaf has 32 ports going up. How many cables from each leaf to each spine switch?".to_string(),
            Unit::None,
            0.01,
            (cables, Vec::new()),
            "A leaf spreads its 32 uplinks evenly over the spine switches.".to_string(),
            vec![format!("32 ÷ {} = {} (the 1024-GPU pod's 16 spines take 2 each).", count(spines), count(cables))],
        )
        .mistake_number(2.0 * cables, "That keeps the 1024-GPU pod's 2 cables; with more spine switches each leaf has fewer uplinks for each.".to_string()),
        Part::number(
            "d",
            "Double the pod again with the same two levels: how many leaf switches must each spine switch reach?".to_string(),
            Unit::None,
            0.01,
            (leaves_next, Vec::new()),
            "Every leaf must reach every spine for the fat tree.".to_string(),
            vec![format!("2 × {} SUs × 8 leaves = {} leaves, against a switch's 64 ports.", count(sus), count(leaves_next))],
        )
        .mistake_number(leaves_next / 2.0, "That is the pod before doubling; double the SUs, double the leaves.".to_string()),
        Part::choice(
            "e",
            "Do a spine switch's 64 ports reach them all?".to_string(),
            yes_no(),
            fits,
            "One port for each leaf, at the least.".to_string(),
            vec![if fits == 1 {
                format!("{} leaves need more than 64 ports: the tree needs another level (NVIDIA's 4096-GPU pod adds core switches).", count(leaves_next))
            } else {
                format!("{} leaves fit in 64 ports.", count(leaves_next))
            }],
        )
        .mistake_choice(1 - fits, if fits == 1 {
            format!("Each spine needs a port for each of the {} leaves; it has 64.", count(leaves_next))
        } else {
            format!("{} leaves need only {} of the 64 ports.", count(leaves_next), count(leaves_next))
        }),
    ];
    let calc = vec_calc(chip, "bf16", ("N", 16384.0 * nodes), ("D", 8192.0));
    let name = calc.chip()?.name;
    let q = question(
        "p12-q3-2",
        "Part 12, quiz 3, question 2",
        format!(
            "Grow the DGX SuperPod of {name} GPUs to {} GPUs. Its parts: nodes of 8 GPUs with one 400 Gbps NIC each (400 GB/s a node); SUs of 32 nodes under 8 leaf switches; IB switches of 64 ports of 400 Gbps; the 1024-GPU pod has 16 spine switches and 2 cables from each leaf to each. The Scale page opens the pod as 8 GPUs a node (X) by {} nodes (Y).",
            count(gpus),
            count(nodes)
        ),
        parts,
        calc,
    )?;
    let mesh = format!("X:8,Y:{}", nodes);
    let s = coll_state(&mesh, AllGather, "Y", "bf16[N_XY,D]");
    Ok(opens_scale(q, ScaleSetup::new(s), None))
}
