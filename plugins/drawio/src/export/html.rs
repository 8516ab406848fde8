//! Model text to a draw.io label. The first run's font goes in the cell's style; text of
//! one style is written plain, mixed styles and links as the HTML subset draw.io's editor
//! writes (`<span style>`, `<a href>`, `<br>`), which the importer reads back.

use quire_sdk::{Align, Color, FontFamily, Run, Text, VAlign};

use super::style::number;

fn family(f: FontFamily) -> &'static str {
    match f {
        FontFamily::Helvetica => "Helvetica",
        FontFamily::Times => "Times New Roman",
        FontFamily::Courier => "Courier New",
        FontFamily::Symbol => "Symbol",
        FontFamily::ZapfDingbats => "ZapfDingbats",
    }
}

fn hex(c: Option<Color>) -> String {
    Color {
        a: 255,
        ..c.unwrap_or(Color::BLACK)
    }
    .to_hex()
}

/// The label's value and the style keys that go with it (font, alignment, `html`).
pub fn label(t: &Text) -> (String, String) {
    let Some(first) = t.runs.first() else {
        return (String::new(), String::new());
    };
    let underline = t.runs.iter().all(|r| r.underline);
    let strike = t.runs.iter().all(|r| r.strike);
    let bits =
        first.bold as u8 | (first.italic as u8) << 1 | (underline as u8) << 2 | (strike as u8) << 3;
    let mut style = format!(
        "fontSize={};fontFamily={};fontStyle={bits};",
        number(first.size),
        family(first.font)
    );
    if first.color.is_some() {
        style.push_str(&format!("fontColor={};", hex(first.color)));
    }
    // draw.io's style has no justified `align`: its editor justifies a label's HTML block.
    let justify = t.align == Align::Justify;
    style.push_str(match t.align {
        Align::Left | Align::Justify => "align=left;",
        Align::Center => "align=center;",
        Align::Right => "align=right;",
    });
    style.push_str(match t.valign {
        VAlign::Top => "verticalAlign=top;",
        VAlign::Middle => "verticalAlign=middle;",
        VAlign::Bottom => "verticalAlign=bottom;",
    });
    if let Some(p) = t.padding {
        for (key, v) in [
            ("spacingTop", p.top),
            ("spacingRight", p.right),
            ("spacingBottom", p.bottom),
            ("spacingLeft", p.left),
        ] {
            if v > 0.0 {
                style.push_str(&format!("{key}={};", number(v)));
            }
        }
    }
    let uniform = t.runs.iter().all(|r| {
        r.link.is_none()
            && r.font == first.font
            && r.size == first.size
            && r.bold == first.bold
            && r.italic == first.italic
            && r.underline == underline
            && r.strike == strike
            && r.color == first.color
    });
    if uniform && !justify {
        style.push_str("html=0;");
        return (t.plain_text(), style);
    }
    style.push_str("html=1;");
    let mut html = String::new();
    if justify {
        html.push_str("<div style=\"text-align: justify\">");
    }
    let mut at_line_start = true;
    for r in &t.runs {
        let css = css(r, first, underline, strike);
        if let Some(link) = &r.link {
            html.push_str("<a href=\"");
            push_escaped(link, &mut html, &mut false);
            html.push_str("\">");
        }
        if !css.is_empty() {
            html.push_str(&format!("<span style=\"{css}\">"));
        }
        push_escaped(&r.text, &mut html, &mut at_line_start);
        if !css.is_empty() {
            html.push_str("</span>");
        }
        if r.link.is_some() {
            html.push_str("</a>");
        }
    }
    if justify {
        html.push_str("</div>");
    }
    (html, style)
}

