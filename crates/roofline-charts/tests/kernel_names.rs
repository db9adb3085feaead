//! The measurements chart names its kernels: each of the example export's
//! three (docs/measurements/ncu-raw.csv), at a desktop's width and a
//! phone's, none over another.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;

use roofline_charts::{draw_roofline_points, roofline_for_chip, to_svg, PointMark, Theme};
use roofline_core::{hardware::preset, DType, LevelKind};

/// The example export's kernels as the reader names (clipped to its 80
/// characters) and measures them.
fn example() -> Vec<PointMark> {
    let mark =
        |index: usize, label: &str, flops: f64, bytes: f64, time: f64, memory: bool| PointMark {
            intensity: flops / bytes,
            rate: flops / time,
            label: Arc::from(roofline_core::format::clip(label, 80)),
            index,
            memory,
            predicted: false,
        };
    let norm = "void rmsnorm_pass<float>(float *, const float *, const float *, int, int)";
    vec![
        mark(
            1,
            &format!("{norm} #1"),
            136_314_880.0,
            268_470_000.0,
            62.43e-6,
            true,
        ),
        mark(
            2,
            &format!("{norm} #2"),
            134_217_728.0,
            536_903_680.0,
            124.862_08e-6,
            true,
        ),
        mark(
            0,
            "void matmul_bf16<128, 128, 64>(const __nv_bfloat16 *, const __nv_bfloat16 *, __nv_bfloat16 *, int, int, int)",
            137_506_062_336.0,
            118_450_000.0,
            196.38e-6,
            false,
        ),
    ]
}

/// The texts of `svg`, each as drawn.
fn texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| t.split_once('>').map(|(_, r)| r))
        .filter_map(|t| t.split_once("</text>").map(|(t, _)| t.trim()))
        .map(|t| {
            t.replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&")
        })
        .collect()
}

#[test]
fn every_kernel_of_the_example_is_named() {
    let chip = preset("h100").unwrap();
    let points = example();
    let mut spec = roofline_for_chip(&chip, DType::Bf16, &[LevelKind::Hbm], None).unwrap();
    spec.fit_x_with(&points);
    for (w, h) in [(800, 500), (360, 300)] {
        let svg = to_svg(w, h, |root| {
            draw_roofline_points(root, &spec, &points, &Theme::light(), 1.0).map(|_| ())
        })
        .unwrap();
        let texts = texts(&svg);
        for name in [
            "matmul_bf16",
            "rmsnorm_pass<float> #1",
            "rmsnorm_pass<float> #2",
        ] {
            let n = texts.iter().filter(|t| t.contains(name)).count();
            assert_eq!(n, 1, "{w}×{h}: '{name}' drawn {n} times in {texts:?}");
        }
        assert!(!svg.contains("NaN") && !svg.contains("inf"));
    }
}
