//! The whole shareable state of PE Lab and its query-string form (PRODUCT.md §3).

use super::more::{AttentionState, BiasState, CompareState, LearnedState};
use super::params::{read_choice, read_index_list, FloatSpec, IntSpec, Notices};
use super::query::{join, split};
use super::registry;
use super::rope::{RopeState, ScalingState};
use crate::encoding::sinusoidal::{pair_count, Layout};

/// The views of PE Lab, in navigation order. Everything else about a view (name, title,
/// panels, state) is in its entry of [`super::registry::VIEWS`], at the same index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[repr(u8)]
pub enum View {
    Attention,
    #[default]
    Sinusoidal,
    Learned,
    Rope,
    Scaling,
    Bias,
    Compare,
    Precision,
    Models,
}

/// Light, dark, or whatever the system prefers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ThemeChoice {
    #[default]
    Auto,
    Light,
    Dark,
}

impl ThemeChoice {
    pub const OPTIONS: [(&'static str, ThemeChoice); 3] = [
        ("auto", ThemeChoice::Auto),
        ("light", ThemeChoice::Light),
        ("dark", ThemeChoice::Dark),
    ];

    pub fn name(self) -> &'static str {
        match self {
            ThemeChoice::Auto => "auto",
            ThemeChoice::Light => "light",
            ThemeChoice::Dark => "dark",
        }
    }
}

pub const SEQ_LEN: IntSpec = IntSpec {
    name: "seq_len",
    label: "Sequence length",
    min: 1,
    max: 8192,
    default: 128,
    unit: "positions",
};
pub const D_MODEL: IntSpec = IntSpec {
    name: "d_model",
    label: "d_model",
    min: 1,
    max: 4096,
    default: 128,
    unit: "dimensions",
};
pub const BASE: FloatSpec = FloatSpec {
    name: "base",
    label: "Base",
    min: 2.0,
    max: 1e7,
    default: 10000.0,
    log: true,
    unit: "",
};
pub const P0: IntSpec = IntSpec {
    name: "p0",
    label: "Reference position p0",
    min: 0,
    max: 8191,
    default: 32,
    unit: "",
};
pub const OFFSET: IntSpec = IntSpec {
    name: "offset",
    label: "Offset Δ",
    min: 0,
    max: 8191,
    default: 4,
    unit: "positions",
};
/// At most this many curves in `pe-curves`.
pub const MAX_CURVES: usize = 12;

/// Controls of the Sinusoidal view.
#[derive(Clone, Debug, PartialEq)]
pub struct SinusoidalState {
    pub seq_len: usize,
    pub d_model: usize,
    pub base: f64,
    pub layout: Layout,
    /// Columns drawn in `pe-curves`; `None` means the default spread for the width.
    pub cols: Option<Vec<usize>>,
    /// Reference position of the similarity curve.
    pub p0: usize,
    /// The offset `k` of the relative-offset panel.
    pub offset: usize,
    /// Colour map of the PE heatmap.
    pub cmap: HeatmapColours,
}

/// Colour map of the PE heatmap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum HeatmapColours {
    /// Blue–white–red, zero in the middle.
    #[default]
    Diverging,
    /// Dark purple to yellow (as in the Illustrated Transformer).
    Viridis,
}

impl HeatmapColours {
    pub fn name(self) -> &'static str {
        match self {
            HeatmapColours::Diverging => "diverging",
            HeatmapColours::Viridis => "viridis",
        }
    }

    pub fn map(self) -> crate::render::colormap::ColorMap {
        match self {
            HeatmapColours::Diverging => crate::render::colormap::ColorMap::diverging(),
            HeatmapColours::Viridis => crate::render::colormap::ColorMap::sequential(),
        }
    }
}

impl Default for SinusoidalState {
    fn default() -> Self {
        SinusoidalState {
            seq_len: SEQ_LEN.default as usize,
            d_model: D_MODEL.default as usize,
            base: BASE.default,
            layout: Layout::Interleaved,
            cols: None,
            p0: P0.default as usize,
            offset: OFFSET.default as usize,
            cmap: HeatmapColours::Diverging,
        }
    }
}

