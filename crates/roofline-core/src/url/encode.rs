//! Writing a state as a link: `v=1`, then only the values that differ from
//! their defaults, in the order of `docs/url-schema.md`, escaped so that
//! sizes and pairs stay readable.

use crate::hardware::preset;
use crate::model::{custom_value, ModelState, CUSTOM_FIELDS};
use crate::network::Collective;
use crate::num::shortest;
use crate::op::{Operation, Shortcut, Sizes};
use crate::small::{Join, SmallMap};
use crate::state::{
    default_batch_dim, default_level2, default_sizes, AppState, ChartScale, View, DEFAULT_CHIP,
    DEFAULT_PAIRS, DEFAULT_QUESTION, DEFAULT_SHORTCUT,
};
use crate::{DType, LevelKind};

use super::read_model::CUSTOM_KEYS;
use super::VERSION;

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

pub(super) fn pairs_value(pairs: &[(f64, f64)]) -> String {
    pairs
        .iter()
        .map(|(a, b)| format!("{}x{}", shortest(*a), shortest(*b)))
        .collect::<Vec<_>>()
        .joined(",")
}

/// Percent-encodes a key or value (form encoding: a space becomes `+`),
/// then restores `:` and `,`, which are safe in a query and keep `sz` and
/// `pairs` readable. (A `%` in the text is itself encoded as `%25`, so every
/// `%3A` or `%2C` in the output came from a `:` or a `,`.)
fn escape(s: &str) -> String {
    // The serializer yields each escaped byte as its own `%XX` piece, so the
    // two are restored piece by piece (no substring search in the wasm).
    form_urlencoded::byte_serialize(s.as_bytes())
        .map(|piece| match piece {
            "%3A" => ":",
            "%2C" => ",",
            other => other,
        })
        .collect()
}

/// Writes `state` as a query string without the leading `?`: `v=1` first,
/// then only the values that differ from their defaults, in the order of
/// `docs/url-schema.md`. The default state is `v=1`.
pub fn encode(state: &AppState) -> String {
    let mut out: Vec<(String, String)> = vec![("v".to_string(), VERSION.to_string())];
    let mut put = |k: &str, v: String| out.push((k.to_string(), v));
    if state.view != View::default() {
        put("view", state.view.key().to_string());
    }
    let c = &state.calc;
    if c.chip != DEFAULT_CHIP {
        put("chip", c.chip.clone());
    }
    let peaks: SmallMap<DType, f64> = crate::small::map_of(c.peak_overrides.iter().copied());
    for (d, v) in peaks {
        put(&format!("peak.{}", d.name()), shortest(v));
    }
    if let Some(v) = c.vector_override {
        put("peak.vector", shortest(v));
    }
    let bws: SmallMap<LevelKind, f64> = crate::small::map_of(c.bw_overrides.iter().copied());
    for (k, v) in bws {
        put(&format!("bw.{}", k.key()), shortest(v));
    }
    let op = Operation::parse(&c.op).ok();
    match &op {
        Some(o) if *o == DEFAULT_SHORTCUT.operation() => {}
        Some(o) => put("op", op_key(o)),
        None => put("op", c.op.clone()),
    }
    if op.as_ref().map(default_sizes).as_ref() != Some(&c.sizes) {
        put("sz", sizes_value(&c.sizes, op.as_ref()));
    }
    if let Some(p) = c.per_element {
        put("fpe", shortest(p));
    }
    if let Some(d) = c.compute {
        put("dt", d.name().to_string());
    }
    if let Some(u) = c.unit {
        put("unit", u.key().to_string());
    }
    let chip = c.chip().ok().or_else(|| preset(&c.chip));
    if c.extra_lines.is_empty() {
        if c.level1 != LevelKind::Hbm {
            put("l1", c.level1.key().to_string());
        }
        let l2_default = chip.as_ref().and_then(|ch| default_level2(ch, c.level1));
        if c.level2 != l2_default {
            put("l2", c.level2.map_or("none", LevelKind::key).to_string());
        }
    } else {
        // More than two lines: all of them, in order.
        let lines: Vec<&str> = std::iter::once(c.level1)
            .chain(c.level2)
            .chain(c.extra_lines.iter().copied())
            .map(LevelKind::key)
            .collect();
        put("lv", lines.join(","));
    }
    if !c.roofs.is_empty() {
        let keys: Vec<&str> = c.roofs.iter().map(|r| r.key()).collect();
        put("roofs", keys.join(","));
    }
    if c.chips != 1 {
        put("n", c.chips.to_string());
    }
    if let Some(l) = c.link {
        put("link", l.key().to_string());
    }
    if let Some(s) = &c.shard {
        put("shard", s.clone());
    }
    if c.collective != Collective::Once {
        put("coll", c.collective.key().to_string());
    }
    let bx_default = op
        .as_ref()
        .map_or_else(|| "B".to_string(), default_batch_dim);
    if c.batch_dim != bx_default {
        put("bx", c.batch_dim.clone());
    }
    if c.batch_scale != ChartScale::default() {
        put("bs", c.batch_scale.key().to_string());
    }
    if c.roofline_scale != ChartScale::default() {
        put("rs", c.roofline_scale.key().to_string());
    }
    if c.pairs != DEFAULT_PAIRS {
        put("pairs", pairs_value(&c.pairs));
    }
    model_keys(&state.model, &mut put);
    let q = &state.quiz;
    if q.question != DEFAULT_QUESTION {
        put("q", q.question.clone());
    }
    if q.part != 1 {
        put("part", q.part.to_string());
    }
    if q.seed != 0 {
        put("seed", q.seed.to_string());
    }
    if state.step != 1 {
        put("step", state.step.to_string());
    }
    if !state.points.is_empty() {
        put("pts", state.points.clone());
    }
    out.iter()
        .map(|(k, v)| format!("{}={}", escape(k), escape(v)))
        .collect::<Vec<_>>()
        .joined("&")
}

