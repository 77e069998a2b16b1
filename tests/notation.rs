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
