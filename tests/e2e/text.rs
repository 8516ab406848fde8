//! Text in every script (issue 26): the 22 languages of `tests/text`, sent as HTML and as
//! Markdown over HTTP, come back in the PDF as text `pdftotext` reads, drawn with fonts the
//! PDF embeds (`pdffonts`), in files `qpdf` finds sound.

use std::collections::HashMap;
use std::process::Command;

use serde_json::json;

use crate::common::{repo_root, run_tool};
use crate::server::shared;

/// The share of `source`'s characters (whitespace aside, as a multiset) found in `got`:
/// `scripts/text-survival.py`'s measure, so the order pdftotext gives right-to-left text in
/// does not count.
fn survival(source: &str, got: &str) -> f64 {
    let count = |s: &str| {
        let mut m: HashMap<char, usize> = HashMap::new();
        for c in s.chars().filter(|c| !c.is_whitespace()) {
            *m.entry(c).or_default() += 1;
        }
        m
    };
    let (want, have) = (count(source), count(got));
    let total: usize = want.values().sum();
    let kept: usize = want
        .iter()
        .map(|(c, n)| (*n).min(have.get(c).copied().unwrap_or(0)))
        .sum();
    100.0 * kept as f64 / total.max(1) as f64
}

/// The share of `source`'s words (between spaces, punctuation trimmed) that `got` holds
/// whole: the order check the character count lacks. A word drawn in the wrong order (an
/// Arabic word left to right, an Indic vowel sign after its consonant) is not found.
fn words_in_order(source: &str, got: &str) -> f64 {
    // Lines joined with a space, and without one for scripts that break lines between any
    // two characters (CJK, and long Thai phrases).
    let spaced: String = got.split_whitespace().collect::<Vec<_>>().join(" ");
    let joined: String = got.lines().map(str::trim).collect();
    // Split at punctuation too (Amharic's word space `፡` is one), not at every character
    // that is not alphanumeric: Indic viramas and vowel signs are marks inside words.
    let separator = |c: char| {
        c.is_whitespace()
            || c.is_ascii_punctuation()
            || "፡።፣፤፥፦«»“”‘’،؛؟。、，；：！？「」『』（）〈〉《》【】…—–".contains(c)
    };
    let words: Vec<&str> = source
        .split(separator)
        .filter(|w| w.chars().count() >= 2)
        .collect();
    let found = words
        .iter()
        .filter(|w| spaced.contains(**w) || joined.contains(**w))
        .count();
    100.0 * found as f64 / words.len().max(1) as f64
}

