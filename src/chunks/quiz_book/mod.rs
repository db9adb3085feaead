//! The questions of the chapters after Part 1 (Parts 2 to 8 and the GPU
//! chapter), in a chunk of their own: the quiz downloads it when one of
//! them is opened (`roofline_core::quiz::Shelf::Book`).

use leptos::wasm_split::wasm_split;
use roofline_core::quiz::{shelf, Question};

use crate::page::chunk_view::ChunkMissing;

/// Question `id` with the numbers of `seed`, once the chunk is in; `None`
/// for an id this shelf does not hold.
#[wasm_split(quiz_book, wasm_split_path = ::leptos::wasm_split, fallible, preload(fetch_quiz_book))]
pub fn question(id: String, seed: u64) -> Result<Option<Question>, ChunkMissing> {
    Ok(shelf::book(&id, seed))
}
