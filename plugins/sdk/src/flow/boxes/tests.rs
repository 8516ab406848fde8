//! Boxes: their background under their blocks, padding, width, borders, and their parts
//! on each page they run over.

use crate::flow::tests::{all_text, check, texts, words};
use crate::flow::*;
use crate::model::{Align, Color, Node, Page, Shape};

const CLOSE: f64 = 0.01;
const GREY: Color = Color::rgb(0xf4, 0xf4, 0xf4);
const RED: Color = Color::rgb(0xff, 0, 0);

fn p(text: &str) -> Block {
    Block::Paragraph(vec![Inline::plain(text)])
}

fn nodes(page: &Page) -> Vec<(usize, &Node)> {
    page.shapes
        .iter()
        .enumerate()
        .filter_map(|(i, s)| match s {
            Shape::Node(n) => Some((i, n)),
            _ => None,
        })
        .collect()
}

fn text_width() -> f64 {
    let s = PageSetup::default();
    s.width - s.margin_left - s.margin_right
}

/// A centred box of half the text width, padded, on a grey background with a red frame:
/// the grey is under the text, the text inside the padding.
#[test]
fn a_box_fills_its_background_under_its_padded_blocks() {
    let look = BoxLook {
        background: Some(GREY),
        borders: Borders {
            top: Some(Border {
                width: 2.0,
                color: RED,
            }),
            right: Some(Border {
                width: 2.0,
                color: RED,
            }),
            bottom: Some(Border {
                width: 2.0,
                color: RED,
            }),
            left: Some(Border {
                width: 2.0,
                color: RED,
            }),
        },
        padding: Insets {
            top: 10.0,
            right: 10.0,
            bottom: 10.0,
            left: 20.0,
        },
        width: Some(Extent::Share(0.5)),
        centred: true,
        ..BoxLook::default()
    };
    let blocks = vec![
        p("before"),
        Block::Boxed {
            blocks: vec![p("inside")],
            look,
        },
        p("after"),
    ];
    let (pages, _) = layout(&blocks, &PageSetup::default());
    let page = &pages[0];
    let all = nodes(page);
    let (fill_at, fill) = all
        .iter()
        .find(|(_, n)| n.fill == Some(GREY))
        .expect("a background");
    let inside_at = page
        .shapes
        .iter()
        .position(|s| matches!(s, Shape::Text(t) if t.text.plain_text() == "inside"))
        .unwrap();
    assert!(fill_at < &inside_at, "the background is drawn first");
    let width = text_width();
    assert!((fill.frame.w - width / 2.0).abs() < CLOSE);
    let left = PageSetup::default().margin_left;
    assert!(
        (fill.frame.x - (left + width / 4.0)).abs() < CLOSE,
        "centred: {:?}",
        fill.frame
    );
    let inside = texts(&pages)
        .into_iter()
        .find(|t| t.text.plain_text() == "inside")
        .unwrap();
    assert!((inside.frame.x - (fill.frame.x + 2.0 + 20.0)).abs() < CLOSE);
    assert!(inside.frame.y >= fill.frame.y + 12.0 - CLOSE);
    assert!(inside.frame.y + inside.frame.h <= fill.frame.y + fill.frame.h - 12.0 + CLOSE);
    // The frame: one red outline.
    assert!(all
        .iter()
        .any(|(_, n)| n.stroke.as_ref().is_some_and(|s| s.color == RED)));
    let after = texts(&pages)
        .into_iter()
        .find(|t| t.text.plain_text() == "after")
        .unwrap();
    assert!(after.frame.y >= fill.frame.y + fill.frame.h);
    check(&pages, &[]);
}

/// A box longer than a page: each page's part is filled to the page's foot (the last to
/// its end), the top line on the first part only and the bottom line on the last; an
/// outer box's background goes under an inner one's.
#[test]
fn a_box_cut_by_pages_is_filled_on_each() {
    let line = Some(Border {
        width: 1.0,
        color: RED,
    });
    let inner = Block::Boxed {
        blocks: (0..120).map(|i| p(&format!("line {i}"))).collect(),
        look: BoxLook {
            background: Some(GREY),
            borders: Borders {
                top: line,
                bottom: line,
                ..Borders::default()
            },
            ..BoxLook::default()
        },
    };
    let outer = Block::Boxed {
        blocks: vec![inner],
        look: BoxLook {
            background: Some(RED),
            padding: Insets {
                top: 5.0,
                right: 5.0,
                bottom: 5.0,
                left: 5.0,
            },
            ..BoxLook::default()
        },
    };
    let (pages, _) = layout(&[outer], &PageSetup::default());
    assert!(pages.len() >= 3);
    assert_eq!(words(&all_text(&pages)).len(), 240);
    let bottom = {
        let s = PageSetup::default();
        s.height - s.margin_bottom
    };
    for (n, page) in pages.iter().enumerate() {
        let all = nodes(page);
        let (red_at, red) = all
            .iter()
            .find(|(_, n)| n.fill == Some(RED) && n.frame.h > 2.0)
            .unwrap();
        let (grey_at, _) = all.iter().find(|(_, n)| n.fill == Some(GREY)).unwrap();
        assert!(
            red_at < grey_at,
            "page {n}: the outer background under the inner"
        );
        let lines = all
            .iter()
            .filter(|(_, n)| n.fill == Some(RED) && n.frame.h <= 2.0)
            .count();
        let expected = usize::from(n == 0) + usize::from(n == pages.len() - 1);
        assert_eq!(lines, expected, "page {n}");
        if n + 1 < pages.len() {
            assert!(
                (red.frame.y + red.frame.h - bottom).abs() < CLOSE,
                "page {n} filled to its foot"
            );
        }
    }
    check(&pages, &[]);
}

