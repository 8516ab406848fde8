//! Cells to shapes. A page's cells form a tree through `parent`: the root cell, its layers,
//! and under them vertices and edges; a vertex with children is a container whose
//! children's geometry is relative to it. Vertices become nodes, text boxes, pictures or
//! groups at absolute page coordinates; edges become connectors attached by id; vertices
//! inside an edge are its labels. Layers are merged into one (the model has no layers).

use std::collections::{HashMap, HashSet};

use quire_sdk::{Connector, End, Group, LineKind, Page, Point, Rect, Shape, Text, VAlign};

use crate::mxfile::{Cell, Diagram};
use crate::notes::Notes;
use crate::route;
use crate::shapes::{self, EDGE_FONT_SIZE, VERTEX_FONT_SIZE};
use crate::style::Style;
use crate::unique::{Assets, Ids};
use crate::vertex;
use crate::{coded, stencil};

/// Containers nested deeper than this are flattened into their ancestor (the model allows
/// 64 levels).
pub const MAX_NEST: usize = 48;

/// What the importer carries from page to page.
pub struct Ctx<'a> {
    pub ids: &'a mut Ids,
    pub assets: &'a mut Assets,
    pub notes: &'a mut Notes,
    /// draw.io page id -> 1-based page number, for `data:page/id,...` links.
    pub page_numbers: &'a HashMap<String, usize>,
}

/// One page of the file in the model.
pub fn page(d: &Diagram, number: usize, ctx: &mut Ctx<'_>) -> Page {
    let tree = Tree::new(&d.cells, number, ctx);
    let layers: Vec<String> = tree
        .roots
        .iter()
        .filter(|&&r| !d.cells[r].vertex && !d.cells[r].edge)
        .flat_map(|&r| tree.children[r].iter())
        .filter(|&&l| !d.cells[l].vertex && !d.cells[l].edge)
        .map(|&l| {
            let c = &d.cells[l];
            if c.label.trim().is_empty() {
                format!("`{}`", c.id)
            } else {
                c.label.trim().to_string()
            }
        })
        .collect();
    if layers.len() > 1 {
        ctx.notes.layers.push((number, layers));
    }
    let mut b = Builder {
        cells: &d.cells,
        tree: &tree,
        number,
        ctx,
    };
    let mut shapes = Vec::new();
    for &r in &tree.roots {
        b.cell(r, 0, &mut shapes);
    }
    let (mut page, note) = crate::fit::place(shapes, d.page_size, d.pageless);
    if let Some(note) = note {
        b.ctx.notes.other.push(format!("page {number}: {note}"));
    }
    page.name = d
        .name
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(str::to_string);
    page.background = d
        .background
        .as_deref()
        .and_then(crate::style::parse_color)
        .flatten()
        .filter(|c| *c != quire_sdk::Color::WHITE);
    page
}

/// The page's cells as a tree, with every vertex's absolute frame worked out.
struct Tree {
    parent: Vec<Option<usize>>,
    children: Vec<Vec<usize>>,
    /// Cells to start from: the root cell, and any cell whose parent is missing.
    roots: Vec<usize>,
    hidden: Vec<bool>,
    /// Absolute frames of vertices.
    frame: Vec<Rect>,
    /// Origin of the coordinates a cell's own geometry is written in.
    origin: Vec<Point>,
    /// Model id of each cell that becomes a shape.
    model_id: Vec<Option<String>>,
    /// Vertices inside an edge: its labels.
    is_label: Vec<bool>,
    /// draw.io id -> cell (the first cell of an id used twice).
    index: HashMap<String, usize>,
}

