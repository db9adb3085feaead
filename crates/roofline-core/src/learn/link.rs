//! The Learn page's key of a link: `step` (docs/url-schema.md).

use super::STEP_COUNT;
use crate::query::notice::{said, Notes};
use crate::query::LinkOut;
use crate::query::{whole, Params};

/// The open step: a whole number from 1 to [`STEP_COUNT`]; 1 with a notice
/// for anything else.
pub(crate) fn read(p: &mut Params, n: &mut Notes) -> u32 {
    let Some(raw) = p.take("step") else {
        return 1;
    };
    match whole(&raw) {
        Some(x) if x >= 1 && x <= u64::from(STEP_COUNT) => u32::try_from(x).unwrap_or(1),
        _ => {
            n.push(
                "step",
                format!(
                    "{} is not a step from 1 to {STEP_COUNT}; using 1",
                    said("step", &raw)
                ),
            );
            1
        }
    }
}

/// Writes `step` unless it is the first.
pub(crate) fn write(step: u32, out: &mut LinkOut) {
    if step != 1 {
        out.put("step", step.to_string());
    }
}
