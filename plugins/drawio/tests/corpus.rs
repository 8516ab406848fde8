//! Every draw.io file of the corpus, imported and checked against an independent reading of
//! the same XML (roxmltree, its own decompression, its own label stripping): per page, the
//! number of vertices, edges and non-empty labels, and where each edge is attached.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use base64::Engine;
use quire_drawio::import_drawio;
use quire_sdk::{ConvertError, ImportRequest, Imported};

mod common;
use common::{found_page, Expected};

fn corpus() -> PathBuf {
    quire_sdk::corpus_dir().join("drawio")
}

fn corpus_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus())
        .expect("the corpus is at ../shared/corpus/drawio beside the repository")
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 13, "corpus files missing: {files:?}");
    files
}

fn import(path: &Path) -> Result<Imported, ConvertError> {
    import_drawio(ImportRequest {
        bytes: std::fs::read(path).unwrap(),
        media_type: "application/vnd.jgraph.mxfile".into(),
        ..Default::default()
    })
}

fn inflate_page(payload: &str) -> String {
    let compact: String = payload.chars().filter(|c| !c.is_whitespace()).collect();
    let raw = base64::engine::general_purpose::STANDARD
        .decode(compact)
        .expect("page payload is base64");
    let mut inflated = String::new();
    flate2::read::DeflateDecoder::new(&raw[..])
        .read_to_string(&mut inflated)
        .expect("page payload inflates");
    percent_encoding::percent_decode_str(&inflated)
        .decode_utf8()
        .unwrap()
        .into_owned()
}

