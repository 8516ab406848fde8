//! Bytes to text the way a browser picks the encoding: a byte-order mark, then the charset
//! of the media type, then a `<meta>` declaration in the first 1024 bytes, then UTF-8 when
//! the bytes are valid UTF-8, and windows-1252 (what browsers assume for Western pages with
//! no declaration) for the rest.

use encoding_rs::{Encoding, UTF_16BE, UTF_16LE, UTF_8, WINDOWS_1252, X_USER_DEFINED};

/// How far into the file a `<meta charset>` is looked for, as the HTML standard's prescan.
const PRESCAN: usize = 1024;

/// The decoded text, and a warning when the encoding had to be guessed or bytes could not
/// be decoded (they become U+FFFD, as in a browser).
pub struct Decoded {
    pub text: String,
    pub warning: Option<String>,
}

pub fn decode(bytes: &[u8], media_type: &str) -> Decoded {
    let (encoding, skip, guessed) = pick(bytes, media_type);
    let (text, had_errors) = encoding.decode_without_bom_handling(&bytes[skip..]);
    let warning = if had_errors {
        Some(format!(
            "the HTML is not valid {}: bytes that do not decode were replaced by \u{fffd}",
            encoding.name()
        ))
    } else if guessed {
        Some(
            "the HTML declares no character encoding and is not UTF-8; it was read as \
             windows-1252 (Western European)"
                .to_string(),
        )
    } else {
        None
    };
    Decoded {
        text: text.into_owned(),
        warning,
    }
}

/// The encoding, the length of its byte-order mark, and whether it is a guess.
fn pick(bytes: &[u8], media_type: &str) -> (&'static Encoding, usize, bool) {
    if let Some((enc, bom)) = Encoding::for_bom(bytes) {
        return (enc, bom, false);
    }
    let declared = charset_param(media_type)
        .and_then(label)
        .or_else(|| prescan(&bytes[..bytes.len().min(PRESCAN)]));
    match declared {
        Some(enc) => (enc, 0, false),
        None if std::str::from_utf8(bytes).is_ok() => (UTF_8, 0, false),
        None => (WINDOWS_1252, 0, true),
    }
}

/// An encoding label as the standard maps it; a page cannot declare itself UTF-16 from
/// inside (its bytes would not have been readable ASCII), so that means UTF-8.
fn label(name: &str) -> Option<&'static Encoding> {
    let enc = Encoding::for_label(name.trim().as_bytes())?;
    Some(if enc == UTF_16LE || enc == UTF_16BE {
        UTF_8
    } else if enc == X_USER_DEFINED {
        WINDOWS_1252
    } else {
        enc
    })
}

/// `charset=...` from a media type such as `text/html; charset=ISO-8859-1`.
fn charset_param(media_type: &str) -> Option<&str> {
    media_type.split(';').skip(1).find_map(|p| {
        let (k, v) = p.split_once('=')?;
        k.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| v.trim().trim_matches(['"', '\'']))
    })
}

/// The encoding a `<meta charset>` or `<meta http-equiv=content-type>` declares, following the
/// shape of the standard's prescan: comments and other tags are stepped over.
fn prescan(head: &[u8]) -> Option<&'static Encoding> {
    let mut i = 0;
    while i < head.len() {
        let rest = &head[i..];
        if rest.starts_with(b"<!--") {
            i += 4 + find(&rest[4..], b"-->").map_or(rest.len(), |e| e + 3);
        } else if starts_with_ci(rest, b"<meta")
            && rest
                .get(5)
                .is_some_and(|c| c.is_ascii_whitespace() || *c == b'/')
        {
            let (attrs, len) = attributes(&rest[5..]);
            if let Some(enc) = meta_encoding(&attrs) {
                return Some(enc);
            }
            i += 5 + len;
        } else if rest.starts_with(b"<")
            && (rest.get(1).is_some_and(u8::is_ascii_alphabetic)
                || (rest.get(1) == Some(&b'/') && rest.get(2).is_some_and(u8::is_ascii_alphabetic)))
        {
            // Any other tag or end tag: skip its attributes (they may hold `>` in quotes).
            let (_, len) = attributes(&rest[1..]);
            i += 1 + len;
        } else if rest.starts_with(b"<!") || rest.starts_with(b"</") || rest.starts_with(b"<?") {
            // Doctype, processing instruction, bogus comment: up to the next `>`.
            i += find(rest, b">").map_or(rest.len(), |e| e + 1);
        } else {
            i += 1;
        }
    }
    None
}

fn meta_encoding(attrs: &[(String, String)]) -> Option<&'static Encoding> {
    let get = |name: &str| attrs.iter().find(|(k, _)| k == name).map(|(_, v)| v);
    if let Some(cs) = get("charset") {
        return label(cs);
    }
    let is_content_type = get("http-equiv").is_some_and(|v| v.eq_ignore_ascii_case("content-type"));
    if is_content_type {
        return get("content")
            .and_then(|c| charset_in_content(c))
            .and_then(label);
    }
    None
}

/// The value after `charset=` in a `content` attribute (`text/html; charset=utf-8`).
fn charset_in_content(content: &str) -> Option<&str> {
    let lower = content.to_ascii_lowercase();
    // Lower-casing ASCII keeps every byte offset: `at` is one in `content` too.
    let at = lower.find("charset")?;
    let rest = content.get(at + "charset".len()..)?.trim_start();
    let rest = rest.strip_prefix('=')?.trim_start();
    let value = match rest.chars().next()? {
        q @ ('"' | '\'') => rest.strip_prefix(q)?.split(q).next()?,
        _ => rest.split([';', ' ', '\t', '\n', '\r']).next()?,
    };
    (!value.is_empty()).then_some(value)
}

