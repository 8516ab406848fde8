use super::*;
use crate::layout::text_height;
use crate::model::{Color, Document, Kind, Rect, Shape, TextBox};

fn p(text: &str) -> Block {
    Block::Paragraph(vec![Inline::plain(text)])
}

pub(super) fn texts(pages: &[Page]) -> Vec<&TextBox> {
    pages
        .iter()
        .flat_map(|p| &p.shapes)
        .filter_map(|s| {
            if let Shape::Text(t) = s {
                Some(t)
            } else {
                None
            }
        })
        .collect()
}

pub(super) fn all_text(pages: &[Page]) -> String {
    texts(pages)
        .iter()
        .map(|t| t.text.plain_text())
        .collect::<Vec<_>>()
        .join(" ")
}

pub(super) fn words(s: &str) -> Vec<&str> {
    s.split_whitespace().collect()
}

/// The output is a valid model, boxes hold their text exactly and stay inside the margins
/// (a table of wide words up to the middle of the right one).
pub(super) fn check(pages: &[Page], assets: &[&str]) {
    let mut doc = Document::new(Kind::Paged);
    doc.pages = pages.to_vec();
    crate::validate::check(&doc, assets.iter().copied()).unwrap();
    let setup = PageSetup::default();
    for page in pages {
        for s in &page.shapes {
            if let Some(f) = s.frame() {
                assert!(f.y >= setup.margin_top - 1e-6, "{s:?}");
                assert!(
                    f.bottom() <= setup.height - setup.margin_bottom + 1e-6,
                    "{s:?}"
                );
                // A table of wide words may run halfway into the right margin.
                assert!(
                    f.right() <= setup.width - setup.margin_right / 2.0 + 1e-6,
                    "{s:?}"
                );
            }
            if let Shape::Text(t) = s {
                let h = text_height(&t.text, t.frame.w);
                assert!(
                    (h - t.frame.h).abs() < 1e-6,
                    "box {} is {} tall, text {}",
                    t.id,
                    t.frame.h,
                    h
                );
            }
        }
    }
}

#[test]
fn empty_document_is_one_empty_page() {
    let (pages, warnings) = layout(&[], &PageSetup::default());
    assert_eq!(pages.len(), 1);
    assert!(pages[0].shapes.is_empty());
    assert!(warnings.is_empty());
    assert_eq!((pages[0].width, pages[0].height), (595.28, 841.89));
}

#[test]
fn paragraphs_stack_down_the_page() {
    let (pages, _) = layout(&[p("First."), p("Second.")], &PageSetup::default());
    let t = texts(&pages);
    assert_eq!(t.len(), 2);
    assert_eq!((t[0].frame.x, t[0].frame.y), (56.7, 56.7));
    assert!(t[1].frame.y > t[0].frame.bottom());
    assert_eq!(t[0].text.runs[0].font, FontFamily::Times);
    assert_eq!(t[0].text.runs[0].size, 11.0);
    check(&pages, &[]);
}

#[test]
fn long_paragraph_is_split_across_pages_in_order() {
    let body: String = (0..3000).map(|i| format!("w{i} ")).collect();
    let (pages, _) = layout(&[p(&body)], &PageSetup::default());
    assert!(pages.len() >= 3, "{} pages", pages.len());
    assert_eq!(words(&all_text(&pages)), words(&body));
    check(&pages, &[]);
    // Every page but the last is filled to near its bottom.
    let bottom = 841.89 - 56.7;
    for page in &pages[..pages.len() - 1] {
        let last = page.shapes.last().and_then(Shape::frame).unwrap();
        assert!(bottom - last.bottom() < 11.0 * 1.3 + 1e-6);
    }
}

