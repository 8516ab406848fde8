//! Text utilities every importer needs alike: HTML character references (labels of
//! draw.io and mermaid, inline HTML in Markdown). One table, so a name one converter
//! reads is read by all.

/// The character an HTML character reference names: `#169`, `#x20AC`, or one of the names
/// people write by hand in labels and inline HTML. `None` for an unknown name, a number
/// that is no character, and NUL (which a document cannot hold).
pub fn entity(name: &str) -> Option<char> {
    if let Some(number) = name.strip_prefix('#') {
        let code = match number.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => number.parse().ok()?,
        };
        return char::from_u32(code).filter(|&c| c != '\0');
    }
    Some(match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => '\u{a0}',
        "copy" => '©',
        "reg" => '®',
        "trade" => '™',
        "hellip" => '…',
        "mdash" => '—',
        "ndash" => '–',
        "laquo" => '«',
        "raquo" => '»',
        "lsquo" => '‘',
        "rsquo" => '’',
        "ldquo" => '“',
        "rdquo" => '”',
        "bull" => '•',
        "middot" => '·',
        "deg" => '°',
        "plusmn" => '±',
        "times" => '×',
        "divide" => '÷',
        "euro" => '€',
        "pound" => '£',
        "yen" => '¥',
        "cent" => '¢',
        "sect" => '§',
        "para" => '¶',
        "larr" => '←',
        "rarr" => '→',
        "uarr" => '↑',
        "darr" => '↓',
        "harr" => '↔',
        "hearts" => '♥',
        "check" => '✓',
        "infin" => '∞',
        "ne" => '≠',
        "le" => '≤',
        "ge" => '≥',
        "num" => '#',
        "semi" => ';',
        "colon" => ':',
        "lpar" => '(',
        "rpar" => ')',
        "lsqb" | "lbrack" => '[',
        "rsqb" | "rbrack" => ']',
        "lcub" | "lbrace" => '{',
        "rcub" | "rbrace" => '}',
        "vert" | "verbar" => '|',
        _ => return None,
    })
}

/// The longest reference [`decode_entities`] looks at: a longer run before `;` is text.
const LONGEST_REFERENCE: usize = 32;

/// `s` with every `&name;` that [`entity`] knows replaced by its character; anything else
/// (an unknown name, a lone `&`) stays as written.
pub fn decode_entities(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some((before, after)) = rest.split_once('&') {
        out.push_str(before);
        let decoded = after
            .split_once(';')
            .filter(|(name, _)| name.len() <= LONGEST_REFERENCE)
            .and_then(|(name, tail)| Some((entity(name)?, tail)));
        match decoded {
            Some((c, tail)) => {
                out.push(c);
                rest = tail;
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_by_name_and_number_and_what_stays() {
        assert_eq!(
            decode_entities("&lt;a&gt; &#169; &#x20AC; &pound;&larr;&rarr; &bogus; & x"),
            "<a> © € £←→ &bogus; & x"
        );
        assert_eq!(
            decode_entities("&#0; &#99999999; &#xD800;"),
            "&#0; &#99999999; &#xD800;"
        );
        // Multi-byte text around and inside is kept whole.
        assert_eq!(
            decode_entities("\u{e9}&amp;\u{e9}&\u{e9};&\u{65e5}\u{1f3a8}&#233;"),
            "\u{e9}&\u{e9}&\u{e9};&\u{65e5}\u{1f3a8}\u{e9}"
        );
        let long = format!("&{};", "a".repeat(LONGEST_REFERENCE + 1));
        assert_eq!(decode_entities(&long), long);
    }
}
