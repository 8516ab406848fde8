//! A resolved flowchart to the document model: styles applied, labels measured, the graph
//! laid out, shapes nested in their subgraphs, the front matter title drawn above.

use std::collections::{HashMap, HashSet};

use quire_sdk::layout::natural_width;
use quire_sdk::placement::Placement;
use quire_sdk::validate::MAX_PAGE_SIDE;
use quire_sdk::{
    ArrowHead, Asset, Color, Connector, Dash, Document, End, Group, Insets, Kind, LineKind, Node,
    Page, Rect, Shape, Stroke, Text,
};
use quire_svg_read::pictures::Pictures;

use crate::label::{self, to_text};
use crate::layout::{self, ClusterSpec, EdgeSpec, EndRef, NodeSpec};
use crate::parse::{self, EndId, Head, Label, Resolved};
use crate::picture::{self, LabelPicture};
use crate::shapes;
use crate::style::Look;
use crate::theme::{self, Palette};
use crate::title;
use crate::undrawn::{self, Undrawn, SOURCE_CLASS};

/// Mermaid's default theme: node fill and border, subgraph fill and border, line colour
/// (what the exporter leaves unsaid).
pub const NODE_FILL: Color = theme::DEFAULT.node_fill;
pub const NODE_STROKE: Color = theme::DEFAULT.node_stroke;
pub const GROUP_FILL: Color = theme::DEFAULT.group_fill;
pub const GROUP_STROKE: Color = theme::DEFAULT.group_stroke;
pub const LINE: Color = theme::DEFAULT.line;

/// The diagram's document and the pictures its labels embed.
pub fn build(r: Resolved, warnings: &mut Vec<String>) -> (Document, Vec<Asset>) {
    let chart = &r.chart;
    let styler = Styler::new(&r);
    let mut undrawn = Undrawn::default();
    let mut read_pictures = Pictures::new();
    let (mut nodes, pictures) = nodes(&r, &styler, &mut undrawn, &mut read_pictures, warnings);
    let mut groups = groups(&r, &styler, &mut undrawn);
    let drawn_title = chart
        .title
        .as_deref()
        .map(label::decode_entities)
        .filter(|t| !t.trim().is_empty());
    let mut connectors = connectors(
        &r,
        &styler,
        &nodes,
        &mut groups,
        drawn_title.is_some(),
        &mut undrawn,
    );
    warnings.extend(undrawn.sentences());

    let placed = lay_out(&r, &mut nodes, &mut groups, &mut connectors);
    let mut page = Page::new(placed.width.max(1.0), placed.height.max(1.0));
    warnings.append(&mut read_pictures.warnings);
    let mut assets = read_pictures.assets;
    let pictures: Vec<Option<Shape>> = pictures
        .into_iter()
        .zip(&nodes)
        .map(|(p, node)| p.and_then(|(p, text_h)| picture::drawn(p, node, text_h, &mut assets)))
        .collect();
    page.shapes = nest(&r, nodes, pictures, groups, connectors);
    if let Some(text) = &drawn_title {
        title::place(
            &mut page,
            text,
            layout::Spacing::default().margin,
            styler.palette.text.unwrap_or(LINE),
        );
    }

    let mut doc = Document::new(Kind::Diagram);
    doc.title = chart
        .title
        .clone()
        .or_else(|| chart.acc_title.clone())
        .map(|t| label::decode_entities(&t))
        .filter(|t| !t.trim().is_empty());
    if page.width > MAX_PAGE_SIDE || page.height > MAX_PAGE_SIDE {
        let f = MAX_PAGE_SIDE / page.width.max(page.height);
        warnings.push(format!(
            "the diagram is {:.0} x {:.0} points laid out; scaled by {f:.3} to fit the largest page",
            page.width, page.height
        ));
        scale_page(&mut page, f);
    }
    doc.pages.push(page);
    (doc, assets)
}

/// The look of each element: the theme's palette under its classes (`classDef`) and its own
/// `style` declarations.
struct Styler<'a> {
    palette: Palette,
    class_defs: HashMap<&'a str, &'a [parse::Decl]>,
}

impl<'a> Styler<'a> {
    fn new(r: &'a Resolved) -> Self {
        Styler {
            palette: Palette::of(&r.chart.config),
            class_defs: r
                .chart
                .class_defs
                .iter()
                .map(|(n, d)| (n.as_str(), d.as_slice()))
                .collect(),
        }
    }

