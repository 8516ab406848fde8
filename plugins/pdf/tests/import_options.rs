//! The importer's options and refusals: passwords (RC4, AES-128, AES-256 R5 and R6, a
//! non-ASCII password), `unlock` on files locked by restrictions, `mode=image`, damaged and
//! foreign bytes, and bad option values.

mod import_support;

use import_support::*;
use quire_sdk::*;

fn corpus(file: &str) -> Vec<u8> {
    read(&corpus_path(file))
}

fn text_boxes(doc: &Document) -> usize {
    doc.shapes().filter(|s| matches!(s, Shape::Text(_))).count()
}

/// Every page is one picture covering it, and nothing else.
fn assert_pictured(imported: &Imported) {
    for (i, page) in imported.document.pages.iter().enumerate() {
        assert_eq!(page.shapes.len(), 1, "page {}: {:?}", i + 1, page.shapes);
        let Shape::Image(img) = &page.shapes[0] else {
            panic!("page {} is not a picture", i + 1)
        };
        assert_eq!(img.frame, Rect::new(0.0, 0.0, page.width, page.height));
        let asset = imported
            .assets
            .iter()
            .find(|a| a.name == img.asset)
            .expect("the picture's asset");
        assert_eq!(asset.media_type, "image/png");
        let reader = png::Decoder::new(std::io::Cursor::new(asset.bytes.clone()))
            .read_info()
            .expect("a PNG");
        // 150 dpi: points times 150/72, to the pixel.
        let want = (page.width * 150.0 / 72.0).round() as u32;
        assert!(
            reader.info().width.abs_diff(want) <= 1,
            "{} px for {} pt",
            reader.info().width,
            page.width
        );
    }
}

#[test]
fn password_files_need_the_right_password() {
    for &(file, password) in PASSWORDS {
        match import(corpus(file), &[]) {
            Err(ConvertError::PasswordRequired(s)) => {
                assert!(s.contains("needs a password"), "{file}: {s}")
            }
            other => panic!("{file} without a password: {:?}", other.err()),
        }
        match import(corpus(file), &[("password", "qwerty")]) {
            Err(ConvertError::PasswordRequired(s)) => {
                assert!(s.contains("password is wrong"), "{file}: {s}")
            }
            other => panic!("{file} with a wrong password: {:?}", other.err()),
        }
        let imported = import(corpus(file), &[("password", password)])
            .unwrap_or_else(|e| panic!("{file} with its password: {e:?}"));
        assert_eq!(imported.document.pages.len(), 1, "{file}");
        // The password with unlock=1, as the contract's 422 advises, works as well.
        import(corpus(file), &[("password", password), ("unlock", "1")])
            .unwrap_or_else(|e| panic!("{file} with its password and unlock: {e:?}"));
    }
}

#[test]
fn decrypted_text_is_the_real_text() {
    // AES-256 R5, password SASLprep'd from non-ASCII UTF-8.
    let imported = import(
        corpus("pdfjs-issue21579-r5-unicode-password.pdf"),
        &[("password", "pässwört")],
    )
    .unwrap();
    let text = model_text(&imported.document);
    assert!(text.contains("decryption succeeded"), "{text}");
    // AES-256 R6 opens with the owner password too; AES-128 R4 with the user password.
    for (file, password) in [
        ("pypdf-r6-both-passwords.pdf", "bar"),
        ("pypdf-r6-both-passwords.pdf", "foo"),
        ("pypdf-r4-aes-user-password.pdf", "asdfzxcv"),
    ] {
        let imported = import(corpus(file), &[("password", password)]).unwrap();
        let text = model_text(&imported.document);
        assert!(text.contains("pdf encryption test"), "{file}: {text}");
    }
    // AES-256 R6 with Acrobat's padded strings: its page is a picture.
    let imported = import(
        corpus("pdfjs-pr6531-aes256-user-password.pdf"),
        &[("password", "asdfasdf")],
    )
    .unwrap();
    assert_eq!(imported.document.pages[0].width, 576.0);
    assert!(imported
        .document
        .shapes()
        .any(|s| matches!(s, Shape::Image(_))));
}

#[test]
fn a_file_whose_restrictions_allow_everything_needs_no_unlock() {
    let imported = import(corpus("pypdf-r2-owner-password.pdf"), &[]).unwrap();
    assert!(model_text(&imported.document).contains("pdf encryption test"));
}

#[test]
fn unlock_modes_on_files_locked_by_restrictions() {
    for file in [
        "pdfjs-bug900822-rc4-40bit-owner-only.pdf",
        "pdfjs-issue9972-aes128-owner-only-acroform.pdf",
    ] {
        assert!(matches!(
            import(corpus(file), &[]),
            Err(ConvertError::Locked(_))
        ));
        // 1 and decrypt keep the document: editable text from the decrypted objects.
        for unlock in ["1", "decrypt"] {
            let imported = import(corpus(file), &[("unlock", unlock)])
                .unwrap_or_else(|e| panic!("{file} unlock={unlock}: {e:?}"));
            assert!(
                text_boxes(&imported.document) > 5,
                "{file} unlock={unlock}: no editable text"
            );
            assert!(imported.warnings.iter().all(|w| !w.contains("redrawn")));
        }
        // rebuild redraws: every page a picture.
        let imported = import(corpus(file), &[("unlock", "rebuild")]).unwrap();
        assert_pictured(&imported);
        assert_eq!(text_boxes(&imported.document), 0);
    }
    let imported = import(
        corpus("pdfjs-issue9972-aes128-owner-only-acroform.pdf"),
        &[("unlock", "1")],
    )
    .unwrap();
    let text = model_text(&imported.document);
    assert!(text.contains("Personal Sleep Study"), "{text}");
}

