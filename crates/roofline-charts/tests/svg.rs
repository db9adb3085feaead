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

/// Every bandwidth line has a legend entry: its label, drawn inside the
/// image, after a line sample in the line's colour.
#[test]
fn legend_names_each_line_inside_the_image() {
    let chip = preset("v5e").unwrap();
    let spec =
        roofline_for_chip(&chip, DType::Bf16, &[LevelKind::Hbm, LevelKind::Vmem], None).unwrap();
    let svg = to_svg(800, 500, |root| {
        draw_roofline(root, &spec, &Theme::light(), 1.0).map(|_| ())
    })
    .unwrap();
    assert_eq!(spec.lines.len(), 2);
    for line in &spec.lines {
        let at = svg
            .find(&format!(">\n{}\n<", line.label))
            .unwrap_or_else(|| panic!("legend label {:?} missing", line.label));
        // The <text> element that holds the label starts at x, y inside 800 × 500.
        let open = svg[..at].rfind("<text").unwrap();
        let attr = |name: &str| -> f64 {
            let from = svg[open..at].find(&format!(" {name}=\"")).unwrap() + open + name.len() + 3;
            let to = svg[from..].find('"').unwrap() + from;
            svg[from..to].parse().unwrap()
        };
        let (x, y) = (attr("x"), attr("y"));
        assert!(x > 400.0 && x < 800.0, "legend sits on the right: x = {x}");
        assert!(y > 250.0 && y < 500.0, "legend sits at the bottom: y = {y}");
    }
}

/// The operation's marker is named in the legend, and on a narrow chart
/// each bend label is still drawn, once.
#[test]
fn narrow_chart_keeps_labels_apart_and_names_the_marker() {
    let chip = preset("v5e").unwrap();
    let spec = roofline_for_chip(
        &chip,
        DType::Bf16,
        &[LevelKind::Hbm, LevelKind::Vmem],
        Some(("this operation: 410 FLOPs/byte".into(), 410.0)),
    )
    .unwrap();
    let svg = to_svg(330, 300, |root| {
        draw_roofline(root, &spec, &Theme::light(), 1.0).map(|_| ())
    })
    .unwrap();
    assert!(
        svg.contains("this operation: 410 FLOPs/byte"),
        "marker in the legend"
    );
    let texts: Vec<&str> = svg.split("<text").skip(1).collect();
    assert!(texts.len() > 10);
    for label in ["240 FLOPs/byte", "10.9 FLOPs/byte"] {
        assert_eq!(
            texts
                .iter()
                .filter(|t| t.contains(&format!("\n{label}\n")))
                .count(),
            1,
            "{label} drawn once"
        );
    }
}
