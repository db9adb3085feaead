//! The app's side of the page table (`roofline_core::pages::PAGES`): for
//! each page, how the shell warms it up and shows it. The shell
//! ([`crate::page::app`]) and the tab bar ([`crate::page::tabs`]) go
//! through these rows and name no page.

use leptos::prelude::*;
use roofline_core::pages::View;

use crate::chunks::learn::{prefetch_learn, LearnLoader};
use crate::chunks::model::{prefetch_model, ModelLoader};
use crate::chunks::quiz::{prefetch_quiz, QuizLoader};
use crate::chunks::scale::{prefetch_scale, ScaleLoader};
use crate::page::calculator::calculator_page;
use crate::page::signals::Signals;

/// One page as the shell sees it.
pub struct AppPage {
    /// The page (its row of `roofline_core::pages::PAGES`).
    pub view: View,
    /// Starts fetching its chunk before it is opened (a pointer or the
    /// keyboard on its tab); nothing for a page of the first load.
    pub prefetch: fn(),
    /// The page, given the app's signals.
    pub show: fn(Signals) -> AnyView,
}

/// Every page, one row each (`tests/pages.test.mjs` checks them against
/// the core's table).
pub const APP_PAGES: [AppPage; 5] = [
    AppPage {
        view: View::Calculator,
        prefetch: || {},
        show: |s| calculator_page(s).into_any(),
    },
    AppPage {
        view: View::Learn,
        prefetch: prefetch_learn,
        show: |s| view! { <main><LearnLoader step=s.step /></main> }.into_any(),
    },
    AppPage {
        view: View::Quiz,
        prefetch: prefetch_quiz,
        show: |s| view! { <main><QuizLoader quiz=s.quiz /></main> }.into_any(),
    },
    AppPage {
        view: View::Model,
        prefetch: prefetch_model,
        show: |s| {
            view! { <ModelLoader model=s.model input=s.calc.input view=s.calc.view epoch=s.epoch /> }
                .into_any()
        },
    },
    AppPage {
        view: View::Scale,
        prefetch: prefetch_scale,
        show: |s| {
            view! { <ScaleLoader scale=s.scale model=s.model input=s.calc.input view=s.calc.view page=s.view epoch=s.epoch /> }
                .into_any()
        },
    },
];

/// The shell's row of `view`.
pub fn app_page(view: View) -> &'static AppPage {
    APP_PAGES
        .iter()
        .find(|p| p.view == view)
        .unwrap_or(&APP_PAGES[0])
}
