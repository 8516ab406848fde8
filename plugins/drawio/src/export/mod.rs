//! The model as an uncompressed draw.io file: one `<diagram>` per page, every shape a cell
//! whose id is the shape's id, children of groups inside container cells with geometry
//! relative to them, connectors as edges with `source` and `target` set.
//!
//! What draw.io has no cell for is approximated and counted in the warnings: free paths
//! become pictures (an SVG data URI), connector ends attached to a shape on another page
//! become loose ends.

mod html;
mod style;
mod svg;

use std::collections::HashSet;

use quire_sdk::{
    Connector, ConvertError, End, ExportRequest, Exported, Page, Point, Rect, Shape, ShapeWalk,
};

use style::number;

/// The media type the contract serves `.drawio` downloads under.
pub const EXPORT_MEDIA_TYPE: &str = "application/xml";

/// Writes the document (or the page asked for) as a draw.io file.
pub fn export_drawio(request: &ExportRequest) -> Result<Exported, ConvertError> {
    let wanted = request.media_type.split(';').next().unwrap_or("").trim();
    if !(wanted.is_empty() || wanted == EXPORT_MEDIA_TYPE || wanted == crate::MEDIA_TYPE) {
        return Err(ConvertError::Unsupported(format!(
            "the draw.io converter writes {EXPORT_MEDIA_TYPE}, not {wanted}"
        )));
    }
    let pages: Vec<(usize, &Page)> = match request.page {
        None => request.document.pages.iter().enumerate().collect(),
        Some(n) => {
            let i = (n as usize)
                .checked_sub(1)
                .filter(|&i| i < request.document.pages.len());
            let Some(i) = i else {
                return Err(ConvertError::InvalidRequest(format!(
                    "page {n} does not exist; the document has {} pages",
                    request.document.pages.len()
                )));
            };
            vec![(i, &request.document.pages[i])]
        }
    };
    let mut w = Writer {
        request,
        out: String::with_capacity(64 * 1024),
        counts: Counts::default(),
    };
    w.out
        .push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    w.out.push_str(&format!(
        "<mxfile host=\"Quire\" agent=\"quire-drawio {}\" pages=\"{}\">\n",
        crate::VERSION,
        pages.len()
    ));
    for (i, page) in pages {
        w.page(i + 1, page);
    }
    w.out.push_str("</mxfile>\n");
    Ok(Exported {
        bytes: w.out.into_bytes(),
        media_type: EXPORT_MEDIA_TYPE.to_string(),
        warnings: w.counts.sentences(),
        headers: Vec::new(),
    })
}

#[derive(Default)]
struct Counts {
    paths: usize,
    missing_assets: usize,
    cross_page_ends: usize,
}

impl Counts {
    fn sentences(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.paths > 0 {
            out.push(format!(
                "{} free paths were written as SVG pictures (draw.io has no path cell)",
                self.paths
            ));
        }
        if self.missing_assets > 0 {
            out.push(format!(
                "{} pictures had no asset and were written as empty boxes",
                self.missing_assets
            ));
        }
        if self.cross_page_ends > 0 {
            out.push(format!(
                "{} connector ends were attached to a shape on another page and were left loose",
                self.cross_page_ends
            ));
        }
        out
    }
}

struct Writer<'a> {
    request: &'a ExportRequest,
    out: String,
    counts: Counts,
}

/// Escapes text for an attribute value in double quotes. Line breaks and tabs are written
/// as character references: a reader would otherwise turn them into spaces.
pub fn escape_attr(s: &str, out: &mut String) {
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            // Characters XML 1.0 cannot hold at all, even as references.
            c if (c as u32) < 0x20 => {}
            '\u{FFFE}' | '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
}

/// An id not taken on the page, for the root and layer cells draw.io needs.
fn free_id(taken: &HashSet<&str>, wanted: &str) -> String {
    if !taken.contains(wanted) {
        return wanted.to_string();
    }
    (1..)
        .map(|n| format!("quire-{wanted}-{n}"))
        .find(|c| !taken.contains(c.as_str()))
        .unwrap_or_default()
}

