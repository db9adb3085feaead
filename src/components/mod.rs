//! The page's components, one per file.

pub mod chip_picker;
pub mod roofline_chart;
