//! Measured kernels on the roofline: the mark drawn for each, and which
//! one the pointer is on. Only the measurements panel's chart draws them
//! (`draw_roofline_points`), so none of this is in the calculator's code.

use super::PlotFrame;

/// A measured kernel, drawn as a ring at its intensity and attained
/// throughput, in the colour of the ceiling that binds it (a prediction as
/// a square, at the roof).
#[derive(Debug, Clone, PartialEq)]
pub struct PointMark {
    /// Arithmetic intensity, FLOPs/byte.
    pub intensity: f64,
    /// Attained throughput, FLOP/s.
    pub rate: f64,
    /// Its name, drawn beside it (shortened) where there is room; shared
    /// with the kernel, not copied.
    pub label: std::sync::Arc<str>,
    /// The kernel's index in the input order (the hover readout is worded
    /// from it when the pointer is on the ring).
    pub index: usize,
    /// Bound by the first memory line (drawn in its colour), else by the
    /// roof (in the roof's colour).
    pub memory: bool,
    /// A prediction (no measured time, placed at the roof): drawn as a
    /// square rather than a ring.
    pub predicted: bool,
}

impl PlotFrame {
    /// The pixel at data point (`x`, `y`): the inverse of
    /// [`PlotFrame::x_at`] and [`PlotFrame::y_at`].
    pub fn px_of(&self, x: f64, y: f64) -> (f64, f64) {
        let t = |v: f64, r: (f64, f64)| {
            if self.log {
                (v / r.0).log10() / (r.1 / r.0).log10()
            } else {
                (v - r.0) / (r.1 - r.0)
            }
        };
        let (l, r) = (self.x_px.0 as f64, self.x_px.1 as f64);
        let (top, b) = (self.y_px.0 as f64, self.y_px.1 as f64);
        (
            l + t(x, self.x_range) * (r - l),
            b - t(y, self.y_range) * (b - top),
        )
    }
}

/// The point nearest pixel (`x`, `y`) of `frame`, if one is within
/// `radius` pixels.
pub fn nearest<'a>(
    points: &'a [PointMark],
    frame: &PlotFrame,
    (x, y): (f64, f64),
    radius: f64,
) -> Option<&'a PointMark> {
    let mut best = (radius * radius, None);
    for p in points {
        let (px, py) = frame.px_of(p.intensity, p.rate);
        let d = (px - x) * (px - x) + (py - y) * (py - y);
        if d <= best.0 {
            best = (d, Some(p));
        }
    }
    best.1
}

