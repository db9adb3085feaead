//! The roofline's shaded regions, worded for its legend: where every line
//! (each memory, and the link between chips) leaves the operation
//! bandwidth-bound, where only the slower ones do, and where every one
//! lets it reach the roof.

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

/// A line with a bend, as the legend names it: "from HBM" for a memory,
/// "over ICI" for the link between chips.
struct Bend<'a> {
    at: f64,
    name: &'a str,
    network: bool,
}

impl Bend<'_> {
    fn phrase(&self) -> String {
        if self.network {
            format!("over {}", self.name)
        } else {
            format!("from {}", self.name)
        }
    }
}

/// `a`, `a or b`, `a, b or c`: `items` joined for a legend line.
fn listed(items: &[String], last: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., end] => format!(
            "{} {last} {end}",
            init.iter()
                .map(String::as_str)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

impl RooflineChart {
    /// The regions between the lines' bends, left to right, each worded
    /// for the legend: below every bend the operation is bound by every
    /// line; between two bends it reaches the roof from the faster lines
    /// and is still bound by the slower ones; above every bend it is
    /// compute-bound. The link between chips, with two or more chips, is
    /// one of the lines: read against it, the x axis is the network
    /// intensity (FLOPs per chip ÷ bytes sent).
    pub fn regions(&self) -> Vec<Region> {
        let mut bends: Vec<Bend> = self
            .lines
            .iter()
            .filter(|l| l.critical.is_finite() && l.critical > 0.0)
            .map(|l| Bend {
                at: l.critical,
                name: line_name(&l.label),
                network: l.network,
            })
            .collect();
        roofline_core::small::sort_small_by(&mut bends, |a, b| a.at.total_cmp(&b.at));
        bends.dedup_by(|a, b| a.at == b.at && a.name == b.name);
        let Some(first) = bends.first() else {
            return Vec::new();
        };
        let networked = bends.iter().any(|b| b.network);
        if bends.len() == 1 {
            let a = format::intensity(first.at);
            let (slow, fast) = if first.network {
                (
                    format!(
                        "bound by the link (the send over {} takes longer than the math)",
                        first.name
                    ),
                    "the math takes longer than the send".to_string(),
                )
            } else {
                (
                    "bandwidth-bound (the bytes take longer than the math)".to_string(),
                    "the math takes longer than the bytes".to_string(),
                )
            };
            return vec![
                Region {
                    fill: 0,
                    from: None,
                    to: Some(first.at),
                    text: format!("Below {a}: {slow}"),
                },
                Region {
                    fill: 2,
                    from: Some(first.at),
                    to: None,
                    text: format!("Above {a}: compute-bound ({fast})"),
                },
            ];
        }
        let phrases: Vec<String> = bends.iter().map(Bend::phrase).collect();
        let mut out = Vec::new();
        let lowest = format::intensity(first.at);
        out.push(Region {
            fill: 0,
            from: None,
            to: Some(first.at),
            text: if networked {
                format!(
                    "Below {lowest}: bandwidth-bound {}",
                    listed(&phrases, "and")
                )
            } else {
                let names: Vec<String> = bends.iter().map(|b| b.name.to_string()).collect();
                format!(
                    "Below {lowest}: bandwidth-bound whether the data comes from {}",
                    listed(&names, "or")
                )
            },
        });
        for i in 1..bends.len() {
            let (from, to) = (bends[i - 1].at, bends[i].at);
            if to <= from {
                continue;
            }
            let fast = listed(&phrases[..i], "and");
            let slow = listed(&phrases[i..], "and");
            out.push(Region {
                fill: 1,
                from: Some(from),
                to: Some(to),
                text: format!(
                    "{} to {}: compute-bound {fast}, still bandwidth-bound {slow}",
                    format::intensity(from),
                    format::intensity(to)
                ),
            });
        }
        let last = bends.last().map_or(first.at, |b| b.at);
        out.push(Region {
            fill: 2,
            from: Some(last),
            to: None,
            text: format!(
                "Above {}: compute-bound {}",
                format::intensity(last),
                if bends.len() == 2 && !networked {
                    "from either".to_string()
                } else {
                    format!("{} alike", listed(&phrases, "and"))
                }
            ),
        });
        out
    }
}
