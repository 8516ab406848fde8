//! The SVG importer on the corpus and on small SVGs written for one rule each: figures as
//! nodes, transforms flattened, text kept as text, pictures as assets, groups, hostile XML
//! refused, nothing read from outside the file, and SVG -> model -> SVG round trips.

mod common;

use std::time::{Duration, Instant};

use common::*;
use quire_sdk::*;

fn import(svg: &str) -> Result<Imported, ConvertError> {
    quire_svg::import_svg(ImportRequest {
        bytes: svg.as_bytes().to_vec(),
        media_type: "image/svg+xml".into(),
        ..ImportRequest::default()
    })
}

/// Checks the model the way the host will, then exports it back to SVG and checks that.
fn checked(imported: &Imported, name: &str) -> String {
    let names: Vec<&str> = imported.assets.iter().map(|a| a.name.as_str()).collect();
    validate::check(&imported.document, names)
        .unwrap_or_else(|e| panic!("{name}: the imported model is invalid: {e}"));
    let req = request(imported.document.clone(), imported.assets.clone());
    let out = quire_svg::export_svg(&req).unwrap_or_else(|e| panic!("{name}: export: {e}"));
    let svg = String::from_utf8(out.bytes).unwrap();
    check_svg(&svg, &format!("roundtrip-{name}"));
    svg
}

fn text_shapes(doc: &Document) -> Vec<&TextBox> {
    doc.shapes()
        .filter_map(|s| match s {
            Shape::Text(t) => Some(t),
            _ => None,
        })
        .collect()
}

/// `<text>` elements with visible content, counted by walking the XML ourselves (roxmltree
/// with no SVG knowledge; `switch` fallbacks counted like any other element).
fn xml_text_count(svg: &str) -> usize {
    let opt = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    let doc = roxmltree::Document::parse_with_options(svg, opt).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter(|n| {
            n.descendants()
                .filter_map(|d| d.text())
                .any(|t| !t.trim().is_empty())
        })
        .count()
}

#[test]
fn every_corpus_svg_imports_or_is_refused_cleanly() {
    let mut names: Vec<_> = std::fs::read_dir(format!("{CORPUS}/svg"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "svg"))
        .collect();
    names.sort();
    assert!(names.len() >= 13);
    for path in names {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let bytes = std::fs::read(&path).unwrap();
        let started = Instant::now();
        let result = quire_svg::import_svg(ImportRequest {
            bytes: bytes.clone(),
            media_type: "image/svg+xml".into(),
            ..ImportRequest::default()
        });
        let took = started.elapsed();
        assert!(took < Duration::from_secs(10), "{name} took {took:?}");
        match result {
            Ok(imported) => {
                checked(&imported, &name);
                let page = &imported.document.pages[0];
                eprintln!(
                    "{name}: {} x {} pt, {} shapes, {} texts, {} assets, warnings {:?} ({took:?})",
                    page.width,
                    page.height,
                    imported.document.shapes().count(),
                    text_shapes(&imported.document).len(),
                    imported.assets.len(),
                    imported.warnings
                );
            }
            Err(e) => eprintln!("{name}: refused: {e:?}"),
        }
    }
}

fn corpus_svg(name: &str) -> String {
    std::fs::read_to_string(format!("{CORPUS}/svg/{name}")).unwrap()
}

#[test]
fn text_elements_stay_text_one_for_one() {
    for name in ["drawio-flowchart.drawio.svg", "drawio-infographic.svg"] {
        let svg = corpus_svg(name);
        let imported = import(&svg).unwrap();
        let texts = text_shapes(&imported.document);
        assert_eq!(texts.len(), xml_text_count(&svg), "{name}");
        assert!(texts.len() >= 10, "{name}");
    }
    // The flowchart keeps its labels as searchable text, in the SVG's font and size.
    let imported = import(&corpus_svg("drawio-flowchart.drawio.svg")).unwrap();
    let labels: Vec<String> = text_shapes(&imported.document)
        .iter()
        .map(|t| t.text.plain_text())
        .collect();
    for want in [
        "Lamp doesn't work",
        "Plug in lamp",
        "Yes",
        "No",
        "Repair Lamp",
    ] {
        assert!(labels.iter().any(|l| l == want), "{want} in {labels:?}");
    }
    let lamp = text_shapes(&imported.document)
        .into_iter()
        .find(|t| t.text.plain_text() == "Lamp doesn't work")
        .unwrap();
    let run = &lamp.text.runs[0];
    assert_eq!(run.font, FontFamily::Helvetica);
    assert!((run.size - 9.0).abs() < 1e-6, "12px is 9pt: {}", run.size);
    assert_eq!(lamp.text.align, Align::Center);
}