impl Tree {
    fn new(cells: &[Cell], number: usize, ctx: &mut Ctx<'_>) -> Tree {
        let n = cells.len();
        let mut index: HashMap<&str, usize> = HashMap::with_capacity(n);
        for (i, c) in cells.iter().enumerate() {
            if index.contains_key(c.id.as_str()) {
                ctx.notes.duplicate_ids += 1;
            } else {
                index.insert(&c.id, i);
            }
        }
        let parent: Vec<Option<usize>> = cells
            .iter()
            .enumerate()
            .map(|(i, c)| {
                c.parent
                    .as_deref()
                    .and_then(|p| index.get(p).copied())
                    .filter(|&p| p != i)
            })
            .collect();
        let mut children = vec![Vec::new(); n];
        for (i, p) in parent.iter().enumerate() {
            if let Some(p) = p {
                children[*p].push(i);
            }
        }
        // Depth-first from the parentless cells; what a parent cycle leaves unreached
        // becomes a root of its own, so every cell is placed exactly once.
        let mut order = Vec::with_capacity(n);
        let mut seen = vec![false; n];
        let mut roots = Vec::new();
        let starts: Vec<usize> = (0..n)
            .filter(|&i| parent[i].is_none())
            .chain(0..n)
            .collect();
        for s in starts {
            if seen[s] {
                continue;
            }
            roots.push(s);
            let mut stack = vec![s];
            seen[s] = true;
            while let Some(i) = stack.pop() {
                order.push(i);
                for &c in children[i].iter().rev() {
                    if !seen[c] {
                        seen[c] = true;
                        stack.push(c);
                    }
                }
            }
        }
        // Children of a cycle's member that start it again are not children any more.
        let root_set: HashSet<usize> = roots.iter().copied().collect();
        for list in &mut children {
            list.retain(|c| !root_set.contains(c));
        }

        let mut t = Tree {
            parent,
            children,
            roots,
            hidden: vec![false; n],
            frame: vec![Rect::default(); n],
            origin: vec![Point::default(); n],
            model_id: vec![None; n],
            is_label: vec![false; n],
            index: index.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        };
        let mut inner_origin = vec![Point::default(); n];
        for &i in &order {
            let c = &cells[i];
            let p = t.parent[i].filter(|_| !root_set.contains(&i));
            t.hidden[i] = !c.visible || p.is_some_and(|p| t.hidden[p]);
            t.origin[i] = p.map(|p| inner_origin[p]).unwrap_or_default();
            t.is_label[i] = c.vertex && !c.edge && p.is_some_and(|p| cells[p].edge);
            inner_origin[i] = t.origin[i];
            if c.vertex && !c.edge {
                let g = c.geometry.clone().unwrap_or_default();
                let (mut x, mut y) = (t.origin[i].x + g.x, t.origin[i].y + g.y);
                if g.relative {
                    if let Some(p) = p.filter(|&p| cells[p].vertex && !cells[p].edge) {
                        let pf = t.frame[p];
                        let off = g.offset.unwrap_or_default();
                        x = pf.x + g.x * pf.w + off.x;
                        y = pf.y + g.y * pf.h + off.y;
                    }
                }
                t.frame[i] = Rect::new(x, y, g.w, g.h);
                inner_origin[i] = Point { x, y };
            }
            if t.hidden[i] {
                if c.vertex || c.edge {
                    ctx.notes.hidden += 1;
                }
                continue;
            }
            if (c.vertex && !t.is_label[i]) || c.edge {
                t.model_id[i] = Some(ctx.ids.alloc(number, &c.id));
            }
        }
        t
    }
}

struct Builder<'a, 'c> {
    cells: &'a [Cell],
    tree: &'a Tree,
    number: usize,
    ctx: &'a mut Ctx<'c>,
}

impl Builder<'_, '_> {
    /// Appends the shapes of `i`'s children to `out`.
    fn children_of(&mut self, i: usize, depth: usize, out: &mut Vec<Shape>) {
        for &c in &self.tree.children[i] {
            self.cell(c, depth, out);
        }
    }

    fn cell(&mut self, i: usize, depth: usize, out: &mut Vec<Shape>) {
        let t = self.tree;
        let c = &self.cells[i];
        if t.hidden[i] || t.is_label[i] {
            return;
        }
        if c.edge {
            let conn = self.edge(i);
            out.push(Shape::Connector(conn));
            return;
        }
        if !c.vertex {
            // The root, a layer, or a cell that is neither: its children belong where it is.
            self.children_of(i, depth, out);
            return;
        }
        let style = Style::parse(&c.style);
        let has_kids = t.children[i]
            .iter()
            .any(|&k| !t.hidden[k] && (self.cells[k].vertex || self.cells[k].edge));
        let shape = style.shape().unwrap_or("");
        let container = has_kids
            || style.flag("container")
            || matches!(style.base(), Some("group" | "swimlane"))
            || matches!(shape, "swimlane" | "table" | "tableRow");
        if container && depth < MAX_NEST {
            let group = self.group(i, &style, depth);
            out.push(Shape::Group(group));
            return;
        }
        if container && has_kids {
            self.ctx.notes.flattened += 1;
        }
        let id = t.model_id[i].clone().unwrap_or_default();
        let link = self.link(c);
        let mut v = vertex::Vertex {
            id,
            frame: t.frame[i],
            style: &style,
            style_text: &c.style,
            label: &c.label,
            link: link.as_deref(),
            ids: self.ctx.ids,
            assets: self.ctx.assets,
            notes: self.ctx.notes,
            page: self.number,
        };
        out.extend(v.shapes());
        if container {
            self.children_of(i, depth, out);
        }
    }

