//! Measured kernels on the roofline: the mark drawn for each, and which
//! one the pointer is on. Only the measurements panel's chart draws them
//! (`draw_roofline_points`), so none of this is in the calculator's code.

use super::PlotFrame;

/// A measured kernel, drawn as a ring at its intensity and attained
/// throughput, in the colour of the ceiling that binds it.
#[derive(Debug, Clone, PartialEq)]
pub struct PointMark {
    /// Arithmetic intensity, FLOPs/byte.
    pub intensity: f64,
    /// Attained throughput, FLOP/s.
    pub rate: f64,
    /// Its name, drawn beside it where there is room.
    pub label: String,
    /// The kernel's index in the input order (the hover readout is worded
    /// from it when the pointer is on the ring).
    pub index: usize,
    /// Bound by the first memory line (drawn in its colour), else by the
    /// roof (in the roof's colour).
    pub memory: bool,
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
/// square, in their order.
pub(super) fn distinct<'a>(
    items: impl Iterator<Item = (&'a PointMark, (i32, i32))>,
    cell: i32,
) -> Vec<(&'a PointMark, (i32, i32))> {
    let key = |(x, y): (i32, i32)| (x.div_euclid(cell), y.div_euclid(cell));
    let mut v: Vec<(usize, &'a PointMark, (i32, i32))> =
        items.enumerate().map(|(i, (p, xy))| (i, p, xy)).collect();
    v.sort_by_key(|&(i, _, xy)| (key(xy), i));
    v.dedup_by_key(|&mut (_, _, xy)| key(xy));
    v.sort_by_key(|&(i, _, _)| i);
    v.into_iter().map(|(_, p, xy)| (p, xy)).collect()
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
        };
        let pts = [mark(10.0, 1e12, "a"), mark(100.0, 1e12, "b")];
        // x = 10 is a quarter across, y = 1e12 half-way up.
        let (ax, ay) = f.px_of(10.0, 1e12);
        assert_eq!((ax, ay), (225.0, 250.0));
        assert_eq!(
            nearest(&pts, &f, (ax + 3.0, ay - 3.0), 8.0).unwrap().label,
            "a"
        );
        assert!(nearest(&pts, &f, (ax + 20.0, ay), 8.0).is_none());
        assert_eq!(nearest(&pts, &f, (350.0, 250.0), 8.0).unwrap().label, "b");
    }

    #[test]
    fn one_point_per_cell_the_first_kept_in_order() {
        let mark = |l: &str| PointMark {
            intensity: 1.0,
            rate: 1.0,
            label: l.into(),
            index: 0,
            memory: false,
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
            .map(|(p, _)| p.label.as_str())
            .collect();
        // b shares a's cell (x and y in 9..12); d is in the cell before.
        assert_eq!(kept, ["a", "c", "d"]);
    }
}
