//! Nsight Compute's CSV exports (`ncu --csv`): the default page (the long
//! form, one row per kernel and metric) and `--page raw` (one row per
//! kernel, a metric per column, then a units row).
//!
//! The table starts at the line that starts `"ID",`; lines around it that
//! are not quoted (`==PROF==`, the application's output) are skipped.
//! Columns are found by name. For each kernel (one `ID`):
//!
//! * time: `gpu__time_duration.sum`, else the `Duration` of the
//!   `GPU Speed Of Light Throughput` section;
//! * bytes: `dram__bytes.sum`, else `dram__bytes_read.sum` +
//!   `dram__bytes_write.sum`;
//! * FLOPs: as Nsight Compute's roofline counts them, per precision (fp64,
//!   fp32, fp16) `add + mul + 2 × fma` thread instructions
//!   (`smsp__sass_thread_inst_executed_op_{d,f,h}{add,mul,fma}_pred_on.sum`),
//!   plus the tensor cores' operations (`sm__ops_path_tensor_src_*.sum`,
//!   integer sources left out) when the export has them: a total and its
//!   breakdown (`src_fp16` and `src_fp16_dst_fp32`, `src_fp8` and
//!   `src_fp8_sparsity_off`) are counted once, as the total.
//!
//! The tensor metrics' names are those of Nsight Compute's own roofline
//! section, `SpeedOfLight_HierarchicalTensorRooflineChart.section` (its
//! `AchievedWork` per chip: `src_bf16_dst_fp32`, `src_fp16`,
//! `src_fp8_sparsity_off` on Hopper, `src_*_sparsity_{off,on}` on Ampere
//! and Ada, `src_fp4_fp6_fp8_dst_fp32` on Blackwell); they differ by chip,
//! so the advice asks for them with one `regex:`.

use std::collections::HashMap;

use super::measured::{Measured, Parsed};
use super::{quote, Format, NAME_CHARS};
use crate::dtype::DType;
use crate::format;
use crate::points::{At, RowError};

/// The kernel's duration.
const TIME: &str = "gpu__time_duration.sum";
/// Where the long form's `Duration` label is (when no raw time metric is).
const SOL: &str = "GPU Speed Of Light Throughput";
/// The key the `Duration` of [`SOL`] is kept under.
const SOL_TIME: &str = "GPU Speed Of Light Throughput: Duration";
/// Bytes moved to and from DRAM (HBM).
const BYTES: &str = "dram__bytes.sum";
/// Bytes read from DRAM, when [`BYTES`] is absent.
const BYTES_READ: &str = "dram__bytes_read.sum";
/// Bytes written to DRAM, when [`BYTES`] is absent.
const BYTES_WRITE: &str = "dram__bytes_write.sum";
/// The SASS instruction counts' names, after `smsp__` (or `sm__`).
const SASS: &str = "sass_thread_inst_executed_op_";
/// The start of the tensor cores' per-source operation counts.
const TENSOR: &str = "sm__ops_path_tensor_src_";
/// The metrics to ask for, in messages: the time, the bytes, the fp32
/// instruction counts and, by a `regex:` (the names differ by chip), every
/// tensor-core operation count, without which a matmul's FLOPs are a few
/// bookkeeping FMAs (a GEMM read at 0.26 FLOPs/byte).
pub(in crate::points::read) const ADVICE: &str = "profile with ncu --csv --page raw --metrics \
'gpu__time_duration.sum,dram__bytes.sum,\
smsp__sass_thread_inst_executed_op_fadd_pred_on.sum,\
smsp__sass_thread_inst_executed_op_fmul_pred_on.sum,\
smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,\
regex:^sm__ops_path_tensor_src_.*\\.sum$' (the last is the tensor cores' work, a matmul's FLOPs; \
add the dadd/dmul/dfma, hadd/hmul/hfma counts for fp64, fp16)";
/// The precisions counted: the letter in the metric names, a name, and the
/// FLOPs of one add, mul and fma instruction, as Nsight Compute's roofline
/// sections weigh them: an FMA is two operations, and the half-precision
/// counters count a packed pair (HADD2, HMUL2, HFMA2) as one instruction,
/// so each counts twice again (its `_x2` and `_x4` derived metrics).
const PRECISIONS: [(&str, &str, [f64; 3]); 3] = [
    ("d", "fp64", [1.0, 1.0, 2.0]),
    ("f", "fp32", [1.0, 1.0, 2.0]),
    ("h", "fp16", [2.0, 2.0, 4.0]),
];
/// The instruction counts read, by precision (as [`PRECISIONS`]) and
/// instruction (add, mul, fma, as its weights).
const SASS_NAMES: [[&str; 3]; 3] = [
    [
        "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum",
        "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum",
        "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum",
    ],
    [
        "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
        "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
        "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
    ],
    [
        "smsp__sass_thread_inst_executed_op_hadd_pred_on.sum",
        "smsp__sass_thread_inst_executed_op_hmul_pred_on.sum",
        "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum",
    ],
];

