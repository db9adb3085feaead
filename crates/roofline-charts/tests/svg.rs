//! The roofline chart drawn natively into SVG: labels, ticks and geometry.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use roofline_charts::{draw_roofline, roofline_for_chip, to_svg, Theme};
use roofline_core::{hardware::preset, DType, LevelKind};

fn v5e_svg() -> String {
    let chip = preset("v5e").unwrap();
    let spec = roofline_for_chip(
        &chip,
        DType::Bf16,
        &[LevelKind::Hbm, LevelKind::Vmem],
        Some(("matmul".into(), 100.0)),
    )
    .unwrap();
    to_svg(800, 500, |root| {
        draw_roofline(root, &spec, &Theme::light(), 1.0).map(|_| ())
    })
    .unwrap()
}

#[test]
fn svg_has_titles_ticks_and_bend_labels() {
    let svg = v5e_svg();
    assert!(svg.starts_with("<svg"), "{}", &svg[..80]);
    assert!(svg.contains("Arithmetic intensity (FLOPs/byte)"));
    assert!(svg.contains("Attained throughput (FLOP/s)"));
    // Critical intensities computed from the catalogue: 1.97e14/8.2e11 and 1.97e14/1.8e13.
    assert!(svg.contains("240 FLOPs/byte"), "HBM bend label");
    assert!(svg.contains("10.9 FLOPs/byte"), "VMEM bend label");
    assert!(svg.contains("bf16 peak 197 TFLOP/s"));
    assert!(svg.contains("\n1e14\n"), "decade tick on the y axis");
    assert!(svg.contains("\n100\n"), "decade tick on the x axis");
    assert!(!svg.contains("e-5"), "no unformatted log ticks");
    assert!(!svg.contains("NaN") && !svg.contains("inf"));
}

#[test]
fn svg_is_deterministic() {
    assert_eq!(v5e_svg(), v5e_svg());
}

#[test]
fn chip_changes_the_picture() {
    let h100 = preset("h100").unwrap();
    let spec = roofline_for_chip(&h100, DType::Bf16, &[LevelKind::Hbm], None).unwrap();
    let svg = to_svg(800, 500, |root| {
        draw_roofline(root, &spec, &Theme::dark(), 1.0).map(|_| ())
    })
    .unwrap();
    assert!(svg.contains("295 FLOPs/byte"));
    assert_ne!(svg, v5e_svg());
}
