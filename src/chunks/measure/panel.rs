//! The measurements panel's body (in the measure chunk): paste, drop or
//! load a table, check the column mapping and each row's problem, apply,
//! and read the kernels against the roof in a sortable table. This file
//! holds the panel's state and lays out its parts: the input
//! (`input.rs`), the preview of the reading (`preview.rs`, read by
//! `reader.rs`), the chart, the totals, the table and saving.

use crate::chunks::table_style::TABLE_STYLE;
use std::sync::Arc;

use leptos::prelude::*;
use roofline_charts::{add_own_roofs, point_marks, roofline_for_view};
use roofline_core::calc::CalcView;
use roofline_core::points::compact::{self, LINK_MAX_POINTS};
use roofline_core::points::read::{self, Progress, RateByRoof};
use roofline_core::points::table::SortKey;
use roofline_core::points::{place, Field, Kernel, Placed, Roof, RowError};

use crate::chunks::measure::above::AboveNote;
use crate::chunks::measure::input::MeasureInput;
use crate::chunks::measure::point_table::PointTable;
use crate::chunks::measure::points_chart::{PointsChart, PointsSpec};
use crate::chunks::measure::preview::ReadingPreview;
use crate::chunks::measure::reader::Reader;
use crate::chunks::measure::save::SaveMeasurements;
use crate::chunks::measure::totals::PointTotals;

/// The panel's body.
#[component]
pub fn Measurements(
    /// The calculator's last valid results: the roof the points are read against.
    results: Memo<Arc<CalcView>>,
    /// The measurements in the link's compact form (empty when none, or
    /// when there are too many for a link).
    points: RwSignal<String>,
    /// The text pasted, dropped or loaded.
    pasted: RwSignal<String>,
    /// Log-log axes (the calculator's roofline setting).
    log: RwSignal<bool>,
) -> impl IntoView {
    // The kernels on the chart, and the problems of the link's `pts`.
    let (start, link_errors) = points.with_untracked(|p| link_kernels(p));
    let kernels = RwSignal::new(start);
    let link_errors = RwSignal::new(link_errors);
    // The user's column choices, by header.
    let mapping = RwSignal::new(Vec::<(String, Field)>::new());
    // A column headed `TFLOPS` whose counts put the kernels far above the
    // roof, read as FLOP/s (a second reading, once the first is done).
    let by_roof = RwSignal::new(None::<RateByRoof>);
    // Read a profiler's export as a plain table (its columns mapped by
    // hand), by the user's choice.
    let plain = RwSignal::new(false);
    // The table read from `pasted`, a slice per task.
    let reader = Reader::new(pasted, mapping, by_roof, plain);
    let progress = reader.progress;
    let roof = Memo::new(move |_| results.with(|v| Roof::for_view(v)));
    // A new text is looked at afresh.
    Effect::new(move |_| {
        pasted.track();
        if by_roof.with_untracked(Option::is_some) {
            by_roof.set(None);
        }
    });
    // The second look, once the whole table is read.
    Effect::new(move |_| {
        if !progress.with(Progress::done) || by_roof.with_untracked(Option::is_some) {
            return;
        }
        let found = roof.with(|r| {
            let r = r.as_ref()?;
            progress.with(|p| mapping.with(|m| read::rate_by_roof(p.reading(), m, r)))
        });
        if found.is_some() {
            by_roof.set(found);
        }
    });
    // Every kernel placed once per change, for the chart, the table and
    // the note on points above the roof.
    let placed = Memo::new(move |_| -> Vec<Placed> {
        roof.with(|r| {
            r.as_ref()
                .map(|r| kernels.with(|ks| ks.iter().map(|k| place(k, r)).collect()))
                .unwrap_or_default()
        })
    });
    let chart = Memo::new(move |_| -> Result<PointsSpec, String> {
        let log = log.get();
        let mut c = results.with(|v| roofline_for_view(v, log))?;
        if roof.with(Option::is_none) {
            return Err("Nothing to draw yet.".to_string());
        }
        // Kernels that name their data type are read against its roof:
        // it is drawn.
        roof.with(|r| {
            if let Some(r) = r {
                placed.with(|p| add_own_roofs(&mut c, p, r));
            }
        });
        let marks = placed.with(|p| point_marks(p));
        c.fit_x_with(&marks);
        Ok(Arc::new((c, marks)))
    });
    // Back / forward to an entry with other measurements in its link.
    Effect::new(move |_| {
        let p = points.get();
        let same = kernels.with_untracked(|k| compact::encode(k).unwrap_or_default() == p);
        let too_many = kernels.with_untracked(|k| k.len() > LINK_MAX_POINTS);
        // Kept: the same kernels, or too many for the link (which then has none).
        let keep = same || (p.is_empty() && too_many);
        if !keep {
            let (k, e) = link_kernels(&p);
            kernels.set(k);
            link_errors.set(e);
        }
    });
    let publish = Callback::new(move |ks: Vec<Kernel>| {
        points.set(compact::encode(&ks).unwrap_or_default());
        kernels.set(ks);
        link_errors.set(Vec::new());
    });
    // A time typed for a prediction makes it a measurement.
    let on_time = Callback::new(move |(index, t): (usize, f64)| {
        let mut ks = kernels.get_untracked();
        if let Some(k) = ks.get_mut(index) {
            if let Some(m) = k.timed(t) {
                *k = m;
                publish.run(ks);
            }
        }
    });
    let link_note = move || {
        let n = kernels.with(Vec::len);
        (n > LINK_MAX_POINTS).then(|| {
            view! {
                <p class="note" data-testid="points-link-note">
                    {format!(
                        "These {n} kernels are more than a link carries (up to {LINK_MAX_POINTS}), so the link leaves them out. “Save measurements” downloads them as CSV; pasting or loading that file here reads them back."
                    )}
                </p>
            }
        })
    };
    let sort = RwSignal::new((SortKey::Saved, true));
    let has_points = Memo::new(move |_| kernels.with(|k| !k.is_empty()));
    view! {
        <style>{STYLE}</style>
        <style>{TABLE_STYLE}</style>
        <div class="measure-body">
            <MeasureInput pasted=pasted mapping=mapping reader=reader roof=roof publish=publish />
            <ReadingPreview
                pasted=pasted
                reader=reader
                mapping=mapping
                plain=plain
                by_roof=by_roof
                link_errors=link_errors
            />
            {link_note}
            {move || has_points.get().then(|| view! { <PointsChart spec=chart kernels=kernels roof=roof /> })}
            <PointTotals placed=placed />
            <PointTable placed=placed roof=roof sort=sort on_time=on_time />
            <AboveNote placed=placed />
            <SaveMeasurements kernels=kernels roof=roof />
            <p class="note">"Points are read against the first memory line and the peak at the math’s data type; each is coloured by what binds it. Hover a point on the chart for its numbers."</p>
        </div>
    }
}

