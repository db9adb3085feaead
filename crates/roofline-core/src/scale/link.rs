//! The Scale page's keys of a link (`mesh`, `wrap`, `cop`, `cax`, `arr`,
//! `tokens`, `seq`, `strat`, `x`, `y`, `mx`, `my`, `zero`, `ckpt`, `mfu`,
//! `budget`, `pods`); the chip, `op` and `sz` are the calculator's, and
//! `model` and `m.*` the Model page's, read by their own pages. Each bad
//! value is replaced by its default, with a notice.

use super::array::ShardedArray;
use super::coll::CollOp;
use super::mesh::Mesh;
use super::state::ScaleState;
use super::train::Strategy;
use crate::num::shortest;
use crate::query::notice::{said, Notes};
use crate::query::{LinkOut, Params};
use crate::url::Notice;

fn value_in(raw: &str, range: (f64, f64), whole: bool) -> Option<f64> {
    let t: String = raw.trim().chars().filter(|c| *c != '_').collect();
    crate::num::parse_f64(&t)
        .filter(|v| v.is_finite() && *v >= range.0 && *v <= range.1 && (!whole || v.fract() == 0.0))
}

fn range_text(key: &str, raw: &str, range: (f64, f64), whole: bool) -> String {
    format!(
        "{} is not {} from {} to {}",
        said(key, raw),
        if whole { "a whole number" } else { "a number" },
        crate::format::plain_number(range.0),
        crate::format::plain_number(range.1)
    )
}

fn number(
    p: &mut Params,
    n: &mut Notes,
    key: &str,
    range: (f64, f64),
    whole: bool,
    default: f64,
) -> f64 {
    let Some(raw) = p.take(key) else {
        return default;
    };
    value_in(&raw, range, whole).unwrap_or_else(|| {
        n.push(
            key,
            format!(
                "{}; using {}",
                range_text(key, &raw, range, whole),
                crate::format::plain_number(default)
            ),
        );
        default
    })
}

fn optional(p: &mut Params, n: &mut Notes, key: &str, range: (f64, f64)) -> Option<f64> {
    let raw = p.take(key)?;
    let v = value_in(&raw, range, true);
    if v.is_none() {
        n.push(
            key,
            format!(
                "{}; deriving it from the mesh",
                range_text(key, &raw, range, true)
            ),
        );
    }
    v
}

fn axes_text(raw: &str) -> Option<String> {
    let t: String = raw
        .chars()
        .filter(|c| !matches!(c, ',' | ' '))
        .map(|c| c.to_ascii_uppercase())
        .collect();
    (!t.is_empty() && t.len() <= super::mesh::MAX_AXES && t.chars().all(|c| c.is_ascii_uppercase()))
        .then_some(t)
}

