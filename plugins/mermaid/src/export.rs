//! A diagram model to mermaid flowchart text: nodes with the nearest mermaid shape, groups as
//! subgraphs, attached connectors as links, colours as `style`/`classDef`/`linkStyle`, the
//! title (the drawn one, else the document's) as front matter. What mermaid cannot express
//! (pen strokes, pictures, connectors with a loose end) is counted and left out.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;

use quire_sdk::{
    ArrowHead, Color, Connector, ConvertError, Dash, Document, ExportRequest, Exported, Geometry,
    Group, LineKind, Node, Shape, ShapeWalk, Stroke, Text,
};

use crate::build::{GROUP_FILL, GROUP_STROKE, LINE, NODE_FILL, NODE_STROKE};
use crate::shapes::{self, Syntax};
use crate::style::PX;
use crate::title;
use crate::undrawn::SOURCE_CLASS;
use crate::{label, parse::Label, style::Look};

pub const MEDIA_TYPE: &str = "text/vnd.mermaid";

/// Ids mermaid's lexer reads as keywords when they start an id.
const RESERVED: &[&str] = &[
    "style",
    "linkStyle",
    "classDef",
    "class",
    "interpolate",
    "graph",
    "flowchart",
    "subgraph",
    "default",
    "direction",
    "click",
    "call",
    "href",
    "accTitle",
    "accDescr",
    "_self",
    "_blank",
    "_parent",
    "_top",
];

/// Counts for the `x-service-*` headers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub shapes: usize,
    pub dropped: usize,
    pub loose: usize,
}

pub fn export(request: &ExportRequest) -> Result<Exported, ConvertError> {
    if !request.media_type.is_empty() && request.media_type != MEDIA_TYPE {
        return Err(ConvertError::Unsupported(format!(
            "this converter writes {MEDIA_TYPE}, not {}",
            request.media_type
        )));
    }
    let doc = &request.document;
    let pages: Vec<usize> = match request.page {
        Some(p) if p >= 1 && (p as usize) <= doc.pages.len() => vec![p as usize - 1],
        Some(p) => {
            return Err(ConvertError::InvalidRequest(format!(
                "page {p} does not exist; the document has {} pages",
                doc.pages.len()
            )))
        }
        None => (0..doc.pages.len()).collect(),
    };
    let (text, counts) = to_mermaid(doc, &pages);
    let mut warnings = Vec::new();
    if counts.dropped > 0 {
        warnings.push(format!(
            "{} of {} shapes cannot be expressed in mermaid and were left out ({} connectors with a loose end)",
            counts.dropped, counts.shapes, counts.loose
        ));
    }
    Ok(Exported {
        bytes: text.into_bytes(),
        media_type: MEDIA_TYPE.into(),
        warnings,
        headers: vec![
            ("x-service-shapes".into(), counts.shapes.to_string()),
            ("x-service-dropped".into(), counts.dropped.to_string()),
            (
                "x-service-loose-connectors".into(),
                counts.loose.to_string(),
            ),
        ],
    })
}

struct Writer {
    out: String,
    ids: HashMap<String, String>,
    taken: HashSet<String>,
    /// (mermaid id, style declarations, classes) of nodes and groups.
    styled: Vec<(String, String, Vec<String>)>,
}

