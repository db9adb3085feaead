//! Properties of links: every valid state survives encode → decode without a
//! notice, and decoding any text never panics and always gives a valid state.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// Tests run natively: the size rules of clippy.toml are about the wasm.
#![allow(clippy::disallowed_methods)]

use proptest::prelude::*;
use proptest::sample::select;
use roofline_core::hardware::catalogue;
use roofline_core::learn::STEP_COUNT;
use roofline_core::model::{preset, ModelConfig, ModelState, Phase, ServingStep, PRESETS};
use roofline_core::network::Collective;
use roofline_core::pages::{AppState, View};
use roofline_core::scale::{CollOp, Mesh, ScaleState, Strategy as ScaleStrategy};
use roofline_core::state::{
    default_batch_dim, CalcState, ChartScale, QuizState, MAX_CHIPS, MAX_PAIRS,
};
use roofline_core::url::{decode, encode, Decoded, MAX_NOTICES};
use roofline_core::{ComputeUnit, DType, LevelKind, Operation};

/// Operations a state may hold: the shortcuts, and others that exercise
/// the notation (unicode and long names, one input, three inputs, scalars,
/// the book's sharded dimensions).
const OPS: [&str; 14] = [
    "bf16[N] * bf16[N] -> bf16[]",
    "bf16[B,D] * bf16[D,F] -> bf16[B,F]",
    "bf16[B,D] * int8[D,F] -> bf16[B,F]",
    "int8[B,D] * int8[B,D,F] -> int8[B,F]",
    "fp32[N] + fp32[N] -> fp32[N]",
    "bf16[B,S,D] * bf16[D,F] -> bf16[B,S,F]",
    "fp32[N] -> fp32[]",
    "fp32[N] -> bf16[N]",
    "fp8[M,K] * fp8[K,N] -> bf16[M,N]",
    "bf16[β,δ] * bf16[δ] -> fp32[β]",
    "fp16[X] + fp16[X] + fp16[X] -> fp16[X]",
    "bf16[] * bf16[] -> bf16[]",
    "int4[seq_len,h2] * int4[h2] -> fp32[seq_len]",
    "bf16[B_X,D] * bf16[D,F_Y] -> bf16[B_X,F_Y]",
];

/// Any number in the accepted range (1 to 1e21), of any magnitude in it.
fn positive() -> impl Strategy<Value = f64> {
    prop_oneof![
        (0.0f64..21.0).prop_map(|e| 10f64.powf(e)),
        1.0f64..1e6,
        Just(1.0),
        Just(1e21),
    ]
}

/// A size: whole numbers, fractional ones, and a few extremes that the
/// counts still handle.
fn size() -> impl Strategy<Value = f64> {
    prop_oneof![
        (1u32..=65_536).prop_map(f64::from),
        1.0f64..1e6,
        Just(1.0),
        Just(1e9),
    ]
}

fn pick<T: Clone + std::fmt::Debug + 'static>(v: Vec<T>) -> BoxedStrategy<Option<T>> {
    if v.is_empty() {
        Just(None).boxed()
    } else {
        prop::option::of(select(v)).boxed()
    }
}

