//! The comms roofline of a sharded matmul: T_math and T_comms as the
//! dimension that grows only the math grows.

use crate::op::Sizes;

use super::array::{size_of, ShardedArray};
use super::matmul::ShardedMatmul;

/// The size of dimension `name` of the inputs.
pub(crate) fn swept_size(inputs: &[&ShardedArray], name: &str, sizes: &Sizes) -> Option<f64> {
    inputs
        .iter()
        .flat_map(|x| x.dims.iter())
        .find(|d| d.name == name)
        .and_then(|d| size_of(d, sizes).ok())
}

/// One point of the comms roofline.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MatmulPoint {
    /// The swept dimension's size.
    pub size: f64,
    /// T_math at that size, s.
    pub t_math: f64,
    /// T_comms (it does not grow with the swept size), s.
    pub t_comms: f64,
}

/// T_math and T_comms as the swept dimension goes from 1/1000 to 1000
/// times its size, 4 points a decade (T_math is linear in it).
pub fn comms_roofline(m: &ShardedMatmul, sizes: &Sizes) -> Vec<MatmulPoint> {
    let Some(name) = &m.swept else {
        return Vec::new();
    };
    let Some(base) = swept_size(&[&m.inputs[0], &m.inputs[1]], name, sizes) else {
        return Vec::new();
    };
    (0..=24)
        .map(|i| {
            let f = crate::num::pow10((i as f64 - 12.0) / 4.0);
            MatmulPoint {
                size: base * f,
                t_math: m.t_math * f,
                t_comms: m.t_comms,
            }
        })
        .collect()
}