/// The lesson's first picture of the columns: one fast pair as sin and cos (same frequency,
/// 90° apart: columns 4 and 5 when the width allows), and the sine of one slow pair.
pub fn default_columns(d_model: usize, layout: Layout) -> Vec<usize> {
    use crate::encoding::sinusoidal::column_of;
    use crate::encoding::ColumnKind::{Cos, Sin};
    let pairs = pair_count(d_model);
    let fast = 2.min(pairs.saturating_sub(1));
    let slow = (pairs / 4).max(fast + 1);
    let mut out = Vec::new();
    for (i, kind) in [(fast, Sin), (fast, Cos), (slow, Sin)] {
        if let Some(col) = column_of(i, kind, d_model, layout) {
            if !out.contains(&col) {
                out.push(col);
            }
        }
    }
    out
}

impl SinusoidalState {
    /// The columns to draw: the chosen ones that exist at this width, or the default spread.
    pub fn curve_columns(&self) -> Vec<usize> {
        match &self.cols {
            Some(cols) => cols.iter().copied().filter(|&c| c < self.d_model).collect(),
            None => default_columns(self.d_model, self.layout),
        }
    }

    /// Adds `col` to the curves, or removes it if drawn (at most [`MAX_CURVES`]).
    pub fn toggle_column(&mut self, col: usize) {
        let mut cols = self.curve_columns();
        if let Some(at) = cols.iter().position(|&c| c == col) {
            cols.remove(at);
        } else if cols.len() < MAX_CURVES {
            cols.push(col);
        }
        self.cols = Some(cols);
    }

    /// `p0` within the current sequence.
    pub fn p0_in_range(&self) -> usize {
        self.p0.min(self.seq_len.saturating_sub(1))
    }

    pub(crate) fn read(
        get: &dyn Fn(&str) -> Option<String>,
        notices: &mut Notices,
    ) -> SinusoidalState {
        let seq_len = SEQ_LEN.read(get("seq_len").as_deref(), notices) as usize;
        let d_model = D_MODEL.read(get("d_model").as_deref(), notices) as usize;
        let base = BASE.read(get("base").as_deref(), notices);
        let layout = read_choice(
            "layout",
            get("layout").as_deref(),
            &[
                ("interleaved", Layout::Interleaved),
                ("concat", Layout::Concat),
            ],
            Layout::Interleaved,
            notices,
        );
        let cols =
            get("cols").map(|raw| read_index_list("cols", &raw, d_model - 1, MAX_CURVES, notices));
        let p0_spec = IntSpec {
            max: seq_len as i64 - 1,
            ..P0
        };
        let p0 = p0_spec.read(get("p0").as_deref(), notices) as usize;
        let offset = OFFSET.read(get("offset").as_deref(), notices) as usize;
        let cmap = read_choice(
            "cmap",
            get("cmap").as_deref(),
            &[
                ("diverging", HeatmapColours::Diverging),
                ("viridis", HeatmapColours::Viridis),
            ],
            HeatmapColours::Diverging,
            notices,
        );
        SinusoidalState {
            cmap,
            seq_len,
            d_model,
            base,
            layout,
            cols,
            p0,
            offset,
        }
    }

    pub(crate) fn write(&self, out: &mut Vec<(&'static str, String)>) {
        out.push(("seq_len", self.seq_len.to_string()));
        out.push(("d_model", self.d_model.to_string()));
        out.push(("base", format!("{}", self.base)));
        out.push(("layout", self.layout.name().to_string()));
        if let Some(cols) = &self.cols {
            let list: Vec<String> = cols.iter().map(|c| c.to_string()).collect();
            out.push(("cols", list.join(",")));
        }
        out.push(("p0", self.p0.to_string()));
        out.push(("offset", self.offset.to_string()));
        out.push(("cmap", self.cmap.name().to_string()));
    }
}

/// What a panel is told to outline (`hl_cols`, `hl_pos`): used by lessons and course pages to
/// point at a part of a chart. Columns are matrix columns (embedding dimensions; pairs where a
/// chart's axis is the pair index), positions are matrix rows. Empty lists outline nothing.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Highlight {
    pub cols: Vec<usize>,
    pub positions: Vec<usize>,
}

