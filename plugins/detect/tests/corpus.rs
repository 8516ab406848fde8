//! Every corpus file the image, PDF and Markdown importers read goes through detection:
//! no error, no panic, fields inside their pages, keys in order, and a bounded time. Files
//! that are not forms give few fields.

use std::time::Instant;

use quire_sdk::{ConvertError, ImportRequest, Imported};

fn corpus() -> std::path::PathBuf {
    quire_sdk::corpus_dir()
}

fn import(dir: &str, name: &str, bytes: Vec<u8>) -> Result<Imported, ConvertError> {
    let request = |media_type: &str| ImportRequest {
        bytes: bytes.clone(),
        media_type: media_type.into(),
        images: Vec::new(),
        options: Vec::new(),
    };
    match dir {
        "images" => quire_image::convert(request("image/png")),
        "pdf" => quire_pdf::import_pdf(request("application/pdf")),
        _ if name.ends_with(".md") => quire_markdown::convert(request("text/markdown")),
        _ => Err(ConvertError::Unsupported(name.into())),
    }
}

#[test]
fn every_importable_corpus_file_is_examined() {
    let mut examined = 0;
    for dir in ["images", "pdf", "markdown"] {
        let mut names: Vec<String> = std::fs::read_dir(corpus().join(dir))
            .expect("the corpus")
            .map(|e| {
                e.expect("an entry")
                    .file_name()
                    .to_string_lossy()
                    .to_string()
            })
            .collect();
        names.sort();
        for name in names {
            let bytes = std::fs::read(corpus().join(dir).join(&name)).expect("readable");
            // Files an importer refuses (locked, damaged, password) have nothing to examine.
            let Ok(imported) = import(dir, &name, bytes) else {
                continue;
            };
            let start = Instant::now();
            let found = quire_detect::detect(&imported.document, &imported.assets, None)
                .unwrap_or_else(|e| panic!("{dir}/{name}: {e}"));
            let took = start.elapsed();
            examined += 1;
            assert!(
                found.warnings.is_empty(),
                "{dir}/{name}: {:?}",
                found.warnings
            );
            let pages = &imported.document.pages;
            for (n, f) in found.fields.iter().enumerate() {
                assert_eq!(f.key, format!("field_{}", n + 1), "{dir}/{name}");
                let page = &pages[f.page as usize - 1];
                let r = f.frame;
                assert!(
                    r.x >= 0.0
                        && r.y >= 0.0
                        && r.w > 0.0
                        && r.h > 0.0
                        && r.right() <= page.width + 1e-6
                        && r.bottom() <= page.height + 1e-6,
                    "{dir}/{name}: {f:?} is off its page"
                );
            }
            let pages_seen: Vec<u32> = found.fields.iter().map(|f| f.page).collect();
            assert!(pages_seen.windows(2).all(|w| w[0] <= w[1]), "{dir}/{name}");
            // Prose is not a form: a text document or a scanned brochure gives few blanks.
            // (A map's short straight roads do look like lines to write on: photo-cmyk.jpg
            // gives a dozen, and is not held to this.)
            let prose = dir == "markdown"
                || name.starts_with("scan-")
                || name.starts_with("ocrmypdf-ccitt")
                || name.starts_with("pngsuite-");
            if prose {
                // Unticked task-list items (`- [ ] sprite`) are tick boxes, labelled by
                // their text; anything else is rare in prose.
                let boxes: Vec<_> = found
                    .fields
                    .iter()
                    .filter(|f| f.field_type == quire_sdk::FieldType::Checkbox)
                    .collect();
                assert!(boxes.iter().all(|f| !f.label.is_empty()), "{dir}/{name}");
                let others = found.fields.len() - boxes.len();
                assert!(
                    others <= 4,
                    "{dir}/{name}: {others} fields in a document that has no blanks"
                );
            }
            println!(
                "{dir}/{name}: {} pages, {} fields, {:?}",
                pages.len(),
                found.fields.len(),
                took
            );
        }
    }
    assert!(examined >= 30, "{examined} files examined");
}
