//! `data:` URIs (RFC 2397) as labels and cells carry pictures in them: the declared media
//! type and the bytes, base64 when the URI says `;base64`, percent-encoded otherwise (an SVG
//! written straight into the URI, `%3Csvg ...`). Converters have no network, so this is the
//! only way a picture in a label reaches them.

use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::Engine;

/// A decoded `data:` URI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataUri {
    /// Lower case, without parameters; `text/plain` when the URI names none.
    pub media_type: String,
    pub bytes: Vec<u8>,
}

/// The media type and bytes of `uri`, or `None` when it is not a `data:` URI, has no
/// comma, or its base64 does not decode. Bytes past `limit` refuse the URI.
pub fn decode(uri: &str, limit: usize) -> Option<DataUri> {
    let rest = uri.trim();
    let (scheme, rest) = rest.split_at_checked(5)?;
    if !scheme.eq_ignore_ascii_case("data:") {
        return None;
    }
    let (header, payload) = rest.split_once(',')?;
    let mut params = header.split(';');
    let declared = params.next().unwrap_or("").trim().to_ascii_lowercase();
    let base64 = params.any(|p| p.trim().eq_ignore_ascii_case("base64"));
    // No encoding spends more than three characters on a byte: a text four times the limit
    // is over it (whitespace aside), and is not decoded at all.
    if payload.len() > limit.saturating_mul(4) {
        return None;
    }
    let bytes = if base64 {
        let clean: Vec<u8> = percent_decoded(payload)
            .into_iter()
            .filter(|b| !b.is_ascii_whitespace())
            .collect();
        // Browsers take base64 with or without its `=` padding.
        let engine = GeneralPurpose::new(
            &base64::alphabet::STANDARD,
            GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
        );
        engine.decode(clean).ok()?
    } else {
        percent_decoded(payload)
    };
    if bytes.len() > limit {
        return None;
    }
    Some(DataUri {
        media_type: if declared.is_empty() {
            "text/plain".into()
        } else {
            declared
        },
        bytes,
    })
}

/// `s` with its `%XX` escapes decoded; a `%` not followed by two hex digits stays.
fn percent_decoded(s: &str) -> Vec<u8> {
    percent_encoding::percent_decode_str(s).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_encoded_svg_and_base64_png() {
        let svg = decode(
            "data:image/svg+xml,%3Csvg viewBox=%220 0 10 10%22/%3E",
            1000,
        )
        .unwrap();
        assert_eq!(svg.media_type, "image/svg+xml");
        assert_eq!(svg.bytes, b"<svg viewBox=\"0 0 10 10\"/>");
        let png = decode("DATA:image/PNG;base64,iVBO Rw0K", 1000).unwrap();
        assert_eq!(png.media_type, "image/png");
        assert_eq!(png.bytes, [0x89, b'P', b'N', b'G', 0x0d, 0x0a]);
        // Without padding, and with a broken escape kept as it is.
        assert_eq!(decode("data:;base64,YQ", 10).unwrap().bytes, b"a");
        assert_eq!(decode("data:,100%", 10).unwrap().bytes, b"100%");
        assert_eq!(decode("data:,a", 10).unwrap().media_type, "text/plain");
    }

    #[test]
    fn what_is_not_a_data_uri_or_too_large_is_refused() {
        assert_eq!(decode("https://example.com/a.png", 100), None);
        assert_eq!(decode("data:image/png;base64", 100), None);
        assert_eq!(decode("data:image/png;base64,!!!!", 100), None);
        assert_eq!(decode("data:,abcdef", 5), None);
        assert!(decode("data:,abcde", 5).is_some());
        let long = format!("data:;base64,{}", "QUFB".repeat(1000));
        assert_eq!(decode(&long, 100), None);
    }
}
