//! Rows: a row's cells read by the plan and made into a kernel (FLOPs,
//! bytes, FLOP/s and intensity derived as the module documentation of
//! [`super`] says), with one message for what is wrong with it.

use super::cells::{in_limits, sizes_of, value, Cell};
use super::plan::{Col, Plan};
use super::{count, input_error, unsafe_text, Reading, MAX_ROWS, NAME_CHARS};
use crate::dtype::DType;
use crate::format;
use crate::op::Operation;
use crate::points::units::Kind;
use crate::points::{Kernel, RowError};
use crate::small::Join;

/// What a row reads into, before the kernel is derived.
struct Row<'a> {
    name: Option<String>,
    flops: Option<f64>,
    bytes: Option<f64>,
    time: Option<f64>,
    rate: Option<f64>,
    intensity: Option<f64>,
    op: Option<&'a str>,
    sizes: Cell<'a>,
    dtype: Option<DType>,
}

/// The state kept across rows.
pub(super) struct Reader {
    pub(super) plan: Plan,
    /// The last operation read, by its text (rows often repeat one).
    pub(super) last_op: Option<(String, Result<Operation, String>)>,
}

impl Reader {
    /// Reads one row (`cell(i)` gives column `i`), the `n`-th data row.
    pub(super) fn row<'c>(
        &mut self,
        cell: impl Fn(usize) -> Cell<'c>,
        n: usize,
    ) -> Result<Kernel, String> {
        let get = |c: &Option<Col>| c.as_ref().map_or(Cell::Empty, |c| cell(c.index));
        let name_cell = get(&self.plan.name);
        let op_cell = get(&self.plan.op);
        let sizes_cell = get(&self.plan.sizes);
        let dtype_cell = get(&self.plan.dtype);
        let (fc, bc, tc, rc, ic) = (
            get(&self.plan.flops),
            get(&self.plan.bytes),
            get(&self.plan.time),
            get(&self.plan.rate),
            get(&self.plan.intensity),
        );
        let mut problems: Vec<String> = Vec::new();
        let mut read = |c: Cell<'_>, col: &mut Option<Col>, kind: Kind| match col {
            Some(col) => value(c, col, kind).unwrap_or_else(|e| {
                problems.push(e);
                None
            }),
            None => None,
        };
        let flops = read(fc, &mut self.plan.flops, Kind::Flops);
        let bytes = read(bc, &mut self.plan.bytes, Kind::Bytes);
        let time = read(tc, &mut self.plan.time, Kind::Time);
        let rate = read(rc, &mut self.plan.rate, Kind::Rate);
        let intensity = read(ic, &mut self.plan.intensity, Kind::Intensity);
        let name = match name_cell {
            Cell::Text(s) => Some(format::clip(s.trim(), NAME_CHARS)),
            Cell::Num(x) => Some(format::plain_number(x)),
            _ => None,
        };
        let op = match op_cell {
            Cell::Text(s) => Some(s.trim()),
            Cell::Empty => None,
            _ => {
                problems.push(format!(
                    "{} should be an operation in the book's notation",
                    self.plan.op.as_ref().map_or("op", |c| c.label.as_str())
                ));
                None
            }
        };
        let dtype = match dtype_cell {
            Cell::Text(s) if !s.trim().is_empty() => match s.parse::<DType>() {
                Ok(d) => Some(d),
                Err(e) => {
                    let label = self
                        .plan
                        .dtype
                        .as_ref()
                        .map_or("dtype", |c| c.label.as_str());
                    let m = e.to_string();
                    problems.push(if unsafe_text(&m) {
                        format!("{label} is not a data type (try fp32, bf16, fp16, fp8, int8, fp4 or int4)")
                    } else {
                        format!("{label}: {m}")
                    });
                    None
                }
            },
            Cell::Empty | Cell::Text(_) => None,
            _ => {
                problems.push(format!(
                    "{} should be a data type (bf16, fp8, …)",
                    self.plan
                        .dtype
                        .as_ref()
                        .map_or("dtype", |c| c.label.as_str())
                ));
                None
            }
        };
        if !problems.is_empty() {
            return Err(problems.joined("; "));
        }
        let row = Row {
            name,
            flops,
            bytes,
            time,
            rate,
            intensity,
            op,
            sizes: sizes_cell,
            dtype,
        };
        self.derive(row, n)
    }

    /// The operation of `text`, parsed once for a run of rows.
    fn operation(&mut self, text: &str) -> Result<Operation, String> {
        if let Some((t, r)) = &self.last_op {
            if t == text {
                return r.clone();
            }
        }
        let r = Operation::parse(text).map_err(|e| {
            let m = e.to_string();
            if unsafe_text(&m) {
                "the operation could not be read".to_string()
            } else {
                format!("the operation could not be read: {m}")
            }
        });
        self.last_op = Some((text.to_string(), r.clone()));
        r
    }

    /// The kernel of a row (see the module documentation).
    fn derive(&mut self, row: Row<'_>, n: usize) -> Result<Kernel, String> {
        let t = row.time;
        let mut f = row.flops.or(match (row.rate, t) {
            (Some(r), Some(t)) => Some(r * t),
            _ => None,
        });
        let mut b = row.bytes;
        let need_op = f.is_none() || (b.is_none() && row.intensity.is_none());
        let op = match row.op {
            Some(text) => Some(self.operation(text)?),
            None => None,
        };
        let sizes_label = self
            .plan
            .sizes
            .as_ref()
            .map_or("sizes", |c| c.label.as_str());
        let sizes = sizes_of(row.sizes, sizes_label)?;
        if let (Some(op), true) = (&op, need_op) {
            let counts = op.counts(&sizes).map_err(|e| {
                let m = e.to_string();
                if unsafe_text(&m) {
                    "the operation's sizes are incomplete (write B=8 D=4096)".to_string()
                } else {
                    format!("operation: {m} (give it in the sizes, e.g. B=8 D=4096)")
                }
            })?;
            if f.is_none() {
                f = Some(in_limits(
                    Kind::Flops,
                    counts.flops,
                    "FLOPs of the operation",
                )?);
            }
            if b.is_none() {
                b = Some(in_limits(
                    Kind::Bytes,
                    counts.bytes(),
                    "bytes of the operation",
                )?);
            }
        }
        if b.is_none() {
            if let (Some(f), Some(i)) = (f, row.intensity) {
                b = Some(f / i);
            }
        }
        let rate = match (row.rate, f, t) {
            (Some(r), _, _) => Some(r),
            (None, Some(f), Some(t)) => {
                Some(in_limits(Kind::Rate, f / t, "FLOP/s (FLOPs ÷ time)")?)
            }
            _ => None,
        };
        let intensity = match (row.intensity, f, b) {
            (Some(i), _, _) => Some(i),
            (None, Some(f), Some(b)) => Some(in_limits(
                Kind::Intensity,
                f / b,
                "the intensity (FLOPs ÷ bytes)",
            )?),
            _ => None,
        };
        let mut lacks = Vec::new();
        if rate.is_none() {
            lacks.push(if t.is_none() {
                "a time (or FLOP/s) to place it"
            } else {
                "FLOPs (or FLOP/s, or an operation with sizes) with its time"
            });
        }
        if intensity.is_none() {
            lacks.push(if f.is_none() {
                "FLOPs with bytes, an intensity, or an operation with sizes"
            } else {
                "bytes, an intensity, or an operation with sizes"
            });
        }
        let name = row
            .name
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| format!("row {n}"));
        // FLOPs and an intensity but no time: a prediction, at the roof,
        // where the table has no time column and no FLOP/s column, or has
        // both and both are empty on this row (a prediction as the app's
        // own export writes it). A blank time in a table of times is a
        // mistake, said as one.
        let predicts = (self.plan.time.is_none() && self.plan.rate.is_none())
            || (self.plan.time.is_some() && self.plan.rate.is_some());
        if let (true, None, None, Some(f), Some(i)) = (predicts, rate, t, f, intensity) {
            return Ok(Kernel {
                dtype: row.dtype,
                ..Kernel::prediction(name.into(), i, f)
            });
        }
        let (Some(rate), Some(intensity)) = (rate, intensity) else {
            return Err(format!("needs {}", lacks.joined("; it also needs ")));
        };
        let time = t
            .or_else(|| f.map(|f| f / rate))
            .filter(|t| t.is_finite() && *t > 0.0);
        Ok(Kernel {
            name: name.into(),
            intensity,
            rate,
            time,
            predicted: None,
            dtype: row.dtype,
        })
    }
}

/// The reader of the rows once the columns are known, or `None` (with one
/// error of the input) when no row could be placed with these columns.
pub(super) fn finish(reading: &mut Reading, plan: Plan) -> Option<Reader> {
    if let Some(m) = plan.missing() {
        reading.errors.push(input_error(m));
        return None;
    }
    Some(Reader {
        plan,
        last_op: None,
    })
}

pub(super) fn left_out(extra: usize) -> RowError {
    input_error(format!(
        "Only the first {} rows were read; {} more were left out. Split the input to read them.",
        count(MAX_ROWS),
        count(extra)
    ))
}
