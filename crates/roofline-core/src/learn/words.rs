//! The Learn page's words: each step's paragraphs, worded from its
//! evaluation. The words are the project's own; the numbers are computed.

use super::steps::states::matmul;
use crate::analysis::{Analysis, CriticalSize, Regime};
use crate::calc::{evaluate, CalcInput, CalcView};
use crate::format;
use crate::op::{Operation, Shortcut};
use crate::report::critical_text;
use crate::state::ChartScale;
use crate::{CoreError, DType, LevelKind};

pub(super) fn analysis(v: &CalcView) -> Result<&Analysis, CoreError> {
    v.analysis
        .as_ref()
        .ok_or_else(|| CoreError::Invalid("the step has no result".to_string()))
}

pub(super) fn chip_name(v: &CalcView) -> &str {
    v.chip.as_ref().map_or("the chip", |c| c.name.as_str())
}

pub(super) fn size(v: &CalcView, dim: &str) -> f64 {
    v.scenario
        .as_ref()
        .and_then(|s| s.sizes.get(dim).copied())
        .unwrap_or(0.0)
}

pub(super) fn n(x: f64) -> String {
    format::sig(x, 6)
}

/// The regime as a short clause: "compute-bound: the math takes longer".
fn regime_clause(r: Regime) -> &'static str {
    match r {
        Regime::Compute => "compute-bound: the math takes longer than moving the bytes",
        Regime::Bandwidth => "bandwidth-bound: moving the bytes takes longer than the math",
    }
}

pub(super) fn time_words(v: &CalcView, _: &[f64], _: ChartScale) -> Result<Vec<String>, CoreError> {
    let a = analysis(v)?;
    let bigger = if a.t_math > a.t_comms {
        "T_math"
    } else {
        "T_comms"
    };
    Ok(vec![
        "An operation on a chip does two things: it computes, and it moves bytes between memory and the units that compute. Each takes time of its own. FLOPs count the work and FLOP/s is how fast the chip does it, so T_math = FLOPs ÷ the chip’s peak FLOP/s; likewise T_comms = bytes ÷ the memory’s bandwidth in bytes/s.".to_string(),
        format!(
            "This matmul, {} (the product sums over the dimension D that both inputs share), with B = {} and D = F = {}, does {} and moves {}. On {} ({} at {}, {} from {}): T_math = {} and T_comms = {}.",
            v.op.as_ref().map_or_else(String::new, Operation::notation),
            n(size(v, "B")),
            n(size(v, "D")),
            format::flops(a.flops),
            format::bytes(a.bytes),
            chip_name(v),
            format::rate(a.peak, a.compute_dtype),
            a.compute_dtype,
            format::bandwidth(a.bandwidth),
            a.level_name,
            format::seconds(a.t_math),
            format::seconds(a.t_comms),
        ),
        format!(
            "The chip can compute while it moves data, so the operation lasts at least max(T_math, T_comms) = {} (if the two overlap perfectly) and at most T_math + T_comms = {} (if they do not overlap at all). Here {bigger} is the larger, so the operation is {}.",
            format::seconds(a.t_lower),
            format::seconds(a.t_upper),
            regime_clause(a.regime),
        ),
        "Move B. The FLOPs grow in proportion to B, the bytes much more slowly (the weights are read once whatever B is), so past some batch the larger of the two times changes sides.".to_string(),
    ])
}

