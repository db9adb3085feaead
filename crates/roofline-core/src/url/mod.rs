//! Shareable links: the whole [`AppState`] in a URL query string.
//!
//! The schema (version [`VERSION`]) is documented, with example links, in
//! `docs/url-schema.md`. In short: `v=1`, then only the values that differ
//! from their defaults, in a fixed order, with short human-readable keys:
//!
//! ```text
//! ?v=1&chip=h100&op=matmul&sz=B:512,D:8192,F:8192&l2=none&pairs=8192x8192
//! ```
//!
//! [`encode`] writes a state; [`decode`] reads anything pasted and never
//! panics. Every value it cannot use is replaced by its default and reported
//! in a [`Notice`] that names the parameter and says what was used instead
//! (`D = '-5' is not a positive size; using 4096`). Unknown parameters are
//! ignored with a notice, and so is a link from a newer schema version.
//!
//! Query strings are split and percent-decoded by the `form_urlencoded`
//! crate (the `application/x-www-form-urlencoded` rules browsers use; `+` is
//! a space). Text from a link is only ever data: it is compared with known
//! names, parsed as numbers or as an operation's notation, and echoed in
//! notices clipped to 40 characters (and not at all when it spells a
//! non-finite number, so a notice never reads "NaN" or "inf").

use crate::small::SmallMap;
use std::fmt;

use crate::format::{clip, sci};
use crate::hardware::{catalogue, preset, Chip, Family};
use crate::num::shortest;
use crate::op::{Operation, Shortcut, Sizes};
use crate::small::Join;
use crate::state::{
    default_batch_dim, default_level2, default_sizes, is_question_id, AppState, CalcState,
    ChartScale, QuizState, View, DEFAULT_CHIP, DEFAULT_PAIRS, DEFAULT_QUESTION, DEFAULT_SHORTCUT,
    MAX_CHIPS, MAX_PAIRS, MAX_PART,
};
use crate::{DType, LevelKind};

/// A number as short as it can be written and still read back exactly
/// (now [`crate::num::shortest`]; kept here for existing paths).
pub use crate::num::shortest as number;

/// The schema version this build writes and reads.
pub const VERSION: u32 = 1;

/// The longest operation notation a link may carry, in characters.
pub const MAX_OP_CHARS: usize = 400;

/// The most parameters [`decode`] reads from a link; it ignores the rest,
/// with a notice. The app's own links have about twenty.
pub const MAX_PARAMS: usize = 256;

/// The most notices [`decode`] lists; one more notice counts the rest.
pub const MAX_NOTICES: usize = 32;

/// How many characters of a bad value a notice echoes.
const ECHO_CHARS: usize = 40;

/// A problem with one parameter of a link, and what was done about it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Notice {
    /// The parameter's key as written in the link (lower-cased, clipped),
    /// such as `sz` or `peak.bf16`; empty for a notice about the whole link.
    pub param: String,
    /// What was wrong and what was used instead, ready to show.
    pub message: String,
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// The result of reading a link: a valid state, and a notice for each
/// value that could not be used.
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded {
    /// The state the link describes (defaults where it says nothing or
    /// something unusable).
    pub state: AppState,
    /// One notice per problem, in the order the schema lists the keys.
    pub notices: Vec<Notice>,
}

// ---------------------------------------------------------------------------
// Encoding
// ---------------------------------------------------------------------------

/// The link key of an operation: a shortcut's key (`mixed`, `dot`, ...)
/// when it is that shortcut, else its notation without spaces
/// (`bf16[B,D]*bf16[D,F]->bf16[B,F]`).
pub fn op_key(op: &Operation) -> String {
    if let Some(sc) = Shortcut::ALL.into_iter().find(|s| s.operation() == *op) {
        return sc.key().to_string();
    }
    let ins: Vec<String> = op.inputs.iter().map(|o| o.notation()).collect();
    format!("{}->{}", ins.joined(op.kind.symbol()), op.output.notation())
}

/// Sizes as `B:256,D:4096,F:4096`, in the operation's dimension order
/// (then any other names, alphabetically).
fn sizes_value(sizes: &Sizes, op: Option<&Operation>) -> String {
    let mut order: Vec<String> = op.map(|o| o.dims()).unwrap_or_default();
    order.retain(|d| sizes.contains_key(d));
    for k in sizes.keys() {
        if !order.contains(k) {
            order.push(k.clone());
        }
    }
    order
        .iter()
        .filter_map(|d| sizes.get(d).map(|v| format!("{d}:{}", shortest(*v))))
        .collect::<Vec<_>>()
        .joined(",")
}

fn pairs_value(pairs: &[(f64, f64)]) -> String {
    pairs
        .iter()
        .map(|(a, b)| format!("{}x{}", shortest(*a), shortest(*b)))
        .collect::<Vec<_>>()
        .joined(",")
}

