//! The exporter: every corpus file through draw.io -> model -> .drawio -> model keeps its
//! structure, the written XML is well-formed and self-consistent (read with roxmltree),
//! and a hand-made model with every kind of shape comes back as it went out.

use std::collections::{HashMap, HashSet};

use quire_drawio::{export_drawio, import_drawio, EXPORT_MEDIA_TYPE};
use quire_sdk::{
    Align, ArrowHead, Asset, Color, Connector, Dash, Document, End, ExportRequest, Geometry, Group,
    Image, ImportRequest, Imported, Kind, LineKind, Node, Page, PathShape, Point, Rect, Run,
    Segment, Shape, Stroke, Text, TextBox, VAlign,
};

mod common;
use common::found_page;

fn export(document: Document, assets: Vec<Asset>) -> (String, Vec<String>) {
    let out = export_drawio(&ExportRequest {
        document,
        assets,
        media_type: EXPORT_MEDIA_TYPE.into(),
        page: None,
        dpi: None,
        options: Vec::new(),
    })
    .expect("export");
    assert_eq!(out.media_type, "application/xml");
    (String::from_utf8(out.bytes).unwrap(), out.warnings)
}

fn reimport(xml: &str) -> Imported {
    import_drawio(ImportRequest {
        bytes: xml.as_bytes().to_vec(),
        media_type: "application/xml".into(),
        ..Default::default()
    })
    .expect("the exported file imports")
}

/// Checks the file the way draw.io would need it: well-formed, one root and layer per
/// page, unique ids, every parent, source and target naming a cell of the same page.
/// Answers (vertices, edges) per page.
fn check_xml(xml: &str) -> Vec<(usize, usize)> {
    let doc = roxmltree::Document::parse(xml).expect("well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "mxfile");
    let mut pages = Vec::new();
    for diagram in root.children().filter(|n| n.has_tag_name("diagram")) {
        let model = diagram
            .children()
            .find(|n| n.has_tag_name("mxGraphModel"))
            .expect("uncompressed page");
        let cells_root = model.children().find(|n| n.has_tag_name("root")).unwrap();
        let mut ids = HashSet::new();
        let mut cells = Vec::new();
        for el in cells_root.children().filter(|n| n.is_element()) {
            let (id, cell) = if el.has_tag_name("mxCell") {
                (el.attribute("id").unwrap(), el)
            } else {
                assert_eq!(el.tag_name().name(), "UserObject");
                let cell = el.children().find(|n| n.has_tag_name("mxCell")).unwrap();
                (el.attribute("id").unwrap(), cell)
            };
            assert!(ids.insert(id.to_string()), "id {id} twice");
            cells.push(cell);
        }
        let (mut v, mut e) = (0, 0);
        let parentless = cells
            .iter()
            .filter(|c| c.attribute("parent").is_none())
            .count();
        assert_eq!(parentless, 1, "one root cell");
        for c in &cells {
            for key in ["parent", "source", "target"] {
                if let Some(r) = c.attribute(key) {
                    assert!(ids.contains(r), "{key}={r} names no cell");
                }
            }
            if c.attribute("vertex") == Some("1") {
                v += 1;
                let g = c.children().find(|n| n.has_tag_name("mxGeometry")).unwrap();
                for k in ["x", "y", "width", "height"] {
                    let n: f64 = g.attribute(k).unwrap().parse().unwrap();
                    assert!(n.is_finite());
                }
            }
            if c.attribute("edge") == Some("1") {
                e += 1;
            }
        }
        pages.push((v, e));
    }
    pages
}

fn label_of(doc: &Document, id: &str) -> String {
    let text = doc.shapes().find(|s| s.id() == id).and_then(|s| match s {
        Shape::Node(n) => n.text.as_ref().map(Text::plain_text),
        Shape::Text(t) => Some(t.text.plain_text()),
        Shape::Group(g) => g.label.as_ref().map(Text::plain_text),
        _ => None,
    });
    text.unwrap_or_else(|| format!("#{id}"))
}

/// (label of the source, label of the target) of every attached connector.
fn ends_by_label(doc: &Document) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = doc
        .shapes()
        .filter_map(|s| match s {
            Shape::Connector(c) => Some((
                c.from
                    .shape
                    .as_deref()
                    .map(|i| label_of(doc, i))
                    .unwrap_or_default(),
                c.to.shape
                    .as_deref()
                    .map(|i| label_of(doc, i))
                    .unwrap_or_default(),
            )),
            _ => None,
        })
        .collect();
    out.sort();
    out
}

