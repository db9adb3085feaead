//! The measurements panel's input (in the measure chunk): the box to paste
//! or drop a table in, a file to load, the snippets that measure, and the
//! buttons that add, fill in an example or clear.

use leptos::prelude::*;
use roofline_core::points::read;
use roofline_core::points::{example, Field, Kernel, Roof};

use crate::chunks::measure::js_text::{clipboard_js, take_in_pieces};
use crate::chunks::measure::reader::Reader;
use crate::chunks::measure::snippets::Snippets;

/// Where a table comes in, and the buttons that act on it.
#[component]
pub fn MeasureInput(
    /// The text pasted, dropped or loaded.
    pasted: RwSignal<String>,
    /// The user's column choices, by header (a new table starts afresh).
    mapping: RwSignal<Vec<(String, Field)>>,
    /// The reading of `pasted`, whose kernels "Add measurements" adds.
    reader: Reader,
    /// The roof the example is made for (none: no example).
    roof: Memo<Option<Roof>>,
    /// Puts these kernels on the chart and in the link.
    publish: Callback<Vec<Kernel>>,
) -> impl IntoView {
    // A large paste goes to the reader a piece per task; a newer paste,
    // file or edit stops an older copy (the number of the copy wanted).
    let copies = StoredValue::new(0u32);
    let stop_copy = move || copies.update_value(|c| *c = c.wrapping_add(1));
    // A large paste or file is held outside the box: laying out ten
    // thousand lines in a <textarea> takes the browser longer than reading
    // them. It is read all the same; "Show them in the box" puts it there.
    let held = RwSignal::new(pasted.with_untracked(|t| t.len() > HOLD_BYTES));
    let apply = move |_| publish.run(reader.all_kernels());
    let try_example = move |_| {
        if let Some(r) = roof.get_untracked() {
            let text = example::profile(&r);
            let kernels = read::read(&text, &[]).kernels;
            held.set(false);
            stop_copy();
            pasted.set(text);
            mapping.set(Vec::new());
            publish.run(kernels);
        }
    };
    let clear = move |_| {
        held.set(false);
        stop_copy();
        pasted.set(String::new());
        mapping.set(Vec::new());
        publish.run(Vec::new());
    };
    let load_file = move |ev: leptos::ev::Event| {
        use wasm_bindgen::JsCast;
        let file = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            .and_then(|i| i.files())
            .and_then(|f| f.get(0));
        stop_copy();
        read_file(file, pasted, mapping, held);
    };
    let drop_file = move |ev: leptos::ev::DragEvent| {
        let file = ev
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|f| f.get(0));
        if file.is_some() {
            ev.prevent_default();
            stop_copy();
            read_file(file, pasted, mapping, held);
        }
    };
    // A large paste goes straight to the reader, not into the box.
    let paste = move |ev: leptos::ev::ClipboardEvent| {
        let text = ev.clipboard_data().and_then(|d| clipboard_js(&d));
        if let Some(text) = text.filter(|t| t.length() as usize > HOLD_BYTES) {
            ev.prevent_default();
            let copy = copies.get_value().wrapping_add(1);
            copies.set_value(copy);
            take_in_pieces(text, copy, copies, move |t| {
                take_table(t, pasted, mapping, held)
            });
        }
    };
    let held_note = move || {
        held.get().then(|| {
            // As `str::lines` counts, without its per-line work.
            let (lines, kb) = pasted.with(|t| {
                let newlines = t.bytes().filter(|&b| b == b'\n').count();
                (
                    newlines + usize::from(!t.is_empty() && !t.ends_with('\n')),
                    t.len().div_ceil(1024),
                )
            });
            view! {
                <p class="note" data-testid="points-held">
                    {format!("{lines} lines ({kb} KB) are held outside the box, so the page stays quick; they are read as they are. ")}
                    <button type="button" class="secondary" data-testid="points-show-text" on:click=move |_| held.set(false)>
                        "Show them in the box"
                    </button>
                </p>
            }
        })
    };
    // The rows ready to add; "…" while more are being read.
    let ready = move || {
        reader.progress.with(|p| {
            let n = p.reading().kernels.len();
            if p.done() {
                n.to_string()
            } else {
                format!("{n}…")
            }
        })
    };
    view! {
        <p class="note">
            "Paste or drop a table from a profiler: one row per kernel, with FLOPs, bytes and a time; or FLOP/s and an intensity; or a time and an operation in the book’s notation with its sizes. Headers such as flops, gflop, dram_bytes, time_ms, duration_us, flop/s and intensity are recognised, with units in the header or the cell (µs, ms, GB, GiB, TFLOP). Nsight Compute's CSV (ncu --csv, the default or the raw page), XProf's roofline table (Export as CSV) and JAX's printed cost_analysis() are read as they are printed; a kernel with FLOPs and bytes but no time is a prediction, drawn as a square at the roof until you type its time. CSV, TSV and JSON are read in the page: nothing is sent anywhere."
        </p>
        <label class="measure-input">
            "Measurements (CSV, TSV, JSON, Nsight Compute or JAX)"
            <textarea
                data-testid="points-input"
                rows="6"
                spellcheck="false"
                prop:value=move || if held.get() { String::new() } else { pasted.get() }
                prop:readOnly=move || held.get()
                prop:placeholder=move || if held.get() { HELD_PLACEHOLDER } else { PLACEHOLDER }
                on:input=move |ev| {
                    held.set(false);
                    stop_copy();
                    pasted.set(event_target_value(&ev));
                }
                on:paste=paste
                on:dragover=|ev: leptos::ev::DragEvent| ev.prevent_default()
                on:drop=drop_file
            ></textarea>
        </label>
        {held_note}
        <Snippets />
        <div class="actions">
            <button type="button" data-testid="points-apply" on:click=apply>
                {move || format!("Add measurements ({})", ready())}
            </button>
            <label class="file">
                "Load a file "
                <input type="file" data-testid="points-file" accept=".csv,.tsv,.txt,.json,text/csv,application/json" on:change=load_file />
            </label>
            <button type="button" data-testid="points-example" on:click=try_example>"Try an example"</button>
            <button type="button" data-testid="points-clear" on:click=clear>"Clear"</button>
        </div>
    }
}

