//! The links in docs/url-schema.md stay true: every example decodes without
//! a notice to the state the text describes, and every notice in the
//! robustness table is what the decoder says.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use roofline_core::pages::View;
use roofline_core::state::ChartScale;
use roofline_core::url::{decode, encode};
use roofline_core::{DType, LevelKind, Shortcut};

const DOC: &str = include_str!("../../../docs/url-schema.md");

/// Every line of a fenced block that starts with `?v=1`.
fn examples() -> Vec<&'static str> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in DOC.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if fenced && line.starts_with("?v=1") {
            out.push(line.trim_end());
        }
    }
    out
}

#[test]
fn examples_decode_cleanly_and_are_canonical() {
    let ex = examples();
    assert!(ex.len() >= 8, "found {} examples", ex.len());
    for link in ex {
        let d = decode(link);
        assert!(d.notices.is_empty(), "{link}: {:?}", d.notices);
        assert_eq!(format!("?{}", encode(&d.state)), link, "not canonical");
        assert!(link.len() < 200, "{link} is {} characters", link.len());
    }
}

fn example(containing: &str) -> roofline_core::AppState {
    let link = examples()
        .into_iter()
        .find(|l| l.contains(containing))
        .unwrap_or_else(|| panic!("no example contains {containing}"));
    decode(link).state
}

