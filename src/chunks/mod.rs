//! The wasm chunks: a folder per chunk, each fetched only when first
//! needed. A folder's `mod.rs` is the chunk's loader, in the first load:
//! the `#[wasm_split(NAME)]` functions, a prefetch and the component that
//! shows "Loading…" until the chunk is in. Every other file of the folder
//! is the chunk's own code, reached only through those functions; the
//! build (`scripts/build/build-wasm.sh`) moves it into `split_NAME.wasm`.
//! `chunks.json` is the table of chunks (name, when it is fetched, its
//! size limit) that the build, the size budget and the tests read.
//! `storage.rs`, `answer_style.rs`, `table_style.rs` and `keys.rs` are
//! code chunks share (the quiz's and the Learn page's progress and
//! stylesheet; the tables' and derivations' stylesheet; a page's state
//! kept in step with its keys' link text), which the build puts in a
//! shared `chunk_<n>.wasm`.

pub mod answer_style;
pub mod batch;
pub mod chip;
pub mod compare;
pub mod keys;
pub mod learn;
pub mod link;
pub mod measure;
pub mod model;
pub mod network;
pub mod quiz;
pub mod quiz_book;
pub mod scale;
pub mod storage;
pub mod svg;
pub mod table_style;
pub mod why;
