//! Text in scripts the standard fonts lack, exported as SVG with the host's font library
//! installed natively (as a component gets it through the `fonts` import): drawn as the
//! library's glyph outlines, so the picture needs no font, under an invisible text layer
//! that gives back every character.

mod common;

use quire_sdk::metrics::FontFace;
use quire_sdk::*;

fn with_fonts() {
    quire_fonts::install_default_library();
}

const TEXTS: [&str; 6] = [
    "Всеобщая декларация прав человека: все люди рождаются свободными.",
    "يولد جميع الناس أحرارًا متساوين في الكرامة والحقوق.",
    "सभी मनुष्यों को गौरव और अधिकारों के मामले में जन्मजात स्वतन्त्रता प्राप्त है।",
    "人人生而自由，在尊严和权利上一律平等。",
    "すべての人間は、生れながらにして自由であり、かつ、尊厳と権利とについて平等である。",
    "Mixed: Hello (עברית) and ☑ done.",
];

fn document() -> Document {
    let mut doc = Document::new(Kind::Paged);
    let mut page = Page::new(612.0, 792.0);
    for (i, words) in TEXTS.iter().enumerate() {
        page.shapes.push(Shape::Text(TextBox {
            id: format!("t{i}"),
            frame: Rect::new(40.0, 40.0 + i as f64 * 110.0, 520.0, 100.0),
            text: Text::plain(*words, 14.0),
            fill: None,
            stroke: None,
        }));
    }
    doc.pages.push(page);
    doc
}

fn export(doc: Document) -> (String, Vec<String>) {
    let out = quire_svg::export_svg(&common::request(doc, Vec::new())).expect("export");
    (String::from_utf8(out.bytes).unwrap(), out.warnings)
}

/// Every `<text>` element's content and whether it is visible.
fn texts(svg: &str) -> Vec<(String, bool)> {
    let tree = roxmltree::Document::parse(svg).expect("well-formed SVG");
    tree.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| {
            let content: String = n
                .descendants()
                .filter(|d| d.is_text())
                .filter_map(|d| d.text())
                .collect();
            (content, n.attribute("fill-opacity") != Some("0"))
        })
        .collect()
}

#[test]
fn every_character_is_in_the_text_layer_and_only_standard_characters_are_left_to_fonts() {
    with_fonts();
    let (svg, warnings) = export(document());
    assert!(warnings.is_empty(), "{warnings:?}");
    let found = texts(&svg);
    let all: String = found.iter().map(|(t, _)| t.as_str()).collect();
    for source in TEXTS {
        let kept = source
            .chars()
            .filter(|c| !c.is_whitespace())
            .filter(|c| all.contains(*c))
            .count();
        let total = source.chars().filter(|c| !c.is_whitespace()).count();
        assert_eq!(
            kept, total,
            "{source}: {kept} of {total} characters in the text"
        );
    }
    // A viewer without Noto draws the same picture: no visible text needs more than the
    // standard families every system has.
    let helvetica = FontFace::new(FontFamily::Helvetica, false, false);
    for (text, visible) in &found {
        if *visible {
            assert!(
                text.chars().all(|c| helvetica.encode(c).is_some()),
                "visible text {text:?} needs a font the viewer may lack"
            );
        }
    }
    // Each glyph is defined once and used wherever it recurs.
    let defined = svg.matches("<path id=\"q").count();
    let used = svg.matches("<use ").count();
    assert!(
        defined > 50 && used > defined,
        "{defined} outlines, {used} uses"
    );
}

/// Rendered with only the Liberation fonts (a machine without Noto), each paragraph is
/// inked across the width the layout gave its first line.
#[test]
fn the_outlines_render_without_the_fonts_where_the_layout_put_the_text() {
    with_fonts();
    let doc = document();
    let (svg, _) = export(doc.clone());
    let (w, h, px) = common::resvg_render(&svg);
    // `pt` on the root: 96 dpi pixels.
    let scale = 96.0 / 72.0;
    let inked = |x: u32, y: u32| {
        let i = ((y * w + x) * 4) as usize;
        px[i] < 128 && px[i + 1] < 128 && px[i + 2] < 128
    };
    for shape in &doc.pages[0].shapes {
        let Shape::Text(t) = shape else { continue };
        let lines = quire_sdk::layout::layout_text(&t.text, t.frame.w);
        let first = &lines[0];
        let (x0, x1) = (t.frame.x, t.frame.x + t.frame.w);
        let (y0, y1) = (t.frame.y, t.frame.y + first.height);
        let mut columns = std::collections::BTreeSet::new();
        let mut count = 0;
        for y in (y0 * scale) as u32..((y1 * scale) as u32).min(h) {
            for x in (x0 * scale) as u32..((x1 * scale) as u32).min(w) {
                if inked(x, y) {
                    count += 1;
                    columns.insert(x);
                }
            }
        }
        let span = match (columns.first(), columns.last()) {
            (Some(a), Some(b)) => f64::from(b - a) / scale,
            _ => 0.0,
        };
        let text: String = t.text.runs.iter().map(|r| r.text.as_str()).collect();
        assert!(
            count > 200 && span > first.width * 0.8,
            "{text}: {count} inked pixels over {span:.0} pt of a {:.0} pt line",
            first.width
        );
    }
}

/// Punctuation at the end of a right-to-left line is drawn from the line's right end: in
/// visual order, brackets mirrored (UAX #9 L4), as the PDF draws it, not left to the
/// viewer's bidi (which reads the lone `).` as left to right).
#[test]
fn right_to_left_punctuation_is_drawn_in_visual_order_with_mirrored_brackets() {
    with_fonts();
    let mut doc = Document::new(Kind::Paged);
    let mut page = Page::new(612.0, 792.0);
    page.shapes.push(Shape::Text(TextBox {
        id: "a".into(),
        frame: Rect::new(10.0, 10.0, 300.0, 50.0),
        text: Text::plain("(المادة 1).", 14.0),
        fill: None,
        stroke: None,
    }));
    doc.pages.push(page);
    let (svg, _) = export(doc);
    let visible: Vec<String> = texts(&svg)
        .into_iter()
        .filter(|(_, visible)| *visible)
        .map(|(t, _)| t)
        .collect();
    // Left to right on the page: ".(" then "1", and the logical "(" at the right end, as ")".
    assert_eq!(
        visible.first().map(String::as_str),
        Some(".("),
        "{visible:?}"
    );
    assert_eq!(visible.last().map(String::as_str), Some(")"), "{visible:?}");
}
