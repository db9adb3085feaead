//! What the questions on a mesh of chips share (Parts 3, 5 and 6): a mesh
//! on a chip, a collective on an array in sharded notation, the Scale
//! page's training view of a model, and the Scale page they open with their
//! numbers. Every answer comes from the Scale page's core ([`crate::scale`]).

use crate::model::{ModelConfig, ModelState};
use crate::op::Sizes;
use crate::quiz::answer::ChoiceOption;
use crate::quiz::{CalcSetup, Expected, Mistake, Part, Question, ScaleSetup};
use crate::scale::{
    axes_size, axes_spanned, choose, collective, layer, memory, mesh_links, run_time,
    split_threshold, AxisLink, CollCost, CollOp, LayerInput, MemoryInput, Mesh, MeshLinks,
    ScaleState, ShardedArray, Strategy,
};
use crate::{CoreError, DType, LevelKind};

use super::invalid;

/// The mesh `text` on preset `chip`, wrapping by the chip's rules.
pub(super) fn links(chip: &str, text: &str) -> Result<MeshLinks, CoreError> {
    let c = crate::hardware::preset(chip).ok_or_else(|| invalid("no such chip"))?;
    mesh_links(&Mesh::parse(text)?, &c, None)
}

/// Sizes from pairs.
pub(super) fn sizes(pairs: &[(&str, f64)]) -> Sizes {
    crate::small::map_of(pairs.iter().map(|(k, v)| ((*k).to_string(), *v)))
}

/// A collective as the Scale page costs it.
pub(super) struct Coll {
    /// V: the whole array within one group, bytes.
    pub v: f64,
    /// A chip's shard before it, bytes.
    pub local_in: f64,
    /// Its cost ([`crate::scale::collective`]).
    pub cost: CollCost,
}

/// `op` over `axes` on the array `arr` (sharded notation) of the mesh, as
/// the Scale page's collective costs it: V is the array within one group
/// (divided by the axes it is split over outside the collective's).
pub(super) fn coll(
    links: &MeshLinks,
    op: CollOp,
    arr: &str,
    axes: &str,
    sz: &Sizes,
) -> Result<Coll, CoreError> {
    let a = ShardedArray::parse(arr)?;
    let ax: Vec<char> = axes.chars().collect();
    let global = a.bytes(sz)?;
    let outside: Vec<char> = a.axes().into_iter().filter(|x| !ax.contains(x)).collect();
    let v = global / axes_size(&outside, &links.mesh);
    let local_in = global / axes_size(&a.axes(), &links.mesh);
    let chosen: Vec<&AxisLink> = ax.iter().filter_map(|x| links.axis(*x)).collect();
    if chosen.len() != ax.len() {
        return Err(invalid("an axis is not in the mesh"));
    }
    Ok(Coll {
        v,
        local_in,
        cost: collective(op, v, &chosen)?,
    })
}

/// The Scale page's collective: `op` over `axes` of `arr` on `mesh`.
pub(super) fn coll_state(mesh: &str, op: CollOp, axes: &str, arr: &str) -> ScaleState {
    ScaleState {
        mesh: Some(mesh.to_string()),
        cop: op,
        cax: axes.to_string(),
        arr: arr.to_string(),
        ..ScaleState::default()
    }
}

/// The Scale page's training plan: `tokens` a batch of sequences of `seq`
/// on `mesh`, with `strat`.
pub(super) fn train_state(mesh: &str, tokens: f64, seq: f64, strat: Strategy) -> ScaleState {
    ScaleState {
        mesh: Some(mesh.to_string()),
        tokens,
        seq,
        strat,
        ..ScaleState::default()
    }
}

/// The Model page's state for preset `id` (the Scale page's model).
pub(super) fn preset_state(id: &str) -> Result<(ModelState, ModelConfig), CoreError> {
    let p = crate::model::preset(id).ok_or_else(|| invalid("no such model"))?;
    Ok((
        ModelState {
            model: p.id.to_string(),
            // As a link reads it back: the preset's shape in the fields.
            custom: p.config.clone(),
            ..ModelState::default()
        },
        p.config.clone(),
    ))
}

