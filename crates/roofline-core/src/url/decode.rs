//! Reading a link: [`decode`] takes the query apart, reads the version, the
//! view, the calculator's keys and the quiz's, makes sure the page can show
//! the result (falling back step by step when it cannot), and reports
//! repeated and unknown parameters.

use crate::hardware::preset;
use crate::learn::STEP_COUNT;
use crate::op::Operation;
use crate::state::{
    default_level2, default_sizes, is_question_id, AppState, CalcState, QuizState, View,
    DEFAULT_QUESTION, MAX_PART,
};
use crate::LevelKind;

use super::notice::{quoted, said, shown, Notes};
use super::query::{query_part, whole, Params};
use super::read_calc::read_calc;
use super::read_model::read_model;
use super::{Decoded, MAX_PARAMS, VERSION};

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
        step: read_step(&mut p, &mut n),
        points: read_points(&mut p),
        model: read_model(&mut p, &mut n),
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
    let field_error = crate::calc::chip_fields(&input)
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
            let (l1, l2) = (state.level1, state.level2);
            state
                .extra_lines
                .retain(|k| kinds.contains(k) && *k != l1 && Some(*k) != l2);
            if l2.is_none() {
                state.extra_lines.clear();
            }
            let roofs = chip.roofs();
            state.roofs.retain(|r| roofs.contains(r));
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
        roofline_scale: state.roofline_scale,
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
                format!(
                    "{} is not calc, quiz, learn or model; using calc",
                    said("view", &raw)
                ),
            );
            View::default()
        }),
    }
}

/// Measured kernels (`pts`), kept as written: the measurements panel
/// reads them (`points::compact::decode`) and lists each item that is not
/// a kernel, so that reading a link needs none of that code.
fn read_points(p: &mut Params) -> String {
    p.take("pts").unwrap_or_default()
}

/// The Learn page's step: a whole number from 1 to [`STEP_COUNT`].
fn read_step(p: &mut Params, n: &mut Notes) -> u32 {
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
    use crate::url::encode;

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
}
