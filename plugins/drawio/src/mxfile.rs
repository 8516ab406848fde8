//! Reading the file: an `<mxfile>` of `<diagram>` pages (each either a plain
//! `<mxGraphModel>` or its compressed form: base64 of raw deflate of the URI-encoded XML), a
//! bare `<mxGraphModel>`, or a draw.io SVG carrying the file in its `content` attribute. The
//! result is each page's cells, flat, as the file lists them.

use std::io::Read;

use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::Engine;
use quire_sdk::{ConvertError, Point};

use crate::xml::{self, Element, XmlError};

/// Inflated page XML summed over the file. Compressed pages expand about 5:1 and real
/// files are a few MiB at most; a bomb stops here.
pub const MAX_INFLATED: usize = 64 << 20;

/// Base64 as draw.io writes it, tolerant of missing padding.
pub const BASE64: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// One page of the file.
#[derive(Debug, Clone)]
pub struct Diagram {
    pub name: Option<String>,
    /// draw.io's page id, the target of `data:page/id,...` links.
    pub id: Option<String>,
    /// Page attributes of the `<mxGraphModel>`.
    pub page_size: Option<(f64, f64)>,
    /// `page="0"`: the page has no fixed size; it is the drawing's extent.
    pub pageless: bool,
    pub background: Option<String>,
    pub cells: Vec<Cell>,
}

#[derive(Debug, Clone, Default)]
pub struct Cell {
    pub id: String,
    pub parent: Option<String>,
    /// The label as written (HTML when the style says `html=1`), placeholders resolved.
    pub label: String,
    pub style: String,
    pub vertex: bool,
    pub edge: bool,
    pub source: Option<String>,
    pub target: Option<String>,
    pub visible: bool,
    pub geometry: Option<Geom>,
    /// A link of a wrapping `<object>` / `<UserObject>`.
    pub link: Option<String>,
}

#[derive(Debug, Clone, Default)]
pub struct Geom {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
    /// For vertices: x and y are fractions of the parent's size; for edge labels: the
    /// position along the edge.
    pub relative: bool,
    pub source_point: Option<Point>,
    pub target_point: Option<Point>,
    pub offset: Option<Point>,
    pub points: Vec<Point>,
}

/// Coordinates beyond this are clamped: they can only come from a broken or hostile file,
/// and unbounded values would overflow the page arithmetic.
const MAX_COORD: f64 = 1.0e6;

fn num(el: &Element, key: &str) -> f64 {
    el.attr(key)
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|v| v.is_finite())
        .map(|v| v.clamp(-MAX_COORD, MAX_COORD))
        .unwrap_or(0.0)
}

fn point(el: &Element) -> Point {
    Point {
        x: num(el, "x"),
        y: num(el, "y"),
    }
}

fn geometry(el: &Element) -> Geom {
    let mut g = Geom {
        x: num(el, "x"),
        y: num(el, "y"),
        w: num(el, "width").max(0.0),
        h: num(el, "height").max(0.0),
        relative: el.attr("relative") == Some("1"),
        ..Geom::default()
    };
    for child in &el.children {
        match (child.name.as_str(), child.attr("as")) {
            ("mxPoint", Some("sourcePoint")) => g.source_point = Some(point(child)),
            ("mxPoint", Some("targetPoint")) => g.target_point = Some(point(child)),
            ("mxPoint", Some("offset")) => g.offset = Some(point(child)),
            ("Array", Some("points")) => {
                g.points = child
                    .children
                    .iter()
                    .filter(|p| p.name == "mxPoint")
                    .map(point)
                    .collect();
            }
            _ => {}
        }
    }
    g
}

