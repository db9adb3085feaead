//! Properties that hold for every operation, size, data type and chip.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// Tests run natively: the size rules of clippy.toml are about the wasm.
#![allow(clippy::disallowed_methods)]

use proptest::prelude::*;
use proptest::sample::{select, subsequence};
use roofline_core::hardware::catalogue;
use roofline_core::sweep::Sweep;
use roofline_core::{
    analyze, critical_size, CriticalSize, DType, LevelKind, OpKind, Operand, Operation, Regime,
    Scenario, Sizes,
};

const POOL: [&str; 7] = ["B", "D", "F", "N", "K", "seq_len", "h2"];

fn dtype() -> impl Strategy<Value = DType> {
    select(DType::ALL.to_vec())
}

fn dims() -> impl Strategy<Value = Vec<String>> {
    subsequence(POOL.to_vec(), 0..=4)
        .prop_shuffle()
        .prop_map(|v| v.into_iter().map(String::from).collect())
}

fn operand() -> impl Strategy<Value = Operand> {
    (dtype(), dims()).prop_map(|(dtype, dims)| Operand {
        dtype,
        dims,
        axes: Vec::new(),
    })
}

fn contraction() -> impl Strategy<Value = Operation> {
    (prop::collection::vec(operand(), 1..=4), dtype()).prop_flat_map(|(inputs, out_dtype)| {
        let mut union: Vec<String> = Vec::new();
        for d in inputs.iter().flat_map(|o| o.dims.iter()) {
            if !union.contains(d) {
                union.push(d.clone());
            }
        }
        let n = union.len();
        subsequence(union, 0..=n)
            .prop_shuffle()
            .prop_map(move |out_dims| {
                let output = Operand {
                    dtype: out_dtype,
                    dims: out_dims,
                    axes: Vec::new(),
                };
                let kind = if inputs.len() == 1 && inputs[0].dims == output.dims {
                    OpKind::Elementwise
                } else {
                    OpKind::Contraction
                };
                Operation {
                    inputs: inputs.clone(),
                    output,
                    kind,
                    per_element: None,
                }
            })
    })
}

fn elementwise() -> impl Strategy<Value = Operation> {
    (dims(), prop::collection::vec(dtype(), 2..=5)).prop_map(|(dims, mut types)| {
        let out = types.pop().unwrap();
        Operation {
            inputs: types
                .into_iter()
                .map(|dtype| Operand {
                    dtype,
                    dims: dims.clone(),
                    axes: Vec::new(),
                })
                .collect(),
            output: Operand {
                dtype: out,
                dims,
                axes: Vec::new(),
            },
            kind: OpKind::Elementwise,
            per_element: None,
        }
    })
}

fn operation() -> impl Strategy<Value = Operation> {
    prop_oneof![3 => contraction(), 1 => elementwise()]
}

/// An operation with a size for each of its dimensions, on a chip with one
/// of its own data types and levels.
fn scenario() -> impl Strategy<Value = Scenario> {
    let chips = catalogue();
    (
        operation(),
        0..chips.len(),
        any::<prop::sample::Index>(),
        any::<prop::sample::Index>(),
        prop::collection::vec(0.0f64..6.0, POOL.len()),
    )
        .prop_map(move |(op, ci, di, li, logs)| {
            let chip = chips[ci].clone();
            let dtypes = chip.dtypes();
            let levels = chip.level_kinds();
            let sizes: Sizes = POOL
                .iter()
                .zip(logs)
                .map(|(d, l)| (d.to_string(), 10f64.powf(l).round().max(1.0)))
                .collect();
            let mut s = Scenario::new(chip, op, sizes, *li.get(&levels));
            s.compute_dtype = Some(*di.get(&dtypes));
            s
        })
}

