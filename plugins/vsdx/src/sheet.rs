//! ShapeSheets: a shape's cells, sections and text as the part writes them, and the
//! inheritance Visio applies when a cell is not written: the master shape first, then the
//! line, fill or text style (and the styles those inherit from).

use std::collections::HashMap;

use crate::xml::Element;

#[derive(Debug, Clone, Default)]
pub struct Row {
    /// Row type for geometry rows (`MoveTo`, `LineTo`, ...).
    pub t: Option<String>,
    pub ix: Option<u32>,
    pub del: bool,
    pub cells: HashMap<String, String>,
}

#[derive(Debug, Clone, Default)]
pub struct Section {
    pub n: String,
    pub ix: Option<u32>,
    pub del: bool,
    pub cells: HashMap<String, String>,
    pub rows: Vec<Row>,
}

#[derive(Debug, Clone, Default)]
pub struct Sheet {
    pub id: u32,
    pub master: Option<u32>,
    pub master_shape: Option<u32>,
    pub line_style: Option<u32>,
    pub fill_style: Option<u32>,
    pub text_style: Option<u32>,
    pub cells: HashMap<String, String>,
    pub sections: Vec<Section>,
    /// Plain text of `<Text>`, when the shape writes one.
    pub text: Option<String>,
    /// Relationship id of `<ForeignData>` (an embedded picture).
    pub foreign: Option<(String, String)>,
    pub children: Vec<Sheet>,
}

fn num_attr(el: &Element, k: &str) -> Option<u32> {
    el.attr(k).and_then(|v| v.trim().parse().ok())
}

fn cells_of(el: &Element) -> HashMap<String, String> {
    el.children
        .iter()
        .filter(|c| c.name == "Cell")
        .filter_map(|c| {
            Some((
                c.attr("N")?.to_string(),
                c.attr("V").unwrap_or("").to_string(),
            ))
        })
        .collect()
}

fn section_of(el: &Element) -> Section {
    Section {
        n: el.attr("N").unwrap_or_default().to_string(),
        ix: num_attr(el, "IX"),
        del: el.attr("Del") == Some("1"),
        cells: cells_of(el),
        rows: el
            .children
            .iter()
            .filter(|r| r.name == "Row")
            .map(|r| Row {
                t: r.attr("T").map(str::to_string),
                ix: num_attr(r, "IX"),
                del: r.attr("Del") == Some("1"),
                cells: cells_of(r),
            })
            .collect(),
    }
}

/// Visio ends text with a paragraph mark and separates lines with U+2028 at times.
fn clean_text(t: &str) -> String {
    let t = t
        .replace("\r\n", "\n")
        .replace(['\r', '\u{2028}', '\u{2029}'], "\n");
    t.trim_end_matches('\n').to_string()
}

impl Sheet {
    /// A `<Shape>` element (or a `<StyleSheet>`, which has the same cells and sections).
    pub fn parse(el: &Element) -> Sheet {
        let mut s = Sheet {
            id: num_attr(el, "ID").unwrap_or(0),
            master: num_attr(el, "Master"),
            master_shape: num_attr(el, "MasterShape"),
            line_style: num_attr(el, "LineStyle"),
            fill_style: num_attr(el, "FillStyle"),
            text_style: num_attr(el, "TextStyle"),
            cells: cells_of(el),
            ..Sheet::default()
        };
        for c in &el.children {
            match c.name.as_str() {
                "Section" => s.sections.push(section_of(c)),
                "Text" => s.text = Some(clean_text(&c.text)),
                "ForeignData" => {
                    let rel = c
                        .child("Rel")
                        .and_then(|r| r.attr("r:id"))
                        .unwrap_or_default()
                        .to_string();
                    let kind = c.attr("ForeignType").unwrap_or_default().to_string();
                    s.foreign = Some((rel, kind));
                }
                "Shapes" => {
                    s.children = c
                        .children
                        .iter()
                        .filter(|k| k.name == "Shape")
                        .map(Sheet::parse)
                        .collect();
                }
                _ => {}
            }
        }
        s
    }

    pub fn section(&self, name: &str) -> Option<&Section> {
        self.sections.iter().find(|s| s.n == name)
    }
}