/// What a metric's value measures, which decides the units it may have.
#[derive(Clone, Copy)]
enum Kind {
    /// A duration, read in seconds.
    Time,
    /// Bytes.
    Bytes,
    /// A count (instructions, operations).
    Count,
}

/// Whether metric `name` is one the reading uses (a default page has
/// dozens per kernel; the others are not kept).
fn wanted(name: &str) -> bool {
    let sass = name
        .strip_prefix("smsp__")
        .or_else(|| name.strip_prefix("sm__"))
        .is_some_and(|r| r.starts_with(SASS) && r.ends_with("_pred_on.sum"));
    sass || name.starts_with(TENSOR)
        || [TIME, SOL_TIME, BYTES, BYTES_READ, BYTES_WRITE].contains(&name)
}

/// One metric of a kernel as the export gives it.
struct Metric {
    /// Its unit, as written (`Kbyte`, `nsecond`, `inst`, empty).
    unit: String,
    /// Its value, as written (`1,024.35`, `n/a`).
    value: String,
    /// Whether it is an `sm__` count standing in for its `smsp__` twin.
    fallback: bool,
}

/// One kernel (one `ID`) as gathered from its rows.
struct Launch {
    /// Its `ID`.
    id: String,
    /// Its `Kernel Name`.
    name: String,
    /// That name as the app shows it (clipped).
    shown: String,
    /// The line of its first row, 1-based.
    line: usize,
    /// The metrics read ([`wanted`]), by name.
    metrics: Vec<(String, Metric)>,
}

/// Reads `text` when it is an Nsight Compute CSV export; `None` when it is
/// not. The whole text at once: [`start`] and [`Rest::step`] read it a
/// slice at a time, as the app does.
#[cfg(test)]
pub(super) fn read(text: &str) -> Option<Parsed> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut rest = start(text)?;
    let mut parsed = Parsed {
        format: rest.format,
        kernels: Vec::new(),
        errors: Vec::new(),
        notes: Vec::new(),
    };
    while !rest.step(text, usize::MAX, &mut parsed) {}
    Some(parsed)
}

/// An Nsight Compute export being read: its lines gathered into launches
/// (a slice of lines at a time), then each launch measured (a slice of
/// launches at a time).
pub(super) struct Rest {
    /// The page recognised.
    pub format: Format,
    /// The byte offset of the next line to gather.
    at: usize,
    /// That line's number, 1-based.
    line: usize,
    /// The header's fields.
    header: Vec<String>,
    /// The `ID` column.
    id: usize,
    /// The `Kernel Name` column.
    name: usize,
    /// The `Section Name` column, when there is one.
    section: Option<usize>,
    /// The long form's `Metric Name`, `Metric Unit` and `Metric Value`
    /// columns; `None` on the raw page.
    long: Option<[usize; 3]>,
    /// Each launch's index in [`Rest::launches`], by its `ID`.
    by_id: HashMap<String, usize>,
    /// The launches, in the order of their first line.
    launches: Vec<Launch>,
    /// The raw page's units row.
    units: Option<Vec<String>>,
    /// Whether a line was refused (so an export with no kernels says why).
    refused: bool,
    /// How many launches have each name as the app shows it (clipped),
    /// so that a shared one gets its ID.
    shared: HashMap<String, usize>,
    /// Whether every line is gathered.
    gathered: bool,
    /// The next launch to measure.
    next: usize,
    /// The launch the last line went to.
    last: Option<usize>,
    /// Whether a kernel was given its tensor work's data type (and the
    /// note saying so made).
    typed: bool,
    /// The ways of counting FLOPs noted so far, a bit for each
    /// [`Counted`].
    noted: u16,
    /// The raw page's columns of metrics read ([`wanted`]).
    metric_columns: Vec<usize>,
    /// The fields of the line being read (kept to reuse its room).
    fields: Vec<(usize, usize)>,
    /// The field separator: `,`, or `;` where the locale's decimal mark is
    /// a comma and the export was written so.
    sep: u8,
    /// Whether a value read only with a decimal comma (`0,257`), and one
    /// read only with a decimal point (`1,024.35`), were seen: the
    /// export's way of writing decimals ([`Rest::decimal`]).
    seen: [bool; 2],
}

