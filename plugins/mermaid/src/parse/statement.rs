//! The statements of a flowchart body: vertex chains, subgraphs, `direction`, `classDef`,
//! `class`, `style`, `linkStyle`, `click`, accessibility lines and comments.

use std::collections::HashMap;

use quire_sdk::ConvertError;

use super::cursor::Cursor;
use super::link::{self, Link};
use super::{Decl, Edge, Flowchart, Label, ShapeName, Subgraph, Vertex};
use crate::layout::Direction;

/// Limits that keep a hostile text from exhausting the layout.
pub const MAX_NODES: usize = 5_000;
pub const MAX_EDGES: usize = 10_000;

struct Open {
    id: Option<String>,
    title: Label,
    direction: Option<Direction>,
    members: Vec<String>,
    at: usize,
}

/// A `key: value` of `@{ ... }`.
type DataPair = (String, String);

/// Which edges a `linkStyle` names.
enum LinkSet {
    Default,
    Indices(Vec<usize>),
}

pub(super) struct Parser {
    c: Cursor,
    chart: Flowchart,
    vertex: HashMap<String, usize>,
    edge_id: HashMap<String, usize>,
    open: Vec<Open>,
    classes: Vec<(Vec<String>, String)>,
    styles: Vec<(String, Vec<Decl>)>,
    link_styles: Vec<(LinkSet, Vec<Decl>, Option<String>, usize)>,
    clicks: Vec<(String, String)>,
}

impl Parser {
    pub fn new(c: Cursor) -> Self {
        Parser {
            c,
            chart: Flowchart::default(),
            vertex: HashMap::new(),
            edge_id: HashMap::new(),
            open: Vec::new(),
            classes: Vec::new(),
            styles: Vec::new(),
            link_styles: Vec::new(),
            clicks: Vec::new(),
        }
    }

    pub fn run(mut self) -> Result<Flowchart, ConvertError> {
        loop {
            while self
                .c
                .peek()
                .is_some_and(|ch| ch.is_whitespace() || ch == ';')
            {
                self.c.bump();
            }
            if self.c.eof() {
                break;
            }
            self.statement()?;
        }
        if let Some(open) = self.open.last() {
            return Err(self
                .c
                .error_at(open.at, "this subgraph is never closed by `end`"));
        }
        self.apply_deferred()?;
        Ok(self.chart)
    }

    fn statement(&mut self) -> Result<(), ConvertError> {
        let c = &mut self.c;
        if c.starts_with("%%") {
            c.rest_of_line();
            return Ok(());
        }
        let word = c.word();
        match word.as_str() {
            "subgraph" if c.at_keyword("subgraph") => self.subgraph(),
            "end" => self.end(),
            "direction" if c.at_keyword("direction") => self.direction(),
            "classDef" if c.at_keyword("classDef") => self.class_def(),
            "class" if c.at_keyword("class") => self.class(),
            "style" if c.at_keyword("style") => self.style(),
            "linkStyle" if c.at_keyword("linkStyle") => self.link_style(),
            "click" if c.at_keyword("click") => self.click(),
            "accTitle" | "accDescr" => self.accessibility(&word),
            _ => self.vertex_statement(),
        }
    }

    /// After a statement: spaces, an optional comment, then a line break, `;` or the end.
    fn end_of_statement(&mut self) -> Result<(), ConvertError> {
        self.c.skip_spaces();
        if self.c.starts_with("%%") {
            self.c.rest_of_line();
        }
        match self.c.peek() {
            None | Some('\n') | Some(';') | Some('\r') => Ok(()),
            Some(_) => Err(self.c.error(&format!(
                "expected the end of the statement, found {}",
                self.c.describe_here()
            ))),
        }
    }

    fn subgraph(&mut self) -> Result<(), ConvertError> {
        let at = self.c.pos;
        self.c.pos += "subgraph".len();
        self.c.skip_spaces();
        let id_text = if self.c.peek() == Some('"') {
            link::string(&mut self.c)?
        } else {
            let start = self.c.pos;
            while self
                .c
                .peek()
                .is_some_and(|ch| !matches!(ch, '\n' | ';' | '['))
            {
                self.c.bump();
            }
            let raw = self.c.slice(start, self.c.pos);
            Label {
                text: raw.trim().to_string(),
                markdown: false,
            }
        };
        self.c.skip_spaces();
        let bracket = if self.c.peek() == Some('[') {
            link::shape(&mut self.c)?.map(|(_, title)| title)
        } else {
            None
        };
        self.end_of_statement()?;
        let (id, title) = match bracket {
            Some(title) => (Some(id_text.text.trim().to_string()), title),
            None if id_text.text.is_empty() => (None, id_text),
            None if id_text.text.chars().any(char::is_whitespace) => (None, id_text),
            None => (Some(id_text.text.clone()), id_text),
        };
        self.open.push(Open {
            id: id.filter(|s| !s.is_empty()),
            title,
            direction: None,
            members: Vec::new(),
            at,
        });
        if self.open.len() > super::MAX_NESTING {
            return Err(ConvertError::TooLarge(format!(
                "subgraphs nest more than {} deep",
                super::MAX_NESTING
            )));
        }
        Ok(())
    }

