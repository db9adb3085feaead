//! The calculator's view model: raw field text in, every string the page
//! shows out (crux style: the shell only renders this).
//!
//! Each field's error is reported next to that field; when anything is
//! invalid the results are `None` and the page keeps showing the last valid
//! ones.
//!
//! The input ([`CalcInput`]) is in `input.rs`, the chip's fields and the
//! user's edits to them in `chip_fields.rs`, the network roofline's rows
//! ([`NetworkView`]) in `network_view.rs`; the view itself and
//! [`evaluate`] are here, its steps in `chip.rs` (the chip, its options
//! and levels), `operation.rs` (the operation, its fields, its math),
//! `chips.rs` (the chip count, the network roofline) and `results.rs` (the
//! rows).

mod chip;
mod chip_fields;
mod chips;
mod input;
pub(crate) mod link;
mod network_view;
mod operation;
mod results;
#[cfg(test)]
mod tests;

pub use input::CalcInput;
pub use network_view::{network_view, NetworkView};

pub use chip_fields::chip_fields;

/// Over the results when the operation is split over chips: they are the
/// operation unsplit, and the one verdict is the per-chip section's.
pub const WHOLE_ON_ONE_CHIP: &str =
    "The whole operation on one chip, before the split (no verdict: the split decides, below)";

/// The per-chip section's heading: `Per chip: 2 chips over ICI`.
pub fn per_chip_heading(chips: u32, link: &str) -> String {
    format!("Per chip: the operation split over {chips} chips, linked by {link}")
}

use crate::analysis::{analyze, Analysis, CriticalSize, Scenario};
use crate::hardware::{preset, Chip};
use crate::network::NetworkAnalysis;
use crate::op::{Operation, Sizes};
use crate::report::{self, ResultRow, Step};
use crate::state::{CalcState, ChartScale};
use crate::{ComputeUnit, DType, LevelKind, RoofKey};

/// One editable field with its current text and, if invalid, its message.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// Stable id (`size-B`, `peak-bf16`, `bw-hbm`, ...).
    pub id: String,
    /// Label shown next to the input.
    pub label: String,
    /// The text in the input: the user's, or the default formatted.
    pub text: String,
    /// Why the text is not accepted, if it is not.
    pub error: Option<String>,
    /// A line under the field (a unit, the sparse figure, "set by you").
    pub note: String,
    /// Where a preset number comes from (its text: `Source::text`).
    pub source: Option<crate::hardware::Source>,
}

