//! The Model page's verdicts: whether it fits, what takes the longest in
//! the step (the headline), the serving layout over several chips and the
//! link's sentence. Each sentence is built from the numbers the rows show.

use super::run::{ModelAnalysis, ModelRun, StepTerm};
use super::state::Phase;
use crate::format::{self, seconds};
use crate::hardware::Chip;

/// `n chip` / `n chips`.
pub(super) fn chips_text(n: f64) -> String {
    format!(
        "{} chip{}",
        format::plain_number(n),
        if n == 1.0 { "" } else { "s" }
    )
}

/// Whether it fits: `yes` / `no` (or empty) and a sentence.
pub(super) fn fits(run: &ModelRun, a: &ModelAnalysis, chip: &Chip) -> (String, String) {
    let mem = chip.memory;
    let n = run.chips;
    let held = if a.kv_copies > 1.0 {
        " (the KV cache held on every chip that needs it)"
    } else {
        ""
    };
    match (a.fits, a.hbm) {
        (Some(true), Some(h)) => (
            "yes".to_string(),
            format!(
                "It fits: {}{held} of the {} in {}.",
                format::bytes(a.memory),
                format::bytes(h),
                chips_text(n)
            ),
        ),
        (Some(false), Some(h)) => (
            "no".to_string(),
            format!(
                "It does not fit: it needs {}{held}, and {} {} {}.{}",
                format::bytes(a.memory),
                chips_text(n),
                if n == 1.0 { "holds" } else { "hold" },
                format::bytes(h),
                match a.max_batch {
                    Some(b) if b >= 1.0 => format!(
                        " At this context at most {} sequences fit.",
                        format::count(b)
                    ),
                    _ => " Even the weights alone need more: add chips, or use narrower weights."
                        .to_string(),
                }
            ),
        ),
        _ => (
            String::new(),
            format!(
                "{} lists no {mem} capacity, so whether it fits is not known.",
                chip.name
            ),
        ),
    }
}

/// The headline: the part of the step that takes the longest
/// ([`ModelAnalysis::dominant`]) with its time and the step's, then the
/// weight matmuls' own regime. The key is the term's.
pub(super) fn headline(run: &ModelRun, a: &ModelAnalysis) -> (&'static str, String) {
    let step = seconds(a.step_time);
    let decode = run.step.phase == Phase::Decode;
    let link_name = a.link.as_ref().map_or("link", |l| l.model.kind.name());
    let first = match (a.dominant, decode) {
        (StepTerm::Link, _) => {
            let lt = a.link.as_ref().map_or(0.0, |l| l.time);
            let base = a.base_time;
            match a.link.as_ref().map(|l| l.overlapped) {
                Some(true) if lt >= base => format!("The {link_name} takes the longest: {} per step, more than the {} the chips need for the rest, so the step waits for it.", seconds(lt), seconds(base)),
                Some(true) => format!("The {link_name} takes the longest on its own ({}), but the step overlaps it with the rest, which takes {} because {}, so the step is {step}.", seconds(lt), seconds(base), if decode { "the KV read and the weights come one after the other" } else { "the weights and the KV cache come one after the other" }),
                _ => format!("The {link_name} takes the longest: {} of the {step} step (not overlapped).", seconds(lt)),
            }
        }
        (StepTerm::Kv, true) => format!(
            "Reading the KV cache takes the longest: {} of the {step} step.",
            seconds(a.t_kv)
        ),
        (StepTerm::Weights, true) => format!(
            "Loading the weights takes the longest: {} of the {step} step.",
            seconds(a.t_weight_load)
        ),
        (StepTerm::Math, true) => format!(
            "The weights' math takes the longest: {} of the {step} step.",
            seconds(a.t_weight_math)
        ),
        (StepTerm::Math, false) => format!(
            "The math takes the longest: {} of FLOPs, against {} of memory traffic, in the {step} step.",
            seconds(prefill_math(a)),
            seconds(prefill_memory(a))
        ),
        (StepTerm::Weights | StepTerm::Kv, false) => format!(
            "Memory traffic takes the longest: {} ({} reading the weights, {} for the KV cache), against {} of math, in the {step} step.",
            seconds(prefill_memory(a)),
            seconds(a.weights_read / a.bandwidth),
            seconds(a.kv_traffic / a.bandwidth),
            seconds(prefill_math(a))
        ),
    };
    let tok = if decode { "B" } else { "B·T" };
    let tokens = format::count(run.tokens());
    let above = run.tokens() > a.critical_batch;
    // The critical batch assumes every expert is read: name it only when
    // the comparison agrees with the times.
    let against = if above == a.compute_bound {
        format!(
            "; {tok} = {tokens} is {} the critical {}",
            if above { "above" } else { "below" },
            format::count(a.critical_batch)
        )
    } else {
        String::new()
    };
    let second = if decode {
        if a.compute_bound {
            format!(" The weight matmuls alone are compute-bound: their math ({}) takes longer than loading the weights ({}){against}.", seconds(a.t_weight_math), seconds(a.t_weight_load))
        } else {
            format!(" The weight matmuls alone are bandwidth-bound: loading the weights ({}) takes longer than their math ({}){against}.", seconds(a.t_weight_load), seconds(a.t_weight_math))
        }
    } else if a.compute_bound {
        format!(" Compute-bound{against}.")
    } else {
        format!(" Bandwidth-bound{against}.")
    };
    (a.dominant.key(), format!("{first}{second}"))
}

