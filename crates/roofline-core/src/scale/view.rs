//! What the Scale page shows, every number already formatted (through
//! [`crate::format`]), with the unrounded values of its `data-value`
//! attributes and each part's error: the mesh and its links, the
//! collective, the sharded matmul and the training plan
//! ([`super::view_train`]).

use crate::format;
use crate::hardware::Chip;
use crate::model::ModelConfig;
use crate::op::Sizes;

use super::array::ShardedArray;
use super::coll::{series, CollPoint};
use super::matmul::sharded_matmul;
use super::matmul_chart::{comms_roofline, MatmulPoint};
use super::mesh::{mesh_links, parse_axes, parse_wrap, AxisLink, Mesh, MeshLinks};
use super::sharded::array_collective;
use super::state::ScaleState;
use super::topology::topology;
use super::view_train::{train_view, TrainView};

/// One axis of the mesh, as its table shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct AxisRow {
    /// Its name.
    pub name: String,
    /// Chips along it.
    pub size: String,
    /// The link (`ICI`, `NVLink`, `DCN`).
    pub link: String,
    /// One way, per chip per link.
    pub one_way: String,
    /// Both ways (2 × one way).
    pub bidirectional: String,
    /// `yes`, `no` or `switch`.
    pub wraps: &'static str,
    /// The W a collective uses along it, and which it is: both ways when
    /// it wraps, one way when not, a switch port's one way.
    pub w: String,
    /// Whether that is the chip's rule (not the user's choice).
    pub by_rule: bool,
}

/// The collective, as the page shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct CollView {
    /// The array it starts from and the one it leaves.
    pub input: String,
    /// The array it leaves.
    pub output: String,
    /// V, the whole array within a group.
    pub v: String,
    /// Bytes each chip sends.
    pub bytes: String,
    /// The time (latency + bytes' time).
    pub time: String,
    /// The book's max(latency, its bandwidth term): V / W, 2V / W for an
    /// AllReduce, the AllToAll's own form.
    pub book_time: String,
    /// `latency` or `bandwidth`.
    pub bound: &'static str,
    /// The message size where the bound switches (whole array, and a chip's
    /// shard), or a dash.
    pub switch: String,
    /// The time with every axis wrapped.
    pub wrapped: String,
    /// The time with none wrapped.
    pub unwrapped: String,
    /// The derivation.
    pub derivation: Vec<String>,
    /// The chart: time against message size.
    pub series: Vec<CollPoint>,
}

/// The sharded matmul, as the page shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct MatmulView {
    /// The chapter's case, 1 to 4.
    pub case: u8,
    /// The collective it needs (`AllGather over X of the first input`), or
    /// `none`.
    pub collective: String,
    /// The collective's link value (`allgather`), or `none`.
    pub collective_key: &'static str,
    /// `before`, `after` or `none`.
    pub placement: &'static str,
    /// T_math.
    pub math_time: String,
    /// T_comms.
    pub comms_time: String,
    /// `compute` or `comms`.
    pub bound: &'static str,
    /// The dimension the comms roofline sweeps, and where it crosses.
    pub crossover: String,
    /// What the chapter says of it.
    pub words: Vec<String>,
    /// The comms roofline.
    pub series: Vec<MatmulPoint>,
}

/// Everything the Scale page shows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ScaleView {
    /// The mesh as read (`X:4,Y:4,Z:4`).
    pub mesh: String,
    /// Chips in it.
    pub chips: String,
    /// The chip's wraparound rule, in words, and its source.
    pub wrap_rule: String,
    /// How the chips are joined: `a 3-D torus (ICI)`, `a switch (NVLink)
    /// within a node, DCN between nodes`.
    pub layout: String,
    /// Every axis.
    pub axes: Vec<AxisRow>,
    /// DCN per chip.
    pub dcn: String,
    /// PCIe per chip.
    pub pcie: String,
    /// The hop latency and its source.
    pub hop_latency: String,
    /// The collective.
    pub collective: Option<CollView>,
    /// The sharded matmul.
    pub matmul: Option<MatmulView>,
    /// The training plan.
    pub train: Option<TrainView>,
    /// Each field's error, by link key (`mesh`, `wrap`, `cax`, `arr`,
    /// `op`, `x`, `train`, ...).
    pub errors: Vec<(&'static str, String)>,
    /// The `data-value` of each result, by test id, unrounded in base
    /// units (seconds, bytes, FLOPs, days).
    pub values: Vec<(&'static str, String)>,
}

impl ScaleView {
    /// The error of `key`, if any.
    pub fn error(&self, key: &str) -> Option<&str> {
        self.errors
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, e)| e.as_str())
    }

    /// The `data-value` of `testid`, if any.
    pub fn value(&self, testid: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(k, _)| *k == testid)
            .map(|(_, v)| v.as_str())
    }
}