fn rel(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs().max(f64::MIN_POSITIVE)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn attained_is_min_of_peak_and_intensity_times_bandwidth(s in scenario()) {
        let a = analyze(&s).unwrap();
        let want = a.peak.min(a.intensity * a.bandwidth);
        prop_assert!(rel(a.attained, want) <= 1e-12 || (want == 0.0 && a.attained == 0.0));
        let via_time = a.flops / a.t_lower;
        prop_assert!(rel(via_time, want) <= 1e-12 || (want == 0.0 && via_time == 0.0),
            "flops / t_lower = {via_time}, min(...) = {want}");
        prop_assert!(a.peak_fraction >= 0.0 && a.peak_fraction <= 1.0);
    }

    #[test]
    fn bounds_are_ordered(s in scenario()) {
        let a = analyze(&s).unwrap();
        prop_assert!(a.t_lower <= a.t_upper);
        prop_assert!(a.t_upper <= 2.0 * a.t_lower * (1.0 + 1e-15));
        prop_assert_eq!(a.t_lower, a.t_math.max(a.t_comms));
    }

    #[test]
    fn sweep_matches_analyze(s in scenario(), pick in any::<prop::sample::Index>()) {
        let dims = s.op.dims();
        prop_assume!(!dims.is_empty());
        let dim = pick.get(&dims).clone();
        let x = *s.sizes.get(&dim).unwrap();
        let sw = Sweep::new(&s, &dim).unwrap();
        let a = analyze(&s).unwrap();
        prop_assert!(rel(sw.attained_at(x), a.attained) <= 1e-9
            || (a.attained == 0.0 && sw.attained_at(x) == 0.0));
    }

    #[test]
    fn regime_flips_at_the_critical_size(
        x_t in dtype(), w_t in dtype(), o_t in dtype(),
        b in 1.0f64..1e5, d in 1.0f64..1e5, f in 1.0f64..1e5,
        chip_i in 0usize..9, dt_i in any::<prop::sample::Index>(),
        lv_i in any::<prop::sample::Index>(),
        which in 0usize..3,
    ) {
        let chips = catalogue();
        let chip = chips[chip_i % chips.len()].clone();
        let dtypes = chip.dtypes();
        let levels = chip.level_kinds();
        let op = Operation {
            inputs: vec![
                Operand { dtype: x_t, dims: vec!["B".into(), "D".into()], axes: Vec::new() },
                Operand { dtype: w_t, dims: vec!["D".into(), "F".into()], axes: Vec::new() },
            ],
            output: Operand { dtype: o_t, dims: vec!["B".into(), "F".into()], axes: Vec::new() },
            kind: OpKind::Contraction,
            per_element: None,
        };
        let sizes: Sizes = [("B", b), ("D", d), ("F", f)]
            .iter().map(|(k, v)| (k.to_string(), *v)).collect();
        let mut s = Scenario::new(chip, op, sizes, *lv_i.get(&levels));
        s.compute_dtype = Some(*dt_i.get(&dtypes));
        let dim = ["B", "D", "F"][which];
        let at = |x: f64| {
            let mut t = s.clone();
            t.sizes.insert(dim.to_string(), x);
            analyze(&t).unwrap()
        };
        // Far enough from the crossing for rounding not to decide the regime.
        let clear = |a: &roofline_core::Analysis| (a.t_math - a.t_comms).abs() / a.t_lower > 1e-11;
        match critical_size(&s, dim).unwrap() {
            CriticalSize::At { size, compute_bound_above } => {
                let (hi, lo) = (at(size * (1.0 + 1e-6)), at(size * (1.0 - 1e-6)));
                prop_assume!(clear(&hi) && clear(&lo));
                let (want_hi, want_lo) = if compute_bound_above {
                    (Regime::Compute, Regime::Bandwidth)
                } else {
                    (Regime::Bandwidth, Regime::Compute)
                };
                prop_assert_eq!(hi.regime, want_hi);
                prop_assert_eq!(lo.regime, want_lo);
            }
            CriticalSize::Never { max_intensity } => {
                for x in [1e-3, 1.0, 1e3, 1e9] {
                    let a = at(x);
                    prop_assert_eq!(a.regime, Regime::Bandwidth);
                    prop_assert!(a.intensity <= max_intensity * (1.0 + 1e-12));
                }
                let critical = at(1.0).critical_intensity;
                prop_assert!(max_intensity <= critical * (1.0 + 1e-12));
            }
            CriticalSize::Always => {
                for x in [1e-3, 1.0, 1e3, 1e9] {
                    prop_assert_eq!(at(x).regime, Regime::Compute);
                }
            }
        }
    }

    #[test]
    fn notation_round_trips(op in operation()) {
        let text = op.notation();
        let back = Operation::parse(&text);
        prop_assert_eq!(back.as_ref(), Ok(&op), "{}", text);
        let spaced = text.replace(',', " ,\t").replace('[', " [ ").replace("->", "\n->  ");
        let again = Operation::parse(&spaced);
        prop_assert_eq!(again.as_ref(), Ok(&op), "{}", spaced);
    }

    #[test]
    fn parsing_arbitrary_text_never_panics(text in any::<String>()) {
        let _ = Operation::parse(&text);
    }

    #[test]
    fn parsing_near_miss_text_never_panics(
        text in "[a-z0-9_BDFN\\[\\], *+.·×>→-]{0,48}"
    ) {
        if let Err(e) = Operation::parse(&text) {
            prop_assert!(e.position <= text.chars().count());
            prop_assert!(!e.message.is_empty());
        }
    }

    #[test]
    fn counts_never_produce_nan(op in operation(), x in prop::num::f64::ANY) {
        let sizes: Sizes = POOL.iter().map(|d| (d.to_string(), x)).collect();
        if let Ok(c) = op.counts(&sizes) {
            prop_assert!(c.flops.is_finite() && c.bytes().is_finite() && c.bytes() > 0.0);
        }
    }
}

#[test]
fn level_choice_is_respected() {
    let mut s = Scenario::shortcut(
        roofline_core::hardware::preset("v5e").unwrap(),
        roofline_core::Shortcut::Matmul,
    );
    s.level = LevelKind::Vmem;
    let a = analyze(&s).unwrap();
    assert_eq!(a.bandwidth, 1.8e13);
    assert_eq!(a.regime, Regime::Compute);
}
