//! The SVG exporter end to end: text placed as the SDK lays it out, fonts, links, shapes,
//! pictures, connectors, page selection and rotation, and hostile models. Every output is
//! checked by two XML parsers and, where installed, rendered by librsvg.

mod common;

use common::*;
use quire_sdk::geometry;
use quire_sdk::layout::layout_text;
use quire_sdk::*;

fn export(req: &ExportRequest) -> String {
    let out = quire_svg::export_svg(req).expect("export");
    assert_eq!(out.media_type, "image/svg+xml");
    String::from_utf8(out.bytes).expect("UTF-8")
}

fn page_with(shapes: Vec<Shape>) -> Document {
    let mut doc = Document::new(Kind::Paged);
    let mut page = Page::new(612.0, 792.0);
    page.shapes = shapes;
    doc.pages.push(page);
    doc
}

#[test]
fn text_breaks_exactly_where_the_sdk_layout_breaks() {
    let runs = vec![
        run(
            "The quick brown fox jumps over the lazy dog, again and again, ",
            FontFamily::Helvetica,
            12.0,
        ),
        Run {
            bold: true,
            ..run(
                "until the well-known end of this paragraph.",
                FontFamily::Times,
                14.0,
            )
        },
        run("\n  indented code()", FontFamily::Courier, 10.0),
    ];
    let frame = Rect::new(50.0, 60.0, 180.0, 200.0);
    let doc = page_with(vec![text_box("t", frame, runs)]);
    let svg = export(&request(doc.clone(), vec![]));
    let xml = check_svg(&svg, "layout");

    let Shape::Text(tb) = &doc.pages[0].shapes[0] else {
        unreachable!()
    };
    let lines = layout_text(&tb.text, frame.w);
    let expected: Vec<(String, f64, f64)> = lines
        .iter()
        .flat_map(|l| {
            l.fragments
                .iter()
                .map(move |f| (f.text.clone(), frame.x + f.x, frame.y + l.baseline))
        })
        .collect();
    let found = texts(&xml);
    assert!(lines.len() >= 4, "the text wraps: {} lines", lines.len());
    assert_eq!(found.len(), expected.len());
    for ((node, text), (want, x, y)) in found.iter().zip(&expected) {
        assert_eq!(text, want);
        assert!((attr_f64(*node, "x") - x).abs() < 0.001, "{text}: x");
        assert!((attr_f64(*node, "y") - y).abs() < 0.001, "{text}: y");
    }
    // Leading spaces of a hard line are drawn: the root preserves spaces.
    assert!(found.iter().any(|(_, t)| t.starts_with("  indented")));
    assert_eq!(
        xml.root_element()
            .attribute(("http://www.w3.org/XML/1998/namespace", "space")),
        Some("preserve")
    );
}

/// A text's padding moves it inside its box, as draw.io's `spacingLeft` moves a title past
/// an icon.
#[test]
fn a_texts_padding_moves_it_inside_its_box() {
    let frame = Rect::new(50.0, 60.0, 300.0, 40.0);
    let mut shape = text_box("t", frame, vec![run("Zone 2", FontFamily::Helvetica, 12.0)]);
    if let Shape::Text(t) = &mut shape {
        t.text.padding = Some(quire_sdk::Insets {
            top: 0.0,
            right: 0.0,
            bottom: 0.0,
            left: 30.0,
        });
    }
    let svg = export(&request(page_with(vec![shape]), vec![]));
    let xml = check_svg(&svg, "padding");
    let found = texts(&xml);
    let (node, text) = found.first().expect("the text is drawn");
    assert_eq!(text, "Zone 2");
    assert!((attr_f64(*node, "x") - 80.0).abs() < 0.001, "{svg}");
}

