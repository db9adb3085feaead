//! Saving the measured kernels (in the measure chunk): a CSV of each
//! against the roof, which the panel reads back.

use leptos::prelude::*;
use roofline_core::points::{export, Kernel, Roof};

use crate::page::download::{data_url, download};

/// The "Save measurements" button, and what saving failed with.
#[component]
pub fn SaveMeasurements(
    /// The kernels on the chart.
    kernels: RwSignal<Vec<Kernel>>,
    /// The roof they are read against; `None` while the calculator has no results.
    roof: Memo<Option<Roof>>,
) -> impl IntoView {
    let save_error = RwSignal::new(None::<String>);
    let save = move |_| {
        let text = roof.with_untracked(|r| {
            r.as_ref()
                .map(|r| kernels.with_untracked(|k| export::csv(k, r)))
        });
        let result = match text {
            Some(t) => download("measurements.csv", &data_url("text/csv", &t)),
            None => Err("the calculator has no roof to read the points against".to_string()),
        };
        save_error.set(result.err());
    };
    view! {
        <div class="actions">
            <button type="button" data-testid="points-save" on:click=save>"Save measurements (CSV)"</button>
        </div>
        {move || save_error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
    }
}
