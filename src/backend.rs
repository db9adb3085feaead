//! One plotters backend type for the browser: the canvas or an SVG string.
//! Drawing through a single type instantiates each chart's drawing code
//! once instead of once per backend (a large part of the wasm size).

use plotters::prelude::IntoDrawingArea;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};
use plotters_canvas::CanvasBackend;
use plotters_svg::SVGBackend;

/// A backend error, as text.
#[derive(Debug)]
pub struct BackendError(String);

impl std::fmt::Display for BackendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BackendError {}

fn conv<E: std::error::Error + Send + Sync>(
    e: DrawingErrorKind<E>,
) -> DrawingErrorKind<BackendError> {
    match e {
        DrawingErrorKind::DrawingError(e) => {
            DrawingErrorKind::DrawingError(BackendError(e.to_string()))
        }
        DrawingErrorKind::FontError(e) => DrawingErrorKind::FontError(e),
    }
}

/// The canvas or an SVG string.
pub enum EitherBackend<'a> {
    /// An HTML canvas.
    Canvas(CanvasBackend),
    /// An SVG document written into a string.
    Svg(SVGBackend<'a>),
}

macro_rules! delegate {
    ($self:ident, $b:ident => $e:expr) => {
        match $self {
            EitherBackend::Canvas($b) => $e.map_err(conv),
            EitherBackend::Svg($b) => $e.map_err(conv),
        }
    };
}

impl DrawingBackend for EitherBackend<'_> {
    type ErrorType = BackendError;

    fn get_size(&self) -> (u32, u32) {
        match self {
            EitherBackend::Canvas(b) => b.get_size(),
            EitherBackend::Svg(b) => b.get_size(),
        }
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<BackendError>> {
        delegate!(self, b => b.ensure_prepared())
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<BackendError>> {
        delegate!(self, b => b.present())
    }

    fn draw_pixel(
        &mut self,
        p: BackendCoord,
        c: BackendColor,
    ) -> Result<(), DrawingErrorKind<BackendError>> {
        delegate!(self, b => b.draw_pixel(p, c))
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<BackendError>> {
        delegate!(self, b => b.draw_line(from, to, style))
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        ul: BackendCoord,
        br: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<BackendError>> {
        delegate!(self, b => b.draw_rect(ul, br, style, fill))
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<BackendError>> {
        delegate!(self, b => b.draw_path(path, style))
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<BackendError>> {
        delegate!(self, b => b.draw_circle(center, radius, style, fill))
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<BackendError>> {
        delegate!(self, b => b.fill_polygon(vert, style))
    }

    fn draw_text<T: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &T,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<BackendError>> {
        delegate!(self, b => b.draw_text(text, style, pos))
    }

    fn estimate_text_size<T: BackendTextStyle>(
        &self,
        text: &str,
        style: &T,
    ) -> Result<(u32, u32), DrawingErrorKind<BackendError>> {
        // plotters' web font measures each label with a temporary <span>,
        // forcing a layout of the whole page per label; a 2D context's
        // measureText gives the width without touching layout.
        if let Some((w, h)) = measure(text, style) {
            return Ok((w, h));
        }
        delegate!(self, b => b.estimate_text_size(text, style))
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<BackendError>> {
        delegate!(self, b => b.blit_bitmap(pos, size, src))
    }
}

/// A drawing area on [`EitherBackend`].
pub type Area<'a> = plotters::drawing::DrawingArea<EitherBackend<'a>, plotters::coord::Shift>;

/// Renders `draw` into an SVG document of `width` × `height` pixels.
pub fn to_svg<F>(width: u32, height: u32, draw: F) -> Result<String, String>
where
    F: FnOnce(&Area<'_>) -> Result<(), String>,
{
    let mut out = String::new();
    {
        let root = EitherBackend::Svg(SVGBackend::with_string(&mut out, (width, height)))
            .into_drawing_area();
        draw(&root)?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(out)
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
