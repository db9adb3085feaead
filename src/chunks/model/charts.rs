//! The Model page's two charts: every operation of the step on the roofline
//! of the chips serving the model, and the latency–throughput curve.

use std::sync::Arc;

use leptos::html::Canvas;
use leptos::prelude::*;
use roofline_charts::{
    draw_latency, draw_roofline_points, latency_for, roofline_for_chip, LatencyChart, PointMark,
    RooflineChart,
};
use roofline_core::hardware::{Chip, LevelKind};
use roofline_core::model::{group_chip, ModelView, Phase};

use crate::page::canvas::{draw_on, keep_drawn, theme};
use crate::page::chart_figure::ChartFigure;

/// The roofline of the chips as one, and a ring per operation.
type OpsSpec = Arc<(RooflineChart, Vec<PointMark>)>;

/// The roofline with each operation at its intensity and attained FLOP/s.
pub fn ops_roofline(v: Memo<Arc<ModelView>>, chip: Memo<Option<Chip>>) -> impl IntoView {
    let spec = Memo::new(move |_| -> Result<OpsSpec, String> {
        v.with(|v| {
            let run = v.run.as_ref().ok_or("no result yet")?;
            chip.with(|c| {
                let c = c.as_ref().ok_or("no chip")?;
                let g = group_chip(c, run).map_err(|e| e.to_string())?;
                let chart = roofline_for_chip(&g, run.math_dtype(), &[LevelKind::Hbm], None)
                    .map_err(|e| e.to_string())?;
                let marks = v
                    .ops
                    .iter()
                    .enumerate()
                    .map(|(index, o)| PointMark {
                        intensity: o.intensity,
                        rate: o.flops / o.time,
                        label: Arc::from(o.name.as_str()),
                        index,
                        memory: !o.compute_bound,
                        predicted: false,
                    })
                    .collect();
                Ok(Arc::new((chart, marks)))
            })
        })
    });
    let canvas_ref = NodeRef::<Canvas>::new();
    let error = RwSignal::new(None::<String>);
    keep_drawn(spec, canvas_ref, error, |canvas, spec| {
        let (chart, marks) = &**spec;
        let theme = theme();
        draw_on(canvas, "model-roofline", |root, dpr| {
            draw_roofline_points(root, chart, marks, &theme, dpr)
        })
        .map(|_| ())
    });
    view! {
        <ChartFigure
            caption="Every operation of the step on the roofline of the chips serving the model (their peak and bandwidth, at the fractions reached)"
            testid="model-roofline-canvas"
            description="Roofline of the chips serving the model, with a ring per operation of the step at its intensity"
            canvas_ref=canvas_ref
            canvas=()
            error=error
            notes=()
            below=()
        />
    }
}

/// The step's time against tokens per second as the batch grows.
pub fn latency_chart(v: Memo<Arc<ModelView>>) -> impl IntoView {
    let spec = Memo::new(move |_| -> Result<LatencyChart, String> {
        v.with(|v| {
            let (run, a) = (v.run.as_ref(), v.analysis.as_ref());
            let (Some(run), Some(a)) = (run, a) else {
                return Err("no result yet".to_string());
            };
            let per_seq = run.tokens() / run.step.batch;
            Ok(latency_for(
                &v.curve,
                a,
                run.step.batch,
                per_seq,
                run.step.phase == Phase::Decode,
            ))
        })
    });
    let canvas_ref = NodeRef::<Canvas>::new();
    let error = RwSignal::new(None::<String>);
    keep_drawn(spec, canvas_ref, error, |canvas, spec| {
        let theme = theme();
        draw_on(canvas, "model-latency", |root, dpr| {
            draw_latency(root, spec, &theme, dpr)
        })
        .map(|_| ())
    });
    view! {
        <ChartFigure
            caption="Latency against throughput as the batch grows, from one sequence to past the largest that fits"
            testid="model-latency-canvas"
            description="Time per token against tokens per second as the batch grows, with the critical batch and the largest batch that fits marked"
            canvas_ref=canvas_ref
            canvas=()
            error=error
            notes=()
            below=()
        />
    }
}