/// The flowchart text of `pages` and what was left out.
pub fn to_mermaid(doc: &Document, pages: &[usize]) -> (String, Counts) {
    // A label's picture is written back by its label's source, not as shapes.
    let unpictured;
    let doc = if doc.shapes().any(crate::picture::is_picture) {
        unpictured = without_pictures(doc);
        &unpictured
    } else {
        doc
    };
    let mut counts = Counts::default();
    let mut w = Writer {
        out: String::new(),
        ids: HashMap::new(),
        taken: HashSet::new(),
        styled: Vec::new(),
    };
    // Ids first, for every shape mermaid can hold, so links can name them.
    let mut connectors: Vec<&Connector> = Vec::new();
    let mut drawn_title: Option<String> = None;
    for &p in pages {
        for shape in ShapeWalk::new(&doc.pages[p].shapes) {
            counts.shapes += 1;
            match shape {
                // Written back as the front matter, never as a node.
                Shape::Text(t) if title::is_title(shape) => {
                    drawn_title.get_or_insert_with(|| t.text.plain_text());
                }
                Shape::Node(_) | Shape::Text(_) | Shape::Group(_) => {
                    let id = w.claim(shape.id());
                    w.ids.insert(shape.id().to_string(), id);
                }
                Shape::Connector(c) => connectors.push(c),
                Shape::Path(_) | Shape::Image(_) => counts.dropped += 1,
            }
        }
    }
    // The drawn title is what the diagram shows; the document's own title stands in for it.
    let front_title = drawn_title.as_deref().or(doc.title.as_deref());
    if let Some(title) = front_title.filter(|t| !t.trim().is_empty()) {
        let t = title.replace(['\n', '\r'], " ");
        let _ = write!(
            w.out,
            "---\ntitle: \"{}\"\n---\n",
            t.replace('\\', "\\\\").replace('"', "\\\"")
        );
    }
    let _ = writeln!(w.out, "flowchart {}", direction_of(doc, pages));
    for &p in pages {
        for shape in &doc.pages[p].shapes {
            w.shape(shape, 1);
        }
    }
    let mut link_styles: Vec<String> = Vec::new();
    // Mermaid curves every link unless told otherwise: straight ones say so, all at once
    // when none is curved.
    let all_straight = connectors.iter().all(|c| !c.curved);
    if all_straight && !connectors.is_empty() {
        link_styles.push("    linkStyle default interpolate linear".into());
    }
    let mut index = 0;
    for c in connectors {
        let a = c.from.shape.as_ref().and_then(|s| w.ids.get(s));
        let b = c.to.shape.as_ref().and_then(|s| w.ids.get(s));
        let (Some(a), Some(b)) = (a.cloned(), b.cloned()) else {
            counts.dropped += 1;
            if c.from.shape.is_none() || c.to.shape.is_none() {
                counts.loose += 1;
            }
            continue;
        };
        let line = link_line(c, &a, &b);
        let _ = writeln!(w.out, "    {line}");
        let decls = connector_style(c);
        let curve = if c.curved || all_straight {
            ""
        } else {
            "interpolate linear "
        };
        if !decls.is_empty() || !curve.is_empty() {
            let what = format!("{curve}{decls}");
            link_styles.push(format!("    linkStyle {index} {}", what.trim_end()));
        }
        index += 1;
    }
    w.styles();
    for l in link_styles {
        let _ = writeln!(w.out, "{l}");
    }
    (w.out, counts)
}

impl Writer {
    /// A mermaid id for model id `want`: kept when mermaid reads it as an id, otherwise made
    /// into one; never the same for two shapes.
    fn claim(&mut self, want: &str) -> String {
        let mut id = if valid_id(want) {
            want.to_string()
        } else {
            let mut s: String = want
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect();
            if s.chars().all(|c| c == '_') {
                s = format!("n{s}");
            }
            if !valid_id(&s) {
                s = format!("n_{s}");
            }
            s
        };
        if self.taken.contains(&id) {
            let base = id.clone();
            let mut k = 2;
            while self.taken.contains(&id) {
                id = format!("{base}_{k}");
                k += 1;
            }
        }
        self.taken.insert(id.clone());
        id
    }

    fn id(&self, model_id: &str) -> String {
        self.ids.get(model_id).cloned().unwrap_or_default()
    }