/// The Markdown file's text as a reader sees it: no front matter, no heading marks.
fn markdown_text(md: &str) -> String {
    let body = md
        .strip_prefix("---\n")
        .and_then(|rest| rest.split_once("\n---\n"))
        .map_or(md, |(_, body)| body);
    body.lines()
        .map(|l| l.trim_start_matches('#').trim_start())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Prints the text of every SVG `<text>` element of the file named by the first argument.
const SVG_TEXT: &str = "import sys, xml.etree.ElementTree as E\n\
print(''.join(''.join(e.itertext()) for e in E.parse(sys.argv[1]).iter('{http://www.w3.org/2000/svg}text')))";

/// `pdffonts` rows as (name, type, embedded) for a PDF file.
fn fonts_of(pdf: &std::path::Path) -> Vec<(String, String, bool)> {
    let listing = run_tool(Command::new("pdffonts").arg(pdf));
    listing
        .lines()
        .skip(2)
        .filter_map(|row| {
            let cols: Vec<&str> = row.split_whitespace().collect();
            // name type [type words] encoding emb sub uni object-id generation
            let n = cols.len();
            (n >= 7).then(|| {
                (
                    cols[0].to_string(),
                    cols[1].to_string(),
                    cols[n - 5] == "yes",
                )
            })
        })
        .collect()
}

/// The 22 languages. Arabic, Persian and the Indic scripts come back character by
/// character too, but are drawn unshaped (isolated letters, marks not placed) until the
/// shaping step of docs/text-engine.md.
const EVERY_LANGUAGE: [&str; 22] = [
    "am", "ar", "bn", "cs", "el", "en", "fa", "he", "hi", "hy", "ja", "ka", "ko", "pl", "ru", "ta",
    "th", "tr", "uk", "vi", "zh-Hans", "zh-Hant",
];

#[test]
fn the_text_of_every_language_survives_into_the_pdf_and_svg_in_embedded_fonts() {
    let s = shared();
    let t = s.token(&s.account("pro"));
    let dir = repo_root().join("tests/text");
    let work = tempfile::tempdir().unwrap();
    let mut table = Vec::new();
    for lang in EVERY_LANGUAGE {
        let html = std::fs::read_to_string(dir.join(format!("{lang}.html"))).unwrap();
        let md = std::fs::read_to_string(dir.join(format!("{lang}.md"))).unwrap();
        let source = markdown_text(&md);
        let mut row = vec![lang.to_string()];
        for (kind, body) in [
            ("html", json!({"html": html})),
            ("md", json!({"markdown": md})),
        ] {
            let r = s.send_json("POST", &t, "/api/v1/pdfs", &body);
            assert_eq!(r.status, 201, "{lang} {kind}: {}", r.text());
            let id = r.json()["document"]["id"].as_str().unwrap().to_string();
            let pdf = s.get(&t, &format!("/api/v1/documents/{id}.pdf"));
            assert_eq!(pdf.status, 200, "{lang} {kind}");
            let path = work.path().join(format!("{lang}-{kind}.pdf"));
            std::fs::write(&path, &pdf.body).unwrap();
            run_tool(Command::new("qpdf").arg("--check").arg(&path));
            let text = run_tool(
                Command::new("pdftotext")
                    .args(["-enc", "UTF-8"])
                    .arg(&path)
                    .arg("-"),
            );
            let kept = survival(&source, &text);
            assert!(
                kept >= 99.0,
                "{lang} {kind}: only {kept:.1}% of the characters survive; pdftotext read:\n{}",
                text.chars().take(400).collect::<String>()
            );
            // Every font is an embedded subset, the standard ones as Liberation.
            let fonts = fonts_of(&path);
            assert!(!fonts.is_empty(), "{lang} {kind}: no fonts listed");
            for (name, _, embedded) in fonts {
                assert!(
                    embedded && name.contains('+'),
                    "{lang} {kind}: {name} not an embedded subset"
                );
            }
            if kind == "html" {
                // The first page as SVG holds the same text (glyph outlines under an
                // invisible text layer), read by an independent XML parser.
                let svg = s.get(&t, &format!("/api/v1/documents/{id}.svg?page=1"));
                assert_eq!(svg.status, 200, "{lang}: {}", svg.text());
                let svg_path = work.path().join(format!("{lang}.svg"));
                std::fs::write(&svg_path, &svg.body).unwrap();
                let svg_text = run_tool(
                    Command::new("python3")
                        .arg("-c")
                        .arg(SVG_TEXT)
                        .arg(&svg_path),
                );
                let page_one = run_tool(
                    Command::new("pdftotext")
                        .args(["-enc", "UTF-8", "-f", "1", "-l", "1"])
                        .arg(&path)
                        .arg("-"),
                );
                // pdftotext wraps right-to-left text in bidi embeddings (U+202A-U+202C),
                // which are its own, not the page's.
                let page_one: String = page_one
                    .chars()
                    .filter(|c| !matches!(*c as u32, 0x200E | 0x200F | 0x202A..=0x202E))
                    .collect();
                let kept_svg = survival(&page_one, &svg_text);
                assert!(
                    kept_svg >= 99.0,
                    "{lang}: only {kept_svg:.1}% of page 1's characters are in its SVG:\n{}",
                    svg_text.chars().take(400).collect::<String>()
                );
                row.push(format!("svg {kept_svg:.1}%"));
            }
            // The document's language picks the CJK faces of its region.
            let region = match lang {
                "ja" => Some("jp"),
                "ko" => Some("kr"),
                "zh-Hans" => Some("sc"),
                "zh-Hant" => Some("tc"),
                _ => None,
            };
            if let Some(region) = region {
                let cjk: Vec<String> = fonts_of(&path)
                    .into_iter()
                    .map(|(name, _, _)| name.to_lowercase())
                    .filter(|name| name.contains("cjk"))
                    .collect();
                assert!(
                    !cjk.is_empty() && cjk.iter().all(|n| n.contains(&format!("cjk{region}"))),
                    "{lang} {kind}: {cjk:?}"
                );
            }
            let ordered = words_in_order(&source, &text);
            assert!(
                ordered >= 90.0,
                "{lang} {kind}: only {ordered:.1}% of the words read back in order; pdftotext read:\n{}",
                text.chars().take(400).collect::<String>()
            );
            row.push(format!("{kept:.1}%/{ordered:.1}%"));
        }
        table.push(row.join(" "));
    }
    eprintln!(
        "characters/words surviving (html, svg of html page 1, md):\n{}",
        table.join("\n")
    );
}

#[test]
fn a_character_no_installed_font_has_is_named_in_the_warning() {
    let s = shared();
    let t = s.token(&s.account("pro"));
    let r = s.send_json(
        "POST",
        &t,
        "/api/v1/pdfs",
        &json!({"markdown": "# 中文 heading\n\nplain text and a private \u{10FFFD} character"}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["document"]["id"].as_str().unwrap().to_string();
    let pdf = s.get(&t, &format!("/api/v1/documents/{id}.pdf"));
    assert_eq!(pdf.status, 200);
    let warning = pdf
        .header("x-service-warning")
        .expect("a lossy PDF carries X-Service-Warning");
    assert!(
        warning.contains("drawn as empty boxes") && warning.contains("U+10FFFD"),
        "{warning}"
    );
    assert!(!warning.contains("U+4E2D"), "中 has a font: {warning}");
    let work = tempfile::tempdir().unwrap();
    let path = work.path().join("mixed.pdf");
    std::fs::write(&path, &pdf.body).unwrap();
    let text = run_tool(
        Command::new("pdftotext")
            .args(["-enc", "UTF-8"])
            .arg(&path)
            .arg("-"),
    );
    assert!(
        text.contains("中文 heading") && text.contains("plain text"),
        "{text}"
    );
    // The box stands for the character (its /ActualText), never a `?`.
    assert!(text.contains('\u{10FFFD}') && !text.contains('?'), "{text}");
}

/// Labels in several scripts: a mermaid flowchart and a .drawio file. Every label comes
/// back through `pdftotext` from the PDF and from the SVG's text, and as itself in the
/// `.mmd` and `.drawio` written back.
#[test]
fn diagram_labels_in_every_script_survive_every_export() {
    let s = shared();
    let t = s.token(&s.account("pro"));
    let labels = [
        "Всеобщая декларация",
        "世界人权宣言",
        "الإعلان العالمي",
        "मानव अधिकार",
        "世界人権宣言",
        "ประกาศสิทธิมนุษยชน",
        "Ελλάδα ☑",
    ];
    let mut mermaid = String::from("flowchart TD\n");
    for (i, label) in labels.iter().enumerate() {
        mermaid.push_str(&format!("  n{i}[\"{label}\"]\n"));
        if i > 0 {
            mermaid.push_str(&format!("  n{} --> n{i}\n", i - 1));
        }
    }
    let mut cells = String::new();
    for (i, label) in labels.iter().enumerate() {
        cells.push_str(&format!(
            "<mxCell id=\"c{i}\" value=\"{label}\" style=\"rounded=0;whiteSpace=wrap;html=1;\" \
             vertex=\"1\" parent=\"1\"><mxGeometry x=\"40\" y=\"{}\" width=\"220\" height=\"50\" \
             as=\"geometry\"/></mxCell>",
            40 + 80 * i
        ));
    }
    let drawio = format!(
        "<mxfile><diagram id=\"d\" name=\"Page-1\"><mxGraphModel><root><mxCell id=\"0\"/>\
         <mxCell id=\"1\" parent=\"0\"/>{cells}</root></mxGraphModel></diagram></mxfile>"
    );
    let work = tempfile::tempdir().unwrap();
    for (source, body) in [
        ("mermaid", json!({"mermaid": mermaid})),
        ("drawio", json!({"drawio": drawio})),
    ] {
        let r = s.send_json("POST", &t, "/api/v1/diagrams", &body);
        assert_eq!(r.status, 201, "{source}: {}", r.text());
        let id = r.json()["document"]["id"].as_str().unwrap().to_string();
        let pdf = s.get(&t, &format!("/api/v1/documents/{id}.pdf"));
        assert_eq!(pdf.status, 200, "{source}");
        let path = work.path().join(format!("{source}.pdf"));
        std::fs::write(&path, &pdf.body).unwrap();
        let text = run_tool(
            Command::new("pdftotext")
                .args(["-enc", "UTF-8"])
                .arg(&path)
                .arg("-"),
        );
        let svg = s.get(&t, &format!("/api/v1/documents/{id}.svg"));
        assert_eq!(svg.status, 200, "{source}");
        let svg_path = work.path().join(format!("{source}.svg"));
        std::fs::write(&svg_path, &svg.body).unwrap();
        let svg_text = run_tool(
            Command::new("python3")
                .arg("-c")
                .arg(SVG_TEXT)
                .arg(&svg_path),
        );
        let all = labels.join(" ");
        for (export, got) in [("pdf", &text), ("svg", &svg_text)] {
            let kept = survival(&all, got);
            assert!(
                kept >= 99.0,
                "{source} {export}: {kept:.1}% of the labels' characters:\n{got}"
            );
        }
        for ext in ["mmd", "drawio"] {
            let r = s.get(&t, &format!("/api/v1/documents/{id}.{ext}"));
            assert_eq!(r.status, 200, "{source}.{ext}");
            let written = r.text();
            for label in labels {
                assert!(
                    written.contains(label),
                    "{source}.{ext} lost {label}:\n{written}"
                );
            }
        }
    }
}

/// PDFs made by Chromium, whose fonts are embedded subsets (Noto CJK, Noto Arabic), are
/// imported and exported again: the text pdftotext reads from Quire's PDF is no less than
/// what it reads from Chromium's, minus a point. (Not yet Indic: Chromium names the
/// characters of a reordered cluster in `/ActualText`, which the importer does not read.)
#[test]
fn pdfs_with_embedded_cjk_and_arabic_fonts_keep_their_text_through_import() {
    let s = shared();
    let t = s.token(&s.account("pro"));
    let work = tempfile::tempdir().unwrap();
    for lang in ["zh-Hans", "ja", "ar"] {
        let html = repo_root().join(format!("tests/text/{lang}.html"));
        let theirs = work.path().join(format!("{lang}-chromium.pdf"));
        chromium_print(&html, &theirs);
        let chromium_text = run_tool(
            Command::new("pdftotext")
                .args(["-enc", "UTF-8"])
                .arg(&theirs)
                .arg("-"),
        );
        use base64::Engine as _;
        let bytes = std::fs::read(&theirs).unwrap();
        let body = json!({"pdf": base64::engine::general_purpose::STANDARD.encode(bytes)});
        let r = s.send_json("POST", &t, "/api/v1/pdfs", &body);
        assert_eq!(r.status, 201, "{lang}: {}", r.text());
        let id = r.json()["document"]["id"].as_str().unwrap().to_string();
        let pdf = s.get(&t, &format!("/api/v1/documents/{id}.pdf"));
        assert_eq!(pdf.status, 200, "{lang}");
        let ours = work.path().join(format!("{lang}-quire.pdf"));
        std::fs::write(&ours, &pdf.body).unwrap();
        run_tool(Command::new("qpdf").arg("--check").arg(&ours));
        let our_text = run_tool(
            Command::new("pdftotext")
                .args(["-enc", "UTF-8"])
                .arg(&ours)
                .arg("-"),
        );
        let source = markdown_text(
            &std::fs::read_to_string(repo_root().join(format!("tests/text/{lang}.md"))).unwrap(),
        );
        let (kept, reference) = (
            survival(&source, &our_text),
            survival(&source, &chromium_text),
        );
        eprintln!("{lang}: imported and exported {kept:.1}%, Chromium's own PDF {reference:.1}%");
        assert!(
            kept >= 99.0_f64.min(reference - 1.0),
            "{lang}: {kept:.1}% of the characters after import (Chromium's PDF {reference:.1}%):\n{}",
            our_text.chars().take(400).collect::<String>()
        );
    }
}

/// Chromium's print of `html` into `pdf`, with its default page and margins.
fn chromium_print(html: &std::path::Path, pdf: &std::path::Path) {
    run_tool(
        Command::new(crate::browser::chromium())
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-pdf-header-footer",
                "--disable-background-networking",
            ])
            .arg(format!("--print-to-pdf={}", pdf.display()))
            .arg(format!("file://{}", html.display())),
    );
}

/// Embedding fonts must not make files bigger than the tool a user would otherwise pick:
/// every language's HTML makes a PDF no larger than Chromium's print of the same file.
#[test]
fn pdfs_are_no_larger_than_chromiums_print_of_the_same_html() {
    let s = shared();
    let t = s.token(&s.account("pro"));
    let work = tempfile::tempdir().unwrap();
    let mut table = Vec::new();
    let mut larger = Vec::new();
    for lang in EVERY_LANGUAGE {
        let html_path = repo_root().join(format!("tests/text/{lang}.html"));
        let theirs = work.path().join(format!("{lang}-chromium.pdf"));
        chromium_print(&html_path, &theirs);
        let html = std::fs::read_to_string(&html_path).unwrap();
        let r = s.send_json("POST", &t, "/api/v1/pdfs", &json!({"html": html}));
        assert_eq!(r.status, 201, "{lang}: {}", r.text());
        let id = r.json()["document"]["id"].as_str().unwrap().to_string();
        let pdf = s.get(&t, &format!("/api/v1/documents/{id}.pdf"));
        assert_eq!(pdf.status, 200, "{lang}");
        let (ours, chromium) = (pdf.body.len(), std::fs::metadata(&theirs).unwrap().len());
        table.push(format!("{lang}: {ours} bytes, Chromium {chromium}"));
        if ours as u64 > chromium {
            larger.push(lang);
        }
    }
    eprintln!("PDF sizes:\n{}", table.join("\n"));
    assert!(
        larger.is_empty(),
        "larger than Chromium's: {larger:?}\n{}",
        table.join("\n")
    );
}
