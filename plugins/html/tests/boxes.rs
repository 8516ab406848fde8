//! Blocks in boxes: the backgrounds, borders, padding and widths the style sheets give
//! blocks, the page's background, and link colours.

mod common;

use common::*;
use quire_sdk::{Color, Document, Node, Shape};

const CLOSE: f64 = 0.01;

fn filled(doc: &Document, fill: Color) -> Vec<(usize, &Node)> {
    doc.pages[0]
        .shapes
        .iter()
        .enumerate()
        .filter_map(|(i, s)| match s {
            Shape::Node(n) if n.fill == Some(fill) => Some((i, n)),
            _ => None,
        })
        .collect()
}

/// An email's card: a white, padded, centred block of at most 300 px on a grey page.
#[test]
fn a_styled_block_is_a_box_under_its_text() {
    let grey = Color::rgb(0xf4, 0xf5, 0xf6);
    let doc = import(
        "<style>body { background: #f4f5f6 } \
         .card { background: #fff; max-width: 300px; margin: 0 auto; padding: 16px; \
                 border: 1px solid #eaebed }</style>\
         <body><p>outside</p><div class=card><p>Hi there</p><p>Call to action</p></div></body>",
    )
    .document;
    let page = &doc.pages[0];
    // The page: grey under everything, inside its margins.
    let Shape::Node(first) = &page.shapes[0] else {
        panic!("{:?}", page.shapes[0])
    };
    assert_eq!(first.fill, Some(grey));
    let white = filled(&doc, Color::WHITE);
    let [(at, card)] = white[..] else {
        panic!("one white box: {white:?}")
    };
    // 300 CSS px are 225 points, centred in the text width.
    assert!((card.frame.w - 225.0).abs() < CLOSE, "{:?}", card.frame);
    let centre = first.frame.x + first.frame.w / 2.0;
    assert!((card.frame.x + card.frame.w / 2.0 - centre).abs() < CLOSE);
    let hi = text_box(&doc, "Hi there");
    let hi_at = page
        .shapes
        .iter()
        .position(|s| matches!(s, Shape::Text(t) if t.text.plain_text() == "Hi there"))
        .unwrap();
    assert!(at < hi_at, "the box is drawn under its text");
    // 16 px of padding and a 1 px border: the text starts 12.75 points in.
    assert!(
        (hi.frame.x - card.frame.x - 12.75).abs() < CLOSE,
        "{:?}",
        hi.frame
    );
    let outside = text_box(&doc, "outside");
    assert!(outside.frame.y + outside.frame.h <= card.frame.y);
    // The border: one outline in its colour.
    assert!(page.shapes.iter().any(|s| matches!(s,
        Shape::Node(n) if n.stroke.as_ref().is_some_and(|s| s.color == Color::rgb(0xea, 0xeb, 0xed)))));
}

/// A link takes the colour set on it or inside it; one inherited from outside leaves it
/// link blue, as in a browser.
#[test]
fn a_link_takes_only_its_own_colour() {
    let doc = import(
        "<style>p { color: #777 } a.button { color: #fff } .inner { color: #0a0 }</style>\
         <p>Questions? <a href='https://example.com/a'>Unsubscribe</a></p>\
         <p><a class=button href='https://example.com/b'>Call To Action</a></p>\
         <p><a href='https://example.com/c'><span class=inner>green</span></a></p>",
    )
    .document;
    let color = |text: &str| {
        let t = text_box(&doc, text);
        let run = t
            .text
            .runs
            .iter()
            .find(|r| r.link.is_some())
            .expect("a link run");
        run.color
    };
    let blue = color("Questions? Unsubscribe");
    assert!(blue.is_some_and(|c| c.b > c.r), "{blue:?}");
    assert_ne!(blue, Some(Color::rgb(0x77, 0x77, 0x77)));
    assert_eq!(color("Call To Action"), Some(Color::WHITE));
    assert_eq!(color("green"), Some(Color::rgb(0, 0xaa, 0)));
}

/// The texts of `page` whose box `at` picks, in drawing order.
fn texts_where(page: &quire_sdk::model::Page, at: impl Fn(quire_sdk::Rect) -> bool) -> Vec<String> {
    page.shapes
        .iter()
        .filter_map(|s| match s {
            Shape::Text(t) if at(t.frame) => Some(t.text.plain_text()),
            _ => None,
        })
        .collect()
}

/// A 20 mm margin, in points.
const MARGIN_20MM: f64 = 20.0 * 72.0 / 25.4;

