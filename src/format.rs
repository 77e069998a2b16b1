//! Numbers and formulas for people: short readable numbers and MathML strings built from
//! values the app computed (never from user text).

/// `v` with about `digits` significant digits, switching to `a×10ⁿ` style for very large or
/// small magnitudes.
pub fn sig(v: f64, digits: usize) -> String {
    if !v.is_finite() {
        return format!("{v}");
    }
    if v == 0.0 {
        return "0".to_string();
    }
    let a = v.abs();
    if !(1e-4..1e6).contains(&a) {
        return format!("{:.*e}", digits.saturating_sub(1), v);
    }
    let magnitude = a.log10().floor() as i32;
    let decimals = (digits as i32 - 1 - magnitude).max(0) as usize;
    let s = format!("{v:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// `n` and its noun, singular for one: "1 position", "5 positions".
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Numbers as a text box shows and reads them: shortest round-trip decimals, ", "-separated.
pub fn number_list(values: &[f64]) -> String {
    values
        .iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Items in words: “4”, “4 and 5”, “4, 5 and 32”.
pub fn words_list<T: std::fmt::Display>(items: &[T]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!(
            "{} and {last}",
            init.iter().map(T::to_string).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// A MathML number.
fn mn(v: &str) -> String {
    format!("<mn>{v}</mn>")
}

/// Text made safe to put inside HTML elements and attributes.
pub fn escape_html(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn mi(v: &str) -> String {
    format!("<mi>{v}</mi>")
}

fn mo(v: &str) -> String {
    format!("<mo>{v}</mo>")
}

/// `<math>` around a row of MathML.
pub fn math(row: &str) -> String {
    format!("<math display=\"block\"><mrow>{row}</mrow></math>")
}

/// The general sinusoidal definition for both column kinds.
pub fn sinusoidal_definition() -> String {
    let angle = |f: &str| {
        format!(
            "{}{}<mfrac>{}<msup>{}<mrow>{}</mrow></msup></mfrac>{}",
            mi(f),
            mo("("),
            mi("pos"),
            mi("base"),
            format_args!(
                "<mfrac><mrow>{}{}</mrow>{}</mfrac>",
                mn("2"),
                mi("i"),
                mi("d_model")
            ),
            mo(")")
        )
    };
    let lhs = |col: &str| {
        format!(
            "{}{}{}{}<mrow>{}</mrow>{}{}",
            mi("PE"),
            mo("["),
            mi("pos"),
            mo(","),
            col,
            mo("]"),
            mo("=")
        )
    };
    format!(
        "<math display=\"block\"><mtable><mtr><mtd>{}{}</mtd></mtr><mtr><mtd>{}{}</mtd></mtr></mtable></math>",
        lhs(&format!("{}{}", mn("2"), mi("i"))),
        angle("sin"),
        lhs(&format!("{}{}{}", mn("2"), mi("i"), format_args!("{}{}", mo("+"), mn("1")))),
        angle("cos")
    )
}

/// RoPE's rotation of pair `i` (its two dimensions `x`, `y` of q or k) and its frequency.
pub fn rope_definition() -> String {
    let angle = format!(
        "{}{}<msub>{}{}</msub>",
        mi("pos"),
        mo("·"),
        mi("ω"),
        mi("i")
    );
    let trig = |f: &str| format!("{}{}{angle}{}", mi(f), mo("("), mo(")"));
    let row = |lhs: &str, a: &str, op: &str, b: &str| {
        format!(
            "<mtr><mtd><mrow>{}{}{}{}{}{}{}</mrow></mtd></mtr>",
            mi(lhs),
            mo("="),
            mi(a),
            trig("cos"),
            mo(op),
            mi(b),
            trig("sin")
        )
    };
    format!(
        "<math display=\"block\"><mtable>{}{}<mtr><mtd><mrow><msub>{}{}</msub>{}<msup>{}<mrow>{}{}{}{}{}</mrow></msup></mrow></mtd></mtr></mtable></math>",
        row("u′", "u", "−", "v"),
        row("v′", "v", "+", "u"),
        mi("ω"),
        mi("i"),
        mo("="),
        mi("base"),
        mo("−"),
        mn("2"),
        mi("i"),
        mo("/"),
        mi("D"),
    )
}

/// One cell's formula with its numbers substituted:
/// `PE[pos, col] = f(pos / base^(2i/d)) = value`.
pub fn sinusoidal_cell(
    pos: usize,
    col: usize,
    i: usize,
    func: &str,
    base: f64,
    d_model: usize,
    value: f64,
) -> String {
    math(&format!(
        "{}{}{}{}{}{}{}{}{}<mfrac>{}<msup>{}<mrow>{}<mo>/</mo>{}</mrow></msup></mfrac>{}{}{}",
        mi("PE"),
        mo("["),
        mn(&pos.to_string()),
        mo(","),
        mn(&col.to_string()),
        mo("]"),
        mo("="),
        mi(func),
        mo("("),
        mn(&pos.to_string()),
        mn(&sig(base, 6)),
        mn(&(2 * i).to_string()),
        mn(&d_model.to_string()),
        mo(")"),
        mo("="),
        mn(&sig(value, 6)),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_is_singular_for_one() {
        assert_eq!(count(1, "position", "positions"), "1 position");
        assert_eq!(count(0, "position", "positions"), "0 positions");
        assert_eq!(count(512, "position", "positions"), "512 positions");
    }

    #[test]
    fn lists_in_words() {
        assert_eq!(words_list::<u32>(&[]), "");
        assert_eq!(words_list(&[4]), "4");
        assert_eq!(words_list(&[4, 5]), "4 and 5");
        assert_eq!(words_list(&[4, 5, 32]), "4, 5 and 32");
    }

    #[test]
    fn significant_digits() {
        assert_eq!(sig(0.123456, 3), "0.123");
        assert_eq!(sig(10000.0, 4), "10000");
        assert_eq!(sig(std::f64::consts::TAU, 4), "6.283");
        assert_eq!(sig(1.5e-7, 3), "1.50e-7");
        assert_eq!(sig(-0.5, 3), "-0.5");
        assert_eq!(sig(0.0, 3), "0");
    }

    #[test]
    fn cell_formula_substitutes_numbers() {
        let m = sinusoidal_cell(3, 5, 2, "cos", 10000.0, 16, 0.25);
        assert!(m.starts_with("<math"));
        for part in [
            "<mn>3</mn>",
            "<mn>5</mn>",
            "<mi>cos</mi>",
            "<mn>4</mn>",
            "<mn>16</mn>",
            "<mn>0.25</mn>",
        ] {
            assert!(m.contains(part), "{part} missing in {m}");
        }
    }
}

/// A finite decimal number: optional sign, digits with an optional point, optional exponent
/// (`1`, `-2.5`, `.5`, `3e-4`); surrounding whitespace is allowed. Anything else (`inf`,
/// `NaN`, `0x10`, `1,5`, an empty string) is `None`.
///
/// In the browser the conversion is JavaScript's own correctly rounded `Number()`: the same
/// f64 as Rust's `str::parse`, without shipping Rust's parsing tables in the wasm (about
/// 10 KB gzip). Native builds, and the tests, use `str::parse`.
pub fn parse_decimal(raw: &str) -> Option<f64> {
    let s = raw.trim();
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    let mut mantissa = digits(&mut i);
    if b.get(i) == Some(&b'.') {
        i += 1;
        mantissa += digits(&mut i);
    }
    if mantissa == 0 {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        i += usize::from(matches!(b.get(i), Some(b'+' | b'-')));
        if digits(&mut i) == 0 {
            return None;
        }
    }
    if i != b.len() {
        return None;
    }
    let v = convert(s)?;
    v.is_finite().then_some(v)
}

#[cfg(target_arch = "wasm32")]
fn convert(s: &str) -> Option<f64> {
    // `Number("+1")` and `Number(".5")` are valid JavaScript; the grammar was checked above.
    Some(js_sys::Number::from(wasm_bindgen::JsValue::from_str(s)).value_of())
}

#[cfg(not(target_arch = "wasm32"))]
fn convert(s: &str) -> Option<f64> {
    s.parse().ok()
}

#[cfg(test)]
mod parse_tests {
    use super::parse_decimal;

    #[test]
    fn decimals_parse_and_everything_else_is_refused() {
        for (s, v) in [
            ("1", 1.0),
            (" -2.5 ", -2.5),
            (".5", 0.5),
            ("5.", 5.0),
            ("+3e-4", 3e-4),
            ("1E3", 1000.0),
            ("0.1", 0.1),
        ] {
            assert_eq!(parse_decimal(s), Some(v), "{s}");
        }
        for s in [
            "", " ", ".", "-", "e5", "1e", "1e+", "inf", "NaN", "infinity", "0x10", "1,5", "1.2.3",
            "1e400", "--1", "1 2", "١",
        ] {
            assert_eq!(parse_decimal(s), None, "{s}");
        }
    }
}

/// A whole number with thousands separated by commas: 131072 → "131,072".
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A base as people write it: 10,000, 500,000, 1e6, 2.5e7.
pub fn base_text(v: f64) -> String {
    if v < 1e6 && v.fract() == 0.0 {
        grouped(v as u64)
    } else {
        let e = v.log10().floor() as i32;
        let m = v / 10f64.powi(e);
        format!("{}e{e}", sig(m, 3))
    }
}

#[cfg(test)]
mod grouped_tests {
    #[test]
    fn groups_thousands() {
        assert_eq!(super::grouped(0), "0");
        assert_eq!(super::grouped(999), "999");
        assert_eq!(super::grouped(1707), "1,707");
        assert_eq!(super::grouped(10485760), "10,485,760");
        assert_eq!(super::base_text(10000.0), "10,000");
        assert_eq!(super::base_text(1e6), "1e6");
        assert_eq!(super::base_text(27183.5), "2.72e4");
    }
}

/// The first `max` characters of `text`, with an ellipsis when cut.
pub fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let mut s: String = text.chars().take(max).collect();
        s.push('…');
        s
    }
}
