//! The calculator's keys of a link (`chip`, `peak.*`, `bw.*`, `op`, `sz`,
//! `dt`, `l1`, `l2`, `n`, `link`, `shard`, `bx`, `bs`, `pairs`) read into a
//! [`CalcState`], every unusable value replaced by a fallback with a notice.

use crate::format::sci;
use crate::hardware::{catalogue, preset, Chip, Family};
use crate::op::{Operation, Shortcut, Sizes, MAX_FLOPS_PER_ELEMENT};
use crate::small::{Join, SmallMap};
use crate::state::{
    default_batch_dim, default_sizes, CalcState, ChartScale, DEFAULT_CHIP, DEFAULT_PAIRS,
    DEFAULT_SHORTCUT, MAX_PAIRS,
};
use crate::{ComputeUnit, DType, LevelKind};

use super::lines::{read_lines, Lines};
use super::network::{read_network, Network};
use super::write::pairs_value;
use crate::query::notice::{
    dim_list, dim_name, num_problem, quoted, said, shown, shown_long, Notes,
};
use crate::query::MAX_OP_CHARS;
use crate::query::{positive, Params};

/// A chip to fall back on if even the default preset were missing.
fn fallback_chip() -> Chip {
    preset(DEFAULT_CHIP)
        .or_else(|| catalogue().first().cloned())
        .unwrap_or_else(|| Chip {
            id: DEFAULT_CHIP.to_string(),
            name: DEFAULT_CHIP.to_string(),
            family: Family::Custom,
            peaks: Vec::new(),
            levels: Vec::new(),
            vector: None,
            memory: "HBM",
        })
}

/// The calculator's state from its keys, each bad value replaced.
pub(super) fn read_calc(p: &mut Params, n: &mut Notes) -> CalcState {
    // The chip, then the user's numbers on it.
    let mut chip = match p.take("chip") {
        None => fallback_chip(),
        Some(raw) => match preset(&raw) {
            Some(c) => c,
            None => {
                let c = fallback_chip();
                let subject = match shown(&raw) {
                    Some(s) => format!("chip '{s}'"),
                    None => "chip".to_string(),
                };
                n.push(
                    "chip",
                    format!("{subject} is not a preset; using {}", c.name),
                );
                c
            }
        },
    };
    let base = chip.clone();
    let vector_override = read_vector(p, n, &base);
    let peak_overrides = read_peaks(p, n, &base);
    let bw_overrides = read_bandwidths(p, n, &base);
    if let Some(v) = vector_override {
        let _ = chip.set_vector(v);
    }
    for (d, v) in &peak_overrides {
        // Values are positive and finite: this cannot fail.
        let _ = chip.set_peak(*d, *v);
    }
    for (k, v) in &bw_overrides {
        let _ = chip.set_bandwidth(*k, *v);
    }

    let op = read_op(p, n);
    let sizes = match p.take("sz") {
        None => default_sizes(&op),
        Some(raw) => read_sizes(&raw, &op, n),
    };
    let per_element = p.take("fpe").and_then(|raw| read_per_element(&raw, &op, n));

    // Where the math runs: on the vector unit, the data type does not pick
    // the peak, so a chip need not list one for it.
    let unit = p.take("unit").and_then(|raw| {
        let u = ComputeUnit::from_key(&raw);
        if u.is_none() {
            n.push(
                "unit",
                format!(
                    "{} is not a unit (matrix or vector); using the operation's own",
                    said("unit", &raw)
                ),
            );
        }
        u
    });
    let on_vector = chip.runs_on(unit.unwrap_or_else(|| op.natural_unit())) == ComputeUnit::Vector;
    let widest = op.widest_input_dtype();
    let compute = p.take("dt").and_then(|raw| match raw.parse::<DType>() {
        Err(_) => {
            n.push(
                "dt",
                format!(
                    "{} is not a data type (try fp32, bf16, fp16, fp8, int8, fp4 or int4); \
                     using the widest input's ({widest})",
                    said("dt", &raw)
                ),
            );
            None
        }
        Ok(d) if !on_vector && chip.peak(d).is_err() => {
            n.push(
                "dt",
                format!(
                    "dt: {} lists no {d} peak; using the widest input's ({widest})",
                    chip.name
                ),
            );
            None
        }
        Ok(d) => Some(d),
    });
    let compute = match compute {
        None if !on_vector && chip.peak(widest).is_err() => {
            let first = chip.dtypes().into_iter().next();
            if let Some(d) = first {
                n.push(
                    "dt",
                    format!(
                        "dt: {} lists no {widest} peak (the widest input's type); using {d}",
                        chip.name
                    ),
                );
            }
            first
        }
        c => c,
    };

    let Lines {
        level1,
        level2,
        extra_lines,
        roofs,
    } = read_lines(p, n, &chip);
    let Network {
        chips,
        link,
        shard,
        collective,
    } = read_network(p, n, &chip, &op);

    let bx_default = default_batch_dim(&op);
    let batch_dim = match p.take("bx") {
        None => bx_default,
        Some(raw) if op.has_dim(raw.trim()) => raw.trim().to_string(),
        Some(raw) => {
            n.push(
                "bx",
                format!(
                    "{} is not a dimension of the operation ({}); using {}",
                    said("bx", &raw),
                    dim_list(&op.dims()),
                    dim_name(&bx_default)
                ),
            );
            bx_default
        }
    };
    let batch_scale = read_scale(p, n, "bs");
    let roofline_scale = read_scale(p, n, "rs");
    let pairs = match p.take("pairs") {
        None => DEFAULT_PAIRS.to_vec(),
        Some(raw) => read_pairs(&raw, n),
    };

    CalcState {
        unit,
        chip: chip.id.clone(),
        peak_overrides,
        vector_override,
        bw_overrides,
        op: op.notation(),
        sizes,
        per_element,
        compute,
        level1,
        level2,
        extra_lines,
        roofs,
        chips,
        link,
        shard,
        collective,
        batch_dim,
        batch_scale,
        roofline_scale,
        pairs,
    }
}