/// `@page`'s margin boxes number every page, and its colour fills the whole sheet; a
/// running element (`element()`, which Chromium does not set either) is left out.
#[test]
fn page_margin_boxes_and_colour() {
    let body: String = (0..120).map(|i| format!("<p>paragraph {i}</p>")).collect();
    let doc = import(&format!(
        "<style>@page {{ background-color: #ffffe0; margin: 20mm; \
         @bottom-left {{ content: counter(page) \"page, total:\" counter(pages) \"pages\" }} \
         @bottom-right {{ content: \"p. \" counter(page) }} \
         @top-center {{ content: element(header) }} }}</style>{body}"
    ))
    .document;
    let count = doc.pages.len();
    assert!(count > 1);
    for (n, page) in doc.pages.iter().enumerate() {
        assert_eq!(page.background, Some(Color::rgb(0xff, 0xff, 0xe0)));
        let margin_texts = texts_where(page, |r| r.y > page.height - MARGIN_20MM);
        assert_eq!(
            margin_texts,
            [
                format!("{}page, total:{count}pages", n + 1),
                format!("p. {}", n + 1)
            ]
        );
    }
}

/// `@page :first` (paged.js's first-page example): the first page is yellow and has its own
/// footer beside the page number every page has; the other pages have neither. Its margins
/// (`inherit`) and the paper of the plain rule hold for every page.
#[test]
fn the_first_page_rule_colours_and_labels_the_first_page() {
    let body: String = (0..120).map(|i| format!("<p>paragraph {i}</p>")).collect();
    let doc = import(&format!(
        "<style>@page {{ size: 6in 8in; margin: 20mm 20mm; @bottom-left {{ content: counter(page) }} }} \
         @page :first {{ margin: inherit; background-color: yellow; \
         @bottom-center {{ content: \"first page of the document\" }} }}</style>{body}"
    ))
    .document;
    assert!(doc.pages.len() > 1);
    let footer = |page: &quire_sdk::model::Page| -> Vec<String> {
        let mut texts = texts_where(page, |r| r.y > page.height - MARGIN_20MM);
        texts.sort();
        texts
    };
    assert_eq!(doc.pages[0].background, Some(Color::rgb(255, 255, 0)));
    assert_eq!(footer(&doc.pages[0]), ["1", "first page of the document"]);
    for (n, page) in doc.pages.iter().enumerate().skip(1) {
        assert_eq!(page.background, None);
        assert_eq!(footer(page), [(n + 1).to_string()]);
        assert_eq!((page.width, page.height), (432.0, 576.0));
    }
}

/// A title page without the running header: `@page :first { @top-center { content: none } }`
/// blanks the first page's header, every other page keeps it.
#[test]
fn the_first_page_rule_can_blank_a_running_header() {
    let body: String = (0..120).map(|i| format!("<p>paragraph {i}</p>")).collect();
    let doc = import(&format!(
        "<style>@page {{ margin: 20mm; @top-center {{ content: \"Annual report\" }} }} \
         @page :first {{ @top-center {{ content: none }} }}</style>{body}"
    ))
    .document;
    assert!(doc.pages.len() > 1);
    let header = |page: &quire_sdk::model::Page| texts_where(page, |r| r.y + r.h < MARGIN_20MM);
    assert!(
        header(&doc.pages[0]).is_empty(),
        "{:?}",
        header(&doc.pages[0])
    );
    for page in &doc.pages[1..] {
        assert_eq!(header(page), ["Annual report"]);
    }
}

/// Underlines as a browser draws them: `<u>` and `<ins>` underline, a link is underlined
/// unless the style sheets take it off (a button), `text-decoration` draws or removes lines.
#[test]
fn underlines_follow_u_and_text_decoration() {
    let doc = import(
        "<style>a.button { text-decoration: none } .struck { text-decoration: line-through } \
         .under { text-decoration: underline dotted red }</style>\
         <p>plain <u>under</u> <ins>inserted</ins></p>\
         <p><a href='https://example.com/a'>link</a> <a class=button href='https://example.com/b'>button</a></p>\
         <p><span class=struck>struck</span> <span class=under>decorated</span> \
         <a style='text-decoration: none' href='https://example.com/c'>inline none</a></p>",
    )
    .document;
    let run = |text: &str| {
        doc.shapes()
            .filter_map(|s| match s {
                Shape::Text(t) => Some(t),
                _ => None,
            })
            .flat_map(|t| &t.text.runs)
            .find(|r| r.text.trim() == text)
            .unwrap_or_else(|| panic!("no run {text:?}"))
            .clone()
    };
    assert!(!run("plain").underline);
    assert!(run("under").underline && run("inserted").underline);
    assert!(run("link").underline);
    assert!(!run("button").underline && run("button").link.is_some());
    assert!(run("struck").strike && !run("struck").underline);
    assert!(run("decorated").underline);
    assert!(!run("inline none").underline);
}
