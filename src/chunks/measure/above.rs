//! The note under the table of measured kernels (in the measure chunk)
//! when a point lies above the roof: what likely went wrong.

use leptos::prelude::*;
use roofline_core::points::place::ABOVE_CAUSES;
use roofline_core::points::Placed;

/// The likely causes of a point above the roof, while there is one.
#[component]
pub fn AboveNote(
    /// The kernels on the chart, placed under the roof.
    placed: Memo<Vec<Placed>>,
) -> impl IntoView {
    let any_above = Memo::new(move |_| placed.with(|p| p.iter().any(Placed::above)));
    move || {
        any_above.get().then(|| {
            view! {
                <div class="note above-note" data-testid="points-above">
                    <p>"A point above the roof cannot be right as drawn. Likely causes:"</p>
                    <ul>{ABOVE_CAUSES.iter().map(|c| view! { <li>{*c}</li> }).collect_view()}</ul>
                </div>
            }
        })
    }
}
