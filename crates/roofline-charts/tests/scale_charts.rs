//! The Scale page's three charts, built from the core's real view
//! (LLaMA-3-70B on a v5p pod, the chapter's 2048 × 4 split, an AllGather
//! of `bf16[B_X,D]` and the case-2 matmul `bf16[B,D_X]·bf16[D,F]`) and
//! drawn into SVG at a desktop's 800 × 500 and a phone's 332 × 299: their
//! lines, axis titles with units, crossover labels and ticks are drawn,
//! no text covers another, and a series that cannot be drawn is an error.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use roofline_charts::{
    coll_chart, draw_lines, matmul_chart, to_svg, train_chart, Line, LinesChart, Theme,
};
use roofline_core::hardware::preset;
use roofline_core::model::preset as model;
use roofline_core::scale::{evaluate_scale, ScaleState, ScaleView, Strategy};
use roofline_core::CalcState;

const SIZES: [(u32, u32); 2] = [(800, 500), (332, 299)];

/// The chapter's LLaMA-3-70B plan on a 16 × 20 × 28 v5p pod, with the
/// case-2 matmul and the default collective.
fn view() -> ScaleView {
    let s = ScaleState {
        mesh: Some("X:16,Y:20,Z:28".to_string()),
        strat: Strategy::Mixed,
        ..ScaleState::default()
    };
    let calc = CalcState::default();
    let m = &model("llama3-70b").unwrap().config;
    let v = evaluate_scale(
        &s,
        &preset("v5p").unwrap(),
        "bf16[B,D_X]*bf16[D,F]->bf16[B,F]",
        &calc.sizes,
        m,
    );
    assert!(v.errors.is_empty(), "{:?}", v.errors);
    v
}

/// The three charts of `v`, by name.
fn charts(v: &ScaleView) -> Vec<(&'static str, LinesChart)> {
    vec![
        (
            "collective",
            coll_chart(v.collective.as_ref().unwrap()).unwrap(),
        ),
        ("matmul", matmul_chart(v.matmul.as_ref().unwrap()).unwrap()),
        ("training", train_chart(v.train.as_ref().unwrap()).unwrap()),
    ]
}

fn svg(chart: &LinesChart, (w, h): (u32, u32), theme: &Theme) -> String {
    to_svg(w, h, |root| draw_lines(root, chart, theme, 1.0).map(|_| ())).unwrap()
}

/// A text of the SVG: what it says, and the box it takes (left, top,
/// right, bottom) as plotters' SVG backend estimates it (the estimate the
/// label placer works with). `None` for turned text (the y axis's title).
#[derive(Debug)]
struct Text {
    text: String,
    rect: Option<(f64, f64, f64, f64)>,
}

fn attr(tag: &str, name: &str) -> Option<String> {
    let from = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    let to = tag[from..].find('"')? + from;
    Some(tag[from..to].to_string())
}

fn texts(svg: &str) -> Vec<Text> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let (tag, rest) = t.split_once('>')?;
            let (text, _) = rest.split_once("</text>")?;
            let text = text
                .trim()
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&");
            let num = |n: &str| attr(tag, n).and_then(|v| v.parse::<f64>().ok());
            let rect = if tag.contains("transform=") {
                None
            } else {
                // The SVG's font size is the style's / 1.24; plotters' own
                // estimate is 0.7 em a byte wide and 1.24 em high, with
                // em = size / 1.24².
                let em = num("font-size")? / 1.24;
                let (w, h) = ((em * 0.7 * text.len() as f64).round(), em * 1.24);
                let (x, y) = (num("x")?, num("y")?);
                let left = match attr(tag, "text-anchor").as_deref() {
                    Some("middle") => x - w / 2.0,
                    Some("end") => x - w,
                    _ => x,
                };
                let top = match attr(tag, "dy").as_deref() {
                    Some("0.76em") => y,
                    Some("0.5ex") => y - h / 2.0,
                    _ => y - h,
                };
                Some((left, top, left + w, top + h))
            };
            Some(Text { text, rect })
        })
        .collect()
}

/// The pairs of texts whose boxes overlap by more than a pixel (rounding).
fn overlapping(texts: &[Text]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (i, a) in texts.iter().enumerate() {
        for b in &texts[i + 1..] {
            if let (Some(p), Some(q)) = (a.rect, b.rect) {
                let apart =
                    p.2 - 1.0 <= q.0 || q.2 - 1.0 <= p.0 || p.3 - 1.0 <= q.1 || q.3 - 1.0 <= p.1;
                if !apart {
                    out.push((a.text.clone(), b.text.clone()));
                }
            }
        }
    }
    out
}

/// The vertical two-point polylines of `svg` in colour `c` that go `len`
/// pixels up: the ticks along the x axis.
fn ticks(svg: &str, c: plotters::style::RGBColor, len: i32) -> usize {
    svg.split("<polyline")
        .skip(1)
        .filter(|p| p.contains(&hex(c)))
        .filter_map(|p| attr(p, "points"))
        .filter(|pts| {
            let p: Vec<(i32, i32)> = pts
                .split_whitespace()
                .filter_map(|xy| xy.split_once(','))
                .map(|(x, y)| (x.parse().unwrap(), y.parse().unwrap()))
                .collect();
            p.len() == 2 && p[0].0 == p[1].0 && p[0].1 - p[1].1 == len
        })
        .count()
}

