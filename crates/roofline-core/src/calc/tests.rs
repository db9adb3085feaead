//! The calculator's tests: results, fields and their errors, the link's
//! state.

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
    // The unsplit steps say so over chips.
    let mut want = report::derivation(s, a);
    for st in &mut want {
        st.title = format!("Unsplit, on one chip: {}", st.title);
    }
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

/// A sharded op in the book's notation is counted whole, with the sizes
/// of its plain dimensions, and the note says which axes split what.
#[test]
fn a_sharded_op_counts_whole_and_says_so() {
    let plain = evaluate(&CalcInput::default());
    assert_eq!(plain.sharded_note, None);
    let text = plain.op.as_ref().unwrap().notation();
    let sharded = text.replacen("[B,", "[B_X,", 2);
    assert_ne!(sharded, text);
    let v = evaluate(&CalcInput {
        op_text: sharded,
        ..CalcInput::default()
    });
    assert_eq!(v.rows, plain.rows);
    let ids: Vec<&str> = v.size_fields.iter().map(|f| f.id.as_str()).collect();
    assert!(
        ids.contains(&"size-B") && !ids.iter().any(|i| i.contains('_')),
        "{ids:?}"
    );
    let note = v.sharded_note.unwrap();
    assert!(
        note.starts_with("Sharded (B over X)") && note.contains("Scale tab"),
        "{note}"
    );
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
    use crate::pages::AppState;
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