    fn end(&mut self) -> Result<(), ConvertError> {
        let at = self.c.pos;
        self.c.pos += 3;
        self.end_of_statement()?;
        let Some(open) = self.open.pop() else {
            return Err(self.c.error_at(at, "`end` without a subgraph to close"));
        };
        let Open {
            id,
            mut title,
            direction,
            mut members,
            ..
        } = open;
        let id = id.unwrap_or_else(|| format!("subGraph{}", self.chart.subgraphs.len()));
        title.text = title.text.trim().to_string();
        if let Some(parent) = self.open.last_mut() {
            if !parent.members.contains(&id) {
                parent.members.push(id.clone());
            }
        }
        // A subgraph is never its own member (`subgraph A` inside `subgraph A`).
        members.retain(|m| *m != id);
        // A second block with an id already used adds to that subgraph, as mermaid does,
        // rather than making a second shape with the same id.
        if let Some(earlier) = self.chart.subgraphs.iter_mut().find(|s| s.id == id) {
            for member in members {
                if !earlier.members.contains(&member) {
                    earlier.members.push(member);
                }
            }
            if !title.text.is_empty() && title.text != id {
                earlier.title = title;
            }
            earlier.direction = direction.or(earlier.direction);
            return Ok(());
        }
        self.chart.subgraphs.push(Subgraph {
            id,
            title,
            direction,
            members,
            classes: Vec::new(),
            styles: Vec::new(),
        });
        Ok(())
    }

    fn direction(&mut self) -> Result<(), ConvertError> {
        self.c.pos += "direction".len();
        self.c.skip_spaces();
        let word = self.c.word();
        let Some(dir) = Direction::parse(&word) else {
            return Err(self.c.error(&format!(
                "expected TB, TD, BT, LR or RL after `direction`, found {}",
                self.c.describe_here()
            )));
        };
        self.c.pos += word.chars().count();
        self.end_of_statement()?;
        // At the top level mermaid ignores it; inside a subgraph it sets the subgraph's.
        if let Some(open) = self.open.last_mut() {
            open.direction = Some(dir);
        }
        Ok(())
    }

