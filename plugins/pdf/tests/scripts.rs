//! Text in scripts beyond Latin, exported natively with the host's font library installed
//! (as the component gets it through the `fonts` import): shaped, in bidi order, embedded,
//! and read back by pdftotext and pdffonts.

mod common;

use std::process::Command;

use common::*;
use quire_sdk::fonts;
use quire_sdk::layout::layout_text;
use quire_sdk::*;

fn with_fonts() {
    quire_fonts::install_default_library();
}

fn paragraph(s: &str) -> Text {
    Text {
        runs: vec![run(s, FontFamily::Helvetica, 12.0)],
        align: Align::Left,
        ..Text::plain("", 12.0)
    }
}

#[test]
fn a_right_to_left_paragraph_is_right_aligned_in_visual_order_with_its_number_left_to_right() {
    with_fonts();
    // "Peace 2026": Arabic word, space, number. The paragraph is RTL (first strong letter);
    // the number (level 2) keeps its order and stands to the left of the word.
    let text = paragraph("سلام 2026");
    let lines = layout_text(&text, 300.0);
    assert_eq!(lines.len(), 1);
    let frags = &lines[0].fragments;
    assert_eq!(frags.len(), 2, "{frags:?}");
    assert_eq!(frags[0].text, "2026");
    assert!(!frags[0].rtl && frags[1].rtl, "{frags:?}");
    assert!(frags[0].x < frags[1].x);
    let right = frags[1].x + frags[1].width;
    assert!(
        (right - 300.0).abs() < 0.01,
        "right-aligned: ends at {right}"
    );
}

#[test]
fn a_shaped_cluster_is_narrower_than_its_letters_and_never_broken() {
    with_fonts();
    // क्षि: ka, virama, ssa, vowel sign i: one conjunct with its vowel sign.
    let word = "क्षि";
    let shaped = paragraph(word);
    let nominal: f64 = word
        .chars()
        .map(|c| {
            fonts::glyph(metrics::FontFace::of_run(&shaped.runs[0]), c)
                .unwrap()
                .width
        })
        .sum::<f64>()
        * 12.0
        / 1000.0;
    let lines = layout_text(&shaped, 1000.0);
    let width = lines[0].width;
    assert!(width < nominal * 0.9, "shaped {width} vs letters {nominal}");
    // Squeezed to a point: the word is never cut inside its cluster.
    let lines = layout_text(&paragraph(&word.repeat(3)), 1.0);
    for line in &lines {
        let t: String = line.fragments.iter().map(|f| f.text.as_str()).collect();
        assert_eq!(t, word, "{lines:?}");
    }
}

#[test]
fn arabic_hindi_and_chinese_come_back_from_embedded_subsets() {
    with_fonts();
    let mut doc = Document::new(Kind::Paged);
    let mut page = Page::new(595.0, 842.0);
    for (i, s) in [
        "الإعلان العالمي لحقوق الإنسان",
        "मानव अधिकारों की सार्वभौम घोषणा",
        "世界人权宣言",
    ]
    .iter()
    .enumerate()
    {
        page.shapes.push(text_box(
            &format!("t{i}"),
            Rect::new(50.0, 50.0 + 40.0 * i as f64, 495.0, 30.0),
            vec![run(s, FontFamily::Helvetica, 14.0)],
            Align::Left,
        ));
    }
    doc.pages.push(page);
    let (path, out) = export_checked(&request(doc, vec![]), "scripts");
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let text = text_of(&path, None);
    for word in ["الإنسان", "घोषणा", "世界人权宣言"] {
        assert!(text.contains(word), "{word} not in {text}");
    }
    let listing = Command::new("pdffonts").arg(&path).output().unwrap();
    let listing = String::from_utf8_lossy(&listing.stdout);
    for family in ["NotoSansArabic", "NotoSansDevanagari", "NotoSansCJK"] {
        let row = listing
            .lines()
            .find(|l| l.contains(family))
            .unwrap_or_else(|| panic!("{family} not in\n{listing}"));
        assert!(row.contains("yes yes yes"), "{row}");
    }
}