/// FLOPs per element (`fpe`) for an operation that sums nothing: a number
/// from 1 to [`MAX_FLOPS_PER_ELEMENT`]; `None`, with a notice, otherwise.
fn read_per_element(raw: &str, op: &Operation, n: &mut Notes) -> Option<f64> {
    let default = op.default_flops_per_element();
    let Some(default) = default else {
        n.push(
            "fpe",
            "fpe: FLOPs per element are for an operation that sums nothing (elementwise); ignored"
                .to_string(),
        );
        return None;
    };
    match positive(raw) {
        Ok(v) if v <= MAX_FLOPS_PER_ELEMENT => Some(v),
        Ok(_) => {
            n.push(
                "fpe",
                format!(
                    "{} is more than {} FLOPs per element; using {}",
                    said("fpe", raw),
                    sci(MAX_FLOPS_PER_ELEMENT),
                    sci(default)
                ),
            );
            None
        }
        Err(e) => {
            n.push(
                "fpe",
                format!(
                    "{}; using {}",
                    num_problem("fpe", raw, e, "number of FLOPs"),
                    sci(default)
                ),
            );
            None
        }
    }
}

/// A chart's axes from `key` (`log` or `lin`); log, with a notice, for
/// anything else.
fn read_scale(p: &mut Params, n: &mut Notes, key: &str) -> ChartScale {
    match p.take(key) {
        None => ChartScale::default(),
        Some(raw) => ChartScale::from_key(&raw).unwrap_or_else(|| {
            n.push(
                key,
                format!("{} is not log or lin; using log", said(key, &raw)),
            );
            ChartScale::default()
        }),
    }
}

