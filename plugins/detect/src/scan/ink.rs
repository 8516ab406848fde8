//! Ink: which pixels are dark, and the straight strokes they make.
//!
//! Dark is decided against the neighbourhood (a pixel clearly darker than the mean of the
//! window around it), so the uneven light of a phone photo and the pale drop-out ink of a
//! printed form both work. Strokes are found as runs of dark pixels along rows (horizontal)
//! or columns (vertical), joined across neighbouring rows into segments: a ruled line is a
//! long, thin segment; text makes short ones.

/// Dark pixels of the working image, one byte each (1 dark, 0 light).
#[derive(Debug, Clone)]
pub struct Ink {
    pub width: usize,
    pub height: usize,
    pub dark: Vec<u8>,
    /// Prefix sums of `dark` (one more row and column than the image), for area counts.
    sums: Vec<u32>,
}

impl Ink {
    pub fn from_dark(width: usize, height: usize, dark: Vec<u8>) -> Ink {
        let mut sums = vec![0u32; (width + 1) * (height + 1)];
        for y in 0..height {
            let mut row = 0u32;
            for x in 0..width {
                row += u32::from(dark[y * width + x]);
                sums[(y + 1) * (width + 1) + x + 1] = sums[y * (width + 1) + x + 1] + row;
            }
        }
        Ink {
            width,
            height,
            dark,
            sums,
        }
    }

    pub fn is_dark(&self, x: usize, y: usize) -> bool {
        x < self.width && y < self.height && self.dark[y * self.width + x] != 0
    }

    /// Dark pixels in the rectangle `[x0, x1) x [y0, y1)`, clipped to the image.
    pub fn count(&self, x0: i64, y0: i64, x1: i64, y1: i64) -> u32 {
        let cx = |v: i64| v.clamp(0, self.width as i64) as usize;
        let cy = |v: i64| v.clamp(0, self.height as i64) as usize;
        let (x0, x1, y0, y1) = (cx(x0), cx(x1), cy(y0), cy(y1));
        if x0 >= x1 || y0 >= y1 {
            return 0;
        }
        let w = self.width + 1;
        self.sums[y1 * w + x1] + self.sums[y0 * w + x0]
            - self.sums[y0 * w + x1]
            - self.sums[y1 * w + x0]
    }

    /// Share of dark pixels in the rectangle (0 when it is empty).
    pub fn density(&self, x0: i64, y0: i64, x1: i64, y1: i64) -> f64 {
        let area = (x1 - x0).max(0) * (y1 - y0).max(0);
        if area == 0 {
            return 0.0;
        }
        f64::from(self.count(x0, y0, x1, y1)) / area as f64
    }

    /// The same ink with rows and columns swapped, so vertical strokes are found as
    /// horizontal ones.
    pub fn transposed(&self) -> Ink {
        let (w, h) = (self.width, self.height);
        let mut dark = vec![0u8; w * h];
        for y in 0..h {
            for x in 0..w {
                dark[x * h + y] = self.dark[y * w + x];
            }
        }
        Ink::from_dark(h, w, dark)
    }
}

/// Pixels darker than `1 - CONTRAST` times the mean of their window are ink.
const CONTRAST: u32 = 10;
/// And never pixels this light, whatever their neighbours (paper texture beside ink).
const PAPER: u8 = 225;

/// Dark pixels of `pixels` (`width x height` grey bytes) against a window of `radius`.
pub fn threshold(width: usize, height: usize, pixels: &[u8], radius: usize) -> Ink {
    let w1 = width + 1;
    let mut sums = vec![0u32; w1 * (height + 1)];
    for y in 0..height {
        let mut row = 0u32;
        for x in 0..width {
            row += u32::from(pixels[y * width + x]);
            sums[(y + 1) * w1 + x + 1] = sums[y * w1 + x + 1] + row;
        }
    }
    let mut dark = vec![0u8; width * height];
    for y in 0..height {
        let y0 = y.saturating_sub(radius);
        let y1 = (y + radius + 1).min(height);
        for x in 0..width {
            let v = pixels[y * width + x];
            if v >= PAPER {
                continue;
            }
            let x0 = x.saturating_sub(radius);
            let x1 = (x + radius + 1).min(width);
            let total = u64::from(sums[y1 * w1 + x1]) + u64::from(sums[y0 * w1 + x0])
                - u64::from(sums[y0 * w1 + x1])
                - u64::from(sums[y1 * w1 + x0]);
            let area = ((x1 - x0) * (y1 - y0)) as u64;
            // v < mean * (100 - CONTRAST) / 100, in integers.
            if u64::from(v) * 100 * area < total * u64::from(100 - CONTRAST) {
                dark[y * width + x] = 1;
            }
        }
    }
    Ink::from_dark(width, height, dark)
}

