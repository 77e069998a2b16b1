//! Browser tests: the real components mounted in headless Chromium, driven through the DOM,
//! checked on DOM text and canvas pixels.
#![cfg(target_arch = "wasm32")]

use pe_lab::encoding::{Layout, Sinusoid};
use pe_lab::render::colormap::ColorMap;
use pe_lab::state::AppState;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, HtmlElement, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

/// Lets the app settle: charts paint in animation frames (off-screen ones once the controls
/// rest) and the URL is written after the frame, so wait until `__peLab.pending` is 0.
async fn tick() {
    sleep(30).await;
    for _ in 0..300 {
        let pending = js_sys::Reflect::get(&web_sys::window().unwrap(), &"__peLab".into())
            .ok()
            .and_then(|r| js_sys::Reflect::get(&r, &"pending".into()).ok())
            .and_then(|v| v.as_f64())
            .unwrap_or(0.0);
        if pending == 0.0 {
            return;
        }
        sleep(16).await;
    }
}

/// Mounts the app for `query` into a fresh container and returns it.
fn mount(query: &str) -> HtmlElement {
    let host: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    host.style().set_property("width", "900px").unwrap();
    document().body().unwrap().append_child(&host).unwrap();
    let (state, notices) = AppState::from_query(query);
    let handle = leptos::mount::mount_to(host.clone(), move || {
        pe_lab::shell::mount_state(state, notices)
    });
    handle.forget();
    host
}

fn canvas_in(host: &HtmlElement, panel: &str) -> HtmlCanvasElement {
    host.query_selector(&format!("[data-panel='{panel}'] canvas"))
        .unwrap()
        .expect("canvas")
        .unchecked_into()
}

fn plot_rect(canvas: &HtmlCanvasElement) -> [f64; 4] {
    let attr = canvas.get_attribute("data-plot").expect("painted");
    let v: Vec<f64> = attr.split(',').map(|x| x.parse().unwrap()).collect();
    [v[0], v[1], v[2], v[3]]
}

fn pixel(canvas: &HtmlCanvasElement, x: f64, y: f64) -> [u8; 3] {
    let ctx: CanvasRenderingContext2d = canvas.get_context("2d").unwrap().unwrap().unchecked_into();
    let data = ctx.get_image_data(x, y, 1.0, 1.0).unwrap().data();
    [data[0], data[1], data[2]]
}

#[wasm_bindgen_test]
async fn heatmap_cells_have_the_colour_of_their_value() {
    let host = mount("?seq_len=16&d_model=8&base=100");
    tick().await;
    let canvas = canvas_in(&host, "pe-heatmap");
    let [x0, y0, x1, y1] = plot_rect(&canvas);
    let pe = Sinusoid::new(8, 100.0, Layout::Interleaved);
    let cmap = ColorMap::diverging();
    for (pos, col) in [(0, 0), (0, 1), (3, 2), (15, 7), (9, 4)] {
        let x = x0 + (col as f64 + 0.5) / 8.0 * (x1 - x0);
        let y = y0 + (pos as f64 + 0.5) / 16.0 * (y1 - y0);
        let want = cmap.at_value(pe.value(pos, col), -1.0, 1.0);
        assert_eq!(pixel(&canvas, x, y), want, "cell pos {pos} col {col}");
    }
    host.remove();
}

#[wasm_bindgen_test]
async fn slider_input_repaints_and_updates_state() {
    let host = mount("?seq_len=32&d_model=16");
    tick().await;
    let canvas = canvas_in(&host, "pe-heatmap");
    let before = canvas.to_data_url().unwrap();
    let slider: HtmlInputElement = host
        .query_selector("#ctl-base")
        .unwrap()
        .unwrap()
        .unchecked_into();
    slider.set_value("1");
    slider
        .dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    tick().await;
    assert_ne!(canvas.to_data_url().unwrap(), before);
    let number: HtmlInputElement = host
        .query_selector("[data-control='base'] .num")
        .unwrap()
        .unwrap()
        .unchecked_into();
    assert_eq!(number.value(), "10");
    assert!(web_sys::window()
        .unwrap()
        .location()
        .search()
        .unwrap()
        .contains("base=10&"));
    host.remove();
}

