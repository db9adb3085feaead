//! The network case of a link: `n`, `link`, `shard` and `coll`, each
//! checked against the chip and the operation.

use crate::hardware::Chip;
use crate::network::Collective;
use crate::op::Operation;
use crate::query::notice::{dim_list, dim_name, said, Notes};
use crate::query::{whole, Params};
use crate::state::MAX_CHIPS;
use crate::LevelKind;

use super::level::read_level;

/// How a link splits the operation over chips.
pub(super) struct Network {
    /// Chips, from 1 to [`MAX_CHIPS`].
    pub(super) chips: u32,
    /// The link between them; `None` = the chip's first.
    pub(super) link: Option<LevelKind>,
    /// The summed-over dimension split; `None` = the default.
    pub(super) shard: Option<String>,
    /// How the partial results are combined.
    pub(super) collective: Collective,
}

/// Reads `n`, `link`, `shard` and `coll` for `chip` and `op`; each bad
/// value is its default, with a notice.
pub(super) fn read_network(p: &mut Params, n: &mut Notes, chip: &Chip, op: &Operation) -> Network {
    let kinds = chip.level_kinds();
    let chips = match p.take("n") {
        None => 1,
        Some(raw) => match whole(&raw) {
            Some(x) if x > u64::from(MAX_CHIPS) => {
                n.push(
                    "n",
                    format!(
                        "{} is more than {MAX_CHIPS} chips; using {MAX_CHIPS}",
                        said("n", &raw)
                    ),
                );
                MAX_CHIPS
            }
            Some(x) if x >= 1 => u32::try_from(x).unwrap_or(1),
            _ => {
                n.push(
                    "n",
                    format!(
                        "{} is not a whole number of chips from 1 to {MAX_CHIPS}; using 1",
                        said("n", &raw)
                    ),
                );
                1
            }
        },
    };

    let link = p.take("link").and_then(|raw| {
        if raw.trim().eq_ignore_ascii_case("auto") {
            return None;
        }
        let why = match read_level(&raw) {
            Some(k) if !k.is_network() => {
                format!("link: {k} is not a link between chips (ICI, NVLink or DCN)")
            }
            Some(k) if !kinds.contains(&k) => format!("link: {} has no {k}", chip.name),
            Some(k) => return Some(k),
            None => format!("{} is not a link (ici, nvlink or dcn)", said("link", &raw)),
        };
        n.push("link", format!("{why}; using the chip's first link"));
        None
    });

    let contracted = op.contracted_dims();
    let shard = p.take("shard").and_then(|raw| {
        let t = raw.trim();
        if contracted.iter().any(|d| d == t) {
            return Some(t.to_string());
        }
        let msg = if contracted.is_empty() {
            "shard: the operation sums over no dimension; ignored".to_string()
        } else {
            let auto = if contracted.iter().any(|d| d == "D") {
                "D".to_string()
            } else {
                contracted.first().map(|d| dim_name(d)).unwrap_or_default()
            };
            format!(
                "{} is not a summed-over dimension of the operation ({}); using {auto}",
                said("shard", &raw),
                dim_list(&contracted)
            )
        };
        n.push("shard", msg);
        None
    });

    let collective = match p.take("coll") {
        None => Collective::Once,
        Some(raw) => Collective::from_key(raw.trim()).unwrap_or_else(|| {
            n.push(
                "coll",
                format!(
                    "{} is not a way of combining the chips' results (once or ring); using once",
                    said("coll", &raw)
                ),
            );
            Collective::Once
        }),
    };

    Network {
        chips,
        link,
        shard,
        collective,
    }
}
