//! Lessons: a guided path through PE Lab, one claim a step. A lesson is data — a small JSON
//! file — read here into checked steps; a missing field, an unknown panel or a state query the
//! URL parser would adjust is one clear error naming the step and the field.
//!
//! ```json
//! { "title": "Positional encoding",
//!   "steps": [
//!     { "title": "A pair shares one frequency",
//!       "panels": ["pe-curves"],
//!       "state": "seq_len=50&d_model=8&cols=4,5",
//!       "highlight": { "cols": [4, 5] },
//!       "text": "Columns 4 and 5 are the sine and the cosine of the same angle.",
//!       "try": "Predict what moving d_model does to their wavelength, then move it.",
//!       "control": "d_model" } ] }
//! ```
//!
//! A step may ask a question before it shows its point (a checkpoint): multiple choice
//! (`choices`, 2–5, and the right one's number from 1 as `answer`) or a number (`answer` and
//! `tolerance`). Until it is answered, the step shows its `state` with its panels locked;
//! answering or "Show me" applies `reveal` (a query with the rules of `state`; the step's
//! highlights are added unless it has its own `hl_cols`/`hl_pos`) and shows `explain`. The prompt ("try") comes with the reveal.
//!
//! ```json
//! "question": { "ask": "Column 301 of d_model = 512 holds…",
//!               "choices": ["a sine", "a cosine"], "answer": 2,
//!               "explain": "301 is odd, so it is a cosine: pair i = 150.",
//!               "reveal": "seq_len=50&d_model=512&hl_cols=301" }
//! ```

pub use super::app::{lesson_source, lesson_url, BUILT_IN, DRAFT, LINKED, MAX_STEPS};
use super::app::{AppState, Highlight, MAX_HIGHLIGHTS, MAX_HIGHLIGHT_INDEX};
use super::params::shorten;
use super::registry;
use super::View;
use crate::encoding::json::Json;

/// A lesson file larger than this is refused.
pub const MAX_LESSON_BYTES: usize = 256 * 1024;
/// At most this many characters in one text field.
pub const MAX_TEXT_CHARS: usize = 2_000;
/// At most this many panels in one step.
pub const MAX_PANELS: usize = 2;
/// A multiple-choice question has this many choices, at least and at most.
pub const CHOICES: std::ops::RangeInclusive<usize> = 2..=5;

/// A checked lesson.
#[derive(Clone, Debug, PartialEq)]
pub struct Lesson {
    pub title: String,
    pub steps: Vec<Step>,
}

/// One step: one claim, one or two panels in a fixed state.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub title: String,
    /// The view the panels belong to.
    pub view: View,
    /// One or two panel IDs of that view.
    pub panels: Vec<&'static str>,
    /// The step's state as a query (view parameters and highlights, no `view=`).
    pub state: String,
    /// The claim, as text (never HTML).
    pub text: String,
    /// The "Try this" prompt.
    pub try_this: String,
    /// The control the prompt names (a URL parameter of the view), kept in presenter mode.
    pub control: Option<String>,
    /// A checkpoint asked before the step's point is shown.
    pub question: Option<Question>,
}

/// A checkpoint: the question, its answer, the one-sentence explanation shown with the
/// answer, and the state the panels move to when it is revealed.
#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    pub ask: String,
    pub answer: Answer,
    pub explain: String,
    /// The query of the revealed state (with the step's highlights), if it differs.
    pub reveal: Option<String>,
}

/// What a question expects.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// One of `choices`; `right` counts from 0.
    Choice { choices: Vec<String>, right: usize },
    /// A number within `tolerance` of `value`.
    Number { value: f64, tolerance: f64 },
}

impl Answer {
    /// Whether a given answer is right: a choice's index, or a number.
    pub fn is_right(&self, given: f64) -> bool {
        match self {
            Answer::Choice { right, .. } => given == *right as f64,
            Answer::Number { value, tolerance } => (given - value).abs() <= *tolerance,
        }
    }

    /// The right answer, as said to the student.
    pub fn said(&self) -> String {
        match self {
            Answer::Choice { choices, right } => choices[*right].clone(),
            Answer::Number { value, tolerance } if *tolerance > 0.0 => {
                format!("{value} (± {tolerance})")
            }
            Answer::Number { value, .. } => value.to_string(),
        }
    }
}

impl Step {
    /// The application state of this step (its view, parameters and highlights).
    pub fn app_state(&self) -> AppState {
        self.state_of(&self.state)
    }

