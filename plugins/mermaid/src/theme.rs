//! Mermaid's themes for flowcharts: the colours `theme` and `themeVariables` give nodes,
//! subgraphs, links and text, from the front matter's `config` and `%%{init: ...}%%`
//! directives (a directive wins), as mermaid 11 derives them (`src/themes/theme-*.js`,
//! the flowchart's `styles.ts`). `base` is the theme meant to be re-derived from a few
//! colours: its palette follows `primaryColor`, `background` and `darkMode` through the same
//! hue and lightness steps; the other four themes take their fixed colours, with the
//! variables a user may override replacing them.

use quire_sdk::{Color, FontFamily};

use crate::style::parse_color;

/// What the diagram's configuration says about its look.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Config {
    pub theme: Option<String>,
    /// `themeVariables`, in the order given (a later one wins).
    pub variables: Vec<(String, String)>,
    pub font_family: Option<String>,
    /// `flowchart.curve`: the curve of every link whose chart names none
    /// (`linkStyle ... interpolate`, a link's `curve` data).
    pub curve: Option<String>,
}

impl Config {
    /// `other`'s settings over these (a directive over the front matter).
    pub fn merge(&mut self, other: Config) {
        if other.theme.is_some() {
            self.theme = other.theme;
        }
        self.variables.extend(other.variables);
        if other.font_family.is_some() {
            self.font_family = other.font_family;
        }
        if other.curve.is_some() {
            self.curve = other.curve;
        }
    }

    pub fn is_empty(&self) -> bool {
        *self == Config::default()
    }

    fn variable(&self, name: &str) -> Option<&str> {
        self.variables
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
            // Mermaid blanks a variable with any other character (its directive sanitizer).
            .filter(|v| {
                v.chars().all(|c| {
                    c.is_ascii_alphanumeric()
                        || matches!(c, ' ' | '"' | '#' | '%' | '(' | ')' | ',' | '.' | ';')
                })
            })
    }

    fn colour(&self, name: &str) -> Option<Color> {
        self.variable(name).and_then(parse_color)
    }
}

/// The colours of one flowchart.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Palette {
    pub node_fill: Color,
    pub node_stroke: Color,
    pub group_fill: Color,
    pub group_stroke: Color,
    pub line: Color,
    /// Label text; `None` draws the model's default (black), as mermaid's default `#333`
    /// nearly is.
    pub text: Option<Color>,
    /// Subgraph titles.
    pub title: Option<Color>,
    pub font: Option<FontFamily>,
}

const fn hex(v: u32) -> Color {
    Color::rgb((v >> 16) as u8, (v >> 8) as u8, v as u8)
}

/// The default theme, which a diagram without configuration is drawn in.
pub const DEFAULT: Palette = Palette {
    node_fill: hex(0xececff),
    node_stroke: hex(0x9370db),
    group_fill: hex(0xffffde),
    group_stroke: hex(0xaaaa33),
    line: hex(0x333333),
    text: None,
    title: None,
    font: None,
};

impl Palette {
    /// Link labels stand on the page, not on a node: a text colour too light to read on
    /// white (`primaryTextColor: '#fff'` for dark nodes) is drawn grey there, as mermaid-cli
    /// shows such labels.
    pub fn link_text(&self) -> Option<Color> {
        let light = |c: Color| {
            0.2126 * f64::from(c.r) + 0.7152 * f64::from(c.g) + 0.0722 * f64::from(c.b) > 200.0
        };
        self.text.map(|c| if light(c) { hex(0xaaaaaa) } else { c })
    }

    pub fn of(config: &Config) -> Palette {
        if config.is_empty() {
            return DEFAULT;
        }
        let mut p = match config.theme.as_deref() {
            Some("base") => base(config),
            Some("neutral") => Palette {
                node_fill: hex(0xeeeeee),
                node_stroke: hex(0x999999),
                group_fill: hsl(0.0, 0.0, 98.921_568_627_5),
                group_stroke: hex(0x707070),
                line: hex(0x666666),
                text: Some(hex(0x000000)),
                title: Some(hex(0x333333)),
                font: None,
            },
            Some("dark") => Palette {
                node_fill: hex(0x1f2020),
                node_stroke: hex(0xcccccc),
                group_fill: hsl(180.0, 1.587_301_587_3, 28.352_941_176_5),
                group_stroke: Color {
                    a: 64,
                    ..hex(0xffffff)
                },
                line: hex(0xd3d3d3),
                text: Some(hex(0xcccccc)),
                title: Some(hex(0xf9fffe)),
                font: None,
            },
            Some("forest") => Palette {
                node_fill: hex(0xcde498),
                node_stroke: hex(0x13540c),
                group_fill: hex(0xcdffb2),
                group_stroke: hex(0x6eaa49),
                line: hex(0x000000),
                text: Some(hex(0x000000)),
                title: Some(hex(0x333333)),
                font: None,
            },
            _ => DEFAULT,
        };
        if config.theme.as_deref() != Some("base") {
            // The fixed themes: what a user sets replaces the colour it feeds.
            let set = |slot: &mut Color, names: &[&str]| {
                if let Some(c) = names.iter().find_map(|n| config.colour(n)) {
                    *slot = c;
                }
            };
            set(&mut p.node_fill, &["mainBkg", "nodeBkg"]);
            set(&mut p.node_stroke, &["nodeBorder", "border1"]);
            set(&mut p.group_fill, &["clusterBkg", "secondBkg"]);
            set(&mut p.group_stroke, &["clusterBorder", "border2"]);
            set(&mut p.line, &["lineColor", "defaultLinkColor"]);
            if let Some(c) = config.colour("textColor") {
                p.text = Some(c);
                p.title = p.title.or(Some(c));
            }
            if let Some(c) = config.colour("titleColor") {
                p.title = Some(c);
            }
        }
        p.font = config
            .font_family
            .as_deref()
            .or(config.variable("fontFamily"))
            .and_then(generic_family);
        p
    }
}

