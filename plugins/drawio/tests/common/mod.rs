//! Helpers shared by the integration tests.

use std::collections::{HashMap, HashSet};

use quire_drawio::{LABEL_SUFFIX, STYLE_CLASS};
use quire_sdk::{Shape, ShapeWalk};

/// What one page holds: vertices (shapes other than connectors and the text boxes of
/// labels), edges, non-empty labels, and where each edge is attached.
#[derive(Debug, Default, PartialEq)]
pub struct Expected {
    pub vertices: usize,
    pub edges: usize,
    pub labels: usize,
    /// Edge id -> (source id, target id) where the ends are attached to a cell that is
    /// drawn.
    pub ends: HashMap<String, (Option<String>, Option<String>)>,
}

fn has_text(t: &Option<quire_sdk::Text>) -> bool {
    t.as_ref()
        .is_some_and(|t| !t.plain_text().trim().is_empty())
}

/// The ids of the shapes that draw cells draw.io draws itself (stencils, SVG pictures): such
/// a cell is one group, written back as one cell; what is inside is only Quire's drawing.
pub fn stencil_drawing(shapes: &[Shape]) -> HashSet<&str> {
    ShapeWalk::new(shapes)
        .filter_map(|s| match s {
            Shape::Group(g) if g.classes.iter().any(|c| c.starts_with(STYLE_CLASS)) => Some(g),
            _ => None,
        })
        .flat_map(|g| ShapeWalk::new(&g.children).map(|c| c.id()))
        .collect()
}

/// The same counts from the imported model.
pub fn found_page(page: &quire_sdk::Page) -> Expected {
    let shapes: Vec<&Shape> = ShapeWalk::new(&page.shapes).collect();
    let ids: HashSet<&str> = shapes.iter().map(|s| s.id()).collect();
    let companion = |s: &Shape| {
        matches!(s, Shape::Text(_))
            && s.id()
                .strip_suffix(LABEL_SUFFIX)
                .is_some_and(|owner| ids.contains(owner))
    };
    let drawing = stencil_drawing(&page.shapes);
    let mut e = Expected::default();
    for s in &shapes {
        match s {
            s if drawing.contains(s.id()) => {}
            Shape::Connector(c) => {
                e.edges += 1;
                e.ends
                    .insert(c.id.clone(), (c.from.shape.clone(), c.to.shape.clone()));
                if has_text(&c.label) {
                    e.labels += 1;
                }
            }
            s if companion(s) => {
                if let Shape::Text(t) = s {
                    if !t.text.plain_text().trim().is_empty() {
                        e.labels += 1;
                    }
                }
            }
            Shape::Text(t) => {
                e.vertices += 1;
                if !t.text.plain_text().trim().is_empty() {
                    e.labels += 1;
                }
            }
            Shape::Node(n) => {
                e.vertices += 1;
                if has_text(&n.text) {
                    e.labels += 1;
                }
            }
            Shape::Group(g) => {
                e.vertices += 1;
                if has_text(&g.label) {
                    e.labels += 1;
                }
            }
            Shape::Image(_) | Shape::Path(_) => e.vertices += 1,
        }
    }
    e
}
