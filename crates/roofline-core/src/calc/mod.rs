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
//! [`evaluate`] are here.

mod chip_fields;
mod input;
pub(crate) mod link;
mod network_view;

pub use input::CalcInput;
pub use network_view::{network_view, NetworkView};

use chip_fields::apply_edits;
pub use chip_fields::chip_fields;

use crate::analysis::{analyze, critical_size, Analysis, CriticalSize, Scenario};
use crate::hardware::{preset, Chip};
use crate::input::{parse_positive, parse_size};
use crate::network::{network_with, NetworkAnalysis};
use crate::op::{Operation, PerElement, Sizes, MAX_FLOPS_PER_ELEMENT};
use crate::report::{self, ResultRow, Step};
use crate::small::Join;
use crate::state::{default_batch_dim, default_size, CalcState, ChartScale, MAX_CHIPS};
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

/// Turns the user's input into everything the calculator shows.
pub fn evaluate(input: &CalcInput) -> CalcView {
    let mut view = CalcView {
        chip: None,
        op_error: None,
        op: None,
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
    };
    let chip = apply_edits(input);
    let base = chip.as_ref().ok().cloned().or_else(|| preset(&input.chip));
    if let Some(b) = &base {
        view.compute_options = b.dtypes();
        view.roof_options = b.roofs();
        view.level_options = b.level_kinds();
        view.memory_name = b.memory;
        view.link_options = b
            .level_kinds()
            .into_iter()
            .filter(|k| k.is_network())
            .collect();
        if !view.level_options.contains(&input.level1) {
            view.level1 = LevelKind::Hbm;
        }
        view.level2 = input
            .level2
            .filter(|l| view.level_options.contains(l) && *l != view.level1);
        // More lines only after a second one.
        if view.level2.is_some() {
            view.extra_lines = view
                .level_options
                .iter()
                .copied()
                .filter(|k| {
                    input.extra_lines.contains(k) && *k != view.level1 && Some(*k) != view.level2
                })
                .collect();
        }
    }
    let chip = match chip {
        Ok(c) => Some(c),
        Err(e) => {
            if base.is_none() {
                view.error = Some(e.to_string());
            }
            None
        }
    };
    view.chip = chip.clone();

    let mut op = match Operation::parse(&input.op_text) {
        Ok(op) => Some(op),
        Err(e) => {
            view.op_error = Some(e.to_string());
            None
        }
    };
    let mut per_element_ok = true;
    if let Some(op) = &mut op {
        if let Some(default) = op.default_flops_per_element() {
            let (text, error) = match &input.per_element {
                None => (report::size_text(default), None),
                Some(t) => match parse_per_element(t) {
                    Ok(v) => {
                        op.per_element = Some(PerElement(v));
                        (t.clone(), None)
                    }
                    Err(e) => {
                        per_element_ok = false;
                        (t.clone(), Some(e))
                    }
                },
            };
            view.per_element_field = Some(Field {
                id: "flops-per-element".to_string(),
                label: "FLOPs per element".to_string(),
                text,
                error,
                note: format!(
                    "The math each output element needs: {} by default ({}); more for an exp, a GELU or a softmax.",
                    report::size_text(default),
                    if op.inputs.len() > 1 {
                        "one add per extra input"
                    } else {
                        "one operation, as for a scale or a ReLU"
                    }
                ),
                source: None,
            });
        }
    }
    view.op.clone_from(&op);
    let mut sizes = Sizes::new();
    let mut sizes_ok = true;
    if let Some(op) = &op {
        for dim in op.dims() {
            let label = format!("size of {dim}");
            let field = match input.size_edits.get(&dim) {
                Some(t) => match parse_size(&dim, t) {
                    Ok((v, note)) => {
                        sizes.insert(dim.clone(), v);
                        (t.clone(), None, note.unwrap_or_default())
                    }
                    Err(e) => {
                        sizes_ok = false;
                        (t.clone(), Some(e.to_string()), String::new())
                    }
                },
                None => {
                    let v = default_size(&dim);
                    sizes.insert(dim.clone(), v);
                    (report::size_text(v), None, String::new())
                }
            };
            view.size_fields.push(Field {
                id: format!("size-{dim}"),
                label,
                text: field.0,
                error: field.1,
                note: field.2,
                source: None,
            });
        }
        let dtype = input.compute.unwrap_or_else(|| op.widest_input_dtype());
        view.compute = Some(dtype);
        let asked = input.unit.unwrap_or_else(|| op.natural_unit());
        let unit = chip
            .as_ref()
            .map_or(ComputeUnit::Matrix, |c| c.runs_on(asked));
        view.unit = Some(unit);
        if unit != asked {
            if let Some(c) = &chip {
                view.unit_note = Some(format!(
                    "{} lists no vector-unit peak (none is published), so this runs on the matrix unit",
                    c.name
                ));
            }
        }
        // On the vector unit the data type does not choose the peak.
        if let (Some(c), ComputeUnit::Matrix) = (&chip, unit) {
            if c.peak(dtype).is_err() {
                view.compute_error = Some(format!(
                    "{} lists no {} peak; choose one of {}",
                    c.name,
                    dtype,
                    c.dtypes()
                        .iter()
                        .map(|d| d.name())
                        .collect::<Vec<_>>()
                        .joined(", ")
                ));
            }
        }
    }
    let chips = match parse_positive("chips", &input.chips) {
        Ok(n) if n.fract() == 0.0 && n <= MAX_CHIPS as f64 => Some(n as u32),
        Ok(_) => {
            view.chips_error = Some(format!("chips: enter a whole number from 1 to {MAX_CHIPS}"));
            None
        }
        Err(e) => {
            view.chips_error = Some(e.to_string());
            None
        }
    };
    if let Some(op) = &op {
        view.dim_options = op.dims();
        view.batch_dim = input
            .batch_dim
            .clone()
            .filter(|d| op.has_dim(d))
            .unwrap_or_else(|| default_batch_dim(op));
        view.shard_options = op.contracted_dims();
        view.shard = input
            .shard
            .clone()
            .filter(|d| view.shard_options.contains(d))
            .or_else(|| {
                if view.shard_options.iter().any(|d| d == "D") {
                    Some("D".to_string())
                } else {
                    view.shard_options.first().cloned()
                }
            });
    }
    view.op = op.clone();

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
    let critical = analysis
        .small_dim
        .clone()
        .and_then(|d| critical_size(&scenario, &d).ok().map(|c| (d, c)));
    view.rows = report::rows(&analysis, critical.as_ref().map(|(d, c)| (d.as_str(), c)));
    // On the vector unit, the chapter's comparison (with the matrix unit's
    // peak) beside the one that applies.
    if analysis.unit == ComputeUnit::Vector {
        if let Ok(p) = scenario.chip.peak(analysis.compute_dtype) {
            let row = report::matrix_comparison_row(&analysis, analysis.compute_dtype, p);
            let at = view
                .rows
                .iter()
                .position(|r| r.key == "critical-intensity")
                .map_or(view.rows.len(), |i| i + 1);
            view.rows.insert(at, row);
        }
    }
    let main = analysis.roof();
    view.roofs = view
        .roof_options
        .iter()
        .copied()
        .filter(|r| input.roofs.contains(r) && *r != main)
        .collect();
    view.regime = Some(report::regime_row(&analysis));
    view.peak_note = report::sparse_note(&scenario.chip, &analysis);
    view.critical = critical;
    if chips > 1 {
        let link = input
            .link
            .filter(|l| view.link_options.contains(l))
            .or_else(|| view.link_options.first().copied());
        let shard = view.shard.clone();
        match (link, shard) {
            (Some(link), Some(shard)) => {
                match network_with(&scenario, &shard, chips, link, input.collective) {
                    Ok(n) => view.network = Some(n),
                    Err(e) => view.chips_error = Some(e.to_string()),
                }
            }
            (None, _) => {
                view.chips_error = Some(format!(
                    "{} lists no link between chips",
                    scenario.chip.name
                ))
            }
            (_, None) => view.chips_error = Some(
                "this operation sums over no dimension, so there is nothing to split over chips"
                    .to_string(),
            ),
        }
    }
    view.analysis = Some(analysis);
    view.scenario = Some(scenario);
    view
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

/// FLOPs per element as typed: a number from 1 to
/// [`MAX_FLOPS_PER_ELEMENT`], or why not.
fn parse_per_element(text: &str) -> Result<f64, String> {
    let field = "FLOPs per element";
    match parse_positive(field, text) {
        Ok(v) if v <= MAX_FLOPS_PER_ELEMENT => Ok(v),
        Ok(_) => Err(format!(
            "{field}: at most {}",
            report::size_text(MAX_FLOPS_PER_ELEMENT)
        )),
        Err(e) => Err(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;
    use crate::op::Shortcut;

    #[test]
    fn default_input_gives_results() {
        let v = evaluate(&CalcInput::default());
        let a = v.analysis.unwrap();
        // bf16[B,D] * int8[D,F] -> bf16[B,F] at B=256, D=F=4096, by hand:
        let (b, d, f) = (256.0, 4096.0, 4096.0);
        assert_eq!(a.flops, 2.0 * b * d * f);
        assert_eq!(a.bytes, 2.0 * b * d + d * f + 2.0 * b * f);
        assert_eq!(v.size_fields.len(), 3);
        assert_eq!(v.level2, Some(LevelKind::Vmem));
        assert!(v.rows.iter().any(|r| r.key == "critical-batch"));
    }

    #[test]
    fn derivation_is_the_reports_steps_then_the_networks() {
        let v = evaluate(&CalcInput::default());
        let (s, a) = (v.scenario.as_ref().unwrap(), v.analysis.as_ref().unwrap());
        assert_eq!(v.derivation(), report::derivation(s, a));
        assert!(!v.derivation().is_empty());

        let two = evaluate(&CalcInput {
            chips: "2".into(),
            ..CalcInput::default()
        });
        let (s, a) = (
            two.scenario.as_ref().unwrap(),
            two.analysis.as_ref().unwrap(),
        );
        let n = two.network.as_ref().unwrap();
        let mut want = report::derivation(s, a);
        want.extend(report::network_steps(s, n));
        assert_eq!(two.derivation(), want);
        assert!(two.derivation().len() > v.derivation().len());

        // Without results there is nothing to derive.
        let mut bad = CalcInput::default();
        bad.size_edits.insert("D".into(), "-5".into());
        assert!(evaluate(&bad).derivation().is_empty());
    }

    #[test]
    fn a_typed_vector_peak_times_elementwise_work_on_the_vector_unit() {
        let add = |vector: Option<&str>| CalcInput {
            chip: "v6e".into(),
            op_text: Shortcut::ElementwiseAdd.notation(),
            vector_edit: vector.map(str::to_string),
            ..CalcInput::default()
        };
        let field = |i: &CalcInput| {
            chip_fields(i)
                .into_iter()
                .find(|f| f.id == "peak-vector")
                .unwrap()
        };
        // Google publishes none for v6e: an empty field that says so, and
        // the fp32 add on the matrix unit, which has no fp32 peak there.
        let v = evaluate(&add(None));
        let f = field(&add(None));
        assert_eq!(f.text, "");
        assert!(
            f.note.contains("publishes no vector-unit figure"),
            "{}",
            f.note
        );
        assert!(v.analysis.is_none() && v.compute_error.is_some());
        assert_eq!(v.unit, Some(ComputeUnit::Matrix));
        // Typed: the add runs on it, timed by it.
        let v = evaluate(&add(Some("2e13")));
        let a = v.analysis.as_ref().unwrap();
        assert_eq!(a.unit, ComputeUnit::Vector);
        assert_eq!(a.t_math, a.flops / 2e13);
        assert_eq!(field(&add(Some("2e13"))).note, crate::hardware::USER);
        let state = v
            .to_state(&add(Some("2e13")), &[], ChartScale::Log, ChartScale::Log)
            .unwrap();
        assert_eq!(state.vector_override, Some(2e13));
        assert_eq!(
            CalcInput::from_state(&state).vector_edit.as_deref(),
            Some("2e13")
        );
        // Bad text: an error on the field, no results; blank: the preset's.
        let v = evaluate(&add(Some("fast")));
        assert!(field(&add(Some("fast"))).error.is_some());
        assert!(v.analysis.is_none());
        let v = evaluate(&add(Some(" ")));
        assert!(field(&add(Some(" "))).error.is_none());
        assert_eq!(v.unit, Some(ComputeUnit::Matrix));
        // Over a preset's figure (v5e's derived one): the typed one wins.
        let v = evaluate(&CalcInput {
            op_text: Shortcut::ElementwiseAdd.notation(),
            vector_edit: Some("1e13".into()),
            ..CalcInput::default()
        });
        assert_eq!(v.chip.unwrap().vector.unwrap().dense, 1e13);
    }

    #[test]
    fn bad_fields_get_their_own_message() {
        let mut i = CalcInput::default();
        i.size_edits.insert("D".into(), "-5".into());
        let v = evaluate(&i);
        assert!(v.analysis.is_none());
        let f = v.size_fields.iter().find(|f| f.id == "size-D").unwrap();
        assert!(f.error.as_ref().unwrap().contains("greater than zero"));

        let i = CalcInput {
            op_text: "bf16[B,D * int8[D,F] -> bf16[B,F]".into(),
            ..CalcInput::default()
        };
        let v = evaluate(&i);
        assert!(v.op_error.is_some() && v.analysis.is_none());

        let mut i = CalcInput::default();
        i.bw_edits.insert(LevelKind::Hbm, "abc".into());
        let v = evaluate(&i);
        let f = chip_fields(&i)
            .into_iter()
            .find(|f| f.id == "bw-hbm")
            .unwrap();
        assert!(f.error.is_some() && v.analysis.is_none());
    }

    #[test]
    fn edits_change_the_numbers() {
        let mut i = CalcInput::default();
        i.bw_edits.insert(LevelKind::Hbm, "1.97e12".into());
        let a = evaluate(&i).analysis.unwrap();
        assert!((a.critical_intensity - 100.0).abs() < 1e-9);
    }

    #[test]
    fn network_case_matches_the_books_two_chip_example() {
        let i = CalcInput {
            op_text: "bf16[B,D] * bf16[D,F] -> bf16[B,F]".into(),
            chips: "2".into(),
            ..CalcInput::default()
        };
        let v = evaluate(&i);
        let n = v.network.unwrap();
        let (b, d, f) = (256.0, 4096.0, 4096.0);
        assert!((n.t_math - b * d * f / 1.97e14).abs() / n.t_math < 1e-12);
        assert!((n.t_comms - 2.0 * b * f / 4.5e10).abs() / n.t_comms < 1e-12);
    }

    #[test]
    fn state_round_trips_through_the_input() {
        use crate::state::AppState;
        use crate::url::{decode, encode};
        let d = decode("v=1&chip=h100&sz=B:64,D:8192,F:8192&dt=fp8&bw.hbm=3e12&n=2&pairs=512x512");
        assert!(d.notices.is_empty(), "{:?}", d.notices);
        let input = CalcInput::from_state(&d.state.calc);
        let view = evaluate(&input);
        let back = view
            .to_state(
                &input,
                &d.state.calc.pairs,
                d.state.calc.batch_scale,
                d.state.calc.roofline_scale,
            )
            .unwrap();
        assert_eq!(back, d.state.calc);
        let app = AppState {
            calc: back,
            ..d.state.clone()
        };
        assert_eq!(encode(&app), encode(&d.state));
        // The default input is the default state.
        let def = CalcInput::default();
        let v = evaluate(&def);
        let st = v
            .to_state(
                &def,
                &crate::state::DEFAULT_PAIRS,
                ChartScale::Log,
                ChartScale::Log,
            )
            .unwrap();
        assert_eq!(st, CalcState::default());
    }

    #[test]
    fn gpu_levels_fall_back() {
        let i = CalcInput {
            chip: "h100".into(),
            ..CalcInput::default()
        };
        let v = evaluate(&i);
        assert_eq!(v.level2, None, "H100 has no VMEM");
        assert!(v.analysis.is_some());
    }
}
