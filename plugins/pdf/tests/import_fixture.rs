//! The importer on `fixtures/import-report.pdf`, written by reportlab (see
//! `fixtures/make_fixtures.py`): fonts mapped to the nearest standard face, two justified
//! columns read column by column, a table, vector drawings, a picture, turned text, a page
//! with `/Rotate 90`, Courier text, invisible text.

mod import_support;

use import_support::*;
use quire_sdk::*;

fn report() -> Imported {
    import(read(&format!("{FIXTURES}/import-report.pdf")), &[]).expect("the report imports")
}

fn boxes(page: &Page) -> Vec<&TextBox> {
    page.shapes
        .iter()
        .filter_map(|s| match s {
            Shape::Text(t) => Some(t),
            _ => None,
        })
        .collect()
}

fn run_with<'d>(doc: &'d Document, needle: &str) -> &'d Run {
    doc.shapes()
        .filter_map(|s| match s {
            Shape::Text(t) => Some(t),
            _ => None,
        })
        .flat_map(|t| &t.text.runs)
        .find(|r| r.text.contains(needle))
        .unwrap_or_else(|| panic!("no run holds `{needle}`"))
}

#[test]
fn fonts_map_to_the_nearest_standard_face() {
    let imported = report();
    let doc = &imported.document;
    let cases = [
        // Embedded TrueType subset, named by its program.
        ("A Study of Imported Text", FontFamily::Times, true, false),
        ("Quire Engineering", FontFamily::Helvetica, false, true),
        // Standard Type 1 fonts, told apart by matching widths against the page's fonts.
        ("The portable document", FontFamily::Times, false, false),
        ("editable text", FontFamily::Times, true, false),
        ("gap heuristic", FontFamily::Times, false, true),
        ("Revenue", FontFamily::Helvetica, true, false),
        ("38,120.50", FontFamily::Helvetica, false, false),
        ("println", FontFamily::Courier, false, false),
        ("items.iter()", FontFamily::Courier, false, false),
    ];
    for (needle, family, bold, italic) in cases {
        let r = run_with(doc, needle);
        assert_eq!(
            (r.font, r.bold, r.italic),
            (family, bold, italic),
            "`{needle}` is in {r:?}"
        );
    }
    assert_eq!(run_with(doc, "A Study").size, 20.0);
    assert_eq!(run_with(doc, "The portable").size, 10.0);
    // The Symbol-font line reads as three black squares to hayro and poppler alike
    // (reportlab names no Unicode for it); WinAnsi has no square, so the face that has
    // one draws it.
    let squares = run_with(doc, "\u{25a0}\u{25a0}\u{25a0}");
    assert_eq!(squares.font, FontFamily::ZapfDingbats);
}

#[test]
fn columns_read_in_order_and_paragraphs_are_boxes() {
    let imported = report();
    let page = &imported.document.pages[0];
    let texts: Vec<String> = boxes(page).iter().map(|b| b.text.plain_text()).collect();
    let all = texts.join("\n");
    let order = [
        "A Study of Imported Text",
        "The portable document format",
        "merely kerns tightly.",
        "This column is justified",
        "Academic papers set their body",
        "must survive the round trip intact.",
        "Region",
    ];
    let mut rest = all.as_str();
    for w in order {
        (_, rest) = rest
            .split_once(w)
            .unwrap_or_else(|| panic!("`{w}` missing or out of order in:\n{all}"));
    }
    // A paragraph is one box laid out exactly where it was. reportlab justified all four
    // (TA_JUSTIFY): each flows as one justified paragraph, without hard breaks.
    let para = boxes(page)
        .into_iter()
        .find(|b| b.text.plain_text().starts_with("The portable"))
        .unwrap();
    let laid = layout::layout_text(&para.text, para.frame.w);
    assert_eq!(laid.len(), 6, "{:?}", para.text.plain_text());
    assert!(!para.text.plain_text().contains('\n'));
    let justified = boxes(page)
        .iter()
        .filter(|b| b.text.align == Align::Justify)
        .count();
    assert_eq!(justified, 4);
    // reportlab's first baseline: frame top 841.89 - 110 - 6 padding - 10 ascent-ish;
    // the box places it where pdftotext's bbox puts the line, within a point.
    let spacing = laid[1].baseline - laid[0].baseline;
    assert!((spacing - 12.5).abs() < 0.01, "leading {spacing}");
    // No box of hard-broken lines is laid out wider than its frame: nothing is wrapped
    // again.
    for b in boxes(page)
        .iter()
        .filter(|b| b.text.align != Align::Justify)
    {
        let lines = layout::layout_text(&b.text, b.frame.w);
        let hard = b.text.plain_text().matches('\n').count() + 1;
        assert_eq!(lines.len(), hard, "{:?} wraps again", b.text.plain_text());
    }
}

#[test]
fn text_sits_where_poppler_sees_it() {
    let imported = report();
    let page = &imported.document.pages[0];
    let out = tool(
        "pdftotext",
        &[
            "-bbox",
            "-f",
            "1",
            "-l",
            "1",
            &format!("{FIXTURES}/import-report.pdf"),
            "-",
        ],
    );
    let html = String::from_utf8_lossy(&out.stdout);
    // <word xMin="56.000000" yMin="..." xMax=... yMax=...>Study</word>
    let word = html
        .lines()
        .find(|l| l.ends_with(">Study</word>"))
        .expect("pdftotext -bbox lists `Study`");
    let attr = |name: &str| -> f64 {
        let (_, value) = word.split_once(&format!("{name}=\"")).unwrap();
        value.split('"').next().unwrap().parse().unwrap()
    };
    let title = boxes(page)
        .into_iter()
        .find(|b| b.text.plain_text().starts_with("A Study"))
        .unwrap();
    // The title box starts where the line does, and its line box covers the word's.
    assert!((title.frame.x - 56.0).abs() < 0.01);
    assert!(title.frame.y <= attr("yMin") + 1.0 && title.frame.bottom() >= attr("yMax") - 1.0);
}

