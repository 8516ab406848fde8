//! One level of the layout: ranking, layers with dummy nodes and fillers, then ordering and
//! coordinates (in `order` and `place`).

use quire_sdk::{Point, Rect};

use super::simplex::{self, Edge as NsEdge};
use super::{Direction, Spacing};

/// Most dummy nodes a level gets (they cost memory and time in every later phase).
const MAX_DUMMIES: usize = 60_000;

/// An edge end within a level: a unit (node or block) or an open cluster.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum End {
    Unit(usize),
    Cluster(usize),
}

/// A node or a closed cluster's block, sized in final orientation.
#[derive(Debug, Clone)]
pub(super) struct UnitIn {
    pub w: f64,
    pub h: f64,
    pub parent: Option<usize>,
    /// Global ids of the unit's self-loops.
    pub self_loops: Vec<usize>,
}

#[derive(Debug, Clone)]
pub(super) struct ClusterIn {
    pub parent: Option<usize>,
    pub label_w: f64,
    pub label_h: f64,
    pub self_loops: Vec<usize>,
}

#[derive(Debug, Clone)]
pub(super) struct EdgeIn {
    /// Index in the caller's edge list.
    pub id: usize,
    pub from: End,
    pub to: End,
    pub len: u32,
    /// Label size in final orientation.
    pub label: Option<(f64, f64)>,
}

#[derive(Debug, Clone)]
pub(super) struct LevelIn {
    pub dir: Direction,
    pub units: Vec<UnitIn>,
    pub clusters: Vec<ClusterIn>,
    pub edges: Vec<EdgeIn>,
}

/// Rectangles and routes in final orientation, the level's box starting at (0, 0).
#[derive(Debug, Clone, Default)]
pub(super) struct LevelOut {
    pub units: Vec<Rect>,
    pub clusters: Vec<Rect>,
    pub edges: Vec<(usize, Vec<Point>)>,
    pub width: f64,
    pub height: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Unit(usize),
    Dummy,
    /// The label of local edge `i`.
    Label(usize),
    /// Holds a cluster's place on a rank where it has nothing else.
    Filler,
}

/// A node of the layered graph. `cross` is its extent across the ranks, `thick` along them
/// (layout orientation: ranks run down).
#[derive(Debug, Clone)]
pub(super) struct LNode {
    pub kind: Kind,
    pub rank: usize,
    pub parent: Option<usize>,
    pub cross: f64,
    pub thick: f64,
    /// Room kept on the far side for self-loops.
    pub reach: f64,
}

/// The dummy nodes of one edge, from its upper end to its lower end.
#[derive(Debug, Clone)]
pub(super) struct Chain {
    pub edge: usize,
    pub nodes: Vec<usize>,
    pub upper: End,
    pub lower: End,
    /// The edge runs from `lower` to `upper`.
    pub reversed: bool,
}

/// The layered graph shared by the ordering and placement phases.
pub(super) struct Layered {
    pub nodes: Vec<LNode>,
    pub ranks: usize,
    pub cl_parent: Vec<Option<usize>>,
    /// Each cluster's ancestors and itself, outermost first.
    pub cl_path: Vec<Vec<usize>>,
    /// First and last rank of each cluster.
    pub span: Vec<(usize, usize)>,
    pub chains: Vec<Chain>,
    /// Weighted neighbours on the rank above / below.
    pub up: Vec<Vec<(usize, f64)>>,
    pub down: Vec<Vec<(usize, f64)>>,
    /// Edge segments between ranks (upper, lower, weight) for straightening.
    pub segments: Vec<(usize, usize, i64)>,
    /// A chain end next to a cluster it enters or leaves: (node, cluster, weight).
    pub attach: Vec<(usize, usize, i64)>,
}

impl Layered {
    /// The clusters around layered node `v`, outermost first.
    pub fn path(&self, v: usize) -> &[usize] {
        match self.nodes[v].parent {
            Some(c) => &self.cl_path[c],
            None => &[],
        }
    }
}

/// Layout orientation of a size given in final orientation: (across ranks, along ranks).
pub(super) fn oriented(dir: Direction, w: f64, h: f64) -> (f64, f64) {
    if dir.is_horizontal() {
        (h, w)
    } else {
        (w, h)
    }
}

/// The first stage of a level's layout: ranks, then the layers with their dummy nodes
/// (ordering and placing them are `order`'s and `place`'s).
pub(super) fn layer(input: &LevelIn, sp: &Spacing) -> Layered {
    let cl_path = cluster_paths(&input.clusters);
    let (ranks, decisions) = rank(input, &cl_path);
    build_layers(input, sp, cl_path, &ranks, &decisions)
}

