//! Builds chart specs from the core's model, with every label formatted by
//! `roofline_core::format`.

use roofline_core::calc::CalcView;
use roofline_core::{format, roofline::Roofline, Chip, CoreError, DType, LevelKind};

use crate::{BandwidthLine, OpMarker, RooflineChart};

/// The roofline chart of what the calculator shows: its chip at the math's
/// data type, its first and second levels, the operation's marker, and with
/// two or more chips the link's line and the network intensity. On log-log
/// axes when `log`, else linear. `Err` holds the message to show instead.
pub fn roofline_for_view(v: &CalcView, log: bool) -> Result<RooflineChart, String> {
    let (Some(s), Some(a)) = (&v.scenario, &v.analysis) else {
        return Err(v
            .error
            .clone()
            .unwrap_or_else(|| "Nothing to draw yet.".to_string()));
    };
    let mut levels = vec![v.level1];
    levels.extend(v.level2);
    let marker = Some((
        format!("this operation: {}", format::intensity(a.intensity)),
        a.intensity,
    ));
    let mut chart =
        roofline_for_chip(&s.chip, a.compute_dtype, &levels, marker).map_err(|e| e.to_string())?;
    // Across chips, the link's line and the network intensity.
    if let Some(n) = &v.network {
        let n = &n.analysis;
        chart.add_network(n.link.key(), n.link.name(), n.bandwidth, n.intensity);
    }
    if !log {
        chart.set_log(false);
    }
    Ok(chart)
}

/// The roofline of `chip` at `dtype` against the given memory levels, on
/// log-log axes, with an optional operation marker (label, intensity) read
/// against every line. [`RooflineChart::add_network`] adds the link between
/// chips; [`RooflineChart::set_log`] switches to linear axes.
pub fn roofline_for_chip(
    chip: &Chip,
    dtype: DType,
    levels: &[LevelKind],
    marker: Option<(String, f64)>,
) -> Result<RooflineChart, CoreError> {
    let peak = chip.peak(dtype)?;
    let mut lines = Vec::with_capacity(levels.len());
    let mut ceilings = Vec::with_capacity(levels.len());
    for &kind in levels {
        let bw = chip.bandwidth(kind)?;
        let c = roofline_core::roofline::Ceiling::new(kind.name(), peak, bw);
        lines.push(BandwidthLine {
            key: kind.key().to_string(),
            network: false,
            label: format!("{} {}", kind.name(), format::bandwidth(bw)),
            bandwidth: bw,
            critical: c.critical_intensity,
            critical_text: format::intensity(c.critical_intensity),
        });
        ceilings.push(c);
    }
    let roof = Roofline {
        peak,
        peak_label: String::new(),
        ceilings,
    };
    let marks: Vec<f64> = marker.iter().map(|m| m.1).collect();
    Ok(RooflineChart {
        peak,
        peak_label: format!("{} peak {}", dtype, format::flops_rate(peak)),
        lines,
        markers: marker
            .map(|(label, intensity)| OpMarker {
                intensity,
                label,
                on: (0..levels.len()).collect(),
            })
            .into_iter()
            .collect(),
        x_range: roof.intensity_range(&marks),
        log: true,
    })
}

/// Kernels placed under a roof as the roofline's points, most important
/// first: those whose reaching the roof would save the most time, then the
/// farthest under it (labels go to the first that fit).
pub fn point_marks(placed: &[roofline_core::points::Placed]) -> Vec<crate::PointMark> {
    use roofline_core::points::{table, Binding};
    let mut order = table::order(placed, table::SortKey::Fraction, false);
    order.sort_by(|&a, &b| {
        let saved = |i: usize| {
            placed
                .get(i)
                .and_then(|p| p.saved)
                .unwrap_or(f64::NEG_INFINITY)
        };
        saved(b).total_cmp(&saved(a))
    });
    order
        .into_iter()
        .filter_map(|i| placed.get(i).map(|p| (i, p)))
        .map(|(index, p)| crate::PointMark {
            intensity: p.kernel.intensity,
            rate: p.kernel.rate,
            label: roofline_core::format::clip(&p.kernel.name, 24),
            index,
            memory: p.binding == Binding::Memory,
        })
        .collect()
}
