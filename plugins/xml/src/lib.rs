//! A small element tree over quick-xml events, shared by the draw.io and Visio importers.
//! Both read their XML whole (draw.io cells refer to each other by id in any order, Visio
//! shapes inherit from masters and styles found elsewhere), so a tree is the natural shape;
//! the limits keep a hostile file from nesting or multiplying elements without bound.
//!
//! Text can keep its order through inline elements ([`parse_with_inline`]): the text of
//! such an element (Visio's `<fld>`, a field's shown value) is also appended to its
//! parent's text where it stands.

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

/// Elements nested deeper than this are refused: real files nest a few levels deep.
pub const MAX_DEPTH: usize = 256;
/// More elements than this in one XML text are refused (each cell is two or three).
pub const MAX_ELEMENTS: usize = 2_000_000;

#[derive(Debug, Clone, Default)]
pub struct Element {
    pub name: String,
    pub attrs: Vec<(String, String)>,
    pub children: Vec<Element>,
    /// Character data directly inside this element, references resolved.
    pub text: String,
}

impl Element {
    pub fn attr(&self, key: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    pub fn child(&self, name: &str) -> Option<&Element> {
        self.children.iter().find(|c| c.name == name)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum XmlError {
    /// Not well-formed; the sentence says where.
    Syntax(String),
    /// Deeper or bigger than the limits above.
    TooBig(String),
}

impl std::fmt::Display for XmlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            XmlError::Syntax(s) | XmlError::TooBig(s) => f.write_str(s),
        }
    }
}

fn element_of(start: &BytesStart<'_>, at: u64) -> Result<Element, XmlError> {
    let name = start.name().as_ref().to_string();
    let mut attrs = Vec::new();
    for attr in start.attributes() {
        let attr =
            attr.map_err(|e| XmlError::Syntax(format!("bad attribute at byte {at}: {e}")))?;
        let key = attr.key.as_ref().to_string();
        let value = attr
            .normalized_value(quick_xml::XmlVersion::Implicit1_0)
            .map_err(|e| XmlError::Syntax(format!("bad attribute `{key}` at byte {at}: {e}")))?
            .into_owned();
        attrs.push((key, value));
    }
    Ok(Element {
        name,
        attrs,
        children: Vec::new(),
        text: String::new(),
    })
}

/// Parses `text` into its root element. Comments, processing instructions and the doctype
/// are skipped; entities other than the five predefined ones are an error (no DTDs).
pub fn parse(text: &str) -> Result<Element, XmlError> {
    parse_with_inline(text, &[])
}

/// [`parse`], where the text of the elements named in `inline` also belongs to their
/// parent's text.
pub fn parse_with_inline(text: &str, inline: &[&str]) -> Result<Element, XmlError> {
    let mut reader = Reader::from_str(text);
    reader.config_mut().check_end_names = true;
    let mut stack: Vec<Element> = Vec::new();
    let mut root: Option<Element> = None;
    let mut count = 0usize;
    loop {
        let at = reader.buffer_position();
        let event = reader
            .read_event()
            .map_err(|e| XmlError::Syntax(format!("at byte {at}: {e}")))?;
        match event {
            Event::Start(_) | Event::Empty(_) if root.is_some() => {
                return Err(XmlError::Syntax(format!(
                    "content after the root element at byte {at}"
                )));
            }
            Event::Start(s) => {
                count += 1;
                if count > MAX_ELEMENTS {
                    return Err(XmlError::TooBig(format!(
                        "more than {MAX_ELEMENTS} XML elements"
                    )));
                }
                if stack.len() >= MAX_DEPTH {
                    return Err(XmlError::TooBig(format!(
                        "XML elements nest deeper than {MAX_DEPTH}"
                    )));
                }
                stack.push(element_of(&s, at)?);
            }
            Event::Empty(s) => {
                count += 1;
                if count > MAX_ELEMENTS {
                    return Err(XmlError::TooBig(format!(
                        "more than {MAX_ELEMENTS} XML elements"
                    )));
                }
                let el = element_of(&s, at)?;
                match stack.last_mut() {
                    Some(parent) => parent.children.push(el),
                    None => root = Some(el),
                }
            }
            Event::End(_) => {
                let el = stack
                    .pop()
                    .ok_or_else(|| XmlError::Syntax(format!("stray end tag at byte {at}")))?;
                match stack.last_mut() {
                    Some(parent) => {
                        if inline.contains(&el.name.as_str()) {
                            parent.text.push_str(&el.text);
                        }
                        parent.children.push(el)
                    }
                    None => root = Some(el),
                }
            }
            Event::Text(t) => {
                if let Some(top) = stack.last_mut() {
                    top.text.push_str(&t.xml10_content());
                } else if !t.trim().is_empty() {
                    return Err(XmlError::Syntax(format!(
                        "text outside the root element at byte {at}"
                    )));
                }
            }
            Event::CData(t) => {
                if let Some(top) = stack.last_mut() {
                    top.text.push_str(&t.xml10_content());
                }
            }
            Event::GeneralRef(r) => {
                let ch = match r.resolve_char_ref() {
                    Ok(Some(c)) => c.to_string(),
                    Ok(None) => quick_xml::escape::resolve_predefined_entity(&r)
                        .ok_or_else(|| {
                            XmlError::Syntax(format!("unknown entity `&{};` at byte {at}", &*r))
                        })?
                        .to_string(),
                    Err(e) => return Err(XmlError::Syntax(format!("at byte {at}: {e}"))),
                };
                if let Some(top) = stack.last_mut() {
                    top.text.push_str(&ch);
                }
            }
            Event::Eof => break,
            Event::Comment(_) | Event::Decl(_) | Event::PI(_) | Event::DocType(_) => {}
        }
    }
    if !stack.is_empty() {
        return Err(XmlError::Syntax(format!(
            "the XML ends inside <{}>",
            stack.last().map(|e| e.name.as_str()).unwrap_or("?")
        )));
    }
    root.ok_or_else(|| XmlError::Syntax("there is no root element".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_attributes_text_and_references() {
        let el = parse(
            "<?xml version=\"1.0\"?><a x=\"1&amp;2&#10;3\"><!-- c --><b/>t&lt;u<![CDATA[<v>]]></a>",
        )
        .unwrap();
        assert_eq!(el.name, "a");
        assert_eq!(el.attr("x"), Some("1&2\n3"));
        assert_eq!(el.children.len(), 1);
        assert_eq!(el.text, "t<u<v>");
        let t = parse_with_inline(
            "<Text><cp IX='0'/>Total: <fld IX='0'>42</fld> items</Text>",
            &["fld"],
        )
        .unwrap();
        assert_eq!(t.text, "Total: 42 items");
    }

    #[test]
    fn refuses_malformed_and_deep_input() {
        assert!(matches!(parse("<a><b></a>"), Err(XmlError::Syntax(_))));
        assert!(matches!(parse("<a>&bogus;</a>"), Err(XmlError::Syntax(_))));
        assert!(matches!(parse("<a/><b/>"), Err(XmlError::Syntax(_))));
        assert!(matches!(parse(""), Err(XmlError::Syntax(_))));
        let deep = "<a>".repeat(MAX_DEPTH + 1);
        assert!(matches!(parse(&deep), Err(XmlError::TooBig(_))));
    }
}
