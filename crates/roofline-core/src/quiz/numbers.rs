//! The number types `evalexpr` evaluates formulas with: `i64` for whole
//! numbers, as evalexpr's own default does, and [`Float`], an `f64` whose
//! text is read by [`crate::num::parse_f64`] rather than std's parser. In
//! the browser that keeps std's float parser (about 13 KB gzip) out of the
//! quiz chunk as well; see `crate::num`.

use std::fmt;
use std::ops::{Add, Div, Mul, Neg, Rem, Sub};
use std::str::FromStr;

use evalexpr::{EvalexprError, EvalexprFloat, EvalexprNumericTypes, EvalexprResult};

use crate::num::parse_f64;

/// evalexpr's numeric types for the quiz: `i64` and [`Float`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Numbers;

impl EvalexprNumericTypes for Numbers {
    type Int = i64;
    type Float = Float;

    fn int_as_float(int: &i64) -> Float {
        Float(*int as f64)
    }

    fn float_as_int(float: &Float) -> i64 {
        float.0 as i64
    }
}

/// An `f64` for evalexpr, read from text by [`parse_f64`].
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub(crate) struct Float(pub(crate) f64);

impl fmt::Display for Float {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl FromStr for Float {
    type Err = ();

    fn from_str(text: &str) -> Result<Float, ()> {
        parse_f64(text).map(Float).ok_or(())
    }
}

/// `impl Op for Float` by the same operator on the `f64`s.
macro_rules! binary_ops {
    ($($op:ident $method:ident),*) => {$(
        impl $op for Float {
            type Output = Float;

            fn $method(self, rhs: Float) -> Float {
                Float($op::$method(self.0, rhs.0))
            }
        }
    )*};
}

binary_ops!(Add add, Sub sub, Mul mul, Div div, Rem rem);

impl Neg for Float {
    type Output = Float;

    fn neg(self) -> Float {
        Float(-self.0)
    }
}

/// Methods of [`EvalexprFloat`] that are the `f64` method of the same name,
/// with no argument or one more `Float`.
macro_rules! same_as_f64 {
    (unary: $($m:ident),*; binary: $($b:ident),*; test: $($t:ident),*) => {
        $(fn $m(&self) -> Float { Float(self.0.$m()) })*
        $(fn $b(&self, other: &Float) -> Float { Float(self.0.$b(other.0)) })*
        $(fn $t(&self) -> bool { self.0.$t() })*
    };
}

impl EvalexprFloat<Numbers> for Float {
    const MIN: Float = Float(f64::NEG_INFINITY);
    const MAX: Float = Float(f64::INFINITY);

    // `^` in a formula: the quiz chunk may carry libm's pow (clippy.toml).
    #[allow(clippy::disallowed_methods)]
    fn pow(&self, exponent: &Float) -> Float {
        Float(self.0.powf(exponent.0))
    }

    same_as_f64! {
        unary: ln, log2, log10, exp, exp2, cos, cosh, acos, acosh, sin, sinh, asin, asinh,
            tan, tanh, atan, atanh, sqrt, cbrt, floor, round, ceil, abs;
        binary: log, atan2, hypot, min, max;
        test: is_nan, is_finite, is_infinite, is_normal
    }

    fn random() -> EvalexprResult<Float, Numbers> {
        Err(EvalexprError::RandNotEnabled)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_are_read_like_std() {
        for text in ["2e0", "0.5", "1.97e14", "7", ".25"] {
            assert_eq!(
                text.parse::<Float>(),
                Ok(Float(text.parse::<f64>().unwrap_or(f64::NAN)))
            );
        }
        assert_eq!("2e".parse::<Float>(), Err(()));
    }

    #[test]
    fn formulas_evaluate_with_these_types() {
        let value = super::super::answer::Compiled::new("(((2e0 * B) / 4) - 0.5)")
            .and_then(|f| f.eval(&[("B".to_string(), 3.0)]));
        assert_eq!(value, Ok(1.0));
    }
}