#[test]
fn heading_moves_to_the_next_page_with_its_paragraph() {
    let filler: String = "filler ".repeat(900);
    let mut blocks = vec![p(&filler)];
    // Fill the page to a few points above the bottom, then a heading.
    let (pages, _) = layout(&blocks, &PageSetup::default());
    let used = pages
        .last()
        .unwrap()
        .shapes
        .last()
        .and_then(Shape::frame)
        .unwrap()
        .bottom();
    assert!(
        used < 841.89 - 56.7 - 40.0,
        "filler must leave some room: {used}"
    );
    let short_lines = ((841.89 - 56.7 - used - 30.0) / (11.0 * 1.3)).floor() as usize;
    blocks.push(p("line\n".repeat(short_lines).trim_end()));
    blocks.push(Block::Heading {
        level: 1,
        inlines: vec![Inline::plain("Title")],
    });
    blocks.push(p("After the heading."));
    let (pages, _) = layout(&blocks, &PageSetup::default());
    let t = texts(&pages);
    let heading_page = pages.iter().position(|pg| {
        pg.shapes
            .iter()
            .any(|s| matches!(s, Shape::Text(t) if t.text.plain_text() == "Title"))
    });
    let para_page = pages.iter().position(|pg| {
        pg.shapes
            .iter()
            .any(|s| matches!(s, Shape::Text(t) if t.text.plain_text() == "After the heading."))
    });
    assert_eq!(heading_page, para_page);
    let h = t.iter().find(|t| t.text.plain_text() == "Title").unwrap();
    assert_eq!(h.text.runs[0].size, 24.0);
    assert!(h.text.runs[0].bold);
    assert_eq!(h.text.runs[0].font, FontFamily::Helvetica);
    check(&pages, &[]);
}

/// Whatever the room left at a page's foot, a heading is never left there alone: not when
/// the paragraph after it needs two lines to start there (no lone first line), either.
#[test]
fn a_heading_is_never_left_alone_at_the_foot_of_a_page() {
    let page_of = |pages: &[Page], text: &str| {
        pages.iter().position(|pg| {
            pg.shapes
                .iter()
                .any(|s| matches!(s, Shape::Text(t) if t.text.plain_text().starts_with(text)))
        })
    };
    for filler_lines in 30..60 {
        let blocks = vec![
            p("line\n".repeat(filler_lines).trim_end()),
            Block::Heading {
                level: 2,
                inlines: vec![Inline::plain("Article 1.")],
            },
            p("first\nsecond\nthird"),
        ];
        let (pages, _) = layout(&blocks, &PageSetup::default());
        assert_eq!(
            page_of(&pages, "Article 1."),
            page_of(&pages, "first"),
            "{filler_lines} lines of filler"
        );
        check(&pages, &[]);
    }
}

/// A paragraph of nothing but bidi controls (an empty `<bdi>`, a `dir` span around a block)
/// draws nothing and takes no room.
#[test]
fn a_paragraph_of_bidi_controls_alone_is_no_paragraph() {
    let blocks = vec![p("\u{2068}\u{2069}"), p("text")];
    let (pages, _) = layout(&blocks, &PageSetup::default());
    let shapes = &pages[0].shapes;
    assert_eq!(shapes.len(), 1, "{shapes:?}");
    let (alone, _) = layout(&[p("text")], &PageSetup::default());
    assert_eq!(shapes[0].frame(), alone[0].shapes[0].frame());
}

#[test]
fn nested_lists_indent_and_markers_sit_left() {
    let blocks = vec![Block::List {
        ordered: true,
        start: 3,
        tight: true,
        items: vec![
            vec![
                p("three"),
                Block::List {
                    ordered: false,
                    start: 1,
                    tight: true,
                    items: vec![vec![p("inner")]],
                },
            ],
            vec![p("four")],
        ],
    }];
    let (pages, _) = layout(&blocks, &PageSetup::default());
    let t = texts(&pages);
    let find = |s: &str| *t.iter().find(|b| b.text.plain_text() == s).unwrap();
    let (three, four, inner) = (find("three"), find("four"), find("inner"));
    let (m3, m4, bullet) = (find("3."), find("4."), find("\u{2013}")); // level 2: en dash
    assert_eq!(three.frame.x, four.frame.x);
    assert!(inner.frame.x > three.frame.x);
    assert!(m3.frame.right() <= three.frame.x);
    assert_eq!(m3.frame.y, three.frame.y);
    assert_eq!(m4.frame.y, four.frame.y);
    assert!(bullet.frame.x >= three.frame.x && bullet.frame.right() <= inner.frame.x);
    assert_eq!(bullet.frame.y, inner.frame.y);
    assert!(inner.frame.y > three.frame.y && four.frame.y > inner.frame.y);
    check(&pages, &[]);
}

