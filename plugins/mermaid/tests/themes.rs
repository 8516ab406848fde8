//! Themes from `%%{init}%%` directives and the front matter's `config`, as mermaid-cli
//! draws them (the colours mermaid 11's theme files compute).

mod common;

use common::*;
use quire_sdk::{Color, FontFamily};

fn fill_of_node(doc: &quire_sdk::Document, id: &str) -> Option<Color> {
    nodes(doc)
        .into_iter()
        .find(|n| n.id == id)
        .and_then(|n| n.fill)
}

#[test]
fn an_init_directive_sets_the_base_theme_and_its_primary_colour() {
    let doc = import(
        "%%{init: {'theme': 'base', 'themeVariables': { 'primaryColor': '#ff0000'}}}%%\n\
         graph TD\n  A[Christmas] --> B\n  subgraph section\n  B\n  end\n",
    )
    .document;
    assert_eq!(fill_of_node(&doc, "A"), Some(Color::rgb(255, 0, 0)));
    // base derives the subgraph's colour: the primary's hue turned half round, lighter.
    let g = &groups(&doc)[0];
    assert_eq!(g.fill, Some(Color::rgb(0x1a, 0xff, 0xff)));
    // Links in the base theme's line colour (the background inverted), said on the line.
    let line = connectors(&doc)[0]
        .stroke
        .expect("a themed link carries its colour");
    assert_eq!(line.color, Color::rgb(0x0b, 0x0b, 0x0b));
}

#[test]
fn front_matter_config_and_a_directive_over_it() {
    let front = "---\ntitle: Themed\nconfig:\n  theme: 'forest'\n  themeVariables:\n    lineColor: '#F8B229'\n---\n";
    let doc = import(&format!("{front}graph TD\n  A --> B\n")).document;
    assert_eq!(doc_title(&doc), Some("Themed".to_string()));
    assert_eq!(fill_of_node(&doc, "A"), Some(Color::rgb(0xcd, 0xe4, 0x98)));
    let line = connectors(&doc)[0].stroke.unwrap();
    assert_eq!(line.color, Color::rgb(0xf8, 0xb2, 0x29));
    // The directive wins over the front matter.
    let doc = import(&format!(
        "{front}%%{{init: {{\"theme\": \"dark\"}}}}%%\ngraph TD\n  A --> B\n"
    ))
    .document;
    assert_eq!(fill_of_node(&doc, "A"), Some(Color::rgb(0x1f, 0x20, 0x20)));
    let text = nodes(&doc)[0].text.as_ref().unwrap();
    assert_eq!(text.runs[0].color, Some(Color::rgb(0xcc, 0xcc, 0xcc)));
}

#[test]
fn a_font_family_reaches_every_label_and_plain_diagrams_stay_as_they_were() {
    let doc = import(
        "%%{init: { \"fontFamily\": \"Georgia, serif\" } }%%\ngraph TD\n  A(Forest) -->|to| B\n",
    )
    .document;
    for n in nodes(&doc) {
        assert!(n
            .text
            .as_ref()
            .unwrap()
            .runs
            .iter()
            .all(|r| r.font == FontFamily::Times));
    }
    let label = connectors(&doc)[0].label.as_ref().unwrap();
    assert_eq!(label.runs[0].font, FontFamily::Times);

    let plain = import("graph TD\n  A --> B\n").document;
    assert_eq!(
        fill_of_node(&plain, "A"),
        Some(Color::rgb(0xec, 0xec, 0xff))
    );
    assert!(connectors(&plain)[0].stroke.is_none());
    assert!(nodes(&plain)[0].text.as_ref().unwrap().runs[0]
        .color
        .is_none());
}

#[test]
fn broken_directives_are_ignored_not_refused() {
    for text in [
        "%%{init: {not json}}%%\ngraph TD\n  A --> B\n",
        "%%{wrap}%%\ngraph TD\n  A --> B\n",
        "%%{init: [1, 2]}%%\ngraph TD\n  A --> B\n",
    ] {
        let doc = import(text).document;
        assert_eq!(
            fill_of_node(&doc, "A"),
            Some(Color::rgb(0xec, 0xec, 0xff)),
            "{text}"
        );
    }
}

fn doc_title(doc: &quire_sdk::Document) -> Option<String> {
    doc.shapes().find_map(|s| match s {
        quire_sdk::Shape::Text(t) if t.id == "mermaid:title" => Some(t.text.plain_text()),
        _ => None,
    })
}
