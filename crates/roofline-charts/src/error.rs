//! How a drawing error becomes the `String` every drawing function returns.

/// `e` as the error text of a drawing function.
pub(crate) fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}