pub(super) fn intensity_words(
    v: &CalcView,
    values: &[f64],
    _: ChartScale,
) -> Result<Vec<String>, CoreError> {
    let a = analysis(v)?;
    let relation = if a.intensity > a.critical_intensity {
        ">"
    } else {
        "≤"
    };
    Ok(vec![
        "Which time is larger comes down to comparing two ratios, one of the operation and one of the chip. T_math > T_comms means FLOPs ÷ peak > bytes ÷ bandwidth, which is the same as FLOPs ÷ bytes > peak ÷ bandwidth.".to_string(),
        format!(
            "The left side belongs to the operation: its arithmetic intensity, {} ÷ {} = {}. The right side belongs to the chip and one of its memories: the critical intensity, {} ({}) ÷ {} ({}) = {}, the FLOPs the chip can do in the time that memory delivers one byte.",
            format::flops(a.flops),
            format::bytes(a.bytes),
            format::intensity(a.intensity),
            format::rate(a.peak, a.compute_dtype),
            crate::report::roof_name(a),
            format::bandwidth(a.bandwidth),
            a.level_name,
            format::intensity(a.critical_intensity),
        ),
        format!(
            "{} {relation} {}, so this operation is {}. On the chart it is the dashed vertical line at its intensity, and the dot where that line meets the roofline is the most it can attain: {}.",
            format::intensity(a.intensity),
            format::intensity(a.critical_intensity),
            regime_clause(a.regime),
            format::rate(a.attained, a.compute_dtype),
        ),
        match values[0] as u32 {
            0 if a.unit != crate::ComputeUnit::Vector => "The dot product uses each number it reads in one multiply-add: its intensity stays below 1 however long the vectors are.".to_string(),
            0 => {
                let matrix = v
                    .chip
                    .as_ref()
                    .and_then(|c| c.peak(a.compute_dtype).ok())
                    .unwrap_or(f64::NAN);
                format!(
                    "The dot product uses each number it reads in one multiply-add: its intensity stays below 1 however long the vectors are. Work like this, with nothing to reuse, runs on the vector unit, so the roof here is its peak, {}, not the matrix unit’s {} the matmuls use. The chapter compares the dot product with the matrix unit’s critical intensity, {} ÷ {} = {}: against either roof it is far below, so bandwidth-bound.",
                    format::flops_rate(a.peak),
                    format::flops_rate(matrix),
                    format::flops_rate(matrix),
                    format::bandwidth(a.bandwidth),
                    format::intensity(matrix / a.bandwidth),
                )
            }
            3 => format!(
                "The batched matmul has a matrix of its own for every example, so nothing read is shared across the batch: about 2 operations per weight byte whatever B is. It is all int8, so its roof is the int8 peak, {}, and its critical intensity {}: twice the bf16 one, and even further out of reach.",
                format::rate(a.peak, a.compute_dtype),
                format::intensity(a.critical_intensity),
            ),
            _ => match &a.approx {
                // The shortcut and the exact count disagree on the regime.
                Some(ap) if ap.intensity > a.critical_intensity && a.intensity <= a.critical_intensity => format!(
                    "A matrix product reuses every number it reads many times over. The shortcut {} would put it past the critical intensity, but with D = F = 4096 the activations’ and output’s bytes are not negligible: counted exactly, it falls short (steps 5 and 7 come back to this).",
                    ap.formula,
                ),
                _ => "A matrix product reuses every number it reads many times over: its intensity grows with B.".to_string(),
            },
        },
    ])
}

pub(super) fn reading_words(
    v: &CalcView,
    _: &[f64],
    scale: ChartScale,
) -> Result<Vec<String>, CoreError> {
    let a = analysis(v)?;
    Ok(vec![
        "The figure plots the FLOP/s an operation can attain (up) against its arithmetic intensity (across). Under one bandwidth, an operation of intensity I can attain at most I × bandwidth: the sloped line. It can never beat the chip’s peak: the flat roof. The lower of the two is the roofline.".to_string(),
        format!(
            "Here HBM moves {}. Its line meets the roof where I × bandwidth = peak, at I = {} ÷ {} = {}: the critical intensity. Left of it an operation is bandwidth-bound, right of it compute-bound. This matmul (all bf16, B = 256, D = F = 4096) sits at {}, so it is {}.",
            format::bandwidth(a.bandwidth),
            format::flops_rate(a.peak),
            format::bandwidth(a.bandwidth),
            format::intensity(a.critical_intensity),
            format::intensity(a.intensity),
            a.regime.label(),
        ),
        match scale {
            ChartScale::Log => "Move the bandwidth: the line shifts up, its bend moves left, and the roof stays where it is. The axes are logarithmic, so a line never reaches zero and every bandwidth is a line of the same slope; untick “Log axes” to see the lines start at the origin, with the bandwidth as their slope.",
            ChartScale::Linear => "Move the bandwidth: the line turns steeper, its bend moves left, and the roof stays where it is. The axes are linear, so every line starts at the origin with the bandwidth as its slope; tick “Log axes” for the chapter’s log-log figure, where every bandwidth is a line of the same slope shifted up or down.",
        }
        .to_string(),
    ])
}

