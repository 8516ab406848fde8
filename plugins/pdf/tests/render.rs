//! End-to-end checks of the PDF exporter with the tools people open PDFs with: models built
//! by hand, exported, then checked by `qpdf --check` (structure), `pdftotext` (the words
//! come out, in order) and `pdftoppm` (it renders, and the pixels are where they should be).
//!
//! The tools come from Debian's `qpdf` and `poppler-utils`; `make test` installs them. The
//! PDFs and renders stay in `target/tmp/quire-pdf/` to be looked at.

use std::path::{Path, PathBuf};
use std::process::Command;

use quire_sdk::*;

const CORPUS: &str = "/work/shared/corpus/images";

fn out_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("quire-pdf");
    std::fs::create_dir_all(&dir).expect("create the output directory");
    dir
}

/// Runs an external tool, failing the test with a clear message when it is not installed.
fn tool(name: &str, args: &[&str]) -> std::process::Output {
    Command::new(name).args(args).output().unwrap_or_else(|e| {
        panic!(
            "`{name}` could not be run ({e}). These tests need qpdf and poppler-utils: \
             `apt-get install -y qpdf poppler-utils` (make test installs them)"
        )
    })
}

fn asset(name: &str, file: &str, media_type: &str) -> Asset {
    let path = format!("{CORPUS}/{file}");
    Asset {
        name: name.into(),
        media_type: media_type.into(),
        bytes: std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}")),
    }
}

fn request(document: Document, assets: Vec<Asset>) -> ExportRequest {
    ExportRequest {
        document,
        assets,
        media_type: "application/pdf".into(),
        page: None,
        dpi: None,
        options: Vec::new(),
    }
}

/// Exports, writes `name.pdf`, and checks the structure with qpdf.
fn export_checked(req: &ExportRequest, name: &str) -> (PathBuf, Exported) {
    let names: Vec<&str> = req.assets.iter().map(|a| a.name.as_str()).collect();
    quire_sdk::validate::check(&req.document, names).expect("the test model is valid");
    let out = quire_pdf::export_pdf(req).expect("export");
    assert_eq!(out.media_type, "application/pdf");
    let path = out_dir().join(format!("{name}.pdf"));
    std::fs::write(&path, &out.bytes).unwrap();
    let check = tool("qpdf", &["--check", path.to_str().unwrap()]);
    assert!(
        check.status.success(),
        "qpdf --check {name}.pdf failed:\n{}{}",
        String::from_utf8_lossy(&check.stdout),
        String::from_utf8_lossy(&check.stderr)
    );
    (path, out)
}

