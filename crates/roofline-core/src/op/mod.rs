//! Operations written in the book's notation, and what they cost.
//!
//! An operation names the data type and the dimensions of every operand:
//!
//! ```text
//! bf16[B,D] * int8[D,F] -> bf16[B,F]
//! int8[B,D] * int8[B,D,F] -> int8[B,F]
//! bf16[N] . bf16[N] -> bf16[]
//! fp32[N] + fp32[N] -> fp32[N]
//! ```
//!
//! Dimension names are identifiers (a letter, then letters, digits or `_`).
//! `[]` is a scalar. Whitespace is free. The arrow `->` is required.
//!
//! ## Kinds
//!
//! * `*`, `.`, `·` or `×` join operands into a **contraction** (an einsum):
//!   every dimension that appears in an input but not in the output is summed
//!   over. A matmul, a dot product and a batched matmul are contractions.
//! * `+` or `-` join operands into an **elementwise** operation: every operand,
//!   the output included, has the same shape.
//! * Mixing the two in one operation is an error. With a single input and no
//!   operator, the kind follows from the shapes: the same dimensions in the
//!   same order is an elementwise copy (a cast), anything else a contraction
//!   (a sum over the missing dimensions, or a transpose).
//!
//! ## How FLOPs and bytes are counted
//!
//! Let `T` be the product of the contracted dimensions (1 if none) and `O` the
//! number of output elements (1 for a scalar), so the product of all distinct
//! dimensions is `O × T`, and let `k` be the number of inputs.
//!
//! * **Contraction, the book's convention** ([`Counts::flops`]): each of the
//!   `O × T` terms costs one multiply and one add, so FLOPs = 2 × (product of
//!   all distinct dimensions), whatever the data types. A matmul
//!   `[B,D]·[D,F]` is `2BDF`. With more than two inputs a term needs `k − 1`
//!   multiplies and one add, so the count generalises to `k × O × T`. With a
//!   single input there is nothing to multiply: the count is the `O × (T − 1)`
//!   additions of the sum.
//! * **Contraction, counted exactly** ([`Counts::flops_exact_adds`]): summing
//!   `T` products takes `T − 1` additions, not `T`, so each output element
//!   costs `k × T − 1` operations: `O × (k·T − 1)`. For the dot product that is
//!   the book's `2N − 1`.
//! * **Elementwise**: `O × (k − 1)` (one add per output element and extra
//!   input). Both counts agree.
//! * **Bytes**: every input is read once and the output written once, each at
//!   its own data type's size: bytes read = Σ (input elements × bytes per
//!   element), bytes written = output elements × bytes per element.
//!
//! Every count is a product of sizes, so it is *affine* in any one dimension:
//! `count(x) = slope · x + offset`. [`Operation::linear_counts`] returns those
//! coefficients; the critical-size solver and the sweeps build on them.

use crate::small::SmallMap;
use std::fmt;
use std::str::FromStr;

use crate::format::{clip, plain_number};
use crate::small::Join;
use crate::{CoreError, DType};

/// The size of each dimension, by name.
pub type Sizes = SmallMap<String, f64>;

/// One operand (or the output): a data type and named dimensions.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Operand {
    /// The data type the operand is stored in.
    pub dtype: DType,
    /// Dimension names, outermost first; empty for a scalar.
    pub dims: Vec<String>,
}

impl Operand {
    /// An operand of `dtype` with dimensions `dims`.
    pub fn new(dtype: DType, dims: &[&str]) -> Operand {
        Operand {
            dtype,
            dims: dims.iter().map(|d| d.to_string()).collect(),
        }
    }

    /// The operand in the book's notation, such as `bf16[B,D]`.
    pub fn notation(&self) -> String {
        format!("{}[{}]", self.dtype, self.dims.joined(","))
    }

    /// Whether the operand has dimension `dim`.
    pub fn has(&self, dim: &str) -> bool {
        self.dims.iter().any(|d| d == dim)
    }
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.notation())
    }
}

/// Whether an operation sums over dimensions or works element by element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OpKind {
    /// An einsum: dimensions missing from the output are summed over.
    Contraction,
    /// Same shape everywhere; one operation per element and extra input.
    Elementwise,
}

impl OpKind {
    /// The operator written between inputs in the canonical notation.
    pub fn symbol(self) -> &'static str {
        match self {
            OpKind::Contraction => "*",
            OpKind::Elementwise => "+",
        }
    }

    /// A short name for the kind.
    pub fn label(self) -> &'static str {
        match self {
            OpKind::Contraction => "contraction",
            OpKind::Elementwise => "elementwise",
        }
    }
}