    fn shape(&mut self, shape: &Shape, depth: usize) {
        let indent = "    ".repeat(depth);
        match shape {
            _ if title::is_title(shape) => {}
            Shape::Node(n) => {
                let id = self.id(&n.id);
                let line = node_line(&id, n);
                let _ = writeln!(self.out, "{indent}{line}");
                self.styled.push((id, node_style(n), n.classes.clone()));
            }
            Shape::Text(t) => {
                let id = self.id(&t.id);
                let label = yaml_label(&t.text);
                let _ = writeln!(
                    self.out,
                    "{indent}{id}@{{ shape: text, label: \"{label}\" }}"
                );
                let mut decls = Vec::new();
                if let Some(f) = t.fill {
                    decls.push(format!("fill:{}", f.to_hex()));
                }
                push_stroke(&mut decls, t.stroke.as_ref(), None, 1.0);
                push_text_colour(&mut decls, Some(&t.text));
                self.styled.push((id, decls.join(","), Vec::new()));
            }
            Shape::Group(g) => self.group(g, depth),
            _ => {}
        }
    }

    fn group(&mut self, g: &Group, depth: usize) {
        let indent = "    ".repeat(depth);
        let id = self.id(&g.id);
        match &g.label {
            Some(t) if !t.plain_text().trim().is_empty() => {
                let _ = writeln!(
                    self.out,
                    "{indent}subgraph {id} [\"{}\"]",
                    escape(&t.plain_text())
                );
            }
            _ => {
                let _ = writeln!(self.out, "{indent}subgraph {id} [\" \"]");
            }
        }
        if let Some(dir) = g
            .direction
            .as_deref()
            .and_then(crate::layout::Direction::parse)
        {
            let _ = writeln!(self.out, "{indent}    direction {}", dir.as_str());
        }
        for child in &g.children {
            self.shape(child, depth + 1);
        }
        let _ = writeln!(self.out, "{indent}end");
        let mut decls = Vec::new();
        if g.fill != Some(GROUP_FILL) {
            decls.push(format!("fill:{}", colour(g.fill)));
        }
        push_stroke(&mut decls, g.stroke.as_ref(), Some(GROUP_STROKE), 1.0);
        self.styled.push((id, decls.join(","), Vec::new()));
    }

    /// `classDef` for a class whose nodes all look the same, `class` lines, and `style` for
    /// whatever a class does not already say.
    fn styles(&mut self) {
        let mut first_class: Vec<(String, Option<String>)> = Vec::new();
        for (_, style, classes) in &self.styled {
            let Some(name) = classes.iter().find(|c| valid_class(c)) else {
                continue;
            };
            match first_class.iter_mut().find(|(n, _)| n == name) {
                Some((_, s)) => {
                    if s.as_deref() != Some(style.as_str()) {
                        *s = None;
                    }
                }
                None => first_class.push((name.clone(), Some(style.clone()))),
            }
        }
        let defs: HashMap<&str, &str> = first_class
            .iter()
            .filter_map(|(n, s)| {
                s.as_deref()
                    .filter(|s| !s.is_empty())
                    .map(|s| (n.as_str(), s))
            })
            .collect();
        for (n, s) in &first_class {
            if let Some(s) = s.as_deref().filter(|s| !s.is_empty()) {
                let _ = writeln!(self.out, "    classDef {n} {s}");
            }
        }
        for (id, style, classes) in &self.styled {
            for c in classes.iter().filter(|c| valid_class(c)) {
                let _ = writeln!(self.out, "    class {id} {c}");
            }
            let covered = classes
                .iter()
                .find(|c| valid_class(c))
                .is_some_and(|c| defs.get(c.as_str()) == Some(&style.as_str()));
            if !style.is_empty() && !covered {
                let _ = writeln!(self.out, "    style {id} {style}");
            }
        }
    }
}

fn valid_id(s: &str) -> bool {
    !s.is_empty()
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && s != "end"
        && !RESERVED.iter().any(|k| s.starts_with(k))
}

fn valid_class(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && !s.starts_with('-')
}

