//! The roofline chart as SVG, drawn by `roofline-charts` from the same spec
//! the app draws on its canvas, at the wide layout's 16:10 (on a phone's
//! 4:3.6 box, `style/main.css`, it is scaled to fit). The drawings are the
//! light scheme's; the dark scheme's colours are a stylesheet that maps
//! each light colour to its dark one ([`dark_style`]).

use roofline_charts::{draw_roofline, to_svg, RooflineChart, Theme};

/// A drawing's size in CSS pixels: the canvas's at a 1280 px wide window
/// (16:10). A phone's 4:3.6 box shows the same drawing, scaled to fit,
/// until the app draws its own: a second drawing was 1.6 KB of the page,
/// which the first load's 180 KB had no room for.
pub const SIZES: [(&str, u32, u32); 1] = [("wide", 806, 504)];

/// Every drawing of `spec`, each an `<svg>` with the classes `pre-chart`
/// and its layout, scaled to the width of its box, then a `<style>` that
/// gives them the dark scheme's colours where that scheme is on.
pub fn drawings(spec: &RooflineChart) -> Result<String, String> {
    let mut out = String::new();
    let mut pairs = Vec::new();
    for (layout, w, h) in SIZES {
        let draw = |theme: &Theme| {
            to_svg(w, h, |root| {
                draw_roofline(root, spec, theme, 1.0).map(|_| ())
            })
        };
        let (light, dark) = (draw(&Theme::light())?, draw(&Theme::dark())?);
        colour_pairs(&light, &dark, &mut pairs)?;
        out.push_str(&fitted(&merged(&light), &format!("pre-chart {layout}"))?);
    }
    out.push_str(&dark_style(&pairs));
    Ok(out)
}

/// Adds to `pairs` each (attribute, light colour, dark colour) of two
/// drawings that differ only in their colours; an error if they differ
/// otherwise, or if one light colour would need two dark ones.
fn colour_pairs(
    light: &str,
    dark: &str,
    pairs: &mut Vec<(String, String, String)>,
) -> Result<(), String> {
    let (l, d) = (colours(light), colours(dark));
    if l.len() != d.len() || strip(light) != strip(dark) {
        return Err("the light and dark drawings differ in more than colour".into());
    }
    for ((attr, lc), (_, dc)) in l.into_iter().zip(d) {
        match pairs.iter().find(|(a, c, _)| *a == attr && *c == lc) {
            Some((_, _, known)) if *known != dc => {
                return Err(format!("{attr}={lc} is two dark colours, {known} and {dc}"));
            }
            Some(_) => {}
            None => pairs.push((attr, lc, dc)),
        }
    }
    Ok(())
}

/// Every `fill="#RRGGBB"` and `stroke="#RRGGBB"` of `svg`, in order.
fn colours(svg: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for attr in ["fill", "stroke"] {
        let key = format!(" {attr}=\"#");
        let mut rest = svg;
        while let Some(at) = rest.find(&key) {
            let from = at + key.len() - 1;
            let colour = rest.get(from..from + 7).unwrap_or_default();
            out.push((
                at + svg.len() - rest.len(),
                attr.to_string(),
                colour.to_string(),
            ));
            rest = &rest[from..];
        }
    }
    out.sort_by_key(|(at, _, _)| *at);
    out.into_iter().map(|(_, a, c)| (a, c)).collect()
}

/// `svg` with every colour blanked, to compare two drawings' shapes.
fn strip(svg: &str) -> String {
    let mut out = String::with_capacity(svg.len());
    let mut chars = svg.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '#'
            && svg[i..].len() > 7
            && svg[i + 1..i + 7].chars().all(|h| h.is_ascii_hexdigit())
        {
            for _ in 0..6 {
                chars.next();
            }
            out.push('#');
        } else {
            out.push(c);
        }
    }
    out
}

/// A stylesheet that recolours the drawings for the dark scheme: a rule
/// per light colour, which a CSS property wins over (an SVG attribute is
/// the weakest of styles).
fn dark_style(pairs: &[(String, String, String)]) -> String {
    let rules: String = pairs
        .iter()
        .filter(|(_, l, d)| l != d)
        .map(|(a, l, d)| format!(".pre-chart [{a}=\"{l}\"]{{{a}:{d}}}"))
        .collect();
    format!("<style>@media (prefers-color-scheme: dark){{{rules}}}</style>")
}