#[wasm_bindgen_test]
async fn number_box_clamps_with_a_message_and_refuses_garbage() {
    let host = mount("?seq_len=32&d_model=16");
    tick().await;
    let number: HtmlInputElement = host
        .query_selector("[data-control='seq_len'] .num")
        .unwrap()
        .unwrap()
        .unchecked_into();
    let change = || web_sys::Event::new("change").unwrap();
    number.set_value("99999");
    number.dispatch_event(&change()).unwrap();
    tick().await;
    let msg = host
        .query_selector("[data-control='seq_len'] .control-msg")
        .unwrap()
        .unwrap();
    assert!(
        msg.text_content().unwrap().contains("8192"),
        "{:?}",
        msg.text_content()
    );
    assert_eq!(number.value(), "8192");

    number.set_value("lots");
    number.dispatch_event(&change()).unwrap();
    tick().await;
    assert!(msg.text_content().unwrap().contains("not a number"));
    assert_eq!(number.value(), "8192", "the last good value stays");
    host.remove();
}

#[wasm_bindgen_test]
async fn notices_list_what_the_url_adjusted() {
    let host = mount("?seq_len=0&layout=spiral");
    tick().await;
    let text = host
        .query_selector(".notices")
        .unwrap()
        .expect("notice shown")
        .text_content()
        .unwrap();
    assert!(
        text.contains("seq_len") && text.contains("layout"),
        "{text}"
    );
    host.remove();
}

/// A 200 × 100 canvas outside the page, for drawing on the chart backend directly.
fn blank_canvas() -> HtmlCanvasElement {
    let canvas: HtmlCanvasElement = document()
        .create_element("canvas")
        .unwrap()
        .unchecked_into();
    canvas.set_width(200);
    canvas.set_height(100);
    canvas
}

/// The chart backend fills dense bands in memory and strokes grid lines in batches: what is
/// drawn still lands in drawing order, a line before a band under it, a line after it on top.
#[wasm_bindgen_test]
fn bands_and_batched_lines_keep_their_drawing_order() {
    use pe_lab::ui::canvas::Canvas2d;
    use plotters::prelude::{DrawingBackend, BLACK, BLUE, RED, WHITE};

    let canvas = blank_canvas();
    let mut backend = Canvas2d::new(canvas.clone()).expect("a 2D context");
    backend.draw_rect((0, 0), (200, 100), &WHITE, true).unwrap();
    backend.draw_line((0, 50), (199, 50), &BLACK).unwrap();
    // A band of 100 columns from y = 20 to y = 80: 200 vertices, filled in memory.
    let upper = (10..110).map(|x| (x, 20));
    let lower = (10..110).rev().map(|x| (x, 80));
    backend.fill_polygon(upper.chain(lower), &RED).unwrap();
    backend.draw_line((0, 60), (199, 60), &BLUE).unwrap();
    drop(backend);
    // Lines sit on pixel centres: the line at y = 50 fills row 49.
    assert_eq!(
        pixel(&canvas, 150.0, 49.0),
        [0, 0, 0],
        "line outside the band"
    );
    assert_eq!(
        pixel(&canvas, 50.0, 49.0),
        [255, 0, 0],
        "the band covers the line before it"
    );
    assert_eq!(pixel(&canvas, 50.0, 30.0), [255, 0, 0], "inside the band");
    assert_eq!(
        pixel(&canvas, 50.0, 59.0),
        [0, 0, 255],
        "the line after the band is on top"
    );
    assert_eq!(
        pixel(&canvas, 50.0, 10.0),
        [255, 255, 255],
        "above the band"
    );
    assert_eq!(
        pixel(&canvas, 115.0, 30.0),
        [255, 255, 255],
        "right of the band"
    );
    // Its edges are exact: vertices are pixel corners, so the band from x = 10 to x = 109
    // covers columns 10 ..= 108 and rows 20 ..= 79.
    assert_eq!(pixel(&canvas, 108.0, 79.0), [255, 0, 0]);
    assert_eq!(pixel(&canvas, 109.0, 79.0), [255, 255, 255]);
    assert_eq!(pixel(&canvas, 50.0, 80.0), [255, 255, 255]);
}

