//! From strokes to blanks, in working pixels: tick boxes (small squares whose four sides are
//! inked), answer lines and the cells of ruled grids (a field sits on the line that closes
//! it from below, as high as a line of handwriting, or fills an empty cell that is tall).
//!
//! The working image is about 150 dpi (see [`super::raster`]); the sizes below are in its
//! pixels and hold from about 100 to 200 dpi, the range of real scans and photos once
//! shrunk.

use super::ink::{Ink, Seg};
use super::Strokes;

/// What a blank is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Text,
    Multiline,
    Checkbox,
}

/// A blank in working pixels: `[x0, x1) x [y0, y1)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Blank {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
    pub kind: Kind,
}

/// Sides of a tick box.
const BOX_MIN: f64 = 8.0;
const BOX_MAX: f64 = 42.0;
/// Shortest line that may be written on.
const MIN_LINE: f64 = 28.0;
/// Shortest piece of a line, once cut by the rulings standing on it.
const MIN_PIECE: f64 = 20.0;
/// Height of a field on a line: a line of handwriting.
const FIELD_H: f64 = 34.0;
/// Lines closer than this to the line above them leave no room to write.
const MIN_ROOM: f64 = 12.0;
/// Least brightness of a blank against the paper around it.
const MIN_SHADE: f64 = 0.75;
/// Slack when deciding that two strokes meet.
const MEET: f64 = 4.0;
/// Most lines and rulings examined on one picture.
const MAX_LINES: usize = 4_000;
const MAX_RULINGS: usize = 8_000;
/// Most tick-box candidates kept on one picture (a sheet of graph paper has thousands).
const MAX_BOXES: usize = 3_000;

/// The rulings (sorted by position) within `slack` of `x`.
fn near(rulings: &[Seg], x: f64, slack: f64) -> &[Seg] {
    let lo = rulings.partition_point(|r| r.mid() < x - slack);
    let hi = rulings.partition_point(|r| r.mid() <= x + slack);
    &rulings[lo..hi.max(lo)]
}

pub fn find(strokes: &Strokes) -> Vec<Blank> {
    let boxes = tick_boxes(strokes);
    let lines: Vec<Seg> = merge_collinear(
        strokes
            .horizontal
            .iter()
            .filter(|s| {
                // A ruling is long for its weight; the bar of a bold capital is not. Nor is
                // the foot of a word, which has the letters standing on it. A short line
                // is thin and ends in paper.
                s.len() >= MIN_LINE.max(10.0 * s.thick)
                    && !is_box_edge(s, &boxes, false)
                    && attached(&strokes.ink, s) <= 0.35
                    && (s.len() >= 100.0 || (s.thick <= 3.5 && free_end(&strokes.ink, s)))
            })
            .copied()
            .chain(strokes.tints.iter().copied())
            .collect(),
    );
    // Strokes come longest first; a page of hatching keeps only its longest ones, so the
    // work stays bounded.
    let mut lines = lines;
    lines.truncate(MAX_LINES);
    let mut rulings: Vec<Seg> = strokes
        .vertical
        .iter()
        .filter(|s| s.len() >= 10.0 && !is_box_edge(s, &boxes, true))
        .take(MAX_RULINGS)
        .copied()
        .collect();
    rulings.sort_by(|a, b| a.mid().total_cmp(&b.mid()));
    let mut out: Vec<Blank> = Vec::new();
    for line in &lines {
        out.extend(line_blanks(line, &lines, &rulings, &boxes, &strokes.ink));
    }
    out.extend(boxes);
    // A blank is on paper: not inside a filled band (light words on a coloured header).
    // (Tick boxes have had their inside and surroundings examined already.)
    out.retain(|b| {
        b.kind == Kind::Checkbox || strokes.paper.shade(b.x0, b.y0, b.x1, b.y1) >= MIN_SHADE
    });
    out
}

/// Whether `s` is a side of one of `boxes`.
fn is_box_edge(s: &Seg, boxes: &[Blank], vertical: bool) -> bool {
    boxes.iter().any(|b| {
        let (a0, a1, c0, c1) = if vertical {
            (b.y0, b.y1, b.x0, b.x1)
        } else {
            (b.x0, b.x1, b.y0, b.y1)
        };
        s.a0 >= a0 - MEET && s.a1 <= a1 + MEET && s.mid() >= c0 - MEET && s.mid() <= c1 + MEET
    })
}

