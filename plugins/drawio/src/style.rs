//! draw.io style strings: `name;key=value;key=value;`. A token without `=` names a style of
//! the stylesheet (`ellipse`, `text`, `swimlane`, ...); later keys override earlier ones.

use quire_sdk::{Color, FontFamily};

#[derive(Debug, Clone, Default)]
pub struct Style {
    /// Stylesheet names, in order.
    pub names: Vec<String>,
    pub pairs: Vec<(String, String)>,
}

impl Style {
    pub fn parse(s: &str) -> Style {
        let mut style = Style::default();
        let mut tokens = s.split(';').peekable();
        while let Some(token) = tokens.next() {
            let token = token.trim();
            if token.is_empty() {
                continue;
            }
            match token.split_once('=') {
                Some((k, v)) => {
                    let mut value = v.to_string();
                    // A data URI keeps its `;base64,` in older files, though `;` ends a
                    // value everywhere else.
                    if k == "image" && value.starts_with("data:") && !value.contains(',') {
                        if let Some(next) = tokens.peek() {
                            if next.starts_with("base64,") {
                                value.push(';');
                                value.push_str(next);
                                tokens.next();
                            }
                        }
                    }
                    style.pairs.push((k.trim().to_string(), value));
                }
                None => style.names.push(token.to_string()),
            }
        }
        style
    }

    /// The last value given for `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    pub fn has_name(&self, name: &str) -> bool {
        self.names.iter().any(|n| n == name)
    }

    /// The first stylesheet name, which decides the base shape (`ellipse;...`).
    pub fn base(&self) -> Option<&str> {
        self.names.first().map(String::as_str)
    }

    pub fn num(&self, key: &str) -> Option<f64> {
        self.get(key)
            .and_then(|v| v.trim().parse::<f64>().ok())
            .filter(|v| v.is_finite())
    }

    pub fn flag(&self, key: &str) -> bool {
        self.num(key).is_some_and(|v| v != 0.0)
    }

    /// A colour value: `Some(None)` for `none`, `Some(Some(c))` for a colour, `None` when
    /// the key is absent or not understood (the caller's default applies).
    pub fn color(&self, key: &str) -> Option<Option<Color>> {
        parse_color(self.get(key)?)
    }

    /// The shape: the `shape` key, else the base stylesheet name.
    pub fn shape(&self) -> Option<&str> {
        self.get("shape").or(self.base())
    }
}

/// `none`, `#rgb`, `#rrggbb`, a few CSS names, and draw.io's `default` (theme colour, left
/// to the caller by answering `None`).
pub fn parse_color(v: &str) -> Option<Option<Color>> {
    let v = v.trim();
    if v.eq_ignore_ascii_case("none") || v.eq_ignore_ascii_case("transparent") {
        return Some(None);
    }
    if v.starts_with('#') {
        return Color::parse_hex(v).map(Some);
    }
    if let Some(inner) = v
        .strip_prefix("rgb(")
        .or_else(|| v.strip_prefix("rgba("))
        .and_then(|s| s.strip_suffix(')'))
    {
        let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
        if parts.len() >= 3 {
            let c = |i: usize| {
                parts[i]
                    .parse::<f64>()
                    .ok()
                    .map(|v| v.clamp(0.0, 255.0) as u8)
            };
            let mut color = Color::rgb(c(0)?, c(1)?, c(2)?);
            if let Some(a) = parts.get(3).and_then(|a| a.parse::<f64>().ok()) {
                color.a = (a.clamp(0.0, 1.0) * 255.0).round() as u8;
            }
            return Some(Some(color));
        }
        return None;
    }
    let named = match v.to_ascii_lowercase().as_str() {
        "black" => Color::BLACK,
        "white" => Color::WHITE,
        "red" => Color::rgb(255, 0, 0),
        "green" => Color::rgb(0, 128, 0),
        "blue" => Color::rgb(0, 0, 255),
        "yellow" => Color::rgb(255, 255, 0),
        "gray" | "grey" => Color::rgb(128, 128, 128),
        "orange" => Color::rgb(255, 165, 0),
        "purple" => Color::rgb(128, 0, 128),
        _ => return None,
    };
    Some(Some(named))
}

/// The standard-14 family nearest to a CSS font family list.
pub fn font_family(v: &str) -> FontFamily {
    let v = v.to_ascii_lowercase();
    if v.contains("courier") || v.contains("mono") || v.contains("consolas") {
        FontFamily::Courier
    } else if v.contains("times")
        || v.contains("georgia")
        || v.contains("garamond")
        || (v.contains("serif") && !v.contains("sans"))
    {
        FontFamily::Times
    } else {
        FontFamily::Helvetica
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_names_pairs_and_data_uris() {
        let s = Style::parse(
            "ellipse;whiteSpace=wrap;fillColor=#FFF;image=data:image/png;base64,iVBO=;fillColor=none;",
        );
        assert_eq!(s.base(), Some("ellipse"));
        assert_eq!(s.shape(), Some("ellipse"));
        assert_eq!(s.get("image"), Some("data:image/png;base64,iVBO="));
        assert_eq!(s.color("fillColor"), Some(None));
        assert_eq!(s.get("whiteSpace"), Some("wrap"));
        assert!(!s.flag("rounded"));
        let s = Style::parse("shape=mxgraph.flowchart.decision;rounded=1");
        assert_eq!(s.shape(), Some("mxgraph.flowchart.decision"));
        assert!(s.flag("rounded"));
    }

    #[test]
    fn colours_and_fonts() {
        assert_eq!(parse_color("#ff0000"), Some(Some(Color::rgb(255, 0, 0))));
        assert_eq!(parse_color("default"), None);
        assert_eq!(
            parse_color("rgba(0, 0, 255, 0.5)"),
            Some(Some(Color {
                r: 0,
                g: 0,
                b: 255,
                a: 128
            }))
        );
        assert_eq!(font_family("Courier New"), FontFamily::Courier);
        assert_eq!(font_family("Times New Roman"), FontFamily::Times);
        assert_eq!(font_family("Open Sans, sans-serif"), FontFamily::Helvetica);
    }
}
