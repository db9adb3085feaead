//! No input makes the Scale page panic, show NaN or inf, or give a
//! negative or non-finite time: random mesh texts, wraparounds, arrays,
//! ops, sizes from 1 to 1e30, strategies, degrees and every chip; and any
//! link text reads to a state whose link reads back the same.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::*;
use roofline_core::hardware::catalogue;
use roofline_core::model::PRESETS;
use roofline_core::scale::{
    evaluate_scale, read_query, state_text, CollOp, ScaleState, Strategy as Plan,
};

/// Whether `text` holds the word NaN or inf (any case) as a token of its
/// own: "InfiniBand" is fine, "inf s" is not.
fn shows_non_finite(text: &str) -> bool {
    text.split(|c: char| !c.is_alphanumeric())
        .any(|w| ["nan", "inf", "infinity"].contains(&w.to_ascii_lowercase().as_str()))
}

fn size() -> BoxedStrategy<f64> {
    prop_oneof![
        Just(1.0),
        Just(1e30),
        Just(-4.0),
        Just(0.0),
        Just(f64::NAN),
        Just(f64::INFINITY),
        (1u32..=20).prop_map(|k| f64::from(1u32 << k)),
        (1.0f64..1e9),
    ]
    .boxed()
}

fn mesh_text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("X:16,Y:16,Z:16".to_string()),
        Just("X:0".to_string()),
        Just("X:1e30,Y:2".to_string()),
        Just("X:-3".to_string()),
        Just("X:4,X:4".to_string()),
        "[XYZQ]:[0-9]{1,4}(,[XYZ]:[0-9]{1,3}){0,2}",
        ".{0,12}",
    ]
}

fn op_text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("bf16[B_X,D]*bf16[D,F_Y]->bf16[B_X,F_Y]".to_string()),
        Just("bf16[B,D_X]*bf16[D_X,F]->bf16[B,F_X]".to_string()),
        Just("bf16[B_X,D]*bf16[D,F_X]->bf16[B_X,F]".to_string()),
        Just("bf16[B,D_XY]*bf16[D_Z,F]->bf16[B,F]".to_string()),
        "[a-z0-9]{2,4}\\[[BDF](_[XYZ]{1,2})?,[BDF](_[XYZ])?\\]\\*bf16\\[[DF](_[XYZ])?,F\\]->bf16\\[[BDF],F\\]",
        ".{0,20}",
    ]
}

fn degree() -> impl Strategy<Value = Option<f64>> {
    prop_oneof![
        Just(None),
        (1u32..=4096).prop_map(|v| Some(f64::from(v))),
        Just(Some(1e6)),
        Just(Some(0.0)),
        Just(Some(-2.0)),
        Just(Some(2.5)),
        Just(Some(f64::NAN)),
    ]
}

/// The collective's keys: mesh, wrap, collective, axes, array.
type CollKeys = (Option<String>, Option<String>, usize, String, String);

fn coll_keys() -> BoxedStrategy<CollKeys> {
    (
        prop::option::of(mesh_text()),
        prop::option::of("[XYZQ]{0,3}|none"),
        0usize..4,
        "[XYZQ]{0,3}",
        prop_oneof![
            Just("bf16[B_X,D]".to_string()),
            Just("fp32[B,D_XY]".to_string()),
            ".{0,16}"
        ],
    )
        .boxed()
}

/// The training plan's numbers, any of them out of range.
type TrainNums = (
    f64,
    f64,
    usize,
    Option<f64>,
    Option<f64>,
    Option<u32>,
    Option<u32>,
);

fn train_nums() -> BoxedStrategy<TrainNums> {
    (
        size(),
        size(),
        0usize..6,
        degree(),
        degree(),
        prop::option::of(0u32..=6),
        prop::option::of(0u32..=6),
    )
        .boxed()
}

fn run_nums() -> BoxedStrategy<(u8, f64, f64, f64, f64)> {
    (
        0u8..=5,
        prop_oneof![Just(0.0), Just(4.0), Just(1000.0), Just(-1.0)],
        prop_oneof![Just(1e-9), Just(0.4), Just(1.0), Just(0.0), Just(2.0)],
        size(),
        prop_oneof![Just(1.0), Just(4.0), Just(1e4), Just(0.5)],
    )
        .boxed()
}

