//! Diagrams end to end: every node geometry, connectors with every head and line kind,
//! groups, free paths with even-odd fill and transparency.

mod common;

use common::*;
use quire_sdk::*;

fn node(id: &str, frame: Rect, geometry: Geometry, label: &str) -> Shape {
    let mut text = Text::plain(label, 9.0);
    text.align = Align::Center;
    text.valign = VAlign::Middle;
    Shape::Node(Node {
        shadow: false,
        id: id.into(),
        frame,
        geometry,
        fill: Some(Color::rgb(0xdd, 0xee, 0xff)),
        stroke: Some(Stroke::solid(Color::rgb(0x22, 0x44, 0x88), 1.5)),
        text: Some(text),
        classes: Vec::new(),
    })
}

fn end(shape: &str, head: ArrowHead) -> End {
    End {
        port: None,
        shape: Some(shape.into()),
        point: None,
        head,
    }
}

fn connector(id: &str, from: End, to: End) -> Connector {
    Connector {
        id: id.into(),
        from,
        to,
        waypoints: Vec::new(),
        stroke: None,
        line: LineKind::Normal,
        label: None,
        length: None,
        curved: false,
        classes: Vec::new(),
    }
}

const GEOMETRIES: [(Geometry, &str); 18] = [
    (Geometry::Rect, "rect"),
    (Geometry::Rounded, "rounded"),
    (Geometry::Stadium, "stadium"),
    (Geometry::Ellipse, "ellipse"),
    (Geometry::Circle, "circle"),
    (Geometry::DoubleCircle, "double"),
    (Geometry::Diamond, "diamond"),
    (Geometry::Hexagon, "hexagon"),
    (Geometry::Parallelogram, "para"),
    (Geometry::ParallelogramAlt, "para alt"),
    (Geometry::Trapezoid, "trapezoid"),
    (Geometry::TrapezoidAlt, "trap alt"),
    (Geometry::Cylinder, "cylinder"),
    (Geometry::Subroutine, "subroutine"),
    (Geometry::Document, "document"),
    (Geometry::Triangle, "triangle"),
    (Geometry::Flag, "flag"),
    (Geometry::Note, "note"),
];

fn diagram() -> Document {
    let mut doc = Document::new(Kind::Diagram);
    doc.title = Some("Every shape".into());
    let mut page = Page::new(720.0, 560.0);
    for (i, (g, label)) in GEOMETRIES.iter().enumerate() {
        let (col, row) = (i % 6, i / 6);
        let frame = Rect::new(
            20.0 + col as f64 * 115.0,
            20.0 + row as f64 * 90.0,
            90.0,
            55.0,
        );
        page.shapes.push(node(&format!("n{i}"), frame, *g, label));
    }
    // A chain across the rows with every arrowhead, line kind and dash.
    let heads = [
        ArrowHead::Arrow,
        ArrowHead::Open,
        ArrowHead::Circle,
        ArrowHead::Cross,
        ArrowHead::Diamond,
    ];
    for (i, head) in heads.iter().enumerate() {
        let mut c = connector(
            &format!("c{i}"),
            end(&format!("n{i}"), ArrowHead::None),
            end(&format!("n{}", i + 7), *head),
        );
        match i {
            1 => c.line = LineKind::Thick,
            2 => {
                c.stroke = Some(Stroke {
                    color: Color::rgb(200, 0, 0),
                    width: 1.0,
                    dash: Dash::Dashed,
                })
            }
            3 => {
                c.stroke = Some(Stroke {
                    color: Color::rgb(0, 120, 0),
                    width: 1.5,
                    dash: Dash::Dotted,
                })
            }
            _ => {}
        }
        page.shapes.push(Shape::Connector(c));
    }
    let mut both = connector(
        "both",
        end("n12", ArrowHead::Arrow),
        end("n17", ArrowHead::Arrow),
    );
    both.waypoints = vec![Point { x: 77.0, y: 330.0 }, Point { x: 652.0, y: 330.0 }];
    both.label = Some(Text::plain("kilo label", 9.0));
    page.shapes.push(Shape::Connector(both));
    let mut hidden = connector(
        "hidden",
        end("n0", ArrowHead::Arrow),
        end("n5", ArrowHead::Arrow),
    );
    hidden.line = LineKind::Invisible;
    page.shapes.push(Shape::Connector(hidden));
    page.shapes.push(Shape::Connector(connector(
        "loose",
        end("n17", ArrowHead::None),
        End {
            port: None,
            shape: None,
            point: Some(Point { x: 700.0, y: 320.0 }),
            head: ArrowHead::Arrow,
        },
    )));
    page.shapes.push(Shape::Connector(connector(
        "self",
        end("n6", ArrowHead::None),
        end("n6", ArrowHead::Arrow),
    )));

    // A group with a label and two children joined by a connector.
    let mut label = Text::plain("lima group", 10.0);
    label.align = Align::Left;
    page.shapes.push(Shape::Group(Group {
        shadow: false,
        classes: Vec::new(),
        id: "g".into(),
        frame: Rect::new(20.0, 360.0, 330.0, 180.0),
        label: Some(label),
        fill: Some(Color::rgb(0xf4, 0xf4, 0xf4)),
        stroke: Some(Stroke {
            color: Color::rgb(0x99, 0x99, 0x99),
            width: 1.0,
            dash: Dash::Dashed,
        }),
        direction: Some("LR".into()),
        children: vec![
            node(
                "ga",
                Rect::new(40.0, 420.0, 100.0, 60.0),
                Geometry::Rounded,
                "mike",
            ),
            node(
                "gb",
                Rect::new(220.0, 420.0, 100.0, 60.0),
                Geometry::Ellipse,
                "november",
            ),
            Shape::Connector(connector(
                "gc",
                end("ga", ArrowHead::None),
                end("gb", ArrowHead::Arrow),
            )),
        ],
    }));
    // A free path: a square with a square hole (even-odd), half transparent.
    let sq = |x: f64, y: f64, s: f64| {
        vec![
            Segment::MoveTo { x, y },
            Segment::LineTo { x: x + s, y },
            Segment::LineTo { x: x + s, y: y + s },
            Segment::LineTo { x, y: y + s },
            Segment::Close,
        ]
    };
    let mut segments = sq(400.0, 380.0, 140.0);
    segments.extend(sq(440.0, 420.0, 60.0));
    segments.push(Segment::MoveTo { x: 560.0, y: 380.0 });
    segments.push(Segment::CubicTo {
        x1: 700.0,
        y1: 380.0,
        x2: 560.0,
        y2: 520.0,
        x: 700.0,
        y: 520.0,
    });
    page.shapes.push(Shape::Path(PathShape {
        shadow: false,
        id: "path".into(),
        segments,
        fill: Some(Color {
            r: 0xcc,
            g: 0x33,
            b: 0x00,
            a: 0x99,
        }),
        stroke: Some(Stroke::solid(Color::BLACK, 2.0)),
        even_odd: true,
    }));
    doc.pages.push(page);
    doc
}

