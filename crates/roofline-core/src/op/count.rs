//! What an operation costs: its FLOPs and bytes at given sizes
//! ([`Counts`]), and the same counts as affine functions of one dimension
//! ([`LinearCounts`]). The rules are in the documentation of [`crate::op`].

use crate::format::{clip, plain_number};
use crate::small::{Join, SmallMap};
use crate::CoreError;

use super::{operand_name, OpKind, Operation, Sizes};

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

impl Operation {
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
        let (flops, exact) = match (self.flops_per_element(), self.kind) {
            (Some(p), _) => {
                let f = out.scale(p);
                (f, f)
            }
            (None, OpKind::Elementwise) => {
                let f = out.scale(k - 1.0);
                (f, f)
            }
            (None, OpKind::Contraction) if n == 1 => {
                let f = out.times(&t.plus(&minus_one));
                (f, f)
            }
            (None, OpKind::Contraction) => (
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;
    use crate::op::Shortcut;

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
    fn single_input_kinds() {
        // One input, the same shape: one operation per element by
        // default (a cast, a scale, a ReLU), or what the user sets.
        let mut copy = Operation::parse("fp32[N] -> bf16[N]").unwrap();
        assert_eq!(copy.kind, OpKind::Elementwise);
        let c = copy.counts(&sizes(&[("N", 10.0)])).unwrap();
        assert_eq!(c.flops, 10.0);
        assert_eq!(c.bytes(), 60.0);
        copy.per_element = Some(crate::op::PerElement(8.0));
        let c = copy.counts(&sizes(&[("N", 10.0)])).unwrap();
        assert_eq!((c.flops, c.flops_exact_adds), (80.0, 80.0));
        // A transpose sums nothing either.
        let t = Operation::parse("bf16[B,D] -> bf16[D,B]").unwrap();
        assert_eq!(t.default_flops_per_element(), Some(1.0));
        // Two inputs: one add per element by default.
        let add = Shortcut::ElementwiseAdd.operation();
        assert_eq!(add.default_flops_per_element(), Some(1.0));
        assert_eq!(Shortcut::Matmul.operation().flops_per_element(), None);

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
