//! The plotters backend wrapper both chart backends go through: it measures
//! text with a canvas 2D context's `measureText`.
//!
//! The page draws on `Measured<CanvasBackend>` only. SVG export draws on
//! `Measured<SVGBackend>` in a chunk of its own (`src/chunks/svg/`), so the
//! chart code instantiated for SVG stays out of the first load.

use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};
use plotters_canvas::CanvasBackend;

/// `B`, except that text is measured on an off-screen canvas.
pub struct Measured<B>(pub B);

/// A drawing area on the page's canvas backend.
pub type Area = plotters::drawing::DrawingArea<Measured<CanvasBackend>, plotters::coord::Shift>;

impl<B: DrawingBackend> DrawingBackend for Measured<B> {
    type ErrorType = B::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.0.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.0.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.0.present()
    }

    fn draw_pixel(
        &mut self,
        p: BackendCoord,
        c: BackendColor,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.0.draw_pixel(p, c)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.0.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        ul: BackendCoord,
        br: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.0.draw_rect(ul, br, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.0.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.0.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.0.fill_polygon(vert, style)
    }

    fn draw_text<T: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &T,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.0.draw_text(text, style, pos)
    }

    fn estimate_text_size<T: BackendTextStyle>(
        &self,
        text: &str,
        style: &T,
    ) -> Result<(u32, u32), DrawingErrorKind<B::ErrorType>> {
        // plotters' web font measures each label with a temporary <span>,
        // forcing a layout of the whole page per label; a 2D context's
        // measureText gives the width without touching layout. The SVG
        // export measures the same way, so its labels sit where the
        // page's do.
        Ok(measure(text, style).unwrap_or_else(|| estimate(text, style.size())))
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.0.blit_bitmap(pos, size, src)
    }
}

thread_local! {
    static MEASURE: Option<web_sys::CanvasRenderingContext2d> = measuring_context();
}

fn measuring_context() -> Option<web_sys::CanvasRenderingContext2d> {
    use wasm_bindgen::JsCast;
    let canvas = web_sys::window()?
        .document()?
        .create_element("canvas")
        .ok()?;
    let canvas: web_sys::HtmlCanvasElement = canvas.dyn_into().ok()?;
    canvas.get_context("2d").ok()??.dyn_into().ok()
}

/// A rough size of `text` at `size` px, for a browser that gives no 2D
/// context to measure with: about 0.6 em per character. (plotters' own
/// fallback would lay out a `<span>` per label, see `estimate_text_size`.)
fn estimate(text: &str, size: f64) -> (u32, u32) {
    let chars = text.chars().count() as f64;
    (
        (chars * size * 0.6).ceil() as u32,
        (size * 1.15).ceil() as u32,
    )
}

/// Width and height of `text` in `style`, measured on an off-screen canvas.
fn measure<T: BackendTextStyle>(text: &str, style: &T) -> Option<(u32, u32)> {
    let size = style.size();
    let font = format!(
        "{} {}px {}",
        style.style().as_str(),
        size,
        style.family().as_str()
    );
    MEASURE.with(|ctx| {
        let ctx = ctx.as_ref()?;
        ctx.set_font(&font);
        let width = ctx.measure_text(text).ok()?.width();
        width
            .is_finite()
            .then(|| (width.ceil() as u32, (size * 1.15).ceil() as u32))
    })
}

#[cfg(test)]
mod tests {
    use super::estimate;

    #[test]
    fn the_rough_size_grows_with_the_text_and_the_font() {
        assert_eq!(estimate("", 12.0), (0, 14));
        assert_eq!(estimate("1e14", 10.0), (24, 12));
        let (w, h) = estimate("Attained throughput (FLOP/s)", 13.0);
        assert!(w > estimate("FLOP/s", 13.0).0 && h == 15, "{w} {h}");
        assert!(
            estimate("µs", 12.0).0 == estimate("ms", 12.0).0,
            "counts characters, not bytes"
        );
    }
}