/// The kernels of the link's `pts`, and its problems, each saying it is
/// the link's.
fn link_kernels(pts: &str) -> (Vec<Kernel>, Vec<RowError>) {
    let (k, mut e) = compact::decode(pts);
    for err in &mut e {
        err.message = format!("{} (in the link's pts)", err.message);
    }
    (k, e)
}

/// The panel's own style, downloaded with its chunk. The table of points
/// is laid out and painted only when on screen (`content-visibility`): a
/// paste's preview moves it down, and repainting its two hundred rows
/// took longer than the preview.
const STYLE: &str = ".measure textarea{width:100%;box-sizing:border-box;font:0.85rem ui-monospace,Menlo,Consolas,monospace;background:var(--panel);color:var(--text);border:1px solid var(--border);border-radius:6px}.measure-map{display:flex;flex-wrap:wrap;gap:0.25rem 1rem;padding:0;list-style:none;font-size:0.85rem}.point-table tr.above{color:var(--error)}.measure .table-scroll{content-visibility:auto;contain-intrinsic-size:auto 800px}.measure .chart{margin:1rem 0 0}.measure input[type=file]{max-width:100%}.point-time{width:6rem}.point-table .error,.point-table .against{display:block;font-size:0.8rem}.point-table .against{font-weight:400;color:var(--muted)}.snippets pre{overflow-x:auto;font-size:0.8rem;user-select:all}.snippet-name{font-weight:600;margin:0.5rem 0 0}.point-table th[scope=row],.groups th[scope=row]{white-space:normal;min-width:8rem;max-width:13rem;overflow-wrap:anywhere;font-size:0.8rem}";
