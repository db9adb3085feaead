//! A memory level or link as a link names it (`hbm`, `ici`, ...), for the
//! calculator's keys that take one.

use crate::LevelKind;

pub(super) const LEVELS: &str = "hbm, vmem, smem, pcie, ici, nvlink, fabric or dcn";

pub(super) fn read_level(raw: &str) -> Option<LevelKind> {
    LevelKind::from_key(raw)
}
