//! Network simplex (Gansner, Koutsofios, North, Vo 1993): integer values for the nodes of a
//! DAG that respect `value[head] - value[tail] >= minlen` on every edge and minimise
//! `sum(weight * (value[head] - value[tail]))`.
//!
//! The layout uses it twice: for ranks (edges are the diagram's arrows) and for positions
//! across the ranks (edges are separation constraints plus auxiliary nodes whose cost is the
//! horizontal length of each edge segment). Every intermediate state is a feasible solution,
//! so an iteration cap bounds the time without ever giving an invalid layout.

use std::collections::HashMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edge {
    pub tail: usize,
    pub head: usize,
    pub minlen: i64,
    pub weight: i64,
}

const NONE: usize = usize::MAX;

struct Solver {
    edges: Vec<Edge>,
    /// Incident edges of every node.
    inc: Vec<Vec<usize>>,
    rank: Vec<i64>,
    tree_edge: Vec<bool>,
    parent: Vec<usize>,
    parent_edge: Vec<usize>,
    low: Vec<usize>,
    lim: Vec<usize>,
    cut: Vec<i64>,
    postorder: Vec<usize>,
    preorder: Vec<usize>,
    root: usize,
}

/// Solves the problem for nodes `0..n`. `None` when the constraints have a cycle (no
/// solution). Parallel edges are merged (largest minlen, summed weight); self-loops are
/// ignored. Values are normalised so that the smallest is 0.
pub fn solve(n: usize, input: &[Edge], max_iterations: usize) -> Option<Vec<i64>> {
    if n == 0 {
        return Some(Vec::new());
    }
    let mut merged: HashMap<(usize, usize), usize> = HashMap::new();
    let mut edges: Vec<Edge> = Vec::with_capacity(input.len() + n);
    for e in input {
        if e.tail >= n || e.head >= n {
            continue;
        }
        if e.tail == e.head {
            if e.minlen > 0 {
                return None;
            }
            continue;
        }
        match merged.get(&(e.tail, e.head)) {
            Some(&i) => {
                edges[i].minlen = edges[i].minlen.max(e.minlen);
                edges[i].weight += e.weight;
            }
            None => {
                merged.insert((e.tail, e.head), edges.len());
                edges.push(*e);
            }
        }
    }
    // A virtual root above every source makes the graph connected, so one spanning tree
    // covers every component.
    let root = n;
    let total = n + 1;
    let mut indeg = vec![0usize; total];
    for e in &edges {
        indeg[e.head] += 1;
    }
    for (v, &d) in indeg.iter().enumerate().take(n) {
        if d == 0 {
            edges.push(Edge {
                tail: root,
                head: v,
                minlen: 0,
                weight: 0,
            });
        }
    }
    let mut inc = vec![Vec::new(); total];
    for (i, e) in edges.iter().enumerate() {
        inc[e.tail].push(i);
        inc[e.head].push(i);
    }
    let rank = longest_path(total, &edges, &inc)?;
    let mut s = Solver {
        tree_edge: vec![false; edges.len()],
        edges,
        inc,
        rank,
        parent: vec![NONE; total],
        parent_edge: vec![NONE; total],
        low: vec![0; total],
        lim: vec![0; total],
        cut: vec![0; total],
        postorder: Vec::with_capacity(total),
        preorder: Vec::with_capacity(total),
        root,
    };
    s.feasible_tree();
    s.init_tree();
    let mut iterations = 0;
    while iterations < max_iterations {
        let Some(leave) = s.leave_node() else { break };
        let Some(enter) = s.enter_edge(leave) else {
            break;
        };
        s.tree_edge[s.parent_edge[leave]] = false;
        s.tree_edge[enter] = true;
        s.init_tree();
        s.update_ranks();
        iterations += 1;
    }
    let min = s.rank[..n].iter().copied().min().unwrap_or(0);
    Some(s.rank[..n].iter().map(|r| r - min).collect())
}

/// Initial feasible values: every node as low as its predecessors allow (Kahn's order).
/// `None` on a cycle.
fn longest_path(total: usize, edges: &[Edge], inc: &[Vec<usize>]) -> Option<Vec<i64>> {
    let mut indeg = vec![0usize; total];
    for e in edges {
        indeg[e.head] += 1;
    }
    let mut rank = vec![0i64; total];
    let mut queue: Vec<usize> = (0..total).filter(|&v| indeg[v] == 0).collect();
    let mut seen = 0;
    while let Some(v) = queue.pop() {
        seen += 1;
        for &i in &inc[v] {
            let e = edges[i];
            if e.tail != v {
                continue;
            }
            rank[e.head] = rank[e.head].max(rank[v] + e.minlen);
            indeg[e.head] -= 1;
            if indeg[e.head] == 0 {
                queue.push(e.head);
            }
        }
    }
    (seen == total).then_some(rank)
}