/// At most this many highlighted columns or positions.
pub const MAX_HIGHLIGHTS: usize = 64;
/// The largest column or position a highlight may name (the largest axis of any view).
pub const MAX_HIGHLIGHT_INDEX: usize = 1 << 26;

impl Highlight {
    fn read(get: &dyn Fn(&str) -> Option<String>, notices: &mut Notices) -> Highlight {
        let list = |name: &str, notices: &mut Notices| {
            get(name)
                .map(|raw| {
                    read_index_list(name, &raw, MAX_HIGHLIGHT_INDEX, MAX_HIGHLIGHTS, notices)
                })
                .unwrap_or_default()
        };
        Highlight {
            cols: list("hl_cols", notices),
            positions: list("hl_pos", notices),
        }
    }

    fn write(&self, out: &mut Vec<(&'static str, String)>) {
        let join = |v: &[usize]| {
            v.iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        if !self.cols.is_empty() {
            out.push(("hl_cols", join(&self.cols)));
        }
        if !self.positions.is_empty() {
            out.push(("hl_pos", join(&self.positions)));
        }
    }
}

/// A lesson being followed (`lesson=…&step=N`, `present=1`).
#[derive(Clone, Debug, PartialEq)]
pub struct LessonLocation {
    /// A built-in lesson's name or a relative path to a `.json` file.
    pub source: String,
    /// The step, 1-based (brought within the lesson once it is loaded).
    pub step: usize,
    /// Presenter mode: the step alone, fitted to the screen, large text.
    pub present: bool,
    /// `revealed=1`: the step's question is answered (or shown), its reveal state applied.
    pub revealed: bool,
}

const STEP: IntSpec = IntSpec {
    name: "step",
    label: "Lesson step",
    min: 1,
    max: super::lesson::MAX_STEPS as i64,
    default: 1,
    unit: "",
};

/// Everything a URL holds.
#[derive(Clone, Debug, PartialEq)]
pub struct AppState {
    pub view: View,
    pub theme: ThemeChoice,
    /// `embed=1`: no site chrome.
    pub embed: bool,
    /// `panel=ID`: show only this panel.
    pub panel: Option<String>,
    /// `controls=0` hides the controls.
    pub show_controls: bool,
    /// `hide=name,name`: controls of the view a page's author hid (names as in the registry).
    pub hidden: Vec<&'static str>,
    /// `lock=name,name`: controls shown but disabled.
    pub locked: Vec<&'static str>,
    /// `hl_cols`, `hl_pos`: what the panels outline.
    pub highlight: Highlight,
    /// `lesson=`: the guided path being followed, if any. Its URL holds only the lesson and
    /// the step; the step gives the view and its state.
    pub lesson: Option<LessonLocation>,
    pub sinusoidal: SinusoidalState,
    pub rope: RopeState,
    pub scaling: ScalingState,
    pub learned: LearnedState,
    pub bias: BiasState,
    pub attention: AttentionState,
    pub compare: CompareState,
    pub precision: super::precision::PrecisionState,
    pub models: super::models::ModelsState,
}

impl Default for AppState {
    fn default() -> Self {
        AppState {
            view: View::default(),
            theme: ThemeChoice::default(),
            embed: false,
            panel: None,
            show_controls: true,
            hidden: Vec::new(),
            locked: Vec::new(),
            highlight: Highlight::default(),
            lesson: None,
            sinusoidal: SinusoidalState::default(),
            rope: RopeState::default(),
            scaling: ScalingState::default(),
            learned: LearnedState::default(),
            bias: BiasState::default(),
            attention: AttentionState::default(),
            compare: CompareState::default(),
            precision: super::precision::PrecisionState::default(),
            models: super::models::ModelsState::default(),
        }
    }
}

impl AppState {
    /// Reads any query string into a valid state. Never fails; whatever was adjusted or
    /// ignored is described in the notices.
    pub fn from_query(query: &str) -> (AppState, Notices) {
        let mut notices = Notices::default();
        let (pairs, dropped) = split(query);
        if dropped > 0 {
            notices.push(
                "URL",
                format!("only the first {} parameters were read.", pairs.len()),
            );
        }
        let get = |key: &str| -> Option<String> {
            let pair = pairs.iter().find(|p| p.key == key)?;
            match &pair.value {
                Some(v) => Some(v.clone()),
                None => Some(String::from("(a value over 4096 characters)")),
            }
        };
        // `panel=` implies its view (panel IDs are unique), so an embed needs no `view=`.
        let panel_param = get("panel");
        let panel_view = panel_param.as_deref().and_then(registry::view_of_panel);
        let named = get("view");
        let view = match (named.as_deref(), panel_view) {
            (None, Some(spec)) => spec.view,
            (Some(name), Some(spec)) if name != spec.name => {
                notices.push(
                    "view",
                    format!(
                        "the panel “{}” belongs to the {} view; showing it there.",
                        panel_param.as_deref().unwrap_or_default(),
                        spec.title
                    ),
                );
                spec.view
            }
            _ => match named.as_deref() {
                None => View::default(),
                Some(name) => match registry::view_named(name) {
                    Some(spec) => spec.view,
                    None => {
                        notices.push(
                            "view",
                            format!(
                                "“{}” is not a view; showing the {} view.",
                                super::params::shorten(name, 24),
                                View::default().title()
                            ),
                        );
                        View::default()
                    }
                },
            },
        };
        let theme = read_choice(
            "theme",
            get("theme").as_deref(),
            &ThemeChoice::OPTIONS,
            ThemeChoice::Auto,
            &mut notices,
        );
        let embed = get("embed").is_some_and(|v| v == "1" || v == "true");
        let show_controls = get("controls").is_none_or(|v| v != "0" && v != "false");
        let panel = panel_param.and_then(|p| {
            if view.has_panel(&p) {
                Some(p)
            } else {
                notices.push(
                    "panel",
                    format!(
                        "“{}” is not a panel of PE Lab; showing all panels.",
                        super::params::shorten(&p, 24)
                    ),
                );
                None
            }
        });
        // Only the current view's parameters are read: views share some names
        // (`layout`, `seq_len`) with different meanings.
        let highlight = Highlight::read(&get, &mut notices);
        let lesson = get("lesson").and_then(|raw| match super::lesson::lesson_source(&raw) {
            Ok(source) => Some(LessonLocation {
                source,
                step: STEP.read(get("step").as_deref(), &mut notices) as usize,
                present: get("present").is_some_and(|v| v == "1" || v == "true"),
                revealed: get("revealed").is_some_and(|v| v == "1"),
            }),
            Err(message) => {
                notices.push("lesson", message);
                None
            }
        });
        let hidden = read_controls("hide", get("hide"), view, &mut notices);
        let locked = read_controls("lock", get("lock"), view, &mut notices);
        let mut state = AppState {
            view,
            theme,
            embed,
            panel,
            show_controls,
            hidden,
            locked,
            highlight,
            lesson,
            ..AppState::default()
        };
        (view.spec().read)(&get, &mut notices, &mut state);
        (state, notices)
    }

    /// The query string (without `?`) that restores this exact state.
    pub fn to_query(&self) -> String {
        let mut out: Vec<(&'static str, String)> = Vec::new();
        if let Some(lesson) = &self.lesson {
            // A lesson's step gives the view and its state: the URL names only the step.
            out.push(("lesson", lesson.source.clone()));
            out.push(("step", lesson.step.to_string()));
            if lesson.present {
                out.push(("present", "1".to_string()));
            }
            if lesson.revealed {
                out.push(("revealed", "1".to_string()));
            }
        } else {
            out.push(("view", self.view.name().to_string()));
            (self.view.spec().write)(self, &mut out);
            self.highlight.write(&mut out);
            for (key, names) in [("hide", &self.hidden), ("lock", &self.locked)] {
                if !names.is_empty() {
                    out.push((key, names.join(",")));
                }
            }
        }
        if self.theme != ThemeChoice::Auto {
            out.push(("theme", self.theme.name().to_string()));
        }
        if self.embed {
            out.push(("embed", "1".to_string()));
        }
        if let Some(panel) = &self.panel {
            out.push(("panel", panel.clone()));
        }
        if !self.show_controls {
            out.push(("controls", "0".to_string()));
        }
        join(&out)
    }

    /// One line that states the view's parameters, for an embed whose controls are hidden:
    /// "RoPE — head_dim 64 · theta 10000 · …" (the names are the URL's).
    pub fn caption(&self) -> String {
        let mut params = Vec::new();
        (self.view.spec().write)(self, &mut params);
        let parts: Vec<String> = params
            .iter()
            .map(|(name, value)| format!("{name} {}", value.replace(',', ", ")))
            .collect();
        format!("{} — {}", self.view.title(), parts.join(" · "))
    }

    /// The query of the permalink: this exact state as a full page (chrome shown, all panels).
    pub fn permalink_query(&self) -> String {
        AppState {
            embed: false,
            panel: None,
            show_controls: true,
            ..self.clone()
        }
        .to_query()
    }

    /// The query of an embedded panel of this state (`embed=1&panel=…`, `controls=0` when the
    /// controls are hidden). A panel that is not in the current view embeds the whole view.
    pub fn embed_query(&self, panel: &str, controls: bool) -> String {
        AppState {
            embed: true,
            panel: self.view.has_panel(panel).then(|| panel.to_string()),
            show_controls: controls,
            ..self.clone()
        }
        .to_query()
    }
}

/// Reads `hide=` or `lock=`: the view's controls named in the list, each once, in the order
/// given. A name the view does not have is ignored with a notice (one, for the first).
fn read_controls(
    key: &'static str,
    raw: Option<String>,
    view: View,
    notices: &mut Notices,
) -> Vec<&'static str> {
    let mut names = Vec::new();
    let mut told = false;
    for name in raw.as_deref().unwrap_or_default().split(',') {
        let name = name.trim();
        match view.control(name) {
            Some(c) if !names.contains(&c) => names.push(c),
            None if !name.is_empty() && !told => {
                told = true;
                notices.push(
                    key,
                    format!(
                        "“{}” is not a control of this view; ignored.",
                        super::params::shorten(name, 24)
                    ),
                );
            }
            _ => {}
        }
    }
    names
}

/// A ready `<iframe>` for a course page, and the few lines that let the host size it from the
/// `pe-lab:resize` messages the embedded page posts. `src` is the absolute embed URL.
pub fn iframe_snippet(src: &str, title: &str) -> String {
    let attr = |s: &str| {
        s.replace('&', "&amp;")
            .replace('"', "&quot;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    format!(
        "<iframe src=\"{}\" title=\"{}\" width=\"100%\" height=\"560\" style=\"border:0\" loading=\"lazy\"></iframe>\n\
<script>\n\
addEventListener(\"message\", (e) => {{\n\
  if (!e.data || e.data.type !== \"pe-lab:resize\") return;\n\
  for (const f of document.querySelectorAll(\"iframe\"))\n\
    if (f.contentWindow === e.source) f.style.height = e.data.height + \"px\";\n\
}});\n\
</script>\n",
        attr(src),
        attr(title)
    )
}
