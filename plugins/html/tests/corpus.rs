//! Every HTML file of the shared corpus converts to a valid model whose text is the page's
//! text: each paragraph an independent parser (Python's html.parser) finds in the source
//! appears word for word, in order, in the model.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use common::*;
use quire_sdk::Shape;

fn corpus_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus())
        .expect("the corpus is at ../shared/corpus/html beside the repository")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 10, "the corpus holds ten HTML files");
    files
}

/// The paragraphs of `path` as the oracle reads them.
fn oracle_paragraphs(path: &Path) -> Vec<String> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/oracle/paragraphs.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(path)
        .output()
        .expect("python3 runs (the oracle needs it)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("the oracle writes UTF-8")
        .lines()
        .map(|l| serde_json::from_str::<String>(l).expect("one JSON string a line"))
        .collect()
}

#[test]
fn every_corpus_file_converts_to_a_valid_model() {
    for path in corpus_files() {
        let bytes = std::fs::read(&path).expect("readable");
        let out = quire_html::convert(request(bytes))
            .unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
        let doc = &out.document;
        let names: Vec<&str> = out.assets.iter().map(|a| a.name.as_str()).collect();
        quire_sdk::validate::check(doc, names.iter().copied())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // The model survives its JSON form, as it crosses the component boundary (numbers
        // may come back a last bit off: serde_json parses floats fast, not exactly).
        let json = serde_json::to_string(doc).expect("serialises");
        let back = quire_sdk::validate::parse(&json).expect("parses");
        assert_eq!(texts(&back), texts(doc));
        assert!(
            !words(doc).is_empty(),
            "{}: the model holds text",
            path.display()
        );
        for w in &out.warnings {
            assert!(
                w.len() < 400,
                "{}: warnings stay sentences: {w}",
                path.display()
            );
        }
    }
}

#[test]
fn every_oracle_paragraph_is_in_the_model_in_order() {
    let mut checked = 0;
    for path in corpus_files() {
        let out = quire_html::convert(request(std::fs::read(&path).expect("readable")))
            .expect("converts");
        let all = words(&out.document);
        let mut missing = Vec::new();
        for p in oracle_paragraphs(&path) {
            let want = split_words(&p);
            checked += 1;
            if !contains_run(&all, &want) {
                missing.push(p);
            }
        }
        assert!(
            missing.is_empty(),
            "{}: {} paragraph(s) not found word for word, first: {:?}",
            path.display(),
            missing.len(),
            missing.first()
        );
    }
    assert!(checked > 150, "the oracle found {checked} paragraphs");
}

/// Text the pages show that is not in `<p>` elements: headings, list items, table cells,
/// preformatted text, the title.
#[test]
fn hand_picked_text_of_each_page() {
    let convert = |name: &str| {
        let path = corpus().join(name);
        quire_html::convert(request(std::fs::read(path).expect("readable"))).expect("converts")
    };

    let ietf = convert("readability-ietf-draft.html");
    let pre: Vec<String> = ietf
        .document
        .shapes()
        .filter_map(|s| match s {
            Shape::Text(t)
                if t.text
                    .runs
                    .iter()
                    .all(|r| r.font == quire_sdk::FontFamily::Courier) =>
            {
                Some(t.text.plain_text())
            }
            _ => None,
        })
        .collect();
    // The draft's layout is kept: columns of the header block, indentation of paragraphs.
    assert!(
        pre.iter().any(|t| t
            .contains("INTERNET DRAFT                                      Michiel B. de Jong")),
        "the preformatted header keeps its spacing"
    );
    assert!(pre
        .iter()
        .any(|t| t.contains("\n    This draft describes a protocol")));
    assert_eq!(
        ietf.document.title.as_deref(),
        Some("draft-dejong-remotestorage-04 - remoteStorage")
    );

    let wiki = convert("readability-wikipedia-mozilla.html");
    let boxes = texts(&wiki.document);
    assert!(
        boxes.iter().any(|t| t == "History[edit]"),
        "section heading"
    );
    assert!(
        boxes
            .iter()
            .any(|t| t == "Netscape Communications Corporation"),
        "infobox cell"
    );
    assert_paragraph(&wiki.document, "3.7.8 Shumway");
    assert_eq!(wiki.document.title.as_deref(), Some("Mozilla - Wikipedia"));
    // The page's scripts are gone.
    assert!(!all_text(&wiki.document).contains("document.documentElement"));

    // `dir="rtl"` is ignored: the text comes through in reading order.
    let rtl = convert("readability-rtl.html");
    assert_eq!(
        texts(&rtl.document)[..2],
        ["Lorem", "Lorem ipsum dolor sit amet."]
    );

    let mermaid = convert("mermaid-demo-expanded-shapes.html");
    let code = texts(&mermaid.document);
    assert!(
        code.iter()
            .any(|t| t.trim_start().starts_with("flowchart LR")),
        "the diagram source is kept as code: {code:?}"
    );
    assert!(!all_text(&mermaid.document).contains("mermaid.initialize"));

    let math = convert("readability-mathjax-mathml.html");
    assert!(all_text(&math.document).contains("a ≠ 0"));
    assert!(all_text(&math.document).contains("x = (−b ± √(b^2 − 4ac))/(2a)"));

    let svg = convert("readability-svg-parsing.html");
    assert!(!all_text(&svg.document).contains("hex-mask"));
}

/// The 1 MB Wikipedia page converts in well under a second natively (release build); debug
/// builds are given more room. Prints the time for the report.
#[test]
fn the_large_wikipedia_page_converts_quickly() {
    let path = corpus().join("readability-wikipedia-new-zealand.html");
    let bytes = std::fs::read(path).expect("readable");
    let start = Instant::now();
    let out = quire_html::convert(request(bytes)).expect("converts");
    let elapsed = start.elapsed();
    println!(
        "new-zealand: {} pages, {} shapes in {elapsed:?}",
        out.document.pages.len(),
        out.document.shapes().count()
    );
    let budget = if cfg!(debug_assertions) { 5.0 } else { 1.0 };
    assert!(elapsed.as_secs_f64() < budget, "took {elapsed:?}");
    assert!(out.document.pages.len() > 20);
    assert_paragraph(
        &out.document,
        "New Zealand (Māori: Aotearoa [aɔˈtɛaɾɔa]) is a sovereign island country in the \
         southwestern Pacific Ocean.",
    );
}
