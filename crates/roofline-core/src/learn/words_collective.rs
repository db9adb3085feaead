//! The words of the Learn page's tenth step: step 8's split matmul in the
//! book's Part 3, where summing the chips' partial results is an
//! AllReduce. Every number is computed: the calculator's network result
//! (a ring all-reduce over one link, one way) and the collective's cost on
//! the chip's link with Part 3's bandwidth ([`crate::collective`]).

use super::words::{n, size, when};
use crate::analysis::Regime;
use crate::calc::CalcView;
use crate::collective::{all_gather, all_reduce, LinkModel, Wiring};
use crate::format;
use crate::state::ChartScale;
use crate::CoreError;

pub(super) fn allreduce_words(
    v: &CalcView,
    _: &[f64],
    _: ChartScale,
) -> Result<Vec<String>, CoreError> {
    let na = v
        .network
        .as_ref()
        .ok_or_else(|| CoreError::Invalid("the step has no network result".to_string()))?;
    let chip = v
        .chip
        .as_ref()
        .ok_or_else(|| CoreError::Invalid("the step has no chip".to_string()))?;
    let link = LinkModel::of_chip(chip)
        .ok_or_else(|| CoreError::Invalid(format!("{} lists no link between chips", chip.name)))?;
    let chips = f64::from(na.chips);
    // V: the whole partial result Z[B, F] each chip holds, bf16.
    let v_bytes = na.partial_bytes;
    let reduce = all_reduce(v_bytes, chips, &link);
    let gather = all_gather(v_bytes, chips, &link);
    let both = match link.wiring {
        Wiring::BidirectionalRing => format!(
            "an axis that wraps around is a ring each chip sends on in both directions, so Part 3’s W_ici is both directions of a link, 2 × {} = {}",
            format::bandwidth(link.one_way),
            format::bandwidth(link.per_chip()),
        ),
        Wiring::Switch => format!(
            "a switch takes each chip’s port one way at {}",
            format::bandwidth(link.per_chip()),
        ),
        Wiring::Ring => format!(
            "a ring that does not wrap is sent on one way at {}",
            format::bandwidth(link.per_chip()),
        ),
    };
    Ok(vec![
        format!(
            "Part 3 writes step 8’s split in its sharded notation: X[B, D_X] · Y[D_X, F] → Z[B, F]{{U_X}}. Both inputs are split on the summed dimension D along one mesh axis X of N = {} chips (the chapter’s case 3). Each chip multiplies its D ÷ N = {} slice and holds an unreduced Z[B, F] (the {{U_X}}); adding the N partials is an AllReduce over X.",
            na.chips,
            n(na.shard_per_chip),
        ),
        format!(
            "An AllReduce is a ReduceScatter then an AllGather. On a ring each chip sends 2(N − 1) ÷ N of its partial V = 2BF = {} (bf16, B = {}, F = {}): {} × V = {} per chip. Over one {} link one way at {} that is T_comms = {} (the calculator’s count, the chart’s network line).",
            format::bytes(v_bytes),
            n(size(v, "B")),
            n(size(v, "F")),
            format::sig(2.0 * (chips - 1.0) / chips, 3),
            format::bytes(na.bytes_sent),
            na.link.name(),
            format::bandwidth(na.bandwidth),
            format::seconds(na.t_comms),
        ),
        format!(
            "Part 3 counts it on the whole axis: {both}. An AllGather of V takes (N − 1) ÷ N × V ÷ W_ici = {}, about V ÷ W_ici whatever N is (each chip must still receive nearly all of V), and an AllReduce twice that, 2(N − 1) ÷ N × V ÷ W_ici = {}, plus {} of latency, one hop per step: {} in all.",
            format::seconds(gather.bandwidth_time),
            format::seconds(reduce.bandwidth_time),
            format::seconds(reduce.latency),
            format::seconds(reduce.time),
        ),
        format!(
            "Against the math, T_math = 2BDF ÷ N = {}. The calculator’s AllReduce, {}, {}; Part 3’s, {}, {}. Unlike step 8’s single send, the AllReduce’s bytes barely shrink as N grows while the math does, so a bigger N needs a bigger D to stay compute-bound: by the calculator’s count, {}.",
            format::seconds(na.t_math),
            format::seconds(na.t_comms),
            match na.regime {
                Regime::Compute => "takes less time, so by its count the split stays compute-bound",
                Regime::Bandwidth => "takes longer, so by its count the split is bound by the link",
            },
            format::seconds(reduce.time),
            if reduce.time > na.t_math {
                "takes longer too"
            } else {
                "is shorter: on an axis that wraps, both directions make the split compute-bound"
            },
            when(&na.shard_dim, &na.threshold),
        ),
        format!(
            "The chart is step 8’s with the AllReduce’s bytes: the network intensity is each chip’s FLOPs over the bytes it sends, {} ÷ {} = {}, against the link’s critical {}; the dashed line is each chip’s own work against {}, {} ÷ {} = {}.",
            format::flops(na.flops_per_chip),
            format::bytes(na.bytes_sent),
            format::intensity(na.intensity),
            format::intensity(na.critical_intensity),
            na.memory_name,
            format::flops(na.flops_per_chip),
            format::bytes(na.memory_bytes),
            format::intensity(na.flops_per_chip / na.memory_bytes),
        ),
        "The Scale page (the Scale tab) counts this for any mesh and any sharding, with the other three cases, the collectives’ latency and their time against the message size.".to_string(),
    ])
}
