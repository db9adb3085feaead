//! The calculator's results, once every field reads: the result rows (with
//! the matrix unit's comparison on the vector unit), the roofs drawn, the
//! regime, the sparse peak's note and the critical size.

use super::{CalcInput, CalcView};
use crate::analysis::{critical_size, Analysis, Scenario};
use crate::report;
use crate::ComputeUnit;

/// Fills `view`'s results for `scenario` and its analysis.
pub(super) fn results(
    view: &mut CalcView,
    input: &CalcInput,
    scenario: &Scenario,
    analysis: &Analysis,
) {
    let critical = analysis
        .small_dim
        .clone()
        .and_then(|d| critical_size(scenario, &d).ok().map(|c| (d, c)));
    view.rows = report::rows(analysis, critical.as_ref().map(|(d, c)| (d.as_str(), c)));
    // On the vector unit, the chapter's comparison (with the matrix unit's
    // peak) beside the one that applies.
    if analysis.unit == ComputeUnit::Vector {
        if let Ok(p) = scenario.chip.peak(analysis.compute_dtype) {
            let row = report::matrix_comparison_row(analysis, analysis.compute_dtype, p);
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
    view.regime = Some(report::regime_row(analysis));
    view.peak_note = report::sparse_note(&scenario.chip, analysis);
    view.critical = critical;
}