fn state() -> BoxedStrategy<ScaleState> {
    (coll_keys(), train_nums(), run_nums())
        .prop_map(
            |(
                (mesh, wrap, cop, cax, arr),
                (tokens, seq, strat, x, y, mx, my),
                (zero, ckpt, mfu, budget, pods),
            )| {
                ScaleState {
                    mesh,
                    wrap,
                    cop: CollOp::ALL[cop],
                    cax,
                    arr,
                    tokens,
                    seq,
                    strat: Plan::ALL[strat],
                    x,
                    y,
                    mx: mx.map(f64::from),
                    my: my.map(f64::from),
                    zero,
                    ckpt,
                    mfu,
                    budget,
                    pods,
                }
            },
        )
        .boxed()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(160))]

    #[test]
    fn nothing_panics_or_shows_non_finite(
        s in state(),
        chip in 0usize..64,
        op in op_text(),
        b in size(),
        d in size(),
        f in size(),
        model in 0usize..6,
    ) {
        let chips = catalogue();
        let chip = &chips[chip % chips.len()];
        let sizes = roofline_core::small::map_of([("B".to_string(), b), ("D".to_string(), d), ("F".to_string(), f)]);
        let v = evaluate_scale(&s, chip, &op, &sizes, &PRESETS[model].config);
        let text = format!("{v:?}");
        prop_assert!(!shows_non_finite(&text), "{}", text);
        if let Some(c) = &v.collective {
            for p in &c.series {
                prop_assert!(p.time.is_finite() && p.time >= 0.0 && p.latency >= 0.0 && p.bandwidth >= 0.0);
            }
        }
        if let Some(m) = &v.matmul {
            for p in &m.series {
                prop_assert!(p.t_math >= 0.0 && p.t_comms >= 0.0);
            }
        }
        if let Some(t) = &v.train {
            for p in &t.roofline {
                prop_assert!(p.compute.is_finite() && p.compute >= 0.0 && p.comms.is_finite() && p.comms >= 0.0);
            }
        }
        for (k, val) in &v.values {
            if let Ok(x) = val.parse::<f64>() {
                prop_assert!(x.is_finite() && x >= 0.0, "{} = {}", k, val);
            }
        }
    }

    #[test]
    fn any_link_reads_and_round_trips(q in "([a-z]{1,6}=[-A-Za-z0-9_:,.%\\[\\]]{0,12}&){0,8}") {
        let (s, notices) = read_query(&q);
        for n in &notices {
            prop_assert!(!shows_non_finite(&n.message), "{}", n.message);
        }
        let (back, again) = read_query(&state_text(&s));
        prop_assert!(again.is_empty(), "{:?}", again);
        prop_assert_eq!(back, s);
    }
}

/// Typed text into any field: a value, or a message for the field; the
/// state stays in range either way.
#[test]
fn typed_fields_stay_in_range() {
    use roofline_core::scale::{check, set_field};
    let keys = [
        "mesh", "wrap", "cop", "cax", "arr", "tokens", "seq", "strat", "x", "y", "mx", "my",
        "zero", "ckpt", "mfu", "budget", "pods",
    ];
    let texts = [
        "",
        "0",
        "-1",
        "NaN",
        "inf",
        "1e30",
        "4M",
        "40%",
        "0.5",
        "X:4,Y:4",
        "XY",
        "mixed",
        "bf16[B_X,D]",
        "allreduce",
        "3",
    ];
    for key in keys {
        for t in texts {
            let mut s = ScaleState::default();
            match set_field(&mut s, key, t) {
                Ok(()) => assert!(check(&s).is_ok(), "{key} = {t}"),
                Err(e) => {
                    assert!(!shows_non_finite(&e), "{key} = {t}: {e}");
                    assert_eq!(s, ScaleState::default(), "{key} = {t}: unchanged");
                }
            }
        }
    }
}

#[test]
fn the_non_finite_check_can_fail() {
    assert!(shows_non_finite("time: inf s"));
    assert!(shows_non_finite("NaN"));
    assert!(!shows_non_finite("InfiniBand between nodes"));
}
