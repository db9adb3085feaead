//! The Model page's view model: the text the user typed in ([`ModelInput`])
//! in, every field's error and every result formatted ([`ModelView`]) out,
//! as `calc::evaluate` does for the calculator.

use super::config::ModelConfig;
use super::ops::{ops, ModelOp};
use super::presets::{preset, Preset, LLAMA3_8B};
use super::run::{analyze, wider, ModelAnalysis, ModelRun};
use super::state::ModelState;
use super::state::{Phase, ServingStep};
use super::sweep::{curve, CurvePoint};
use crate::calc::Field;
use crate::hardware::Chip;
use crate::input::parse_positive;
use crate::report::{ResultRow, Step};
use crate::small::Join;
use crate::{format, DType};

/// What the user has entered on the Model page, as typed.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelInput {
    /// A preset id, or `custom`.
    pub model: String,
    /// The custom model's fields as typed, by key (`layers`, `d`, ...);
    /// with a preset, unused.
    pub custom: Vec<(&'static str, String)>,
    /// Whether the custom model ties its embeddings.
    pub tied: bool,
    /// Whether the custom model's MLP is gated.
    pub gated: bool,
    /// Decode or prefill.
    pub phase: Phase,
    /// B as typed.
    pub batch: String,
    /// S as typed.
    pub context: String,
    /// T as typed.
    pub prompt: String,
    /// The weights', KV cache's and activations' types.
    pub weights: DType,
    /// The KV cache's type.
    pub kv: DType,
    /// The activations' type.
    pub act: DType,
    /// The weight matmuls' type; `None` = the wider of weights and
    /// activations.
    pub math: Option<DType>,
    /// The fraction of peak FLOP/s reached, as typed (a fraction or a %).
    pub eff_flops: String,
    /// The fraction of bandwidth reached, as typed.
    pub eff_bw: String,
    /// Whether the link overlaps the step (else it adds to it).
    pub overlap: bool,
}

/// The custom model's fields: key, label, the config's value.
pub const CUSTOM_FIELDS: [(&str, &str); 9] = [
    ("layers", "Layers L"),
    ("d", "Width D"),
    ("ff", "MLP width F (per expert)"),
    ("heads", "Query heads N"),
    ("kvheads", "KV heads K"),
    ("headdim", "Head dimension H"),
    ("vocab", "Vocabulary V"),
    ("experts", "Experts E"),
    ("active", "Active experts k"),
];

/// The value of a custom field of `c`.
pub fn custom_value(c: &ModelConfig, key: &str) -> f64 {
    match key {
        "layers" => c.layers,
        "d" => c.d_model,
        "ff" => c.d_ff,
        "heads" => c.heads,
        "kvheads" => c.kv_heads,
        "headdim" => c.head_dim,
        "vocab" => c.vocab,
        "experts" => c.experts,
        _ => c.active,
    }
}

/// Sets the custom field `key` of `c` to `v`.
pub fn set_custom(c: &mut ModelConfig, key: &str, v: f64) {
    match key {
        "layers" => c.layers = v,
        "d" => c.d_model = v,
        "ff" => c.d_ff = v,
        "heads" => c.heads = v,
        "kvheads" => c.kv_heads = v,
        "headdim" => c.head_dim = v,
        "vocab" => c.vocab = v,
        "experts" => c.experts = v,
        _ => c.active = v,
    }
}

impl ModelInput {
    /// The input that shows `state` (numbers written as in links).
    pub fn from_state(s: &ModelState) -> ModelInput {
        let num = crate::num::shortest;
        ModelInput {
            model: s.model.clone(),
            custom: CUSTOM_FIELDS
                .iter()
                .map(|(k, _)| (*k, num(custom_value(&s.custom, k))))
                .collect(),
            tied: s.custom.tied,
            gated: s.custom.gated,
            phase: s.step.phase,
            batch: num(s.step.batch),
            context: num(s.step.context),
            prompt: num(s.step.prompt),
            weights: s.step.weights,
            kv: s.step.kv,
            act: s.step.act,
            math: s.step.math,
            eff_flops: percent_text(s.step.eff_flops),
            eff_bw: percent_text(s.step.eff_bw),
            overlap: s.step.overlap,
        }
    }
}

/// A fraction as a field shows it: `100%`, `40%`.
fn percent_text(f: f64) -> String {
    format!("{}%", format::sig(f * 100.0, 4))
}