#[test]
fn images_scale_to_the_column() {
    let blocks = vec![Block::Image {
        source: ImageSource::Asset("big.png".into()),
        width: 2000,
        height: 1000,
        alt: "Big".into(),
        link: None,
        align: Align::Left,
    }];
    let (pages, warnings) = layout(&blocks, &PageSetup::default());
    assert!(warnings.is_empty());
    let Shape::Image(img) = &pages[0].shapes[0] else {
        panic!("{:?}", pages[0].shapes)
    };
    let width = 595.28 - 2.0 * 56.7;
    assert!((img.frame.w - width).abs() < 1e-6);
    assert!((img.frame.h - width / 2.0).abs() < 1e-6);
    assert_eq!(img.alt.as_deref(), Some("Big"));
    check(&pages, &["big.png"]);

    let small = vec![Block::Image {
        source: ImageSource::Asset("s".into()),
        width: 40,
        height: 20,
        alt: String::new(),
        link: None,
        align: Align::Left,
    }];
    let (pages, _) = layout(&small, &PageSetup::default());
    assert_eq!(
        pages[0].shapes[0].frame().map(|f| (f.w, f.h)),
        Some((30.0, 15.0))
    );

    let broken = vec![Block::Image {
        source: ImageSource::Asset("z".into()),
        width: 0,
        height: 5,
        alt: "alt".into(),
        link: None,
        align: Align::Left,
    }];
    let (pages, warnings) = layout(&broken, &PageSetup::default());
    assert_eq!(warnings.len(), 1);
    assert_eq!(all_text(&pages), "alt");
}

/// A picture stands where the block it is in aligns its text (HTML's `<p align=center>`
/// round a README's logo), across the column.
#[test]
fn images_stand_left_centred_or_right() {
    let setup = PageSetup::default();
    let column = setup.width - setup.margin_left - setup.margin_right;
    let x_of = |align: Align| {
        let blocks = vec![Block::Image {
            source: ImageSource::Asset("logo.png".into()),
            width: 200,
            height: 100,
            alt: String::new(),
            link: None,
            align,
        }];
        let (pages, _) = layout(&blocks, &setup);
        pages[0].shapes[0].frame().map(|f| (f.x, f.w)).unwrap()
    };
    let (left, w) = x_of(Align::Left);
    assert_eq!((left, w), (setup.margin_left, 150.0));
    assert!((x_of(Align::Center).0 - (setup.margin_left + (column - w) / 2.0)).abs() < 1e-6);
    assert!((x_of(Align::Right).0 - (setup.margin_left + column - w)).abs() < 1e-6);
    assert_eq!(x_of(Align::Justify).0, left);
}

/// An SVG picture is a drawing: its shapes fitted into the picture's box (aspect kept,
/// centred) as one group, its members' ids under the group's, twice on a page without a
/// clash.
#[test]
fn drawings_are_fitted_into_their_box_as_a_group() {
    let square = Shape::Node(crate::model::Node {
        shadow: false,
        id: "sq".into(),
        frame: Rect::new(0.0, 0.0, 100.0, 50.0),
        geometry: crate::model::Geometry::Rect,
        fill: Some(Color::rgb(255, 0, 0)),
        stroke: None,
        text: None,
        classes: Vec::new(),
    });
    let drawing = Block::Image {
        source: ImageSource::Drawing(Drawing {
            name: "logo.svg".into(),
            width: 100.0,
            height: 50.0,
            shapes: vec![square],
        }),
        // A box twice as tall as the drawing's aspect: the drawing is centred in it.
        width: 200,
        height: 200,
        alt: String::new(),
        link: None,
        align: Align::Left,
    };
    let (pages, warnings) = layout(&[drawing.clone(), drawing], &PageSetup::default());
    assert!(warnings.is_empty(), "{warnings:?}");
    let groups: Vec<&crate::model::Group> = pages[0]
        .shapes
        .iter()
        .filter_map(|s| match s {
            Shape::Group(g) => Some(g),
            _ => None,
        })
        .collect();
    assert_eq!(groups.len(), 2);
    let g = groups[0];
    assert_eq!((g.frame.w, g.frame.h), (150.0, 150.0));
    let Shape::Node(n) = &g.children[0] else {
        panic!("{:?}", g.children)
    };
    assert_eq!(n.id, format!("{}.sq", g.id));
    assert!((n.frame.w - 150.0).abs() < 1e-9 && (n.frame.h - 75.0).abs() < 1e-9);
    assert!((n.frame.x - g.frame.x).abs() < 1e-9);
    assert!((n.frame.y - (g.frame.y + 37.5)).abs() < 1e-9);
    assert_ne!(groups[0].children[0].id(), groups[1].children[0].id());
    check(&pages, &[]);
}

