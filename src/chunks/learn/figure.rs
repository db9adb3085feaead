//! A Learn step's figure: the roofline or the batch-size chart, drawn by
//! the same code as the calculator's, on a canvas of its own.

use leptos::html::Canvas;
use leptos::prelude::*;
use roofline_charts::{draw_batch, draw_roofline, BatchChart, RooflineChart};

use crate::page::canvas::{draw_on, keep_drawn, theme};
use crate::page::chart_figure::ChartFigure;

/// What a step draws.
#[derive(Clone, PartialEq)]
pub enum LearnChart {
    /// The roofline chart.
    Roofline(RooflineChart),
    /// The batch-size chart.
    Batch(BatchChart),
}

impl LearnChart {
    /// `roofline` or `batch` (the canvas's `data-figure`).
    fn key(&self) -> &'static str {
        match self {
            LearnChart::Roofline(_) => "roofline",
            LearnChart::Batch(_) => "batch",
        }
    }

    /// The keys of the roofline's lines (`hbm,vmem`), empty for the batch chart.
    fn lines(&self) -> String {
        match self {
            LearnChart::Roofline(c) => c.line_keys(),
            LearnChart::Batch(_) => String::new(),
        }
    }

    /// `log` or `lin`.
    fn scale(&self) -> &'static str {
        let log = match self {
            LearnChart::Roofline(c) => c.log,
            LearnChart::Batch(c) => c.log,
        };
        if log {
            "log"
        } else {
            "lin"
        }
    }
}

/// The step's chart, redrawn whenever `spec` changes (a control moved).
#[component]
pub fn LearnFigure(
    /// What to draw; `Err` holds a message shown instead.
    spec: Memo<Result<LearnChart, String>>,
    /// The figure's caption, worded for the step.
    caption: Signal<String>,
) -> impl IntoView {
    let canvas_ref = NodeRef::<Canvas>::new();
    let error = RwSignal::new(None::<String>);
    keep_drawn(spec, canvas_ref, error, |canvas, spec| {
        let theme = theme();
        draw_on(canvas, "learn", |root, dpr| match spec {
            LearnChart::Roofline(c) => draw_roofline(root, c, &theme, dpr),
            LearnChart::Batch(c) => draw_batch(root, c, &theme, dpr),
        })
        .map(|_| ())
    });
    // Memos, so that moving a control re-sets no attribute that did not change.
    let attr = move |f: fn(&LearnChart) -> String| {
        Memo::new(move |_| spec.with(|s| s.as_ref().map(f).unwrap_or_default()))
    };
    let figure = attr(|c| c.key().to_string());
    let lines = attr(LearnChart::lines);
    let scale = attr(|c| c.scale().to_string());
    view! {
        <ChartFigure
            figure_class="chart learn-chart"
            caption=caption
            testid="learn-canvas"
            description=caption
            canvas_ref=canvas_ref
            canvas=view! { <{..} data-figure=figure data-lines=lines data-scale=scale /> }
            error=error
            notes=()
            below=()
        />
    }
}
