//! The Model page's keys of a link (`model`, `m.*`, `phase`, `b`, `ctx`,
//! `prompt`, `w`, `kv`, `act`, `math`, `eff.flops`, `eff.bw`, `overlap`); the chip, its
//! numbers and the chip count `n` are the calculator's. Each bad value is
//! replaced by its default, with a notice.

use super::{custom_value, preset, ModelState, Phase, ServingStep, CUSTOM_FIELDS};
use crate::num::shortest;
use crate::query::notice::{said, Notes};
use crate::query::LinkOut;
use crate::query::{whole, Params};
use crate::DType;

/// The custom model's link keys: `m.` and the field's key.
pub const CUSTOM_KEYS: [&str; 9] = [
    "m.layers",
    "m.d",
    "m.ff",
    "m.heads",
    "m.kvheads",
    "m.headdim",
    "m.vocab",
    "m.experts",
    "m.active",
];

fn read_whole(p: &mut Params, n: &mut Notes, key: &str, min: u64, default: f64) -> f64 {
    match p.take(key) {
        None => default,
        Some(raw) => match whole(&raw) {
            Some(x) if x >= min && x <= 1_000_000_000 => x as f64,
            _ => {
                n.push(
                    key,
                    format!(
                        "{} is not a whole number from {min} to 1e9; using {}",
                        said(key, &raw),
                        crate::format::plain_number(default)
                    ),
                );
                default
            }
        },
    }
}

fn read_dtype(p: &mut Params, n: &mut Notes, key: &str, default: DType) -> DType {
    match p.take(key) {
        None => default,
        Some(raw) => raw.trim().parse::<DType>().unwrap_or_else(|_| {
            n.push(
                key,
                format!(
                    "{} is not a data type (fp32, bf16, fp16, fp8, int8, fp4 or int4); using {default}",
                    said(key, &raw)
                ),
            );
            default
        }),
    }
}

fn read_fraction(p: &mut Params, n: &mut Notes, key: &str) -> f64 {
    match p.take(key) {
        None => 1.0,
        Some(raw) => match crate::num::parse_f64(raw.trim()) {
            Some(v) if v.is_finite() && v > 0.0 && v <= 1.0 => v,
            _ => {
                n.push(
                    key,
                    format!(
                        "{} is not a fraction above 0 and at most 1; using 1",
                        said(key, &raw)
                    ),
                );
                1.0
            }
        },
    }
}

fn read_flag(p: &mut Params, n: &mut Notes, key: &str, default: bool) -> bool {
    match p.take(key).as_deref().map(str::trim) {
        None => default,
        Some("1") => true,
        Some("0") => false,
        Some(raw) => {
            n.push(
                key,
                format!(
                    "{} is not 0 or 1; using {}",
                    said(key, raw),
                    u8::from(default)
                ),
            );
            default
        }
    }
}