/// A whole table pasted or loaded: its columns are guessed afresh, and it
/// is held outside the box when it is large.
fn take_table(
    text: String,
    pasted: RwSignal<String>,
    mapping: RwSignal<Vec<(String, Field)>>,
    held: RwSignal<bool>,
) {
    mapping.set(Vec::new());
    held.set(text.len() > HOLD_BYTES);
    pasted.set(text);
}

/// Reads a dropped or chosen file's text into the input.
fn read_file(
    file: Option<web_sys::File>,
    pasted: RwSignal<String>,
    mapping: RwSignal<Vec<(String, Field)>>,
    held: RwSignal<bool>,
) {
    let Some(file) = file else { return };
    leptos::task::spawn_local(async move {
        let text = wasm_bindgen_futures::JsFuture::from(file.text()).await;
        match text.ok().and_then(|t| t.as_string()) {
            Some(t) => take_table(t, pasted, mapping, held),
            // Unreadable (not text): what is in the box stays.
            None => pasted.update(|p| {
                if p.is_empty() {
                    p.push_str("# The file could not be read as text.");
                }
            }),
        }
    });
}

/// Text longer than this (about a thousand rows) is held outside the box.
const HOLD_BYTES: usize = 64 * 1024;
/// The box's placeholder: the shape of a table.
const PLACEHOLDER: &str = "name,flops,bytes,time_ms\nmatmul,1.1e12,5.2e8,7.9";
/// The box's placeholder while a large table is held outside it.
const HELD_PLACEHOLDER: &str = "The table is held outside the box (below). Clear to paste another.";
