//! What the questions on a mesh of chips share (Parts 3, 5 and 6): a mesh
//! on a chip, a collective on an array in sharded notation, the Scale
//! page's training view of a model, and the Scale page they open with their
//! numbers. Every answer comes from the Scale page's core ([`crate::scale`]).

use crate::model::{ModelConfig, ModelState};
use crate::op::Sizes;
use crate::quiz::answer::ChoiceOption;
use crate::quiz::{CalcSetup, Expected, Mistake, Part, Question, ScaleSetup};
use crate::scale::{
    array_collective, evaluate_scale, mesh_links, ArrayCollective, CollOp, Mesh, MeshLinks,
    ScaleState, ShardedArray, Strategy,
};
use crate::{CoreError, LevelKind};

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

/// `op` over `axes` on the array `arr` (sharded notation) of the mesh.
pub(super) fn coll(
    links: &MeshLinks,
    op: CollOp,
    arr: &str,
    axes: &str,
    sz: &Sizes,
) -> Result<ArrayCollective, CoreError> {
    let a = ShardedArray::parse(arr)?;
    let ax: Vec<char> = axes.chars().collect();
    array_collective(op, &a, &ax, links, sz)
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

/// The value the Scale page shows as `testid` for state `s`, chip `chip`
/// and `model`, as a number.
pub(super) fn page_value(
    s: &ScaleState,
    chip: &str,
    model: &ModelConfig,
    testid: &str,
) -> Result<f64, CoreError> {
    let c = crate::hardware::preset(chip).ok_or_else(|| invalid("no such chip"))?;
    let calc = model_calc(chip, model);
    let v = evaluate_scale(s, &c, &calc.op, &calc.sizes, model);
    v.value(testid)
        .and_then(crate::num::parse_f64)
        .filter(|x| x.is_finite())
        .ok_or_else(|| invalid("the Scale page shows no such value"))
}

/// The Scale page's text value `testid` (`compute`, `yes`).
pub(super) fn page_word(
    s: &ScaleState,
    chip: &str,
    model: &ModelConfig,
    testid: &str,
) -> Result<String, CoreError> {
    let c = crate::hardware::preset(chip).ok_or_else(|| invalid("no such chip"))?;
    let calc = model_calc(chip, model);
    let v = evaluate_scale(s, &c, &calc.op, &calc.sizes, model);
    v.value(testid)
        .map(str::to_string)
        .ok_or_else(|| invalid("the Scale page shows no such value"))
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