/// What the Scale page's training view shows for a state, computed with
/// the same core functions ([`choose`], [`crate::scale::optimum`], [`layer`],
/// [`memory`], [`run_time`]); a test keeps the two equal.
pub(super) struct Train {
    /// Parameters.
    pub params: f64,
    /// Tokens a chip.
    pub per_chip: f64,
    /// The split's threshold on tokens a chip (NaN where it has none).
    pub threshold: f64,
    /// The chapter's FSDP + TP threshold at X_opt.
    pub threshold_opt: f64,
    /// Whether the comms bind.
    pub comms_bound: bool,
    /// X_opt.
    pub x_opt: f64,
    /// The step, s.
    pub step: f64,
    /// Days for the budget.
    pub days: f64,
    /// Bytes a chip.
    pub memory: f64,
    /// Whether they fit in HBM.
    pub fits: bool,
}

/// The training view's numbers for `s` on preset `chip` and `model` (the
/// strategy's degrees derived from the mesh, as the page does when the
/// state gives none).
pub(super) fn train(s: &ScaleState, chip: &str, model: &ModelConfig) -> Result<Train, CoreError> {
    let c = crate::hardware::preset(chip).ok_or_else(|| invalid("no such chip"))?;
    let links = mesh_links(
        &Mesh::parse(s.mesh.as_deref().unwrap_or("X:4,Y:4,Z:4"))?,
        &c,
        None,
    )?;
    let peak = c.peak(DType::Bf16)?;
    let hbm = c
        .level(LevelKind::Hbm)
        .ok()
        .and_then(|l| l.capacity)
        .unwrap_or(0.0);
    let w = links
        .axes
        .first()
        .ok_or_else(|| invalid("no axis"))?
        .per_chip();
    let sizes: Vec<u64> = links.mesh.axes.iter().map(|a| a.size).collect();
    let n = links.mesh.chips();
    let strat = s.strat;
    let pods = if strat == Strategy::Pods { s.pods } else { 1.0 };
    let w_dcn = links.dcn.unwrap_or(f64::MAX);
    let base = LayerInput {
        batch: s.tokens,
        d: model.d_model,
        f: model.d_ff,
        c: peak,
        w,
        x: n,
        y: 1.0,
        mx: sizes.len() as f64,
        my: 0.0,
        pods,
        w_dcn,
    };
    let (x, y) = match strat {
        Strategy::Dp | Strategy::Fsdp => (n, 1.0),
        Strategy::Mixed | Strategy::Pods => {
            let plan = choose(&base, &sizes, n, pods);
            (plan.x, plan.y)
        }
        _ => return Err(invalid("a strategy the quiz does not ask about")),
    };
    let (mx, my) = axes_spanned(&sizes, x, y);
    let i = LayerInput {
        x,
        y,
        mx,
        my,
        ..base
    };
    let t = layer(strat, &i);
    // X_opt and its threshold on the chapter's axes, as the page takes them.
    let k = crate::scale::optimum(&i, sizes.len(), n);
    let params = model.params();
    let chips = x * y * pods;
    let step_comms = t.t_comms() * t.passes * model.layers;
    let rt = run_time(
        model.active_params(),
        s.tokens,
        s.budget,
        chips,
        peak,
        s.mfu,
        step_comms,
    );
    let mem = memory(&MemoryInput {
        params,
        layers: model.layers,
        d: model.d_model,
        batch: s.tokens / pods,
        ckpt: s.ckpt,
        strategy: strat,
        zero: s.zero,
        x,
        y,
        pods: 1.0,
    })
    .per_chip();
    Ok(Train {
        params,
        per_chip: s.tokens / chips,
        threshold: split_threshold(strat, &i, chips).unwrap_or(f64::NAN),
        threshold_opt: k.mixed_threshold,
        comms_bound: t.comms_bound(),
        x_opt: k.x_opt,
        step: rt.step,
        days: rt.days,
        memory: mem,
        fits: hbm > 0.0 && mem <= hbm,
    })
}

/// The Scale page's result `testid` for state `s` (its `data-value`), as
/// a number.
pub(super) fn page_value(
    s: &ScaleState,
    chip: &str,
    model: &ModelConfig,
    testid: &str,
) -> Result<f64, CoreError> {
    let t = train(s, chip, model)?;
    let v = match testid {
        "train-params" => t.params,
        "train-flops" => 6.0 * model.active_params() * s.budget,
        "train-tokens-per-chip" => t.per_chip,
        "train-threshold" => t.threshold,
        "train-threshold-opt" => t.threshold_opt,
        "train-x-opt" => t.x_opt,
        "train-step-time" => t.step,
        "train-days" => t.days,
        "train-memory" => t.memory,
        _ => return Err(invalid("the Scale page shows no such value")),
    };
    Ok(v).and_then(|v| {
        if v.is_finite() {
            Ok(v)
        } else {
            Err(invalid("not a number"))
        }
    })
}