/// The cell being written: its element, attributes in order, geometry and children.
struct Cell {
    attrs: Vec<(&'static str, String)>,
    /// Wrapper attributes (`link`, `tooltip`): the cell is then an `<UserObject>`.
    wrapper: Vec<(&'static str, String)>,
    geometry: String,
}

impl Writer<'_> {
    fn page(&mut self, number: usize, page: &Page) {
        let taken: HashSet<&str> = ShapeWalk::new(&page.shapes).map(|s| s.id()).collect();
        let root = free_id(&taken, "0");
        let layer = free_id(&taken, "1");
        self.out.push_str("  <diagram name=\"");
        let name = page
            .name
            .clone()
            .unwrap_or_else(|| format!("Page-{number}"));
        escape_attr(&name, &mut self.out);
        self.out.push_str(&format!("\" id=\"page-{number}\">\n"));
        self.out.push_str(&format!(
            "    <mxGraphModel grid=\"1\" gridSize=\"10\" guides=\"1\" tooltips=\"1\" \
             connect=\"1\" arrows=\"1\" fold=\"1\" page=\"1\" pageScale=\"1\" \
             pageWidth=\"{}\" pageHeight=\"{}\" math=\"0\" shadow=\"0\"",
            number_attr(page.width),
            number_attr(page.height)
        ));
        if let Some(bg) = page.background {
            self.out.push_str(&format!(
                " background=\"{}\"",
                bg.to_hex().get(..7).unwrap_or("")
            ));
        }
        self.out.push_str(">\n      <root>\n");
        let mut root_attrs = String::new();
        escape_attr(&root, &mut root_attrs);
        let mut layer_attrs = String::new();
        escape_attr(&layer, &mut layer_attrs);
        self.out
            .push_str(&format!("        <mxCell id=\"{root_attrs}\"/>\n"));
        self.out.push_str(&format!(
            "        <mxCell id=\"{layer_attrs}\" parent=\"{root_attrs}\"/>\n"
        ));
        let on_page = &taken;
        for shape in &page.shapes {
            self.shape(shape, &layer, Point::default(), on_page);
        }
        self.out
            .push_str("      </root>\n    </mxGraphModel>\n  </diagram>\n");
    }

    fn shape(&mut self, shape: &Shape, parent: &str, origin: Point, on_page: &HashSet<&str>) {
        let cell = match shape {
            Shape::Node(n) => {
                self.vertex(style::node(n), n.text.as_ref(), n.frame, origin, Vec::new())
            }
            Shape::Text(t) => self.vertex(
                style::text_box(t),
                Some(&t.text),
                t.frame,
                origin,
                Vec::new(),
            ),
            Shape::Image(img) => {
                let mut wrapper = Vec::new();
                if let Some(link) = &img.link {
                    wrapper.push(("link", link.clone()));
                }
                if let Some(alt) = &img.alt {
                    wrapper.push(("tooltip", alt.clone()));
                }
                let style = match self.request.asset(&img.asset) {
                    Some(asset) => style::image(&asset.media_type, &asset.bytes),
                    None => {
                        self.counts.missing_assets += 1;
                        "rounded=0;whiteSpace=wrap;html=1;fillColor=none;".to_string()
                    }
                };
                self.vertex(style, None, img.frame, origin, wrapper)
            }
            Shape::Path(p) => {
                self.counts.paths += 1;
                let (mut style, frame) = svg::path_picture(p);
                style::shadow(p.shadow, &mut style);
                self.vertex(style, None, frame, origin, Vec::new())
            }
            // A stencil cell of a draw.io file: written back by its own style, which
            // draw.io draws from its library; the paths are only Quire's drawing of it.
            Shape::Group(g) => {
                if let Some(style) = stencil_style(g) {
                    let cell = self.vertex(
                        style.to_string(),
                        g.label.as_ref(),
                        g.frame,
                        origin,
                        Vec::new(),
                    );
                    self.write(shape.id(), parent, cell);
                    return;
                }
                let cell = self.vertex(
                    style::group(g),
                    g.label.as_ref(),
                    g.frame,
                    origin,
                    Vec::new(),
                );
                self.write(shape.id(), parent, cell);
                let inner = Point {
                    x: g.frame.x,
                    y: g.frame.y,
                };
                for child in &g.children {
                    self.shape(child, g.id.as_str(), inner, on_page);
                }
                return;
            }
            Shape::Connector(c) => self.edge(c, origin, on_page),
        };
        self.write(shape.id(), parent, cell);
    }

    fn vertex(
        &mut self,
        mut style: String,
        text: Option<&quire_sdk::Text>,
        frame: Rect,
        origin: Point,
        wrapper: Vec<(&'static str, String)>,
    ) -> Cell {
        let mut attrs = Vec::new();
        if let Some(t) = text.filter(|t| !t.runs.is_empty()) {
            let (value, text_style) = html::label(t);
            style.push_str(&text_style);
            attrs.push(("value", value));
        } else {
            attrs.push(("value", String::new()));
        }
        attrs.push(("style", style));
        attrs.push(("vertex", "1".to_string()));
        let geometry = format!(
            "<mxGeometry x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" as=\"geometry\"/>",
            number_attr(frame.x - origin.x),
            number_attr(frame.y - origin.y),
            number_attr(frame.w),
            number_attr(frame.h)
        );
        Cell {
            attrs,
            wrapper,
            geometry,
        }
    }

    fn edge(&mut self, c: &Connector, origin: Point, on_page: &HashSet<&str>) -> Cell {
        let rel = |p: Point| Point {
            x: p.x - origin.x,
            y: p.y - origin.y,
        };
        let mut attrs = Vec::new();
        let mut style = style::edge(c);
        for (end, side) in [(&c.from, "exit"), (&c.to, "entry")] {
            let on_this_page = end.shape.as_deref().is_some_and(|id| on_page.contains(id));
            if let Some(port) = end.port.filter(|_| on_this_page) {
                style.push_str(&format!(
                    "{side}X={};{side}Y={};{side}Dx=0;{side}Dy=0;{side}Perimeter=0;",
                    number_attr(port.x),
                    number_attr(port.y)
                ));
            }
        }
        let (value, text_style) = match c.label.as_ref().filter(|t| !t.runs.is_empty()) {
            Some(t) => html::label(t),
            None => (String::new(), String::new()),
        };
        style.push_str(&text_style);
        attrs.push(("value", value));
        attrs.push(("style", style));
        attrs.push(("edge", "1".to_string()));
        let mut geometry = String::from("<mxGeometry relative=\"1\" as=\"geometry\">");
        for (end, key, point_name) in [
            (&c.from, "source", "sourcePoint"),
            (&c.to, "target", "targetPoint"),
        ] {
            let attached = self.attached(end, on_page);
            if let Some(id) = attached {
                attrs.push((key, id.to_string()));
            }
            if let Some(p) = end.point {
                let p = rel(p);
                geometry.push_str(&format!(
                    "<mxPoint x=\"{}\" y=\"{}\" as=\"{point_name}\"/>",
                    number_attr(p.x),
                    number_attr(p.y)
                ));
            } else if attached.is_none() {
                // Loose without a point: draw.io needs one; the page origin is all there is.
                geometry.push_str(&format!("<mxPoint x=\"0\" y=\"0\" as=\"{point_name}\"/>"));
            }
        }
        if !c.waypoints.is_empty() {
            geometry.push_str("<Array as=\"points\">");
            for p in &c.waypoints {
                let p = rel(*p);
                geometry.push_str(&format!(
                    "<mxPoint x=\"{}\" y=\"{}\"/>",
                    number_attr(p.x),
                    number_attr(p.y)
                ));
            }
            geometry.push_str("</Array>");
        }
        geometry.push_str("</mxGeometry>");
        Cell {
            attrs,
            wrapper: Vec::new(),
            geometry,
        }
    }

    /// The shape an end is attached to, when it is on this page.
    fn attached<'e>(&mut self, end: &'e End, on_page: &HashSet<&str>) -> Option<&'e str> {
        let id = end.shape.as_deref()?;
        if on_page.contains(id) {
            Some(id)
        } else {
            self.counts.cross_page_ends += 1;
            None
        }
    }