fn cluster_paths(clusters: &[ClusterIn]) -> Vec<Vec<usize>> {
    (0..clusters.len())
        .map(|c| {
            let mut path = vec![c];
            let mut at = clusters[c].parent;
            while let Some(p) = at {
                if path.contains(&p) || path.len() > 64 {
                    break;
                }
                path.push(p);
                at = clusters[p].parent;
            }
            path.reverse();
            path
        })
        .collect()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Decision {
    Forward,
    Reversed,
    /// Neither direction can be ranked (it would contradict the clusters): drawn straight.
    Dropped,
}

/// Ranks of the units (doubled: every edge spans at least two) and what became of each edge.
fn rank(input: &LevelIn, cl_path: &[Vec<usize>]) -> (Vec<usize>, Vec<Decision>) {
    let nu = input.units.len();
    let nc = input.clusters.len();
    let top = |c: usize| nu + 2 * c;
    let bottom = |c: usize| nu + 2 * c + 1;
    let total = nu + 2 * nc;
    // Tops first, then units, then bottoms: a topological order of the structural edges.
    let mut ord = vec![0usize; total];
    for c in 0..nc {
        ord[top(c)] = c;
        ord[bottom(c)] = nc + nu + c;
    }
    for (u, o) in ord.iter_mut().enumerate().take(nu) {
        *o = nc + u;
    }
    let mut dag = Dag::new(ord);
    let mut ns: Vec<NsEdge> = Vec::new();
    for (u, unit) in input.units.iter().enumerate() {
        if let Some(p) = unit.parent {
            for &c in &cl_path[p] {
                dag.add_unchecked(top(c), u);
                dag.add_unchecked(u, bottom(c));
                ns.push(structural(top(c), u));
                ns.push(structural(u, bottom(c)));
            }
        }
    }
    let as_source = |e: End| match e {
        End::Unit(u) => u,
        End::Cluster(c) => bottom(c),
    };
    let as_target = |e: End| match e {
        End::Unit(u) => u,
        End::Cluster(c) => top(c),
    };
    let mut decisions = Vec::with_capacity(input.edges.len());
    for e in &input.edges {
        let minlen = 2 * i64::from(e.len.max(1));
        let forward = (as_source(e.from), as_target(e.to));
        let backward = (as_source(e.to), as_target(e.from));
        let decision = if dag.try_add(forward.0, forward.1) {
            Decision::Forward
        } else if dag.try_add(backward.0, backward.1) {
            Decision::Reversed
        } else {
            Decision::Dropped
        };
        let pair = match decision {
            Decision::Forward => Some(forward),
            Decision::Reversed => Some(backward),
            Decision::Dropped => None,
        };
        if let Some((tail, head)) = pair {
            ns.push(NsEdge {
                tail,
                head,
                minlen,
                weight: 1,
            });
        }
        decisions.push(decision);
    }
    match simplex::solve(total, &ns, super::WORK_BUDGET) {
        Some(r) => {
            let min = r[..nu].iter().copied().min().unwrap_or(0);
            let ranks = r[..nu]
                .iter()
                .map(|&x| usize::try_from(x - min).unwrap_or(0))
                .collect();
            (ranks, decisions)
        }
        // The DAG guarantees a solution; if that ever fails, everything shares one rank and
        // every edge is drawn straight rather than the layout failing.
        None => (vec![0; nu], vec![Decision::Dropped; input.edges.len()]),
    }
}

fn structural(tail: usize, head: usize) -> NsEdge {
    NsEdge {
        tail,
        head,
        minlen: 0,
        weight: 0,
    }
}

/// A DAG kept with a topological order that is repaired on insertion (Pearce and Kelly), so
/// testing whether an edge closes a cycle only searches the nodes between its ends.
struct Dag {
    out: Vec<Vec<usize>>,
    inn: Vec<Vec<usize>>,
    ord: Vec<usize>,
    mark: Vec<u32>,
    stamp: u32,
}

impl Dag {
    fn new(ord: Vec<usize>) -> Self {
        let n = ord.len();
        Dag {
            out: vec![Vec::new(); n],
            inn: vec![Vec::new(); n],
            ord,
            mark: vec![0; n],
            stamp: 0,
        }
    }

    fn add_unchecked(&mut self, a: usize, b: usize) {
        self.out[a].push(b);
        self.inn[b].push(a);
    }

    fn next_stamp(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.iter_mut().for_each(|m| *m = 0);
            self.stamp = 1;
        }
        self.stamp
    }

    /// Adds `a -> b` unless it closes a cycle.
    fn try_add(&mut self, a: usize, b: usize) -> bool {
        if a == b {
            return false;
        }
        let (lower, upper) = (self.ord[b], self.ord[a]);
        if lower > upper {
            self.add_unchecked(a, b);
            return true;
        }
        // Nodes reachable from b that sit at or before a in the order.
        let s = self.next_stamp();
        let mut forward = Vec::new();
        let mut stack = vec![b];
        self.mark[b] = s;
        while let Some(x) = stack.pop() {
            if x == a {
                return false;
            }
            forward.push(x);
            for &y in &self.out[x] {
                if self.mark[y] != s && self.ord[y] <= upper {
                    self.mark[y] = s;
                    stack.push(y);
                }
            }
        }
        // Nodes reaching a that sit at or after b in the order.
        let s = self.next_stamp();
        let mut backward = Vec::new();
        let mut stack = vec![a];
        self.mark[a] = s;
        while let Some(x) = stack.pop() {
            backward.push(x);
            for &y in &self.inn[x] {
                if self.mark[y] != s && self.ord[y] >= lower {
                    self.mark[y] = s;
                    stack.push(y);
                }
            }
        }
        forward.sort_by_key(|&v| self.ord[v]);
        backward.sort_by_key(|&v| self.ord[v]);
        let mut slots: Vec<usize> = backward
            .iter()
            .chain(forward.iter())
            .map(|&v| self.ord[v])
            .collect();
        slots.sort_unstable();
        for (v, slot) in backward.iter().chain(forward.iter()).zip(slots) {
            self.ord[*v] = slot;
        }
        self.add_unchecked(a, b);
        true
    }
}

