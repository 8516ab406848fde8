//! The importer on every PDF of the shared corpus: each imports (with its password from
//! SOURCES.md) or is refused with the right error; the text of each matches poppler's
//! pdftotext in order; each model exports back to a PDF that qpdf accepts and that renders
//! like the original.

mod import_support;

use import_support::*;
use quire_sdk::*;

/// What each corpus file must give (its password, if any, is sent as well).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Expect {
    /// Imports; at least this many words of text (0: a picture or blank page).
    Imports {
        words: usize,
    },
    Damaged,
    /// Refused as locked by restrictions, with these permissions (print, copy, modify).
    Locked(bool, bool, bool),
}

const CASES: &[(&str, Expect)] = &[
    ("ocrmypdf-ccitt-scan.pdf", Expect::Imports { words: 0 }),
    ("ocrmypdf-invalid-header-only.pdf", Expect::Damaged),
    ("ocrmypdf-livecycle-xfa.pdf", Expect::Imports { words: 0 }),
    (
        "pdfjs-annotation-button-widget.pdf",
        Expect::Imports { words: 20 },
    ),
    (
        "pdfjs-annotation-choice-widget.pdf",
        Expect::Imports { words: 20 },
    ),
    (
        "pdfjs-bug1883609-acroform-mixed.pdf",
        Expect::Imports { words: 150 },
    ),
    (
        "pdfjs-bug900822-rc4-40bit-owner-only.pdf",
        Expect::Locked(true, false, false),
    ),
    (
        "pdfjs-checkbox-no-appearance.pdf",
        Expect::Imports { words: 0 },
    ),
    (
        "pdfjs-issue21579-r5-unicode-password.pdf",
        Expect::Imports { words: 10 },
    ),
    (
        "pdfjs-issue9972-aes128-owner-only-acroform.pdf",
        Expect::Locked(true, true, false),
    ),
    (
        "pdfjs-pr6531-aes256-user-password.pdf",
        Expect::Imports { words: 0 },
    ),
    ("pypdf-r2-owner-password.pdf", Expect::Imports { words: 5 }),
    (
        "pypdf-r4-aes-user-password.pdf",
        Expect::Imports { words: 5 },
    ),
    ("pypdf-r6-both-passwords.pdf", Expect::Imports { words: 5 }),
    (
        "pypdf-sf424-page2-orphan-widgets.pdf",
        Expect::Imports { words: 100 },
    ),
    (
        "scanned-form-patient-intake.pdf",
        Expect::Imports { words: 0 },
    ),
];

fn corpus_files() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(CORPUS)
        .unwrap_or_else(|e| panic!("{CORPUS}: {e}"))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".pdf"))
        .collect();
    names.sort();
    names
}

#[test]
fn every_corpus_file_has_an_expected_outcome() {
    let known: Vec<&str> = CASES.iter().map(|(f, _)| *f).collect();
    for f in corpus_files() {
        assert!(
            known.contains(&f.as_str()),
            "{f} is new in the corpus: add it to CASES"
        );
    }
}

#[test]
fn every_corpus_file_imports_or_is_refused_rightly() {
    for &(file, expect) in CASES {
        let result = import(read(&corpus_path(file)), &password_option(file));
        match (expect, result) {
            (Expect::Imports { words: least }, Ok(imported)) => {
                let text = model_text(&imported.document);
                assert!(
                    words(&text).len() >= least,
                    "{file}: {} words, expected at least {least}:\n{text}",
                    words(&text).len()
                );
                assert!(!imported.document.pages.is_empty());
            }
            (Expect::Damaged, Err(ConvertError::Damaged(sentence))) => {
                assert!(
                    sentence.len() > 20 && sentence.contains("PDF"),
                    "{sentence}"
                );
            }
            (Expect::Locked(print, copy, modify), Err(ConvertError::Locked(lock))) => {
                assert!(lock.opens, "{file}");
                assert_eq!(
                    (lock.allows.print, lock.allows.copy, lock.allows.modify),
                    (print, copy, modify),
                    "{file}"
                );
                assert!(lock.detail.contains("unlock=1"), "{}", lock.detail);
            }
            (expect, got) => panic!("{file}: expected {expect:?}, got {:?}", got.err()),
        }
    }
}

