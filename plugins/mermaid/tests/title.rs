//! The front matter `title` is drawn as mermaid-cli draws it (centred above the diagram), is
//! written back as front matter, and reads back as one title, not a title and a text node.

mod common;

use common::*;
use quire_sdk::{Document, Rect, Shape, TextBox};

const FLOWCHART: &str = "flowchart LR\n  A[Order placed] --> B{Paid?}\n  B -->|yes| C[Ship]\n  \
                         B -->|no| D[Remind]\n";
const GRAPH: &str = "graph TD\n  subgraph S [Warehouse]\n    p[Pick] --> k[Pack]\n  end\n  \
                     k --> s((Send))\n";

fn titled(title: &str, body: &str) -> String {
    format!("---\ntitle: {title}\n---\n{body}")
}

/// The text boxes of the document that draw its title.
fn title_boxes(doc: &Document) -> Vec<&TextBox> {
    doc.shapes()
        .filter_map(|s| match s {
            Shape::Text(t) if t.id == "mermaid:title" => Some(t),
            _ => None,
        })
        .collect()
}

/// The box around every frame and link bend except the title's.
fn drawing_bounds(doc: &Document) -> Rect {
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    let mut take = |x: f64, y: f64| {
        (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
    };
    for s in doc.shapes() {
        match s {
            Shape::Text(t) if t.id == "mermaid:title" => {}
            Shape::Connector(c) => c.waypoints.iter().for_each(|p| take(p.x, p.y)),
            _ => {
                if let Some(f) = s.frame() {
                    take(f.x, f.y);
                    take(f.x + f.w, f.y + f.h);
                }
            }
        }
    }
    Rect::new(x0, y0, x1 - x0, y1 - y0)
}

#[test]
fn the_front_matter_title_is_drawn_centred_above_the_diagram() {
    for body in [FLOWCHART, GRAPH] {
        let doc = import(&titled("Order flow", body)).document;
        let boxes = title_boxes(&doc);
        assert_eq!(boxes.len(), 1, "{body}: {:?}", doc.pages[0].shapes);
        let title = boxes[0];
        assert_eq!(title.text.plain_text(), "Order flow");
        let size = title.text.runs[0].size;
        assert!(
            (size - 13.5).abs() < 1e-9,
            "18 px is 13.5 points, got {size}"
        );

        let drawing = drawing_bounds(&doc);
        let (cx, dx) = (title.frame.center().x, drawing.center().x);
        assert!(
            (cx - dx).abs() <= 1.0,
            "{body}: title centre {cx}, drawing {dx}"
        );
        let bottom = title.frame.y + title.frame.h;
        assert!(
            bottom + 10.0 <= drawing.y,
            "{body}: title ends at {bottom}, the drawing starts at {}",
            drawing.y
        );
        let page = Rect::new(0.0, 0.0, doc.pages[0].width, doc.pages[0].height);
        assert!(
            page.contains(&title.frame),
            "{:?} off {page:?}",
            title.frame
        );
    }
}

#[test]
fn a_title_wider_than_the_diagram_widens_the_page() {
    let long = "A title much wider than the single node under it";
    let doc = import(&titled(long, "flowchart TD\n  A\n")).document;
    let title = title_boxes(&doc)[0];
    let drawing = drawing_bounds(&doc);
    assert!(title.frame.w > drawing.w);
    assert!((title.frame.center().x - drawing.center().x).abs() <= 1.0);
    assert!(title.frame.x >= 0.0 && title.frame.x + title.frame.w <= doc.pages[0].width);
    assert_eq!(title.text.plain_text().lines().count(), 1);
}

#[test]
fn without_a_title_nothing_changes_but_room_for_one() {
    for body in [FLOWCHART, GRAPH] {
        let plain = import(body).document;
        assert!(title_boxes(&plain).is_empty());
        assert!(!plain.shapes().any(|s| matches!(s, Shape::Text(_))));

        // The titled drawing is the untitled one moved down (and right, if the title is wider).
        let with = import(&titled("Order flow", body)).document;
        let (a, b) = (drawing_bounds(&plain), drawing_bounds(&with));
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        assert!(dy > 0.0, "{body}: moved by {dy}");
        let ours: Vec<&Shape> = with.shapes().filter(|s| s.type_name() != "text").collect();
        assert_eq!(ours.len(), plain.shapes().count());
        for (s, t) in plain.shapes().zip(ours) {
            assert_eq!(s.id(), t.id());
            if let (Some(f), Some(g)) = (s.frame(), t.frame()) {
                let moved = Rect::new(f.x + dx, f.y + dy, f.w, f.h);
                assert!(
                    (moved.x - g.x).abs() < 1e-6 && (moved.y - g.y).abs() < 1e-6,
                    "{}: {moved:?} vs {g:?}",
                    s.id()
                );
            }
        }
    }
}

#[test]
fn the_title_is_written_back_once_and_reads_back_as_one_title() {
    for body in [FLOWCHART, GRAPH] {
        let doc = import(&titled("\"Order: flow\"", body)).document;
        let mmd = export_mmd(&doc);
        assert!(
            mmd.starts_with("---\ntitle: \"Order: flow\"\n---\n"),
            "{mmd}"
        );
        assert_eq!(mmd.matches("Order: flow").count(), 1, "{mmd}");
        assert!(!mmd.contains("mermaid:title") && !mmd.contains("mermaid_title"));

        let again = import(&mmd).document;
        let boxes = title_boxes(&again);
        assert_eq!(boxes.len(), 1, "{mmd}");
        assert_eq!(boxes[0].text.plain_text(), "Order: flow");
        assert_eq!(again.shapes().count(), doc.shapes().count(), "{mmd}");
        assert_eq!(nodes(&again).len(), nodes(&doc).len());
        assert_eq!(export_mmd(&again), mmd);
    }
}

#[test]
fn the_title_id_stays_free_and_a_title_alone_still_comes_back() {
    // A quoted subgraph id or an edge id may be the reserved id: they give way, and `import`
    // checks the model (ids unique) as the host does.
    let doc = import(&titled(
        "T",
        "flowchart LR\n  subgraph \"mermaid:title\" [Box]\n    a\n  end\n  a mermaid:title@--> b\n",
    ))
    .document;
    assert_eq!(title_boxes(&doc).len(), 1);
    assert_eq!(groups(&doc)[0].id, "mermaid:title_1");
    assert!(connectors(&doc)[0].id.starts_with("mermaid:title_"));

    // A model whose document title was cleared keeps the drawn title as the front matter.
    let mut doc = import(&titled("Shown", FLOWCHART)).document;
    doc.title = None;
    let mmd = export_mmd(&doc);
    assert!(mmd.starts_with("---\ntitle: \"Shown\"\n---\n"), "{mmd}");
}

#[test]
fn a_huge_title_stays_bounded() {
    let text = titled(&"word ".repeat(40_000), FLOWCHART);
    let started = std::time::Instant::now();
    let doc = import(&text).document;
    assert!(started.elapsed().as_secs() < 20);
    let title = title_boxes(&doc)[0];
    assert!(title.frame.w <= 600.01, "{:?}", title.frame);
}
