//! The Scale page's fields as people type them: [`set_field`] reads a
//! typed value into the state (or says, for the field, why it cannot),
//! [`field_text`] writes a field back as its box shows it, and [`check`]
//! finds a state's first value out of range, so that a state built by hand
//! cannot reach the formulas with a NaN or a negative number.

use super::array::ShardedArray;
use super::coll::CollOp;
use super::mesh::{Mesh, MAX_AXES, MAX_CHIPS};
use super::state::ScaleState;
use super::train::Strategy;
use crate::format::plain_number;
use crate::num::shortest;

/// A numeric field: its key, its name on the page, its range, and
/// whether it is a whole number.
struct Num {
    key: &'static str,
    name: &'static str,
    min: f64,
    max: f64,
    whole: bool,
}

const NUMS: [Num; 11] = [
    Num {
        key: "tokens",
        name: "batch (tokens)",
        min: 1.0,
        max: 1e12,
        whole: true,
    },
    Num {
        key: "seq",
        name: "sequence length",
        min: 1.0,
        max: 1e9,
        whole: true,
    },
    Num {
        key: "x",
        name: "X (FSDP degree)",
        min: 1.0,
        max: MAX_CHIPS,
        whole: true,
    },
    Num {
        key: "y",
        name: "Y (TP degree)",
        min: 1.0,
        max: MAX_CHIPS,
        whole: true,
    },
    Num {
        key: "mx",
        name: "M_X (axes)",
        min: 0.0,
        max: MAX_AXES as f64,
        whole: true,
    },
    Num {
        key: "my",
        name: "M_Y (axes)",
        min: 0.0,
        max: MAX_AXES as f64,
        whole: true,
    },
    Num {
        key: "zero",
        name: "ZeRO stage",
        min: 1.0,
        max: 3.0,
        whole: true,
    },
    Num {
        key: "ckpt",
        name: "checkpoints a layer",
        min: 0.0,
        max: 1000.0,
        whole: false,
    },
    Num {
        key: "mfu",
        name: "MFU",
        min: 0.0,
        max: 1.0,
        whole: false,
    },
    Num {
        key: "budget",
        name: "training tokens",
        min: 1.0,
        max: 1e18,
        whole: false,
    },
    Num {
        key: "pods",
        name: "pods",
        min: 1.0,
        max: 1e4,
        whole: true,
    },
];

fn num(key: &str) -> Option<&'static Num> {
    NUMS.iter().find(|n| n.key == key)
}

fn range_error(n: &Num) -> String {
    let what = if n.whole {
        "a whole number"
    } else {
        "a number"
    };
    if n.key == "mfu" {
        "MFU: a fraction above 0 and at most 1, such as 0.4 or 40%".to_string()
    } else {
        format!(
            "{}: {what} from {} to {}",
            n.name,
            plain_number(n.min),
            plain_number(n.max)
        )
    }
}

/// A typed number: plain (`0.4`, `4096`, `1.5e13`, `4,096`), else with
/// the calculator's suffixes (`4M`, `15T`).
fn typed(name: &str, t: &str) -> Result<f64, String> {
    let plain: String = t
        .chars()
        .filter(|c| !matches!(c, ',' | '_' | ' '))
        .collect();
    match crate::num::parse_f64(&plain) {
        Some(v) => Ok(v),
        None => crate::input::parse_positive(name, t).map_err(|e| e.to_string()),
    }
}

/// A typed number for `n`; `40%` for the MFU.
fn read(n: &Num, text: &str) -> Result<f64, String> {
    let t = text.trim();
    let v = match t.strip_suffix('%').filter(|_| n.key == "mfu") {
        Some(pct) => typed(n.name, pct)? / 100.0,
        None => typed(n.name, t)?,
    };
    let ok = v.is_finite()
        && v >= n.min
        && v <= n.max
        && (!n.whole || v.fract() == 0.0)
        && (n.key != "mfu" || v > 0.0);
    if ok {
        Ok(v)
    } else {
        Err(range_error(n))
    }
}

