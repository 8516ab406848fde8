//! Layered (Sugiyama) layout of a graph with nested clusters, for diagrams that carry no
//! coordinates (mermaid) or that want them recomputed.
//!
//! The phases, per level:
//! 1. **Ranks**: edges are added in the order given; an edge that would close a cycle is
//!    reversed, or ignored when both directions would (a dynamic topological order keeps this
//!    incremental). Network simplex then gives the ranks that keep edges short, respecting each
//!    edge's minimum length. Ranks are doubled so that every edge has a middle rank, where its
//!    label gets a place of its own (as dagre does).
//! 2. **Layers**: long edges get a dummy node per rank they cross; a cluster gets a filler on
//!    every rank of its span where it has nothing else, so that it is present (and therefore
//!    contiguous) on all of them.
//! 3. **Order**: barycentre sweeps, sorting each layer hierarchically so that a cluster's
//!    members stay together, sibling clusters keep one relative order on every rank, and the
//!    order with the fewest crossings wins.
//! 4. **Coordinates**: across the ranks, network simplex on Gansner's auxiliary graph (each
//!    edge segment pulls its ends into line, long edges pull harder) with separation and
//!    containment constraints, so nodes never overlap and clusters are boxes holding exactly
//!    their members; then nodes slide to the middle of their optimal range. Along the ranks,
//!    each rank is as thick as its thickest node, with gaps that make room for cluster
//!    borders and titles.
//!
//! A cluster that no edge enters or leaves (edges to the cluster itself are fine) is laid out
//! on its own, in its own direction, and then placed as one block in its parent: this is how
//! mermaid honours `direction` inside subgraphs. Other clusters take their parent's
//! direction.

mod level;
mod order;
mod place;
pub mod simplex;

use quire_sdk::{Point, Rect};

use level::{ClusterIn, EdgeIn, End, LevelIn, LevelOut, UnitIn};

/// The way ranks run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Direction {
    #[default]
    TopBottom,
    BottomTop,
    LeftRight,
    RightLeft,
}

impl Direction {
    /// Mermaid's names: `TB`/`TD`, `BT`, `LR`, `RL` (and the arrows `v ^ > <`).
    pub fn parse(s: &str) -> Option<Direction> {
        Some(match s {
            "TB" | "TD" | "v" => Direction::TopBottom,
            "BT" | "^" => Direction::BottomTop,
            "LR" | ">" => Direction::LeftRight,
            "RL" | "<" => Direction::RightLeft,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Direction::TopBottom => "TB",
            Direction::BottomTop => "BT",
            Direction::LeftRight => "LR",
            Direction::RightLeft => "RL",
        }
    }

    /// Whether ranks run horizontally.
    pub fn is_horizontal(self) -> bool {
        matches!(self, Direction::LeftRight | Direction::RightLeft)
    }
}

/// Distances of the layout, in points.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spacing {
    /// Between two nodes of one rank.
    pub node_sep: f64,
    /// Between edges (and an edge and a node) crossing one rank.
    pub edge_sep: f64,
    /// Half the distance between two ranks of nodes (ranks are doubled for edge labels).
    pub rank_sep: f64,
    /// Between a cluster's border and its content.
    pub cluster_pad: f64,
    /// Between a cluster title and the cluster's border.
    pub label_inset: f64,
    /// How far a self-loop reaches out of its node.
    pub self_loop: f64,
    /// Around the whole drawing.
    pub margin: f64,
}