fn read_peaks(p: &mut Params, n: &mut Notes, base: &Chip) -> Vec<(DType, f64)> {
    let mut out: SmallMap<DType, f64> = SmallMap::new();
    for (key, raw) in p.take_prefixed("peak.") {
        // Read by `read_vector`.
        if key == "peak.vector" {
            continue;
        }
        let name = shown(&key).unwrap_or_else(|| "a peak.* parameter".to_string());
        let Ok(d) = key["peak.".len()..].parse::<DType>() else {
            n.push(
                &key,
                format!(
                    "{name} names no data type (try peak.fp32, peak.bf16, peak.fp16, peak.fp8, \
                     peak.int8, peak.fp4, peak.int4 or peak.vector); ignored"
                ),
            );
            continue;
        };
        match positive(&raw) {
            Ok(v) => {
                if out.insert(d, v).is_some() {
                    n.push(
                        &key,
                        format!("{name} sets the {d} peak again; using the last one"),
                    );
                }
            }
            Err(e) => {
                let fallback = match base.peak_entry(d) {
                    Some(pk) => format!("using {}'s {}", base.name, sci(pk.dense)),
                    None => "ignored".to_string(),
                };
                n.push(
                    &key,
                    format!("{}; {fallback}", num_problem(&name, &raw, e, "peak")),
                );
            }
        }
    }
    out.into_iter().collect()
}

/// `peak.vector`: the vector unit's peak, over the preset's or where it
/// publishes none.
fn read_vector(p: &mut Params, n: &mut Notes, base: &Chip) -> Option<f64> {
    let raw = p.take("peak.vector")?;
    match positive(&raw) {
        Ok(v) => Some(v),
        Err(e) => {
            let fallback = match &base.vector {
                Some(pk) => format!("using {}'s {}", base.name, sci(pk.dense)),
                None => "ignored".to_string(),
            };
            n.push(
                "peak.vector",
                format!(
                    "{}; {fallback}",
                    num_problem("peak.vector", &raw, e, "peak")
                ),
            );
            None
        }
    }
}

fn read_bandwidths(p: &mut Params, n: &mut Notes, base: &Chip) -> Vec<(LevelKind, f64)> {
    let mut out: SmallMap<LevelKind, f64> = SmallMap::new();
    for (key, raw) in p.take_prefixed("bw.") {
        let name = shown(&key).unwrap_or_else(|| "a bw.* parameter".to_string());
        let Some(k) = LevelKind::from_key(&key["bw.".len()..]) else {
            n.push(
                &key,
                format!(
                    "{name} names no memory level (try bw.hbm, bw.vmem, bw.smem, bw.pcie, bw.ici, \
                     bw.nvlink or bw.dcn); ignored"
                ),
            );
            continue;
        };
        match positive(&raw) {
            Ok(v) => {
                if out.insert(k, v).is_some() {
                    n.push(
                        &key,
                        format!("{name} sets the {k} bandwidth again; using the last one"),
                    );
                }
            }
            Err(e) => {
                let fallback = match base.level(k) {
                    Ok(l) => format!("using {}'s {}", base.name, sci(l.bandwidth)),
                    Err(_) => "ignored".to_string(),
                };
                n.push(
                    &key,
                    format!("{}; {fallback}", num_problem(&name, &raw, e, "bandwidth")),
                );
            }
        }
    }
    out.into_iter().collect()
}

fn read_op(p: &mut Params, n: &mut Notes) -> Operation {
    let default = DEFAULT_SHORTCUT.operation();
    let Some(raw) = p.take("op") else {
        return default;
    };
    let t = raw.trim();
    let why = if let Some(sc) = Shortcut::from_key(t) {
        return sc.operation();
    } else if t.chars().count() > MAX_OP_CHARS {
        format!("op is longer than {MAX_OP_CHARS} characters")
    } else {
        match Operation::parse(t) {
            Ok(op) => match op.counts(&default_sizes(&op)) {
                Ok(_) => return op,
                Err(e) => format!(
                    "{} cannot be counted at the default sizes ({})",
                    said("op", t),
                    shown(&e.to_string()).unwrap_or_default()
                ),
            },
            Err(e) => {
                let detail = shown_long(&e.to_string())
                    .map(|d| format!(" ({d})"))
                    .unwrap_or_default();
                format!("{} is not an operation{detail}", said("op", t))
            }
        }
    };
    n.push(
        "op",
        format!(
            "{why}; using the matmul with int8 weights, {}",
            default.notation()
        ),
    );
    default
}

