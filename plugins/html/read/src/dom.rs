//! The parsed page as the walk reads it, and which elements are blocks.

use ego_tree::NodeRef;
use scraper::Node;

pub type DomNode<'a> = NodeRef<'a, Node>;

/// Elements that start and end a block of their own but add nothing else.
pub const BLOCKS: &[&str] = &[
    "article", "aside", "body", "caption", "center", "dd", "details", "dialog", "dir", "div", "dl",
    "fieldset", "figure", "footer", "form", "header", "hgroup", "html", "legend", "main", "nav",
    "search", "section", "summary", "tbody", "tfoot", "thead", "tr",
];

/// Elements that start and end a block (a paragraph of their own).
pub fn is_block(name: &str) -> bool {
    BLOCKS.contains(&name)
        || matches!(
            name,
            "p" | "h1"
                | "h2"
                | "h3"
                | "h4"
                | "h5"
                | "h6"
                | "ul"
                | "ol"
                | "li"
                | "blockquote"
                | "pre"
                | "table"
                | "hr"
                | "dt"
                | "figcaption"
                | "address"
                | "td"
                | "th"
        )
}