pub(super) fn levels_words(
    v: &CalcView,
    _: &[f64],
    _: ChartScale,
) -> Result<Vec<String>, CoreError> {
    let a = analysis(v)?;
    let chip = v
        .chip
        .as_ref()
        .ok_or_else(|| CoreError::Invalid("the step has no chip".to_string()))?;
    let crit = |k: LevelKind| -> Result<(f64, f64), CoreError> {
        let bw = chip.bandwidth(k)?;
        Ok((bw, a.peak / bw))
    };
    let (hbm, c_hbm) = crit(LevelKind::Hbm)?;
    let (vmem, c_vmem) = crit(LevelKind::Vmem)?;
    Ok(vec![
        format!(
            "A chip has more than one memory, and each has its own bandwidth, so its own line and its own bend. On {}: HBM moves {} and its line bends at {}; VMEM, the on-chip memory, moves {} and its line bends at {}. Both lines end at the same roof, {}: how fast the chip computes does not depend on where the data comes from.",
            chip.name,
            format::bandwidth(hbm),
            format::intensity(c_hbm),
            format::bandwidth(vmem),
            format::intensity(c_vmem),
            format::rate(a.peak, a.compute_dtype),
        ),
        format!(
            "With the weights in {} and B = {} (all bf16, D = F = 4096), the matmul’s intensity is {} against {}’s critical intensity {}: it is {}.{}",
            a.level_name,
            n(size(v, "B")),
            format::intensity(a.intensity),
            a.level_name,
            format::intensity(a.critical_intensity),
            a.regime.label(),
            fit_note(v, a, chip),
        ),
        "A faster memory never raises the roof; it lets a less intense operation reach it. That is why a small batch wants its weights in VMEM, if they fit. There is no single critical intensity for a chip: there is one for each memory and each link.".to_string(),
    ])
}

/// When the operands do not fit in the level the step reads them from (a
/// large batch "in VMEM"), a sentence saying that the picture no longer
/// holds; empty when they fit or the level has no capacity.
fn fit_note(v: &CalcView, a: &Analysis, chip: &crate::Chip) -> String {
    let Some(cap) = chip
        .levels
        .iter()
        .find(|l| l.kind == a.level)
        .and_then(|l| l.capacity)
    else {
        return String::new();
    };
    if a.bytes <= cap {
        return String::new();
    }
    let x = size(v, "B") * size(v, "D") * 2.0;
    // Streamed from HBM, the operation is read against HBM's line: say
    // whether that line binds, from the two intensities.
    let hbm = chip
        .bandwidth(LevelKind::Hbm)
        .map(|bw| a.peak / bw)
        .unwrap_or(f64::NAN);
    let streamed = if a.intensity > hbm {
        format!(
            "at an intensity of {} against HBM’s critical {} it would still be compute-bound",
            format::intensity(a.intensity),
            format::intensity(hbm)
        )
    } else {
        format!(
            "at an intensity of {} against HBM’s critical {}, HBM’s line would bind",
            format::intensity(a.intensity),
            format::intensity(hbm)
        )
    };
    format!(
        " But X, Y and Z take {} together (X alone {} at B = {}), more than {}’s {}: they cannot all sit in {} at once, so this case leaves the step’s assumption behind. A real kernel would stream X through {} from HBM, and {streamed}.",
        format::bytes(a.bytes),
        format::bytes(x),
        n(size(v, "B")),
        a.level_name,
        format::bytes(cap),
        a.level_name,
        a.level_name,
    )
}

