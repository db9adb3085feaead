//! # roofline-core
//!
//! The roofline model of Part 1 of *How To Scale Your Model* ("All About
//! Rooflines"), as pure Rust with no web dependency. Everything Roofline Lab
//! shows is computed here; the browser shell only renders the strings and
//! numbers this crate hands it.
//!
//! *Invariant:* no function in this crate panics on user input; fallible
//! operations return [`Result`] with an error that names the offending field.

pub mod analysis;
pub mod calc;
pub mod collective;
pub mod compare;
pub mod dtype;
pub mod error;
pub mod explain;
pub mod format;
pub mod hardware;
pub mod input;
pub mod learn;
pub mod model;
pub mod network;
pub mod num;
pub mod op;
pub mod pages;
pub mod points;
pub mod query;
pub mod quiz;
pub mod report;
pub mod roofline;
pub mod scale;
pub mod small;
pub mod state;
pub mod sweep;
pub mod url;

pub use analysis::{analyze, critical_size, Analysis, Approx, CriticalSize, Regime, Scenario};
pub use dtype::DType;
pub use error::CoreError;
pub use hardware::{Chip, ComputeUnit, Family, LevelKind, MemLevel, Peak, RoofKey};
pub use network::{network, NetworkAnalysis};
pub use op::{Counts, OpKind, Operand, Operation, ParseError, Shortcut, Sizes};
pub use pages::{AppState, View};
pub use quiz::{check, AnswerKind, CalcSetup, Expected, Part, Question, Unit, Verdict};
pub use report::{ResultRow, Step};
pub use state::{CalcState, ChartScale, QuizState};
pub use sweep::Sweep;
pub use url::{decode, encode, Decoded, Notice};