/// Where the table of an Nsight Compute export starts in `text` (the byte
/// offset of its `"ID",` line); 0 when it has none.
pub(super) fn table_start(text: &str) -> usize {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if header_sep(line.trim_start()).is_some() {
            return at;
        }
        at += line.len();
    }
    0
}

/// The separator of Nsight Compute's header line `line` (`"ID",` or
/// `"ID";`); `None` when it is not one.
fn header_sep(line: &str) -> Option<u8> {
    let rest = line.strip_prefix("\"ID\"")?;
    match rest.bytes().next() {
        Some(b',') => Some(b','),
        Some(b';') => Some(b';'),
        _ => None,
    }
}

/// Starts reading `text` when it is an Nsight Compute CSV export (a header
/// line starting `"ID",` (or `"ID";`) with a `Kernel Name` column, and either
/// `Metric Name`/`Metric Value` columns or metric columns); `None` when it
/// is not.
pub(super) fn start(text: &str) -> Option<Rest> {
    let (mut at, mut line) = (0, 0);
    let (header, sep) = loop {
        let rest = text.get(at..).filter(|r| !r.is_empty())?;
        let end = rest.find('\n').map_or(rest.len(), |i| i + 1);
        at += end;
        line += 1;
        let l = rest[..end].trim();
        if let Some(sep) = header_sep(l) {
            break (split(l, sep)?, sep);
        }
    };
    let col = |name: &str| header.iter().position(|h| h == name);
    let (id, name) = (col("ID")?, col("Kernel Name")?);
    let long = match (col("Metric Name"), col("Metric Unit"), col("Metric Value")) {
        (Some(m), Some(u), Some(v)) => Some([m, u, v]),
        _ => None,
    };
    if long.is_none() && !header.iter().any(|h| h.contains("__")) {
        return None;
    }
    Some(Rest {
        format: if long.is_some() {
            Format::NcuLong
        } else {
            Format::NcuRaw
        },
        at,
        line: line + 1,
        section: col("Section Name"),
        id,
        name,
        long,
        by_id: HashMap::new(),
        launches: Vec::new(),
        units: None,
        refused: false,
        shared: HashMap::new(),
        gathered: false,
        next: 0,
        last: None,
        typed: false,
        noted: 0,
        fields: Vec::new(),
        sep,
        seen: [false; 2],
        metric_columns: (0..header.len())
            .filter(|&j| header.get(j).is_some_and(|h| wanted(h)))
            .collect(),
        header,
    })
}

impl Rest {
    /// Reads up to `steps` more lines (or, once every line is gathered,
    /// launches) of `text`, which must be the text given to [`start`]:
    /// kernels measured, and the errors and notes, go into `out`. Returns
    /// whether the export is read to its end.
    pub(super) fn step(&mut self, text: &str, steps: usize, out: &mut Parsed) -> bool {
        let mut n = 0;
        while !self.gathered {
            if n >= steps {
                return false;
            }
            n += 1;
            let Some(rest) = text.get(self.at..).filter(|r| !r.is_empty()) else {
                self.gathered(out);
                break;
            };
            let end = rest.find('\n').map_or(rest.len(), |i| i + 1);
            let line = rest[..end].trim();
            let number = self.line;
            self.at += end;
            self.line += 1;
            if let Err(message) = self.gather(line, number) {
                self.refused = true;
                out.errors.push(RowError {
                    at: At::Line(number),
                    message: message.to_string(),
                });
            }
        }
        let decimal = self.decimal();
        while let Some(l) = self.launches.get_mut(self.next) {
            if n >= steps {
                return false;
            }
            n += 1;
            let name = name(l, &self.shared);
            self.next += 1;
            let at = At::Line(l.line);
            match measure(l, decimal) {
                Ok((flops, bytes, time, counted, dtype)) => {
                    // A note for each way of counting, made once.
                    if self.noted & (1 << counted) == 0 {
                        self.noted |= 1 << counted;
                        out.notes.push(note(counted));
                    }
                    out.kernels.push(Measured {
                        name,
                        flops,
                        bytes,
                        time: Some(time),
                        at,
                        dtype,
                    });
                    if dtype.is_some() && !self.typed {
                        self.typed = true;
                        out.notes.push(TYPED.to_string());
                    }
                }
                Err(message) => out.errors.push(RowError {
                    at,
                    message: format!("{}{message}", shown(&name)),
                }),
            }
            // Measured: its metrics are not needed again.
            l.metrics = Vec::new();
        }
        true
    }

