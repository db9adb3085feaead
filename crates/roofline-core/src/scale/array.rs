//! Arrays in the book's sharded notation: `bf16[B_X,D_Y]` is a bf16 array
//! whose B dimension is split over mesh axis X and D over Y; `B_XY` splits
//! B over X×Y. A dimension's name is what comes before its first `_`, the
//! axes the letters after it.
//!
//! The calculator's operation parser reads `B_X` as one dimension name
//! (its names may hold `_`), which is what lets a sharded matmul travel in
//! the calculator's `op`; here each such name is split into the dimension
//! and its axes. A lone array has no `->`, so [`ShardedArray::parse`]
//! reads it itself: a data type and a bracketed list, nothing more.

use crate::op::Sizes;
use crate::{CoreError, DType};

use super::mesh::Mesh;

/// The longest array text read, in characters.
pub const MAX_ARRAY_CHARS: usize = 200;

/// One dimension of a sharded array.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardedDim {
    /// The dimension (`B`).
    pub name: String,
    /// The mesh axes it is split over, in order (`['X']`); empty when
    /// replicated.
    pub axes: Vec<char>,
}

impl ShardedDim {
    /// Splits a written name (`B_XY`) into the dimension and its axes; an
    /// error when the axes are not letters.
    pub fn split(written: &str) -> Result<ShardedDim, CoreError> {
        let (name, sub) = match written.split_once('_') {
            Some((n, s)) => (n, Some(s)),
            None => (written, None),
        };
        let mut c = name.chars();
        let ident =
            matches!(c.next(), Some(f) if f.is_alphabetic()) && c.all(char::is_alphanumeric);
        if !ident {
            return Err(CoreError::Invalid(format!(
                "{} is not a dimension (a letter, then letters or digits, then _ and the axes)",
                crate::query::notice::quoted(written)
            )));
        }
        let mut axes = Vec::new();
        if let Some(sub) = sub {
            if sub.is_empty() || !sub.chars().all(|ch| ch.is_ascii_alphabetic()) {
                return Err(CoreError::Invalid(format!(
                    "{}: after _ come the mesh axes, one letter each (B_XY)",
                    crate::query::notice::quoted(written)
                )));
            }
            axes = sub.chars().map(|ch| ch.to_ascii_uppercase()).collect();
        }
        Ok(ShardedDim {
            name: name.to_string(),
            axes,
        })
    }

    /// The dimension as written: `B_X`, or `B` when replicated.
    pub fn text(&self) -> String {
        if self.axes.is_empty() {
            self.name.clone()
        } else {
            format!("{}_{}", self.name, self.axes.iter().collect::<String>())
        }
    }
}

/// An array with a sharding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardedArray {
    /// Its data type.
    pub dtype: DType,
    /// Its dimensions.
    pub dims: Vec<ShardedDim>,
    /// The axes it holds partial sums over (the book's `{U_X}`): each chip
    /// has its own addend, to be reduced.
    pub unreduced: Vec<char>,
}

impl ShardedArray {
    /// Reads `bf16[B_X,D_Y]`.
    pub fn parse(text: &str) -> Result<ShardedArray, CoreError> {
        let t = text.trim();
        if t.chars().count() > MAX_ARRAY_CHARS {
            return Err(CoreError::Invalid(format!(
                "array: at most {MAX_ARRAY_CHARS} characters"
            )));
        }
        let (dtype, rest) = t.split_once('[').ok_or_else(|| {
            CoreError::Invalid("array: a data type and its dimensions, such as bf16[B_X,D]".into())
        })?;
        let dtype: DType = dtype.trim().parse().map_err(|_| {
            CoreError::Invalid(format!(
                "array: {} is not a data type (bf16, fp32, int8, ...)",
                crate::query::notice::quoted(dtype.trim())
            ))
        })?;
        let (body, after) = rest.split_once(']').ok_or_else(|| {
            CoreError::Invalid("array: the dimensions end with ], as in bf16[B_X,D]".into())
        })?;
        let unreduced = unreduced_axes(after.trim())?;
        let mut dims = Vec::new();
        if !body.trim().is_empty() {
            for d in body.split(',') {
                dims.push(ShardedDim::split(d.trim())?);
            }
        }
        let a = ShardedArray {
            dtype,
            dims,
            unreduced,
        };
        a.check_axes()?;
        Ok(a)
    }

    /// No dimension repeats, no axis splits two dimensions, and none is
    /// both a split and unreduced.
    fn check_axes(&self) -> Result<(), CoreError> {
        if let Some(a) = self.unreduced.iter().find(|a| self.dim_of(**a).is_some()) {
            return Err(CoreError::Invalid(format!(
                "array: axis {a} both splits a dimension and holds partial sums ({{U_{a}}})"
            )));
        }
        for (i, d) in self.dims.iter().enumerate() {
            if self.dims[..i].iter().any(|e| e.name == d.name) {
                return Err(CoreError::Invalid(format!(
                    "array: dimension {} appears twice",
                    crate::query::notice::dim_name(&d.name)
                )));
            }
            for (j, a) in d.axes.iter().enumerate() {
                if d.axes[..j].contains(a) {
                    return Err(CoreError::Invalid(format!(
                        "array: axis {a} is named twice on {}",
                        crate::query::notice::dim_name(&d.name)
                    )));
                }
                if self.dims[..i].iter().any(|e| e.axes.contains(a)) {
                    return Err(CoreError::Invalid(format!(
                        "array: axis {a} shards two dimensions; one axis may split only one dimension of an array"
                    )));
                }
            }
        }
        Ok(())
    }

