//! Colours for the light and dark schemes.

use plotters::style::RGBColor;

/// The colours a chart is drawn with.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Theme {
    /// Background fill.
    pub background: RGBColor,
    /// Axis labels, titles and tick labels.
    pub text: RGBColor,
    /// Axes.
    pub axis: RGBColor,
    /// Grid lines.
    pub grid: RGBColor,
    /// The flat roof at the peak.
    pub roof: RGBColor,
    /// The first and second memory bandwidth lines, and the network link's.
    pub lines: [RGBColor; 3],
    /// The third and later bandwidth lines (the last repeats beyond them).
    pub more_lines: [RGBColor; 3],
    /// The current operation's marker.
    pub marker: RGBColor,
    /// Fills of the bandwidth-bound, in-between and compute-bound regions.
    pub regions: [RGBColor; 3],
    /// Opacity of the region fills.
    pub region_alpha: f64,
}

impl Theme {
    /// The opaque colour region `i` (0 bandwidth-bound, 1 in between, 2
    /// compute-bound) is filled with: its hue laid over the background.
    pub fn region_fill(&self, i: usize) -> RGBColor {
        let c = self.regions[i.min(2)];
        let (bg, a) = (self.background, self.region_alpha);
        let mix = |b: u8, f: u8| (f64::from(b) * (1.0 - a) + f64::from(f) * a).round() as u8;
        RGBColor(mix(bg.0, c.0), mix(bg.1, c.1), mix(bg.2, c.2))
    }

    /// Dark text on white.
    pub fn light() -> Theme {
        LIGHT
    }

    /// Light text on a dark background.
    pub fn dark() -> Theme {
        DARK
    }
}

/// [`Theme::light`]'s colours. Statics, so that a theme is copied from
/// memory rather than written field by field (less code).
static LIGHT: Theme = Theme {
    background: RGBColor(255, 255, 255),
    text: RGBColor(31, 35, 40),
    axis: RGBColor(87, 96, 106),
    grid: RGBColor(226, 230, 234),
    roof: RGBColor(87, 96, 106),
    lines: [
        RGBColor(9, 105, 218),
        RGBColor(191, 72, 0),
        RGBColor(17, 128, 120),
    ],
    more_lines: [
        RGBColor(191, 57, 137),
        RGBColor(102, 117, 0),
        RGBColor(95, 99, 104),
    ],
    marker: RGBColor(130, 80, 223),
    regions: [
        RGBColor(255, 129, 130),
        RGBColor(250, 200, 80),
        RGBColor(74, 194, 107),
    ],
    region_alpha: 0.12,
};

/// [`Theme::dark`]'s colours.
static DARK: Theme = Theme {
    background: RGBColor(22, 27, 34),
    text: RGBColor(230, 237, 243),
    axis: RGBColor(139, 148, 158),
    grid: RGBColor(48, 54, 61),
    roof: RGBColor(139, 148, 158),
    lines: [
        RGBColor(88, 166, 255),
        RGBColor(255, 166, 87),
        RGBColor(64, 200, 185),
    ],
    more_lines: [
        RGBColor(255, 128, 200),
        RGBColor(190, 215, 90),
        RGBColor(175, 180, 190),
    ],
    marker: RGBColor(210, 168, 255),
    regions: [
        RGBColor(248, 81, 73),
        RGBColor(210, 153, 34),
        RGBColor(63, 185, 80),
    ],
    region_alpha: 0.16,
};
