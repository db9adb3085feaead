//! The calculator's and the quiz's states as plain data, with their
//! defaults: part of what a shareable link carries (the whole state is
//! [`crate::pages::AppState`]; see [`crate::url`] and `docs/url-schema.md`).
//!
//! A state is *valid* when every field satisfies the rule written on it; the
//! link decoder only ever returns valid states, replacing each bad value with
//! its default and saying so. Several defaults depend on other fields (the
//! sizes on the operation, the second level on the chip); the functions that
//! compute them ([`default_sizes`], [`default_level2`], [`default_batch_dim`])
//! are public so the app and the link encoder agree on them.

use crate::small::SmallMap;

use crate::analysis::Scenario;
use crate::hardware::{preset, Chip};
use crate::network::Collective;
use crate::op::{Operation, PerElement, Shortcut, Sizes};
use crate::{ComputeUnit, CoreError, DType, LevelKind, RoofKey};

/// The chip a state starts from (and falls back to).
pub const DEFAULT_CHIP: &str = "v5e";

/// The most chips the network case can split an operation over.
pub const MAX_CHIPS: u32 = 4096;

/// The most (D, F) pairs the batch chart draws.
pub const MAX_PAIRS: usize = 8;

/// The question a quiz starts at.
pub const DEFAULT_QUESTION: &str = "q1";

/// The highest part number accepted when the questions are not known.
pub const MAX_PART: u32 = 100;

/// The scale of the batch chart's axes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ChartScale {
    /// Logarithmic axes (the default).
    #[default]
    Log,
    /// Linear axes.
    Linear,
}

impl ChartScale {
    /// The key used in links: `log` or `lin`.
    pub fn key(self) -> &'static str {
        match self {
            ChartScale::Log => "log",
            ChartScale::Linear => "lin",
        }
    }

    /// Parses a key (`log`, `lin`, `linear`), case-insensitively.
    pub fn from_key(s: &str) -> Option<ChartScale> {
        match s.trim().to_ascii_lowercase().as_str() {
            "log" => Some(ChartScale::Log),
            "lin" | "linear" => Some(ChartScale::Linear),
            _ => None,
        }
    }
}

/// Everything the calculator shows is computed from this.
#[derive(Debug, Clone, PartialEq)]
pub struct CalcState {
    /// Preset id (`v5e`, `h100`, ...; see [`crate::hardware::catalogue`]).
    pub chip: String,
    /// Dense peaks (FLOPs/s) the user set over the preset's, sorted by data
    /// type, one per type, each positive and finite. A type the preset does
    /// not list is added.
    pub peak_overrides: Vec<(DType, f64)>,
    /// The vector unit's peak (FLOPs/s) the user set, over the preset's or
    /// where it has none; positive and finite.
    pub vector_override: Option<f64>,
    /// Bandwidths (bytes/s) the user set over the preset's, sorted by level,
    /// one per level, each positive and finite. A level the preset does not
    /// list is added.
    pub bw_overrides: Vec<(LevelKind, f64)>,
    /// The operation in canonical notation ([`Operation::notation`]), such
    /// as `bf16[B,D] * int8[D,F] -> bf16[B,F]`.
    pub op: String,
    /// The size of every dimension of the operation (no other keys), each
    /// positive and finite, such that [`Operation::counts`] succeeds.
    pub sizes: Sizes,
    /// FLOPs per output element the user set for an operation that sums
    /// nothing ([`Operation::takes_flops_per_element`]), from 1 to
    /// [`crate::op::MAX_FLOPS_PER_ELEMENT`]; `None` = the operation's
    /// default, and always `None` for any other operation.
    pub per_element: Option<f64>,
    /// The data type the math runs at; `None` = the widest input's. When
    /// set, the chip (with overrides) lists a peak for it.
    pub compute: Option<DType>,
    /// The unit the math runs on; `None` = the operation's natural one
    /// ([`Operation::natural_unit`]).
    pub unit: Option<ComputeUnit>,
    /// The first memory level (results and the first chart line); the chip
    /// (with overrides) lists it.
    pub level1: LevelKind,
    /// A second bandwidth line to compare, or none; the chip lists it and it
    /// differs from `level1`. Default: [`default_level2`].
    pub level2: Option<LevelKind>,
    /// More bandwidth lines on the chart, after `level2` (which is then
    /// set): levels the chip lists, none of them `level1` or `level2`, no
    /// two the same. Default: none.
    pub extra_lines: Vec<LevelKind>,
    /// More roofs on the chart, besides the one the math runs under: roofs
    /// the chip has, no two the same. Default: none.
    pub roofs: Vec<RoofKey>,
    /// Chips the contraction is split over: 1 (a single chip, the default)
    /// to [`MAX_CHIPS`].
    pub chips: u32,
    /// The link between chips for the network case (a network level the
    /// chip lists); `None` = the chip's first link ([`CalcState::network_link`]).
    pub link: Option<LevelKind>,
    /// The summed-over dimension split over chips; `None` = `D` if it is
    /// summed over, else the first summed-over dimension ([`CalcState::shard_dim`]).
    pub shard: Option<String>,
    /// How the chips' partial results are combined (the network case).
    pub collective: Collective,
    /// The dimension the batch chart sweeps, a dimension of the operation.
    /// Default: [`default_batch_dim`] (`B`).
    pub batch_dim: String,
    /// The batch chart's axes.
    pub batch_scale: ChartScale,
    /// The roofline chart's axes: log-log (the chapter's figure) or linear.
    pub roofline_scale: ChartScale,
    /// The batch chart's curves: each pair sets the operation's first two
    /// dimensions other than the swept one (D and F for the chapter's
    /// matmuls). One to [`MAX_PAIRS`] pairs, each size positive and finite.
    pub pairs: Vec<(f64, f64)>,
}

