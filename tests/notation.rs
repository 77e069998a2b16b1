//! The Notation table: it parses, names each symbol once, and the README holds the same table.
#![cfg(not(target_arch = "wasm32"))]

use pe_lab::state::notation::parse_notation;

fn read(path: &str) -> String {
    std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).expect(path)
}

#[test]
fn the_table_parses_and_each_symbol_is_listed_once() {
    let table = parse_notation(&read("assets/notation.json")).expect("valid table");
    assert!(table.symbols.len() >= 20);
    let mut seen = std::collections::HashSet::new();
    for s in &table.symbols {
        assert!(
            seen.insert(s.symbol.clone()),
            "{} is listed twice",
            s.symbol
        );
    }
    let html = table.to_html();
    assert!(html.contains("<th scope=\"row\">ω_i</th>"));
    assert!(!html.contains("<script"));
}

#[test]
fn the_readme_holds_the_same_table() {
    let table = parse_notation(&read("assets/notation.json")).expect("valid table");
    assert!(
        read("README.md").contains(&table.to_markdown()),
        "README.md's notation table differs from assets/notation.json; paste:\n{}",
        table.to_markdown()
    );
}

#[test]
fn a_malformed_table_is_one_message() {
    assert!(parse_notation("{")
        .unwrap_err()
        .starts_with("not valid JSON"));
    assert_eq!(
        parse_notation(r#"{"intro": "x", "symbols": [{"symbol": "a", "meaning": ""}]}"#)
            .unwrap_err(),
        "symbol 1: “meaning” is missing or empty"
    );
}

// ---- Every symbol a student reads is in the table ----

/// Symbols that are not quantities of PE Lab, each with what it is.
const NOT_SYMBOLS: &[(&str, &str)] = &[
    ("a", "the article"),
    ("A", "the article"),
    ("Σ_i", "the sum over pairs i"),
    ("π", "the constant"),
    ("N", "the normal distribution N(mean, variance²)"),
    ("x", "the horizontal axis (as in “x axis”)"),
    ("y", "the vertical axis (as in “y axis”)"),
];

/// Names of `config.json` keys and of variables in models' code, quoted as names (the views
/// quote config keys when they read a pasted config; the gallery quotes Meta's code).
const CODE_NAMES: &[&str] = &[
    "hidden_size",
    "num_attention_heads",
    "max_position_embeddings",
    "position_embeddings",
    "rope_scaling",
    "rope_parameters",
    "partial_rotary_factor",
    "rotary_pct",
    "rotary_dim",
    "rope_type",
    "head_dim",
    "low_freq_factor",
    "high_freq_factor",
    "short_factor",
    "long_factor",
    "attn_factor",
    "mscale_all_dim",
    "old_context_len",
];

fn is_greek(c: char) -> bool {
    ('\u{0391}'..='\u{03c9}').contains(&c)
}

fn is_token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '′' || is_greek(c) || ('₀'..='₉').contains(&c)
}

/// The symbols in a text: runs of letters, digits, `_`, `′` and subscript digits that hold a
/// Greek letter, or an underscore, or are one Latin letter (with a subscript digit or not).
/// A Greek symbol's numeric or `j` index is written `_i` (`ω_0`, `ω_j` are instances of
/// `ω_i`). A run after an apostrophe (“pair i's”) or a brace (a format placeholder) is not one.
fn symbols_in(text: &str) -> Vec<String> {
    let text = text.replace("e.g.", " ").replace("i.e.", " ");
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut k = 0;
    while k < chars.len() {
        if !is_token_char(chars[k]) {
            k += 1;
            continue;
        }
        let start = k;
        while k < chars.len() && is_token_char(chars[k]) {
            k += 1;
        }
        // A leading number is a coefficient (2π) or the run is a name or a number (16E, 1e-8).
        let run: String = chars[start..k]
            .iter()
            .skip_while(|c| c.is_ascii_digit())
            .collect();
        let run = if run.len() < k - start && !run.starts_with(is_greek) {
            String::new()
        } else {
            run
        };
        let before = |n: usize| start.checked_sub(n).map(|b| chars[b]);
        let hyphenated = before(1) == Some('-') && before(2).is_some_and(|c| c.is_alphanumeric());
        if run.is_empty() || hyphenated || matches!(before(1), Some('\'' | '’' | '{' | '\\')) {
            continue;
        }
        let first = run.chars().next().unwrap_or(' ');
        let greek = run.chars().any(is_greek);
        let single =
            first.is_ascii_alphabetic() && run.chars().skip(1).all(|c| ('₀'..='₉').contains(&c));
        let snake = first.is_ascii_alphabetic() && run.contains('_');
        if greek {
            let normal = match run.split_once('_') {
                Some((letter, index))
                    if index.chars().all(|c| c.is_ascii_digit()) || index == "j" =>
                {
                    format!("{letter}_i")
                }
                _ => run,
            };
            out.push(normal);
        } else if single || snake {
            out.push(run);
        }
    }
    out
}

