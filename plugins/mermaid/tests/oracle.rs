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
        // Mermaid's default curve (`basis`) and all but its straight ones are smooth.
        let curve = e["curve"].as_str().unwrap_or("basis");
        let smooth = !matches!(curve, "linear" | "step" | "stepBefore" | "stepAfter");
        if c.curved != smooth {
            diffs.push(format!(
                "link {i}: curved {}, mermaid's curve {curve}",
                c.curved
            ));
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
    let out = quire_mermaid::export_mmd(&ExportRequest::new(
        doc.clone(),
        Vec::new(),
        "text/vnd.mermaid",
    ))
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
            "link {} {:?} -> {} {:?} {:?} len {} label {:?} dash {:?} curved {}",
            end(&c.from),
            c.from.head,
            end(&c.to),
            c.to.head,
            c.line,
            c.length.unwrap_or(1),
            c.label.as_ref().map(|t| t.plain_text()).unwrap_or_default(),
            c.stroke.map(|s| s.dash).unwrap_or_default(),
            c.curved,
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

/// A model such as the drawio, svg or vsdx importers make: every geometry, awkward ids and
/// labels, text boxes, pictures, pen strokes, loose and oddly headed connectors, two pages.
fn foreign_model() -> Document {
    use quire_sdk::*;
    let mut doc = Document::new(Kind::Diagram);
    doc.title = Some("A \"foreign\" diagram".into());
    let geometries = [
        Geometry::Rect,
        Geometry::Rounded,
        Geometry::Stadium,
        Geometry::Ellipse,
        Geometry::Circle,
        Geometry::DoubleCircle,
        Geometry::Diamond,
        Geometry::Hexagon,
        Geometry::Parallelogram,
        Geometry::ParallelogramAlt,
        Geometry::Trapezoid,
        Geometry::TrapezoidAlt,
        Geometry::Cylinder,
        Geometry::Subroutine,
        Geometry::Document,
        Geometry::Triangle,
        Geometry::Flag,
        Geometry::Note,
    ];
    let ids = [
        "node-1", "node_1", "class", "end", "a b", "日本", "styleX", "x", "o", "9lives", "ok_id",
        "graph", "default", "_top", "subgraph", "n.1", "n/1", "click",
    ];
    let labels = [
        "say \"hi\"",
        "hash #quot; here",
        "a < b > c & d",
        "two\nlines",
        "set direction TB now",
        "back\\slash [x] (y) {z}",
        "`tick",
        "pipe | bar",
        "semi; colon: end",
        "",
        "fa:fa-car Car",
        "Ünïcödé 日本語",
        "%% not a comment",
        "subgraph end",
        "--> arrow in text",
        "a ~~~ b",
        "x@y",
        "plain",
    ];
    let mut shapes: Vec<Shape> = Vec::new();
    for (i, g) in geometries.iter().enumerate() {
        let mut text = Text::plain(labels[i], 12.0);
        if i == 16 {
            text.runs = vec![Run::plain("bold ", 12.0), Run::plain("and it", 12.0)];
            text.runs[0].bold = true;
            text.runs[1].italic = true;
        }
        shapes.push(Shape::Node(Node {
            shadow: false,
            id: ids[i].into(),
            frame: Rect::new(10.0 + 60.0 * i as f64, 10.0, 50.0, 30.0),
            geometry: *g,
            fill: if i % 3 == 0 {
                Some(Color::rgb(200, 10, 10))
            } else {
                None
            },
            stroke: if i % 4 == 0 {
                None
            } else {
                Some(Stroke::solid(Color::rgb(0, 0, 200), 2.0))
            },
            text: (!labels[i].is_empty()).then_some(text),
            classes: if i % 5 == 0 {
                vec!["hot".into(), "bad class!".into()]
            } else {
                vec![]
            },
        }));
    }
    shapes.push(Shape::Text(TextBox {
        id: "caption".into(),
        frame: Rect::new(10.0, 100.0, 100.0, 20.0),
        text: Text::plain("A caption \"quoted\"", 10.0),
        fill: None,
        stroke: None,
    }));
    shapes.push(Shape::Image(Image {
        id: "pic".into(),
        frame: Rect::new(10.0, 130.0, 40.0, 40.0),
        asset: "pic.png".into(),
        alt: Some("a picture".into()),
        link: None,
    }));
    shapes.push(Shape::Path(PathShape {
        shadow: false,
        id: "pen".into(),
        segments: vec![
            Segment::MoveTo { x: 0.0, y: 0.0 },
            Segment::LineTo { x: 10.0, y: 10.0 },
        ],
        fill: None,
        stroke: Some(Stroke::solid(Color::BLACK, 1.0)),
        even_odd: false,
    }));
    let inner = Group {
        shadow: false,
        classes: Vec::new(),
        id: "inner group".into(),
        frame: Rect::new(300.0, 200.0, 100.0, 80.0),
        label: Some(Text::plain("Inner", 12.0)),
        fill: None,
        stroke: None,
        direction: Some("LR".into()),
        children: vec![Shape::Node(Node {
            shadow: false,
            id: "in1".into(),
            frame: Rect::new(310.0, 220.0, 40.0, 20.0),
            geometry: Geometry::Rect,
            fill: Some(Color::WHITE),
            stroke: Some(Stroke::solid(Color::BLACK, 1.0)),
            text: Some(Text::plain("inside", 12.0)),
            classes: vec![],
        })],
    };
    shapes.push(Shape::Group(Group {
        shadow: false,
        classes: Vec::new(),
        id: "outer".into(),
        frame: Rect::new(290.0, 180.0, 300.0, 200.0),
        label: None,
        fill: Some(Color::rgb(250, 250, 250)),
        stroke: Some(Stroke {
            color: Color::rgb(100, 100, 100),
            width: 1.0,
            dash: Dash::Dashed,
        }),
        direction: None,
        children: vec![
            Shape::Group(inner),
            Shape::Group(Group {
                shadow: false,
                classes: Vec::new(),
                id: "empty".into(),
                frame: Rect::new(450.0, 200.0, 50.0, 50.0),
                label: Some(Text::plain("Nothing here", 12.0)),
                fill: None,
                stroke: None,
                direction: None,
                children: vec![],
            }),
        ],
    }));
    let attached = |s: &str, head: ArrowHead| End {
        port: None,
        shape: Some(s.into()),
        point: None,
        head,
    };
    let conn = |id: &str, from: End, to: End| Connector {
        id: id.into(),
        from,
        to,
        waypoints: vec![],
        stroke: None,
        line: LineKind::Normal,
        label: None,
        length: None,
        curved: false,
        classes: vec![],
    };
    let mut c1 = conn(
        "c1",
        attached("node-1", ArrowHead::Arrow),
        attached("node_1", ArrowHead::None),
    );
    c1.label = Some(Text::plain("backwards \"head\"", 12.0));
    let mut c2 = conn(
        "c2",
        attached("class", ArrowHead::Diamond),
        attached("end", ArrowHead::Open),
    );
    c2.line = LineKind::Thick;
    c2.length = Some(3);
    let mut c3 = conn(
        "c3",
        attached("a b", ArrowHead::None),
        attached("in1", ArrowHead::Cross),
    );
    c3.stroke = Some(Stroke {
        color: Color::rgb(255, 0, 0),
        width: 3.0,
        dash: Dash::Dotted,
    });
    let mut c4 = conn(
        "c4",
        attached("日本", ArrowHead::Circle),
        attached("inner group", ArrowHead::Circle),
    );
    c4.stroke = Some(Stroke {
        color: Color::rgb(0, 128, 0),
        width: 1.0,
        dash: Dash::Dashed,
    });
    let mut c5 = conn(
        "c5",
        attached("x", ArrowHead::None),
        attached("o", ArrowHead::None),
    );
    c5.line = LineKind::Invisible;
    let loose = conn(
        "loose",
        attached("x", ArrowHead::None),
        End {
            port: None,
            shape: None,
            point: Some(Point { x: 5.0, y: 5.0 }),
            head: ArrowHead::Arrow,
        },
    );
    let to_picture = conn(
        "to-pic",
        attached("x", ArrowHead::None),
        attached("pic", ArrowHead::Arrow),
    );
    let to_caption = conn(
        "to-caption",
        attached("caption", ArrowHead::None),
        attached("outer", ArrowHead::Arrow),
    );
    for c in [c1, c2, c3, c4, c5, loose, to_picture, to_caption] {
        shapes.push(Shape::Connector(c));
    }
    let mut page = Page::new(1200.0, 500.0);
    page.shapes = shapes;
    doc.pages.push(page);
    let mut second = Page::new(200.0, 200.0);
    second.shapes = vec![Shape::Node(Node {
        shadow: false,
        id: "p2".into(),
        frame: Rect::new(10.0, 10.0, 50.0, 20.0),
        geometry: Geometry::Rect,
        fill: None,
        stroke: Some(Stroke::solid(Color::BLACK, 1.0)),
        text: Some(Text::plain("second page", 12.0)),
        classes: vec![],
    })];
    doc.pages.push(second);
    let json = serde_json::to_string(&doc).unwrap();
    quire_sdk::validate::parse_and_check(&json, ["pic.png"]).unwrap();
    doc
}

#[test]
fn foreign_models_export_to_mermaid_that_mermaid_reads() {
    let doc = foreign_model();
    let (mmd, headers) = export(&doc);
    let total = doc.shapes().count();
    assert_eq!(headers["x-service-shapes"], total.to_string());
    // The picture, the pen stroke, the loose connector and the one to the picture.
    assert_eq!(headers["x-service-dropped"], "4", "{mmd}");
    assert_eq!(headers["x-service-loose-connectors"], "1");

    let dir = temp_dir("foreign");
    let files = write_all(&dir, &[("foreign.mmd".to_string(), mmd.clone())]);
    let theirs = &mermaid(&files)[0];
    assert_eq!(
        theirs["ok"], true,
        "mermaid refuses:\n{}\n{mmd}",
        theirs["error"]
    );
    let again = import(&mmd).document;
    let d = differences(&again, theirs);
    assert!(d.is_empty(), "{}\n{mmd}", d.join("\n"));

    // What mermaid can say survived: every node and text box (with its label and shape),
    // both groups with their members, the six expressible connectors.
    assert_eq!(again.title.as_deref(), Some("A \"foreign\" diagram"));
    let labels: Vec<String> = nodes(&again).iter().map(|n| node_text(n)).collect();
    for want in [
        "say \"hi\"",
        "hash #quot; here",
        "a < b > c & d",
        "two\nlines",
        "set direction TB now",
    ] {
        assert!(
            labels.iter().any(|l| l == want),
            "{want:?} not in {labels:?}"
        );
    }
    assert!(labels.iter().any(|l| l == "back\\slash [x] (y) {z}"));
    assert!(labels.iter().any(|l| l == "A caption \"quoted\""));
    assert_eq!(
        nodes(&again).len(),
        18 + 1 + 1 + 1,
        "nodes, caption, in1, p2"
    );
    let bold = nodes(&again)
        .into_iter()
        .find(|n| node_text(n) == "bold and it")
        .and_then(|n| n.text.clone())
        .unwrap();
    assert!(bold.runs.iter().any(|r| r.bold && r.text.trim() == "bold"));
    assert!(bold
        .runs
        .iter()
        .any(|r| r.italic && r.text.trim() == "and it"));
    for (orig, back) in nodes(&doc).iter().zip(nodes(&again)) {
        assert_eq!(orig.geometry, back.geometry, "{} -> {}", orig.id, back.id);
    }
    let p = parents(&again);
    let group_of = |label: &str| {
        let n = nodes(&again)
            .into_iter()
            .find(|n| node_text(n) == label)
            .unwrap();
        p[&n.id].clone()
    };
    assert_eq!(group_of("inside").as_deref(), Some("inner_group"));
    assert_eq!(p["inner_group"].as_deref(), Some("outer"));
    assert_eq!(p["empty"].as_deref(), Some("outer"));
    let inner = groups(&again)
        .into_iter()
        .find(|g| g.id == "inner_group")
        .unwrap();
    assert_eq!(inner.direction.as_deref(), Some("LR"));
    let links = connectors(&again);
    assert_eq!(links.len(), 6);
    // The start-only head was written the other way round.
    assert_eq!(links[0].from.shape.as_deref(), Some("node_1_2"));
    assert_eq!(links[0].to.head, ArrowHead::Arrow);
    assert_eq!(links[1].line, LineKind::Thick);
    assert_eq!(links[1].length, Some(3));
    assert_eq!(links[2].stroke.map(|s| s.dash), Some(Dash::Dotted));
    assert_eq!(links[3].stroke.map(|s| s.dash), Some(Dash::Dashed));
    assert_eq!(links[3].to.shape.as_deref(), Some("inner_group"));
    assert_eq!(links[4].line, LineKind::Invisible);
}

#[test]
fn the_comparison_notices_differences() {
    let dir = temp_dir("cmp");
    let files = write_all(
        &dir,
        &[(
            "x.mmd".to_string(),
            "flowchart LR\nA---B\nC\nsubgraph S\nB\nend\nlinkStyle 0 interpolate linear\n"
                .to_string(),
        )],
    );
    let theirs = &mermaid(&files)[0];
    let ours = import("flowchart LR\nA-->|x|B\nsubgraph S\nA\nend\n").document;
    let d = differences(&ours, theirs).join("\n");
    for want in [
        "node `C` missing",
        "heads",
        "label",
        "group `S` holds",
        "curved true, mermaid's curve linear",
    ] {
        assert!(d.contains(want), "{want}: {d}");
    }
}

/// A configured curve (`flowchart.curve` in the front matter's `config` or an `init`
/// directive) is every link's that names none, as mermaid draws them; a directive wins.
#[test]
fn a_configured_curve_is_the_links_default() {
    let sources = [
        "%%{init: {'flowchart': {'curve': 'linear'}}}%%\nflowchart LR\nA --> B --> C\n",
        "---\nconfig:\n  theme: forest\n  flowchart:\n    curve: stepAfter\n  fontFamily: serif\n---\nflowchart LR\nA --> B\nB e1@--> C\ne1@{ curve: natural }\n",
        "---\nconfig:\n  flowchart:\n    curve: basis\n---\n%%{init: {\"flowchart\": {\"curve\": \"linear\"}}}%%\nflowchart LR\nA --> B\n",
    ];
    let expected: [&[bool]; 3] = [&[false, false], &[false, true], &[false]];
    for (source, expected) in sources.iter().zip(expected) {
        let curved: Vec<bool> = connectors(&import(source).document)
            .iter()
            .map(|c| c.curved)
            .collect();
        assert_eq!(curved, expected, "{source}");
    }
    let dir = temp_dir("configured-curves");
    let items: Vec<(String, String)> = sources
        .iter()
        .enumerate()
        .map(|(i, s)| (format!("c{i}.mmd"), s.to_string()))
        .collect();
    let theirs = mermaid(&write_all(&dir, &items));
    for ((name, text), theirs) in items.iter().zip(&theirs) {
        let d = differences(&import(text).document, theirs);
        assert!(d.is_empty(), "{name}: {d:?}\n{text}");
    }
}

/// Links are smooth curves, as mermaid draws them, and straight where the chart says
/// `interpolate linear` (or a step) or a link's data names such a curve; the `.mmd`
/// written back says the same to mermaid, all at once when no link is curved.
#[test]
fn curves_are_read_and_written_as_mermaid_reads_them() {
    let source = "flowchart LR\nA --> B\nB e1@--> C\nC --> D\n\
                  linkStyle 0 interpolate linear\ne1@{ curve: stepAfter }\n";
    let ours = import(source).document;
    let curved: Vec<bool> = connectors(&ours).iter().map(|c| c.curved).collect();
    assert_eq!(curved, [false, false, true]);
    let (mixed, _) = export(&ours);
    assert!(mixed.contains("linkStyle 0 interpolate linear"), "{mixed}");
    let straight = import("flowchart LR\nA --> B --> C\nlinkStyle default interpolate linear\n");
    let (all_straight, _) = export(&straight.document);
    assert_eq!(
        all_straight.matches("interpolate").count(),
        1,
        "{all_straight}"
    );
    let dir = temp_dir("curves");
    let items = [
        ("source.mmd".to_string(), source.to_string()),
        ("mixed.mmd".to_string(), mixed.clone()),
        ("straight.mmd".to_string(), all_straight.clone()),
    ];
    let theirs = mermaid(&write_all(&dir, &items));
    for ((name, text), theirs) in items.iter().zip(&theirs) {
        let d = differences(&import(text).document, theirs);
        assert!(d.is_empty(), "{name}: {d:?}\n{text}");
    }
    let again: Vec<bool> = connectors(&import(&mixed).document)
        .iter()
        .map(|c| c.curved)
        .collect();
    assert_eq!(again, curved);
}
