//! The calculator's first step: the chip with the user's edits, and what
//! it offers (data types, roofs, memory levels, links), with the levels
//! the user chose kept where the chip has them.

use super::chip_fields::apply_edits;
use super::{CalcInput, CalcView};
use crate::hardware::{preset, Chip};
use crate::LevelKind;

/// The chip with the user's edits, `None` when an edit is invalid (the
/// error is the field's, or the view's when the chip is not in the
/// catalogue). The preset's options fill the view even then.
pub(super) fn chip(view: &mut CalcView, input: &CalcInput) -> Option<Chip> {
    let chip = apply_edits(input);
    let base = chip.as_ref().ok().cloned().or_else(|| preset(&input.chip));
    if let Some(b) = &base {
        view.compute_options = b.dtypes();
        view.roof_options = b.roofs();
        view.level_options = b.level_kinds();
        view.memory_name = b.memory;
        view.link_options = b
            .level_kinds()
            .into_iter()
            .filter(|k| k.is_network())
            .collect();
        if !view.level_options.contains(&input.level1) {
            view.level1 = LevelKind::Hbm;
        }
        view.level2 = input
            .level2
            .filter(|l| view.level_options.contains(l) && *l != view.level1);
        // More lines only after a second one.
        if view.level2.is_some() {
            view.extra_lines = view
                .level_options
                .iter()
                .copied()
                .filter(|k| {
                    input.extra_lines.contains(k) && *k != view.level1 && Some(*k) != view.level2
                })
                .collect();
        }
    }
    let chip = match chip {
        Ok(c) => Some(c),
        Err(e) => {
            if base.is_none() {
                view.error = Some(e.to_string());
            }
            None
        }
    };
    view.chip = chip.clone();
    chip
}
