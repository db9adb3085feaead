//! A mesh of named axes (`X:16,Y:16,Z:16`) and the link each axis runs
//! over on a chip: its bandwidth one way and both ways, whether it wraps
//! around, and its latency; with the chip's DCN and PCIe per chip.
//!
//! On a TPU every axis is an ICI axis of the torus. On a GPU (or another
//! accelerator with a switched scale-up link) the first axis is the
//! switched domain (NVLink) and every further axis crosses nodes over the
//! chip's DCN level (InfiniBand on the GPUs).

use crate::collective::{LinkModel, Wiring};
use crate::hardware::Chip;
use crate::{CoreError, LevelKind};

use super::topology::{topology, Topology, WrapRule};

/// The most axes a mesh may have.
pub const MAX_AXES: usize = 6;
/// The most chips a mesh may have (the largest slices have about 10^4).
pub const MAX_CHIPS: f64 = 1e6;

/// One named axis of a mesh.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Axis {
    /// Its name: one letter, upper-case (`X`).
    pub name: char,
    /// Chips along it.
    pub size: u64,
}

/// A mesh of devices with named axes, in the order written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mesh {
    /// The axes.
    pub axes: Vec<Axis>,
}

fn bad(msg: String) -> CoreError {
    CoreError::Invalid(msg)
}

/// An axis name as a message may show it.
fn shown(s: &str) -> String {
    crate::query::notice::quoted(s)
}

impl Mesh {
    /// Reads `X:16,Y:16,Z:16` (commas or spaces between axes; a name is
    /// one letter, any case; a size a whole number from 1). The error says
    /// which axis is wrong and why.
    pub fn parse(text: &str) -> Result<Mesh, CoreError> {
        let parts: Vec<&str> = text
            .split([',', ' ', ';'])
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .collect();
        if parts.is_empty() {
            return Err(bad(
                "mesh: name each axis and its size, such as X:4,Y:4,Z:4".to_string(),
            ));
        }
        if parts.len() > MAX_AXES {
            return Err(bad(format!("mesh: at most {MAX_AXES} axes")));
        }
        let mut axes: Vec<Axis> = Vec::new();
        for part in parts {
            let Some((name, size)) = part.split_once([':', '=']) else {
                return Err(bad(format!(
                    "mesh: {} is not name:size, such as X:16",
                    shown(part)
                )));
            };
            let mut chars = name.trim().chars();
            let name = match (chars.next(), chars.next()) {
                (Some(c), None) if c.is_ascii_alphabetic() => c.to_ascii_uppercase(),
                _ => {
                    return Err(bad(format!(
                        "mesh: an axis is named by one letter, not {}",
                        shown(name)
                    )))
                }
            };
            if axes.iter().any(|a| a.name == name) {
                return Err(bad(format!("mesh: axis {name} is named twice")));
            }
            let size = match crate::num::parse_f64(size.trim()) {
                Some(v) if v.is_finite() && v >= 1.0 && v.fract() == 0.0 && v <= MAX_CHIPS => {
                    v as u64
                }
                Some(v) if v.is_finite() && v > MAX_CHIPS => {
                    return Err(bad(format!(
                        "mesh: axis {name} has more than {} chips",
                        crate::format::sci(MAX_CHIPS)
                    )))
                }
                _ => {
                    return Err(bad(format!(
                        "mesh: the size of axis {name} is not a whole number of chips from 1"
                    )))
                }
            };
            axes.push(Axis { name, size });
        }
        let mesh = Mesh { axes };
        if mesh.chips() > MAX_CHIPS {
            return Err(bad(format!(
                "mesh: {} chips in all; at most {}",
                crate::format::sci(mesh.chips()),
                crate::format::sci(MAX_CHIPS)
            )));
        }
        Ok(mesh)
    }

    /// Chips in the mesh: the product of the axes' sizes.
    pub fn chips(&self) -> f64 {
        self.axes.iter().map(|a| a.size as f64).product()
    }

    /// The axis named `name` (any case).
    pub fn axis(&self, name: char) -> Option<&Axis> {
        let n = name.to_ascii_uppercase();
        self.axes.iter().find(|a| a.name == n)
    }

