//! The page: the calculator's state, the memos that evaluate it through the
//! core, and the components laid out.

use std::sync::Arc;

use leptos::prelude::*;
use roofline_charts::{roofline_for_view, RooflineChart};
use roofline_core::calc::{evaluate, CalcInput, CalcView};
use roofline_core::state::{AppState, ChartScale, View};
use roofline_core::url::Decoded;

use crate::chunks::batch::BatchPanel;
use crate::chunks::batch::Derivation;
use crate::chunks::compare::ComparePanel;
use crate::chunks::learn::{prefetch_learn, LearnLoader};
use crate::chunks::link;
use crate::chunks::measure::MeasurePanel;
use crate::chunks::model::{prefetch_model, ModelLoader};
use crate::chunks::quiz::{prefetch_quiz, QuizLoader};
use crate::chunks::why::prefetch_why;
use crate::page::address;
use crate::page::canvas;
use crate::page::chip_panel::ChipPanel;
use crate::page::levels_panel::LevelsPanel;
use crate::page::link_bar::LinkBar;
use crate::page::op_panel::OpPanel;
use crate::page::results::Results;
use crate::page::roofline_chart::RooflineChartView;
use crate::page::shown::shown_later;

/// The whole app.
#[component]
pub fn App(
    /// The state the address described at start, with a notice for each
    /// value that could not be used; `None` when the link could not be read
    /// (its chunk did not download): the page then shows the defaults and
    /// says so, and leaves the address as it is until the next change.
    start: Option<Decoded>,
) -> impl IntoView {
    let keep_address = StoredValue::new(start.is_none());
    let Decoded {
        state: start,
        notices: start_notices,
    } = start.unwrap_or_else(|| Decoded {
        state: AppState::default(),
        notices: vec![link::unread("the defaults are shown")],
    });
    let input = RwSignal::new(CalcInput::from_state(&start.calc));
    let pairs = RwSignal::new(start.calc.pairs.clone());
    let batch_log = RwSignal::new(start.calc.batch_scale == ChartScale::Log);
    let roofline_log = RwSignal::new(start.calc.roofline_scale == ChartScale::Log);
    // Which page is open.
    let page = RwSignal::new(start.view);
    let quiz = RwSignal::new(start.quiz.clone());
    let step = RwSignal::new(start.step);
    // The Model page's state (its chip and chip count are the calculator's).
    let model = RwSignal::new(start.model.clone());
    // Measured kernels: their link form, and the text the user pasted.
    let points = RwSignal::new(start.points.clone());
    let pasted = RwSignal::new(String::new());
    let notices = RwSignal::new(start_notices);
    let epoch = RwSignal::new(0u32);

    // Behind an `Arc`: a memo's `get` and the "last valid" fallback below
    // then copy a pointer, not the whole view (and no clone of it is linked).
    let view = Memo::new(move |_| Arc::new(input.with(evaluate)));
    // The last evaluation that produced results: shown while a field is invalid.
    let results = Memo::new(move |prev: Option<&Arc<CalcView>>| {
        let v = view.get();
        match (v.analysis.is_some(), prev) {
            (false, Some(p)) => p.clone(),
            _ => v,
        }
    });
    let stale = Memo::new(move |_| view.with(|v| v.analysis.is_none()));

    // The state of what is on screen (the last valid calculator state).
    let app_state = Memo::new(move |prev: Option<&AppState>| {
        let scale = |log: bool| {
            if log {
                ChartScale::Log
            } else {
                ChartScale::Linear
            }
        };
        let (bs, rs) = (scale(batch_log.get()), scale(roofline_log.get()));
        let calc = input.with(|i| pairs.with(|p| results.with(|v| v.to_state(i, p, bs, rs))));
        let calc = calc
            .or_else(|| prev.map(|p| p.calc.clone()))
            .unwrap_or_default();
        AppState {
            view: page.get(),
            calc,
            quiz: quiz.get(),
            step: step.get(),
            points: points.get(),
            model: model.get(),
        }
    });
    // Write it to the address: typing replaces the entry; a change more than
    // 1.5 s after the last new entry makes a new one (back / forward).
    let last_push = StoredValue::new(f64::NEG_INFINITY);
    // The first write only puts the canonical form of the opening link in
    // place: it replaces, like a restore.
    let restoring = StoredValue::new(true);
    // The first write waits for a task of its own, the first of the start's
    // (`canvas::later`): it evaluates the calculator for the first time, so
    // the app's first task (with the wasm's instantiation) stays short.
    let writer_ready = canvas::later();
    Effect::new(move |_| {
        if !writer_ready.get() {
            return;
        }
        let state = app_state.get();
        let restore = restoring.get_value();
        restoring.set_value(false);
        // An unread link stays in the address, to be read on reload.
        if keep_address.get_value() {
            keep_address.set_value(false);
            return;
        }
        // Written by the link chunk: tasks run in the order of the changes.
        leptos::task::spawn_local(async move {
            // Without the chunk (no connection), the address keeps what it
            // holds; the next change tries again.
            let Some(q) = link::encode(state).await else {
                return;
            };
            if q == address::latest_query() {
                return;
            }
            let now = address::now_ms();
            let push = !restore && now - last_push.get_value() > 1500.0;
            if push {
                last_push.set_value(now);
            }
            address::write_query_after_paint(q, push);
        });
    });
    // Charts redraw at their new size after a resize.
    let _ =
        leptos::prelude::window_event_listener(leptos::ev::resize, |_| canvas::window_resized());
    // Back / forward: load the state of that entry. Reading it can wait for
    // the link chunk; if another back / forward comes first, it wins.
    let reads = StoredValue::new(0u32);
    let _ = leptos::prelude::window_event_listener(leptos::ev::popstate, move |_| {
        // A write still waiting belongs to the entry just left.
        address::discard_pending();
        let read = reads.get_value().wrapping_add(1);
        reads.set_value(read);
        let query = address::current_query();
        leptos::task::spawn_local(async move {
            let d = link::read(query).await;
            if reads.try_get_value() != Some(read) {
                return;
            }
            // Unread: the page keeps what it shows, and says why.
            let Some(d) = d else {
                notices.set(vec![link::unread(
                    "the page still shows the previous entry",
                )]);
                return;
            };
            restoring.set_value(true);
            input.set(CalcInput::from_state(&d.state.calc));
            pairs.set(d.state.calc.pairs.clone());
            batch_log.set(d.state.calc.batch_scale == ChartScale::Log);
            roofline_log.set(d.state.calc.roofline_scale == ChartScale::Log);
            page.set(d.state.view);
            quiz.set(d.state.quiz.clone());
            step.set(d.state.step);
            points.set(d.state.points.clone());
            model.set(d.state.model.clone());
            notices.set(d.notices);
            epoch.update(|e| *e += 1);
        });
    });

    let roofline = Memo::new(move |_| -> Result<RooflineChart, String> {
        let log = roofline_log.get();
        results.with(|v| roofline_for_view(v, log))
    });

    // Which page: a memo, so that a click on the current tab rebuilds nothing.
    let open = Memo::new(move |_| page.get());
    let pressed = move |p: View| move || if page.get() == p { "true" } else { "false" };

    view! {
        <LinkBar notices=notices />
        <nav class="tabs" aria-label="Mode">
            <button
                type="button"
                data-testid="tab-calc"
                aria-pressed=pressed(View::Calculator)
                on:click=move |_| page.set(View::Calculator)
            >
                "Calculator"
            </button>
            <button
                type="button"
                data-testid="tab-learn"
                aria-pressed=pressed(View::Learn)
                on:click=move |_| page.set(View::Learn)
                on:pointerenter=|_| prefetch_learn()
                on:pointerdown=|_| prefetch_learn()
                on:focus=|_| prefetch_learn()
            >
                "Learn"
            </button>
            <button
                type="button"
                data-testid="tab-quiz"
                aria-pressed=pressed(View::Quiz)
                on:click=move |_| page.set(View::Quiz)
                on:pointerenter=|_| prefetch_quiz()
                on:pointerdown=|_| prefetch_quiz()
                on:focus=|_| prefetch_quiz()
            >
                "Quiz"
            </button>
            <button
                type="button"
                data-testid="tab-model"
                aria-pressed=pressed(View::Model)
                on:click=move |_| page.set(View::Model)
                on:pointerenter=|_| prefetch_model()
                on:pointerdown=|_| prefetch_model()
                on:focus=|_| prefetch_model()
            >
                "Model"
            </button>
        </nav>
        {move || {
            match open.get() {
                View::Quiz => return view! { <main><QuizLoader quiz=quiz /></main> }.into_any(),
                View::Learn => return view! { <main><LearnLoader step=step /></main> }.into_any(),
                View::Model => return view! { <ModelLoader model=model input=input view=view epoch=epoch /> }.into_any(),
                _ => {}
            }
            view! {
        <main class="layout">
                <div class="inputs">
                    <form class="panel" aria-label="Inputs" on:submit=|ev| ev.prevent_default()>
                        {shown_later(move || view! { <ChipPanel input=input view=view epoch=epoch /> })}
                        {shown_later(move || view! {
                            <OpPanel input=input view=view epoch=epoch />
                            <LevelsPanel input=input view=view epoch=epoch />
                        })}
                    </form>
                </div>
                // The start in short tasks: the page's frame (the app's
                // first task, with the wasm's instantiation); the chip (above); the operation
                // and the memory levels; the results; the charts' frames;
                // after a frame, the roofline's draw; the batch chunk; then
                // what is below the charts.
                <div class="outputs">
                    {shown_later(move || view! { <Results results=results stale=stale /> })}
                    {shown_later(move || view! {
                        <section class="panel charts" aria-label="Charts">
                            <RooflineChartView spec=roofline log=roofline_log />
                            <BatchPanel pairs=pairs log=batch_log input=input results=results />
                        </section>
                        {shown_later(move || {
                            // The "Why?" answers: fetched now, after the first chart.
                            prefetch_why();
                            view! {
                                <Derivation results=results />
                                <MeasurePanel results=results points=points pasted=pasted log=roofline_log />
                                <ComparePanel input=input />
                            }
                        })}
                    })}
                </div>
            </main>
            }
            .into_any()
        }}
        <footer class="foot">
            <p>
                "Numbers come from the chapter’s model and each preset’s source (open “Edit the chip’s numbers”). Peaks are dense: sparse figures are shown but never used."
            </p>
        </footer>
    }
}
