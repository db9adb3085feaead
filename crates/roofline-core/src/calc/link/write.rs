//! The calculator's keys of a link written from a [`CalcState`]: only what
//! differs from the defaults, in the order of `docs/url-schema.md`.

use crate::hardware::preset;
use crate::network::Collective;
use crate::num::shortest;
use crate::op::{Operation, Shortcut, Sizes};
use crate::query::LinkOut;
use crate::small::{Join, SmallMap};
use crate::state::{
    default_batch_dim, default_level2, default_sizes, CalcState, ChartScale, DEFAULT_CHIP,
    DEFAULT_PAIRS, DEFAULT_SHORTCUT,
};
use crate::{DType, LevelKind};

/// The link key of an operation: a shortcut's key (`mixed`, `dot`, ...)
/// when it is that shortcut, else its notation without spaces
/// (`bf16[B,D]*bf16[D,F]->bf16[B,F]`).
pub fn op_key(op: &Operation) -> String {
    if let Some(sc) = Shortcut::ALL.into_iter().find(|s| s.operation() == *op) {
        return sc.key().to_string();
    }
    let ins: Vec<String> = op.inputs.iter().map(|o| o.notation()).collect();
    format!("{}->{}", ins.joined(op.kind.symbol()), op.output.notation())
}

/// Sizes as `B:256,D:4096,F:4096`, in the operation's dimension order
/// (then any other names, alphabetically).
fn sizes_value(sizes: &Sizes, op: Option<&Operation>) -> String {
    let mut order: Vec<String> = op.map(|o| o.dims()).unwrap_or_default();
    order.retain(|d| sizes.contains_key(d));
    for k in sizes.keys() {
        if !order.contains(k) {
            order.push(k.clone());
        }
    }
    order
        .iter()
        .filter_map(|d| sizes.get(d).map(|v| format!("{d}:{}", shortest(*v))))
        .collect::<Vec<_>>()
        .joined(",")
}

pub(crate) fn pairs_value(pairs: &[(f64, f64)]) -> String {
    pairs
        .iter()
        .map(|(a, b)| format!("{}x{}", shortest(*a), shortest(*b)))
        .collect::<Vec<_>>()
        .joined(",")
}

/// Writes the calculator's keys of `c`.
pub(crate) fn write(c: &CalcState, out: &mut LinkOut) {
    if c.chip != DEFAULT_CHIP {
        out.put("chip", c.chip.clone());
    }
    let peaks: SmallMap<DType, f64> = crate::small::map_of(c.peak_overrides.iter().copied());
    for (d, v) in peaks {
        out.put(&format!("peak.{}", d.name()), shortest(v));
    }
    if let Some(v) = c.vector_override {
        out.put("peak.vector", shortest(v));
    }
    let bws: SmallMap<LevelKind, f64> = crate::small::map_of(c.bw_overrides.iter().copied());
    for (k, v) in bws {
        out.put(&format!("bw.{}", k.key()), shortest(v));
    }
    let op = Operation::parse(&c.op).ok();
    match &op {
        Some(o) if *o == DEFAULT_SHORTCUT.operation() => {}
        Some(o) => out.put("op", op_key(o)),
        None => out.put("op", c.op.clone()),
    }
    if op.as_ref().map(default_sizes).as_ref() != Some(&c.sizes) {
        out.put("sz", sizes_value(&c.sizes, op.as_ref()));
    }
    if let Some(p) = c.per_element {
        out.put("fpe", shortest(p));
    }
    if let Some(d) = c.compute {
        out.put("dt", d.name().to_string());
    }
    if let Some(u) = c.unit {
        out.put("unit", u.key().to_string());
    }
    let chip = c.chip().ok().or_else(|| preset(&c.chip));
    if c.extra_lines.is_empty() {
        if c.level1 != LevelKind::Hbm {
            out.put("l1", c.level1.key().to_string());
        }
        let l2_default = chip.as_ref().and_then(|ch| default_level2(ch, c.level1));
        if c.level2 != l2_default {
            out.put("l2", c.level2.map_or("none", LevelKind::key).to_string());
        }
    } else {
        // More than two lines: all of them, in order.
        let lines: Vec<&str> = std::iter::once(c.level1)
            .chain(c.level2)
            .chain(c.extra_lines.iter().copied())
            .map(LevelKind::key)
            .collect();
        out.put("lv", lines.join(","));
    }
    if !c.roofs.is_empty() {
        let keys: Vec<&str> = c.roofs.iter().map(|r| r.key()).collect();
        out.put("roofs", keys.join(","));
    }
    if c.chips != 1 {
        out.put("n", c.chips.to_string());
    }
    if let Some(l) = c.link {
        out.put("link", l.key().to_string());
    }
    if let Some(s) = &c.shard {
        out.put("shard", s.clone());
    }
    if c.collective != Collective::Once {
        out.put("coll", c.collective.key().to_string());
    }
    let bx_default = op
        .as_ref()
        .map_or_else(|| "B".to_string(), default_batch_dim);
    if c.batch_dim != bx_default {
        out.put("bx", c.batch_dim.clone());
    }
    if c.batch_scale != ChartScale::default() {
        out.put("bs", c.batch_scale.key().to_string());
    }
    if c.roofline_scale != ChartScale::default() {
        out.put("rs", c.roofline_scale.key().to_string());
    }
    if c.pairs != DEFAULT_PAIRS {
        out.put("pairs", pairs_value(&c.pairs));
    }
}