fn read_sizes(raw: &str, op: &Operation, n: &mut Notes) -> Sizes {
    let defaults = default_sizes(op);
    let defaults_text = || {
        defaults
            .iter()
            .map(|(d, v)| format!("{}:{}", dim_name(d), sci(*v)))
            .collect::<Vec<_>>()
            .joined(",")
    };
    let mut got = Sizes::new();
    for item in raw.split(',') {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        let Some((name, val)) = item.split_once(':').or_else(|| item.split_once('=')) else {
            n.push(
                "sz",
                format!("sz: {} is not a size like D:4096; ignored", quoted(item)),
            );
            continue;
        };
        let name = name.trim();
        let Some(fallback) = defaults.get(name).copied() else {
            n.push(
                "sz",
                format!(
                    "sz: {} is not a dimension of the operation ({}); ignored",
                    quoted(name),
                    dim_list(&op.dims())
                ),
            );
            continue;
        };
        let v = match positive(val) {
            Ok(v) => v,
            // `4k`, `4Ki`: read as the calculator's fields read them, and said.
            Err(e) => match crate::input::parse_size(&dim_name(name), val) {
                Ok((v, Some(note))) => {
                    n.push("sz", format!("sz: {}:{note}", dim_name(name)));
                    v
                }
                _ => {
                    n.push(
                        "sz",
                        format!(
                            "{}; using {}",
                            num_problem(&dim_name(name), val, e, "size"),
                            sci(fallback)
                        ),
                    );
                    fallback
                }
            },
        };
        if got.insert(name.to_string(), v).is_some() {
            n.push(
                "sz",
                format!("sz gives {} twice; using the last", dim_name(name)),
            );
        }
    }
    for (d, v) in &defaults {
        if !got.contains_key(d) {
            n.push(
                "sz",
                format!("sz gives no size for {}; using {}", dim_name(d), sci(*v)),
            );
            got.insert(d.clone(), *v);
        }
    }
    if let Err(e) = op.counts(&got) {
        let why = shown_long(&e.to_string()).unwrap_or_else(|| "they cannot be used".to_string());
        n.push(
            "sz",
            format!("sz: {why}; using the default sizes {}", defaults_text()),
        );
        return defaults;
    }
    got
}

fn read_pairs(raw: &str, n: &mut Notes) -> Vec<(f64, f64)> {
    let default_text = || pairs_value(&DEFAULT_PAIRS);
    let mut out = Vec::new();
    let mut extra = 0usize;
    for item in raw.split(',') {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        let pair = item
            .split_once(['x', 'X', '×', '*'])
            .and_then(|(a, b)| Some((positive(a).ok()?, positive(b).ok()?)));
        match pair {
            Some(pair) if out.len() < MAX_PAIRS => out.push(pair),
            Some(_) => extra += 1,
            None => n.push(
                "pairs",
                format!(
                    "pairs: {} is not a pair of positive sizes like 4096x4096; skipped",
                    quoted(item)
                ),
            ),
        }
    }
    if extra > 0 {
        n.push(
            "pairs",
            format!(
                "pairs: {} pairs is more than {MAX_PAIRS}; kept the first {MAX_PAIRS}",
                MAX_PAIRS + extra
            ),
        );
    }
    if out.is_empty() {
        n.push(
            "pairs",
            format!("pairs has no usable pair; using {}", default_text()),
        );
        return DEFAULT_PAIRS.to_vec();
    }
    out
}
