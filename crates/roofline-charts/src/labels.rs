//! Text labels both charts share: [`Labels`] places each label at the first
//! of its candidate spots where it overlaps nothing, and the pixel
//! rectangles it (and the legend) keeps clear of.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::error::err;

/// A rectangle in pixels: left, top, right, bottom.
pub(crate) type Rect = (i32, i32, i32, i32);

/// Whether `a` and `b` come closer than `gap` pixels.
pub(crate) fn overlaps(a: Rect, b: Rect, gap: i32) -> bool {
    !(a.2 + gap <= b.0 || b.2 + gap <= a.0 || a.3 + gap <= b.1 || b.3 + gap <= a.1)
}

/// The square of half-side `half` centred on `(x, y)`.
pub(crate) fn square((x, y): (i32, i32), half: i32) -> Rect {
    (x - half, y - half, x + half, y + half)
}

/// Small squares (half-side `half`) along the polyline `points`, about
/// every `step` pixels: what labels and the legend must not cover.
pub(crate) fn polyline_obstacles(points: &[(i32, i32)], half: i32, step: i32) -> Vec<Rect> {
    let mut out = Vec::new();
    if let Some(&p) = points.first() {
        out.push(square(p, half));
    }
    for pair in points.windows(2) {
        let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
        let (dx, dy) = (f64::from(x1 - x0), f64::from(y1 - y0));
        let n = ((dx.hypot(dy) / f64::from(step.max(1))).ceil() as i32).clamp(1, 10_000);
        for k in 1..=n {
            let t = f64::from(k) / f64::from(n);
            out.push(square(
                (x0 + (dx * t).round() as i32, y0 + (dy * t).round() as i32),
                half,
            ));
        }
    }
    out
}

/// Where the data point `p` lands, in pixels of the plotting area (what
/// [`Labels`] and [`legend_layout`](crate::legend::legend_layout) work in).
pub(crate) fn plot_point<DB, X, Y>(
    area: &DrawingArea<DB, Cartesian2d<X, Y>>,
    p: (f64, f64),
) -> (i32, i32)
where
    DB: DrawingBackend,
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    let (ax, ay) = area.map_coordinate(&p);
    let (bx, by) = area.get_base_pixel();
    (ax - bx, ay - by)
}

/// Places text labels on the plotting area without overlapping each other,
/// the legend, the dots or the area's edges, and where possible without
/// crossing a drawn line: each label tries its candidate anchors in order
/// and is left out when none fits (its value is in the results and the
/// hover readout). On a narrow phone chart this keeps the labels that fit
/// readable instead of printing them over each other.
pub(crate) struct Labels<'p, DB: DrawingBackend> {
    plot: &'p DrawingArea<DB, Shift>,
    /// Never covered: placed labels, the legend, dots.
    taken: Vec<Rect>,
    /// Covered only by a label that may cross lines: samples along lines.
    lines: Vec<Rect>,
    gap: i32,
}

impl<'p, DB: DrawingBackend> Labels<'p, DB> {
    /// A placer on `plot` with `taken` areas never to cover and `lines`
    /// (samples along drawn lines) to avoid where possible.
    pub(crate) fn new(
        plot: &'p DrawingArea<DB, Shift>,
        taken: &[Rect],
        lines: &[Rect],
        scale: f64,
    ) -> Self {
        Labels {
            plot,
            taken: taken.to_vec(),
            lines: lines.to_vec(),
            gap: (2.0 * scale).round() as i32,
        }
    }

    /// Adds `extra` to the lines labels keep off (while they fit
    /// elsewhere); [`Labels::drop_lines`] takes them off again.
    pub(crate) fn add_lines(&mut self, extra: &[Rect]) {
        self.lines.extend_from_slice(extra);
    }

    /// Takes the last `n` lines added off the lines labels keep off.
    pub(crate) fn drop_lines(&mut self, n: usize) {
        self.lines.truncate(self.lines.len().saturating_sub(n));
    }

