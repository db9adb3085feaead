//! The Scale page's three charts, as [`LinesChart`] specs built from the
//! core's view ([`roofline_core::scale`]):
//!
//! - [`coll_chart`]: a collective's time against message size, with its
//!   latency floor and bandwidth line, and the size where the bound
//!   switches;
//! - [`matmul_chart`]: the comms roofline of a sharded matmul, T_math and
//!   T_comms against the swept size, with the crossover;
//! - [`train_chart`]: the chapter's training roofline, time per layer
//!   against batch for the chosen FSDP × TP split, the comms-bound span
//!   shaded, and every split's crossover as a tick along the x axis.
//!
//! Every label is the core's text (`roofline_core::format` through the
//! view) or a fixed word; the crossings' positions are found on the
//! series themselves, so a marker sits where its lines meet.

use roofline_core::format;
use roofline_core::scale::{CollView, MatmulView, TrainView};

use crate::lines::{crossing, span_above, Line, LinesChart, Mark, Shade, Tick};

/// The view's text of a crossing, or `None` for the core's dash.
fn text(s: &str) -> Option<&str> {
    let s = s.trim();
    (!s.is_empty() && s != format::MISSING).then_some(s)
}

/// `chart`, checked: an error that names the chart when it cannot be
/// drawn.
fn checked(what: &str, chart: LinesChart) -> Result<LinesChart, String> {
    chart
        .check()
        .map_err(|e| format!("The {what} chart: {e}"))?;
    Ok(chart)
}

/// A line from `xs` and `ys`.
fn line(label: impl Into<String>, xs: &[f64], ys: &[f64], dashed: bool) -> Line {
    Line {
        label: label.into(),
        points: xs.iter().copied().zip(ys.iter().copied()).collect(),
        dashed,
    }
}

/// The collective's chart: its time against the whole array's bytes,
/// log-log; its latency floor and its bandwidth line (bytes / W) dashed;
/// and, where the two meet inside the range, a marker at the message size
/// where the bound switches, labelled with the view's text. The latency
/// floor is left out when the link has no latency. An error when the
/// series is empty or has a value that is not positive and finite.
pub fn coll_chart(view: &CollView) -> Result<LinesChart, String> {
    let s = &view.series;
    if s.is_empty() {
        return Err("The collective's chart has no points: no axis to run it over.".to_string());
    }
    let xs: Vec<f64> = s.iter().map(|p| p.bytes).collect();
    let time: Vec<f64> = s.iter().map(|p| p.time).collect();
    let lat: Vec<f64> = s.iter().map(|p| p.latency).collect();
    let bw: Vec<f64> = s.iter().map(|p| p.bandwidth).collect();
    let mut series = vec![line(
        format!("{}: latency + bytes / W", view.input),
        &xs,
        &time,
        false,
    )];
    let has_latency = lat.iter().all(|l| *l > 0.0);
    if has_latency {
        let floor = lat.first().copied().unwrap_or(0.0);
        series.push(line(
            format!("latency floor: {}", format::seconds(floor)),
            &xs,
            &lat,
            true,
        ));
    }
    series.push(line("bandwidth: bytes / W", &xs, &bw, true));
    let marks = match (has_latency, text(&view.switch)) {
        (true, Some(t)) => crossing(&xs, &bw, &lat)
            .map(|(x, floor)| Mark {
                x,
                // The time there: latency + bytes' time, twice the floor.
                y: Some(2.0 * floor),
                label: format!("bound switches at {t}"),
            })
            .into_iter()
            .collect(),
        _ => Vec::new(),
    };
    checked(
        "collective's",
        LinesChart {
            x_desc: "Message size, whole array (bytes)".to_string(),
            y_desc: "Time (seconds)".to_string(),
            series,
            marks,
            shade: None,
            ticks: Vec::new(),
        },
    )
}