/// Percent-encodes a key or value (form encoding: a space becomes `+`),
/// then restores `:` and `,`, which are safe in a query and keep `sz` and
/// `pairs` readable. (A `%` in the text is itself encoded as `%25`, so every
/// `%3A` or `%2C` in the output came from a `:` or a `,`.)
fn escape(s: &str) -> String {
    // The serializer yields each escaped byte as its own `%XX` piece, so the
    // two are restored piece by piece (no substring search in the wasm).
    form_urlencoded::byte_serialize(s.as_bytes())
        .map(|piece| match piece {
            "%3A" => ":",
            "%2C" => ",",
            other => other,
        })
        .collect()
}

/// Writes `state` as a query string without the leading `?`: `v=1` first,
/// then only the values that differ from their defaults, in the order of
/// `docs/url-schema.md`. The default state is `v=1`.
pub fn encode(state: &AppState) -> String {
    let mut out: Vec<(String, String)> = vec![("v".to_string(), VERSION.to_string())];
    let mut put = |k: &str, v: String| out.push((k.to_string(), v));
    if state.view != View::default() {
        put("view", state.view.key().to_string());
    }
    let c = &state.calc;
    if c.chip != DEFAULT_CHIP {
        put("chip", c.chip.clone());
    }
    let peaks: SmallMap<DType, f64> = crate::small::map_of(c.peak_overrides.iter().copied());
    for (d, v) in peaks {
        put(&format!("peak.{}", d.name()), shortest(v));
    }
    let bws: SmallMap<LevelKind, f64> = crate::small::map_of(c.bw_overrides.iter().copied());
    for (k, v) in bws {
        put(&format!("bw.{}", k.key()), shortest(v));
    }
    let op = Operation::parse(&c.op).ok();
    match &op {
        Some(o) if *o == DEFAULT_SHORTCUT.operation() => {}
        Some(o) => put("op", op_key(o)),
        None => put("op", c.op.clone()),
    }
    if op.as_ref().map(default_sizes).as_ref() != Some(&c.sizes) {
        put("sz", sizes_value(&c.sizes, op.as_ref()));
    }
    if let Some(d) = c.compute {
        put("dt", d.name().to_string());
    }
    if c.level1 != LevelKind::Hbm {
        put("l1", c.level1.key().to_string());
    }
    let chip = c.chip().ok().or_else(|| preset(&c.chip));
    let l2_default = chip.as_ref().and_then(|ch| default_level2(ch, c.level1));
    if c.level2 != l2_default {
        put("l2", c.level2.map_or("none", LevelKind::key).to_string());
    }
    if c.chips != 1 {
        put("n", c.chips.to_string());
    }
    if let Some(l) = c.link {
        put("link", l.key().to_string());
    }
    if let Some(s) = &c.shard {
        put("shard", s.clone());
    }
    let bx_default = op
        .as_ref()
        .map_or_else(|| "B".to_string(), default_batch_dim);
    if c.batch_dim != bx_default {
        put("bx", c.batch_dim.clone());
    }
    if c.batch_scale != ChartScale::default() {
        put("bs", c.batch_scale.key().to_string());
    }
    if c.pairs != DEFAULT_PAIRS {
        put("pairs", pairs_value(&c.pairs));
    }
    let q = &state.quiz;
    if q.question != DEFAULT_QUESTION {
        put("q", q.question.clone());
    }
    if q.part != 1 {
        put("part", q.part.to_string());
    }
    if q.seed != 0 {
        put("seed", q.seed.to_string());
    }
    out.iter()
        .map(|(k, v)| format!("{}={}", escape(k), escape(v)))
        .collect::<Vec<_>>()
        .joined("&")
}

// ---------------------------------------------------------------------------
// Echoing text from a link safely
// ---------------------------------------------------------------------------

/// Characters that could reorder or hide text around them.
fn is_invisible(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}')
}

/// `s` as a notice may echo it: trimmed, clipped, invisible characters
/// shown as spaces; `None` if it spells a non-finite number ("NaN", "inf").
fn shown(s: &str) -> Option<String> {
    let t: String = s
        .chars()
        .map(|c| if is_invisible(c) { ' ' } else { c })
        .collect();
    let t = clip(t.trim(), ECHO_CHARS);
    if spells_non_finite(&t) {
        None
    } else {
        Some(t)
    }
}

/// Whether `s` holds "nan" or "inf" in any case: text that would read as a
/// non-finite number is not echoed.
fn spells_non_finite(s: &str) -> bool {
    s.as_bytes()
        .windows(3)
        .any(|w| w.eq_ignore_ascii_case(b"nan") || w.eq_ignore_ascii_case(b"inf"))
}

/// `name = 'value'`, or just `name` when the value cannot be echoed.
fn said(name: &str, raw: &str) -> String {
    match shown(raw) {
        Some(s) => format!("{name} = '{s}'"),
        None => name.to_string(),
    }
}