    fn link(&self, c: &Cell) -> Option<String> {
        let l = c.link.as_deref()?.trim();
        if let Some(page_id) = l.strip_prefix("data:page/id,") {
            return self
                .ctx
                .page_numbers
                .get(page_id)
                .map(|n| format!("#page={n}"));
        }
        let lower = l.to_ascii_lowercase();
        ["http://", "https://", "mailto:"]
            .iter()
            .any(|s| lower.starts_with(s))
            .then(|| l.to_string())
    }

    fn group(&mut self, i: usize, style: &Style, depth: usize) -> Group {
        let c = &self.cells[i];
        let swimlane = style.base() == Some("swimlane") || style.get("shape") == Some("swimlane");
        let mut label = shapes::label_text(&c.label, style, VERTEX_FONT_SIZE, None);
        if let Some(l) = &mut label {
            // A container's label heads it (draw.io centres a swimlane's in its header).
            if swimlane || style.get("verticalAlign").is_none() {
                l.valign = VAlign::Top;
            }
            // A header down the left side has its text turned; the model cannot turn
            // text, so it goes in the top left corner instead.
            if swimlane && style.get("horizontal") == Some("0") {
                l.align = quire_sdk::Align::Left;
            }
        }
        let fill = if swimlane {
            style
                .color("swimlaneFillColor")
                .flatten()
                .or_else(|| shapes::fill(style).filter(|_| style.flag("swimlaneFillColor")))
        } else {
            shapes::fill(style)
        };
        let id = self.tree.model_id[i].clone().unwrap_or_default();
        let frame = self.tree.frame[i];
        if let Some(l) = &mut label {
            shapes::fit_side_spacing(l, style, quire_sdk::drawing::label_area_in(frame));
        }
        let mut stroke = shapes::stroke(style);
        let mut fill = fill;
        let mut children = Vec::new();
        // A container draw.io draws in code (a rack cabinet): its drawing first, behind
        // what it holds, instead of the plain box.
        let shape = style.shape().unwrap_or("");
        let placement = stencil::Placement::of(style, frame);
        if let Some(parts) = coded::draw(shape, style, placement, &vertex::paint_of_style(style)) {
            children = vertex::painted_paths(parts, &id, style, self.number, self.ctx.ids);
            let number = self.number;
            children.extend(vertex::coded_labels(
                shape,
                style,
                frame,
                number,
                self.ctx.ids,
                &id,
            ));
            fill = None;
            stroke = None;
        }
        self.children_of(i, depth + 1, &mut children);
        Group {
            classes: Vec::new(),
            id,
            frame,
            label,
            fill,
            stroke,
            direction: None,
            children,
            shadow: style.flag("shadow"),
        }
    }