/// An unrounded value for a `data-value`: empty when not finite.
pub(crate) fn raw(x: f64) -> String {
    if x.is_finite() {
        crate::num::shortest(x)
    } else {
        String::new()
    }
}

fn axis_row(a: &AxisLink) -> AxisRow {
    AxisRow {
        name: a.name.to_string(),
        size: format::count(a.size as f64),
        link: a.kind.name().to_string(),
        one_way: format::bandwidth(a.one_way),
        bidirectional: format::bandwidth(a.bidirectional),
        wraps: if a.link.wiring == crate::collective::Wiring::Switch {
            "switch"
        } else if a.wraps {
            "yes"
        } else {
            "no"
        },
        by_rule: a.wraps == a.wraps_by_rule,
        w: format!(
            "{} ({})",
            format::bandwidth(a.per_chip()),
            match a.link.wiring {
                crate::collective::Wiring::BidirectionalRing => "both directions",
                crate::collective::Wiring::Ring => "one direction",
                crate::collective::Wiring::Switch => "a switch port, one direction",
            }
        ),
    }
}

/// The mesh of the state on `chip` (the chip's default when it names none
/// or names a bad one).
pub fn links_of(
    s: &ScaleState,
    chip: &Chip,
    errors: &mut Vec<(&'static str, String)>,
) -> Option<MeshLinks> {
    let default = topology(chip).default_mesh;
    let mesh = match s.mesh.as_deref().map(Mesh::parse) {
        None => Mesh::parse(default),
        Some(Ok(m)) => Ok(m),
        Some(Err(e)) => {
            errors.push(("mesh", e.to_string()));
            Mesh::parse(default)
        }
    };
    let mesh = mesh.ok()?;
    let wrap = match parse_wrap(s.wrap.as_deref(), &mesh) {
        Ok(w) => w,
        Err(e) => {
            errors.push(("wrap", e.to_string()));
            None
        }
    };
    match mesh_links(&mesh, chip, wrap.as_deref()) {
        Ok(l) => Some(l),
        Err(e) => {
            errors.push(("mesh", e.to_string()));
            None
        }
    }
}

fn collective_view(
    s: &ScaleState,
    links: &MeshLinks,
    sizes: &Sizes,
    values: &mut Vec<(&'static str, String)>,
) -> Result<CollView, (&'static str, String)> {
    let arr = ShardedArray::parse(&s.arr).map_err(|e| ("arr", e.to_string()))?;
    let axes = parse_axes("axes", &s.cax, &links.mesh).map_err(|e| ("cax", e.to_string()))?;
    let c =
        array_collective(s.cop, &arr, &axes, links, sizes).map_err(|e| ("arr", e.to_string()))?;
    let chosen: Vec<&AxisLink> = axes.iter().filter_map(|a| links.axis(*a)).collect();
    values.push(("scale-coll-bytes", raw(c.cost.cost.bytes_per_chip)));
    values.push(("scale-coll-time", raw(c.cost.cost.time)));
    values.push(("scale-coll-bound", c.cost.bound.key().to_string()));
    Ok(CollView {
        input: c.input.text(),
        output: c.output.text(),
        v: format::bytes(c.v),
        bytes: format::bytes(c.cost.cost.bytes_per_chip),
        time: format::seconds(c.cost.cost.time),
        book_time: format::seconds(c.cost.book_time),
        bound: c.cost.bound.key(),
        switch: match c.cost.switch_bytes {
            Some(b) => format!(
                "{} ({} a chip)",
                format::bytes(b),
                format::bytes(b / c.cost.chips.max(1.0))
            ),
            None => format::MISSING.to_string(),
        },
        wrapped: format::seconds(c.wrapped.cost.time),
        unwrapped: format::seconds(c.unwrapped.cost.time),
        derivation: c.derivation,
        series: series(s.cop, &chosen),
    })
}

fn matmul_view(
    op: &str,
    links: &MeshLinks,
    chip: &Chip,
    sizes: &Sizes,
    values: &mut Vec<(&'static str, String)>,
) -> Result<MatmulView, String> {
    let m = sharded_matmul(op, links, chip, sizes).map_err(|e| e.to_string())?;
    let (collective, key) = match &m.collective {
        None => ("none".to_string(), "none"),
        Some((c, ax, i)) => (
            format!(
                "{} over {} of {}",
                c.name(),
                ax.iter().collect::<String>(),
                ["the first input", "the second input", "the output"][(*i).min(2)]
            ),
            c.key(),
        ),
    };
    let bound = if m.comms_bound { "comms" } else { "compute" };
    values.push(("scale-case", m.case.to_string()));
    values.push(("scale-collective", key.to_string()));
    values.push(("scale-math-time", raw(m.t_math)));
    values.push(("scale-comms-time", raw(m.t_comms)));
    values.push(("scale-bound", bound.to_string()));
    let crossover = match (&m.swept, m.crossover) {
        (Some(d), Some(x)) => format!(
            "compute-bound once {} exceeds {}",
            crate::query::notice::dim_name(d),
            format::count(x)
        ),
        _ => format::MISSING.to_string(),
    };
    Ok(MatmulView {
        case: m.case,
        collective,
        collective_key: key,
        placement: m.placement.key(),
        math_time: format::seconds(m.t_math),
        comms_time: format::seconds(m.t_comms),
        bound,
        crossover,
        series: comms_roofline(&m, sizes),
        words: m.words,
    })
}

/// The page's view: the state `s`, on `chip`, with the calculator's `op`
/// and `sizes`, for the Model page's `model`.
pub fn evaluate_scale(
    s: &ScaleState,
    chip: &Chip,
    op: &str,
    sizes: &Sizes,
    model: &ModelConfig,
) -> ScaleView {
    let mut errors = Vec::new();
    let mut values = Vec::new();
    let links = links_of(s, chip, &mut errors);
    let topo = topology(chip);
    let mut view = ScaleView {
        mesh: links.as_ref().map_or_else(String::new, |l| l.mesh.text()),
        chips: links.as_ref().map_or(format::MISSING.to_string(), |l| {
            format::count(l.mesh.chips())
        }),
        wrap_rule: format!("{} ({})", topo.wrap.text(), topo.source),
        layout: match (topo.wrap, links.as_ref().and_then(|l| l.axes.first())) {
            (super::topology::WrapRule::Switch, Some(a)) => format!(
                "a switch ({}) on the first axis; DCN between nodes on any other",
                a.kind
            ),
            (_, Some(a)) => format!("a {}-D torus ({}) on every axis", topo.dims, a.kind),
            (_, None) => format::MISSING.to_string(),
        },
        axes: links
            .as_ref()
            .map_or_else(Vec::new, |l| l.axes.iter().map(axis_row).collect()),
        dcn: chip
            .bandwidth(crate::LevelKind::Dcn)
            .map_or(format::MISSING.to_string(), format::bandwidth),
        pcie: chip
            .bandwidth(crate::LevelKind::Pcie)
            .map_or(format::MISSING.to_string(), format::bandwidth),
        hop_latency: links.as_ref().and_then(|l| l.axes.first()).map_or(
            format::MISSING.to_string(),
            |a| {
                if a.link.latency_source.is_empty() {
                    "not known for this link".to_string()
                } else {
                    format!(
                        "{} a hop; source: {}",
                        format::seconds(a.link.hop_latency),
                        a.link.latency_source
                    )
                }
            },
        ),
        collective: None,
        matmul: None,
        train: None,
        errors: Vec::new(),
        values: Vec::new(),
    };
    if let Some(links) = &links {
        match collective_view(s, links, sizes, &mut values) {
            Ok(c) => view.collective = Some(c),
            Err(e) => errors.push(e),
        }
        match matmul_view(op, links, chip, sizes, &mut values) {
            Ok(m) => view.matmul = Some(m),
            Err(e) => errors.push(("op", e)),
        }
        match train_view(s, links, chip, model, &mut values) {
            Ok(t) => view.train = Some(t),
            Err(e) => errors.push(e),
        }
    }
    view.errors = errors;
    view.values = values;
    view
}
