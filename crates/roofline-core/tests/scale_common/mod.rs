//! What the Scale page's test files share: a tolerance check, a chip's
//! mesh, and sizes.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use roofline_core::hardware::preset;
use roofline_core::op::Sizes;
use roofline_core::scale::{mesh_links, Mesh, MeshLinks};

/// `got` is within the relative tolerance `rel` of `want`.
pub fn close(got: f64, want: f64, rel: f64, what: &str) {
    assert!(
        (got - want).abs() <= rel * want.abs(),
        "{what}: {got} against {want}"
    );
}

/// The mesh `text` on preset `chip`, wrapping by the chip's rules.
pub fn links(chip: &str, text: &str) -> MeshLinks {
    mesh_links(&Mesh::parse(text).unwrap(), &preset(chip).unwrap(), None).unwrap()
}

/// Sizes from pairs.
pub fn sizes(pairs: &[(&str, f64)]) -> Sizes {
    roofline_core::small::map_of(pairs.iter().map(|(k, v)| ((*k).to_string(), *v)))
}