    fn edge(&mut self, i: usize) -> Connector {
        let t = self.tree;
        let c = &self.cells[i];
        let style = Style::parse(&c.style);
        let g = c.geometry.clone().unwrap_or_default();
        let o = t.origin[i];
        let abs = |p: Point| Point {
            x: p.x + o.x,
            y: p.y + o.y,
        };
        let waypoints: Vec<Point> = g.points.iter().copied().map(abs).collect();
        let src = g.source_point.map(abs);
        let tgt = g.target_point.map(abs);
        let start = shapes::arrow_head(
            style.get("startArrow"),
            quire_sdk::ArrowHead::None,
            style.get("startFill") != Some("0"),
        );
        let end = shapes::arrow_head(
            style.get("endArrow"),
            quire_sdk::ArrowHead::Arrow,
            style.get("endFill") != Some("0"),
        );
        let mut from = self.end(c.source.as_deref(), src, start);
        let mut to = self.end(c.target.as_deref(), tgt, end);
        let (from_frame, to_frame) = (
            self.terminal_frame(c.source.as_deref()),
            self.terminal_frame(c.target.as_deref()),
        );
        if from_frame.is_some() {
            from.port = route::port(&style, "exit");
        }
        if to_frame.is_some() {
            to.port = route::port(&style, "entry");
        }
        // A loose end with no point of its own borrows the nearest known point.
        if from.shape.is_none() && from.point.is_none() {
            from.point = waypoints.first().copied().or(to.point);
        }
        if to.shape.is_none() && to.point.is_none() {
            to.point = waypoints.last().copied().or(from.point);
        }
        for e in [&mut from, &mut to] {
            if e.shape.is_none() && e.point.is_none() {
                e.point = Some(o);
                self.ctx.notes.pointless_edges += 1;
            }
        }
        let mut waypoints = waypoints;
        if route::is_orthogonal(&style) {
            let terminal = |end: &End, frame: Option<Rect>| {
                let at = match (frame, end.port) {
                    (Some(f), Some(p)) => Point {
                        x: f.x + p.x * f.w,
                        y: f.y + p.y * f.h,
                    },
                    (Some(f), None) => f.center(),
                    (None, _) => end.point.unwrap_or(o),
                };
                route::Terminal {
                    at,
                    frame,
                    port: end.port,
                }
            };
            waypoints = route::orthogonal(
                terminal(&from, from_frame),
                &waypoints,
                terminal(&to, to_frame),
            );
        }
        let stroke = shapes::stroke(&style);
        let line = if stroke.is_none() {
            LineKind::Invisible
        } else {
            LineKind::Normal
        };
        Connector {
            id: t.model_id[i].clone().unwrap_or_default(),
            from,
            to,
            waypoints,
            stroke,
            line,
            label: self.edge_label(i, &style),
            length: None,
            curved: style.flag("curved"),
            classes: Vec::new(),
        }
    }

    /// The frame of the drawn vertex an edge end is attached to.
    fn terminal_frame(&self, terminal: Option<&str>) -> Option<Rect> {
        let t = terminal.and_then(|id| self.tree.index.get(id).copied())?;
        let cell = &self.cells[t];
        (cell.vertex && !cell.edge && self.tree.model_id[t].is_some()).then(|| self.tree.frame[t])
    }

    fn end(&self, terminal: Option<&str>, point: Option<Point>, head: quire_sdk::ArrowHead) -> End {
        let found = terminal.and_then(|id| self.tree.index.get(id).copied());
        if let Some(t) = found {
            if let Some(shape) = self.tree.model_id[t].clone() {
                let cell = &self.cells[t];
                let hint = point
                    .or_else(|| (cell.vertex && !cell.edge).then(|| self.tree.frame[t].center()));
                return End {
                    port: None,
                    shape: Some(shape),
                    point: hint,
                    head,
                };
            }
        }
        End {
            port: None,
            shape: None,
            point,
            head,
        }
    }

    /// The edge's own label and those of the vertices inside it, one per line.
    fn edge_label(&self, i: usize, style: &Style) -> Option<Text> {
        let mut parts: Vec<Text> = Vec::new();
        let c = &self.cells[i];
        if let Some(t) = shapes::label_text(&c.label, style, EDGE_FONT_SIZE, None) {
            parts.push(t);
        }
        for &k in &self.tree.children[i] {
            let kid = &self.cells[k];
            if !self.tree.is_label[k] || self.tree.hidden[k] {
                continue;
            }
            let ks = Style::parse(&kid.style);
            if let Some(t) = shapes::label_text(&kid.label, &ks, EDGE_FONT_SIZE, None) {
                parts.push(t);
            }
        }
        let mut parts = parts.into_iter();
        let mut text = parts.next()?;
        for p in parts {
            if let Some(last) = text.runs.last_mut() {
                last.text.push('\n');
            }
            text.runs.extend(p.runs);
        }
        text.align = quire_sdk::Align::Center;
        text.valign = VAlign::Middle;
        Some(text)
    }
}
