//! The operations the chapter works through, as [`Shortcut`]s to pick,
//! each with its link key, label and default sizes.

use crate::DType;

use super::{OpKind, Operand, Operation, Sizes};

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
            per_element: None,
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
}
