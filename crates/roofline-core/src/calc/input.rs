//! [`CalcInput`]: what the user has entered in the calculator, as the
//! text they typed, and the input that shows a link's state.

use crate::network::Collective;
use crate::op::Shortcut;
use crate::small::{map_of, SmallMap};
use crate::state::CalcState;
use crate::{ComputeUnit, DType, LevelKind, RoofKey};

/// What the user has entered, as text where they type it.
#[derive(Debug, Clone, PartialEq)]
pub struct CalcInput {
    /// Preset chip id.
    pub chip: String,
    /// Peaks the user typed over the preset's, by data type.
    pub peak_edits: SmallMap<DType, String>,
    /// The vector unit's peak the user typed (over the preset's, or where
    /// the preset has none); `None` = the preset's.
    pub vector_edit: Option<String>,
    /// Bandwidths the user typed over the preset's, by level.
    pub bw_edits: SmallMap<LevelKind, String>,
    /// The operation in the book's notation.
    pub op_text: String,
    /// Sizes the user typed, by dimension name (others use defaults).
    pub size_edits: SmallMap<String, String>,
    /// FLOPs per element the user typed, for an operation that sums
    /// nothing; `None` = the operation's default.
    pub per_element: Option<String>,
    /// The data type the math runs at; `None` = the widest input.
    pub compute: Option<DType>,
    /// The unit the math runs on; `None` = the operation's natural one.
    pub unit: Option<ComputeUnit>,
    /// First memory level (results and chart line 1).
    pub level1: LevelKind,
    /// Second memory level (chart line 2), if any.
    pub level2: Option<LevelKind>,
    /// More lines on the chart (after `level2`).
    pub extra_lines: Vec<LevelKind>,
    /// More roofs on the chart.
    pub roofs: Vec<RoofKey>,
    /// Number of chips the contraction is split over (1 = single chip).
    pub chips: String,
    /// The link between chips for the network case.
    pub link: Option<LevelKind>,
    /// The summed dimension split over chips; `None` = `D`, else the first.
    pub shard: Option<String>,
    /// How the chips' partial results are combined.
    pub collective: Collective,
    /// The dimension the batch chart sweeps; `None` = `B`, else the first.
    pub batch_dim: Option<String>,
}

impl Default for CalcInput {
    fn default() -> Self {
        CalcInput {
            chip: "v5e".to_string(),
            peak_edits: SmallMap::new(),
            vector_edit: None,
            bw_edits: SmallMap::new(),
            op_text: Shortcut::MixedMatmul.notation(),
            size_edits: SmallMap::new(),
            per_element: None,
            compute: None,
            unit: None,
            level1: LevelKind::Hbm,
            level2: Some(LevelKind::Vmem),
            extra_lines: Vec::new(),
            roofs: Vec::new(),
            chips: "1".to_string(),
            link: None,
            shard: None,
            collective: Collective::Once,
            batch_dim: None,
        }
    }
}

impl CalcInput {
    /// The input that shows `state` (numbers written as in links).
    pub fn from_state(state: &CalcState) -> CalcInput {
        let num = crate::num::shortest;
        CalcInput {
            chip: state.chip.clone(),
            peak_edits: map_of(state.peak_overrides.iter().map(|(d, v)| (*d, num(*v)))),
            vector_edit: state.vector_override.map(num),
            bw_edits: map_of(state.bw_overrides.iter().map(|(k, v)| (*k, num(*v)))),
            op_text: state.op.clone(),
            size_edits: map_of(state.sizes.iter().map(|(k, v)| (k.clone(), num(*v)))),
            per_element: state.per_element.map(num),
            compute: state.compute,
            unit: state.unit,
            level1: state.level1,
            level2: state.level2,
            extra_lines: state.extra_lines.clone(),
            roofs: state.roofs.clone(),
            chips: state.chips.to_string(),
            link: state.link,
            shard: state.shard.clone(),
            collective: state.collective,
            batch_dim: Some(state.batch_dim.clone()),
        }
    }
}
