//! Builds chart specs from the core's model, with every label formatted by
//! `roofline_core::format`.

use roofline_core::calc::CalcView;
use roofline_core::{format, roofline::Roofline, Chip, CoreError, DType, LevelKind, RoofKey};

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
    let levels = v.lines();
    // Split over chips, each chip's own memory sees its share: the marker
    // is its FLOPs over the bytes it moves (the per-chip results' numbers).
    let marker = Some(match &v.network {
        Some(n) => {
            let i = n.flops_per_chip / n.memory_bytes;
            (
                format!("this operation per chip: {}", format::intensity(i)),
                i,
            )
        }
        None => (
            format!("this operation: {}", format::intensity(a.intensity)),
            a.intensity,
        ),
    });
    // The roof is the peak of the unit the math runs on.
    let mut chart =
        roofline_under(&s.chip, a.roof(), a.peak, &levels, marker).map_err(|e| e.to_string())?;
    // The other roofs chosen, each labelled with its peak and where the
    // first line meets it.
    chart.add_roofs(v.roofs.iter().filter_map(|&r| {
        let peak = s.chip.roof_peak(r)?;
        let bend = format::intensity(peak / a.bandwidth);
        Some(crate::roofline::OtherRoof {
            key: r.key().to_string(),
            label: format!(
                "{} {} (meets {} at {bend})",
                r.name(),
                format::flops_rate(peak),
                a.level_name
            ),
            short: r.name(),
            peak,
        })
    }));
    // Across chips, the link's line and the network intensity.
    if let Some(n) = &v.network {
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
    roofline_under(chip, RoofKey::Matrix(dtype), peak, levels, marker)
}

/// The roofline of `chip` under `under`, whose peak is `peak` (FLOP/s),
/// against the given memory levels.
fn roofline_under(
    chip: &Chip,
    under: RoofKey,
    peak: f64,
    levels: &[LevelKind],
    marker: Option<(String, f64)>,
) -> Result<RooflineChart, CoreError> {
    let mut lines = Vec::with_capacity(levels.len());
    let mut ceilings = Vec::with_capacity(levels.len());
    for &kind in levels {
        let bw = chip.bandwidth(kind)?;
        let name = chip.level_name(kind);
        let c = roofline_core::roofline::Ceiling::new(name, peak, bw);
        lines.push(BandwidthLine {
            key: kind.key().to_string(),
            network: false,
            label: format!("{name} {}", format::bandwidth(bw)),
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
        peak_label: format!("{} {}", under.name(), format::flops_rate(peak)),
        roof_key: under.key().to_string(),
        roofs: Vec::new(),
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

/// The roofs of the data types kernels name ([`roofline_core::points::Against::Own`])
/// added to `chart`, each once, unless the chart has it already.
pub fn add_own_roofs(
    chart: &mut RooflineChart,
    placed: &[roofline_core::points::Placed],
    roof: &roofline_core::points::Roof,
) {
    use roofline_core::points::Against;
    let mut keys: Vec<String> = chart.roof_keys().split(',').map(str::to_string).collect();
    let mut add = Vec::new();
    for p in placed {
        let Against::Own(d) = p.against else { continue };
        if keys.iter().any(|k| k == d.name()) {
            continue;
        }
        keys.push(d.name().to_string());
        let (peak, _) = roof.peak_for(Some(d));
        add.push(crate::roofline::OtherRoof {
            key: d.name().to_string(),
            label: format!(
                "{} peak {} (kernels of that type)",
                d.name(),
                format::flops_rate(peak)
            ),
            short: format!("{} peak", d.name()),
            peak,
        });
    }
    chart.add_roofs(add);
}

/// Kernels placed under a roof as the roofline's points, most important
/// first: those whose reaching the roof would save the most time, then the
/// farthest under it (labels go to the first that fit).
pub fn point_marks(placed: &[roofline_core::points::Placed]) -> Vec<crate::PointMark> {
    use roofline_core::points::Binding;
    let saved = |i: usize| {
        placed
            .get(i)
            .and_then(|p| p.saved)
            .unwrap_or(f64::NEG_INFINITY)
    };
    let fraction = |i: usize| placed.get(i).map_or(f64::INFINITY, |p| p.fraction);
    // One sort on a total order (ties in input order): this runs on every
    // edit, with up to twenty thousand kernels.
    let mut order: Vec<usize> = (0..placed.len()).collect();
    order.sort_unstable_by(|&a, &b| {
        saved(b)
            .total_cmp(&saved(a))
            .then(fraction(a).total_cmp(&fraction(b)))
            .then(a.cmp(&b))
    });
    order
        .into_iter()
        .filter_map(|i| placed.get(i).map(|p| (i, p)))
        .map(|(index, p)| crate::PointMark {
            intensity: p.kernel.intensity,
            rate: p.rate,
            label: p.kernel.name.clone(),
            index,
            memory: p.binding == Binding::Memory,
            predicted: p.kernel.predicted.is_some(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use roofline_core::points::{place, Kernel, Roof};

    use super::point_marks;

    #[test]
    fn marks_come_most_time_saved_first_then_farthest_under_the_roof() {
        let roof = Roof {
            peak: 1e14,
            peak_key: "bf16".into(),
            bandwidth: 1e12,
            line_key: "hbm".into(),
            line_name: "HBM".into(),
            peaks: vec![],
        };
        let k = |name: &str, rate: f64, time: Option<f64>| Kernel {
            name: name.into(),
            intensity: 1000.0,
            rate,
            time,
            predicted: None,
            dtype: None,
        };
        // At the roof each takes FLOPs / 1e14, so reaching it saves:
        // a 1 - 0.5 = 0.5 s, b 2 - 0.2 = 1.8 s, c 2 - 0.5 = 1.5 s,
        // e 2 - 1.5 = 0.5 s (a tie with a, which is farther under the roof:
        // 50% against 75%), and d has no time (last).
        let ks = [
            k("a", 5e13, Some(1.0)),
            k("b", 1e13, Some(2.0)),
            k("c", 2.5e13, Some(2.0)),
            k("d", 1e12, None),
            k("e", 7.5e13, Some(2.0)),
        ];
        let placed: Vec<_> = ks.iter().map(|k| place(k, &roof)).collect();
        let marks = point_marks(&placed);
        let names: Vec<&str> = marks.iter().map(|m| &*m.label).collect();
        assert_eq!(names, ["b", "c", "a", "e", "d"]);
    }
}
