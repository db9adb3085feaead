//! The Learn page: the chapter in eight steps and a ninth on a whole model
//! (`roofline_core::learn::STEP_COUNT`), each a few paragraphs worded
//! by the core, one or two controls and a live figure.

use crate::chunks::answer_style::ANSWER_STYLE;
use leptos::prelude::*;
use roofline_charts::{batch_for, roofline_for_view};
use roofline_core::learn::{step as step_def, step_view_on, ControlKind, Figure, StepView, STEPS};
use roofline_core::pages::{AppState, View};
use roofline_core::state::ChartScale;
use roofline_core::url::encode;

use crate::chunks::learn::figure::{LearnChart, LearnFigure};
use crate::chunks::storage;
use crate::page::shown::shown;

/// The step list with progress, and the open step.
#[component]
pub fn LearnPage(
    /// The open step, from 1 (kept in the link as `step`).
    step: RwSignal<u32>,
) -> impl IntoView {
    let (loaded, note) = storage::load_learn();
    // Where the learner left off, offered once if the page opened elsewhere.
    let resume = RwSignal::new(loaded.last().filter(|l| *l != step.get_untracked()));
    let progress = RwSignal::new(loaded);
    let storage_note = RwSignal::new(note);
    // Saves progress; says so beside the list if the browser refuses.
    let save = move || {
        if let Err(e) = progress.with_untracked(storage::save_learn) {
            storage_note.set(Some(e));
        }
    };
    // Opening a step marks it seen and saves.
    Effect::new(move |_| {
        let n = step.get();
        progress.update(|p| p.open(n));
        save();
    });
    // Each step's choices, kept while the page is open.
    let choices = RwSignal::new(STEPS.iter().map(|s| s.defaults()).collect::<Vec<_>>());
    let log = RwSignal::new(true);
    let current = Memo::new(move |_| {
        let n = step.get();
        choices.with(|c| {
            let mine = c
                .get(n.saturating_sub(1) as usize)
                .cloned()
                .unwrap_or_default();
            let scale = if log.get() {
                ChartScale::Log
            } else {
                ChartScale::Linear
            };
            step_view_on(n, &mine, scale).map_err(|e| e.to_string())
        })
    });
    let chart = Memo::new(move |_| -> Result<LearnChart, String> {
        let axes_switch = step_def(step.get()).is_some_and(|s| s.axes_switch);
        let log = log.get() || !axes_switch;
        current.with(|v| {
            let v = v.as_ref().map_err(Clone::clone)?;
            figure(v, log)
        })
    });

    let list = move || {
        STEPS
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let n = i as u32 + 1;
                let seen = move || progress.with(|p| p.is_seen(n));
                view! {
                    <li>
                        <button
                            type="button"
                            class="q-button"
                            aria-current=move || if step.get() == n { "step" } else { "false" }
                            data-testid=format!("learn-goto-{n}")
                            data-seen=move || if seen() { "true" } else { "false" }
                            on:click=move |_| step.set(n)
                        >
                            <span class="q-title">{format!("{n}. {}", s.title)}</span>
                            <span class="q-progress">{move || if seen() { "✓" } else { "" }}</span>
                        </button>
                    </li>
                }
            })
            .collect_view()
    };
    // The open step's frame: re-created only when the step changes, so a
    // control keeps its focus while it moves.
    let body = move || {
        let n = step.get();
        let Some(def) = step_def(n) else {
            return view! { <p>"No such step."</p> }.into_any();
        };
        let controls = def
            .controls
            .iter()
            .enumerate()
            .map(|(ci, c)| {
                let chosen = move || {
                    choices.with(|all| {
                        all.get(n as usize - 1)
                            .and_then(|v| v.get(ci))
                            .copied()
                            .unwrap_or(c.default)
                    })
                };
                let set = move |i: usize| {
                    choices.update(|all| {
                        if let Some(slot) = all.get_mut(n as usize - 1).and_then(|v| v.get_mut(ci)) {
                            *slot = i.min(c.len().saturating_sub(1));
                        }
                    })
                };
                let id = format!("learn-{n}-{}", c.key);
                let testid = format!("learn-control-{}", c.key);
                let input = match c.kind {
                    ControlKind::Slider => view! {
                        <input
                            type="range"
                            id=id.clone()
                            data-testid=testid
                            min="0"
                            max=(c.len().saturating_sub(1)).to_string()
                            step="1"
                            prop:value=move || chosen().to_string()
                            aria-valuetext=move || c.option_label(chosen())
                            on:input=move |ev| set(event_target_value(&ev).parse().unwrap_or(c.default))
                        />
                        <output for=id.clone() data-testid=format!("learn-value-{}", c.key)>{move || c.option_label(chosen())}</output>
                    }
                    .into_any(),
                    ControlKind::Select => view! {
                        <select
                            id=id.clone()
                            data-testid=testid
                            prop:value=move || chosen().to_string()
                            on:change=move |ev| set(event_target_value(&ev).parse().unwrap_or(c.default))
                        >
                            {(0..c.len())
                                .map(|i| view! { <option value=i.to_string()>{c.option_label(i)}</option> })
                                .collect_view()}
                        </select>
                    }
                    .into_any(),
                };
                view! {
                    <div class="answer-row">
                        <label for=id>{c.label}</label>
                        {input}
                    </div>
                }
            })
            .collect_view();
        let axes = def.axes_switch.then(|| {
            view! {
                <label class="check">
                    <input type="checkbox" data-testid="learn-log" prop:checked=log
                        on:change=move |ev| log.set(event_target_checked(&ev)) />
                    " Log axes"
                </label>
            }
        });
        // The first paragraph sets the scene above the controls and the
        // figure; the rest, whose numbers follow the controls, comes under
        // them, so the figure is near the top on a phone too.
        let paragraphs = move |from: usize, to: usize| {
            move || {
                current.with(|v| match v {
                    Ok(v) => v
                        .paragraphs
                        .iter()
                        .skip(from)
                        .take(to - from)
                        .map(|p| view! { <p>{p.clone()}</p> })
                        .collect_view()
                        .into_any(),
                    Err(e) if from == 0 => {
                        view! { <p class="error" role="alert">{e.clone()}</p> }.into_any()
                    }
                    Err(_) => ().into_any(),
                })
            }
        };
        let href = move || {
            current.with(|v| {
                v.as_ref().map_or_else(
                    |_| "?".to_string(),
                    |v| {
                        format!(
                            "?{}",
                            encode(&AppState {
                                view: View::Calculator,
                                calc: v.state.clone(),
                                ..AppState::default()
                            })
                        )
                    },
                )
            })
        };
        let caption = Signal::derive(move || {
            match def.figure {
            Figure::Roofline => "Roofline: the FLOP/s an operation can attain against its arithmetic intensity; the dashed line is this step’s operation".to_string(),
            Figure::Batch => "Attained FLOP/s against B, every byte counted: one curve per D = F, each crossover marked".to_string(),
        }
        });
        let last = STEPS.len() as u32;
        view! {
            <article class="learn-step" data-testid="learn-step" data-step=n.to_string()>
                <header>
                    <p class="q-source">{format!("Step {n} of {last}")}</p>
                    <h2>{def.title}</h2>
                </header>
                <div data-testid="learn-words">{paragraphs(0, 1)}</div>
                <div class="answer-row learn-controls">{controls}{axes}</div>
                <LearnFigure spec=chart caption=caption />
                <div data-testid="learn-words">{paragraphs(1, usize::MAX)}</div>
                <div class="answer-row learn-nav">
                    <button type="button" class="secondary" data-testid="learn-prev" disabled={n <= 1}
                        on:click=move |_| step.set(n.saturating_sub(1).max(1))>"← Previous"</button>
                    <a class="calc-link" data-testid="learn-open-calc" href=href>"Open in the calculator"</a>
                    <button type="button" data-testid="learn-next" disabled={n >= last}
                        on:click=move |_| step.set((n + 1).min(last))>"Next →"</button>
                </div>
            </article>
        }
        .into_any()
    };
    let open = Memo::new(move |_| step.get());
    view! {
        <div class="learn layout">
            <style>{ANSWER_STYLE}</style>
            <nav class="panel q-list" aria-label="Steps">
                <h2>"Steps"</h2>
                <ol data-testid="learn-step-list">{list}</ol>
                <p class="note" data-testid="learn-progress">
                    {move || format!("{} of {} steps opened", progress.with(|p| p.seen_count()), STEPS.len())}
                </p>
                {shown(
                    Memo::new(move |_| resume.with(Option::is_some)),
                    move || view! {
                        <button type="button" class="secondary small" data-testid="learn-resume"
                            on:click=move |_| {
                                if let Some(l) = resume.get_untracked() {
                                    step.set(l);
                                }
                                resume.set(None);
                            }>
                            {move || format!("Continue at step {}", resume.get().unwrap_or(1))}
                        </button>
                    },
                )}
                <button
                    type="button"
                    class="secondary small"
                    data-testid="learn-reset"
                    on:click=move |_| {
                        progress.set(Default::default());
                        progress.update(|p| p.open(step.get_untracked()));
                        save();
                    }
                >
                    "Reset progress"
                </button>
                {shown(
                    Memo::new(move |_| storage_note.with(Option::is_some)),
                    move || view! { <p class="note" role="status">{move || storage_note.get().unwrap_or_default()}</p> },
                )}
            </nav>
            <section class="panel" aria-label="Step">
                {move || { let _ = open.get(); untrack(body) }}
            </section>
        </div>
    }
}

/// The chart of a step: its roofline (on log axes when `log`) or its batch
/// chart (always log, as in the chapter's plot).
fn figure(v: &StepView, log: bool) -> Result<LearnChart, String> {
    match v.figure {
        Figure::Roofline => roofline_for_view(&v.view, log).map(LearnChart::Roofline),
        Figure::Batch => {
            let s = v
                .view
                .scenario
                .as_ref()
                .ok_or_else(|| "Nothing to draw yet.".to_string())?;
            batch_for(s, &v.view.batch_dim, &v.state.pairs, true)
                .map(LearnChart::Batch)
                .map_err(|e| e.to_string())
        }
    }
}