/// Label text inside `"..."`: quotes, entity look-alikes and angle brackets as mermaid entity
/// codes, line breaks as `<br>`.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let chars: Vec<char> = s.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        match c {
            '"' => out.push_str("#quot;"),
            '<' => out.push_str("#lt;"),
            '>' => out.push_str("#gt;"),
            '&' => out.push_str("#38;"),
            '\n' => out.push_str("<br>"),
            '\r' => {}
            '\t' => out.push(' '),
            '#' => {
                let entity_like = chars[i + 1..]
                    .iter()
                    .position(|c| !c.is_ascii_alphanumeric())
                    .is_some_and(|k| k > 0 && chars[i + 1 + k] == ';');
                out.push_str(if entity_like { "#35;" } else { "#" });
            }
            '`' if i == 0 => out.push_str("#96;"),
            _ => out.push(c),
        }
    }
    // Mermaid reads any line holding `direction TB` (etc.) as a direction statement.
    for dir in ["TB", "TD", "BT", "LR", "RL"] {
        for sep in [" ", "\t"] {
            let needle = format!("direction{sep}{dir}");
            out = out.replace(&needle, &format!("#100;irection{sep}{dir}"));
        }
    }
    out
}

/// A label inside a YAML double-quoted value: also no backslashes (YAML escapes).
fn yaml_label(t: &Text) -> String {
    escape(&t.plain_text()).replace('\\', "#92;")
}

/// The label as markdown when it has bold or italic runs that markdown can say.
fn markdown_label(t: &Text) -> Option<String> {
    if !t.runs.iter().any(|r| r.bold || r.italic) {
        return None;
    }
    if t.runs.iter().any(|r| r.text.contains(['*', '_', '`'])) {
        return None;
    }
    let mut s = String::new();
    for r in &t.runs {
        for (k, line) in r.text.split('\n').enumerate() {
            if k > 0 {
                s.push('\n');
            }
            let body = line.trim();
            if body.is_empty() {
                s.push_str(line);
                continue;
            }
            let lead = line.strip_suffix(line.trim_start()).unwrap_or("");
            let trail = line.strip_prefix(line.trim_end()).unwrap_or("");
            let (open, close) = match (r.bold, r.italic) {
                (true, true) => ("**_", "_**"),
                (true, false) => ("**", "**"),
                (false, true) => ("_", "_"),
                (false, false) => ("", ""),
            };
            let body = escape(body).replace("<br>", "\n");
            let _ = write!(s, "{lead}{open}{body}{close}{trail}");
        }
    }
    Some(s)
}

/// The mermaid source of a label with icons or pictures, kept by the import, while the
/// drawn text is still what that source draws (an edit since then wins).
fn kept_source(classes: &[String], drawn: &Text) -> Option<String> {
    let source = classes.iter().find_map(|c| c.strip_prefix(SOURCE_CLASS))?;
    let label = Label {
        text: source.to_string(),
        markdown: false,
    };
    let redrawn = label::to_text(&label, &Look::default(), None);
    (redrawn.plain_text() == drawn.plain_text() && !source.contains('"'))
        .then(|| source.replace('\n', "<br>"))
}

fn node_line(id: &str, n: &Node) -> String {
    let text = n
        .text
        .as_ref()
        .filter(|t| !t.plain_text().trim().is_empty());
    let source = text.and_then(|t| kept_source(&n.classes, t));
    if n.geometry == Geometry::Rect && n.fill.is_none() && n.stroke.is_none() {
        let label = match &source {
            Some(s) => s.replace('\\', "#92;"),
            None => text.map(yaml_label).unwrap_or_default(),
        };
        return format!("{id}@{{ shape: text, label: \"{label}\" }}");
    }
    match shapes::syntax(n.geometry) {
        Syntax::Brackets(open, close) => {
            let label = match (text, source) {
                (None, _) => " ".to_string(),
                (Some(_), Some(source)) => source,
                (Some(t), None) => match markdown_label(t) {
                    Some(md) => format!("`{md}`"),
                    None => escape(&t.plain_text()),
                },
            };
            format!("{id}{open}\"{label}\"{close}")
        }
        Syntax::Named(name) => {
            // Mermaid reads no markdown in node data: bold and italic are lost here.
            let label = match &source {
                Some(s) => s.replace('\\', "#92;"),
                None => text.map(yaml_label).unwrap_or_else(|| " ".into()),
            };
            format!("{id}@{{ shape: {name}, label: \"{label}\" }}")
        }
    }
}

