//! Helpers shared by the SVG tests: model builders, the independent well-formedness checks
//! (Python's `xml.etree`, `roxmltree`, `rsvg-convert` from Debian's `librsvg2-bin`) and a
//! resvg render with the embedded Liberation fonts. Outputs go to `target/tmp/quire-svg/`.

#![allow(dead_code)] // each test file uses its own subset

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use quire_sdk::*;

pub const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus");

pub fn out_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("quire-svg");
    std::fs::create_dir_all(&dir).expect("create the output directory");
    dir
}

pub fn request(document: Document, assets: Vec<Asset>) -> ExportRequest {
    ExportRequest::new(document, assets, "image/svg+xml")
}

pub fn run(text: &str, font: FontFamily, size: f64) -> Run {
    Run {
        font,
        ..Run::plain(text, size)
    }
}

pub fn text_box(id: &str, frame: Rect, runs: Vec<Run>) -> Shape {
    Shape::Text(TextBox {
        id: id.into(),
        frame,
        text: Text {
            runs,
            ..Text::default_layout()
        },
        fill: None,
        stroke: None,
    })
}

pub fn node(id: &str, frame: Rect, geometry: Geometry, label: &str) -> Shape {
    let mut text = Text::plain(label, 10.0);
    text.align = Align::Center;
    text.valign = VAlign::Middle;
    Shape::Node(Node {
        shadow: false,
        id: id.into(),
        frame,
        geometry,
        fill: Some(Color::rgb(0xdd, 0xee, 0xff)),
        stroke: Some(Stroke::solid(Color::rgb(0x22, 0x44, 0x88), 1.5)),
        text: Some(text),
        classes: Vec::new(),
    })
}

pub fn end(shape: &str, head: ArrowHead) -> End {
    End {
        port: None,
        shape: Some(shape.into()),
        point: None,
        head,
    }
}

pub fn connector(id: &str, from: End, to: End) -> Connector {
    Connector {
        id: id.into(),
        from,
        to,
        waypoints: Vec::new(),
        stroke: None,
        line: LineKind::Normal,
        label: None,
        length: None,
        curved: false,
        classes: Vec::new(),
    }
}

/// Parses `svg` with Python's standard XML parser (an implementation that shares nothing
/// with ours) and returns the number of elements it saw.
pub fn python_element_count(svg: &str) -> usize {
    let mut child = Command::new("python3")
        .args([
            "-c",
            "import sys, xml.etree.ElementTree as E; \
             root = E.fromstring(sys.stdin.buffer.read()); \
             print(sum(1 for _ in root.iter()))",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(svg.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "xml.etree refused the SVG: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
}

/// Renders `svg` with `rsvg-convert` (librsvg, a second independent renderer) when it is
/// installed, and returns the PNG bytes. `None` when the tool is missing: the other checks
/// still run, and the message says how to install it.
pub fn rsvg_png(svg: &str, name: &str) -> Option<Vec<u8>> {
    let path = out_dir().join(format!("{name}.svg"));
    std::fs::write(&path, svg).unwrap();
    let png = out_dir().join(format!("{name}.rsvg.png"));
    let out = match Command::new("rsvg-convert")
        .arg("-o")
        .arg(&png)
        .arg(&path)
        .output()
    {
        Ok(out) => out,
        Err(_) => {
            eprintln!("rsvg-convert is not installed (apt-get install -y librsvg2-bin); skipped");
            return None;
        }
    };
    assert!(
        out.status.success(),
        "rsvg-convert refused {name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(std::fs::read(png).unwrap())
}

/// Every check of well-formedness we have, in one call.
pub fn check_svg<'a>(svg: &'a str, name: &str) -> roxmltree::Document<'a> {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    assert_eq!(
        python_element_count(svg),
        doc.descendants().filter(|n| n.is_element()).count(),
        "{name}: the two XML parsers disagree"
    );
    rsvg_png(svg, name);
    doc
}

/// The embedded fonts of the PNG exporter, for resvg renders in tests.
pub fn fontdb() -> usvg::fontdb::Database {
    let mut db = usvg::fontdb::Database::new();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../png/fonts");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "ttf") {
            db.load_font_data(std::fs::read(path).unwrap());
        }
    }
    assert!(
        db.len() >= 12,
        "the Liberation fonts are in plugins/png/fonts"
    );
    db.set_sans_serif_family("Liberation Sans");
    db.set_serif_family("Liberation Serif");
    db.set_monospace_family("Liberation Mono");
    db
}

/// Renders `svg` with resvg at one pixel per point; pixels as RGBA.
pub fn resvg_render(svg: &str) -> (u32, u32, Vec<u8>) {
    let opt = usvg::Options {
        fontdb: std::sync::Arc::new(fontdb()),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &opt).expect("usvg reads our SVG");
    let size = tree.size().to_int_size();
    // `pt` on the root: 1 pt is 4/3 px at 96 dpi.
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    pixmap.fill(resvg::tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    (size.width(), size.height(), pixmap.data().to_vec())
}

/// Text of every `<text>` element, in document order.
pub fn texts<'a>(doc: &'a roxmltree::Document) -> Vec<(roxmltree::Node<'a, 'a>, String)> {
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| {
            let s: String = n
                .descendants()
                .filter(|d| d.is_text())
                .filter_map(|d| d.text())
                .collect();
            (n, s)
        })
        .collect()
}

pub fn attr_f64(n: roxmltree::Node, name: &str) -> f64 {
    n.attribute(name)
        .unwrap_or_else(|| panic!("<{}> has no {name}", n.tag_name().name()))
        .parse()
        .unwrap()
}