#[test]
fn fonts_styles_colours_and_decorations_are_attributes() {
    let runs = vec![
        run("Sans ", FontFamily::Helvetica, 11.0),
        Run {
            bold: true,
            italic: true,
            color: Some(Color::rgb(0xcc, 0x11, 0x22)),
            ..run("Serif ", FontFamily::Times, 13.0)
        },
        Run {
            underline: true,
            strike: true,
            color: Some(Color {
                r: 0,
                g: 0,
                b: 255,
                a: 128,
            }),
            ..run("Mono", FontFamily::Courier, 9.5)
        },
    ];
    let svg = export(&request(
        page_with(vec![text_box(
            "t",
            Rect::new(10.0, 10.0, 400.0, 40.0),
            runs,
        )]),
        vec![],
    ));
    let xml = check_svg(&svg, "fonts");
    let found = texts(&xml);
    let by_text = |s: &str| found.iter().find(|(_, t)| t == s).unwrap().0;

    let sans = by_text("Sans ");
    assert_eq!(
        sans.attribute("font-family"),
        Some("Helvetica, Arial, 'Liberation Sans', sans-serif")
    );
    assert_eq!(sans.attribute("font-size"), Some("11"));
    assert_eq!(sans.attribute("font-weight"), None);
    assert_eq!(sans.attribute("fill"), Some("#000000"));

    let serif = by_text("Serif ");
    assert_eq!(
        serif.attribute("font-family"),
        Some("'Times New Roman', Times, 'Liberation Serif', serif")
    );
    assert_eq!(serif.attribute("font-weight"), Some("bold"));
    assert_eq!(serif.attribute("font-style"), Some("italic"));
    assert_eq!(serif.attribute("fill"), Some("#cc1122"));

    let mono = by_text("Mono");
    assert_eq!(
        mono.attribute("font-family"),
        Some("'Courier New', Courier, 'Liberation Mono', monospace")
    );
    assert_eq!(mono.attribute("font-size"), Some("9.5"));
    assert_eq!(
        mono.attribute("text-decoration"),
        Some("underline line-through")
    );
    assert_eq!(mono.attribute("fill"), Some("#0000ff"));
    assert_eq!(mono.attribute("fill-opacity"), Some("0.502"));
}

#[test]
fn unicode_is_kept_and_markup_in_text_is_escaped() {
    let nasty = "Ünïcödé € 漢字 😀 <b>&amp;</b> \"q\" 'a' \u{0}\u{1b}";
    let svg = export(&request(
        page_with(vec![text_box(
            "x\"><script>",
            Rect::new(10.0, 10.0, 500.0, 40.0),
            vec![run(nasty, FontFamily::Helvetica, 11.0)],
        )]),
        vec![],
    ));
    let xml = check_svg(&svg, "unicode");
    let all: String = texts(&xml).into_iter().map(|(_, t)| t).collect();
    assert_eq!(all, "Ünïcödé € 漢字 😀 <b>&amp;</b> \"q\" 'a' ");
    assert!(!svg.contains("<script"));
    assert!(xml
        .descendants()
        .any(|n| n.attribute("id") == Some("x\"><script>")));
}

#[test]
fn links_become_anchors_and_dangerous_ones_are_dropped() {
    let link = |text: &str, target: &str| Run {
        link: Some(target.into()),
        ..run(text, FontFamily::Helvetica, 11.0)
    };
    let runs = vec![
        link("safe ", "https://example.com/?a=1&b=\"2\""),
        link("evil ", "javascript:alert(1)"),
        link("evil2 ", "DATA:text/html;base64,PHNjcmlwdD4="),
        link("inside", "#page=2"),
    ];
    let svg = export(&request(
        page_with(vec![text_box(
            "t",
            Rect::new(10.0, 10.0, 500.0, 40.0),
            runs,
        )]),
        vec![],
    ));
    let xml = check_svg(&svg, "links");
    let anchors: Vec<_> = xml.descendants().filter(|n| n.has_tag_name("a")).collect();
    assert_eq!(anchors.len(), 1);
    assert_eq!(
        anchors[0].attribute("href"),
        Some("https://example.com/?a=1&b=\"2\"")
    );
    assert_eq!(texts(&xml).len(), 4, "the unlinked words are still drawn");
    assert!(!svg.to_ascii_lowercase().contains("javascript"));
}

