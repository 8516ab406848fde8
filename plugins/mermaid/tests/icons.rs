//! Font Awesome icons and pictures in labels: not drawn (no icon font, no network), told in
//! a warning, and kept in the `.mmd` written back so mermaid still draws them.

mod common;

use common::*;
use quire_sdk::Document;

const CHART: &str =
    "graph TD\n    B[\"fa:fa-car for peace\"]\n    B-->C[fa:fa-ban forbidden]\n    \
    B-->|fab:fa-github code|D(A fa:fa-camera-retro perhaps?)\n    \
    D-->F(\"<img src='data:image/svg+xml,%3Csvg%3E%3C/svg%3E'/> <br/> Red Circle\")\n    \
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
        "<img src='data:image/svg+xml,%3Csvg%3E%3C/svg%3E'/> <br/> Red Circle",
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