pub(super) fn batch_words(
    v: &CalcView,
    values: &[f64],
    _: ChartScale,
) -> Result<Vec<String>, CoreError> {
    let a = analysis(v)?;
    let b = size(v, "B");
    let critical = compute_bound(v);
    Ok(vec![
        "For X[B,D] · Y[D,F] → Z[B,F] in bf16 the FLOPs are 2BDF and the bytes 2BD + 2DF + 2BF (read X and Y, write Z), so the intensity is BDF ÷ (BD + DF + BF).".to_string(),
        format!(
            "B counts tokens, not sequences: every token of every sequence on this chip is one row of X. {} × {} each gives B = {}. (When a model generates text, each step processes one new token per sequence, so B is just the number of sequences.)",
            plural(values[0], "sequence"),
            plural(values[1], "token"),
            n(b),
        ),
        format!(
            "When B is much smaller than D and F, the weights’ 2DF bytes outweigh the rest and the intensity is about 2BDF ÷ 2DF = B. Counted exactly, with D = F = {} it is {} at B = {}{}.",
            n(size(v, "D")),
            format::intensity(a.intensity),
            n(b),
            if b * 8.0 > size(v, "D") {
                " (here B is not much smaller than D, so the shortcut is only rough)"
            } else {
                ""
            },
        ),
        format!(
            "Since the intensity is about B, the matmul turns compute-bound once B passes the number equal to the critical intensity, {}: that many tokens is the critical batch size. Solved with every byte counted, it is compute-bound {}: a little above, since X’s and Z’s bytes count too (the larger D and F, the closer to the critical intensity). At B = {} it is {}.",
            format::intensity(a.critical_intensity),
            critical,
            n(b),
            a.regime.label(),
        ),
    ])
}

pub(super) fn dtype_words(
    v: &CalcView,
    _: &[f64],
    _: ChartScale,
) -> Result<Vec<String>, CoreError> {
    let a = analysis(v)?;
    let op =
        v.op.as_ref()
            .ok_or_else(|| CoreError::Invalid("the step has no operation".to_string()))?;
    let w = op.inputs.get(1).map_or(DType::Bf16, |y| y.dtype);
    let x = op.inputs.first().map_or(DType::Bf16, |y| y.dtype);
    let out = op.output.dtype;
    // All bf16 on the same chip, for comparison.
    let base = evaluate(&CalcInput::from_state(&matmul(
        Shortcut::Matmul,
        size(v, "B"),
        size(v, "D"),
        None,
    )?));
    let approx = a
        .approx
        .as_ref()
        .map_or_else(String::new, |ap| format!(" (about {})", ap.formula));
    let base_text = if w == DType::Bf16 && a.compute_dtype == DType::Bf16 {
        String::new()
    } else {
        format!("; all in bf16 it would be {}", compute_bound(&base))
    };
    let converted = if w == DType::Bf16 && a.compute_dtype == DType::Int8 {
        " The bf16 weights would be converted to int8 on the chip: the bytes read are still bf16’s."
    } else {
        ""
    };
    // int8 math: how far the critical batch moved from the all-bf16 one,
    // by the shortcut (peak × weight bytes) and counted exactly.
    let moved = if a.compute_dtype == DType::Int8 {
        moved_words(a, w, out, x, &base, v)
    } else {
        String::new()
    };
    Ok(vec![
        format!(
            "A multiply-add is 2 FLOPs whether it multiplies bf16, int8 or int4 numbers: this matmul does {} for every choice. What the type changes is how many bytes each element takes ({} weights: {} per element) and the peak the chip reaches in the type the math runs in ({} in {}{}).",
            format::flops(a.flops),
            w,
            per_element(w),
            format::rate(a.peak, a.compute_dtype),
            a.compute_dtype,
            if a.compute_dtype.is_integer() {
                ", integer operations per second, which the book writes OPs/s"
            } else {
                ""
            },
        ),
        format!(
            "{w} weights, {x} activations and a {out} output Z, at B = {} and D = F = {}: {} moved, intensity {}{approx}, against a critical intensity of {} ({} peak ÷ HBM bandwidth). It is compute-bound {}{base_text}.{converted}{moved}",
            n(size(v, "B")),
            n(size(v, "D")),
            format::bytes(a.bytes),
            format::intensity(a.intensity),
            format::intensity(a.critical_intensity),
            a.compute_dtype,
            compute_bound(v),
        ),
        "Narrow weights with bf16 math are common when serving: the weights are read narrow and widened on the chip, so the weights’ bytes shrink while the peak stays bf16’s. Weights half as wide (int8) roughly halve the critical batch, a quarter as wide (int4) roughly quarter it. Doing the math in int8 as well doubles the peak on a chip that has it, and moves the bend back out.".to_string(),
    ])
}