    /// The state once its question is revealed (the step's own state when there is none).
    pub fn revealed_state(&self) -> AppState {
        let reveal = self.question.as_ref().and_then(|q| q.reveal.as_deref());
        self.state_of(reveal.unwrap_or(&self.state))
    }

    /// Every text of the step a student reads: title, text, prompt, and its question's words
    /// and choices (what `tests/claims.rs` and `tests/notation.rs` check).
    pub fn texts(&self) -> Vec<&str> {
        let mut out = vec![self.title.as_str(), &self.text, &self.try_this];
        if let Some(q) = &self.question {
            out.extend([q.ask.as_str(), &q.explain]);
            if let Answer::Choice { choices, .. } = &q.answer {
                out.extend(choices.iter().map(String::as_str));
            }
        }
        out
    }

    fn state_of(&self, query: &str) -> AppState {
        AppState::from_query(&format!("view={}&{query}", self.view.name())).0
    }
}

/// What is wrong with a lesson file: where (step, 1-based, and field) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonError {
    pub step: Option<usize>,
    pub field: String,
    pub message: String,
}

impl std::fmt::Display for LessonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.step {
            Some(n) if self.field.is_empty() => write!(f, "step {n}: {}", self.message),
            Some(n) => write!(f, "step {n}, field “{}”: {}", self.field, self.message),
            None if self.field.is_empty() => write!(f, "{}", self.message),
            None => write!(f, "field “{}”: {}", self.field, self.message),
        }
    }
}

fn error(step: Option<usize>, field: &str, message: impl Into<String>) -> LessonError {
    LessonError {
        step,
        field: field.to_string(),
        message: message.into(),
    }
}

/// A text field: present, a string, not empty, not too long. `field` is named as the author
/// wrote it (`question.ask` is the key `ask` of the question).
fn text_field(json: &Json, step: Option<usize>, field: &str) -> Result<String, LessonError> {
    let key = field.rsplit('.').next().unwrap_or(field);
    let value = json
        .get(key)
        .ok_or_else(|| error(step, field, "missing"))?
        .as_str()
        .ok_or_else(|| error(step, field, "must be a string"))?
        .trim();
    if value.is_empty() {
        return Err(error(step, field, "is empty"));
    }
    if value.chars().count() > MAX_TEXT_CHARS {
        return Err(error(
            step,
            field,
            format!("is longer than {MAX_TEXT_CHARS} characters"),
        ));
    }
    Ok(value.to_string())
}

/// Reads a lesson file. Never panics; any problem is one [`LessonError`] (the first).
pub fn parse_lesson(text: &str) -> Result<Lesson, LessonError> {
    let (title, steps) = lesson_parts(text)?;
    let title = title?;
    let steps = steps
        .iter()
        .enumerate()
        .map(|(i, s)| parse_step(s, i + 1))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Lesson { title, steps })
}

/// Every problem of a lesson file, as the loader says it: the file's own (size, JSON, title,
/// the list of steps), then the first of each step, in order. Empty when [`parse_lesson`]
/// reads it. The lesson builder lists these beside the steps they concern.
pub fn lesson_problems(text: &str) -> Vec<LessonError> {
    let (title, steps) = match lesson_parts(text) {
        Ok(parts) => parts,
        Err(e) => return vec![e],
    };
    let mut problems: Vec<LessonError> = title.err().into_iter().collect();
    for (i, step) in steps.iter().enumerate() {
        if let Err(e) = parse_step(step, i + 1) {
            problems.push(e);
        }
    }
    problems
}

/// The title (or what is wrong with it) and the steps of a lesson file, unread; an error for a
/// file that is not a lesson at all.
#[allow(clippy::type_complexity)]
fn lesson_parts(text: &str) -> Result<(Result<String, LessonError>, Vec<Json>), LessonError> {
    if text.len() > MAX_LESSON_BYTES {
        return Err(error(
            None,
            "",
            format!("the file is larger than {} KB", MAX_LESSON_BYTES / 1024),
        ));
    }
    let json = Json::parse(text).map_err(|e| error(None, "", format!("not valid JSON ({e})")))?;
    if !matches!(json, Json::Object(_)) {
        return Err(error(
            None,
            "",
            "a lesson is a JSON object with “title” and “steps”",
        ));
    }
    let title = text_field(&json, None, "title");
    let steps = match json.get("steps") {
        Some(Json::Array(steps)) if steps.len() > MAX_STEPS => Err(error(
            None,
            "steps",
            format!("has more than {MAX_STEPS} steps"),
        )),
        Some(Json::Array(steps)) if !steps.is_empty() => Ok(steps),
        Some(Json::Array(_)) => Err(error(None, "steps", "has no step")),
        Some(_) => Err(error(None, "steps", "must be a list of steps")),
        None => Err(error(None, "steps", "missing")),
    };
    // The title's problem first, as a reader meets it.
    let steps = match (steps, &title) {
        (Ok(steps), _) => steps,
        (Err(_), Err(e)) => return Err(e.clone()),
        (Err(e), Ok(_)) => return Err(e),
    };
    Ok((title, steps.clone()))
}