/// The part of a shape's look a cell belongs to, for style inheritance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Line,
    Fill,
    Text,
}

pub fn kind_of(cell: &str) -> Kind {
    if cell.starts_with("Line")
        || cell.starts_with("BeginArrow")
        || cell.starts_with("EndArrow")
        || cell == "Rounding"
    {
        Kind::Line
    } else if cell.starts_with("Fill") {
        Kind::Fill
    } else {
        Kind::Text
    }
}

/// The document's style sheets by id.
#[derive(Debug, Default)]
pub struct Styles {
    pub by_id: HashMap<u32, Sheet>,
}

impl Styles {
    /// The style sheets a cell of `kind` is looked up in, nearest first.
    fn chain(&self, start: Option<u32>, kind: Kind) -> Vec<&Sheet> {
        let mut out = Vec::new();
        let mut next = start;
        while let Some(id) = next {
            let Some(s) = self.by_id.get(&id) else { break };
            if out.iter().any(|o: &&Sheet| o.id == id) || out.len() > 32 {
                break;
            }
            out.push(s);
            next = match kind {
                Kind::Line => s.line_style,
                Kind::Fill => s.fill_style,
                Kind::Text => s.text_style,
            };
        }
        out
    }
}

/// A shape with what it inherits from.
pub struct Resolved<'a> {
    pub sheet: &'a Sheet,
    pub base: Option<&'a Sheet>,
    pub styles: &'a Styles,
}

impl<'a> Resolved<'a> {
    fn style_id(&self, kind: Kind) -> Option<u32> {
        let pick = |s: &Sheet| match kind {
            Kind::Line => s.line_style,
            Kind::Fill => s.fill_style,
            Kind::Text => s.text_style,
        };
        pick(self.sheet).or_else(|| self.base.and_then(pick))
    }

    /// The sheets a value is looked up in, nearest first.
    fn sources(&self, kind: Kind) -> Vec<&'a Sheet> {
        let mut out = vec![self.sheet];
        out.extend(self.base);
        out.extend(self.styles.chain(self.style_id(kind), kind));
        out
    }

    /// A cell's value (`V`) as written, inherited if not.
    pub fn cell(&self, name: &str) -> Option<&'a str> {
        self.sources(kind_of(name))
            .into_iter()
            .find_map(|s| s.cells.get(name))
            .map(String::as_str)
            .filter(|v| !v.is_empty())
    }

    /// A cell as a number, when it is one.
    pub fn num(&self, name: &str) -> Option<f64> {
        self.cell(name)
            .and_then(|v| v.trim().parse::<f64>().ok())
            .filter(|v| v.is_finite())
    }

    /// Whether the cell is written here or in the master (not only in a style).
    pub fn has_own(&self, name: &str) -> bool {
        self.sheet.cells.contains_key(name) || self.base.is_some_and(|b| b.cells.contains_key(name))
    }

    /// A cell of row 0 of an indexed section (`Character`, `Paragraph`), inherited.
    pub fn first_row_cell(&self, section: &str, cell: &str) -> Option<&'a str> {
        self.sources(Kind::Text).into_iter().find_map(|s| {
            s.section(section)?
                .rows
                .iter()
                .find(|r| r.ix.unwrap_or(0) == 0)?
                .cells
                .get(cell)
                .map(String::as_str)
                .filter(|v| !v.is_empty())
        })
    }

    pub fn text(&self) -> Option<&'a str> {
        self.sheet
            .text
            .as_deref()
            .or_else(|| self.base.and_then(|b| b.text.as_deref()))
    }

    /// Geometry sections after inheritance: the master's sections by index, overridden
    /// row by row by the shape's own, deleted where the shape says `Del`.
    pub fn geometry(&self) -> Vec<Section> {
        let own: Vec<&Section> = self
            .sheet
            .sections
            .iter()
            .filter(|s| s.n == "Geometry")
            .collect();
        let inherited: Vec<&Section> = self
            .base
            .map(|b| b.sections.iter().filter(|s| s.n == "Geometry").collect())
            .unwrap_or_default();
        let mut out: Vec<Section> = Vec::new();
        for m in &inherited {
            match own.iter().find(|o| o.ix == m.ix) {
                Some(o) if o.del => {}
                Some(o) => out.push(merge_section(m, o)),
                None => out.push((*m).clone()),
            }
        }
        for o in &own {
            if !o.del && !inherited.iter().any(|m| m.ix == o.ix) {
                out.push((*o).clone());
            }
        }
        out.sort_by_key(|s| s.ix.unwrap_or(0));
        out
    }
}