/// The text a label shows: tags dropped, a few entities decoded, whitespace trimmed.
fn visible_text(label: &str, html: bool) -> String {
    if !html {
        return label.trim().to_string();
    }
    let mut out = String::new();
    let mut in_tag = false;
    for ch in label.chars() {
        match ch {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&nbsp;", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
        .replace('\u{a0}', " ")
        .trim()
        .to_string()
}

struct XmlCell {
    id: String,
    parent: Option<String>,
    label: String,
    html: bool,
    vertex: bool,
    edge: bool,
    visible: bool,
    source: Option<String>,
    target: Option<String>,
}

fn cells_of(model: roxmltree::Node) -> Vec<XmlCell> {
    let root = model
        .children()
        .find(|n| n.has_tag_name("root"))
        .expect("<root>");
    let mut cells = Vec::new();
    for el in root.children().filter(|n| n.is_element()) {
        let (wrapper, cell) = if el.has_tag_name("mxCell") {
            (None, el)
        } else {
            match el.children().find(|n| n.has_tag_name("mxCell")) {
                Some(c) => (Some(el), c),
                None => continue,
            }
        };
        let mut label = match wrapper {
            Some(w) => w.attribute("label").unwrap_or("").to_string(),
            None => cell.attribute("value").unwrap_or("").to_string(),
        };
        if let Some(w) = wrapper.filter(|w| w.attribute("placeholders") == Some("1")) {
            for a in w.attributes() {
                label = label.replace(&format!("%{}%", a.name()), a.value());
            }
        }
        let style = cell.attribute("style").unwrap_or("");
        cells.push(XmlCell {
            id: wrapper
                .unwrap_or(cell)
                .attribute("id")
                .unwrap_or("")
                .to_string(),
            parent: cell.attribute("parent").map(str::to_string),
            label,
            html: style.split(';').any(|kv| kv.trim() == "html=1"),
            vertex: cell.attribute("vertex") == Some("1"),
            edge: cell.attribute("edge") == Some("1"),
            visible: cell.attribute("visible") != Some("0"),
            source: cell.attribute("source").map(str::to_string),
            target: cell.attribute("target").map(str::to_string),
        });
    }
    cells
}

fn expected_page(model: roxmltree::Node) -> Expected {
    let cells = cells_of(model);
    let by_id: HashMap<&str, &XmlCell> = cells.iter().map(|c| (c.id.as_str(), c)).collect();
    let hidden = |c: &XmlCell| {
        let mut cur = Some(c);
        let mut steps = 0;
        while let Some(x) = cur {
            if !x.visible {
                return true;
            }
            steps += 1;
            if steps > cells.len() {
                break;
            }
            cur = x.parent.as_deref().and_then(|p| by_id.get(p).copied());
        }
        false
    };
    let parent_is_edge = |c: &XmlCell| {
        c.parent
            .as_deref()
            .and_then(|p| by_id.get(p))
            .is_some_and(|p| p.edge)
    };
    let drawn = |c: &XmlCell| !hidden(c) && (c.edge || (c.vertex && !parent_is_edge(c)));
    let mut e = Expected::default();
    for c in cells.iter().filter(|c| drawn(c)) {
        let own = !visible_text(&c.label, c.html).is_empty();
        if c.edge {
            e.edges += 1;
            let kid_label = cells.iter().any(|k| {
                k.vertex
                    && !hidden(k)
                    && k.parent.as_deref() == Some(c.id.as_str())
                    && !visible_text(&k.label, k.html).is_empty()
            });
            if own || kid_label {
                e.labels += 1;
            }
            let end = |t: &Option<String>| {
                t.as_deref()
                    .and_then(|t| by_id.get(t))
                    .filter(|t| drawn(t))
                    .map(|t| t.id.clone())
            };
            e.ends
                .insert(c.id.clone(), (end(&c.source), end(&c.target)));
        } else {
            e.vertices += 1;
            if own {
                e.labels += 1;
            }
        }
    }
    e
}

fn expected_file(path: &Path) -> Vec<Expected> {
    let text = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let mut pages = Vec::new();
    for d in doc.descendants().filter(|n| n.has_tag_name("diagram")) {
        match d.children().find(|n| n.has_tag_name("mxGraphModel")) {
            Some(model) => pages.push(expected_page(model)),
            None => {
                let xml = inflate_page(d.text().unwrap_or(""));
                let inner = roxmltree::Document::parse(&xml).unwrap();
                pages.push(expected_page(inner.root_element()));
            }
        }
    }
    pages
}

#[test]
fn every_file_imports_or_is_refused_by_name() {
    for path in corpus_files() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        match import(&path) {
            Ok(imported) => {
                let names: Vec<&str> = imported.assets.iter().map(|a| a.name.as_str()).collect();
                quire_sdk::validate::check(&imported.document, names)
                    .unwrap_or_else(|e| panic!("{name}: invalid model: {e}"));
                // The model survives its own JSON form.
                let json = serde_json::to_string(&imported.document).unwrap();
                quire_sdk::validate::parse(&json).unwrap();
            }
            Err(ConvertError::Refused { kind, .. }) => {
                assert_eq!(name, "custom-templates-library.xml");
                assert_eq!(kind, "mxlibrary");
            }
            Err(e) => panic!("{name}: {e:?}"),
        }
    }
}

#[test]
fn structure_matches_an_independent_reading() {
    let mut checked = 0;
    for path in corpus_files() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let Ok(imported) = import(&path) else {
            continue;
        };
        let expected = expected_file(&path);
        let pages = &imported.document.pages;
        assert_eq!(pages.len(), expected.len(), "{name}: page count");
        for (i, (page, want)) in pages.iter().zip(&expected).enumerate() {
            let got = found_page(page);
            let at = format!("{name} page {}", i + 1);
            assert_eq!(got.vertices, want.vertices, "{at}: vertices");
            assert_eq!(got.edges, want.edges, "{at}: edges");
            assert_eq!(got.labels, want.labels, "{at}: non-empty labels");
            if i == 0 {
                // Ids of the first page are draw.io's own: every edge keeps its ends.
                assert_eq!(got.ends, want.ends, "{at}: edge ends");
            } else {
                let attached = |e: &Expected| {
                    e.ends
                        .values()
                        .map(|(a, b)| a.is_some() as usize + b.is_some() as usize)
                        .sum::<usize>()
                };
                assert_eq!(attached(&got), attached(want), "{at}: attached ends");
            }
            checked += 1;
        }
    }
    assert!(checked >= 30, "only {checked} pages checked");
}
