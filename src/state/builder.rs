//! The lesson builder's model (`?author=1`): a lesson being written, which may be incomplete
//! or wrong while the teacher works. It is written out in exactly the format the lesson loader
//! reads (`state::lesson`), and it is checked by that loader, so the builder's messages are the
//! loader's. Drafts are kept in the browser as a list of named lessons in the same format; a
//! lesson travels in a share link as `#lesson=v1.…` (`state::lesson_link`).

use super::lesson::{lesson_problems, Answer, Lesson, LessonError, Step, MAX_STEPS};
use super::registry;
use super::View;
use crate::encoding::json::Json;

/// At most this many drafts are kept in one browser.
pub const MAX_DRAFTS: usize = 50;
/// A draft's name is cut to this many characters.
pub const MAX_NAME_CHARS: usize = 80;

/// A lesson being written.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Draft {
    pub title: String,
    pub steps: Vec<DraftStep>,
}

/// A step being written: its fields as typed (possibly empty or out of range).
#[derive(Clone, Debug, PartialEq)]
pub struct DraftStep {
    pub title: String,
    /// The view the step's panels belong to.
    pub view: View,
    /// The step's panel IDs (the loader wants one or two of `view`'s).
    pub panels: Vec<String>,
    /// The page's state as a query, without `view=` (parameters, `hl_cols`/`hl_pos`, `hide`,
    /// `lock`).
    pub state: String,
    pub text: String,
    pub try_this: String,
    /// The control the prompt names; empty for none.
    pub control: String,
    pub question: Option<DraftQuestion>,
}

/// A question being written.
#[derive(Clone, Debug, PartialEq)]
pub struct DraftQuestion {
    pub ask: String,
    pub explain: String,
    pub answer: DraftAnswer,
    /// The reveal state's query; empty for none.
    pub reveal: String,
}

/// A question's answer being written.
#[derive(Clone, Debug, PartialEq)]
pub enum DraftAnswer {
    /// Multiple choice; `right` counts from 0 (none chosen yet: `None`).
    Choice {
        choices: Vec<String>,
        right: Option<usize>,
    },
    /// A number and a tolerance, as typed.
    Number { value: String, tolerance: String },
}

impl DraftAnswer {
    /// A new multiple-choice answer: two empty choices.
    pub fn choice() -> DraftAnswer {
        DraftAnswer::Choice {
            choices: vec![String::new(), String::new()],
            right: None,
        }
    }

    /// A new number answer.
    pub fn number() -> DraftAnswer {
        DraftAnswer::Number {
            value: String::new(),
            tolerance: "0".to_string(),
        }
    }
}

impl DraftStep {
    /// A step that shows `state` (a page's query without `view=`) on `view`, with the view's
    /// first panel, and no words yet.
    pub fn capture(view: View, state: &str) -> DraftStep {
        DraftStep {
            title: String::new(),
            view,
            panels: view
                .spec()
                .panels
                .first()
                .map(|p| vec![p.id.to_string()])
                .unwrap_or_default(),
            state: state.to_string(),
            text: String::new(),
            try_this: String::new(),
            control: String::new(),
            question: None,
        }
    }

    /// The step as the lesson file holds it.
    pub fn to_json(&self) -> Json {
        let s = |v: &str| Json::String(v.to_string());
        let mut fields = vec![
            ("title".to_string(), s(&self.title)),
            (
                "panels".to_string(),
                Json::Array(self.panels.iter().map(|p| s(p)).collect()),
            ),
            ("state".to_string(), s(&self.state)),
            ("text".to_string(), s(&self.text)),
            ("try".to_string(), s(&self.try_this)),
        ];
        if !self.control.is_empty() {
            fields.push(("control".to_string(), s(&self.control)));
        }
        if let Some(q) = &self.question {
            let mut question = vec![("ask".to_string(), s(&q.ask))];
            match &q.answer {
                DraftAnswer::Choice { choices, right } => {
                    question.push((
                        "choices".to_string(),
                        Json::Array(choices.iter().map(|c| s(c)).collect()),
                    ));
                    if let Some(right) = right {
                        question.push(("answer".to_string(), Json::Number(*right as f64 + 1.0)));
                    }
                }
                DraftAnswer::Number { value, tolerance } => {
                    question.push(("answer".to_string(), number_or_text(value)));
                    question.push(("tolerance".to_string(), number_or_text(tolerance)));
                }
            }
            question.push(("explain".to_string(), s(&q.explain)));
            if !q.reveal.is_empty() {
                question.push(("reveal".to_string(), s(&q.reveal)));
            }
            fields.push(("question".to_string(), Json::Object(question)));
        }
        Json::Object(fields)
    }

