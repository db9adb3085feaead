//! A sharded matmul (`bf16[B_X,D]*bf16[D,F_Y]->bf16[B_X,F_Y]`, the
//! calculator's `op`; its structure read by the calculator's parser once
//! the axes are taken off, the axes by [`ShardedDim::split`]) in the chapter's four cases: the
//! collective it needs, before or after the local matmul, its time against
//! the local T_math, and the "comms roofline": both times as the size that
//! only the math grows with grows, with the size where they cross
//! ([`super::comms_roofline`]).

use crate::format;
use crate::hardware::Chip;
use crate::op::{Operation, Sizes};
use crate::CoreError;

use super::array::{axes_size, check_dim, size_of, ShardedArray, ShardedDim};
use super::coll::{collective, CollCost, CollOp};
use super::matmul_chart::swept_size;
use super::mesh::{AxisLink, MeshLinks};
use crate::collective::Wiring;

/// When the collective runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// No collective (case 1).
    None,
    /// Before the local matmul (an AllGather of an input).
    Before,
    /// After it (an AllReduce or ReduceScatter of the output).
    After,
}

impl Placement {
    /// `none`, `before` or `after`.
    pub fn key(self) -> &'static str {
        match self {
            Placement::None => "none",
            Placement::Before => "before",
            Placement::After => "after",
        }
    }
}

/// A sharded matmul, classified and costed.
#[derive(Debug, Clone, PartialEq)]
pub struct ShardedMatmul {
    /// The chapter's case, 1 to 4.
    pub case: u8,
    /// The inputs and the output, split into dimensions and axes.
    pub inputs: [ShardedArray; 2],
    /// The output as written.
    pub output: ShardedArray,
    /// The summed dimensions.
    pub contracted: Vec<String>,
    /// The collective, if any, its axes and which operand it acts on
    /// (0, 1 an input, 2 the output).
    pub collective: Option<(CollOp, Vec<char>, usize)>,
    /// Before or after the local matmul.
    pub placement: Placement,
    /// Its cost (zero time for case 1).
    pub comms: Option<CollCost>,
    /// FLOPs of one chip's local matmul.
    pub local_flops: f64,
    /// T_math: the local FLOPs over the chip's peak, s.
    pub t_math: f64,
    /// T_comms: the collective's time, s (0 for case 1).
    pub t_comms: f64,
    /// Whether the collective takes longer than the math.
    pub comms_bound: bool,
    /// The dimension the comms roofline sweeps (it grows the math only).
    pub swept: Option<String>,
    /// Its size where T_math = T_comms.
    pub crossover: Option<f64>,
    /// What the chapter says of it, in words.
    pub words: Vec<String>,
}

fn err(m: String) -> CoreError {
    CoreError::Invalid(m)
}

/// The op with each dimension's axes taken off (`B_X` → `B`), for the
/// calculator's parser, which reads `B_X` and `B` as two dimensions; and
/// each operand's dimensions as written.
fn strip(op: &str) -> Result<(String, Vec<Vec<String>>), CoreError> {
    let mut out = String::with_capacity(op.len());
    let mut groups: Vec<Vec<String>> = Vec::new();
    let mut body: Option<String> = None;
    for ch in op.chars() {
        match (&mut body, ch) {
            (None, '[') => {
                body = Some(String::new());
                out.push('[');
            }
            (Some(b), ']') => {
                let dims: Vec<String> = if b.trim().is_empty() {
                    Vec::new()
                } else {
                    b.split(',').map(|d| d.trim().to_string()).collect()
                };
                let bases: Vec<&str> = dims
                    .iter()
                    .map(|d| d.split('_').next().unwrap_or(""))
                    .collect();
                out.push_str(&bases.join(","));
                out.push(']');
                groups.push(dims);
                body = None;
            }
            (Some(b), c) => b.push(c),
            (None, c) => out.push(c),
        }
    }
    if body.is_some() {
        return Err(err("an operand's dimensions end with ]".to_string()));
    }
    Ok((out, groups))
}

