//! The quiz: the chapters' practice questions and more, listed by chapter
//! and checked part by part.

use crate::chunks::answer_style::ANSWER_STYLE;
use std::sync::Arc;

use crate::page::shown::shown;
use leptos::prelude::*;
use roofline_core::pages::View;
use roofline_core::quiz::{by_chapter, next_seed, progress::Progress, Question};
use roofline_core::state::QuizState;
use roofline_core::url::encode;

use crate::chunks::quiz::chart::{ChartPart, QuizChart};
use crate::chunks::quiz::part::QuizPart;
use crate::chunks::quiz::shelves::{built_now, question_view};
use crate::chunks::storage;

/// The question list with progress, and the current question's parts.
#[component]
pub fn QuizPage(
    /// Which question, part and seed (kept in the link).
    quiz: RwSignal<QuizState>,
) -> impl IntoView {
    let (loaded, note) = storage::load();
    let progress = RwSignal::new(loaded);
    let storage_note = RwSignal::new(note);
    let save = move |p: &Progress| {
        if let Err(e) = storage::save(p) {
            storage_note.set(Some(e));
        }
    };
    // Only a new question or seed re-creates the parts (not the focused part).
    let key = Memo::new(move |_| quiz.with(|q| (q.question.clone(), q.seed)));
    let generation = RwSignal::new(0u32);
    // The setup shown, which "New numbers" must change.
    let shown_setup = StoredValue::new(None::<String>);
    let list = move || {
        let selected = quiz.with(|q| q.question.clone());
        // Titles and part counts without building the questions, by chapter.
        by_chapter()
            .into_iter()
            .filter(|c| !c.questions.is_empty())
            .map(|chapter| {
                let total: u32 = chapter.questions.iter().map(|(_, _, n)| n).sum();
                let ids: Vec<&'static str> = chapter.questions.iter().map(|(id, _, _)| *id).collect();
                let chapter_done = move || {
                    progress.with(|p| ids.iter().map(|id| p.solved_count(id)).sum::<usize>())
                };
                let items = chapter
                    .questions
                    .iter()
                    .map(|&(id, title, n)| {
                        let done = move || progress.with(|p| p.solved_count(id));
                        let id2 = id.to_string();
                        view! {
                            <li>
                                <button
                                    type="button"
                                    class="q-button"
                                    aria-current=if selected == id { "true" } else { "false" }
                                    data-testid=format!("question-{id}")
                                    on:click=move |_| {
                                        quiz.set(QuizState { question: id2.clone(), part: 1, seed: 0 })
                                    }
                                >
                                    <span class="q-title">{title}</span>
                                    <span class="q-progress">{move || format!("{}/{n}", done())}</span>
                                </button>
                            </li>
                        }
                    })
                    .collect_view();
                view! {
                    <li class="q-chapter" data-testid=format!("chapter-{}", chapter.id)>
                        <h3>
                            <span class="q-title">{chapter.title}</span>
                            " "
                            <span class="q-progress" data-testid=format!("chapter-progress-{}", chapter.id)>
                                {move || format!("{}/{total}", chapter_done())}
                            </span>
                        </h3>
                        <ol>{items}</ol>
                    </li>
                }
            })
            .collect_view()
    };
    // Behind an `Arc`: the parts read the question without copying it.
    let render = move |q: Option<Arc<Question>>| {
        let Some(q) = q else {
            return view! { <p>"No such question."</p> }.into_any();
        };
        shown_setup.set_value(Some(q.setup.clone()));
        let qid = q.id.clone();
        let seed = q.seed;
        // A question with a chart shows it once a part has been answered
        // (or its answer shown), or was solved before.
        let answered = RwSignal::new(
            seed == 0
                && q.parts
                    .iter()
                    .any(|p| progress.with_untracked(|pr| pr.is_solved(&qid, &p.id))),
        );
        let on_answered = Callback::new(move |_| answered.set(true));
        // Each part's "settled" (solved or its answer shown): the chart
        // keeps a curve's crossing out of its legend until then.
        let settled: Vec<RwSignal<bool>> = q
            .parts
            .iter()
            .map(|p| {
                RwSignal::new(seed == 0 && progress.with_untracked(|pr| pr.is_solved(&qid, &p.id)))
            })
            .collect();
        let chart_parts: Vec<ChartPart> = q
            .parts
            .iter()
            .zip(&settled)
            .map(|(p, s)| ChartPart::new(p, &q.calc.pairs, *s))
            .collect();
        let parts = q
            .parts
            .iter()
            .enumerate()
            .map(|(i, part)| {
                // The page that computes this part, with the question's numbers.
                let opening = q.opening(i);
                let open_label = match opening.view {
                    View::Model => "Open in the Model page",
                    View::Scale => "Open in the Scale page",
                    _ => "Open in calculator",
                };
                let href = format!("?{}", encode(&opening));
                let (qid_s, pid) = (qid.clone(), part.id.clone());
                let solved_before =
                    seed == 0 && progress.with_untracked(|p| p.is_solved(&qid, &part.id));
                let on_solved = Callback::new(move |_| {
                    if seed == 0 {
                        progress.update(|p| p.mark(&qid_s, &pid));
                        progress.with_untracked(save);
                    }
                });
                let on_focus = Callback::new(move |_| {
                    quiz.update(|s| s.part = i as u32 + 1);
                });
                view! {
                    <QuizPart
                        part=part.clone()
                        number=i + 1
                        solved_before=solved_before
                        calc_href=href
                        open_label=open_label
                        on_solved=on_solved
                        on_focus=on_focus
                        on_answered=on_answered
                        settled=settled[i]
                    />
                }
            })
            .collect_view();
        view! {
            <article class="question" data-testid="question" data-question=q.id.clone() data-seed=q.seed.to_string()>
                <header>
                    <p class="q-source">{q.source.clone()}{if q.seed == 0 { String::new() } else { format!(" · new numbers (seed {})", q.seed) }}</p>
                    <h2>{q.title.clone()}</h2>
                </header>
                <p class="setup">{q.setup.clone()}</p>
                <ol class="parts">{parts}</ol>
                {(!q.calc.pairs.is_empty()).then(|| view! { <QuizChart calc=q.calc.clone() shown=answered parts=chart_parts /> })}
            </article>
        }
        .into_any()
    };
    let body = move || {
        let _ = generation.get();
        let (id, seed) = key.get();
        question_view(id, seed, render)
    };
    view! {
        <div class="quiz layout">
            <style>{ANSWER_STYLE}</style>
            <nav class="panel q-list" aria-label="Questions">
                <h2>"Questions"</h2>
                <ol>{list}</ol>
                <button
                    type="button"
                    class="secondary small"
                    data-testid="progress-reset"
                    on:click=move |_| {
                        progress.update(|p| p.reset());
                        progress.with_untracked(save);
                        // Re-create the parts so their ticks go.
                        generation.update(|g| *g += 1);
                    }
                >
                    "Reset progress"
                </button>
                {shown(
                    Memo::new(move |_| storage_note.with(Option::is_some)),
                    move || view! { <p class="note" role="status">{move || storage_note.get().unwrap_or_default()}</p> },
                )}
            </nav>
            <section class="panel" aria-label="Question">
                <div class="q-actions">
                    <button
                        type="button"
                        data-testid="new-numbers"
                        on:click=move |_| {
                            // A variant may draw the same numbers: skip those.
                            let shown = shown_setup.get_value();
                            quiz.update(|s| {
                                let mut seed = next_seed(s.seed);
                                for _ in 0..16 {
                                    let setup = built_now(&s.question, seed).map(|q| q.setup);
                                    if setup.is_some() && setup != shown {
                                        break;
                                    }
                                    seed = next_seed(seed);
                                }
                                s.seed = seed;
                                s.part = 1;
                            })
                        }
                    >
                        "New numbers"
                    </button>
                    <button
                        type="button"
                        class="secondary"
                        data-testid="book-numbers"
                        on:click=move |_| quiz.update(|s| { s.seed = 0; s.part = 1; })
                    >
                        "The book’s numbers"
                    </button>
                </div>
                {body}
            </section>
        </div>
    }
}