fn text_of(path: &Path, page: Option<u32>) -> String {
    let mut args = vec![];
    let p = page.map(|p| p.to_string());
    if let Some(p) = &p {
        args.extend(["-f", p.as_str(), "-l", p.as_str()]);
    }
    args.extend([path.to_str().unwrap(), "-"]);
    let out = tool("pdftotext", &args);
    assert!(
        out.status.success(),
        "pdftotext: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// pdfinfo's report with runs of spaces squashed, so lines compare as "Pages: 2".
fn pdfinfo(args: &[&str]) -> String {
    let out = tool("pdfinfo", args);
    assert!(
        out.status.success(),
        "pdfinfo: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Asserts that `words` appear in `text` in this order.
fn assert_in_order(text: &str, words: &[&str]) {
    let mut from = 0;
    for w in words {
        match text[from..].find(w) {
            Some(i) => from += i + w.len(),
            None => panic!("`{w}` missing (or out of order) after byte {from} of:\n{text}"),
        }
    }
}

/// A rendered page as RGB pixels.
struct Raster {
    width: usize,
    height: usize,
    rgb: Vec<u8>,
}

impl Raster {
    fn at(&self, x: usize, y: usize) -> [u8; 3] {
        let i = (y * self.width + x) * 3;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }
}

/// Renders one page with pdftoppm: a PNG to look at, and a PPM to read pixels from.
fn render(path: &Path, page: u32, dpi: u32) -> Raster {
    let stem = path.with_extension("");
    let prefix = format!("{}-p{page}", stem.display());
    let (p, r) = (page.to_string(), dpi.to_string());
    let pdf = path.to_str().unwrap();
    // With no format option pdftoppm writes PPM.
    for format in [&["-png"][..], &[]] {
        let mut args = vec!["-r", &r, "-f", &p, "-l", &p, "-singlefile"];
        args.extend_from_slice(format);
        args.extend([pdf, &prefix]);
        let out = tool("pdftoppm", &args);
        assert!(
            out.status.success() && out.stderr.is_empty(),
            "pdftoppm {format:?} page {page}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let ppm = std::fs::read(format!("{prefix}.ppm")).expect("pdftoppm wrote a PPM");
    // Binary PPM: "P6\n<w> <h>\n255\n" then RGB bytes.
    let mut fields = Vec::new();
    let mut pos = 0;
    while fields.len() < 4 {
        while ppm[pos].is_ascii_whitespace() {
            pos += 1;
        }
        let start = pos;
        while !ppm[pos].is_ascii_whitespace() {
            pos += 1;
        }
        fields.push(String::from_utf8_lossy(&ppm[start..pos]).into_owned());
    }
    let (width, height) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
    Raster {
        width,
        height,
        rgb: ppm[pos + 1..].to_vec(),
    }
}

fn run(text: &str, font: FontFamily, size: f64) -> Run {
    Run {
        font,
        ..Run::plain(text, size)
    }
}

fn text_box(id: &str, frame: Rect, runs: Vec<Run>, align: Align) -> Shape {
    Shape::Text(TextBox {
        id: id.into(),
        frame,
        text: Text {
            runs,
            align,
            ..Text::default_layout()
        },
        fill: None,
        stroke: None,
    })
}

/// Page 1: text in several fonts, decorations, links, characters outside WinAnsi.
/// Page 2: a page that page 1 links to, rotated, with a coloured background.
fn text_document() -> Document {
    let mut doc = Document::new(Kind::Pdf);
    doc.title = Some("Quire PDF – text test".into());
    let mut p1 = Page::new(595.0, 842.0);
    let title = Run {
        bold: true,
        ..run("Quarterly Report", FontFamily::Helvetica, 24.0)
    };
    p1.shapes.push(text_box(
        "title",
        Rect::new(50.0, 50.0, 495.0, 40.0),
        vec![title],
        Align::Center,
    ));

    let mut link = run("the Quire website", FontFamily::Times, 12.0);
    link.link = Some("https://example.com/quire".into());
    link.underline = true;
    link.color = Some(Color::rgb(0, 0, 200));
    let para = vec![
        run(
            "Alpha paragraph in Times roman with ",
            FontFamily::Times,
            12.0,
        ),
        Run {
            italic: true,
            ..run("italic words", FontFamily::Times, 12.0)
        },
        run(", ", FontFamily::Times, 12.0),
        Run {
            bold: true,
            italic: true,
            ..run("bold italic words", FontFamily::Times, 12.0)
        },
        run(", and a link to ", FontFamily::Times, 12.0),
        link,
        run(
            " that wraps onto several lines because the box is narrow enough to force it.",
            FontFamily::Times,
            12.0,
        ),
    ];
    p1.shapes.push(text_box(
        "para",
        Rect::new(50.0, 110.0, 300.0, 120.0),
        para,
        Align::Justify,
    ));

    let code = run(
        "let bravo = charlie(42);\nreturn delta;",
        FontFamily::Courier,
        10.0,
    );
    p1.shapes.push(Shape::Text(TextBox {
        id: "code".into(),
        frame: Rect::new(50.0, 250.0, 300.0, 40.0),
        text: Text {
            runs: vec![code],
            ..Text::default_layout()
        },
        fill: Some(Color::rgb(0xee, 0xee, 0xee)),
        stroke: Some(Stroke::solid(Color::rgb(0x88, 0x88, 0x88), 0.5)),
    }));

    let mut goto = run("Go to echo page", FontFamily::Helvetica, 11.0);
    goto.link = Some("#page=2".into());
    let struck = Run {
        strike: true,
        color: Some(Color::rgb(200, 0, 0)),
        ..run("foxtrot struck", FontFamily::Helvetica, 11.0)
    };
    p1.shapes.push(text_box(
        "goto",
        Rect::new(50.0, 310.0, 495.0, 20.0),
        vec![goto],
        Align::Right,
    ));
    p1.shapes.push(text_box(
        "struck",
        Rect::new(50.0, 340.0, 495.0, 20.0),
        vec![struck],
        Align::Left,
    ));
    let cjk = run("golf 中文 hotel € café", FontFamily::Helvetica, 11.0);
    p1.shapes.push(text_box(
        "cjk",
        Rect::new(50.0, 370.0, 495.0, 20.0),
        vec![cjk],
        Align::Left,
    ));
    let mut bottom = Text {
        runs: vec![run("india bottom right", FontFamily::Helvetica, 11.0)],
        ..Text::default_layout()
    };
    bottom.align = Align::Right;
    bottom.valign = VAlign::Bottom;
    p1.shapes.push(Shape::Text(TextBox {
        id: "bottom".into(),
        frame: Rect::new(50.0, 400.0, 495.0, 60.0),
        text: bottom,
        fill: None,
        stroke: Some(Stroke {
            color: Color::rgb(0, 128, 0),
            width: 1.0,
            dash: Dash::Dashed,
        }),
    }));
    let sym = Run {
        font: FontFamily::Symbol,
        ..Run::plain("αβγ", 14.0)
    };
    let dings = Run {
        font: FontFamily::ZapfDingbats,
        ..Run::plain("4", 14.0)
    };
    p1.shapes.push(text_box(
        "sym",
        Rect::new(50.0, 480.0, 200.0, 20.0),
        vec![sym, dings],
        Align::Left,
    ));
    doc.pages.push(p1);

    let mut p2 = Page::new(400.0, 300.0);
    p2.rotate = 90;
    p2.background = Some(Color::rgb(0xff, 0xee, 0x99));
    p2.shapes.push(text_box(
        "echo",
        Rect::new(20.0, 20.0, 360.0, 30.0),
        vec![run("Echo page", FontFamily::Helvetica, 18.0)],
        Align::Left,
    ));
    doc.pages.push(p2);
    doc
}

#[test]
fn text_is_real_text_in_reading_order() {
    let (path, out) = export_checked(&request(text_document(), Vec::new()), "text");
    let text = text_of(&path, Some(1));
    assert_in_order(
        &text,
        &[
            "Quarterly Report",
            "Alpha paragraph",
            "italic words",
            "bold italic",
            "the Quire website",
            "force it.",
            "let bravo = charlie(42);",
            "return delta;",
            "Go to echo page",
            "foxtrot struck",
            "golf ?? hotel € café",
            "india bottom right",
        ],
    );
    assert_in_order(&text_of(&path, Some(2)), &["Echo page"]);

    // One warning for the characters outside WinAnsi, naming them.
    assert_eq!(out.warnings.len(), 1, "{:?}", out.warnings);
    assert!(out.warnings[0].contains("中, 文"), "{}", out.warnings[0]);
    assert!(out.warnings[0].starts_with("characters outside the standard PDF fonts were replaced"));

    // Links are annotations with the URL and a jump to the second page; the fonts are the
    // standard ones in WinAnsi (Symbol keeps its own encoding).
    let raw = String::from_utf8_lossy(&out.bytes);
    assert!(
        raw.contains("/URI (https://example.com/quire)"),
        "no URI link"
    );
    assert!(raw.contains("/S /GoTo"), "no internal link");
    for font in [
        "Helvetica-Bold",
        "Times-Roman",
        "Times-Italic",
        "Times-BoldItalic",
        "Courier",
        "Symbol",
        "ZapfDingbats",
    ] {
        assert!(
            raw.contains(&format!("/BaseFont /{font}")),
            "{font} missing"
        );
    }
    assert!(raw.contains("/WinAnsiEncoding"));
    assert!(
        raw.contains("/Producer (Quire)") && raw.contains("/Title <FEFF"),
        "document info"
    );
    assert!(!raw.contains("/CreationDate") && !raw.contains("/ID"));

    let info = pdfinfo(&["-f", "1", "-l", "2", path.to_str().unwrap()]);
    assert!(info.contains("Pages: 2"), "{info}");
    assert!(info.contains("Page 2 rot: 90"), "{info}");

    // Page 1 renders; the centred bold title puts ink around the middle of its box.
    let r = render(&path, 1, 50);
    assert_eq!((r.width, r.height), (414, 585));
    let rows = (50.0 * 50.0 / 72.0) as usize..(90.0 * 50.0 / 72.0) as usize;
    let ink = (0..r.width)
        .filter(|&x| rows.clone().any(|y| r.at(x, y)[0] < 128))
        .collect::<Vec<_>>();
    assert!(!ink.is_empty(), "no title ink in rows {rows:?}");
    let mid = (ink[0] + ink[ink.len() - 1]) / 2;
    assert!(
        (mid as i64 - r.width as i64 / 2).abs() < 6,
        "title not centred: {mid}"
    );

    // Page 2 is rotated (landscape 400x300 shown portrait) on its yellow background.
    let r = render(&path, 2, 36);
    assert_eq!((r.width, r.height), (150, 200));
    assert_eq!(r.at(75, 100), [0xff, 0xee, 0x99]);
}

#[test]
fn output_is_deterministic_and_one_page_can_be_chosen() {
    let req = request(text_document(), Vec::new());
    let a = quire_pdf::export_pdf(&req).unwrap();
    let b = quire_pdf::export_pdf(&req).unwrap();
    assert_eq!(a.bytes, b.bytes);

    let mut one = request(text_document(), Vec::new());
    one.page = Some(2);
    let (path, out) = export_checked(&one, "page-2");
    let info = pdfinfo(&[path.to_str().unwrap()]);
    assert!(info.contains("Pages: 1"), "{info}");
    assert!(text_of(&path, None).contains("Echo page"));
    assert!(
        out.warnings.is_empty(),
        "page 2 has no lossy text: {:?}",
        out.warnings
    );

    for bad in [0, 3, 99] {
        let mut req = request(text_document(), Vec::new());
        req.page = Some(bad);
        match quire_pdf::export_pdf(&req) {
            Err(ConvertError::InvalidRequest(m)) => {
                assert!(
                    m.contains(&format!("page {bad}")) && m.contains("2 pages"),
                    "{m}"
                )
            }
            other => panic!("page {bad}: {other:?}"),
        }
    }
}

fn image(id: &str, frame: Rect, asset: &str) -> Shape {
    Shape::Image(Image {
        id: id.into(),
        frame,
        asset: asset.into(),
        alt: None,
        link: None,
    })
}

#[test]
fn pictures_png_and_jpeg_embed_and_a_broken_one_is_a_grey_box() {
    let mut doc = Document::new(Kind::Pdf);
    let mut page = Page::new(600.0, 500.0);
    page.background = Some(Color::rgb(0x30, 0x60, 0x90));
    let pngs = [
        ("gray1", "pngsuite-basn0g01-1bit-gray.png"),
        ("pal4", "pngsuite-basn3p04-4bit-palette.png"),
        ("rgba16", "pngsuite-basn6a16-16bit-rgba.png"),
        ("rgb8", "pngsuite-ftbrn2c08-bkgd.png"),
        ("interlaced", "pngsuite-ibasn6a08-interlaced-rgba.png"),
    ];
    let mut assets = Vec::new();
    for (i, (name, file)) in pngs.iter().enumerate() {
        page.shapes.push(image(
            name,
            Rect::new(20.0 + i as f64 * 110.0, 20.0, 96.0, 96.0),
            name,
        ));
        assets.push(asset(name, file, "image/png"));
    }
    page.shapes
        .push(image("cmyk", Rect::new(20.0, 140.0, 160.0, 170.0), "cmyk"));
    assets.push(asset("cmyk", "photo-cmyk.jpg", "image/jpeg"));
    // 4032 x 3024 stored, EXIF orientation 6: upright it is portrait.
    page.shapes.push(image(
        "phone",
        Rect::new(200.0, 140.0, 120.0, 160.0),
        "phone",
    ));
    assets.push(asset(
        "phone",
        "form-patient-intake-photo.jpg",
        "image/jpeg",
    ));
    page.shapes
        .push(image("scan", Rect::new(340.0, 140.0, 120.0, 155.0), "scan"));
    assets.push(asset("scan", "scan-linn-brochure.png", "image/png"));
    page.shapes.push(image(
        "broken",
        Rect::new(480.0, 140.0, 100.0, 100.0),
        "broken",
    ));
    assets.push(Asset {
        name: "broken".into(),
        media_type: "image/png".into(),
        bytes: b"\x89PNG\r\n\x1a\nnot really".to_vec(),
    });
    page.shapes.push(image(
        "broken-again",
        Rect::new(480.0, 260.0, 100.0, 100.0),
        "broken",
    ));
    doc.pages.push(page);

    let (path, out) = export_checked(&request(doc, assets), "pictures");
    assert_eq!(
        out.warnings.len(),
        1,
        "one warning per unreadable picture: {:?}",
        out.warnings
    );
    assert!(
        out.warnings[0].starts_with("picture `broken` could not be read"),
        "{}",
        out.warnings[0]
    );

    let list = tool("pdfimages", &["-list", path.to_str().unwrap()]);
    let list = String::from_utf8_lossy(&list.stdout);
    for needle in ["jpeg", "cmyk", "smask", "index", "gray"] {
        assert!(
            list.contains(needle),
            "pdfimages lists no {needle}:\n{list}"
        );
    }

    let r = render(&path, 1, 72);
    // The grey stand-in: light grey off its cross, darker grey on the diagonal.
    let px = r.at(530, 160);
    assert!(
        px.iter().all(|c| (0xd8..=0xf0).contains(c)),
        "grey box: {px:?}"
    );
    // The 16-bit RGBA picture lets the blue background through where it is transparent.
    let seen: Vec<[u8; 3]> = (0..96).map(|i| r.at(240 + i, 20 + i)).collect();
    assert!(
        seen.iter().any(|p| p == &[0x30, 0x60, 0x90]) || seen.iter().any(|p| p[2] > p[0]),
        "no transparency"
    );
    // The CMYK photo is not a negative: its pixels are not mostly dark.
    let mean: u32 = (0..150)
        .map(|i| r.at(25 + i, 145 + i).iter().map(|c| *c as u32).sum::<u32>())
        .sum::<u32>()
        / 450;
    assert!(mean > 60, "the CMYK JPEG looks inverted (mean {mean})");
}

fn node(id: &str, frame: Rect, geometry: Geometry, label: &str) -> Shape {
    let mut text = Text::plain(label, 9.0);
    text.align = Align::Center;
    text.valign = VAlign::Middle;
    Shape::Node(Node {
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

#[test]
fn rejects_other_media_types() {
    let mut req = request(text_document(), Vec::new());
    req.media_type = "image/svg+xml".into();
    assert!(matches!(
        quire_pdf::export_pdf(&req),
        Err(ConvertError::Unsupported(_))
    ));
}

#[test]
fn describes_itself() {
    use quire_sdk::Converter;
    let info = quire_pdf::Pdf::describe();
    assert_eq!(
        (info.name.as_str(), info.version.as_str()),
        ("pdf", "1.0.0")
    );
    assert_eq!(info.exports, vec![Format::new("application/pdf", "pdf")]);
    assert!(info.imports.is_empty());
}
