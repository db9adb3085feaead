//! A question's setup as the calculator's state: "Open in the calculator".

use super::CalcSetup;
use crate::op::Operation;
use crate::state::{default_batch_dim, default_level2, CalcState, MAX_PAIRS};

impl CalcSetup {
    /// The calculator state that shows this setup.
    pub fn calc_state(&self) -> CalcState {
        let op = Operation::parse(&self.op).ok();
        let mut c = CalcState {
            chip: self.chip.clone(),
            op: op
                .as_ref()
                .map_or_else(|| self.op.clone(), Operation::notation),
            sizes: self.sizes.clone(),
            compute: self.compute,
            level1: self.level,
            chips: self.chips.max(1),
            link: self.link,
            shard: self.shard_dim.clone(),
            ..CalcState::default()
        };
        for (d, v) in &self.peak_overrides {
            c.set_peak_override(*d, Some(*v));
        }
        for (k, v) in &self.bw_overrides {
            c.set_bw_override(*k, Some(*v));
        }
        c.level2 = self
            .level2
            .or_else(|| {
                c.chip()
                    .ok()
                    .and_then(|chip| default_level2(&chip, c.level1))
            })
            .filter(|l| *l != c.level1);
        if let Some(op) = &op {
            c.batch_dim = self
                .solve_for
                .clone()
                .filter(|d| op.has_dim(d))
                .unwrap_or_else(|| default_batch_dim(op));
        }
        if !self.pairs.is_empty() {
            c.pairs = self.pairs.iter().copied().take(MAX_PAIRS).collect();
        }
        c
    }
}