pub(super) fn exact_words(
    v: &CalcView,
    values: &[f64],
    _: ChartScale,
) -> Result<Vec<String>, CoreError> {
    let a = analysis(v)?;
    let b = size(v, "B");
    // The approximation's promise: its intensity is proportional to B.
    let slope = a
        .approx
        .as_ref()
        .map(|ap| ap.intensity / b)
        .ok_or_else(|| CoreError::Invalid("the step has no approximation".to_string()))?;
    let promise = a.critical_intensity / slope;
    let exact = v
        .critical
        .as_ref()
        .map(|(_, c)| *c)
        .ok_or_else(|| CoreError::Invalid("the step has no critical batch".to_string()))?;
    let big = evaluate(&CalcInput::from_state(&matmul(
        Shortcut::MixedMatmul,
        b,
        4096.0,
        None,
    )?));
    let big = compute_bound(&big);
    let now = match exact {
        CriticalSize::Never { max_intensity } => format!(
            "never compute-bound: however large B grows, the intensity approaches only {}, below the critical {}",
            format::intensity(max_intensity),
            format::intensity(a.critical_intensity),
        ),
        c => format!("compute-bound when {}", critical_text("B", &c)),
    };
    let mine = if values[0] == 4096.0 {
        format!("with D = F = 4096 the matmul is {now}.")
    } else {
        format!(
            "with D = F = {} the matmul is {now}; with D = F = 4096 it is compute-bound {big}.",
            n(values[0])
        )
    };
    Ok(vec![
        "The shortcut “intensity ≈ 2B” for int8 weights assumes B ≪ D, F, so that only the weights’ bytes count. When D and F are small, the activations’ 2BD bytes and the output’s 2BF are no longer small beside the weights’ DF, and the exact intensity falls well below 2B.".to_string(),
        format!(
            "On {} the math runs in {} at {} and HBM moves {}: the critical intensity is {} ÷ {} = {} FLOPs/byte. The approximation’s intensity, {}B, passes it for B > {} ÷ {} = {}: that is what it promises. Counting every byte, {mine}",
            chip_name(v),
            a.compute_dtype,
            format::rate(a.peak, a.compute_dtype),
            format::bandwidth(a.bandwidth),
            format::rate(a.peak, a.compute_dtype),
            format::bandwidth(a.bandwidth),
            format::sig(a.critical_intensity, 4),
            format::sig(slope, 3),
            format::sig(a.critical_intensity, 4),
            format::sig(slope, 3),
            format::sig(promise, 4),
        ),
        "The chart is practice question 3’s plot: attained FLOP/s against B with every byte counted, for D = F = 4096 and for the D = F you chose. The smaller matrices need a larger batch to reach the roof, or never reach it.".to_string(),
    ])
}