/// Everything the Model page shows.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelView {
    /// The preset, unless custom.
    pub preset: Option<&'static Preset>,
    /// The model's shape (the preset's, or the custom one when it reads).
    pub config: Option<ModelConfig>,
    /// Every field: the custom model's, then B, S, T and the fractions.
    pub fields: Vec<Field>,
    /// The run, when every field reads.
    pub run: Option<ModelRun>,
    /// The analysis.
    pub analysis: Option<ModelAnalysis>,
    /// Result rows (keys without the page's `model-` prefix).
    pub rows: Vec<ResultRow>,
    /// Whether it fits, as `yes` / `no` (or empty) and a sentence.
    pub fits: (String, String),
    /// What takes the longest in the step (`math`, `weights`, `kv`,
    /// `link`), and the headline.
    pub regime: (&'static str, String),
    /// Over several chips, how the model is split.
    pub layout: String,
    /// Over several chips, the link's sentence.
    pub link: String,
    /// A note on what the page changed to show results (a math type the
    /// chip lacks), next to the math field.
    pub math_note: Option<String>,
    /// Every operation of the step.
    pub ops: Vec<ModelOp>,
    /// The latency–throughput curve.
    pub curve: Vec<CurvePoint>,
    /// The derivation, in the book's notation with the numbers.
    pub derivation: Vec<Step>,
    /// Why there are no results, when a field or the chip stops them.
    pub error: Option<String>,
}

/// A fraction typed as `0.4`, `40%` or `40 %`; the error names `label`.
fn parse_fraction(label: &str, text: &str) -> Result<f64, String> {
    let t = text.trim();
    let (num, scale) = match t.strip_suffix('%') {
        Some(n) => (n.trim(), 0.01),
        None => (t, 1.0),
    };
    let v = crate::num::parse_f64(num).map(|v| v * scale);
    match v {
        Some(v) if v.is_finite() && v > 0.0 && v <= 1.0 => Ok(v),
        _ => Err(format!(
            "{label}: a fraction above 0 and at most 1, such as 0.4 or 40%"
        )),
    }
}

/// A whole number from `min` to 1e9 as typed (plain, or as the
/// calculator reads sizes: `4k`, `1,000`); any number out of that range
/// gets the same message, whatever its size or sign; the error names
/// `label`.
fn parse_whole(label: &str, text: &str, min: f64) -> Result<f64, String> {
    let v = match crate::num::parse_f64(text.trim()) {
        Some(v) => v,
        None => parse_positive(label, text).map_err(|e| e.to_string())?,
    };
    if !v.is_finite() || v.fract() != 0.0 || v > 1e9 || v < min {
        return Err(format!(
            "{label}: a whole number from {} to 1e9",
            format::plain_number(min)
        ));
    }
    Ok(v)
}