/// `base`: every colour derived from `primaryColor`, `background` and `darkMode`, each
/// replaceable (mermaid's `theme-base.js`).
fn base(config: &Config) -> Palette {
    let dark = config.variable("darkMode") == Some("true");
    let primary = config.colour("primaryColor").unwrap_or(hex(0xfff4dd));
    let background = config.colour("background").unwrap_or(hex(0xf4f4f4));
    let border = |c: Color| adjust(c, 0.0, -40.0, if dark { 10.0 } else { -10.0 });
    let text = config.colour("primaryTextColor").unwrap_or(if dark {
        hex(0xeeeeee)
    } else {
        hex(0x333333)
    });
    let tertiary = config
        .colour("tertiaryColor")
        .unwrap_or_else(|| adjust(primary, 180.0, 0.0, 5.0));
    let tertiary_border = config
        .colour("tertiaryBorderColor")
        .unwrap_or_else(|| border(tertiary));
    let tertiary_text = config
        .colour("tertiaryTextColor")
        .unwrap_or_else(|| invert(tertiary));
    Palette {
        node_fill: config.colour("mainBkg").unwrap_or(primary),
        node_stroke: config
            .colour("nodeBorder")
            .or_else(|| config.colour("primaryBorderColor"))
            .unwrap_or_else(|| border(primary)),
        group_fill: config.colour("clusterBkg").unwrap_or(tertiary),
        group_stroke: config.colour("clusterBorder").unwrap_or(tertiary_border),
        line: config
            .colour("lineColor")
            .unwrap_or_else(|| invert(background)),
        text: Some(config.colour("textColor").unwrap_or(text)),
        title: Some(config.colour("titleColor").unwrap_or(tertiary_text)),
        font: None,
    }
}

/// The family a CSS font list asks for, among those drawn: monospace, serif or sans.
fn generic_family(list: &str) -> Option<FontFamily> {
    let first = list
        .split(',')
        .next()?
        .trim()
        .trim_matches(['"', '\''])
        .to_ascii_lowercase();
    if first.is_empty() {
        return None;
    }
    Some(
        if first.contains("mono") || first.contains("courier") || first.contains("consol") {
            FontFamily::Courier
        } else if (first.contains("serif") && !first.contains("sans"))
            || first.contains("times")
            || first.contains("georgia")
            || first.contains("garamond")
        {
            FontFamily::Times
        } else {
            FontFamily::Helvetica
        },
    )
}

/// khroma's `adjust`: hue in degrees (JavaScript's `%`, the sign kept), saturation and
/// lightness in percentage points, clamped to 0..100.
fn adjust(c: Color, dh: f64, ds: f64, dl: f64) -> Color {
    let (h, s, l) = to_hsl(c);
    let out = hsl(
        (h + dh) % 360.0,
        (s + ds).clamp(0.0, 100.0),
        (l + dl).clamp(0.0, 100.0),
    );
    Color { a: c.a, ..out }
}

fn invert(c: Color) -> Color {
    Color {
        r: 255 - c.r,
        g: 255 - c.g,
        b: 255 - c.b,
        a: c.a,
    }
}

fn to_hsl(c: Color) -> (f64, f64, f64) {
    let (r, g, b) = (
        f64::from(c.r) / 255.0,
        f64::from(c.g) / 255.0,
        f64::from(c.b) / 255.0,
    );
    let (max, min) = (r.max(g).max(b), r.min(g).min(b));
    let l = (max + min) / 2.0;
    if max == min {
        return (0.0, 0.0, l * 100.0);
    }
    let d = max - min;
    let s = if l > 0.5 {
        d / (2.0 - max - min)
    } else {
        d / (max + min)
    };
    let h = if max == r {
        (g - b) / d + if g < b { 6.0 } else { 0.0 }
    } else if max == g {
        (b - r) / d + 2.0
    } else {
        (r - g) / d + 4.0
    };
    (h * 60.0, s * 100.0, l * 100.0)
}

