//! "Save SVG": the chart drawn into an SVG document, in a wasm chunk of its
//! own (see docs/build.md §2.2). The chart code drawn for SVG is a
//! second copy of the canvas one, and only a user who saves an SVG needs
//! it; it downloads when a pointer or the keyboard reaches a "Save SVG"
//! button, or on the click.

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos::wasm_split::wasm_split;
use plotters::prelude::IntoDrawingArea;
use plotters_svg::SVGBackend;
use roofline_charts::{
    draw_batch, draw_roofline, draw_roofline_points, BatchChart, PointMark, RooflineChart, Theme,
};

use crate::page::backend::Measured;
use crate::page::chunk_view::{prefetch, ChunkMissing};
use crate::page::download::save_svg;

/// A chart to export.
pub enum SvgChart {
    /// The roofline chart.
    Roofline(RooflineChart),
    /// The batch-size chart.
    Batch(BatchChart),
    /// The measurements panel's roofline with its points.
    Points(std::sync::Arc<(RooflineChart, Vec<PointMark>)>),
}

/// The width and height of an exported chart, in SVG pixels.
const SIZE: (u32, u32) = (960, 600);

/// `chart` as an SVG document in the light theme, or why it could not be
/// drawn. The build (scripts/build/build-wasm.sh) moves this function and what
/// only it reaches into the svg chunk.
#[wasm_split(svg, wasm_split_path = ::leptos::wasm_split, fallible, preload(fetch_svg))]
fn svg_document(chart: SvgChart) -> Result<Result<String, String>, ChunkMissing> {
    let mut out = String::new();
    {
        let root = Measured(SVGBackend::with_string(&mut out, SIZE)).into_drawing_area();
        let theme = Theme::light();
        let drawn = match &chart {
            SvgChart::Roofline(c) => draw_roofline(&root, c, &theme, 1.0),
            SvgChart::Batch(c) => draw_batch(&root, c, &theme, 1.0),
            SvgChart::Points(s) => draw_roofline_points(&root, &s.0, &s.1, &theme, 1.0),
        };
        if let Err(e) = drawn {
            return Ok(Err(e));
        }
        if let Err(e) = root.present() {
            return Ok(Err(e.to_string()));
        }
    }
    Ok(Ok(out))
}

/// Starts downloading the svg chunk, so that "Save SVG" has no wait.
fn prefetch_svg() {
    prefetch(fetch_svg());
}

/// A chart's "Save SVG" button (`data-testid` `testid`): saves what `chart`
/// gives, if anything, as `filename`; a problem goes to `on_error`. A
/// pointer or the keyboard reaching the button starts the chunk's download.
pub fn save_svg_button(
    testid: &'static str,
    filename: &'static str,
    chart: impl Fn() -> Option<SvgChart> + Send + Sync + 'static,
    on_error: RwSignal<Option<String>>,
) -> impl IntoView {
    view! {
        <button
            type="button"
            data-testid=testid
            on:click=move |_| {
                if let Some(c) = chart() {
                    save_chart_svg(c, filename, on_error);
                }
            }
            on:pointerenter=|_| prefetch_svg()
            on:focus=|_| prefetch_svg()
        >
            "Save SVG"
        </button>
    }
}

/// Saves `chart` as `filename`; a problem goes to `on_error`.
fn save_chart_svg(chart: SvgChart, filename: &'static str, on_error: RwSignal<Option<String>>) {
    spawn_local(async move {
        let saved = match svg_document(chart).await {
            Ok(svg) => save_svg(filename, svg),
            Err(ChunkMissing) => Err(
                "The SVG export could not be downloaded. Check the connection, then try again."
                    .to_string(),
            ),
        };
        if let Err(e) = saved {
            on_error.set(Some(e));
        }
    });
}