/// `svg` with each run of `<polyline>`s of the same style (a dashed line
/// is one per dash) drawn as one `<path>` of as many pieces: the same
/// picture, painted in the same order.
fn merged(svg: &str) -> String {
    let mut out = String::with_capacity(svg.len());
    let mut run: Option<(String, String)> = None;
    let flush = |run: &mut Option<(String, String)>, out: &mut String| {
        if let Some((style, d)) = run.take() {
            out.push_str(&format!("<path{style} d=\"{}\"/>\n", d.trim_end()));
        }
    };
    for line in svg.lines() {
        let piece = line
            .strip_prefix("<polyline")
            .and_then(|l| l.strip_suffix("\"/>"))
            .and_then(|l| l.split_once(" points=\""));
        match piece {
            Some((style, points)) => {
                let mut d = String::new();
                for (i, p) in points.split_whitespace().enumerate() {
                    d.push(if i == 0 { 'M' } else { 'L' });
                    d.push_str(&p.replace(',', " "));
                }
                match &mut run {
                    Some((s, all)) if s == style => all.push_str(&d),
                    _ => {
                        flush(&mut run, &mut out);
                        run = Some((style.to_string(), d));
                    }
                }
            }
            None => {
                flush(&mut run, &mut out);
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    flush(&mut run, &mut out);
    out
}

/// `svg` with its fixed width and height taken off (its `viewBox` keeps
/// the proportions), hidden from assistive technology (the figure's label
/// describes it) and given `class`.
fn fitted(svg: &str, class: &str) -> Result<String, String> {
    let start = svg
        .find("<svg")
        .ok_or("the chart's SVG has no <svg> element")?;
    let end = start
        + svg[start..]
            .find('>')
            .ok_or("the chart's <svg> is not closed")?;
    let open = &svg[start..end];
    let view_box = attribute(open, "viewBox").ok_or("the chart's <svg> has no viewBox")?;
    Ok(format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"{view_box}\" class=\"{class}\" aria-hidden=\"true\" focusable=\"false\">{}",
        &svg[end + 1..]
    ))
}

/// The value of attribute `name` in the opening tag `tag`.
fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    let len = tag[at..].find('"')?;
    Some(&tag[at..at + len])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_drawing_keeps_its_view_box_and_drops_its_fixed_size() {
        let svg = "<?xml?>\n<svg width=\"806\" height=\"504\" viewBox=\"0 0 806 504\" xmlns=\"x\">\n<rect/></svg>";
        let out = fitted(svg, "pre-chart wide").unwrap_or_default();
        assert!(out.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 806 504\" class=\"pre-chart wide\""));
        assert!(!out.contains("width=\"806\""));
        assert!(out.ends_with("<rect/></svg>"));
    }

    #[test]
    fn a_run_of_polylines_of_one_style_is_one_path() {
        let svg = "<rect/>\n<polyline fill=\"none\" stroke=\"#000000\" points=\"1,2 3,4 \"/>\n<polyline fill=\"none\" stroke=\"#000000\" points=\"5,6 7,8 \"/>\n<polyline fill=\"none\" stroke=\"#FF0000\" points=\"0,0 1,1 \"/>\n<text/>\n";
        assert_eq!(
            merged(svg),
            "<rect/>\n<path fill=\"none\" stroke=\"#000000\" d=\"M1 2L3 4M5 6L7 8\"/>\n<path fill=\"none\" stroke=\"#FF0000\" d=\"M0 0L1 1\"/>\n<text/>\n"
        );
    }

    #[test]
    fn the_dark_scheme_maps_each_light_colour() {
        let mut pairs = Vec::new();
        let light = "<rect fill=\"#FFFFFF\"/><line stroke=\"#111111\"/><text fill=\"#111111\"/>";
        let dark = "<rect fill=\"#000000\"/><line stroke=\"#EEEEEE\"/><text fill=\"#EEEEEE\"/>";
        assert_eq!(colour_pairs(light, dark, &mut pairs), Ok(()));
        assert_eq!(
            dark_style(&pairs),
            "<style>@media (prefers-color-scheme: dark){.pre-chart [fill=\"#FFFFFF\"]{fill:#000000}.pre-chart [stroke=\"#111111\"]{stroke:#EEEEEE}.pre-chart [fill=\"#111111\"]{fill:#EEEEEE}}</style>"
        );
        // One light colour that would need two dark ones, or another shape.
        let (one, two) = (
            "<a fill=\"#111111\"/><b fill=\"#111111\"/>",
            "<a fill=\"#000000\"/><b fill=\"#FFFFFF\"/>",
        );
        assert!(colour_pairs(one, two, &mut Vec::new()).is_err());
        assert!(colour_pairs(light, "<rect/>", &mut Vec::new()).is_err());
    }

    #[test]
    fn an_svg_without_a_view_box_is_an_error() {
        assert!(fitted("<svg width=\"1\">", "x").is_err());
    }
}