fn calc_state() -> impl Strategy<Value = CalcState> {
    let ids: Vec<String> = catalogue().iter().map(|c| c.id.clone()).collect();
    (
        select(ids),
        prop::collection::btree_map(select(DType::ALL.to_vec()), positive(), 0..=3),
        prop::collection::btree_map(select(LevelKind::ALL.to_vec()), positive(), 0..=3),
        select(OPS.to_vec()),
        prop::option::of(positive()),
    )
        .prop_flat_map(|(chip, peaks, bws, op_text, vector)| {
            let base = CalcState {
                chip,
                peak_overrides: peaks.into_iter().collect(),
                vector_override: vector,
                bw_overrides: bws.into_iter().collect(),
                op: Operation::parse(op_text).unwrap().notation(),
                ..CalcState::default()
            };
            let chip = base.chip().unwrap();
            let op = base.operation().unwrap();
            let dims = op.dims();
            let kinds = chip.level_kinds();
            let links: Vec<LevelKind> = kinds.iter().copied().filter(|k| k.is_network()).collect();
            let batch = if dims.is_empty() {
                Just(default_batch_dim(&op)).boxed()
            } else {
                select(dims.clone()).boxed()
            };
            (
                prop::collection::vec(size(), dims.len()),
                pick(chip.dtypes()),
                select(kinds.clone()),
                pick(kinds),
                prop_oneof![Just(1u32), 2..=MAX_CHIPS],
                pick(links),
                pick(op.contracted_dims()),
                batch,
                prop_oneof![Just(ChartScale::Log), Just(ChartScale::Linear)],
                prop_oneof![Just(ChartScale::Log), Just(ChartScale::Linear)],
                prop::collection::vec((positive(), positive()), 1..=MAX_PAIRS),
                (
                    pick(vec![ComputeUnit::Matrix, ComputeUnit::Vector]),
                    prop::collection::vec(any::<bool>(), LevelKind::ALL.len()),
                    prop::collection::vec(any::<bool>(), DType::ALL.len() + 1),
                    prop_oneof![Just(Collective::Once), Just(Collective::Ring)],
                    prop::option::of(1.0f64..1e6),
                ),
            )
                .prop_map(
                    move |(
                        sizes,
                        compute,
                        level1,
                        level2,
                        chips,
                        link,
                        shard,
                        bx,
                        bs,
                        rs,
                        pairs,
                        (unit, line_mask, roof_mask, collective, per_element),
                    )| {
                        // Only states the page can show: an fp32 operation on a
                        // chip without an fp32 peak runs at a type it has, and
                        // the network case needs a summed dimension and a link.
                        let compute = compute.or_else(|| {
                            chip.peak(op.widest_input_dtype())
                                .is_err()
                                .then(|| chip.dtypes().first().copied())
                                .flatten()
                        });
                        let networkable = !op.contracted_dims().is_empty()
                            && chip.level_kinds().iter().any(|k| k.is_network());
                        let chips = if networkable { chips } else { 1 };
                        let level2 = level2.filter(|l| *l != level1);
                        // More lines (after a second one), in the chip's
                        // order; more roofs, in the chip's order.
                        let extra_lines = if level2.is_some() {
                            chip.level_kinds()
                                .into_iter()
                                .enumerate()
                                .filter(|(i, k)| {
                                    line_mask[*i] && *k != level1 && Some(*k) != level2
                                })
                                .map(|(_, k)| k)
                                .collect()
                        } else {
                            Vec::new()
                        };
                        let roofs = chip
                            .roofs()
                            .into_iter()
                            .enumerate()
                            .filter(|(i, _)| roof_mask[*i])
                            .map(|(_, r)| r)
                            .collect();
                        // FLOPs per element only where the operation takes them.
                        let per_element = per_element.filter(|_| op.takes_flops_per_element());
                        CalcState {
                            sizes: dims.iter().cloned().zip(sizes).collect(),
                            per_element,
                            collective,
                            compute,
                            level1,
                            level2,
                            extra_lines,
                            roofs,
                            unit,
                            chips,
                            link,
                            shard,
                            batch_dim: bx,
                            batch_scale: bs,
                            roofline_scale: rs,
                            pairs,
                            ..base.clone()
                        }
                    },
                )
        })
}

