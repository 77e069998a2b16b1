//! The Real models view (`view=models`): the model gallery, its models' frequencies drawn
//! together, and the base a context length needs (Men et al., 2024).
//!
//! Here: the view, the gallery table and the model picker. The curves of the chosen models are
//! in `curves.rs`, the base-bound panels in `bound.rs`.


use leptos::prelude::*;

use super::shared::rope_models;

use crate::export::csv;
use crate::format::{base_text, escape_html, grouped};
use crate::gallery::{ModelRow, Scheme, MODELS};
use super::state::MAX_MODELS;
use crate::state::View;
use crate::ui::context::{select_state, AppCtx};
use crate::ui::export;
use crate::ui::widgets::{
    control_class, panel_visible, Panel,
};

use super::bound::{BoundPanel, MinBasePanel};
use super::curves::{ScoresPanel, WavelengthsPanel};

/// The view.
#[component]
pub fn ModelsView() -> impl IntoView {
    view! {
        <div class="view view-models">
            <style>{MODELS_CSS}</style>
            <div class="view-intro">
                <p>{crate::captions::MODELS_INTRO}</p>
            </div>
            <div class="panels single">
                <GalleryPanel/>
                <WavelengthsPanel/>
                <ScoresPanel/>
                <BoundPanel/>
                <MinBasePanel/>
            </div>
        </div>
    }
}

/// The table's cells for one row.
fn row_cells(m: &ModelRow) -> [String; 8] {
    let dash = || "—".to_string();
    let rope = m.scheme == Scheme::Rope;
    [
        m.scheme.name().to_string(),
        format!("{} × {}", m.heads, m.head_dim),
        if rope {
            format!(
                "{} of {} ({} pairs), {}",
                m.rotary,
                m.head_dim,
                m.rotary / 2,
                m.layout.map_or("", |l| l.name())
            )
        } else {
            dash()
        },
        if rope { base_text(m.theta) } else { dash() },
        if m.scaling.is_empty() {
            dash()
        } else {
            m.scaling.to_string()
        },
        if m.original_ctx == m.context {
            grouped(m.context as u64)
        } else {
            format!(
                "{} → {}",
                grouped(m.original_ctx as u64),
                grouped(m.context as u64)
            )
        },
        if m.nope.is_empty() {
            dash()
        } else {
            m.nope.to_string()
        },
        m.note.to_string(),
    ]
}

const TABLE_HEAD: [&str; 9] = [
    "Model",
    "Positions",
    "Heads × head_dim",
    "Rotating dims, pairs, layout",
    "base (rope_theta)",
    "Scaling",
    "Context: L₀ → published",
    "Layers without positions",
    "Note",
];

