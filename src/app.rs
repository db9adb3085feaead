//! The page: state, and the components laid out.

use leptos::prelude::*;
use roofline_charts::{roofline_for_chip, RooflineChart};
use roofline_core::{format, hardware::preset, DType, LevelKind};

use crate::components::chip_picker::ChipPicker;
use crate::components::roofline_chart::RooflineChartView;

/// The whole app.
#[component]
pub fn App() -> impl IntoView {
    let (chip_id, set_chip_id) = signal("v5e".to_string());
    let chip = Memo::new(move |_| preset(&chip_id.get()).ok_or_else(|| "unknown chip".to_string()));
    let spec = Memo::new(move |_| -> Result<RooflineChart, String> {
        let chip = chip.get()?;
        roofline_for_chip(&chip, DType::Bf16, &[LevelKind::Hbm], None).map_err(|e| e.to_string())
    });
    let summary = move || {
        chip.get()
            .and_then(|c| {
                let ci = c
                    .critical_intensity(DType::Bf16, LevelKind::Hbm)
                    .map_err(|e| e.to_string())?;
                Ok(format!(
                    "{}: bf16 peak {}, HBM {}, critical intensity {}",
                    c.name,
                    format::flops_rate(c.peak(DType::Bf16).map_err(|e| e.to_string())?),
                    format::bandwidth(c.bandwidth(LevelKind::Hbm).map_err(|e| e.to_string())?),
                    format::intensity(ci)
                ))
            })
            .unwrap_or_else(|e| e)
    };
    view! {
        <header class="top">
            <h1>"Roofline Lab"</h1>
            <p class="tagline">"The roofline model of “All About Rooflines”, computed in your browser."</p>
        </header>
        <main class="layout">
            <section class="panel inputs" aria-label="Inputs">
                <ChipPicker chip_id=chip_id on_pick=set_chip_id />
                <p data-testid="chip-summary">{summary}</p>
            </section>
            <section class="panel charts" aria-label="Charts">
                <RooflineChartView spec=spec />
            </section>
        </main>
    }
}