/// The share of a stroke's length that has ink touching it from above or from below:
/// a word's letters stand on the foot they make, while a ruling is touched at a few points.
fn attached(ink: &Ink, s: &Seg) -> f64 {
    let (a0, a1) = (s.a0.round() as i64, s.a1.round() as i64);
    if a1 <= a0 {
        return 0.0;
    }
    let dark = |x: i64, y: f64| {
        let y = y.round() as i64;
        x >= 0 && y >= 0 && ink.is_dark(x as usize, y as usize)
    };
    let (mut up, mut down) = (0, 0);
    for x in a0..a1 {
        let c = s.at(x as f64);
        let edge = s.thick / 2.0 + 2.0;
        if dark(x, c - edge) && dark(x, c - edge - 1.0) {
            up += 1;
        }
        if dark(x, c + edge) && dark(x, c + edge + 1.0) {
            down += 1;
        }
    }
    f64::from(up.max(down)) / (a1 - a0) as f64
}

/// Whether a short stroke ends in paper on at least one side: a hyphen or the bar of a
/// letter runs into letters at both ends, a blank line after its label does not.
fn free_end(ink: &Ink, s: &Seg) -> bool {
    let reach = s.thick / 2.0 + 1.0;
    let inked = |x0: f64, x1: f64, c: f64| {
        ink.count(
            x0.round() as i64,
            (c - reach).round() as i64,
            x1.round() as i64,
            (c + reach).round() as i64 + 1,
        ) > 0
    };
    !(inked(s.a0 - 6.0, s.a0 - 1.0, s.c0) && inked(s.a1 + 1.0, s.a1 + 6.0, s.c1))
}

/// Joins strokes that continue one another across a small gap (a broken or dashed line),
/// and short lines in a row with a slash or a space between them (`__/__/__`).
fn merge_collinear(mut segs: Vec<Seg>) -> Vec<Seg> {
    segs.sort_by(|a, b| a.a0.total_cmp(&b.a0));
    let mut out: Vec<Seg> = Vec::with_capacity(segs.len());
    for s in segs {
        let joined = out.iter_mut().rev().take(64).find(|o| {
            let short = o.len() < 100.0 && s.len() < 100.0;
            let gap = if short { 25.0 } else { 6.0 };
            s.a0 <= o.a1 + gap && s.a0 >= o.a0 && (o.at(s.a0) - s.c0).abs() <= 2.0
        });
        match joined {
            Some(o) if s.a1 > o.a1 => {
                let c1 = s.c1;
                let len = o.len() + s.len();
                o.thick = (o.thick * o.len() + s.thick * s.len()) / len.max(1.0);
                o.a1 = s.a1;
                o.c1 = c1;
            }
            Some(_) => {}
            None => out.push(s),
        }
    }
    // A stroke lying along a longer one is part of it (the rows of a thick, uneven line).
    let mut by_length: Vec<Seg> = out;
    by_length.sort_by(|a, b| b.len().total_cmp(&a.len()));
    let mut kept: Vec<Seg> = Vec::with_capacity(by_length.len());
    for s in by_length {
        let inside = kept.iter().any(|k| {
            s.a0 >= k.a0 - 2.0
                && s.a1 <= k.a1 + 2.0
                && (k.at((s.a0 + s.a1) / 2.0) - s.mid()).abs() <= k.thick / 2.0 + 3.0
        });
        if !inside {
            kept.push(s);
        }
    }
    kept
}

