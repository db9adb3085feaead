//! "Compare every chip": a panel that opens on the comparison table. The
//! table's code is in its own wasm chunk (see docs/build.md §2.2),
//! downloaded when the panel is first opened, or when a pointer or the
//! keyboard reaches its summary.

pub mod table;

use crate::page::shown::shown;
use leptos::prelude::*;
use leptos::wasm_split::wasm_split;
use roofline_core::calc::CalcInput;

use crate::chunks::compare::table::CompareTable;
use crate::page::chunk_view::{prefetch, ChunkMissing, ChunkView};
use crate::page::field::is_open;

/// The table. The build (scripts/build/build-wasm.sh) moves this function and what
/// only it reaches into the compare chunk.
#[wasm_split(compare, wasm_split_path = ::leptos::wasm_split, fallible, preload(fetch_compare))]
fn compare_view(input: RwSignal<CalcInput>) -> Result<AnyView, ChunkMissing> {
    Ok(view! { <CompareTable input=input /> }.into_any())
}

/// Starts downloading the compare chunk; a failure shows when the panel opens.
fn prefetch_compare() {
    prefetch(fetch_compare());
}

/// The comparison panel, closed at first; the table is built when opened.
#[component]
pub fn ComparePanel(
    /// The user's input; choosing a row sets chip, compute type and level 1.
    input: RwSignal<CalcInput>,
) -> impl IntoView {
    let open = RwSignal::new(false);
    view! {
        <details
            class="panel compare"
            on:toggle=move |ev| open.set(is_open(&ev))
        >
            <summary
                on:pointerenter=|_| prefetch_compare()
                on:pointerdown=|_| prefetch_compare()
                on:focus=|_| prefetch_compare()
            >
                <h2>"Compare every chip"</h2>
            </summary>
            <p class="note">
                "Critical batch: the batch size above which a matmul with every operand in that data type is compute-bound, with B much smaller than D and F (intensity 2B ÷ bytes per element). Choose a chip to load it."
            </p>
            {shown(
                Memo::new(move |_| open.get()),
                move || view! { <ChunkView fetch=fetch_compare load=move || compare_view(input) what="the table" testid="compare" /> },
            )}
        </details>
    }
}
