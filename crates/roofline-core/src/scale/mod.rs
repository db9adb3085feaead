//! The Scale page's core: the book's Parts 2, 3, 5 and 6 on a mesh of
//! chips. A mesh of named axes and each axis's link ([`Mesh`],
//! [`mesh_links`]); collectives on an array in sharded notation
//! ([`array_collective`]); a sharded matmul in the chapter's four cases
//! ([`sharded_matmul`]); and training plans ([`layer`], [`conditions`],
//! [`memory`], [`choose`]). [`evaluate_scale`] turns the page's state into
//! the view it shows, every number formatted.
//!
//! Which bandwidth each formula uses is said where it is used: W_ici is
//! the per-chip rate of one axis, both directions of its links when it
//! wraps around (the book's bidirectional figure, 2 × one way), one
//! direction when it does not, a switch port's one way on a GPU.

mod array;
mod coll;
mod input;
pub(crate) mod link;
mod matmul;
mod matmul_chart;
mod memory;
mod mesh;
mod plan;
mod sharded;
mod state;
mod topology;
mod train;
mod train_words;
mod view;
mod view_train;
mod words;

pub use array::{axes_size, ShardedArray, ShardedDim, MAX_ARRAY_CHARS};
pub use coll::{collective, series, CollBound, CollCost, CollOp, CollPoint, POINTS_PER_DECADE};
pub use input::{check, field_text, set_field};
pub use link::{read_query, state_text};
pub use matmul::{sharded_matmul, unsharded_op, Placement, ShardedMatmul};
pub use matmul_chart::{comms_roofline, MatmulPoint};
pub use memory::{memory, min_chips, run_time, Memory, MemoryInput, RunTime, ADAM, BF16};
pub use mesh::{
    mesh_links, parse_axes, parse_wrap, Axis, AxisLink, Mesh, MeshLinks, MAX_AXES, MAX_CHIPS,
};
pub use plan::{
    axes_spanned, chapter_axes, choose, crossover, floor_pow2, nearest_pow2, optimum, roofline,
    splits, Plan, RooflinePoint, Split,
};
pub use sharded::{array_collective, ArrayCollective};
pub use state::{ScaleState, DEFAULT_ARRAY};
pub use topology::{topology, Topology, WrapRule};
pub use train::{
    conditions, layer, split_threshold, threshold, Conditions, LayerInput, LayerTimes, Strategy,
};
pub use view::{evaluate_scale, links_of, AxisRow, CollView, MatmulView, ScaleView};
pub use view_train::{train_view, SplitRow, TrainView};
pub use words::{why, WHY};
