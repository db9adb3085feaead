//! The stylesheet of the tables and derivations that only chunks show
//! (the batch chunk's derivation, the comparison, the measurements' table,
//! the Model page): in those chunks, not in the first load's stylesheet.
//! Each puts it in a `<style>` element beside what it draws.

/// The rules, as CSS text.
pub const TABLE_STYLE: &str = ".derivation { padding-left: 1.9rem; margin: 0; } .derivation li { margin-bottom: 0.6rem; } .step-title { display: block; font-weight: 600; } .derivation code { display: block; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.85rem; overflow-wrap: anywhere; } .derivation .numbers { color: var(--muted); } .step-result { display: block; font-weight: 600; } .table-scroll { overflow-x: auto; } .scroll-cue { display: none; margin: 0 0 0.25rem; font-size: 0.8rem; color: var(--muted); } @media (max-width: 720px) { .scroll-cue { display: block; } } .compare-table { border-collapse: collapse; font-size: 0.85rem; width: 100%; } .compare-table th, .compare-table td { padding: 0.25rem 0.5rem; border-bottom: 1px solid var(--border); text-align: left; white-space: nowrap; } .compare-table .num { text-align: right; font-variant-numeric: tabular-nums; } .calc-link { color: var(--accent); }";
