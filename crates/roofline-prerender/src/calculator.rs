//! The calculator's page at its default state, as the app shows it once it
//! has drawn its first chart: the same elements, classes and words as the
//! components of `src/page/` (the browser test `tests/e2e/prerender.test.mjs`
//! compares the two, element by element), its numbers from
//! `roofline_core::calc::evaluate` and its chart from `roofline-charts`.
//!
//! It can be read but not edited: fields are read-only, buttons disabled,
//! choices and checkboxes out of the tab order and of the pointer's reach
//! (`style/prerender.css`), each drawn as the app's; test
//! ids are `data-pre` so that a test finds the app's elements only. Ids
//! start with `pre-`.

use roofline_charts::Region;
use roofline_core::calc::{CalcInput, CalcView};
use roofline_core::explain::{self, Why};
use roofline_core::op::Shortcut;
use roofline_core::pages::{View, PAGES};
use roofline_core::report::ResultRow;

use crate::html::Html;

/// What a disabled button carries (drawn as an enabled one: the page's
/// styles set its colours).
const OFF: (&str, &str) = ("disabled", "");
/// What a choice or a checkbox carries instead: out of the tab order.
const NO_TAB: (&str, &str) = ("tabindex", "-1");

/// The page (link bar, tabs, inputs, results and the roofline's figure)
/// for `input` and its evaluation `view`, with `charts` (the drawings of
/// [`crate::chart::drawings`]) and the region legend `regions` with its
/// swatches' colours for each scheme.
pub fn page(
    input: &CalcInput,
    view: &CalcView,
    charts: &str,
    regions: &[(Region, String, String)],
) -> String {
    let mut h = Html::default();
    link_bar(&mut h);
    tabs(&mut h);
    h.open("main", &[("class", "layout")]);
    h.open("div", &[("class", "inputs")]);
    h.open("form", &[("class", "panel"), ("aria-label", "Inputs")]);
    chip(&mut h, view);
    operation(&mut h, input, view);
    levels(&mut h, input, view);
    h.close("form").close("div");
    h.open("div", &[("class", "outputs")]);
    results(&mut h, view);
    h.open(
        "section",
        &[("class", "panel charts"), ("aria-label", "Charts")],
    );
    figure(&mut h, charts, regions);
    h.close("section").close("div").close("main");
    h.finish()
}

fn link_bar(h: &mut Html) {
    h.open("div", &[("class", "link-bar")]);
    h.el("button", &[("type", "button"), OFF], "Copy link");
    // Shown only after a moment (style/prerender.css), so a quick start
    // never flashes it.
    h.el(
        "span",
        &[
            ("class", "copy-status pre-status"),
            ("role", "status"),
            ("id", "pre-status"),
        ],
        "Starting: editable in a moment.",
    );
    h.close("div");
}

fn tabs(h: &mut Html) {
    h.open("nav", &[("class", "tabs"), ("aria-label", "Mode")]);
    for p in PAGES {
        let pressed = if p.view == View::Calculator {
            "true"
        } else {
            "false"
        };
        h.el(
            "button",
            &[("type", "button"), ("aria-pressed", pressed), OFF],
            p.label,
        );
    }
    h.close("nav");
}

/// `<label class="field">` with its label, then `body`.
fn field(h: &mut Html, label: &str, body: impl FnOnce(&mut Html)) {
    h.open("label", &[("class", "field")]);
    h.el("span", &[("class", "field-label")], label);
    body(h);
    h.close("label");
}

/// A `<select>` showing `shown` (a closed select shows only its chosen
/// option), out of the tab order and, by the stylesheet, of the pointer's
/// reach: a disabled one would be drawn greyed.
fn select(h: &mut Html, pre: &str, value: &str, shown: &str) {
    h.open("select", &[("data-pre", pre), NO_TAB]);
    h.el("option", &[("value", value), ("selected", "")], shown);
    h.close("select");
}

fn why_list(h: &mut Html, items: &[Why]) {
    h.open("div", &[("class", "why-list")]);
    for w in items {
        h.open("details", &[("class", "why")]);
        h.el("summary", &[("tabindex", "-1")], w.question);
        h.close("details");
    }
    h.close("div");
}

fn chip(h: &mut Html, view: &CalcView) {
    let (id, name) = view
        .chip
        .as_ref()
        .map(|c| (c.id.as_str(), c.name.as_str()))
        .unwrap_or_default();
    h.open("fieldset", &[("class", "group")])
        .el("legend", &[], "Chip");
    field(h, "Preset", |h| select(h, "chip-select", id, name));
    h.open("details", &[("class", "chip-numbers")]);
    h.el("summary", &[("tabindex", "-1")], "Edit the chip’s numbers");
    h.el(
        "button",
        &[("class", "secondary"), ("type", "button"), OFF],
        "Reset to the preset",
    );
    h.close("details").close("fieldset");
}