/// A problem found while reading an operation, with where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// Index (counted in characters, from 0) of the character the problem
    /// starts at. The `Display` text counts from 1, as a person would.
    pub position: usize,
    /// What is wrong, ready to show.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at character {}: {}", self.position + 1, self.message)
    }
}

impl std::error::Error for ParseError {}

impl From<ParseError> for CoreError {
    fn from(e: ParseError) -> CoreError {
        CoreError::Invalid(e.to_string())
    }
}

/// An operation: its inputs, its output and its kind.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Operation {
    /// The inputs, in the order written.
    pub inputs: Vec<Operand>,
    /// The result.
    pub output: Operand,
    /// Contraction or elementwise.
    pub kind: OpKind,
}

/// FLOPs and bytes of an operation at given sizes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Counts {
    /// FLOPs by the book's convention (a multiply and an add per term:
    /// `2BDF` for a matmul). The roofline uses this count.
    pub flops: f64,
    /// FLOPs counted exactly: summing `T` terms takes `T − 1` additions
    /// (`2N − 1` for a dot product).
    pub flops_exact_adds: f64,
    /// Bytes read: every input once, at its own data type's size.
    pub bytes_read: f64,
    /// Bytes written: the output once, at its data type's size.
    pub bytes_written: f64,
}

impl Counts {
    /// Bytes moved in total: read plus written.
    pub fn bytes(&self) -> f64 {
        self.bytes_read + self.bytes_written
    }

    /// Arithmetic intensity, FLOPs (book convention) per byte.
    pub fn intensity(&self) -> f64 {
        self.flops / self.bytes()
    }
}

/// A quantity that is affine in one dimension `x`: `slope · x + offset`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Linear {
    /// The coefficient of `x`.
    pub slope: f64,
    /// The part that does not depend on `x`.
    pub offset: f64,
}

impl Linear {
    /// A constant.
    pub fn constant(c: f64) -> Linear {
        Linear {
            slope: 0.0,
            offset: c,
        }
    }

    /// The value at `x`.
    pub fn at(&self, x: f64) -> f64 {
        self.slope * x + self.offset
    }

    /// Both coefficients multiplied by `k`.
    pub fn scale(&self, k: f64) -> Linear {
        Linear {
            slope: self.slope * k,
            offset: self.offset * k,
        }
    }

    fn plus(&self, o: &Linear) -> Linear {
        Linear {
            slope: self.slope + o.slope,
            offset: self.offset + o.offset,
        }
    }

    /// Product of two affine quantities of which at most one depends on `x`
    /// (true here: a dimension is either in the output or contracted).
    fn times(&self, o: &Linear) -> Linear {
        Linear {
            slope: self.slope * o.offset + self.offset * o.slope,
            offset: self.offset * o.offset,
        }
    }

    fn is_finite(&self) -> bool {
        self.slope.is_finite() && self.offset.is_finite()
    }
}

/// [`Counts`] as affine functions of one dimension (see [`Operation::linear_counts`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinearCounts {
    /// FLOPs, book convention.
    pub flops: Linear,
    /// FLOPs counted exactly.
    pub flops_exact_adds: Linear,
    /// Bytes read.
    pub bytes_read: Linear,
    /// Bytes written.
    pub bytes_written: Linear,
}

impl LinearCounts {
    /// Bytes read plus written.
    pub fn bytes(&self) -> Linear {
        self.bytes_read.plus(&self.bytes_written)
    }

    /// The counts when the dimension has size `x`.
    pub fn at(&self, x: f64) -> Counts {
        Counts {
            flops: self.flops.at(x).max(0.0),
            flops_exact_adds: self.flops_exact_adds.at(x).max(0.0),
            bytes_read: self.bytes_read.at(x),
            bytes_written: self.bytes_written.at(x),
        }
    }
}

/// Where a problem sits inside an operation (operand `inputs.len()` is the output).
#[derive(Debug, Clone, Copy)]
enum Loc {
    Operand(usize),
    Dim(usize, usize),
}

/// The name of operand `i` in messages: "operand 2" (from 1) or "output".
fn operand_name(i: usize, n_inputs: usize) -> String {
    if i >= n_inputs {
        "output".to_string()
    } else {
        format!("operand {}", i + 1)
    }
}

fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    match c.next() {
        Some(first) if first.is_alphabetic() => c.all(|ch| ch.is_alphanumeric() || ch == '_'),
        _ => false,
    }
}

/// Names that read as non-numbers ("NaN", "inf", "Infinity") are refused.
fn reads_as_number(s: &str) -> bool {
    matches!(s.to_ascii_lowercase().as_str(), "nan" | "inf" | "infinity")
}

fn shape(dims: &[String]) -> String {
    format!("[{}]", dims.joined(","))
}

impl Operation {
    /// Builds an operation and checks it (see [`Operation::parse`] for the
    /// rules). With a single input the kind follows from the shapes and
    /// `kind` is ignored.
    pub fn new(
        inputs: Vec<Operand>,
        output: Operand,
        kind: OpKind,
    ) -> Result<Operation, CoreError> {
        let mut op = Operation {
            inputs,
            output,
            kind,
        };
        if op.inputs.len() == 1 {
            op.kind = single_input_kind(&op.inputs, &op.output);
        }
        op.validate()?;
        Ok(op)
    }

    /// Reads an operation in the book's notation, such as
    /// `bf16[B,D] * int8[D,F] -> bf16[B,F]`.
    ///
    /// Besides the syntax it checks that every output dimension comes from an
    /// input, that no operand repeats a dimension, and that an elementwise
    /// operation has one shape throughout.
    pub fn parse(text: &str) -> Result<Operation, ParseError> {
        let mut p = Parser::new(text);
        p.skip_ws();
        if p.peek().is_none() {
            return Err(p.error(
                p.pos,
                "the operation is empty: write one such as bf16[B,D] * bf16[D,F] -> bf16[B,F]",
            ));
        }
        let mut parsed = vec![p.operand("an input")?];
        let mut first_op: Option<OpKind> = None;
        loop {
            p.skip_ws();
            let at = p.pos;
            let kind = match p.peek() {
                Some('-') if p.peek_at(1) == Some('>') => {
                    p.pos += 2;
                    break;
                }
                Some('→') => {
                    p.pos += 1;
                    break;
                }
                Some('*' | '.' | '·' | '×') => OpKind::Contraction,
                Some('+' | '-') => OpKind::Elementwise,
                None => {
                    return Err(p.error(
                        at,
                        "expected '->' and then the output, such as '-> bf16[B,F]'",
                    ))
                }
                Some(c) => {
                    return Err(p.error(
                        at,
                        format!("expected an operator (*, ., + or -) or '->', found '{c}'"),
                    ))
                }
            };
            match first_op {
                None => first_op = Some(kind),
                Some(k) if k != kind => {
                    return Err(p.error(
                        at,
                        "a contraction (*, .) and an elementwise operation (+, -) cannot be \
                         mixed in one operation: write them as two operations",
                    ))
                }
                Some(_) => {}
            }
            p.pos += 1;
            parsed.push(p.operand("an input after the operator")?);
        }
        let out = p.operand("the output after '->'")?;
        p.skip_ws();
        if let Some(c) = p.peek() {
            return Err(p.error(p.pos, format!("unexpected '{c}' after the output")));
        }
        let inputs: Vec<Operand> = parsed.iter().map(|o| o.operand.clone()).collect();
        let kind = match first_op {
            Some(k) => k,
            None => single_input_kind(&inputs, &out.operand),
        };
        let op = Operation {
            inputs,
            output: out.operand.clone(),
            kind,
        };
        parsed.push(out);
        match op.check() {
            Ok(()) => Ok(op),
            Err((loc, message)) => {
                let position = match loc {
                    Loc::Operand(i) => parsed.get(i).map(|o| o.start),
                    Loc::Dim(i, j) => parsed.get(i).and_then(|o| o.dim_pos.get(j).copied()),
                }
                .unwrap_or(0);
                Err(ParseError { position, message })
            }
        }
    }

    /// Checks the rules [`Operation::parse`] enforces, for an operation built
    /// by hand. The error names the operand.
    pub fn validate(&self) -> Result<(), CoreError> {
        self.check().map_err(|(_, m)| CoreError::Invalid(m))
    }

    fn operands(&self) -> impl Iterator<Item = &Operand> {
        self.inputs.iter().chain(std::iter::once(&self.output))
    }

