//! Measured kernels in a link: the compact text of the `pts` key.
//!
//! Each kernel is `name:intensity:rate` or `name:intensity:rate:time`
//! (FLOPs/byte, FLOP/s, seconds, each in the shortest text that reads back
//! to the same number), or, for a prediction (no time),
//! `name:intensity:~flops`; a kernel read at its own data type ends in
//! `:fp8` (any type's name); kernels are separated by `,`. In a name, `\`,
//! `:` and `,` are written `\\`, `\:` and `\,`. A link carries at most
//! [`LINK_MAX_POINTS`] kernels; more are saved to a file instead.

use crate::dtype::DType;
use crate::format::clip;
use crate::num::{parse_f64, shortest};

use super::{At, Kernel, RowError};

/// The most kernels a link carries.
pub const LINK_MAX_POINTS: usize = 32;
/// The longest name a link carries, in characters (longer ones are clipped).
pub const LINK_NAME_CHARS: usize = 40;
/// The longest `pts` value read, in bytes.
pub const LINK_MAX_CHARS: usize = 8_000;

/// `kernels` as the `pts` value; `None` when there are more than
/// [`LINK_MAX_POINTS`].
pub fn encode(kernels: &[Kernel]) -> Option<String> {
    if kernels.len() > LINK_MAX_POINTS {
        return None;
    }
    let mut out = String::new();
    for (i, k) in kernels.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        for c in clip_name(&k.name).chars() {
            if matches!(c, '\\' | ':' | ',') {
                out.push('\\');
            }
            out.push(c);
        }
        if let Some(flops) = k.predicted {
            out.push(':');
            out.push_str(&shortest(k.intensity));
            out.push_str(":~");
            out.push_str(&shortest(flops));
        } else {
            for v in [Some(k.intensity), Some(k.rate), k.time]
                .into_iter()
                .flatten()
            {
                out.push(':');
                out.push_str(&shortest(v));
            }
        }
        if let Some(d) = k.dtype {
            out.push(':');
            out.push_str(d.name());
        }
    }
    Some(out)
}

/// A name as a link keeps it.
fn clip_name(name: &str) -> String {
    if name.chars().count() > LINK_NAME_CHARS {
        clip(name, LINK_NAME_CHARS - 1)
    } else {
        name.to_string()
    }
}

/// Splits `text` at unescaped `sep`, keeping the escapes.
fn split_escaped(text: &str, sep: char) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut escaped = false;
    for c in text.chars() {
        if escaped {
            if let Some(cur) = out.last_mut() {
                cur.push('\\');
                cur.push(c);
            }
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == sep {
            out.push(String::new());
        } else if let Some(cur) = out.last_mut() {
            cur.push(c);
        }
    }
    out
}

/// Removes the escapes from a name.
fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut escaped = false;
    for c in s.chars() {
        if c == '\\' && !escaped {
            escaped = true;
        } else {
            out.push(c);
            escaped = false;
        }
    }
    out
}

/// Reads a `pts` value: the kernels it holds, and a message for each item
/// that is not a kernel (`At::Item`, counted from 1). Never panics.
pub fn decode(text: &str) -> (Vec<Kernel>, Vec<RowError>) {
    let mut kernels = Vec::new();
    let mut errors = Vec::new();
    if text.is_empty() {
        return (kernels, errors);
    }
    if text.len() > LINK_MAX_CHARS {
        errors.push(RowError {
            at: At::Input,
            message: format!(
                "the link's measurements are longer than {LINK_MAX_CHARS} characters and were not read"
            ),
        });
        return (kernels, errors);
    }
    for (i, item) in split_escaped(text, ',').iter().enumerate() {
        let at = At::Item(i + 1);
        if i >= LINK_MAX_POINTS {
            errors.push(RowError {
                at: At::Input,
                message: format!(
                    "the link holds more than {LINK_MAX_POINTS} measurements; the rest were ignored"
                ),
            });
            break;
        }
        let mut fields = split_escaped(item, ':');
        // A data type last (never a number): the kernel's own.
        let dtype = match fields.last() {
            Some(f) if fields.len() > 3 && parse_f64(f).is_none() && !f.starts_with('~') => {
                match f.parse::<DType>() {
                    Ok(d) => Some(d),
                    Err(_) => {
                        errors.push(RowError {
                            at,
                            message: "ends in something that is neither a number nor a data type"
                                .to_string(),
                        });
                        continue;
                    }
                }
            }
            _ => None,
        };
        if dtype.is_some() {
            fields.pop();
        }
        let num = |j: usize| fields.get(j).and_then(|f| parse_f64(f));
        let ok = |v: f64| v.is_finite() && v > 0.0;
        let name = || clip_name(&unescape(fields.first().map_or("", String::as_str)));
        // A prediction: `name:intensity:~flops`.
        if let Some(flops) = fields.get(2).and_then(|f| f.strip_prefix('~')) {
            match (num(1), parse_f64(flops)) {
                (Some(i), Some(f)) if ok(i) && ok(f) && fields.len() == 3 => {
                    kernels.push(Kernel {
                        dtype,
                        ..Kernel::prediction(name().into(), i, f)
                    });
                }
                _ => errors.push(RowError {
                    at,
                    message: "not of the form name:intensity:~FLOPs with positive numbers"
                        .to_string(),
                }),
            }
            continue;
        }
        let (intensity, rate) = (num(1), num(2));
        let time = match fields.get(3) {
            None => Ok(None),
            Some(_) => num(3).filter(|t| ok(*t)).map(Some).ok_or(()),
        };
        match (intensity, rate, time) {
            (Some(i), Some(r), Ok(time)) if ok(i) && ok(r) && fields.len() <= 4 => {
                kernels.push(Kernel {
                    name: name().into(),
                    intensity: i,
                    rate: r,
                    time,
                    predicted: None,
                    dtype,
                })
            }
            _ => errors.push(RowError {
                at,
                message: "not of the form name:intensity:FLOP/s[:time] with positive numbers"
                    .to_string(),
            }),
        }
    }
    (kernels, errors)
}
