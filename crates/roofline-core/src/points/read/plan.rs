//! The plan: which column gives which field, and what no row can have
//! with these columns.

use super::{quote, Column};
use crate::points::units::Unit;
use crate::points::Field;
use crate::small::Join;

/// A column used for a field.
#[derive(Debug, Clone)]
pub(super) struct Col {
    pub(super) index: usize,
    /// How messages name it: its header, or the field's label.
    pub(super) label: String,
    /// The header's unit (cells without a unit are read in it).
    pub(super) unit: Option<Unit>,
    /// The units its cells were read in, for the note on mixed units.
    pub(super) seen: Vec<&'static str>,
    /// The last unit text read in a cell, and its unit (a column's cells
    /// mostly repeat one).
    pub(super) cache: (String, Option<Unit>),
    /// Whether its numbers may have thousands separators (an export that
    /// writes them, read as a plain table).
    pub(super) thousands: bool,
}

#[derive(Debug, Default)]
pub(super) struct Plan {
    pub(super) name: Option<Col>,
    pub(super) flops: Option<Col>,
    pub(super) bytes: Option<Col>,
    pub(super) time: Option<Col>,
    pub(super) rate: Option<Col>,
    pub(super) intensity: Option<Col>,
    pub(super) op: Option<Col>,
    pub(super) sizes: Option<Col>,
    pub(super) dtype: Option<Col>,
}

impl Plan {
    pub(super) fn new(columns: &[Column], header_units: &[Option<Unit>]) -> Plan {
        let mut plan = Plan::default();
        for (index, c) in columns.iter().enumerate() {
            let label = quote(&c.header)
                .filter(|h| !h.is_empty())
                .unwrap_or_else(|| c.field.label().to_string());
            let col = Col {
                index,
                label,
                unit: header_units.get(index).copied().flatten(),
                seen: Vec::new(),
                cache: (String::new(), None),
                thousands: false,
            };
            let slot = match c.field {
                Field::Ignore => continue,
                Field::Name => &mut plan.name,
                Field::Flops => &mut plan.flops,
                Field::Bytes => &mut plan.bytes,
                Field::Time => &mut plan.time,
                Field::Rate => &mut plan.rate,
                Field::Intensity => &mut plan.intensity,
                Field::Op => &mut plan.op,
                Field::Sizes => &mut plan.sizes,
                Field::Dtype => &mut plan.dtype,
            };
            if slot.is_none() {
                *slot = Some(col);
            }
        }
        plan
    }

    /// Lets every column's numbers have thousands separators.
    pub(super) fn allow_thousands(&mut self) {
        let cols = [
            &mut self.flops,
            &mut self.bytes,
            &mut self.time,
            &mut self.rate,
            &mut self.intensity,
        ];
        for c in cols.into_iter().flatten() {
            c.thousands = true;
        }
    }

    /// What no row can have, given the columns: `None` when every need can
    /// be met by some row.
    pub(super) fn missing(&self) -> Option<String> {
        let flops = self.flops.is_some()
            || self.op.is_some()
            || (self.rate.is_some() && self.time.is_some());
        let bytes = self.bytes.is_some() || self.op.is_some();
        let intensity = self.intensity.is_some() || (flops && bytes);
        // FLOPs and an intensity with no time column make predictions.
        let rate = self.rate.is_some() || (flops && (self.time.is_some() || intensity));
        let mut lacks = Vec::new();
        if !rate {
            lacks.push(if self.time.is_none() {
                "time or FLOP/s"
            } else {
                "FLOPs, FLOP/s or an operation with sizes"
            });
        }
        if !intensity {
            lacks.push(if flops {
                "bytes, an intensity or an operation with sizes"
            } else {
                "FLOPs (or an operation with sizes) with bytes, or an intensity"
            });
        }
        if lacks.is_empty() {
            return None;
        }
        Some(format!(
            "No column gives {}. Each kernel needs its FLOP/s (or FLOPs and a time) and its intensity (or FLOPs and bytes): name the columns (e.g. name, flops, bytes, time_ms) or choose what each holds in the mapping.",
            lacks.joined("; nor ")
        ))
    }

    /// Notes on columns whose cells mixed units.
    pub(super) fn mixed_notes(&self, notes: &mut Vec<String>) {
        if self.time.is_none() && self.rate.is_none() {
            notes.push(
                "No column gives a time: each kernel is a prediction, placed at the roof (a square on the chart). Type a time in the table to place one where it ran, or map a column to time.".to_string(),
            );
        }
        let cols = [
            (&self.flops, Field::Flops),
            (&self.bytes, Field::Bytes),
            (&self.time, Field::Time),
            (&self.rate, Field::Rate),
            (&self.intensity, Field::Intensity),
        ];
        for (col, field) in cols {
            if let Some(c) = col {
                if c.seen.len() > 1 {
                    let list = match c.seen.split_last() {
                        Some((last, first)) => format!("{} and {last}", first.joined(", ")),
                        None => String::new(),
                    };
                    notes.push(format!(
                        "the {} column mixes {list}; each cell is read in its own unit",
                        field.label()
                    ));
                }
            }
        }
    }
}