#[test]
fn code_quote_rule_and_links() {
    let blocks = vec![
        Block::Heading {
            level: 2,
            inlines: vec![Inline::plain("Set up")],
        },
        Block::Code {
            text: "fn main() {\n\tprintln!();\n}\n".into(),
        },
        Block::Quote(vec![p("quoted")]),
        Block::Rule,
        Block::Paragraph(vec![
            Inline::plain("see "),
            Inline {
                link: Some("https://example.com".into()),
                ..Inline::plain("here")
            },
            Inline {
                link: Some("#set-up".into()),
                ..Inline::plain(" and there")
            },
        ]),
    ];
    let (pages, _) = layout(&blocks, &PageSetup::default());
    let shapes = &pages[0].shapes;
    let code_at = shapes
        .iter()
        .position(|s| matches!(s, Shape::Text(t) if t.text.runs[0].font == FontFamily::Courier))
        .unwrap();
    let Shape::Node(bg) = &shapes[code_at - 1] else {
        panic!("no background before the code")
    };
    let Shape::Text(code) = &shapes[code_at] else {
        unreachable!()
    };
    assert!(bg.frame.contains(&code.frame));
    assert_eq!(code.text.plain_text(), "fn main() {\n    println!();\n}");
    assert_eq!(code.text.runs[0].size, 9.5);
    let quoted = texts(&pages)
        .into_iter()
        .find(|t| t.text.plain_text() == "quoted")
        .unwrap();
    let bar = shapes.iter().find_map(|s| match s {
        Shape::Node(n) if n.frame.w == 3.0 => Some(n),
        _ => None,
    });
    let bar = bar.expect("quote bar");
    assert!(bar.frame.x < quoted.frame.x);
    assert!(bar.frame.y <= quoted.frame.y && bar.frame.bottom() >= quoted.frame.bottom());
    assert!(shapes.iter().any(|s| matches!(s, Shape::Path(_))));
    let para = texts(&pages).into_iter().last().unwrap();
    let link = &para.text.runs[1];
    assert_eq!(link.link.as_deref(), Some("https://example.com"));
    assert!(link.underline && link.color.is_some());
    assert_eq!(para.text.runs[2].link.as_deref(), Some("#page=1"));
    check(&pages, &[]);
}

#[test]
fn page_breaks_and_unique_ids() {
    let blocks = vec![
        p("one"),
        Block::PageBreak,
        Block::PageBreak,
        p("two"),
        Block::PageBreak,
    ];
    let (pages, _) = layout(&blocks, &PageSetup::default());
    assert_eq!(pages.len(), 2);
    let many: Vec<Block> = (0..500)
        .map(|i| {
            if i % 7 == 0 {
                Block::Rule
            } else {
                p(&format!("para {i}"))
            }
        })
        .collect();
    let (pages, _) = layout(&many, &PageSetup::default());
    check(&pages, &[]); // validation refuses duplicate ids
}

#[test]
fn deep_nesting_keeps_a_usable_width() {
    let mut block = p("deep");
    for _ in 0..(MAX_DEPTH + 20) {
        block = Block::Quote(vec![block]);
    }
    let (pages, _) = layout(&[block], &PageSetup::default());
    let deep = texts(&pages)
        .into_iter()
        .find(|t| t.text.plain_text() == "deep")
        .unwrap();
    assert!(deep.frame.w >= 72.0);
    check(&pages, &[]);
}

#[test]
fn bad_setup_falls_back_to_defaults() {
    let setup = PageSetup {
        width: f64::NAN,
        margin_left: 1e9,
        body_size: -1.0,
        ..PageSetup::default()
    };
    let (pages, _) = layout(&[p("x")], &setup);
    assert_eq!(pages[0].width, 595.28);
    assert_eq!(texts(&pages)[0].text.runs[0].size, 11.0);
}

#[test]
fn slugs_follow_github() {
    assert_eq!(slug("Hello, World!"), "hello-world");
    assert_eq!(slug(" Set up `quire` "), "set-up-quire");
}

#[test]
fn inline_family_language_and_direction_reach_the_model() {
    let rtl = |text: &str| Inline {
        dir: Some(crate::model::Direction::Rtl),
        ..Inline::plain(text)
    };
    let blocks = [
        Block::Paragraph(vec![
            rtl("مرحبا "),
            Inline {
                font: Some(FontFamily::Courier),
                lang: Some("ja".into()),
                ..rtl("骨")
            },
        ]),
        Block::Heading {
            level: 2,
            inlines: vec![Inline {
                font: Some(FontFamily::Times),
                ..Inline::plain("Serif heading")
            }],
        },
        p("plain"),
    ];
    let (pages, _) = layout(&blocks, &PageSetup::default());
    check(&pages, &[]);
    let boxes = texts(&pages);
    let para = &boxes[0].text;
    assert_eq!(para.direction, Some(crate::model::Direction::Rtl));
    assert_eq!(
        (para.runs[0].font, para.runs[0].lang.as_deref()),
        (FontFamily::Times, None)
    );
    assert_eq!(
        (para.runs[1].font, para.runs[1].lang.as_deref()),
        (FontFamily::Courier, Some("ja"))
    );
    let heading = &boxes[1].text;
    assert_eq!(
        (heading.runs[0].font, heading.runs[0].bold),
        (FontFamily::Times, true)
    );
    assert_eq!(heading.direction, None);
    assert_eq!(boxes[2].text.direction, None);
}

