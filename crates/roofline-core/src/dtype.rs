//! Data types and their sizes in bytes.

use std::fmt;
use std::str::FromStr;

use crate::CoreError;

/// A numeric data type an operand is stored in or the math runs at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DType {
    /// 32-bit IEEE float, 4 bytes.
    Fp32,
    /// bfloat16, 2 bytes.
    Bf16,
    /// IEEE half precision, 2 bytes.
    Fp16,
    /// 8-bit float (e4m3 / e5m2), 1 byte.
    Fp8,
    /// 8-bit integer, 1 byte.
    Int8,
    /// 4-bit float, half a byte.
    Fp4,
    /// 4-bit integer, half a byte.
    Int4,
}

impl DType {
    /// Every data type, widest first.
    pub const ALL: [DType; 7] = [
        DType::Fp32,
        DType::Bf16,
        DType::Fp16,
        DType::Fp8,
        DType::Int8,
        DType::Fp4,
        DType::Int4,
    ];

    /// Size of one element in bytes (int4 and fp4 are half a byte).
    pub fn bytes(self) -> f64 {
        match self {
            DType::Fp32 => 4.0,
            DType::Bf16 | DType::Fp16 => 2.0,
            DType::Fp8 | DType::Int8 => 1.0,
            DType::Fp4 | DType::Int4 => 0.5,
        }
    }

    /// The name used in the book's notation (`bf16`, `int8`, ...).
    pub fn name(self) -> &'static str {
        match self {
            DType::Fp32 => "fp32",
            DType::Bf16 => "bf16",
            DType::Fp16 => "fp16",
            DType::Fp8 => "fp8",
            DType::Int8 => "int8",
            DType::Fp4 => "fp4",
            DType::Int4 => "int4",
        }
    }

    /// Whether this is an integer type (its peak is quoted in OPs/s).
    pub fn is_integer(self) -> bool {
        matches!(self, DType::Int8 | DType::Int4)
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for DType {
    type Err = CoreError;

    /// Parses a data type name; accepts common spellings (`float32`,
    /// `bfloat16`, `f16`, `e4m3`, `i8`, ...), case-insensitively.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        Ok(match t.as_str() {
            "fp32" | "f32" | "float32" | "float" => DType::Fp32,
            "bf16" | "bfloat16" => DType::Bf16,
            "fp16" | "f16" | "float16" | "half" => DType::Fp16,
            "fp8" | "f8" | "float8" | "e4m3" | "e5m2" => DType::Fp8,
            "int8" | "i8" | "s8" | "uint8" | "u8" => DType::Int8,
            "fp4" | "f4" | "float4" | "e2m1" => DType::Fp4,
            "int4" | "i4" | "s4" | "uint4" | "u4" => DType::Int4,
            _ => {
                return Err(CoreError::Invalid(format!(
                    "'{}' is not a data type (try fp32, bf16, fp16, fp8, int8, fp4 or int4)",
                    crate::format::clip(s, 24)
                )))
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_match_the_book() {
        assert_eq!(DType::Bf16.bytes(), 2.0);
        assert_eq!(DType::Int8.bytes(), 1.0);
        assert_eq!(DType::Fp32.bytes(), 4.0);
        assert_eq!(DType::Int4.bytes(), 0.5);
    }

    #[test]
    fn names_round_trip() {
        for d in DType::ALL {
            assert_eq!(d.name().parse::<DType>(), Ok(d));
        }
        assert!("bf17".parse::<DType>().is_err());
    }
}
