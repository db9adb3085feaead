//! Writes the v5e roofline chart as SVG to the path given (or stdout), for a
//! quick look: `cargo run -p roofline-charts --example render_svg -- out.svg`.

use roofline_charts::{draw_roofline, roofline_for_chip, to_svg, Theme};
use roofline_core::{hardware::preset, DType, LevelKind};

fn main() -> Result<(), String> {
    let chip = preset("v5e").ok_or("no v5e preset")?;
    let spec = roofline_for_chip(
        &chip,
        DType::Bf16,
        &[LevelKind::Hbm, LevelKind::Vmem],
        Some(("matmul B=100".into(), 100.0)),
    )
    .map_err(|e| e.to_string())?;
    let svg = to_svg(800, 500, |root| {
        draw_roofline(root, &spec, &Theme::light(), 1.0).map(|_| ())
    })?;
    match std::env::args().nth(1) {
        Some(path) => std::fs::write(path, svg).map_err(|e| e.to_string()),
        None => {
            println!("{svg}");
            Ok(())
        }
    }
}
