//! Coordinates of one level: positions across the ranks from network simplex on Gansner's
//! auxiliary graph, positions along the ranks from rank thicknesses and cluster borders, and
//! the routes of the edges through their dummy nodes.

use quire_sdk::{Point, Rect};

use super::level::{loop_reach, End, Kind, Layered, LevelIn, LevelOut};
use super::simplex::{self, Edge as NsEdge};
use super::{Direction, Spacing};

/// Integer units per point for the simplex (separations are rounded up, never down).
const Q: f64 = 4.0;

fn q(x: f64) -> i64 {
    (x.max(0.0) * Q).ceil().min(1.0e12) as i64
}

/// Where a cluster's title goes in layout orientation (it is always at the top once turned).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Header {
    RankStart,
    RankEnd,
    CrossStart,
}

fn header_side(dir: Direction) -> Header {
    match dir {
        Direction::TopBottom => Header::RankStart,
        Direction::BottomTop => Header::RankEnd,
        Direction::LeftRight | Direction::RightLeft => Header::CrossStart,
    }
}

struct Geometry<'a> {
    input: &'a LevelIn,
    sp: &'a Spacing,
    side: Header,
}

impl Geometry<'_> {
    fn header(&self, c: usize) -> f64 {
        let h = self.input.clusters[c].label_h;
        if h > 0.0 {
            h + 2.0 * self.sp.label_inset
        } else {
            0.0
        }
    }

    /// The title's width plus insets: the least extent of the side the title runs along.
    fn title_extent(&self, c: usize) -> f64 {
        let w = self.input.clusters[c].label_w;
        if w > 0.0 {
            w + 2.0 * self.sp.label_inset + 0.5
        } else {
            0.0
        }
    }

    fn pad_lo(&self, c: usize) -> f64 {
        self.sp.cluster_pad
            + if self.side == Header::CrossStart {
                self.header(c)
            } else {
                0.0
            }
    }

    fn pad_hi(&self, _c: usize) -> f64 {
        self.sp.cluster_pad
    }

    fn cluster_reach(&self, c: usize) -> f64 {
        loop_reach(self.sp, self.input.clusters[c].self_loops.len())
    }
}

pub(super) fn place(
    input: &LevelIn,
    sp: &Spacing,
    l: &mut Layered,
    layers: &[Vec<usize>],
) -> LevelOut {
    let g = Geometry {
        input,
        sp,
        side: header_side(input.dir),
    };
    let nc = input.clusters.len();
    let (x, cl_x) = cross_positions(&g, l, layers);
    let (centre, top, bottom) = rank_positions(&g, l, layers);

    let unit_rect = |v: usize| -> Rect {
        let n = &l.nodes[v];
        Rect::new(
            x[v] - n.cross / 2.0,
            centre[n.rank] - n.thick / 2.0,
            n.cross,
            n.thick,
        )
    };
    let cluster_rect = |c: usize| -> Rect {
        let (lo, hi) = cl_x[c];
        Rect::new(lo, top[c], hi - lo, bottom[c] - top[c])
    };

    // Everything in layout orientation first.
    let units: Vec<Rect> = (0..input.units.len()).map(unit_rect).collect();
    let clusters: Vec<Rect> = (0..nc).map(cluster_rect).collect();
    let mut edges: Vec<(usize, Vec<Point>)> = Vec::new();
    let end_centre = |e: End| match e {
        End::Unit(u) => units[u].center(),
        End::Cluster(c) => clusters[c].center(),
    };
    for chain in &l.chains {
        let mut pts: Vec<Point> = chain
            .nodes
            .iter()
            .map(|&v| Point {
                x: x[v],
                y: centre[l.nodes[v].rank],
            })
            .collect();
        pts = simplify(end_centre(chain.upper), pts, end_centre(chain.lower));
        if chain.reversed {
            pts.reverse();
        }
        edges.push((input.edges[chain.edge].id, pts));
    }
    for (u, unit) in input.units.iter().enumerate() {
        for (k, &id) in unit.self_loops.iter().enumerate() {
            edges.push((id, self_loop(sp, units[u], k)));
        }
    }
    for (c, cluster) in input.clusters.iter().enumerate() {
        for (k, &id) in cluster.self_loops.iter().enumerate() {
            edges.push((id, self_loop(sp, clusters[c], k)));
        }
    }

    // Turn to the final orientation and move the box to the origin.
    let dir = input.dir;
    let mut out = LevelOut {
        units: units.iter().map(|r| turn_rect(dir, *r)).collect(),
        clusters: clusters.iter().map(|r| turn_rect(dir, *r)).collect(),
        edges: edges
            .into_iter()
            .map(|(id, pts)| (id, pts.into_iter().map(|p| turn(dir, p)).collect()))
            .collect(),
        width: 0.0,
        height: 0.0,
    };
    let mut min = Point {
        x: f64::INFINITY,
        y: f64::INFINITY,
    };
    let mut max = Point {
        x: f64::NEG_INFINITY,
        y: f64::NEG_INFINITY,
    };
    let mut grow = |a: Point, b: Point| {
        min.x = min.x.min(a.x);
        min.y = min.y.min(a.y);
        max.x = max.x.max(b.x);
        max.y = max.y.max(b.y);
    };
    for r in out.units.iter().chain(out.clusters.iter()) {
        grow(
            Point { x: r.x, y: r.y },
            Point {
                x: r.right(),
                y: r.bottom(),
            },
        );
    }
    for (_, pts) in &out.edges {
        for p in pts {
            grow(*p, *p);
        }
    }
    if !min.x.is_finite() {
        return out;
    }
    for r in out.units.iter_mut().chain(out.clusters.iter_mut()) {
        r.x -= min.x;
        r.y -= min.y;
    }
    for (_, pts) in out.edges.iter_mut() {
        for p in pts.iter_mut() {
            p.x -= min.x;
            p.y -= min.y;
        }
    }
    out.width = max.x - min.x;
    out.height = max.y - min.y;
    out
}