/// The Model page's keys, in the order of `docs/url-schema.md`: only what
/// differs from the defaults; a custom model writes every field.
fn model_keys(m: &ModelState, put: &mut impl FnMut(&str, String)) {
    let d = ModelState::default();
    if m.model != d.model {
        put("model", m.model.clone());
    }
    if m.model == "custom" {
        for ((key, _), link_key) in CUSTOM_FIELDS.iter().zip(CUSTOM_KEYS) {
            put(link_key, shortest(custom_value(&m.custom, key)));
        }
        if m.custom.tied {
            put("m.tied", "1".to_string());
        }
        if !m.custom.gated {
            put("m.gated", "0".to_string());
        }
    }
    if m.phase != d.phase {
        put("phase", m.phase.key().to_string());
    }
    for (k, v, dv) in [
        ("b", m.batch, d.batch),
        ("ctx", m.context, d.context),
        ("prompt", m.prompt, d.prompt),
    ] {
        if v != dv {
            put(k, shortest(v));
        }
    }
    for (k, v, dv) in [
        ("w", m.weights, d.weights),
        ("kv", m.kv, d.kv),
        ("act", m.act, d.act),
    ] {
        if v != dv {
            put(k, v.name().to_string());
        }
    }
    if let Some(t) = m.math {
        put("math", t.name().to_string());
    }
    if m.eff_flops != 1.0 {
        put("eff.flops", shortest(m.eff_flops));
    }
    if m.eff_bw != 1.0 {
        put("eff.bw", shortest(m.eff_bw));
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    #[test]
    fn escape_keeps_colons_and_commas_readable() {
        assert_eq!(escape("a:b,c d"), "a:b,c+d");
        // A `%` is escaped itself, so an escaped colon in the text stays escaped.
        assert_eq!(escape("%3A,%2C"), "%253A,%252C");
        assert_eq!(escape("β→δ"), "%CE%B2%E2%86%92%CE%B4");
    }
}