    /// What the classes (the `default` class first where it applies) and then the element's
    /// own styles say.
    fn look(&self, classes: &[String], styles: &[parse::Decl], default_class: bool) -> Look {
        let mut look = Look::default();
        if default_class {
            if let Some(d) = self.class_defs.get("default") {
                look.apply(d);
            }
        }
        for c in classes {
            if let Some(d) = self.class_defs.get(c.as_str()) {
                look.apply(d);
            }
        }
        look.apply(styles);
        look
    }

    /// A label's text in the theme's text colour (`text`) and family, under what classes and
    /// styles say.
    fn text(&self, label: &Label, look: Look, text: Option<Color>, link: Option<&str>) -> Text {
        let look = Look {
            color: look.color.or(text),
            ..look
        };
        let mut text = to_text(label, &look, link);
        if let Some(font) = self.palette.font {
            text.runs.iter_mut().for_each(|r| r.font = font);
        }
        text
    }
}

/// Each node, and the picture its label shows above its text (with that text's height).
type NodePicture = Option<(LabelPicture, f64)>;

fn nodes(
    r: &Resolved,
    styler: &Styler,
    undrawn: &mut Undrawn,
    read_pictures: &mut Pictures,
    warnings: &mut Vec<String>,
) -> (Vec<Node>, Vec<NodePicture>) {
    let palette = &styler.palette;
    let mut nodes: Vec<Node> = Vec::with_capacity(r.nodes.len());
    let mut pictures: Vec<NodePicture> = Vec::with_capacity(r.nodes.len());
    let mut unknown_shapes: Vec<String> = Vec::new();
    for v in &r.nodes {
        let look = styler.look(&v.classes, &v.styles, true);
        let mapped = shapes::map(v.shape.as_ref()).unwrap_or_else(|| {
            if let Some(parse::ShapeName::Named(n)) = &v.shape {
                if !unknown_shapes.contains(n) {
                    unknown_shapes.push(n.clone());
                }
            }
            shapes::map(None).unwrap_or(shapes::Mapped {
                geometry: quire_sdk::Geometry::Rect,
                bare: false,
            })
        });
        let label = v.label.clone().unwrap_or_else(|| Label {
            text: v.id.clone(),
            markdown: false,
        });
        let mut text = styler.text(&label, look, palette.text, v.link.as_deref());
        let mut classes = v.classes.clone();
        keep_source(&label, &mut classes, undrawn);
        let mut room = shapes::text_box(&text);
        let picture = picture::of_label(&label.text, &v.id, read_pictures).map(|p| {
            let text_h = if text.runs.is_empty() { 0.0 } else { room.1 };
            room = picture::room(&p, (room.0, text_h));
            // The text stands under the picture.
            text.padding = Some(Insets {
                top: p.height,
                ..Insets::default()
            });
            undrawn.pictures = undrawn.pictures.saturating_sub(1);
            (p, text_h)
        });
        let (w, h) = shapes::node_size(mapped.geometry, room.0, room.1);
        let (fill, stroke) = if mapped.bare {
            (look.fill, look.stroke.map(|c| stroke_of(c, &look)))
        } else {
            (
                Some(look.fill.unwrap_or(palette.node_fill)),
                Some(stroke_of(look.stroke.unwrap_or(palette.node_stroke), &look)),
            )
        };
        nodes.push(Node {
            shadow: false,
            id: v.id.clone(),
            frame: Rect::new(0.0, 0.0, w, h),
            geometry: mapped.geometry,
            fill,
            stroke,
            text: (!text.runs.is_empty()).then_some(text),
            classes,
        });
        pictures.push(picture);
    }
    for n in unknown_shapes {
        warnings.push(format!("mermaid has no shape `{n}`; drawn as a rectangle"));
    }
    (nodes, pictures)
}

fn groups(r: &Resolved, styler: &Styler, undrawn: &mut Undrawn) -> Vec<Group> {
    let palette = &styler.palette;
    let mut groups: Vec<Group> = Vec::with_capacity(r.chart.subgraphs.len());
    for sg in &r.chart.subgraphs {
        let look = styler.look(&sg.classes, &sg.styles, false);
        let text = styler.text(&sg.title, look, palette.title, None);
        // A group has no classes to carry its title's source: what it held is only told.
        undrawn.add(undrawn::strip(&sg.title).1);
        let text = (!text.runs.is_empty()).then_some(Text {
            valign: quire_sdk::VAlign::Top,
            ..text
        });
        groups.push(Group {
            shadow: false,
            classes: Vec::new(),
            id: sg.id.clone(),
            frame: Rect::default(),
            label: text,
            fill: Some(look.fill.unwrap_or(palette.group_fill)),
            stroke: Some(stroke_of(
                look.stroke.unwrap_or(palette.group_stroke),
                &look,
            )),
            direction: sg.direction.map(|d| d.as_str().to_string()),
            children: Vec::new(),
        });
    }
    groups
}

