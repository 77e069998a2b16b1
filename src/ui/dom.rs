//! Small browser helpers: the URL, downloads, the clipboard, theme queries and paint marks.
//! Every call tolerates a missing API and reports failure instead of panicking.

use wasm_bindgen::{JsCast, JsValue};

pub fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

/// The current query string, with its `?`.
pub fn location_search() -> String {
    window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default()
}

/// Replaces the query string without a new history entry (what sliders do while moving). The
/// fragment stays: a shared lesson travels in it (`state::lesson_link`).
pub fn replace_query(query: &str) {
    let Some(w) = window() else { return };
    let Ok(history) = w.history() else { return };
    let location = w.location();
    let path = location.pathname().unwrap_or_default();
    let hash = location.hash().unwrap_or_default();
    let url = format!("{path}?{query}{hash}");
    let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
}

pub fn device_pixel_ratio() -> f64 {
    window()
        .map(|w| w.device_pixel_ratio())
        .filter(|r| r.is_finite() && *r > 0.0)
        .unwrap_or(1.0)
        .min(4.0)
}

pub fn now_ms() -> f64 {
    window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

/// Whether a media query matches (false when it cannot be asked).
pub fn media_matches(query: &str) -> bool {
    window()
        .and_then(|w| w.match_media(query).ok().flatten())
        .is_some_and(|m| m.matches())
}

/// Records that a chart finished painting: `window.__peLab = {paints, firstPaintMs,
/// lastPaintMs, memoryBytes, coarsePaints}` (milliseconds since navigation; the wasm
/// memory's size; how many paints were `reduced`: a coarser raster or quick data, refined
/// once the controls rest), read by the benchmark and the end-to-end tests.
pub fn mark_painted(reduced: bool) {
    let Some(record) = pe_lab_record() else {
        return;
    };
    if reduced {
        let n = js_sys::Reflect::get(&record, &"coarsePaints".into())
            .ok()
            .and_then(|v| v.as_f64())
            .unwrap_or(0.0);
        let _ = js_sys::Reflect::set(&record, &"coarsePaints".into(), &(n + 1.0).into());
    }
    let paints = js_sys::Reflect::get(&record, &"paints".into())
        .ok()
        .and_then(|v| v.as_f64())
        .unwrap_or(0.0);
    if paints == 0.0 {
        let _ = js_sys::Reflect::set(&record, &"firstPaintMs".into(), &now_ms().into());
    }
    let _ = js_sys::Reflect::set(&record, &"paints".into(), &(paints + 1.0).into());
    let _ = js_sys::Reflect::set(&record, &"lastPaintMs".into(), &now_ms().into());
    let memory = js_sys::Reflect::get(&wasm_bindgen::memory(), &"buffer".into())
        .and_then(|b| js_sys::Reflect::get(&b, &"byteLength".into()))
        .unwrap_or(JsValue::NULL);
    let _ = js_sys::Reflect::set(&record, &"memoryBytes".into(), &memory);
}

/// Sets `window.__peLab[key]` (read by the benchmark and the end-to-end specs).
pub fn set_record(key: &str, value: f64) {
    if let Some(record) = pe_lab_record() {
        let _ = js_sys::Reflect::set(&record, &key.into(), &value.into());
    }
}

/// `window.__peLab`, created on first use.
fn pe_lab_record() -> Option<JsValue> {
    let w = window()?;
    let key = JsValue::from_str("__peLab");
    Some(
        js_sys::Reflect::get(&w, &key)
            .ok()
            .filter(|v| v.is_object())
            .unwrap_or_else(|| {
                let o = js_sys::Object::new();
                let _ = js_sys::Reflect::set(&w, &key, &o);
                o.into()
            }),
    )
}

/// Publishes the view registry as `window.__peLab.views = [{name, title, panels: [{id,
/// title}], controls: "name name …"}]`: the end-to-end specs and the benchmark read the list of views from the app.
pub fn publish_registry() {
    let Some(record) = pe_lab_record() else {
        return;
    };
    let object = |pairs: &[(&str, JsValue)]| {
        let o = js_sys::Object::new();
        for (k, v) in pairs {
            let _ = js_sys::Reflect::set(&o, &(*k).into(), v);
        }
        JsValue::from(o)
    };
    let views: js_sys::Array = crate::state::VIEWS
        .iter()
        .map(|spec| {
            let panels: js_sys::Array = spec
                .panels
                .iter()
                .map(|p| object(&[("id", p.id.into()), ("title", p.title.into())]))
                .collect();
            object(&[
                ("name", spec.name.into()),
                ("title", spec.title.into()),
                ("panels", panels.into()),
                ("controls", spec.controls.into()),
            ])
        })
        .collect();
    let _ = js_sys::Reflect::set(&record, &"views".into(), &views);
}

/// Offers `parts` (strings or byte arrays) as a file download.
pub fn download_parts(parts: &js_sys::Array, mime: &str, filename: &str) -> Result<(), JsValue> {
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_buffer_source_sequence_and_options(parts, &options)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let result = click_download(&url, filename);
    // Revoke after the click has been handled.
    let revoke = wasm_bindgen::closure::Closure::once_into_js(move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    });
    if let Some(w) = window() {
        let _ =
            w.set_timeout_with_callback_and_timeout_and_arguments_0(revoke.unchecked_ref(), 60_000);
    }
    result
}