    fn write(&mut self, id: &str, parent: &str, cell: Cell) {
        let out = &mut self.out;
        out.push_str("        ");
        let wrapped = !cell.wrapper.is_empty();
        if wrapped {
            // The label and id move to the wrapper, as draw.io writes them.
            out.push_str("<UserObject label=\"");
            let value = cell
                .attrs
                .iter()
                .find(|(k, _)| *k == "value")
                .map(|(_, v)| v.as_str())
                .unwrap_or("");
            escape_attr(value, out);
            out.push('"');
            for (k, v) in &cell.wrapper {
                out.push_str(&format!(" {k}=\""));
                escape_attr(v, out);
                out.push('"');
            }
            out.push_str(" id=\"");
            escape_attr(id, out);
            out.push_str("\"><mxCell");
        } else {
            out.push_str("<mxCell id=\"");
            escape_attr(id, out);
            out.push('"');
        }
        for (k, v) in &cell.attrs {
            if wrapped && *k == "value" {
                continue;
            }
            out.push_str(&format!(" {k}=\""));
            escape_attr(v, out);
            out.push('"');
        }
        out.push_str(" parent=\"");
        escape_attr(parent, out);
        out.push_str("\">");
        out.push_str(&cell.geometry);
        out.push_str("</mxCell>");
        if wrapped {
            out.push_str("</UserObject>");
        }
        out.push('\n');
    }
}

/// The draw.io style a group drawn from a stencil keeps (see [`crate::vertex::STYLE_CLASS`]).
fn stencil_style(g: &quire_sdk::Group) -> Option<&str> {
    g.classes
        .iter()
        .find_map(|c| c.strip_prefix(crate::vertex::STYLE_CLASS))
}

fn number_attr(v: f64) -> String {
    number(v)
}
