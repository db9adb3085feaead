//! The calculator's operation: its notation parsed, the FLOPs-per-element
//! field, a size field per dimension, the data type and unit its math runs
//! at, and the dimensions the batch chart and the chips can take.

use super::{CalcInput, CalcView, Field};
use crate::hardware::Chip;
use crate::input::{parse_positive, parse_size};
use crate::op::{Operation, PerElement, Sizes, MAX_FLOPS_PER_ELEMENT};
use crate::report;
use crate::small::Join;
use crate::state::{default_batch_dim, default_size};
use crate::ComputeUnit;

/// The operation typed, with the FLOPs per element typed for one that
/// sums nothing; `None` with the notation's error. The flag is `false`
/// when the FLOPs per element do not read.
pub(super) fn parse(view: &mut CalcView, input: &CalcInput) -> (Option<Operation>, bool) {
    let mut op = match Operation::parse(&input.op_text) {
        Ok(op) => Some(op),
        Err(e) => {
            view.op_error = Some(e.to_string());
            None
        }
    };
    let mut per_element_ok = true;
    if let Some(op) = &op {
        let list: Vec<String> = op
            .sharded()
            .iter()
            .map(|(d, a)| format!("{d} over {a}"))
            .collect();
        if !list.is_empty() {
            view.sharded_note = Some(format!(
                "Sharded ({}): counted here whole, as on one chip. The Scale tab counts each chip's share and the collective it needs.",
                list.joined(", ")
            ));
        }
    }
    if let Some(op) = &mut op {
        if let Some(default) = op.default_flops_per_element() {
            let (text, error) = match &input.per_element {
                None => (report::size_text(default), None),
                Some(t) => match parse_per_element(t) {
                    Ok(v) => {
                        op.per_element = Some(PerElement(v));
                        (t.clone(), None)
                    }
                    Err(e) => {
                        per_element_ok = false;
                        (t.clone(), Some(e))
                    }
                },
            };
            view.per_element_field = Some(Field {
                id: "flops-per-element".to_string(),
                label: "FLOPs per element".to_string(),
                text,
                error,
                note: format!(
                    "The math each output element needs: {} by default ({}); more for an exp, a GELU or a softmax.",
                    report::size_text(default),
                    if op.inputs.len() > 1 {
                        "one add per extra input"
                    } else {
                        "one operation, as for a scale or a ReLU"
                    }
                ),
                source: None,
            });
        }
    }
    (op, per_element_ok)
}

/// A size field per dimension of `op`: the sizes that read (typed, or the
/// default) and whether all of them did.
pub(super) fn sizes(view: &mut CalcView, input: &CalcInput, op: &Operation) -> (Sizes, bool) {
    let mut sizes = Sizes::new();
    let mut sizes_ok = true;
    for dim in op.dims() {
        let label = format!("size of {dim}");
        let field = match input.size_edits.get(&dim) {
            Some(t) => match parse_size(&dim, t) {
                Ok((v, note)) => {
                    sizes.insert(dim.clone(), v);
                    (t.clone(), None, note.unwrap_or_default())
                }
                Err(e) => {
                    sizes_ok = false;
                    (t.clone(), Some(e.to_string()), String::new())
                }
            },
            None => {
                let v = default_size(&dim);
                sizes.insert(dim.clone(), v);
                (report::size_text(v), None, String::new())
            }
        };
        view.size_fields.push(Field {
            id: format!("size-{dim}"),
            label,
            text: field.0,
            error: field.1,
            note: field.2,
            source: None,
        });
    }
    (sizes, sizes_ok)
}

/// The data type and unit `op`'s math runs at on `chip`: the ones chosen,
/// else the operation's own; a note when the chip moves it to the matrix
/// unit, an error when the chip has no peak at the type.
pub(super) fn math(view: &mut CalcView, input: &CalcInput, op: &Operation, chip: Option<&Chip>) {
    let dtype = input.compute.unwrap_or_else(|| op.widest_input_dtype());
    view.compute = Some(dtype);
    let asked = input.unit.unwrap_or_else(|| op.natural_unit());
    let unit = chip.map_or(ComputeUnit::Matrix, |c| c.runs_on(asked));
    view.unit = Some(unit);
    if unit != asked {
        if let Some(c) = chip {
            view.unit_note = Some(format!(
                "{} lists no vector-unit peak (none is published), so this runs on the matrix unit",
                c.name
            ));
        }
    }
    // On the vector unit the data type does not choose the peak.
    if let (Some(c), ComputeUnit::Matrix) = (chip, unit) {
        if c.peak(dtype).is_err() {
            view.compute_error = Some(format!(
                "{} lists no {} peak; choose one of {}",
                c.name,
                dtype,
                c.dtypes()
                    .iter()
                    .map(|d| d.name())
                    .collect::<Vec<_>>()
                    .joined(", ")
            ));
        }
    }
}

/// The dimensions of `op` the batch chart can sweep and the chips can
/// split, with the ones chosen (else `D`, or the first).
pub(super) fn dims(view: &mut CalcView, input: &CalcInput, op: &Operation) {
    view.dim_options = op.dims();
    view.batch_dim = input
        .batch_dim
        .clone()
        .filter(|d| op.has_dim(d))
        .unwrap_or_else(|| default_batch_dim(op));
    view.shard_options = op.contracted_dims();
    view.shard = input
        .shard
        .clone()
        .filter(|d| view.shard_options.contains(d))
        .or_else(|| {
            if view.shard_options.iter().any(|d| d == "D") {
                Some("D".to_string())
            } else {
                view.shard_options.first().cloned()
            }
        });
}

/// FLOPs per element as typed: a number from 1 to
/// [`MAX_FLOPS_PER_ELEMENT`], or why not.
fn parse_per_element(text: &str) -> Result<f64, String> {
    let field = "FLOPs per element";
    match parse_positive(field, text) {
        Ok(v) if v <= MAX_FLOPS_PER_ELEMENT => Ok(v),
        Ok(_) => Err(format!(
            "{field}: at most {}",
            report::size_text(MAX_FLOPS_PER_ELEMENT)
        )),
        Err(e) => Err(e.to_string()),
    }
}
