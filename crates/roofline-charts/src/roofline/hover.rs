//! The roofline chart's hover readout: what each bandwidth line attains at
//! the intensity under the pointer, and which ceiling binds there.

use roofline_core::format;
use roofline_core::roofline::attained;
use roofline_core::small::Join;

use super::RooflineChart;

impl RooflineChart {
    /// The hover readout at `intensity`: the attained throughput under each
    /// bandwidth line and which ceiling binds there.
    pub fn readout(&self, intensity: f64) -> String {
        if !(intensity.is_finite() && intensity > 0.0) {
            return String::new();
        }
        let mut parts = vec![format!("Intensity {}", format::intensity(intensity))];
        let roof = match self.roof_key.as_str() {
            "" => "peak compute".to_string(),
            "vector" => "vector unit peak".to_string(),
            k => format!("{k} peak"),
        };
        for line in &self.lines {
            let y = attained(self.peak, line.bandwidth, intensity);
            let which = if intensity < line.critical {
                format!("{} bandwidth binds", line_name(&line.label))
            } else {
                format!("the {roof} binds")
            };
            parts.push(format!(
                "{}: {} ({which})",
                line_name(&line.label),
                format::flops_rate(y)
            ));
        }
        // Under each other roof, read against the first line.
        if let Some(first) = self.lines.first() {
            for r in &self.roofs {
                let y = attained(r.peak, first.bandwidth, intensity);
                let which = if intensity < r.peak / first.bandwidth {
                    format!("{} bandwidth binds", line_name(&first.label))
                } else {
                    format!("the {} roof binds", r.key)
                };
                parts.push(format!(
                    "under the {} roof: {} ({which})",
                    r.key,
                    format::flops_rate(y)
                ));
            }
        }
        parts.joined(" · ")
    }
}

pub(super) fn line_name(label: &str) -> &str {
    label.split(' ').next().unwrap_or(label)
}