fn turn(dir: Direction, p: Point) -> Point {
    match dir {
        Direction::TopBottom => p,
        Direction::BottomTop => Point { x: p.x, y: -p.y },
        Direction::LeftRight => Point { x: p.y, y: p.x },
        Direction::RightLeft => Point { x: -p.y, y: p.x },
    }
}

fn turn_rect(dir: Direction, r: Rect) -> Rect {
    let a = turn(dir, Point { x: r.x, y: r.y });
    let b = turn(
        dir,
        Point {
            x: r.right(),
            y: r.bottom(),
        },
    );
    Rect::new(
        a.x.min(b.x),
        a.y.min(b.y),
        (a.x - b.x).abs(),
        (a.y - b.y).abs(),
    )
}

/// Two bends beside the far side of `r` (layout orientation), one loop further out per `k`.
fn self_loop(sp: &Spacing, r: Rect, k: usize) -> Vec<Point> {
    let x = r.right() + sp.self_loop + 6.0 * k as f64;
    let c = r.center();
    let dy = (r.h / 4.0).clamp(4.0, 12.0) + 3.0 * k as f64;
    vec![Point { x, y: c.y - dy }, Point { x, y: c.y + dy }]
}

/// Drops bends that lie on the straight line through their neighbours.
fn simplify(start: Point, pts: Vec<Point>, end: Point) -> Vec<Point> {
    let mut kept: Vec<Point> = Vec::with_capacity(pts.len());
    for i in 0..pts.len() {
        let prev = kept.last().copied().unwrap_or(start);
        let next = pts.get(i + 1).copied().unwrap_or(end);
        let p = pts[i];
        let (dx, dy) = (next.x - prev.x, next.y - prev.y);
        let len = dx.hypot(dy);
        let off = if len > 1e-9 {
            ((p.x - prev.x) * dy - (p.y - prev.y) * dx).abs() / len
        } else {
            (p.x - prev.x).hypot(p.y - prev.y)
        };
        if off > 0.5 {
            kept.push(p);
        }
    }
    kept
}

