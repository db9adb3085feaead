//! The analysis's tests: the chapter's numbers, approximations and
//! critical sizes.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
use super::*;
use crate::hardware::preset;

fn v5e(shortcut: Shortcut) -> Scenario {
    Scenario::shortcut(preset("v5e").unwrap(), shortcut)
}

#[test]
fn approximations_match_the_chapter() {
    let a = analyze(&v5e(Shortcut::Matmul)).unwrap();
    let ap = a.approx.unwrap();
    assert_eq!(ap.formula, "2BDF / 2DF = B");
    assert_eq!(ap.intensity, 256.0);
    assert_eq!(ap.kept_terms, vec!["2DF"]);
    assert_eq!(ap.dropped_terms, vec!["2BD", "2BF"]);

    let ap = analyze(&v5e(Shortcut::MixedMatmul))
        .unwrap()
        .approx
        .unwrap();
    assert_eq!(ap.formula, "2BDF / DF = 2B");
    assert_eq!(ap.intensity, 512.0);
    // int4 weights: the fraction divides as a whole.
    let mut s = v5e(Shortcut::MixedMatmul);
    s.op.inputs[1].dtype = DType::Int4;
    let ap = analyze(&s).unwrap().approx.unwrap();
    assert_eq!(ap.formula, "2BDF / (DF/2) = 4B");

    let ap = analyze(&v5e(Shortcut::BatchedMatmul))
        .unwrap()
        .approx
        .unwrap();
    assert_eq!(ap.formula, "2BDF / BDF = 2");
    assert_eq!(ap.intensity, 2.0);

    let ap = analyze(&v5e(Shortcut::DotProduct)).unwrap().approx.unwrap();
    assert_eq!(ap.formula, "2N / 4N = 1/2");
    assert_eq!(ap.intensity, 0.5);
    assert_eq!(ap.dropped_terms, vec!["2"]);

    let mut add = v5e(Shortcut::ElementwiseAdd);
    add.compute_dtype = Some(DType::Bf16);
    assert!(analyze(&add).unwrap().approx.is_none());
}

#[test]
fn an_add_runs_on_the_vector_unit_and_a_matmul_on_the_matrix_unit() {
    // fp32[N] + fp32[N] -> fp32[N], N = 1e6: 1e6 FLOPs against the
    // v5e's derived VPU peak, 6.1e12 FLOP/s; 12e6 bytes at 8.2e11 B/s.
    let a = analyze(&v5e(Shortcut::ElementwiseAdd)).unwrap();
    assert_eq!(a.unit, ComputeUnit::Vector);
    assert_eq!(a.peak, 6.1e12);
    assert!((a.t_math - 1e6 / 6.1e12).abs() < 1e-18);
    assert!((a.critical_intensity - 6.1e12 / 8.2e11).abs() < 1e-12);
    // Told to run on the matrix unit, it needs an fp32 peak v5e lacks.
    let mut m = v5e(Shortcut::ElementwiseAdd);
    m.unit = Some(ComputeUnit::Matrix);
    let e = analyze(&m).unwrap_err();
    assert_eq!(e.to_string(), "TPU v5e has no listed peak for fp32");
    // The dot product is a multiply and a sum: the vector unit. The
    // matmuls run on the matrix unit.
    assert_eq!(
        analyze(&v5e(Shortcut::DotProduct)).unwrap().unit,
        ComputeUnit::Vector
    );
    for sc in [
        Shortcut::Matmul,
        Shortcut::MixedMatmul,
        Shortcut::BatchedMatmul,
    ] {
        let a = analyze(&v5e(sc)).unwrap();
        assert_eq!(a.unit, ComputeUnit::Matrix, "{sc:?}");
        assert_eq!(
            a.peak,
            if sc == Shortcut::BatchedMatmul {
                3.94e14
            } else {
                1.97e14
            }
        );
    }
    // A chip with no published vector figure runs it on the matrix unit.
    let mut v6e = Scenario::shortcut(preset("v6e").unwrap(), Shortcut::ElementwiseAdd);
    v6e.compute_dtype = Some(DType::Bf16);
    assert_eq!(analyze(&v6e).unwrap().unit, ComputeUnit::Matrix);
}

#[test]
fn unknown_small_dim_is_an_error() {
    let mut s = v5e(Shortcut::Matmul);
    s.small_dim = Some("Q".into());
    assert!(analyze(&s)
        .unwrap_err()
        .to_string()
        .contains("small dimension"));
}

#[test]
fn solver_edge_cases() {
    let p = 10.0;
    let w = 1.0;
    // flops = 20x, bytes = x + 5: crossing where 2x = x + 5.
    let c = solve(
        Linear {
            slope: 20.0,
            offset: 0.0,
        },
        Linear {
            slope: 1.0,
            offset: 5.0,
        },
        p,
        w,
    )
    .unwrap();
    assert_eq!(
        c,
        CriticalSize::At {
            size: 5.0,
            compute_bound_above: true
        }
    );
    // c = 0 and a/b above critical: always.
    let c = solve(
        Linear {
            slope: 20.0,
            offset: 0.0,
        },
        Linear {
            slope: 1.0,
            offset: 0.0,
        },
        p,
        w,
    )
    .unwrap();
    assert_eq!(c, CriticalSize::Always);
    // capped below critical: never, reporting the cap.
    let c = solve(
        Linear {
            slope: 5.0,
            offset: 0.0,
        },
        Linear {
            slope: 1.0,
            offset: 3.0,
        },
        p,
        w,
    )
    .unwrap();
    assert_eq!(c, CriticalSize::Never { max_intensity: 5.0 });
}
