//! How a chip's links are laid out, which the catalogue's sheets do not
//! say: how many dimensions its torus has, when an axis wraps around, and
//! the mesh the Scale page opens with. Each rule names its source, as the
//! catalogue's numbers do.

use crate::hardware::Chip;
use crate::Family;

/// When an axis of a slice has its wraparound link (so that a ring over it
/// can use both directions of every link).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WrapRule {
    /// Only an axis of exactly this size, the pod's full width (v5e and
    /// v6e: 16).
    FullAxis(u64),
    /// An axis whose size is a multiple of this (v4p, v5p, TPU7x: cubes of
    /// 4 joined by optical switches).
    MultipleOf(u64),
    /// Not a torus: the chips of a domain share a switch (an NVLink
    /// domain), so there is nothing to wrap.
    Switch,
}

impl WrapRule {
    /// Whether an axis of `size` chips wraps around by this rule.
    pub fn wraps(self, size: u64) -> bool {
        match self {
            WrapRule::FullAxis(n) => size == n,
            WrapRule::MultipleOf(n) => size >= n && size.is_multiple_of(n),
            WrapRule::Switch => false,
        }
    }

    /// The rule in words.
    pub fn text(self) -> String {
        match self {
            WrapRule::FullAxis(n) => format!("an axis wraps around only at its full size, {n}"),
            WrapRule::MultipleOf(n) => {
                format!("an axis wraps around when its size is a multiple of {n}")
            }
            WrapRule::Switch => {
                "the chips of a domain share a switch: there is no ring to wrap".to_string()
            }
        }
    }
}

/// A chip's layout of links.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Topology {
    /// Dimensions of the torus (1 for a switched domain).
    pub dims: usize,
    /// When an axis wraps around.
    pub wrap: WrapRule,
    /// The mesh the page opens with on this chip.
    pub default_mesh: &'static str,
    /// Where the rule comes from.
    pub source: &'static str,
}

// The sources say where the rule comes from and what lies behind it; the
// rule itself is `WrapRule::text`, shown beside them, so they do not repeat it.
const BOOK_3D: &str =
    "How To Scale Your Model, TPU chapter: a 3-D torus, cubes of 4x4x4 joined by optical switches";
const BOOK_2D: &str = "How To Scale Your Model, TPU chapter: a 2-D torus of 16x16";
const V3_2D: &str = "How To Scale Your Model, TPU chapter: a 2-D pod of 32x32; the wraparound only at the full axis is our assumption, as on v5e";
const SWITCH: &str = "How To Scale Your Model, GPU chapter: the GPUs of a node (an NVLink domain) each reach a switch; nodes are joined by InfiniBand";

/// The layout of `chip`'s links, by its preset id (an edited preset keeps
/// its id); a chip the table does not know is laid out by its family.
pub fn topology(chip: &Chip) -> Topology {
    match chip.id.as_str() {
        "v4p" | "v5p" | "tpu7x" => Topology {
            dims: 3,
            wrap: WrapRule::MultipleOf(4),
            default_mesh: "X:4,Y:4,Z:4",
            source: BOOK_3D,
        },
        "v5e" | "v6e" => Topology {
            dims: 2,
            wrap: WrapRule::FullAxis(16),
            default_mesh: "X:4,Y:4",
            source: BOOK_2D,
        },
        "v3" => Topology {
            dims: 2,
            wrap: WrapRule::FullAxis(32),
            default_mesh: "X:4,Y:4",
            source: V3_2D,
        },
        _ if chip.family == Family::Tpu => Topology {
            dims: 2,
            wrap: WrapRule::FullAxis(16),
            default_mesh: "X:4,Y:4",
            source: BOOK_2D,
        },
        _ => Topology {
            dims: 1,
            wrap: WrapRule::Switch,
            default_mesh: "X:8",
            source: SWITCH,
        },
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    #[test]
    fn the_rules_of_part_2() {
        assert!(WrapRule::FullAxis(16).wraps(16));
        assert!(!WrapRule::FullAxis(16).wraps(8));
        assert!(WrapRule::MultipleOf(4).wraps(12));
        assert!(!WrapRule::MultipleOf(4).wraps(2));
        assert!(!WrapRule::MultipleOf(4).wraps(6));
        let v5p = crate::hardware::preset("v5p").unwrap();
        assert_eq!(topology(&v5p).dims, 3);
        let h100 = crate::hardware::preset("h100").unwrap();
        assert_eq!(topology(&h100).wrap, WrapRule::Switch);
    }
}