/// Prefill's FLOPs ÷ C.
fn prefill_math(a: &ModelAnalysis) -> f64 {
    (a.weight_flops + a.attention_flops) / a.flops_rate
}

/// Prefill's bytes ÷ W.
fn prefill_memory(a: &ModelAnalysis) -> f64 {
    (a.weights_read + a.kv_traffic) / a.bandwidth
}

/// Over several chips, how the model is split, in words.
pub(super) fn layout(run: &ModelRun, a: &ModelAnalysis) -> String {
    let n = run.chips;
    if n <= 1.0 {
        return String::new();
    }
    let m = &run.config;
    let k = format::plain_number(m.kv_heads);
    let kv = if a.kv_copies > 1.0 {
        let per_chip = (m.kv_heads / n).ceil();
        format!(
            " The K = {k} KV heads cannot be split {} ways: each chip keeps the {} its query heads need, so the chips hold the KV cache {} times over and each reads its own copy.",
            format::plain_number(n),
            if per_chip == 1.0 { "one".to_string() } else { format!("{} heads", format::plain_number(per_chip)) },
            format::sig(a.kv_copies, 3)
        )
    } else {
        format!(" The K = {k} KV heads and their cache are split evenly.")
    };
    format!(
        "Layout: tensor parallelism over {}. Each layer's query heads and MLP columns are split {} ways, so each layer ends its attention and its MLP with an all-reduce of the tokens' activations.{kv}",
        chips_text(n),
        format::plain_number(n)
    )
}

/// Over several chips, the link's sentence: the layout's time, the book's
/// sketch beside it, and whether the step overlaps it.
pub(super) fn link(run: &ModelRun, a: &ModelAnalysis, chip: &Chip) -> String {
    let Some(l) = &a.link else {
        return if run.chips > 1.0 {
            format!("{} lists no link between chips.", chip.name)
        } else {
            String::new()
        };
    };
    let name = l.model.kind.name();
    let latency = if l.model.latency_source.is_empty() {
        format!(
            " {} lists no latency for {name}: the time is the bytes alone.",
            chip.name
        )
    } else {
        format!(
            " {} of it is latency, at {}.",
            seconds(l.latency),
            l.model.latency_source
        )
    };
    let rest = a.base_time;
    let how = if l.overlapped {
        if l.time > rest {
            format!(" The step overlaps it (the book's view), and it is longer than the {} of the rest, so the step is the link's.", seconds(rest))
        } else {
            format!(
                " The step overlaps it (the book's view), so it hides behind the {} of the rest.",
                seconds(rest)
            )
        }
    } else {
        format!(
            " Not overlapped, it adds to the {} of the rest.",
            seconds(rest)
        )
    };
    format!(
        "The {name}: {} per step, 2 all-reduces a layer of {} each over {}.{latency} The book's sketch, one transfer of the tokens' activations a layer over one link, is {}.{how}",
        seconds(l.time),
        format::bytes(l.array),
        l.model.wiring.text(),
        seconds(l.book_time)
    )
}