/// `'text'`, or `a value` when it cannot be echoed.
fn quoted(raw: &str) -> String {
    match shown(raw) {
        Some(s) => format!("'{s}'"),
        None => "a value".to_string(),
    }
}

/// A dimension name from an operation, for a message.
fn dim_name(d: &str) -> String {
    shown(d).unwrap_or_else(|| "a dimension".to_string())
}

fn dim_list(dims: &[String]) -> String {
    dims.iter()
        .map(|d| dim_name(d))
        .collect::<Vec<_>>()
        .joined(", ")
}

// ---------------------------------------------------------------------------
// Reading numbers
// ---------------------------------------------------------------------------

/// Why a number could not be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NumErr {
    NotNumber,
    NotPositive,
    TooLarge,
    OutOfRange,
}

/// A positive, finite number: plain (`4096`) or with an exponent
/// (`1.97e14`); `_` may separate digits.
fn positive(raw: &str) -> Result<f64, NumErr> {
    let t: String = raw.trim().chars().filter(|c| *c != '_').collect();
    let v = crate::num::parse_f64(&t).ok_or(NumErr::NotNumber)?;
    if v.is_nan() {
        Err(NumErr::NotNumber)
    } else if v <= 0.0 {
        Err(NumErr::NotPositive)
    } else if v.is_infinite() {
        Err(NumErr::TooLarge)
    } else if !crate::input::in_range(v) {
        Err(NumErr::OutOfRange)
    } else {
        Ok(v)
    }
}

/// `D = '-5' is not a positive size` (the subject echoes the value when it can).
fn num_problem(name: &str, raw: &str, e: NumErr, what: &str) -> String {
    let subject = said(name, raw);
    match e {
        NumErr::NotNumber => format!("{subject} is not a number"),
        NumErr::NotPositive => format!("{subject} is not a positive {what}"),
        NumErr::TooLarge => format!("{subject} is too large"),
        NumErr::OutOfRange => format!("{subject} is outside {}", crate::input::RANGE_TEXT),
    }
}

/// A whole number (digits, or a number such as `2e3` that is whole).
fn whole(raw: &str) -> Option<u64> {
    let t: String = raw.trim().chars().filter(|c| *c != '_').collect();
    if let Ok(n) = t.parse::<u64>() {
        return Some(n);
    }
    let v = crate::num::parse_f64(&t)?;
    // 2^64 as f64; every whole f64 below it converts exactly.
    if v.is_finite() && v >= 0.0 && v.fract() == 0.0 && v < 18_446_744_073_709_551_616.0 {
        Some(v as u64)
    } else {
        None
    }
}

// ---------------------------------------------------------------------------
// Decoding
// ---------------------------------------------------------------------------

struct Notes {
    list: Vec<Notice>,
    dropped: usize,
}

impl Notes {
    fn push(&mut self, param: &str, message: String) {
        if self.list.len() < MAX_NOTICES {
            self.list.push(Notice {
                param: clip(param, ECHO_CHARS),
                message,
            });
        } else {
            self.dropped += 1;
        }
    }

    fn finish(mut self) -> Vec<Notice> {
        if self.dropped > 0 {
            self.list.push(Notice {
                param: String::new(),
                message: format!(
                    "{} more problems with this link are not listed",
                    self.dropped
                ),
            });
        }
        self.list
    }
}

/// One distinct key of the query.
struct Param {
    /// Trimmed and lower-cased.
    key: String,
    /// The last value given.
    value: String,
    /// How many times the key appears.
    count: usize,
    /// Index of its last appearance.
    last: usize,
    /// Whether the decoder read it.
    used: bool,
}

/// The keys of a query, in the order of their first appearance. Looked up
/// by a linear search: there are at most [`MAX_PARAMS`], and a hash map
/// would bring std's hasher and its table code into the wasm.
struct Params {
    list: Vec<Param>,
    /// Parameters after the first [`MAX_PARAMS`], not read.
    skipped: usize,
}

impl Params {
    fn read(query: &str) -> Params {
        let mut p = Params {
            list: Vec::new(),
            skipped: 0,
        };
        for (i, (k, v)) in form_urlencoded::parse(query.as_bytes()).enumerate() {
            if i >= MAX_PARAMS {
                p.skipped += 1;
                continue;
            }
            let key = k.trim().to_ascii_lowercase();
            match p.list.iter_mut().find(|e| e.key == key) {
                Some(e) => {
                    e.value = v.into_owned();
                    e.count += 1;
                    e.last = i;
                }
                None => {
                    p.list.push(Param {
                        key,
                        value: v.into_owned(),
                        count: 1,
                        last: i,
                        used: false,
                    });
                }
            }
        }
        p
    }

    /// The value of `key`, marking it read.
    fn take(&mut self, key: &str) -> Option<String> {
        let e = self.list.iter_mut().find(|e| e.key == key)?;
        e.used = true;
        Some(e.value.clone())
    }

