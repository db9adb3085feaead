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
