//! The first load: the calculator page and the pieces every page shares.
//! Everything here is in the main wasm module, which opening the app
//! downloads (within the limit of `tests/size-budget.json`, with its page and glue); code that only
//! a later page or panel needs belongs in a folder of `crate::chunks`.

pub mod address;
pub mod app;
pub mod backend;
pub mod calculator;
pub mod canvas;
pub mod chart_figure;
pub mod check_list;
pub mod chip_panel;
pub mod choice;
pub mod chunk_view;
pub mod download;
pub mod field;
pub mod later;
pub mod levels_panel;
pub mod link_bar;
pub mod op_panel;
pub mod pages;
pub mod prerender;
pub mod results;
pub mod roofline_chart;
pub mod rows;
pub mod shown;
pub mod signals;
pub mod tabs;
pub mod why;