/// The page's state from its keys; each bad value is its default, with a
/// notice.
pub(crate) fn read(p: &mut Params, n: &mut Notes) -> ScaleState {
    let d = ScaleState::default();
    let mesh = p.take("mesh").and_then(|raw| match Mesh::parse(&raw) {
        Ok(m) => Some(m.text()),
        Err(e) => {
            n.push("mesh", format!("{e}; using the chip's default mesh"));
            None
        }
    });
    let wrap = p.take("wrap").and_then(|raw| {
        let t = raw.trim();
        if t.eq_ignore_ascii_case("none") || t.is_empty() {
            return Some("none".to_string());
        }
        let a = axes_text(t);
        if a.is_none() {
            n.push(
                "wrap",
                format!(
                    "{} is not a list of axes (XY) or none; using the chip's rules",
                    said("wrap", &raw)
                ),
            );
        }
        a
    });
    let cop = match p.take("cop") {
        None => d.cop,
        Some(raw) => CollOp::from_key(&raw).unwrap_or_else(|| {
            n.push(
                "cop",
                format!(
                    "{} is not allgather, reducescatter, allreduce or alltoall; using allgather",
                    said("cop", &raw)
                ),
            );
            d.cop
        }),
    };
    let cax = match p.take("cax") {
        None => d.cax.clone(),
        Some(raw) => axes_text(&raw).unwrap_or_else(|| {
            n.push(
                "cax",
                format!(
                    "{} is not a list of axes such as XY; using X",
                    said("cax", &raw)
                ),
            );
            d.cax.clone()
        }),
    };
    let arr = match p.take("arr") {
        None => d.arr.clone(),
        Some(raw) => match ShardedArray::parse(&raw) {
            Ok(a) => a.text(),
            Err(e) => {
                n.push("arr", format!("{e}; using {}", d.arr));
                d.arr.clone()
            }
        },
    };
    let strat = match p.take("strat") {
        None => d.strat,
        Some(raw) => Strategy::from_key(&raw).unwrap_or_else(|| {
            n.push(
                "strat",
                format!(
                    "{} is not dp, fsdp, tp, mixed, pp or pods; using {}",
                    said("strat", &raw),
                    d.strat.key()
                ),
            );
            d.strat
        }),
    };
    ScaleState {
        mesh,
        wrap,
        cop,
        cax,
        arr,
        tokens: number(p, n, "tokens", (1.0, 1e12), true, d.tokens),
        seq: number(p, n, "seq", (1.0, 1e9), true, d.seq),
        strat,
        x: optional(p, n, "x", (1.0, super::mesh::MAX_CHIPS)),
        y: optional(p, n, "y", (1.0, super::mesh::MAX_CHIPS)),
        mx: optional(p, n, "mx", (0.0, super::mesh::MAX_AXES as f64)),
        my: optional(p, n, "my", (0.0, super::mesh::MAX_AXES as f64)),
        zero: number(p, n, "zero", (1.0, 3.0), true, f64::from(d.zero)) as u8,
        ckpt: number(p, n, "ckpt", (0.0, 1000.0), false, d.ckpt),
        mfu: {
            let v = number(p, n, "mfu", (0.0, 1.0), false, d.mfu);
            if v > 0.0 {
                v
            } else {
                n.push("mfu", "mfu must be above 0; using 0.4".to_string());
                d.mfu
            }
        },
        budget: number(p, n, "budget", (1.0, 1e18), false, d.budget),
        pods: number(p, n, "pods", (1.0, 1e4), true, d.pods),
    }
}

/// The page's keys, in the order of the contract: only what
/// differs from the defaults.
pub(crate) fn write(s: &ScaleState, out: &mut LinkOut) {
    let d = ScaleState::default();
    if let Some(m) = &s.mesh {
        out.put("mesh", m.clone());
    }
    if let Some(w) = &s.wrap {
        out.put("wrap", w.clone());
    }
    if s.cop != d.cop {
        out.put("cop", s.cop.key().to_string());
    }
    if s.cax != d.cax {
        out.put("cax", s.cax.clone());
    }
    if s.arr != d.arr {
        out.put("arr", s.arr.clone());
    }
    for (k, v, dv) in [("tokens", s.tokens, d.tokens), ("seq", s.seq, d.seq)] {
        if v != dv {
            out.put(k, shortest(v));
        }
    }
    if s.strat != d.strat {
        out.put("strat", s.strat.key().to_string());
    }
    for (k, v) in [("x", s.x), ("y", s.y), ("mx", s.mx), ("my", s.my)] {
        if let Some(v) = v {
            out.put(k, shortest(v));
        }
    }
    if s.zero != d.zero {
        out.put("zero", s.zero.to_string());
    }
    for (k, v, dv) in [
        ("ckpt", s.ckpt, d.ckpt),
        ("mfu", s.mfu, d.mfu),
        ("budget", s.budget, d.budget),
        ("pods", s.pods, d.pods),
    ] {
        if v != dv {
            out.put(k, shortest(v));
        }
    }
}

/// Reads the page's keys from a query (or a pasted link, or the text
/// [`state_text`] wrote): its state and the notices for what could not be
/// used.
pub fn read_query(query: &str) -> (ScaleState, Vec<Notice>) {
    crate::query::keys::read(query, read)
}

/// The page's keys as a query (`mesh=X%3A16&strat=mixed`), defaults left
/// out: the form [`AppState::scale`](crate::pages::AppState::scale) keeps
/// them in ([`crate::query::keys`]).
pub fn state_text(s: &ScaleState) -> String {
    crate::query::keys::text(s, write)
}