fn password_option(file: &str) -> Vec<(&'static str, &'static str)> {
    password_of(file)
        .map(|p| vec![("password", p)])
        .unwrap_or_default()
}

/// The options that make a corpus file import: its password, and unlock for the locked.
fn opening_options(file: &str) -> Vec<(&'static str, &'static str)> {
    let mut options = password_option(file);
    if matches!(
        CASES.iter().find(|(f, _)| *f == file).map(|(_, e)| *e),
        Some(Expect::Locked(..))
    ) {
        options.push(("unlock", "1"));
    }
    options
}

#[test]
fn text_matches_pdftotext_in_order() {
    for &(file, expect) in CASES {
        if matches!(expect, Expect::Damaged) {
            continue;
        }
        let imported = import(read(&corpus_path(file)), &opening_options(file))
            .unwrap_or_else(|e| panic!("{file}: {e:?}"));
        let ours = model_text(&imported.document);
        let oracle = oracle_text(&corpus_path(file), password_of(file));
        let (ow, mw) = (words(&oracle), words(&ours));
        if ow.is_empty() {
            assert!(
                mw.is_empty(),
                "{file}: text where pdftotext finds none: {ours}"
            );
            continue;
        }
        // Letters in order, whatever the spacing: pdftotext splits letter-spaced words.
        let by_letters = in_order(&letters(&oracle), &letters(&ours));
        let by_words = in_order(&ow, &mw);
        eprintln!("{file}: {by_words:.3} of words, {by_letters:.3} of letters in order");
        assert!(
            by_letters >= 0.95,
            "{file}: only {by_letters:.3} of pdftotext's letters appear in order\n\
             pdftotext: {oracle}\nmodel: {ours}"
        );
        // Words are the stricter measure, and the one pdftotext is itself wrong about on
        // letter-spaced text (bug900822: `T es t tes t` for `Test test`).
        assert!(
            by_words >= 0.7,
            "{file}: only {by_words:.3} of pdftotext's words appear in order\n\
             pdftotext: {ow:?}\nmodel: {mw:?}"
        );
    }
}

#[test]
fn every_import_exports_to_a_pdf_qpdf_accepts_with_the_same_text() {
    for &(file, expect) in CASES {
        if matches!(expect, Expect::Damaged) {
            continue;
        }
        let imported = import(read(&corpus_path(file)), &opening_options(file)).unwrap();
        let stem = file.trim_end_matches(".pdf");
        let path = export_checked(&imported, &format!("{stem}.roundtrip"));
        let model = words(&model_text(&imported.document));
        let exported = words(&pdftotext(&path));
        assert!(
            in_order(&model, &exported) >= 0.95,
            "{file}: the exported PDF lost text\nmodel: {model:?}\nexported: {exported:?}"
        );
    }
}

#[test]
fn page_one_renders_like_the_original() {
    // A form with a header picture, text, field boxes and ink annotations.
    let file = "pdfjs-bug1883609-acroform-mixed.pdf";
    let imported = import_corpus(file, &[]);
    let ours = export_checked(&imported, "bug1883609.render");
    let a = render_grey(
        std::path::Path::new(&corpus_path(file)),
        1,
        40,
        "bug1883609.orig",
    );
    let b = render_grey(&ours, 1, 40, "bug1883609.import");
    assert_eq!(
        (a.width, a.height),
        (b.width, b.height),
        "page sizes differ"
    );
    let diff = ink_difference(&a, &b, 12, 16);
    assert!(mean_ink(&b) > 0.02, "the import renders nearly blank");
    assert!(
        diff < 0.02,
        "the renders differ too much: {diff:.4} mean ink per cell"
    );
    // The measure does tell pages apart: the original against a blank page.
    let blank = Grey {
        width: a.width,
        height: a.height,
        pixels: vec![255; a.width * a.height],
    };
    assert!(ink_difference(&a, &blank, 12, 16) > 2.0 * diff.max(0.01));
}

