//! Layout checks on small graphs: no overlaps, clusters hold their members, edges run one
//! way.

use super::*;

fn node(w: f64, h: f64, parent: Option<usize>) -> NodeSpec {
    NodeSpec {
        width: w,
        height: h,
        parent,
    }
}

fn cluster(parent: Option<usize>, direction: Option<Direction>) -> ClusterSpec {
    ClusterSpec {
        parent,
        label_width: 40.0,
        label_height: 14.0,
        direction,
    }
}

fn edge(a: usize, b: usize) -> EdgeSpec {
    EdgeSpec {
        from: EndRef::Node(a),
        to: EndRef::Node(b),
        min_length: 1,
        label: None,
    }
}

fn check(g: &Graph, out: &Layout) {
    for (i, a) in out.nodes.iter().enumerate() {
        assert!(
            a.w > 0.0 && a.h > 0.0 && a.x >= 0.0 && a.y >= 0.0,
            "node {i}: {a:?}"
        );
        assert!(a.right() <= out.width + 1e-6 && a.bottom() <= out.height + 1e-6);
        for (j, b) in out.nodes.iter().enumerate().skip(i + 1) {
            assert!(!a.intersects(b), "nodes {i} and {j} overlap: {a:?} {b:?}");
        }
    }
    for (v, n) in g.nodes.iter().enumerate() {
        let mut at = n.parent;
        while let Some(c) = at {
            assert!(
                out.clusters[c].contains(&out.nodes[v]),
                "node {v} outside cluster {c}: {:?} {:?}",
                out.nodes[v],
                out.clusters[c]
            );
            at = g.clusters[c].parent;
        }
    }
    for (c, spec) in g.clusters.iter().enumerate() {
        if let Some(p) = spec.parent {
            assert!(
                out.clusters[p].contains(&out.clusters[c]),
                "cluster {c} outside {p}"
            );
        }
        // Clusters that are not nested in each other do not overlap.
        for (d, other) in out.clusters.iter().enumerate() {
            let nested = |a: usize, b: usize| {
                let mut at = g.clusters[a].parent;
                while let Some(p) = at {
                    if p == b {
                        return true;
                    }
                    at = g.clusters[p].parent;
                }
                false
            };
            if d != c && !nested(c, d) && !nested(d, c) {
                assert!(
                    !out.clusters[c].intersects(other),
                    "clusters {c} and {d} overlap"
                );
            }
        }
        // Nodes outside a cluster stay out of its box.
        for (v, n) in g.nodes.iter().enumerate() {
            let mut inside = false;
            let mut at = n.parent;
            while let Some(p) = at {
                inside |= p == c;
                at = g.clusters[p].parent;
            }
            if !inside {
                assert!(
                    !out.clusters[c].intersects(&out.nodes[v]),
                    "node {v} in cluster {c}"
                );
            }
        }
    }
}

fn centre_y(r: &Rect) -> f64 {
    r.y + r.h / 2.0
}

#[test]
fn chain_runs_down_and_diamond_is_centred() {
    let g = Graph {
        nodes: vec![node(60.0, 30.0, None); 4],
        edges: vec![edge(0, 1), edge(0, 2), edge(1, 3), edge(2, 3)],
        ..Graph::default()
    };
    let out = layout(&g);
    check(&g, &out);
    for e in &g.edges {
        let (EndRef::Node(a), EndRef::Node(b)) = (e.from, e.to) else {
            unreachable!()
        };
        assert!(centre_y(&out.nodes[a]) < centre_y(&out.nodes[b]));
    }
    // The top node sits between its two children.
    let c = |v: usize| out.nodes[v].center().x;
    assert!((c(0) - (c(1) + c(2)) / 2.0).abs() < 1.0, "{:?}", out.nodes);
    assert!((c(3) - c(0)).abs() < 1.0);
}

#[test]
fn cycles_and_long_edges() {
    let mut edges = vec![edge(0, 1), edge(1, 2), edge(2, 3), edge(3, 0), edge(0, 3)];
    edges[4].min_length = 3;
    let g = Graph {
        nodes: vec![node(40.0, 20.0, None); 4],
        edges,
        ..Graph::default()
    };
    let out = layout(&g);
    check(&g, &out);
    // The back edge 3 -> 0 and the long edge bend around the chain.
    assert!(!out.edges[4].is_empty() || out.nodes[0].center().x != out.nodes[3].center().x);
}