fn merge_section(base: &Section, own: &Section) -> Section {
    let mut s = base.clone();
    for (k, v) in &own.cells {
        s.cells.insert(k.clone(), v.clone());
    }
    for r in &own.rows {
        match s.rows.iter().position(|b| b.ix == r.ix && r.ix.is_some()) {
            Some(i) if r.del => {
                s.rows.remove(i);
            }
            Some(i) => {
                let row = &mut s.rows[i];
                if r.t.is_some() {
                    row.t = r.t.clone();
                }
                for (k, v) in &r.cells {
                    row.cells.insert(k.clone(), v.clone());
                }
            }
            None if !r.del => s.rows.push(r.clone()),
            None => {}
        }
    }
    s.rows.sort_by_key(|r| r.ix.unwrap_or(0));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xml::parse;

    fn sheet(xml: &str) -> Sheet {
        Sheet::parse(&parse(xml).unwrap())
    }

    #[test]
    fn cells_come_from_the_shape_then_the_master_then_the_style() {
        let master = sheet(
            "<Shape ID='5'><Cell N='Width' V='2'/><Cell N='LineWeight' V='0.02'/>\
             <Text>From master\n</Text></Shape>",
        );
        let shape = sheet("<Shape ID='1' Master='2' LineStyle='3'><Cell N='Width' V='3'/></Shape>");
        let mut styles = Styles::default();
        styles.by_id.insert(
            3,
            sheet(
                "<StyleSheet ID='3' LineStyle='4'><Cell N='LineColor' V='#ff0000'/></StyleSheet>",
            ),
        );
        styles.by_id.insert(
            4,
            sheet("<StyleSheet ID='4' LineStyle='3'><Cell N='LinePattern' V='2'/></StyleSheet>"),
        );
        let r = Resolved {
            sheet: &shape,
            base: Some(&master),
            styles: &styles,
        };
        assert_eq!(r.num("Width"), Some(3.0));
        assert_eq!(r.num("LineWeight"), Some(0.02));
        assert_eq!(r.cell("LineColor"), Some("#ff0000"));
        // Styles inheriting in a circle end.
        assert_eq!(r.cell("LinePattern"), Some("2"));
        assert_eq!(r.cell("FillForegnd"), None);
        assert_eq!(r.text(), Some("From master"));
    }

    #[test]
    fn geometry_rows_override_and_delete_by_index() {
        let master = sheet(
            "<Shape ID='5'><Section N='Geometry' IX='0'><Cell N='NoFill' V='0'/>\
             <Row T='MoveTo' IX='1'><Cell N='X' V='0'/><Cell N='Y' V='0'/></Row>\
             <Row T='LineTo' IX='2'><Cell N='X' V='1'/><Cell N='Y' V='0'/></Row>\
             <Row T='LineTo' IX='3'><Cell N='X' V='1'/><Cell N='Y' V='1'/></Row></Section>\
             <Section N='Geometry' IX='1'><Row T='MoveTo' IX='1'/></Section></Shape>",
        );
        let shape = sheet(
            "<Shape ID='1'><Section N='Geometry' IX='0'><Row T='LineTo' IX='2'><Cell N='X' V='5'/></Row>\
             <Row T='LineTo' IX='3' Del='1'/></Section><Section N='Geometry' IX='1' Del='1'/></Shape>",
        );
        let styles = Styles::default();
        let r = Resolved {
            sheet: &shape,
            base: Some(&master),
            styles: &styles,
        };
        let g = r.geometry();
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].rows.len(), 2);
        assert_eq!(g[0].rows[1].cells["X"], "5");
        assert_eq!(g[0].rows[1].cells["Y"], "0");
    }
}