fn sample_diagram() -> Document {
    let mut doc = Document::new(Kind::Diagram);
    doc.title = Some("Flow & <friends>".into());
    let mut page = Page::new(500.0, 300.0);
    page.background = Some(Color::rgb(0xfa, 0xfa, 0xf0));
    page.shapes.push(node(
        "a",
        Rect::new(20.0, 40.0, 120.0, 60.0),
        Geometry::Rounded,
        "Start",
    ));
    page.shapes.push(node(
        "b",
        Rect::new(300.0, 30.0, 120.0, 80.0),
        Geometry::Diamond,
        "Decide?",
    ));
    let mut c = connector("c", end("a", ArrowHead::None), end("b", ArrowHead::Arrow));
    c.label = Some(Text::plain("yes", 9.0));
    c.stroke = Some(Stroke {
        color: Color::rgb(0x33, 0x33, 0x33),
        width: 1.5,
        dash: Dash::Dashed,
    });
    page.shapes.push(Shape::Connector(c));
    page.shapes.push(Shape::Group(Group {
        shadow: false,
        classes: Vec::new(),
        id: "g".into(),
        frame: Rect::new(20.0, 150.0, 300.0, 130.0),
        label: Some(Text::plain("Lane one", 10.0)),
        fill: None,
        stroke: Some(Stroke::solid(Color::rgb(0x88, 0x88, 0x88), 1.0)),
        direction: None,
        children: vec![node(
            "inner",
            Rect::new(60.0, 190.0, 90.0, 60.0),
            Geometry::Cylinder,
            "DB",
        )],
    }));
    page.shapes.push(Shape::Path(PathShape {
        shadow: false,
        id: "p".into(),
        segments: vec![
            Segment::MoveTo { x: 350.0, y: 200.0 },
            Segment::CubicTo {
                x1: 380.0,
                y1: 150.0,
                x2: 420.0,
                y2: 250.0,
                x: 460.0,
                y: 200.0,
            },
        ],
        fill: None,
        stroke: Some(Stroke::solid(Color::rgb(0xaa, 0, 0), 2.0)),
        even_odd: false,
    }));
    doc.pages.push(page);
    doc
}