/// Everything a student reads: lesson steps, the fixed captions, the comparison table, the
/// Notation table's meanings, the README's prose (code left out), and the words the views
/// draw and write (their string literals with a space in them, legends' labels included).
fn student_texts() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for name in pe_lab::state::lesson::BUILT_IN {
        let lesson = pe_lab::state::lesson::parse_lesson(&read(&format!("lessons/{name}.json")))
            .expect("valid lesson");
        for step in &lesson.steps {
            let place = format!("lesson {name}: {}", step.title);
            out.extend(
                step.texts()
                    .into_iter()
                    .map(|t| (place.clone(), t.to_string())),
            );
        }
    }
    for c in pe_lab::captions::ALL {
        out.push((c.place.to_string(), c.text.to_string()));
    }
    for row in pe_lab::captions::COMPARE_ROWS {
        out.extend(
            row.iter()
                .map(|c| ("compare-table".to_string(), c.to_string())),
        );
    }
    for m in &pe_lab::gallery::MODELS {
        for text in [m.name, m.scaling, m.nope, m.note] {
            out.push((format!("gallery {}", m.id), text.to_string()));
        }
    }
    let table = parse_notation(&read("assets/notation.json")).expect("valid table");
    for s in &table.symbols {
        out.push((format!("notation {}", s.symbol), s.meaning.clone()));
    }
    out.push(("README".into(), prose(&read("README.md"))));
    for path in view_sources() {
        for literal in string_literals(&read(&path)) {
            let code = ["<", "\\n", "np.", "[:", "//", "  # "]
                .iter()
                .any(|c| literal.contains(c));
            if literal.contains(' ') && !code {
                out.push((path.clone(), literal));
            }
        }
    }
    out
}

/// Markdown without its code blocks and code spans.
fn prose(markdown: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut in_code = false;
        for c in line.chars() {
            if c == '`' {
                in_code = !in_code;
                out.push(' ');
            } else if !in_code {
                out.push(c);
            }
        }
        out.push('\n');
    }
    out
}

/// The Rust sources of the views and of the chart renderer.
fn view_sources() -> Vec<String> {
    let mut out = Vec::new();
    let mut dirs = vec!["src/views".to_string(), "src/render".to_string()];
    while let Some(dir) = dirs.pop() {
        let full = format!("{}/{dir}", env!("CARGO_MANIFEST_DIR"));
        for entry in std::fs::read_dir(&full).expect(&full).flatten() {
            let name = entry.file_name().to_string_lossy().to_string();
            let path = format!("{dir}/{name}");
            if entry.path().is_dir() {
                dirs.push(path);
            } else if name.ends_with(".rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The string literals of a Rust source, outside comments (escapes left as written).
fn string_literals(source: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in source.lines() {
        let code = line.trim_start();
        if code.starts_with("//") {
            continue;
        }
        let mut chars = code.chars().peekable();
        let mut current: Option<String> = None;
        while let Some(c) = chars.next() {
            match (&mut current, c) {
                (Some(s), '\\') => {
                    s.push(c);
                    if let Some(n) = chars.next() {
                        s.push(n);
                    }
                }
                (Some(_), '"') => out.push(current.take().unwrap_or_default()),
                (Some(s), _) => s.push(c),
                (None, '"') => current = Some(String::new()),
                (None, '/') if chars.peek() == Some(&'/') => break,
                (None, _) => {}
            }
        }
    }
    out
}

/// The symbols the table defines, and the names its meanings quote (`rope_theta`, `inv_freq`).
fn defined() -> std::collections::HashSet<String> {
    let table = parse_notation(&read("assets/notation.json")).expect("valid table");
    let mut known = std::collections::HashSet::new();
    for s in &table.symbols {
        known.extend(symbols_in(&s.symbol));
        known.extend(
            symbols_in(&s.meaning)
                .into_iter()
                .filter(|n| n.contains('_')),
        );
    }
    for spec in pe_lab::state::registry::VIEWS.iter() {
        known.extend(spec.controls.split_whitespace().map(str::to_string));
    }
    known.extend(NOT_SYMBOLS.iter().map(|(s, _)| s.to_string()));
    // The Precision view's paths by their URL names (its notices list them).
    known.extend(
        pe_lab::encoding::precision::Path::ALL
            .iter()
            .map(|p| p.name().to_string()),
    );
    known.extend(CODE_NAMES.iter().map(|s| s.to_string()));
    known
}

fn undefined_symbols(texts: &[(String, String)]) -> Vec<String> {
    let known = defined();
    let mut missing = Vec::new();
    for (place, text) in texts {
        for symbol in symbols_in(text) {
            if !known.contains(&symbol) {
                let said: String = text.chars().take(90).collect();
                missing.push(format!("{place}: “{symbol}” in “{said}”"));
            }
        }
    }
    missing.sort();
    missing.dedup();
    missing
}

#[test]
fn every_symbol_a_student_reads_is_in_the_table() {
    let missing = undefined_symbols(&student_texts());
    assert!(
        missing.is_empty(),
        "symbols the Notation table (assets/notation.json) lacks:\n{}",
        missing.join("\n")
    );
}

#[test]
fn a_symbol_the_table_lacks_is_caught() {
    assert_eq!(
        symbols_in("pair i's ω_0 and ω′_i, 2π, L₀, β_fast, d_model, T5, GPT-J, e.g. a γ"),
        ["i", "ω_i", "ω′_i", "π", "L₀", "β_fast", "d_model", "a", "γ"]
    );
    let planted = vec![(
        "lesson seed: planted".to_string(),
        "The score grows with γ_i and with z.".to_string(),
    )];
    assert_eq!(
        undefined_symbols(&planted),
        [
            "lesson seed: planted: “z” in “The score grows with γ_i and with z.”",
            "lesson seed: planted: “γ_i” in “The score grows with γ_i and with z.”"
        ]
    );
    assert!(undefined_symbols(&[("x".into(), "col4_sin_i2".into())]).len() == 1);
}
