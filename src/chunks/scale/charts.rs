//! The Scale page's three charts, each drawn from the core's series by
//! `roofline_charts::draw_lines`: a collective's time against message
//! size, the sharded matmul's comms roofline, and the chapter's training
//! roofline with every split's crossover.

use std::sync::Arc;

use leptos::html::Canvas;
use leptos::prelude::*;
use roofline_charts::{coll_chart, draw_lines, matmul_chart, train_chart, LinesChart};
use roofline_core::scale::ScaleView;

use crate::page::canvas::{draw_on, keep_drawn, theme};
use crate::page::chart_figure::ChartFigure;

/// One chart of the page: its spec from `build` (an `Err` is shown in its
/// place), drawn on a canvas `data-testid=testid` named `name` for its
/// draw marks.
fn chart(
    view: Memo<Arc<ScaleView>>,
    build: fn(&ScaleView) -> Result<LinesChart, String>,
    name: &'static str,
    testid: &'static str,
    caption: &'static str,
    description: &'static str,
) -> impl IntoView {
    let spec = Memo::new(move |_| view.with(|v| build(v)));
    let canvas_ref = NodeRef::<Canvas>::new();
    let error = RwSignal::new(None::<String>);
    keep_drawn(spec, canvas_ref, error, move |canvas, spec| {
        let theme = theme();
        draw_on(canvas, name, |root, dpr| {
            draw_lines(root, spec, &theme, dpr)
        })
        .map(|_| ())
    });
    view! {
        <ChartFigure
            caption=caption
            testid=testid
            description=description
            canvas_ref=canvas_ref
            canvas=()
            error=error
            notes=()
            below=()
        />
    }
}

/// The collective's time against the message size.
pub(crate) fn collective(view: Memo<Arc<ScaleView>>) -> impl IntoView {
    chart(
        view,
        |v| v.collective.as_ref().ok_or_else(|| "No collective to draw: its fields above say why.".to_string()).and_then(coll_chart),
        "scale-coll",
        "scale-coll-canvas",
        "The collective's time against the message size",
        "Log-log: the collective's time, the latency floor and the bandwidth line against the array's size, with the size where the bound switches",
    )
}

/// The sharded matmul's comms roofline.
pub(crate) fn matmul(view: Memo<Arc<ScaleView>>) -> impl IntoView {
    chart(
        view,
        |v| v.matmul.as_ref().ok_or_else(|| "No sharded matmul to draw: its field above says why.".to_string()).and_then(matmul_chart),
        "scale-matmul",
        "scale-matmul-canvas",
        "The matmul's comms roofline: T_math and T_comms as the sharded size grows",
        "Log-log: the local matmul's time and the collective's time against the swept size, the comms-bound span shaded and the crossover marked",
    )
}

/// The chapter's training roofline.
pub(crate) fn training(view: Memo<Arc<ScaleView>>) -> impl IntoView {
    chart(
        view,
        |v| v.train.as_ref().ok_or_else(|| "No training plan to draw: its fields above say why.".to_string()).and_then(train_chart),
        "scale-train",
        "scale-train-canvas",
        "Time per layer against the batch: compute and comms of the chosen split",
        "Log-log: time per layer against the batch in tokens, the compute line and the comms line of the chosen FSDP by TP split, the comms-bound region shaded, every split's crossover ticked along the axis",
    )
}
