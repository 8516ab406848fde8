//! Ordering within ranks: barycentre sweeps with clusters kept contiguous, keeping the order
//! with the fewest weighted crossings.

use std::cmp::Ordering;

use super::level::Layered;

/// Sweeps tried at most, and how many without improvement end the search.
const MAX_SWEEPS: usize = 24;
const PATIENCE: usize = 5;

pub(super) fn order(l: &Layered) -> Vec<Vec<usize>> {
    let nc = l.cl_path.len();
    let mut layers = initial(l);
    let mut ckey = cluster_keys_from_positions(l, &layers, nc);
    for layer in layers.iter_mut() {
        let key = positions(l, layer);
        *layer = sort_layer(l, layer, &key, &ckey);
    }
    let mut best = layers.clone();
    let mut best_cross = crossings(l, &layers);
    let mut stale = 0;
    for sweep in 0..MAX_SWEEPS {
        if best_cross <= 0.0 {
            break;
        }
        let down = sweep % 2 == 0;
        let mut sum = vec![0.0f64; nc];
        let mut count = vec![0usize; nc];
        let ranks: Vec<usize> = if down {
            (1..l.ranks).collect()
        } else {
            (0..l.ranks.saturating_sub(1)).rev().collect()
        };
        let mut pos = vec![0.0f64; l.nodes.len()];
        for layer in &layers {
            for (i, &v) in layer.iter().enumerate() {
                pos[v] = i as f64;
            }
        }
        let mut key = vec![0.0f64; l.nodes.len()];
        for r in ranks {
            let layer = &layers[r];
            for (i, &v) in layer.iter().enumerate() {
                let nbrs = if down { &l.up[v] } else { &l.down[v] };
                let (s, w) = nbrs
                    .iter()
                    .fold((0.0, 0.0), |(s, w), &(u, wt)| (s + pos[u] * wt, w + wt));
                key[v] = if w > 0.0 { s / w } else { i as f64 };
                for &c in l.path(v) {
                    sum[c] += key[v];
                    count[c] += 1;
                }
            }
            let sorted = sort_layer(l, layer, &key, &ckey);
            for (i, &v) in sorted.iter().enumerate() {
                pos[v] = i as f64;
            }
            layers[r] = sorted;
        }
        for c in 0..nc {
            if count[c] > 0 {
                ckey[c] = sum[c] / count[c] as f64;
            }
        }
        let cross = crossings(l, &layers);
        if cross < best_cross {
            best_cross = cross;
            best = layers.clone();
            stale = 0;
        } else {
            stale += 1;
            if stale >= PATIENCE {
                break;
            }
        }
    }
    best
}

/// Depth-first from the nodes of the first ranks, as dagre starts: connected nodes begin
/// near each other.
fn initial(l: &Layered) -> Vec<Vec<usize>> {
    let mut layers = vec![Vec::new(); l.ranks];
    let mut seen = vec![false; l.nodes.len()];
    let mut starts: Vec<usize> = (0..l.nodes.len()).collect();
    starts.sort_by_key(|&v| l.nodes[v].rank);
    for s in starts {
        if seen[s] {
            continue;
        }
        let mut stack = vec![s];
        while let Some(v) = stack.pop() {
            if seen[v] {
                continue;
            }
            seen[v] = true;
            layers[l.nodes[v].rank].push(v);
            for &(w, _) in l.down[v].iter().rev() {
                if !seen[w] {
                    stack.push(w);
                }
            }
        }
    }
    layers
}

fn positions(l: &Layered, layer: &[usize]) -> Vec<f64> {
    let mut key = vec![0.0f64; l.nodes.len()];
    for (i, &v) in layer.iter().enumerate() {
        key[v] = i as f64;
    }
    key
}

fn cluster_keys_from_positions(l: &Layered, layers: &[Vec<usize>], nc: usize) -> Vec<f64> {
    let mut sum = vec![0.0f64; nc];
    let mut count = vec![0usize; nc];
    for layer in layers {
        for (i, &v) in layer.iter().enumerate() {
            for &c in l.path(v) {
                sum[c] += i as f64;
                count[c] += 1;
            }
        }
    }
    (0..nc)
        .map(|c| {
            if count[c] > 0 {
                sum[c] / count[c] as f64
            } else {
                0.0
            }
        })
        .collect()
}

/// Sorts one layer by `key`, keeping every cluster contiguous: at each level of the cluster
/// tree the items are the nodes directly there and the child clusters, which sort by their
/// own key (the same on every rank, so sibling clusters never swap between ranks).
pub(super) fn sort_layer(l: &Layered, layer: &[usize], key: &[f64], ckey: &[f64]) -> Vec<usize> {
    let mut out = Vec::with_capacity(layer.len());
    sort_under(l, 0, layer.to_vec(), key, ckey, &mut out);
    out
}

enum Item {
    Node(usize),
    Cluster(usize, Vec<usize>),
}

fn sort_under(
    l: &Layered,
    depth: usize,
    nodes: Vec<usize>,
    key: &[f64],
    ckey: &[f64],
    out: &mut Vec<usize>,
) {
    let mut items: Vec<Item> = Vec::new();
    for v in nodes {
        let path = l.path(v);
        if path.len() <= depth {
            items.push(Item::Node(v));
            continue;
        }
        let c = path[depth];
        match items
            .iter_mut()
            .find(|it| matches!(it, Item::Cluster(x, _) if *x == c))
        {
            Some(Item::Cluster(_, members)) => members.push(v),
            _ => items.push(Item::Cluster(c, vec![v])),
        }
    }
    let item_key = |it: &Item| match it {
        Item::Node(v) => (key[*v], 0u8, *v),
        Item::Cluster(c, _) => (ckey[*c], 1u8, *c),
    };
    items.sort_by(|a, b| {
        let (ka, ta, ia) = item_key(a);
        let (kb, tb, ib) = item_key(b);
        ka.total_cmp(&kb)
            .then(ta.cmp(&tb))
            .then(ia.cmp(&ib))
            .then(Ordering::Equal)
    });
    for it in items {
        match it {
            Item::Node(v) => out.push(v),
            Item::Cluster(_, members) => sort_under(l, depth + 1, members, key, ckey, out),
        }
    }
}

/// Weighted crossings between every pair of neighbouring ranks (Barth, Jünger, Mutzel:
/// inversions counted with a Fenwick tree).
pub(super) fn crossings(l: &Layered, layers: &[Vec<usize>]) -> f64 {
    let mut pos = vec![0usize; l.nodes.len()];
    for layer in layers {
        for (i, &v) in layer.iter().enumerate() {
            pos[v] = i;
        }
    }
    let mut total = 0.0;
    for r in 0..layers.len().saturating_sub(1) {
        let mut pairs: Vec<(usize, usize, f64)> = Vec::new();
        for &v in &layers[r] {
            for &(w, wt) in &l.down[v] {
                if l.nodes[w].rank == r + 1 {
                    pairs.push((pos[v], pos[w], wt));
                }
            }
        }
        pairs.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
        let size = layers[r + 1].len() + 1;
        let mut tree = vec![0.0f64; size + 1];
        let mut inserted = 0.0;
        for &(_, lower, wt) in &pairs {
            // Weight already inserted at lower positions <= `lower`.
            let mut i = lower + 1;
            let mut below = 0.0;
            while i > 0 {
                below += tree[i];
                i -= i & i.wrapping_neg();
            }
            total += wt * (inserted - below);
            let mut i = lower + 1;
            while i <= size {
                tree[i] += wt;
                i += i & i.wrapping_neg();
            }
            inserted += wt;
        }
    }
    total
}