#[test]
fn a_character_no_font_has_is_a_visible_box_that_reads_back_as_itself() {
    with_fonts();
    let doc = one_line_page(
        "box \u{10FFFD} here",
        Rect::new(50.0, 50.0, 495.0, 30.0),
        14.0,
    );
    let (path, out) = export_checked(&request(doc, vec![]), "scripts-box");
    assert_eq!(out.warnings.len(), 1, "{:?}", out.warnings);
    assert!(
        out.warnings[0].starts_with("characters no installed font has were drawn as empty boxes"),
        "{:?}",
        out.warnings
    );
    let text = text_of(&path, None);
    assert!(text.contains("box \u{10FFFD} here"), "{text}");
    // The box has ink: the .notdef of Liberation Sans is an outlined rectangle.
    let listing = Command::new("pdffonts").arg(&path).output().unwrap();
    assert!(String::from_utf8_lossy(&listing.stdout).contains("LiberationSans"));
}

#[test]
fn a_filled_form_shows_answers_in_any_script_in_embedded_fonts() {
    with_fonts();
    let mut doc = Document::new(Kind::Paged);
    doc.pages.push(Page::new(595.0, 842.0));
    for (i, (key, value)) in [
        ("name", "Анна Каренина"),
        ("city", "東京都"),
        ("note", "Ada ☑ 中"),
    ]
    .into_iter()
    .enumerate()
    {
        doc.fields.push(Field {
            key: key.into(),
            field_type: FieldType::Text,
            label: key.into(),
            required: false,
            page: 1,
            frame: Rect::new(50.0, 50.0 + 40.0 * i as f64, 300.0, 24.0),
            options: Vec::new(),
            value: Some(serde_json::json!(value)),
            look: None,
        });
    }
    let (path, out) = export_checked(&request(doc, vec![]), "scripts-form");
    // Nothing was drawn as `?`: before, Helvetica alone drew these answers.
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let raw = String::from_utf8_lossy(&out.bytes);
    assert!(raw.contains("/L1"), "the appearances name a library font");
    let listing = Command::new("pdffonts").arg(&path).output().unwrap();
    let listing = String::from_utf8_lossy(&listing.stdout);
    for family in ["LiberationSans", "NotoSansCJK"] {
        let row = listing
            .lines()
            .find(|l| l.contains(family))
            .unwrap_or_else(|| panic!("{family} not in\n{listing}"));
        assert!(row.contains("yes yes yes"), "{row}");
    }
}

/// Latin text in the standard families is drawn with Liberation, their metric-compatible
/// faces, embedded as subsets like every other font: `pdffonts` lists no font that is not
/// embedded, and the text reads back, in lines of the widths the layout measured. The
/// content streams keep one byte per character (an embedded one-byte CMap).
#[test]
fn the_standard_families_are_embedded_as_liberation_subsets() {
    with_fonts();
    let mut doc = Document::new(Kind::Paged);
    let mut page = Page::new(595.0, 842.0);
    let families = [
        (FontFamily::Helvetica, "LiberationSans"),
        (FontFamily::Times, "LiberationSerif"),
        (FontFamily::Courier, "LiberationMono"),
    ];
    for (i, (family, _)) in families.iter().enumerate() {
        page.shapes.push(text_box(
            &format!("t{i}"),
            Rect::new(50.0, 50.0 + 60.0 * i as f64, 495.0, 50.0),
            vec![run("Zürich, Ελλάδα, naïve café: 1234", *family, 14.0)],
            Align::Left,
        ));
    }
    let mut bold_italic = run("Bold italic “quotes” – 5 €", FontFamily::Times, 14.0);
    bold_italic.bold = true;
    bold_italic.italic = true;
    page.shapes.push(text_box(
        "t3",
        Rect::new(50.0, 250.0, 495.0, 50.0),
        vec![bold_italic],
        Align::Left,
    ));
    doc.pages.push(page);
    let (path, out) = export_checked(&request(doc, vec![]), "standard-embedded");
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let text = text_of(&path, None);
    assert_eq!(
        text.matches("Zürich, Ελλάδα, naïve café: 1234").count(),
        3,
        "{text}"
    );
    let listing = Command::new("pdffonts").arg(&path).output().unwrap();
    let listing = String::from_utf8_lossy(&listing.stdout);
    let rows: Vec<&str> = listing.lines().skip(2).collect();
    assert!(!rows.is_empty());
    for row in &rows {
        assert!(row.contains("yes yes yes") && row.contains('+'), "{row}");
    }
    assert!(text.contains("Bold italic “quotes” – 5 €"), "{text}");
    assert!(
        rows.iter()
            .any(|r| r.contains("LiberationSerif-BoldItalic")),
        "{listing}"
    );
    for (_, name) in families {
        assert!(
            rows.iter().any(|r| r.contains(name)),
            "{name} not in\n{listing}"
        );
    }
    let expanded = path.with_extension("qdf.pdf");
    let status = Command::new("qpdf")
        .args(["--qdf", "--object-streams=disable"])
        .arg(&path)
        .arg(&expanded)
        .status()
        .unwrap();
    assert!(status.success());
    let expanded = String::from_utf8_lossy(&std::fs::read(&expanded).unwrap()).into_owned();
    assert!(
        expanded.contains("/Encoding") && expanded.contains("<00> <FF> 0"),
        "no one-byte encoding CMap"
    );
    // The Latin words are one byte per character in the content stream.
    assert!(
        expanded.contains(": 1234)"),
        "Latin text is not one byte per character"
    );
}