    /// Every line gathered: an export with no kernels says so, and the
    /// launches are named.
    fn gathered(&mut self, out: &mut Parsed) {
        if self.launches.is_empty() && !self.refused {
            out.errors.push(RowError {
                at: At::Input,
                message: "The Nsight Compute table has no kernels.".into(),
            });
        }
        self.gathered = true;
    }

    /// How the export writes decimals: with a comma when a value reads
    /// only so (`0,257`, `1.024,35`) and none only with a point.
    fn decimal(&self) -> values::Decimal {
        match self.seen {
            [true, false] => values::Decimal::Comma,
            _ => values::Decimal::Point,
        }
    }

    /// Takes line `n` (trimmed) into its launch; an error says why it is
    /// left out. Lines that are not quoted (the program's output) and
    /// repeated headers are skipped.
    fn gather(&mut self, line: &str, n: usize) -> Result<(), &'static str> {
        if !line.starts_with('"') {
            return Ok(());
        }
        let mut fields = std::mem::take(&mut self.fields);
        let r = self.gather_fields(line, n, &mut fields);
        self.fields = fields;
        r
    }

    /// [`Rest::gather`], with room for the line's fields.
    fn gather_fields(
        &mut self,
        line: &str,
        n: usize,
        fields: &mut Vec<(usize, usize)>,
    ) -> Result<(), &'static str> {
        if !ranges(line, self.sep, fields) {
            return Err("this line is cut off (a quote is not closed); it is left out");
        }
        let sep = self.sep;
        let field = |i: usize| fields.get(i).map(|&(a, b)| cell(line, a, b, sep));
        let (Some(kid), Some(kname)) = (field(self.id), field(self.name)) else {
            return Err("this line ends before the Kernel Name column; it is left out");
        };
        if kid == "ID" {
            return Ok(());
        }
        if let Some([m, u, v]) = self.long {
            let (Some(metric), Some(unit), Some(value)) = (field(m), field(u), field(v)) else {
                return Err("this line ends before the Metric Value column; it is left out");
            };
            let duration =
                metric == "Duration" && self.section.and_then(field).is_some_and(|s| s == SOL);
            let key = if duration { SOL_TIME } else { &metric };
            if wanted(key) {
                see(&mut self.seen, &value);
                let i = self.launch(&kid, &kname, n);
                self.launches[i].insert(key, &unit, &value);
            }
        } else if kid.is_empty() {
            let units = fields
                .iter()
                .map(|&(a, b)| cell(line, a, b, sep).into_owned());
            self.units = Some(units.collect());
        } else if fields.len() < self.header.len() {
            return Err(
                "this line has fewer fields than the header (it looks cut off); it is left out",
            );
        } else {
            let i = self.launch(&kid, &kname, n);
            let mut seen = self.seen;
            for &j in &self.metric_columns {
                let (Some(h), Some(&(a, b))) = (self.header.get(j), fields.get(j)) else {
                    continue;
                };
                let unit = self.units.as_ref().and_then(|u| u.get(j));
                let unit = unit.map_or("", String::as_str);
                let value = cell(line, a, b, sep);
                see(&mut seen, &value);
                self.launches[i].insert(h, unit, &value);
            }
            self.seen = seen;
        }
        Ok(())
    }

    /// The index of the launch with ID `id`, added (named `name`, first
    /// seen at `line`) when it is new.
    fn launch(&mut self, id: &str, name: &str, line: usize) -> usize {
        // A kernel's lines come together: most lines are the last one's.
        if let Some(i) = self
            .last
            .filter(|&i| self.launches.get(i).is_some_and(|l| l.id == id))
        {
            return i;
        }
        if let Some(&i) = self.by_id.get(id) {
            self.last = Some(i);
            return i;
        }
        let i = self.launches.len();
        self.by_id.insert(id.to_string(), i);
        let shown = format::clip(name, NAME_CHARS);
        *self.shared.entry(shown.clone()).or_default() += 1;
        self.launches.push(Launch {
            id: id.to_string(),
            name: name.to_string(),
            shown,
            line,
            metrics: Vec::new(),
        });
        self.last = Some(i);
        i
    }
}