/// Where the practice questions are.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct QuizState {
    /// Question id, such as `q1`: an ASCII letter, then up to 23 letters,
    /// digits, `-` or `_`.
    pub question: String,
    /// The part of the question, counted from 1.
    pub part: u32,
    /// The seed of the question's numbers; 0 = the book's own numbers.
    pub seed: u64,
}

impl Default for QuizState {
    fn default() -> Self {
        QuizState {
            question: DEFAULT_QUESTION.to_string(),
            part: 1,
            seed: 0,
        }
    }
}

/// The operation a state starts from: the matmul with int8 weights.
pub const DEFAULT_SHORTCUT: Shortcut = Shortcut::MixedMatmul;

/// The batch chart's pairs by default: D = F = 4096 and D = F = 1024.
pub const DEFAULT_PAIRS: [(f64, f64); 2] = [(4096.0, 4096.0), (1024.0, 1024.0)];

impl Default for CalcState {
    fn default() -> Self {
        let op = DEFAULT_SHORTCUT.operation();
        let level1 = LevelKind::Hbm;
        let level2 = preset(DEFAULT_CHIP).and_then(|c| default_level2(&c, level1));
        CalcState {
            chip: DEFAULT_CHIP.to_string(),
            peak_overrides: Vec::new(),
            vector_override: None,
            bw_overrides: Vec::new(),
            op: op.notation(),
            sizes: default_sizes(&op),
            per_element: None,
            compute: None,
            unit: None,
            level1,
            level2,
            extra_lines: Vec::new(),
            roofs: Vec::new(),
            chips: 1,
            link: None,
            shard: None,
            collective: Collective::Once,
            batch_dim: default_batch_dim(&op),
            batch_scale: ChartScale::Log,
            roofline_scale: ChartScale::Log,
            pairs: DEFAULT_PAIRS.to_vec(),
        }
    }
}

/// The default size of a dimension named `dim`: the chapter's shortcuts'
/// default where the name matches (B = 256, D = F = 4096, N = 10⁶), 4096
/// otherwise.
pub fn default_size(dim: &str) -> f64 {
    for sc in Shortcut::ALL {
        if let Some(v) = sc.default_sizes().get(dim) {
            return *v;
        }
    }
    4096.0
}

/// The default size of every dimension of `op` ([`default_size`]).
pub fn default_sizes(op: &Operation) -> Sizes {
    crate::small::map_of(op.dims().into_iter().map(|d| {
        let v = default_size(&d);
        (d, v)
    }))
}

/// The default second level: the fast on-chip memory (VMEM, else shared
/// memory) if the chip lists it and it is not `level1`; otherwise none.
pub fn default_level2(chip: &Chip, level1: LevelKind) -> Option<LevelKind> {
    let kinds = chip.level_kinds();
    [LevelKind::Vmem, LevelKind::SharedMem]
        .into_iter()
        .find(|k| kinds.contains(k))
        .filter(|k| *k != level1)
}

/// The default dimension of the batch chart: `B` if the operation has it,
/// else its first dimension (`B` for an operation on scalars).
pub fn default_batch_dim(op: &Operation) -> String {
    if op.has_dim("B") {
        return "B".to_string();
    }
    op.dims()
        .into_iter()
        .next()
        .unwrap_or_else(|| "B".to_string())
}

impl CalcState {
    /// The preset with the user's peaks and bandwidths applied.
    pub fn chip(&self) -> Result<Chip, CoreError> {
        let mut chip =
            crate::hardware::customised(&self.chip, &self.peak_overrides, &self.bw_overrides)?;
        if let Some(v) = self.vector_override {
            chip.set_vector(v)?;
        }
        Ok(chip)
    }

    /// The operation, parsed from [`CalcState::op`].
    pub fn operation(&self) -> Result<Operation, CoreError> {
        let mut op = Operation::parse(&self.op)?;
        if op.takes_flops_per_element() {
            op.per_element = self.per_element.map(PerElement);
        }
        Ok(op)
    }

