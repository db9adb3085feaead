//! Saving a file from the page: a data URL clicked through a temporary link.

use wasm_bindgen::JsCast;
use web_sys::HtmlAnchorElement;

/// A `data:` URL holding `text` with the given MIME type.
pub fn data_url(mime: &str, text: &str) -> String {
    let encoded: String = js_sys::encode_uri_component(text).into();
    format!("data:{mime};charset=utf-8,{encoded}")
}

/// Starts a download of `href` as `filename`.
pub fn download(filename: &str, href: &str) -> Result<(), String> {
    let doc = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let a: HtmlAnchorElement = doc
        .create_element("a")
        .map_err(|_| "could not create a link")?
        .dyn_into()
        .map_err(|_| "could not create a link")?;
    a.set_href(href);
    a.set_download(filename);
    a.click();
    Ok(())
}

/// Saves what `canvas` shows as a PNG named `filename`.
pub fn save_png(canvas: &web_sys::HtmlCanvasElement, filename: &str) -> Result<(), String> {
    let url = canvas
        .to_data_url_with_type("image/png")
        .map_err(|_| "the browser could not encode the chart as PNG".to_string())?;
    download(filename, &url)
}

/// Saves an SVG document (or reports why it could not be drawn).
pub fn save_svg(filename: &str, svg: Result<String, String>) -> Result<(), String> {
    download(filename, &data_url("image/svg+xml", &svg?))
}