impl Launch {
    /// Metric `name` (`unit`, `value`) kept, in place of one read before;
    /// an `sm__` SASS count is kept as its `smsp__` twin, which it never
    /// replaces (the `smsp__` one is read first where both are).
    fn insert(&mut self, name: &str, unit: &str, value: &str) {
        let sm = name.strip_prefix("sm__").filter(|r| r.starts_with(SASS));
        let key = sm.map_or_else(|| name.to_string(), |r| format!("smsp__{r}"));
        let metric = Metric {
            unit: unit.to_string(),
            value: value.to_string(),
            fallback: sm.is_some(),
        };
        match self.metrics.iter_mut().find(|(k, _)| *k == key) {
            Some((_, m)) if !metric.fallback || m.fallback => *m = metric,
            Some(_) => {}
            None => self.metrics.push((key, metric)),
        }
    }

    /// Metric `name`, when the export has it.
    fn metric(&self, name: &str) -> Option<&Metric> {
        self.metrics.iter().find(|(k, _)| k == name).map(|(_, m)| m)
    }
}

/// Notes in `seen` ([`Rest`]'s) what value `v` shows of the export's
/// decimals.
fn see(seen: &mut [bool; 2], v: &str) {
    match values::shows(v) {
        Some(values::Decimal::Comma) => seen[0] = true,
        Some(values::Decimal::Point) => seen[1] = true,
        None => {}
    }
}

/// A launch's name: a name shared by several IDs (as the app shows it,
/// clipped; `shared` counts them) gets ` #ID`, kept whole when the app
/// clips the name.
fn name(l: &Launch, shared: &HashMap<String, usize>) -> String {
    if shared.get(&l.shown).is_none_or(|&n| n < 2) {
        return l.name.clone();
    }
    let suffix = format!(" #{}", l.id);
    // `clip` adds an ellipsis to what it cuts.
    let room = NAME_CHARS.saturating_sub(suffix.chars().count() + 1);
    format!("{}{suffix}", format::clip(&l.name, room.max(1)))
}

/// `'name': ` for a message, or nothing when the name cannot be shown.
fn shown(name: &str) -> String {
    quote(name).map_or(String::new(), |q| format!("'{q}': "))
}

/// What a launch's FLOPs were counted from: a bit per precision of
/// [`PRECISIONS`] (1 fp64, 2 fp32, 4 fp16), and 8 for the tensor cores.
type Counted = u8;

/// The tensor cores' bit in [`Counted`].
const TENSOR_BIT: Counted = 8;

/// The note on kernels read at their tensor work's data type.
const TYPED: &str = "A kernel whose tensor-core work is mostly of one data type (bf16, fp16, fp8, fp4: the sm__ops_path_tensor_src_* metric's source) is read against the chip's peak at that type.";

/// The data type of a tensor-core count's source (`bf16_dst_fp32`,
/// `fp8_sparsity_off`): `None` for several (`fp4_fp6_fp8`), integers and
/// types the app has no peak for (tf32, fp64).
fn source_type(rest: &str) -> Option<DType> {
    let end = ["_dst", "_sparsity"]
        .iter()
        .filter_map(|m| rest.find(m))
        .min()
        .unwrap_or(rest.len());
    match rest.get(..end)? {
        "bf16" => Some(DType::Bf16),
        "fp16" => Some(DType::Fp16),
        "fp8" => Some(DType::Fp8),
        "fp4" => Some(DType::Fp4),
        _ => None,
    }
}

/// The source part of a tensor-core operation count's name
/// (`bf16_dst_fp32` of `sm__ops_path_tensor_src_bf16_dst_fp32.sum`);
/// `None` for other metrics, integer sources and rates (`.sum.per_second`).
fn source(key: &str) -> Option<&str> {
    let rest = key.strip_prefix(TENSOR)?.strip_suffix(".sum")?;
    (!rest.contains("int") && !rest.contains('.')).then_some(rest)
}

/// Whether tensor source `rest` is a breakdown of source `total`: `total`
/// narrowed by its destination or its sparsity (`fp16_dst_fp32` of `fp16`,
/// `fp8_sparsity_off` of `fp8`), which Nsight Compute counts in `total`.
/// Sources of several types (`fp4_fp6_fp8`) are not breakdowns of one.
fn breaks_down(rest: &str, total: &str) -> bool {
    rest.strip_prefix(total)
        .is_some_and(|q| q.starts_with("_dst_") || q.starts_with("_sparsity_"))
}

