//! The text style every chart label, tick and title is drawn in.

use plotters::prelude::*;

/// Sans-serif text of `size` backend pixels in `color`.
pub(crate) fn text_style_scaled(size: f64, color: RGBColor) -> TextStyle<'static> {
    TextStyle {
        color: color.to_backend_color(),
        // The family as the enum: plotters reads a family name with
        // `str::to_lowercase`, which links the Unicode case table (12 KB).
        ..TextStyle::from((FontFamily::SansSerif, size).into_font())
    }
}
