//! One part of a quiz question: answer, verdict, hint, solution.

use crate::page::shown::shown;
use leptos::prelude::*;
use roofline_core::quiz::{AnswerKind, Part, PartState, Verdict};
use roofline_core::small::Join;

/// A part with its answer field (or choices), "Check" and "Show answer".
/// After a wrong answer the hint shows; after two, or on "Show answer", the
/// expected answer and the worked solution. The field and the choices show
/// this part's answer (`prop:`): a question switch reuses the elements of
/// the one before, which must not keep its text.
#[component]
pub fn QuizPart(
    /// The part.
    part: Part,
    /// Its position in the question, from 1.
    number: usize,
    /// Whether it was solved before (from saved progress).
    solved_before: bool,
    /// Link that opens the page computing this part's answer (the
    /// calculator, the Model page or the Scale page), with the question's
    /// numbers.
    calc_href: String,
    /// The link's words, naming that page.
    open_label: &'static str,
    /// Called when the part is answered right.
    on_solved: Callback<()>,
    /// Called when the learner works on this part (for the link's `part`).
    on_focus: Callback<()>,
    /// Called after each checked answer and on "Show answer".
    on_answered: Callback<()>,
    /// Set once the part is settled: solved, or its answer shown.
    settled: RwSignal<bool>,
) -> impl IntoView {
    let state = RwSignal::new(PartState {
        solved: solved_before,
        ..PartState::default()
    });
    let answer = RwSignal::new(String::new());
    let verdict = RwSignal::new(None::<Verdict>);
    let part_for_check = part.clone();
    let check = move || {
        let text = answer.get_untracked();
        let mut st = state.get_untracked();
        let v = st.submit(&part_for_check, &text);
        state.set(st);
        if st.shows_solution() {
            settled.set(true);
        }
        if v.is_right() {
            on_solved.run(());
        }
        verdict.set(Some(v));
        on_focus.run(());
        on_answered.run(());
    };
    let check2 = check.clone();
    let pid = part.id.clone();
    let input_id = format!("answer-{pid}");
    let input = match &part.kind {
        AnswerKind::Choice { options } => options
            .iter()
            .map(|o| {
                let label = o.label.clone();
                let label2 = o.label.clone();
                let label3 = o.label.clone();
                view! {
                    <label class="choice">
                        <input
                            type="radio"
                            name=format!("choice-{pid}")
                            value=label.clone()
                            prop:checked=move || answer.with(|a| *a == label3)
                            on:change=move |_| answer.set(label2.clone())
                        />
                        {label}
                    </label>
                }
            })
            .collect_view()
            .into_any(),
        _ => view! {
            <input
                type="text"
                id=input_id.clone()
                class="answer"
                spellcheck="false"
                autocomplete="off"
                data-testid=format!("answer-{pid}")
                prop:value=move || answer.get()
                on:input=move |ev| answer.set(event_target_value(&ev))
                on:keydown=move |ev| {
                    if ev.key() == "Enter" {
                        ev.prevent_default();
                        check2();
                    }
                }
            />
        }
        .into_any(),
    };
    let kind_note = match &part.kind {
        AnswerKind::Formula { symbols } => format!(
            "A formula in {}; for example 2*B*D or 2BD.",
            symbols.joined(", ")
        ),
        AnswerKind::Number { .. } => {
            "A number, with a unit where it has one (1.97e14, 197 T, 0.5 ms).".to_string()
        }
        AnswerKind::Choice { .. } => String::new(),
    };
    let verdict_view = move || {
        verdict.get().map(|v| {
            let class = match v {
                Verdict::Right | Verdict::RightWithNote { .. } => "verdict right",
                Verdict::Wrong { .. } => "verdict wrong",
                Verdict::Close { .. } => "verdict close",
                Verdict::Unreadable { .. } => "verdict unreadable",
            };
            view! { <p class=class role="status">{v.message()}</p> }
        })
    };
    let expected = part.expected_text.clone();
    let solution = part.solution.clone();
    let solution_view = move || {
        state.get().shows_solution().then(|| {
            view! {
                <div class="solution" data-testid=format!("solution-{}", number)>
                    <p><strong>"Answer: "</strong>{expected.clone()}</p>
                    <ol>{solution.iter().map(|s| view! { <li>{s.clone()}</li> }).collect_view()}</ol>
                </div>
            }
        })
    };
    view! {
        <li class="part" data-testid=format!("part-{}", part.id)>
            <p class="prompt">
                <span class="part-id">{format!("({}) ", part.id)}</span>
                {part.prompt.clone()}
                {shown(
                    Memo::new(move |_| state.with(|s| s.solved)),
                    || view! { <span class="solved-mark" aria-label="solved">" ✓"</span> },
                )}
            </p>
            <div class="answer-row">
                <label class="sr-only" for=input_id>{format!("Answer to part {}", part.id)}</label>
                {input}
                <button type="button" data-testid=format!("check-{}", part.id) on:click=move |_| check()>"Check"</button>
                <button
                    type="button"
                    class="secondary"
                    data-testid=format!("reveal-{}", part.id)
                    on:click=move |_| {
                        state.update(|s| s.reveal());
                        settled.set(true);
                        on_answered.run(());
                    }
                >
                    "Show answer"
                </button>
                <a class="calc-link" data-testid=format!("open-{}", part.id) href=calc_href>
                    {open_label}
                </a>
            </div>
            <p class="field-note">{kind_note}</p>
            {verdict_view}
            {solution_view}
        </li>
    }
}