    /// The array as written: `bf16[B_X,D]`.
    pub fn text(&self) -> String {
        let dims: Vec<String> = self.dims.iter().map(ShardedDim::text).collect();
        let unreduced = if self.unreduced.is_empty() {
            String::new()
        } else {
            format!("{{U_{}}}", self.unreduced.iter().collect::<String>())
        };
        format!("{}[{}]{unreduced}", self.dtype, dims.join(","))
    }

    /// Every axis the array is split over.
    pub fn axes(&self) -> Vec<char> {
        self.dims
            .iter()
            .flat_map(|d| d.axes.iter().copied())
            .collect()
    }

    /// The dimension split over `axis`, if any.
    pub fn dim_of(&self, axis: char) -> Option<usize> {
        self.dims.iter().position(|d| d.axes.contains(&axis))
    }

    /// Elements of the whole (global) array, with sizes from `sizes`.
    pub fn elements(&self, sizes: &Sizes) -> Result<f64, CoreError> {
        self.dims
            .iter()
            .map(|d| size_of(d, sizes))
            .try_fold(1.0, |acc, s| s.map(|s| acc * s))
    }

    /// Bytes of the whole (global) array.
    pub fn bytes(&self, sizes: &Sizes) -> Result<f64, CoreError> {
        Ok(self.elements(sizes)? * self.dtype.bytes())
    }

    /// Every axis is in `mesh`, and every dimension's size is divided by
    /// the product of its axes' sizes.
    pub fn check_on(&self, mesh: &Mesh, sizes: &Sizes) -> Result<(), CoreError> {
        for d in &self.dims {
            check_dim(d, mesh, sizes)?;
        }
        Ok(())
    }
}

/// The axes of a trailing `{U_XY}` (none for empty text).
fn unreduced_axes(t: &str) -> Result<Vec<char>, CoreError> {
    if t.is_empty() {
        return Ok(Vec::new());
    }
    let bad = || {
        CoreError::Invalid(
            "array: after ] may come only the axes it holds partial sums over, as in {U_X}".into(),
        )
    };
    let inner = t
        .strip_prefix('{')
        .and_then(|r| r.strip_suffix('}'))
        .ok_or_else(bad)?;
    let axes = inner
        .trim()
        .strip_prefix("U_")
        .or_else(|| inner.trim().strip_prefix("u_"))
        .ok_or_else(bad)?;
    let mut out: Vec<char> = Vec::new();
    for c in axes.chars().filter(|c| !matches!(c, ',' | ' ')) {
        let c = c.to_ascii_uppercase();
        if !c.is_ascii_uppercase() || out.contains(&c) {
            return Err(bad());
        }
        out.push(c);
    }
    if out.is_empty() {
        return Err(bad());
    }
    Ok(out)
}

/// The size of a dimension: the calculator's size for its written name
/// (`B_X`) or for the dimension (`B`).
pub fn size_of(d: &ShardedDim, sizes: &Sizes) -> Result<f64, CoreError> {
    sizes
        .get(d.text().as_str())
        .or_else(|| sizes.get(d.name.as_str()))
        .copied()
        .filter(|v| v.is_finite() && *v > 0.0)
        .ok_or_else(|| {
            CoreError::Invalid(format!(
                "no size for {}: give it in the sizes",
                crate::query::notice::dim_name(&d.name)
            ))
        })
}

/// The product of the sizes of `axes` in `mesh` (1 for none).
pub fn axes_size(axes: &[char], mesh: &Mesh) -> f64 {
    axes.iter()
        .filter_map(|a| mesh.axis(*a))
        .map(|a| a.size as f64)
        .product()
}

/// One dimension's axes are in `mesh` and divide its size.
pub fn check_dim(d: &ShardedDim, mesh: &Mesh, sizes: &Sizes) -> Result<(), CoreError> {
    for a in &d.axes {
        if mesh.axis(*a).is_none() {
            return Err(CoreError::Invalid(format!(
                "axis {a} (on {}) is not in the mesh ({})",
                crate::query::notice::dim_name(&d.name),
                mesh.text()
            )));
        }
    }
    let size = size_of(d, sizes)?;
    let split = axes_size(&d.axes, mesh);
    if size % split != 0.0 {
        return Err(CoreError::Invalid(format!(
            "{} = {} is not divided by the {} chips of {}",
            crate::query::notice::dim_name(&d.name),
            crate::format::count(size),
            crate::format::count(split),
            d.axes.iter().collect::<String>()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    #[test]
    fn reads_the_notation() {
        let a = ShardedArray::parse("bf16[B_X, D_YZ]").unwrap();
        assert_eq!(a.text(), "bf16[B_X,D_YZ]");
        assert_eq!(a.axes(), ['X', 'Y', 'Z']);
        assert!(ShardedArray::parse("bf16[B_X,D_X]").is_err());
        assert!(ShardedArray::parse("bf16[B_,D]").is_err());
        assert!(ShardedArray::parse("bf17[B]").is_err());
        assert!(ShardedArray::parse("bf16[B,B]").is_err());
    }
}