/// The brightness of the paper around every place, so a region of solid colour (a filled
/// table header, a photo's shadowed corner is not one) can be told from paper.
#[derive(Debug, Clone)]
pub struct Paper {
    width: usize,
    height: usize,
    /// Prefix sums of the grey values.
    sums: Vec<u64>,
    block: usize,
    blocks_x: usize,
    /// The lightest block mean within two blocks of each block.
    light: Vec<f64>,
}

impl Paper {
    pub fn new(width: usize, height: usize, pixels: &[u8]) -> Paper {
        let w1 = width + 1;
        let mut sums = vec![0u64; w1 * (height + 1)];
        for y in 0..height {
            let mut row = 0u64;
            for x in 0..width {
                row += u64::from(pixels[y * width + x]);
                sums[(y + 1) * w1 + x + 1] = sums[y * w1 + x + 1] + row;
            }
        }
        let block = 32;
        let (bx, by) = (width.div_ceil(block).max(1), height.div_ceil(block).max(1));
        let mut paper = Paper {
            width,
            height,
            sums,
            block,
            blocks_x: bx,
            light: Vec::new(),
        };
        let means: Vec<f64> = (0..bx * by)
            .map(|i| {
                let (x, y) = ((i % bx) * block, (i / bx) * block);
                paper.mean(x as f64, y as f64, (x + block) as f64, (y + block) as f64)
            })
            .collect();
        paper.light = (0..bx * by)
            .map(|i| {
                let (cx, cy) = ((i % bx) as isize, (i / bx) as isize);
                let mut best = 0.0f64;
                for dy in -2..=2 {
                    for dx in -2..=2 {
                        let (x, y) = (cx + dx, cy + dy);
                        if x >= 0 && y >= 0 && (x as usize) < bx && (y as usize) < by {
                            best = best.max(means[y as usize * bx + x as usize]);
                        }
                    }
                }
                best
            })
            .collect();
        paper
    }

    /// Mean grey value of the rectangle, clipped to the image (white when empty).
    pub fn mean(&self, x0: f64, y0: f64, x1: f64, y1: f64) -> f64 {
        let cx = |v: f64| (v.max(0.0) as usize).min(self.width);
        let cy = |v: f64| (v.max(0.0) as usize).min(self.height);
        let (x0, x1, y0, y1) = (cx(x0), cx(x1), cy(y0), cy(y1));
        if x0 >= x1 || y0 >= y1 {
            return 255.0;
        }
        let w = self.width + 1;
        let total = self.sums[y1 * w + x1] + self.sums[y0 * w + x0]
            - self.sums[y0 * w + x1]
            - self.sums[y1 * w + x0];
        total as f64 / ((x1 - x0) * (y1 - y0)) as f64
    }

    /// How light the rectangle is against the paper around it: about 1 on paper, well
    /// below on a filled area.
    pub fn shade(&self, x0: f64, y0: f64, x1: f64, y1: f64) -> f64 {
        let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
        let bx = ((cx.max(0.0) as usize) / self.block).min(self.blocks_x - 1);
        let by = (cy.max(0.0) as usize) / self.block;
        let light = self
            .light
            .get(by * self.blocks_x + bx)
            .copied()
            .unwrap_or(255.0)
            .max(1.0);
        self.mean(x0, y0, x1, y1) / light
    }
}

