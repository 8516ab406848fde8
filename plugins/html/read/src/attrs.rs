//! What an element says about the text inside it besides its name: its language (`lang`,
//! `xml:lang`), its direction (`dir`, `<bdi>`, `<bdo>`) and its font (`style="font-family:
//! …"`, `<font face>`). All three are inherited: the builder keeps a stack of each, and every
//! inline takes the innermost.
//!
//! - `lang` goes to the run when it is not the document's (`<html lang>`), so a `<span
//!   lang="ja">` in a Chinese page is drawn with Japanese glyph forms.
//! - `dir` on a block element (`<p>`, `<div>`, `<td>`, `<html>`, `<body>` …) is the base
//!   direction of the paragraphs inside (`auto`: each one's first strong letter); on an
//!   inline element it isolates its content as a browser does (RLI/LRI/FSI … PDI), and `<bdo
//!   dir>` overrides the direction of every letter inside (RLO/LRO … PDF). The controls are
//!   invisible characters of the text that the layout's bidi pass reads.
//! - A family list maps to the first family we draw with: the generic `serif`,
//!   `sans-serif`, `monospace`, `system-ui`, well-known names (Times New Roman, Georgia ->
//!   Times; Arial, Verdana -> Helvetica; Courier New, Consolas -> Courier) and names that say
//!   `Mono`, `Sans` or `Serif`. A list with none of those changes nothing. Style sheets are
//!   not read.

use quire_sdk::flow::FontSize;
use quire_sdk::model::{Align, Direction, FontFamily};
use scraper::node::Element;

use crate::builder::Builder;
use crate::css_values::{family_list, generic_name, parse_align};
use crate::dom::{is_block, DomNode};
use crate::sheet::Decoration;

/// What entering an element pushed, to be popped on leaving it.
#[derive(Default)]
pub struct Scope {
    lang: bool,
    font: bool,
    /// What the style sheets set here ([`crate::sheet`]): a colour, bold, italic, a family.
    color: bool,
    bold: bool,
    italic: bool,
    sheet_font: bool,
    align: bool,
    size: bool,
    dir: bool,
    case: bool,
    decoration: bool,
    /// The control that closes an isolate or override opened on entering.
    close: Option<char>,
}

const RLI: char = '\u{2067}';
const LRI: char = '\u{2066}';
const FSI: char = '\u{2068}';
const PDI: char = '\u{2069}';
const RLO: char = '\u{202E}';
const LRO: char = '\u{202D}';
const PDF: char = '\u{202C}';

/// `dir`'s value: `Some(None)` for `auto`, `None` when absent or not a direction.
fn dir_attr(e: &Element) -> Option<Option<Direction>> {
    direction(e.attr("dir")?)
}

fn direction(value: &str) -> Option<Option<Direction>> {
    match value.trim().to_ascii_lowercase().as_str() {
        "rtl" => Some(Some(Direction::Rtl)),
        "ltr" => Some(Some(Direction::Ltr)),
        "auto" => Some(None),
        _ => None,
    }
}

/// The element's `lang` (or `xml:lang`), when it is a language tag.
pub fn lang_attr(e: &Element) -> Option<&str> {
    e.attr("lang")
        .or_else(|| e.attr("xml:lang"))
        .map(str::trim)
        .filter(|l| quire_sdk::validate::is_language_tag(l))
}

/// An attribute this module reads, as the parser keeps it on formatting elements (whose
/// other attributes it drops): in a canonical form, so that few distinct sets arise; none
/// for an attribute not read here or a value that says nothing we use.
pub fn canonical(name: &str, value: &str) -> Option<String> {
    let value = value.trim();
    match name {
        "lang" | "xml:lang" => {
            quire_sdk::validate::is_language_tag(value).then(|| value.to_string())
        }
        "dir" => direction(value).map(|_| value.to_ascii_lowercase()),
        "face" => family_list(value).map(|f| generic_name(f).to_string()),
        "size" => font_level(value).map(|level| level.to_string()),
        // What the style sheets' cascade reads of it (colour, weight, family, ...).
        "style" => crate::sheet::canonical_style(value),
        // Class names, for the style sheets' selectors: a few distinct lists per page at
        // most (the parser's bound), each bounded here.
        "class" => {
            let mut names: Vec<&str> = value.split_ascii_whitespace().collect();
            names.sort_unstable();
            names.dedup();
            let list = names.join(" ");
            (!list.is_empty() && list.len() <= MAX_CLASS_LIST).then_some(list)
        }
        _ => None,
    }
}

/// The longest class list a formatting element keeps.
const MAX_CLASS_LIST: usize = 128;

/// The family `<font face>` asks for (a `font-family` in a `style` reaches the cascade).
fn font_attr(e: &Element) -> Option<FontFamily> {
    (e.name() == "font")
        .then(|| e.attr("face").and_then(family_list))
        .flatten()
}

/// The size `<font size>` asks for, as HTML maps its levels to CSS's size keywords.
fn font_size_attr(e: &Element) -> Option<FontSize> {
    const PX: [f64; 7] = [10.0, 13.0, 16.0, 18.0, 24.0, 32.0, 48.0];
    let level = (e.name() == "font").then(|| e.attr("size").and_then(font_level))??;
    Some(FontSize::Points(PX[level as usize - 1] * 0.75))
}

