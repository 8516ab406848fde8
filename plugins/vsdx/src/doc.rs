//! The drawing's parts found through the package relationships: the document (style
//! sheets, colour table), the masters and the pages in order.

use std::collections::HashMap;

use quire_sdk::{Color, ConvertError};

use crate::package::Package;
use crate::sheet::{Sheet, Styles};
use crate::xml::Element;

pub struct PageInfo {
    /// The page's `ID`, which a foreground page's `BackPage` names.
    pub id: Option<u32>,
    pub name: String,
    pub width: f64,
    pub height: f64,
    pub background: bool,
    /// The background page drawn behind this one.
    pub back_page: Option<u32>,
    pub part: Option<String>,
}

pub struct Drawing {
    pub pages: Vec<PageInfo>,
    /// Master id -> its top-level shapes.
    pub masters: HashMap<u32, Vec<Sheet>>,
    pub styles: Styles,
    /// The document's colour table: index -> colour (cells may hold an index).
    pub colors: Vec<Color>,
}

/// Visio's default colour table, for indices the document does not list.
const DEFAULT_COLORS: [(u8, u8, u8); 24] = [
    (0, 0, 0),
    (255, 255, 255),
    (255, 0, 0),
    (0, 255, 0),
    (0, 0, 255),
    (255, 255, 0),
    (255, 0, 255),
    (0, 255, 255),
    (128, 0, 0),
    (0, 128, 0),
    (0, 0, 128),
    (128, 128, 0),
    (128, 0, 128),
    (0, 128, 128),
    (192, 192, 192),
    (230, 230, 230),
    (205, 205, 205),
    (179, 179, 179),
    (154, 154, 154),
    (128, 128, 128),
    (102, 102, 102),
    (77, 77, 77),
    (51, 51, 51),
    (26, 26, 26),
];

fn rel_of_type<'a>(rels: &'a HashMap<String, (String, String)>, suffix: &str) -> Option<&'a str> {
    rels.values()
        .find(|(t, _)| t.ends_with(suffix))
        .map(|(_, target)| target.as_str())
}

fn rel_id(el: &Element) -> Option<&str> {
    el.child("Rel").and_then(|r| r.attr("r:id"))
}

fn inches(sheet: Option<&Element>, cell: &str) -> Option<f64> {
    sheet?
        .children
        .iter()
        .find(|c| c.name == "Cell" && c.attr("N") == Some(cell))
        .and_then(|c| c.attr("V"))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|v| v.is_finite() && *v > 0.0)
}

pub fn load(pkg: &mut Package<'_>) -> Result<Drawing, ConvertError> {
    let root = pkg.rels("")?;
    let document_part = rel_of_type(&root, "/officeDocument")
        .map(str::to_string)
        .unwrap_or_else(|| "visio/document.xml".to_string());
    let Some(document) = pkg.xml(&document_part)? else {
        return Err(ConvertError::Unsupported(
            "this ZIP package is not a Visio drawing (it has no visio/document.xml)".into(),
        ));
    };
    if document.name != "VisioDocument" {
        return Err(ConvertError::Unsupported(format!(
            "this package's main part is <{}>, not a Visio document",
            document.name
        )));
    }
    let mut styles = Styles::default();
    if let Some(sheets) = document.child("StyleSheets") {
        for s in sheets.children.iter().filter(|c| c.name == "StyleSheet") {
            let sheet = Sheet::parse(s);
            styles.by_id.insert(sheet.id, sheet);
        }
    }
    let mut colors: Vec<Color> = DEFAULT_COLORS
        .iter()
        .map(|&(r, g, b)| Color::rgb(r, g, b))
        .collect();
    if let Some(table) = document.child("Colors") {
        for entry in table.children.iter().filter(|c| c.name == "ColorEntry") {
            let ix = entry.attr("IX").and_then(|v| v.parse::<usize>().ok());
            let rgb = entry.attr("RGB").and_then(Color::parse_hex);
            if let (Some(ix), Some(rgb)) = (ix, rgb) {
                if ix < 4096 {
                    if colors.len() <= ix {
                        colors.resize(ix + 1, Color::rgb(128, 128, 128));
                    }
                    colors[ix] = rgb;
                }
            }
        }
    }

    let doc_rels = pkg.rels(&document_part)?;
    let mut masters = HashMap::new();
    if let Some(masters_part) = rel_of_type(&doc_rels, "/masters").map(str::to_string) {
        if let Some(list) = pkg.xml(&masters_part)? {
            let rels = pkg.rels(&masters_part)?;
            for m in list.children.iter().filter(|c| c.name == "Master") {
                let id = m.attr("ID").and_then(|v| v.parse::<u32>().ok());
                let part = rel_id(m).and_then(|r| rels.get(r)).map(|(_, p)| p.clone());
                let (Some(id), Some(part)) = (id, part) else {
                    continue;
                };
                if let Some(contents) = pkg.xml(&part)? {
                    let shapes = contents
                        .child("Shapes")
                        .map(|s| {
                            s.children
                                .iter()
                                .filter(|c| c.name == "Shape")
                                .map(Sheet::parse)
                                .collect()
                        })
                        .unwrap_or_default();
                    masters.insert(id, shapes);
                }
            }
        }
    }

    let Some(pages_part) = rel_of_type(&doc_rels, "/pages").map(str::to_string) else {
        return Err(ConvertError::Damaged(
            "the Visio document lists no pages part".into(),
        ));
    };
    let Some(list) = pkg.xml(&pages_part)? else {
        return Err(ConvertError::Damaged(format!(
            "the pages part {pages_part} is missing"
        )));
    };
    let rels = pkg.rels(&pages_part)?;
    let pages = list
        .children
        .iter()
        .filter(|c| c.name == "Page")
        .map(|p| {
            let sheet = p.child("PageSheet");
            let number = |k: &str| p.attr(k).and_then(|v| v.trim().parse::<u32>().ok());
            PageInfo {
                id: number("ID"),
                name: p
                    .attr("Name")
                    .or(p.attr("NameU"))
                    .unwrap_or_default()
                    .to_string(),
                width: inches(sheet, "PageWidth").unwrap_or(8.5),
                height: inches(sheet, "PageHeight").unwrap_or(11.0),
                background: p.attr("Background") == Some("1"),
                back_page: number("BackPage"),
                part: rel_id(p).and_then(|r| rels.get(r)).map(|(_, t)| t.clone()),
            }
        })
        .collect::<Vec<_>>();
    if pages.is_empty() {
        return Err(ConvertError::Damaged("the drawing has no pages".into()));
    }
    Ok(Drawing {
        pages,
        masters,
        styles,
        colors,
    })
}

/// A colour cell: `#rrggbb`, or an index into the colour table.
pub fn color(v: &str, table: &[Color]) -> Option<Color> {
    let v = v.trim();
    if v.starts_with('#') {
        return Color::parse_hex(v);
    }
    let ix = v.parse::<f64>().ok()?;
    if ix >= 0.0 && ix.fract() == 0.0 {
        table.get(ix as usize).copied()
    } else {
        None
    }
}