#[test]
fn figures_become_nodes_with_transforms_applied() {
    let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200" viewBox="0 0 200 100">
      <style>.blue { fill: #0000ff; stroke: #ff0000; stroke-width: 2 }</style>
      <rect id="r" class="blue" x="10" y="10" width="40" height="20"/>
      <g transform="translate(100 0)"><circle id="c" cx="20" cy="50" r="10" fill="#00ff00"/></g>
      <rect id="turned" x="10" y="60" width="30" height="10" fill="#000" transform="rotate(30 25 65)"/>
      <rect id="round" x="60" y="60" width="40" height="20" rx="4" fill="#ccc"/>
      <polyline id="pl" points="0,0 10,10 20,0" fill="none" stroke="black"/>
      <path id="q" d="M0 90 Q10 80 20 90" fill="none" stroke="black" stroke-dasharray="8 4"/>
    </svg>"##;
    let imported = import(svg).unwrap();
    checked(&imported, "figures");
    let page = &imported.document.pages[0];
    // viewBox 200 wide shown 400 px wide: 2 px a unit, 0.75 pt a px.
    assert_eq!((page.width, page.height), (300.0, 150.0));
    let by_id = |id: &str| page.shapes.iter().find(|s| s.id() == id).unwrap();
    let Shape::Node(r) = by_id("r") else {
        panic!("rect is a node")
    };
    assert_eq!(r.geometry, Geometry::Rect);
    assert_eq!(r.frame, Rect::new(15.0, 15.0, 60.0, 30.0));
    assert_eq!(r.fill, Some(Color::rgb(0, 0, 255)));
    let stroke = r.stroke.unwrap();
    assert_eq!(stroke.color, Color::rgb(255, 0, 0));
    assert!((stroke.width - 3.0).abs() < 1e-6);
    let Shape::Node(c) = by_id("c") else {
        panic!("circle is a node")
    };
    assert_eq!(c.geometry, Geometry::Ellipse);
    let f = c.frame;
    assert!(
        (f.x - 165.0).abs() < 0.01 && (f.y - 60.0).abs() < 0.01,
        "{f:?}"
    );
    assert!(
        (f.w - 30.0).abs() < 0.01 && (f.h - 30.0).abs() < 0.01,
        "{f:?}"
    );
    assert!(matches!(by_id("turned"), Shape::Path(_)));
    let Shape::Node(round) = by_id("round") else {
        panic!("rounded rect is a node")
    };
    assert_eq!(round.geometry, Geometry::Rounded);
    let Shape::Path(pl) = by_id("pl") else {
        panic!("polyline is a path")
    };
    assert_eq!(pl.segments.len(), 3);
    assert_eq!(pl.segments[2], Segment::LineTo { x: 30.0, y: 0.0 });
    let Shape::Path(q) = by_id("q") else {
        panic!("path is a path")
    };
    assert!(matches!(q.segments[1], Segment::CubicTo { .. }));
    assert_eq!(q.stroke.unwrap().dash, Dash::Dashed);
}

/// A pattern fill is drawn as its tile's first colour when that is opaque (a hatching of
/// solid lines), and not at all when it is a translucent texture laid over a table (d2's
/// sketch streaks): an opaque grey there hid the table and its text.
#[test]
fn pattern_fills_take_their_tile_s_colour_or_leave_what_is_under_them_seen() {
    let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100">
      <defs>
        <pattern id="streaks" width="10" height="10" patternUnits="userSpaceOnUse">
          <path d="M0 10L10 0" stroke="none" fill="rgba(0, 0, 0, 0.1)"/></pattern>
        <pattern id="hatch" width="4" height="4" patternUnits="userSpaceOnUse">
          <rect width="2" height="4" fill="#00aa00"/></pattern>
      </defs>
      <text x="10" y="40">users</text>
      <rect id="texture" x="0" y="0" width="100" height="100" fill="url(#streaks)"/>
      <rect id="hatched" x="120" y="10" width="40" height="40" fill="url(#hatch)"/>
    </svg>"##;
    let imported = import(svg).unwrap();
    checked(&imported, "patterns");
    let page = &imported.document.pages[0];
    let fill_of = |id: &str| match page.shapes.iter().find(|s| s.id() == id) {
        Some(Shape::Node(n)) => n.fill,
        other => panic!("{id}: {other:?}"),
    };
    // It paints nothing, so nothing of it is kept.
    assert!(
        page.shapes.iter().all(|s| s.id() != "texture"),
        "{:?}",
        page.shapes
    );
    assert_eq!(fill_of("hatched"), Some(Color::rgb(0, 0xaa, 0)));
    assert_eq!(text_shapes(&imported.document).len(), 1);
}

#[test]
fn text_keeps_size_weight_style_colour_and_anchor() {
    let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200">
      <text id="t" x="100" y="50" font-family="Times New Roman" font-size="20" font-weight="bold"
            font-style="italic" fill="#336699" text-anchor="middle">Centred &amp; bold</text>
      <text x="10" y="100" font-family="monospace" font-size="16">
        <tspan x="10" dy="0">first line</tspan><tspan x="10" dy="20">second line</tspan>
      </text>
      <text x="10" y="150" font-size="16" fill="none"> </text>
    </svg>"##;
    let imported = import(svg).unwrap();
    checked(&imported, "text");
    let texts = text_shapes(&imported.document);
    assert_eq!(
        texts.len(),
        2,
        "one box per <text>; the blank one is dropped"
    );
    let t = texts[0];
    assert_eq!(t.id, "t");
    assert_eq!(t.text.plain_text(), "Centred & bold");
    let run = &t.text.runs[0];
    assert_eq!(
        (run.font, run.bold, run.italic, run.size),
        (FontFamily::Times, true, true, 15.0)
    );
    assert_eq!(run.color, Some(Color::rgb(0x33, 0x66, 0x99)));
    // Centred on x = 100 px = 75 pt, baseline on y = 50 px = 37.5 pt.
    assert!((t.frame.center().x - 75.0).abs() < 0.01, "{:?}", t.frame);
    let lines = layout::layout_text(&t.text, t.frame.w);
    assert_eq!(lines.len(), 1, "no wrapping");
    assert!((t.frame.y + lines[0].baseline - 37.5).abs() < 0.01);

    let para = texts[1];
    assert_eq!(para.text.plain_text(), "first line\nsecond line");
    assert_eq!(para.text.runs[0].font, FontFamily::Courier);
    let lines = layout::layout_text(&para.text, para.frame.w);
    assert_eq!(lines.len(), 2);
    assert!((lines[1].baseline - lines[0].baseline - 15.0).abs() < 0.01);
}

#[test]
fn groups_with_ids_and_embedded_pictures_are_kept() {
    let svg = corpus_svg("resvg-embedded-png.svg");
    let imported = import(&svg).unwrap();
    checked(&imported, "embedded");
    assert_eq!(imported.assets.len(), 1);
    assert!(imported.assets[0].bytes.starts_with(b"\x89PNG"));
    assert!(imported
        .document
        .shapes()
        .any(|s| matches!(s, Shape::Image(i) if i.asset == imported.assets[0].name)));

    let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">
      <g id="lane"><rect x="10" y="10" width="20" height="20" fill="red"/>
      <g><rect x="50" y="50" width="20" height="20" fill="blue"/></g></g>
    </svg>"##;
    let imported = import(svg).unwrap();
    let page = &imported.document.pages[0];
    assert_eq!(page.shapes.len(), 1);
    let Shape::Group(g) = &page.shapes[0] else {
        panic!("a group")
    };
    assert_eq!(g.id, "lane");
    assert_eq!(g.children.len(), 2, "the anonymous group is flattened");
    assert_eq!(g.frame, Rect::new(7.5, 7.5, 45.0, 45.0));
}

#[test]
fn nothing_outside_the_file_is_read() {
    let dir = out_dir();
    let png = std::fs::read(format!("{CORPUS}/images/pngsuite-basn0g01-1bit-gray.png")).unwrap();
    let local = dir.join("local.png");
    std::fs::write(&local, png).unwrap();
    let svg = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100">
          <image href="{0}" width="10" height="10"/>
          <image xlink:href="file://{0}" width="10" height="10"/>
          <image href="https://example.com/a.png" width="10" height="10"/>
          <image href="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="10" height="10"/>
          <rect width="5" height="5"/>
        </svg>"##,
        local.display()
    );
    let imported = import(&svg).unwrap();
    assert!(imported.assets.is_empty());
    assert!(imported
        .warnings
        .iter()
        .any(|w| w.contains("4 pictures") && w.contains("left out")));
    assert_eq!(imported.document.shapes().count(), 1);
}

