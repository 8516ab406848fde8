//! What a file's name and first bytes say about its format, where the client did not name
//! it: multipart uploads named only by their file name, bodies sent as generic XML, and
//! `quire convert`, which goes by the extension.

/// The drawio importer's media type, which `.xml` files saved by draw.io are.
const DRAWIO: &str = "application/vnd.jgraph.mxfile";
const SVG: &str = "image/svg+xml";
/// How far into an XML file its root element is looked for (past a declaration, comments
/// and a doctype).
const ROOT_SEARCH: usize = 64 << 10;

/// The extension an importer declares for `ext` (lower case, no dot): common other
/// spellings (`.jpeg`, `.markdown`, `.htm`) become the declared one.
pub fn canonical_extension(ext: &str) -> String {
    let ext = ext.to_ascii_lowercase();
    match ext.as_str() {
        "jpeg" | "jpe" | "jfif" => "jpg".into(),
        "markdown" | "mdown" | "mkd" => "md".into(),
        "htm" | "xhtml" => "html".into(),
        "mermaid" => "mmd".into(),
        "dio" => "drawio".into(),
        _ => ext,
    }
}

/// Whether `media_type` (or an extension) says only "XML", which draw.io files and SVG
/// pictures both are.
pub fn is_generic_xml(media_type_or_ext: &str) -> bool {
    matches!(
        media_type_or_ext.trim().to_ascii_lowercase().as_str(),
        "xml" | "application/xml" | "text/xml"
    )
}

/// The format of an XML file by its root element: a draw.io file (`<mxfile>`, or a bare
/// `<mxGraphModel>` as draw.io's "export as XML" writes it) or an SVG picture.
pub fn sniff_xml(bytes: &[u8]) -> Option<&'static str> {
    let head = &bytes[..bytes.len().min(ROOT_SEARCH)];
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let text = String::from_utf8_lossy(head);
    let mut rest = text.as_ref();
    loop {
        rest = rest.trim_start();
        if let Some(after) = rest.strip_prefix("<?") {
            rest = after.split_once("?>")?.1;
        } else if let Some(after) = rest.strip_prefix("<!--") {
            rest = after.split_once("-->")?.1;
        } else if let Some(after) = rest.strip_prefix("<!") {
            // A doctype; SVG 1.1's may hold an internal subset in brackets.
            let end = match (after.find('['), after.find('>')) {
                (Some(open), Some(close)) if open < close => {
                    after[open..].find("]>").map(|i| open + i + 1)?
                }
                (_, Some(close)) => close,
                _ => return None,
            };
            rest = &after[end + 1..];
        } else {
            break;
        }
    }
    let name: String = rest
        .strip_prefix('<')?
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != '>' && *c != '/')
        .collect();
    // A prefixed root (`<svg:svg>`) names its local part last.
    match name.rsplit(':').next()? {
        "mxfile" | "mxGraphModel" => Some(DRAWIO),
        "svg" => Some(SVG),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_root_element_names_the_format_past_declarations_comments_and_doctypes() {
        assert_eq!(
            sniff_xml(b"\xEF\xBB\xBF<?xml version=\"1.0\"?>\n<!-- x -->\n<mxfile host=\"app\">"),
            Some(DRAWIO)
        );
        assert_eq!(sniff_xml(b"<mxGraphModel dx=\"1\"><root/>"), Some(DRAWIO));
        let svg = b"<?xml version=\"1.0\"?><!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \
            \"x.dtd\" [<!ENTITY a \"b\">]><svg xmlns=\"http://www.w3.org/2000/svg\"/>";
        assert_eq!(sniff_xml(svg), Some(SVG));
        assert_eq!(sniff_xml(b"<svg:svg xmlns:svg=\"...\">"), Some(SVG));
        assert_eq!(sniff_xml(b"<?xml version=\"1.0\"?><rss>"), None);
        assert_eq!(sniff_xml(b"<!-- never closed"), None);
        assert_eq!(sniff_xml(b""), None);
    }

    #[test]
    fn other_spellings_of_an_extension_are_the_declared_one() {
        assert_eq!(canonical_extension("JPEG"), "jpg");
        assert_eq!(canonical_extension("Markdown"), "md");
        assert_eq!(canonical_extension("drawio"), "drawio");
        assert!(is_generic_xml("XML") && is_generic_xml("text/xml"));
        assert!(!is_generic_xml("image/svg+xml"));
    }
}
