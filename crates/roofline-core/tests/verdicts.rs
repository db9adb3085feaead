//! Issue #46: every verdict agrees with the numbers beside it. The
//! calculator split over chips gives one verdict (the per-chip one) and
//! labels the unsplit operation's results; the chip panel's question on
//! sparse headlines belongs to chips that have one.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use roofline_core::calc::{evaluate, network_view, per_chip_heading, CalcInput, WHOLE_ON_ONE_CHIP};
use roofline_core::url::decode;

fn view_of(query: &str) -> roofline_core::calc::CalcView {
    let d = decode(query);
    evaluate(&CalcInput::from_state(&d.state.calc))
}

/// Item 9: `?v=1&op=matmul&n=2&link=ici&shard=D` words one verdict, the
/// slowest of the three per-chip times; the link's comparison is not worded
/// as a second one, and the unsplit results have a label saying so.
#[test]
fn a_split_operation_has_one_verdict() {
    let v = view_of("v=1&op=matmul&n=2&link=ici&shard=D");
    let n = network_view(v.network.clone().unwrap());
    for verdict in [
        "Compute-bound",
        "Bandwidth-bound",
        "compute-bound",
        "bandwidth-bound",
    ] {
        assert!(!n.regime.contains(verdict), "{}", n.regime);
    }
    assert!(
        n.regime.contains("send takes longer than its math"),
        "{}",
        n.regime
    );
    assert!(
        n.binding
            .contains("The split operation is bound by the send over ICI"),
        "{}",
        n.binding
    );
    assert!(WHOLE_ON_ONE_CHIP.starts_with("The whole operation on one chip"));
    // In "How it is computed" too, each unsplit step says what it is.
    let steps = v.derivation();
    let regime = steps.iter().find(|s| s.title.ends_with("Regime")).unwrap();
    assert_eq!(regime.title, "Unsplit, on one chip: Regime");
    assert!(steps.iter().any(|s| s.title == "Network: T_math per chip"));
    assert!(per_chip_heading(2, "ICI").starts_with("Per chip"));
}

/// Item 12: the sparse note (and the question beside it) only where the
/// sheet quotes a sparse peak.
#[test]
fn the_sparse_note_is_for_chips_with_a_sparse_peak() {
    assert!(view_of("v=1&chip=v5e").peak_note.is_none());
    assert!(view_of("v=1&chip=h100").peak_note.is_some());
}

/// Item 12: integer math's rates read in OP/s beside the book's "OPs",
/// with the row's label to match; floating-point ones stay FLOP/s.
#[test]
fn int8_rates_are_ops() {
    let v = view_of("v=1&dt=int8");
    let a = v.analysis.as_ref().unwrap();
    assert_eq!(a.compute_dtype, roofline_core::DType::Int8);
    let row = v.rows.iter().find(|r| r.key == "attained-flops").unwrap();
    assert_eq!(row.label, "Attained OPs/s");
    assert!(
        row.text.ends_with("OP/s") && !row.text.contains("FLOP"),
        "{}",
        row.text
    );
    let v = view_of("v=1");
    let row = v.rows.iter().find(|r| r.key == "attained-flops").unwrap();
    assert!(row.text.ends_with("TFLOP/s"), "{}", row.text);
}

/// Item 12: on the RTX 3090 the note under the chip ties the readers'
/// critical batch (a sparse fp16 figure ÷ 936 GB/s) to the dense ones.
#[test]
fn the_rtx3090_note_ties_the_readers_286_to_the_dense_batch() {
    let v = view_of("v=1&chip=rtx3090&dt=fp16");
    let note = v.peak_note.unwrap();
    let readers = 2.68e14 / 9.36e11;
    assert!(
        note.contains(&format!("about {}", roofline_core::format::sig(readers, 3))),
        "{note}"
    );
    assert!(note.contains("about 286"), "{note}");
    let dense = 1.42e14 / 9.36e11;
    assert!(
        note.contains(&format!(
            "all in fp16 turns compute-bound past B ≈ {}",
            roofline_core::format::sig(dense, 3)
        )),
        "{note}"
    );
    // Other chips with a sparse figure say nothing of it.
    assert!(!view_of("v=1&chip=h100")
        .peak_note
        .unwrap()
        .contains("readers"));
}