/// A document's title (level 0) is centred and takes no anchor: a body heading of the same
/// text, here on page 2, keeps `#setup`, which a link earlier in the text follows.
#[test]
fn the_title_is_centred_and_leaves_its_anchor_to_the_heading() {
    let title = Block::Heading {
        level: 0,
        inlines: vec![Inline::plain("Setup")],
    };
    let to_setup = Block::Paragraph(vec![Inline {
        link: Some("#setup".into()),
        ..Inline::plain("see the setup")
    }]);
    let heading = Block::Heading {
        level: 1,
        inlines: vec![Inline::plain("Setup")],
    };
    let blocks = vec![title, to_setup, Block::PageBreak, heading];
    let (pages, _) = layout(&blocks, &PageSetup::default());
    let all = texts(&pages);
    assert_eq!(all[0].text.align, Align::Center);
    let link = all
        .iter()
        .flat_map(|t| &t.text.runs)
        .find_map(|r| r.link.as_deref());
    assert_eq!(link, Some("#page=2"));
    check(&pages, &[]);
}

/// A list or quote whose text reads right to left (by its first strong letter, or `dir`)
/// is mirrored as browsers mirror it: the item's text indented from the right, the marker to
/// its right (`1.` drawn as `.1`), the quote's bar on the right edge.
#[test]
fn right_to_left_lists_and_quotes_stand_on_the_right() {
    let item = |text: &str| vec![p(text)];
    let blocks = vec![
        Block::List {
            ordered: true,
            start: 1,
            items: vec![item("السلام عليكم"), item("شكرا")],
            tight: true,
        },
        Block::Quote(vec![p("שלום עולם")]),
        Block::List {
            ordered: false,
            start: 1,
            items: vec![item("left to right")],
            tight: true,
        },
    ];
    let setup = PageSetup::default();
    let (pages, _) = layout(&blocks, &setup);
    let all = texts(&pages);
    let find = |s: &str| {
        *all.iter()
            .find(|t| t.text.plain_text() == s)
            .unwrap_or_else(|| panic!("no box {s:?}"))
    };
    let first = find("السلام عليكم");
    let marker = find(".1");
    assert!(
        marker.frame.x >= first.frame.right() - 0.5,
        "marker {:?} right of the item {:?}",
        marker.frame,
        first.frame
    );
    assert!(
        first.frame.x <= setup.margin_left + 0.5,
        "{:?}",
        first.frame
    );
    let quoted = find("שלום עולם");
    let bar = pages[0]
        .shapes
        .iter()
        .find_map(|s| match s {
            Shape::Node(n) if n.frame.w == 3.0 => Some(n),
            _ => None,
        })
        .expect("quote bar");
    assert!(
        bar.frame.x >= quoted.frame.right(),
        "{:?} {:?}",
        bar.frame,
        quoted.frame
    );
    // A left-to-right list keeps its marker on the left.
    let latin = find("left to right");
    let bullet = all
        .iter()
        .find(|t| t.frame.y == latin.frame.y && t.frame.x < latin.frame.x)
        .expect("a bullet left of the Latin item");
    assert!(bullet.frame.right() <= latin.frame.x);
    check(&pages, &[]);
}

#[test]
fn the_first_heading_of_the_highest_level_names_a_document() {
    let heading = |level, text: &str| Block::Heading {
        level,
        inlines: vec![Inline::plain(text)],
    };
    let blocks = vec![
        heading(0, "The title block"),
        p("Intro"),
        heading(2, "Background"),
        heading(1, "  Quarterly\nreport "),
        heading(1, "Later"),
    ];
    assert_eq!(first_heading(&blocks).as_deref(), Some("Quarterly report"));
    assert_eq!(
        first_heading(&[p("x"), heading(3, "Only")]).as_deref(),
        Some("Only")
    );
    assert_eq!(first_heading(&[p("x"), heading(1, " ")]), None);
}