    fn class_def(&mut self) -> Result<(), ConvertError> {
        self.c.pos += "classDef".len();
        self.c.skip_spaces();
        let rest = self.c.rest_of_statement();
        let (names, styles) = split_first_word(&rest);
        let decls = parse_styles(styles);
        for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match self.chart.class_defs.iter_mut().find(|(n, _)| n == name) {
                Some((_, d)) => d.extend(decls.iter().cloned()),
                None => self
                    .chart
                    .class_defs
                    .push((name.to_string(), decls.clone())),
            }
        }
        Ok(())
    }

    fn class(&mut self) -> Result<(), ConvertError> {
        self.c.pos += "class".len();
        self.c.skip_spaces();
        let rest = self.c.rest_of_statement();
        let (ids, class) = split_first_word(&rest);
        let class = class.trim();
        if class.is_empty() {
            return Err(self
                .c
                .error("expected a class name after the ids of `class`"));
        }
        let ids = ids
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect();
        self.classes.push((ids, class.to_string()));
        Ok(())
    }

    fn style(&mut self) -> Result<(), ConvertError> {
        self.c.pos += "style".len();
        self.c.skip_spaces();
        let id = link::id(&mut self.c);
        if id.is_empty() {
            return Err(self.c.error("expected a node id after `style`"));
        }
        let rest = self.c.rest_of_statement();
        // `style` creates the node if it does not exist yet (as mermaid's addVertex does).
        self.touch(&id, false);
        self.styles.push((id, parse_styles(&rest)));
        Ok(())
    }

    fn link_style(&mut self) -> Result<(), ConvertError> {
        let at = self.c.pos;
        self.c.pos += "linkStyle".len();
        self.c.skip_spaces();
        let rest = self.c.rest_of_statement();
        let (which, mut styles) = split_first_word(&rest);
        let set = if which == "default" {
            LinkSet::Default
        } else {
            let mut v = Vec::new();
            for part in which.split(',') {
                match part.trim().parse::<usize>() {
                    Ok(i) => v.push(i),
                    Err(_) => {
                        return Err(self.c.error_at(
                            at,
                            &format!(
                                "`linkStyle` expects `default` or link numbers, found `{which}`"
                            ),
                        ))
                    }
                }
            }
            LinkSet::Indices(v)
        };
        let trimmed = styles.trim_start();
        let mut curve = None;
        if let Some(after) = trimmed.strip_prefix("interpolate") {
            let (name, s) = split_first_word(after.trim_start());
            curve = Some(bounded_word(name));
            styles = s;
        }
        self.link_styles
            .push((set, parse_styles(styles), curve, at));
        Ok(())
    }

    fn click(&mut self) -> Result<(), ConvertError> {
        self.c.pos += "click".len();
        self.c.skip_spaces();
        let id = link::id(&mut self.c);
        let rest = self.c.rest_of_statement();
        // `click id "url"`, `click id href "url"`; callbacks do nothing outside a browser.
        let rest = rest.trim_start();
        let rest = rest.strip_prefix("href").unwrap_or(rest).trim_start();
        if let Some(body) = rest.strip_prefix('"') {
            if let Some((url, _)) = body.split_once('"') {
                if !url.is_empty() {
                    self.clicks.push((id, url.to_string()));
                }
            }
        }
        Ok(())
    }

    fn accessibility(&mut self, word: &str) -> Result<(), ConvertError> {
        let at = self.c.pos;
        self.c.pos += word.len();
        self.c.skip_spaces();
        if self.c.eat(":") {
            let value = self.c.rest_of_line().trim().to_string();
            if word == "accTitle" {
                self.chart.acc_title = Some(value);
            } else {
                self.chart.acc_descr = Some(value);
            }
            return Ok(());
        }
        if word == "accDescr" && self.c.eat("{") {
            let start = self.c.pos;
            while self.c.peek().is_some_and(|ch| ch != '}') {
                self.c.bump();
            }
            let value = self.c.slice(start, self.c.pos);
            if !self.c.eat("}") {
                return Err(self.c.error_at(at, "`accDescr {` is never closed by `}`"));
            }
            self.chart.acc_descr = Some(value.trim().to_string());
            return Ok(());
        }
        // Not the keyword after all: a node that happens to be called so.
        self.c.pos = at;
        self.vertex_statement()
    }

    fn vertex_statement(&mut self) -> Result<(), ConvertError> {
        let mut left = self.node_group()?;
        loop {
            let save = self.c.pos;
            self.c.skip_spaces();
            let edge_id = self.edge_id();
            let Some(l) = link::link(&mut self.c)? else {
                if edge_id.is_some() {
                    return Err(self.c.error(&format!(
                        "expected a link after the link id, found {}",
                        self.c.describe_here()
                    )));
                }
                self.c.pos = save;
                break;
            };
            self.c.skip_spaces();
            let right = self.node_group()?;
            self.add_links(&left, &right, l, edge_id)?;
            left = right;
        }
        self.end_of_statement()
    }

    /// `e1@` right before a link.
    fn edge_id(&mut self) -> Option<String> {
        let start = self.c.pos;
        let mut i = start;
        while self
            .c
            .char_at(i)
            .is_some_and(|ch| !ch.is_whitespace() && ch != '"' && ch != '@')
        {
            i += 1;
        }
        if i == start || self.c.char_at(i) != Some('@') {
            return None;
        }
        if matches!(self.c.char_at(i + 1), Some('{' | '"') | None) {
            return None;
        }
        let id = self.c.slice(start, i);
        self.c.pos = i + 1;
        let save = self.c.pos;
        match link::link(&mut self.c) {
            Ok(Some(_)) => {
                self.c.pos = save;
                Some(id)
            }
            _ => {
                self.c.pos = start;
                None
            }
        }
    }

    /// `a`, `a & b & c`, each with an optional shape, class and shape data.
    fn node_group(&mut self) -> Result<Vec<String>, ConvertError> {
        let mut ids = vec![self.styled_vertex()?];
        loop {
            let save = self.c.pos;
            self.c.skip_spaces();
            if self.c.eat("&") {
                self.c.skip_spaces();
                ids.push(self.styled_vertex()?);
            } else {
                self.c.pos = save;
                return Ok(ids);
            }
        }
    }

    fn styled_vertex(&mut self) -> Result<String, ConvertError> {
        let id = link::id(&mut self.c);
        if id.is_empty() {
            return Err(self.c.error(&format!(
                "expected a node id, found {}",
                self.c.describe_here()
            )));
        }
        let shape = link::shape(&mut self.c)?;
        let mut class = None;
        if self.c.eat(":::") {
            let name = link::id(&mut self.c);
            if name.is_empty() {
                return Err(self.c.error("expected a class name after `:::`"));
            }
            class = Some(name);
        }
        let data = if self.c.starts_with("@{") {
            Some(self.shape_data()?)
        } else {
            None
        };
        if data.is_some()
            && shape.is_none()
            && class.is_none()
            && self.edge_id.contains_key(&id)
            && !self.vertex.contains_key(&id)
        {
            // `e1@{ curve: linear }`: data of an edge; its curve is the one hint drawn.
            if let Some((_, curve)) = data.iter().flatten().find(|(key, _)| key == "curve") {
                let e = self.edge_id[&id];
                self.chart.edges[e].curve = Some(bounded_word(curve));
            }
            return Ok(id);
        }
        let v = self.touch(&id, true);
        let vertex = &mut self.chart.vertices[v];
        if let Some((kind, label)) = shape {
            vertex.shape = Some(ShapeName::Classic(kind));
            vertex.label = Some(label);
        }
        if let Some(class) = class {
            vertex.classes.push(class);
        }
        if let Some(data) = data {
            for (key, value) in data {
                match key.as_str() {
                    "shape" => vertex.shape = Some(ShapeName::Named(value)),
                    // Mermaid takes backticks in node data literally: no markdown here.
                    "label" => {
                        vertex.label = Some(Label {
                            text: value,
                            markdown: false,
                        })
                    }
                    // A picture or icon cannot be fetched: the node keeps its label.
                    "icon" | "img" if vertex.shape.is_none() => {
                        vertex.shape = Some(ShapeName::Named("rect".into()))
                    }
                    _ => {}
                }
            }
        }
        Ok(id)
    }

    /// `@{ key: value, ... }`: values unquoted, markdown strings flagged.
    fn shape_data(&mut self) -> Result<Vec<DataPair>, ConvertError> {
        let at = self.c.pos;
        self.c.pos += 2;
        let start = self.c.pos;
        let mut in_string = false;
        while let Some(ch) = self.c.peek() {
            if ch == '"' {
                in_string = !in_string;
            } else if ch == '}' && !in_string {
                break;
            }
            self.c.bump();
        }
        let body = self.c.slice(start, self.c.pos);
        if !self.c.eat("}") {
            return Err(self
                .c
                .error_at(at, "the node data opened with `@{` is never closed by `}`"));
        }
        Ok(split_data(&body))
    }

    /// The index of vertex `id`, created on first mention; a mention inside a subgraph makes
    /// the id one of its candidate members.
    fn touch(&mut self, id: &str, member: bool) -> usize {
        if member {
            if let Some(open) = self.open.last_mut() {
                open.members.push(id.to_string());
            }
        }
        if let Some(&v) = self.vertex.get(id) {
            return v;
        }
        let v = self.chart.vertices.len();
        self.vertex.insert(id.to_string(), v);
        self.chart.vertices.push(Vertex {
            id: id.to_string(),
            ..Vertex::default()
        });
        v
    }

    fn add_links(
        &mut self,
        left: &[String],
        right: &[String],
        l: Link,
        id: Option<String>,
    ) -> Result<(), ConvertError> {
        let mut id = id;
        for a in left {
            for b in right {
                if self.chart.edges.len() >= MAX_EDGES {
                    return Err(ConvertError::TooLarge(format!(
                        "the flowchart has more than {MAX_EDGES} links"
                    )));
                }
                let this_id = id.take().filter(|i| !self.edge_id.contains_key(i));
                if let Some(i) = &this_id {
                    self.edge_id.insert(i.clone(), self.chart.edges.len());
                }
                self.chart.edges.push(Edge {
                    id: this_id,
                    from: a.clone(),
                    to: b.clone(),
                    start: l.start,
                    end: l.end,
                    stroke: l.stroke,
                    length: l.length,
                    label: l.label.clone(),
                    classes: Vec::new(),
                    styles: Vec::new(),
                    curve: None,
                });
            }
        }
        if self.chart.vertices.len() > MAX_NODES {
            return Err(ConvertError::TooLarge(format!(
                "the flowchart has more than {MAX_NODES} nodes"
            )));
        }
        Ok(())
    }

    /// `class`, `style`, `linkStyle` and `click` apply once every id is known, whatever the
    /// order they were written in.
    fn apply_deferred(&mut self) -> Result<(), ConvertError> {
        if self.chart.vertices.len() > MAX_NODES {
            return Err(ConvertError::TooLarge(format!(
                "the flowchart has more than {MAX_NODES} nodes"
            )));
        }
        let sub_index: HashMap<String, usize> = self
            .chart
            .subgraphs
            .iter()
            .enumerate()
            .map(|(i, s)| (s.id.clone(), i))
            .collect();
        for (ids, class) in std::mem::take(&mut self.classes) {
            for id in ids {
                if let Some(&v) = self.vertex.get(&id) {
                    self.chart.vertices[v].classes.push(class.clone());
                } else if let Some(&e) = self.edge_id.get(&id) {
                    self.chart.edges[e].classes.push(class.clone());
                } else if let Some(&s) = sub_index.get(&id) {
                    self.chart.subgraphs[s].classes.push(class.clone());
                }
            }
        }
        for (id, decls) in std::mem::take(&mut self.styles) {
            if let Some(&s) = sub_index.get(&id) {
                self.chart.subgraphs[s].styles.extend(decls.iter().cloned());
            }
            if let Some(&v) = self.vertex.get(&id) {
                self.chart.vertices[v].styles.extend(decls);
            }
        }
        let count = self.chart.edges.len();
        for (set, decls, curve, at) in std::mem::take(&mut self.link_styles) {
            match set {
                LinkSet::Default => {
                    for e in self.chart.edges.iter_mut() {
                        // Default first, so per-link styles read later still win.
                        let mut d = decls.clone();
                        d.append(&mut e.styles);
                        e.styles = d;
                        if e.curve.is_none() {
                            e.curve.clone_from(&curve);
                        }
                    }
                }
                LinkSet::Indices(v) => {
                    for i in v {
                        if i >= count {
                            return Err(self.c.error_at(
                                at,
                                &format!(
                                    "`linkStyle` names link {i}, but the flowchart has {count} links (numbered from 0)"
                                ),
                            ));
                        }
                        self.chart.edges[i].styles.extend(decls.iter().cloned());
                        if curve.is_some() {
                            self.chart.edges[i].curve.clone_from(&curve);
                        }
                    }
                }
            }
        }
        for (id, url) in std::mem::take(&mut self.clicks) {
            if let Some(&v) = self.vertex.get(&id) {
                self.chart.vertices[v].link = Some(url);
            }
        }
        Ok(())
    }
}

