//! The layout on every corpus flowchart and documentation example: nodes never overlap,
//! subgraphs hold their members, labels fit their shapes, and in a graph without cycles every
//! link runs the way the diagram says.

mod common;

use std::collections::{HashMap, HashSet};

use common::*;
use quire_sdk::layout::text_height;
use quire_sdk::{Document, Point, Rect, Shape};

fn inputs() -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = corpus_files()
        .into_iter()
        .filter(|p| !p.ends_with("not-a-flowchart-sequence.mmd"))
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    for (i, ex) in doc_examples().into_iter().enumerate() {
        v.push((format!("documentation example {i}"), ex));
    }
    v
}

/// The direction written after `flowchart`/`graph` (TB when none).
fn direction(text: &str) -> &'static str {
    let mut in_front = false;
    for line in text.lines() {
        let t = line.trim();
        if t == "---" {
            in_front = !in_front;
            continue;
        }
        if in_front || t.is_empty() || t.starts_with("%%") {
            continue;
        }
        let dir = t
            .split_whitespace()
            .nth(1)
            .unwrap_or("TB")
            .trim_end_matches(';');
        return match dir {
            "LR" => "LR",
            "RL" => "RL",
            "BT" => "BT",
            _ => "TB",
        };
    }
    "TB"
}

fn check(name: &str, text: &str, doc: &Document) -> Vec<String> {
    let mut errors = Vec::new();
    let page = &doc.pages[0];
    let bounds = Rect::new(0.0, 0.0, page.width, page.height);
    let all_nodes = nodes(doc);
    let all_groups = groups(doc);
    let parent = parents(doc);
    let frame = frames(doc);
    // Every frame on the page; labels fit.
    for s in doc.shapes() {
        if let Some(f) = s.frame() {
            if !bounds.contains(&f) {
                errors.push(format!("{} lies off the page: {f:?}", s.id()));
            }
        }
        if let Shape::Connector(c) = s {
            for p in &c.waypoints {
                if !bounds.contains(&Rect::new(p.x, p.y, 0.0, 0.0)) {
                    errors.push(format!("link {} bends off the page at {p:?}", c.id));
                }
            }
        }
    }
    for n in &all_nodes {
        if let Some(t) = &n.text {
            let area = quire_sdk::geometry::text_area(n.geometry, n.frame);
            let need_w = quire_sdk::layout::natural_width(t).min(150.0);
            let h = text_height(t, area.w);
            if area.w + 1e-6 < need_w && area.w < 150.0 || h > area.h + 1e-6 {
                errors.push(format!(
                    "text of {} does not fit: {h:.1} high in {area:?}",
                    n.id
                ));
            }
        }
    }
    // No overlaps between nodes.
    for (i, a) in all_nodes.iter().enumerate() {
        for b in &all_nodes[i + 1..] {
            if a.frame.intersects(&b.frame) {
                errors.push(format!("{} and {} overlap", a.id, b.id));
            }
        }
    }
    // Subgraphs hold their members (nested ones too) and nothing else.
    let ancestors = |id: &str| -> Vec<String> {
        let mut out = Vec::new();
        let mut at = parent.get(id).cloned().flatten();
        while let Some(p) = at {
            at = parent.get(&p).cloned().flatten();
            out.push(p);
        }
        out
    };
    for n in &all_nodes {
        let anc = ancestors(&n.id);
        for g in &all_groups {
            let inside = anc.contains(&g.id);
            if inside && !g.frame.contains(&n.frame) {
                errors.push(format!("{} sticks out of its subgraph {}", n.id, g.id));
            }
            if !inside && g.frame.intersects(&n.frame) {
                errors.push(format!("{} overlaps subgraph {} it is not in", n.id, g.id));
            }
        }
    }
    for (i, a) in all_groups.iter().enumerate() {
        for b in &all_groups[i + 1..] {
            let nested = ancestors(&a.id).contains(&b.id) || ancestors(&b.id).contains(&a.id);
            if nested {
                let (outer, inner) = if ancestors(&a.id).contains(&b.id) {
                    (b, a)
                } else {
                    (a, b)
                };
                if !outer.frame.contains(&inner.frame) {
                    errors.push(format!("subgraph {} sticks out of {}", inner.id, outer.id));
                }
            } else if a.frame.intersects(&b.frame) {
                errors.push(format!("subgraphs {} and {} overlap", a.id, b.id));
            }
        }
    }
    // Links run one way when the graph has no cycle (a link to a subgraph counts as a link
    // to each of its nodes). Links inside a subgraph with a direction of its own, and links
    // between a subgraph and its own members, are not judged.
    let mut members: HashMap<String, Vec<String>> = HashMap::new();
    for n in &all_nodes {
        for a in ancestors(&n.id) {
            members.entry(a).or_default().push(n.id.clone());
        }
    }
    let expand = |id: &str| -> Vec<String> {
        members
            .get(id)
            .cloned()
            .unwrap_or_else(|| vec![id.to_string()])
    };
    let links: Vec<_> = connectors(doc)
        .into_iter()
        .filter_map(|c| Some((c, c.from.shape.clone()?, c.to.shape.clone()?)))
        .filter(|(_, a, b)| a != b && !ancestors(a).contains(b) && !ancestors(b).contains(a))
        .collect();
    let mut adj: HashMap<String, Vec<String>> = HashMap::new();
    for (_, a, b) in &links {
        for x in expand(a) {
            for y in expand(b) {
                adj.entry(x.clone()).or_default().push(y);
            }
        }
    }
    if !has_cycle(&adj) {
        let own_dir: HashSet<&str> = all_groups
            .iter()
            .filter(|g| g.direction.is_some())
            .map(|g| g.id.as_str())
            .collect();
        let dir = direction(text);
        for (c, a, b) in &links {
            let (anc_a, anc_b) = (ancestors(a), ancestors(b));
            let common_directed = anc_a
                .iter()
                .any(|g| anc_b.contains(g) && own_dir.contains(g.as_str()));
            if common_directed {
                continue;
            }
            let (p, q): (Point, Point) = (frame[a].center(), frame[b].center());
            let ok = match dir {
                "TB" => p.y < q.y,
                "BT" => p.y > q.y,
                "LR" => p.x < q.x,
                _ => p.x > q.x,
            };
            if !ok {
                errors.push(format!(
                    "{name}: link {} from {a} to {b} runs against {dir}",
                    c.id
                ));
            }
        }
    }
    errors
}