impl Solver {
    fn slack(&self, i: usize) -> i64 {
        let e = self.edges[i];
        self.rank[e.head] - self.rank[e.tail] - e.minlen
    }

    fn other(&self, i: usize, v: usize) -> usize {
        let e = self.edges[i];
        if e.tail == v {
            e.head
        } else {
            e.tail
        }
    }

    /// Grows a tree of tight edges from the root; while it does not span the graph, shifts
    /// the tree by the smallest slack of an edge leaving it, which makes that edge tight.
    fn feasible_tree(&mut self) {
        let total = self.rank.len();
        let mut in_tree = vec![false; total];
        in_tree[self.root] = true;
        let mut members = vec![self.root];
        loop {
            let mut stack = members.clone();
            while let Some(v) = stack.pop() {
                for k in 0..self.inc[v].len() {
                    let i = self.inc[v][k];
                    let w = self.other(i, v);
                    if !in_tree[w] && self.slack(i) == 0 {
                        in_tree[w] = true;
                        self.tree_edge[i] = true;
                        members.push(w);
                        stack.push(w);
                    }
                }
            }
            if members.len() == total {
                return;
            }
            let mut best: Option<(i64, usize)> = None;
            for i in 0..self.edges.len() {
                let e = self.edges[i];
                if in_tree[e.tail] != in_tree[e.head] {
                    let s = self.slack(i);
                    if best.is_none_or(|(b, _)| s < b) {
                        best = Some((s, i));
                    }
                }
            }
            // The root reaches every node, so some edge always leaves the tree.
            let Some((slack, i)) = best else { return };
            let delta = if in_tree[self.edges[i].tail] {
                slack
            } else {
                -slack
            };
            for &v in &members {
                self.rank[v] += delta;
            }
        }
    }

    /// Parent links, low/lim numbers and cut values of the current tree.
    fn init_tree(&mut self) {
        let total = self.rank.len();
        let mut adj: Vec<Vec<usize>> = vec![Vec::new(); total];
        for (i, e) in self.edges.iter().enumerate() {
            if self.tree_edge[i] {
                adj[e.tail].push(i);
                adj[e.head].push(i);
            }
        }
        self.postorder.clear();
        self.preorder.clear();
        self.parent[self.root] = NONE;
        self.parent_edge[self.root] = NONE;
        let mut next_lim = 1;
        // (node, next index into its tree adjacency)
        let mut stack: Vec<(usize, usize)> = vec![(self.root, 0)];
        let mut visited = vec![false; total];
        visited[self.root] = true;
        self.low[self.root] = next_lim;
        self.preorder.push(self.root);
        while let Some(top) = stack.last_mut() {
            let (v, k) = *top;
            if k < adj[v].len() {
                top.1 += 1;
                let i = adj[v][k];
                let w = self.other(i, v);
                if !visited[w] {
                    visited[w] = true;
                    self.parent[w] = v;
                    self.parent_edge[w] = i;
                    self.low[w] = next_lim;
                    self.preorder.push(w);
                    stack.push((w, 0));
                }
            } else {
                self.lim[v] = next_lim;
                next_lim += 1;
                self.postorder.push(v);
                stack.pop();
            }
        }
        for idx in 0..self.postorder.len() {
            let v = self.postorder[idx];
            if v != self.root {
                self.cut[v] = self.cut_value(v);
            }
        }
    }

    /// Cut value of the tree edge between `child` and its parent, from the cut values of the
    /// child's own tree edges (computed before it in postorder).
    fn cut_value(&self, child: usize) -> i64 {
        let pe = self.parent_edge[child];
        let child_is_tail = self.edges[pe].tail == child;
        let mut value = self.edges[pe].weight;
        for &i in &self.inc[child] {
            if i == pe {
                continue;
            }
            let e = self.edges[i];
            let is_out = e.tail == child;
            let other = if is_out { e.head } else { e.tail };
            let points_to_head = is_out == child_is_tail;
            value += if points_to_head { e.weight } else { -e.weight };
            if self.tree_edge[i] && self.parent[other] == child {
                let oc = self.cut[other];
                value += if points_to_head { -oc } else { oc };
            }
        }
        value
    }