/// Point markers (small circles) are drawn in memory with the bands and keep their drawing
/// order with the canvas's other calls; a large circle is stroked by the canvas.
#[wasm_bindgen_test]
fn markers_are_drawn_in_order_and_large_circles_by_the_canvas() {
    use pe_lab::ui::canvas::Canvas2d;
    use plotters::prelude::{DrawingBackend, BLACK, BLUE, GREEN, RED, WHITE};
    use plotters::style::Color;

    let canvas = blank_canvas();
    let mut backend = Canvas2d::new(canvas.clone()).expect("a 2D context");
    backend.draw_rect((0, 0), (200, 100), &WHITE, true).unwrap();
    // A ring of radius 6, 2 px wide, around the pixel corner (50, 50).
    backend
        .draw_circle((50, 50), 6, &RED.stroke_width(2), false)
        .unwrap();
    // A disc, then a line over it along row 50.
    backend.draw_circle((150, 50), 5, &BLUE, true).unwrap();
    backend.draw_line((140, 51), (160, 51), &BLACK).unwrap();
    // A clock face: stroked by the canvas.
    backend
        .draw_circle((100, 50), 30, &GREEN.stroke_width(2), false)
        .unwrap();
    drop(backend);
    assert_eq!(pixel(&canvas, 55.0, 49.0), [255, 0, 0], "on the ring");
    assert_eq!(
        pixel(&canvas, 50.0, 50.0),
        [255, 255, 255],
        "inside the ring"
    );
    assert_eq!(pixel(&canvas, 150.0, 48.0), [0, 0, 255], "the disc");
    assert_eq!(
        pixel(&canvas, 150.0, 50.0),
        [0, 0, 0],
        "the line over the disc"
    );
    let [r, g, b] = pixel(&canvas, 130.0, 49.0);
    assert!(g > r + 50 && g > b + 50, "the large circle: {r},{g},{b}");
}

/// Labels and filled rectangles are batched too: a label drawn before a rectangle is under
/// it, one drawn after is on top, and a one-pixel segment (an axis, a tick) is a line.
#[wasm_bindgen_test]
fn batched_labels_and_rectangles_keep_their_drawing_order() {
    use pe_lab::ui::canvas::Canvas2d;
    use plotters::prelude::{DrawingBackend, IntoFont, BLACK, GREEN, RED, WHITE};
    use plotters::style::Color;

    let canvas = blank_canvas();
    let dark = |canvas: &HtmlCanvasElement, x0: f64, x1: f64| {
        (x0 as i32..x1 as i32)
            .flat_map(|x| (0..85).map(move |y| (x, y)))
            .filter(|&(x, y)| pixel(canvas, f64::from(x), f64::from(y))[0] < 100)
            .count()
    };
    let font = ("sans-serif", 40).into_font().color(&BLACK);
    let mut backend = Canvas2d::new(canvas.clone()).expect("a 2D context");
    backend.draw_rect((0, 0), (200, 100), &WHITE, true).unwrap();
    // Left: a label, then a rectangle over it.
    backend.draw_text("MM", &font, (5, 30)).unwrap();
    backend
        .draw_rect((0, 0), (100, 100), &RED.to_rgba(), true)
        .unwrap();
    // Right: a rectangle, then a label on it.
    backend
        .draw_rect((100, 0), (200, 100), &GREEN.to_rgba(), true)
        .unwrap();
    backend.draw_text("MM", &font, (105, 30)).unwrap();
    // A one-pixel segment along row 90.
    backend
        .draw_path([(0, 90), (199, 90)], &BLACK.stroke_width(1))
        .unwrap();
    let size = backend.estimate_text_size("MM", &font).unwrap();
    assert!(size.0 > 20 && size.1 > 20, "{size:?}");
    assert_eq!(
        backend.estimate_text_size("MM", &font).unwrap(),
        size,
        "measured again, from memory"
    );
    drop(backend);
    assert_eq!(
        dark(&canvas, 0.0, 100.0),
        0,
        "the label is under the rectangle"
    );
    assert!(
        dark(&canvas, 100.0, 200.0) > 50,
        "the label is on the rectangle"
    );
    assert_eq!(pixel(&canvas, 50.0, 5.0), [255, 0, 0]);
    assert_ne!(
        pixel(&canvas, 50.0, 90.0),
        [255, 0, 0],
        "the segment is drawn"
    );
}