/// The level of a `<font size>`: 1 to 7 (3 is the browser's `medium`), or a step up or down
/// from 3 (`+1`, `-2`), kept within 1 to 7.
fn font_level(value: &str) -> Option<u8> {
    let value = value.trim();
    let number = |digits: &str| digits.trim().parse::<i8>().ok().map(i32::from);
    let level = if let Some(up) = value.strip_prefix('+') {
        3 + number(up)?
    } else if let Some(down) = value.strip_prefix('-') {
        3 - number(down)?
    } else {
        number(value)?
    };
    Some(level.clamp(1, 7) as u8)
}

impl Builder<'_> {
    /// Pushes what `e` says about its text; [`leave`](Self::leave) pops it.
    pub fn enter(&mut self, node: DomNode<'_>, e: &Element) -> Scope {
        let mut scope = Scope::default();
        let text = self.cascade.text_style(node.id());
        // A block's alignment: the style sheets', else its `align`, else `<center>`'s.
        if is_block(e.name()) || e.name() == "center" {
            let align = text
                .and_then(|t| t.align)
                // (A table's `align` places the table, not its text.)
                .or_else(|| {
                    (e.name() != "table")
                        .then(|| e.attr("align").and_then(parse_align))
                        .flatten()
                })
                .or((e.name() == "center").then_some(Align::Center));
            if let Some(align) = align {
                self.style.aligns.push(align);
                scope.align = true;
            }
        }
        if let Some(text) = text {
            if let Some(color) = text.color {
                self.style.colors.push(color);
                scope.color = true;
            }
            if let Some(family) = text.family {
                self.style.fonts.push(family);
                scope.sheet_font = true;
            }
            if text.bold {
                self.style.bold += 1;
                scope.bold = true;
            }
            if text.italic {
                self.style.italic += 1;
                scope.italic = true;
            }
            if let Some(case) = text.case {
                self.style.cases.push(case);
                scope.case = true;
            }
        }
        // `<u>` and `<ins>` underline as browsers draw them, unless the style sheets say
        // otherwise.
        let decoration = text.and_then(|t| t.decoration).or_else(|| {
            matches!(e.name(), "u" | "ins").then_some(Decoration {
                underline: true,
                strike: false,
            })
        });
        if let Some(decoration) = decoration {
            self.style.decorations.push(decoration);
            scope.decoration = true;
        }
        let declared = text.and_then(|t| t.size).or_else(|| font_size_attr(e));
        if let Some(size) = self.font_size(e.name(), declared) {
            self.style.sizes.push(size);
            scope.size = true;
        }
        if let Some(lang) = lang_attr(e) {
            self.style.langs.push(lang.to_string());
            scope.lang = true;
        }
        if let Some(font) = font_attr(e) {
            self.style.fonts.push(font);
            scope.font = true;
        }
        let dir = dir_attr(e);
        if e.name() == "bdo" {
            if let Some(Some(d)) = dir {
                self.control(if d == Direction::Rtl { RLO } else { LRO });
                scope.close = Some(PDF);
            }
        } else if is_block(e.name()) {
            if let Some(d) = dir {
                self.style.dirs.push(d);
                scope.dir = true;
            }
        } else if let Some(open) = match dir {
            Some(Some(Direction::Rtl)) => Some(RLI),
            Some(Some(Direction::Ltr)) => Some(LRI),
            Some(None) => Some(FSI),
            None if e.name() == "bdi" => Some(FSI),
            None => None,
        } {
            self.control(open);
            scope.close = Some(PDI);
        }
        scope
    }

    /// The size of `name`'s text when the style sheets set it (`declared`) or set the text
    /// around it in points: a share of the size around it, or of what the browser gives the
    /// element (a heading's `2em`). Without any, the flow's own typography sets the text.
    fn font_size(&self, name: &str, declared: Option<FontSize>) -> Option<FontSize> {
        let outer = self.style.sizes.last().copied();
        let heading = heading_scale(name);
        match (declared, outer) {
            // A share of what the browser would give the heading here: the body's size.
            (Some(FontSize::Scale(s)), None) if heading.is_some() => {
                Some(FontSize::Points(s * crate::BODY_SIZE))
            }
            (Some(own), outer) => Some(own.within(outer)),
            (None, Some(FontSize::Points(p))) => heading.map(|k| FontSize::Points(p * k)),
            (None, _) => None,
        }
    }

    pub fn leave(&mut self, scope: Scope) {
        if let Some(close) = scope.close {
            self.control(close);
        }
        if scope.lang {
            self.style.langs.pop();
        }
        if scope.size {
            self.style.sizes.pop();
        }
        if scope.font {
            self.style.fonts.pop();
        }
        if scope.dir {
            self.style.dirs.pop();
        }
        if scope.color {
            self.style.colors.pop();
        }
        if scope.align {
            self.style.aligns.pop();
        }
        if scope.case {
            self.style.cases.pop();
        }
        if scope.decoration {
            self.style.decorations.pop();
        }
        if scope.sheet_font {
            self.style.fonts.pop();
        }
        if scope.bold {
            self.style.bold -= 1;
        }
        if scope.italic {
            self.style.italic -= 1;
        }
    }
}

/// The share of the surrounding size a browser gives a heading (`h1` is `2em`).
fn heading_scale(name: &str) -> Option<f64> {
    Some(match name {
        "h1" => 2.0,
        "h2" => 1.5,
        "h3" => 1.17,
        "h4" => 1.0,
        "h5" => 0.83,
        "h6" => 0.67,
        _ => return None,
    })
}