pub(super) fn network_words(
    v: &CalcView,
    _: &[f64],
    _: ChartScale,
) -> Result<Vec<String>, CoreError> {
    let na = v
        .network
        .as_ref()
        .ok_or_else(|| CoreError::Invalid("the step has no network result".to_string()))?;
    let mem = na.memory_name;
    let link = na.link.name();
    let slowest = match na.binding {
        crate::network::NetBinding::Link => format!("the send over {link}"),
        crate::network::NetBinding::Memory => mem.to_string(),
        crate::network::NetBinding::Math => "the math".to_string(),
    };
    Ok(vec![
        format!(
            "Split the summed-over dimension D across N chips. With N = 2, X·Y = X₀·Y₀ + X₁·Y₁: each chip multiplies its half of D and holds a partial Z[B,F] that must be added to the other’s. Here B = {}, D = {}, F = {} and N = {}, so each chip’s slice of D is {}.{}",
            n(size(v, "B")),
            n(size(v, "D")),
            n(size(v, "F")),
            na.chips,
            n(na.shard_per_chip),
            if na.chips > 2 {
                " With more than two chips the N partial results must all be summed (a reduction, which later chapters cover); one send of 2BF per chip, as counted here, is what a reduction inside the network’s switches needs and a lower bound for any other (the calculator also offers a ring all-reduce, 2(N−1)/N sends per chip)."
            } else {
                ""
            },
        ),
        format!(
            "Everything is per chip. Each does 2BDF ÷ N = {} (T_math = {}) and sends its partial result, 2BF = {} in bf16, over one {link} link in one direction at {} (T_comms = {}).",
            format::flops(na.flops_per_chip),
            format::seconds(na.t_math),
            format::bytes(na.bytes_sent),
            format::bandwidth(na.bandwidth),
            format::seconds(na.t_comms),
        ),
        format!(
            "The network intensity is (2BDF ÷ N) ÷ 2BF = D ÷ N = {}; the link’s critical intensity is peak ÷ link bandwidth = {} ÷ {} = {}. {} B has cancelled: only D matters, and the split matmul is compute-bound over {link} {}.",
            format::intensity(na.intensity),
            format::flops_rate(na.peak),
            format::bandwidth(na.bandwidth),
            format::intensity(na.critical_intensity),
            match (na.regime, na.binding) {
                (Regime::Compute, _) => "So the math takes longer than the send: the link is not the bottleneck.",
                (Regime::Bandwidth, crate::network::NetBinding::Link) => "So the send takes longer than the math: the link is the bottleneck.",
                (Regime::Bandwidth, _) => "So the send takes longer than the math, though the link is not the slowest of the three times below.",
            },
            when(&na.shard_dim, &na.threshold),
        ),
        format!(
            "Each chip also reads its own share of the inputs from {mem}, X[B, D/N] and Y[D/N, F], and writes its partial Z[B,F] there: {} at {}, T_{mem} = {}; against {mem} its intensity is {} ÷ {} = {}, the operation’s dashed line on the chart. The three times per chip are the math {}, {mem} {} and {link} {}: {slowest} is the slowest, so it binds.",
            format::bytes(na.memory_bytes),
            format::bandwidth(na.memory_bandwidth),
            format::seconds(na.t_memory),
            format::flops(na.flops_per_chip),
            format::bytes(na.memory_bytes),
            format::intensity(na.flops_per_chip / na.memory_bytes),
            format::seconds(na.t_math),
            format::seconds(na.t_memory),
            format::seconds(na.t_comms),
        ),
        "The link’s figure is one link in one direction; spec sheets often quote a chip’s total over all its links and both directions, which is larger. The sum of the partial results (BF additions each) is not counted, as in the chapter.".to_string(),
    ])
}