fn colour(c: Option<Color>) -> String {
    match c {
        Some(c) if c.a > 0 => c.to_hex(),
        _ => "none".into(),
    }
}

fn push_stroke(decls: &mut Vec<String>, s: Option<&Stroke>, default: Option<Color>, width: f64) {
    match s {
        None => {
            if default.is_some() {
                decls.push("stroke:none".into());
            }
        }
        Some(s) => {
            if Some(s.color) != default {
                decls.push(format!("stroke:{}", colour(Some(s.color))));
            }
            if (s.width - width).abs() > 1e-6 {
                decls.push(format!("stroke-width:{}px", round2(s.width / PX)));
            }
            match s.dash {
                Dash::Solid => {}
                Dash::Dashed => decls.push("stroke-dasharray:5 5".into()),
                Dash::Dotted => decls.push("stroke-dasharray:1 2".into()),
            }
        }
    }
}

fn push_text_colour(decls: &mut Vec<String>, t: Option<&Text>) {
    if let Some(c) = t.and_then(|t| t.runs.iter().find_map(|r| r.color)) {
        decls.push(format!("color:{}", c.to_hex()));
    }
}

fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

fn node_style(n: &Node) -> String {
    let mut decls = Vec::new();
    if n.fill != Some(NODE_FILL) {
        decls.push(format!("fill:{}", colour(n.fill)));
    }
    push_stroke(&mut decls, n.stroke.as_ref(), Some(NODE_STROKE), 1.0);
    push_text_colour(&mut decls, n.text.as_ref());
    decls.join(",")
}

fn connector_style(c: &Connector) -> String {
    let mut decls = Vec::new();
    if let Some(s) = &c.stroke {
        if s.color != LINE {
            decls.push(format!("stroke:{}", colour(Some(s.color))));
        }
        if (s.width - 1.0).abs() > 1e-6 {
            decls.push(format!("stroke-width:{}px", round2(s.width / PX)));
        }
        if s.dash == Dash::Dashed {
            decls.push("stroke-dasharray:5 5".into());
        }
    }
    push_text_colour(&mut decls, c.label.as_ref());
    decls.join(",")
}

/// The mermaid head nearest to a model head.
fn head(h: ArrowHead) -> Option<char> {
    match h {
        ArrowHead::None => None,
        ArrowHead::Arrow | ArrowHead::Open => Some('>'),
        ArrowHead::Circle | ArrowHead::Diamond => Some('o'),
        ArrowHead::Cross => Some('x'),
    }
}

/// `a --> b`, `a <-.->|"label"| b`, ... Mermaid has no head at the start alone, so such a
/// link is written the other way round; two different heads become two of the end's kind.
fn link_line(c: &Connector, a: &str, b: &str) -> String {
    let (mut from, mut to) = (a, b);
    let (mut start, mut end) = (head(c.from.head), head(c.to.head));
    if end.is_none() && start.is_some() {
        std::mem::swap(&mut from, &mut to);
        std::mem::swap(&mut start, &mut end);
    }
    if start.is_some() {
        start = end;
    }
    let len = c.length.unwrap_or(1).clamp(1, 10) as usize;
    let dash = c.stroke.map(|s| s.dash).unwrap_or(Dash::Solid);
    let arrow = match c.line {
        LineKind::Invisible => "~".repeat(len + 2),
        // Mermaid's dotted links are its only dashed line; longer dashes go in `linkStyle`.
        LineKind::Thick | LineKind::Normal if dash != Dash::Dotted || c.line == LineKind::Thick => {
            let ch = if c.line == LineKind::Thick { "=" } else { "-" };
            let prefix = start.map(|h| if h == '>' { '<' } else { h });
            let mut s = String::new();
            if let Some(p) = prefix {
                s.push(p);
            }
            match end {
                Some(e) => {
                    s.push_str(&ch.repeat(len + 1));
                    s.push(e);
                }
                None => s.push_str(&ch.repeat(len + 2)),
            }
            s
        }
        _ => {
            let mut s = String::new();
            if let Some(p) = start.map(|h| if h == '>' { '<' } else { h }) {
                s.push(p);
            }
            s.push('-');
            s.push_str(&".".repeat(len));
            s.push('-');
            if let Some(e) = end {
                s.push(e);
            }
            s
        }
    };
    match c
        .label
        .as_ref()
        .filter(|t| !t.plain_text().trim().is_empty())
    {
        Some(t) => {
            let label = kept_source(&c.classes, t).unwrap_or_else(|| escape(&t.plain_text()));
            format!("{from} {arrow}|\"{label}\"| {to}")
        }
        None => format!("{from} {arrow} {to}"),
    }
}

