//! The Markdown importer on real files and on the features it promises.

use std::path::PathBuf;

use pulldown_cmark::{Event, Options, Parser, TagEnd};
use quire_markdown::convert;
use quire_sdk::{Align, Asset, ConvertError, FontFamily, ImportRequest, Imported, Shape, TextBox};

fn request(md: &str) -> ImportRequest {
    ImportRequest::new(md, "text/markdown")
}

fn import(md: &str) -> Imported {
    let out = convert(request(md)).unwrap();
    valid(&out);
    out
}

/// The result passes the host's model validation and survives a JSON round trip.
fn valid(out: &Imported) {
    let json = serde_json::to_string(&out.document).unwrap();
    let names: Vec<&str> = out.assets.iter().map(|a| a.name.as_str()).collect();
    quire_sdk::validate::parse_and_check(&json, names).unwrap();
    assert!(!out.document.pages.is_empty());
}

fn boxes(out: &Imported) -> Vec<&TextBox> {
    out.document
        .shapes()
        .filter_map(|s| {
            if let Shape::Text(t) = s {
                Some(t)
            } else {
                None
            }
        })
        .collect()
}

fn find<'a>(out: &'a Imported, text: &str) -> &'a TextBox {
    boxes(out)
        .into_iter()
        .find(|t| t.text.plain_text() == text)
        .unwrap_or_else(|| panic!("no box `{text}` in {:#?}", boxes(out)))
}