impl Default for Spacing {
    fn default() -> Self {
        Spacing {
            node_sep: 30.0,
            edge_sep: 12.0,
            rank_sep: 18.0,
            cluster_pad: 10.0,
            label_inset: 4.0,
            self_loop: 18.0,
            margin: 20.0,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NodeSpec {
    pub width: f64,
    pub height: f64,
    /// The innermost cluster holding the node.
    pub parent: Option<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClusterSpec {
    pub parent: Option<usize>,
    /// Size of the title, drawn at the top of the box (0 x 0 for none).
    pub label_width: f64,
    pub label_height: f64,
    /// Honoured when no edge crosses the cluster's border.
    pub direction: Option<Direction>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndRef {
    Node(usize),
    Cluster(usize),
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EdgeSpec {
    pub from: EndRef,
    pub to: EndRef,
    /// Minimum number of ranks between the ends (1 for a plain arrow).
    pub min_length: u32,
    /// Size of the label, placed at the middle of the edge.
    pub label: Option<(f64, f64)>,
}

#[derive(Debug, Clone, Default)]
pub struct Graph {
    pub direction: Direction,
    pub nodes: Vec<NodeSpec>,
    pub clusters: Vec<ClusterSpec>,
    pub edges: Vec<EdgeSpec>,
    pub spacing: Spacing,
}

/// Where everything went. Coordinates start at the margin; `width` and `height` include it.
#[derive(Debug, Clone, Default)]
pub struct Layout {
    pub nodes: Vec<Rect>,
    pub clusters: Vec<Rect>,
    /// The bends of each edge between its ends (the ends themselves are where the line from
    /// the nearest bend meets the shape's outline). Empty for an edge that is drawn straight:
    /// between a cluster and its own member, or one that could not be ranked.
    pub edges: Vec<Vec<Point>>,
    pub width: f64,
    pub height: f64,
}

/// Work allowed to each network simplex run (nodes and edges touched): about 50 ms. A
/// larger problem stops early with a feasible layout that is a little less tidy.
const WORK_BUDGET: u64 = 20_000_000;

/// Deepest cluster nesting handled; deeper parents are cut (the model allows 64 levels).
const MAX_DEPTH: usize = 64;

/// What a level is: the whole graph, or one closed cluster laid out on its own.
type Scope = Option<usize>;

struct Tree {
    /// Strict ancestors of each cluster, outermost first.
    cluster_anc: Vec<Vec<usize>>,
    /// Ancestors of each node, outermost first (its parent last).
    node_anc: Vec<Vec<usize>>,
    closed: Vec<bool>,
}

impl Tree {
    fn ancestors(&self, end: EndRef) -> &[usize] {
        match end {
            EndRef::Node(v) => &self.node_anc[v],
            EndRef::Cluster(c) => &self.cluster_anc[c],
        }
    }

    /// The closed clusters around `end`, outermost first.
    fn closed_chain(&self, end: EndRef) -> Vec<usize> {
        self.ancestors(end)
            .iter()
            .copied()
            .filter(|&c| self.closed[c])
            .collect()
    }

    fn scope(&self, end: EndRef) -> Scope {
        self.ancestors(end)
            .iter()
            .rev()
            .copied()
            .find(|&c| self.closed[c])
    }
}

/// Lays out `graph`. Never fails: out-of-range references are ignored, cluster cycles are
/// cut, edges that cannot be ranked are drawn straight.
pub fn layout(graph: &Graph) -> Layout {
    let tree = build_tree(graph);
    let nc = graph.clusters.len();
    let sp = &graph.spacing;

    // Direction of each closed cluster: its own, else that of the level around it.
    let mut direction: Vec<Direction> = vec![graph.direction; nc];
    let mut closed_by_depth: Vec<usize> = (0..nc).filter(|&c| tree.closed[c]).collect();
    closed_by_depth.sort_by_key(|&c| tree.cluster_anc[c].len());
    for &c in &closed_by_depth {
        let outer = tree
            .scope(EndRef::Cluster(c))
            .map_or(graph.direction, |s| direction[s]);
        direction[c] = graph.clusters[c].direction.unwrap_or(outer);
    }

    // Innermost levels first: a block's size is known before its parent is laid out.
    let mut levels: Vec<Option<Laid>> = (0..nc).map(|_| None).collect();
    let mut block: Vec<(f64, f64, Point)> = vec![(0.0, 0.0, Point::default()); nc];
    for &k in closed_by_depth.iter().rev() {
        let (input, members, ids) = level_input(graph, &tree, Some(k), direction[k], &block);
        let out = lay_out_level(&input, sp);
        let header = header_height(&graph.clusters[k], sp);
        let label_w = graph.clusters[k].label_width + 2.0 * sp.label_inset + 0.5;
        let w = (out.width + 2.0 * sp.cluster_pad).max(label_w);
        let h = out.height + 2.0 * sp.cluster_pad + header;
        let offset = Point {
            x: (w - out.width) / 2.0,
            y: sp.cluster_pad + header,
        };
        block[k] = (w, h, offset);
        levels[k] = Some((out, members, ids));
    }
    let (root_input, root_members, root_ids) =
        level_input(graph, &tree, None, graph.direction, &block);
    let root = lay_out_level(&root_input, sp);

    let mut result = Layout {
        nodes: vec![Rect::default(); graph.nodes.len()],
        clusters: vec![Rect::default(); nc],
        edges: vec![Vec::new(); graph.edges.len()],
        width: root.width + 2.0 * sp.margin,
        height: root.height + 2.0 * sp.margin,
    };
    let origin = Point {
        x: sp.margin,
        y: sp.margin,
    };
    let mut pending: Vec<(Laid, Point)> = vec![((root, root_members, root_ids), origin)];
    while let Some(((out, members, ids), at)) = pending.pop() {
        place_level(&out, &members, &ids, at, &mut result);
        for member in &members {
            if let Member::Block(k) = *member {
                let r = result.clusters[k];
                let (_, _, offset) = block[k];
                if let Some(inner) = levels[k].take() {
                    let at = Point {
                        x: r.x + offset.x,
                        y: r.y + offset.y,
                    };
                    pending.push((inner, at));
                }
            }
        }
    }
    result
}

/// A laid-out level, what its units stand for, and the global index of its clusters.
type Laid = (LevelOut, Vec<Member>, Vec<usize>);

fn header_height(c: &ClusterSpec, sp: &Spacing) -> f64 {
    if c.label_height > 0.0 {
        c.label_height + 2.0 * sp.label_inset
    } else {
        0.0
    }
}

/// The cluster tree with invalid references and cycles cut, and which clusters are closed.
fn build_tree(graph: &Graph) -> Tree {
    let nc = graph.clusters.len();
    let mut parent: Vec<Option<usize>> = graph
        .clusters
        .iter()
        .enumerate()
        .map(|(i, c)| c.parent.filter(|&p| p < nc && p != i))
        .collect();
    let mut cluster_anc = vec![Vec::new(); nc];
    for c in 0..nc {
        let mut chain = Vec::new();
        let mut at = parent[c];
        while let Some(p) = at {
            if p == c || chain.contains(&p) || chain.len() >= MAX_DEPTH {
                // A cycle or an absurd depth: this cluster becomes a root.
                parent[c] = None;
                chain.clear();
                break;
            }
            chain.push(p);
            at = parent[p];
        }
        chain.reverse();
        cluster_anc[c] = chain;
    }
    // Cutting a parent above may have shortened other chains: recompute from the fixed map.
    for c in 0..nc {
        let mut chain = Vec::new();
        let mut at = parent[c];
        while let Some(p) = at {
            if chain.contains(&p) || chain.len() >= MAX_DEPTH {
                break;
            }
            chain.push(p);
            at = parent[p];
        }
        chain.reverse();
        cluster_anc[c] = chain;
    }
    let node_anc: Vec<Vec<usize>> = graph
        .nodes
        .iter()
        .map(|n| match n.parent.filter(|&p| p < nc) {
            Some(p) => {
                let mut v = cluster_anc[p].clone();
                v.push(p);
                v
            }
            None => Vec::new(),
        })
        .collect();
    let mut tree = Tree {
        cluster_anc,
        node_anc,
        closed: vec![true; nc],
    };
    for e in &graph.edges {
        if !valid_end(graph, e.from) || !valid_end(graph, e.to) {
            continue;
        }
        let a = tree.ancestors(e.from).to_vec();
        let b = tree.ancestors(e.to).to_vec();
        let self_of = |end: EndRef| match end {
            EndRef::Cluster(c) => Some(c),
            EndRef::Node(_) => None,
        };
        for (inside, other_anc, other) in [(&a, &b, e.to), (&b, &a, e.from)] {
            for &k in inside.iter() {
                if !other_anc.contains(&k) && self_of(other) != Some(k) {
                    tree.closed[k] = false;
                }
            }
        }
    }
    tree
}

fn valid_end(graph: &Graph, end: EndRef) -> bool {
    match end {
        EndRef::Node(v) => v < graph.nodes.len(),
        EndRef::Cluster(c) => c < graph.clusters.len(),
    }
}

/// What a unit of a level stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Member {
    Node(usize),
    Block(usize),
    /// Keeps an empty cluster visible.
    Placeholder,
}

/// The units, local clusters and edges of level `scope`, and what each unit stands for.
fn level_input(
    graph: &Graph,
    tree: &Tree,
    scope: Scope,
    dir: Direction,
    block: &[(f64, f64, Point)],
) -> (LevelIn, Vec<Member>, Vec<usize>) {
    let nc = graph.clusters.len();
    let sp = &graph.spacing;
    let cluster_scope = |c: usize| tree.scope(EndRef::Cluster(c));
    // Local open clusters, in index order.
    let mut local: Vec<Option<usize>> = vec![None; nc];
    let mut clusters: Vec<ClusterIn> = Vec::new();
    let mut cluster_global: Vec<usize> = Vec::new();
    for (c, slot) in local.iter_mut().enumerate() {
        if !tree.closed[c] && cluster_scope(c) == scope {
            *slot = Some(clusters.len());
            cluster_global.push(c);
            clusters.push(ClusterIn {
                parent: None,
                label_w: graph.clusters[c].label_width,
                label_h: graph.clusters[c].label_height,
                self_loops: Vec::new(),
            });
        }
    }
    let local_parent = |anc: &[usize]| anc.last().and_then(|&p| local[p]);
    for (i, &c) in cluster_global.iter().enumerate() {
        clusters[i].parent = local_parent(&tree.cluster_anc[c]);
    }
    let mut units: Vec<UnitIn> = Vec::new();
    let mut members: Vec<Member> = Vec::new();
    let mut unit_of_node: Vec<Option<usize>> = vec![None; graph.nodes.len()];
    let mut unit_of_block: Vec<Option<usize>> = vec![None; nc];
    // Blocks first, the last written first, then nodes: the order mermaid adds them to its
    // graph (flowDb's `getData`), which decides where unlinked ones stand.
    for k in (0..nc).rev() {
        if tree.closed[k] && cluster_scope(k) == scope {
            unit_of_block[k] = Some(units.len());
            let (w, h, _) = block[k];
            units.push(UnitIn {
                w,
                h,
                parent: local_parent(&tree.cluster_anc[k]),
                self_loops: Vec::new(),
            });
            members.push(Member::Block(k));
        }
    }
    for (v, n) in graph.nodes.iter().enumerate() {
        if tree.scope(EndRef::Node(v)) == scope {
            unit_of_node[v] = Some(units.len());
            units.push(UnitIn {
                w: finite_size(n.width),
                h: finite_size(n.height),
                parent: local_parent(&tree.node_anc[v]),
                self_loops: Vec::new(),
            });
            members.push(Member::Node(v));
        }
    }
    // An empty cluster still shows: a placeholder as wide as its title.
    let mut has_member = vec![false; clusters.len()];
    for u in &units {
        if let Some(p) = u.parent {
            has_member[p] = true;
        }
    }
    for c in &clusters {
        if let Some(p) = c.parent {
            has_member[p] = true;
        }
    }
    for (i, has) in has_member.iter().enumerate() {
        if !has {
            let w = clusters[i].label_w.max(sp.node_sep);
            units.push(UnitIn {
                w,
                h: sp.rank_sep,
                parent: Some(i),
                self_loops: Vec::new(),
            });
            members.push(Member::Placeholder);
        }
    }

    let mut edges = Vec::new();
    for (id, e) in graph.edges.iter().enumerate() {
        if !valid_end(graph, e.from) || !valid_end(graph, e.to) {
            continue;
        }
        let ca = tree.closed_chain(e.from);
        let cb = tree.closed_chain(e.to);
        let common = ca.iter().zip(&cb).take_while(|(x, y)| x == y).count();
        let level: Scope = if common == 0 {
            None
        } else {
            Some(ca[common - 1])
        };
        let rep = |end: EndRef, chain: &[usize]| -> Option<End> {
            let depth = match scope {
                None => 0,
                Some(s) => chain.iter().position(|&c| c == s)? + 1,
            };
            if let Some(&k) = chain.get(depth) {
                return unit_of_block[k].map(End::Unit);
            }
            match end {
                EndRef::Node(v) => unit_of_node[v].map(End::Unit),
                EndRef::Cluster(c) if tree.closed[c] => unit_of_block[c].map(End::Unit),
                EndRef::Cluster(c) => local[c].map(End::Cluster),
            }
        };
        if e.from == e.to {
            // A self-loop belongs to the level that holds its shape.
            match rep(e.from, &ca) {
                Some(End::Unit(u)) if level_of_self(tree, e.from, scope) => {
                    units[u].self_loops.push(id)
                }
                Some(End::Cluster(c)) if level_of_self(tree, e.from, scope) => {
                    clusters[c].self_loops.push(id)
                }
                _ => {}
            }
            continue;
        }
        if level != scope {
            continue;
        }
        let (Some(a), Some(b)) = (rep(e.from, &ca), rep(e.to, &cb)) else {
            continue;
        };
        if a == b || contains(tree, e.from, e.to) || contains(tree, e.to, e.from) {
            // Between a cluster and its own member: drawn straight, no constraint.
            continue;
        }
        edges.push(EdgeIn {
            id,
            from: a,
            to: b,
            len: e.min_length.clamp(1, 32),
            label: e
                .label
                .map(|(w, h)| (finite_size(w), finite_size(h)))
                .filter(|&(w, h)| w > 0.0 && h > 0.0),
        });
    }
    (
        LevelIn {
            dir,
            units,
            clusters,
            edges,
        },
        members,
        cluster_global,
    )
}

/// Whether a self-loop on `end` is laid out at `scope`: a closed cluster's loop belongs to
/// the level holding its block, anything else to the level holding it.
fn level_of_self(tree: &Tree, end: EndRef, scope: Scope) -> bool {
    tree.scope(end) == scope
}

/// Whether `outer` is a cluster holding `inner`.
fn contains(tree: &Tree, outer: EndRef, inner: EndRef) -> bool {
    match outer {
        EndRef::Cluster(c) => tree.ancestors(inner).contains(&c),
        EndRef::Node(_) => false,
    }
}

fn finite_size(v: f64) -> f64 {
    if v.is_finite() {
        v.clamp(0.0, 1.0e5)
    } else {
        0.0
    }
}

/// Copies one level's rectangles and routes into the result, shifted to `at`.
fn place_level(
    out: &LevelOut,
    units: &[Member],
    cluster_ids: &[usize],
    at: Point,
    result: &mut Layout,
) {
    let shift = |r: Rect| Rect::new(r.x + at.x, r.y + at.y, r.w, r.h);
    for (i, m) in units.iter().enumerate() {
        match *m {
            Member::Node(v) => result.nodes[v] = shift(out.units[i]),
            Member::Block(k) => result.clusters[k] = shift(out.units[i]),
            Member::Placeholder => {}
        }
    }
    for (i, &c) in cluster_ids.iter().enumerate() {
        result.clusters[c] = shift(out.clusters[i]);
    }
    for (id, points) in &out.edges {
        result.edges[*id] = points
            .iter()
            .map(|p| Point {
                x: p.x + at.x,
                y: p.y + at.y,
            })
            .collect();
    }
}

/// One level (the root or a cluster's inside) through the pipeline's three stages: ranks
/// and layers, the order within each layer, the coordinates.
fn lay_out_level(input: &LevelIn, sp: &Spacing) -> LevelOut {
    let mut layered = level::layer(input, sp);
    let layers = order::order(&layered);
    place::place(input, sp, &mut layered, &layers)
}

#[cfg(test)]
mod tests;
