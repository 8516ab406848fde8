//! Mermaid flowchart text to a syntax tree, following mermaid's own grammar (flow.jison) and
//! its database rules (who belongs to which subgraph, what an id names).
//!
//! Other diagram types are recognised by their keyword and refused by name; text that is not
//! mermaid at all, or a flowchart with a syntax error, is damaged with the line and column.

mod cursor;
mod link;
mod statement;

use crate::theme::Config;
use std::collections::HashMap;

use quire_sdk::ConvertError;

use crate::layout::Direction;
use cursor::Cursor;
#[cfg(test)]
pub(crate) use statement::parse_styles;

/// Text of a label as written: plain (entities and `<br>` still in it) or a markdown string.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Label {
    pub text: String,
    pub markdown: bool,
}

/// The bracket shapes of classic mermaid syntax.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Classic {
    Square,
    Round,
    Stadium,
    Subroutine,
    Cylinder,
    Circle,
    DoubleCircle,
    Ellipse,
    Odd,
    Diamond,
    Hexagon,
    LeanRight,
    LeanLeft,
    Trapezoid,
    InvTrapezoid,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShapeName {
    Classic(Classic),
    /// A v11 `@{ shape: name }`.
    Named(String),
}

pub use crate::style::Decl;

#[derive(Debug, Clone, Default)]
pub struct Vertex {
    pub id: String,
    pub label: Option<Label>,
    pub shape: Option<ShapeName>,
    pub classes: Vec<String>,
    pub styles: Vec<Decl>,
    pub link: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Head {
    #[default]
    None,
    Arrow,
    Circle,
    Cross,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Stroke {
    #[default]
    Normal,
    Thick,
    Dotted,
    Invisible,
}

#[derive(Debug, Clone, Default)]
pub struct Edge {
    pub id: Option<String>,
    pub from: String,
    pub to: String,
    pub start: Head,
    pub end: Head,
    pub stroke: Stroke,
    pub length: u32,
    pub label: Option<Label>,
    pub classes: Vec<String>,
    pub styles: Vec<Decl>,
    /// The curve mermaid draws it with (`linkStyle ... interpolate linear`,
    /// `e1@{ curve: linear }`), where one is named; its default is a smooth curve.
    pub curve: Option<String>,
}

#[derive(Debug, Clone, Default)]
pub struct Subgraph {
    pub id: String,
    pub title: Label,
    pub direction: Option<Direction>,
    /// Ids mentioned inside the block, in order (nodes and nested subgraphs).
    pub members: Vec<String>,
    pub classes: Vec<String>,
    pub styles: Vec<Decl>,
}

/// A parsed flowchart, before membership is resolved.
#[derive(Debug, Clone, Default)]
pub struct Flowchart {
    pub direction: Direction,
    pub title: Option<String>,
    pub acc_title: Option<String>,
    pub acc_descr: Option<String>,
    pub vertices: Vec<Vertex>,
    pub edges: Vec<Edge>,
    /// In the order their `end` was read (mermaid's order).
    pub subgraphs: Vec<Subgraph>,
    pub class_defs: Vec<(String, Vec<Decl>)>,
    /// The front matter's `config` with the `%%{init}%%` directives over it.
    pub config: crate::theme::Config,
}

/// Diagram keywords mermaid knows besides flowcharts; each is refused by name.
const OTHER_DIAGRAMS: &[&str] = &[
    "sequenceDiagram",
    "classDiagram",
    "classDiagram-v2",
    "stateDiagram",
    "stateDiagram-v2",
    "erDiagram",
    "gantt",
    "pie",
    "journey",
    "gitGraph",
    "mindmap",
    "timeline",
    "quadrantChart",
    "xychart",
    "xychart-beta",
    "sankey",
    "sankey-beta",
    "block",
    "block-beta",
    "C4Context",
    "C4Container",
    "C4Component",
    "C4Dynamic",
    "C4Deployment",
    "requirementDiagram",
    "requirement",
    "architecture",
    "architecture-beta",
    "kanban",
    "packet",
    "packet-beta",
    "radar",
    "radar-beta",
    "treemap",
    "treemap-beta",
    "zenuml",
    "info",
    "venn",
    "venn-beta",
    "ishikawa",
    "ishikawa-beta",
];

const FLOWCHART_KEYWORDS: &[&str] = &["flowchart", "graph", "flowchart-elk", "flowchart-v2"];

/// Parses mermaid text. Refuses other diagram types by their keyword.
pub fn parse(text: &str) -> Result<Flowchart, ConvertError> {
    let mut c = Cursor::new(text);
    let (title, mut config) = front_matter(&mut c)?;
    config.merge(skip_preamble(&mut c)?);
    let start = c.pos;
    let keyword = c.word();
    if keyword.is_empty() && c.eof() {
        return Err(ConvertError::Damaged(
            "the text holds no diagram: a flowchart starts with `flowchart` or `graph`".into(),
        ));
    }
    if !FLOWCHART_KEYWORDS.contains(&keyword.as_str()) {
        if OTHER_DIAGRAMS.contains(&keyword.as_str())
            || keyword.ends_with("Diagram")
            || keyword.ends_with("-beta")
        {
            return Err(ConvertError::Refused {
                detail: format!(
                    "mermaid {keyword} diagrams cannot be drawn as boxes and arrows; only \
                     flowchart and graph are supported"
                ),
                kind: keyword,
            });
        }
        return Err(c.error_at(
            start,
            &format!(
                "expected `flowchart` or `graph` to start the diagram, found {}",
                c.describe_here()
            ),
        ));
    }
    c.pos += keyword.chars().count();
    let direction = header_direction(&mut c)?;
    let mut chart = statement::Parser::new(c).run()?;
    chart.direction = direction;
    chart.title = title;
    chart.config = config;
    Ok(chart)
}

/// Reads `--- ... ---` at the start: its `title`, and what its `config` says of the look
/// (`theme`, `themeVariables`, `fontFamily`, `flowchart.curve`; the YAML block style
/// mermaid's docs use).
fn front_matter(c: &mut Cursor) -> Result<(Option<String>, Config), ConvertError> {
    let save = c.pos;
    c.skip_blank();
    // The opening line is `---` alone (trailing spaces allowed).
    let line_start = c.pos;
    if !c.eat("---") || !c.rest_of_line().trim().is_empty() {
        c.pos = save;
        return Ok((None, Config::default()));
    }
    let mut title = None;
    let mut config = Config::default();
    // Indents of the open `config:`, `themeVariables:` and `flowchart:` blocks.
    let (mut in_config, mut in_variables): (Option<usize>, Option<usize>) = (None, None);
    let mut in_flowchart: Option<usize> = None;
    loop {
        if c.eof() {
            return Err(c.error_at(
                line_start,
                "the front matter opened with `---` is never closed by another `---` line",
            ));
        }
        c.bump(); // the line break
        let line = c.rest_of_line();
        if line.trim_end() == "---" {
            break;
        }
        let indent = line.len() - line.trim_start().len();
        let Some((key, value)) = line.trim().split_once(':') else {
            continue;
        };
        let (key, value) = (key.trim(), unquote_yaml(value.trim()));
        if in_variables.is_some_and(|at| indent <= at) {
            in_variables = None;
        }
        if in_flowchart.is_some_and(|at| indent <= at) {
            in_flowchart = None;
        }
        if in_config.is_some_and(|at| indent <= at) {
            in_config = None;
        }
        match (in_config, in_variables) {
            (_, Some(_)) if !value.is_empty() => config.variables.push((key.to_string(), value)),
            (Some(_), None) if in_flowchart.is_some() && key == "curve" && !value.is_empty() => {
                config.curve = Some(statement::bounded_word(&value));
            }
            (Some(_), None) if in_flowchart.is_some() => {}
            (Some(_), None) => match key {
                "theme" => config.theme = Some(value),
                "fontFamily" => config.font_family = Some(value),
                "themeVariables" if value.is_empty() => in_variables = Some(indent),
                "flowchart" if value.is_empty() => in_flowchart = Some(indent),
                _ => {}
            },
            (None, None) if indent == 0 => match key {
                "title" => title = Some(value),
                "config" if value.is_empty() => in_config = Some(indent),
                _ => {}
            },
            _ => {}
        }
        if config.variables.len() > MAX_THEME_VARIABLES {
            config.variables.truncate(MAX_THEME_VARIABLES);
        }
    }
    Ok((title.filter(|t| !t.is_empty()), config))
}

/// Theme variables read at most (mermaid knows about 150).
const MAX_THEME_VARIABLES: usize = 256;

/// What an `%%{init: {...}}%%` (or `initialize`) directive says of the look (and of the
/// links' curve). Mermaid reads
/// its argument as JSON after turning every `'` into `"`; anything else is ignored.
fn directive(body: &str) -> Config {
    let mut config = Config::default();
    let body = body.trim();
    let Some(rest) = ["initialize", "init"]
        .iter()
        .find_map(|k| body.strip_prefix(k))
        .and_then(|r| r.trim_start().strip_prefix(':'))
    else {
        return config;
    };
    let Ok(serde_json::Value::Object(map)) =
        serde_json::from_str::<serde_json::Value>(&rest.replace('\'', "\""))
    else {
        return config;
    };
    let text = |v: &serde_json::Value| match v {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Bool(b) => Some(b.to_string()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        _ => None,
    };
    config.theme = map.get("theme").and_then(text);
    config.font_family = map.get("fontFamily").and_then(text);
    config.curve = map
        .get("flowchart")
        .and_then(|f| f.get("curve"))
        .and_then(text)
        .map(|c| statement::bounded_word(&c));
    if let Some(serde_json::Value::Object(vars)) = map.get("themeVariables") {
        config.variables = vars
            .iter()
            .take(MAX_THEME_VARIABLES)
            .filter_map(|(k, v)| Some((k.clone(), text(v)?)))
            .collect();
    }
    config
}

fn unquote_yaml(v: &str) -> String {
    let v = v.trim();
    let quoted = |q: char| v.strip_prefix(q).and_then(|inner| inner.strip_suffix(q));
    match quoted('"').or_else(|| quoted('\'')) {
        Some(inner) => inner.replace("\\\"", "\"").replace("''", "'"),
        None => v.to_string(),
    }
}

/// Blank lines, `%%` comments and `%%{...}%%` directives before the diagram keyword; what
/// the directives say of the look, later ones over earlier ones.
fn skip_preamble(c: &mut Cursor) -> Result<Config, ConvertError> {
    let mut config = Config::default();
    loop {
        c.skip_blank();
        if c.starts_with("%%{") {
            let at = c.pos;
            c.eat("%%{");
            let mut body = String::new();
            while !c.eof() && !c.starts_with("}%%") {
                if let Some(ch) = c.peek() {
                    body.push(ch);
                }
                c.bump();
            }
            if !c.eat("}%%") {
                return Err(c.error_at(at, "the directive `%%{` is never closed by `}%%`"));
            }
            config.merge(directive(&body));
        } else if c.starts_with("%%") {
            c.rest_of_line();
        } else {
            return Ok(config);
        }
    }
}

/// The direction after the keyword, up to the end of that first statement.
fn header_direction(c: &mut Cursor) -> Result<Direction, ConvertError> {
    c.skip_spaces();
    let mut dir = Direction::TopBottom;
    if let Some(ch) = c.peek() {
        let word = c.word();
        if let Some(d) = Direction::parse(&word) {
            dir = d;
            c.pos += word.chars().count();
        } else if let Some(d) = Direction::parse(&ch.to_string()).filter(|_| ch != 'v') {
            dir = d;
            c.bump();
        } else if ch != '\n' && ch != ';' && !c.starts_with("%%") {
            return Err(c.error(&format!(
                "expected a direction (TB, TD, BT, LR or RL) or the end of the line, found {}",
                c.describe_here()
            )));
        }
    }
    c.skip_spaces();
    if c.starts_with("%%") {
        c.rest_of_line();
    }
    match c.peek() {
        None | Some('\n') | Some(';') => Ok(dir),
        Some(_) => Err(c.error(&format!(
            "expected the end of the line after the direction, found {}",
            c.describe_here()
        ))),
    }
}

/// An edge end once ids are resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndId {
    Node(usize),
    Group(usize),
}

/// The flowchart with membership resolved the way mermaid's database does it.
#[derive(Debug, Clone, Default)]
pub struct Resolved {
    pub chart: Flowchart,
    /// Vertices that are nodes (an id that names a subgraph is the subgraph).
    pub nodes: Vec<Vertex>,
    pub node_parent: Vec<Option<usize>>,
    pub group_parent: Vec<Option<usize>>,
    pub edges: Vec<(EndId, EndId)>,
}

/// Deepest subgraph nesting kept (the model allows 64 group levels).
pub const MAX_NESTING: usize = 60;

/// Resolves membership: a subgraph claims the ids mentioned inside it that no subgraph closed
/// before it has claimed (inner subgraphs close first, so they win), and an id that names a
/// subgraph is that subgraph wherever it appears.
pub fn resolve(mut chart: Flowchart) -> Result<Resolved, ConvertError> {
    let group_index: HashMap<String, usize> = chart
        .subgraphs
        .iter()
        .enumerate()
        .map(|(i, s)| (s.id.clone(), i))
        .collect();
    let ng = chart.subgraphs.len();
    let mut group_parent: Vec<Option<usize>> = vec![None; ng];
    let mut claimed: HashMap<String, usize> = HashMap::new();
    for (g, sg) in chart.subgraphs.iter().enumerate() {
        for m in &sg.members {
            if m == &sg.id || claimed.contains_key(m) {
                continue;
            }
            if let Some(&child) = group_index.get(m) {
                // Never make a subgraph its own ancestor.
                let mut at = Some(g);
                let mut cycle = false;
                while let Some(p) = at {
                    if p == child {
                        cycle = true;
                        break;
                    }
                    at = group_parent[p];
                }
                if cycle {
                    continue;
                }
                group_parent[child] = Some(g);
            }
            claimed.insert(m.clone(), g);
        }
    }
    for g in 0..ng {
        let mut depth = 0;
        let mut at = group_parent[g];
        while let Some(p) = at {
            depth += 1;
            if depth > MAX_NESTING {
                return Err(ConvertError::TooLarge(format!(
                    "subgraphs nest more than {MAX_NESTING} deep"
                )));
            }
            at = group_parent[p];
        }
    }
    let mut node_index: HashMap<String, usize> = HashMap::new();
    let mut nodes = Vec::new();
    let mut node_parent = Vec::new();
    for v in std::mem::take(&mut chart.vertices) {
        if let Some(&g) = group_index.get(&v.id) {
            // A vertex statement naming a subgraph styles the subgraph.
            let sg = &mut chart.subgraphs[g];
            sg.styles.extend(v.styles);
            sg.classes.extend(v.classes);
            continue;
        }
        node_index.insert(v.id.clone(), nodes.len());
        node_parent.push(claimed.get(&v.id).copied());
        nodes.push(v);
    }
    let end = |id: &str| -> Option<EndId> {
        group_index
            .get(id)
            .map(|&g| EndId::Group(g))
            .or_else(|| node_index.get(id).map(|&n| EndId::Node(n)))
    };
    let mut edges = Vec::with_capacity(chart.edges.len());
    for e in &chart.edges {
        match (end(&e.from), end(&e.to)) {
            (Some(a), Some(b)) => edges.push((a, b)),
            _ => {
                return Err(ConvertError::Damaged(format!(
                    "the link from `{}` to `{}` names an unknown node",
                    e.from, e.to
                )))
            }
        }
    }
    Ok(Resolved {
        chart,
        nodes,
        node_parent,
        group_parent,
        edges,
    })
}

#[cfg(test)]
mod tests;