#[test]
fn nested_clusters_hold_members_in_all_directions() {
    for dir in [
        Direction::TopBottom,
        Direction::BottomTop,
        Direction::LeftRight,
        Direction::RightLeft,
    ] {
        let g = Graph {
            direction: dir,
            nodes: vec![
                node(50.0, 20.0, None),
                node(50.0, 20.0, Some(0)),
                node(50.0, 20.0, Some(1)),
                node(50.0, 20.0, Some(1)),
                node(50.0, 20.0, None),
            ],
            clusters: vec![cluster(None, None), cluster(Some(0), None)],
            edges: vec![edge(0, 1), edge(1, 2), edge(2, 3), edge(3, 4), edge(0, 4)],
            ..Graph::default()
        };
        let out = layout(&g);
        check(&g, &out);
    }
}

#[test]
fn closed_cluster_keeps_its_own_direction() {
    // Cluster 0 (LR) is only reached through edges to itself.
    let g = Graph {
        direction: Direction::TopBottom,
        nodes: vec![
            node(40.0, 20.0, None),
            node(40.0, 20.0, Some(0)),
            node(40.0, 20.0, Some(0)),
            node(40.0, 20.0, None),
        ],
        clusters: vec![cluster(None, Some(Direction::LeftRight))],
        edges: vec![
            EdgeSpec {
                from: EndRef::Node(0),
                to: EndRef::Cluster(0),
                min_length: 1,
                label: None,
            },
            edge(1, 2),
            EdgeSpec {
                from: EndRef::Cluster(0),
                to: EndRef::Node(3),
                min_length: 1,
                label: None,
            },
        ],
        ..Graph::default()
    };
    let out = layout(&g);
    check(&g, &out);
    let (a, b) = (out.nodes[1], out.nodes[2]);
    assert!(a.right() < b.x && (a.y - b.y).abs() < 1e-6, "{a:?} {b:?}");
    assert!(out.nodes[0].bottom() < out.clusters[0].y);
    assert!(out.clusters[0].bottom() < out.nodes[3].y);
}

#[test]
fn edge_into_a_cluster_from_outside_breaks_its_direction() {
    let mut g = Graph {
        direction: Direction::LeftRight,
        nodes: vec![
            node(40.0, 20.0, None),
            node(40.0, 20.0, Some(0)),
            node(40.0, 20.0, Some(0)),
        ],
        clusters: vec![cluster(None, Some(Direction::TopBottom))],
        edges: vec![edge(0, 2), edge(1, 2)],
        ..Graph::default()
    };
    let out = layout(&g);
    check(&g, &out);
    // Open cluster: ranks run left to right through it.
    assert!(out.nodes[1].right() < out.nodes[2].x);
    g.edges.remove(0);
    let out = layout(&g);
    check(&g, &out);
    assert!(out.nodes[1].bottom() < out.nodes[2].y);
}

#[test]
fn labels_get_room_and_self_loops_get_bends() {
    let mut e = edge(0, 1);
    e.label = Some((120.0, 14.0));
    let g = Graph {
        nodes: vec![node(40.0, 20.0, None); 2],
        edges: vec![e, edge(1, 1)],
        ..Graph::default()
    };
    let out = layout(&g);
    check(&g, &out);
    assert!(out.nodes[1].y - out.nodes[0].bottom() >= 14.0 + 2.0 * 18.0);
    assert_eq!(out.edges[1].len(), 2);
    assert!(out.edges[1][0].x > out.nodes[1].right());
}

#[test]
fn survives_bad_references_and_cluster_cycles() {
    let g = Graph {
        nodes: vec![node(f64::NAN, 20.0, Some(7)), node(10.0, 10.0, Some(1))],
        clusters: vec![cluster(Some(1), None), cluster(Some(0), None)],
        edges: vec![edge(0, 9), edge(0, 1), edge(1, 0)],
        ..Graph::default()
    };
    let out = layout(&g);
    assert_eq!(out.nodes.len(), 2);
    assert!(out.width.is_finite() && out.height.is_finite());
}