pub(super) fn model_words(
    v: &CalcView,
    values: &[f64],
    _: ChartScale,
) -> Result<Vec<String>, CoreError> {
    use crate::model::{analyze, preset, ModelRun, Phase, ServingStep};
    let a = analysis(v)?;
    let b = size(v, "B");
    let weights = if values[1] == 1.0 {
        DType::Int8
    } else {
        DType::Bf16
    };
    let m = preset("llama3-8b")
        .ok_or_else(|| CoreError::Invalid("the step has no model".to_string()))?;
    let chip = v
        .chip
        .as_ref()
        .ok_or_else(|| CoreError::Invalid("the step has no chip".to_string()))?;
    let run = ModelRun {
        config: m.config.clone(),
        step: ServingStep {
            phase: Phase::Decode,
            batch: b,
            context: 2048.0,
            prompt: 1.0,
            weights,
            kv: DType::Bf16,
            act: DType::Bf16,
            math: Some(DType::Bf16),
            eff_flops: 1.0,
            eff_bw: 1.0,
            overlap: true,
        },
        chips: 1.0,
    };
    let whole = analyze(&run, chip)?;
    let mut one = run.clone();
    one.step.batch = 1.0;
    let single = analyze(&one, chip)?;
    let fits = match whole.fits {
        Some(false) => format!(
            " (it needs {} of memory with its cache, more than one {}’s {}: the Model page splits it over more chips)",
            format::bytes(whole.memory),
            chip.name,
            format::bytes(whole.hbm.unwrap_or(0.0))
        ),
        _ => String::new(),
    };
    Ok(vec![
        "A transformer is this chapter’s einsums repeated. Every layer’s Q, K, V and O projections and its MLP are matmuls X[B,D] · W[D,F], with B the tokens of the step. When a model generates text, each step makes one token for each sequence, so B is the number of sequences: a decode step is the small-B matmul of steps 5 and 6, once per weight matrix.".to_string(),
        format!(
            "LLaMA-3-8B’s MLP matrix (D = 4096, F = 14336, {weights} weights, bf16 math) at B = {}: intensity {} against the critical {}, so it is {}. Counted with every byte, this matrix is compute-bound {}. The whole model’s critical batch, by the book’s shortcut (C ÷ W) × bytes per weight ÷ 2, is {} sequences: past it the weights’ math, not their loading, sets the pace.",
            n(b),
            format::intensity(a.intensity),
            format::intensity(a.critical_intensity),
            a.regime.label(),
            compute_bound(v),
            format::count(whole.critical_batch),
        ),
        format!(
            "The whole model on one {}, with 2048 tokens cached per sequence{fits}: a decode step takes {}: {} to load the weights, {} to read the KV cache and {} of the weights’ math, which overlaps the loading (the step is the KV read plus the larger of the other two). {}",
            chip.name,
            format::seconds(whole.step_time),
            format::seconds(whole.t_weight_load),
            format::seconds(whole.t_kv),
            format::seconds(whole.t_weight_math),
            growth_words(b, &whole, &single),
        ),
        "The Model page (the tab above) does this for every layer of a real model: the KV cache, whether it fits, prefill, several chips, and every operation on the roofline.".to_string(),
    ])
}

/// Step 6 with int8 math: the critical batch against the all-bf16 one
/// (`base`), the shortcut's factor (the peak's ratio × the weights' bytes
/// against bf16's) beside the exact one, each computed; empty when either
/// critical batch is missing.
fn moved_words(
    a: &Analysis,
    w: DType,
    out: DType,
    x: DType,
    base: &CalcView,
    v: &CalcView,
) -> String {
    let (Some(now), Some(was), Some(b)) = (crit_size(v), crit_size(base), analysis(base).ok())
    else {
        return String::new();
    };
    let peak = a.critical_intensity / b.critical_intensity;
    let narrow = w.bytes() / DType::Bf16.bytes();
    let shortcut = peak * narrow;
    let exact = now / was;
    let direction = if exact > 1.0 { "above" } else { "below" };
    let more = if exact > shortcut * 1.01 && out.bytes() > x.bytes() {
        format!(
            ": a little more than the shortcut, because the {out} output Z still takes {} per element while the inputs narrowed, so its 2BF bytes weigh more",
            per_element(out)
        )
    } else {
        String::new()
    };
    format!(
        " So the critical batch is {direction} the all-bf16 one. The int8 peak multiplies the critical intensity by {} ({} to {}), and {w} weights {}, so by the shortcut the critical batch moves by {} × {} = {}; counted exactly it moves by {} ÷ {} = {}{more}.",
        format::sig(peak, 3),
        format::intensity(b.critical_intensity),
        format::intensity(a.critical_intensity),
        if w == DType::Bf16 {
            "keep bf16’s bytes".to_string()
        } else {
            format!("take {} of bf16’s bytes", format::sig(narrow, 3))
        },
        format::sig(peak, 3),
        format::sig(narrow, 3),
        format::sig(shortcut, 3),
        format::count(now),
        format::count(was),
        format::sig(exact, 3),
    )
}

