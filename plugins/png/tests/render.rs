//! The PNG exporter end to end: sizes for each dpi, text in all three families drawn where the
//! layout puts it, and agreement with the PDF exporter rendered by poppler's `pdftoppm` (from
//! Debian's `poppler-utils`, which `make test` installs). Pictures go to
//! `target/tmp/quire-png/`.

use std::path::{Path, PathBuf};
use std::process::Command;

use quire_sdk::layout::layout_text;
use quire_sdk::*;

fn out_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("quire-png");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A decoded picture, grey levels 0 (black) to 255 (white).
struct Grey {
    w: u32,
    h: u32,
    px: Vec<u8>,
}

impl Grey {
    fn decode(bytes: &[u8]) -> Grey {
        let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
        let mut reader = decoder.read_info().expect("a PNG");
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).expect("PNG pixels");
        let channels = info.color_type.samples();
        let px = buf[..info.buffer_size()]
            .chunks_exact(channels)
            .map(|p| match channels {
                1 | 2 => p[0],
                _ => ((p[0] as u32 * 299 + p[1] as u32 * 587 + p[2] as u32 * 114) / 1000) as u8,
            })
            .collect();
        Grey {
            w: info.width,
            h: info.height,
            px,
        }
    }

    fn at(&self, x: u32, y: u32) -> u8 {
        self.px[(y * self.w + x) as usize]
    }

    /// Pixels darker than mid-grey inside the rectangle `r` given in points at `dpi`.
    fn ink_in(&self, r: Rect, dpi: f64) -> Vec<(u32, u32)> {
        let s = dpi / 72.0;
        let (x0, y0) = ((r.x * s) as u32, (r.y * s) as u32);
        let x1 = ((r.right() * s).ceil() as u32).min(self.w);
        let y1 = ((r.bottom() * s).ceil() as u32).min(self.h);
        let mut ink = Vec::new();
        for y in y0..y1 {
            for x in x0..x1 {
                if self.at(x, y) < 128 {
                    ink.push((x, y));
                }
            }
        }
        ink
    }
}

fn bbox(points: &[(u32, u32)]) -> Option<(u32, u32, u32, u32)> {
    let x0 = points.iter().map(|p| p.0).min()?;
    let y0 = points.iter().map(|p| p.1).min()?;
    let x1 = points.iter().map(|p| p.0).max()?;
    let y1 = points.iter().map(|p| p.1).max()?;
    Some((x0, y0, x1, y1))
}

fn paragraph(id: &str, frame: Rect, font: FontFamily, words: &str) -> Shape {
    Shape::Text(TextBox {
        id: id.into(),
        frame,
        text: Text {
            runs: vec![
                Run {
                    font,
                    ..Run::plain(words, 12.0)
                },
                Run {
                    font,
                    bold: true,
                    ..Run::plain(" Bold words here.", 12.0)
                },
                Run {
                    font,
                    italic: true,
                    ..Run::plain(" Italic ones too.", 12.0)
                },
            ],
            ..Text::default_layout()
        },
        fill: None,
        stroke: None,
    })
}

