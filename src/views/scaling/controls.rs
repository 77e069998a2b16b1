//! The Context extension view's own controls: the method picker, optional numbers, factor lists,
//! model presets and a pasted config.json.


use leptos::prelude::*;

use crate::encoding::rope::Method;
use crate::encoding::rope_config::parse_config;
use crate::state::params::{toggle_in_order, FloatSpec};
use super::state::model_presets;
use super::state::ScalingState;
use crate::ui::context::AppCtx;
use crate::ui::widgets::{
    control_class, CONTROL,
};

/// Checkboxes for the methods drawn.
#[component]
pub(super) fn MethodPicker() -> impl IntoView {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let class = control_class(
        "method",
        &[
            "control choice methods",
            "control choice methods gone",
            "control choice methods locked",
        ],
    );
    view! {
        <fieldset class=class data-control="method">
            <legend>"Methods"</legend>
            {Method::ALL
                .into_iter()
                .map(|m| {
                    let checked = move || ctx.state.with(|s| s.scaling.methods.contains(&m));
                    let toggle = move |_| {
                        ctx.state
                            .update(|s| toggle_in_order(&mut s.scaling.methods, m, &Method::ALL))
                    };
                    view! {
                        <label class="choice-option">
                            <input type="checkbox" name="method" value=m.name() prop:checked=checked on:change=toggle/>
                            <span>{m.title()}</span>
                        </label>
                    }
                })
                .collect_view()}
        </fieldset>
    }
}

/// A number that may be left blank ("automatic").
#[component]
pub(super) fn OptionalNumber(
    spec: FloatSpec,
    get: fn(&ScalingState) -> Option<f64>,
    put: fn(&mut ScalingState, Option<f64>),
) -> impl IntoView {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let message = RwSignal::new(None::<String>);
    let id = format!("ctl-{}", spec.name);
    let value = move || {
        ctx.state
            .with(|s| get(&s.scaling).map(|v| format!("{v}")).unwrap_or_default())
    };
    let on_change = move |ev: leptos::ev::Event| {
        let raw = event_target_value(&ev);
        let raw = raw.trim();
        if raw.is_empty() {
            message.set(None);
            ctx.state.update(|s| put(&mut s.scaling, None));
            return;
        }
        match crate::format::parse_decimal(raw) {
            Some(v) => {
                let c = spec.clamp(v);
                message.set((c != v).then(|| {
                    format!(
                        // Under the control: its label, with its hint, is right above.
                        "The range is {} to {}; used {c}.",
                        spec.min,
                        spec.max
                    )
                }));
                ctx.state.update(|s| put(&mut s.scaling, Some(c)));
            }
            _ => message.set(Some(
                "Not a number; the last value stays. Leave it blank for automatic.".into(),
            )),
        }
    };
    let class = control_class(spec.name, CONTROL);
    view! {
        <div class=class data-control=spec.name>
            <label for=id.clone()>{spec.label}</label>
            <input id=id type="text" inputmode="decimal" class="num" placeholder="auto" prop:value=value on:change=on_change/>
            <p class="control-msg" role="status">{move || message.get()}</p>
        </div>
    }
}

/// A LongRoPE factor list; blank means the illustrative lists.
#[component]
pub(super) fn FactorList(name: &'static str) -> impl IntoView {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let message = RwSignal::new(None::<String>);
    let get = move |s: &ScalingState| {
        if name == "short_factor" {
            s.short_factor.clone()
        } else {
            s.long_factor.clone()
        }
    };
    let value = move || {
        ctx.state.with(|s| {
            get(&s.scaling)
                .as_deref()
                .map(crate::format::number_list)
                .unwrap_or_default()
        })
    };
    let on_change = move |ev: leptos::ev::Event| {
        let raw = event_target_value(&ev);
        let mut notes = crate::state::Notices::default();
        let parsed = super::state::ScalingState::read(
            &|k: &str| (k == name).then(|| raw.clone()),
            &mut notes,
        );
        let list = if name == "short_factor" {
            parsed.short_factor
        } else {
            parsed.long_factor
        };
        if raw.trim().is_empty() || list.is_some() {
            message.set(None);
            ctx.state.update(|s| {
                if name == "short_factor" {
                    s.scaling.short_factor = list.clone();
                } else {
                    s.scaling.long_factor = list.clone();
                }
            });
        } else {
            message.set(Some(
                "Use positive numbers separated by commas, one per pair. The last list stays."
                    .into(),
            ));
        }
    };
    let id = format!("ctl-{name}");
    let class = control_class(name, CONTROL);
    view! {
        <div class=class data-control=name>
            <label for=id.clone()>{format!("LongRoPE {name} (blank: illustrative)")}</label>
            <textarea id=id rows="2" placeholder="short: all 1; long: 1 → factor" prop:value=value on:change=on_change></textarea>
            <p class="control-msg" role="status">{move || message.get()}</p>
        </div>
    }
}