/// Where the paper's tint changes along a row without any ink: the edge of a shaded band
/// (forms shade alternate rows, and a shaded half-row is a field of its own). Each edge is a
/// stroke one pixel thick at the row where the tint changes, at least `min_len` long.
pub fn tint_edges(
    width: usize,
    height: usize,
    pixels: &[u8],
    ink: &Ink,
    min_len: usize,
) -> Vec<Seg> {
    const STEP: i32 = 10;
    let mut runs: Vec<Run> = Vec::new();
    if height < 8 {
        return Vec::new();
    }
    for y in 3..height - 3 {
        let px = |x: usize, y: usize| i32::from(pixels[y * width + x]);
        let inked = |x: usize| (y - 3..=y + 3).any(|r| ink.is_dark(x, r));
        let edge = |x: usize| {
            let up = px(x, y - 3) + px(x, y - 2);
            let down = px(x, y + 2) + px(x, y + 3);
            (up - down).abs() >= 2 * STEP && !inked(x)
        };
        let mut x = 0;
        while x < width {
            if !edge(x) {
                x += 1;
                continue;
            }
            let start = x;
            // Rulings crossing the edge interrupt it for a few pixels only.
            let mut end = x;
            while x < width {
                if edge(x) {
                    x += 1;
                    end = x;
                } else if inked(x) && x - end < 4 {
                    x += 1;
                } else {
                    break;
                }
            }
            x = end.max(start + 1);
            if end - start >= min_len {
                runs.push(Run {
                    row: y,
                    x0: start,
                    x1: end,
                    bridged: 0,
                });
                if runs.len() >= 100_000 {
                    break;
                }
            }
        }
    }
    // The rows a blurred edge spans are one edge, at their middle. Runs come row by row.
    let mut groups: Vec<Vec<Run>> = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    let mut open_row = usize::MAX;
    let mut next_open: Vec<usize> = Vec::new();
    for r in runs {
        if r.row != open_row {
            open = if r.row == open_row.wrapping_add(1) {
                std::mem::take(&mut next_open)
            } else {
                next_open.clear();
                Vec::new()
            };
            open_row = r.row;
        }
        let found = open.iter().copied().find(|&g| {
            let last = groups[g][groups[g].len() - 1];
            let overlap = r.x1.min(last.x1) as isize - r.x0.max(last.x0) as isize;
            overlap * 2 >= (r.x1 - r.x0).max(last.x1 - last.x0) as isize
        });
        let g = match found {
            Some(g) => g,
            None => {
                groups.push(Vec::new());
                groups.len() - 1
            }
        };
        groups[g].push(r);
        next_open.push(g);
    }
    groups
        .iter()
        .map(|g| {
            let x0 = g.iter().map(|r| r.x0).min().unwrap_or(0) as f64;
            let x1 = g.iter().map(|r| r.x1).max().unwrap_or(0) as f64;
            let y = g.iter().map(|r| r.row as f64).sum::<f64>() / g.len().max(1) as f64 + 0.5;
            Seg {
                a0: x0,
                a1: x1,
                c0: y,
                c1: y,
                thick: 1.0,
            }
        })
        .collect()
}

/// A straight stroke along the rows (or, found on transposed ink, the columns): from `a0` to
/// `a1` along, its centre line at `c0` across at `a0` and `c1` at `a1` (a photographed page
/// is rarely level), `thick` pixels thick on average.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Seg {
    pub a0: f64,
    pub a1: f64,
    pub c0: f64,
    pub c1: f64,
    pub thick: f64,
}

impl Seg {
    pub fn len(&self) -> f64 {
        self.a1 - self.a0
    }

    /// The centre line's position across at `a` along.
    pub fn at(&self, a: f64) -> f64 {
        if self.a1 > self.a0 {
            self.c0 + (self.c1 - self.c0) * (a - self.a0) / (self.a1 - self.a0)
        } else {
            (self.c0 + self.c1) / 2.0
        }
    }

    pub fn mid(&self) -> f64 {
        (self.c0 + self.c1) / 2.0
    }
}

/// What counts as a stroke.
#[derive(Debug, Clone, Copy)]
pub struct SegRules {
    /// Shortest run of ink along a row that takes part.
    pub min_run: usize,
    /// Light pixels bridged inside a run (broken or speckled lines).
    pub gap: usize,
    /// Thickest a stroke may be on average.
    pub max_thick: f64,
    /// Most runs examined: a page of noise must not cost unbounded time.
    pub max_runs: usize,
    /// Largest share of bridged (light) pixels a stroke may have: a row through a word
    /// bridges a gap between every two letters, a ruled line almost none.
    pub max_bridged: f64,
}

#[derive(Debug, Clone, Copy)]
struct Run {
    row: usize,
    x0: usize,
    /// Exclusive.
    x1: usize,
    /// Light pixels bridged inside the run.
    bridged: usize,
}

