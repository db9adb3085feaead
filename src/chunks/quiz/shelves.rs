//! Where the quiz gets a question: Part 1's from its own chunk, the later
//! chapters' from theirs (`src/chunks/quiz_book/`), downloaded when one of
//! them is opened. See `roofline_core::quiz::shelf`.

use std::sync::Arc;

use leptos::prelude::*;
use roofline_core::quiz::{shelf, shelf_of, Question, Shelf};

use crate::chunks::quiz_book;
use crate::page::chunk_view::{poll_once, ChunkView};

/// Shows question `id` with the numbers of `seed` through `render`: at once
/// for Part 1's, else once the later chapters' chunk is in ("Loading the
/// question…" until then, and "Try again" if the download fails).
pub fn question_view<R>(id: String, seed: u64, render: R) -> AnyView
where
    R: Fn(Option<Arc<Question>>) -> AnyView + Copy + Send + Sync + 'static,
{
    let id = StoredValue::new(id);
    match shelf_of(&id.get_value()) {
        Shelf::Roofline => render(
            shelf::roofline(&id.get_value(), seed)
                .or_else(|| shelf::roofline("q1", 0))
                .map(Arc::new),
        ),
        Shelf::Book => view! {
            <ChunkView
                fetch=quiz_book::fetch_quiz_book
                load=move || {
                    let built = quiz_book::question(id.get_value(), seed);
                    async move { Ok(render(built.await?.map(Arc::new))) }
                }
                what="the question"
                testid="question"
            />
        }
        .into_any(),
    }
}

/// Question `id` with the numbers of `seed` if its shelf is in (it is, for
/// the question shown): "New numbers" compares variants' setups with it.
pub fn built_now(id: &str, seed: u64) -> Option<Question> {
    match shelf_of(id) {
        Shelf::Roofline => shelf::roofline(id, seed),
        Shelf::Book => {
            let mut fut = Box::pin(quiz_book::question(id.to_string(), seed));
            poll_once(fut.as_mut()).and_then(|r| r.ok().flatten())
        }
    }
}
