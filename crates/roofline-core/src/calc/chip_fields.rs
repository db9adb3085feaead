//! The chip's fields: one per peak, the vector unit's and one per
//! bandwidth, each with the user's text applied to the preset and its own
//! error. A preset number's field names its [`crate::hardware::Source`];
//! the source's text is shown by the app's chip chunk.

use super::{CalcInput, Field};
use crate::hardware::{preset, Chip};
use crate::input::parse_positive;
use crate::{format, CoreError};

pub(super) fn apply_edits(input: &CalcInput, fields: &mut Vec<Field>) -> Result<Chip, CoreError> {
    let mut chip = preset(&input.chip).ok_or_else(|| {
        CoreError::Invalid(format!(
            "'{}' is not a preset chip",
            format::clip(&input.chip, 24)
        ))
    })?;
    let mut ok = true;
    // A peak or level the preset lacks, typed by the user (or from a link),
    // gets its own field: add it first, then read the text like the others.
    for d in input.peak_edits.keys() {
        if chip.peak_entry(*d).is_none() {
            chip.peaks.push(crate::hardware::Peak {
                dtype: *d,
                dense: f64::NAN,
                sparse: None,
                source: crate::hardware::Source::USER,
            });
        }
    }
    for k in input.bw_edits.keys() {
        if chip.level(*k).is_err() {
            chip.levels.push(crate::hardware::MemLevel {
                kind: *k,
                bandwidth: f64::NAN,
                capacity: None,
                source: crate::hardware::Source::USER,
            });
        }
    }
    for p in chip.peaks.clone() {
        let id = format!("peak-{}", p.dtype);
        let label = format!("{} peak (FLOP/s)", p.dtype);
        let (text, error, note, source) = match input.peak_edits.get(&p.dtype) {
            Some(t) => match parse_positive(&label, t) {
                Ok(v) => {
                    if chip.set_peak(p.dtype, v).is_err() {
                        ok = false;
                    }
                    (t.clone(), None, crate::hardware::USER.to_string(), None)
                }
                Err(e) => {
                    ok = false;
                    (
                        t.clone(),
                        Some(e.to_string()),
                        String::new(),
                        Some(p.source),
                    )
                }
            },
            None => {
                let note = match p.sparse {
                    Some(s) => format!("dense; {} with sparsity.", format::sci(s)),
                    None => String::new(),
                };
                (format::sci(p.dense), None, note, Some(p.source))
            }
        };
        fields.push(Field {
            id,
            label,
            text,
            error,
            note,
            source,
        });
    }
    // The vector unit's peak: always a field, empty where the preset
    // publishes none, so a figure can be typed in.
    let label = "vector unit peak (FLOP/s)";
    let (text, error, note, source) = match input
        .vector_edit
        .as_deref()
        .filter(|t| !t.trim().is_empty())
    {
        Some(t) => match parse_positive(label, t) {
            Ok(v) => {
                if chip.set_vector(v).is_err() {
                    ok = false;
                }
                (t.to_string(), None, crate::hardware::USER.to_string(), None)
            }
            Err(e) => {
                ok = false;
                let source = chip.vector.as_ref().map(|v| v.source);
                (t.to_string(), Some(e.to_string()), String::new(), source)
            }
        },
        None => match &chip.vector {
            Some(v) => (format::sci(v.dense), None, String::new(), Some(v.source)),
            None => (
                String::new(),
                None,
                format!(
                    "{} publishes no vector-unit figure: type one to time elementwise work on it",
                    chip.name
                ),
                None,
            ),
        },
    };
    fields.push(Field {
        id: "peak-vector".to_string(),
        label: label.to_string(),
        text,
        error,
        note,
        source,
    });
    for l in chip.levels.clone() {
        let id = format!("bw-{}", l.kind.key());
        let label = format!("{} bandwidth (B/s)", chip.level_name(l.kind));
        let (text, error, note, source) = match input.bw_edits.get(&l.kind) {
            Some(t) => match parse_positive(&label, t) {
                Ok(v) => {
                    if chip.set_bandwidth(l.kind, v).is_err() {
                        ok = false;
                    }
                    (t.clone(), None, crate::hardware::USER.to_string(), None)
                }
                Err(e) => {
                    ok = false;
                    (
                        t.clone(),
                        Some(e.to_string()),
                        String::new(),
                        Some(l.source),
                    )
                }
            },
            None => (
                format::sci(l.bandwidth),
                None,
                String::new(),
                Some(l.source),
            ),
        };
        fields.push(Field {
            id,
            label,
            text,
            error,
            note,
            source,
        });
    }
    if ok {
        Ok(chip)
    } else {
        Err(CoreError::Invalid("a chip field is invalid".to_string()))
    }
}