/// Sets field `key` (a link key of the page) from the text typed into it;
/// the error, for the field, says why it cannot. An empty mesh, wrap, X,
/// Y, M_X or M_Y goes back to its default (derived from the chip or the
/// mesh).
pub fn set_field(s: &mut ScaleState, key: &str, text: &str) -> Result<(), String> {
    let t = text.trim();
    let optional = matches!(key, "mesh" | "wrap" | "x" | "y" | "mx" | "my");
    if optional && t.is_empty() {
        match key {
            "mesh" => s.mesh = None,
            "wrap" => s.wrap = None,
            "x" => s.x = None,
            "y" => s.y = None,
            "mx" => s.mx = None,
            _ => s.my = None,
        }
        return Ok(());
    }
    match key {
        "mesh" => s.mesh = Some(Mesh::parse(t).map_err(|e| e.to_string())?.text()),
        "wrap" if t.eq_ignore_ascii_case("none") => s.wrap = Some("none".to_string()),
        "wrap" | "cax" => {
            let axes: String = t
                .chars()
                .filter(|c| !matches!(c, ',' | ' '))
                .map(|c| c.to_ascii_uppercase())
                .collect();
            if axes.is_empty()
                || axes.len() > MAX_AXES
                || !axes.chars().all(|c| c.is_ascii_uppercase())
            {
                return Err(format!("{key}: the axes' letters, such as XY"));
            }
            if key == "wrap" {
                s.wrap = Some(axes);
            } else {
                s.cax = axes;
            }
        }
        "cop" => {
            s.cop = CollOp::from_key(t).ok_or_else(|| {
                "collective: allgather, reducescatter, allreduce or alltoall".to_string()
            })?;
        }
        "arr" => s.arr = ShardedArray::parse(t).map_err(|e| e.to_string())?.text(),
        "strat" => {
            s.strat = Strategy::from_key(t)
                .ok_or_else(|| "strategy: dp, fsdp, tp, mixed, pp or pods".to_string())?;
        }
        _ => {
            let n = num(key).ok_or_else(|| format!("{key} is not a field of this page"))?;
            let v = read(n, t)?;
            match key {
                "tokens" => s.tokens = v,
                "seq" => s.seq = v,
                "x" => s.x = Some(v),
                "y" => s.y = Some(v),
                "mx" => s.mx = Some(v),
                "my" => s.my = Some(v),
                "zero" => s.zero = v as u8,
                "ckpt" => s.ckpt = v,
                "mfu" => s.mfu = v,
                "budget" => s.budget = v,
                _ => s.pods = v,
            }
        }
    }
    Ok(())
}

fn opt(v: Option<f64>) -> String {
    v.map_or_else(String::new, shortest)
}

/// Field `key` as its box shows it (empty for a value derived from the
/// chip or the mesh).
pub fn field_text(s: &ScaleState, key: &str) -> String {
    match key {
        "mesh" => s.mesh.clone().unwrap_or_default(),
        "wrap" => s.wrap.clone().unwrap_or_default(),
        "cop" => s.cop.key().to_string(),
        "cax" => s.cax.clone(),
        "arr" => s.arr.clone(),
        "strat" => s.strat.key().to_string(),
        "tokens" => shortest(s.tokens),
        "seq" => shortest(s.seq),
        "x" => opt(s.x),
        "y" => opt(s.y),
        "mx" => opt(s.mx),
        "my" => opt(s.my),
        "zero" => s.zero.to_string(),
        "ckpt" => shortest(s.ckpt),
        "mfu" => shortest(s.mfu),
        "budget" => shortest(s.budget),
        "pods" => shortest(s.pods),
        _ => String::new(),
    }
}

/// The first numeric field of `s` out of its range, as `(key, message)`.
pub fn check(s: &ScaleState) -> Result<(), (&'static str, String)> {
    let values: [(&str, Option<f64>); 11] = [
        ("tokens", Some(s.tokens)),
        ("seq", Some(s.seq)),
        ("x", s.x),
        ("y", s.y),
        ("mx", s.mx),
        ("my", s.my),
        ("zero", Some(f64::from(s.zero))),
        ("ckpt", Some(s.ckpt)),
        ("mfu", Some(s.mfu)),
        ("budget", Some(s.budget)),
        ("pods", Some(s.pods)),
    ];
    for (n, (_, v)) in NUMS.iter().zip(values) {
        let Some(v) = v else { continue };
        let ok = v.is_finite()
            && v >= n.min
            && v <= n.max
            && (!n.whole || v.fract() == 0.0)
            && (n.key != "mfu" || v > 0.0);
        if !ok {
            return Err((n.key, range_error(n)));
        }
    }
    Ok(())
}
