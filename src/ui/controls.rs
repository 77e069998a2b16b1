//! The controls every view builds from: range sliders with a number box, choices, and their
//! state-bound forms.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::context::AppCtx;
use super::schedule::{self};
use crate::format::sig;
use crate::state::params::{FloatSpec, IntSpec};
use crate::state::AppState;

/// What a range control needs to know about its parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RangeSpec {
    pub name: &'static str,
    pub label: &'static str,
    pub min: f64,
    pub max: f64,
    pub log: bool,
    pub integer: bool,
    pub unit: &'static str,
}

impl From<IntSpec> for RangeSpec {
    fn from(s: IntSpec) -> Self {
        RangeSpec {
            name: s.name,
            label: s.label,
            min: s.min as f64,
            max: s.max as f64,
            log: false,
            integer: true,
            unit: s.unit,
        }
    }
}

impl From<FloatSpec> for RangeSpec {
    fn from(s: FloatSpec) -> Self {
        RangeSpec {
            name: s.name,
            label: s.label,
            min: s.min,
            max: s.max,
            log: s.log,
            integer: false,
            unit: s.unit,
        }
    }
}

/// Rounds a log-slider value to three significant digits, so that slides land on readable
/// values (10000 stays reachable).
fn nice(v: f64) -> f64 {
    if v <= 0.0 || !v.is_finite() {
        return v;
    }
    let magnitude = 10f64.powi(v.log10().floor() as i32 - 2);
    (v / magnitude).round() * magnitude
}

fn show_value(v: f64, integer: bool) -> String {
    if integer {
        format!("{}", v.round() as i64)
    } else {
        sig(v, 6)
    }
}

/// A labelled slider with a number box for exact values. Out-of-range or malformed entries are
/// clamped or refused with a message under the control; the last good value stays.
#[component]
pub fn RangeControl(
    /// The parameter: name, label, range, scale, unit.
    spec: RangeSpec,
    /// The current value.
    #[prop(into)]
    value: Signal<f64>,
    /// An upper bound tighter than the spec's (set by another control).
    #[prop(into, optional)]
    max: Option<Signal<f64>>,
    /// Receives every new, already clamped value.
    on_change: Callback<f64>,
) -> impl IntoView {
    let id = format!("ctl-{}", spec.name);
    let message = RwSignal::new(None::<String>);
    let upper = move || max.map_or(spec.max, |m| m.get().clamp(spec.min, spec.max));
    let to_slider = move |v: f64| if spec.log { v.log10() } else { v };
    let from_slider = move |x: f64| {
        let v = if spec.log { nice(10f64.powf(x)) } else { x };
        if spec.integer {
            v.round()
        } else {
            v
        }
    };
    let key = schedule::control_key();
    let on_range = move |ev: leptos::ev::Event| {
        if let Some(x) = crate::format::parse_decimal(&event_target_value(&ev)) {
            schedule::apply_in_frame(key, move || {
                message.set(None);
                on_change.run(from_slider(x).clamp(spec.min, upper()));
            });
        }
    };
    let on_number = move |ev: leptos::ev::Event| {
        let raw = event_target_value(&ev);
        match crate::format::parse_decimal(&raw) {
            Some(v) => {
                let v = if spec.integer { v.round() } else { v };
                let clamped = v.clamp(spec.min, upper());
                message.set((clamped != v).then(|| {
                    format!(
                        "{} ranges from {} to {}; used {}.",
                        spec.label,
                        show_value(spec.min, spec.integer),
                        show_value(upper(), spec.integer),
                        show_value(clamped, spec.integer)
                    )
                }));
                on_change.run(clamped);
            }
            _ => {
                message.set(Some(format!(
                    "“{}” is not a number; kept {}.",
                    crate::state::params::shorten(&raw, 20),
                    show_value(value.get_untracked(), spec.integer)
                )));
                // Put the last good value back in the box.
                if let Some(input) = ev
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
                {
                    input.set_value(&show_value(value.get_untracked(), spec.integer));
                }
            }
        }
    };
    let step = if spec.log {
        "0.001".to_string()
    } else if spec.integer {
        "1".to_string()
    } else {
        "any".to_string()
    };
    let unit = spec.unit;
    let class = control_class(spec.name, CONTROL);
    view! {
        <div class=class data-control=spec.name>
            <label for=id.clone()>{spec.label}</label>
            <div class="control-row">
                <input
                    type="range"
                    id=id
                    min=to_slider(spec.min).to_string()
                    max=move || to_slider(upper()).to_string()
                    step=step
                    prop:value=move || to_slider(value.get()).to_string()
                    aria-valuetext=move || {
                        format!("{} {}", show_value(value.get(), spec.integer), unit).trim().to_string()
                    }
                    on:input=on_range
                />
                <input
                    type="text"
                    inputmode="decimal"
                    class="num"
                    aria-label=format!("{} (exact value)", spec.label)
                    prop:value=move || show_value(value.get(), spec.integer)
                    on:change=on_number
                />
            </div>
            <p class="control-msg" role="status">{move || message.get()}</p>
        </div>
    }
}