/// Centre of every layered node across the ranks, and each cluster's (low, high) border.
fn cross_positions(
    g: &Geometry,
    l: &Layered,
    layers: &[Vec<usize>],
) -> (Vec<f64>, Vec<(f64, f64)>) {
    let sp = g.sp;
    let n = l.nodes.len();
    let nc = l.cl_path.len();
    let lo = |c: usize| n + 2 * c;
    let hi = |c: usize| n + 2 * c + 1;
    let half_lo = |v: usize| l.nodes[v].cross / 2.0;
    let half_hi = |v: usize| l.nodes[v].cross / 2.0 + l.nodes[v].reach;
    let real = |v: usize| matches!(l.nodes[v].kind, Kind::Unit(_));

    // Separation and containment constraints, all pointing across the ranks.
    let mut cons: Vec<NsEdge> = Vec::new();
    let push = |cons: &mut Vec<NsEdge>, tail: usize, head: usize, gap: f64| {
        cons.push(NsEdge {
            tail,
            head,
            minlen: q(gap),
            weight: 0,
        })
    };
    for layer in layers {
        for w in layer.windows(2) {
            let (a, b) = (w[0], w[1]);
            let (pa, pb) = (l.path(a), l.path(b));
            let k = pa.iter().zip(pb).take_while(|(x, y)| x == y).count();
            let cluster_a = pa.get(k).copied();
            let cluster_b = pb.get(k).copied();
            let (ta, ra) = match cluster_a {
                Some(c) => (hi(c), g.cluster_reach(c)),
                None => (a, half_hi(a)),
            };
            let (hb, rb) = match cluster_b {
                Some(c) => (lo(c), 0.0),
                None => (b, half_lo(b)),
            };
            let sep = if cluster_a.is_some() || cluster_b.is_some() {
                sp.node_sep
            } else if l.nodes[a].kind == Kind::Filler || l.nodes[b].kind == Kind::Filler {
                0.0
            } else {
                match (real(a), real(b)) {
                    (true, true) => sp.node_sep,
                    (false, false) => sp.edge_sep,
                    _ => (sp.node_sep + sp.edge_sep) / 2.0,
                }
            };
            push(&mut cons, ta, hb, ra + sep + rb);
        }
    }
    for v in 0..n {
        if let Some(c) = l.nodes[v].parent {
            push(&mut cons, lo(c), v, g.pad_lo(c) + half_lo(v));
            push(&mut cons, v, hi(c), g.pad_hi(c) + half_hi(v));
        }
    }
    let horizontal_title = g.side != Header::CrossStart;
    for c in 0..nc {
        if let Some(p) = l.cl_parent[c] {
            push(&mut cons, lo(p), lo(c), g.pad_lo(p));
            push(&mut cons, hi(c), hi(p), g.pad_hi(p) + g.cluster_reach(c));
        }
        let least = if horizontal_title {
            g.title_extent(c)
        } else {
            0.0
        }
        .max(2.0 * sp.cluster_pad);
        cons.push(NsEdge {
            tail: lo(c),
            head: hi(c),
            minlen: q(least),
            weight: 1,
        });
    }

    // Gansner's auxiliary nodes: each pulls the two ends of a segment together.
    let mut all = cons.clone();
    let mut next = n + 2 * nc;
    let mut pull = |all: &mut Vec<NsEdge>, a: usize, b: usize, w: i64| {
        for head in [a, b] {
            all.push(NsEdge {
                tail: next,
                head,
                minlen: 0,
                weight: w,
            });
        }
        next += 1;
    };
    for &(a, b, w) in &l.segments {
        pull(&mut all, a, b, w);
    }
    for &(d, c, w) in &l.attach {
        pull(&mut all, d, lo(c), w);
        pull(&mut all, d, hi(c), w);
    }
    let total = next;
    let Some(sol) = simplex::solve(total, &all, super::WORK_BUDGET) else {
        return fallback(g, l, layers);
    };
    let mut xi: Vec<i64> = sol[..n + 2 * nc].to_vec();
    balance(l, &cons, &mut xi, n + 2 * nc);
    let x = (0..n).map(|v| xi[v] as f64 / Q).collect();
    let cl = (0..nc)
        .map(|c| (xi[lo(c)] as f64 / Q, xi[hi(c)] as f64 / Q))
        .collect();
    (x, cl)
}

