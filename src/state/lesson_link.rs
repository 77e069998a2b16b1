//! A lesson carried by its link: `?lesson=link#lesson=v1.<data>`, where `<data>` is the lesson
//! file (compact JSON) compressed with DEFLATE (RFC 1951) and written in base64url without
//! padding (RFC 4648 §5). It is in the fragment, which browsers never send to a server: no
//! server stores or sees the lesson. Decoding is bounded (the link's length, and the lesson's
//! size after inflating) and never panics; what it yields is then read by the lesson loader
//! like any file.

use super::lesson::MAX_LESSON_BYTES;

/// The fragment's start, with the format's version.
pub const PREFIX: &str = "lesson=v1.";
/// The longest link data PE Lab makes or reads, in characters. Browsers take far longer
/// URLs, but course pages, chat tools and LMS link fields cut long ones; past this, a lesson
/// is shared as a file.
pub const MAX_DATA_CHARS: usize = 16_000;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The fragment (without `#`) that carries `lesson_file`, or why it cannot.
pub fn encode(lesson_file: &str) -> Result<String, String> {
    let json = crate::encoding::json::Json::parse(lesson_file)
        .map_err(|e| format!("the lesson is not valid JSON ({e})"))?;
    let packed = miniz_oxide::deflate::compress_to_vec(json.to_text(false).as_bytes(), 9);
    let data = base64url(&packed);
    if data.len() > MAX_DATA_CHARS {
        return Err(format!(
            "This lesson is too long for a link: its data takes {} characters, and a link holds at most {}. Shorten it, or download the file and put it next to PE Lab (open it with ?lesson=your-file.json).",
            crate::format::grouped(data.len() as u64),
            crate::format::grouped(MAX_DATA_CHARS as u64)
        ));
    }
    Ok(format!("{PREFIX}{data}"))
}

/// The lesson file a fragment (with or without `#`) carries, or one message saying what is
/// wrong with the link.
pub fn decode(fragment: &str) -> Result<String, String> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    let Some(data) = fragment.strip_prefix(PREFIX) else {
        return Err(if fragment.starts_with("lesson=") {
            "This lesson link was made by another version of PE Lab, which this one cannot read."
                .to_string()
        } else {
            "This link carries no lesson: it should end in #lesson=v1. and the lesson's data."
                .to_string()
        });
    };
    if data.len() > MAX_DATA_CHARS {
        return Err(
            "This lesson link is longer than any PE Lab makes: it may have been changed."
                .to_string(),
        );
    }
    let damaged = "This lesson link is damaged (cut short or changed): ask for the link again, or for the lesson file.";
    let packed = from_base64url(data).ok_or(damaged)?;
    let bytes = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_LESSON_BYTES)
        .map_err(|_| damaged)?;
    String::from_utf8(bytes).map_err(|_| damaged.to_string())
}

fn base64url(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | (*b as u32) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

fn from_base64url(text: &str) -> Option<Vec<u8>> {
    if text.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    for chunk in text.as_bytes().chunks(4) {
        let mut n = 0u32;
        for (i, c) in chunk.iter().enumerate() {
            let v = ALPHABET.iter().position(|a| a == c)? as u32;
            n |= v << (18 - 6 * i);
        }
        for i in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64url_round_trips_every_length() {
        for len in 0..40 {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 37 + 11) as u8).collect();
            let text = base64url(&bytes);
            assert!(!text.contains('=') && !text.contains('+') && !text.contains('/'));
            assert_eq!(from_base64url(&text).as_deref(), Some(&bytes[..]), "{len}");
        }
        // RFC 4648 §10's vectors, in the URL alphabet without padding.
        assert_eq!(base64url(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64url(b"fo"), "Zm8");
        assert_eq!(from_base64url("Zm9vYg").as_deref(), Some(&b"foob"[..]));
        assert_eq!(from_base64url("Zm9v!"), None);
        assert_eq!(from_base64url("Zm9vY"), None);
    }

    #[test]
    fn a_lesson_survives_its_link() {
        let file = r#"{"title": "T", "steps": [{"title": "a \"quoted\" <b>step</b>", "panels": ["pe-heatmap"], "state": "seq_len=50", "text": "é ∑ 😀", "try": "x"}]}"#;
        let fragment = encode(file).unwrap();
        assert!(fragment.starts_with(PREFIX));
        let back = decode(&format!("#{fragment}")).unwrap();
        assert_eq!(
            crate::encoding::json::Json::parse(&back),
            crate::encoding::json::Json::parse(file)
        );
    }

    #[test]
    fn hostile_links_get_one_message_and_no_panic() {
        let good = encode(r#"{"title": "T", "steps": []}"#).unwrap();
        let data = &good[PREFIX.len()..];
        // Cut short at every length, and every character changed in turn.
        for cut in 0..data.len() {
            let _ = decode(&format!("{PREFIX}{}", &data[..cut]));
        }
        for i in 0..data.len() {
            for c in ['A', '_', '~', 'é'] {
                let mut changed = data.to_string();
                changed.replace_range(i..i + 1, &c.to_string());
                let _ = decode(&format!("{PREFIX}{changed}"));
            }
        }
        assert!(decode("lesson=v9.abc")
            .unwrap_err()
            .contains("another version"));
        assert!(decode("#main").unwrap_err().contains("carries no lesson"));
        assert!(
            decode(&format!("{PREFIX}{}", "A".repeat(MAX_DATA_CHARS + 1)))
                .unwrap_err()
                .contains("longer than")
        );
        assert!(decode(&format!("{PREFIX}%%%"))
            .unwrap_err()
            .contains("damaged"));
    }

    #[test]
    fn a_link_never_inflates_past_the_lesson_limit() {
        // 10 MB of one byte deflates to a few kilobytes: the decoder stops at the limit.
        let bomb = miniz_oxide::deflate::compress_to_vec(&vec![b' '; 10 << 20], 9);
        let data = base64url(&bomb);
        assert!(data.len() <= MAX_DATA_CHARS, "{}", data.len());
        assert!(decode(&format!("{PREFIX}{data}"))
            .unwrap_err()
            .contains("damaged"));
    }

    #[test]
    fn a_lesson_too_long_for_a_link_says_to_share_the_file() {
        // Text that does not compress: a pseudo-random string of letters.
        let mut x = 12345u64;
        let noise: String = (0..30_000)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (b'a' + (x >> 59) as u8 % 26) as char
            })
            .collect();
        let file = format!(r#"{{"title": "{noise}", "steps": []}}"#);
        let said = encode(&file).unwrap_err();
        assert!(
            said.contains("download the file") && said.contains("16,000"),
            "{said}"
        );
    }
}