#[test]
fn hostile_xml_is_refused_quickly() {
    // Entities that expand into elements are fine.
    let imported = import(&corpus_svg("resvg-entity-reference.svg")).unwrap();
    assert!(imported.document.shapes().count() >= 1);

    let laughs = r#"<?xml version="1.0"?>
<!DOCTYPE svg [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text y="5">&lol9;</text></svg>"#;
    let started = Instant::now();
    let e = import(laughs).unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(2));
    assert!(
        matches!(&e, ConvertError::Refused { kind, .. } if kind == "entities"),
        "{e:?}"
    );

    // A `use` fan-out: ten levels of ten references each would be 10^10 rectangles.
    let mut bomb = String::from(
        r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10"><defs><rect id="l0" width="1" height="1"/>"#,
    );
    for level in 1..=10 {
        bomb.push_str(&format!("<g id=\"l{level}\">"));
        for _ in 0..10 {
            bomb.push_str(&format!("<use xlink:href=\"#l{}\"/>", level - 1));
        }
        bomb.push_str("</g>");
    }
    bomb.push_str("</defs><use xlink:href=\"#l10\"/></svg>");
    let started = Instant::now();
    let result = import(&bomb);
    let took = started.elapsed();
    assert!(took < Duration::from_secs(20), "took {took:?}");
    assert!(
        matches!(result, Err(ConvertError::TooLarge(_))),
        "{:?}",
        result.map(|i| i.document.shapes().count())
    );
}

