//! Sharing and embedding: the Share dialog (permalink and `<iframe>` snippet) and the height
//! messages an embedded page posts to its host.

use leptos::html::Dialog;
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

use crate::state::url::iframe_snippet;
use crate::state::AppState;
use crate::ui::context::AppCtx;
use crate::ui::dom;

/// The page's own address without the query: `origin + path`.
fn page_base() -> String {
    dom::window()
        .map(|w| {
            let l = w.location();
            format!(
                "{}{}",
                l.origin().unwrap_or_default(),
                l.pathname().unwrap_or_default()
            )
        })
        .unwrap_or_default()
}

/// The dialog's fixed markup; [`fill`] puts the live values in. Plain HTML plus one delegated
/// click and one change handler: a typed view tree for a handful of fields would cost the
/// download several kilobytes.
const SHARE_HTML: &str = r#"<h2 id="share-title">Share this view</h2>
<div class="copy-field"><label for="share-permalink">Permalink (this exact state)</label><input id="share-permalink" type="text" readonly><button type="button" data-copy="share-permalink">Copy</button></div>
<fieldset class="embed-options"><legend>Embed one panel in a course page</legend>
<label>Panel <select id="share-panel"></select></label>
<label><input id="share-controls" type="checkbox" checked> Show the panel's controls</label></fieldset>
<fieldset class="control-options"><legend>Controls in both links: hide or lock (shown, disabled) what students should not move</legend><div id="share-control-list"></div></fieldset>
<div class="copy-field"><label for="share-embed">Embed link</label><input id="share-embed" type="text" readonly><button type="button" data-copy="share-embed">Copy</button></div>
<div class="copy-field"><label for="share-snippet">iframe snippet</label><textarea id="share-snippet" readonly rows="7"></textarea><button type="button" data-copy="share-snippet">Copy</button></div>
<p class="about">The snippet's script sizes the frame from the height the embedded page reports.</p>
<button type="button" class="close" data-close>Close</button>"#;

fn element(id: &str) -> Option<web_sys::Element> {
    dom::window()?.document()?.get_element_by_id(id)
}

/// The `value` of an input, select or textarea.
fn value_of(id: &str) -> String {
    element(id)
        .and_then(|e| js_sys::Reflect::get(&e, &"value".into()).ok())
        .and_then(|v| v.as_string())
        .unwrap_or_default()
}

fn set_value(id: &str, value: &str) {
    if let Some(e) = element(id) {
        let _ = js_sys::Reflect::set(&e, &"value".into(), &value.into());
    }
}

/// Whether the checkbox `<input selector>` in the dialog is ticked.
fn ticked(selector: &str) -> bool {
    dom::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(selector).ok().flatten())
        .and_then(|e| js_sys::Reflect::get(&e, &"checked".into()).ok())
        .is_some_and(|v| v.is_truthy())
}

/// One row per control of the view: its name, its label on the page (when shown), and
/// "hide" and "lock" boxes ticked as the current state has them.
fn control_rows(state: &AppState) -> String {
    let doc = dom::window().and_then(|w| w.document());
    state
        .view
        .spec()
        .controls
        .split(' ')
        .map(|name| {
            let label = doc
                .as_ref()
                .and_then(|d| {
                    d.query_selector(&format!(
                        "main [data-control=\"{name}\"] > :is(label, legend)"
                    ))
                    .ok()
                    .flatten()
                })
                .and_then(|e| e.text_content())
                // The label, when it says more than the name.
                .filter(|t| t != name)
                .unwrap_or_default();
            let tick = |on: bool| if on { " checked" } else { "" };
            format!(
                "<div class=\"control-option\"><span><code>{name}</code> {label}</span>\
<label><input type=\"checkbox\" data-hide=\"{name}\"{}> hide</label>\
<label><input type=\"checkbox\" data-lock=\"{name}\"{}> lock</label></div>",
                tick(state.hidden.contains(&name)),
                tick(state.locked.contains(&name))
            )
        })
        .collect()
}

/// Writes the permalink, and the embed link and snippet for the chosen panel.
fn fill(state: &AppState) {
    // The controls as ticked in the dialog (its rows list every control of the view).
    let mut state = state.clone();
    let view = state.view;
    let names = view.spec().controls.split(' ');
    state.hidden = names
        .clone()
        .filter(|n| ticked(&format!("[data-hide=\"{n}\"]")))
        .collect();
    state.locked = names
        .filter(|n| ticked(&format!("[data-lock=\"{n}\"]")))
        .collect();
    let state = &state;
    set_value(
        "share-permalink",
        &format!("{}?{}", page_base(), state.permalink_query()),
    );
    let panel = value_of("share-panel");
    let controls = ticked("#share-controls");
    let src = format!("{}?{}", page_base(), state.embed_query(&panel, controls));
    set_value("share-embed", &src);
    set_value(
        "share-snippet",
        &iframe_snippet(
            &src,
            &format!(
                "PE Lab: {}",
                crate::state::registry::panel_title(&panel).unwrap_or("the whole view")
            ),
        ),
    );
}

