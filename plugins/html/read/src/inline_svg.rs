//! An inline `<svg>` of the page written back out as an SVG file, for the SVG reader to read
//! as a picture. The HTML parser has already put the element in the SVG namespace and fixed
//! the case of its names (`viewBox`, `linearGradient`); what is left is to write the tree
//! as XML: namespaces declared, text and attribute values escaped. A browser sizes an
//! `<svg>` without `width`, `height` or `viewBox` at 300 x 150 pixels, and so does this.

use ego_tree::iter::Edge;
use html5ever::ns;
use scraper::node::Element;
use scraper::Node;

use crate::dom::DomNode;

/// Largest SVG written out (the SVG reader refuses larger files anyway).
const MAX_BYTES: usize = quire_svg_read::MAX_BYTES;

/// The SVG file of `svg`, an `<svg>` element; `None` when it is larger than an SVG may be.
pub fn write(svg: DomNode<'_>) -> Option<String> {
    let mut out = String::new();
    for edge in svg.traverse() {
        match edge {
            Edge::Open(node) => match node.value() {
                Node::Element(e) => open_tag(&mut out, e, node.id() == svg.id()),
                Node::Text(t) => escape(&mut out, t, false),
                _ => {}
            },
            Edge::Close(node) => {
                if let Node::Element(e) = node.value() {
                    out.push_str("</");
                    out.push_str(e.name());
                    out.push('>');
                }
            }
        }
        if out.len() > MAX_BYTES {
            return None;
        }
    }
    Some(out)
}

fn open_tag(out: &mut String, e: &Element, root: bool) {
    out.push('<');
    out.push_str(e.name());
    if root {
        out.push_str(" xmlns=\"http://www.w3.org/2000/svg\"");
        out.push_str(" xmlns:xlink=\"http://www.w3.org/1999/xlink\"");
        let sized = |name: &str| e.attr(name).is_some_and(|v| !is_percentage(v));
        if !sized("width") && !sized("height") && e.attr("viewBox").is_none() {
            out.push_str(" width=\"300\" height=\"150\"");
        }
    }
    for (name, value) in e.attrs.iter() {
        // Namespace declarations are written above, once.
        if name.ns == ns!(xmlns) || (name.prefix.is_none() && &*name.local == "xmlns") {
            continue;
        }
        // A percentage of a box the picture does not have: the drawing's own size instead.
        if root && matches!(&*name.local, "width" | "height") && is_percentage(value) {
            continue;
        }
        out.push(' ');
        if let Some(prefix) = &name.prefix {
            out.push_str(prefix);
            out.push(':');
        }
        out.push_str(&name.local);
        out.push_str("=\"");
        escape(out, value, true);
        out.push('"');
    }
    out.push('>');
}

fn is_percentage(value: &str) -> bool {
    value.trim().ends_with('%')
}

fn escape(out: &mut String, text: &str, attribute: bool) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attribute => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn svg_of(html: &str) -> String {
        let doc = scraper::Html::parse_document(html);
        let svg = doc
            .tree
            .root()
            .descendants()
            .find(|n| matches!(n.value(), Node::Element(e) if e.name() == "svg"))
            .unwrap();
        write(svg).unwrap()
    }

    #[test]
    fn names_keep_their_svg_case_and_text_is_escaped() {
        let out = svg_of(
            r#"<p><SVG viewbox="0 0 10 10" xmlns="http://www.w3.org/2000/svg"><defs><lineargradient id="g"/></defs><use xlink:href="&#35;g"/><text>a &lt; b &amp; "c"</text></SVG></p>"#,
        );
        assert_eq!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" \
             viewBox=\"0 0 10 10\"><defs><linearGradient id=\"g\"></linearGradient></defs>\
             <use xlink:href=\"#g\"></use><text>a &lt; b &amp; \"c\"</text></svg>"
        );
        quire_svg_read::read_picture(out.into_bytes()).unwrap();
    }

    #[test]
    fn an_unsized_svg_is_300_by_150_as_in_a_browser() {
        let out = svg_of(r#"<svg width="100%"><circle r="5"/></svg>"#);
        assert!(out.starts_with(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" \
             width=\"300\" height=\"150\"><circle"
        ), "{out}");
    }
}
