//! Making sure the calculator can show a state read from a link: where it
//! cannot, the state falls back step by step, with a notice for each step.

use crate::hardware::preset;
use crate::op::Operation;
use crate::query::notice::Notes;
use crate::state::{default_level2, default_sizes, CalcState};
use crate::LevelKind;

/// Why the calculator cannot show `state`, if it cannot (the same checks
/// the page makes: analysis, critical size, network case).
fn problem(state: &CalcState) -> Option<String> {
    let input = crate::calc::CalcInput::from_state(state);
    let v = crate::calc::evaluate(&input);
    if v.analysis.is_some() && v.chips_error.is_none() {
        return None;
    }
    let field_error = crate::calc::chip_fields(&input)
        .iter()
        .chain(v.size_fields.iter())
        .find_map(|f| f.error.clone());
    Some(
        field_error
            .or(v.op_error)
            .or(v.compute_error)
            .or(v.chips_error)
            .or(v.error)
            .unwrap_or_else(|| "no result".to_string()),
    )
}

/// Makes sure the page can show the decoded state: if it cannot, falls back
/// step by step (the user's chip numbers, the sizes, the operation and its
/// type, the chip count), each with a notice naming what was reset.
pub(crate) fn viable(mut state: CalcState, n: &mut Notes) -> CalcState {
    let Some(why) = problem(&state) else {
        return state;
    };
    let why = crate::format::clip(&why, 80);
    if !state.peak_overrides.is_empty() || !state.bw_overrides.is_empty() {
        let key = state
            .peak_overrides
            .first()
            .map(|(d, _)| format!("peak.{d}"))
            .or_else(|| {
                state
                    .bw_overrides
                    .first()
                    .map(|(k, _)| format!("bw.{}", k.key()))
            })
            .unwrap_or_default();
        state.peak_overrides.clear();
        state.bw_overrides.clear();
        // Levels and types that only the overrides added go too.
        if let Some(chip) = preset(&state.chip) {
            let kinds = chip.level_kinds();
            if !kinds.contains(&state.level1) {
                state.level1 = LevelKind::Hbm;
            }
            if state
                .level2
                .is_some_and(|l| !kinds.contains(&l) || l == state.level1)
            {
                state.level2 = default_level2(&chip, state.level1);
            }
            if state.link.is_some_and(|l| !kinds.contains(&l)) {
                state.link = None;
            }
            let (l1, l2) = (state.level1, state.level2);
            state
                .extra_lines
                .retain(|k| kinds.contains(k) && *k != l1 && Some(*k) != l2);
            if l2.is_none() {
                state.extra_lines.clear();
            }
            let roofs = chip.roofs();
            state.roofs.retain(|r| roofs.contains(r));
            if state.compute.is_some_and(|d| chip.peak(d).is_err()) {
                state.compute = None;
            }
        }
        n.push(
            &key,
            format!("{key}: these chip numbers give no result ({why}); using the preset's"),
        );
        if problem(&state).is_none() {
            return state;
        }
    }
    if let Ok(op) = Operation::parse(&state.op) {
        let defaults = default_sizes(&op);
        if state.sizes != defaults {
            state.sizes = defaults;
            n.push(
                "sz",
                format!("sz: these sizes give no result ({why}); using the default sizes"),
            );
            if problem(&state).is_none() {
                return state;
            }
        }
    }
    if state.chips != 1 {
        state.chips = 1;
        state.link = None;
        state.shard = None;
        n.push(
            "n",
            format!("n: the network case gives no result ({why}); using 1 chip"),
        );
        if problem(&state).is_none() {
            return state;
        }
    }
    let fallback = CalcState {
        chip: state.chip.clone(),
        level2: preset(&state.chip).and_then(|c| default_level2(&c, LevelKind::Hbm)),
        batch_scale: state.batch_scale,
        roofline_scale: state.roofline_scale,
        pairs: state.pairs.clone(),
        ..CalcState::default()
    };
    let fallback = if problem(&fallback).is_none() {
        fallback
    } else {
        CalcState::default()
    };
    n.push(
        "op",
        format!("op: this operation gives no result ({why}); using the default operation"),
    );
    fallback
}
