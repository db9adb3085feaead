//! The calculator's chip count and, over several chips, the network
//! roofline (the numbers the chart needs; its rows and words are
//! `network_view.rs`'s).

use super::{CalcInput, CalcView};
use crate::analysis::Scenario;
use crate::input::parse_positive;
use crate::network::network_with;
use crate::state::MAX_CHIPS;

/// The chip count typed, or `None` with the field's error.
pub(super) fn count(view: &mut CalcView, input: &CalcInput) -> Option<u32> {
    match parse_positive("chips", &input.chips) {
        Ok(n) if n.fract() == 0.0 && n <= MAX_CHIPS as f64 => Some(n as u32),
        Ok(_) => {
            view.chips_error = Some(format!("chips: enter a whole number from 1 to {MAX_CHIPS}"));
            None
        }
        Err(e) => {
            view.chips_error = Some(e.to_string());
            None
        }
    }
}

/// The network roofline of `scenario` split over `chips` (more than one)
/// along the view's link and dimension, or the chip count's error.
pub(super) fn network(view: &mut CalcView, input: &CalcInput, scenario: &Scenario, chips: u32) {
    let link = input
        .link
        .filter(|l| view.link_options.contains(l))
        .or_else(|| view.link_options.first().copied());
    let shard = view.shard.clone();
    match (link, shard) {
        (Some(link), Some(shard)) => {
            match network_with(scenario, &shard, chips, link, input.collective) {
                Ok(n) => view.network = Some(n),
                Err(e) => view.chips_error = Some(e.to_string()),
            }
        }
        (None, _) => {
            view.chips_error = Some(format!(
                "{} lists no link between chips",
                scenario.chip.name
            ))
        }
        (_, None) => {
            view.chips_error = Some(
                "this operation sums over no dimension, so there is nothing to split over chips"
                    .to_string(),
            )
        }
    }
}
