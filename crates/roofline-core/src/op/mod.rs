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
//! The book's sharded notation reads too: `B_X` (capitals after the last
//! `_`) is the dimension B split over the mesh axis X, and counts as B; the
//! Scale page counts each chip's share ([`Operation::sharded`] lists them).
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
//! * **Elementwise**, and any single input that sums nothing (a cast, a
//!   transpose, an activation such as a GELU): `O × p`, where `p` is the
//!   FLOPs each output element needs ([`Operation::flops_per_element`]).
//!   By default `p = k − 1` (one add per extra input) with two or more
//!   inputs, and `p = 1` with one (one operation per element); the user can
//!   set it (an exp or a GELU takes several). Both counts agree.
//! * **Bytes**: every input is read once and the output written once, each at
//!   its own data type's size: bytes read = Σ (input elements × bytes per
//!   element), bytes written = output elements × bytes per element.
//!
//! Every count is a product of sizes, so it is *affine* in any one dimension:
//! `count(x) = slope · x + offset`. [`Operation::linear_counts`] returns those
//! coefficients; the critical-size solver and the sweeps build on them.

// Where the code is: `parse` reads the notation and checks the rules of an
// operation; `print` writes the notation back; `count` gives FLOPs and
// bytes; `shortcut` holds the chapter's operations. The types they share
// are here.
mod count;
mod parse;
mod print;
mod shortcut;

pub use count::{Counts, Linear, LinearCounts};
pub use parse::{parses, split_axes, ParseError};
pub use shortcut::Shortcut;

use crate::small::SmallMap;
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
    /// The mesh axes each dimension is split over, by index, in the book's
    /// sharded notation (`B_X` is B over `X`): empty when none is. Counts
    /// ignore them; [`Operand::notation`] writes them back.
    pub axes: Vec<String>,
}

impl Operand {
    /// An operand of `dtype` with dimensions `dims`.
    pub fn new(dtype: DType, dims: &[&str]) -> Operand {
        Operand {
            dtype,
            dims: dims.iter().map(|d| d.to_string()).collect(),
            axes: Vec::new(),
        }
    }

    /// Whether the operand has dimension `dim`.
    pub fn has(&self, dim: &str) -> bool {
        self.dims.iter().any(|d| d == dim)
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

/// An operation: its inputs, its output and its kind.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Operation {
    /// The inputs, in the order written.
    pub inputs: Vec<Operand>,
    /// The result.
    pub output: Operand,
    /// Contraction or elementwise.
    pub kind: OpKind,
    /// FLOPs per output element, set by the user, for an operation that
    /// sums nothing ([`Operation::takes_flops_per_element`]); `None` =
    /// the default ([`Operation::default_flops_per_element`]). Not part of
    /// the notation.
    pub per_element: Option<PerElement>,
}

/// FLOPs per output element (a positive, finite number), comparable and
/// hashable by its bits so that an [`Operation`] stays `Eq` and `Hash`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PerElement(pub f64);

impl Eq for PerElement {}

impl std::hash::Hash for PerElement {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.to_bits().hash(state);
    }
}

/// The most FLOPs per element accepted.
pub const MAX_FLOPS_PER_ELEMENT: f64 = 1e6;

/// The name of operand `i` in messages: "operand 2" (from 1) or "output".
fn operand_name(i: usize, n_inputs: usize) -> String {
    if i >= n_inputs {
        "output".to_string()
    } else {
        format!("operand {}", i + 1)
    }
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
            per_element: None,
        };
        if op.inputs.len() == 1 {
            op.kind = single_input_kind(&op.inputs, &op.output);
        }
        op.validate()?;
        Ok(op)
    }

    /// Whether the operation sums nothing and maps elements: elementwise,
    /// or a single input whose output keeps every dimension (a cast, a
    /// transpose). Its FLOPs are [`Operation::flops_per_element`] per
    /// output element.
    pub fn takes_flops_per_element(&self) -> bool {
        self.kind == OpKind::Elementwise
            || (self.inputs.len() == 1 && self.contracted_dims().is_empty())
    }

    /// The FLOPs per element an operation that maps elements needs by
    /// default: one add per extra input (`k − 1`), or one operation per
    /// element with a single input. `None` for any other operation.
    pub fn default_flops_per_element(&self) -> Option<f64> {
        self.takes_flops_per_element()
            .then(|| (self.inputs.len() as f64 - 1.0).max(1.0))
    }

    /// The FLOPs per element the counts use: the user's, else the default;
    /// `None` for an operation that sums over a dimension.
    pub fn flops_per_element(&self) -> Option<f64> {
        self.default_flops_per_element()
            .map(|d| self.per_element.map_or(d, |p| p.0))
    }

    fn operands(&self) -> impl Iterator<Item = &Operand> {
        self.inputs.iter().chain(std::iter::once(&self.output))
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

    /// The sharded dimensions as written (`B_X`: `("B", "X")`), each pair
    /// once, in the order written.
    pub fn sharded(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        for o in self.operands() {
            for (d, a) in o.dims.iter().zip(&o.axes) {
                let pair = (d.clone(), a.clone());
                if !a.is_empty() && !out.contains(&pair) {
                    out.push(pair);
                }
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

    /// The unit this operation runs on unless told otherwise: the matrix
    /// unit for a contraction of two or more inputs over a dimension they
    /// share, whose output keeps a dimension (a matmul, a matrix-vector
    /// product); the vector unit for elementwise work, a pure reduction and
    /// a dot product (a multiply, then a sum to one number).
    pub fn natural_unit(&self) -> crate::ComputeUnit {
        let shared = self
            .contracted_dims()
            .iter()
            .any(|d| self.inputs.iter().filter(|o| o.has(d)).count() >= 2);
        if self.kind == OpKind::Contraction && shared && !self.output.dims.is_empty() {
            crate::ComputeUnit::Matrix
        } else {
            crate::ComputeUnit::Vector
        }
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
}

fn single_input_kind(inputs: &[Operand], output: &Operand) -> OpKind {
    match inputs {
        [only] if only.dims == output.dims => OpKind::Elementwise,
        _ => OpKind::Contraction,
    }
}