fn hsl(h: f64, s: f64, l: f64) -> Color {
    let byte = |v: f64| (v * 255.0).round().clamp(0.0, 255.0) as u8;
    if s == 0.0 {
        let g = byte(l / 100.0);
        return Color::rgb(g, g, g);
    }
    let (h, s, l) = (h / 360.0, s / 100.0, l / 100.0);
    let q = if l < 0.5 {
        l * (1.0 + s)
    } else {
        l + s - l * s
    };
    let p = 2.0 * l - q;
    let channel = |mut t: f64| {
        if t < 0.0 {
            t += 1.0;
        }
        if t > 1.0 {
            t -= 1.0;
        }
        if t < 1.0 / 6.0 {
            p + (q - p) * 6.0 * t
        } else if t < 0.5 {
            q
        } else if t < 2.0 / 3.0 {
            p + (q - p) * (2.0 / 3.0 - t) * 6.0
        } else {
            p
        }
    };
    Color::rgb(
        byte(channel(h + 1.0 / 3.0)),
        byte(channel(h)),
        byte(channel(h - 1.0 / 3.0)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(theme: Option<&str>, vars: &[(&str, &str)]) -> Config {
        Config {
            theme: theme.map(str::to_string),
            variables: vars
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            font_family: None,
            curve: None,
        }
    }

    /// Values mermaid 11 computes (its theme files run under node with khroma).
    #[test]
    fn base_derives_from_the_primary_colour_as_mermaid_does() {
        let p = Palette::of(&config(Some("base"), &[]));
        assert_eq!(p.node_fill, hex(0xfff4dd));
        // hsl(40.588, 60%, 83.333%) and hsl(220.588, 100%, 98.333%) / 60%, 88.333%.
        assert_eq!(p.node_stroke, hsl(40.588_235_294_1, 60.0, 83.333_333_333_3));
        assert_eq!(
            p.group_fill,
            hsl(220.588_235_294_1, 100.0, 98.333_333_333_3)
        );
        assert_eq!(
            p.group_stroke,
            hsl(220.588_235_294_1, 60.0, 88.333_333_333_3)
        );
        assert_eq!(p.line, hex(0x0b0b0b));

        let red = Palette::of(&config(Some("base"), &[("primaryColor", "#ff0000")]));
        assert_eq!(red.node_fill, hex(0xff0000));
        // The cyan a red base gives its subgraphs: hsl(180, 100%, 55%).
        assert_eq!(red.group_fill, hex(0x1affff));
        let bb = Palette::of(&config(Some("base"), &[("primaryColor", "#BB2528")]));
        assert_eq!(
            bb.node_stroke,
            hsl(358.8, 26.964_285_714_3, 33.921_568_627_5)
        );
        assert_eq!(
            bb.group_fill,
            hsl(178.8, 66.964_285_714_3, 48.921_568_627_5)
        );
    }

    #[test]
    fn fixed_themes_take_their_colours_and_the_users() {
        assert_eq!(Palette::of(&Config::default()), DEFAULT);
        let forest = Palette::of(&config(Some("forest"), &[]));
        assert_eq!(
            (forest.node_fill, forest.node_stroke),
            (hex(0xcde498), hex(0x13540c))
        );
        let dark = Palette::of(&config(Some("dark"), &[("mainBkg", "#123456")]));
        assert_eq!(dark.node_fill, hex(0x123456));
        assert_eq!(dark.text, Some(hex(0xcccccc)));
        // Without a theme the variables replace the default theme's colours; primaryColor
        // feeds nothing there.
        let p = Palette::of(&config(
            None,
            &[("primaryColor", "#ff0000"), ("lineColor", "#F8B229")],
        ));
        assert_eq!(p.node_fill, DEFAULT.node_fill);
        assert_eq!(p.line, hex(0xf8b229));
        // A value with a character mermaid's sanitizer refuses is blanked.
        let p = Palette::of(&config(Some("neutral"), &[("mainBkg", "url(x)-1")]));
        assert_eq!(p.node_fill, hex(0xeeeeee));
    }

    #[test]
    fn link_labels_stay_readable_on_the_page() {
        let p = Palette::of(&config(Some("base"), &[("primaryTextColor", "#fff")]));
        assert_eq!(p.text, Some(hex(0xffffff)));
        assert_eq!(p.link_text(), Some(hex(0xaaaaaa)));
        let p = Palette::of(&config(Some("forest"), &[]));
        assert_eq!(p.link_text(), p.text);
    }

    #[test]
    fn font_lists_pick_a_family() {
        let mut c = config(None, &[]);
        c.font_family = Some("Trebuchet MS, Verdana, Arial, Sans-Serif".into());
        assert_eq!(Palette::of(&c).font, Some(FontFamily::Helvetica));
        c.font_family = Some("'Courier New', monospace".into());
        assert_eq!(Palette::of(&c).font, Some(FontFamily::Courier));
        c.font_family = Some("Georgia, serif".into());
        assert_eq!(Palette::of(&c).font, Some(FontFamily::Times));
    }
}