    /// `(key, value)` of every key starting with `prefix`, in the order of
    /// their last appearance, marking them read.
    fn take_prefixed(&mut self, prefix: &str) -> Vec<(String, String)> {
        let mut found: Vec<&mut Param> = self
            .list
            .iter_mut()
            .filter(|e| e.key.starts_with(prefix))
            .collect();
        crate::small::sort_small_by(&mut found, |a, b| a.last.cmp(&b.last));
        found
            .into_iter()
            .map(|e| {
                e.used = true;
                (e.key.clone(), e.value.clone())
            })
            .collect()
    }
}

/// The query inside whatever was pasted: a leading `#` or `?` is dropped,
/// and so is everything up to the first `?` when what precedes it has no
/// `=` or `&` (a whole URL); a `#fragment` is cut off.
fn query_part(input: &str) -> &str {
    let mut s = input.trim();
    s = s.strip_prefix('#').unwrap_or(s);
    if let Some(i) = s.find('?') {
        let before = &s[..i];
        // Bytes, not `str::contains`: its char version links the substring
        // searcher (for chars beyond ASCII) into the wasm.
        if !before.bytes().any(|b| b == b'=' || b == b'&') {
            s = &s[i + 1..];
        }
    }
    match s.find('#') {
        Some(i) => &s[..i],
        None => s,
    }
}

/// A chip to fall back on if even the default preset were missing.
fn fallback_chip() -> Chip {
    preset(DEFAULT_CHIP)
        .or_else(|| catalogue().first().cloned())
        .unwrap_or_else(|| Chip {
            id: DEFAULT_CHIP.to_string(),
            name: DEFAULT_CHIP.to_string(),
            family: Family::Custom,
            peaks: Vec::new(),
            levels: Vec::new(),
        })
}

/// Reads a link (a query string with or without the leading `?`, or a
/// whole URL). Never panics; see the module documentation.
pub fn decode(query: &str) -> Decoded {
    decode_with(query, &[])
}

/// [`decode`], also checking the quiz question against `questions`: each
/// entry is a question id and its number of parts. With an empty list only
/// the form of the id is checked ([`is_question_id`]) and parts run up to
/// [`MAX_PART`].
pub fn decode_with(query: &str, questions: &[(&str, u32)]) -> Decoded {
    let mut p = Params::read(query_part(query));
    let mut n = Notes {
        list: Vec::new(),
        dropped: 0,
    };
    if p.skipped > 0 {
        n.push(
            "",
            format!(
                "the link has more than {MAX_PARAMS} parameters; the last {} were ignored",
                p.skipped
            ),
        );
    }
    let view = read_version_and_view(&mut p, &mut n);
    let calc = viable(read_calc(&mut p, &mut n), &mut n);
    let state = AppState {
        view,
        calc,
        quiz: read_quiz(&mut p, &mut n, questions),
    };
    for e in &p.list {
        if e.used && e.count > 1 {
            let name = shown(&e.key).unwrap_or_else(|| "a parameter".to_string());
            n.push(
                &e.key,
                format!("{name} is given {} times; using the last one", e.count),
            );
        }
    }
    for e in p.list.iter().filter(|e| !e.used) {
        let msg = if e.key.is_empty() {
            "a parameter without a name was ignored".to_string()
        } else {
            match shown(&e.key) {
                Some(k) => format!("unknown parameter '{k}' ignored"),
                None => "an unknown parameter was ignored".to_string(),
            }
        };
        n.push(&e.key, msg);
    }
    Decoded {
        state,
        notices: n.finish(),
    }
}

/// Why the calculator cannot show `state`, if it cannot (the same checks
/// the page makes: analysis, critical size, network case).
fn problem(state: &CalcState) -> Option<String> {
    let input = crate::calc::CalcInput::from_state(state);
    let v = crate::calc::evaluate(&input);
    if v.analysis.is_some() && v.chips_error.is_none() {
        return None;
    }
    let field_error = v
        .chip_fields
        .iter()
        .chain(v.size_fields.iter())
        .find_map(|f| f.error.clone());
    Some(
        field_error
            .or(v.op_error)
            .or(v.compute_error)
            .or(v.chips_error)
            .or(v.error)
            .unwrap_or_else(|| "no result".to_string()),
    )
}

