//! The chip's numbers as typed: [`apply_edits`] applies them to the preset
//! (the calculator needs only that); [`chip_fields`] words a field per
//! peak, the vector unit's and one per bandwidth, each with its text, note
//! and error, for the chip's numbers (the app's chip chunk, which also
//! shows each preset number's [`crate::hardware::Source`]).

use super::{CalcInput, Field};
use crate::hardware::{preset, Chip};
use crate::input::parse_positive;
use crate::{format, CoreError};

/// The preset with the user's numbers applied, or why not (an unknown
/// chip, or a number that does not read: [`chip_fields`] says which). Only
/// numbers: the calculator's every evaluation runs it, and the fields'
/// words are built only where they are shown.
pub(super) fn apply_edits(input: &CalcInput) -> Result<Chip, CoreError> {
    let mut chip = preset(&input.chip).ok_or_else(|| {
        CoreError::Invalid(format!(
            "'{}' is not a preset chip",
            format::clip(&input.chip, 24)
        ))
    })?;
    let read = |t: &str| parse_positive("", t).ok();
    let mut ok = true;
    for (d, t) in input.peak_edits.iter() {
        ok &= read(t).is_some_and(|v| chip.set_peak(*d, v).is_ok());
    }
    if let Some(t) = input
        .vector_edit
        .as_deref()
        .filter(|t| !t.trim().is_empty())
    {
        ok &= read(t).is_some_and(|v| chip.set_vector(v).is_ok());
    }
    for (k, t) in input.bw_edits.iter() {
        ok &= read(t).is_some_and(|v| chip.set_bandwidth(*k, v).is_ok());
    }
    if ok {
        Ok(chip)
    } else {
        Err(CoreError::Invalid("a chip field is invalid".to_string()))
    }
}

/// A field per number of the chip, each with its text, note and error.
pub fn chip_fields(input: &CalcInput) -> Vec<Field> {
    let mut fields = Vec::new();
    let _ = chip_and_fields(input, &mut fields);
    fields
}

/// The chip with the user's numbers, walking every field and wording it.
fn chip_and_fields(input: &CalcInput, fields: &mut Vec<Field>) -> Result<Chip, CoreError> {
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
            id: format!("peak-{}", p.dtype),
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
            id: format!("bw-{}", l.kind.key()),
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