/// A curve's name as written, cut to a name's length (mermaid's are `basis`,
/// `linear`, `stepBefore`, ...).
pub(super) fn bounded_word(word: &str) -> String {
    word.trim().chars().take(32).collect()
}

/// `first rest...` split at the first run of spaces.
fn split_first_word(s: &str) -> (&str, &str) {
    let s = s.trim_start();
    match s.split_once(char::is_whitespace) {
        Some((first, rest)) => (first, rest.trim_start()),
        None => (s, ""),
    }
}

/// `fill:#f9f,stroke:#333,stroke-width:4px`: declarations split at commas; a piece without
/// a colon continues the previous value (`stroke-dasharray: 5,5`).
pub(crate) fn parse_styles(s: &str) -> Vec<Decl> {
    let mut out: Vec<Decl> = Vec::new();
    for part in s.split(',') {
        let property = part.split_once(':').filter(|(k, _)| {
            let k = k.trim();
            !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        });
        match property {
            Some((k, v)) => out.push((k.trim().to_ascii_lowercase(), v.trim().to_string())),
            _ => {
                if let Some(last) = out.last_mut() {
                    last.1.push(',');
                    last.1.push_str(part.trim());
                }
            }
        }
    }
    out
}

/// The pairs of a `@{ ... }` body. Values may be quoted; inside quotes a line break and the
/// indentation after it become `<br/>`, as mermaid's lexer does.
fn split_data(body: &str) -> Vec<DataPair> {
    let mut parts: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut in_string = false;
    for ch in body.chars() {
        match ch {
            '"' => {
                in_string = !in_string;
                cur.push(ch);
            }
            ',' | '\n' if !in_string => parts.push(std::mem::take(&mut cur)),
            _ => cur.push(ch),
        }
    }
    parts.push(cur);
    let mut out = Vec::new();
    for p in parts {
        let Some((k, v)) = p.split_once(':') else {
            continue;
        };
        let key = k.trim().to_string();
        let v = v.trim();
        let (value, quoted) = match v.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
            Some(inner) => (inner.to_string(), true),
            None => (v.to_string(), false),
        };
        let value = if quoted {
            let mut s = String::new();
            let mut lines = value.split('\n');
            if let Some(first) = lines.next() {
                s.push_str(first);
            }
            for l in lines {
                s.push_str("<br/>");
                s.push_str(l.trim_start());
            }
            s
        } else {
            value
        };
        out.push((key, value));
    }
    out
}