#[test]
fn examples_mean_what_the_text_says() {
    let s = example("chip=h100&sz=B:512");
    assert_eq!(s.calc.chip, "h100");
    assert_eq!(s.calc.sizes.get("B"), Some(&512.0));
    assert_eq!(s.calc.level2, None);

    let s = example("n=2");
    assert_eq!(s.calc.op, Shortcut::Matmul.notation());
    assert_eq!(s.calc.chips, 2);
    assert_eq!(s.calc.link, Some(LevelKind::Ici));
    assert_eq!(s.calc.shard.as_deref(), Some("D"));

    let s = example("peak.vector=2e13");
    assert_eq!(s.calc.chip, "v6e");
    assert_eq!(s.calc.vector_override, Some(2e13));
    let chip = s.calc.chip().unwrap();
    assert_eq!(chip.vector.as_ref().map(|v| v.dense), Some(2e13));
    assert_eq!(
        s.calc.scenario().unwrap().resolved_unit(),
        roofline_core::ComputeUnit::Vector
    );

    let s = example("rs=lin");
    assert_eq!(s.calc.roofline_scale, ChartScale::Linear);
    assert_eq!(s.calc.batch_scale, ChartScale::Log);
    assert_eq!(s.calc.chips, 2);

    let s = example("pts=");
    assert_eq!(s.calc.chip, "h100");
    let (kernels, errors) = roofline_core::points::compact::decode(&s.points);
    assert!(errors.is_empty());
    assert_eq!(kernels.len(), 2);
    assert_eq!(&*kernels[0].name, "gemm");
    assert_eq!(kernels[0].intensity, 512.0);
    assert_eq!(kernels[0].rate, 6.1e14);
    assert_eq!(kernels[0].time, Some(0.0021));
    assert_eq!(&*kernels[1].name, "softmax");
    assert_eq!(kernels[1].time, None);

    let s = example("bs=lin");
    assert_eq!(s.calc.chip, "v6e");
    assert_eq!(s.calc.batch_scale, ChartScale::Linear);
    assert_eq!(s.calc.pairs.len(), 3);

    let s = example("peak.bf16");
    assert_eq!(s.calc.peak_overrides, vec![(DType::Bf16, 2e14)]);
    assert_eq!(s.calc.bw_overrides, vec![(LevelKind::Hbm, 1e12)]);
    assert_eq!(s.calc.level2, None);
    let chip = s.calc.chip().unwrap();
    assert_eq!(
        chip.critical_intensity(DType::Bf16, LevelKind::Hbm)
            .unwrap(),
        200.0
    );

    let s = example("op=add");
    assert_eq!(s.calc.sizes.get("N"), Some(&1e8));
    roofline_core::analyze(&s.calc.scenario().unwrap()).unwrap();

    let s = example("?v=1&op=add");
    let a = roofline_core::analyze(&s.calc.scenario().unwrap()).unwrap();
    assert_eq!(a.unit, roofline_core::ComputeUnit::Vector);
    assert_eq!(a.peak, 6.1e12);

    let s = example("unit=matrix");
    assert_eq!(s.calc.unit, Some(roofline_core::ComputeUnit::Matrix));
    let a = roofline_core::analyze(&s.calc.scenario().unwrap()).unwrap();
    assert_eq!(a.unit, roofline_core::ComputeUnit::Matrix);
    assert_eq!(a.peak, 1.634e14);

    let s = example("lv=");
    assert_eq!(s.calc.level1, LevelKind::Hbm);
    assert_eq!(s.calc.level2, Some(LevelKind::Vmem));
    assert_eq!(s.calc.extra_lines, vec![LevelKind::Ici, LevelKind::Pcie]);

    let s = example("roofs=");
    assert_eq!(
        s.calc.roofs,
        vec![
            roofline_core::RoofKey::Matrix(DType::Fp8),
            roofline_core::RoofKey::Vector
        ]
    );
    let v = roofline_core::calc::evaluate(&roofline_core::calc::CalcInput::from_state(&s.calc));
    assert_eq!(v.roofs, s.calc.roofs);

    let s = example("l1=pcie");
    assert_eq!(s.calc.level1, LevelKind::Pcie);
    assert_eq!(s.calc.level2, Some(LevelKind::Hbm));

    let s = example("chip=b200&op=bf16");
    assert_eq!(s.calc.op, "bf16[B,S,D] * bf16[D,F] -> bf16[B,S,F]");
    assert_eq!(s.calc.compute, Some(DType::Fp8));
    assert_eq!(s.calc.sizes.get("S"), Some(&4096.0));

    let s = example("view=quiz");
    assert_eq!(s.view, View::Quiz);
    let q = roofline_core::quiz::read_query(&s.quiz).0;
    assert_eq!((q.question.as_str(), q.part, q.seed), ("q2", 2, 42));

    let s = example("view=learn");
    assert_eq!(s.view, View::Learn);
    assert_eq!(s.step, 4);
    assert_eq!(s.calc, roofline_core::CalcState::default());

    let s = example("fpe=8");
    assert_eq!(s.calc.per_element, Some(8.0));
    let op = s.calc.operation().unwrap();
    let a = roofline_core::analyze(&s.calc.scenario().unwrap()).unwrap();
    // 8 FLOPs for each of the B·S·D output elements.
    assert_eq!(a.flops, 8.0 * 8.0 * 4096.0 * 8192.0);
    assert_eq!(op.flops_per_element(), Some(8.0));

    let s = example("coll=ring");
    assert_eq!(s.calc.collective, roofline_core::network::Collective::Ring);
    assert_eq!(s.calc.chips, 8);
    let v = roofline_core::calc::evaluate(&roofline_core::calc::CalcInput::from_state(&s.calc));
    let n = v.network.unwrap();
    // A ring all-reduce over 8 chips sends 2·7/8 of a partial (2BF bytes).
    assert!((n.bytes_sent - 1.75 * 2.0 * 256.0 * 4096.0).abs() < 1e-6);

    assert_eq!(decode("?v=1").state, roofline_core::AppState::default());
}

/// The rows of the robustness table: (link, expected notice).
fn table() -> Vec<(&'static str, &'static str)> {
    let mut out = Vec::new();
    for line in DOC.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // "| `?v=1...` | `notice` ... |" splits into ["", link, notice, ""].
        if cells.len() == 4 && cells[1].starts_with("`?v=") {
            let link = cells[1].trim_matches('`');
            let notice = cells[2].split('`').nth(1).unwrap_or_default();
            out.push((link, notice));
        }
    }
    out
}

#[test]
fn robustness_table_is_what_the_decoder_says() {
    let rows = table();
    assert!(rows.len() >= 10, "found {} rows", rows.len());
    for (link, expected) in rows {
        let d = decode(link);
        let found = d.notices.iter().any(|n| match expected.split_once("(…)") {
            Some((head, tail)) => n.message.starts_with(head) && n.message.ends_with(tail),
            None => n.message == expected,
        });
        assert!(found, "{link}: expected {expected:?}, got {:?}", d.notices);
    }
}
