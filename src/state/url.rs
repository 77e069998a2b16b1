//! The state's home, the URL query string: reading any query into a valid state (clamping,
//! with notices) and writing it back.

use super::app::{lesson_source, AppState, Highlight, LessonLocation, ThemeChoice, MAX_STEPS};
use super::params::{read_choice, IntSpec, Notices};
use super::query::{join, split};
use super::registry;
use super::View;

const STEP: IntSpec = IntSpec {
    name: "step",
    label: "Lesson step",
    min: 1,
    max: MAX_STEPS as i64,
    default: 1,
    unit: "",
};

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
        let lesson = get("lesson").and_then(|raw| match lesson_source(&raw) {
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
            author: get("author").is_some_and(|v| v == "1"),
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
        if self.author {
            out.push(("author", "1".to_string()));
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
