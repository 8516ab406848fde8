//! CSS-like declarations (`fill:#f9f,stroke:#333,stroke-width:4px,color:red`) turned into
//! the model's fill, stroke and text colour; CSS colours by hex, name, `rgb()` and `rgba()`.

use quire_sdk::{Color, Dash};

/// A CSS-like declaration from `style`, `classDef` or `linkStyle`: a property and its value.
pub type Decl = (String, String);

/// CSS pixels to points (mermaid sizes are CSS pixels at 96 dpi).
pub const PX: f64 = 0.75;

/// What a set of declarations asks for; `None` where nothing was said.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Look {
    pub fill: Option<Color>,
    pub stroke: Option<Color>,
    pub stroke_width: Option<f64>,
    pub dash: Option<Dash>,
    pub color: Option<Color>,
    pub bold: Option<bool>,
    pub italic: Option<bool>,
    pub font_size: Option<f64>,
}

impl Look {
    /// Applies declarations in order (a later one wins), as CSS does.
    pub fn apply(&mut self, decls: &[Decl]) {
        for (k, v) in decls {
            let v = v.trim().trim_end_matches("!important").trim();
            match k.as_str() {
                "fill" | "background" | "background-color" => {
                    if let Some(c) = parse_color(v) {
                        self.fill = Some(c);
                    }
                }
                "stroke" => {
                    if let Some(c) = parse_color(v) {
                        self.stroke = Some(c);
                    }
                }
                "stroke-width" => {
                    if let Some(w) = parse_length(v) {
                        self.stroke_width = Some(w.min(100.0));
                    }
                }
                "stroke-dasharray" => self.dash = Some(parse_dash(v)),
                "color" => {
                    if let Some(c) = parse_color(v) {
                        self.color = Some(c);
                    }
                }
                "font-weight" => {
                    self.bold = Some(v == "bold" || v.parse::<u32>().is_ok_and(|n| n >= 600))
                }
                "font-style" => self.italic = Some(v == "italic" || v == "oblique"),
                "font-size" => {
                    if let Some(s) = parse_length(v).filter(|s| *s > 0.0) {
                        self.font_size = Some(s.min(200.0));
                    }
                }
                _ => {}
            }
        }
    }
}

/// A length in points from `4px`, `4`, `2pt` or `1.5em` (an em being mermaid's 16 px).
fn parse_length(v: &str) -> Option<f64> {
    let v = v.trim();
    let (num, factor) = if let Some(n) = v.strip_suffix("px") {
        (n, PX)
    } else if let Some(n) = v.strip_suffix("pt") {
        (n, 1.0)
    } else if let Some(n) = v.strip_suffix("em") {
        (n, 16.0 * PX)
    } else {
        (v, PX)
    };
    let n: f64 = num.trim().parse().ok()?;
    (n.is_finite() && n >= 0.0).then_some(n * factor)
}

/// Short dashes read as dots, anything else as dashes; `0` or `none` as a solid line.
fn parse_dash(v: &str) -> Dash {
    let first = v
        .split(|c: char| c == ',' || c.is_whitespace())
        .find(|s| !s.is_empty())
        .and_then(parse_length);
    match first {
        None => Dash::Solid,
        Some(d) if d <= 0.0 => Dash::Solid,
        Some(d) if d <= 2.0 * PX => Dash::Dotted,
        Some(_) => Dash::Dashed,
    }
}

/// `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, `rgb(r, g, b)`, `rgba(r, g, b, a)` or a CSS name.
pub fn parse_color(v: &str) -> Option<Color> {
    let v = v.trim();
    if let Some(hex) = v.strip_prefix('#') {
        if hex.len() == 4 && hex.is_ascii() {
            let c = Color::parse_hex(v.get(..4)?)?;
            let a = u8::from_str_radix(hex.get(3..4)?, 16).ok()? * 17;
            return Some(Color { a, ..c });
        }
        return Color::parse_hex(v);
    }
    let lower = v.to_ascii_lowercase();
    if let Some(args) = lower
        .strip_prefix("rgba(")
        .or_else(|| lower.strip_prefix("rgb("))
        .and_then(|s| s.strip_suffix(')'))
    {
        let parts: Vec<&str> = args
            .split(|c: char| c == ',' || c == '/' || c.is_whitespace())
            .filter(|s| !s.is_empty())
            .collect();
        if parts.len() < 3 {
            return None;
        }
        let channel = |s: &str| -> Option<u8> {
            let x = if let Some(p) = s.strip_suffix('%') {
                p.parse::<f64>().ok()? * 2.55
            } else {
                s.parse::<f64>().ok()?
            };
            x.is_finite().then(|| x.round().clamp(0.0, 255.0) as u8)
        };
        let a = match parts.get(3) {
            Some(s) => {
                let x = if let Some(p) = s.strip_suffix('%') {
                    p.parse::<f64>().ok()? / 100.0
                } else {
                    s.parse::<f64>().ok()?
                };
                (x.clamp(0.0, 1.0) * 255.0).round() as u8
            }
            None => 255,
        };
        return Some(Color {
            r: channel(parts[0])?,
            g: channel(parts[1])?,
            b: channel(parts[2])?,
            a,
        });
    }
    if lower == "transparent" || lower == "none" {
        return Some(Color {
            r: 0,
            g: 0,
            b: 0,
            a: 0,
        });
    }
    let i = NAMED
        .binary_search_by(|(n, _)| n.cmp(&lower.as_str()))
        .ok()?;
    let rgb = NAMED[i].1;
    Some(Color::rgb((rgb >> 16) as u8, (rgb >> 8) as u8, rgb as u8))
}