#[test]
fn drawings_pictures_and_turned_text() {
    let imported = report();
    let page = &imported.document.pages[0];
    let paths: Vec<&PathShape> = page
        .shapes
        .iter()
        .filter_map(|s| match s {
            Shape::Path(p) => Some(p),
            _ => None,
        })
        .collect();
    // The red disc, the blue curve, the dashed rule and the table's grid.
    assert!(paths
        .iter()
        .any(|p| p.fill == Some(Color::rgb(0xcc, 0x33, 0x22))
            && p.segments
                .iter()
                .any(|s| matches!(s, Segment::CubicTo { .. }))));
    assert!(paths.iter().any(|p| p
        .stroke
        .is_some_and(|s| s.color == Color::rgb(0x22, 0x44, 0xaa) && (s.width - 2.0).abs() < 1e-6)));
    assert!(paths
        .iter()
        .any(|p| p.stroke.is_some_and(|s| s.dash == Dash::Dashed)));
    assert!(paths
        .iter()
        .any(|p| p.fill == Some(Color::rgb(0xdd, 0xe4, 0xf0))));
    // The picture: 128 x 96 points, its bottom 720 pt below the top of the page.
    let img = page
        .shapes
        .iter()
        .find_map(|s| match s {
            Shape::Image(i) => Some(i),
            _ => None,
        })
        .expect("the picture");
    assert!((img.frame.x - 56.0).abs() < 0.01 && (img.frame.w - 128.0).abs() < 0.01);
    assert!(
        (img.frame.y - (720.0 - 96.0)).abs() < 0.05,
        "{:?}",
        img.frame
    );
    let asset = imported
        .assets
        .iter()
        .find(|a| a.name == img.asset)
        .unwrap();
    let mut reader = png::Decoder::new(std::io::Cursor::new(asset.bytes.clone()))
        .read_info()
        .unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let frame = reader.next_frame(&mut buf).unwrap();
    assert_eq!((frame.width, frame.height), (64, 48));
    // make_fixtures.py paints pixel (x, y) as (4x, 5y, 128).
    let px = |x: usize, y: usize| &buf[(y * 64 + x) * 3..(y * 64 + x) * 3 + 3];
    assert_eq!(px(10, 20), &[40, 100, 128]);
    // The turned margin note is outlines, and says so.
    assert!(imported
        .warnings
        .iter()
        .any(|w| w.contains("turned text were kept as outlines")));
    assert!(!model_text(&imported.document).contains("ARCHIVE"));
}

#[test]
fn a_page_meant_to_be_read_turned_is_turned_upright() {
    let imported = report();
    let doc = &imported.document;
    assert_eq!(doc.pages.len(), 3);
    // Stored 841.89 x 595.28 with /Rotate 90: shown portrait, its text upright.
    let p2 = &doc.pages[1];
    assert_eq!(p2.rotate, 0);
    assert!((p2.width - 595.28).abs() < 0.01 && (p2.height - 841.89).abs() < 0.01);
    let texts: Vec<String> = boxes(p2).iter().map(|b| b.text.plain_text()).collect();
    assert_eq!(texts[0], "Landscape summary");
    let title = boxes(p2)[0];
    assert!(
        title.frame.x < 100.0 && title.frame.y < 100.0,
        "{:?}",
        title.frame
    );
    // Page 3 is an ordinary page.
    assert_eq!(doc.pages[2].rotate, 0);
    assert_eq!(doc.title.as_deref(), Some("A Study of Imported Text"));
}

#[test]
fn the_report_survives_export() {
    let imported = report();
    let path = export_checked(&imported, "import-report.roundtrip");
    let oracle = words(&pdftotext(std::path::Path::new(&format!(
        "{FIXTURES}/import-report.pdf"
    ))));
    let exported = words(&pdftotext(&path));
    let share = in_order(&oracle, &exported);
    // Only the turned margin note (outlines) and pdftotext's order around the table differ.
    assert!(share >= 0.9, "{share:.3}\n{oracle:?}\n{exported:?}");
}

#[test]
fn invisible_text_stays_searchable_and_invisible() {
    let imported = report();
    let run = run_with(&imported.document, "Hidden searchable words");
    assert_eq!(run.color.map(|c| c.a), Some(0), "{run:?}");
    let path = export_checked(&imported, "import-report.hidden");
    let out = tool(
        "pdftotext",
        &["-f", "3", "-l", "3", path.to_str().unwrap(), "-"],
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("Hidden searchable words"));
    // At 72 dpi a pixel is a point: the line's place (x 56 to 190, baseline 230 pt below
    // the top) is blank paper.
    let page = render_grey(&path, 3, 72, "import-report.hidden");
    for y in 218..232 {
        for x in 56..190 {
            assert_eq!(page.pixels[y * page.width + x], 255, "ink at ({x}, {y})");
        }
    }
    // The same place in the listing above (the Courier lines) does have ink, so the test
    // looks at the right page.
    assert!((94..110).any(|y| (56..120).any(|x| page.pixels[y * page.width + x] < 128)));
}