    /// Reads a step of a lesson file, whatever it holds: what cannot be read is left empty
    /// (the loader's checks then say what is missing). The view is the first known panel's.
    pub fn from_json(json: &Json) -> DraftStep {
        let text = |j: &Json, key: &str| j.get(key).and_then(Json::as_str).map(bounded);
        let panels: Vec<String> = match json.get("panels") {
            Some(Json::Array(list)) => list
                .iter()
                .filter_map(Json::as_str)
                .take(super::lesson::MAX_PANELS)
                .map(bounded)
                .collect(),
            _ => Vec::new(),
        };
        let view = panels
            .iter()
            .find_map(|p| registry::view_of_panel(p))
            .map(|spec| spec.view)
            .unwrap_or_default();
        let question = json.get("question").map(|q| {
            let answer = match q.get("choices") {
                Some(Json::Array(list)) => {
                    let choices: Vec<String> = list
                        .iter()
                        .take(*super::lesson::CHOICES.end())
                        .map(|c| c.as_str().map(bounded).unwrap_or_default())
                        .collect();
                    let right = q
                        .get("answer")
                        .and_then(Json::as_f64)
                        .filter(|a| a.fract() == 0.0 && *a >= 1.0 && *a <= choices.len() as f64)
                        .map(|a| a as usize - 1);
                    DraftAnswer::Choice { choices, right }
                }
                _ => DraftAnswer::Number {
                    value: number_text(q.get("answer")),
                    tolerance: number_text(q.get("tolerance")),
                },
            };
            DraftQuestion {
                ask: text(q, "ask").unwrap_or_default(),
                explain: text(q, "explain").unwrap_or_default(),
                answer,
                reveal: text(q, "reveal").unwrap_or_default(),
            }
        });
        // A file may give highlights apart from the state (and its reveal, unless it names
        // its own); the builder keeps them in the queries, as the loader reads them.
        let highlights: Vec<String> = [("cols", "hl_cols"), ("positions", "hl_pos")]
            .iter()
            .filter_map(|(key, name)| {
                let Some(Json::Array(list)) = json.get("highlight")?.get(key) else {
                    return None;
                };
                let values: Vec<String> = list
                    .iter()
                    .filter_map(Json::as_f64)
                    .map(|v| v.to_string())
                    .collect();
                (!values.is_empty()).then(|| format!("{name}={}", values.join(",")))
            })
            .collect();
        let with_highlights = |query: String| {
            let own = query
                .split('&')
                .any(|p| p.starts_with("hl_cols=") || p.starts_with("hl_pos="));
            if own || highlights.is_empty() {
                return query;
            }
            let mut parts: Vec<String> = (!query.is_empty()).then_some(query).into_iter().collect();
            parts.extend(highlights.iter().cloned());
            parts.join("&")
        };
        let state = with_highlights(text(json, "state").unwrap_or_default());
        let question = question.map(|mut q| {
            if !q.reveal.is_empty() {
                q.reveal = with_highlights(std::mem::take(&mut q.reveal));
            }
            q
        });
        DraftStep {
            title: text(json, "title").unwrap_or_default(),
            view,
            panels,
            state,
            text: text(json, "text").unwrap_or_default(),
            try_this: text(json, "try").unwrap_or_default(),
            control: text(json, "control").unwrap_or_default(),
            question,
        }
    }
}

/// A text field read from someone else's file: at most a little over the loader's limit, so
/// that an over-long text is still reported as such but never held in full.
fn bounded(s: &str) -> String {
    s.chars().take(super::lesson::MAX_TEXT_CHARS + 1).collect()
}

/// A number field as typed: a number if it reads as one, else the text (the loader says it
/// must be a number).
fn number_or_text(typed: &str) -> Json {
    match typed.trim().parse::<f64>() {
        Ok(v) if v.is_finite() => Json::Number(v),
        _ => Json::String(typed.to_string()),
    }
}

fn number_text(json: Option<&Json>) -> String {
    match json {
        Some(Json::Number(v)) => v.to_string(),
        Some(Json::String(s)) => bounded(s),
        _ => String::new(),
    }
}

impl Draft {
    /// The lesson file (the format `?lesson=<path>` opens), indented as PE Lab's own.
    pub fn to_file(&self) -> String {
        self.to_json().to_text(true)
    }

