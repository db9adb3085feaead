//! The roofline's shaded regions, worded for its legend: where every
//! memory line leaves the operation bandwidth-bound, where only the slower
//! one does, and where every one lets it reach the roof.

use roofline_core::format;

use super::{hover::line_name, RooflineChart};

/// One shaded region of the roofline chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Region {
    /// Which of the theme's three fills it takes: 0 bandwidth-bound, 1 in
    /// between, 2 compute-bound.
    pub fill: usize,
    /// Its left edge (FLOPs/byte); `None` for the chart's left edge.
    pub from: Option<f64>,
    /// Its right edge; `None` for the chart's right edge.
    pub to: Option<f64>,
    /// What an operation whose intensity falls here is bound by.
    pub text: String,
}

impl RooflineChart {
    /// The regions between the memory lines' bends, left to right, each
    /// worded for the legend. The network link, drawn across chips, has its
    /// own bend and shades nothing: its regime is in the network rows.
    pub fn regions(&self) -> Vec<Region> {
        let mut memory: Vec<(f64, &str)> = self
            .lines
            .iter()
            .filter(|l| !l.network && l.critical.is_finite() && l.critical > 0.0)
            .map(|l| (l.critical, line_name(&l.label)))
            .collect();
        roofline_core::small::sort_small_by(&mut memory, |a, b| a.0.total_cmp(&b.0));
        let (Some(&(first, fast)), Some(&(last, slow))) = (memory.first(), memory.last()) else {
            return Vec::new();
        };
        let (a, b) = (format::intensity(first), format::intensity(last));
        if memory.len() == 1 || last <= first {
            return vec![
                Region {
                    fill: 0,
                    from: None,
                    to: Some(first),
                    text: format!(
                        "Below {a}: bandwidth-bound (the bytes take longer than the math)"
                    ),
                },
                Region {
                    fill: 2,
                    from: Some(first),
                    to: None,
                    text: format!(
                        "Above {a}: compute-bound (the math takes longer than the bytes)"
                    ),
                },
            ];
        }
        vec![
            Region {
                fill: 0,
                from: None,
                to: Some(first),
                text: format!(
                    "Below {a}: bandwidth-bound whether the data comes from {fast} or {slow}"
                ),
            },
            Region {
                fill: 1,
                from: Some(first),
                to: Some(last),
                text: format!(
                    "{a} to {b}: compute-bound from {fast}, still bandwidth-bound from {slow}"
                ),
            },
            Region {
                fill: 2,
                from: Some(last),
                to: None,
                text: format!("Above {b}: compute-bound from either"),
            },
        ]
    }
}