/// Hostile numbers (padding wider than the page, negative margins, a box in a box in a
/// box ...) still give a valid page with every word on it.
#[test]
fn boxes_with_impossible_numbers_still_lay_out() {
    let look = BoxLook {
        padding: Insets {
            top: 1e9,
            right: 1e9,
            bottom: f64::NAN,
            left: 5000.0,
        },
        margin: Insets {
            top: -50.0,
            right: -1e9,
            bottom: f64::INFINITY,
            left: 300.0,
        },
        width: Some(Extent::Points(-3.0)),
        max_width: Some(Extent::Share(f64::NAN)),
        borders: Borders {
            left: Some(Border {
                width: 1e6,
                color: RED,
            }),
            ..Borders::default()
        },
        background: Some(GREY),
        centred: true,
    };
    let mut block = p("deep words here");
    for _ in 0..40 {
        block = Block::Boxed {
            blocks: vec![block],
            look,
        };
    }
    let (pages, _) = layout(&[block], &PageSetup::default());
    assert_eq!(words(&all_text(&pages)), ["deep", "words", "here"]);
    check(&pages, &[]);
}

/// The page's background, from the setup.
#[test]
fn every_page_takes_the_setups_background() {
    let setup = PageSetup {
        background: Some(GREY),
        ..PageSetup::default()
    };
    let blocks: Vec<Block> = (0..100).map(|i| p(&format!("paragraph {i}"))).collect();
    let (pages, _) = layout(&blocks, &setup);
    assert!(pages.len() > 1);
    for page in &pages {
        // Under everything, inside the margins.
        let Shape::Node(n) = &page.shapes[0] else {
            panic!("{:?}", page.shapes[0])
        };
        assert_eq!(n.fill, Some(GREY));
        assert!((n.frame.x - setup.margin_left).abs() < CLOSE);
        assert!((n.frame.w - text_width()).abs() < CLOSE);
    }
    check(&pages, &[]);
}

/// Margin boxes: `counter(page)` and `counter(pages)` in the bottom margin of every page,
/// a title in the top one, each centred in its margin's height.
#[test]
fn margin_boxes_number_every_page() {
    let setup = PageSetup {
        margin_boxes: vec![
            MarginBox {
                top: false,
                align: Align::Left,
                content: vec![
                    MarginText::PageNumber,
                    MarginText::Text(" of ".into()),
                    MarginText::PageCount,
                ],
            },
            MarginBox {
                top: true,
                align: Align::Right,
                content: vec![MarginText::Text("Annual report".into())],
            },
        ],
        ..PageSetup::default()
    };
    let blocks: Vec<Block> = (0..100).map(|i| p(&format!("paragraph {i}"))).collect();
    let (pages, _) = layout(&blocks, &setup);
    let count = pages.len();
    assert!(count > 1);
    for (n, page) in pages.iter().enumerate() {
        let boxes: Vec<_> = page
            .shapes
            .iter()
            .filter_map(|s| match s {
                Shape::Text(t) if t.id.starts_with("margin-") => Some(t),
                _ => None,
            })
            .collect();
        assert_eq!(boxes.len(), 2);
        let number = boxes.iter().find(|t| t.text.align == Align::Left).unwrap();
        assert_eq!(number.text.plain_text(), format!("{} of {count}", n + 1));
        let centre = number.frame.y + number.frame.h / 2.0;
        assert!((centre - (setup.height - setup.margin_bottom / 2.0)).abs() < CLOSE);
        let title = boxes.iter().find(|t| t.text.align == Align::Right).unwrap();
        assert!(title.frame.y + title.frame.h <= setup.margin_top);
    }
}

/// `@page :first`: the first page's colour and its own box at the bottom centre; its
/// footer's number still stands where every page has it, and no other page takes the
/// first page's colour or box.
#[test]
fn the_first_page_has_its_own_colour_and_boxes() {
    let number = MarginBox {
        top: false,
        align: Align::Left,
        content: vec![MarginText::PageNumber],
    };
    let note = |text: &str| MarginBox {
        top: false,
        align: Align::Center,
        content: vec![MarginText::Text(text.into())],
    };
    let yellow = Color::rgb(255, 255, 0);
    let setup = PageSetup {
        sheet_color: Some(Color::rgb(255, 255, 255)),
        margin_boxes: vec![number, note("every page")],
        first_page: FirstPage {
            sheet_color: Some(yellow),
            margin_boxes: vec![note("first page of the document")],
        },
        ..PageSetup::default()
    };
    let blocks: Vec<Block> = (0..100).map(|i| p(&format!("paragraph {i}"))).collect();
    let (pages, _) = layout(&blocks, &setup);
    assert!(pages.len() > 1);
    let boxes = |page: &Page| -> Vec<String> {
        let mut texts: Vec<String> = page
            .shapes
            .iter()
            .filter_map(|s| match s {
                Shape::Text(t) if t.id.starts_with("margin-") => Some(t.text.plain_text()),
                _ => None,
            })
            .collect();
        texts.sort();
        texts
    };
    assert_eq!(pages[0].background, Some(yellow));
    assert_eq!(boxes(&pages[0]), ["1", "first page of the document"]);
    assert_eq!(pages[1].background, Some(Color::rgb(255, 255, 255)));
    assert_eq!(boxes(&pages[1]), ["2", "every page"]);
}