    pub fn to_json(&self) -> Json {
        Json::Object(vec![
            ("title".to_string(), Json::String(self.title.clone())),
            (
                "steps".to_string(),
                Json::Array(self.steps.iter().map(DraftStep::to_json).collect()),
            ),
        ])
    }

    /// What [`Draft::from_file`] leaves out of a lesson file: steps past [`MAX_STEPS`], panels
    /// past a step's two. Said when the file is opened, so that nothing is lost unsaid.
    pub fn cut_from(text: &str) -> Vec<String> {
        let Some(Json::Array(steps)) = Json::parse(text).ok().and_then(|j| j.get("steps").cloned())
        else {
            return Vec::new();
        };
        let mut notes = Vec::new();
        if steps.len() > MAX_STEPS {
            notes.push(format!(
                "kept its first {MAX_STEPS} steps of {} (a lesson has at most {MAX_STEPS})",
                steps.len()
            ));
        }
        let over: Vec<String> = steps
            .iter()
            .take(MAX_STEPS)
            .enumerate()
            .filter(|(_, step)| {
                matches!(step.get("panels"), Some(Json::Array(p)) if p.len() > super::lesson::MAX_PANELS)
            })
            .map(|(i, _)| (i + 1).to_string())
            .collect();
        if !over.is_empty() {
            notes.push(format!(
                "{} {}{} kept {} first {} panels",
                if over.len() == 1 { "step" } else { "steps" },
                over[..over.len().min(5)].join(", "),
                if over.len() > 5 { ", …" } else { "" },
                if over.len() == 1 { "its" } else { "their" },
                super::lesson::MAX_PANELS
            ));
        }
        notes
    }

    /// Reads a lesson file into a draft, whatever it holds (at most [`MAX_STEPS`] steps):
    /// an error only when it is not JSON or not an object.
    pub fn from_file(text: &str) -> Result<Draft, String> {
        if text.len() > super::lesson::MAX_LESSON_BYTES {
            return Err(format!(
                "the file is larger than {} KB",
                super::lesson::MAX_LESSON_BYTES / 1024
            ));
        }
        let json = Json::parse(text).map_err(|e| format!("not valid JSON ({e})"))?;
        Draft::from_json(&json)
    }

    pub fn from_json(json: &Json) -> Result<Draft, String> {
        if !matches!(json, Json::Object(_)) {
            return Err("a lesson is a JSON object with “title” and “steps”".to_string());
        }
        let steps = match json.get("steps") {
            Some(Json::Array(list)) => list
                .iter()
                .take(MAX_STEPS)
                .map(DraftStep::from_json)
                .collect(),
            _ => Vec::new(),
        };
        Ok(Draft {
            title: json
                .get("title")
                .and_then(Json::as_str)
                .map(bounded)
                .unwrap_or_default(),
            steps,
        })
    }

    /// A checked lesson as a draft (a copy of a shipped lesson, to start from).
    pub fn from_lesson(lesson: &Lesson) -> Draft {
        Draft {
            title: lesson.title.clone(),
            steps: lesson.steps.iter().map(draft_step).collect(),
        }
    }

    /// What the lesson loader says of this draft: the lesson's own problems (step `None`) and
    /// each step's first.
    pub fn problems(&self) -> Vec<LessonError> {
        lesson_problems(&self.to_json().to_text(false))
    }

    /// The lesson, if the loader reads it.
    pub fn lesson(&self) -> Option<Lesson> {
        super::lesson::parse_lesson(&self.to_json().to_text(false)).ok()
    }
}

/// A loader's problem as the builder's form names things: its labels, not the file's keys
/// (“Try this”, not `try`), and the right choice marked, not numbered.
pub fn for_builder(e: &LessonError) -> String {
    let label = match (e.step, e.field.as_str()) {
        (None, "title") => "Lesson title",
        (_, "title") => "Title",
        (_, "text") => "Text",
        (_, "try") => "Try this",
        (_, "panels") => "Panels",
        (_, "control") => "The control the prompt names",
        (_, "question.ask") => "Question",
        (_, "question.choices") => "Choices",
        (_, "question.answer") => "Answer",
        (_, "question.tolerance") => "Tolerance (±)",
        (_, "question.explain") => "Explanation",
        (_, "question.reveal") => "Reveal",
        (_, "highlight.cols") => "Outline columns",
        (_, "highlight.pos") => "Outline positions (rows)",
        (_, other) => other,
    };
    let message = if e.message.starts_with("must be the right choice's number") {
        "mark the right choice"
    } else {
        &e.message
    };
    match (e.step, label.is_empty()) {
        (Some(n), true) => format!("Step {n}: {message}"),
        (Some(n), false) => format!("Step {n}, “{label}”: {message}"),
        (None, true) => message.to_string(),
        (None, false) => format!("“{label}”: {message}"),
    }
}