/// The class of the control `name`'s widget, `base` followed by `gone` when the page hides it
/// (`hide=`) or `locked` when it locks it (`lock=`: shown dimmed, and made `inert` by the
/// page's one-line observer in index.html, so nothing in it can be changed). Read once: a view,
/// and each lesson step's panels, are built anew with their state. A class string costs the
/// download nothing over the fixed class it replaces; an attribute more would.
pub fn control_class(name: &'static str, base: &'static [&'static str; 3]) -> &'static str {
    let flags = use_context::<AppCtx>().map(|c| {
        c.state
            .with_untracked(|s| (s.hidden.contains(&name), s.locked.contains(&name)))
    });
    match flags {
        Some((true, _)) => base[1],
        Some((_, true)) => base[2],
        _ => base[0],
    }
}

/// The classes of a plain control: as it is, hidden, locked (see [`control_class`]).
pub const CONTROL: &[&str; 3] = &["control", "control gone", "control locked"];

fn no_tighter_max(_: &AppState) -> f64 {
    f64::INFINITY
}

/// A [`RangeControl`] bound to one field of the application state by two plain functions.
/// They are `fn` pointers, not closures, so that every control shares one compiled body: a
/// closure per control would cost the wasm download about a kilobyte each.
#[component]
pub fn StateRange(
    #[prop(into)] spec: RangeSpec,
    /// Reads the value from the state.
    get: fn(&AppState) -> f64,
    /// Writes an already clamped value into the state.
    put: fn(&mut AppState, f64),
    /// A tighter upper bound that depends on other controls.
    #[prop(default = no_tighter_max)]
    max: fn(&AppState) -> f64,
) -> impl IntoView {
    let state = use_context::<AppCtx>().expect("AppCtx").state;
    let value = Memo::new(move |_| state.with(get));
    let upper = Memo::new(move |_| state.with(max));
    let on_change = Callback::new(move |v: f64| state.update(|s| put(s, v)));
    view! { <RangeControl spec=spec value=value max=upper on_change=on_change/> }
}

/// A [`Choice`] bound to the application state by two plain functions (see [`StateRange`]).
#[component]
pub fn StateChoice(
    name: &'static str,
    label: &'static str,
    options: Vec<(&'static str, &'static str)>,
    /// The chosen option's value, read from the state.
    get: fn(&AppState) -> &'static str,
    /// Writes the chosen option's value into the state.
    put: fn(&mut AppState, &str),
) -> impl IntoView {
    let state = use_context::<AppCtx>().expect("AppCtx").state;
    let value = Memo::new(move |_| state.with(get).to_string());
    let on_change = Callback::new(move |v: String| state.update(|s| put(s, &v)));
    view! { <Choice name=name label=label options=options value=value on_change=on_change/> }
}

/// A set of radio buttons for one choice.
#[component]
pub fn Choice(
    /// The URL name of the parameter.
    name: &'static str,
    /// The visible label.
    label: &'static str,
    /// `(value, label)` pairs.
    options: Vec<(&'static str, &'static str)>,
    /// The chosen value.
    #[prop(into)]
    value: Signal<String>,
    on_change: Callback<String>,
) -> impl IntoView {
    let class = control_class(
        name,
        &[
            "control choice",
            "control choice gone",
            "control choice locked",
        ],
    );
    view! {
        <fieldset class=class data-control=name>
            <legend>{label}</legend>
            {options
                .into_iter()
                .map(|(v, text)| {
                    view! {
                        <label class="choice-option">
                            <input
                                type="radio"
                                name=name
                                value=v
                                prop:checked=move || value.get() == v
                                on:change=move |_| on_change.run(v.to_string())
                            />
                            <span>{text}</span>
                        </label>
                    }
                })
                .collect_view()}
        </fieldset>
    }
}
