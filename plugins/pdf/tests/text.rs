//! Text end to end: fonts, decorations, links, alignment, characters outside WinAnsi,
//! page selection, rotation, background, determinism. Checked with qpdf, pdftotext,
//! pdfinfo and pdftoppm.

mod common;

use common::*;
use quire_sdk::*;

/// Page 1: text in several fonts, decorations, links, characters outside WinAnsi.
/// Page 2: a page that page 1 links to, rotated, with a coloured background.
fn text_document() -> Document {
    let mut doc = Document::new(Kind::Paged);
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
    assert!(out.warnings[0].starts_with("characters the fonts at hand cannot draw were replaced"));

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
        ("pdf", "1.6.4")
    );
    assert_eq!(info.exports, vec![Format::new("application/pdf", "pdf")]);
    // The importer (tests/import_*.rs) reads the same format.
    assert_eq!(info.imports, vec![Format::new("application/pdf", "pdf")]);
}