fn draft_step(step: &Step) -> DraftStep {
    DraftStep {
        title: step.title.clone(),
        view: step.view,
        panels: step.panels.iter().map(|p| p.to_string()).collect(),
        state: step.state.clone(),
        text: step.text.clone(),
        try_this: step.try_this.clone(),
        control: step.control.clone().unwrap_or_default(),
        question: step.question.as_ref().map(|q| DraftQuestion {
            ask: q.ask.clone(),
            explain: q.explain.clone(),
            answer: match &q.answer {
                Answer::Choice { choices, right } => DraftAnswer::Choice {
                    choices: choices.clone(),
                    right: Some(*right),
                },
                Answer::Number { value, tolerance } => DraftAnswer::Number {
                    value: value.to_string(),
                    tolerance: tolerance.to_string(),
                },
            },
            reveal: q.reveal.clone().unwrap_or_default(),
        }),
    }
}

/// The drafts kept in one browser (localStorage), the one being edited first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Shelf {
    /// Each draft with its name.
    pub drafts: Vec<(String, Draft)>,
    /// The draft being edited (an index into `drafts`).
    pub current: usize,
}

impl Shelf {
    /// The stored text.
    pub fn to_text(&self) -> String {
        Json::Object(vec![
            ("version".to_string(), Json::Number(1.0)),
            ("current".to_string(), Json::Number(self.current as f64)),
            (
                "drafts".to_string(),
                Json::Array(
                    self.drafts
                        .iter()
                        .map(|(name, draft)| {
                            Json::Object(vec![
                                ("name".to_string(), Json::String(name.clone())),
                                ("lesson".to_string(), draft.to_json()),
                            ])
                        })
                        .collect(),
                ),
            ),
        ])
        .to_text(false)
    }

    /// Reads the stored text; anything unreadable is an empty shelf (never a panic). The
    /// current index is brought within the list.
    pub fn from_text(text: &str) -> Shelf {
        let Ok(json) = Json::parse(text) else {
            return Shelf::default();
        };
        let drafts: Vec<(String, Draft)> = match json.get("drafts") {
            Some(Json::Array(list)) => list
                .iter()
                .take(MAX_DRAFTS)
                .filter_map(|d| {
                    let name = d.get("name").and_then(Json::as_str)?;
                    let draft = Draft::from_json(d.get("lesson")?).ok()?;
                    Some((name.chars().take(MAX_NAME_CHARS).collect(), draft))
                })
                .collect(),
            _ => Vec::new(),
        };
        let current = json
            .get("current")
            .and_then(Json::as_f64)
            .filter(|c| c.fract() == 0.0 && *c >= 0.0)
            .map_or(0, |c| c as usize)
            .min(drafts.len().saturating_sub(1));
        Shelf { drafts, current }
    }

    /// A name not yet on the shelf: `base`, else `base 2`, `base 3`…
    pub fn fresh_name(&self, base: &str) -> String {
        let base: String = base.trim().chars().take(MAX_NAME_CHARS - 4).collect();
        let base = if base.is_empty() {
            "Untitled lesson".to_string()
        } else {
            base
        };
        let taken = |n: &str| self.drafts.iter().any(|(name, _)| name == n);
        if !taken(&base) {
            return base;
        }
        (2..)
            .map(|i| format!("{base} {i}"))
            .find(|n| !taken(n))
            .unwrap_or(base)
    }
}

/// The page's state as a step holds it: the view's parameters, highlights, hidden and locked
/// controls (no `view=`, theme, embed, panel, lesson or builder flags).
pub fn step_query(state: &super::AppState) -> String {
    let page = super::AppState {
        theme: Default::default(),
        embed: false,
        panel: None,
        show_controls: true,
        lesson: None,
        author: false,
        ..state.clone()
    }
    .to_query();
    let prefix = format!("view={}", state.view.name());
    page.strip_prefix(&prefix)
        .map(|rest| rest.trim_start_matches('&').to_string())
        .unwrap_or(page)
}

/// The page a step's query shows (as the lesson loader reads it).
pub fn step_state(view: View, query: &str) -> super::AppState {
    super::AppState::from_query(&format!("view={}&{query}", view.name())).0
}