/// The Share button. Its dialog is fetched the first time it is pressed (its own chunk in
/// release builds: the initial download stays within its budget) and made anew, with the
/// current state, at every press (a failed fetch is tried again).
#[component]
pub fn ShareButton() -> impl IntoView {
    let presses = RwSignal::new(0u32);
    view! {
        <button class="share" on:click=move |_| presses.update(|n| *n += 1) aria-haspopup="dialog">"Share"</button>
        {move || if presses.get() > 0 {
            super::fetched(
                super::load_share,
                "control-msg",
                "Loading…",
                "The Share dialog could not be loaded. Press Share to try again.",
            )
        } else {
            ().into_any()
        }}
    }
}

/// The Share dialog: permalink, embed link and `<iframe>` snippet of the current state, open
/// once mounted.
#[component]
pub fn ShareDialog() -> impl IntoView {
    let state = use_context::<AppCtx>().expect("AppCtx").state;
    let dialog = NodeRef::<Dialog>::new();
    // Filled and opened once it is in the document (a suspense inserts it after building it).
    Effect::new(move |_| {
        let Some(d) = dialog.get() else { return };
        request_animation_frame(move || {
            let options: String = state.with_untracked(|s| {
                s.view
                    .spec()
                    .panels
                    .iter()
                    .map(|p| format!("<option value=\"{}\">{}</option>", p.id, p.title))
                    .collect()
            });
            if let Some(select) = element("share-panel") {
                select.set_inner_html(&options);
            }
            if let Some(list) = element("share-control-list") {
                list.set_inner_html(&state.with_untracked(control_rows));
            }
            state.with_untracked(fill);
            if !d.open() {
                let _ = d.show_modal();
            }
        });
    });
    let on_click = move |ev: web_sys::MouseEvent| {
        let Some(target) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        else {
            return;
        };
        if let Some(id) = target.get_attribute("data-copy") {
            dom::copy_text(&value_of(&id));
            target.set_text_content(Some("Copied ✓"));
        } else if target.has_attribute("data-close") {
            if let Some(d) = dialog.get_untracked() {
                d.close();
            }
        }
    };
    view! {
        <style>{SHARE_CSS}</style>
        <dialog node_ref=dialog class="share-dialog" aria-labelledby="share-title"
            inner_html=SHARE_HTML on:click=on_click on:change=move |_| state.with_untracked(fill)></dialog>
    }
}

/// In an embedded page, posts `{type: "pe-lab:resize", height}` to the host whenever the
/// page's height changes (and once at start).
pub fn post_height_to_host() {
    let Some(w) = dom::window() else { return };
    let Some(parent) = w.parent().ok().flatten() else {
        return;
    };
    if parent == w {
        return;
    }
    let Some(root) = w.document().and_then(|d| d.document_element()) else {
        return;
    };
    let last = std::cell::Cell::new(-1.0f64);
    let post = move || {
        let Some(w) = dom::window() else { return };
        let Some(doc) = w.document().and_then(|d| d.document_element()) else {
            return;
        };
        let height = doc.scroll_height() as f64;
        if height == last.get() {
            return;
        }
        last.set(height);
        let message = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&message, &"type".into(), &"pe-lab:resize".into());
        let _ = js_sys::Reflect::set(&message, &"height".into(), &height.into());
        if let Some(parent) = w.parent().ok().flatten() {
            let _ = parent.post_message(&message, "*");
        }
    };
    let callback = wasm_bindgen::closure::Closure::<dyn Fn(JsValue)>::new(move |_: JsValue| post());
    if let Ok(observer) = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()) {
        observer.observe(&root);
        if let Some(body) = w.document().and_then(|d| d.body()) {
            observer.observe(&body);
        }
    }
    // Both live as long as the page.
    callback.forget();
}

/// The dialog's styles, fetched with its code (the first page does not carry them).
const SHARE_CSS: &str = r#"
.share-dialog {
  max-width: min(44rem, calc(100vw - 32px)); width: 100%; box-sizing: border-box;
  background: var(--panel); color: var(--text); border: 1px solid var(--border); border-radius: 8px; padding: 16px 20px;
}
.share-dialog::backdrop { background: rgb(0 0 0 / 0.45); }
.share-dialog h2 { margin-top: 0; font-size: 1.2rem; }
.copy-field { display: grid; grid-template-columns: 1fr auto; gap: 4px 8px; margin: 10px 0; }
.copy-field label { grid-column: 1 / -1; font-weight: 600; }
.copy-field input, .copy-field textarea {
  font: 0.85rem ui-monospace, monospace; color: var(--text); background: var(--bg);
  border: 1px solid var(--border); border-radius: 4px; padding: 4px 6px; min-width: 0; resize: vertical;
}
.copy-field button { align-self: start; }
.embed-options { border: 1px solid var(--border); border-radius: 6px; display: flex; flex-wrap: wrap; gap: 8px 20px; }
.embed-options select { font: inherit; color: var(--text); background: var(--bg); border: 1px solid var(--border); }
.share-dialog .close { float: right; }
.control-options { border: 1px solid var(--border); border-radius: 6px; margin-top: 10px; }
/* A fieldset is as wide as its content by default: at 360 px the panel list overflowed. */
.embed-options, .control-options { min-width: 0; }
.embed-options label, .embed-options select { max-width: 100%; }
#share-control-list { max-height: 12rem; overflow-y: auto; }
.control-option { display: grid; grid-template-columns: 1fr auto auto; gap: 12px; padding: 2px 0; }
.control-option span { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
"#;