/// The Model page's view of `input` on `chip` served by `chips` chips.
pub fn evaluate_model(input: &ModelInput, chip: Option<&Chip>, chips: u32) -> ModelView {
    let mut v = ModelView {
        preset: preset(&input.model),
        config: None,
        fields: Vec::new(),
        run: None,
        analysis: None,
        rows: Vec::new(),
        fits: (String::new(), String::new()),
        regime: ("", String::new()),
        layout: String::new(),
        link: String::new(),
        math_note: None,
        ops: Vec::new(),
        curve: Vec::new(),
        derivation: Vec::new(),
        error: None,
    };
    let mut ok = true;
    let mut field = |id: &str, label: &str, text: &str, read: Result<f64, String>, note: String| {
        let error = read.as_ref().err().cloned();
        ok &= error.is_none();
        v.fields.push(Field {
            id: id.to_string(),
            label: label.to_string(),
            text: text.to_string(),
            error,
            note,
            source: None,
        });
        read.ok()
    };
    // The model: a preset's shape, or the custom fields.
    let config = match preset(&input.model) {
        Some(p) => Some(p.config.clone()),
        None => {
            let mut c = LLAMA3_8B;
            c.tied = input.tied;
            c.gated = input.gated;
            let mut all = true;
            for (key, label) in CUSTOM_FIELDS {
                let text = input
                    .custom
                    .iter()
                    .find(|(k, _)| *k == key)
                    .map_or(String::new(), |(_, t)| t.clone());
                match field(
                    &format!("m-{key}"),
                    label,
                    &text,
                    parse_whole(label, &text, 1.0),
                    String::new(),
                ) {
                    Some(x) => set_custom(&mut c, key, x),
                    None => all = false,
                }
            }
            all.then_some(c)
        }
    };
    let b = field(
        "model-b",
        "Batch B (sequences)",
        &input.batch,
        parse_whole("Batch B", &input.batch, 1.0),
        String::new(),
    );
    let s = field(
        "model-ctx",
        "Context S (tokens in the cache)",
        &input.context,
        parse_whole("Context S", &input.context, 0.0),
        v.preset.map_or(String::new(), |p| {
            format!(
                "{} was trained for up to {} tokens.",
                p.name,
                format::plain_number(p.max_context)
            )
        }),
    );
    let t = field(
        "model-prompt",
        "Prompt T (tokens, prefill)",
        &input.prompt,
        parse_whole("Prompt T", &input.prompt, 1.0),
        String::new(),
    );
    let ef = field(
        "model-eff-flops",
        "Fraction of peak FLOP/s reached",
        &input.eff_flops,
        parse_fraction("Fraction of peak", &input.eff_flops),
        "100% is the roofline's bound; real kernels reach less (the book's prefill example assumes 40%).".to_string(),
    );
    let eb = field(
        "model-eff-bw",
        "Fraction of bandwidth reached",
        &input.eff_bw,
        parse_fraction("Fraction of bandwidth", &input.eff_bw),
        String::new(),
    );
    if let Some(c) = &config {
        if let Err(e) = c.check() {
            v.error = Some(e.to_string());
        }
    }
    v.config.clone_from(&config);
    let (Some(config), Some(b), Some(s), Some(t), Some(ef), Some(eb), true, None) =
        (config, b, s, t, ef, eb, ok, &v.error)
    else {
        if v.error.is_none() && ok {
            v.error = Some("a field is invalid".to_string());
        }
        return v;
    };
    let Some(chip) = chip else {
        v.error = Some("the calculator's chip has an invalid number: fix it there".to_string());
        return v;
    };
    let run = ModelRun {
        config,
        step: ServingStep {
            phase: input.phase,
            batch: b,
            context: s,
            prompt: t,
            weights: input.weights,
            kv: input.kv,
            act: input.act,
            math: input.math,
            eff_flops: ef,
            eff_bw: eb,
            overlap: input.overlap,
        },
        chips: f64::from(chips.max(1)),
    };
    let mut run = run;
    v.math_note = math_fallback(&mut run, chip);
    let result = analyze(&run, chip).and_then(|a| {
        let o = ops(&run, &a, chip)?;
        let c = curve(&run, chip)?;
        Ok((a, o, c))
    });
    match result {
        Ok((a, o, c)) => {
            let words = super::words::words(&run, &a, chip);
            v.rows = words.rows;
            v.fits = words.fits;
            v.regime = words.regime;
            v.layout = words.layout;
            v.link = words.link;
            v.derivation = words.derivation;
            v.analysis = Some(a);
            v.ops = o;
            v.curve = c;
            v.run = Some(run);
        }
        Err(e @ crate::error::CoreError::NoPeak { .. }) => {
            v.error = Some(format!(
                "{e}: set \"The matmuls run at\" to a type it lists, or pick another chip"
            ));
        }
        Err(e) => v.error = Some(e.to_string()),
    }
    v
}

/// When `chip` lists no peak at a type the step's matmuls would run at
/// (the chosen one, or an input type with "auto"), runs them at one it
/// lists instead (the calculator's default, bf16, else the chip's first),
/// and says so.
fn math_fallback(run: &mut ModelRun, chip: &Chip) -> Option<String> {
    let s = &run.step;
    let wanted: Vec<DType> = match s.math {
        Some(t) => vec![t],
        None => vec![wider(s.weights, s.act), wider(s.kv, s.act)],
    };
    let missing = wanted.iter().find(|t| chip.peak(**t).is_err())?;
    let listed = chip.dtypes();
    let to = if listed.contains(&DType::Bf16) {
        DType::Bf16
    } else {
        *listed.first()?
    };
    let note =
        format!(
        "{} lists no {missing} peak, so the matmuls run at {to} here; choose a type it lists ({}).",
        chip.name,
        listed.iter().map(|d| d.name()).collect::<Vec<_>>().joined(", ")
    );
    run.step.math = Some(to);
    Some(note)
}

impl ModelView {
    /// The state this view shows, for the link: `None` while a field is
    /// invalid (the page keeps the last valid one).
    pub fn to_state(&self, input: &ModelInput) -> Option<ModelState> {
        let run = self.run.as_ref()?;
        // The math type as chosen, even when the chip lacks it and the
        // page ran at another: the link keeps what the user asked for.
        let mut step = run.step.clone();
        step.math = input.math;
        Some(ModelState {
            model: input.model.clone(),
            custom: run.config.clone(),
            step,
        })
    }
}