fn hex(c: plotters::style::RGBColor) -> String {
    format!("stroke=\"#{:02X}{:02X}{:02X}\"", c.0, c.1, c.2)
}

/// The overlap check finds two labels drawn over each other, and none
/// between labels apart: it can fail.
#[test]
fn the_overlap_check_sees_overlaps() {
    let at = |x: i32, y: i32, s: &str| {
        format!(
            "<text x=\"{x}\" y=\"{y}\" dy=\"0.76em\" text-anchor=\"start\" font-size=\"10\">\n{s}\n</text>"
        )
    };
    let over = format!("{}{}", at(10, 10, "a long label"), at(30, 14, "another"));
    assert_eq!(overlapping(&texts(&over)).len(), 1);
    let apart = format!("{}{}", at(10, 10, "a long label"), at(10, 40, "another"));
    assert!(overlapping(&texts(&apart)).is_empty());
}

/// Each chart, at both sizes and in both themes, draws each of its lines
/// in its colour, both axis titles, and no text over another.
#[test]
fn each_chart_draws_its_lines_and_titles_with_no_text_over_another() {
    let v = view();
    for (name, chart) in charts(&v) {
        assert!(chart.series.len() >= 2, "{name}");
        for theme in [Theme::light(), Theme::dark()] {
            for size in SIZES {
                let s = svg(&chart, size, &theme);
                assert!(s.starts_with("<svg"), "{name}");
                assert!(!s.contains("NaN") && !s.contains("inf"), "{name} {size:?}");
                for (i, l) in chart.series.iter().enumerate() {
                    let color = if i < 3 {
                        theme.lines[i]
                    } else {
                        theme.more_lines[0]
                    };
                    let lines = s
                        .split("<polyline")
                        .skip(1)
                        .filter(|p| p.contains(&hex(color)))
                        .count();
                    assert!(lines >= 1, "{name} {size:?}: '{}' not drawn", l.label);
                }
                let t = texts(&s);
                assert!(
                    t.iter().filter(|x| x.rect.is_some()).count() >= 10,
                    "{name}"
                );
                let has = |what: &str| t.iter().any(|x| x.text == what);
                assert!(has(&chart.x_desc) && has(&chart.y_desc), "{name} {size:?}");
                let o = overlapping(&t);
                assert!(o.is_empty(), "{name} {size:?}: {o:?}");
            }
        }
    }
}

/// The axis titles say their units.
#[test]
fn axis_titles_say_units() {
    let v = view();
    let c = charts(&v);
    assert_eq!(c[0].1.x_desc, "Message size, whole array (bytes)");
    assert_eq!(c[0].1.y_desc, "Time (seconds)");
    assert_eq!(c[1].1.x_desc, "Size of the swept dimension (elements)");
    assert_eq!(c[1].1.y_desc, "Time (seconds)");
    assert_eq!(c[2].1.x_desc, "Batch (tokens)");
    assert_eq!(c[2].1.y_desc, "Time per layer (seconds)");
}

/// Each chart's crossover is marked where its lines meet, labelled with
/// the view's own words, and the label is drawn at both sizes.
#[test]
fn crossovers_are_marked_where_the_lines_meet_and_labelled() {
    let v = view();
    let coll = v.collective.as_ref().unwrap();
    let mm = v.matmul.as_ref().unwrap();
    let train = v.train.as_ref().unwrap();
    assert_eq!(coll.switch, "1.54 MB (96 kB a chip)");
    assert_eq!(mm.crossover, "compute-bound once F exceeds 4142");
    assert_eq!(train.crossover, "compute-bound above 2611200 tokens");
    let expect = [
        (format!("bound switches at {}", coll.switch), 1.536e6, 1e-9),
        (mm.crossover.clone(), 4142.0, 1e-3),
        (train.crossover.clone(), 2_611_200.0, 0.05),
    ];
    for ((name, chart), (label, x, tol)) in charts(&v).iter().zip(expect) {
        assert_eq!(chart.marks.len(), 1, "{name}");
        let m = &chart.marks[0];
        assert_eq!(m.label, label, "{name}");
        assert!((m.x - x).abs() <= tol * x, "{name}: {} against {x}", m.x);
        for size in SIZES {
            let s = svg(chart, size, &Theme::light());
            let n = texts(&s).iter().filter(|t| t.text == label).count();
            assert_eq!(n, 1, "{name} {size:?}: '{label}' drawn {n} times");
        }
    }
}