/// The links, with ids unique among the nodes' and groups'. With a drawn title its id is
/// reserved: only a quoted subgraph id can already hold it, and that group is renamed.
fn connectors(
    r: &Resolved,
    styler: &Styler,
    nodes: &[Node],
    groups: &mut [Group],
    reserve_title: bool,
    undrawn: &mut Undrawn,
) -> Vec<Connector> {
    let palette = &styler.palette;
    let mut used: HashSet<String> = nodes
        .iter()
        .map(|n| n.id.clone())
        .chain(groups.iter().map(|g| g.id.clone()))
        .collect();
    if reserve_title {
        for g in groups.iter_mut().filter(|g| g.id == title::ID) {
            g.id = unique_id(title::ID.to_string(), &mut used);
        }
        used.insert(title::ID.to_string());
    }
    let id_of = |e: EndId| match e {
        EndId::Node(i) => nodes[i].id.clone(),
        EndId::Group(g) => groups[g].id.clone(),
    };
    let mut connectors: Vec<Connector> = Vec::with_capacity(r.chart.edges.len());
    for (e, &(from, to)) in r.chart.edges.iter().zip(&r.edges) {
        let look = styler.look(&e.classes, &e.styles, false);
        let (a, b) = (id_of(from), id_of(to));
        let id = unique_id(
            e.id.clone().unwrap_or_else(|| format!("L_{a}_{b}_0")),
            &mut used,
        );
        let dash = look.dash.unwrap_or(if e.stroke == parse::Stroke::Dotted {
            Dash::Dotted
        } else {
            Dash::Solid
        });
        let stroke = (dash != Dash::Solid
            || look.stroke.is_some()
            || look.stroke_width.is_some()
            || palette.line != LINE)
            .then(|| Stroke {
                color: look.stroke.unwrap_or(palette.line),
                width: look.stroke_width.unwrap_or(1.0),
                dash,
            });
        let label = e
            .label
            .as_ref()
            .map(|l| styler.text(l, look, palette.link_text(), None))
            .filter(|t| !t.runs.is_empty());
        let mut classes = e.classes.clone();
        if let Some(l) = &e.label {
            keep_source(l, &mut classes, undrawn);
        }
        connectors.push(Connector {
            id,
            from: end(a, e.start),
            to: end(b, e.end),
            waypoints: Vec::new(),
            stroke,
            line: match e.stroke {
                parse::Stroke::Thick => LineKind::Thick,
                parse::Stroke::Invisible => LineKind::Invisible,
                parse::Stroke::Normal | parse::Stroke::Dotted => LineKind::Normal,
            },
            label,
            length: (e.length > 1).then_some(e.length),
            // The chart's own curve, then its configuration's (mermaid's order).
            curved: smooth(e.curve.as_deref().or(r.chart.config.curve.as_deref())),
            classes,
        });
    }
    connectors
}

/// Whether mermaid draws a link with the curve it names as a smooth curve: its default
/// (`basis`) and every other curve of d3 but the straight ones (`linear`, the steps).
fn smooth(curve: Option<&str>) -> bool {
    !matches!(
        curve.map(str::to_ascii_lowercase).as_deref(),
        Some("linear" | "step" | "stepbefore" | "stepafter")
    )
}

/// Lays the graph out and moves every node, group and link to where the layout put it.
fn lay_out(
    r: &Resolved,
    nodes: &mut [Node],
    groups: &mut [Group],
    connectors: &mut [Connector],
) -> layout::Layout {
    let measured = |t: &Text| {
        let w = natural_width(t) + 0.01;
        (w, quire_sdk::layout::text_height(t, w))
    };
    let graph = layout::Graph {
        direction: r.chart.direction,
        nodes: nodes
            .iter()
            .zip(&r.node_parent)
            .map(|(n, &parent)| NodeSpec {
                width: n.frame.w,
                height: n.frame.h,
                parent,
            })
            .collect(),
        clusters: groups
            .iter()
            .zip(&r.group_parent)
            .zip(&r.chart.subgraphs)
            .map(|((g, &parent), sg)| {
                let (label_width, label_height) = g.label.as_ref().map_or((0.0, 0.0), measured);
                ClusterSpec {
                    parent,
                    label_width,
                    label_height,
                    direction: sg.direction,
                }
            })
            .collect(),
        edges: r
            .edges
            .iter()
            .zip(connectors.iter())
            .map(|(&(a, b), c)| EdgeSpec {
                from: end_ref(a),
                to: end_ref(b),
                min_length: c.length.unwrap_or(1),
                label: c.label.as_ref().map(measured),
            })
            .collect(),
        spacing: layout::Spacing::default(),
    };
    let mut placed = layout::layout(&graph);
    for (n, r) in nodes.iter_mut().zip(&placed.nodes) {
        n.frame = *r;
    }
    for (g, r) in groups.iter_mut().zip(&placed.clusters) {
        g.frame = *r;
    }
    for (c, pts) in connectors.iter_mut().zip(std::mem::take(&mut placed.edges)) {
        c.waypoints = pts;
    }
    placed
}