/// Slides each node to the middle of the range where its own segments are shortest, within
/// its constraints: the simplex leaves a node at one end of that range (a parent over its
/// left child), this centres it without lengthening anything.
fn balance(l: &Layered, cons: &[NsEdge], x: &mut [i64], vars: usize) {
    let n = l.nodes.len();
    let mut inn: Vec<Vec<usize>> = vec![Vec::new(); vars];
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); vars];
    for (i, e) in cons.iter().enumerate() {
        inn[e.head].push(i);
        out[e.tail].push(i);
    }
    let mut nbrs: Vec<Vec<(usize, i64)>> = vec![Vec::new(); n];
    for &(a, b, w) in &l.segments {
        nbrs[a].push((b, w));
        nbrs[b].push((a, w));
    }
    let mut attached = vec![false; n];
    for &(d, _, _) in &l.attach {
        attached[d] = true;
    }
    // Each pass halves the distance to the balanced state; stop when nothing moves.
    for _ in 0..12 {
        let mut moved = false;
        for v in 0..n {
            if nbrs[v].is_empty() || attached[v] {
                continue;
            }
            let lo = inn[v]
                .iter()
                .map(|&i| x[cons[i].tail] + cons[i].minlen)
                .max()
                .unwrap_or(i64::MIN / 4);
            let hi = out[v]
                .iter()
                .map(|&i| x[cons[i].head] - cons[i].minlen)
                .min()
                .unwrap_or(i64::MAX / 4);
            if lo > hi {
                continue;
            }
            let mut pts: Vec<(i64, i64)> = nbrs[v].iter().map(|&(u, w)| (x[u], w)).collect();
            pts.sort_unstable();
            let total: i64 = pts.iter().map(|p| p.1).sum();
            let mut acc = 0;
            let mut range = (pts[0].0, pts[0].0);
            for (i, &(p, w)) in pts.iter().enumerate() {
                if 2 * (acc + w) > total {
                    range = (p, p);
                    break;
                }
                if 2 * (acc + w) == total {
                    range = (p, pts.get(i + 1).map_or(p, |q| q.0));
                    break;
                }
                acc += w;
            }
            let (a, b) = (range.0.max(lo), range.1.min(hi));
            let target = if a <= b {
                (a + b) / 2
            } else if range.1 < lo {
                lo
            } else {
                hi
            };
            moved |= target != x[v];
            x[v] = target;
        }
        if !moved {
            break;
        }
    }
}

/// Positions without the simplex (only if it failed): each rank packed from the left, each
/// cluster around its members.
fn fallback(g: &Geometry, l: &Layered, layers: &[Vec<usize>]) -> (Vec<f64>, Vec<(f64, f64)>) {
    let mut x = vec![0.0; l.nodes.len()];
    for layer in layers {
        let mut at = 0.0;
        for &v in layer {
            x[v] = at + l.nodes[v].cross / 2.0;
            at += l.nodes[v].cross + l.nodes[v].reach + g.sp.node_sep;
        }
    }
    let nc = l.cl_path.len();
    let mut cl = vec![(f64::INFINITY, f64::NEG_INFINITY); nc];
    for (v, n) in l.nodes.iter().enumerate() {
        for &c in l.path(v) {
            cl[c].0 = cl[c].0.min(x[v] - n.cross / 2.0 - g.pad_lo(c));
            cl[c].1 = cl[c].1.max(x[v] + n.cross / 2.0 + g.pad_hi(c));
        }
    }
    for c in cl.iter_mut() {
        if !c.0.is_finite() {
            *c = (0.0, 0.0);
        }
    }
    (x, cl)
}