fn click_download(url: &str, filename: &str) -> Result<(), JsValue> {
    let document = window()
        .and_then(|w| w.document())
        .ok_or_else(|| JsValue::from_str("no document"))?;
    let a: web_sys::HtmlAnchorElement = document.create_element("a")?.unchecked_into();
    a.set_href(url);
    a.set_download(filename);
    a.set_attribute("hidden", "")?;
    let body = document
        .body()
        .ok_or_else(|| JsValue::from_str("no body"))?;
    body.append_child(&a)?;
    a.click();
    body.remove_child(&a)?;
    Ok(())
}

/// Copies text to the clipboard; resolves in the background.
pub fn copy_text(text: &str) {
    if let Some(w) = window() {
        let _ = w.navigator().clipboard().write_text(text);
    }
}

/// Keeps an observer (`ResizeObserver`, `IntersectionObserver`) and its callback while the
/// current owner lives. At cleanup the observer is disconnected at once and the callback kept
/// one second longer: Firefox and WebKit still deliver records queued before `disconnect()`
/// (one observer's callback can dispose another chart in the same delivery), and a callback
/// dropped before then throws “closure invoked recursively or after being dropped”. Chromium
/// drops such records. This is the one place that handles the difference.
pub fn keep_observer<O: 'static>(
    observer: O,
    callback: wasm_bindgen::closure::Closure<dyn Fn(js_sys::Array)>,
    disconnect: fn(&O),
) {
    use leptos::prelude::{on_cleanup, set_timeout, StoredValue, UpdateValue};
    let kept = StoredValue::new_local(Some((observer, callback)));
    on_cleanup(move || {
        if let Some(Some((observer, callback))) = kept.try_update_value(Option::take) {
            disconnect(&observer);
            set_timeout(
                move || drop((observer, callback)),
                std::time::Duration::from_secs(1),
            );
        }
    });
}

/// The file a file input's `change` event picked, if any.
pub fn picked_file(ev: &web_sys::Event) -> Option<web_sys::File> {
    ev.target()?
        .dyn_into::<web_sys::HtmlInputElement>()
        .ok()?
        .files()?
        .get(0)
}

/// A picked file's bytes; `None` when the browser could not read it.
pub async fn file_bytes(file: &web_sys::File) -> Option<Vec<u8>> {
    let buf = wasm_bindgen_futures::JsFuture::from(file.array_buffer())
        .await
        .ok()?;
    Some(js_sys::Uint8Array::new(&buf).to_vec())
}