/// Makes sure the page can show the decoded state: if it cannot, falls back
/// step by step (the user's chip numbers, the sizes, the operation and its
/// type, the chip count), each with a notice naming what was reset.
fn viable(mut state: CalcState, n: &mut Notes) -> CalcState {
    let Some(why) = problem(&state) else {
        return state;
    };
    let why = crate::format::clip(&why, 80);
    if !state.peak_overrides.is_empty() || !state.bw_overrides.is_empty() {
        let key = state
            .peak_overrides
            .first()
            .map(|(d, _)| format!("peak.{d}"))
            .or_else(|| {
                state
                    .bw_overrides
                    .first()
                    .map(|(k, _)| format!("bw.{}", k.key()))
            })
            .unwrap_or_default();
        state.peak_overrides.clear();
        state.bw_overrides.clear();
        // Levels and types that only the overrides added go too.
        if let Some(chip) = preset(&state.chip) {
            let kinds = chip.level_kinds();
            if !kinds.contains(&state.level1) {
                state.level1 = LevelKind::Hbm;
            }
            if state
                .level2
                .is_some_and(|l| !kinds.contains(&l) || l == state.level1)
            {
                state.level2 = default_level2(&chip, state.level1);
            }
            if state.link.is_some_and(|l| !kinds.contains(&l)) {
                state.link = None;
            }
            if state.compute.is_some_and(|d| chip.peak(d).is_err()) {
                state.compute = None;
            }
        }
        n.push(
            &key,
            format!("{key}: these chip numbers give no result ({why}); using the preset's"),
        );
        if problem(&state).is_none() {
            return state;
        }
    }
    if let Ok(op) = Operation::parse(&state.op) {
        let defaults = default_sizes(&op);
        if state.sizes != defaults {
            state.sizes = defaults;
            n.push(
                "sz",
                format!("sz: these sizes give no result ({why}); using the default sizes"),
            );
            if problem(&state).is_none() {
                return state;
            }
        }
    }
    if state.chips != 1 {
        state.chips = 1;
        state.link = None;
        state.shard = None;
        n.push(
            "n",
            format!("n: the network case gives no result ({why}); using 1 chip"),
        );
        if problem(&state).is_none() {
            return state;
        }
    }
    let fallback = CalcState {
        chip: state.chip.clone(),
        level2: preset(&state.chip).and_then(|c| default_level2(&c, LevelKind::Hbm)),
        batch_scale: state.batch_scale,
        pairs: state.pairs.clone(),
        ..CalcState::default()
    };
    let fallback = if problem(&fallback).is_none() {
        fallback
    } else {
        CalcState::default()
    };
    n.push(
        "op",
        format!("op: this operation gives no result ({why}); using the default operation"),
    );
    fallback
}

fn read_version_and_view(p: &mut Params, n: &mut Notes) -> View {
    if let Some(v) = p.take("v") {
        match whole(&v) {
            Some(1) => {}
            Some(x) if x > 1 && v.trim().parse::<u64>().is_ok() => n.push(
                "v",
                format!(
                    "this link was made by a newer version of Roofline Lab (v={x}); \
                     reading what this version understands"
                ),
            ),
            _ => n.push(
                "v",
                format!(
                    "{} is not a schema version; reading the link as version {VERSION}",
                    said("v", &v)
                ),
            ),
        }
    }
    match p.take("view") {
        None => View::default(),
        Some(raw) => View::from_key(&raw).unwrap_or_else(|| {
            n.push(
                "view",
                format!("{} is not calc or quiz; using calc", said("view", &raw)),
            );
            View::default()
        }),
    }
}