/// The CSS that makes `run` look as it does over the cell's base style.
fn css(run: &Run, base: &Run, underline_all: bool, strike_all: bool) -> String {
    let mut css = Vec::new();
    if run.size != base.size {
        css.push(format!("font-size: {}px", number(run.size)));
    }
    if run.font != base.font {
        css.push(format!("font-family: {}", family(run.font)));
    }
    if run.color != base.color {
        css.push(format!("color: {}", hex(run.color)));
    }
    if run.bold != base.bold {
        css.push(
            if run.bold {
                "font-weight: bold"
            } else {
                "font-weight: normal"
            }
            .into(),
        );
    }
    if run.italic != base.italic {
        css.push(
            if run.italic {
                "font-style: italic"
            } else {
                "font-style: normal"
            }
            .into(),
        );
    }
    let deco: Vec<&str> = [
        (run.underline && !underline_all, "underline"),
        (run.strike && !strike_all, "line-through"),
    ]
    .iter()
    .filter(|(on, _)| *on)
    .map(|(_, v)| *v)
    .collect();
    if !deco.is_empty() {
        css.push(format!("text-decoration: {}", deco.join(" ")));
    }
    css.join("; ")
}

/// HTML-escapes text; line breaks become `<br>` and spaces that HTML would fold (a second
/// space, a space at a line start) become `&nbsp;`.
fn push_escaped(s: &str, out: &mut String, at_line_start: &mut bool) {
    let mut prev_space = *at_line_start;
    for ch in s.chars() {
        match ch {
            '\n' => {
                out.push_str("<br>");
                prev_space = true;
                continue;
            }
            ' ' | '\t' if prev_space => out.push_str("&nbsp;"),
            ' ' | '\t' => {
                out.push(' ');
                prev_space = true;
                continue;
            }
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
        prev_space = false;
    }
    *at_line_start = prev_space;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::label::{read, runs};

    fn run(text: &str) -> Run {
        Run::plain(text, 12.0)
    }

    #[test]
    fn one_style_is_plain_text() {
        let t = Text::plain("a < b\nc", 14.0);
        let (value, style) = label(&t);
        assert_eq!(value, "a < b\nc");
        assert!(
            style.contains("fontSize=14;") && style.contains("html=0;"),
            "{style}"
        );
    }

    #[test]
    fn mixed_runs_read_back_the_same() {
        let mut bold = run("bold  part");
        bold.bold = true;
        let mut red = run(" red\n<x>");
        red.color = Some(Color::rgb(255, 0, 0));
        red.size = 20.0;
        let mut link = run(" go");
        link.link = Some("https://e.org/?a=1&b=2".into());
        let t = Text {
            runs: vec![run("plain "), bold, red, link],
            ..Text::default_layout()
        };
        let (value, style) = label(&t);
        assert!(style.contains("html=1;"));
        let back = runs(&value, true, &run(""));
        let texts: Vec<&str> = back.iter().map(|r| r.text.as_str()).collect();
        assert_eq!(texts.concat(), "plain bold  part red\n<x> go");
        assert!(back.iter().any(|r| r.bold && r.text == "bold  part"));
        assert!(back
            .iter()
            .any(|r| r.color == Some(Color::rgb(255, 0, 0)) && r.size == 20.0));
        assert!(back
            .iter()
            .any(|r| r.link.as_deref() == Some("https://e.org/?a=1&b=2")));
    }

    #[test]
    fn a_justified_label_is_a_justified_block_and_reads_back_justified() {
        let t = Text {
            runs: vec![run("one  line\nand <another>")],
            align: Align::Justify,
            ..Text::default_layout()
        };
        let (value, style) = label(&t);
        assert!(
            style.contains("html=1;") && style.contains("align=left;"),
            "{style}"
        );
        assert!(
            value.starts_with("<div style=\"text-align: justify\">"),
            "{value}"
        );
        let back = read(&value, true, &run(""));
        assert_eq!(back.align, Some(Align::Justify));
        let texts: Vec<&str> = back.runs.iter().map(|r| r.text.as_str()).collect();
        assert_eq!(texts.concat(), "one  line\nand <another>");
        // Other alignments stay in the style, and a plain label has no block to read.
        let centred = Text {
            align: Align::Center,
            ..t
        };
        let (value, style) = label(&centred);
        assert!(
            style.contains("align=center;") && style.contains("html=0;"),
            "{style}"
        );
        assert_eq!(read(&value, false, &run("")).align, None);
    }
}
