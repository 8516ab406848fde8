//! CSS values that both a page's presentational attributes (`<font face>`, `align`) and its
//! style sheets give: font family lists and text alignment.

use quire_sdk::model::{Align, FontFamily};

/// A `text-align` or `align` value (`start` and `end` read as left and right).
pub fn parse_align(v: &str) -> Option<Align> {
    match v.trim().to_ascii_lowercase().as_str() {
        "left" | "start" => Some(Align::Left),
        "center" | "middle" | "-webkit-center" => Some(Align::Center),
        "right" | "end" => Some(Align::Right),
        "justify" => Some(Align::Justify),
        _ => None,
    }
}

/// The generic CSS name of a family we draw with.
pub fn generic_name(family: FontFamily) -> &'static str {
    match family {
        FontFamily::Times => "serif",
        FontFamily::Courier => "monospace",
        _ => "sans-serif",
    }
}

/// The first family of a CSS family list (`'Times New Roman', serif`) that we draw with.
pub fn family_list(list: &str) -> Option<FontFamily> {
    let list = list.trim();
    let list = list.strip_suffix("!important").map_or(list, str::trim_end);
    list.split(',').find_map(|name| {
        let name = name.trim().trim_matches(|c| c == '"' || c == '\'').trim();
        family(
            &name
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .to_ascii_lowercase(),
        )
    })
}

/// One family name, lower case with single spaces.
fn family(name: &str) -> Option<FontFamily> {
    const SERIF: &[&str] = &[
        "serif",
        "ui-serif",
        "times",
        "times new roman",
        "times-roman",
        "tinos",
        "georgia",
        "cambria",
        "garamond",
        "palatino",
        "palatino linotype",
        "book antiqua",
        "baskerville",
        "constantia",
        "century schoolbook",
        "nimbus roman",
        "charter",
        "bitstream charter",
        "minion pro",
        "hoefler text",
    ];
    const SANS: &[&str] = &[
        "sans-serif",
        "system-ui",
        "ui-sans-serif",
        "-apple-system",
        "blinkmacsystemfont",
        "arial",
        "helvetica",
        "helvetica neue",
        "verdana",
        "tahoma",
        "trebuchet ms",
        "segoe ui",
        "calibri",
        "candara",
        "roboto",
        "open sans",
        "lato",
        "arimo",
        "geneva",
        "lucida grande",
        "lucida sans unicode",
        "ubuntu",
        "cantarell",
        "inter",
        "gill sans",
        "futura",
        "avenir",
        "franklin gothic medium",
        "montserrat",
        "oxygen",
        "arial unicode ms",
    ];
    const MONO: &[&str] = &[
        "monospace",
        "ui-monospace",
        "courier",
        "courier new",
        "consolas",
        "menlo",
        "monaco",
        "lucida console",
        "source code pro",
        "fira code",
        "sfmono-regular",
        "sf mono",
        "cousine",
        "inconsolata",
        "cascadia code",
        "andale mono",
        "lucida sans typewriter",
    ];
    if MONO.contains(&name) || name.contains("mono") {
        Some(FontFamily::Courier)
    } else if SANS.contains(&name) || name.contains("sans") {
        Some(FontFamily::Helvetica)
    } else if SERIF.contains(&name) || name.contains("serif") {
        Some(FontFamily::Times)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn family_lists() {
        assert_eq!(
            family_list("'Times New Roman', serif"),
            Some(FontFamily::Times)
        );
        assert_eq!(family_list("\"Courier New\""), Some(FontFamily::Courier));
        assert_eq!(
            family_list("Fantasy Font, cursive, ARIAL !important"),
            Some(FontFamily::Helvetica)
        );
        assert_eq!(family_list("system-ui"), Some(FontFamily::Helvetica));
        assert_eq!(family_list("Noto Serif CJK JP"), Some(FontFamily::Times));
        assert_eq!(family_list("Noto Sans Arabic"), Some(FontFamily::Helvetica));
        assert_eq!(family_list("DejaVu Sans Mono"), Some(FontFamily::Courier));
        assert_eq!(family_list("Georgia"), Some(FontFamily::Times));
        assert_eq!(
            family_list("Verdana, sans-serif"),
            Some(FontFamily::Helvetica)
        );
        assert_eq!(family_list("Noto Naskh Arabic, fantasy"), None);
        assert_eq!(family_list("inherit"), None);
        assert_eq!(family_list(""), None);
    }
}