    /// A node whose parent edge has a negative cut value, if any.
    fn leave_node(&self) -> Option<usize> {
        (0..self.rank.len()).find(|&v| v != self.root && self.cut[v] < 0)
    }

    fn is_descendant(&self, v: usize, of: usize) -> bool {
        self.low[of] <= self.lim[v] && self.lim[v] <= self.lim[of]
    }

    /// The non-tree edge of least slack that reconnects the two halves the leaving edge
    /// separates, crossing in the direction that lowers the cost.
    fn enter_edge(&self, leave: usize) -> Option<usize> {
        let e = self.edges[self.parent_edge[leave]];
        let (child, flip) = if self.lim[e.tail] > self.lim[e.head] {
            (e.head, true)
        } else {
            (e.tail, false)
        };
        let mut best: Option<(i64, usize)> = None;
        for (i, f) in self.edges.iter().enumerate() {
            if flip == self.is_descendant(f.tail, child)
                && flip != self.is_descendant(f.head, child)
            {
                let s = self.slack(i);
                if best.is_none_or(|(b, _)| s < b) {
                    best = Some((s, i));
                }
            }
        }
        best.map(|(_, i)| i)
    }

    /// Values follow the tree edges from the root, each of them tight.
    fn update_ranks(&mut self) {
        for idx in 1..self.preorder.len() {
            let v = self.preorder[idx];
            let p = self.parent[v];
            let e = self.edges[self.parent_edge[v]];
            self.rank[v] = if e.tail == v {
                self.rank[p] - e.minlen
            } else {
                self.rank[p] + e.minlen
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(tail: usize, head: usize, minlen: i64, weight: i64) -> Edge {
        Edge {
            tail,
            head,
            minlen,
            weight,
        }
    }

    fn cost(edges: &[Edge], r: &[i64]) -> i64 {
        edges
            .iter()
            .map(|e| e.weight * (r[e.head] - r[e.tail]))
            .sum()
    }

    fn feasible(edges: &[Edge], r: &[i64]) -> bool {
        edges.iter().all(|e| r[e.head] - r[e.tail] >= e.minlen)
    }

    #[test]
    fn chain_and_shortcut_are_tight() {
        // a -> b -> c -> d and a -> d: the shortcut spans three ranks.
        let edges = [e(0, 1, 1, 1), e(1, 2, 1, 1), e(2, 3, 1, 1), e(0, 3, 1, 1)];
        let r = solve(4, &edges, 100).unwrap();
        assert_eq!(r, vec![0, 1, 2, 3]);
    }

    #[test]
    fn pulls_a_late_source_down_to_its_target() {
        // x -> d only: longest path puts x at 0, the optimum puts it right above d.
        let edges = [e(0, 1, 1, 1), e(1, 2, 1, 1), e(2, 3, 1, 1), e(4, 3, 1, 1)];
        let r = solve(5, &edges, 100).unwrap();
        assert!(feasible(&edges, &r));
        assert_eq!(r[3] - r[4], 1, "{r:?}");
        assert_eq!(cost(&edges, &r), 4);
    }

    #[test]
    fn finds_the_optimum_of_a_small_graph() {
        // The example of the paper's figure: two paths of different length to h.
        let edges = [
            e(0, 1, 1, 1),
            e(1, 2, 1, 1),
            e(2, 3, 1, 1),
            e(3, 7, 1, 1),
            e(0, 4, 1, 1),
            e(0, 5, 1, 1),
            e(4, 6, 1, 1),
            e(5, 6, 1, 1),
            e(6, 7, 1, 1),
        ];
        let r = solve(8, &edges, 100).unwrap();
        assert!(feasible(&edges, &r));
        assert_eq!(cost(&edges, &r), 10, "{r:?}");
    }

    #[test]
    fn refuses_cycles_and_handles_components() {
        assert!(solve(2, &[e(0, 1, 1, 1), e(1, 0, 1, 1)], 10).is_none());
        let edges = [e(0, 1, 2, 1), e(2, 3, 0, 1)];
        let r = solve(5, &edges, 10).unwrap();
        assert!(feasible(&edges, &r));
        assert_eq!(r[1] - r[0], 2);
        assert_eq!(r[3] - r[2], 0);
    }

    #[test]
    fn parallel_edges_merge() {
        let edges = [e(0, 1, 1, 1), e(0, 1, 3, 2)];
        assert_eq!(solve(2, &edges, 10).unwrap(), vec![0, 3]);
    }
}