#[test]
fn garbage_is_refused_with_the_right_error() {
    type Expect = fn(&ConvertError) -> bool;
    let cases: [(&[u8], Expect); 5] = [
        (b"not xml at all", |e| matches!(e, ConvertError::Damaged(_))),
        (b"<svg", |e| matches!(e, ConvertError::Damaged(_))),
        (b"<html><body/></html>", |e| {
            matches!(e, ConvertError::Unsupported(_))
        }),
        (b"\x1f\x8b\x08\x00rest", |e| {
            matches!(e, ConvertError::Unsupported(_))
        }),
        (
            b"<svg xmlns=\"http://www.w3.org/2000/svg\">\xff\xfe</svg>",
            |e| matches!(e, ConvertError::Damaged(_)),
        ),
    ];
    for (bytes, ok) in cases {
        let e = quire_svg::import_svg(ImportRequest {
            bytes: bytes.to_vec(),
            ..ImportRequest::default()
        })
        .unwrap_err();
        assert!(ok(&e), "{:?}: {e:?}", String::from_utf8_lossy(bytes));
    }
}

#[test]
fn model_to_svg_to_model_keeps_text_and_figures() {
    let mut doc = Document::new(Kind::Diagram);
    let mut page = Page::new(400.0, 300.0);
    page.shapes.push(node(
        "a",
        Rect::new(20.0, 20.0, 120.0, 60.0),
        Geometry::Rect,
        "Alpha",
    ));
    page.shapes.push(node(
        "b",
        Rect::new(220.0, 20.0, 120.0, 60.0),
        Geometry::Ellipse,
        "Beta",
    ));
    page.shapes.push(Shape::Connector(connector(
        "c",
        end("a", ArrowHead::None),
        end("b", ArrowHead::Arrow),
    )));
    page.shapes.push(text_box(
        "t",
        Rect::new(20.0, 150.0, 300.0, 60.0),
        vec![
            run("Plain and ", FontFamily::Helvetica, 12.0),
            Run {
                bold: true,
                ..run("bold", FontFamily::Times, 12.0)
            },
        ],
    ));
    doc.pages.push(page);
    let svg =
        String::from_utf8(quire_svg::export_svg(&request(doc, vec![])).unwrap().bytes).unwrap();
    let imported = import(&svg).unwrap();
    let again = checked(&imported, "model-roundtrip");
    let page = &imported.document.pages[0];
    assert_eq!((page.width, page.height), (400.0, 300.0));
    let words: Vec<String> = text_shapes(&imported.document)
        .iter()
        .map(|t| t.text.plain_text())
        .collect();
    for w in ["Alpha", "Beta", "Plain and ", "bold"] {
        assert!(
            words.iter().any(|x| x.trim() == w.trim()),
            "{w} in {words:?}"
        );
    }
    // The ids of the exported groups come back, and the rectangle is a node again.
    let a = imported.document.shapes().find(|s| s.id() == "a").unwrap();
    let Shape::Group(a) = a else { panic!("{a:?}") };
    assert!(a.children.iter().any(|s| matches!(s,
        Shape::Node(n) if n.geometry == Geometry::Rect && n.frame == Rect::new(20.0, 20.0, 120.0, 60.0))));
    assert!(imported
        .document
        .shapes()
        .any(|s| matches!(s, Shape::Node(n) if n.geometry == Geometry::Ellipse)));
    // Exported again, the words are still there as text.
    let xml = roxmltree::Document::parse(&again).unwrap();
    let all: String = texts(&xml).into_iter().map(|(_, t)| t).collect();
    assert!(all.contains("Alpha") && all.contains("bold"));
}