/// The CSS named colours, sorted by name.
const NAMED: &[(&str, u32)] = &[
    ("aliceblue", 0xf0f8ff),
    ("antiquewhite", 0xfaebd7),
    ("aqua", 0x00ffff),
    ("aquamarine", 0x7fffd4),
    ("azure", 0xf0ffff),
    ("beige", 0xf5f5dc),
    ("bisque", 0xffe4c4),
    ("black", 0x000000),
    ("blanchedalmond", 0xffebcd),
    ("blue", 0x0000ff),
    ("blueviolet", 0x8a2be2),
    ("brown", 0xa52a2a),
    ("burlywood", 0xdeb887),
    ("cadetblue", 0x5f9ea0),
    ("chartreuse", 0x7fff00),
    ("chocolate", 0xd2691e),
    ("coral", 0xff7f50),
    ("cornflowerblue", 0x6495ed),
    ("cornsilk", 0xfff8dc),
    ("crimson", 0xdc143c),
    ("cyan", 0x00ffff),
    ("darkblue", 0x00008b),
    ("darkcyan", 0x008b8b),
    ("darkgoldenrod", 0xb8860b),
    ("darkgray", 0xa9a9a9),
    ("darkgreen", 0x006400),
    ("darkgrey", 0xa9a9a9),
    ("darkkhaki", 0xbdb76b),
    ("darkmagenta", 0x8b008b),
    ("darkolivegreen", 0x556b2f),
    ("darkorange", 0xff8c00),
    ("darkorchid", 0x9932cc),
    ("darkred", 0x8b0000),
    ("darksalmon", 0xe9967a),
    ("darkseagreen", 0x8fbc8f),
    ("darkslateblue", 0x483d8b),
    ("darkslategray", 0x2f4f4f),
    ("darkslategrey", 0x2f4f4f),
    ("darkturquoise", 0x00ced1),
    ("darkviolet", 0x9400d3),
    ("deeppink", 0xff1493),
    ("deepskyblue", 0x00bfff),
    ("dimgray", 0x696969),
    ("dimgrey", 0x696969),
    ("dodgerblue", 0x1e90ff),
    ("firebrick", 0xb22222),
    ("floralwhite", 0xfffaf0),
    ("forestgreen", 0x228b22),
    ("fuchsia", 0xff00ff),
    ("gainsboro", 0xdcdcdc),
    ("ghostwhite", 0xf8f8ff),
    ("gold", 0xffd700),
    ("goldenrod", 0xdaa520),
    ("gray", 0x808080),
    ("green", 0x008000),
    ("greenyellow", 0xadff2f),
    ("grey", 0x808080),
    ("honeydew", 0xf0fff0),
    ("hotpink", 0xff69b4),
    ("indianred", 0xcd5c5c),
    ("indigo", 0x4b0082),
    ("ivory", 0xfffff0),
    ("khaki", 0xf0e68c),
    ("lavender", 0xe6e6fa),
    ("lavenderblush", 0xfff0f5),
    ("lawngreen", 0x7cfc00),
    ("lemonchiffon", 0xfffacd),
    ("lightblue", 0xadd8e6),
    ("lightcoral", 0xf08080),
    ("lightcyan", 0xe0ffff),
    ("lightgoldenrodyellow", 0xfafad2),
    ("lightgray", 0xd3d3d3),
    ("lightgreen", 0x90ee90),
    ("lightgrey", 0xd3d3d3),
    ("lightpink", 0xffb6c1),
    ("lightsalmon", 0xffa07a),
    ("lightseagreen", 0x20b2aa),
    ("lightskyblue", 0x87cefa),
    ("lightslategray", 0x778899),
    ("lightslategrey", 0x778899),
    ("lightsteelblue", 0xb0c4de),
    ("lightyellow", 0xffffe0),
    ("lime", 0x00ff00),
    ("limegreen", 0x32cd32),
    ("linen", 0xfaf0e6),
    ("magenta", 0xff00ff),
    ("maroon", 0x800000),
    ("mediumaquamarine", 0x66cdaa),
    ("mediumblue", 0x0000cd),
    ("mediumorchid", 0xba55d3),
    ("mediumpurple", 0x9370db),
    ("mediumseagreen", 0x3cb371),
    ("mediumslateblue", 0x7b68ee),
    ("mediumspringgreen", 0x00fa9a),
    ("mediumturquoise", 0x48d1cc),
    ("mediumvioletred", 0xc71585),
    ("midnightblue", 0x191970),
    ("mintcream", 0xf5fffa),
    ("mistyrose", 0xffe4e1),
    ("moccasin", 0xffe4b5),
    ("navajowhite", 0xffdead),
    ("navy", 0x000080),
    ("oldlace", 0xfdf5e6),
    ("olive", 0x808000),
    ("olivedrab", 0x6b8e23),
    ("orange", 0xffa500),
    ("orangered", 0xff4500),
    ("orchid", 0xda70d6),
    ("palegoldenrod", 0xeee8aa),
    ("palegreen", 0x98fb98),
    ("paleturquoise", 0xafeeee),
    ("palevioletred", 0xdb7093),
    ("papayawhip", 0xffefd5),
    ("peachpuff", 0xffdab9),
    ("peru", 0xcd853f),
    ("pink", 0xffc0cb),
    ("plum", 0xdda0dd),
    ("powderblue", 0xb0e0e6),
    ("purple", 0x800080),
    ("rebeccapurple", 0x663399),
    ("red", 0xff0000),
    ("rosybrown", 0xbc8f8f),
    ("royalblue", 0x4169e1),
    ("saddlebrown", 0x8b4513),
    ("salmon", 0xfa8072),
    ("sandybrown", 0xf4a460),
    ("seagreen", 0x2e8b57),
    ("seashell", 0xfff5ee),
    ("sienna", 0xa0522d),
    ("silver", 0xc0c0c0),
    ("skyblue", 0x87ceeb),
    ("slateblue", 0x6a5acd),
    ("slategray", 0x708090),
    ("slategrey", 0x708090),
    ("snow", 0xfffafa),
    ("springgreen", 0x00ff7f),
    ("steelblue", 0x4682b4),
    ("tan", 0xd2b48c),
    ("teal", 0x008080),
    ("thistle", 0xd8bfd8),
    ("tomato", 0xff6347),
    ("turquoise", 0x40e0d0),
    ("violet", 0xee82ee),
    ("wheat", 0xf5deb3),
    ("white", 0xffffff),
    ("whitesmoke", 0xf5f5f5),
    ("yellow", 0xffff00),
    ("yellowgreen", 0x9acd32),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn decls(s: &str) -> Vec<Decl> {
        crate::parse::parse_styles(s)
    }

    #[test]
    fn colours_in_every_notation() {
        assert_eq!(parse_color("#f9f"), Some(Color::rgb(0xff, 0x99, 0xff)));
        assert_eq!(parse_color("Sienna"), Some(Color::rgb(0xa0, 0x52, 0x2d)));
        assert_eq!(parse_color("gold"), Some(Color::rgb(0xff, 0xd7, 0x00)));
        assert_eq!(parse_color("rgb(10, 20, 30)"), Some(Color::rgb(10, 20, 30)));
        assert_eq!(parse_color("rgba(10,20,30,0.5)").map(|c| c.a), Some(128));
        assert_eq!(parse_color("notacolour"), None);
        assert!(NAMED.windows(2).all(|w| w[0].0 < w[1].0), "table sorted");
    }

    #[test]
    fn declarations_with_commas_inside_values() {
        let mut look = Look::default();
        look.apply(&decls(
            "fill:#bbf,stroke:#f66,stroke-width:2px,color:#fff,stroke-dasharray: 5 5",
        ));
        assert_eq!(look.fill, Some(Color::rgb(0xbb, 0xbb, 0xff)));
        assert_eq!(look.stroke, Some(Color::rgb(0xff, 0x66, 0x66)));
        assert_eq!(look.stroke_width, Some(1.5));
        assert_eq!(look.color, Some(Color::WHITE));
        assert_eq!(look.dash, Some(Dash::Dashed));
        let d = decls("stroke-dasharray: 9,5,stroke-dashoffset: 900,animation: dash 25s linear");
        assert_eq!(d[0], ("stroke-dasharray".into(), "9,5".into()));
        assert_eq!(d.len(), 3);
    }
}