/// TB, BT, LR or RL: the way most links between nodes point.
fn direction_of(doc: &Document, pages: &[usize]) -> &'static str {
    let mut centres: HashMap<&str, (f64, f64)> = HashMap::new();
    let mut links: Vec<(&str, &str)> = Vec::new();
    for &p in pages {
        for s in ShapeWalk::new(&doc.pages[p].shapes) {
            match s {
                Shape::Connector(c) => {
                    if let (Some(a), Some(b)) = (&c.from.shape, &c.to.shape) {
                        links.push((a, b));
                    }
                }
                _ => {
                    if let Some(f) = s.frame() {
                        let c = f.center();
                        centres.insert(s.id(), (c.x, c.y));
                    }
                }
            }
        }
    }
    let (mut dx, mut dy) = (0.0, 0.0);
    let (mut ax, mut ay) = (0.0, 0.0);
    for (a, b) in links {
        if let (Some(p), Some(q)) = (centres.get(a), centres.get(b)) {
            let (x, y) = (q.0 - p.0, q.1 - p.1);
            if x.abs() > y.abs() {
                dx += x.signum();
                ax += 1.0;
            } else if y.abs() > 0.0 {
                dy += y.signum();
                ay += 1.0;
            }
        }
    }
    if ax > ay {
        if dx >= 0.0 {
            "LR"
        } else {
            "RL"
        }
    } else if dy < 0.0 {
        "BT"
    } else {
        "TB"
    }
}

/// `doc` without its labels' pictures.
fn without_pictures(doc: &Document) -> Document {
    fn keep(shapes: &mut Vec<Shape>) {
        shapes.retain(|s| !crate::picture::is_picture(s));
        for shape in shapes {
            if let Shape::Group(g) = shape {
                keep(&mut g.children);
            }
        }
    }
    let mut doc = doc.clone();
    for page in &mut doc.pages {
        keep(&mut page.shapes);
    }
    doc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_kept_or_made_valid() {
        assert!(valid_id("A1") && valid_id("9e12_x") && valid_id("endpoint"));
        assert!(!valid_id("end") && !valid_id("styleA") && !valid_id("a-b") && !valid_id(""));
        let mut w = Writer {
            out: String::new(),
            ids: HashMap::new(),
            taken: HashSet::new(),
            styled: Vec::new(),
        };
        assert_eq!(w.claim("sid-1"), "sid_1");
        assert_eq!(w.claim("sid_1"), "sid_1_2");
        assert_eq!(w.claim("class"), "n_class");
        assert_eq!(w.claim("é"), "n_");
    }

    #[test]
    fn labels_escape_what_mermaid_would_read() {
        assert_eq!(escape("say \"hi\"\nnow"), "say #quot;hi#quot;<br>now");
        assert_eq!(escape("a #quot; b # c"), "a #35;quot; b # c");
        assert_eq!(escape("x<y & z"), "x#lt;y #38; z");
        assert_eq!(escape("set direction LR"), "set #100;irection LR");
    }
}
