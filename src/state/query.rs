//! Query strings: splitting, percent-decoding and encoding, with bounds on what is read.

/// More parameters than this are ignored (the first ones win), so a hostile URL costs little.
pub const MAX_PARAMS: usize = 256;
/// Values longer than this (in bytes, before decoding) are not parsed.
pub const MAX_VALUE_BYTES: usize = 4096;

/// One `key=value` pair as found in the query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    pub key: String,
    /// `None` when the raw value was longer than [`MAX_VALUE_BYTES`].
    pub value: Option<String>,
}

fn hex(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Decodes `%XX` escapes and `+` as a space; invalid UTF-8 is replaced, never rejected.
pub fn decode(raw: &str) -> String {
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut n = 0;
    while n < bytes.len() {
        match bytes[n] {
            b'+' => out.push(b' '),
            b'%' if n + 2 < bytes.len() => match (hex(bytes[n + 1]), hex(bytes[n + 2])) {
                (Some(h), Some(l)) => {
                    out.push(h * 16 + l);
                    n += 2;
                }
                _ => out.push(b'%'),
            },
            b => out.push(b),
        }
        n += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Encodes a value for a query string (unreserved characters and `,` kept as they are).
pub fn encode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~' | b',') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Splits a query string (with or without its leading `?`) into at most [`MAX_PARAMS`] pairs.
/// Returns the pairs and how many were dropped past the limit.
pub fn split(query: &str) -> (Vec<Pair>, usize) {
    let query = query.strip_prefix('?').unwrap_or(query);
    let mut pairs = Vec::new();
    let mut dropped = 0;
    for part in query.split('&').filter(|p| !p.is_empty()) {
        if pairs.len() >= MAX_PARAMS {
            dropped += 1;
            continue;
        }
        let (k, v) = part.split_once('=').unwrap_or((part, ""));
        let key = if k.len() <= 64 {
            decode(k)
        } else {
            String::new()
        };
        let value = (v.len() <= MAX_VALUE_BYTES).then(|| decode(v));
        pairs.push(Pair { key, value });
    }
    (pairs, dropped)
}

/// Joins `(key, value)` pairs into a query string without the leading `?`.
pub fn join(pairs: &[(&str, String)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{k}={}", encode(v)))
        .collect::<Vec<_>>()
        .join("&")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_escapes_and_survives_broken_ones() {
        assert_eq!(decode("a%20b+c"), "a b c");
        assert_eq!(decode("100%"), "100%");
        assert_eq!(decode("%zz%4"), "%zz%4");
        assert_eq!(decode("%E2%9C%93"), "✓");
        assert_eq!(decode("%FF"), "\u{FFFD}");
    }

    #[test]
    fn encode_then_decode_is_identity() {
        for s in ["1,2,3", "a b&c=d", "π", ""] {
            assert_eq!(decode(&encode(s)), s);
        }
    }

    #[test]
    fn split_bounds_the_work() {
        let q: String = (0..1000).map(|n| format!("k{n}=1&")).collect();
        let (pairs, dropped) = split(&q);
        assert_eq!(pairs.len(), MAX_PARAMS);
        assert_eq!(dropped, 1000 - MAX_PARAMS);
        let long = format!("?x={}", "9".repeat(MAX_VALUE_BYTES + 1));
        assert_eq!(split(&long).0[0].value, None);
        assert_eq!(split("?flag").0[0].value.as_deref(), Some(""));
    }
}