/// A Model page state: a preset or a valid custom model, every key.
fn model_state() -> impl Strategy<Value = ModelState> {
    let dtype = || select(DType::ALL.to_vec());
    (
        prop_oneof![
            select(PRESETS.iter().map(|p| p.id.to_string()).collect::<Vec<_>>()),
            Just("custom".to_string())
        ],
        (
            1.0f64..200.0,
            1.0f64..64.0,
            1.0f64..8.0,
            any::<bool>(),
            any::<bool>(),
            1.0f64..16.0,
            1.0f64..16.0,
        ),
        (1u32..100_000, 0u32..1_000_000, 1u32..100_000),
        (dtype(), dtype(), dtype(), prop::option::of(dtype())),
        (
            prop_oneof![Just(Phase::Decode), Just(Phase::Prefill)],
            0.01f64..=1.0,
            prop_oneof![Just(1.0f64), 0.01f64..1.0],
            any::<bool>(),
        ),
    )
        .prop_map(
            |(
                model,
                (l, g, k, tied, gated, e, a),
                (b, s, t),
                (w, kv, act, math),
                (phase, ef, eb, overlap),
            )| {
                let custom = if model == "custom" {
                    let (k, e) = (k.floor(), e.floor());
                    ModelConfig {
                        layers: l.floor(),
                        d_model: 512.0,
                        d_ff: 1024.0,
                        heads: k * g.floor(),
                        kv_heads: k,
                        head_dim: 64.0,
                        vocab: 1000.0,
                        tied,
                        gated,
                        experts: e,
                        active: a.floor().min(e),
                    }
                } else {
                    preset(&model).unwrap().config.clone()
                };
                ModelState {
                    model,
                    custom,
                    step: ServingStep {
                        phase,
                        batch: f64::from(b),
                        context: f64::from(s),
                        prompt: f64::from(t),
                        weights: w,
                        kv,
                        act,
                        math,
                        eff_flops: ef,
                        eff_bw: eb,
                        overlap,
                    },
                }
            },
        )
}

fn app_state() -> impl Strategy<Value = AppState> {
    (
        prop_oneof![
            Just(View::Calculator),
            Just(View::Quiz),
            Just(View::Learn),
            Just(View::Model),
            Just(View::Scale)
        ],
        calc_state(),
        select(vec!["q1", "q2", "q10", "warm-up", "b_3", "Q7x"]),
        prop_oneof![Just(1u32), 1..=100u32],
        prop_oneof![Just(0u64), any::<u64>()],
        prop_oneof![Just(1u32), 1..=STEP_COUNT],
        kernels(),
        model_state(),
        scale_state(),
    )
        .prop_map(
            |(view, calc, q, part, seed, step, points, model, scale)| AppState {
                view,
                calc,
                // The link form the quiz chunk writes (state_text).
                quiz: roofline_core::quiz::state_text(&QuizState {
                    question: q.to_string(),
                    part,
                    seed,
                }),
                step,
                points,
                model: roofline_core::model::state_text(&model),
                // The link form the Scale chunk writes (state_text).
                scale: roofline_core::scale::state_text(&scale),
            },
        )
}

/// The Scale page's states as the page makes them: a mesh and axes in
/// their written form, whole counts, fractions.
fn scale_state() -> impl Strategy<Value = ScaleState> {
    let mesh = prop_oneof![
        Just(None),
        select(vec!["X:16,Y:16", "X:4,Y:4,Z:4", "X:8,Y:2", "D:2,F:32"])
            .prop_map(|m| Some(Mesh::parse(m).unwrap().text())),
    ];
    let opt = |hi: u32| prop_oneof![Just(None), (1..=hi).prop_map(|v| Some(f64::from(v)))];
    (
        (
            mesh,
            prop_oneof![
                Just(None),
                select(vec!["none", "X", "XY"]).prop_map(|w| Some(w.to_string()))
            ],
            select(CollOp::ALL.to_vec()),
            select(vec!["X", "XY", "Y"]),
            select(vec!["bf16[B_X,D]", "fp32[B,D_XY]", "bf16[B_X,D]{U_Y}"]),
            select(ScaleStrategy::ALL.to_vec()),
        ),
        (
            1u32..=100_000_000,
            1u32..=1_000_000,
            opt(4096),
            opt(4096),
            prop_oneof![Just(None), (0..=6u32).prop_map(|v| Some(f64::from(v)))],
            prop_oneof![Just(None), (0..=6u32).prop_map(|v| Some(f64::from(v)))],
            1u8..=3,
            0u32..=64,
            1u32..=100,
            1u32..=1_000_000,
            1u32..=64,
        ),
    )
        .prop_map(
            |(
                (mesh, wrap, cop, cax, arr, strat),
                (tokens, seq, x, y, mx, my, zero, ckpt, mfu, budget, pods),
            )| {
                ScaleState {
                    mesh,
                    wrap,
                    cop,
                    cax: cax.to_string(),
                    arr: arr.to_string(),
                    tokens: f64::from(tokens),
                    seq: f64::from(seq),
                    strat,
                    x,
                    y,
                    mx,
                    my,
                    zero,
                    ckpt: f64::from(ckpt),
                    mfu: f64::from(mfu) / 100.0,
                    budget: f64::from(budget) * 1e6,
                    pods: f64::from(pods),
                }
            },
        )
}

