//! Errors of the core, each naming the field or place that caused it.

use std::fmt;

/// An error from the core. Its `Display` text is written for a learner and
/// names the field (or the place in a notation) that caused it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CoreError {
    /// A numeric field is not a positive, finite number.
    NotPositive {
        /// The field's name as shown to the user.
        field: String,
        /// The text that was given.
        given: String,
    },
    /// A chip has no peak for the requested data type.
    NoPeak {
        /// The chip's display name.
        chip: String,
        /// The data type's name.
        dtype: String,
    },
    /// A chip has no memory level of the requested kind.
    NoLevel {
        /// The chip's display name.
        chip: String,
        /// The level's name.
        level: String,
    },
    /// Anything else, with a message ready to show.
    Invalid(String),
}

impl fmt::Display for CoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoreError::NotPositive { field, given } => {
                write!(f, "{field}: '{given}' is not a positive, finite number")
            }
            CoreError::NoPeak { chip, dtype } => {
                write!(f, "{chip} has no listed peak for {dtype}")
            }
            CoreError::NoLevel { chip, level } => {
                write!(f, "{chip} has no listed {level} bandwidth")
            }
            CoreError::Invalid(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for CoreError {}

/// Checks that `value` is positive and finite, else names `field` in the error.
pub fn positive(field: &str, value: f64) -> Result<f64, CoreError> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(CoreError::NotPositive {
            field: field.to_string(),
            given: crate::format::plain_number(value),
        })
    }
}
