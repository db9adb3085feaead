//! Floor 3: floor 2 plus a log-log plotters chart on a canvas, redrawn in an
//! effect: axes with labels, two lines and a legend.

use floor::{field, shown};
use leptos::html::Canvas;
use leptos::prelude::*;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;

/// Draws a roofline with the given peak and bandwidth.
fn draw(canvas: web_sys::HtmlCanvasElement, peak: f64, bw: f64) -> Option<()> {
    let root = CanvasBackend::with_canvas_object(canvas)?.into_drawing_area();
    root.fill(&WHITE).ok()?;
    let mut chart = ChartBuilder::on(&root)
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d((1f64..1e6).log_scale(), (1f64..1e6).log_scale())
        .ok()?;
    chart
        .configure_mesh()
        .x_desc("intensity (FLOPs/byte)")
        .y_desc("FLOPs/s")
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| format!("{v:.0}"))
        .draw()
        .ok()?;
    let xs: Vec<f64> = (0..=60).map(|i| 10f64.powf(f64::from(i) / 10.0)).collect();
    chart
        .draw_series(LineSeries::new(
            xs.iter().map(|&x| (x, (x * bw).min(peak))),
            &BLUE,
        ))
        .ok()?
        .label("roofline")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE));
    chart
        .draw_series(LineSeries::new(xs.iter().map(|&x| (x, x * bw)), &RED))
        .ok()?
        .label("memory bound")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], RED));
    chart
        .configure_series_labels()
        .border_style(BLACK)
        .draw()
        .ok()?;
    root.present().ok()
}

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(|| {
        let text = RwSignal::new("1000".to_string());
        let value = Memo::new(move |_| text.with(|t| shown(t)));
        let canvas = NodeRef::<Canvas>::new();
        Effect::new(move |_| {
            let peak = text.with(|t| js_sys::parse_float(t.trim()));
            if let Some(c) = canvas.get() {
                let _ = draw(c, if peak.is_finite() { peak } else { 1000.0 }, 10.0);
            }
        });
        view! {
            {field(text)}
            <p>{move || value.get()}</p>
            <canvas node_ref=canvas width="600" height="400"></canvas>
        }
    });
}
