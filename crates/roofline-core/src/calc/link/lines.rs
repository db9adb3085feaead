//! The chart's lines and roofs of a link: `l1`, `l2`, `lv` and `roofs`,
//! each checked against the chip.

use super::level::{read_level, LEVELS};
use crate::hardware::Chip;
use crate::query::notice::{quoted, said, Notes};
use crate::query::Params;
use crate::state::default_level2;
use crate::{LevelKind, RoofKey};

/// The bandwidth lines and the extra roofs a link asks for.
pub(super) struct Lines {
    /// The first level (results and the first line).
    pub(super) level1: LevelKind,
    /// The second line, if any.
    pub(super) level2: Option<LevelKind>,
    /// More lines after the second.
    pub(super) extra_lines: Vec<LevelKind>,
    /// More roofs, sorted.
    pub(super) roofs: Vec<RoofKey>,
}

/// Reads `l1`, `l2`, `lv` (which replaces both) and `roofs` for `chip`;
/// each bad value is its default, with a notice.
pub(super) fn read_lines(p: &mut Params, n: &mut Notes, chip: &Chip) -> Lines {
    let kinds = chip.level_kinds();
    let level1 = match p.take("l1") {
        None => LevelKind::Hbm,
        Some(raw) => match read_level(&raw) {
            Some(k) if kinds.contains(&k) => k,
            Some(k) => {
                n.push(
                    "l1",
                    format!("l1: {} has no {k} bandwidth; using HBM", chip.name),
                );
                LevelKind::Hbm
            }
            None => {
                n.push(
                    "l1",
                    format!(
                        "{} is not a memory level ({LEVELS}); using HBM",
                        said("l1", &raw)
                    ),
                );
                LevelKind::Hbm
            }
        },
    };
    let l2_default = default_level2(chip, level1);
    let l2_text = l2_default.map_or("none", LevelKind::name);
    let level2 = match p.take("l2") {
        None => l2_default,
        Some(raw) if raw.trim().eq_ignore_ascii_case("none") => None,
        Some(raw) => match read_level(&raw) {
            Some(k) if k == level1 => {
                n.push(
                    "l2",
                    format!("l2: {k} is already the first level (l1); using {l2_text}"),
                );
                l2_default
            }
            Some(k) if kinds.contains(&k) => Some(k),
            Some(k) => {
                n.push(
                    "l2",
                    format!("l2: {} has no {k} bandwidth; using {l2_text}", chip.name),
                );
                l2_default
            }
            None => {
                n.push(
                    "l2",
                    format!(
                        "{} is not a memory level ({LEVELS}, or none); using {l2_text}",
                        said("l2", &raw)
                    ),
                );
                l2_default
            }
        },
    };

    // `lv` lists every line, the first for the results; it replaces `l1`
    // and `l2` (which old links and links with two lines use).
    let (mut level1, mut level2, mut extra_lines) = (level1, level2, Vec::new());
    if let Some(raw) = p.take("lv") {
        let mut lines: Vec<LevelKind> = Vec::new();
        for item in raw
            .split(',')
            .map(str::trim)
            .filter(|i| !i.is_empty())
            .take(16)
        {
            match read_level(item) {
                Some(k) if kinds.contains(&k) => {
                    if !lines.contains(&k) {
                        lines.push(k);
                    }
                }
                Some(k) => n.push(
                    "lv",
                    format!(
                        "lv: {} has no {k} bandwidth; its line is left out",
                        chip.name
                    ),
                ),
                None => n.push(
                    "lv",
                    format!(
                        "lv: {} is not a memory level ({LEVELS}); left out",
                        quoted(item)
                    ),
                ),
            }
        }
        if let Some((&first, rest)) = lines.split_first() {
            level1 = first;
            level2 = rest.first().copied();
            extra_lines = rest.iter().skip(1).copied().collect();
        } else {
            n.push(
                "lv",
                "lv lists no line this chip has; using HBM".to_string(),
            );
            level1 = LevelKind::Hbm;
            level2 = default_level2(chip, level1);
        }
    }

    // More roofs: roofs the chip has (any data type's peak, or `vector`).
    let mut roofs: Vec<RoofKey> = Vec::new();
    if let Some(raw) = p.take("roofs") {
        let have = chip.roofs();
        for item in raw
            .split(',')
            .map(str::trim)
            .filter(|i| !i.is_empty())
            .take(16)
        {
            match RoofKey::from_key(item) {
                Some(r) if have.contains(&r) => {
                    if !roofs.contains(&r) {
                        roofs.push(r);
                    }
                }
                Some(r) => n.push(
                    "roofs",
                    format!("roofs: {} has no {}; left out", chip.name, r.name()),
                ),
                None => n.push(
                    "roofs",
                    format!(
                        "roofs: {} is not a roof (a data type such as bf16 or fp8, or vector); left out",
                        quoted(item)
                    ),
                ),
            }
        }
        roofs.sort();
    }

    Lines {
        level1,
        level2,
        extra_lines,
        roofs,
    }
}
