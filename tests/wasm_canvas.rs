//! The roofline chart drawn on a real canvas in headless Chromium through
//! plotters-canvas: pixels appear, and a different chip draws differently.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;
use roofline_charts::{draw_roofline, roofline_for_chip, Theme};
use roofline_core::{hardware::preset, DType, LevelKind};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

wasm_bindgen_test_configure!(run_in_browser);

fn canvas() -> HtmlCanvasElement {
    let doc = web_sys::window().unwrap().document().unwrap();
    let c: HtmlCanvasElement = doc.create_element("canvas").unwrap().dyn_into().unwrap();
    c.set_width(640);
    c.set_height(400);
    doc.body().unwrap().append_child(&c).unwrap();
    c
}

fn pixels(c: &HtmlCanvasElement) -> Vec<u8> {
    let ctx: CanvasRenderingContext2d = c.get_context("2d").unwrap().unwrap().dyn_into().unwrap();
    ctx.get_image_data(0.0, 0.0, 640.0, 400.0).unwrap().data().0
}

fn draw(chip: &str) -> Vec<u8> {
    let c = canvas();
    let spec =
        roofline_for_chip(&preset(chip).unwrap(), DType::Bf16, &[LevelKind::Hbm], None).unwrap();
    let root = CanvasBackend::with_canvas_object(c.clone())
        .unwrap()
        .into_drawing_area();
    let frame = draw_roofline(&root, &spec, &Theme::light(), 1.0).unwrap();
    assert!(frame.x_px.1 > frame.x_px.0 && frame.y_px.1 > frame.y_px.0);
    pixels(&c)
}

#[wasm_bindgen_test]
fn chart_draws_pixels_and_depends_on_the_chip() {
    let v5e = draw("v5e");
    let distinct: std::collections::HashSet<[u8; 4]> = v5e
        .chunks_exact(4)
        .map(|p| [p[0], p[1], p[2], p[3]])
        .collect();
    assert!(
        distinct.len() > 10,
        "canvas is not blank: {} colours",
        distinct.len()
    );
    let h100 = draw("h100");
    assert_ne!(v5e, h100, "another chip draws another picture");
}
