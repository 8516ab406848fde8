//! Models no validator has seen: the exporter must still answer with a well-formed PDF (or a
//! clean error), never a panic or a file qpdf rejects. The host validates models first, but
//! a converter is the last line and must not trust that.

use std::process::Command;

use quire_sdk::*;

fn qpdf_accepts(bytes: &[u8], name: &str) {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("quire-pdf");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.pdf"));
    std::fs::write(&path, bytes).unwrap();
    let out = Command::new("qpdf").arg("--check").arg(&path).output().unwrap_or_else(|e| {
        panic!("qpdf could not be run ({e}); `apt-get install -y qpdf poppler-utils` (make test installs it)")
    });
    assert!(
        out.status.success(),
        "qpdf --check {name}.pdf:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let render = Command::new("pdftoppm")
        .args(["-r", "10", "-png", "-singlefile"])
        .arg(&path)
        .arg(dir.join(name))
        .output()
        .expect("pdftoppm could not be run; install poppler-utils");
    assert!(
        render.status.success(),
        "pdftoppm {name}: {}",
        String::from_utf8_lossy(&render.stderr)
    );
}

fn export(document: Document, assets: Vec<Asset>) -> Exported {
    let req = ExportRequest {
        document,
        assets,
        media_type: "application/pdf".into(),
        page: None,
        dpi: None,
        options: Vec::new(),
    };
    quire_pdf::export_pdf(&req).expect("a broken model still exports")
}

fn weird_text() -> Text {
    let mut runs = vec![
        Run::plain("nul\u{0} bell\u{7} tab\t cr\r lf\n emoji 🦀 rtl שלום", 10.0),
        Run {
            size: f64::NAN,
            ..Run::plain("nan size", 10.0)
        },
        Run {
            size: -4.0,
            ..Run::plain("negative size", 10.0)
        },
        Run {
            size: 1.0e9,
            ..Run::plain("huge", 10.0)
        },
        Run::plain("", 10.0),
    ];
    for (i, link) in [
        "javascript:alert(1)",
        "#page=abc",
        "#page=99",
        "",
        "#nowhere",
        "FILE:///etc/passwd",
        "java\tscript:alert(2)",
    ]
    .iter()
    .enumerate()
    {
        runs.push(Run {
            link: Some(link.to_string()),
            ..Run::plain(format!(" link{i}"), 10.0)
        });
    }
    Text {
        runs,
        align: Align::Justify,
        valign: VAlign::Bottom,
        line_height: f64::NAN,
        direction: None,
        padding: None,
    }
}

fn bad_rect() -> Rect {
    Rect::new(f64::NAN, f64::INFINITY, -50.0, 1.0e300)
}

#[test]
fn nonsense_numbers_and_references_still_make_a_valid_pdf() {
    let mut doc = Document::new(Kind::Diagram);
    doc.title = Some("\u{0}\u{feff}title ✓".into());
    let mut page = Page::new(f64::NAN, -3.0);
    page.rotate = 450;
    page.background = Some(Color {
        r: 1,
        g: 2,
        b: 3,
        a: 0,
    });
    let nasty_stroke = Stroke {
        color: Color::BLACK,
        width: f64::NAN,
        dash: Dash::Dotted,
    };
    page.shapes.push(Shape::Text(TextBox {
        id: "t".into(),
        frame: bad_rect(),
        text: weird_text(),
        fill: Some(Color::WHITE),
        stroke: Some(nasty_stroke),
    }));
    page.shapes.push(Shape::Node(Node {
        shadow: false,
        id: "n".into(),
        frame: Rect::new(10.0, 10.0, 0.0, 0.0),
        geometry: Geometry::Cylinder,
        fill: Some(Color::BLACK),
        stroke: Some(Stroke {
            color: Color::BLACK,
            width: 1.0e12,
            dash: Dash::Dashed,
        }),
        text: Some(weird_text()),
        classes: Vec::new(),
    }));
    page.shapes.push(Shape::Path(PathShape {
        shadow: false,
        id: "p".into(),
        segments: vec![
            Segment::Close,
            Segment::LineTo { x: 1.0, y: 1.0 },
            Segment::CubicTo {
                x1: f64::NAN,
                y1: 0.0,
                x2: 0.0,
                y2: 0.0,
                x: 5.0,
                y: 5.0,
            },
            Segment::Close,
            Segment::Close,
        ],
        fill: Some(Color::BLACK),
        stroke: None,
        even_odd: true,
    }));
    page.shapes.push(Shape::Path(PathShape {
        shadow: false,
        id: "empty".into(),
        segments: Vec::new(),
        fill: Some(Color::BLACK),
        stroke: Some(Stroke::solid(Color::BLACK, 1.0)),
        even_odd: false,
    }));
    let end = |shape: Option<&str>, point: Option<Point>| End {
        port: None,
        shape: shape.map(str::to_string),
        point,
        head: ArrowHead::Diamond,
    };
    let nan = Point {
        x: f64::NAN,
        y: f64::NAN,
    };
    let connectors = [
        (end(Some("missing"), None), end(Some("n"), None)),
        (end(Some("c0"), None), end(Some("n"), None)), // attached to a connector
        (end(None, Some(nan)), end(Some("t"), None)),
        (end(Some("n"), None), end(Some("n"), None)), // zero-size self loop
        (
            end(None, Some(Point { x: 5.0, y: 5.0 })),
            end(None, Some(Point { x: 5.0, y: 5.0 })),
        ),
    ];
    for (i, (from, to)) in connectors.into_iter().enumerate() {
        page.shapes.push(Shape::Connector(Connector {
            id: format!("c{i}"),
            from,
            to,
            waypoints: vec![nan, Point { x: 5.0, y: 5.0 }, Point { x: 5.0, y: 5.0 }],
            stroke: Some(nasty_stroke),
            line: LineKind::Thick,
            label: Some(weird_text()),
            length: None,
            curved: false,
            classes: Vec::new(),
        }));
    }
    page.shapes.push(Shape::Image(Image {
        id: "i".into(),
        frame: Rect::new(0.0, 0.0, 10.0, 10.0),
        asset: "nowhere".into(),
        alt: None,
        link: Some("vbscript:x".into()),
    }));
    // Groups nested deeper than any validator allows.
    let mut group = Shape::Group(Group {
        shadow: false,
        classes: Vec::new(),
        id: "g0".into(),
        frame: bad_rect(),
        label: Some(weird_text()),
        fill: None,
        stroke: None,
        direction: None,
        children: Vec::new(),
    });
    for depth in 1..100 {
        group = Shape::Group(Group {
            shadow: false,
            classes: Vec::new(),
            id: format!("g{depth}"),
            frame: Rect::new(1.0, 1.0, 1.0, 1.0),
            label: None,
            fill: Some(Color::WHITE),
            stroke: None,
            direction: None,
            children: vec![group],
        });
    }
    page.shapes.push(group);
    doc.pages.push(page);
    // A second page with the same ids: links and connectors resolve per page.
    doc.pages.push(doc.pages[0].clone());
    doc.fields.push(Field {
        key: "ignored".into(),
        field_type: FieldType::Text,
        label: String::new(),
        required: false,
        page: 7,
        frame: bad_rect(),
        options: Vec::new(),
        value: None,
        look: None,
    });

    let out = export(doc, Vec::new());
    qpdf_accepts(&out.bytes, "hostile");
    let raw = String::from_utf8_lossy(&out.bytes);
    for refused in [
        "javascript:",
        "script:alert",
        "FILE:",
        "vbscript:",
        "NaN",
        " inf",
        "-inf",
    ] {
        assert!(!raw.contains(refused), "`{refused}` reached the PDF");
    }
    assert!(
        out.warnings.iter().any(|w| w.contains("picture `nowhere`")),
        "{:?}",
        out.warnings
    );
    assert!(
        out.warnings.iter().any(|w| w.contains("🦀")),
        "{:?}",
        out.warnings
    );
}

#[test]
fn damaged_pictures_become_grey_boxes() {
    let png =
        std::fs::read(quire_sdk::corpus_dir().join("images/pngsuite-basn6a16-16bit-rgba.png"))
            .unwrap();
    let jpeg = std::fs::read(quire_sdk::corpus_dir().join("images/photo-cmyk.jpg")).unwrap();
    let mut assets = Vec::new();
    let mut page = Page::new(300.0, 300.0);
    let cuts = [10, 40, 100, png.len() / 2, png.len() - 20];
    for (i, cut) in cuts.iter().enumerate() {
        assets.push(Asset {
            name: format!("png{i}"),
            media_type: "image/png".into(),
            bytes: png[..*cut].to_vec(),
        });
        assets.push(Asset {
            name: format!("jpg{i}"),
            media_type: "image/jpeg".into(),
            bytes: jpeg[..(*cut).min(jpeg.len())].to_vec(),
        });
    }
    let mut flipped = png.clone();
    for b in flipped.iter_mut().skip(60).step_by(7) {
        *b ^= 0xA5;
    }
    assets.push(Asset {
        name: "flipped".into(),
        media_type: "image/png".into(),
        bytes: flipped,
    });
    assets.push(Asset {
        name: "gif".into(),
        media_type: "image/gif".into(),
        bytes: b"GIF89a....".to_vec(),
    });
    for (i, a) in assets.iter().enumerate() {
        let frame = Rect::new((i % 6) as f64 * 50.0, (i / 6) as f64 * 50.0, 40.0, 40.0);
        page.shapes.push(Shape::Image(Image {
            id: format!("i{i}"),
            frame,
            asset: a.name.clone(),
            alt: None,
            link: None,
        }));
    }
    let mut doc = Document::new(Kind::Paged);
    doc.pages.push(page);
    let out = export(doc, assets);
    qpdf_accepts(&out.bytes, "damaged-pictures");
    // Every cut-short picture, the scrambled PNG and the GIF are unreadable.
    let names = [
        "png0", "png1", "png2", "png3", "png4", "jpg0", "jpg1", "jpg2", "jpg3", "jpg4", "flipped",
        "gif",
    ];
    assert_eq!(out.warnings.len(), names.len(), "{:?}", out.warnings);
    for name in names {
        assert!(
            out.warnings
                .iter()
                .any(|w| w.starts_with(&format!("picture `{name}` could not be read"))),
            "no warning for {name}: {:?}",
            out.warnings
        );
    }
}