fn read_calc(p: &mut Params, n: &mut Notes) -> CalcState {
    // The chip, then the user's numbers on it.
    let mut chip = match p.take("chip") {
        None => fallback_chip(),
        Some(raw) => match preset(&raw) {
            Some(c) => c,
            None => {
                let c = fallback_chip();
                let subject = match shown(&raw) {
                    Some(s) => format!("chip '{s}'"),
                    None => "chip".to_string(),
                };
                n.push(
                    "chip",
                    format!("{subject} is not a preset; using {}", c.name),
                );
                c
            }
        },
    };
    let base = chip.clone();
    let peak_overrides = read_peaks(p, n, &base);
    let bw_overrides = read_bandwidths(p, n, &base);
    for (d, v) in &peak_overrides {
        // Values are positive and finite: this cannot fail.
        let _ = chip.set_peak(*d, *v);
    }
    for (k, v) in &bw_overrides {
        let _ = chip.set_bandwidth(*k, *v);
    }

    let op = read_op(p, n);
    let sizes = match p.take("sz") {
        None => default_sizes(&op),
        Some(raw) => read_sizes(&raw, &op, n),
    };

    let widest = op.widest_input_dtype();
    let compute = p.take("dt").and_then(|raw| match raw.parse::<DType>() {
        Err(_) => {
            n.push(
                "dt",
                format!(
                    "{} is not a data type (try fp32, bf16, fp16, fp8, int8, fp4 or int4); \
                     using the widest input's ({widest})",
                    said("dt", &raw)
                ),
            );
            None
        }
        Ok(d) if chip.peak(d).is_err() => {
            n.push(
                "dt",
                format!(
                    "dt: {} lists no {d} peak; using the widest input's ({widest})",
                    chip.name
                ),
            );
            None
        }
        Ok(d) => Some(d),
    });
    let compute = match compute {
        None if chip.peak(widest).is_err() => {
            let first = chip.dtypes().into_iter().next();
            if let Some(d) = first {
                n.push(
                    "dt",
                    format!(
                        "dt: {} lists no {widest} peak (the widest input's type); using {d}",
                        chip.name
                    ),
                );
            }
            first
        }
        c => c,
    };

    let kinds = chip.level_kinds();
    let level1 = match p.take("l1") {
        None => LevelKind::Hbm,
        Some(raw) => match read_level(&raw) {
            Some(k) if kinds.contains(&k) => k,
            Some(k) => {
                n.push(
                    "l1",
                    format!("l1: {} has no {k} bandwidth; using HBM", chip.name),
                );
                LevelKind::Hbm
            }
            None => {
                n.push(
                    "l1",
                    format!(
                        "{} is not a memory level ({LEVELS}); using HBM",
                        said("l1", &raw)
                    ),
                );
                LevelKind::Hbm
            }
        },
    };
    let l2_default = default_level2(&chip, level1);
    let l2_text = l2_default.map_or("none", LevelKind::name);
    let level2 = match p.take("l2") {
        None => l2_default,
        Some(raw) if raw.trim().eq_ignore_ascii_case("none") => None,
        Some(raw) => match read_level(&raw) {
            Some(k) if k == level1 => {
                n.push(
                    "l2",
                    format!("l2: {k} is already the first level (l1); using {l2_text}"),
                );
                l2_default
            }
            Some(k) if kinds.contains(&k) => Some(k),
            Some(k) => {
                n.push(
                    "l2",
                    format!("l2: {} has no {k} bandwidth; using {l2_text}", chip.name),
                );
                l2_default
            }
            None => {
                n.push(
                    "l2",
                    format!(
                        "{} is not a memory level ({LEVELS}, or none); using {l2_text}",
                        said("l2", &raw)
                    ),
                );
                l2_default
            }
        },
    };

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

    let bx_default = default_batch_dim(&op);
    let batch_dim = match p.take("bx") {
        None => bx_default,
        Some(raw) if op.has_dim(raw.trim()) => raw.trim().to_string(),
        Some(raw) => {
            n.push(
                "bx",
                format!(
                    "{} is not a dimension of the operation ({}); using {}",
                    said("bx", &raw),
                    dim_list(&op.dims()),
                    dim_name(&bx_default)
                ),
            );
            bx_default
        }
    };
    let batch_scale = match p.take("bs") {
        None => ChartScale::default(),
        Some(raw) => ChartScale::from_key(&raw).unwrap_or_else(|| {
            n.push(
                "bs",
                format!("{} is not log or lin; using log", said("bs", &raw)),
            );
            ChartScale::default()
        }),
    };
    let pairs = match p.take("pairs") {
        None => DEFAULT_PAIRS.to_vec(),
        Some(raw) => read_pairs(&raw, n),
    };

    CalcState {
        chip: chip.id.clone(),
        peak_overrides,
        bw_overrides,
        op: op.notation(),
        sizes,
        compute,
        level1,
        level2,
        chips,
        link,
        shard,
        batch_dim,
        batch_scale,
        pairs,
    }
}

const LEVELS: &str = "hbm, vmem, smem, pcie, ici, nvlink or dcn";

fn read_level(raw: &str) -> Option<LevelKind> {
    LevelKind::from_key(raw)
}

fn read_peaks(p: &mut Params, n: &mut Notes, base: &Chip) -> Vec<(DType, f64)> {
    let mut out: SmallMap<DType, f64> = SmallMap::new();
    for (key, raw) in p.take_prefixed("peak.") {
        let name = shown(&key).unwrap_or_else(|| "a peak.* parameter".to_string());
        let Ok(d) = key["peak.".len()..].parse::<DType>() else {
            n.push(
                &key,
                format!(
                    "{name} names no data type (try peak.fp32, peak.bf16, peak.fp16, peak.fp8, \
                     peak.int8, peak.fp4 or peak.int4); ignored"
                ),
            );
            continue;
        };
        match positive(&raw) {
            Ok(v) => {
                if out.insert(d, v).is_some() {
                    n.push(
                        &key,
                        format!("{name} sets the {d} peak again; using the last one"),
                    );
                }
            }
            Err(e) => {
                let fallback = match base.peak_entry(d) {
                    Some(pk) => format!("using {}'s {}", base.name, sci(pk.dense)),
                    None => "ignored".to_string(),
                };
                n.push(
                    &key,
                    format!("{}; {fallback}", num_problem(&name, &raw, e, "peak")),
                );
            }
        }
    }
    out.into_iter().collect()
}