#[component]
fn GalleryPanel() -> impl IntoView {
    const ID: &str = "model-gallery";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let selected = select_state(ctx.state, |s| s.models.models.clone());
    let table = move || {
        let chosen = selected.get();
        let mut html = String::from("<table class=\"model-table\"><thead><tr>");
        for h in TABLE_HEAD {
            html += &format!("<th scope=\"col\">{h}</th>");
        }
        html += "</tr></thead><tbody>";
        for m in &MODELS {
            let class = if chosen.contains(&m.id) {
                " class=\"chosen\""
            } else {
                ""
            };
            let open = if m.scheme == Scheme::Rope {
                format!(
                    "<br><button class=\"link\" data-open=\"{}\">Open in Context extension</button>",
                    m.id
                )
            } else {
                String::new()
            };
            html += &format!(
                "<tr{class} data-model=\"{}\"><th scope=\"row\">{}{open}</th>",
                m.id,
                escape_html(m.name)
            );
            for c in row_cells(m) {
                html += &format!("<td>{}</td>", escape_html(&c));
            }
            html += "</tr>";
        }
        html + "</tbody></table>"
    };
    let sources: String = MODELS.iter().fold(String::new(), |html, m| {
        html + &format!(
            "<li><b>{}</b> ({}): {}</li>",
            escape_html(m.name),
            m.id,
            escape_html(&m.full_source())
        )
    });
    let open = move |ev: web_sys::MouseEvent| {
        let id = ev
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .and_then(|e| e.get_attribute("data-open"));
        let Some(row) = id.and_then(|id| ModelRow::find(&id)) else {
            return;
        };
        if let Some(c) = row.rope() {
            ctx.state.update(|s| {
                s.scaling.apply_config(&c);
                s.lesson = None;
                s.view = View::Scaling;
            });
        }
    };
    let csv_cb = move |_| {
        let mut text = csv::header(&[
            "id",
            "model",
            "scheme",
            "heads",
            "head_dim",
            "rotary_dims",
            "layout",
            "rope_theta",
            "scaling",
            "original_context",
            "context",
            "layers_without_positions",
            "note",
            "source",
        ]);
        for m in &MODELS {
            let cells = [
                m.id.to_string(),
                m.name.to_string(),
                m.scheme.name().to_string(),
                m.heads.to_string(),
                m.head_dim.to_string(),
                m.rotary.to_string(),
                m.layout.map_or("", |l| l.name()).to_string(),
                if m.theta > 0.0 {
                    format!("{}", m.theta)
                } else {
                    String::new()
                },
                m.scaling.to_string(),
                m.original_ctx.to_string(),
                m.context.to_string(),
                m.nope.to_string(),
                m.note.to_string(),
                m.full_source(),
            ];
            let cells: Vec<String> = cells.iter().map(|c| csv::field(c)).collect();
            text.push_str(&cells.join(","));
            text.push('\n');
        }
        export::csv_text(text, "model-gallery.csv");
    };
    view! {
        <Panel id=ID>
            <ModelPicker/>
            <div class="table-wrap" tabindex="0" role="region" aria-label="Model gallery" inner_html=table on:click=open></div>
            <p class="about">{crate::captions::MODEL_GALLERY}</p>
            <details class="model-sources">
                <summary>"Sources, one per model"</summary>
                <ul inner_html=sources></ul>
            </details>
            <div class="exports" role="group" aria-label="Export"><button on:click=csv_cb>"CSV"</button></div>
        </Panel>
    }
    .into_any()
}

/// The RoPE models drawn together (`models=`): checkboxes written as one HTML string, with one
/// delegated handler (a component per box would put its code in the first download).
#[component]
fn ModelPicker() -> impl IntoView {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    if !ctx.state.with_untracked(|s| s.show_controls) {
        return ().into_any();
    }
    let class = control_class(
        "models",
        &[
            "control model-pick",
            "control model-pick gone",
            "control model-pick locked",
        ],
    );
    let boxes = move || {
        ctx.state.with(|s| {
            let chosen = &s.models.models;
            let full = chosen.len() >= MAX_MODELS;
            rope_models().fold(String::new(), |html, m| {
                let on = chosen.contains(&m.id);
                html + &format!(
                    "<label><input type=\"checkbox\" value=\"{}\"{}{}> {}</label>",
                    m.id,
                    if on { " checked" } else { "" },
                    if full && !on { " disabled" } else { "" },
                    escape_html(m.name)
                )
            })
        })
    };
    let on_change = move |ev: leptos::ev::Event| {
        let id = ev
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(t).ok())
            .map(|e| e.value());
        if let Some(id) = id
            .and_then(|id| rope_models().find(|m| m.id == id))
            .map(|m| m.id)
        {
            ctx.state.update(|s| s.models.toggle(id));
        }
    };
    view! {
        <fieldset class=class data-control="models">
            <legend>{format!("Draw together (up to {MAX_MODELS})")}</legend>
            <div class="model-boxes" inner_html=boxes on:change=on_change></div>
        </fieldset>
    }
    .into_any()
}


/// This view's styles, fetched with its code.
const MODELS_CSS: &str = r#"
.panels.single { grid-template-columns: 1fr; }
.view-models .table-wrap { max-height: none; }
.model-table { border-collapse: collapse; font-size: 0.88rem; width: 100%; }
.model-table th, .model-table td { border-bottom: 1px solid var(--border); padding: 5px 8px; text-align: left; vertical-align: top; }
.model-table tr.chosen > * { background: var(--highlight, rgba(255, 200, 0, 0.12)); }
.view-models .model-pick { border: 1px solid var(--border); border-radius: 6px; padding: 6px 10px; }
.model-boxes { display: flex; flex-wrap: wrap; gap: 4px 14px; }
.model-pick label { font-weight: 400; white-space: nowrap; }
.model-sources ul { font-size: 0.85rem; padding-left: 1.2em; }
.bound-readout { min-height: 2.6em; }
"#;