/// Fields standing on `line`: the line cut where rulings stand on it, each piece with the
/// room above it up to the next line.
fn line_blanks(
    line: &Seg,
    lines: &[Seg],
    rulings: &[Seg],
    boxes: &[Blank],
    ink: &Ink,
) -> Vec<Blank> {
    // Rulings that divide the room above the line: they reach the line and either cross it
    // or rise to (or past) the line above.
    let mut cuts: Vec<f64> = vec![line.a0, line.a1];
    let middle = (line.a0 + line.a1) / 2.0;
    for r in near(rulings, middle, (line.a1 - line.a0) / 2.0) {
        let x = r.mid();
        if x <= line.a0 + MEET || x >= line.a1 - MEET {
            continue;
        }
        let y_here = line.at(x);
        let reaches = r.a0 <= y_here + MEET && r.a1 >= y_here - MEET;
        let rises = y_here - r.a0 >= 6.0;
        if !reaches || !rises {
            continue;
        }
        let crosses = r.a1 - y_here >= 6.0;
        let tops_out = above(lines, x - 2.0, x + 2.0, y_here)
            .is_some_and(|(top, _)| r.a0 <= top + MEET + r.thick);
        // A short thin divider repeated, as long, at the same place in three other rows is a
        // column of a grid (handwritten strokes do not line up like that).
        let column = y_here - r.a0 >= 12.0
            && r.thick <= 3.0
            && near(rulings, x, 2.0)
                .iter()
                .filter(|o| {
                    (o.a1 < r.a0 - 2.0 || o.a0 > r.a1 + 2.0)
                        && (o.len() - r.len()).abs() <= 0.25 * r.len()
                })
                .count()
                >= 3;
        if crosses || tops_out || column {
            cuts.push(x);
        }
    }
    cuts.sort_by(f64::total_cmp);
    cuts.dedup_by(|a, b| (*a - *b).abs() < MEET);

    let mut out = Vec::new();
    for pair in cuts.windows(2) {
        let (x0, x1) = (pair[0], pair[1]);
        if x1 - x0 < MIN_PIECE {
            continue;
        }
        let bottom = line.at((x0 + x1) / 2.0) - line.thick / 2.0;
        let above_line = above(lines, x0, x1, bottom);
        let room = above_line.map_or(f64::INFINITY, |(top, _)| bottom - top);
        if room < MIN_ROOM {
            continue;
        }
        let top_limit = above_line.map_or(0.0, |(top, thick)| top + thick / 2.0 + 1.0);
        // A cell holding tick boxes is answered by ticking them.
        if boxes.iter().any(|b| {
            let (cx, cy) = ((b.x0 + b.x1) / 2.0, (b.y0 + b.y1) / 2.0);
            cx > x0 && cx < x1 && cy > top_limit - MEET && cy < bottom
        }) {
            continue;
        }
        // The top side of a box (rulings at both ends go down from it, nothing close above
        // it) is not a line to write on.
        // Lines drawn inside the cell are its blanks (`__/__/__` over "mm dd yy").
        let closed = room <= 4.0 * FIELD_H;
        if closed
            && lines.iter().any(|l| {
                l.a0 >= x0 - 2.0
                    && l.a1 <= x1 + 2.0
                    && l.mid() > top_limit + MEET
                    && l.mid() < bottom - MEET
            })
        {
            continue;
        }
        let open_above = room > 2.0 * FIELD_H;
        if open_above && hangs(x0, bottom, rulings) && hangs(x1, bottom, rulings) {
            continue;
        }
        if let Some(b) = cell(x0, x1, top_limit, bottom, rulings, ink) {
            out.push(b);
            continue;
        }
        let y0 = (bottom - FIELD_H).max(top_limit + 1.0).max(0.0);
        if bottom - y0 < MIN_ROOM {
            continue;
        }
        // A wide line with printed prose all along it closes a paragraph; an answer
        // written on a wide line leaves most of it bare.
        if x1 - x0 >= 0.5 * ink.width as f64 && inked_share(ink, x0, y0, x1, bottom - 2.0) >= 0.7 {
            continue;
        }
        out.push(Blank {
            x0: x0 + 1.0,
            y0,
            x1: x1 - 1.0,
            y1: bottom - 1.0,
            kind: Kind::Text,
        });
    }
    out
}

/// The share of columns in `[x0, x1)` with ink between `y0` and `y1`.
fn inked_share(ink: &Ink, x0: f64, y0: f64, x1: f64, y1: f64) -> f64 {
    let (a, b) = (x0.round() as i64, x1.round() as i64);
    let (top, bottom) = (y0.round() as i64, y1.round() as i64);
    if b <= a || bottom <= top {
        return 0.0;
    }
    let hits = (a..b)
        .filter(|&x| ink.count(x, top, x + 1, bottom) > 0)
        .count();
    hits as f64 / (b - a) as f64
}

