//! The page's components, one per file.

pub mod batch_chart;
pub mod chip_panel;
pub mod choice;
pub mod chunk_view;
pub mod compare_panel;
pub mod compare_table;
pub mod derivation;
pub mod field;
pub mod learn_figure;
pub mod learn_loader;
pub mod learn_page;
pub mod levels_panel;
pub mod link_bar;
pub mod measure_panel;
pub mod measurements;
pub mod op_panel;
pub mod point_table;
pub mod points_chart;
pub mod quiz_chart;
pub mod quiz_loader;
pub mod quiz_page;
pub mod quiz_part;
pub mod results;
pub mod roofline_chart;
pub mod shown;
pub mod why;