/// Text boxes in Helvetica, Times and Courier, and a small diagram.
fn sample() -> Document {
    let mut doc = Document::new(Kind::Paged);
    let mut page = Page::new(612.0, 792.0);
    let words = "The quick brown fox jumps over the lazy dog while the well-known \
                 typesetter measures every line the same way.";
    page.shapes.push(paragraph(
        "sans",
        Rect::new(60.0, 60.0, 230.0, 120.0),
        FontFamily::Helvetica,
        words,
    ));
    page.shapes.push(paragraph(
        "serif",
        Rect::new(320.0, 60.0, 230.0, 120.0),
        FontFamily::Times,
        words,
    ));
    page.shapes.push(paragraph(
        "mono",
        Rect::new(60.0, 220.0, 490.0, 100.0),
        FontFamily::Courier,
        words,
    ));
    let mut label = Text::plain("Decision", 11.0);
    label.align = Align::Center;
    label.valign = VAlign::Middle;
    page.shapes.push(Shape::Node(Node {
        shadow: false,
        id: "n".into(),
        frame: Rect::new(80.0, 380.0, 160.0, 90.0),
        geometry: Geometry::Diamond,
        fill: Some(Color::rgb(0xcc, 0xdd, 0xff)),
        stroke: Some(Stroke::solid(Color::rgb(0x11, 0x22, 0x55), 2.0)),
        text: Some(label),
        classes: Vec::new(),
    }));
    page.shapes.push(Shape::Node(Node {
        shadow: false,
        id: "m".into(),
        frame: Rect::new(380.0, 390.0, 150.0, 70.0),
        geometry: Geometry::Cylinder,
        fill: Some(Color::rgb(0xff, 0xee, 0xcc)),
        stroke: Some(Stroke::solid(Color::rgb(0x55, 0x22, 0x11), 2.0)),
        text: Some(Text::plain("Store", 11.0)),
        classes: Vec::new(),
    }));
    page.shapes.push(Shape::Connector(Connector {
        id: "c".into(),
        from: End {
            port: None,
            shape: Some("n".into()),
            point: None,
            head: ArrowHead::None,
        },
        to: End {
            port: None,
            shape: Some("m".into()),
            point: None,
            head: ArrowHead::Arrow,
        },
        waypoints: Vec::new(),
        stroke: Some(Stroke::solid(Color::BLACK, 1.5)),
        line: LineKind::Normal,
        label: None,
        length: None,
        curved: false,
        classes: Vec::new(),
    }));
    doc.pages.push(page);
    doc
}

fn request(doc: Document, dpi: Option<u32>) -> ExportRequest {
    ExportRequest {
        dpi,
        ..ExportRequest::new(doc, Vec::new(), "image/png")
    }
}

fn export(req: &ExportRequest, name: &str) -> Grey {
    let out = quire_png::export_png(req).expect("export");
    assert_eq!(out.media_type, "image/png");
    std::fs::write(out_dir().join(format!("{name}.png")), &out.bytes).unwrap();
    Grey::decode(&out.bytes)
}

#[test]
fn size_follows_the_dpi_and_text_is_inked_where_it_was_laid_out() {
    let doc = sample();
    for (dpi, w, h) in [
        (None, 935, 1210),
        (Some(72), 612, 792),
        (Some(200), 1700, 2200),
    ] {
        let img = export(&request(doc.clone(), dpi), &format!("sample-{w}"));
        assert_eq!((img.w, img.h), (w, h), "dpi {dpi:?}");
    }
    let img = export(&request(doc.clone(), None), "sample");
    let dpi = 110.0;
    let s = dpi / 72.0;
    for shape in &doc.pages[0].shapes {
        let Shape::Text(t) = shape else { continue };
        let lines = layout_text(&t.text, t.frame.w);
        assert!(lines.len() >= 2, "{} wraps", t.id);
        for line in &lines {
            // Each laid-out line has ink between its top and its baseline's descent.
            let top = t.frame.y + line.baseline - 12.0 * 0.75;
            let band = Rect::new(t.frame.x, top, t.frame.w, 12.0);
            let ink = img.ink_in(band, dpi);
            assert!(ink.len() > 100, "{}: a line with no ink at y {top}", t.id);
            // ...and none right of where its width ends (the fonts keep to the metrics).
            let beyond = Rect::new(t.frame.x + line.width + 2.0, top, 20.0, 12.0);
            assert!(
                img.ink_in(beyond, dpi).is_empty(),
                "{}: ink past the line's end ({} pt)",
                t.id,
                line.width
            );
        }
        let below = lines.iter().map(|l| l.height).sum::<f64>() + 2.0;
        let after = Rect::new(t.frame.x, t.frame.y + below, t.frame.w, 10.0);
        assert!(img.ink_in(after, dpi).is_empty(), "{}: ink below", t.id);
    }
    // The diamond's fill at its centre, white paper in the margin.
    let grey = |c: Color| ((c.r as u32 * 299 + c.g as u32 * 587 + c.b as u32 * 114) / 1000) as u8;
    let fill = grey(Color::rgb(0xcc, 0xdd, 0xff));
    let centre = img.at((110.0 * s) as u32, (425.0 * s) as u32);
    assert!(centre.abs_diff(fill) <= 2, "{centre} vs {fill}");
    assert_eq!(img.at(10, 10), 255);
}

