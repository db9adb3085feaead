//! The sections below the calculator's charts (in the batch chunk): the
//! derivation's steps under "How it is computed", and the measurements'
//! and the comparison's panels, whose bodies are chunks of their own.

use leptos::prelude::*;

use crate::chunks::batch::derivation::steps_view;
use crate::chunks::batch::BelowWiring;
use crate::chunks::compare::ComparePanel;
use crate::chunks::measure::MeasurePanel;

/// The three sections, in their order on the page.
pub fn below(w: BelowWiring) -> impl IntoView {
    view! {
        <section class="panel" aria-labelledby="derivation-title">
            <h2 id="derivation-title">"How it is computed"</h2>
            {steps_view(w.results)}
        </section>
        <MeasurePanel results=w.results points=w.points pasted=w.pasted log=w.log />
        <ComparePanel input=w.input />
    }
}
