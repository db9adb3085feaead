//! "Measure it yourself": the JAX and PyTorch snippets that time a function
//! and print a row the panel reads, shown from their files in
//! `docs/measurements/` (tests/snippets.test.mjs runs them where the
//! library is installed).

use leptos::prelude::*;

/// The JAX snippet (jit, cost analysis, a timed loop).
const JAX: &str = include_str!("../../../docs/measurements/measure_jax.py");
/// The PyTorch snippet (FlopCounterMode, CUDA events).
const TORCH: &str = include_str!("../../../docs/measurements/measure_torch.py");

/// The snippets, folded, each in a block that selects whole.
#[component]
pub fn Snippets() -> impl IntoView {
    view! {
        <details class="snippets" data-testid="points-snippets">
            <summary>"Measure it yourself (JAX, PyTorch)"</summary>
            <p class="note">
                "Each prints a table to paste here: name, FLOPs, bytes and the seconds one call took. JAX's FLOPs and bytes come from XLA's cost analysis; PyTorch's FLOPs from FlopCounterMode (matmuls and convolutions only) and its bytes from the tensors' sizes, the least a kernel moves."
            </p>
            <p class="snippet-name">"JAX"</p>
            <pre data-testid="snippet-jax"><code>{JAX}</code></pre>
            <p class="snippet-name">"PyTorch"</p>
            <pre data-testid="snippet-torch"><code>{TORCH}</code></pre>
        </details>
    }
}