/// Straight strokes along the rows of `ink`, longest first.
pub fn segments(ink: &Ink, rules: SegRules) -> Vec<Seg> {
    let runs = row_runs(ink, rules);
    if runs.is_empty() {
        return Vec::new();
    }
    // Runs of neighbouring rows that overlap over most of their length belong to one stroke
    // (a thick or slightly slanted line). A short run beside a long one does not join it: a
    // ruling that meets a filled block or a word stays a stroke of its own.
    let mut parent: Vec<usize> = (0..runs.len()).collect();
    let mut row_start = vec![0usize; ink.height + 1];
    {
        let mut i = 0;
        for (row, slot) in row_start.iter_mut().enumerate() {
            while i < runs.len() && runs[i].row < row {
                i += 1;
            }
            *slot = i;
        }
    }
    for row in 1..ink.height {
        let (mut i, ie) = (row_start[row - 1], row_start[row]);
        let (mut j, je) = (row_start[row], row_start[row + 1]);
        while i < ie && j < je {
            let (a, b) = (runs[i], runs[j]);
            let overlap = a.x1.min(b.x1) as isize - a.x0.max(b.x0) as isize;
            let longer = (a.x1 - a.x0).max(b.x1 - b.x0) as isize;
            if overlap * 2 >= longer {
                union(&mut parent, i, j);
            }
            if a.x1 < b.x1 {
                i += 1;
            } else {
                j += 1;
            }
        }
    }
    let mut groups: std::collections::HashMap<usize, Vec<usize>> = Default::default();
    for i in 0..runs.len() {
        let root = find(&mut parent, i);
        groups.entry(root).or_default().push(i);
    }
    let mut out: Vec<Seg> = groups
        .values()
        .filter_map(|members| fit(&runs, members, rules))
        .collect();
    out.sort_by(|a, b| b.len().total_cmp(&a.len()).then(a.c0.total_cmp(&b.c0)));
    out
}

fn row_runs(ink: &Ink, rules: SegRules) -> Vec<Run> {
    let mut runs = Vec::new();
    for row in 0..ink.height {
        let line = &ink.dark[row * ink.width..(row + 1) * ink.width];
        let mut x = 0;
        while x < line.len() {
            if line[x] == 0 {
                x += 1;
                continue;
            }
            let start = x;
            let mut end = x + 1;
            let mut probe = end;
            let mut bridged = 0;
            // Extend over gaps of at most `gap` light pixels followed by ink.
            while probe < line.len() {
                if line[probe] != 0 {
                    bridged += probe - end;
                    probe += 1;
                    end = probe;
                } else if probe - end < rules.gap {
                    probe += 1;
                } else {
                    break;
                }
            }
            if end - start >= rules.min_run {
                runs.push(Run {
                    row,
                    x0: start,
                    x1: end,
                    bridged,
                });
                if runs.len() >= rules.max_runs {
                    return runs;
                }
            }
            x = end.max(start + 1);
        }
    }
    runs
}

fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

fn union(parent: &mut [usize], a: usize, b: usize) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        parent[ra.max(rb)] = ra.min(rb);
    }
}