/// Decomposed text (a letter, then its combining marks, as in much Vietnamese on the web):
/// the letter goes with its marks to one library face and they are shaped as one cluster,
/// as wide as the precomposed letter, with no dotted circle drawn for a lone mark.
#[test]
fn a_letter_and_its_combining_marks_are_shaped_as_one_cluster() {
    with_fonts();
    let composed = "Quyền con người";
    let decomposed = "Quye\u{302}\u{300}n con ngu\u{31b}o\u{31b}\u{300}i";
    let face = metrics::FontFace::of_run(&paragraph(decomposed).runs[0]);
    let width = |s: &str| layout_text(&paragraph(s), 1000.0)[0].width;
    let (wc, wd) = (width(composed), width(decomposed));
    assert!(
        (wc - wd).abs() < wc * 0.02,
        "composed {wc} vs decomposed {wd}"
    );
    let circle = fonts::glyph(face, '\u{25CC}').expect("a font with the dotted circle");
    let pieces = glyph_runs::pieces(decomposed, false, face);
    for piece in &pieces {
        if let glyph_runs::Piece::Library {
            text, glyphs, face, ..
        } = piece
        {
            assert!(
                !text.starts_with(fonts::is_combining_mark),
                "a mark apart from its letter: {pieces:?}"
            );
            assert!(
                !glyphs
                    .iter()
                    .any(|g| *face == circle.face && g.gid == circle.gid),
                "a dotted circle in {pieces:?}"
            );
        }
    }
    let doc = one_line_page(decomposed, Rect::new(50.0, 50.0, 495.0, 30.0), 14.0);
    let (path, out) = export_checked(&request(doc, vec![]), "scripts-marks");
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let text = text_of(&path, None);
    assert!(
        text.contains(decomposed) || text.contains(composed),
        "{text:?}"
    );
}