/// The page's shapes: groups hold their nodes and inner groups; connectors go on top of
/// everything.
fn nest(
    r: &Resolved,
    nodes: Vec<Node>,
    pictures: Vec<Option<Shape>>,
    groups: Vec<Group>,
    connectors: Vec<Connector>,
) -> Vec<Shape> {
    let mut group_slots: Vec<Option<Group>> = groups.into_iter().map(Some).collect();
    let ng = group_slots.len();
    let mut children: Vec<Vec<Shape>> = vec![Vec::new(); ng];
    let mut top: Vec<Shape> = Vec::new();
    for (i, (n, picture)) in nodes.into_iter().zip(pictures).enumerate() {
        let container = match r.node_parent[i] {
            Some(g) if g < ng => &mut children[g],
            _ => &mut top,
        };
        container.push(Shape::Node(n));
        container.extend(picture);
    }
    // Inner groups first: a group is complete before it goes into its parent.
    let mut order: Vec<usize> = (0..ng).collect();
    let depth = |g: usize| {
        let mut d = 0;
        let mut at = r.group_parent[g];
        while let Some(p) = at {
            d += 1;
            at = r.group_parent[p];
        }
        d
    };
    order.sort_by_key(|&g| std::cmp::Reverse(depth(g)));
    let mut finished: Vec<Option<Group>> = vec![None; ng];
    for g in order {
        if let Some(mut group) = group_slots[g].take() {
            group.children = std::mem::take(&mut children[g]);
            match r.group_parent[g] {
                Some(p) if p < ng => children[p].push(Shape::Group(group)),
                _ => finished[g] = Some(group),
            }
        }
    }
    // Top-level groups in the order they were written.
    top.extend(finished.into_iter().flatten().map(Shape::Group));
    top.extend(connectors.into_iter().map(Shape::Connector));
    top
}

fn stroke_of(color: Color, look: &Look) -> Stroke {
    Stroke {
        color,
        width: look.stroke_width.unwrap_or(1.0),
        dash: look.dash.unwrap_or(Dash::Solid),
    }
}

fn end(shape: String, head: Head) -> End {
    End {
        port: None,
        shape: Some(shape),
        point: None,
        head: match head {
            Head::None => ArrowHead::None,
            Head::Arrow => ArrowHead::Arrow,
            Head::Circle => ArrowHead::Circle,
            Head::Cross => ArrowHead::Cross,
        },
    }
}

fn end_ref(e: EndId) -> EndRef {
    match e {
        EndId::Node(i) => EndRef::Node(i),
        EndId::Group(g) => EndRef::Cluster(g),
    }
}

/// `want`, or `want_1`, `want_2`, ... whichever is not taken yet.
fn unique_id(want: String, used: &mut HashSet<String>) -> String {
    let base = want.strip_suffix("_0").map(str::to_string);
    let mut id = want;
    let mut k = 1;
    while used.contains(&id) {
        id = match &base {
            Some(b) => format!("{b}_{k}"),
            None => format!("{id}_{k}"),
        };
        k += 1;
    }
    used.insert(id.clone());
    id
}

/// Shrinks everything on the page by `f` (text included), for diagrams larger than a page.
fn scale_page(page: &mut Page, f: f64) {
    page.width *= f;
    page.height *= f;
    let scale = Placement {
        scale: f,
        dx: 0.0,
        dy: 0.0,
    };
    scale.shapes(&mut page.shapes);
}

/// Notes what `label` holds that is not drawn and, when it holds any (or a formula, drawn
/// as one line), keeps its source in `classes` for the `.mmd` export (a source with a `"`
/// cannot be written back quoted).
fn keep_source(label: &Label, classes: &mut Vec<String>, undrawn: &mut Undrawn) {
    let (_, held) = undrawn::strip(label);
    if held.is_empty() && !crate::tex::has_formula(&label.text) {
        return;
    }
    undrawn.add(held);
    if !label.markdown && !label.text.contains('"') {
        classes.push(format!("{SOURCE_CLASS}{}", label.text));
    }
}