/// The training chart shades the comms-bound span up to its crossover,
/// and marks every split's crossover with a tick, the chosen one
/// emphasised and named.
#[test]
fn training_chart_shades_comms_bound_and_ticks_every_split() {
    let v = view();
    let train = v.train.as_ref().unwrap();
    let chart = train_chart(train).unwrap();
    let shade = chart.shade.as_ref().unwrap();
    assert_eq!(shade.label, "comms-bound");
    assert_eq!(shade.from, train.roofline[0].batch);
    assert!((shade.to - chart.marks[0].x).abs() < 1e-6 * shade.to);
    let with_crossover: Vec<_> = train
        .splits
        .iter()
        .filter(|s| !s.crossover_value.is_empty())
        .collect();
    assert_eq!(with_crossover.len(), 4, "8192 × 1 down to 1024 × 8");
    assert_eq!(chart.ticks.len(), with_crossover.len());
    let chosen: Vec<_> = chart.ticks.iter().filter(|t| t.emphasised).collect();
    assert_eq!(chosen.len(), 1);
    assert_eq!(chosen[0].label, "FSDP 2048 × TP 4: 2611200");
    assert_eq!(chosen[0].x, 2_611_200.0);
    assert_eq!(chart.series[1].label, "comms: FSDP 2048 × TP 4");
    let theme = Theme::light();
    for size in SIZES {
        let s = svg(&chart, size, &theme);
        assert!(
            texts(&s).iter().any(|t| t.text == "comms-bound"),
            "{size:?}"
        );
        // The shade: a rectangle filled with the comms-bound region's colour.
        let f = theme.region_fill(0);
        let fill = format!("fill=\"#{:02X}{:02X}{:02X}\"", f.0, f.1, f.2);
        assert!(s.contains(&fill), "{size:?}: no shade");
        // Four ticks up from the x axis: the chosen one 14 pixels long in
        // the marker's colour, the three others 7 in the axis's.
        assert_eq!(ticks(&s, theme.marker, 14), 1, "{size:?}");
        assert_eq!(ticks(&s, theme.axis, 7), 3, "{size:?}");
    }
    let s = svg(&chart, (800, 500), &theme);
    assert!(
        texts(&s)
            .iter()
            .any(|t| t.text == "FSDP 2048 × TP 4: 2611200"),
        "the chosen split named at 800 wide"
    );
}

/// An empty series, or one with a value a log scale cannot draw, is an
/// error with a message, from the builder and from the drawing alike.
#[test]
fn a_series_that_cannot_be_drawn_is_an_error() {
    let v = view();
    let mut coll = v.collective.clone().unwrap();
    coll.series.clear();
    assert!(coll_chart(&coll).unwrap_err().contains("no points"));
    let mut coll = v.collective.clone().unwrap();
    coll.series[3].time = f64::NAN;
    assert!(coll_chart(&coll).unwrap_err().contains("not finite"));
    let mut mm = v.matmul.clone().unwrap();
    mm.series.clear();
    assert!(matmul_chart(&mm).unwrap_err().contains("no points"));
    let mut mm = v.matmul.clone().unwrap();
    mm.series[0].t_comms = f64::INFINITY;
    assert!(matmul_chart(&mm).is_err());
    let mut train = v.train.clone().unwrap();
    train.roofline.clear();
    assert!(train_chart(&train).unwrap_err().contains("no points"));
    let mut train = v.train.clone().unwrap();
    train.roofline[5].compute = -1.0;
    assert!(train_chart(&train).is_err());
    // Drawn directly: an error, and nothing but the background.
    let bad = LinesChart {
        x_desc: "x".to_string(),
        y_desc: "y".to_string(),
        series: vec![Line {
            label: "bad".to_string(),
            points: vec![(1.0, 1.0), (10.0, f64::NAN)],
            dashed: false,
        }],
        marks: Vec::new(),
        shade: None,
        ticks: Vec::new(),
    };
    let e = to_svg(332, 299, |root| {
        draw_lines(root, &bad, &Theme::light(), 1.0).map(|_| ())
    })
    .unwrap_err();
    assert!(e.contains("'bad'"), "{e}");
    let empty = LinesChart {
        series: Vec::new(),
        ..bad
    };
    assert!(to_svg(800, 500, |root| {
        draw_lines(root, &empty, &Theme::light(), 1.0).map(|_| ())
    })
    .is_err());
}

/// The default view (the calculator's op, LLaMA-3-8B) on a v5e and an
/// H100 draws the collective and the training chart with no text over
/// another.
#[test]
fn the_default_view_draws_every_chart() {
    let calc = CalcState::default();
    let m = &model("llama3-8b").unwrap().config;
    for chip in ["v5e", "h100"] {
        let v = evaluate_scale(
            &ScaleState::default(),
            &preset(chip).unwrap(),
            &calc.op,
            &calc.sizes,
            m,
        );
        let coll = coll_chart(v.collective.as_ref().unwrap()).unwrap();
        let train = train_chart(v.train.as_ref().unwrap()).unwrap();
        for chart in [coll, train] {
            for size in SIZES {
                let s = svg(&chart, size, &Theme::dark());
                let o = overlapping(&texts(&s));
                assert!(o.is_empty(), "{chip} {size:?}: {o:?}");
                assert!(!s.contains("NaN"));
            }
        }
    }
}