/// Everything the calculator shows.
#[derive(Debug, Clone, PartialEq)]
pub struct CalcView {
    /// The chip with the user's edits applied, if they are valid.
    pub chip: Option<Chip>,
    /// Why the notation is not accepted, if it is not.
    pub op_error: Option<String>,
    /// The parsed operation, if valid.
    pub op: Option<Operation>,
    /// Under the notation, for an operation in the book's sharded notation
    /// (`B_X`): which dimensions are split over which axes, and that the
    /// calculator counts the whole operation.
    pub sharded_note: Option<String>,
    /// One size field per dimension of the operation.
    pub size_fields: Vec<Field>,
    /// The FLOPs-per-element field, for an operation that sums nothing
    /// ([`Operation::takes_flops_per_element`]).
    pub per_element_field: Option<Field>,
    /// Data types the chip can run the math at.
    pub compute_options: Vec<DType>,
    /// The data type the math runs at.
    pub compute: Option<DType>,
    /// Error about the compute type (for example, no peak for it).
    pub compute_error: Option<String>,
    /// The unit the math runs on (the one chosen, else the operation's
    /// natural one; the matrix unit when the chip has no vector figure).
    pub unit: Option<ComputeUnit>,
    /// Why the unit is not the one asked for, when it is not.
    pub unit_note: Option<String>,
    /// Levels the chip has (for the BW1 / BW2 selectors).
    pub level_options: Vec<LevelKind>,
    /// What the chip calls its main memory (`HBM`, `GDDR6X`).
    pub memory_name: &'static str,
    /// Under the chip, when the peak in use has a sparse figure on the
    /// vendor's sheet: the dense peak, the sparse one, and the critical
    /// intensity each gives (the discussion's RTX 3090 number came from the
    /// sparse one).
    pub peak_note: Option<String>,
    /// The levels in use.
    pub level1: LevelKind,
    /// The second level in use, if any.
    pub level2: Option<LevelKind>,
    /// More lines in use (levels the chip lists, after `level2`, in the
    /// chip's order, fastest first).
    pub extra_lines: Vec<LevelKind>,
    /// The roofs the chip has (matrix peaks widest first, then the vector
    /// unit's).
    pub roof_options: Vec<RoofKey>,
    /// More roofs drawn, in the order of `roof_options`, none of them the
    /// one the math runs under.
    pub roofs: Vec<RoofKey>,
    /// Error about the chip count.
    pub chips_error: Option<String>,
    /// Links the chip has for the network case.
    pub link_options: Vec<LevelKind>,
    /// Summed dimensions that can be split over chips.
    pub shard_options: Vec<String>,
    /// The dimension split over chips.
    pub shard: Option<String>,
    /// Every dimension of the operation (for the batch chart's sweep).
    pub dim_options: Vec<String>,
    /// The dimension the batch chart sweeps.
    pub batch_dim: String,
    /// The scenario, if every field is valid.
    pub scenario: Option<Scenario>,
    /// The analysis against level 1.
    pub analysis: Option<Analysis>,
    /// Result rows (keys as in [`report::rows`]).
    pub rows: Vec<ResultRow>,
    /// The regime key (`compute` / `bandwidth`) and sentence.
    pub regime: Option<(&'static str, String)>,
    /// The critical size of the small dimension, if any.
    pub critical: Option<(String, CriticalSize)>,
    /// The network roofline when more than one chip is chosen.
    pub network: Option<NetworkAnalysis>,
    /// A general error not tied to one field.
    pub error: Option<String>,
}

/// Turns the user's input into everything the calculator shows: the chip
/// and its options, the operation and its fields, the chip count, then,
/// when every field reads, the analysis, its rows and the network roofline.
pub fn evaluate(input: &CalcInput) -> CalcView {
    let mut view = empty(input);
    let chip = chip::chip(&mut view, input);
    let (op, per_element_ok) = operation::parse(&mut view, input);
    view.op.clone_from(&op);
    let (sizes, sizes_ok) = match &op {
        Some(op) => {
            let sizes = operation::sizes(&mut view, input, op);
            operation::math(&mut view, input, op, chip.as_ref());
            sizes
        }
        None => (Sizes::new(), true),
    };
    let chips = chips::count(&mut view, input);
    if let Some(op) = &op {
        operation::dims(&mut view, input, op);
    }

    let (Some(chip), Some(op), true, true, None, Some(chips)) = (
        chip,
        op,
        sizes_ok,
        per_element_ok,
        &view.compute_error,
        chips,
    ) else {
        return view;
    };
    let scenario = Scenario {
        chip,
        op,
        sizes,
        compute_dtype: view.compute,
        level: view.level1,
        small_dim: None,
        unit: view.unit,
    };
    let analysis = match analyze(&scenario) {
        Ok(a) => a,
        Err(e) => {
            view.error = Some(e.to_string());
            return view;
        }
    };
    results::results(&mut view, input, &scenario, &analysis);
    if chips > 1 {
        chips::network(&mut view, input, &scenario, chips);
    }
    view.analysis = Some(analysis);
    view.scenario = Some(scenario);
    view
}

/// The view before anything is read: no results, the levels as typed.
fn empty(input: &CalcInput) -> CalcView {
    CalcView {
        chip: None,
        op_error: None,
        op: None,
        sharded_note: None,
        size_fields: Vec::new(),
        per_element_field: None,
        compute_options: Vec::new(),
        compute: None,
        compute_error: None,
        unit: None,
        unit_note: None,
        level_options: Vec::new(),
        memory_name: "HBM",
        peak_note: None,
        level1: input.level1,
        level2: input.level2,
        extra_lines: Vec::new(),
        roof_options: Vec::new(),
        roofs: Vec::new(),
        chips_error: None,
        link_options: Vec::new(),
        shard_options: Vec::new(),
        shard: None,
        dim_options: Vec::new(),
        batch_dim: "B".to_string(),
        scenario: None,
        analysis: None,
        rows: Vec::new(),
        regime: None,
        critical: None,
        network: None,
        error: None,
    }
}

impl CalcView {
    /// The derivation, step by step: the chapter's formulas with this
    /// evaluation's numbers, then the network's steps when there are several
    /// chips; empty without results. Computed on demand (the page's
    /// derivation is below the first view, in a chunk of its own).
    pub fn derivation(&self) -> Vec<Step> {
        let (Some(s), Some(a)) = (&self.scenario, &self.analysis) else {
            return Vec::new();
        };
        let mut steps = report::derivation(s, a);
        if let Some(n) = &self.network {
            // Split over chips, the steps above are the operation unsplit:
            // each says so, and the per-chip steps below decide.
            for st in &mut steps {
                st.title = format!("Unsplit, on one chip: {}", st.title);
            }
            steps.extend(report::network_steps(s, n));
        }
        steps
    }
}

impl CalcView {
    /// The bandwidth lines drawn, in order: the first level (results), the
    /// second, then the others chosen.
    pub fn lines(&self) -> Vec<LevelKind> {
        std::iter::once(self.level1)
            .chain(self.level2)
            .chain(self.extra_lines.iter().copied())
            .collect()
    }

    /// The link state of this view, if it is valid: what the user sees, with
    /// the batch chart's `pairs` and axes and the roofline chart's axes.
    /// `None` while a field is invalid.
    pub fn to_state(
        &self,
        input: &CalcInput,
        pairs: &[(f64, f64)],
        scale: ChartScale,
        roofline_scale: ChartScale,
    ) -> Option<CalcState> {
        let s = self.scenario.as_ref()?;
        let chips = self.network.as_ref().map_or(1, |n| n.chips);
        let base = preset(&input.chip)?;
        let peak_overrides = s
            .chip
            .peaks
            .iter()
            .filter(|p| base.peak(p.dtype).ok() != Some(p.dense))
            .map(|p| (p.dtype, p.dense))
            .collect();
        let bw_overrides = s
            .chip
            .levels
            .iter()
            .filter(|l| base.bandwidth(l.kind).ok() != Some(l.bandwidth))
            .map(|l| (l.kind, l.bandwidth))
            .collect();
        let vector_override = s
            .chip
            .vector
            .as_ref()
            .map(|v| v.dense)
            .filter(|v| base.vector.as_ref().map(|b| b.dense) != Some(*v));
        Some(CalcState {
            chip: input.chip.clone(),
            peak_overrides,
            vector_override,
            bw_overrides,
            op: s.op.notation(),
            sizes: s.sizes.clone(),
            per_element: s.op.per_element.map(|p| p.0),
            compute: input.compute,
            unit: input.unit,
            level1: self.level1,
            level2: self.level2,
            extra_lines: self.extra_lines.clone(),
            roofs: self.roofs.clone(),
            chips,
            link: input.link,
            shard: input
                .shard
                .clone()
                .filter(|d| self.shard_options.contains(d)),
            collective: input.collective,
            batch_dim: self.batch_dim.clone(),
            batch_scale: scale,
            roofline_scale,
            pairs: pairs.to_vec(),
        })
    }
}
