//! Writes Roofline Lab's default page into the built `index.html`: the
//! calculator at its default state (the address `?v=1`), with its numbers
//! from `roofline_core::calc::evaluate` and its roofline chart drawn as SVG
//! by `roofline-charts`, so the first paint shows the first chart before
//! any wasm has arrived. The app takes over in place once it has drawn its
//! own chart (`src/page/prerender.rs`).
//!
//! `roofline-prerender INDEX_HTML` replaces the placeholder `{prerender}`
//! in that file (`scripts/build/build-wasm.sh` runs it on Trunk's staging
//! copy).

mod calculator;
mod chart;
mod html;

use roofline_charts::{roofline_for_view, Theme};
use roofline_core::calc::{evaluate, CalcInput};
use roofline_core::pages::AppState;
use roofline_core::state::ChartScale;

/// The text the page's markup replaces.
const PLACEHOLDER: &str = "{prerender}";

/// The default page's markup.
pub fn default_page() -> Result<String, String> {
    let state = AppState::default();
    let input = CalcInput::from_state(&state.calc);
    let view = evaluate(&input);
    let spec = roofline_for_view(&view, state.calc.roofline_scale == ChartScale::Log)?;
    let charts = chart::drawings(&spec)?;
    let hex = |c: plotters::style::RGBColor| format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2);
    let (light, dark) = (Theme::light(), Theme::dark());
    let regions: Vec<_> = spec
        .regions()
        .into_iter()
        .map(|r| {
            let (l, d) = (
                hex(light.region_fill(r.fill)),
                hex(dark.region_fill(r.fill)),
            );
            (r, l, d)
        })
        .collect();
    Ok(calculator::page(&input, &view, &charts, &regions))
}

fn run() -> Result<(), String> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: roofline-prerender INDEX_HTML")?;
    let page = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    if page.matches(PLACEHOLDER).count() != 1 {
        return Err(format!("{path} should hold {PLACEHOLDER} once"));
    }
    let out = page.replace(PLACEHOLDER, &default_page()?);
    std::fs::write(&path, out).map_err(|e| format!("{path}: {e}"))
}

fn main() {
    if let Err(e) = run() {
        eprintln!("roofline-prerender: {e}");
        std::process::exit(1);
    }
}