/// The Scale page's word `testid` for state `s`: `train-bound` (`compute`,
/// `comms`) or `train-fits` (`yes`, `no`).
pub(super) fn page_word(
    s: &ScaleState,
    chip: &str,
    model: &ModelConfig,
    testid: &str,
) -> Result<&'static str, CoreError> {
    let t = train(s, chip, model)?;
    match testid {
        "train-bound" if t.comms_bound => Ok("comms"),
        "train-bound" => Ok("compute"),
        "train-fits" if t.fits => Ok("yes"),
        "train-fits" => Ok("no"),
        _ => Err(invalid("the Scale page shows no such word")),
    }
}

/// The calculator's setup a training question carries: one layer's first
/// MLP matmul, `In[B,D]·W_in[D,F]`, at 4096 tokens.
pub(super) fn model_calc(chip: &str, m: &ModelConfig) -> CalcSetup {
    CalcSetup::new(
        chip,
        "bf16[B,D] * bf16[D,F] -> bf16[B,F]",
        &[("B", 4096.0), ("D", m.d_model), ("F", m.d_ff)],
        LevelKind::Hbm,
    )
}

/// The question, opening the Scale page with `setup` (and `model` as its
/// model, if any).
pub(super) fn opens_scale(
    mut q: Question,
    setup: ScaleSetup,
    model: Option<ModelState>,
) -> Question {
    q.scale = Some(setup);
    q.model = model;
    q
}

/// Yes or no.
pub(super) fn yes_no() -> Vec<ChoiceOption> {
    vec![
        ChoiceOption::new("yes", &["y", "it fits", "fits", "can", "we can"]),
        ChoiceOption::new(
            "no",
            &["n", "does not fit", "it does not", "cannot", "can't"],
        ),
    ]
}

/// Compute-bound or comms-bound.
pub(super) fn bound_options() -> Vec<ChoiceOption> {
    vec![
        ChoiceOption::new(
            "compute-bound",
            &["compute", "compute bound", "flops bound", "math bound"],
        ),
        ChoiceOption::new(
            "comms-bound",
            &[
                "comms",
                "communication bound",
                "communication",
                "network bound",
                "ici bound",
                "bandwidth bound",
                "comms bound",
            ],
        ),
    ]
}

/// Latency-bound or bandwidth-bound.
pub(super) fn latency_options() -> Vec<ChoiceOption> {
    vec![
        ChoiceOption::new("latency-bound", &["latency", "latency bound", "hops"]),
        ChoiceOption::new(
            "bandwidth-bound",
            &["bandwidth", "bandwidth bound", "throughput bound", "bytes"],
        ),
    ]
}

impl Part {
    /// A likely wrong option and its hint.
    pub(super) fn mistake_choice(mut self, option: usize, hint: String) -> Part {
        self.mistakes.push(Mistake {
            answer: Expected::Choice(option),
            hint,
            close: false,
        });
        self
    }
}

/// A time in µs with 3 digits, as the book writes them.
pub(super) fn us(t: f64) -> String {
    format!("{} µs", crate::format::sig(t * 1e6, 3))
}

/// The sentence on which bandwidth an axis's collective uses.
pub(super) fn which_w(l: &MeshLinks, axis: char) -> Result<String, CoreError> {
    let a = l.axis(axis).ok_or_else(|| invalid("no such axis"))?;
    Ok(if a.wraps {
        format!(
            "axis {axis} ({} chips) wraps around, so a ring sends both ways: W = 2 × {:e} = {:e} bytes/s",
            a.size, a.one_way, a.bidirectional
        )
    } else {
        format!(
            "axis {axis} ({} chips) does not wrap around, so the ring is a line and each chip sends one way: W = {:e} bytes/s",
            a.size, a.one_way
        )
    })
}

/// Whether `alt`, another way's answer, gets a note beside `value` in a
/// part of tolerance `tol`: `Ok(false)` where the tolerance already takes
/// it, `Ok(true)` where it lies clearly outside, an error (the variant is
/// drawn again) where it would blur the tolerance's edge.
pub(super) fn apart(value: f64, alt: f64, tol: f64) -> Result<bool, CoreError> {
    if (alt - value).abs() <= tol * value.abs() {
        return Ok(false);
    }
    let blurs = [1.0 + 3.0 * tol, 1.0 - 3.0 * tol]
        .iter()
        .any(|k| (value * k - alt).abs() <= 1.1 * tol * alt.abs().max(value.abs()));
    if blurs {
        Err(invalid("another way's answer sits at the tolerance's edge"))
    } else {
        Ok(true)
    }
}