/// The scan is a JPEG with EXIF orientation 6 on a /Rotate 90 page. Viewers ignore EXIF
/// inside a PDF, Quire's exporter applies it: unless the importer neutralises it, the round
/// trip turns the picture a second time and squashes it into the frame.
#[test]
fn a_scanned_page_with_exif_in_its_jpeg_round_trips_upright() {
    let file = "scanned-form-patient-intake.pdf";
    let imported = import_corpus(file, &[]);
    let ours = export_checked(&imported, "scanned-intake.render");
    let a = render_grey(
        std::path::Path::new(&corpus_path(file)),
        1,
        40,
        "scanned-intake.orig",
    );
    let b = render_grey(&ours, 1, 40, "scanned-intake.import");
    assert_eq!(
        (a.width, a.height),
        (b.width, b.height),
        "page sizes differ"
    );
    // The /Rotate 90 page of a 792 x 594 box stands portrait.
    assert!(a.height > a.width, "{} x {}", a.width, a.height);
    assert!(mean_ink(&b) > 0.05, "the import renders nearly blank");
    let diff = ink_difference(&a, &b, 12, 16);
    // The page turned a further quarter, as the exporter drew it before the fix.
    let mut turned = Grey {
        width: a.width,
        height: a.height,
        pixels: vec![255; a.width * a.height],
    };
    for y in 0..a.height {
        for x in 0..a.width {
            // Nearest sample of the original page turned clockwise, squashed to its box.
            let (u, v) = (
                y * a.width / a.height,
                (a.width - 1 - x) * a.height / a.width,
            );
            turned.pixels[y * a.width + x] = a.pixels[v * a.width + u.min(a.width - 1)];
        }
    }
    let off = ink_difference(&a, &turned, 12, 16);
    assert!(
        diff < 0.02 && off > 3.0 * diff.max(0.005),
        "the round trip renders unlike the original: {diff:.4} mean ink per cell \
         (a turned page: {off:.4})"
    );
}

#[test]
fn scanned_pages_keep_their_picture_size_and_rotation() {
    let imported = import_corpus("scanned-form-patient-intake.pdf", &[]);
    let page = &imported.document.pages[0];
    assert_eq!((page.width, page.height, page.rotate), (792.0, 594.0, 90));
    let Shape::Image(img) = &page.shapes[0] else {
        panic!("expected the scan as a picture: {:?}", page.shapes)
    };
    assert!((img.frame.w - 792.0).abs() < 0.5 && (img.frame.h - 594.0).abs() < 0.5);
    // The JPEG goes through undecoded: the file's bytes, but for its EXIF orientation (6)
    // set to 1, since PDF viewers ignore EXIF in a DCTDecode stream and Quire's exporters
    // apply it.
    let asset = &imported.assets[0];
    assert_eq!(asset.media_type, "image/jpeg");
    let source = read(&corpus_path("scanned-form-patient-intake.pdf"));
    let start = source
        .windows(64)
        .position(|w| w == &asset.bytes[..64])
        .or_else(|| {
            let tail = &asset.bytes[asset.bytes.len() - 64..];
            let end = source.windows(64).position(|w| w == tail)? + 64;
            end.checked_sub(asset.bytes.len())
        })
        .expect("the JPEG bytes are not the ones in the file");
    let original = &source[start..start + asset.bytes.len()];
    let changed: Vec<usize> = (0..original.len())
        .filter(|&i| original[i] != asset.bytes[i])
        .collect();
    assert_eq!(changed.len(), 1, "bytes changed at {changed:?}");
    assert_eq!((original[changed[0]], asset.bytes[changed[0]]), (6, 1));

    // A 1-bit CCITT scan comes out as a 1-bit PNG of the same pixels.
    let imported = import_corpus("ocrmypdf-ccitt-scan.pdf", &[]);
    let asset = &imported.assets[0];
    assert_eq!(asset.media_type, "image/png");
    let decoder = png::Decoder::new(std::io::Cursor::new(asset.bytes.clone()));
    let reader = decoder.read_info().unwrap();
    let info = reader.info();
    assert_eq!(info.bit_depth, png::BitDepth::One);
    let listing = tool(
        "pdfimages",
        &["-list", &corpus_path("ocrmypdf-ccitt-scan.pdf")],
    );
    let listing = String::from_utf8_lossy(&listing.stdout);
    let row: Vec<&str> = listing.lines().nth(2).unwrap().split_whitespace().collect();
    assert_eq!(
        (info.width.to_string(), info.height.to_string()),
        (row[3].to_string(), row[4].to_string()),
        "pdfimages: {listing}"
    );
}