/// Measured kernels in their link form: names with the separators and
/// escapes in them, any positive numbers, with or without a time.
fn kernels() -> impl Strategy<Value = String> {
    let kernel = (
        "[a-z:,\\\\ <>é]{0,12}",
        1e-6f64..1e9,
        1.0f64..1e19,
        prop::option::of(1e-12f64..1e6),
    )
        .prop_map(
            |(name, intensity, rate, time)| roofline_core::points::Kernel {
                name: name.trim().into(),
                intensity,
                rate,
                time,
                predicted: None,
                dtype: None,
            },
        );
    prop::collection::vec(kernel, 0..5)
        .prop_map(|ks| roofline_core::points::compact::encode(&ks).unwrap_or_default())
}

/// What every decoded result must satisfy, whatever the input.
fn check_decoded(d: &Decoded) {
    for n in &d.notices {
        for bad in ["NaN", "Infinity", "inf"] {
            assert!(!n.message.contains(bad), "{:?}", n);
        }
        assert!(n.message.chars().count() < 600, "{:?}", n);
    }
    assert!(d.notices.len() <= MAX_NOTICES + 1);
    // The state is valid: it analyses, and it survives a round trip.
    let calc = &d.state.calc;
    let sc = calc.scenario().unwrap();
    sc.op.counts(&sc.sizes).unwrap();
    let again = decode(&encode(&d.state));
    assert!(again.notices.is_empty(), "{:?}", again.notices);
    assert_eq!(again.state, d.state);
}

const KEYS: [&str; 26] = [
    "v",
    "view",
    "chip",
    "peak.bf16",
    "peak.int8",
    "bw.hbm",
    "bw.ici",
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
    "rs",
    "pairs",
    "q",
    "part",
    "seed",
    "step",
    "peak.zz",
    "foo",
    "",
];