fn read_bandwidths(p: &mut Params, n: &mut Notes, base: &Chip) -> Vec<(LevelKind, f64)> {
    let mut out: SmallMap<LevelKind, f64> = SmallMap::new();
    for (key, raw) in p.take_prefixed("bw.") {
        let name = shown(&key).unwrap_or_else(|| "a bw.* parameter".to_string());
        let Some(k) = LevelKind::from_key(&key["bw.".len()..]) else {
            n.push(
                &key,
                format!(
                    "{name} names no memory level (try bw.hbm, bw.vmem, bw.smem, bw.pcie, bw.ici, \
                     bw.nvlink or bw.dcn); ignored"
                ),
            );
            continue;
        };
        match positive(&raw) {
            Ok(v) => {
                if out.insert(k, v).is_some() {
                    n.push(
                        &key,
                        format!("{name} sets the {k} bandwidth again; using the last one"),
                    );
                }
            }
            Err(e) => {
                let fallback = match base.level(k) {
                    Ok(l) => format!("using {}'s {}", base.name, sci(l.bandwidth)),
                    Err(_) => "ignored".to_string(),
                };
                n.push(
                    &key,
                    format!("{}; {fallback}", num_problem(&name, &raw, e, "bandwidth")),
                );
            }
        }
    }
    out.into_iter().collect()
}

fn read_op(p: &mut Params, n: &mut Notes) -> Operation {
    let default = DEFAULT_SHORTCUT.operation();
    let Some(raw) = p.take("op") else {
        return default;
    };
    let t = raw.trim();
    let why = if let Some(sc) = Shortcut::from_key(t) {
        return sc.operation();
    } else if t.chars().count() > MAX_OP_CHARS {
        format!("op is longer than {MAX_OP_CHARS} characters")
    } else {
        match Operation::parse(t) {
            Ok(op) => match op.counts(&default_sizes(&op)) {
                Ok(_) => return op,
                Err(e) => format!(
                    "{} cannot be counted at the default sizes ({})",
                    said("op", t),
                    shown(&e.to_string()).unwrap_or_default()
                ),
            },
            Err(e) => {
                let detail = shown_long(&e.to_string())
                    .map(|d| format!(" ({d})"))
                    .unwrap_or_default();
                format!("{} is not an operation{detail}", said("op", t))
            }
        }
    };
    n.push(
        "op",
        format!(
            "{why}; using the matmul with int8 weights, {}",
            default.notation()
        ),
    );
    default
}

/// Like [`shown`] for a longer message of the core's own (a parse error,
/// which echoes at most a few characters of the text).
fn shown_long(s: &str) -> Option<String> {
    if spells_non_finite(s) {
        None
    } else {
        Some(clip(s, 160))
    }
}

fn read_sizes(raw: &str, op: &Operation, n: &mut Notes) -> Sizes {
    let defaults = default_sizes(op);
    let defaults_text = || {
        defaults
            .iter()
            .map(|(d, v)| format!("{}:{}", dim_name(d), sci(*v)))
            .collect::<Vec<_>>()
            .joined(",")
    };
    let mut got = Sizes::new();
    for item in raw.split(',') {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        let Some((name, val)) = item.split_once(':').or_else(|| item.split_once('=')) else {
            n.push(
                "sz",
                format!("sz: {} is not a size like D:4096; ignored", quoted(item)),
            );
            continue;
        };
        let name = name.trim();
        let Some(fallback) = defaults.get(name).copied() else {
            n.push(
                "sz",
                format!(
                    "sz: {} is not a dimension of the operation ({}); ignored",
                    quoted(name),
                    dim_list(&op.dims())
                ),
            );
            continue;
        };
        let v = match positive(val) {
            Ok(v) => v,
            Err(e) => {
                n.push(
                    "sz",
                    format!(
                        "{}; using {}",
                        num_problem(&dim_name(name), val, e, "size"),
                        sci(fallback)
                    ),
                );
                fallback
            }
        };
        if got.insert(name.to_string(), v).is_some() {
            n.push(
                "sz",
                format!("sz gives {} twice; using the last", dim_name(name)),
            );
        }
    }
    for (d, v) in &defaults {
        if !got.contains_key(d) {
            n.push(
                "sz",
                format!("sz gives no size for {}; using {}", dim_name(d), sci(*v)),
            );
            got.insert(d.clone(), *v);
        }
    }
    if let Err(e) = op.counts(&got) {
        let why = shown_long(&e.to_string()).unwrap_or_else(|| "they cannot be used".to_string());
        n.push(
            "sz",
            format!("sz: {why}; using the default sizes {}", defaults_text()),
        );
        return defaults;
    }
    got
}

fn read_pairs(raw: &str, n: &mut Notes) -> Vec<(f64, f64)> {
    let default_text = || pairs_value(&DEFAULT_PAIRS);
    let mut out = Vec::new();
    let mut extra = 0usize;
    for item in raw.split(',') {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        let pair = item
            .split_once(['x', 'X', '×', '*'])
            .and_then(|(a, b)| Some((positive(a).ok()?, positive(b).ok()?)));
        match pair {
            Some(pair) if out.len() < MAX_PAIRS => out.push(pair),
            Some(_) => extra += 1,
            None => n.push(
                "pairs",
                format!(
                    "pairs: {} is not a pair of positive sizes like 4096x4096; skipped",
                    quoted(item)
                ),
            ),
        }
    }
    if extra > 0 {
        n.push(
            "pairs",
            format!(
                "pairs: {} pairs is more than {MAX_PAIRS}; kept the first {MAX_PAIRS}",
                MAX_PAIRS + extra
            ),
        );
    }
    if out.is_empty() {
        n.push(
            "pairs",
            format!("pairs has no usable pair; using {}", default_text()),
        );
        return DEFAULT_PAIRS.to_vec();
    }
    out
}

