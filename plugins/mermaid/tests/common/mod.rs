//! Helpers shared by the integration tests: the corpus, the mermaid examples embedded in the
//! flowchart documentation, and views of an imported model.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::PathBuf;

use quire_sdk::{
    Connector, Document, ExportRequest, Group, ImportRequest, Imported, Node, Rect, Shape,
};

pub fn corpus_root() -> PathBuf {
    match std::env::var_os("QUIRE_CORPUS") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
    }
}

/// Every `.mmd` file of the corpus, sorted.
pub fn corpus_files() -> Vec<PathBuf> {
    let dir = corpus_root().join("mermaid");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("corpus {} unreadable: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mmd"))
        .collect();
    files.sort();
    assert!(files.len() >= 14, "corpus has {} files", files.len());
    files
}

/// The fenced mermaid blocks (```mermaid and ```mermaid-example) of the flowchart syntax page.
pub fn doc_examples() -> Vec<String> {
    let path = corpus_root().join("markdown/mermaid-flowchart-syntax.md");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{} unreadable: {e}", path.display()));
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        match &mut current {
            None => {
                let t = line.trim_start();
                if t == "```mermaid" || t == "```mermaid-example" {
                    current = Some(String::new());
                }
            }
            Some(block) => {
                if line.trim_start().starts_with("```") {
                    out.push(std::mem::take(block));
                    current = None;
                } else {
                    block.push_str(line);
                    block.push('\n');
                }
            }
        }
    }
    out
}

pub fn request(text: &str) -> ImportRequest {
    ImportRequest::new(text, "text/vnd.mermaid")
}

/// Imports and checks the result the way the host does.
pub fn import(text: &str) -> Imported {
    let out = quire_mermaid::import_mermaid(request(text))
        .unwrap_or_else(|e| panic!("import failed: {e:?}\n{text}"));
    valid(&out.document);
    out
}

pub fn valid(doc: &Document) {
    let json = serde_json::to_string(doc).unwrap();
    quire_sdk::validate::parse_and_check(&json, [])
        .unwrap_or_else(|e| panic!("invalid model: {e}"));
}

pub fn nodes(doc: &Document) -> Vec<&Node> {
    doc.shapes()
        .filter_map(|s| {
            if let Shape::Node(n) = s {
                Some(n)
            } else {
                None
            }
        })
        .collect()
}

pub fn groups(doc: &Document) -> Vec<&Group> {
    doc.shapes()
        .filter_map(|s| {
            if let Shape::Group(g) = s {
                Some(g)
            } else {
                None
            }
        })
        .collect()
}

pub fn connectors(doc: &Document) -> Vec<&Connector> {
    doc.shapes()
        .filter_map(|s| {
            if let Shape::Connector(c) = s {
                Some(c)
            } else {
                None
            }
        })
        .collect()
}

/// Parent group of every shape id (None at the top).
pub fn parents(doc: &Document) -> HashMap<String, Option<String>> {
    let mut out = HashMap::new();
    fn walk(shapes: &[Shape], parent: Option<&str>, out: &mut HashMap<String, Option<String>>) {
        for s in shapes {
            out.insert(s.id().to_string(), parent.map(str::to_string));
            if let Shape::Group(g) = s {
                walk(&g.children, Some(&g.id), out);
            }
        }
    }
    for p in &doc.pages {
        walk(&p.shapes, None, &mut out);
    }
    out
}

pub fn frames(doc: &Document) -> HashMap<String, Rect> {
    doc.shapes()
        .filter_map(|s| s.frame().map(|f| (s.id().to_string(), f)))
        .collect()
}

pub fn node_text(n: &Node) -> String {
    n.text.as_ref().map(|t| t.plain_text()).unwrap_or_default()
}

/// The document as mermaid text, as the converter's export writes it.
pub fn export_mmd(doc: &Document) -> String {
    let out = quire_mermaid::export_mmd(&ExportRequest::new(
        doc.clone(),
        Vec::new(),
        "text/vnd.mermaid",
    ))
    .unwrap();
    String::from_utf8(out.bytes).unwrap()
}