/// The size at which `v`'s operation crosses over, if it does.
fn crit_size(v: &CalcView) -> Option<f64> {
    match v.critical.as_ref()? {
        (_, CriticalSize::At { size, .. }) => Some(*size),
        _ => None,
    }
}

/// Step 9: how the decode step grew from one sequence to `b`, from the
/// two runs' own times: the weights' loading stays, the KV read grows with
/// B, and past the critical batch the math does too.
fn growth_words(
    b: f64,
    whole: &crate::model::ModelAnalysis,
    single: &crate::model::ModelAnalysis,
) -> String {
    let per_s = format::sig(whole.tokens_per_s, 4);
    if b <= 1.0 {
        return format!(
            "With one sequence the step is mostly loading the weights. Each sequence added reads its own KV cache, {} more at this context, while the weights are loaded once for all: {per_s} tokens per second at this batch.",
            format::seconds(single.t_kv),
        );
    }
    let math = if whole.t_weight_math > whole.t_weight_load {
        format!(
            "; past the critical batch the weights’ math, {}, outlasts their loading and grows with B too",
            format::seconds(whole.t_weight_math)
        )
    } else {
        format!(
            " and their math stays under it ({} against {})",
            format::seconds(whole.t_weight_math),
            format::seconds(whole.t_weight_load)
        )
    };
    format!(
        "From B = 1 to B = {} the step grows from {} to {} ({} times as long for {} times the sequences): the weights’ loading stays {}{math}, while the KV read grows with B, from {} to {}. So throughput rises: {} tokens per second at B = 1, {per_s} at this batch.",
        n(b),
        format::seconds(single.step_time),
        format::seconds(whole.step_time),
        format::sig(whole.step_time / single.step_time, 3),
        n(b),
        format::seconds(whole.t_weight_load),
        format::seconds(single.t_kv),
        format::seconds(whole.t_kv),
        format::sig(single.tokens_per_s, 4),
    )
}

/// "1 token", "8 tokens".
fn plural(x: f64, what: &str) -> String {
    format!("{} {what}{}", n(x), if x == 1.0 { "" } else { "s" })
}

/// "2 bytes", "1 byte", "0.5 bytes": one element of `d`.
fn per_element(d: DType) -> String {
    let b = d.bytes();
    format!(
        "{} byte{}",
        format::sig(b, 3),
        if b == 1.0 { "" } else { "s" }
    )
}

/// When `c` says the operation is compute-bound: "when B > 240", "never",
/// "at every size".
pub(super) fn when(dim: &str, c: &CriticalSize) -> String {
    match c {
        CriticalSize::At { .. } => format!("when {}", critical_text(dim, c)),
        CriticalSize::Never { .. } => "never".to_string(),
        CriticalSize::Always => "at every size".to_string(),
    }
}

/// When `v`'s operation is compute-bound as its batch dimension grows
/// ([`when`] of its critical size); empty without one.
fn compute_bound(v: &CalcView) -> String {
    v.critical
        .as_ref()
        .map_or_else(String::new, |(d, c)| when(d, c))
}