/// The stroke a set of runs makes, if it is thin and straight enough to be one.
fn fit(runs: &[Run], members: &[usize], rules: SegRules) -> Option<Seg> {
    let mut x0 = usize::MAX;
    let mut x1 = 0;
    let (mut ymin, mut ymax) = (usize::MAX, 0);
    let mut pixels = 0usize;
    let mut bridged = 0usize;
    for &m in members {
        let r = runs[m];
        x0 = x0.min(r.x0);
        x1 = x1.max(r.x1);
        ymin = ymin.min(r.row);
        ymax = ymax.max(r.row);
        pixels += r.x1 - r.x0;
        bridged += r.bridged;
    }
    let length = (x1 - x0) as f64;
    let thick = pixels as f64 / length.max(1.0);
    if thick > rules.max_thick || bridged as f64 > rules.max_bridged * pixels as f64 {
        return None;
    }
    // The slant from the centre of the ink in the left half to that in the right half:
    // every run counts for the pixels it has in each half, so one long run spanning the
    // whole stroke weighs the same on both sides.
    let half = (x0 + x1) as f64 / 2.0;
    let mut sides = [(0.0f64, 0.0f64, 0.0f64); 2];
    for &m in members {
        let r = runs[m];
        let y = r.row as f64 + 0.5;
        let pieces = [
            (r.x0 as f64, (r.x1 as f64).min(half)),
            ((r.x0 as f64).max(half), r.x1 as f64),
        ];
        for (side, (a, b)) in sides.iter_mut().zip(pieces) {
            if b > a {
                let w = b - a;
                side.0 += w;
                side.1 += w * (a + b) / 2.0;
                side.2 += w * y;
            }
        }
    }
    let centre = |s: (f64, f64, f64)| (s.1 / s.0.max(1e-9), s.2 / s.0.max(1e-9));
    let (lx, ly) = centre(sides[0]);
    let (rx, ry) = centre(sides[1]);
    let slope = if sides[0].0 > 0.0 && sides[1].0 > 0.0 && rx - lx > 1.0 {
        ((ry - ly) / (rx - lx)).clamp(-0.1, 0.1)
    } else {
        0.0
    };
    let total = sides[0].0 + sides[1].0;
    let (mx, my) = (
        (sides[0].1 + sides[1].1) / total.max(1e-9),
        (sides[0].2 + sides[1].2) / total.max(1e-9),
    );
    // A straight stroke spans no more rows than its thickness and its slant explain.
    let span = (ymax - ymin + 1) as f64;
    if span > thick + slope.abs() * length + 3.0 {
        return None;
    }
    let (a0, a1) = (x0 as f64, x1 as f64);
    Some(Seg {
        a0,
        a1,
        c0: my + slope * (a0 - mx),
        c1: my + slope * (a1 - mx),
        thick,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ink_from(rows: &[&str]) -> Ink {
        let h = rows.len();
        let w = rows[0].len();
        let dark = rows
            .iter()
            .flat_map(|r| r.bytes().map(|b| u8::from(b == b'#')))
            .collect();
        Ink::from_dark(w, h, dark)
    }

    const RULES: SegRules = SegRules {
        min_run: 4,
        gap: 1,
        max_thick: 3.0,
        max_runs: 10_000,
        max_bridged: 0.1,
    };

    #[test]
    fn a_line_and_a_slanted_line_are_strokes_a_block_is_not() {
        let ink = ink_from(&[
            "....................",
            ".##########.#####...",
            "....................",
            "..######............",
            "..##########........",
            "......##########....",
            "..........########..",
            "..######............",
            "..######............",
            "..######............",
            "..######............",
            "..######............",
        ]);
        let segs = segments(&ink, RULES);
        assert_eq!(segs.len(), 2, "{segs:?}");
        // The gap of one pixel is bridged.
        assert_eq!((segs[0].a0, segs[0].a1), (1.0, 17.0));
        assert!((segs[0].mid() - 1.5).abs() < 1e-9);
        let slanted = segs[1];
        assert_eq!((slanted.a0, slanted.a1), (2.0, 18.0));
        assert!(slanted.c1 > slanted.c0 + 1.0, "{slanted:?}");
        // A short run beside a long one is not part of its stroke.
        let ink = ink_from(&[
            "..............",
            ".############.",
            "..###.........",
            "..###.........",
        ]);
        let segs = segments(&ink, RULES);
        assert_eq!(segs.len(), 1);
        assert!(segs[0].thick < 1.1, "{segs:?}");
    }

    #[test]
    fn counts_and_transpose() {
        let ink = ink_from(&["#..", "##.", "..."]);
        assert_eq!(ink.count(0, 0, 3, 3), 3);
        assert_eq!(ink.count(1, 0, 3, 2), 1);
        assert_eq!(ink.count(-5, -5, 50, 50), 3);
        let t = ink.transposed();
        assert!(t.is_dark(1, 0) && !t.is_dark(0, 1));
        assert_eq!(t.count(0, 0, 3, 3), 3);
    }

    #[test]
    fn threshold_finds_ink_on_uneven_paper() {
        // Paper fading from 230 to 150 left to right, with a dark dot on each side.
        let (w, h) = (40, 9);
        let mut px: Vec<u8> = (0..w * h).map(|i| (230 - (i % w) * 2) as u8).collect();
        px[4 * w + 5] = 120;
        px[4 * w + 35] = 60;
        let ink = threshold(w, h, &px, 4);
        assert!(ink.is_dark(5, 4) && ink.is_dark(35, 4));
        assert_eq!(ink.count(0, 0, w as i64, h as i64), 2);
    }
}