/// Lowest common cluster of two parents.
fn common_parent(cl_path: &[Vec<usize>], a: Option<usize>, b: Option<usize>) -> Option<usize> {
    let (a, b) = (a?, b?);
    let (pa, pb) = (&cl_path[a], &cl_path[b]);
    pa.iter()
        .zip(pb.iter())
        .take_while(|(x, y)| x == y)
        .last()
        .map(|(x, _)| *x)
}

fn build_layers(
    input: &LevelIn,
    sp: &Spacing,
    cl_path: Vec<Vec<usize>>,
    ranks: &[usize],
    decisions: &[Decision],
) -> Layered {
    let dir = input.dir;
    let nc = input.clusters.len();
    let mut nodes: Vec<LNode> = input
        .units
        .iter()
        .enumerate()
        .map(|(u, unit)| {
            let (cross, thick) = oriented(dir, unit.w, unit.h);
            let loops = unit.self_loops.len();
            LNode {
                kind: Kind::Unit(u),
                rank: ranks[u],
                parent: unit.parent,
                cross,
                thick,
                reach: loop_reach(sp, loops),
            }
        })
        .collect();
    // Spans from the units; dummies always lie inside the span of their cluster.
    let mut span: Vec<Option<(usize, usize)>> = vec![None; nc];
    for n in &nodes {
        if let Some(p) = n.parent {
            for &c in &cl_path[p] {
                span[c] = Some(match span[c] {
                    Some((lo, hi)) => (lo.min(n.rank), hi.max(n.rank)),
                    None => (n.rank, n.rank),
                });
            }
        }
    }
    let span: Vec<(usize, usize)> = span.into_iter().map(|s| s.unwrap_or((0, 0))).collect();
    let end_parent = |e: End| match e {
        End::Unit(u) => input.units[u].parent,
        End::Cluster(c) => input.clusters[c].parent,
    };

    let mut chains = Vec::new();
    let mut dummies = 0usize;
    for (i, e) in input.edges.iter().enumerate() {
        let (upper, lower, reversed) = match decisions[i] {
            Decision::Forward => (e.from, e.to, false),
            Decision::Reversed => (e.to, e.from, true),
            Decision::Dropped => continue,
        };
        let r_upper = match upper {
            End::Unit(u) => ranks[u],
            End::Cluster(c) => span[c].1,
        };
        let r_lower = match lower {
            End::Unit(u) => ranks[u],
            End::Cluster(c) => span[c].0,
        };
        if r_lower <= r_upper + 1 {
            continue;
        }
        // Dense graphs with long edges could need millions of dummies: past the cap, an edge
        // is drawn straight instead.
        dummies += r_lower - r_upper - 1;
        if dummies > MAX_DUMMIES {
            continue;
        }
        let parent = common_parent(&cl_path, end_parent(upper), end_parent(lower));
        let count = r_lower - r_upper - 1;
        let label_at = e.label.map(|_| count / 2);
        let mut chain_nodes = Vec::with_capacity(count);
        for k in 0..count {
            let (kind, cross, thick) = match (label_at, e.label) {
                (Some(at), Some((w, h))) if at == k => {
                    let (c, t) = oriented(dir, w, h);
                    (Kind::Label(i), c + 4.0, t + 4.0)
                }
                _ => (Kind::Dummy, 0.0, 0.0),
            };
            chain_nodes.push(nodes.len());
            nodes.push(LNode {
                kind,
                rank: r_upper + 1 + k,
                parent,
                cross,
                thick,
                reach: 0.0,
            });
        }
        chains.push(Chain {
            edge: i,
            nodes: chain_nodes,
            upper,
            lower,
            reversed,
        });
    }

    // Fillers, innermost clusters first so that an inner filler also serves the outer ones.
    let mut present: Vec<Vec<bool>> = span
        .iter()
        .map(|&(lo, hi)| vec![false; hi - lo + 1])
        .collect();
    let mark = |present: &mut Vec<Vec<bool>>, parent: Option<usize>, rank: usize| {
        if let Some(p) = parent {
            for &c in &cl_path[p] {
                let (lo, hi) = span[c];
                if (lo..=hi).contains(&rank) {
                    present[c][rank - lo] = true;
                }
            }
        }
    };
    for n in &nodes {
        mark(&mut present, n.parent, n.rank);
    }
    let mut by_depth: Vec<usize> = (0..nc).collect();
    by_depth.sort_by_key(|&c| std::cmp::Reverse(cl_path[c].len()));
    for &c in &by_depth {
        let (lo, hi) = span[c];
        for r in lo..=hi {
            if !present[c][r - lo] {
                nodes.push(LNode {
                    kind: Kind::Filler,
                    rank: r,
                    parent: Some(c),
                    cross: 0.0,
                    thick: 0.0,
                    reach: 0.0,
                });
                mark(&mut present, Some(c), r);
            }
        }
    }

    let ranks_count = nodes.iter().map(|n| n.rank + 1).max().unwrap_or(1);
    let n = nodes.len();
    let mut layered = Layered {
        nodes,
        ranks: ranks_count,
        cl_parent: input.clusters.iter().map(|c| c.parent).collect(),
        cl_path,
        span,
        chains: Vec::new(),
        up: vec![Vec::new(); n],
        down: vec![Vec::new(); n],
        segments: Vec::new(),
        attach: Vec::new(),
    };
    for chain in &chains {
        connect(&mut layered, chain);
    }
    layered.chains = chains;
    layered
}