/// Centre line of every rank, and the top and bottom of every cluster (layout orientation).
fn rank_positions(
    g: &Geometry,
    l: &Layered,
    layers: &[Vec<usize>],
) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let sp = g.sp;
    let nc = l.cl_path.len();
    let ranks = layers.len().max(1);
    let mut thick = vec![0.0f64; ranks];
    for (r, layer) in layers.iter().enumerate() {
        for &v in layer {
            thick[r] = thick[r].max(l.nodes[v].thick);
        }
    }
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); nc];
    for c in 0..nc {
        if let Some(p) = l.cl_parent[c] {
            children[p].push(c);
        }
    }
    let mut inner_first: Vec<usize> = (0..nc).collect();
    inner_first.sort_by_key(|&c| std::cmp::Reverse(l.cl_path[c].len()));
    // Extra room a title needs along the ranks when the title runs across them (LR, RL).
    let mut stretch = vec![0.0f64; nc];
    let mut result = (Vec::new(), Vec::new(), Vec::new());
    for _round in 0..=(inner_first.len().min(8) + 1) {
        let mut extra_top = vec![0.0f64; nc];
        let mut extra_bottom = vec![0.0f64; nc];
        for &c in &inner_first {
            let (lo, hi) = l.span[c];
            let mut t = sp.cluster_pad + stretch[c];
            let mut b = sp.cluster_pad + stretch[c];
            match g.side {
                Header::RankStart => t += g.header(c),
                Header::RankEnd => b += g.header(c),
                Header::CrossStart => {}
            }
            let inner_t = children[c]
                .iter()
                .filter(|&&k| l.span[k].0 == lo)
                .map(|&k| extra_top[k])
                .fold(0.0, f64::max);
            let inner_b = children[c]
                .iter()
                .filter(|&&k| l.span[k].1 == hi)
                .map(|&k| extra_bottom[k])
                .fold(0.0, f64::max);
            extra_top[c] = t + inner_t;
            extra_bottom[c] = b + inner_b;
        }
        let mut before = vec![0.0f64; ranks];
        let mut after = vec![0.0f64; ranks];
        for c in 0..nc {
            let (lo, hi) = l.span[c];
            if lo < ranks {
                before[lo] = before[lo].max(extra_top[c]);
            }
            if hi < ranks {
                after[hi] = after[hi].max(extra_bottom[c]);
            }
        }
        let mut band = vec![0.0f64; ranks];
        band[0] = before[0];
        for r in 1..ranks {
            band[r] = band[r - 1] + thick[r - 1] + after[r - 1] + sp.rank_sep + before[r];
        }
        let centre: Vec<f64> = (0..ranks).map(|r| band[r] + thick[r] / 2.0).collect();
        let top: Vec<f64> = (0..nc)
            .map(|c| band[l.span[c].0.min(ranks - 1)] - extra_top[c])
            .collect();
        let bottom: Vec<f64> = (0..nc)
            .map(|c| {
                let r = l.span[c].1.min(ranks - 1);
                band[r] + thick[r] + extra_bottom[c]
            })
            .collect();
        let mut short = false;
        if g.side == Header::CrossStart {
            for c in 0..nc {
                let need = g.title_extent(c);
                let have = bottom[c] - top[c];
                if need > have + 0.01 {
                    stretch[c] += (need - have) / 2.0;
                    short = true;
                }
            }
        }
        result = (centre, top, bottom);
        if !short {
            break;
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::super::level::oriented;
    use super::*;

    #[test]
    fn simplify_drops_collinear_bends_only() {
        let a = Point { x: 0.0, y: 0.0 };
        let b = Point { x: 0.0, y: 100.0 };
        let straight = vec![Point { x: 0.0, y: 50.0 }];
        assert!(simplify(a, straight, b).is_empty());
        let bent = vec![Point { x: 30.0, y: 50.0 }];
        assert_eq!(simplify(a, bent.clone(), b), bent);
    }

    #[test]
    fn turning_swaps_axes_for_horizontal_directions() {
        let r = Rect::new(10.0, 20.0, 30.0, 40.0);
        assert_eq!(
            turn_rect(Direction::LeftRight, r),
            Rect::new(20.0, 10.0, 40.0, 30.0)
        );
        assert_eq!(
            turn_rect(Direction::BottomTop, r),
            Rect::new(10.0, -60.0, 30.0, 40.0)
        );
        assert_eq!(
            oriented(Direction::RightLeft, 5.0, 7.0),
            (7.0, 5.0),
            "sizes turn too"
        );
    }
}