fn has_cycle(adj: &HashMap<String, Vec<String>>) -> bool {
    // 0 unvisited, 1 on the stack, 2 done.
    let mut state: HashMap<&str, u8> = HashMap::new();
    for start in adj.keys() {
        if state.get(start.as_str()).copied().unwrap_or(0) != 0 {
            continue;
        }
        let mut stack: Vec<(&str, usize)> = vec![(start, 0)];
        state.insert(start, 1);
        while let Some((v, i)) = stack.pop() {
            let next = adj.get(v).and_then(|n| n.get(i));
            match next {
                Some(w) => {
                    stack.push((v, i + 1));
                    match state.get(w.as_str()).copied().unwrap_or(0) {
                        1 => return true,
                        0 => {
                            state.insert(w, 1);
                            stack.push((w, 0));
                        }
                        _ => {}
                    }
                }
                None => {
                    state.insert(v, 2);
                }
            }
        }
    }
    false
}

#[test]
fn layouts_are_clean_on_every_flowchart() {
    let mut failures = Vec::new();
    let mut judged = 0;
    for (name, text) in inputs() {
        let doc = import(&text).document;
        let errors = check(&name, &text, &doc);
        judged += 1;
        if !errors.is_empty() {
            failures.push(format!("{name}:\n  {}", errors.join("\n  ")));
        }
    }
    println!("{judged} layouts checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_checks_catch_a_bad_layout() {
    let text = "flowchart TB\n  subgraph S\n    a --> b\n  end\n  c --> a\n";
    let mut doc = import(text).document;
    assert!(check("ok", text, &doc).is_empty());
    // Move c below a and onto b: a backwards link, an overlap and a stray node in S.
    let b = frames(&doc)["b"];
    for s in doc.pages[0].shapes.iter_mut() {
        if let Shape::Node(n) = s {
            if n.id == "c" {
                n.frame = b;
            }
        }
    }
    let errors = check("bad", text, &doc).join("\n");
    assert!(
        errors.contains("c and b overlap") || errors.contains("b and c overlap"),
        "{errors}"
    );
    assert!(errors.contains("overlaps subgraph S"), "{errors}");
    assert!(errors.contains("runs against TB"), "{errors}");
}

/// Subgraphs no link enters or leaves stand side by side with the last written first, as
/// mermaid draws them (it lays each out on its own and adds subgraphs in reverse order);
/// subgraphs joined by a link keep the order their links give.
#[test]
fn separate_subgraphs_stand_last_written_first() {
    let x_of = |doc: &Document, id: &str| {
        groups(doc)
            .into_iter()
            .find(|g| g.id == id)
            .unwrap_or_else(|| panic!("no group {id}"))
            .frame
            .x
    };
    let separate = import(
        "graph TD\n  subgraph RED [\"critical\"]\n    A[one]\n  end\n  \
         subgraph BLUE [\"dashed\"]\n    B[two]\n  end\n  subgraph GREEN [\"third\"]\n    C[three]\n  end\n",
    )
    .document;
    let (red, blue, green) = (
        x_of(&separate, "RED"),
        x_of(&separate, "BLUE"),
        x_of(&separate, "GREEN"),
    );
    assert!(green < blue && blue < red, "{green} {blue} {red}");
    let joined = import(
        "graph LR\n  subgraph RED\n    A[one]\n  end\n  subgraph BLUE\n    B[two]\n  end\n  A --> B\n",
    )
    .document;
    assert!(x_of(&joined, "RED") < x_of(&joined, "BLUE"));
}