fn operation(h: &mut Html, input: &CalcInput, view: &CalcView) {
    let shortcut = roofline_core::op::Operation::parse(&input.op_text)
        .ok()
        .and_then(|op| Shortcut::ALL.into_iter().find(|s| s.operation() == op));
    h.open("fieldset", &[("class", "group")])
        .el("legend", &[], "Operation");
    field(h, "Shortcut", |h| match shortcut {
        Some(s) => select(h, "op-shortcut", s.key(), s.label()),
        None => select(h, "op-shortcut", "", "(your own notation)"),
    });
    field(h, "Notation", |h| {
        h.open(
            "input",
            &[
                ("class", "notation"),
                ("type", "text"),
                ("data-pre", "field-op"),
                ("value", &input.op_text),
                ("readonly", ""),
            ],
        );
        h.el(
            "span",
            &[("class", "field-note")],
            "Like bf16[B,D] * int8[D,F] -> bf16[B,F]; + for elementwise.",
        );
        h.el("span", &[("class", "field-error")], "");
        h.el(
            "span",
            &[("class", "field-note")],
            view.sharded_note.as_deref().unwrap_or(""),
        );
    });
    why_list(h, explain::NOTATION);
    h.open("div", &[("class", "sizes")]);
    for dim in view.op.as_ref().map(|op| op.dims()).unwrap_or_default() {
        let id = format!("size-{dim}");
        let f = view.size_fields.iter().find(|f| f.id == id);
        field(h, &dim, |h| {
            h.open(
                "input",
                &[
                    ("type", "text"),
                    ("inputmode", "decimal"),
                    ("data-pre", &format!("field-{id}")),
                    ("value", f.map_or("", |f| f.text.as_str())),
                    ("readonly", ""),
                ],
            );
            h.el(
                "span",
                &[("class", "field-note")],
                f.map_or("", |f| f.note.as_str()),
            );
            h.el("span", &[("class", "field-error")], "");
        });
    }
    h.close("div");
    field(h, "Math runs at", |h| {
        match input.compute {
            Some(d) => select(h, "compute-select", d.name(), d.name()),
            None => select(h, "compute-select", "auto", "widest input type"),
        }
        h.el("span", &[("class", "field-error")], "");
    });
    why_list(h, explain::DTYPE);
    field(h, "Runs on", |h| {
        match input.unit {
            Some(u) => select(h, "unit-select", u.key(), u.label()),
            None => select(h, "unit-select", "auto", "where it runs by default"),
        }
        let note = match (&view.unit_note, view.unit) {
            (Some(n), _) => n.clone(),
            (None, Some(u)) => format!("This operation runs on the {}.", u.label()),
            (None, None) => String::new(),
        };
        h.el("span", &[("class", "field-note")], &note);
    });
    h.close("fieldset");
}

/// A fieldset of checkboxes, one per `(key, name, on)`, with its note.
fn checks(h: &mut Html, pre: &str, legend: &str, items: &[(String, String, bool)], note: &str) {
    h.open("fieldset", &[("class", "lines"), ("data-pre", pre)]);
    h.el("legend", &[("class", "field-label")], legend);
    for (key, name, on) in items {
        h.open("label", &[("class", "check")]);
        let pre = format!("{pre}-{key}");
        let mut attrs = vec![("type", "checkbox"), ("data-pre", pre.as_str()), NO_TAB];
        if *on {
            attrs.push(("checked", ""));
        }
        h.open("input", &attrs)
            .text(&format!(" {name}"))
            .close("label");
    }
    h.el("span", &[("class", "field-note")], note);
    h.close("fieldset");
}

