//! Bad links: each hostile value on each key gets a notice naming that key,
//! and the decoder says what it used instead.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use roofline_core::pages::AppState;
use roofline_core::state::{CalcState, DEFAULT_QUESTION, MAX_CHIPS};
use roofline_core::url::{decode, decode_with, encode, Decoded, MAX_NOTICES, MAX_PARAMS};
use roofline_core::{LevelKind, Shortcut};

const KEYS: [&str; 19] = [
    "v",
    "view",
    "chip",
    "peak.bf16",
    "bw.hbm",
    "op",
    "sz",
    "dt",
    "l1",
    "l2",
    "n",
    "link",
    "shard",
    "bx",
    "bs",
    "pairs",
    "q",
    "part",
    "seed",
];

fn hostile() -> Vec<String> {
    let mut v: Vec<String> = [
        "NaN",
        "inf",
        "-inf",
        "Infinity",
        "-1",
        "0",
        "1e400",
        "",
        "<script>alert(1)</script>",
        "\"><img src=x onerror=alert(1)>",
        "%ZZ",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    v.push("a".repeat(10_000));
    v.push("9".repeat(10_000));
    v
}

/// Values that are fine for a key (so no notice is expected).
fn acceptable(key: &str, value: &str) -> bool {
    match key {
        "seed" => value == "0",
        // Only the form of a question id is checked without a list of
        // questions; see `questions_are_checked_against_a_list`.
        "q" => matches!(value, "NaN" | "inf" | "Infinity"),
        _ => false,
    }
}

fn assert_clean_text(d: &Decoded, context: &str) {
    for n in &d.notices {
        for bad in ["NaN", "Infinity", " inf", "inf"] {
            assert!(!n.message.contains(bad), "{context}: {:?}", n.message);
        }
        assert!(n.message.chars().count() < 600, "{context}: too long");
    }
}

#[test]
fn every_hostile_value_on_every_key_is_named() {
    for key in KEYS {
        for value in hostile() {
            let raw = format!("v=1&{key}={value}");
            let encoded = format!(
                "?v=1&{key}={}",
                form_urlencoded::byte_serialize(value.as_bytes()).collect::<String>()
            );
            for q in [raw, encoded] {
                let context = format!("{key} = {}", &value.chars().take(30).collect::<String>());
                let d = decode(&q);
                assert_clean_text(&d, &context);
                if !acceptable(key, &value) {
                    assert!(
                        d.notices.iter().any(|n| n.param == key),
                        "{context}: no notice names {key}: {:?}",
                        d.notices
                    );
                }
                assert!(
                    d.notices.iter().all(|n| n.param == key),
                    "{context}: a notice names another key: {:?}",
                    d.notices
                );
                // Nothing else moved from its default.
                let mut expected = AppState::default();
                let got = &d.state;
                // The quiz's keys are kept as their text: only the key
                // tried may differ from its default there.
                let (q, default) = (quiz(&d), roofline_core::QuizState::default());
                let kept = match key {
                    "q" => roofline_core::QuizState {
                        question: q.question,
                        ..default
                    },
                    "seed" => roofline_core::QuizState {
                        seed: q.seed,
                        ..default
                    },
                    _ => default,
                };
                expected.quiz = roofline_core::quiz::state_text(&kept);
                assert_eq!(got, &expected, "{context}");
            }
        }
    }
}

#[test]
fn script_in_op_gives_a_notice_and_the_default_op() {
    for q in [
        "?v=1&op=<script>alert(1)</script>",
        "?v=1&op=%3Cscript%3Ealert(1)%3C%2Fscript%3E",
        "?v=1&op=bf16[B,D]<script>",
    ] {
        let d = decode(q);
        assert_eq!(d.state.calc.op, Shortcut::MixedMatmul.notation());
        assert_eq!(d.notices.len(), 1, "{:?}", d.notices);
        assert_eq!(d.notices[0].param, "op");
        assert!(d.notices[0].message.contains("is not an operation"));
        assert!(d.notices[0]
            .message
            .ends_with("bf16[B,D] * int8[D,F] -> bf16[B,F]"));
    }
}

#[test]
fn the_notice_texts() {
    let first = |q: &str| decode(q).notices.into_iter().next().unwrap();

    let n = first("?v=1&sz=B:256,D:-5,F:4096");
    assert_eq!(n.param, "sz");
    assert_eq!(n.message, "D = '-5' is not a positive size; using 4096");
    assert_eq!(
        first("v=1&sz=D:NaN").message,
        "D is not a number; using 4096"
    );
    assert_eq!(
        first("?chip=xyz").message,
        "chip 'xyz' is not a preset; using TPU v5e"
    );
    assert_eq!(first("?foo=1").message, "unknown parameter 'foo' ignored");
    assert_eq!(
        first("?v=2").message,
        "this link was made by a newer version of Roofline Lab (v=2); \
         reading what this version understands"
    );
    assert_eq!(
        first("?v=1&n=5000").message,
        "n = '5000' is more than 4096 chips; using 4096"
    );
    assert_eq!(decode("?v=1&n=5000").state.calc.chips, MAX_CHIPS);
    assert_eq!(
        first("?v=1&peak.bf16=-1").message,
        "peak.bf16 = '-1' is not a positive peak; using TPU v5e's 1.97e14"
    );
    // Echoes are clipped to 40 characters.
    let n = first(&format!("?v=1&chip={}", "x".repeat(500)));
    assert!(n.message.chars().count() < 90, "{}", n.message);
}

#[test]
fn a_newer_version_is_read_as_far_as_possible() {
    let d = decode("?v=7&chip=h100&sparkle=1");
    assert_eq!(d.state.calc.chip, "h100");
    assert_eq!(d.notices.len(), 2);
    assert!(d.notices[0].message.contains("(v=7)"));
    assert_eq!(d.notices[1].param, "sparkle");
}

#[test]
fn a_missing_version_is_version_1() {
    let d = decode("chip=h100&op=dot");
    assert!(d.notices.is_empty());
    assert_eq!(d.state.calc.op, Shortcut::DotProduct.notation());
    assert_eq!(d.state.calc.sizes.get("N"), Some(&1e6));
    assert_eq!(d.state.calc.batch_dim, "N");
}

#[test]
fn repeated_keys_last_one_wins() {
    let d = decode("?v=1&chip=h100&CHIP=b200&chip= a100 ");
    assert_eq!(d.state.calc.chip, "a100");
    assert_eq!(d.notices.len(), 1);
    assert_eq!(d.notices[0].param, "chip");
    assert_eq!(
        d.notices[0].message,
        "chip is given 3 times; using the last one"
    );

    // Two spellings of one data type.
    let d = decode("?v=1&peak.bf16=1e14&peak.bfloat16=2e14");
    assert_eq!(d.state.calc.peak_overrides.len(), 1);
    assert_eq!(d.state.calc.peak_overrides[0].1, 2e14);
    assert_eq!(d.notices.len(), 1);
    assert_eq!(d.notices[0].param, "peak.bfloat16");
}

#[test]
fn sizes_fall_back_per_dimension_then_as_a_whole() {
    let d = decode("?v=1&sz=B:512");
    assert_eq!(d.state.calc.sizes.get("B"), Some(&512.0));
    assert_eq!(d.state.calc.sizes.get("F"), Some(&4096.0));
    let msgs: Vec<&str> = d.notices.iter().map(|n| n.message.as_str()).collect();
    assert_eq!(
        msgs,
        [
            "sz gives no size for D; using 4096",
            "sz gives no size for F; using 4096"
        ]
    );

    let d = decode("?v=1&op=dot&sz=N:1e6,B:4");
    assert_eq!(d.notices.len(), 1);
    assert!(d.notices[0].message.contains("'B' is not a dimension"));

    // Each size outside 1..1e21 falls back on its own.
    let d = decode("?v=1&sz=B:1e300,D:1e300,F:1e300");
    assert_eq!(d.state.calc, CalcState::default());
    assert_eq!(d.notices.len(), 3);
    assert!(d
        .notices
        .iter()
        .all(|n| n.param == "sz" && n.message.contains("outside")));

    // Sizes in range whose product overflows: all fall back together.
    let dims: Vec<String> = (b'A'..=b'P').map(|c| (c as char).to_string()).collect();
    let op = format!(
        "bf16[{}]*bf16[{}]->bf16[{}]",
        dims[..8].join(","),
        dims[7..].join(","),
        dims.iter()
            .filter(|d| *d != "H")
            .cloned()
            .collect::<Vec<_>>()
            .join(",")
    );
    let sz: Vec<String> = dims.iter().map(|d| format!("{d}:1e21")).collect();
    let d = decode(&format!("?v=1&op={op}&sz={}", sz.join(",")));
    assert_eq!(d.notices.len(), 1, "{:?}", d.notices);
    assert_eq!(d.notices[0].param, "sz");
    assert!(d.notices[0].message.contains("overflow"));

    // Tiny sizes.
    let d = decode("?v=1&sz=B:1e-200,D:1e-200,F:1e-200");
    assert_eq!(d.state.calc, CalcState::default());
    assert_eq!(d.notices.len(), 3);
}

#[test]
fn levels_and_links_are_checked_against_the_chip() {
    let d = decode("?v=1&chip=h100&l1=vmem&link=ici&dt=fp4");
    let c = &d.state.calc;
    assert_eq!(c.level1, LevelKind::Hbm);
    assert_eq!(c.link, None);
    assert_eq!(c.compute, None);
    let params: Vec<&str> = d.notices.iter().map(|n| n.param.as_str()).collect();
    assert_eq!(params, ["dt", "l1", "link"]);

    // A bandwidth the user adds makes the level available.
    let d = decode("?v=1&chip=h100&bw.vmem=2e13&l1=vmem");
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    assert_eq!(d.state.calc.level1, LevelKind::Vmem);
    assert_eq!(d.state.calc.level2, None);

    // l2 may not repeat l1.
    let d = decode("?v=1&l1=vmem&l2=vmem");
    assert_eq!(d.state.calc.level2, None);
    assert_eq!(d.notices[0].param, "l2");
}

#[test]
fn questions_are_checked_against_a_list() {
    let qs = [("q1", 3), ("q2", 2)];
    for bad in ["NaN", "inf", "q3"] {
        let d = decode_with(&format!("?v=1&view=quiz&q={bad}"), &qs);
        assert_eq!(quiz(&d).question, DEFAULT_QUESTION);
        assert_eq!(d.notices.len(), 1);
        assert_eq!(d.notices[0].param, "q");
        assert!(!d.notices[0].message.contains("NaN"));
    }
    let d = decode_with("?v=1&q=q2&part=2", &qs);
    assert!(d.notices.is_empty());
    let d = decode_with("?v=1&q=q2&part=3", &qs);
    assert_eq!(quiz(&d).part, 1);
    assert_eq!(
        d.notices[0].message,
        "part = '3' is not a part from 1 to 2; using 1"
    );
    // Without q1 in the list, the first question is the fallback.
    let d = decode_with("?v=1&q=zz", &[("intro", 1)]);
    assert_eq!(quiz(&d).question, "intro");
}

/// The quiz's state in a decoded link (kept as its keys' text).
fn quiz(d: &roofline_core::url::Decoded) -> roofline_core::QuizState {
    roofline_core::quiz::read_query(&d.state.quiz).0
}

#[test]
fn notices_are_capped() {
    let q: String = (0..200).map(|i| format!("&k{i}=1")).collect();
    let d = decode(&format!("v=1{q}"));
    assert_eq!(d.notices.len(), MAX_NOTICES + 1);
    assert!(d.notices[MAX_NOTICES]
        .message
        .starts_with("168 more problems"));
}

#[test]
fn only_the_first_params_are_read() {
    // `v` and 255 unknown keys fill the limit; the chip after them is not read.
    let q: String = (1..MAX_PARAMS).map(|i| format!("&k{i}=1")).collect();
    let d = decode(&format!("v=1{q}&chip=h100&chip=b200"));
    assert_eq!(d.state.calc.chip, "v5e");
    assert_eq!(d.notices[0].param, "");
    assert_eq!(
        d.notices[0].message,
        format!("the link has more than {MAX_PARAMS} parameters; the last 2 were ignored")
    );
    // Within the limit, the chip is read, and no such notice is given.
    let q: String = (2..MAX_PARAMS).map(|i| format!("&k{i}=1")).collect();
    let d = decode(&format!("v=1{q}&chip=h100"));
    assert_eq!(d.state.calc.chip, "h100");
    assert!(d.notices.iter().all(|n| !n.message.contains("parameters;")));
    // A huge link is read in one pass over its pairs, and a repeated key
    // counts its appearances within the limit.
    let q = "&chip=h100".repeat(200_000);
    let d = decode(&format!("v=1{q}"));
    assert_eq!(d.state.calc.chip, "h100");
    assert!(d.notices.iter().any(
        |n| n.message == format!("chip is given {} times; using the last one", MAX_PARAMS - 1)
    ));
}

#[test]
fn typical_links_are_short() {
    let mut s = AppState::default();
    s.calc.chip = "h100".to_string();
    s.calc.level2 = None;
    s.calc.sizes.insert("B".to_string(), 512.0);
    let link = encode(&s);
    assert_eq!(link, "v=1&chip=h100&sz=B:512,D:4096,F:4096");
    assert!(link.len() + 1 < 200);
    assert_eq!(decode(&link).state, s);

    // A busier one: custom op, overrides, network case, chart options, quiz.
    let q = "?v=1&chip=v5p&peak.bf16=5e14&bw.hbm=3e12&op=bf16[B,S,D]*bf16[D,F]->bf16[B,S,F]\
             &sz=B:16,S:2048,D:8192,F:32768&n=4&link=ici&bs=lin&pairs=8192x32768,4096x16384\
             &view=quiz&q=q3&part=2&seed=7";
    let d = decode(q);
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    let link = encode(&d.state);
    assert!(
        link.len() + 1 < 200,
        "{} characters: {link}",
        link.len() + 1
    );
}

#[test]
fn invisible_and_control_characters_are_not_echoed() {
    let d = decode("?v=1&chip=%E2%80%AEevil%0Aline");
    assert_eq!(
        d.notices[0].message,
        "chip 'evil line' is not a preset; using TPU v5e"
    );
}