/// The sharded matmul's comms roofline: T_math and T_comms (seconds)
/// against the swept dimension's size, log-log, the span where T_comms is
/// above T_math shaded as comms-bound, and a marker where they cross,
/// labelled with the view's crossover. An error when the series is empty
/// (no collective, or no dimension to sweep) or has a value that is not
/// positive and finite.
pub fn matmul_chart(view: &MatmulView) -> Result<LinesChart, String> {
    let s = &view.series;
    if s.is_empty() {
        return Err(format!(
            "The matmul's comms roofline has no points: case {} sweeps no dimension against a collective.",
            view.case
        ));
    }
    let xs: Vec<f64> = s.iter().map(|p| p.size).collect();
    let math: Vec<f64> = s.iter().map(|p| p.t_math).collect();
    let comms: Vec<f64> = s.iter().map(|p| p.t_comms).collect();
    let marks = match (crossing(&xs, &math, &comms), text(&view.crossover)) {
        (Some((x, y)), Some(t)) => vec![Mark {
            x,
            y: Some(y),
            label: t.to_string(),
        }],
        _ => Vec::new(),
    };
    checked(
        "matmul's",
        LinesChart {
            x_desc: "Size of the swept dimension (elements)".to_string(),
            y_desc: "Time (seconds)".to_string(),
            series: vec![
                line("T_math (local)", &xs, &math, false),
                line(
                    format!("T_comms ({})", view.collective_key),
                    &xs,
                    &comms,
                    false,
                ),
            ],
            marks,
            shade: span_above(&xs, &comms, &math).map(|(from, to)| Shade {
                from,
                to,
                label: "comms-bound".to_string(),
            }),
            ticks: Vec::new(),
        },
    )
}

/// The chapter's training roofline, live: time per layer (seconds)
/// against the batch in tokens, log-log, with the compute line and the
/// comms line of the split shown, the comms-bound span (comms above
/// compute) shaded, a marker at the crossover labelled with the view's
/// words, and every split's crossover as a small tick along the x axis,
/// the split shown emphasised and named. Splits that are always
/// comms-bound have no tick. An error when the roofline is empty or has a
/// value that is not positive and finite.
pub fn train_chart(view: &TrainView) -> Result<LinesChart, String> {
    let r = &view.roofline;
    if r.is_empty() {
        return Err("The training roofline has no points.".to_string());
    }
    let xs: Vec<f64> = r.iter().map(|p| p.batch).collect();
    let compute: Vec<f64> = r.iter().map(|p| p.compute).collect();
    let comms: Vec<f64> = r.iter().map(|p| p.comms).collect();
    let chosen = view.splits.iter().find(|s| s.chosen);
    let comms_label = match chosen {
        Some(s) => format!("comms: {}", s.label),
        None => "comms".to_string(),
    };
    let marks = match (crossing(&xs, &compute, &comms), text(&view.crossover)) {
        (Some((x, y)), Some(t)) => vec![Mark {
            x,
            y: Some(y),
            label: t.to_string(),
        }],
        _ => Vec::new(),
    };
    let mut ticks = Vec::new();
    for s in &view.splits {
        let Ok(x) = s.crossover_value.trim().parse::<f64>() else {
            continue;
        };
        if !(x.is_finite() && x > 0.0) {
            continue;
        }
        ticks.push(Tick {
            x,
            label: format!("{}: {}", s.label, s.crossover),
            emphasised: s.chosen,
        });
    }
    checked(
        "training roofline's",
        LinesChart {
            x_desc: "Batch (tokens)".to_string(),
            y_desc: "Time per layer (seconds)".to_string(),
            series: vec![
                line("compute", &xs, &compute, false),
                line(comms_label, &xs, &comms, false),
            ],
            marks,
            shade: span_above(&xs, &comms, &compute).map(|(from, to)| Shade {
                from,
                to,
                label: "comms-bound".to_string(),
            }),
            ticks,
        },
    )
}