fn levels(h: &mut Html, input: &CalcInput, view: &CalcView) {
    let name = |k: roofline_core::LevelKind| match k {
        roofline_core::LevelKind::Hbm => view.memory_name.to_string(),
        k => k.name().to_string(),
    };
    h.open("fieldset", &[("class", "group")])
        .el("legend", &[], "Memory and network");
    field(h, "Bandwidth 1 (results)", |h| {
        select(h, "level1-select", view.level1.key(), &name(view.level1));
    });
    let drawn = view.lines();
    let lines: Vec<_> = view
        .level_options
        .iter()
        .filter(|k| **k != view.level1)
        .map(|k| (k.key().to_string(), name(*k), drawn[1..].contains(k)))
        .collect();
    checks(
        h,
        "line",
        "More lines on the chart",
        &lines,
        "Results use the first level; each line has its own bend.",
    );
    let main = view.analysis.as_ref().map(|a| a.roof());
    let roofs: Vec<_> = view
        .roof_options
        .iter()
        .filter(|r| Some(**r) != main)
        .map(|r| (r.key().to_string(), r.name(), view.roofs.contains(r)))
        .collect();
    checks(
        h,
        "roof",
        "More roofs on the chart",
        &roofs,
        "Dashed; the operation stays under the roof it runs at.",
    );
    field(h, "Chips sharing the summed dimension", |h| {
        h.open(
            "input",
            &[
                ("type", "text"),
                ("inputmode", "numeric"),
                ("data-pre", "field-chips"),
                ("value", &input.chips),
                ("readonly", ""),
            ],
        );
        h.el(
            "span",
            &[("class", "field-note")],
            "1 = one chip. 2 or more adds the network roofline.",
        );
        h.el("span", &[("class", "field-error")], "");
    });
    let link = input.link.or_else(|| view.link_options.first().copied());
    field(h, "Link between chips", |h| match link {
        Some(k) => select(h, "link-select", k.key(), &name(k)),
        None => select(h, "link-select", "", ""),
    });
    let shard = view.shard.clone().unwrap_or_default();
    field(h, "Dimension split over the chips", |h| {
        select(h, "shard-select", &shard, &shard)
    });
    field(h, "How the partial results are summed", |h| {
        select(
            h,
            "collective-select",
            input.collective.key(),
            input.collective.name(),
        );
    });
    h.close("fieldset");
}

fn results(h: &mut Html, view: &CalcView) {
    h.open(
        "section",
        &[("class", "panel"), ("aria-labelledby", "pre-results-title")],
    );
    h.el("h2", &[("id", "pre-results-title")], "Results");
    if let Some((key, text)) = &view.regime {
        h.el(
            "p",
            &[
                ("class", &format!("regime regime-{key}")),
                ("data-pre", "result-regime"),
                ("data-value", key),
            ],
            text,
        );
    }
    h.open("table", &[("class", "results")]).open("tbody", &[]);
    for r in &view.rows {
        row(h, r);
    }
    h.close("tbody").close("table");
    why_list(h, explain::RESULTS);
    h.close("section");
}

fn row(h: &mut Html, r: &ResultRow) {
    let value = r.value.map(|v| v.to_string()).unwrap_or_default();
    h.open("tr", &[]);
    h.el("th", &[("scope", "row")], &r.label);
    h.el(
        "td",
        &[
            ("class", "num"),
            ("data-pre", &format!("result-{}", r.key)),
            ("data-value", &value),
        ],
        &r.text,
    );
    h.el("td", &[("class", "meaning")], &r.meaning);
    h.close("tr");
}

fn figure(h: &mut Html, charts: &str, regions: &[(Region, String, String)]) {
    h.open("figure", &[("class", "chart")]);
    h.el(
        "figcaption",
        &[],
        "Roofline: attained throughput against arithmetic intensity",
    );
    h.open(
        "div",
        &[
            ("class", "chart-canvas pre-canvas"),
            ("role", "img"),
            ("data-pre", "roofline-canvas"),
            ("aria-label", "Roofline chart: the flat roof at peak FLOP/s and one line per bandwidth, bending into the roof at its critical intensity"),
        ],
    );
    h.raw(charts).close("div");
    h.el("p", &[("class", "readout")], "");
    h.open(
        "ul",
        &[("class", "region-legend"), ("aria-label", "Shaded regions")],
    );
    for (region, light, dark) in regions {
        h.open("li", &[]);
        for (scheme, colour) in [("light", light), ("dark", dark)] {
            h.el(
                "span",
                &[
                    ("class", &format!("swatch {scheme}")),
                    ("aria-hidden", "true"),
                    ("style", &format!("background:{colour}")),
                ],
                "",
            );
        }
        h.text(&region.text).close("li");
    }
    h.close("ul");
    h.open("div", &[("class", "actions")]);
    h.open("label", &[("class", "check")]);
    h.open("input", &[("type", "checkbox"), ("checked", ""), NO_TAB])
        .text(" Log axes")
        .close("label");
    h.el("button", &[("type", "button"), OFF], "Save PNG");
    h.el("button", &[("type", "button"), OFF], "Save SVG");
    h.close("div");
    why_list(h, explain::CHART);
    h.close("figure");
}
