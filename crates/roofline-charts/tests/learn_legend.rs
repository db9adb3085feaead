//! Issue #46, item 9: a chart's legend shows numbers the words beside it
//! give: on the Learn page's network step, the operation's marker is each
//! chip's own intensity against its memory, which the step's text works
//! out; on one chip it is the operation's intensity.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use roofline_charts::roofline_for_view;
use roofline_core::learn::{step, step_view};

#[test]
fn every_roofline_steps_marker_is_in_its_words() {
    // Step 1 comes before intensity is introduced.
    for n in 2..=roofline_core::learn::STEP_COUNT {
        let s = step(n).unwrap();
        if s.figure != roofline_core::learn::Figure::Roofline {
            continue;
        }
        let first = s.controls[0].len();
        let second = s.controls.get(1).map_or(1, |c| c.len());
        for i in 0..first {
            for j in 0..second {
                let v = step_view(n, &[i, j]).unwrap();
                let words = v.paragraphs.join("\n");
                let chart = roofline_for_view(&v.view, true).unwrap();
                for m in &chart.markers {
                    let number = m.label.rsplit(": ").next().unwrap();
                    assert!(
                        words.contains(number),
                        "step {n} [{i},{j}]: the legend's '{}' is not in: {words}",
                        m.label
                    );
                }
            }
        }
    }
}

#[test]
fn the_network_steps_marker_is_per_chip() {
    let v = step_view(8, &[]).unwrap();
    let n = v.view.network.as_ref().unwrap();
    let chart = roofline_for_view(&v.view, true).unwrap();
    let per_chip = n.flops_per_chip / n.memory_bytes;
    assert!(chart
        .markers
        .iter()
        .any(|m| m.intensity == per_chip && m.label.contains("per chip")));
    // Not the unsplit operation's intensity.
    let whole = v.view.analysis.as_ref().unwrap().intensity;
    assert!(chart.markers.iter().all(|m| m.intensity != whole));
}
