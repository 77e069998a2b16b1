//! CSV with a header line and numbers at full precision.
//!
//! Every number is written as the shortest decimal that parses back to the same `f64`.

use std::fmt::Write;

/// Appends `v` as the shortest round-trip decimal (`1e-7` style for very small or large).
pub fn push_number(out: &mut String, v: f64) {
    let a = v.abs();
    // `write!` to a String cannot fail.
    if v.is_nan() {
        // Lower case, as NumPy and the reference files write it ("inf" and "-inf" already are).
        out.push_str("nan");
        return;
    }
    let _ = if a == 0.0 || (1e-5..1e16).contains(&a) || !v.is_finite() {
        write!(out, "{v}")
    } else {
        write!(out, "{v:e}")
    };
}

/// Quotes a header field when it holds a comma, quote or line break.
pub fn field(name: &str) -> String {
    if name.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", name.replace('"', "\"\""))
    } else {
        name.to_string()
    }
}

/// A header line from column names, ending in a newline.
pub fn header<S: AsRef<str>>(names: &[S]) -> String {
    let mut line = names
        .iter()
        .map(|n| field(n.as_ref()))
        .collect::<Vec<_>>()
        .join(",");
    line.push('\n');
    line
}

/// Appends one line of numbers.
pub fn push_row(out: &mut String, values: &[f64]) {
    for (n, v) in values.iter().enumerate() {
        if n > 0 {
            out.push(',');
        }
        push_number(out, *v);
    }
    out.push('\n');
}

/// A table of named numeric columns (a line chart's data: x first, then one column per series).
pub fn columns_csv<S: AsRef<str>>(names: &[S], columns: &[&[f64]]) -> String {
    let rows = columns.iter().map(|c| c.len()).max().unwrap_or(0);
    let mut out = header(names);
    let mut line = vec![f64::NAN; columns.len()];
    for r in 0..rows {
        for (cell, col) in line.iter_mut().zip(columns) {
            *cell = col.get(r).copied().unwrap_or(f64::NAN);
        }
        push_row(&mut out, &line);
    }
    out
}

/// Streams a matrix as CSV: the header, then `rows` lines filled by `fill_row`, handed to
/// `emit` in chunks of about `chunk_bytes`.
pub fn stream_matrix<S: AsRef<str>>(
    names: &[S],
    rows: usize,
    mut fill_row: impl FnMut(usize, &mut [f64]),
    chunk_bytes: usize,
    mut emit: impl FnMut(String),
) {
    let mut chunk = header(names);
    let mut row = vec![0.0; names.len()];
    for r in 0..rows {
        fill_row(r, &mut row);
        push_row(&mut chunk, &row);
        if chunk.len() >= chunk_bytes {
            emit(std::mem::take(&mut chunk));
        }
    }
    if !chunk.is_empty() {
        emit(chunk);
    }
}

/// The first rows and columns of a CSV, for the "show data as table" view of a chart.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Preview {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// Data rows in the whole CSV.
    pub total_rows: usize,
    /// Columns in the whole CSV.
    pub total_cols: usize,
}

impl Preview {
    /// Reads at most `max_rows` data rows and `max_cols` columns of a CSV text.
    pub fn from_text(text: &str, max_rows: usize, max_cols: usize) -> Preview {
        let mut lines = text.lines().filter(|l| !l.is_empty());
        let header = lines.next().map(split_line).unwrap_or_default();
        let total_cols = header.len();
        let mut rows = Vec::new();
        let mut total_rows = 0;
        for line in lines {
            if rows.len() < max_rows {
                rows.push(split_line(line).into_iter().take(max_cols).collect());
            }
            total_rows += 1;
        }
        Preview {
            header: header.into_iter().take(max_cols).collect(),
            rows,
            total_rows,
            total_cols,
        }
    }
}

impl Preview {
    /// An HTML table of the preview (text escaped), with a caption saying what is left out.
    pub fn to_html(&self) -> String {
        use crate::format::escape_html as esc;
        let mut out = format!(
            "<table class=\"data\"><caption>{} of {} rows, {} of {} columns; the CSV holds them all.</caption><thead><tr>",
            self.rows.len(),
            self.total_rows,
            self.header.len(),
            self.total_cols
        );
        // Headers in words (`export::words`), the CSV's name under each that has other words.
        for h in &self.header {
            out += &match super::words::header_words(h) {
                Some(words) => format!(
                    "<th scope=\"col\">{}<br><code>{}</code></th>",
                    esc(&words),
                    esc(h)
                ),
                None => format!("<th scope=\"col\">{}</th>", esc(h)),
            };
        }
        out += "</tr></thead><tbody>";
        for row in &self.rows {
            out += "<tr>";
            for v in row {
                out += &format!("<td>{}</td>", esc(v));
            }
            out += "</tr>";
        }
        out + "</tbody></table>"
    }
}

/// The fields of one CSV line (quoted fields may hold commas and doubled quotes).
pub fn split_line(line: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(std::mem::take(&mut field)),
            _ => field.push(c),
        }
    }
    fields.push(field);
    fields
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn previews_read_the_first_rows_and_columns() {
        let p = Preview::from_text("a,\"b, c\",d\n1,2,3\n4,\"x \"\"y\"\"\",6\n7,8,9\n", 2, 2);
        assert_eq!(p.header, ["a", "b, c"]);
        assert_eq!(p.rows, [vec!["1", "2"], vec!["4", "x \"y\""]]);
        assert_eq!((p.total_rows, p.total_cols), (3, 3));
        assert_eq!(Preview::from_text("", 5, 5), Preview::default());
        assert_eq!(split_line(""), [""]);
        let html = Preview::from_text("a<b\n1\n", 5, 5).to_html();
        assert!(html.contains("<th scope=\"col\">a&lt;b</th>") && html.contains("<td>1</td>"));
        assert!(html.contains("1 of 1 rows, 1 of 1 columns"));
    }

    #[test]
    fn numbers_round_trip() {
        for v in [
            0.0,
            -0.0,
            1.0,
            0.1,
            1.0 / 3.0,
            1e-7,
            2.5e-300,
            1e20,
            -0.8414709848078965,
        ] {
            let mut s = String::new();
            push_number(&mut s, v);
            assert_eq!(s.parse::<f64>().unwrap().to_bits(), v.to_bits(), "{s}");
        }
    }

    #[test]
    fn matrix_streams_in_chunks() {
        let mut chunks = Vec::new();
        stream_matrix(
            &["a", "b"],
            3,
            |r, row| row.fill(r as f64),
            8,
            |c| chunks.push(c),
        );
        assert!(chunks.len() > 1);
        assert_eq!(chunks.concat(), "a,b\n0,0\n1,1\n2,2\n");
    }

    #[test]
    fn header_quotes_awkward_names() {
        assert_eq!(header(&["x", "m=1,2", "q\""]), "x,\"m=1,2\",\"q\"\"\"\n");
        assert_eq!(
            columns_csv(&["x", "y"], &[&[1.0, 2.0], &[3.0]]),
            "x,y\n1,3\n2,nan\n"
        );
    }
}