#[test]
fn diagram_shapes_follow_the_sdk_geometry() {
    let doc = sample_diagram();
    let svg = export(&request(doc.clone(), vec![]));
    let xml = check_svg(&svg, "diagram");
    let root = xml.root_element();
    assert_eq!(root.attribute("width"), Some("500pt"));
    assert_eq!(root.attribute("height"), Some("300pt"));
    assert_eq!(root.attribute("viewBox"), Some("0 0 500 300"));
    let title = xml.descendants().find(|n| n.has_tag_name("title")).unwrap();
    assert_eq!(title.text(), Some("Flow & <friends>"));

    // The connector ends on the diamond's edge, where the SDK routes it.
    let page = &doc.pages[0];
    let anchors: std::collections::HashMap<_, _> = ShapeWalk::new(&page.shapes)
        .filter_map(|s| geometry::anchor_of(s).map(|a| (s.id(), a)))
        .collect();
    let Shape::Connector(c) = &page.shapes[2] else {
        unreachable!()
    };
    let route = geometry::connector_route(c, |id| anchors.get(id)).unwrap();
    let g = xml
        .descendants()
        .find(|n| n.attribute("id") == Some("c"))
        .unwrap();
    let line = g.children().find(|n| n.has_tag_name("path")).unwrap();
    let d = line.attribute("d").unwrap();
    let start = route[0];
    assert!(
        d.starts_with(&format!("M{} {}", fmt(start.x), fmt(start.y))),
        "{d} starts at {start:?}"
    );
    assert_eq!(line.attribute("stroke-dasharray"), Some("6 4.5"));
    // The head is a filled path, solid, in the line's colour.
    let head = g
        .children()
        .filter(|n| n.has_tag_name("path"))
        .nth(1)
        .unwrap();
    assert_eq!(head.attribute("fill"), Some("#333333"));
    assert_eq!(head.attribute("stroke-dasharray"), None);
    // Its label sits on a white patch, drawn after every shape of the page (over any line
    // that crosses it).
    let label = xml
        .descendants()
        .find(|n| n.attribute("id") == Some("c-label"))
        .expect("the link's label");
    assert!(label
        .children()
        .any(|n| n.has_tag_name("rect") && n.attribute("fill") == Some("#ffffff")));
    let last_shape = xml
        .root_element()
        .children()
        .rfind(|n| n.is_element() && n.attribute("id") != Some("c-label"))
        .map(|n| n.range().end)
        .unwrap();
    assert!(label.range().start >= last_shape, "the label comes last");

    let group = xml
        .descendants()
        .find(|n| n.attribute("id") == Some("g"))
        .unwrap();
    assert_eq!(group.attribute("aria-label"), Some("Lane one"));
    assert!(group
        .descendants()
        .any(|n| n.attribute("id") == Some("inner")));

    // Rendered, the node's fill shows at its centre and the page background around it.
    let (w, h, px) = resvg_render(&svg);
    let scale = w as f64 / 500.0;
    assert_eq!(h, (300.0 * scale).round() as u32);
    let at = |x: f64, y: f64| {
        let i = (((y * scale) as u32 * w + (x * scale) as u32) * 4) as usize;
        [px[i], px[i + 1], px[i + 2]]
    };
    assert_eq!(at(40.0, 50.0), [0xdd, 0xee, 0xff]);
    assert_eq!(at(200.0, 20.0), [0xfa, 0xfa, 0xf0]);
}

