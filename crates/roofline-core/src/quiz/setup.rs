//! A question's setup as the calculator's state: "Open in the calculator".

use super::CalcSetup;
use crate::op::Operation;
use crate::state::{default_batch_dim, default_level2, CalcState, MAX_PAIRS};

impl CalcSetup {
    /// The calculator state that shows this setup.
    pub fn calc_state(&self) -> CalcState {
        let setup = self;
        let op = Operation::parse(&setup.op).ok();
        let mut c = CalcState {
            chip: setup.chip.clone(),
            op: op
                .as_ref()
                .map_or_else(|| setup.op.clone(), Operation::notation),
            sizes: setup.sizes.clone(),
            compute: setup.compute,
            level1: setup.level,
            chips: setup.chips.max(1),
            link: setup.link,
            shard: setup.shard_dim.clone(),
            ..CalcState::default()
        };
        for (d, v) in &setup.peak_overrides {
            c.set_peak_override(*d, Some(*v));
        }
        for (k, v) in &setup.bw_overrides {
            c.set_bw_override(*k, Some(*v));
        }
        c.level2 = setup
            .level2
            .or_else(|| {
                c.chip()
                    .ok()
                    .and_then(|chip| default_level2(&chip, c.level1))
            })
            .filter(|l| *l != c.level1);
        if let Some(op) = &op {
            c.batch_dim = setup
                .solve_for
                .clone()
                .filter(|d| op.has_dim(d))
                .unwrap_or_else(|| default_batch_dim(op));
        }
        if !setup.pairs.is_empty() {
            c.pairs = setup.pairs.iter().copied().take(MAX_PAIRS).collect();
        }
        c
    }
}