/// Model and figure presets.
#[component]
pub(super) fn Presets() -> impl IntoView {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    // The source of the preset applied, with the state it set: shown only while the state is it.
    let source = RwSignal::new(None::<(String, ScalingState)>);
    let applied = move |text: String| {
        source.set(Some((text, ctx.state.with_untracked(|s| s.scaling.clone()))));
    };
    let shown = move || {
        source.with(|f| {
            f.as_ref()
                .filter(|(_, at)| ctx.state.with(|s| s.scaling == *at))
                .map(|(text, _)| text.clone())
        })
    };
    let on_model = move |ev: leptos::ev::Event| {
        let name = event_target_value(&ev);
        if let Some(row) = model_presets().find(|row| row.id == name) {
            if let Some(c) = row.rope() {
                ctx.state.update(|s| {
                    s.scaling.apply_config(&c);
                });
                applied(format!("{}: {}", row.name, row.source));
            }
        }
    };
    let yarn_figure = move |_| {
        ctx.state.update(|s| {
            s.scaling = ScalingState {
                methods: vec![Method::None, Method::Linear, Method::Ntk, Method::Yarn],
                head_dim: 128,
                theta: 10000.0,
                factor: 16.0,
                orig_ctx: 4096,
                seq_len: 65536,
                ..ScalingState::default()
            }
        });
        applied("YaRN on LLaMA-2: Peng et al. (2023), “YaRN: Efficient Context Window Extension of Large Language Models” — D 128, base 10000, L₀ 4096, s = 16 (65,536 positions).".into());
    };
    let class = control_class(
        "preset",
        &[
            "control presets",
            "control presets gone",
            "control presets locked",
        ],
    );
    view! {
        <div class=class data-control="preset">
            <label for="ctl-preset">"Model preset"</label>
            <select id="ctl-preset" on:change=on_model>
                <option value="">"Choose a model…"</option>
                {model_presets().map(|row| view! { <option value=row.id>{row.name}</option> }).collect_view()}
            </select>
            <button class="figure" on:click=yarn_figure>"Figure: YaRN on LLaMA-2"</button>
            <p class="source">{shown}</p>
        </div>
    }
}

/// A box for a pasted config.json: applied only when it parses; errors leave everything as is.
#[component]
pub(super) fn ConfigPaste() -> impl IntoView {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let text = RwSignal::new(String::new());
    let message = RwSignal::new(None::<(bool, String)>);
    let apply = move |_| match parse_config(&text.get_untracked()) {
        Ok(c) => {
            let mut notes = Vec::new();
            ctx.state.update(|s| notes = s.scaling.apply_config(&c));
            let summary = format!(
                "Applied: {}head_dim {}{}, base (rope_theta) {}, rotary fraction {}, rope type {}.{}",
                c.model_type
                    .as_ref()
                    .map(|m| format!("{m}, "))
                    .unwrap_or_default(),
                c.head_dim,
                if c.decoupled {
                    " (the part of each wider head that rotates, as DeepSeek's config gives it)"
                } else {
                    ""
                },
                c.theta,
                c.partial,
                // transformers' name for plain RoPE.
                match c.method {
                    Method::None => "default",
                    m => m.name(),
                },
                if notes.is_empty() {
                    String::new()
                } else {
                    format!(" {}", notes.join(" "))
                }
            );
            message.set(Some((true, summary)));
        }
        Err(e) => message.set(Some((false, format!("Not applied: {e}")))),
    };
    let class = control_class(
        "config",
        &[
            "control config-paste",
            "control config-paste gone",
            "control config-paste locked",
        ],
    );
    view! {
        <div class=class data-control="config">
            <label for="ctl-config">"Paste a config.json (read here, never sent)"</label>
            <textarea id="ctl-config" rows="3" placeholder="{\"hidden_size\": 4096, \"num_attention_heads\": 32, \"rope_theta\": 500000, …}"
                prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))></textarea>
            <button on:click=apply>"Apply config"</button>
            <p class="control-msg" class:ok=move || message.get().is_some_and(|m| m.0) role="status">{move || message.get().map(|m| m.1)}</p>
        </div>
    }
}