/// A viewer types a new answer in the field's `/DA` font. For a form in Russian or Japanese
/// that font is a library face embedded with the letters of the form's scripts, so a name
/// the document never showed can be typed: pypdf regenerates the appearance as a viewer
/// does, and the flattened page reads back the typed text. With named Helvetica (the form
/// before this font), pypdf cannot encode the Cyrillic or the kana and the text is lost.
#[test]
fn a_viewer_can_type_an_answer_in_the_forms_script() {
    with_fonts();
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/forms_type.py");
    for (name, label, typed) in [
        ("type-ru", "Фамилия и имя", "Щукин Юрий Эдуардович"),
        ("type-ja", "氏名（ふりがな）", "やまだ たろう ヤマダ"),
    ] {
        let mut doc = Document::new(Kind::Paged);
        let mut page = Page::new(595.0, 842.0);
        page.shapes.push(text_box(
            "label",
            Rect::new(50.0, 40.0, 400.0, 20.0),
            vec![run(label, FontFamily::Helvetica, 12.0)],
            Align::Left,
        ));
        doc.pages.push(page);
        doc.fields.push(Field {
            key: "who".into(),
            field_type: FieldType::Text,
            label: label.into(),
            required: false,
            page: 1,
            frame: Rect::new(50.0, 70.0, 400.0, 24.0),
            options: Vec::new(),
            value: None,
            look: None,
        });
        let (path, _) = export_checked(&request(doc, vec![]), name);
        let typed_path = path.with_extension("typed.pdf");
        let run = Command::new("python3")
            .arg(&script)
            .args([&path, &typed_path])
            .args(["who", typed])
            .output()
            .expect("python3 with pypdf (make test installs it)");
        let warnings = String::from_utf8_lossy(&run.stderr);
        assert!(run.status.success(), "{name}: {warnings}");
        assert!(!warnings.contains("not supported"), "{name}: {warnings}");
        let flat = path.with_extension("flat.pdf");
        let qpdf = tool(
            "qpdf",
            &[
                "--flatten-annotations=all",
                typed_path.to_str().unwrap(),
                flat.to_str().unwrap(),
            ],
        );
        assert!(
            qpdf.status.success() || qpdf.status.code() == Some(3),
            "{qpdf:?}"
        );
        let text = text_of(&flat, Some(1));
        let squeezed: String = text.split_whitespace().collect();
        let wanted: String = typed.split_whitespace().collect();
        assert!(
            squeezed.contains(&wanted),
            "{name}: typed {typed:?}, read back {text:?}"
        );
        let raw = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
        assert!(!raw.contains("/DA (/Helv"), "{name}: typed in Helvetica");
    }
    // A Western form whose only other character is a symbol stays typed in Helvetica, which
    // every viewer has: the symbol font has no letters.
    let mut doc = Document::new(Kind::Paged);
    doc.pages.push(Page::new(595.0, 842.0));
    doc.fields.push(Field {
        key: "agree".into(),
        field_type: FieldType::Text,
        label: "☐ Ja, ich stimme zu".into(),
        required: false,
        page: 1,
        frame: Rect::new(50.0, 70.0, 400.0, 24.0),
        options: Vec::new(),
        value: None,
        look: None,
    });
    let (_, out) = export_checked(&request(doc, vec![]), "type-de");
    let raw = String::from_utf8_lossy(&out.bytes);
    assert!(
        raw.contains("/DA (/Helv 0 Tf 0 g)"),
        "the form is typed in Helvetica"
    );
}

/// A face drawing both WinAnsi text (as the embedded standard font) and other characters
/// (as a library font) is embedded once: Liberation Sans for "Việt Nam" is one font
/// program, which both font dictionaries name, and the text reads back whole.
#[test]
fn a_face_drawn_as_standard_and_library_font_is_embedded_once() {
    with_fonts();
    let doc = one_line_page(
        "Việt Nam, Ελλάδα, Россия",
        Rect::new(50.0, 50.0, 400.0, 40.0),
        12.0,
    );
    let (path, out) = export_checked(&request(doc, vec![]), "shared-face");
    let raw = String::from_utf8_lossy(&out.bytes);
    // `/Length1` is a TrueType program stream's own key (both descriptors name it).
    assert_eq!(raw.matches("/Length1").count(), 1, "one font program");
    let listing = Command::new("pdffonts").arg(&path).output().unwrap();
    let listing = String::from_utf8_lossy(&listing.stdout);
    let names: Vec<&str> = listing
        .lines()
        .skip(2)
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(names.len(), 2, "{listing}");
    assert_eq!(
        names[0], names[1],
        "both fonts name the shared subset:\n{listing}"
    );
    let text = text_of(&path, Some(1));
    assert!(text.contains("Việt Nam, Ελλάδα, Россия"), "{text}");
}

/// An A4 document whose one text box holds `text` in Helvetica at `size`.
fn one_line_page(text: &str, frame: Rect, size: f64) -> Document {
    let mut doc = Document::new(Kind::Paged);
    let mut page = Page::new(595.0, 842.0);
    page.shapes.push(text_box(
        "t",
        frame,
        vec![run(text, FontFamily::Helvetica, size)],
        Align::Left,
    ));
    doc.pages.push(page);
    doc
}