fn values() -> Vec<String> {
    let mut v: Vec<String> = [
        "NaN",
        "nan",
        "inf",
        "-inf",
        "Infinity",
        "-1",
        "0",
        "1e400",
        "-0",
        "",
        " ",
        "<script>alert(1)</script>",
        "\"><img src=x onerror=alert(1)>",
        "%ZZ",
        "%",
        "%E2%82",
        "%00",
        "1",
        "2",
        "4096",
        "1.97e14",
        "h100",
        "rtx3090",
        "quiz",
        "mixed",
        "dot",
        "bf16[B,D]*bf16[D,F]->bf16[B,F]",
        "fp32[N]+fp32[N]->fp32[N]",
        "B:512,D:8192,F:8192",
        "B:1e300,D:1e300,F:1e300",
        "N:5,B:3",
        "B:-5,D:NaN,F:inf",
        "4096x4096,1024x1024",
        "1x2,3x4,5x6,7x8,9x10,11x12,13x14,15x16,17x18",
        "vmem",
        "ici",
        "none",
        "D",
        "B",
        "lin",
        "bf16",
        "fp32",
        "q3",
        "18446744073709551616",
        "\u{202E}evil",
        "a&b=c",
        "x=y=z",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    v.push("a".repeat(10_000));
    v.push("9".repeat(10_000));
    v.push("B:1,".repeat(2_500));
    v
}

/// A query built from key=value fragments, some percent-encoded, some
/// repeated, with and without the leading `?`.
fn hostile_query() -> impl Strategy<Value = String> {
    let fragment = (
        select(KEYS.to_vec()),
        select(values()),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(k, v, encode_it, upper)| {
            let k = if upper {
                k.to_uppercase()
            } else {
                k.to_string()
            };
            let v = if encode_it {
                form_urlencoded::byte_serialize(v.as_bytes()).collect::<String>()
            } else {
                v
            };
            format!("{k}={v}")
        });
    (
        prop::collection::vec(fragment, 0..12),
        select(vec!["", "?", "#", "https://x.org/lab?", "  ?"]),
        select(vec!["&", "&&", ";"]),
    )
        .prop_map(|(frags, prefix, sep)| format!("{prefix}{}", frags.join(sep)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn encode_then_decode_is_the_identity(s in app_state()) {
        let link = encode(&s);
        prop_assert!(link.starts_with("v=1"));
        let d = decode(&link);
        prop_assert!(d.notices.is_empty(), "{}: {:?}", link, d.notices);
        prop_assert_eq!(&d.state, &s, "{}", link);
        // With the leading '?' as well.
        prop_assert_eq!(decode(&format!("?{link}")).state, s);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10_000))]

    #[test]
    fn decoding_any_text_never_panics(s in any::<String>()) {
        check_decoded(&decode(&s));
    }

    #[test]
    fn decoding_any_bytes_never_panics(b in prop::collection::vec(any::<u8>(), 0..200)) {
        check_decoded(&decode(&String::from_utf8_lossy(&b)));
    }

    #[test]
    fn decoding_hostile_queries_never_panics(q in hostile_query()) {
        check_decoded(&decode(&q));
    }

    #[test]
    fn decoding_near_valid_links_never_panics(
        s in app_state(),
        cut in 0usize..200,
        junk in "[%&=:,x#?.a-z0-9+-]{0,6}",
    ) {
        // A real link, cut short and with junk spliced in.
        let link = encode(&s);
        let mut at = cut.min(link.len());
        while !link.is_char_boundary(at) {
            at -= 1;
        }
        check_decoded(&decode(&format!("{}{junk}{}", &link[..at], &link[at..])));
    }
}

#[test]
fn the_default_state_is_the_default_query() {
    assert_eq!(
        encode(&AppState::default()),
        roofline_core::url::DEFAULT_QUERY
    );
}

/// An operation's text is read once on its way from the address to the
/// results (issue #45): the link's own text, then its notation, which the
/// link's check, the calculator's evaluation (again on each edit of
/// another field) and the link's writer share.
#[test]
fn an_operations_text_is_read_once_from_the_address_to_the_results() {
    use roofline_core::calc::{evaluate, CalcInput};
    use roofline_core::op::parses;
    let before = parses();
    let d = decode("v=1&op=bf16%5BB,D%5D*int8%5BD,F%5D-%3Ebf16%5BB,F%5D&sz=B:16,D:4096,F:8192");
    let mut input = CalcInput::from_state(&d.state.calc);
    let v = evaluate(&input);
    assert!(v.analysis.is_some(), "{:?}", v.op_error);
    // Two edits of the sizes, then the link written again.
    for b in ["32", "64"] {
        input.size_edits.insert("B".to_string(), b.to_string());
        assert!(evaluate(&input).analysis.is_some());
    }
    let _ = encode(&d.state);
    let read = parses() - before;
    assert!(read <= 2, "the text was read {read} times");
}

/// A sharded operation keeps its axes through the link (the Scale page
/// reads them), while its sizes are its dimensions' plain names.
#[test]
fn a_sharded_operation_keeps_its_axes_through_the_link() {
    let d =
        decode("v=1&view=scale&op=bf16[B_X,D]*bf16[D,F_Y]->bf16[B_X,F_Y]&sz=B:64,D:8192,F:4096");
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    assert_eq!(
        d.state.calc.op,
        "bf16[B_X,D] * bf16[D,F_Y] -> bf16[B_X,F_Y]"
    );
    let sizes: Vec<&str> = d.state.calc.sizes.keys().map(String::as_str).collect();
    assert_eq!(sizes, ["B", "D", "F"]);
    let q = encode(&d.state);
    assert!(
        q.contains("op=bf16%5BB_X,D%5D*bf16%5BD,F_Y%5D-%3Ebf16%5BB_X,F_Y%5D"),
        "{q}"
    );
    assert_eq!(decode(&q).state, d.state);
}