#[test]
fn mode_image_keeps_each_page_as_a_picture() {
    let file = "pypdf-sf424-page2-orphan-widgets.pdf";
    let mut imported = import(corpus(file), &[("mode", "image")]).unwrap();
    assert_pictured(&imported);
    // The picture is the page: exported and rendered at the picture's own resolution, it
    // matches poppler's render of the original. The file's form fields are set aside: the
    // exporter draws its own boxes over the picture (tests/import_forms.rs checks those).
    assert!(!imported.document.fields.is_empty());
    imported.document.fields.clear();
    let ours = export_checked(&imported, "sf424.mode-image");
    let a = render_grey(
        std::path::Path::new(&corpus_path(file)),
        1,
        150,
        "sf424.orig",
    );
    let b = render_grey(&ours, 1, 150, "sf424.mode-image");
    assert_eq!((a.width, a.height), (b.width, b.height));
    let diff = ink_difference(&a, &b, 12, 16);
    let blank = Grey {
        width: a.width,
        height: a.height,
        pixels: vec![255; a.width * a.height],
    };
    let nothing = ink_difference(&a, &blank, 12, 16);
    eprintln!("mode=image: {diff:.4} from the original, {nothing:.4} from a blank page");
    assert!(
        diff < 0.01,
        "mode=image renders unlike the original: {diff:.4}"
    );
    assert!(
        nothing > 4.0 * diff,
        "the measure cannot tell the page from a blank one"
    );

    // A rotated scan keeps its rotation; the picture stays in unrotated page space.
    let imported = import(
        corpus("scanned-form-patient-intake.pdf"),
        &[("mode", "image")],
    )
    .unwrap();
    assert_pictured(&imported);
    assert_eq!(imported.document.pages[0].rotate, 90);
}

#[test]
fn damaged_and_foreign_bytes_are_refused_with_a_sentence() {
    let whole = read(&format!("{FIXTURES}/import-report.pdf"));
    for cut in [whole.len() / 10, whole.len() / 2, whole.len() - 300] {
        match import(whole[..cut].to_vec(), &[]) {
            Err(ConvertError::Damaged(s)) => assert!(s.contains("cut short"), "{s}"),
            other => panic!("cut at {cut}: {:?}", other.map(|i| i.document.pages.len())),
        }
    }
    let mut garbage = b"%PDF-1.7\n".to_vec();
    let mut x: u32 = 7;
    for _ in 0..4000 {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        garbage.push((x >> 16) as u8);
    }
    garbage.extend_from_slice(b"\n%%EOF\n");
    assert!(matches!(
        import(garbage, &[]),
        Err(ConvertError::Damaged(_))
    ));
    assert!(matches!(
        import(corpus("ocrmypdf-invalid-header-only.pdf"), &[]),
        Err(ConvertError::Damaged(_))
    ));
    let png = read(&corpus_path("../images/pngsuite-basn0g01-1bit-gray.png"));
    match import(png, &[]) {
        Err(ConvertError::Unsupported(s)) => assert!(s.contains("not a PDF"), "{s}"),
        other => panic!("{:?}", other.err()),
    }
    assert!(matches!(
        import(Vec::new(), &[]),
        Err(ConvertError::Unsupported(_))
    ));
}

#[test]
fn bad_option_values_are_invalid_requests() {
    let bytes = read(&format!("{FIXTURES}/import-report.pdf"));
    for (name, value) in [
        ("mode", "vector"),
        ("unlock", "please"),
        ("page", "0"),
        ("page", "two"),
        ("page", "4"),
    ] {
        match import(bytes.clone(), &[(name, value)]) {
            Err(ConvertError::InvalidRequest(s)) => assert!(s.contains(value), "{s}"),
            other => panic!("{name}={value}: {:?}", other.err()),
        }
    }
}

#[test]
fn option_page_imports_that_page_alone() {
    let bytes = read(&format!("{FIXTURES}/import-report.pdf"));
    let whole = import(bytes.clone(), &[]).unwrap();
    assert_eq!(whole.document.pages.len(), 3);
    for n in 1..=3 {
        let one = import(bytes.clone(), &[("page", &n.to_string())]).unwrap();
        assert_eq!(one.document.pages.len(), 1, "page={n}");
        let (page, want) = (&one.document.pages[0], &whole.document.pages[n - 1]);
        assert_eq!((page.width, page.height), (want.width, want.height));
        let text = |p: &Page| {
            let mut doc = Document::new(Kind::Paged);
            doc.pages.push(p.clone());
            model_text(&doc)
        };
        assert!(!text(want).is_empty(), "page {n} of the fixture has text");
        assert_eq!(text(page), text(want), "page={n}");
    }
}

#[test]
fn the_converter_describes_its_import() {
    use quire_sdk::Converter;
    let info = quire_pdf::Pdf::describe();
    assert!(info
        .imports
        .iter()
        .any(|f| f.media_type == "application/pdf" && f.extension == "pdf"));
    for option in ["mode", "unlock", "password", "page"] {
        assert!(info.options.iter().any(|o| o.name == option), "{option}");
    }
}