    /// Draws `text` at the first of `candidates` (anchor point in plotting
    /// area pixels, horizontal and vertical anchor) where it covers nothing,
    /// lines included. Returns whether it was drawn.
    pub(crate) fn place(
        &mut self,
        text: &str,
        style: &TextStyle,
        candidates: &[((i32, i32), HPos, VPos)],
    ) -> Result<bool, String> {
        self.place_avoiding(text, style, candidates, true)
    }

    /// Like [`Labels::place`], but when no candidate is clear of the lines,
    /// takes the first that covers no label, legend or dot (for the labels
    /// the chart is about, which should rather cross a line than go).
    pub(crate) fn place_or_cross(
        &mut self,
        text: &str,
        style: &TextStyle,
        candidates: &[((i32, i32), HPos, VPos)],
    ) -> Result<bool, String> {
        Ok(self.place_avoiding(text, style, candidates, true)?
            || self.place_avoiding(text, style, candidates, false)?)
    }

    fn place_avoiding(
        &mut self,
        text: &str,
        style: &TextStyle,
        candidates: &[((i32, i32), HPos, VPos)],
        avoid_lines: bool,
    ) -> Result<bool, String> {
        let (w, h) = self.plot.estimate_text_size(text, style).map_err(err)?;
        let (w, h) = (w as i32, h as i32);
        let (aw, ah) = self.plot.dim_in_pixel();
        let (aw, ah) = (aw as i32, ah as i32);
        for &((x, y), hp, vp) in candidates {
            let left = match hp {
                HPos::Left => x,
                HPos::Center => x - w / 2,
                HPos::Right => x - w,
            };
            let top = match vp {
                VPos::Top => y,
                VPos::Center => y - h / 2,
                VPos::Bottom => y - h,
            };
            let r = (left, top, left + w, top + h);
            let inside = r.0 >= 0 && r.1 >= 0 && r.2 <= aw && r.3 <= ah;
            let g = self.gap;
            let free = self.taken.iter().all(|t| !overlaps(r, *t, g))
                && (!avoid_lines || self.lines.iter().all(|t| !overlaps(r, *t, 0)));
            if inside && free {
                self.plot
                    .draw(&Text::new(text, (x, y), style.pos(Pos::new(hp, vp))))
                    .map_err(err)?;
                self.taken.push(r);
                return Ok(true);
            }
        }
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::style::text_style_scaled;
    use proptest::prelude::*;

    /// An anchor point with its horizontal and vertical anchor as 0, 1, 2.
    fn anchor() -> impl Strategy<Value = ((i32, i32), u8, u8)> {
        ((-50i32..350, -50i32..250), 0u8..3, 0u8..3)
    }

    fn spots(raw: &[((i32, i32), u8, u8)]) -> Vec<((i32, i32), HPos, VPos)> {
        raw.iter()
            .map(|&(p, h, v)| {
                let h = [HPos::Left, HPos::Center, HPos::Right][usize::from(h)];
                let v = [VPos::Top, VPos::Center, VPos::Bottom][usize::from(v)];
                (p, h, v)
            })
            .collect()
    }

    fn rect() -> impl Strategy<Value = Rect> {
        (0i32..300, 0i32..200, 1i32..60, 1i32..40).prop_map(|(x, y, w, h)| (x, y, x + w, y + h))
    }

    proptest! {
        /// Whatever is asked, the labels drawn stay inside the plot, never
        /// overlap each other or a reserved area, and a label not allowed to
        /// cross lines crosses none.
        #[test]
        fn placed_labels_are_disjoint_and_inside(
            taken in proptest::collection::vec(rect(), 0..4),
            lines in proptest::collection::vec(rect(), 0..6),
            asks in proptest::collection::vec(
                ("[a-z0-9 ]{1,16}", proptest::collection::vec(anchor(), 1..6), any::<bool>()),
                1..10,
            ),
        ) {
            let mut out = String::new();
            let root = SVGBackend::with_string(&mut out, (300, 200)).into_drawing_area();
            let mut labels = Labels::new(&root, &taken, &lines, 1.0);
            let style = text_style_scaled(12.0, RGBColor(0, 0, 0));
            let mut placed: Vec<(Rect, bool)> = Vec::new();
            for (text, raw, may_cross) in &asks {
                let spots = spots(raw);
                let drawn = if *may_cross {
                    labels.place_or_cross(text, &style, &spots).unwrap()
                } else {
                    labels.place(text, &style, &spots).unwrap()
                };
                if drawn {
                    placed.push((*labels.taken.last().unwrap(), *may_cross));
                }
            }
            for (i, (r, may_cross)) in placed.iter().enumerate() {
                prop_assert!(r.0 >= 0 && r.1 >= 0 && r.2 <= 300 && r.3 <= 200, "{r:?} leaves the plot");
                for t in &taken {
                    prop_assert!(!overlaps(*r, *t, 2), "{r:?} covers reserved {t:?}");
                }
                if !may_cross {
                    for l in &lines {
                        prop_assert!(!overlaps(*r, *l, 0), "{r:?} crosses line sample {l:?}");
                    }
                }
                for (other, _) in &placed[i + 1..] {
                    prop_assert!(!overlaps(*r, *other, 2), "{r:?} overlaps {other:?}");
                }
            }
        }
    }

    /// Labels asking for the same spot take the next free candidate, or are
    /// left out; the boxes drawn never overlap each other or the reserved
    /// area, and stay inside the plot.
    #[test]
    fn labels_never_overlap() {
        let mut out = String::new();
        {
            let root = SVGBackend::with_string(&mut out, (300, 200)).into_drawing_area();
            let reserved = [(200, 150, 300, 200)];
            let mut labels = Labels::new(&root, &reserved, &[], 1.0);
            let style = text_style_scaled(12.0, RGBColor(0, 0, 0));
            let spots = [
                ((10, 10), HPos::Left, VPos::Top),
                ((10, 40), HPos::Left, VPos::Top),
            ];
            assert!(labels.place("first label", &style, &spots).unwrap());
            assert!(labels.place("second label", &style, &spots).unwrap());
            assert!(
                !labels.place("third label", &style, &spots).unwrap(),
                "no room left"
            );
            assert!(
                !labels
                    .place(
                        "in the legend",
                        &style,
                        &[((210, 160), HPos::Left, VPos::Top)]
                    )
                    .unwrap(),
                "the reserved area stays free"
            );
            assert!(
                !labels
                    .place(
                        "off the edge",
                        &style,
                        &[((295, 10), HPos::Left, VPos::Top)]
                    )
                    .unwrap(),
                "a label that would leave the plot is not drawn"
            );
            let boxes = &labels.taken[1..];
            assert_eq!(boxes.len(), 2);
            let (a, b) = (boxes[0], boxes[1]);
            assert!(
                a.3 <= b.1 || b.3 <= a.1 || a.2 <= b.0 || b.2 <= a.0,
                "{a:?} {b:?}"
            );
        }
        assert!(out.contains("first label") && out.contains("second label"));

        // A line through the first spot: a plain label goes to the second
        // spot, or nowhere; a label that may cross lines takes the first.
        let mut out = String::new();
        {
            let root = SVGBackend::with_string(&mut out, (300, 200)).into_drawing_area();
            let line = polyline_obstacles(&[(0, 15), (300, 15)], 2, 6);
            let style = text_style_scaled(12.0, RGBColor(0, 0, 0));
            let first = [((10, 10), HPos::Left, VPos::Top)];
            let both = [
                ((10, 10), HPos::Left, VPos::Top),
                ((10, 60), HPos::Left, VPos::Top),
            ];
            let mut labels = Labels::new(&root, &[], &line, 1.0);
            assert!(!labels.place("blocked", &style, &first).unwrap());
            assert!(labels.place("moved", &style, &both).unwrap());
            assert_eq!(labels.taken.last().map(|r| r.1), Some(60));
            assert!(labels.place_or_cross("crossing", &style, &first).unwrap());
            assert_eq!(labels.taken.last().map(|r| r.1), Some(10));
        }
        assert!(!out.contains("blocked") && out.contains("moved") && out.contains("crossing"));
        assert!(!out.contains("third label") && !out.contains("off the edge"));
    }
}
