//! Writing operations and operands in the book's canonical notation,
//! such as `bf16[B,D] * int8[D,F] -> bf16[B,F]`, which parses back to the
//! same operation.

use std::fmt;

use crate::small::Join;

use super::{Operand, Operation};

impl Operand {
    /// The operand in the book's notation, such as `bf16[B,D]`.
    pub fn notation(&self) -> String {
        let dims: Vec<String> = self
            .dims
            .iter()
            .enumerate()
            .map(|(i, d)| match self.axes.get(i).filter(|a| !a.is_empty()) {
                Some(a) => format!("{d}_{a}"),
                None => d.clone(),
            })
            .collect();
        format!("{}[{}]", self.dtype, dims.joined(","))
    }
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.notation())
    }
}

pub(super) fn shape(dims: &[String]) -> String {
    format!("[{}]", dims.joined(","))
}

impl Operation {
    /// The canonical notation, such as `bf16[B,D] * int8[D,F] -> bf16[B,F]`.
    /// Parsing it gives back the same operation.
    pub fn notation(&self) -> String {
        let sep = format!(" {} ", self.kind.symbol());
        let ins: Vec<String> = self.inputs.iter().map(Operand::notation).collect();
        format!("{} -> {}", ins.joined(&sep), self.output.notation())
    }
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.notation())
    }
}