/// Whether a ruling at `x` hangs down from `y` (starts there and runs a field's height
/// down) without rising above it.
fn hangs(x: f64, y: f64, rulings: &[Seg]) -> bool {
    // A slanted ruling's middle may lie a little away from where it meets the line.
    near(rulings, x, 40.0).iter().any(|r| {
        (r.at(y) - x).abs() <= MEET + r.thick
            && (r.a0 - y).abs() <= MEET * 2.0
            && r.a1 - y >= FIELD_H
    })
}

/// The nearest line above `y` that spans most of `[x0, x1]`: its position and thickness.
fn above(lines: &[Seg], x0: f64, x1: f64, y: f64) -> Option<(f64, f64)> {
    let want = (x1 - x0) * 0.5;
    lines
        .iter()
        .filter_map(|l| {
            let overlap = l.a1.min(x1) - l.a0.max(x0);
            if overlap < want.max(1.0) {
                return None;
            }
            let at = l.at((x0.max(l.a0) + x1.min(l.a1)) / 2.0);
            (at < y - 1.0).then_some((at, l.thick))
        })
        .max_by(|a, b| a.0.total_cmp(&b.0))
}

/// A tall empty cell `[x0, x1] x [top, bottom]` closed by rulings on both sides, as one
/// multi-line field.
fn cell(x0: f64, x1: f64, top: f64, bottom: f64, rulings: &[Seg], ink: &Ink) -> Option<Blank> {
    let h = bottom - top;
    if h < 2.4 * FIELD_H || !top.is_finite() || top <= 0.0 {
        return None;
    }
    let area = (x1 - x0) * h;
    if area > 0.35 * (ink.width * ink.height) as f64 {
        return None;
    }
    let closed = |x: f64| {
        near(rulings, x, MEET + 8.0).iter().any(|r| {
            (r.mid() - x).abs() <= MEET + r.thick
                && r.a0 <= top + MEET * 2.0
                && r.a1 >= bottom - MEET * 2.0
        })
    };
    if !(closed(x0) && closed(x1)) {
        return None;
    }
    let inset = 5.0;
    let density = ink.density(
        (x0 + inset) as i64,
        (top + inset) as i64,
        (x1 - inset) as i64,
        (bottom - inset) as i64,
    );
    (density < 0.004).then_some(Blank {
        x0: x0 + 2.0,
        y0: top + 2.0,
        x1: x1 - 2.0,
        y1: bottom - 2.0,
        kind: Kind::Multiline,
    })
}