fn fmt(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[test]
fn pictures_are_embedded_turned_upright_or_replaced() {
    let png = std::fs::read(format!("{CORPUS}/images/pngsuite-basn6a16-16bit-rgba.png")).unwrap();
    let jpg = std::fs::read(format!("{CORPUS}/images/form-patient-intake-photo.jpg")).unwrap();
    let img = |id: &str, asset: &str, frame: Rect| {
        Shape::Image(Image {
            id: id.into(),
            frame,
            asset: asset.into(),
            alt: Some("a picture".into()),
            link: Some("https://example.com".into()),
        })
    };
    let doc = page_with(vec![
        img("i1", "png", Rect::new(10.0, 10.0, 64.0, 64.0)),
        img("i2", "jpg", Rect::new(100.0, 10.0, 150.0, 200.0)),
        img("i3", "missing", Rect::new(300.0, 10.0, 50.0, 50.0)),
        img("i4", "png", Rect::new(400.0, 10.0, 32.0, 32.0)),
    ]);
    let assets = vec![
        Asset {
            name: "png".into(),
            media_type: "image/jpeg".into(), // wrong on purpose: the bytes decide
            bytes: png,
        },
        Asset {
            name: "jpg".into(),
            media_type: "image/jpeg".into(),
            bytes: jpg,
        },
    ];
    let out = quire_svg::export_svg(&request(doc, assets)).unwrap();
    let svg = String::from_utf8(out.bytes).unwrap();
    let xml = check_svg(&svg, "pictures");
    let image = |id: &str| {
        xml.descendants()
            .find(|n| n.has_tag_name("image") && n.attribute("id") == Some(id))
    };
    let i1 = image("i1").unwrap();
    assert!(i1
        .attribute("href")
        .unwrap()
        .starts_with("data:image/png;base64,iVBORw0KGgo"));
    assert_eq!(i1.parent().unwrap().tag_name().name(), "a");
    // The EXIF-rotated photo is drawn stored-size (200 wide, 150 high) and turned.
    let i2 = image("i2").unwrap();
    assert_eq!(i2.attribute("width"), Some("200"));
    assert_eq!(i2.attribute("height"), Some("150"));
    assert_eq!(i2.attribute("transform"), Some("matrix(0 1 -1 0 250 10)"));
    // One missing picture: a grey box, one warning.
    assert!(image("i3").is_none());
    assert_eq!(out.warnings.len(), 1, "{:?}", out.warnings);
    assert!(out.warnings[0].contains("`missing`"));
    // The same asset twice is one encoding written twice.
    assert_eq!(image("i4").unwrap().attribute("href"), i1.attribute("href"));
}

#[test]
fn pages_are_chosen_by_number_and_turned_by_rotation() {
    let mut doc = sample_diagram();
    let mut second = Page::new(200.0, 100.0);
    second.rotate = 90;
    second.shapes.push(text_box(
        "only",
        Rect::new(10.0, 10.0, 100.0, 20.0),
        vec![run("second page", FontFamily::Helvetica, 10.0)],
    ));
    doc.pages.push(second);
    let mut req = request(doc, vec![]);
    req.page = Some(2);
    let svg = export(&req);
    let xml = check_svg(&svg, "rotated");
    let root = xml.root_element();
    assert_eq!(root.attribute("width"), Some("100pt"));
    assert_eq!(root.attribute("height"), Some("200pt"));
    assert_eq!(texts(&xml).len(), 1);
    let turned = xml
        .descendants()
        .find(|n| n.attribute("transform").is_some())
        .unwrap();
    assert_eq!(
        turned.attribute("transform"),
        Some("translate(100 0) rotate(90)")
    );

    for bad in [0, 3, 99] {
        req.page = Some(bad);
        let e = quire_svg::export_svg(&req).unwrap_err();
        assert!(
            matches!(&e, ConvertError::InvalidRequest(m) if m.contains("has 2 pages")),
            "{e:?}"
        );
    }
    req.page = None;
    assert_eq!(texts(&check_svg(&export(&req), "first")).len(), 5);

    req.document.pages.clear();
    assert!(matches!(
        quire_svg::export_svg(&req),
        Err(ConvertError::InvalidRequest(_))
    ));
    req.media_type = "image/png".into();
    assert!(matches!(
        quire_svg::export_svg(&req),
        Err(ConvertError::Unsupported(_))
    ));
}

#[test]
fn hostile_numbers_and_strings_still_give_well_formed_svg() {
    let mut doc = page_with(vec![
        text_box(
            "t\u{0}",
            Rect::new(f64::NAN, f64::INFINITY, -5.0, 1e308),
            vec![Run {
                link: Some("java\nscript:alert(1)".into()),
                ..run("a\u{1}b]]><!--", FontFamily::Symbol, 1e9)
            }],
        ),
        Shape::Path(PathShape {
            shadow: false,
            id: "p".into(),
            segments: vec![
                Segment::Close,
                Segment::CubicTo {
                    x1: f64::NAN,
                    y1: 1.0,
                    x2: 2.0,
                    y2: 3.0,
                    x: 4.0,
                    y: 5.0,
                },
            ],
            fill: Some(Color::BLACK),
            stroke: Some(Stroke::solid(Color::BLACK, f64::NAN)),
            even_odd: true,
        }),
        Shape::Connector(Connector {
            waypoints: vec![Point { x: 1.0, y: 1.0 }; 3],
            ..connector(
                "c",
                end("nowhere", ArrowHead::Diamond),
                end("p", ArrowHead::Open),
            )
        }),
    ]);
    doc.pages[0].width = f64::NAN;
    doc.pages[0].height = -3.0;
    let svg = export(&request(doc, vec![]));
    let xml = check_svg(&svg, "hostile");
    assert_eq!(xml.root_element().attribute("width"), Some("612pt"));
    assert_eq!(xml.root_element().attribute("height"), Some("1pt"));
    assert!(!svg.contains("NaN") && !svg.contains("inf"));
}
