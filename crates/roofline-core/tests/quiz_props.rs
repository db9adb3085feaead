//! Properties of the quiz's answer reading: formula equivalence, no panics
//! on any text, deterministic variants.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::*;
use proptest::sample::select;
use roofline_core::format;
use roofline_core::quiz::{
    check, formulas_equivalent, ids, match_choice, normalise_formula, parse_number, question,
    ChoiceOption, Part, Unit, Verdict,
};

fn bdf() -> Vec<String> {
    ["B", "D", "F"].iter().map(|s| s.to_string()).collect()
}

/// Random formulas in B, D, F built from +, *, / and positive constants,
/// so that none is zero anywhere.
fn formula() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        select(vec!["B", "D", "F"]).prop_map(String::from),
        (1u32..9).prop_map(|k| k.to_string()),
    ];
    leaf.prop_recursive(4, 24, 2, |inner| {
        (inner.clone(), select(vec!["+", "*", "/", ""]), inner).prop_map(|(a, op, b)| {
            if op.is_empty() {
                // Written side by side: implicit multiplication.
                format!("({a})({b})")
            } else {
                format!("({a}) {op} ({b})")
            }
        })
    })
}

fn all_parts() -> Vec<Part> {
    ids()
        .into_iter()
        .flat_map(|id| question(id, 0).unwrap().parts)
        .collect()
}

fn no_nan_or_inf(m: &str) -> bool {
    m.split(|c: char| !c.is_alphanumeric()).all(|w| {
        let w = w.to_lowercase();
        w != "nan" && w != "inf" && w != "infinity"
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn equivalence_is_reflexive(f in formula()) {
        prop_assert!(formulas_equivalent(&f, &f, &bdf()).unwrap());
    }

    #[test]
    fn equivalence_detects_a_changed_constant_factor(f in formula(), k in select(vec![2.0, 3.0, 0.5, 1.5, 1.01, 10.0])) {
        let scaled = format!("{k}*({f})");
        prop_assert!(!formulas_equivalent(&scaled, &f, &bdf()).unwrap());
    }

    #[test]
    fn equivalence_survives_rewriting(a in formula(), b in formula()) {
        let syms = bdf();
        // Commuted product, explicit against implicit multiplication.
        let (x, y) = (format!("({a})*({b})"), format!("({b})({a})"));
        prop_assert!(formulas_equivalent(&x, &y, &syms).unwrap());
        // A sum in either order, and a division written as a product.
        let (x, y) = (format!("({a})+({b})"), format!("({b})+({a})"));
        prop_assert!(formulas_equivalent(&x, &y, &syms).unwrap());
        let (x, y) = (format!("({a})/({b})"), format!("({a})*(({b})^-1)"));
        prop_assert!(formulas_equivalent(&x, &y, &syms).unwrap());
    }

    #[test]
    fn normalising_is_stable(f in formula()) {
        let n = normalise_formula(&f, &bdf()).unwrap();
        prop_assert!(normalise_formula(&n, &bdf()).is_ok());
        prop_assert!(formulas_equivalent(&n, &f, &bdf()).unwrap());
    }

    #[test]
    fn check_never_panics_on_any_text(text in any::<String>()) {
        for p in all_parts() {
            let v = check(&p, &text);
            prop_assert!(no_nan_or_inf(&v.message()), "{}: {:?}", p.id, v);
        }
    }

    #[test]
    fn check_never_panics_on_answer_like_text(text in "[0-9eE.,+*/^()~≈<>=µ×·²⁻ BDFNTkMGmsuxX-]{0,40}") {
        for p in all_parts() {
            let v = check(&p, &text);
            prop_assert!(no_nan_or_inf(&v.message()), "{}: {:?}", p.id, v);
        }
    }

    #[test]
    fn deep_nesting_is_refused_not_crashed(depth in 0usize..400, op in select(vec!["(", "-", "2^", "B*"])) {
        let text = format!("{}B{}", op.repeat(depth), if op == "(" { ")".repeat(depth) } else { String::new() });
        for p in all_parts() {
            let _ = check(&p, &text);
        }
    }

    #[test]
    fn long_flat_formulas_are_fine(n in 1usize..200, sep in select(vec!["", "*", "+", "/", "^"])) {
        let text = vec!["B"; n].join(sep);
        for p in all_parts() {
            let _ = check(&p, &text);
        }
    }

    #[test]
    fn parse_number_never_panics(text in any::<String>(), unit in select(Unit::ALL.to_vec())) {
        if let Err(e) = parse_number(&text, unit) {
            prop_assert!(!e.is_empty());
        }
    }

    #[test]
    fn scientific_numbers_round_trip(m in 1.0f64..10.0, e in -12i32..16) {
        let x = m * 10f64.powi(e);
        let got = parse_number(&format!("{x:e}"), Unit::None).unwrap();
        prop_assert!((got - x).abs() <= 1e-12 * x);
        let got = parse_number(&format::sci(x), Unit::None).unwrap();
        prop_assert!((got - x).abs() <= 1e-3 * x);
    }

    #[test]
    fn formatted_times_read_back(t in 1e-10f64..100.0) {
        let got = parse_number(&format::seconds(t), Unit::Seconds).unwrap();
        prop_assert!((got - t).abs() <= 0.006 * t, "{} -> {}", format::seconds(t), got);
    }

    #[test]
    fn formatted_rates_read_back(x in 1e9f64..1e17) {
        let got = parse_number(&format::flops_rate(x), Unit::FlopsPerSecond).unwrap();
        prop_assert!((got - x).abs() <= 0.006 * x);
        let got = parse_number(&format::bandwidth(x), Unit::BytesPerSecond).unwrap();
        prop_assert!((got - x).abs() <= 0.006 * x);
    }

    #[test]
    fn variants_are_deterministic_per_seed(seed in any::<u64>(), k in 0usize..16) {
        let ids = ids();
        let id = ids[k % ids.len()];
        let a = question(id, seed).unwrap();
        prop_assert_eq!(&a, &question(id, seed).unwrap());
        for p in &a.parts {
            prop_assert_eq!(check(p, &p.expected_text), Verdict::Right, "{} {} {}", id, seed, p.id);
        }
    }

    #[test]
    fn choices_never_panic(text in any::<String>()) {
        let opts = vec![ChoiceOption::new("compute-bound", &["compute"]), ChoiceOption::new("bandwidth-bound", &["memory"])];
        if let Ok(i) = match_choice(&opts, &text) {
            prop_assert!(i < 2);
        }
    }
}