/// The op without its axes (`bf16[B_X,D]*bf16[D,F_Y]->bf16[B_X,F_Y]` →
/// `bf16[B,D]*bf16[D,F]->bf16[B,F]`): what the calculator should count,
/// since its parser reads `D_X` and `D` as two dimensions.
pub fn unsharded_op(op: &str) -> Result<String, CoreError> {
    strip(op).map(|(s, _)| s)
}

fn array_of(o: &crate::op::Operand, written: &[String]) -> Result<ShardedArray, CoreError> {
    Ok(ShardedArray {
        dtype: o.dtype,
        dims: written
            .iter()
            .map(|d| ShardedDim::split(d))
            .collect::<Result<_, _>>()?,
        unreduced: Vec::new(),
    })
}

fn axes_on(a: &ShardedArray, dims: &[String]) -> Vec<char> {
    a.dims
        .iter()
        .filter(|d| dims.contains(&d.name))
        .flat_map(|d| d.axes.iter().copied())
        .collect()
}

/// Reads and checks the op: two inputs, a contraction, axes in the mesh,
/// none on two dimensions of one operand, sizes divided by their axes.
fn read(
    op: &str,
    links: &MeshLinks,
    sizes: &Sizes,
) -> Result<([ShardedArray; 2], ShardedArray, Vec<String>), CoreError> {
    let (stripped, written) = strip(op)?;
    let parsed = Operation::parse(&stripped).map_err(CoreError::from)?;
    if parsed.inputs.len() != 2 || parsed.kind != crate::OpKind::Contraction || written.len() != 3 {
        return Err(err(
            "a sharded matmul has two inputs joined by *, such as bf16[B_X,D]*bf16[D,F_Y]->bf16[B_X,F_Y]"
                .to_string(),
        ));
    }
    let a = array_of(&parsed.inputs[0], &written[0])?;
    let b = array_of(&parsed.inputs[1], &written[1])?;
    let out = array_of(&parsed.output, &written[2])?;
    for (which, arr) in [
        ("the first input", &a),
        ("the second input", &b),
        ("the output", &out),
    ] {
        let mut seen: Vec<(char, &str)> = Vec::new();
        for d in &arr.dims {
            for x in &d.axes {
                if let Some((_, other)) = seen.iter().find(|(y, _)| y == x) {
                    return Err(err(format!(
                        "{which}: axis {x} shards both {} and {}; one axis may split only one dimension of an array",
                        crate::query::notice::dim_name(other),
                        crate::query::notice::dim_name(&d.name)
                    )));
                }
                seen.push((*x, d.name.as_str()));
            }
            check_dim(d, &links.mesh, sizes)?;
        }
    }
    let names =
        |x: &ShardedArray| -> Vec<String> { x.dims.iter().map(|d| d.name.clone()).collect() };
    let (na, nb, no) = (names(&a), names(&b), names(&out));
    let contracted: Vec<String> = na
        .iter()
        .filter(|d| nb.contains(d) && !no.contains(d))
        .cloned()
        .collect();
    if contracted.is_empty() {
        return Err(err(
            "the inputs share no summed dimension: a matmul sums over a dimension both inputs have and the output drops".to_string(),
        ));
    }
    Ok(([a, b], out, contracted))
}