/// Replaces `%name%` in a label by the wrapper's attribute `name`, as draw.io does for
/// `placeholders="1"`. Unknown names stay as written; `%%` is a literal percent sign.
fn fill_placeholders(label: &str, attrs: &[(String, String)]) -> String {
    let mut out = String::with_capacity(label.len());
    let mut rest = label;
    while let Some((before, after)) = rest.split_once('%') {
        out.push_str(before);
        match after.split_once('%') {
            Some(("", tail)) => {
                out.push('%');
                rest = tail;
            }
            Some((name, tail)) => {
                let known = !name.contains(char::is_whitespace)
                    && !matches!(name, "label" | "placeholders");
                match attrs.iter().find(|(k, _)| k == name).filter(|_| known) {
                    Some((_, v)) => {
                        out.push_str(v);
                        rest = tail;
                    }
                    None => {
                        out.push('%');
                        rest = after;
                    }
                }
            }
            None => {
                out.push('%');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn cell_of(el: &Element) -> Option<Cell> {
    let (wrapper, cell) = if el.name == "mxCell" {
        (None, el)
    } else {
        (Some(el), el.child("mxCell")?)
    };
    let attr = |k: &str| {
        wrapper
            .and_then(|w| w.attr(k))
            .or_else(|| cell.attr(k))
            .map(str::to_string)
    };
    let flag = |k: &str| cell.attr(k) == Some("1");
    let mut label = match wrapper {
        Some(w) => w.attr("label").unwrap_or_default().to_string(),
        None => cell.attr("value").unwrap_or_default().to_string(),
    };
    if let Some(w) = wrapper.filter(|w| w.attr("placeholders") == Some("1")) {
        label = fill_placeholders(&label, &w.attrs);
    }
    Some(Cell {
        id: attr("id").unwrap_or_default(),
        parent: cell.attr("parent").map(str::to_string),
        label,
        style: cell.attr("style").unwrap_or_default().to_string(),
        vertex: flag("vertex"),
        edge: flag("edge"),
        source: cell.attr("source").map(str::to_string),
        target: cell.attr("target").map(str::to_string),
        visible: cell.attr("visible") != Some("0"),
        geometry: cell.child("mxGeometry").map(geometry),
        link: wrapper.and_then(|w| w.attr("link")).map(str::to_string),
    })
}

fn diagram_of(name: Option<String>, model: Option<&Element>) -> Diagram {
    let Some(model) = model else {
        return Diagram {
            name,
            id: None,
            page_size: None,
            pageless: false,
            background: None,
            cells: Vec::new(),
        };
    };
    let size = (num(model, "pageWidth"), num(model, "pageHeight"));
    let cells = model
        .child("root")
        .map(|root| root.children.iter().filter_map(cell_of).collect())
        .unwrap_or_default();
    Diagram {
        name,
        id: None,
        page_size: (size.0 > 0.0 && size.1 > 0.0).then_some(size),
        pageless: model.attr("page") == Some("0"),
        background: model.attr("background").map(str::to_string),
        cells,
    }
}

/// Decodes a compressed payload: base64, then raw deflate (zlib as a fallback), then URI
/// decoding when the result is not XML already. `budget` is what may still be inflated.
pub fn decompress(payload: &str, budget: &mut usize) -> Result<String, String> {
    let compact: String = payload.chars().filter(|c| !c.is_whitespace()).collect();
    let deflated = BASE64
        .decode(compact.as_bytes())
        .map_err(|e| format!("its base64 is damaged ({e})"))?;
    let inflated = inflate(&deflated, budget)?;
    let text = String::from_utf8(inflated).map_err(|_| "it is not UTF-8 text".to_string())?;
    if text.trim_start().starts_with('<') {
        return Ok(text);
    }
    percent_encoding::percent_decode_str(&text)
        .decode_utf8()
        .map(|s| s.into_owned())
        .map_err(|_| "its URI encoding is not UTF-8".to_string())
}

fn inflate(data: &[u8], budget: &mut usize) -> Result<Vec<u8>, String> {
    let limit = *budget as u64;
    let read_all = |reader: &mut dyn Read| -> std::io::Result<Vec<u8>> {
        let mut out = Vec::new();
        reader.take(limit + 1).read_to_end(&mut out)?;
        Ok(out)
    };
    let out = read_all(&mut flate2::read::DeflateDecoder::new(data))
        .or_else(|_| read_all(&mut flate2::read::ZlibDecoder::new(data)))
        .map_err(|e| format!("it does not inflate ({e})"))?;
    if out.len() as u64 > limit {
        return Err(format!(
            "it inflates to more than {} MiB",
            MAX_INFLATED >> 20
        ));
    }
    *budget -= out.len();
    Ok(out)
}

fn xml_error(e: XmlError, what: &str) -> ConvertError {
    match e {
        XmlError::TooBig(s) => ConvertError::TooLarge(format!("{what}: {s}")),
        XmlError::Syntax(s) => ConvertError::Damaged(format!("{what} is not well-formed XML: {s}")),
    }
}

/// The text of the file: UTF-8 (a byte-order mark is dropped) or UTF-16 with a mark.
pub fn decode_text(bytes: &[u8]) -> Result<String, ConvertError> {
    if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        return decode_text(rest);
    }
    let utf16 = |be: bool, rest: &[u8]| {
        let units: Vec<u16> = rest
            .chunks_exact(2)
            .map(|c| {
                if be {
                    u16::from_be_bytes([c[0], c[1]])
                } else {
                    u16::from_le_bytes([c[0], c[1]])
                }
            })
            .collect();
        String::from_utf16(&units)
            .map_err(|_| ConvertError::Damaged("the UTF-16 text is damaged".into()))
    };
    if let Some(rest) = bytes.strip_prefix(b"\xFF\xFE") {
        return utf16(false, rest);
    }
    if let Some(rest) = bytes.strip_prefix(b"\xFE\xFF") {
        return utf16(true, rest);
    }
    String::from_utf8(bytes.to_vec()).map_err(|_| {
        ConvertError::Unsupported("this is not a draw.io file: it is not UTF-8 text".into())
    })
}

/// Whether the text looks like something draw.io wrote, before it is parsed.
pub fn looks_like_drawio(text: &str) -> bool {
    let head: String = text.chars().take(4096).collect();
    ["<mxfile", "<mxGraphModel", "<diagram", "<mxlibrary"]
        .iter()
        .any(|tag| head.contains(tag))
}

/// Reads every page of the file.
pub fn read(text: &str) -> Result<Vec<Diagram>, ConvertError> {
    read_nested(text, 0)
}

fn read_nested(text: &str, depth: usize) -> Result<Vec<Diagram>, ConvertError> {
    if !text.trim_start().starts_with('<') {
        return Err(ConvertError::Unsupported(
            "this is not a draw.io file: it is not XML".into(),
        ));
    }
    let root = xml::parse(text).map_err(|e| match e {
        XmlError::Syntax(_) if !looks_like_drawio(text) => ConvertError::Unsupported(
            "this is not a draw.io file: it is not well-formed XML".into(),
        ),
        e => xml_error(e, "the file"),
    })?;
    let mut budget = MAX_INFLATED;
    match root.name.as_str() {
        "mxfile" => {
            let diagrams: Vec<&Element> = root
                .children
                .iter()
                .filter(|c| c.name == "diagram")
                .collect();
            if diagrams.is_empty() {
                return Err(ConvertError::Damaged(
                    "the <mxfile> holds no <diagram> page".into(),
                ));
            }
            diagrams
                .into_iter()
                .enumerate()
                .map(|(i, d)| read_diagram(d, i + 1, &mut budget))
                .collect()
        }
        "diagram" => Ok(vec![read_diagram(&root, 1, &mut budget)?]),
        "mxGraphModel" => Ok(vec![diagram_of(None, Some(&root))]),
        "mxlibrary" => Err(ConvertError::Refused {
            kind: "mxlibrary".into(),
            detail: "this is a draw.io shape library (<mxlibrary>), not a diagram; open it \
                     in draw.io as a library, or send a diagram"
                .into(),
        }),
        "svg" if depth == 0 => match root.attr("content") {
            Some(content) if looks_like_drawio(content) => read_nested(content, depth + 1),
            Some(content) => {
                let inner = decompress(content, &mut budget).map_err(|e| {
                    ConvertError::Damaged(format!("the SVG's draw.io content is damaged: {e}"))
                })?;
                read_nested(&inner, depth + 1)
            }
            None => Err(ConvertError::Unsupported(
                "this SVG carries no draw.io diagram".into(),
            )),
        },
        other => Err(ConvertError::Unsupported(format!(
            "this is not a draw.io file: its root element is <{other}>"
        ))),
    }
}

fn read_diagram(d: &Element, number: usize, budget: &mut usize) -> Result<Diagram, ConvertError> {
    let mut diagram = read_diagram_model(d, number, budget)?;
    diagram.id = d.attr("id").map(str::to_string);
    Ok(diagram)
}

fn read_diagram_model(
    d: &Element,
    number: usize,
    budget: &mut usize,
) -> Result<Diagram, ConvertError> {
    let name = d.attr("name").map(str::to_string);
    if let Some(model) = d.child("mxGraphModel") {
        return Ok(diagram_of(name, Some(model)));
    }
    let payload = d.text.trim();
    if payload.is_empty() {
        return Ok(diagram_of(name, None));
    }
    let what = format!("page {number}'s compressed diagram");
    let text = decompress(payload, budget).map_err(|e| {
        if e.contains("MiB") {
            ConvertError::TooLarge(format!("{what}: {e}"))
        } else {
            ConvertError::Damaged(format!("{what} could not be read: {e}"))
        }
    })?;
    let model = xml::parse(&text).map_err(|e| xml_error(e, &what))?;
    if model.name != "mxGraphModel" {
        return Err(ConvertError::Damaged(format!(
            "{what} holds <{}> where <mxGraphModel> belongs",
            model.name
        )));
    }
    Ok(diagram_of(name, Some(&model)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_take_wrapper_attributes() {
        let attrs = vec![("c4Name".to_string(), "Shop".to_string())];
        assert_eq!(
            fill_placeholders("<b>%c4Name%</b> 100%% %nope% 5%", &attrs),
            "<b>Shop</b> 100% %nope% 5%"
        );
        let attrs = vec![("n\u{e9}".to_string(), "\u{65e5}".to_string())];
        assert_eq!(
            fill_placeholders("\u{e9}%n\u{e9}%\u{fc}%%\u{1f3a8}%\u{e9}", &attrs),
            "\u{e9}\u{65e5}\u{fc}%\u{1f3a8}%\u{e9}"
        );
    }

    #[test]
    fn compressed_pages_round_trip() {
        let xml = "<mxGraphModel><root><mxCell id=\"0\"/></root></mxGraphModel>";
        let encoded: String =
            percent_encoding::utf8_percent_encode(xml, percent_encoding::NON_ALPHANUMERIC)
                .to_string();
        let mut enc =
            flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
        std::io::Write::write_all(&mut enc, encoded.as_bytes()).unwrap();
        let payload = BASE64.encode(enc.finish().unwrap());
        let mut budget = MAX_INFLATED;
        assert_eq!(decompress(&payload, &mut budget).unwrap(), xml);
        assert_eq!(budget, MAX_INFLATED - encoded.len());
        let mut small = 10;
        assert!(decompress(&payload, &mut small)
            .unwrap_err()
            .contains("MiB"));
    }

    #[test]
    fn sorts_out_what_is_not_a_diagram() {
        assert!(matches!(read("hello"), Err(ConvertError::Unsupported(_))));
        assert!(matches!(
            read("<html><body/></html>"),
            Err(ConvertError::Unsupported(_))
        ));
        assert!(matches!(
            read("<mxfile><diagram>"),
            Err(ConvertError::Damaged(_))
        ));
        assert!(matches!(
            read("<mxlibrary>[]</mxlibrary>"),
            Err(ConvertError::Refused { .. })
        ));
        assert!(matches!(
            read("<mxfile><diagram>!!notbase64</diagram></mxfile>"),
            Err(ConvertError::Damaged(_))
        ));
    }
}