fn parse_step(json: &Json, n: usize) -> Result<Step, LessonError> {
    let at = Some(n);
    if !matches!(json, Json::Object(_)) {
        return Err(error(at, "", "a step is a JSON object"));
    }
    let title = text_field(json, at, "title")?;
    let text = text_field(json, at, "text")?;
    let try_this = text_field(json, at, "try")?;
    let panels = match json.get("panels") {
        Some(Json::Array(list)) => list,
        Some(_) => return Err(error(at, "panels", "must be a list of panel IDs")),
        None => return Err(error(at, "panels", "missing")),
    };
    if panels.is_empty() || panels.len() > MAX_PANELS {
        return Err(error(at, "panels", "must name one or two panels"));
    }
    let mut ids = Vec::new();
    let mut view = None;
    for p in panels {
        let id = p
            .as_str()
            .ok_or_else(|| error(at, "panels", "must be a list of panel IDs"))?;
        let spec = registry::view_of_panel(id)
            .ok_or_else(|| error(at, "panels", format!("unknown panel “{}”", shorten(id, 40))))?;
        if view.is_some_and(|v| v != spec.view) {
            return Err(error(
                at,
                "panels",
                "the panels of a step must belong to one view",
            ));
        }
        view = Some(spec.view);
        let id = spec
            .panels
            .iter()
            .find(|p| p.id == id)
            .map(|p| p.id)
            .unwrap_or_default();
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    let view = view.unwrap_or_default();
    let highlights = match json.get("highlight") {
        Some(h) => highlight_query(h, at)?,
        None => String::new(),
    };
    let state = state_field(json.get("state"), at, "state", view, &highlights)?.unwrap_or_default();
    let question = match json.get("question") {
        None => None,
        Some(q) => Some(parse_question(q, at, view, &highlights, &state)?),
    };
    let (app, _) = AppState::from_query(&format!("view={}&{state}", view.name()));
    let control = match json.get("control") {
        None => None,
        Some(Json::String(name)) => {
            if view.control(name).is_none() {
                return Err(error(
                    at,
                    "control",
                    format!(
                        "“{}” is not one of the {} view's controls ({})",
                        shorten(name, 40),
                        view.title(),
                        view.spec().controls.replace(' ', ", ")
                    ),
                ));
            }
            for (names, how) in [
                (&app.hidden, "hides: a student could not see it"),
                (&app.locked, "locks: a student could not move it"),
            ] {
                if names.iter().any(|n| n == name) {
                    return Err(error(
                        at,
                        "control",
                        format!("the prompt names “{name}”, which the step {how}"),
                    ));
                }
            }
            Some(name.clone())
        }
        Some(_) => return Err(error(at, "control", "must be a control's URL name")),
    };
    Ok(Step {
        title,
        view,
        panels: ids,
        state,
        text,
        try_this,
        control,
        question,
    })
}

/// A question (see the module's documentation).
fn parse_question(
    json: &Json,
    at: Option<usize>,
    view: View,
    highlights: &str,
    state: &str,
) -> Result<Question, LessonError> {
    if !matches!(json, Json::Object(_)) {
        return Err(error(
            at,
            "question",
            "must be an object with “ask”, “answer” and “explain”",
        ));
    }
    let ask = text_field(json, at, "question.ask")?;
    let explain = text_field(json, at, "question.explain")?;
    let number = |field: &str| {
        json.get(field)
            .and_then(Json::as_f64)
            .filter(|v| v.is_finite())
    };
    let answer = match json.get("choices") {
        Some(Json::Array(list)) => {
            if !CHOICES.contains(&list.len()) {
                return Err(error(
                    at,
                    "question.choices",
                    format!("must hold {} to {} choices", CHOICES.start(), CHOICES.end()),
                ));
            }
            let choices = list
                .iter()
                .map(|c| match c.as_str().map(str::trim) {
                    Some(c) if !c.is_empty() && c.chars().count() <= 200 => Ok(c.to_string()),
                    _ => Err(error(
                        at,
                        "question.choices",
                        "each choice is a text of 1 to 200 characters",
                    )),
                })
                .collect::<Result<Vec<_>, _>>()?;
            let right = number("answer")
                .filter(|a| a.fract() == 0.0 && *a >= 1.0 && *a <= choices.len() as f64)
                .ok_or_else(|| {
                    error(
                        at,
                        "question.answer",
                        format!("must be the right choice's number, 1 to {}", choices.len()),
                    )
                })?;
            Answer::Choice {
                choices,
                right: right as usize - 1,
            }
        }
        Some(_) => return Err(error(at, "question.choices", "must be a list of texts")),
        None => Answer::Number {
            value: number("answer").ok_or_else(|| {
                error(
                    at,
                    "question.answer",
                    "must be a number (or, with “choices”, the right choice's number)",
                )
            })?,
            tolerance: number("tolerance").filter(|t| *t >= 0.0).ok_or_else(|| {
                error(
                    at,
                    "question.tolerance",
                    "must be a number from 0: how far from the answer still counts as right",
                )
            })?,
        },
    };
    let reveal = state_field(json.get("reveal"), at, "question.reveal", view, highlights)?;
    let read = |query: &str| AppState::from_query(&format!("view={}&{query}", view.name())).0;
    if reveal.as_deref().is_some_and(|r| read(r) == read(state)) {
        return Err(error(
            at,
            "question.reveal",
            "is the same as the step's state, so revealing would change nothing (change a control in it, or leave it out)",
        ));
    }
    Ok(Question {
        ask,
        answer,
        explain,
        reveal,
    })
}

/// A state query (`state`, `question.reveal`): checked as the URL parser would read it, with
/// the step's highlights added unless it names its own. `None` when the field is absent.
fn state_field(
    json: Option<&Json>,
    at: Option<usize>,
    field: &str,
    view: View,
    highlights: &str,
) -> Result<Option<String>, LessonError> {
    let mut state = match json {
        None => return Ok(None),
        Some(Json::String(s)) => s.trim().trim_start_matches('?').to_string(),
        Some(_) => return Err(error(at, field, "must be a query string")),
    };
    if state
        .split('&')
        .any(|p| p.split('=').next() == Some("view"))
    {
        return Err(error(
            at,
            field,
            "leave out view=: the panels give the view",
        ));
    }
    let own = state
        .split('&')
        .any(|p| p.starts_with("hl_cols=") || p.starts_with("hl_pos="));
    if !highlights.is_empty() && !own {
        if !state.is_empty() {
            state.push('&');
        }
        state.push_str(highlights);
    }
    let (_, notices) = AppState::from_query(&format!("view={}&{state}", view.name()));
    if let Some(first) = notices.items.first() {
        return Err(error(
            at,
            field,
            format!("{}: {}", first.param, first.message),
        ));
    }
    Ok(Some(state))
}

/// The step's highlights as a query (`hl_cols=…&hl_pos=…`).
fn highlight_query(h: &Json, at: Option<usize>) -> Result<String, LessonError> {
    let highlight = parse_highlight(h, at)?;
    let join = |v: &[usize]| {
        v.iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut parts = Vec::new();
    if !highlight.cols.is_empty() {
        parts.push(format!("hl_cols={}", join(&highlight.cols)));
    }
    if !highlight.positions.is_empty() {
        parts.push(format!("hl_pos={}", join(&highlight.positions)));
    }
    Ok(parts.join("&"))
}

fn parse_highlight(json: &Json, at: Option<usize>) -> Result<Highlight, LessonError> {
    let list = |key: &str| -> Result<Vec<usize>, LessonError> {
        let field = format!("highlight.{key}");
        match json.get(key) {
            None => Ok(Vec::new()),
            Some(Json::Array(items)) if items.len() <= MAX_HIGHLIGHTS => items
                .iter()
                .map(|v| {
                    v.as_f64()
                        .filter(|x| {
                            x.fract() == 0.0 && (0.0..=MAX_HIGHLIGHT_INDEX as f64).contains(x)
                        })
                        .map(|x| x as usize)
                        .ok_or_else(|| error(at, &field, "must hold whole numbers from 0"))
                })
                .collect(),
            Some(_) => Err(error(
                at,
                &field,
                format!("must be a list of at most {MAX_HIGHLIGHTS} numbers"),
            )),
        }
    };
    if !matches!(json, Json::Object(_)) {
        return Err(error(
            at,
            "highlight",
            "must be an object with “cols” and/or “positions”",
        ));
    }
    Ok(Highlight {
        cols: list("cols")?,
        positions: list("positions")?,
    })
}