    /// The single-chip scenario against `level1`.
    pub fn scenario(&self) -> Result<Scenario, CoreError> {
        Ok(Scenario {
            chip: self.chip()?,
            op: self.operation()?,
            sizes: self.sizes.clone(),
            compute_dtype: self.compute,
            level: self.level1,
            small_dim: None,
            unit: self.unit,
        })
    }

    /// The link of the network case: the one set, else the chip's first
    /// link between chips (fastest first); `None` if it lists none.
    pub fn network_link(&self, chip: &Chip) -> Option<LevelKind> {
        self.link
            .or_else(|| chip.level_kinds().into_iter().find(|k| k.is_network()))
    }

    /// The dimension split over chips: the one set, else `D` if `op` sums
    /// over it, else the first summed-over dimension; `None` if `op` sums
    /// over nothing.
    pub fn shard_dim(&self, op: &Operation) -> Option<String> {
        if let Some(s) = &self.shard {
            return Some(s.clone());
        }
        let contracted = op.contracted_dims();
        if contracted.iter().any(|d| d == "D") {
            return Some("D".to_string());
        }
        contracted.into_iter().next()
    }

    /// Sets (or, with `None`, removes) the user's peak for `dtype`, keeping
    /// the overrides sorted and unique.
    pub fn set_peak_override(&mut self, dtype: DType, value: Option<f64>) {
        let mut m: SmallMap<DType, f64> = crate::small::map_of(self.peak_overrides.iter().copied());
        match value {
            Some(v) => m.insert(dtype, v),
            None => m.remove(&dtype),
        };
        self.peak_overrides = m.into_iter().collect();
    }

    /// Sets (or, with `None`, removes) the user's bandwidth for `kind`,
    /// keeping the overrides sorted and unique.
    pub fn set_bw_override(&mut self, kind: LevelKind, value: Option<f64>) {
        let mut m: SmallMap<LevelKind, f64> =
            crate::small::map_of(self.bw_overrides.iter().copied());
        match value {
            Some(v) => m.insert(kind, v),
            None => m.remove(&kind),
        };
        self.bw_overrides = m.into_iter().collect();
    }
}

/// Whether `id` has the form of a question id: an ASCII letter, then up to
/// 23 ASCII letters, digits, `-` or `_`.
pub fn is_question_id(id: &str) -> bool {
    let mut c = id.chars();
    match c.next() {
        Some(first) if first.is_ascii_alphabetic() => {
            id.len() <= 24 && c.all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_')
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    #[test]
    fn default_state_analyses() {
        let s = CalcState::default();
        assert_eq!(s.level2, Some(LevelKind::Vmem));
        assert_eq!(s.op, "bf16[B,D] * int8[D,F] -> bf16[B,F]");
        assert_eq!(s.sizes.get("B"), Some(&256.0));
        let sc = s.scenario().unwrap();
        crate::analyze(&sc).unwrap();
        let chip = s.chip().unwrap();
        assert_eq!(s.network_link(&chip), Some(LevelKind::Ici));
        assert_eq!(s.shard_dim(&sc.op).as_deref(), Some("D"));
    }

    #[test]
    fn overrides_apply_and_stay_sorted() {
        let mut s = CalcState::default();
        s.set_bw_override(LevelKind::Pcie, Some(1e10));
        s.set_bw_override(LevelKind::Hbm, Some(1e12));
        s.set_peak_override(DType::Int8, Some(1e15));
        assert_eq!(
            s.bw_overrides,
            vec![(LevelKind::Hbm, 1e12), (LevelKind::Pcie, 1e10)]
        );
        let c = s.chip().unwrap();
        assert_eq!(c.bandwidth(LevelKind::Hbm).unwrap(), 1e12);
        assert_eq!(c.peak(DType::Int8).unwrap(), 1e15);
        s.set_bw_override(LevelKind::Hbm, None);
        assert_eq!(s.bw_overrides, vec![(LevelKind::Pcie, 1e10)]);
    }

    #[test]
    fn defaults_follow_the_operation_and_chip() {
        let dot = Shortcut::DotProduct.operation();
        assert_eq!(default_batch_dim(&dot), "N");
        assert_eq!(default_sizes(&dot).get("N"), Some(&1e6));
        assert_eq!(default_size("seq"), 4096.0);
        let h100 = preset("h100").unwrap();
        assert_eq!(default_level2(&h100, LevelKind::Hbm), None);
        let v5e = preset("v5e").unwrap();
        assert_eq!(default_level2(&v5e, LevelKind::Vmem), None);
        assert!(is_question_id("q1") && is_question_id("warm-up_2"));
        assert!(!is_question_id("1q") && !is_question_id("") && !is_question_id("q 1"));
    }
}