fn model_words(out: &Imported) -> Vec<String> {
    let text: Vec<String> = boxes(out).iter().map(|t| t.text.plain_text()).collect();
    text.join(" ")
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

fn corpus_dir() -> PathBuf {
    match std::env::var_os("QUIRE_CORPUS") {
        Some(dir) => PathBuf::from(dir).join("markdown"),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/markdown"),
    }
}

fn corpus_files() -> Vec<PathBuf> {
    let dir = corpus_dir();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("corpus {} unreadable: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "corpus has {} files", files.len());
    files
}

#[test]
fn every_corpus_file_converts() {
    for path in corpus_files() {
        let bytes = std::fs::read(&path).unwrap();
        let started = std::time::Instant::now();
        let out = convert(ImportRequest {
            bytes,
            ..request("")
        })
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        valid(&out);
        assert!(!boxes(&out).is_empty(), "{}: no text", path.display());
        eprintln!(
            "{}: {} pages, {} warnings, {:?}",
            path.file_name().unwrap().to_string_lossy(),
            out.document.pages.len(),
            out.warnings.len(),
            started.elapsed()
        );
    }
}

/// The words of the Markdown's text events, with a break at every block end.
fn source_words(md: &str) -> Vec<String> {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_FOOTNOTES;
    let mut text = String::new();
    for event in Parser::new_ext(md, options) {
        match event {
            Event::Text(t) | Event::Code(t) => text.push_str(&t),
            Event::SoftBreak | Event::HardBreak => text.push(' '),
            Event::End(
                TagEnd::Link | TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough,
            ) => {}
            Event::End(_) => text.push(' '),
            _ => {}
        }
    }
    text.split_whitespace().map(str::to_string).collect()
}

fn assert_in_order(expected: &[String], model: &[String]) {
    let mut at = 0;
    for word in expected {
        match model[at..].iter().position(|w| w == word) {
            Some(k) => at += k + 1,
            None => panic!("`{word}` missing or out of order after word {at} of the model"),
        }
    }
}

#[test]
fn all_text_of_small_files_appears_in_order() {
    for name in [
        "mermaid-pull-request-template.md",
        "pdfjs-getting-started.md",
    ] {
        let md = std::fs::read_to_string(corpus_dir().join(name)).unwrap();
        let out = import(&md);
        let expected = source_words(crate_body(&md));
        assert!(expected.len() > 50, "{name}");
        assert_in_order(&expected, &model_words(&out));
    }
}

/// The Markdown after front matter, as the importer sees it.
fn crate_body(md: &str) -> &str {
    match md
        .strip_prefix("---\n")
        .and_then(|rest| rest.split_once("\n---\n").map(|(_, body)| body))
    {
        Some(body) => body,
        None => md,
    }
}

#[test]
fn commonmark_spec_examples_never_panic() {
    let json = std::fs::read_to_string(corpus_dir().join("commonmark-spec-tests.json")).unwrap();
    let examples: Vec<serde_json::Value> = serde_json::from_str(&json).unwrap();
    assert!(examples.len() > 500);
    for ex in &examples {
        let md = ex["markdown"].as_str().unwrap();
        let out = convert(request(md)).unwrap_or_else(|e| panic!("example {}: {e}", ex["example"]));
        valid(&out);
    }
}

#[test]
fn headings_emphasis_links_and_code() {
    let out = import(
        "# Title\n\nSome *italic*, **bold**, ~~gone~~ and `code` with a [link](https://example.com).\n\n\
         ```rust\nfn main() {}\n```\n",
    );
    let title = find(&out, "Title");
    assert_eq!(title.text.runs[0].font, FontFamily::Helvetica);
    assert!(title.text.runs[0].bold);
    assert_eq!(title.text.runs[0].size, 24.0);
    let para = boxes(&out)
        .into_iter()
        .find(|t| t.text.plain_text().starts_with("Some"))
        .unwrap();
    let run = |s: &str| para.text.runs.iter().find(|r| r.text == s).unwrap();
    assert!(run("italic").italic);
    assert!(run("bold").bold);
    assert!(run("gone").strike);
    assert_eq!(run("code").font, FontFamily::Courier);
    let link = run("link");
    assert_eq!(link.link.as_deref(), Some("https://example.com"));
    assert!(link.underline);
    let code = find(&out, "fn main() {}");
    assert_eq!(
        (code.text.runs[0].font, code.text.runs[0].size),
        (FontFamily::Courier, 9.5)
    );
}

#[test]
fn nested_lists_are_indented_and_ordered_lists_keep_their_start() {
    let out = import("3. three\n4. four\n   - inner\n     - innermost\n5. five\n");
    let (three, inner, innermost) = (
        find(&out, "three"),
        find(&out, "inner"),
        find(&out, "innermost"),
    );
    assert!(inner.frame.x > three.frame.x);
    assert!(innermost.frame.x > inner.frame.x);
    for marker in ["3.", "4.", "5."] {
        let m = find(&out, marker);
        assert!(
            m.frame.right() <= three.frame.x,
            "{marker} left of its item"
        );
    }
    assert_eq!(find(&out, "5.").frame.y, find(&out, "five").frame.y);
}

#[test]
fn tables_keep_column_alignment() {
    let out =
        import("| Left | Mid | Right |\n|:-----|:---:|------:|\n| a | b | c |\n| dd | ee | ff |\n");
    assert_eq!(find(&out, "Left").text.align, Align::Left);
    assert_eq!(find(&out, "Mid").text.align, Align::Center);
    assert_eq!(find(&out, "ee").text.align, Align::Center);
    assert_eq!(find(&out, "ff").text.align, Align::Right);
    assert!(find(&out, "Left").text.runs[0].bold);
    assert!(find(&out, "b").frame.x > find(&out, "a").frame.x);
    assert_eq!(find(&out, "b").frame.y, find(&out, "a").frame.y);
    assert!(find(&out, "dd").frame.y > find(&out, "a").frame.y);
}

fn png(w: u32, h: u32) -> Vec<u8> {
    let mut b = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    b.extend_from_slice(&w.to_be_bytes());
    b.extend_from_slice(&h.to_be_bytes());
    b.extend_from_slice(&[8, 2, 0, 0, 0, 0, 0, 0, 0]);
    b
}

#[test]
fn images_come_from_the_request_and_missing_ones_are_warnings() {
    let mut req = request("Before\n\n![A chart](img/chart.png)\n\n![Gone](missing.png)\n\nAfter\n");
    req.images = vec![
        Asset {
            name: "img/chart.png".into(),
            media_type: String::new(),
            bytes: png(800, 400),
        },
        Asset {
            name: "unused.png".into(),
            media_type: "image/png".into(),
            bytes: png(1, 1),
        },
    ];
    let out = convert(req).unwrap();
    valid(&out);
    let images: Vec<_> = out
        .document
        .shapes()
        .filter_map(|s| {
            if let Shape::Image(i) = s {
                Some(i)
            } else {
                None
            }
        })
        .collect();
    assert_eq!(images.len(), 1);
    assert_eq!(images[0].asset, "img/chart.png");
    assert_eq!(images[0].alt.as_deref(), Some("A chart"));
    assert!((images[0].frame.w / images[0].frame.h - 2.0).abs() < 1e-9);
    assert_eq!(out.assets.len(), 1);
    assert_eq!(out.assets[0].media_type, "image/png");
    assert_eq!(out.warnings.len(), 1, "{:?}", out.warnings);
    assert!(out.warnings[0].contains("missing.png"));
    let gone = find(&out, "Gone");
    assert!(gone.text.runs[0].italic);
    assert!(find(&out, "After").frame.y > images[0].frame.bottom());
}

/// An SVG picture is drawn as vectors: a group of the drawing's shapes in the picture's
/// place, its text kept as text, as wide as the SVG says (96 dpi); a broken one leaves its
/// alt text and a warning naming it.
#[test]
fn svg_pictures_are_drawings_with_their_text() {
    let logo = r##"<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" width="240" height="80" viewBox="0 0 120 40">
  <rect width="120" height="40" rx="6" fill="#0d6efd"/>
  <text x="60" y="26" font-size="14" text-anchor="middle" fill="#fff">Quire logo</text>
</svg>"##;
    let mut req = request("Before\n\n![The logo](logo.svg)\n\n![Broken](broken.svg)\n\nAfter\n");
    req.images = vec![
        Asset {
            name: "logo.svg".into(),
            media_type: "image/svg+xml".into(),
            bytes: logo.as_bytes().to_vec(),
        },
        Asset {
            name: "broken.svg".into(),
            media_type: "image/svg+xml".into(),
            bytes: b"<svg xmlns='http://www.w3.org/2000/svg'><rect".to_vec(),
        },
    ];
    let out = convert(req).unwrap();
    valid(&out);
    let groups: Vec<&quire_sdk::Group> = out
        .document
        .shapes()
        .filter_map(|s| match s {
            Shape::Group(g) => Some(g),
            _ => None,
        })
        .collect();
    assert_eq!(groups.len(), 1);
    let logo = groups[0];
    assert_eq!((logo.frame.w, logo.frame.h), (180.0, 60.0));
    let words: String = quire_sdk::ShapeWalk::new(&logo.children)
        .filter_map(|s| match s {
            Shape::Text(t) => Some(
                t.text
                    .runs
                    .iter()
                    .map(|r| r.text.as_str())
                    .collect::<String>(),
            ),
            _ => None,
        })
        .collect();
    assert_eq!(words, "Quire logo");
    assert!(find(&out, "Before").frame.bottom() < logo.frame.y);
    assert!(find(&out, "After").frame.y > logo.frame.bottom());
    assert!(out.assets.is_empty(), "{:?}", out.assets);
    assert!(find(&out, "Broken").text.runs[0].italic);
    assert!(
        out.warnings
            .iter()
            .any(|w| w.contains("broken.svg") && w.contains("could not be read")),
        "{:?}",
        out.warnings
    );
}

/// READMEs centre their logo with an HTML `<img>`, and put badges inline: both are
/// pictures, sized by their `width`/`height` as a browser sizes them; a missing one leaves
/// its alt text and a warning, as `![alt](src)` does.
#[test]
fn html_img_tags_are_pictures() {
    let md = "<p align=\"center\">\n  <img src=\"docs/logo.png\" alt=\"Logo\" width=\"200\">\n</p>\n\n\
              Build: <img src=\"badge.png\" alt=\"passing\"> and <img src=\"gone.png\" alt=\"Gone\"> here.\n";
    let mut req = request(md);
    req.images = vec![
        Asset {
            name: "docs/logo.png".into(),
            media_type: "image/png".into(),
            bytes: png(400, 100),
        },
        Asset {
            name: "badge.png".into(),
            media_type: "image/png".into(),
            bytes: png(80, 20),
        },
    ];
    let out = convert(req).unwrap();
    valid(&out);
    let images: Vec<&quire_sdk::Image> = out
        .document
        .shapes()
        .filter_map(|s| match s {
            Shape::Image(i) => Some(i),
            _ => None,
        })
        .collect();
    let names: Vec<&str> = images.iter().map(|i| i.asset.as_str()).collect();
    assert_eq!(names, ["docs/logo.png", "badge.png"]);
    // 200 CSS pixels wide, its aspect kept: 150 x 37.5 points.
    assert_eq!((images[0].frame.w, images[0].frame.h), (150.0, 37.5));
    assert_eq!(images[0].alt.as_deref(), Some("Logo"));
    let gone = &find(&out, "and Gone here.").text.runs;
    assert!(
        gone.iter().any(|r| r.text == "Gone" && r.italic),
        "{gone:?}"
    );
    assert!(
        out.warnings.iter().any(|w| w.contains("gone.png")),
        "{:?}",
        out.warnings
    );
}

#[test]
fn an_image_found_by_file_name_or_damaged() {
    let mut req = request("![x](./pics/a%20b.png) ![y](bad.png)");
    req.images = vec![
        Asset {
            name: "a b.png".into(),
            media_type: "image/png".into(),
            bytes: png(10, 10),
        },
        Asset {
            name: "bad.png".into(),
            media_type: "image/png".into(),
            bytes: b"nope".to_vec(),
        },
    ];
    let out = convert(req).unwrap();
    valid(&out);
    assert_eq!(
        out.document
            .shapes()
            .filter(|s| matches!(s, Shape::Image(_)))
            .count(),
        1
    );
    assert!(out
        .warnings
        .iter()
        .any(|w| w.contains("bad.png") && w.contains("PNG, JPEG or SVG")));
}

#[test]
fn long_input_runs_onto_more_pages() {
    let md: String = (0..400)
        .map(|i| format!("Paragraph {i} with some words to fill the line.\n\n"))
        .collect();
    let out = import(&md);
    assert!(
        out.document.pages.len() >= 5,
        "{} pages",
        out.document.pages.len()
    );
    let first_of_page_2 = boxes(&Imported {
        document: quire_sdk::Document {
            pages: out.document.pages[1..2].to_vec(),
            ..out.document.clone()
        },
        assets: Vec::new(),
        warnings: Vec::new(),
    })[0]
        .frame
        .y;
    assert_eq!(first_of_page_2, 56.7);
    assert_in_order(&source_words(&md), &model_words(&out));
}

#[test]
fn front_matter_title_html_crlf_and_tasks() {
    let md = "---\r\ntitle: Notes\r\ndate: 2024-01-01\r\n---\r\n<div align=\"center\">\r\n  <b>Hello</b> there\r\n</div>\r\n\r\n\
              - [ ] open\r\n- [x] done\r\n\r\nline one<br>line two <kbd>Ctrl</kbd>\r\n";
    let out = import(md);
    assert_eq!(out.document.title.as_deref(), Some("Notes"));
    find(&out, "Hello there");
    find(&out, "[ ] open");
    find(&out, "[x] done");
    find(&out, "line one\nline two Ctrl");
    assert!(!boxes(&out)
        .iter()
        .any(|t| t.text.plain_text().contains("date:")));
    assert!(!boxes(&out)
        .iter()
        .any(|t| t.text.plain_text().contains('\r')));
    let mut req = request("---\ntitle: From front\n---\n# x");
    req.options = vec![("title".into(), "Given".into())];
    assert_eq!(
        convert(req).unwrap().document.title.as_deref(),
        Some("Given")
    );
}

#[test]
fn front_matter_title_authors_and_date_make_a_centred_title_block() {
    let md = "---\ntitle: \"Rapport annuel 2024\"\nauthor:\n  - Ana Lima\n  - 'Jo O''Brien'\n\
              date: 28 janvier 2025\nlang: fr\n---\n\
              Premier paragraphe du rapport.\n\n# Une section\n\nSuite.\n";
    let out = import(md);
    assert_eq!(out.document.title.as_deref(), Some("Rapport annuel 2024"));
    let first_page: Vec<&TextBox> = out.document.pages[0]
        .shapes
        .iter()
        .filter_map(|s| match s {
            Shape::Text(t) => Some(t),
            _ => None,
        })
        .collect();
    let texts: Vec<String> = first_page.iter().map(|t| t.text.plain_text()).collect();
    assert_eq!(
        texts[..4],
        [
            "Rapport annuel 2024",
            "Ana Lima\nJo O'Brien",
            "28 janvier 2025",
            "Premier paragraphe du rapport."
        ],
    );
    let [title, authors, date, body] = [0, 1, 2, 3].map(|i| first_page[i]);
    assert_eq!(title.frame.y, 56.7, "the title opens the page");
    for (above, below) in [(title, authors), (authors, date), (date, body)] {
        assert!(
            above.frame.bottom() <= below.frame.y,
            "{above:?} above {below:?}"
        );
    }
    for part in [title, authors, date] {
        assert_eq!(part.text.align, Align::Center, "{part:?}");
    }
    assert_eq!(body.text.align, Align::Left);
    assert_eq!(find(&out, "Une section").text.align, Align::Left);
    let size = |t: &TextBox| t.text.runs[0].size;
    assert!(size(title) > size(body), "{} > {}", size(title), size(body));
    assert_eq!((size(authors), size(date)), (size(body), size(body)));

    // An inline list of authors and a title from the request's option.
    let mut req = request("---\nauthor: [Ana Lima, \"Smith, Jo\"]\n---\nBody.\n");
    req.options = vec![("title".into(), "Given".into())];
    let out = convert(req).unwrap();
    valid(&out);
    assert_eq!(find(&out, "Given").text.align, Align::Center);
    assert_eq!(find(&out, "Ana Lima\nSmith, Jo").text.align, Align::Center);
    assert_eq!(find(&out, "Body.").text.align, Align::Left);
}

#[test]
fn front_matter_without_title_author_or_date_draws_nothing() {
    let plain = import("Body text.\n");
    let other_keys = import("---\nlayout: post\nlang: en\ntags: [a, b]\n---\nBody text.\n");
    assert_eq!(other_keys.document.pages, plain.document.pages);
    // The `title` option alone names the document without drawing it, as before.
    let mut req = request("Body text.\n");
    req.options = vec![("title".into(), "Given".into())];
    let named = convert(req).unwrap();
    assert_eq!(named.document.title.as_deref(), Some("Given"));
    assert_eq!(named.document.pages, plain.document.pages);
}

#[test]
fn quotes_rules_footnotes_and_foreign_text() {
    let out = import("> quoted *text*\n\n---\n\nNote[^a] and 漢字 €.\n\n[^a]: The note.\n");
    find(&out, "quoted text");
    find(&out, "Note[1] and 漢字 €.");
    find(&out, "The note.");
    find(&out, "1.");
    let paths = out
        .document
        .shapes()
        .filter(|s| matches!(s, Shape::Path(_)))
        .count();
    assert_eq!(paths, 2, "the rule and the one above the footnotes");
}

#[test]
fn anchors_link_to_pages() {
    let md = format!(
        "[jump](#far-away)\n\n{}# Far away\n",
        "filler\n\n".repeat(120)
    );
    let out = import(&md);
    let jump = find(&out, "jump");
    let target = out.document.pages.iter().position(|p| {
        p.shapes
            .iter()
            .any(|s| matches!(s, Shape::Text(t) if t.text.plain_text() == "Far away"))
    });
    assert_eq!(
        jump.text.runs[0].link,
        Some(format!("#page={}", target.unwrap() + 1))
    );
}

#[test]
fn bad_input_is_a_sentence_not_a_panic() {
    let e = convert(request("")).map(|o| o.document.pages.len());
    assert_eq!(e, Ok(1));
    // A UTF-8 byte-order mark says what the file is: bytes after it that are not UTF-8 are
    // damage, not another encoding.
    let mut req = request("");
    req.bytes = b"\xEF\xBB\xBF# caf\xe9\n".to_vec();
    match convert(req) {
        Err(ConvertError::Damaged(s)) => assert!(s.contains("UTF-8"), "{s}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn windows_1252_markdown_is_read_with_a_warning() {
    // A French and German note as a Windows editor saves it "ANSI": é = E9, € = 80,
    // ’ = 92, — = 97, « » = AB BB, ß = DF, „ “ = 84 93, … = 85.
    let cp1252: &[u8] = b"# Le caf\xE9 de l\x92\xE9t\xE9\n\n\
        \xC0 No\xEBl, le menu co\xFBte 12 \x80 \x97 c\x92est \xAB d\xE9j\xE0 \xBB complet\x85\n\n\
        Gr\xFC\xDFe aus der Stra\xDFe: \x84\xD6l\x93 f\xFCr 3,50 \x80.\n";
    let expected = [
        "Le caf\u{e9} de l\u{2019}\u{e9}t\u{e9}",
        "\u{c0} No\u{eb}l, le menu co\u{fb}te 12 \u{20ac} \u{2014} c\u{2019}est \u{ab} d\u{e9}j\u{e0} \u{bb} complet\u{2026}",
        "Gr\u{fc}\u{df}e aus der Stra\u{df}e: \u{201e}\u{d6}l\u{201c} f\u{fc}r 3,50 \u{20ac}.",
    ];
    let out = convert(ImportRequest {
        bytes: cp1252.to_vec(),
        ..request("")
    })
    .unwrap();
    valid(&out);
    for text in expected {
        find(&out, text);
    }
    let latin_warnings: Vec<&String> = out
        .warnings
        .iter()
        .filter(|w| w.contains("not UTF-8") && w.contains("Windows-1252 (Latin-1)"))
        .collect();
    assert_eq!(latin_warnings.len(), 1, "{:?}", out.warnings);

    // The same note in UTF-8 reads the same, with no warning.
    let utf8 = format!("# {}\n\n{}\n\n{}\n", expected[0], expected[1], expected[2]);
    let out = import(&utf8);
    for text in expected {
        find(&out, text);
    }
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
}

#[test]
fn hostile_nesting_and_sizes_stay_bounded() {
    let deep_quotes = ">".repeat(20_000) + " deep\n";
    let deep_lists: String = (0..300)
        .map(|i| format!("{}- l{i}\n", "  ".repeat(i)))
        .collect();
    let brackets = "[".repeat(50_000) + &"]".repeat(50_000);
    let emphasis = "*a ".repeat(30_000);
    let wide_table = format!(
        "{}|\n{}|\n{}|\n",
        "|h".repeat(300),
        "|-".repeat(300),
        "|x".repeat(300)
    );
    for md in [deep_quotes, deep_lists, brackets, emphasis, wide_table] {
        // A small stack, as inside the sandbox: nothing may recurse with the input's depth.
        let handle = std::thread::Builder::new()
            .stack_size(1 << 20)
            .spawn(move || convert(request(&md)).map(|o| o.document.pages.len()))
            .unwrap();
        let pages = handle.join().expect("no panic or stack overflow").unwrap();
        assert!(pages >= 1);
    }
}

#[test]
fn one_paragraph_of_many_pages_is_cut_in_one_pass() {
    // 200k words, about 400 pages as one paragraph and as one table cell: cutting must not
    // re-lay out the rest of the text for every page.
    let words = "word ".repeat(200_000);
    let started = std::time::Instant::now();
    let out = import(&words);
    assert!(out.document.pages.len() > 100);
    let cell = format!("| a |\n|---|\n| {} |\n", words.trim());
    let table = import(&cell);
    assert!(table.document.pages.len() > 100);
    let words_in_cells = model_words(&table).iter().filter(|w| *w == "word").count();
    assert_eq!(words_in_cells, 200_000);
    // The header row is repeated on every page the table continues on.
    let headers = model_words(&table).iter().filter(|w| *w == "a").count();
    assert_eq!(headers, table.document.pages.len());
    assert!(started.elapsed().as_secs() < 60, "{:?}", started.elapsed());
}

/// Raw HTML blocks are read as the HTML importer reads a page (a README's centred header,
/// a docs site's table): centred, bold and linked as a browser shows them, a table laid
/// out as one; scripts, styles and comments leave nothing, `<xmp>` shows its markup, and a
/// `#name` link finds the Markdown heading of that name.
#[test]
fn raw_html_blocks_are_read_as_a_browser_shows_them() {
    let md = "# Top\n\n\
              <p align=\"center\">\n  <a href=\"https://example.com/live\"><b>Live Editor!</b></a> |\n  \
              <a href=\"#usage\">Usage</a> | <a href=\"./README.zh-CN.md\">简体中文</a>\n</p>\n\n\
              <table>\n  <tr><th>Variable</th><th>Description</th></tr>\n  \
              <tr><td><code>layout</code></td><td>The layout &amp; more</td></tr>\n</table>\n\n\
              <div><script>var hidden = 1 < 2;</script><style>p { color: red }</style>\
              <!-- a comment --><xmp><b>bold</b> &amp;</xmp></div>\n\n\
              ## Usage\n\nText.\n";
    let out = import(md);
    let header = find(&out, "Live Editor! | Usage | 简体中文");
    assert_eq!(header.text.align, Align::Center);
    let run = |text: &str| {
        header
            .text
            .runs
            .iter()
            .find(|r| r.text == text)
            .unwrap_or_else(|| panic!("no run `{text}` in {:?}", header.text.runs))
    };
    assert!(run("Live Editor!").bold);
    assert_eq!(
        run("Live Editor!").link.as_deref(),
        Some("https://example.com/live")
    );
    assert_eq!(run("Usage").link.as_deref(), Some("#page=1"));
    assert_eq!(run("简体中文").link.as_deref(), Some("./README.zh-CN.md"));

    // The table's cells side by side, its head bold.
    let (variable, layout) = (find(&out, "Variable"), find(&out, "layout"));
    let description = find(&out, "Description");
    assert!((variable.frame.y - description.frame.y).abs() < 1.0);
    assert!(description.frame.x > variable.frame.x + 20.0);
    assert!(layout.frame.y > variable.frame.y);
    assert!(variable.text.runs.iter().all(|r| r.bold));
    find(&out, "The layout & more");

    find(&out, "<b>bold</b> &amp;");
    let words = model_words(&out);
    for hidden in ["hidden", "color:", "comment"] {
        assert!(
            !words.iter().any(|w| w.contains(hidden)),
            "{hidden}: {words:?}"
        );
    }
}

/// A raw HTML block too large to read is refused as the HTML importer refuses such a page.
#[test]
fn raw_html_beyond_the_readers_bound_is_refused() {
    let md = format!("text\n\n<div>{}</div>\n", "<i></i>".repeat(600_000));
    assert!(matches!(
        convert(request(&md)),
        Err(ConvertError::TooLarge(_))
    ));
}

/// A raw HTML block that opens an element and leaves it open wraps the Markdown after it,
/// as a browser reads the page GitHub makes: a centred `<div>` centres the heading and text
/// inside it, and Markdown between a table's cell tags is in that cell.
#[test]
fn raw_html_wraps_the_markdown_until_its_elements_close() {
    let md = "<div align=\"center\">\n\n# Centred title\n\nSome **bold** words.\n\n</div>\n\n\
              <table>\n<tr><td>layout</td><td>\n\nIf set, this *names* the layout.\n\n</td></tr>\n\
              </table>\n\nAfter the table.\n";
    let out = import(md);
    let title = find(&out, "Centred title");
    let words = find(&out, "Some bold words.");
    assert_eq!(title.text.align, Align::Center);
    assert_eq!(words.text.align, Align::Center);
    assert!(words.text.runs.iter().any(|r| r.text == "bold" && r.bold));
    let after = find(&out, "After the table.");
    assert_eq!(after.text.align, Align::Left);

    let (name, value) = (
        find(&out, "layout"),
        find(&out, "If set, this names the layout."),
    );
    assert!(
        (name.frame.y - value.frame.y).abs() < 2.0,
        "{name:?} {value:?}"
    );
    assert!(value.frame.x > name.frame.x + 20.0);
    assert!(after.frame.y > value.frame.y + value.frame.h);
    assert!(after.frame.x < value.frame.x);
}

/// A wrapper never closed holds the rest of the document, which is still all there.
#[test]
fn an_unclosed_wrapper_keeps_everything_after_it() {
    let out = import("Before.\n\n<div>\n\n## Inside\n\n- one\n- two\n\nLast words.\n");
    for text in ["Before.", "Inside", "Last words."] {
        find(&out, text);
    }
    let words = model_words(&out);
    assert!(words.contains(&"one".to_string()) && words.contains(&"two".to_string()));
}

/// The style sheets of all the raw HTML of one document share one page's bounds (1 MiB of
/// CSS, 4 million selector matches): many fragments cannot buy more work than a page.
/// Past them a fragment's sheet is not read, with a warning.
#[test]
fn raw_html_style_sheets_share_one_pages_bounds() {
    let filler = format!("/*{}*/", "x".repeat(600 << 10));
    let fragment = |n: usize| {
        format!(
            "<div><style>{filler} .gone {{ display: none }}</style>\
             <p class=\"gone\">hidden{n}</p><p>shown{n}</p></div>\n\n"
        )
    };
    let md = format!("{}{}", fragment(1), fragment(2));
    let out = import(&md);
    let words = model_words(&out);
    assert!(!words.contains(&"hidden1".to_string()), "{words:?}");
    assert!(words.contains(&"shown1".to_string()) && words.contains(&"shown2".to_string()));
    assert!(words.contains(&"hidden2".to_string()), "{words:?}");
    assert!(
        out.warnings
            .iter()
            .any(|w| w.contains("style sheets in the document's raw HTML")),
        "{:?}",
        out.warnings
    );
}
