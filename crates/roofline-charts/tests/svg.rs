//! The roofline chart drawn natively into SVG: labels, ticks and geometry.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use plotters::style::RGBColor;
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
    let svg = to_svg(340, 300, |root| {
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

/// The v5e chart with HBM and VMEM, and the operation at intensity 100.
fn v5e_spec() -> roofline_charts::RooflineChart {
    let chip = preset("v5e").unwrap();
    roofline_for_chip(
        &chip,
        DType::Bf16,
        &[LevelKind::Hbm, LevelKind::Vmem],
        Some(("matmul".into(), 100.0)),
    )
    .unwrap()
}

/// On linear axes both axes start at zero, each line's slope is its
/// bandwidth, and the axes tick at round numbers, not decades.
#[test]
fn linear_axes_start_at_zero_and_show_every_bend() {
    let mut spec = v5e_spec();
    spec.set_log(false);
    assert_eq!(spec.x_range.0, 0.0);
    // The farthest bend is HBM's, 1.97e14 / 8.2e11 = 240.24...; the range
    // goes 30% past it.
    let hbm_bend = 1.97e14 / 8.2e11;
    assert!((spec.x_range.1 - 1.3 * hbm_bend).abs() < 1e-9);
    assert_eq!(spec.y_range(), (0.0, 1.97e14 * 1.15));
    for line in &spec.lines {
        let [start, bend, end] = spec.path(line);
        assert_eq!(start, (0.0, 0.0), "every line starts at the origin");
        assert!((bend.1 / bend.0 - line.bandwidth).abs() / line.bandwidth < 1e-12);
        assert_eq!(end.1, 1.97e14);
    }
    let svg = to_svg(800, 500, |root| {
        draw_roofline(root, &spec, &Theme::light(), 1.0).map(|_| ())
    })
    .unwrap();
    assert!(svg.contains("240 FLOPs/byte") && svg.contains("10.9 FLOPs/byte"));
    assert!(svg.contains("\n0\n"), "a zero tick");
    assert!(
        svg.contains("\n1.5e14\n") && svg.contains("\n300\n"),
        "round linear ticks"
    );
    assert!(!svg.contains("NaN") && !svg.contains("inf"));
    spec.set_log(true);
    assert_eq!(spec, v5e_spec(), "back to log axes, the same chart");
}

/// Across chips the link is a third line, with its own bend at peak ÷ link
/// bandwidth and a marker at the network intensity, in the markers' own
/// colour (not the link's: it read as the bend's dotted drop).
#[test]
fn network_line_bends_at_its_critical_intensity() {
    let mut spec = v5e_spec();
    // The chapter's case: D = 4096 split over 2 chips gives a network
    // intensity of D / 2 = 2048 FLOPs/byte against 1.97e14 / 4.5e10.
    spec.add_network("ici", "ICI", 4.5e10, 2048.0);
    assert_eq!(spec.line_keys(), "hbm,vmem,ici");
    let ici = &spec.lines[2];
    assert!(ici.network);
    assert!((ici.critical - 1.97e14 / 4.5e10).abs() < 1e-9);
    assert_eq!(ici.critical_text, "4378 FLOPs/byte");
    let net = &spec.markers[1];
    assert_eq!((net.intensity, net.on.as_slice()), (2048.0, &[2][..]));
    assert!(
        spec.x_range.1 > ici.critical,
        "the range shows the link's bend"
    );
    let theme = Theme::light();
    assert_eq!(spec.marker_color(net, &theme), theme.marker);
    let svg = to_svg(900, 560, |root| {
        draw_roofline(root, &spec, &theme, 1.0).map(|_| ())
    })
    .unwrap();
    assert!(
        svg.contains("ICI 45 GB/s (between chips)"),
        "the link in the legend"
    );
    assert!(svg.contains("network intensity: 2048 FLOPs/byte"));
    // The link's bend (1.97e14 ÷ 4.5e10 = 4378) is a region edge too: the
    // network intensity, 2048, falls where the link still binds.
    let r = spec.regions();
    assert_eq!(r.len(), 4);
    let ici = r
        .iter()
        .find(|r| r.from.is_some_and(|a| a <= 2048.0) && r.to.is_some_and(|b| b > 2048.0))
        .unwrap();
    assert_eq!(
        ici.text,
        "240 FLOPs/byte to 4378 FLOPs/byte: compute-bound from VMEM and from HBM, still bandwidth-bound over ICI"
    );
    assert_eq!(
        r[3].text,
        "Above 4378 FLOPs/byte: compute-bound from VMEM, from HBM and over ICI alike"
    );
}

/// The regions' legend: one line gives two regions split at its bend, two
/// lines three, each naming the lines in order of their bends.
#[test]
fn regions_are_worded_from_the_bends() {
    let spec = v5e_spec();
    let r = spec.regions();
    let texts: Vec<&str> = r.iter().map(|r| r.text.as_str()).collect();
    assert_eq!(r.iter().map(|r| r.fill).collect::<Vec<_>>(), vec![0, 1, 2]);
    assert_eq!(
        texts,
        vec![
            "Below 10.9 FLOPs/byte: bandwidth-bound whether the data comes from VMEM or HBM",
            "10.9 FLOPs/byte to 240 FLOPs/byte: compute-bound from VMEM, still bandwidth-bound from HBM",
            "Above 240 FLOPs/byte: compute-bound from either",
        ]
    );
    let one = roofline_for_chip(
        &preset("h100").unwrap(),
        DType::Bf16,
        &[LevelKind::Hbm],
        None,
    )
    .unwrap();
    let r = one.regions();
    assert_eq!(r.iter().map(|r| r.fill).collect::<Vec<_>>(), vec![0, 2]);
    assert_eq!(r[0].to, Some(one.lines[0].critical));
    assert!(r[0]
        .text
        .starts_with("Below 295 FLOPs/byte: bandwidth-bound"));
}

/// Other roofs are drawn with their labels, inside the y range, and the
/// hover readout reads each against the first line.
#[test]
fn other_roofs_are_drawn_labelled_and_read() {
    let h100 = preset("h100").unwrap();
    let mut spec = roofline_for_chip(&h100, DType::Bf16, &[LevelKind::Hbm], None).unwrap();
    let (_, top_before) = spec.y_range();
    spec.add_roofs([
        roofline_charts::OtherRoof {
            key: "fp8".into(),
            label: "fp8 peak 1.98 PFLOP/s".into(),
            short: "fp8 peak".into(),
            peak: 1.979e15,
        },
        roofline_charts::OtherRoof {
            key: "vector".into(),
            label: "vector unit peak 67 TFLOP/s".into(),
            short: "vector unit peak".into(),
            peak: 6.7e13,
        },
    ]);
    assert_eq!(spec.roof_keys(), "bf16,fp8,vector");
    let (lo, hi) = spec.y_range();
    assert!(lo <= 6.7e13 && hi >= 1.979e15 && hi >= top_before);
    let svg = to_svg(1000, 600, |root| {
        draw_roofline(root, &spec, &Theme::light(), 1.0).map(|_| ())
    })
    .unwrap();
    assert!(
        svg.contains("fp8 peak 1.98 PFLOP/s"),
        "the fp8 roof is labelled"
    );
    assert!(
        svg.contains("vector unit peak 67 TFLOP/s"),
        "the vector roof is labelled"
    );
    // At intensity 10 under HBM (3.35e12 B/s): 3.35e13 under the fp8 roof
    // (bandwidth binds), and the vector roof (6.7e13 needs 20) also binds by bandwidth.
    let r = spec.readout(10.0);
    assert!(
        r.contains("under the fp8 roof: 33.5 TFLOP/s (HBM bandwidth binds)"),
        "{r}"
    );
    let r = spec.readout(100.0);
    assert!(
        r.contains("under the vector roof: 67 TFLOP/s (the vector roof binds)"),
        "{r}"
    );
    assert!(r.contains("HBM: 335 TFLOP/s (HBM bandwidth binds)"), "{r}");
}

/// With more than one roof, a wide plot's legend lists the roofs after the
/// lines (so each roof's label is written twice: in the legend and on its
/// line, where it fits); a narrow plot's legend leaves them to their lines.
#[test]
fn the_legend_groups_the_roofs_after_the_lines() {
    let h100 = preset("h100").unwrap();
    let mut spec = roofline_for_chip(&h100, DType::Bf16, &[LevelKind::Hbm], None).unwrap();
    spec.add_roofs([roofline_charts::OtherRoof {
        key: "vector".into(),
        label: "vector unit peak 67 TFLOP/s".into(),
        short: "vector unit peak".into(),
        peak: 6.7e13,
    }]);
    let svg = |w, h| {
        to_svg(w, h, |root| {
            draw_roofline(root, &spec, &Theme::light(), 1.0).map(|_| ())
        })
        .unwrap()
    };
    let wide = svg(1000, 600);
    assert_eq!(
        wide.matches(&spec.peak_label).count(),
        2,
        "the bf16 roof in the legend and on its line"
    );
    let legend_line = wide.find(&spec.lines[0].label).unwrap();
    let legend_roof = wide.rfind("vector unit peak 67 TFLOP/s").unwrap();
    assert!(legend_line < legend_roof, "lines first, then roofs");
    assert_eq!(wide.matches("vector unit peak 67 TFLOP/s").count(), 2);
    // Without other roofs the legend lists the lines only.
    let one = roofline_for_chip(&h100, DType::Bf16, &[LevelKind::Hbm], None).unwrap();
    let single = to_svg(1000, 600, |root| {
        draw_roofline(root, &one, &Theme::light(), 1.0).map(|_| ())
    })
    .unwrap();
    assert_eq!(single.matches(&one.peak_label).count(), 1);
    // A phone-wide plot: the roofs are named on their lines only.
    let narrow = svg(360, 300);
    assert!(narrow.matches("vector unit peak").count() <= 1, "{narrow}");
}

/// On a narrow plot where the full legend would cover the lines, the
/// legend drops the numbers from its labels; a wide one keeps them.
#[test]
fn a_narrow_legend_leaves_the_numbers_out() {
    let h100 = preset("h100").unwrap();
    let levels = [
        LevelKind::Hbm,
        LevelKind::NvLink,
        LevelKind::Pcie,
        LevelKind::Dcn,
    ];
    let spec = roofline_for_chip(
        &h100,
        DType::Bf16,
        &levels,
        Some(("this operation: 228 FLOPs/byte".into(), 228.0)),
    )
    .unwrap();
    let svg = |w, h| {
        to_svg(w, h, |root| {
            draw_roofline(root, &spec, &Theme::dark(), 1.0).map(|_| ())
        })
        .unwrap()
    };
    let wide = svg(1000, 600);
    assert!(
        wide.contains(">\nHBM 3.35 TB/s\n<"),
        "the wide legend keeps the numbers"
    );
    let narrow = svg(330, 300);
    assert!(
        !narrow.contains("HBM 3.35 TB/s"),
        "the narrow legend leaves them out"
    );
    assert!(narrow.contains(">\nHBM\n<") && narrow.contains(">\nthis operation\n<"));
}

/// A roof just above the peak (fp8 on H200, twice the bf16 peak) keeps
/// off the bend's label at a phone's width: the label moves below the
/// roof it would have struck through.
#[test]
fn a_roof_above_the_peak_keeps_off_the_bend_label() {
    let h200 = preset("h200").unwrap();
    let mut spec = roofline_for_chip(&h200, DType::Bf16, &[LevelKind::Hbm], None).unwrap();
    let fp8 = h200.peak(DType::Fp8).unwrap();
    spec.add_roofs([roofline_charts::OtherRoof {
        key: "fp8".into(),
        label: "fp8 peak".into(),
        short: "fp8".into(),
        peak: fp8,
    }]);
    let svg = to_svg(340, 300, |root| {
        draw_roofline(root, &spec, &Theme::light(), 1.0).map(|_| ())
    })
    .unwrap();
    // The fp8 roof's dashes: short horizontal strokes of width 2.
    let dashes: Vec<f64> = svg
        .split("<polyline")
        .skip(1)
        .filter(|p| p.contains(r#"stroke-width="2""#))
        .filter_map(|p| {
            let pts = p.split(r#"points=""#).nth(1)?.split('"').next()?;
            let xy: Vec<(f64, f64)> = pts
                .split_whitespace()
                .filter_map(|q| q.split_once(','))
                .map(|(x, y)| (x.parse().unwrap(), y.parse().unwrap()))
                .collect();
            (xy.len() == 2 && xy[0].1 == xy[1].1 && xy[1].0 - xy[0].0 <= 10.0).then_some(xy[0].1)
        })
        .collect();
    assert!(!dashes.is_empty(), "the fp8 roof is drawn dashed");
    let roof = dashes[0];
    assert!(dashes.iter().all(|y| *y == roof), "{dashes:?}");
    // The bend's label: its baseline, size and the glyphs' extent (the
    // text is lifted by half an ex, about a quarter of its size).
    let text = svg
        .split("<text")
        .find(|t| t.contains("206 FLOPs/byte"))
        .expect("the bend is labelled");
    let attr = |name: &str| -> f64 {
        text.split(&format!(r#" {name}=""#))
            .nth(1)
            .and_then(|v| v.split('"').next())
            .and_then(|v| v.parse().ok())
            .unwrap()
    };
    let (y, size) = (attr("y"), attr("font-size"));
    let (top, bottom) = (y - 0.25 * size - 0.8 * size, y - 0.25 * size + 0.2 * size);
    assert!(
        roof < top - 1.0 || roof > bottom + 1.0,
        "the fp8 roof (y = {roof}) runs through the bend's label ({top:.1} to {bottom:.1})"
    );
}

/// Issue #46, item 11: the operation's vertical line has a colour of its
/// own, unlike every line's (and so every bend's) in both schemes, and its
/// name is written at the line, as well as in the legend.
#[test]
fn the_operations_line_has_its_own_colour_and_a_label_at_it() {
    for theme in [Theme::light(), Theme::dark()] {
        let mut spec = roofline_for_chip(
            &preset("v5e").unwrap(),
            DType::Bf16,
            &[LevelKind::Hbm, LevelKind::Vmem],
            Some(("this operation: 410 FLOPs/byte".into(), 410.0)),
        )
        .unwrap();
        spec.add_network("ici", "ICI", 4.5e10, 2048.0);
        for (i, _) in spec.lines.iter().enumerate() {
            for m in &spec.markers {
                assert_ne!(spec.marker_color(m, &theme), spec.line_color(i, &theme));
            }
        }
        let svg = to_svg(900, 560, |root| {
            draw_roofline(root, &spec, &theme, 1.0).map(|_| ())
        })
        .unwrap();
        let texts: Vec<&str> = svg.split("<text").skip(1).collect();
        for name in ["this operation", "network intensity"] {
            // The legend's entry carries the number; the label at the line
            // is the name alone, in the marker's colour.
            let at_line: Vec<&&str> = texts
                .iter()
                .filter(|t| t.contains(&format!("\n{name}\n")))
                .collect();
            assert_eq!(at_line.len(), 1, "{name} is written at its line once");
            let RGBColor(r, g, b) = theme.marker;
            let colour = format!("#{r:02X}{g:02X}{b:02X}");
            assert!(
                at_line[0].to_uppercase().contains(&colour),
                "{name} in the marker's colour: {}",
                at_line[0]
            );
        }
    }
}