    fn check(&self) -> Result<(), (Loc, String)> {
        let n = self.inputs.len();
        if n == 0 {
            return Err((
                Loc::Operand(0),
                "an operation needs at least one input".to_string(),
            ));
        }
        for (i, o) in self.operands().enumerate() {
            for (j, d) in o.dims.iter().enumerate() {
                if !is_ident(d) {
                    return Err((
                        Loc::Dim(i, j),
                        format!(
                            "{}: '{}' is not a dimension name (a letter, then letters, digits or _)",
                            operand_name(i, n),
                            clip(d, 16)
                        ),
                    ));
                }
                if reads_as_number(d) {
                    // Shown back, such a name would read as a broken number.
                    return Err((
                        Loc::Dim(i, j),
                        format!(
                            "{}: a dimension cannot be named like a special number; pick another name",
                            operand_name(i, n)
                        ),
                    ));
                }
                if o.dims.iter().take(j).any(|e| e == d) {
                    return Err((
                        Loc::Dim(i, j),
                        format!(
                            "{}: dimension {d} appears twice; give each axis its own name",
                            operand_name(i, n)
                        ),
                    ));
                }
            }
        }
        for (j, d) in self.output.dims.iter().enumerate() {
            if !self.inputs.iter().any(|o| o.has(d)) {
                return Err((
                    Loc::Dim(n, j),
                    format!(
                        "output dimension {d} is in no input: every output dimension must come from an input"
                    ),
                ));
            }
        }
        if self.kind == OpKind::Elementwise {
            let first = &self.inputs[0].dims;
            for (i, o) in self.operands().enumerate().skip(1) {
                if &o.dims != first {
                    return Err((
                        Loc::Operand(i),
                        format!(
                            "an elementwise operation needs the same shape on every operand: \
                             {} is {} but operand 1 is {}",
                            if i >= n {
                                "the output".to_string()
                            } else {
                                operand_name(i, n)
                            },
                            shape(&o.dims),
                            shape(first)
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The canonical notation, such as `bf16[B,D] * int8[D,F] -> bf16[B,F]`.
    /// Parsing it gives back the same operation.
    pub fn notation(&self) -> String {
        let sep = format!(" {} ", self.kind.symbol());
        let ins: Vec<String> = self.inputs.iter().map(Operand::notation).collect();
        format!("{} -> {}", ins.joined(&sep), self.output.notation())
    }

    /// Every distinct dimension, in order of first appearance.
    pub fn dims(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for d in self.operands().flat_map(|o| o.dims.iter()) {
            if !out.contains(d) {
                out.push(d.clone());
            }
        }
        out
    }

    /// The dimensions summed over: in an input but not in the output.
    pub fn contracted_dims(&self) -> Vec<String> {
        self.dims()
            .into_iter()
            .filter(|d| !self.output.has(d))
            .collect()
    }

    /// Whether `dim` appears anywhere in the operation.
    pub fn has_dim(&self, dim: &str) -> bool {
        self.operands().any(|o| o.has(dim))
    }

    /// The input data type with the most bytes per element (the first one on
    /// a tie); the output's type if there is no input.
    pub fn widest_input_dtype(&self) -> DType {
        let mut best = match self.inputs.first() {
            Some(o) => o.dtype,
            None => return self.output.dtype,
        };
        for o in &self.inputs {
            if o.dtype.bytes() > best.bytes() {
                best = o.dtype;
            }
        }
        best
    }

    /// FLOPs and bytes at `sizes` (see the module documentation for the
    /// rules). Errors name the operand whose dimension has no size, a size
    /// that is not positive, or an overflow.
    pub fn counts(&self, sizes: &Sizes) -> Result<Counts, CoreError> {
        let lin = self.linear(None, sizes)?;
        Ok(lin.at(0.0))
    }

    /// The counts as affine functions of the size of `dim` (every count is
    /// `slope · x + offset` in any single dimension). `sizes` must give every
    /// other dimension; a size given for `dim` itself is ignored.
    pub fn linear_counts(&self, dim: &str, sizes: &Sizes) -> Result<LinearCounts, CoreError> {
        if !self.has_dim(dim) {
            return Err(CoreError::Invalid(format!(
                "dimension {} is not in this operation (its dimensions are {})",
                clip(dim, 16),
                self.dims().joined(", ")
            )));
        }
        self.linear(Some(dim), sizes)
    }

    fn linear(&self, var: Option<&str>, sizes: &Sizes) -> Result<LinearCounts, CoreError> {
        self.validate()?;
        let n = self.inputs.len();
        // Every size, checked, with the operand that first needs it.
        let mut known: SmallMap<&str, f64> = SmallMap::new();
        for (i, o) in self.operands().enumerate() {
            for d in &o.dims {
                if Some(d.as_str()) == var || known.contains_key(d.as_str()) {
                    continue;
                }
                let v = *sizes.get(d).ok_or_else(|| {
                    CoreError::Invalid(format!("{}: dimension {d} has no size", operand_name(i, n)))
                })?;
                if !(v.is_finite() && v > 0.0) {
                    return Err(CoreError::Invalid(format!(
                        "{d} = {} is not a positive size",
                        plain_number(v)
                    )));
                }
                known.insert(d.as_str(), v);
            }
        }
        let prod = |dims: &mut dyn Iterator<Item = &String>| -> Linear {
            let mut c = 1.0;
            let mut has_var = false;
            for d in dims {
                if Some(d.as_str()) == var {
                    has_var = true;
                } else {
                    c *= known.get(d.as_str()).copied().unwrap_or(1.0);
                }
            }
            if has_var {
                Linear {
                    slope: c,
                    offset: 0.0,
                }
            } else {
                Linear::constant(c)
            }
        };
        let contracted = self.contracted_dims();
        let out = prod(&mut self.output.dims.iter());
        let t = prod(&mut contracted.iter());
        let k = n as f64;
        let minus_one = Linear::constant(-1.0);
        let (flops, exact) = match self.kind {
            OpKind::Elementwise => {
                let f = out.scale(k - 1.0);
                (f, f)
            }
            OpKind::Contraction if n == 1 => {
                let f = out.times(&t.plus(&minus_one));
                (f, f)
            }
            OpKind::Contraction => (
                out.times(&t).scale(k),
                out.times(&t.scale(k).plus(&minus_one)),
            ),
        };
        let mut read = Linear::constant(0.0);
        for o in &self.inputs {
            read = read.plus(&prod(&mut o.dims.iter()).scale(o.dtype.bytes()));
        }
        let written = out.scale(self.output.dtype.bytes());
        if !(flops.is_finite() && exact.is_finite()) {
            return Err(CoreError::Invalid(
                "the sizes are too large: FLOPs overflow".to_string(),
            ));
        }
        // The total too: read and written can each fit while their sum does not.
        if !(read.is_finite() && written.is_finite() && read.plus(&written).is_finite()) {
            return Err(CoreError::Invalid(
                "the sizes are too large: bytes overflow".to_string(),
            ));
        }
        if var.is_none() && read.offset + written.offset <= 0.0 {
            return Err(CoreError::Invalid(
                "the sizes are too small: the bytes round to zero".to_string(),
            ));
        }
        Ok(LinearCounts {
            flops,
            flops_exact_adds: exact,
            bytes_read: read,
            bytes_written: written,
        })
    }
}

fn single_input_kind(inputs: &[Operand], output: &Operand) -> OpKind {
    match inputs {
        [only] if only.dims == output.dims => OpKind::Elementwise,
        _ => OpKind::Contraction,
    }
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.notation())
    }
}

impl FromStr for Operation {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Operation::parse(s)
    }
}

struct ParsedOperand {
    operand: Operand,
    start: usize,
    dim_pos: Vec<usize>,
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
}

impl Parser {
    fn new(text: &str) -> Parser {
        Parser {
            chars: text.chars().collect(),
            pos: 0,
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, k: usize) -> Option<char> {
        self.chars.get(self.pos + k).copied()
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    fn error(&self, position: usize, message: impl Into<String>) -> ParseError {
        ParseError {
            position,
            message: message.into(),
        }
    }

    fn found(&self) -> String {
        match self.peek() {
            Some(c) => format!("found '{c}'"),
            None => "found the end".to_string(),
        }
    }

    fn word(&mut self) -> String {
        let mut w = String::new();
        while let Some(c) = self.peek() {
            if c.is_alphanumeric() || c == '_' {
                w.push(c);
                self.pos += 1;
            } else {
                break;
            }
        }
        w
    }

    fn operand(&mut self, what: &str) -> Result<ParsedOperand, ParseError> {
        self.skip_ws();
        let start = self.pos;
        let word = self.word();
        if word.is_empty() {
            return Err(self.error(
                start,
                format!(
                    "expected {what}: a data type and a shape, such as bf16[B,D]; {}",
                    self.found()
                ),
            ));
        }
        let dtype: DType = word.parse().map_err(|_| {
            self.error(
                start,
                format!(
                    "'{}' is not a data type (try fp32, bf16, fp16, fp8, int8, fp4 or int4)",
                    clip(&word, 16)
                ),
            )
        })?;
        self.skip_ws();
        if self.peek() != Some('[') {
            return Err(self.error(
                self.pos,
                format!(
                    "expected '[' after {dtype} to open the shape; {}",
                    self.found()
                ),
            ));
        }
        self.pos += 1;
        self.skip_ws();
        let mut dims = Vec::new();
        let mut dim_pos = Vec::new();
        if self.peek() == Some(']') {
            self.pos += 1;
            return Ok(ParsedOperand {
                operand: Operand { dtype, dims },
                start,
                dim_pos,
            });
        }
        loop {
            self.skip_ws();
            let at = self.pos;
            match self.peek() {
                Some(c) if c.is_alphabetic() => {}
                Some(c) if c.is_ascii_digit() => {
                    let w = self.word();
                    return Err(self.error(
                        at,
                        format!(
                            "'{}' is a number: name the dimension (such as B or D) and give its size separately",
                            clip(&w, 16)
                        ),
                    ));
                }
                _ => {
                    return Err(self.error(
                        at,
                        format!(
                            "expected a dimension name (a letter, then letters, digits or _); {}",
                            self.found()
                        ),
                    ))
                }
            }
            dims.push(self.word());
            dim_pos.push(at);
            self.skip_ws();
            match self.peek() {
                Some(',') => self.pos += 1,
                Some(']') => {
                    self.pos += 1;
                    break;
                }
                _ => {
                    return Err(
                        self.error(self.pos, format!("expected ',' or ']'; {}", self.found()))
                    )
                }
            }
        }
        Ok(ParsedOperand {
            operand: Operand { dtype, dims },
            start,
            dim_pos,
        })
    }
}

/// The operations the chapter works through, ready to pick.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Shortcut {
    /// `bf16[N] * bf16[N] -> bf16[]`.
    DotProduct,
    /// `bf16[B,D] * bf16[D,F] -> bf16[B,F]`.
    Matmul,
    /// `bf16[B,D] * int8[D,F] -> bf16[B,F]`: int8 weights.
    MixedMatmul,
    /// `int8[B,D] * int8[B,D,F] -> int8[B,F]`: one matrix per example.
    BatchedMatmul,
    /// `fp32[N] + fp32[N] -> fp32[N]`.
    ElementwiseAdd,
}

impl Shortcut {
    /// Every shortcut, in the order the chapter meets them.
    pub const ALL: [Shortcut; 5] = [
        Shortcut::DotProduct,
        Shortcut::Matmul,
        Shortcut::MixedMatmul,
        Shortcut::BatchedMatmul,
        Shortcut::ElementwiseAdd,
    ];

    /// A short key for links: `dot`, `matmul`, `mixed`, `batched`, `add`.
    pub fn key(self) -> &'static str {
        match self {
            Shortcut::DotProduct => "dot",
            Shortcut::Matmul => "matmul",
            Shortcut::MixedMatmul => "mixed",
            Shortcut::BatchedMatmul => "batched",
            Shortcut::ElementwiseAdd => "add",
        }
    }

    /// The shortcut with this key (case-insensitive), if any.
    pub fn from_key(key: &str) -> Option<Shortcut> {
        let t = key.trim().to_ascii_lowercase();
        Shortcut::ALL.into_iter().find(|s| s.key() == t)
    }

    /// A name for a button or menu.
    pub fn label(self) -> &'static str {
        match self {
            Shortcut::DotProduct => "Dot product",
            Shortcut::Matmul => "Matmul, all bf16",
            Shortcut::MixedMatmul => "Matmul with int8 weights",
            Shortcut::BatchedMatmul => "Batched matmul, a matrix per example",
            Shortcut::ElementwiseAdd => "Elementwise add",
        }
    }

    /// The operation in canonical notation.
    pub fn notation(self) -> String {
        self.operation().notation()
    }

    /// The operation itself.
    pub fn operation(self) -> Operation {
        use DType::{Bf16, Fp32, Int8};
        let (inputs, output, kind) = match self {
            Shortcut::DotProduct => (
                vec![Operand::new(Bf16, &["N"]), Operand::new(Bf16, &["N"])],
                Operand::new(Bf16, &[]),
                OpKind::Contraction,
            ),
            Shortcut::Matmul => (
                vec![
                    Operand::new(Bf16, &["B", "D"]),
                    Operand::new(Bf16, &["D", "F"]),
                ],
                Operand::new(Bf16, &["B", "F"]),
                OpKind::Contraction,
            ),
            Shortcut::MixedMatmul => (
                vec![
                    Operand::new(Bf16, &["B", "D"]),
                    Operand::new(Int8, &["D", "F"]),
                ],
                Operand::new(Bf16, &["B", "F"]),
                OpKind::Contraction,
            ),
            Shortcut::BatchedMatmul => (
                vec![
                    Operand::new(Int8, &["B", "D"]),
                    Operand::new(Int8, &["B", "D", "F"]),
                ],
                Operand::new(Int8, &["B", "F"]),
                OpKind::Contraction,
            ),
            Shortcut::ElementwiseAdd => (
                vec![Operand::new(Fp32, &["N"]), Operand::new(Fp32, &["N"])],
                Operand::new(Fp32, &["N"]),
                OpKind::Elementwise,
            ),
        };
        Operation {
            inputs,
            output,
            kind,
        }
    }

    /// Sizes to start from: B = 256 tokens, D = F = 4096, N = 10⁶.
    pub fn default_sizes(self) -> Sizes {
        let pairs: &[(&str, f64)] = match self {
            Shortcut::DotProduct | Shortcut::ElementwiseAdd => &[("N", 1e6)],
            Shortcut::Matmul | Shortcut::MixedMatmul | Shortcut::BatchedMatmul => {
                &[("B", 256.0), ("D", 4096.0), ("F", 4096.0)]
            }
        };
        crate::small::map_of(pairs.iter().map(|(k, v)| (k.to_string(), *v)))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    fn sizes(pairs: &[(&str, f64)]) -> Sizes {
        pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
    }

    #[test]
    fn bytes_whose_sum_overflows_are_an_error() {
        // Found by proptest: read and written each fit in f64, their sum does not.
        let op = Operation::parse("bf16[B,D,K] -> bf16[B,D,K]").unwrap();
        let x = 4.3597200203156444e102;
        let sizes = sizes(&[("B", x), ("D", x), ("K", x)]);
        let e = op.counts(&sizes).unwrap_err();
        assert_eq!(e.to_string(), "the sizes are too large: bytes overflow");
    }

    #[test]
    fn special_number_names_are_refused() {
        for t in [
            "fp32[NaN] -> fp32[]",
            "bf16[B,Infinity] * bf16[Infinity,F] -> bf16[B,F]",
            "fp32[inf]+fp32[inf]->fp32[inf]",
        ] {
            let e = Operation::parse(t).unwrap_err().to_string();
            assert!(
                !e.contains("NaN") && !e.contains("Infinity") && !e.contains("inf"),
                "{e}"
            );
        }
    }

    #[test]
    fn parses_the_chapter_examples() {
        let op = Operation::parse("bf16[B,D] * int8[D,F] -> bf16[B,F]").unwrap();
        assert_eq!(op.kind, OpKind::Contraction);
        assert_eq!(op.inputs[1].dtype, DType::Int8);
        assert_eq!(op.dims(), vec!["B", "D", "F"]);
        assert_eq!(op.contracted_dims(), vec!["D"]);
        assert_eq!(op.widest_input_dtype(), DType::Bf16);

        let dot = Operation::parse("  bf16 [ N ]·bf16[N]->bf16[ ]").unwrap();
        assert_eq!(dot.output.dims.len(), 0);
        assert_eq!(dot.notation(), "bf16[N] * bf16[N] -> bf16[]");

        let add = Operation::parse("fp32[N] - fp32[N] -> fp32[N]").unwrap();
        assert_eq!(add.kind, OpKind::Elementwise);
        assert_eq!(add.notation(), "fp32[N] + fp32[N] -> fp32[N]");
    }

    #[test]
    fn shortcuts_round_trip() {
        for s in Shortcut::ALL {
            let op = s.operation();
            op.validate().unwrap();
            assert_eq!(Operation::parse(&s.notation()).unwrap(), op);
            assert_eq!(Shortcut::from_key(s.key()), Some(s));
            op.counts(&s.default_sizes()).unwrap();
        }
    }

    #[test]
    fn errors_say_where() {
        let e = Operation::parse("bf16[B,D * int8[D,F] -> bf16[B,F]").unwrap_err();
        assert_eq!(e.position, 9);
        assert!(e
            .to_string()
            .starts_with("at character 10: expected ',' or ']'"));

        let e = Operation::parse("bf16[B,D] * int8[D,F] -> bf16[B,K]").unwrap_err();
        assert_eq!(e.position, 32);
        assert!(e.message.contains("K"));

        let e = Operation::parse("bf16[B,D] * int8[D,F] + bf16[B,F] -> bf16[B,F]").unwrap_err();
        assert_eq!(e.position, 22);

        let e = Operation::parse("bf16[B,B] * bf16[B] -> bf16[B]").unwrap_err();
        assert_eq!(e.position, 7);

        let e = Operation::parse("fp32[N] + fp32[M] -> fp32[N]").unwrap_err();
        assert_eq!(e.position, 10);

        assert!(Operation::parse("bf17[N] * bf16[N] -> bf16[]").is_err());
        assert!(Operation::parse("bf16[N] * bf16[N]").is_err());
        assert!(Operation::parse("bf16[4096] -> bf16[]").is_err());
        assert!(Operation::parse("").is_err());
        assert!(Operation::parse("bf16[N] -> bf16[] extra").is_err());
    }

    #[test]
    fn single_input_kinds() {
        let copy = Operation::parse("fp32[N] -> bf16[N]").unwrap();
        assert_eq!(copy.kind, OpKind::Elementwise);
        let c = copy.counts(&sizes(&[("N", 10.0)])).unwrap();
        assert_eq!(c.flops, 0.0);
        assert_eq!(c.bytes(), 60.0);

        let sum = Operation::parse("fp32[N] -> fp32[]").unwrap();
        assert_eq!(sum.kind, OpKind::Contraction);
        let c = sum.counts(&sizes(&[("N", 10.0)])).unwrap();
        assert_eq!(c.flops, 9.0);
    }

    #[test]
    fn counts_follow_the_rules() {
        let dot = Shortcut::DotProduct.operation();
        let c = dot.counts(&sizes(&[("N", 1000.0)])).unwrap();
        assert_eq!(c.flops, 2000.0);
        assert_eq!(c.flops_exact_adds, 1999.0);
        assert_eq!(c.bytes_read, 4000.0);
        assert_eq!(c.bytes_written, 2.0);

        let mm = Shortcut::MixedMatmul.operation();
        let s = sizes(&[("B", 2.0), ("D", 3.0), ("F", 5.0)]);
        let c = mm.counts(&s).unwrap();
        assert_eq!(c.flops, 60.0);
        assert_eq!(c.flops_exact_adds, 2.0 * 5.0 * (2.0 * 3.0 - 1.0));
        assert_eq!(c.bytes_read, 2.0 * 6.0 + 15.0);
        assert_eq!(c.bytes_written, 20.0);

        let lin = mm.linear_counts("B", &s).unwrap();
        assert_eq!(lin.at(2.0), c);
        let lin = mm.linear_counts("D", &s).unwrap();
        assert_eq!(lin.at(3.0), c);

        let add = Shortcut::ElementwiseAdd.operation();
        let c = add.counts(&sizes(&[("N", 8.0)])).unwrap();
        assert_eq!(c.flops, 8.0);
        assert_eq!(c.bytes(), 96.0);
    }

    #[test]
    fn size_errors_name_the_place() {
        let mm = Shortcut::Matmul.operation();
        let e = mm.counts(&sizes(&[("B", 2.0), ("D", 3.0)])).unwrap_err();
        assert_eq!(e.to_string(), "operand 2: dimension F has no size");
        let e = mm
            .counts(&sizes(&[("B", 2.0), ("D", -5.0), ("F", 1.0)]))
            .unwrap_err();
        assert_eq!(e.to_string(), "D = -5 is not a positive size");
        let e = mm
            .counts(&sizes(&[("B", 1e200), ("D", 1e200), ("F", 1.0)]))
            .unwrap_err();
        assert_eq!(e.to_string(), "the sizes are too large: FLOPs overflow");
        let e = mm
            .counts(&sizes(&[("B", f64::NAN), ("D", 1.0), ("F", 1.0)]))
            .unwrap_err();
        assert!(!e.to_string().contains("NaN"));
        let bcast = Operation::parse("bf16[B,D] * bf16[D] -> bf16[B,K]");
        assert!(bcast.is_err());
    }
}