#[test]
fn dpi_and_page_are_checked() {
    let mut req = request(sample(), Some(201));
    let e = quire_png::export_png(&req).unwrap_err();
    assert_eq!(
        e,
        ConvertError::InvalidRequest("dpi must be at most 200".into())
    );
    req.dpi = Some(0);
    assert!(matches!(
        quire_png::export_png(&req),
        Err(ConvertError::InvalidRequest(_))
    ));
    req.dpi = None;
    req.page = Some(2);
    assert!(matches!(
        quire_png::export_png(&req),
        Err(ConvertError::InvalidRequest(m)) if m.contains("page 2")
    ));
    req.page = None;
    req.document.pages[0].width = 14_400.0;
    req.document.pages[0].height = 14_400.0;
    req.dpi = Some(200);
    assert!(matches!(
        quire_png::export_png(&req),
        Err(ConvertError::TooLarge(_))
    ));
    req.media_type = "image/svg+xml".into();
    assert!(matches!(
        quire_png::export_png(&req),
        Err(ConvertError::Unsupported(_))
    ));
}

/// A fontconfig file that gives poppler our embedded fonts for the standard-14 names it
/// substitutes (the PDF does not embed them), so the comparison does not depend on which
/// fonts the machine happens to have.
fn fontconfig() -> PathBuf {
    let fonts = Path::new(env!("CARGO_MANIFEST_DIR")).join("fonts");
    let alias = |from: &str, to: &str| {
        format!(
            "<alias binding=\"same\"><family>{from}</family>\
             <prefer><family>{to}</family></prefer></alias>"
        )
    };
    let conf = format!(
        "<?xml version=\"1.0\"?><fontconfig><dir>{}</dir><cachedir>{}</cachedir>{}{}{}</fontconfig>",
        fonts.display(),
        out_dir().join("fontconfig-cache").display(),
        alias("Helvetica", "Liberation Sans"),
        alias("Times", "Liberation Serif"),
        alias("Courier", "Liberation Mono"),
    );
    let path = out_dir().join("fonts.conf");
    std::fs::write(&path, conf).unwrap();
    path
}

/// The same model through the PDF exporter and poppler at the same resolution.
fn pdf_render(doc: &Document, name: &str) -> Grey {
    let mut req = request(doc.clone(), None);
    req.media_type = "application/pdf".into();
    let pdf = quire_pdf::export_pdf(&req).expect("PDF export");
    let path = out_dir().join(format!("{name}.pdf"));
    std::fs::write(&path, &pdf.bytes).unwrap();
    let prefix = out_dir().join(format!("{name}-poppler"));
    let status = Command::new("pdftoppm")
        .env("FONTCONFIG_FILE", fontconfig())
        .args(["-r", "110", "-png", "-singlefile"])
        .arg(&path)
        .arg(&prefix)
        .status()
        .unwrap_or_else(|e| {
            panic!("pdftoppm could not be run ({e}): apt-get install -y poppler-utils")
        });
    assert!(status.success());
    let png = std::fs::read(prefix.with_extension("png")).unwrap();
    Grey::decode(&png)
}

#[test]
fn png_agrees_with_the_pdf_rendered_by_poppler() {
    assert_agrees(&sample(), "agreement");
}

