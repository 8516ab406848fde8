//! The real mermaid library (npm `mermaid`, run headless under node with jsdom) as the
//! judge: it must read every flowchart the way the importer does, and it must accept every
//! `.mmd` the exporter writes, seeing the same structure.
//!
//! Needs `npm ci` in `plugins/mermaid/tests/js` (the Makefile's `mermaid-deps` step).

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;
use quire_sdk::{ArrowHead, Dash, Document, ExportRequest, LineKind};
use serde_json::Value;

fn js_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/js")
}

/// Runs mermaid on `files`; one JSON object per file.
fn mermaid(files: &[PathBuf]) -> Vec<Value> {
    let dir = js_dir();
    assert!(
        dir.join("node_modules/mermaid").is_dir(),
        "the mermaid npm package is not installed: run `npm ci` in {} (make mermaid-deps)",
        dir.display()
    );
    let out = Command::new("node")
        .arg(dir.join("parse.mjs"))
        .args(files)
        .output()
        .unwrap_or_else(|e| panic!("cannot run node: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(
        lines.len(),
        files.len(),
        "node said:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    lines
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("quire-mermaid-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every flowchart input: the corpus files and the documentation's examples.
fn inputs() -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = corpus_files()
        .into_iter()
        .filter(|p| !p.ends_with("not-a-flowchart-sequence.mmd"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    for (i, ex) in doc_examples().into_iter().enumerate() {
        v.push((format!("doc-example-{i:03}.mmd"), ex));
    }
    v
}

fn write_all(dir: &Path, items: &[(String, String)]) -> Vec<PathBuf> {
    items
        .iter()
        .map(|(name, text)| {
            let p = dir.join(name);
            std::fs::write(&p, text).unwrap();
            p
        })
        .collect()
}

fn heads(kind: &str) -> (ArrowHead, ArrowHead) {
    let one = |k: &str| match k {
        "arrow_point" => ArrowHead::Arrow,
        "arrow_circle" => ArrowHead::Circle,
        "arrow_cross" => ArrowHead::Cross,
        _ => ArrowHead::None,
    };
    match kind.strip_prefix("double_") {
        Some(k) => (one(k), one(k)),
        None => (ArrowHead::None, one(kind)),
    }
}

/// Differences between mermaid's reading (`theirs`) and the model imported from the same text.
fn differences(ours: &Document, theirs: &Value) -> Vec<String> {
    let mut diffs = Vec::new();
    let our_nodes: HashMap<String, String> = nodes(ours)
        .iter()
        .map(|n| (n.id.clone(), node_text(n)))
        .collect();
    let their_nodes = theirs["nodes"].as_array().cloned().unwrap_or_default();
    if their_nodes.len() != our_nodes.len() {
        diffs.push(format!(
            "{} nodes, mermaid has {}",
            our_nodes.len(),
            their_nodes.len()
        ));
    }
    for n in &their_nodes {
        let id = n["id"].as_str().unwrap_or_default();
        match our_nodes.get(id) {
            None => diffs.push(format!("node `{id}` missing")),
            Some(text) if text != n["shown"].as_str().unwrap_or_default() => diffs.push(format!(
                "node `{id}`: label {text:?}, mermaid shows {:?}",
                n["shown"]
            )),
            _ => {}
        }
    }
    let our_edges = connectors(ours);
    let their_edges = theirs["edges"].as_array().cloned().unwrap_or_default();
    if their_edges.len() != our_edges.len() {
        diffs.push(format!(
            "{} links, mermaid has {}",
            our_edges.len(),
            their_edges.len()
        ));
    }
    for (i, (c, e)) in our_edges.iter().zip(&their_edges).enumerate() {
        let ends = (c.from.shape.as_deref(), c.to.shape.as_deref());
        let want = (e["start"].as_str(), e["end"].as_str());
        if ends != want {
            diffs.push(format!("link {i}: {ends:?}, mermaid {want:?}"));
        }
        let h = heads(e["type"].as_str().unwrap_or_default());
        if (c.from.head, c.to.head) != h {
            diffs.push(format!(
                "link {i}: heads {:?} {:?}, mermaid {h:?}",
                c.from.head, c.to.head
            ));
        }
        let stroke = match (c.line, c.stroke.map(|s| s.dash)) {
            (LineKind::Thick, _) => "thick",
            (LineKind::Invisible, _) => "invisible",
            (_, Some(Dash::Dotted)) => "dotted",
            _ => "normal",
        };
        // A `linkStyle` dash makes a normal link dotted here; mermaid keeps its stroke kind.
        if stroke != e["stroke"].as_str().unwrap_or_default() && c.classes.is_empty() {
            let styled_dash = stroke == "dotted" && e["stroke"] == "normal";
            if !styled_dash {
                diffs.push(format!("link {i}: {stroke}, mermaid {}", e["stroke"]));
            }
        }
        let len = c.length.unwrap_or(1) as u64;
        if Some(len) != e["length"].as_u64() {
            diffs.push(format!("link {i}: length {len}, mermaid {}", e["length"]));
        }
        let label = c.label.as_ref().map(|t| t.plain_text()).unwrap_or_default();
        if label != e["shown"].as_str().unwrap_or_default() {
            diffs.push(format!(
                "link {i}: label {label:?}, mermaid {:?}",
                e["shown"]
            ));
        }
    }
    let parent = parents(ours);
    let our_groups: HashMap<String, String> = groups(ours)
        .iter()
        .map(|g| {
            (
                g.id.clone(),
                g.label.as_ref().map(|t| t.plain_text()).unwrap_or_default(),
            )
        })
        .collect();
    let their_groups = theirs["subgraphs"].as_array().cloned().unwrap_or_default();
    if their_groups.len() != our_groups.len() {
        diffs.push(format!(
            "{} groups, mermaid has {}",
            our_groups.len(),
            their_groups.len()
        ));
    }
    for g in &their_groups {
        let id = g["id"].as_str().unwrap_or_default();
        let Some(title) = our_groups.get(id) else {
            diffs.push(format!("group `{id}` missing"));
            continue;
        };
        if title != g["shown"].as_str().unwrap_or_default() {
            diffs.push(format!(
                "group `{id}`: title {title:?}, mermaid {:?}",
                g["shown"]
            ));
        }
        let mut theirs: Vec<&str> = g["nodes"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        theirs.sort();
        theirs.dedup();
        let mut ours: Vec<&str> = parent
            .iter()
            .filter(|(_, p)| p.as_deref() == Some(id))
            .map(|(k, _)| k.as_str())
            .filter(|k| our_nodes.contains_key(*k) || our_groups.contains_key(*k))
            .collect();
        ours.sort();
        if ours != theirs {
            diffs.push(format!("group `{id}` holds {ours:?}, mermaid {theirs:?}"));
        }
    }
    diffs
}

#[test]
fn mermaid_reads_every_flowchart_as_the_importer_does() {
    let items = inputs();
    let dir = temp_dir("in");
    let files = write_all(&dir, &items);
    let verdicts = mermaid(&files);
    let mut failures = Vec::new();
    for ((name, text), theirs) in items.iter().zip(&verdicts) {
        assert_eq!(
            theirs["ok"], true,
            "{name}: mermaid refuses its own input: {theirs}"
        );
        let ours = import(text).document;
        let d = differences(&ours, theirs);
        if !d.is_empty() {
            failures.push(format!("{name}:\n  {}", d.join("\n  ")));
        }
    }
    println!(
        "{} of {} inputs agree with mermaid",
        items.len() - failures.len(),
        items.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn export(doc: &Document) -> (String, HashMap<String, String>) {
    let out = quire_mermaid::export_mmd(&ExportRequest {
        document: doc.clone(),
        assets: Vec::new(),
        media_type: "text/vnd.mermaid".into(),
        page: None,
        dpi: None,
        options: Vec::new(),
    })
    .unwrap();
    assert_eq!(out.media_type, "text/vnd.mermaid");
    (
        String::from_utf8(out.bytes).unwrap(),
        out.headers.into_iter().collect(),
    )
}

/// The structure as multisets keyed by labels, so ids that had to change do not matter.
fn structure(doc: &Document) -> Vec<String> {
    let label_of: HashMap<String, String> = doc
        .shapes()
        .map(|s| {
            let l = match s {
                quire_sdk::Shape::Node(n) => format!("node {:?} {:?}", node_text(n), n.geometry),
                quire_sdk::Shape::Group(g) => format!(
                    "group {:?}",
                    g.label.as_ref().map(|t| t.plain_text()).unwrap_or_default()
                ),
                other => other.type_name().to_string(),
            };
            (s.id().to_string(), l)
        })
        .collect();
    let mut out: Vec<String> = Vec::new();
    for (id, p) in parents(doc) {
        if let Some(l) = label_of.get(&id).filter(|l| !l.starts_with("connector")) {
            let pl = p
                .and_then(|p| label_of.get(&p).cloned())
                .unwrap_or_default();
            out.push(format!("{l} in [{pl}]"));
        }
    }
    for c in connectors(doc) {
        let end = |e: &quire_sdk::End| {
            e.shape
                .as_ref()
                .and_then(|s| label_of.get(s))
                .cloned()
                .unwrap_or_default()
        };
        out.push(format!(
            "link {} {:?} -> {} {:?} {:?} len {} label {:?} dash {:?}",
            end(&c.from),
            c.from.head,
            end(&c.to),
            c.to.head,
            c.line,
            c.length.unwrap_or(1),
            c.label.as_ref().map(|t| t.plain_text()).unwrap_or_default(),
            c.stroke.map(|s| s.dash).unwrap_or_default(),
        ));
    }
    out.sort();
    out
}

#[test]
fn exported_text_is_read_by_mermaid_and_round_trips() {
    let items = inputs();
    let dir = temp_dir("out");
    let mut exported = Vec::new();
    let mut originals = Vec::new();
    for (name, text) in &items {
        let doc = import(text).document;
        let (mmd, headers) = export(&doc);
        assert_eq!(headers["x-service-dropped"], "0", "{name}");
        assert_eq!(headers["x-service-loose-connectors"], "0", "{name}");
        assert_eq!(
            headers["x-service-shapes"],
            doc.shapes().count().to_string(),
            "{name}"
        );
        exported.push((name.clone(), mmd));
        originals.push(doc);
    }
    let files = write_all(&dir, &exported);
    let verdicts = mermaid(&files);
    let mut failures = Vec::new();
    for (((name, mmd), original), theirs) in exported.iter().zip(&originals).zip(&verdicts) {
        if theirs["ok"] != true || theirs["type"] != "flowchart-v2" {
            failures.push(format!(
                "{name}: mermaid refuses the export: {}\n{mmd}",
                theirs["error"]
            ));
            continue;
        }
        let again = import(mmd).document;
        let d = differences(&again, theirs);
        if !d.is_empty() {
            failures.push(format!(
                "{name}: mermaid reads the export differently:\n  {}\n{mmd}",
                d.join("\n  ")
            ));
        }
        let (a, b) = (structure(original), structure(&again));
        if a != b {
            let only_a: Vec<_> = a.iter().filter(|x| !b.contains(x)).collect();
            let only_b: Vec<_> = b.iter().filter(|x| !a.contains(x)).collect();
            failures.push(format!(
                "{name}: round trip changed the structure\n  before only: {only_a:?}\n  after only: {only_b:?}\n{mmd}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