    /// The mesh as a link writes it: `X:4,Y:4,Z:4`.
    pub fn text(&self) -> String {
        self.axes
            .iter()
            .map(|a| format!("{}:{}", a.name, a.size))
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// Reads a list of axes (`XY`, `X,Y`, `x y`), each once and in `mesh`; an
/// empty list is an error naming `field`.
pub fn parse_axes(field: &str, text: &str, mesh: &Mesh) -> Result<Vec<char>, CoreError> {
    let mut out: Vec<char> = Vec::new();
    for c in text.chars().filter(|c| !matches!(c, ',' | ' ' | '{' | '}')) {
        if !c.is_ascii_alphabetic() {
            return Err(bad(format!(
                "{field}: axes are letters of the mesh ({}), such as XY",
                mesh.text()
            )));
        }
        let c = c.to_ascii_uppercase();
        if mesh.axis(c).is_none() {
            return Err(bad(format!(
                "{field}: axis {c} is not in the mesh ({})",
                mesh.text()
            )));
        }
        if out.contains(&c) {
            return Err(bad(format!("{field}: axis {c} is named twice")));
        }
        out.push(c);
    }
    if out.is_empty() {
        return Err(bad(format!("{field}: name at least one axis, such as X")));
    }
    Ok(out)
}

/// One axis of a mesh on a chip: its link as the collectives see it.
#[derive(Debug, Clone, PartialEq)]
pub struct AxisLink {
    /// The axis's name.
    pub name: char,
    /// Chips along it.
    pub size: u64,
    /// The link it runs over (ICI, NVLink, or DCN for a GPU's axes past
    /// the first).
    pub kind: LevelKind,
    /// Bytes/s one chip sends one way on one link of it (the chip's figure).
    pub one_way: f64,
    /// Bytes/s one link carries both ways: 2 × one way (the book's W_ici
    /// when the axis wraps).
    pub bidirectional: f64,
    /// Whether it wraps around (by the chip's rule or the user's choice).
    pub wraps: bool,
    /// Whether the chip's rule says it wraps.
    pub wraps_by_rule: bool,
    /// The model the collectives use over it.
    pub link: LinkModel,
}

impl AxisLink {
    /// Bytes/s a chip moves along this axis in a collective: both
    /// directions when it wraps (a bidirectional ring), one otherwise, its
    /// port's one way on a switch.
    pub fn per_chip(&self) -> f64 {
        self.link.per_chip()
    }

    /// The same axis with its wraparound set to `wraps` (no change on a
    /// switch).
    pub fn with_wrap(&self, wraps: bool) -> AxisLink {
        let mut a = self.clone();
        if a.link.wiring != Wiring::Switch {
            a.wraps = wraps;
            a.link.wiring = if wraps {
                Wiring::BidirectionalRing
            } else {
                Wiring::Ring
            };
        }
        a
    }
}

/// A mesh laid on a chip: every axis's link, and the chip's DCN and PCIe.
#[derive(Debug, Clone, PartialEq)]
pub struct MeshLinks {
    /// The mesh.
    pub mesh: Mesh,
    /// The chip's layout rules.
    pub topology: Topology,
    /// Every axis's link, in the mesh's order.
    pub axes: Vec<AxisLink>,
    /// DCN per chip, bytes/s one way, if the chip lists it.
    pub dcn: Option<f64>,
    /// PCIe per chip, bytes/s one way, if the chip lists it.
    pub pcie: Option<f64>,
}

impl MeshLinks {
    /// The link of axis `name`.
    pub fn axis(&self, name: char) -> Option<&AxisLink> {
        self.axes.iter().find(|a| a.name == name)
    }
}

/// The wraparound the user set: `None` for the chip's rules; `none` (or
/// nothing) for no axis; else the axes that wrap (`XY`).
pub fn parse_wrap(text: Option<&str>, mesh: &Mesh) -> Result<Option<Vec<char>>, CoreError> {
    match text.map(str::trim) {
        None => Ok(None),
        Some(t) if t.is_empty() || t.eq_ignore_ascii_case("none") => Ok(Some(Vec::new())),
        Some(t) => parse_axes("wrap", t, mesh).map(Some),
    }
}

/// Lays `mesh` on `chip`: each axis's link, wrapping by the chip's rule
/// unless `wrap` lists the axes that do.
pub fn mesh_links(mesh: &Mesh, chip: &Chip, wrap: Option<&[char]>) -> Result<MeshLinks, CoreError> {
    let topo = topology(chip);
    let first = LinkModel::of_chip(chip).ok_or_else(|| {
        bad(format!(
            "{} lists no link between chips, so it has no mesh",
            chip.name
        ))
    })?;
    // A torus gives a chip two links an axis: a mesh cannot lay more axes
    // of more than one chip over it than it has dimensions (a v5e's 2-D
    // torus has 4 neighbours a chip, so no third axis of links).
    let busy = mesh.axes.iter().filter(|a| a.size > 1).count();
    if topo.wrap != WrapRule::Switch && first.kind == LevelKind::Ici && busy > topo.dims {
        return Err(bad(format!(
            "{}'s chips are joined in a {}-D torus: a mesh of it has at most {} axes of more than one chip ({} has {busy})",
            chip.name,
            topo.dims,
            topo.dims,
            mesh.text()
        )));
    }
    let dcn = chip.bandwidth(LevelKind::Dcn).ok();
    let mut axes = Vec::with_capacity(mesh.axes.len());
    for (i, a) in mesh.axes.iter().enumerate() {
        let torus = topo.wrap != WrapRule::Switch && first.kind == LevelKind::Ici;
        let link = if torus || i == 0 {
            first.clone()
        } else {
            let bw = dcn.ok_or_else(|| {
                bad(format!(
                    "{} lists no network between nodes (DCN), so a mesh of it has one axis",
                    chip.name
                ))
            })?;
            let mut l = LinkModel::new(LevelKind::Dcn, bw);
            l.wiring = Wiring::Switch;
            l
        };
        let by_rule = torus && topo.wrap.wraps(a.size);
        let wraps = match wrap {
            None => by_rule,
            Some(list) => torus && list.contains(&a.name),
        };
        let axis = AxisLink {
            name: a.name,
            size: a.size,
            kind: link.kind,
            one_way: link.one_way,
            bidirectional: 2.0 * link.one_way,
            wraps: by_rule,
            wraps_by_rule: by_rule,
            link,
        };
        axes.push(if torus { axis.with_wrap(wraps) } else { axis });
    }
    Ok(MeshLinks {
        mesh: mesh.clone(),
        topology: topo,
        axes,
        dcn,
        pcie: chip.bandwidth(LevelKind::Pcie).ok(),
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    #[test]
    fn reads_and_refuses() {
        let m = Mesh::parse("x:16, Y:16,Z:16").unwrap();
        assert_eq!(m.chips(), 4096.0);
        assert_eq!(m.text(), "X:16,Y:16,Z:16");
        for bad in [
            "", "X", "X:0", "X:-4", "X:2.5", "X:1e30", "X:4,x:4", "XY:4", "X:nan",
        ] {
            assert!(Mesh::parse(bad).is_err(), "{bad}");
        }
    }

    /// A v5e is a 2-D torus: a third axis of more than one chip has no
    /// links to run over (the helper's 1.5× too much bandwidth); an axis of
    /// one chip is no axis of links, and a 3-D v5p takes three.
    #[test]
    fn a_torus_takes_as_many_axes_as_it_has_dimensions() {
        let v5e = crate::hardware::preset("v5e").unwrap();
        let v5p = crate::hardware::preset("v5p").unwrap();
        let mesh = |t: &str| Mesh::parse(t).unwrap();
        let e = mesh_links(&mesh("X:4,Y:4,Z:4"), &v5e, None).unwrap_err();
        assert!(e.to_string().contains("2-D torus"), "{e}");
        assert!(mesh_links(&mesh("X:4,Y:4,Z:1"), &v5e, None).is_ok());
        assert!(mesh_links(&mesh("X:4,Y:4,Z:4"), &v5p, None).is_ok());
        assert!(mesh_links(&mesh("X:4,Y:4,Z:4,W:4"), &v5p, None).is_err());
        let h100 = crate::hardware::preset("h100").unwrap();
        assert!(mesh_links(&mesh("X:8,Y:4,Z:2"), &h100, None).is_ok());
    }
}