/// Reads attributes up to the closing `>`; returns them (names lower-cased) and the number
/// of bytes consumed, `>` included.
fn attributes(b: &[u8]) -> (Vec<(String, String)>, usize) {
    let mut attrs = Vec::new();
    let mut i = 0;
    let text = |s: &[u8]| String::from_utf8_lossy(s).into_owned();
    loop {
        while b
            .get(i)
            .is_some_and(|c| c.is_ascii_whitespace() || *c == b'/')
        {
            i += 1;
        }
        match b.get(i) {
            None => return (attrs, i),
            Some(b'>') => return (attrs, i + 1),
            _ => {}
        }
        let start = i;
        while b
            .get(i)
            .is_some_and(|c| !c.is_ascii_whitespace() && !matches!(c, b'=' | b'>' | b'/'))
        {
            i += 1;
        }
        let name = text(&b[start..i]).to_ascii_lowercase();
        while b.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        let mut value = String::new();
        if b.get(i) == Some(&b'=') {
            i += 1;
            while b.get(i).is_some_and(u8::is_ascii_whitespace) {
                i += 1;
            }
            match b.get(i) {
                Some(&q) if q == b'"' || q == b'\'' => {
                    let end = b[i + 1..].iter().position(|c| *c == q);
                    let stop = end.map_or(b.len(), |e| i + 1 + e);
                    value = text(&b[i + 1..stop]);
                    i = (stop + 1).min(b.len());
                }
                _ => {
                    let start = i;
                    while b
                        .get(i)
                        .is_some_and(|c| !c.is_ascii_whitespace() && *c != b'>')
                    {
                        i += 1;
                    }
                    value = text(&b[start..i]);
                }
            }
        }
        if !name.is_empty() && !attrs.iter().any(|(k, _)| *k == name) {
            attrs.push((name, value));
        }
        if i == start {
            // Not a byte this loop can consume (cannot happen, but never spin).
            i += 1;
        }
    }
}

fn starts_with_ci(hay: &[u8], needle: &[u8]) -> bool {
    hay.len() >= needle.len() && hay[..needle.len()].eq_ignore_ascii_case(needle)
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(bytes: &[u8]) -> &'static str {
        pick(bytes, "text/html").0.name()
    }

    #[test]
    fn byte_order_marks_win() {
        let mut le = vec![0xFF, 0xFE];
        for u in "<p>h\u{e9}</p>".encode_utf16() {
            le.extend_from_slice(&u.to_le_bytes());
        }
        assert_eq!(pick(&le, "text/html; charset=iso-8859-1").0, UTF_16LE);
        assert_eq!(decode(&le, "text/html").text, "<p>h\u{e9}</p>");
        let mut be = vec![0xFE, 0xFF];
        for u in "<p>\u{20ac}</p>".encode_utf16() {
            be.extend_from_slice(&u.to_be_bytes());
        }
        assert_eq!(decode(&be, "text/html").text, "<p>\u{20ac}</p>");
        assert_eq!(decode(b"\xEF\xBB\xBFhi", "text/html").text, "hi");
    }

    #[test]
    fn meta_declarations() {
        let latin = b"<html><head><meta charset=\"iso-8859-1\"></head><p>caf\xE9</p>";
        let d = decode(latin, "text/html");
        assert_eq!(enc(latin), "windows-1252");
        assert!(d.text.ends_with("caf\u{e9}</p>"), "{}", d.text);
        assert!(d.warning.is_none());
        assert_eq!(
            enc(b"<!-- <meta charset=koi8-r> --><META HTTP-EQUIV='Content-Type' CONTENT='text/html; charset=Shift_JIS'>"),
            "Shift_JIS"
        );
        assert_eq!(
            enc(b"<meta http-equiv=refresh content='charset=koi8-r'>"),
            "UTF-8"
        );
        assert_eq!(enc(b"<meta charset=utf-16le>x"), "UTF-8");
        assert_eq!(enc(b"<meta charset=x-user-defined>x"), "windows-1252");
        assert_eq!(enc(b"<div title='<meta charset=koi8-r>'>x"), "UTF-8");
        assert_eq!(enc(b"<!DOCTYPE html>a < b<meta charset=koi8-r>"), "KOI8-R");
        // Past the first 1024 bytes a declaration no longer counts.
        let mut late = vec![b' '; 1100];
        late.extend_from_slice(b"<meta charset=koi8-r>");
        assert_eq!(enc(&late), "UTF-8");
    }

    #[test]
    fn media_type_charset_beats_meta() {
        let d = decode(
            b"<meta charset=utf-8>\xE9",
            "text/html; charset=\"ISO-8859-1\"",
        );
        assert_eq!(d.text, "<meta charset=utf-8>\u{e9}");
    }

    #[test]
    fn undeclared_falls_back_to_windows_1252_unless_utf8() {
        assert_eq!(decode(b"caf\xC3\xA9", "").text, "caf\u{e9}");
        let d = decode(b"caf\xE9 \x80", "");
        assert_eq!(d.text, "caf\u{e9} \u{20ac}");
        assert!(d.warning.is_some_and(|w| w.contains("windows-1252")));
        let d = decode(b"<meta charset=utf-8>caf\xE9", "");
        assert!(d.text.ends_with('\u{fffd}') && d.warning.is_some());
    }

    #[test]
    fn hostile_heads_terminate() {
        for s in [
            &b"<meta"[..],
            b"<meta charset='",
            b"<",
            b"<!--",
            b"<meta a=b c",
            b"<meta/=>",
        ] {
            let _ = decode(s, "");
        }
        assert_eq!(
            charset_in_content("text/html;charset = \"euc-kr\""),
            Some("euc-kr")
        );
        assert_eq!(charset_in_content("charset="), None);
    }
}