#[test]
fn corpus_round_trips_keep_structure() {
    let mut files: Vec<_> = std::fs::read_dir(quire_sdk::corpus_dir().join("drawio"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut pages_checked = 0;
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let Ok(first) = import_drawio(ImportRequest {
            bytes: std::fs::read(&path).unwrap(),
            media_type: "application/vnd.jgraph.mxfile".into(),
            ..Default::default()
        }) else {
            continue;
        };
        let (xml, _) = export(first.document.clone(), first.assets.clone());
        let xml_counts = check_xml(&xml);
        let second = reimport(&xml);
        let (a, b) = (&first.document.pages, &second.document.pages);
        assert_eq!(a.len(), b.len(), "{name}: pages");
        assert_eq!(xml_counts.len(), a.len(), "{name}: diagrams");
        for (i, (pa, pb)) in a.iter().zip(b).enumerate() {
            let at = format!("{name} page {}", i + 1);
            let (fa, fb) = (found_page(pa), found_page(pb));
            assert_eq!(fa, fb, "{at}: vertices, edges, labels and ends");
            // Every non-connector shape is one vertex cell, every connector one edge.
            let shapes = quire_sdk::ShapeWalk::new(&pa.shapes).count()
                - common::stencil_drawing(&pa.shapes).len();
            assert_eq!(xml_counts[i].1, fa.edges, "{at}: edge cells");
            assert_eq!(xml_counts[i].0, shapes - fa.edges, "{at}: vertex cells");
            // The page is the drawing plus its margin: the same to the written precision,
            // which a drawing scaled down to a few percent carries a little further.
            let same = |a: f64, b: f64| (a - b).abs() < 0.01_f64.max(a * 1e-4);
            assert!(
                same(pa.width, pb.width) && same(pa.height, pb.height),
                "{at}: page size {} x {} came back as {} x {}",
                pa.width,
                pa.height,
                pb.width,
                pb.height
            );
            pages_checked += 1;
        }
        assert_eq!(
            ends_by_label(&first.document),
            ends_by_label(&second.document),
            "{name}: connector ends by label"
        );
        // Nodes keep their outline and (to the written precision) their place.
        let frames: HashMap<&str, (Geometry, Rect)> = first
            .document
            .shapes()
            .filter_map(|s| match s {
                Shape::Node(n) => Some((n.id.as_str(), (n.geometry, n.frame))),
                _ => None,
            })
            .collect();
        // What draws a cell draw.io draws itself is Quire's drawing, made again each time.
        let drawings: std::collections::HashSet<&str> = second
            .document
            .pages
            .iter()
            .flat_map(|p| common::stencil_drawing(&p.shapes))
            .collect();
        for s in second.document.shapes() {
            if let Shape::Node(n) = s {
                if drawings.contains(n.id.as_str()) {
                    continue;
                }
                let (g, f) = frames[n.id.as_str()];
                assert_eq!(n.geometry, g, "{name}: {}", n.id);
                assert!(
                    (n.frame.x - f.x).abs() < 0.01 && (n.frame.w - f.w).abs() < 0.01,
                    "{name}: {} moved from {f:?} to {:?}",
                    n.id,
                    n.frame
                );
            }
        }
    }
    assert!(pages_checked >= 30);
}

fn node(id: &str, g: Geometry, x: f64, text: &str) -> Shape {
    Shape::Node(Node {
        shadow: false,
        id: id.into(),
        frame: Rect::new(x, 40.0, 60.0, 40.0),
        geometry: g,
        fill: Some(Color::rgb(0xda, 0xe8, 0xfc)),
        stroke: Some(Stroke {
            color: Color::rgb(0x6c, 0x8e, 0xbf),
            width: 2.0,
            dash: Dash::Dashed,
        }),
        text: Some(Text::plain(text, 12.0)),
        classes: Vec::new(),
    })
}

fn end(shape: Option<&str>, point: Option<(f64, f64)>, head: ArrowHead) -> End {
    End {
        port: None,
        shape: shape.map(str::to_string),
        point: point.map(|(x, y)| Point { x, y }),
        head,
    }
}

#[test]
fn every_kind_of_shape_comes_back() {
    use Geometry::*;
    let geometries = [
        Rect,
        Rounded,
        Stadium,
        Ellipse,
        Circle,
        DoubleCircle,
        Diamond,
        Hexagon,
        Parallelogram,
        ParallelogramAlt,
        Trapezoid,
        TrapezoidAlt,
        Cylinder,
        Subroutine,
        Document,
        Triangle,
        Flag,
        Note,
    ];
    let mut shapes: Vec<Shape> = geometries
        .iter()
        .enumerate()
        .map(|(i, g)| {
            node(
                &format!("n{i}"),
                *g,
                20.0 + 70.0 * i as f64,
                &format!("{g:?}"),
            )
        })
        .collect();
    let mut bold = Run::plain("Bold ", 16.0);
    bold.bold = true;
    let mut tail = Run::plain("and  spaced\nsecond line", 10.0);
    tail.color = Some(Color::rgb(200, 0, 0));
    shapes.push(Shape::Text(TextBox {
        id: "t".into(),
        frame: quire_sdk::Rect::new(20.0, 120.0, 200.0, 60.0),
        text: Text {
            runs: vec![bold, tail],
            align: Align::Right,
            valign: VAlign::Bottom,
            line_height: 1.2,
            direction: None,
            padding: Some(quire_sdk::Insets {
                top: 0.0,
                right: 0.0,
                bottom: 0.0,
                left: 30.0,
            }),
        },
        fill: None,
        stroke: None,
    }));
    shapes.push(Shape::Image(Image {
        id: "img".into(),
        frame: quire_sdk::Rect::new(300.0, 120.0, 32.0, 32.0),
        asset: "logo.png".into(),
        alt: Some("Logo".into()),
        link: Some("https://example.org".into()),
    }));
    shapes.push(Shape::Path(PathShape {
        shadow: false,
        id: "pen".into(),
        segments: vec![
            Segment::MoveTo { x: 400.0, y: 120.0 },
            Segment::CubicTo {
                x1: 420.0,
                y1: 100.0,
                x2: 440.0,
                y2: 140.0,
                x: 460.0,
                y: 120.0,
            },
        ],
        fill: None,
        stroke: Some(Stroke::solid(Color::BLACK, 2.0)),
        even_odd: false,
    }));
    shapes.push(Shape::Group(Group {
        shadow: false,
        classes: Vec::new(),
        id: "outer".into(),
        frame: quire_sdk::Rect::new(20.0, 200.0, 400.0, 200.0),
        label: Some(Text::plain("Outer", 12.0)),
        fill: Some(Color {
            r: 255,
            g: 255,
            b: 0,
            a: 128,
        }),
        stroke: Some(Stroke::solid(Color::BLACK, 1.0)),
        direction: None,
        children: vec![
            Shape::Group(Group {
                shadow: false,
                classes: Vec::new(),
                id: "inner".into(),
                frame: quire_sdk::Rect::new(40.0, 240.0, 200.0, 100.0),
                label: None,
                fill: None,
                stroke: None,
                direction: None,
                children: vec![node("deep", Rect, 60.0, "Deep")],
            }),
            node("side", Ellipse, 300.0, "Side"),
            Shape::Connector(Connector {
                id: "inside".into(),
                from: end(Some("deep"), None, ArrowHead::None),
                to: end(Some("side"), None, ArrowHead::Arrow),
                waypoints: vec![Point { x: 250.0, y: 380.0 }],
                stroke: None,
                line: LineKind::Normal,
                label: Some(Text::plain("in group", 11.0)),
                length: None,
                curved: false,
                classes: Vec::new(),
            }),
        ],
    }));
    if let Shape::Node(n) = &mut shapes[0] {
        n.frame.y = 40.0;
        n.fill = None;
    }
    shapes.push(Shape::Connector(Connector {
        id: "c1".into(),
        from: end(Some("n0"), None, ArrowHead::Diamond),
        to: end(Some("n6"), None, ArrowHead::Open),
        waypoints: vec![Point { x: 100.0, y: 100.0 }, Point { x: 400.0, y: 100.0 }],
        stroke: Some(Stroke {
            color: Color::rgb(0, 0, 255),
            width: 3.0,
            dash: Dash::Dotted,
        }),
        line: LineKind::Normal,
        label: Some(Text::plain("yes", 11.0)),
        length: None,
        curved: true,
        classes: Vec::new(),
    }));
    shapes.push(Shape::Connector(Connector {
        id: "loose".into(),
        from: end(None, Some((10.0, 500.0)), ArrowHead::Circle),
        to: end(Some("other"), Some((600.0, 500.0)), ArrowHead::Cross),
        waypoints: Vec::new(),
        stroke: None,
        line: LineKind::Invisible,
        label: None,
        length: None,
        curved: false,
        classes: Vec::new(),
    }));
    let mut page2 = Page::new(300.0, 200.0);
    page2
        .shapes
        .push(node("other", Hexagon, 10.0, "Other page"));
    let mut page1 = Page::new(1400.0, 600.0);
    page1.shapes = shapes;
    let mut doc = quire_sdk::Document::new(Kind::Diagram);
    doc.pages = vec![page1, page2];
    let png = b"\x89PNG\r\n\x1a\nfake".to_vec();
    let assets = vec![Asset {
        name: "logo.png".into(),
        media_type: "image/png".into(),
        bytes: png.clone(),
    }];
    quire_sdk::validate::check(&doc, ["logo.png"]).unwrap();

    let (xml, warnings) = export(doc.clone(), assets);
    check_xml(&xml);
    assert!(
        warnings.iter().any(|w| w.contains("1 free paths")),
        "{warnings:?}"
    );
    assert!(
        warnings.iter().any(|w| w.contains("another page")),
        "{warnings:?}"
    );
    let back = reimport(&xml);
    let get = |id: &str| back.document.shapes().find(|s| s.id() == id).cloned();
    // The page comes back as the drawing plus a margin: every shape moved by one offset.
    let (was, now) = (doc_frame(&doc, "n0"), get("n0").unwrap().frame().unwrap());
    let moved = |r: quire_sdk::Rect| {
        quire_sdk::Rect::new(r.x + now.x - was.x, r.y + now.y - was.y, r.w, r.h)
    };
    let moved_point = |x: f64, y: f64| Point {
        x: x + now.x - was.x,
        y: y + now.y - was.y,
    };

    for (i, g) in geometries.iter().enumerate() {
        let Some(Shape::Node(n)) = get(&format!("n{i}")) else {
            panic!("n{i}")
        };
        assert_eq!(n.geometry, *g);
        assert_eq!(n.text.unwrap().plain_text(), format!("{g:?}"));
        assert_eq!(n.stroke.unwrap().dash, Dash::Dashed);
        assert_eq!(n.stroke.unwrap().width, 2.0);
        if i > 0 {
            assert_eq!(n.fill, Some(Color::rgb(0xda, 0xe8, 0xfc)));
        } else {
            assert_eq!(n.fill, None);
        }
    }
    let Some(Shape::Text(t)) = get("t") else {
        panic!("text")
    };
    assert_eq!(t.text.plain_text(), "Bold and  spaced\nsecond line");
    assert_eq!(
        (t.text.align, t.text.valign),
        (Align::Right, VAlign::Bottom)
    );
    // Room beside the text (`spacingLeft`) comes back as it went out.
    assert_eq!(t.text.padding.map(|p| (p.left, p.top)), Some((30.0, 0.0)));
    assert!(t.text.runs[0].bold && t.text.runs[0].size == 16.0);
    assert!(t
        .text
        .runs
        .iter()
        .any(|r| r.color == Some(Color::rgb(200, 0, 0)) && r.size == 10.0 && !r.bold));
    let Some(Shape::Image(img)) = get("img") else {
        panic!("image")
    };
    assert_eq!(img.link.as_deref(), Some("https://example.org"));
    let asset = back.assets.iter().find(|a| a.name == img.asset).unwrap();
    assert_eq!(asset.bytes, png);
    // A free path goes out as an SVG picture cell and comes back drawn from it: vectors
    // again, in the same place.
    let Some(Shape::Group(pen)) = get("pen") else {
        panic!("the path comes back as its picture's drawing")
    };
    let Some(Shape::Path(drawn_pen)) = pen.children.first() else {
        panic!("the picture holds the path: {:?}", pen.children)
    };
    assert!(drawn_pen.stroke.is_some());
    let drawn = moved(quire_sdk::Rect::new(400.0, 100.0, 60.0, 40.0));
    let at = quire_sdk::geometry::bounds(&drawn_pen.segments).unwrap();
    assert!(
        (at.x - drawn.x).abs() < 0.5 && (at.right() - drawn.right()).abs() < 0.5,
        "{at:?} is not {drawn:?}"
    );

    let Some(Shape::Group(outer)) = get("outer") else {
        panic!("group")
    };
    assert_eq!(outer.frame, moved(doc_frame(&doc, "outer")));
    assert_eq!(outer.label.unwrap().plain_text(), "Outer");
    assert_eq!(outer.fill.map(|c| c.a), Some(128));
    let Shape::Group(inner) = &outer.children[0] else {
        panic!("nested group")
    };
    assert_eq!(inner.frame, moved(doc_frame(&doc, "inner")));
    assert_eq!(
        inner.children[0].frame(),
        Some(moved(doc_frame(&doc, "deep")))
    );
    let Some(Shape::Connector(inside)) = get("inside") else {
        panic!()
    };
    assert_eq!(inside.waypoints, vec![moved_point(250.0, 380.0)]);
    assert_eq!(inside.from.shape.as_deref(), Some("deep"));

    let Some(Shape::Connector(c1)) = get("c1") else {
        panic!()
    };
    assert_eq!(c1.from.shape.as_deref(), Some("n0"));
    assert_eq!(c1.to.shape.as_deref(), Some("n6"));
    assert_eq!(
        (c1.from.head, c1.to.head),
        (ArrowHead::Diamond, ArrowHead::Open)
    );
    assert_eq!(c1.waypoints.len(), 2);
    assert!(c1.curved, "a curved link stays curved");
    assert!(!inside.curved);
    let s = c1.stroke.unwrap();
    assert_eq!(
        (s.color, s.width, s.dash),
        (Color::rgb(0, 0, 255), 3.0, Dash::Dotted)
    );
    assert_eq!(c1.label.unwrap().plain_text(), "yes");
    let Some(Shape::Connector(loose)) = get("loose") else {
        panic!()
    };
    assert_eq!(loose.to.shape, None, "attached across pages: left loose");
    assert_eq!(loose.to.point, Some(moved_point(600.0, 500.0)));
    assert_eq!(loose.line, LineKind::Invisible);
    assert_eq!(
        (loose.from.head, loose.to.head),
        (ArrowHead::Circle, ArrowHead::Cross)
    );
    assert_eq!(back.document.pages[1].shapes[0].id(), "other");
}

fn doc_frame(doc: &Document, id: &str) -> quire_sdk::Rect {
    doc.shapes()
        .find(|s| s.id() == id)
        .unwrap()
        .frame()
        .unwrap()
}

#[test]
fn ids_that_draw_io_reserves_and_odd_characters_survive() {
    let mut page = Page::new(200.0, 200.0);
    page.shapes
        .push(node("0", Geometry::Rect, 10.0, "zero & <one>"));
    page.shapes
        .push(node("1", Geometry::Rect, 100.0, "line\nbreak \"q\""));
    page.shapes.push(Shape::Connector(Connector {
        id: "a\"b".into(),
        from: end(Some("0"), None, ArrowHead::None),
        to: end(Some("1"), None, ArrowHead::Arrow),
        waypoints: Vec::new(),
        stroke: None,
        line: LineKind::Thick,
        label: None,
        length: None,
        curved: false,
        classes: Vec::new(),
    }));
    let mut doc = Document::new(Kind::Diagram);
    doc.pages.push(page);
    let (xml, _) = export(doc, Vec::new());
    check_xml(&xml);
    let back = reimport(&xml);
    let ids: Vec<&str> = back.document.shapes().map(|s| s.id()).collect();
    assert_eq!(ids, ["0", "1", "a\"b"]);
    assert_eq!(label_of(&back.document, "0"), "zero & <one>");
    assert_eq!(label_of(&back.document, "1"), "line\nbreak \"q\"");
    let Some(Shape::Connector(c)) = back.document.shapes().find(|s| s.id() == "a\"b") else {
        panic!()
    };
    assert_eq!(c.stroke.unwrap().width, 3.0, "a thick line is 3 wide");
    assert_eq!(c.to.shape.as_deref(), Some("1"));
}

#[test]
fn one_page_or_an_error() {
    let mut doc = Document::new(Kind::Diagram);
    doc.pages.push(Page::new(100.0, 100.0));
    doc.pages.push(Page::new(200.0, 100.0));
    let request = |page, media_type: &str| ExportRequest {
        document: doc.clone(),
        assets: Vec::new(),
        media_type: media_type.into(),
        page,
        dpi: None,
        options: Vec::new(),
    };
    let out = export_drawio(&request(Some(2), "application/xml")).unwrap();
    let xml = String::from_utf8(out.bytes).unwrap();
    assert_eq!(check_xml(&xml).len(), 1);
    assert!(xml.contains("pageWidth=\"200\""));
    assert!(matches!(
        export_drawio(&request(Some(3), "application/xml")),
        Err(quire_sdk::ConvertError::InvalidRequest(_))
    ));
    assert!(matches!(
        export_drawio(&request(None, "application/pdf")),
        Err(quire_sdk::ConvertError::Unsupported(_))
    ));
}
