//! Font Awesome icons and pictures in labels: icons are not drawn (no icon font), nor
//! pictures from elsewhere (no network), which a warning tells; pictures embedded in the
//! label (`data:` URIs) are drawn above its text. All are kept in the `.mmd` written back so
//! mermaid still draws them.

mod common;

use common::*;
use quire_sdk::{Document, Shape};

const CHART: &str =
    "graph TD\n    B[\"fa:fa-car for peace\"]\n    B-->C[fa:fa-ban forbidden]\n    \
    B-->|fab:fa-github code|D(A fa:fa-camera-retro perhaps?)\n    \
    D-->F(\"<img src='https://example.com/red-circle.svg'/> <br/> Red Circle\")\n    \
    F-->G[Plain]\n";

fn texts(doc: &Document) -> Vec<String> {
    let mut out: Vec<String> = nodes(doc).into_iter().map(node_text).collect();
    out.extend(
        connectors(doc)
            .into_iter()
            .filter_map(|c| c.label.as_ref().map(|l| l.plain_text())),
    );
    out
}

#[test]
fn icons_and_pictures_are_left_out_of_the_drawing_with_a_warning() {
    let imported = import(CHART);
    let drawn = texts(&imported.document);
    assert_eq!(
        drawn,
        [
            "for peace",
            "forbidden",
            "A perhaps?",
            "Red Circle",
            "Plain",
            "code"
        ]
    );
    assert!(drawn.iter().all(|t| !t.contains("fa:") && !t.contains('<')));
    let said = imported.warnings.join("\n");
    assert!(
        said.contains(
            "4 Font Awesome icons (fa:fa-car, fa:fa-ban, fa:fa-camera-retro, fab:fa-github)"
        ),
        "{said}"
    );
    assert!(said.contains("1 picture in labels (<img>)"), "{said}");
    // A chart without any says nothing about them.
    let plain = import("graph TD\n  A --> B\n");
    assert!(plain
        .warnings
        .iter()
        .all(|w| !w.contains("icon") && !w.contains("picture")));
}

#[test]
fn the_mmd_written_back_keeps_them_until_the_text_is_edited() {
    let imported = import(CHART);
    let mmd = export_mmd(&imported.document);
    for kept in [
        "fa:fa-car for peace",
        "fa:fa-ban forbidden",
        "A fa:fa-camera-retro perhaps?",
        "|\"fab:fa-github code\"|",
        "<img src='https://example.com/red-circle.svg'/> <br/> Red Circle",
    ] {
        assert!(mmd.contains(kept), "{kept} not in\n{mmd}");
    }
    // Read back, it draws and keeps the same.
    let again = import(&mmd);
    assert_eq!(texts(&again.document), texts(&imported.document));
    assert_eq!(export_mmd(&again.document), mmd);

    // Text edited since the import: the edit is written, the old source is not.
    let mut edited = imported.document.clone();
    for page in &mut edited.pages {
        for shape in &mut page.shapes {
            if let quire_sdk::Shape::Node(n) = shape {
                if n.id == "C" {
                    n.text.as_mut().unwrap().runs[0].text = "allowed".into();
                }
            }
        }
    }
    let mmd = export_mmd(&edited);
    assert!(
        mmd.contains("\"allowed\"") && !mmd.contains("fa-ban"),
        "{mmd}"
    );
}

#[test]
fn formulas_are_drawn_as_one_line_and_written_back_as_typed() {
    let source = "graph LR\n  A[\"$$x^2$$\"] -->|\"$$\\sqrt{x+3}$$\"| B(\"$$\\frac{1}{2}$$\")\n";
    let imported = import(source);
    assert_eq!(texts(&imported.document), ["x²", "1/2", "√(x+3)"]);
    let mmd = export_mmd(&imported.document);
    for kept in ["$$x^2$$", "$$\\sqrt{x+3}$$", "$$\\frac{1}{2}$$"] {
        assert!(mmd.contains(kept), "{kept} not in\n{mmd}");
    }
    assert_eq!(texts(&import(&mmd).document), texts(&imported.document));
    let node = &nodes(&imported.document)[0];
    assert!(node.text.as_ref().unwrap().runs.iter().all(|r| r.italic));
}

/// mermaid-cli's own example: a 100 x 100 SVG circle above "Red Circle". The circle is drawn
/// as shapes above the text, centred on the node, in a group of its own that the `.mmd`
/// leaves to the label's source; a picture from a URL stays undrawn, with the warning.
#[test]
fn an_embedded_picture_is_drawn_above_its_text() {
    let circle = "<img height='100' width='100' src='data:image/svg+xml,%3Csvg viewBox=%220 0 100 100%22 \
                  xmlns=%22http://www.w3.org/2000/svg%22%3E%3Ccircle cx=%2250%22 cy=%2250%22 r=%2240%22 \
                  fill=%22red%22 /%3E%3C/svg%3E'/> <br/> Red Circle";
    let chart = format!(
        "graph TD\n  D(spinner) --> F(\"{circle}\")\n  F --> G(\"<img src='https://example.com/a.png'/> far\")\n"
    );
    let imported = import(&chart);
    valid(&imported.document);
    let node = nodes(&imported.document)
        .into_iter()
        .find(|n| n.id == "F")
        .unwrap()
        .clone();
    assert_eq!(node_text(&node), "Red Circle");
    let picture = imported
        .document
        .shapes()
        .find_map(|s| match s {
            Shape::Group(g) if g.id == "F:picture" => Some(g.clone()),
            _ => None,
        })
        .expect("the picture's group");
    assert_eq!((picture.frame.w, picture.frame.h), (100.0, 100.0));
    assert!(
        node.frame.h > 100.0 && node.frame.w > 100.0,
        "{:?}",
        node.frame
    );
    let centre = |r: quire_sdk::Rect| r.x + r.w / 2.0;
    assert!((centre(picture.frame) - centre(node.frame)).abs() < 0.5);
    assert!(picture.frame.y >= node.frame.y && picture.frame.bottom() <= node.frame.bottom());
    // The text stands under the picture.
    let padding = node.text.as_ref().unwrap().padding.unwrap();
    assert_eq!(padding.top, 100.0);
    let red = picture.children.iter().any(|s| match s {
        Shape::Path(p) => p.fill.is_some_and(|c| (c.r, c.g, c.b) == (255, 0, 0)),
        Shape::Node(n) => n.fill.is_some_and(|c| (c.r, c.g, c.b) == (255, 0, 0)),
        _ => false,
    });
    assert!(red, "{:?}", picture.children);
    let said = imported.warnings.join("\n");
    assert!(said.contains("1 picture in labels (<img>)"), "{said}");

    // Written back: no subgraph for the picture, the label's source as it was; read again,
    // the same picture.
    let mmd = export_mmd(&imported.document);
    assert!(!mmd.contains("subgraph"), "{mmd}");
    assert!(mmd.contains("%3Ccircle cx=%2250%22"), "{mmd}");
    let again = import(&mmd);
    let count = |doc: &Document| {
        doc.shapes()
            .filter(|s| matches!(s, Shape::Group(g) if g.id.ends_with(":picture")))
            .count()
    };
    assert_eq!(count(&again.document), 1);
}