/// Paragraphs in scripts the standard fonts lack: shaped Arabic (right to left), Devanagari
/// conjuncts, Chinese, Greek, a missing-glyph box, and Latin with kerning pairs (the PDF draws
/// no kerning, so neither may the PNG). The PNG draws the library's outlines,
/// poppler the PDF's embedded subsets of the same faces; both must put the same ink in the
/// same places.
#[test]
fn text_in_other_scripts_is_drawn_as_the_pdf_draws_it() {
    let library = quire_fonts::Library::open(&quire_fonts::Library::default_roots());
    assert!(
        library.len() > 100,
        "the default fonts are missing: `make fonts` installs them"
    );
    quire_sdk::fonts::install(Box::new(library));
    let mut doc = Document::new(Kind::Paged);
    let mut page = Page::new(612.0, 792.0);
    let texts = [
        ("arabic", "يولد جميع الناس أحرارًا متساوين في الكرامة والحقوق (المادة 1)."),
        ("hindi", "सभी मनुष्यों को गौरव और अधिकारों के मामले में जन्मजात स्वतन्त्रता प्राप्त है।"),
        ("chinese", "人人生而自由，在尊严和权利上一律平等。他们赋有理性和良心，并应以兄弟关系的精神相对待。"),
        ("greek", "Όλοι οι άνθρωποι γεννιούνται ελεύθεροι και ίσοι στην αξιοπρέπεια και τα δικαιώματα."),
        ("boxed", "A private-use character \u{F0000} has no font."),
        // Polish: standard pieces between library ones, ending in kerning pairs a renderer
        // would pull together.
        ("kerned", "ZWAŻYWSZY, że AVAVAVAV WAWAWA YAYAYA"),
    ];
    for (i, (id, words)) in texts.iter().enumerate() {
        let frame = Rect::new(60.0, 60.0 + i as f64 * 110.0, 300.0, 100.0);
        let mut text = Text::plain(*words, 14.0);
        text.align = Align::Left;
        page.shapes.push(Shape::Text(TextBox {
            id: (*id).into(),
            frame,
            text,
            fill: None,
            stroke: None,
        }));
    }
    doc.pages.push(page);
    let out = quire_png::export_png(&request(doc.clone(), None)).expect("export");
    assert!(
        out.warnings
            .iter()
            .any(|w| w.contains("empty boxes") && w.contains('\u{F0000}')),
        "{:?}",
        out.warnings
    );
    assert_agrees(&doc, "scripts");
}

/// Our PNG of `doc` and poppler's rendering of our PDF of it put the same ink in each text
/// box: same extent (a different line break would move the right edge or the bottom by a
/// word or a line), and nearly every inked pixel of ours inked in theirs.
fn assert_agrees(doc: &Document, name: &str) {
    let ours = export(&request(doc.clone(), None), name);
    let theirs = pdf_render(doc, name);
    assert_eq!((ours.w, ours.h), (theirs.w, theirs.h));

    let mad = ours
        .px
        .iter()
        .zip(&theirs.px)
        .map(|(a, b)| a.abs_diff(*b) as u64)
        .sum::<u64>() as f64
        / ours.px.len() as f64;
    eprintln!("mean absolute grey difference: {mad:.3}");
    assert!(mad < 2.0, "mean absolute difference {mad:.3} of 255");

    // Text agrees box by box: the ink of each paragraph starts and ends at the same place
    // (a different line break would move the right edge or the bottom by a word or a line).
    let dpi = 110.0;
    for shape in &doc.pages[0].shapes {
        let Shape::Text(t) = shape else { continue };
        let area = Rect::new(
            t.frame.x - 4.0,
            t.frame.y - 4.0,
            t.frame.w + 8.0,
            t.frame.h + 8.0,
        );
        let a = bbox(&ours.ink_in(area, dpi)).expect("ink in our PNG");
        let b = bbox(&theirs.ink_in(area, dpi)).expect("ink in poppler's render");
        eprintln!("{}: ours {a:?}, poppler {b:?}", t.id);
        for (p, q) in [(a.0, b.0), (a.1, b.1), (a.2, b.2), (a.3, b.3)] {
            assert!(p.abs_diff(q) <= 3, "{}: {a:?} vs {b:?}", t.id);
        }
        // Most inked pixels of ours have ink within a pixel in poppler's.
        let ink = ours.ink_in(area, dpi);
        let near = ink
            .iter()
            .filter(|&&(x, y)| {
                (x.saturating_sub(1)..=x + 1)
                    .any(|xx| (y.saturating_sub(1)..=y + 1).any(|yy| theirs.at(xx, yy) < 160))
            })
            .count();
        let share = near as f64 / ink.len() as f64;
        assert!(share > 0.9, "{}: only {share:.2} of the ink agrees", t.id);
    }
}