fn read_quiz(p: &mut Params, n: &mut Notes, questions: &[(&str, u32)]) -> QuizState {
    let known = |id: &str| questions.is_empty() || questions.iter().any(|(q, _)| *q == id);
    let default_q = if known(DEFAULT_QUESTION) {
        DEFAULT_QUESTION.to_string()
    } else {
        questions
            .first()
            .map_or_else(|| DEFAULT_QUESTION.to_string(), |(q, _)| q.to_string())
    };
    let question = match p.take("q") {
        None => default_q,
        Some(raw) => {
            let t = raw.trim();
            if is_question_id(t) && known(t) {
                t.to_string()
            } else {
                n.push(
                    "q",
                    format!(
                        "{} is not a question of this version; using {}",
                        said("q", &raw),
                        quoted(&default_q)
                    ),
                );
                default_q
            }
        }
    };
    let max_part = questions
        .iter()
        .find(|(q, _)| *q == question)
        .map_or(MAX_PART, |(_, parts)| (*parts).max(1));
    let part = match p.take("part") {
        None => 1,
        Some(raw) => match whole(&raw) {
            Some(x) if x >= 1 && x <= u64::from(max_part) => u32::try_from(x).unwrap_or(1),
            _ => {
                n.push(
                    "part",
                    format!(
                        "{} is not a part from 1 to {max_part}; using 1",
                        said("part", &raw)
                    ),
                );
                1
            }
        },
    };
    let seed = match p.take("seed") {
        None => 0,
        Some(raw) => {
            let t: String = raw.trim().chars().filter(|c| *c != '_').collect();
            match t.parse::<u64>() {
                Ok(s) => s,
                Err(_) => {
                    n.push(
                        "seed",
                        format!(
                            "{} is not a whole number from 0 to {}; using 0 (the book's numbers)",
                            said("seed", &raw),
                            u64::MAX
                        ),
                    );
                    0
                }
            }
        }
    };
    QuizState {
        question,
        part,
        seed,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    #[test]
    fn escape_keeps_colons_and_commas_readable() {
        assert_eq!(escape("a:b,c d"), "a:b,c+d");
        // A `%` is escaped itself, so an escaped colon in the text stays escaped.
        assert_eq!(escape("%3A,%2C"), "%253A,%252C");
        assert_eq!(escape("β→δ"), "%CE%B2%E2%86%92%CE%B4");
    }

    #[test]
    fn non_finite_spellings_are_found_in_any_case() {
        for s in ["NaN", "nan", "-inf", "Infinity", "xINFy", "1e9nAn"] {
            assert!(spells_non_finite(s), "{s}");
        }
        for s in ["", "na n", "in", "4096", "βinδ", "fine"] {
            assert!(!spells_non_finite(s), "{s}");
        }
    }

    #[test]
    fn default_state_is_just_the_version() {
        assert_eq!(encode(&AppState::default()), "v=1");
        let d = decode("");
        assert_eq!(d.state, AppState::default());
        assert!(d.notices.is_empty());
    }

    #[test]
    fn the_briefs_examples() {
        let d = decode("?v=1&sz=B:256,D:-5,F:4096");
        assert_eq!(
            d.notices[0].message,
            "D = '-5' is not a positive size; using 4096"
        );
        assert_eq!(d.notices[0].param, "sz");
        let d = decode("chip=xyz");
        assert_eq!(
            d.notices[0].message,
            "chip 'xyz' is not a preset; using TPU v5e"
        );
        let d = decode("v=2&foo=1");
        assert!(d.notices[0].message.contains("newer version"));
        assert_eq!(d.notices[1].message, "unknown parameter 'foo' ignored");
    }

    #[test]
    fn whole_urls_and_fragments() {
        let d = decode("  https://example.org/lab/?v=1&chip=h100#top ");
        assert_eq!(d.state.calc.chip, "h100");
        assert!(d.notices.is_empty());
        let d = decode("v=1&chip=h100&op=fp32[N]-fp32[N]->fp32[N]");
        assert!(d.notices.is_empty(), "{:?}", d.notices);
    }

    #[test]
    fn echoes_are_safe() {
        assert_eq!(shown("NaN"), None);
        assert_eq!(shown("a\u{202E}b\n"), Some("a b".to_string()));
        assert_eq!(shown("\u{202E}ab"), Some("ab".to_string()));
        assert_eq!(shown(&"x".repeat(100)).unwrap().chars().count(), 41);
    }
}