/// The first of `items` (a point and its pixel) in each `cell`-pixel
/// square, in their order. One pass over a grid of the cells the items
/// span (no sorting: this runs on every redraw of ten thousand points).
/// A plot spans well under a million cells; a span larger than 4 million
/// (no chart of this app's) is covered with larger cells.
pub(super) fn distinct<'a>(
    items: impl Iterator<Item = (&'a PointMark, (i32, i32))>,
    cell: i32,
) -> Vec<(&'a PointMark, (i32, i32))> {
    let items: Vec<_> = items.collect();
    let (mut lo, mut hi) = ((i32::MAX, i32::MAX), (i32::MIN, i32::MIN));
    for &(_, (x, y)) in &items {
        lo = (lo.0.min(x), lo.1.min(y));
        hi = (hi.0.max(x), hi.1.max(y));
    }
    let mut cell = i64::from(cell.max(1));
    // Cells from the lowest corner, so that the grid starts at 0.
    let span = |lo: i32, hi: i32, cell: i64| (i64::from(hi) - i64::from(lo)).max(0) / cell + 1;
    while span(lo.0, hi.0, cell).saturating_mul(span(lo.1, hi.1, cell)) > 1 << 22 {
        cell *= 2;
    }
    let width = span(lo.0, hi.0, cell);
    // Cells counted from a multiple of `cell`, so that cell edges fall where
    // `div_euclid` puts them whatever the lowest point.
    let key = |v: i32, lo: i32| i64::from(v).div_euclid(cell) - i64::from(lo).div_euclid(cell);
    let cells = (width + 1) * (span(lo.1, hi.1, cell) + 1);
    let mut taken = vec![false; usize::try_from(cells).unwrap_or(0)];
    items
        .into_iter()
        .filter(|&(_, (x, y))| {
            let at = key(y, lo.1) * (width + 1) + key(x, lo.0);
            match usize::try_from(at).ok().and_then(|i| taken.get_mut(i)) {
                Some(t) => !std::mem::replace(t, true),
                None => false,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    fn frame(log: bool) -> PlotFrame {
        PlotFrame {
            x_px: (100, 600),
            y_px: (50, 450),
            x_range: if log { (1.0, 1e4) } else { (0.0, 100.0) },
            y_range: if log { (1e10, 1e14) } else { (0.0, 1e14) },
            log,
        }
    }

    #[test]
    fn pixels_map_back_to_data() {
        for log in [true, false] {
            let f = frame(log);
            for (px, py) in [
                (100.0, 450.0),
                (350.0, 250.0),
                (600.0, 50.0),
                (123.0, 321.0),
            ] {
                let (x, y) = (f.x_at(px).unwrap(), f.y_at(py).unwrap());
                let (bx, by) = f.px_of(x, y);
                assert!(
                    (bx - px).abs() < 1e-6 && (by - py).abs() < 1e-6,
                    "{log} {px},{py}"
                );
            }
        }
    }

    #[test]
    fn the_nearest_point_within_the_radius() {
        let f = frame(true);
        let mark = |i: f64, r: f64, l: &str| PointMark {
            intensity: i,
            rate: r,
            label: l.into(),
            index: 0,
            memory: true,
            predicted: false,
        };
        let pts = [mark(10.0, 1e12, "a"), mark(100.0, 1e12, "b")];
        // x = 10 is a quarter across, y = 1e12 half-way up.
        let (ax, ay) = f.px_of(10.0, 1e12);
        assert_eq!((ax, ay), (225.0, 250.0));
        assert_eq!(
            &*nearest(&pts, &f, (ax + 3.0, ay - 3.0), 8.0).unwrap().label,
            "a"
        );
        assert!(nearest(&pts, &f, (ax + 20.0, ay), 8.0).is_none());
        assert_eq!(&*nearest(&pts, &f, (350.0, 250.0), 8.0).unwrap().label, "b");
    }

    #[test]
    fn one_point_per_cell_the_first_kept_in_order() {
        let mark = |l: &str| PointMark {
            intensity: 1.0,
            rate: 1.0,
            label: l.into(),
            index: 0,
            memory: false,
            predicted: false,
        };
        let (a, b, c, d) = (mark("a"), mark("b"), mark("c"), mark("d"));
        let items = [
            (&a, (10, 10)),
            (&b, (11, 11)),
            (&c, (30, 10)),
            (&d, (8, 10)),
        ];
        let kept: Vec<&str> = distinct(items.into_iter(), 3)
            .iter()
            .map(|(p, _)| &*p.label)
            .collect();
        // b shares a's cell (x and y in 9..12); d is in the cell before.
        assert_eq!(kept, ["a", "c", "d"]);
    }

    #[test]
    fn a_huge_span_is_covered_with_larger_cells() {
        let marks: Vec<PointMark> = (0..4)
            .map(|i| PointMark {
                intensity: 1.0,
                rate: 1.0,
                label: "p".into(),
                index: i,
                memory: true,
                predicted: false,
            })
            .collect();
        let xy = [
            (-1_000_000, -1_000_000),
            (1_000_000, 1_000_000),
            (-999_999, -999_999),
            (0, 0),
        ];
        let kept: Vec<usize> = distinct(marks.iter().zip(xy), 3)
            .iter()
            .map(|(p, _)| p.index)
            .collect();
        // The third shares the first's (now larger) cell.
        assert_eq!(kept, [0, 1, 3]);
    }

    proptest::proptest! {
        #[test]
        fn the_grid_keeps_what_a_search_of_earlier_points_keeps(
            xy in proptest::collection::vec((-40i32..400, -40i32..300), 0..200),
            cell in 1i32..6,
        ) {
            let marks: Vec<PointMark> = (0..xy.len())
                .map(|i| PointMark { intensity: 1.0, rate: 1.0, label: "p".into(), index: i, memory: true, predicted: false })
                .collect();
            let cell_of = |(x, y): (i32, i32)| (x.div_euclid(cell), y.div_euclid(cell));
            // Kept: each point no earlier point shares a cell with.
            let want: Vec<usize> = (0..xy.len())
                .filter(|&i| (0..i).all(|j| cell_of(xy[j]) != cell_of(xy[i])))
                .collect();
            let got: Vec<usize> = distinct(marks.iter().zip(xy.iter().copied()), cell)
                .iter()
                .map(|(p, _)| p.index)
                .collect();
            proptest::prop_assert_eq!(got, want);
        }
    }
}