/// Small squares with all four sides inked and a mostly light inside (a tick may be in it).
fn tick_boxes(strokes: &Strokes) -> Vec<Blank> {
    let ink = &strokes.ink;
    let mut found: Vec<(Blank, f64)> = Vec::new();
    let small = |s: &&Seg| s.len() >= BOX_MIN - 2.0 && s.len() <= BOX_MAX + 4.0;
    // Pairs of parallel sides of about the same extent, as far apart as they are long.
    for (segs, vertical) in [(&strokes.vertical, true), (&strokes.horizontal, false)] {
        let mut sides: Vec<&Seg> = segs.iter().filter(small).collect();
        sides.sort_by(|a, b| a.a0.total_cmp(&b.a0));
        for (i, a) in sides.iter().enumerate() {
            for b in sides[i + 1..].iter().take_while(|b| b.a0 <= a.a0 + 3.0) {
                if (a.a1 - b.a1).abs() > 3.0 {
                    continue;
                }
                let (lo, hi) = if a.mid() < b.mid() { (a, b) } else { (b, a) };
                // Runs end one past their last pixel: sides are a pixel shorter, centre to
                // centre, than the strokes are long.
                let side = (lo.len() + hi.len()) / 2.0 - 1.0;
                let apart = hi.mid() - lo.mid();
                if !(side * 0.75..=side * 1.35).contains(&apart) {
                    continue;
                }
                let (c0, c1) = (lo.mid(), hi.mid());
                let (a0, a1) = (a.a0.min(b.a0), a.a1.max(b.a1) - 1.0);
                let (x0, y0, x1, y1) = if vertical {
                    (c0, a0, c1, a1)
                } else {
                    (a0, c0, a1, c1)
                };
                let sq = square(ink, x0, y0, x1, y1, (lo.thick + hi.thick) / 2.0);
                if let Some(score) = sq {
                    let b = Blank {
                        x0,
                        y0,
                        x1,
                        y1,
                        kind: Kind::Checkbox,
                    };
                    found.push((b, score));
                }
            }
        }
    }
    // The same box found from both pairs of sides, or twice: keep the best.
    found.sort_by(|a, b| b.1.total_cmp(&a.1));
    found.truncate(MAX_BOXES);
    let mut out: Vec<Blank> = Vec::new();
    for (b, _) in found {
        if !out.iter().any(|o| iou(o, &b) > 0.3) {
            out.push(b);
        }
    }
    // Three or more squares sharing sides are the cells of a grid (a comb of character
    // boxes, graph paper), not boxes to tick.
    let adjoin = |a: &Blank, b: &Blank| {
        a.x0 <= b.x1 + MEET && b.x0 <= a.x1 + MEET && a.y0 <= b.y1 + MEET && b.y0 <= a.y1 + MEET
    };
    // Union-find over boxes that adjoin; sorted by left edge, only near neighbours compare.
    out.sort_by(|a, b| a.x0.total_cmp(&b.x0));
    let mut parent: Vec<usize> = (0..out.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for i in 0..out.len() {
        for j in i + 1..out.len() {
            if out[j].x0 > out[i].x1 + MEET {
                break;
            }
            if adjoin(&out[i], &out[j]) {
                let (a, b) = (root(&mut parent, i), root(&mut parent, j));
                parent[a.max(b)] = a.min(b);
            }
        }
    }
    let group: Vec<usize> = (0..out.len()).map(|i| root(&mut parent, i)).collect();
    let sizes = group.iter().fold(vec![0usize; out.len()], |mut n, &g| {
        n[g] += 1;
        n
    });
    out.into_iter()
        .zip(&group)
        .filter(|(_, &g)| sizes[g] < 3)
        .map(|(b, _)| b)
        .collect()
}

/// How well `[x0, x1] x [y0, y1]` (about the centre lines of its sides, which are about
/// `thick` pixels thick) looks like an inked square: the smallest share of a side that has
/// ink, or `None` when it is not one.
fn square(ink: &Ink, x0: f64, y0: f64, x1: f64, y1: f64, thick: f64) -> Option<f64> {
    let (w, h) = (x1 - x0, y1 - y0);
    if !(BOX_MIN..=BOX_MAX).contains(&w) || !(BOX_MIN..=BOX_MAX).contains(&h) {
        return None;
    }
    if w / h > 1.35 || h / w > 1.35 {
        return None;
    }
    let half = (thick / 2.0).round().max(1.0) as i64;
    let (x0i, x1i, y0i, y1i) = (
        x0.round() as i64,
        x1.round() as i64,
        y0.round() as i64,
        y1.round() as i64,
    );
    // Each side is looked for near where it should be; its whole length, corners included,
    // must be inked within half its thickness of one straight line: a rounded corner (O, D)
    // leaves the rows near it bare.
    // The innermost position near where the side should be that is inked along its whole
    // length: a box standing on a ruling has two bottoms, its own and the ruling's.
    // How far to look: never so far inward that the other side, or a tick, is found.
    let reach = (w.min(h) / 5.0).round().clamp(1.0, 4.0) as i64;
    let side = |horizontal: bool, at: i64, inward: i64| -> (f64, i64) {
        let (from, to) = if horizontal { (x0i, x1i) } else { (y0i, y1i) };
        let cover = |c: i64| {
            let hits = (from..=to)
                .filter(|&a| {
                    let n = if horizontal {
                        ink.count(a, c - half, a + 1, c + half + 1)
                    } else {
                        ink.count(c - half, a, c + half + 1, a + 1)
                    };
                    n > 0
                })
                .count();
            hits as f64 / (to - from + 1).max(1) as f64
        };
        let mut best = (0.0, at);
        for d in (-reach..=reach).rev() {
            let c = at + d * inward;
            let v = cover(c);
            if v >= 0.9 {
                return (v, c);
            }
            if v > best.0 {
                best = (v, c);
            }
        }
        best
    };
    let (top, ty) = side(true, y0i, 1);
    let (bottom, by) = side(true, y1i, -1);
    let (left, lx) = side(false, x0i, 1);
    let (right, rx) = side(false, x1i, -1);
    let score = top.min(bottom).min(left).min(right);
    if score < 0.9 {
        return None;
    }
    // Letters are drawn with strokes heavy for their size; a box's outline is thin.
    let weight = [
        stroke_width(ink, true, ty, x0i, x1i),
        stroke_width(ink, true, by, x0i, x1i),
        stroke_width(ink, false, lx, y0i, y1i),
        stroke_width(ink, false, rx, y0i, y1i),
    ];
    let weight = weight.iter().sum::<f64>() / 4.0 / w.min(h);
    let limit = if w.min(h) < 12.0 { 0.13 } else { 0.155 };
    if weight > limit {
        return None;
    }
    // Nothing crosses the inside from side to side: the bars of E or B, a struck-out box.
    let (ax, bx) = (lx + half + 2, rx - half - 1);
    for y in ty + half + 2..by - half - 1 {
        let mut run = 0;
        let mut longest = 0;
        for x in ax..bx {
            if ink.is_dark(x.max(0) as usize, y.max(0) as usize) {
                run += 1;
                longest = longest.max(run);
            } else {
                run = 0;
            }
        }
        if (longest as f64) >= 0.6 * (bx - ax) as f64 && bx - ax > 2 {
            return None;
        }
    }
    let inset = 3.0;
    let inside = ink.density(
        (x0 + inset).round() as i64,
        (y0 + inset).round() as i64,
        (x1 - inset).round() as i64,
        (y1 - inset).round() as i64,
    );
    if inside > 0.35 {
        return None;
    }
    // A box stands on light paper (or thin rulings); a square among squares is a pattern
    // (a QR code), not a box to tick.
    let (ox0, oy0, ox1, oy1) = (
        (x0 - 6.0).round() as i64,
        (y0 - 6.0).round() as i64,
        (x1 + 7.0).round() as i64,
        (y1 + 7.0).round() as i64,
    );
    let (ix0, iy0, ix1, iy1) = (
        (x0 - 2.0).round() as i64,
        (y0 - 2.0).round() as i64,
        (x1 + 3.0).round() as i64,
        (y1 + 3.0).round() as i64,
    );
    let ring = f64::from(ink.count(ox0, oy0, ox1, oy1) - ink.count(ix0, iy0, ix1, iy1));
    let ring_area = ((ox1 - ox0) * (oy1 - oy0) - (ix1 - ix0) * (iy1 - iy0)) as f64;
    (ring <= 0.4 * ring_area).then_some(score)
}

/// The median thickness of the ink across a side at `at` (a row when `horizontal`), over its
/// positions from `from` to `to`.
fn stroke_width(ink: &Ink, horizontal: bool, at: i64, from: i64, to: i64) -> f64 {
    let dark = |a: i64, c: i64| {
        let (x, y) = if horizontal { (a, c) } else { (c, a) };
        x >= 0 && y >= 0 && ink.is_dark(x as usize, y as usize)
    };
    let mut widths: Vec<i64> = (from..=to)
        .filter_map(|a| {
            // The ink nearest the side's line at this position, then its extent across.
            let c = (0..=2)
                .flat_map(|d| [at + d, at - d])
                .find(|&c| dark(a, c))?;
            let mut lo = c;
            while lo > c - 12 && dark(a, lo - 1) {
                lo -= 1;
            }
            let mut hi = c;
            while hi < c + 12 && dark(a, hi + 1) {
                hi += 1;
            }
            Some(hi - lo + 1)
        })
        .collect();
    if widths.is_empty() {
        return 0.0;
    }
    widths.sort_unstable();
    widths[widths.len() / 2] as f64
}

pub fn iou(a: &Blank, b: &Blank) -> f64 {
    let ix = (a.x1.min(b.x1) - a.x0.max(b.x0)).max(0.0);
    let iy = (a.y1.min(b.y1) - a.y0.max(b.y0)).max(0.0);
    let inter = ix * iy;
    let area = |r: &Blank| (r.x1 - r.x0) * (r.y1 - r.y0);
    let union = area(a) + area(b) - inter;
    if union <= 0.0 {
        0.0
    } else {
        inter / union
    }
}