/// Classifies and costs `op` on the mesh `links` and `chip` (its peak at
/// the wider input's type).
pub fn sharded_matmul(
    op: &str,
    links: &MeshLinks,
    chip: &Chip,
    sizes: &Sizes,
) -> Result<ShardedMatmul, CoreError> {
    let ([a, b], out, contracted) = read(op, links, sizes)?;
    let mesh = &links.mesh;
    let ja = axes_on(&a, &contracted);
    let jb = axes_on(&b, &contracted);
    let free = |x: &ShardedArray| -> Vec<char> {
        x.dims
            .iter()
            .filter(|d| !contracted.contains(&d.name))
            .flat_map(|d| d.axes.iter().copied())
            .collect()
    };
    let (fa, fb) = (free(&a), free(&b));
    let shared: Vec<char> = fa.iter().filter(|x| fb.contains(x)).copied().collect();
    let mut words = Vec::new();
    // (case, collective, axes, operand, placement)
    let (case, coll): (u8, Option<(CollOp, Vec<char>, usize)>) = if !shared.is_empty() {
        let ax: String = shared.iter().collect();
        words.push(format!(
            "Case 4: a non-summed dimension of each input is split over {ax}, which the output cannot hold twice. AllGather one input over {ax} first (here the second: {}), or the first if the output must keep the second's split.",
            unsplit(&b, &shared).text()
        ));
        (4, Some((CollOp::AllGather, shared.clone(), 1)))
    } else if ja.is_empty() && jb.is_empty() {
        words.push("Case 1: no input is split on the summed dimension, so each chip multiplies its own blocks and nothing is sent.".to_string());
        (1, None)
    } else if ja.is_empty() || jb.is_empty() {
        let (i, ax) = if ja.is_empty() {
            (1, jb.clone())
        } else {
            (0, ja.clone())
        };
        words.push(format!(
            "Case 2: one input is split on the summed dimension over {}. AllGather it over {} before the local matmul (the alternative, if there is one, is weighed below).",
            ax.iter().collect::<String>(),
            ax.iter().collect::<String>()
        ));
        (2, Some((CollOp::AllGather, ax, i)))
    } else {
        let mut sa = ja.clone();
        let mut sb = jb.clone();
        sa.sort_unstable();
        sb.sort_unstable();
        if sa != sb {
            return Err(err(format!(
                "the summed dimension is split over {} in one input and {} in the other: AllGather one of them first",
                ja.iter().collect::<String>(),
                jb.iter().collect::<String>()
            )));
        }
        let scatter = out.axes().iter().any(|x| ja.contains(x));
        let op = if scatter {
            CollOp::ReduceScatter
        } else {
            CollOp::AllReduce
        };
        words.push(format!(
            "Case 3: both inputs are split on the summed dimension over {}. Each chip's product holds partial sums; {} them over {} after the local matmul{}.",
            ja.iter().collect::<String>(),
            op.name(),
            ja.iter().collect::<String>(),
            if scatter { " (the output is split over it, so a ReduceScatter, half an AllReduce, is enough)" } else { "" }
        ));
        (3, Some((op, ja.clone(), 2)))
    };
    // Local sizes after the collective before the matmul.
    let mut local = [a.clone(), b.clone()];
    if let Some((CollOp::AllGather, ax, i)) = &coll {
        for d in &mut local[*i].dims {
            d.axes.retain(|x| !ax.contains(x));
        }
    }
    let mut flops = 2.0;
    let mut counted: Vec<&str> = Vec::new();
    for arr in &local {
        for d in &arr.dims {
            if counted.contains(&d.name.as_str()) {
                continue;
            }
            counted.push(&d.name);
            flops *= size_of(d, sizes)? / axes_size(&d.axes, mesh);
        }
    }
    let math_type = crate::model::wider(a.dtype, b.dtype);
    let peak = chip.peak(math_type)?;
    let t_math = flops / peak;
    let (comms, placement) = match &coll {
        None => (None, Placement::None),
        Some((op, ax, i)) => {
            let arr = if *i == 2 {
                &out
            } else if *i == 0 {
                &a
            } else {
                &b
            };
            let global = arr.bytes(sizes)?;
            let outside: Vec<char> = arr.axes().into_iter().filter(|x| !ax.contains(x)).collect();
            let v = global / axes_size(&outside, mesh);
            let links_of: Vec<&AxisLink> = ax.iter().filter_map(|x| links.axis(*x)).collect();
            let place = if *i == 2 {
                Placement::After
            } else {
                Placement::Before
            };
            (Some(collective(*op, v, &links_of)?), place)
        }
    };
    let t_comms = comms.map_or(0.0, |c| c.cost.time);
    // The dimension whose growth grows the math but not the collective.
    let swept = match (&coll, case) {
        (None, _) => a.dims.first().map(|d| d.name.clone()),
        (Some(_), 3) => contracted.first().cloned(),
        (Some((_, _, i)), _) => {
            let other = if *i == 0 { &b } else { &a };
            let gathered = if *i == 0 { &a } else { &b };
            other
                .dims
                .iter()
                .find(|d| !gathered.dims.iter().any(|g| g.name == d.name))
                .map(|d| d.name.clone())
        }
    };
    let crossover = match &swept {
        Some(name) if t_comms > 0.0 && t_math > 0.0 => {
            swept_size(&[&a, &b], name, sizes).map(|base| base * t_comms / t_math)
        }
        _ => None,
    };
    words.push(format!(
        "Local matmul: {} on a chip at {} → T_math = {}; the collective: T_comms = {}. {}",
        format::flops(flops),
        format::rate(peak, math_type),
        format::seconds(t_math),
        format::seconds(t_comms),
        if t_comms > t_math {
            "The collective takes longer: comms-bound, unless the sizes grow."
        } else {
            "The math takes longer: compute-bound (with the collective overlapped)."
        }
    ));
    if let (Some(c), Some((_, ax, _))) = (&comms, &coll) {
        let which: Vec<String> = ax
            .iter()
            .filter_map(|x| links.axis(*x))
            .map(|l| match l.link.wiring {
                Wiring::BidirectionalRing => {
                    format!("both directions of axis {} (it wraps)", l.name)
                }
                Wiring::Ring => format!("one direction of axis {} (no wraparound)", l.name),
                Wiring::Switch => format!("axis {}'s switch port, one way", l.name),
            })
            .collect();
        words.push(format!(
            "T_comms sends {} a chip at W = {}: {}.",
            format::bytes(c.cost.bytes_per_chip),
            format::bandwidth(c.rate),
            which.join(", ")
        ));
    }
    if let (2, Some((_, ax, i))) = (case, &coll) {
        // Multiply the shards as they are (the summed dimension split over
        // the axes) and AllReduce the output over them.
        let n = axes_size(ax, mesh);
        let global = out.bytes(sizes)?;
        let outside: Vec<char> = out.axes().into_iter().filter(|x| !ax.contains(x)).collect();
        let links_of: Vec<&AxisLink> = ax.iter().filter_map(|x| links.axis(*x)).collect();
        let reduce = collective(
            CollOp::AllReduce,
            global / axes_size(&outside, mesh),
            &links_of,
        )?;
        let other = if *i == 0 { &b } else { &a };
        let other_split = axes_on(other, &contracted).is_empty();
        // Slicing the other input's summed dimension over the axes needs
        // them free there: an axis already on another of its dimensions
        // cannot shard a second one (sharding's Question 6b).
        let busy = other
            .dims
            .iter()
            .filter(|d| !contracted.contains(&d.name))
            .any(|d| d.axes.iter().any(|x| ax.contains(x)));
        if !busy {
            words.push(format!(
            "The alternative: multiply the shards as they are ({}T_math = {}) and AllReduce the output over {} (T_comms = {}): {} here.",
            if other_split { "each chip uses its slice of the other input; " } else { "" },
            format::seconds(t_math / n),
            ax.iter().collect::<String>(),
            format::seconds(reduce.cost.time),
            if reduce.cost.time.max(t_math / n) < t_comms.max(t_math) { "faster" } else { "slower" }
        ));
        }
    }
    Ok(ShardedMatmul {
        case,
        inputs: [a, b],
        output: out,
        contracted,
        collective: coll,
        placement,
        comms,
        local_flops: flops,
        t_math,
        t_comms,
        comms_bound: t_comms > t_math,
        swept,
        crossover,
        words,
    })
}

fn unsplit(x: &ShardedArray, axes: &[char]) -> ShardedArray {
    let mut y = x.clone();
    for d in &mut y.dims {
        d.axes.retain(|a| !axes.contains(a));
    }
    y
}