/// The page's state from its keys; each bad value is its default, with a
/// notice.
pub(crate) fn read(p: &mut Params, n: &mut Notes) -> ModelState {
    let d = ModelState::default();
    let model = match p.take("model") {
        None => d.model.clone(),
        Some(raw) if raw.trim() == "custom" => "custom".to_string(),
        Some(raw) => match preset(raw.trim()) {
            Some(pr) => pr.id.to_string(),
            None => {
                n.push(
                    "model",
                    format!(
                        "{} is not a model preset or custom; using {}",
                        said("model", &raw),
                        d.model
                    ),
                );
                d.model.clone()
            }
        },
    };
    let mut custom = preset(&model).map_or_else(|| d.custom.clone(), |pr| pr.config.clone());
    if model == "custom" {
        for ((key, _), link_key) in CUSTOM_FIELDS.iter().zip(CUSTOM_KEYS) {
            let default = custom_value(&custom, key);
            let v = read_whole(p, n, link_key, 1, default);
            super::set_custom(&mut custom, key, v);
        }
        custom.tied = read_flag(p, n, "m.tied", false);
        custom.gated = read_flag(p, n, "m.gated", true);
        if let Err(e) = custom.check() {
            n.push(
                "m.*",
                format!(
                    "the custom model is not valid ({e}); using {}'s shape",
                    d.model
                ),
            );
            custom = d.custom.clone();
        }
    } else {
        let stray: Vec<String> = CUSTOM_KEYS
            .iter()
            .chain(&["m.tied", "m.gated"])
            .filter_map(|k| p.take(k).map(|_| (*k).to_string()))
            .collect();
        if !stray.is_empty() {
            n.push(
                "m.*",
                format!("{} only apply to model=custom; ignored", stray.join(", ")),
            );
        }
    }
    let phase = match p.take("phase") {
        None => Phase::Decode,
        Some(raw) => Phase::from_key(raw.trim()).unwrap_or_else(|| {
            n.push(
                "phase",
                format!(
                    "{} is not decode or prefill; using decode",
                    said("phase", &raw)
                ),
            );
            Phase::Decode
        }),
    };
    let math = p.take("math").and_then(|raw| {
        let t = raw.trim().parse::<DType>().ok();
        if t.is_none() {
            n.push(
                "math",
                format!(
                    "{} is not a data type; using the wider of w and act",
                    said("math", &raw)
                ),
            );
        }
        t
    });
    ModelState {
        model,
        custom,
        step: ServingStep {
            phase,
            batch: read_whole(p, n, "b", 1, d.step.batch),
            context: read_whole(p, n, "ctx", 0, d.step.context),
            prompt: read_whole(p, n, "prompt", 1, d.step.prompt),
            weights: read_dtype(p, n, "w", d.step.weights),
            kv: read_dtype(p, n, "kv", d.step.kv),
            act: read_dtype(p, n, "act", d.step.act),
            math,
            eff_flops: read_fraction(p, n, "eff.flops"),
            eff_bw: read_fraction(p, n, "eff.bw"),
            overlap: read_flag(p, n, "overlap", true),
        },
    }
}

/// The Model page's keys, in the order of `docs/url-schema.md`: only what
/// differs from the defaults; a custom model writes every field.
pub(crate) fn write(m: &ModelState, out: &mut LinkOut) {
    let d = ModelState::default();
    if m.model != d.model {
        out.put("model", m.model.clone());
    }
    if m.model == "custom" {
        for ((key, _), link_key) in CUSTOM_FIELDS.iter().zip(CUSTOM_KEYS) {
            out.put(link_key, shortest(custom_value(&m.custom, key)));
        }
        if m.custom.tied {
            out.put("m.tied", "1".to_string());
        }
        if !m.custom.gated {
            out.put("m.gated", "0".to_string());
        }
    }
    if m.step.phase != d.step.phase {
        out.put("phase", m.step.phase.key().to_string());
    }
    for (k, v, dv) in [
        ("b", m.step.batch, d.step.batch),
        ("ctx", m.step.context, d.step.context),
        ("prompt", m.step.prompt, d.step.prompt),
    ] {
        if v != dv {
            out.put(k, shortest(v));
        }
    }
    for (k, v, dv) in [
        ("w", m.step.weights, d.step.weights),
        ("kv", m.step.kv, d.step.kv),
        ("act", m.step.act, d.step.act),
    ] {
        if v != dv {
            out.put(k, v.name().to_string());
        }
    }
    if let Some(t) = m.step.math {
        out.put("math", t.name().to_string());
    }
    if m.step.eff_flops != 1.0 {
        out.put("eff.flops", shortest(m.step.eff_flops));
    }
    if m.step.eff_bw != 1.0 {
        out.put("eff.bw", shortest(m.step.eff_bw));
    }
    if !m.step.overlap {
        out.put("overlap", "0".to_string());
    }
}

/// Reads the page's keys from a query (or the text [`state_text`] wrote):
/// its state and the notices for what could not be used.
pub fn read_query(query: &str) -> (ModelState, Vec<crate::url::Notice>) {
    crate::query::keys::read(query, read)
}

/// The page's keys as a query (`model=llama3-70b&batch=64`), defaults left
/// out: the form [`AppState::model`](crate::pages::AppState::model) keeps
/// them in ([`crate::query::keys`]).
pub fn state_text(m: &ModelState) -> String {
    crate::query::keys::text(m, write)
}