/// Room a node keeps beside it for `loops` self-loops.
pub(super) fn loop_reach(sp: &Spacing, loops: usize) -> f64 {
    if loops == 0 {
        0.0
    } else {
        sp.self_loop + 6.0 * (loops - 1) as f64
    }
}

/// Segments and neighbour lists of one chain.
fn connect(l: &mut Layered, chain: &Chain) {
    let mut seq: Vec<usize> = Vec::with_capacity(chain.nodes.len() + 2);
    if let End::Unit(u) = chain.upper {
        seq.push(u);
    }
    seq.extend(&chain.nodes);
    if let End::Unit(u) = chain.lower {
        seq.push(u);
    }
    for w in seq.windows(2) {
        let (a, b) = (w[0], w[1]);
        let real = |v: usize| matches!(l.nodes[v].kind, Kind::Unit(_));
        let weight = match (real(a), real(b)) {
            (true, true) => 1,
            (true, false) | (false, true) => 2,
            (false, false) => 8,
        };
        l.segments.push((a, b, weight));
        l.down[a].push((b, weight as f64));
        l.up[b].push((a, weight as f64));
    }
    let ends = [
        (chain.upper, chain.nodes.first(), true),
        (chain.lower, chain.nodes.last(), false),
    ];
    for (end, node, is_upper) in ends {
        let (End::Cluster(c), Some(&d)) = (end, node) else {
            continue;
        };
        l.attach.push((d, c, 2));
        let rank = if is_upper { l.span[c].1 } else { l.span[c].0 };
        let members: Vec<usize> = (0..l.nodes.len())
            .filter(|&v| l.nodes[v].rank == rank && l.path(v).contains(&c))
            .collect();
        if members.is_empty() {
            continue;
        }
        let w = 2.0 / members.len() as f64;
        for m in members {
            if is_upper {
                l.up[d].push((m, w));
                l.down[m].push((d, w));
            } else {
                l.down[d].push((m, w));
                l.up[m].push((d, w));
            }
        }
    }
}