#[test]
fn every_geometry_and_connector_draws() {
    let (path, out) = export_checked(&request(diagram(), Vec::new()), "diagram");
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let text = text_of(&path, None);
    for (_, label) in GEOMETRIES {
        assert!(text.contains(label), "`{label}` missing from:\n{text}");
    }
    assert_in_order(&text, &["kilo label"]);
    assert_in_order(&text, &["lima group", "mike", "november"]);

    let r = render(&path, 1, 72);
    // Inside the first node: its fill; outside any shape: white.
    assert_eq!(r.at(30, 30), [0xdd, 0xee, 0xff]);
    assert_eq!(r.at(10, 10), [0xff, 0xff, 0xff]);
    // The even-odd hole shows white (half-transparent fill elsewhere).
    assert_eq!(r.at(470, 450), [0xff, 0xff, 0xff]);
    let fill = r.at(410, 390);
    assert!(
        fill[0] > fill[2] && fill != [0xff, 0xff, 0xff],
        "path fill {fill:?}"
    );
    // The invisible connector from n0 to n5 leaves the gap between n0 and n1 empty at its
    // height (the visible chain goes down and right, not along the first row).
    assert_eq!(r.at(122, 47), [0xff, 0xff, 0xff]);
}

#[test]
fn moving_a_shape_moves_its_connector_ends() {
    let mut doc = Document::new(Kind::Diagram);
    let mut page = Page::new(300.0, 200.0);
    page.shapes.push(node(
        "a",
        Rect::new(10.0, 10.0, 60.0, 40.0),
        Geometry::Rect,
        "a",
    ));
    page.shapes.push(node(
        "b",
        Rect::new(200.0, 140.0, 60.0, 40.0),
        Geometry::Rect,
        "b",
    ));
    page.shapes.push(Shape::Connector(connector(
        "ab",
        end("a", ArrowHead::None),
        end("b", ArrowHead::Arrow),
    )));
    doc.pages.push(page);
    let (path, _) = export_checked(&request(doc.clone(), Vec::new()), "moved-before");
    let before = render(&path, 1, 72);
    // Move b to the top right: the line must now run level, along y = 30.
    if let Shape::Node(n) = &mut doc.pages[0].shapes[1] {
        n.frame = Rect::new(200.0, 10.0, 60.0, 40.0);
    }
    let (path, _) = export_checked(&request(doc, Vec::new()), "moved-after");
    let after = render(&path, 1, 72);
    let dark = |r: &Raster, x: usize, y: usize| (y - 1..=y + 1).any(|y| r.at(x, y)[0] < 100);
    assert!(!dark(&before, 135, 30) && dark(&after, 135, 30));
}

/// Pages the source named (draw.io and Visio pages) are the PDF's outline, each entry
/// opening its page, as qpdf reads it; unnamed pages have no entry, and a document without
/// names has no outline.
#[test]
fn named_pages_are_the_outline() {
    let mut doc = Document::new(Kind::Diagram);
    for (i, name) in [Some("Network"), None, Some("Rack — floor 2")]
        .into_iter()
        .enumerate()
    {
        let mut page = Page::new(200.0, 100.0);
        page.name = name.map(str::to_string);
        let frame = Rect::new(10.0, 10.0, 50.0, 30.0);
        page.shapes
            .push(node(&format!("n{i}"), frame, Geometry::Rect, "x"));
        doc.pages.push(page);
    }
    let (path, _) = export_checked(&request(doc.clone(), Vec::new()), "named-pages");
    let json = tool(
        "qpdf",
        &["--json", "--json-key=outlines", path.to_str().unwrap()],
    );
    let read: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let entries: Vec<(String, u64)> = read["outlines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                o["title"].as_str().unwrap().to_string(),
                o["destpageposfrom1"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        entries,
        [
            ("Network".to_string(), 1),
            ("Rack — floor 2".to_string(), 3)
        ]
    );

    for page in &mut doc.pages {
        page.name = None;
    }
    let (path, _) = export_checked(&request(doc, Vec::new()), "unnamed-pages");
    let json = tool(
        "qpdf",
        &["--json", "--json-key=outlines", path.to_str().unwrap()],
    );
    let read: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(read["outlines"], serde_json::json!([]));
}
