//! The Notation table: one symbol per quantity across PE Lab. It is data
//! (`assets/notation.json`, served beside the app as `notation.json`), fetched when a reader
//! opens it, read here into checked rows, and shown as an HTML table; the README's copy is the
//! same table as Markdown (a native test keeps them equal).

use crate::encoding::json::Json;
use crate::format::escape_html;

/// Where the table is served, relative to the page (works under any sub-path).
pub const NOTATION_URL: &str = "./notation.json";

/// One symbol: how it is written, what it means, where it is used.
#[derive(Clone, Debug, PartialEq)]
pub struct Symbol {
    pub symbol: String,
    pub meaning: String,
    pub used_in: String,
}

/// The whole table.
#[derive(Clone, Debug, PartialEq)]
pub struct Notation {
    pub intro: String,
    pub symbols: Vec<Symbol>,
}

fn text(json: &Json, field: &str, at: &str) -> Result<String, String> {
    json.get(field)
        .and_then(Json::as_str)
        .map(str::to_string)
        .filter(|s| !s.trim().is_empty())
        .ok_or_else(|| format!("{at}: “{field}” is missing or empty"))
}

/// Reads the table. Never panics; a problem is one message.
pub fn parse_notation(source: &str) -> Result<Notation, String> {
    let json = Json::parse(source).map_err(|e| format!("not valid JSON ({e})"))?;
    let intro = text(&json, "intro", "the table")?;
    let Some(Json::Array(rows)) = json.get("symbols") else {
        return Err("“symbols” must be a list".into());
    };
    let symbols = rows
        .iter()
        .enumerate()
        .map(|(n, row)| {
            let at = format!("symbol {}", n + 1);
            Ok(Symbol {
                symbol: text(row, "symbol", &at)?,
                meaning: text(row, "meaning", &at)?,
                used_in: text(row, "where", &at)?,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(Notation { intro, symbols })
}

impl Notation {
    /// The table as HTML, every text escaped.
    pub fn to_html(&self) -> String {
        let mut out = format!(
            "<p>{}</p><table class=\"notation\"><thead><tr><th scope=\"col\">Symbol</th><th scope=\"col\">Meaning</th><th scope=\"col\">Used in</th></tr></thead><tbody>",
            escape_html(&self.intro)
        );
        for s in &self.symbols {
            out.push_str(&format!(
                "<tr><th scope=\"row\">{}</th><td>{}</td><td>{}</td></tr>",
                escape_html(&s.symbol),
                escape_html(&s.meaning),
                escape_html(&s.used_in)
            ));
        }
        out.push_str("</tbody></table>");
        out
    }

    /// The table as Markdown (the README's copy).
    pub fn to_markdown(&self) -> String {
        let mut out = String::from("| Symbol | Meaning | Used in |\n| --- | --- | --- |\n");
        for s in &self.symbols {
            out.push_str(&format!(
                "| `{}` | {} | {} |\n",
                s.symbol,
                s.meaning.replace('|', "\\|"),
                s.used_in
            ));
        }
        out
    }
}