/// A launch's FLOPs, bytes, seconds, what its FLOPs were counted from and
/// the data type of its tensor work when that is most of them and all of
/// one type; or why it cannot be read.
fn measure(
    l: &Launch,
    decimal: values::Decimal,
) -> Result<(f64, f64, f64, Counted, Option<DType>), String> {
    let get = |l: &Launch, name: &str, kind: Kind| get(l, name, kind, decimal);
    let mut missing = Vec::new();
    let time = match get(l, TIME, Kind::Time)? {
        Some(t) => Some(t),
        None => get(l, SOL_TIME, Kind::Time)?,
    };
    if time.is_none() {
        missing.push(TIME);
    }
    let bytes = match get(l, BYTES, Kind::Bytes)? {
        Some(b) => Some(b),
        None => match (
            get(l, BYTES_READ, Kind::Bytes)?,
            get(l, BYTES_WRITE, Kind::Bytes)?,
        ) {
            (Some(r), Some(w)) => Some(r + w),
            _ => None,
        },
    };
    if bytes.is_none() {
        missing.push(BYTES);
    }
    let (mut flops, mut counted) = (0.0, 0);
    for (bit, (names, weights)) in SASS_NAMES.iter().zip(PRECISIONS.map(|p| p.2)).enumerate() {
        for (name, weight) in names.iter().zip(weights) {
            if let Some(v) = get(l, name, Kind::Count)? {
                flops += weight * v;
                counted |= 1 << bit;
            }
        }
    }
    // The tensor work's FLOPs, and its one type (`Some(None)` once two
    // types, or one without a peak, are seen).
    let (mut tensor, mut tensor_type) = (0.0, None);
    let sources: Vec<&str> = l.metrics.iter().filter_map(|(k, _)| source(k)).collect();
    for (key, _) in &l.metrics {
        let Some(rest) = source(key) else {
            continue;
        };
        // A breakdown of a total also read is in that total.
        if sources.iter().any(|s| breaks_down(rest, s)) {
            continue;
        }
        if let Ok(Some(v)) = get(l, key, Kind::Count) {
            flops += v;
            counted |= TENSOR_BIT;
            if v > 0.0 {
                tensor += v;
                let t = source_type(rest);
                tensor_type = match tensor_type {
                    None => Some(t),
                    Some(u) if u == t => Some(t),
                    Some(_) => Some(None),
                };
            }
        }
    }
    let dtype = tensor_type.flatten().filter(|_| 2.0 * tensor >= flops);
    if counted == 0 {
        missing.push(
            "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum (and the other FLOP counts)",
        );
    }
    let (Some(time), Some(bytes), true) = (time, bytes, missing.is_empty()) else {
        return Err(format!(
            "the export has no {}; {ADVICE}",
            missing.join(", no ")
        ));
    };
    if flops <= 0.0 {
        return Err(
            "no floating-point instructions were counted (its FLOP counts are all 0)".into(),
        );
    }
    Ok((flops, bytes, time, counted, dtype))
}

/// The note on what a kernel's FLOPs were counted from.
fn note(counted: Counted) -> String {
    let labels: Vec<&str> = PRECISIONS
        .iter()
        .enumerate()
        .filter(|(bit, _)| counted & (1 << bit) != 0)
        .map(|(_, p)| p.1)
        .collect();
    let tensor = counted & TENSOR_BIT != 0;
    let from = match labels.as_slice() {
        [] => String::new(),
        [one] => format!("{one} instructions"),
        [rest @ .., last] => format!("{} and {last} instructions", rest.join(", ")),
    };
    match (from.is_empty(), tensor) {
        (_, false) => format!(
            "FLOPs counted from {from} (an FMA as 2); tensor-core work is not counted: add the \
             sm__ops_path_tensor_src_*.sum metrics (--metrics 'regex:^sm__ops_path_tensor_src_.*\\.sum$'), \
             or a matmul is read far under its intensity"
        ),
        (true, true) => "FLOPs counted from tensor-core operations (sm__ops_path_tensor_src_*.sum)".into(),
        (false, true) => format!(
            "FLOPs counted from {from} (an FMA as 2) and tensor-core operations (sm__ops_path_tensor_src_*.sum)"
        ),
    }
}

mod fields;
mod printed;
mod values;

use fields::{cell, ranges, split};
pub(in crate::points::read) use printed::printed;
use values::get;
pub(in crate::points::read) use values::number;

#[cfg(test)]
mod tests;
