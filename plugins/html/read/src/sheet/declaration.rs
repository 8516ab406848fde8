//! What one CSS declaration says, as far as the cascade reads it: the properties cascaded
//! per element ([`Property`]) and their values, `@page`'s paper and margins, and the reading
//! of a declaration block with cssparser (lengths in points, colours, keywords).

use cssparser::{
    AtRuleParser, CowRcStr, DeclarationParser, ParseError, Parser, ParserState,
    QualifiedRuleParser, RuleBodyItemParser, Token,
};
use quire_sdk::flow::{FirstPage, FontSize, MarginBox, MarginText, PageSetup};
use quire_sdk::model::{Align, Color, FontFamily, VAlign};

use crate::css_values::{family_list, parse_align};

mod borders;

pub(super) use borders::{BORDER_SIDES, MEDIUM as MEDIUM_BORDER};

/// The properties cascaded per element; each is on or off (`display: none` or not, a page
/// break or not).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Property {
    DisplayNone,
    /// `visibility: hidden` or `collapse` (on), `visible` (off).
    Invisible,
    BreakBefore,
    BreakAfter,
    Color,
    Bold,
    Italic,
    Family,
    Align,
    /// `font-size`.
    Size,
    /// The named page (`page: cover`) the element's boxes go on; `auto` is none.
    Page,
    /// `text-transform`.
    Case,
    /// `text-decoration` (or `text-decoration-line`): underlined, struck through.
    Decoration,
    /// `background-color` (or the colour of `background`): not inherited; a table cell's
    /// is drawn.
    Background,
    /// `width`: a table's, its cells', a block's.
    Width,
    /// `max-width`: a block's.
    MaxWidth,
    /// `margin` (the shorthand sets all four; `auto` is a length of `None`): a block's.
    MarginTop,
    MarginRight,
    MarginBottom,
    MarginLeft,
    /// `padding` (the shorthand sets all four): a table cell's.
    PaddingTop,
    PaddingRight,
    PaddingBottom,
    PaddingLeft,
    /// `vertical-align`: a table cell's.
    VerticalAlign,
    /// A border's sides (top, right, bottom, left): its width, whether its style draws a
    /// line, and its colour (the shorthands set all three).
    BorderTopWidth,
    BorderRightWidth,
    BorderBottomWidth,
    BorderLeftWidth,
    BorderTopStyle,
    BorderRightStyle,
    BorderBottomStyle,
    BorderLeftStyle,
    BorderTopColor,
    BorderRightColor,
    BorderBottomColor,
    BorderLeftColor,
}

/// The margin properties, top, right, bottom, left (the shorthand's order).
const MARGIN: [Property; 4] = [
    Property::MarginTop,
    Property::MarginRight,
    Property::MarginBottom,
    Property::MarginLeft,
];

/// The padding properties, top, right, bottom, left (the shorthand's order).
const PADDING: [Property; 4] = [
    Property::PaddingTop,
    Property::PaddingRight,
    Property::PaddingBottom,
    Property::PaddingLeft,
];

pub(super) const PROPERTIES: [Property; 37] = [
    Property::DisplayNone,
    Property::Invisible,
    Property::BreakBefore,
    Property::BreakAfter,
    Property::Color,
    Property::Bold,
    Property::Italic,
    Property::Family,
    Property::Align,
    Property::Size,
    Property::Page,
    Property::Case,
    Property::Decoration,
    Property::Background,
    Property::Width,
    Property::MaxWidth,
    Property::MarginTop,
    Property::MarginRight,
    Property::MarginBottom,
    Property::MarginLeft,
    Property::PaddingTop,
    Property::PaddingRight,
    Property::PaddingBottom,
    Property::PaddingLeft,
    Property::VerticalAlign,
    Property::BorderTopWidth,
    Property::BorderRightWidth,
    Property::BorderBottomWidth,
    Property::BorderLeftWidth,
    Property::BorderTopStyle,
    Property::BorderRightStyle,
    Property::BorderBottomStyle,
    Property::BorderLeftStyle,
    Property::BorderTopColor,
    Property::BorderRightColor,
    Property::BorderBottomColor,
    Property::BorderLeftColor,
];

/// A box's length as declared: points, a multiple of the element's font size, or a share
/// of the width around it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Length {
    Points(f64),
    Em(f64),
    Share(f64),
}

/// What `text-transform` does to the letters of an element's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Case {
    /// `none`: as written, also under a transforming parent.
    AsWritten,
    Upper,
    Lower,
    /// Each word's first letter upper case.
    Capitalize,
}

/// What a declaration sets a cascaded property to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Val {
    Flag(bool),
    Color(Color),
    Family(FontFamily),
    Align(Align),
    Size(FontSize),
    /// A named page, by a hash of its name (`auto` is `None`).
    PageName(Option<u64>),
    Case(Case),
    /// A length; `None` is `auto`.
    Length(Option<Length>),
    VAlign(VAlign),
    /// A colour; `None` is `currentcolor` (the text's).
    Paint(Option<Color>),
    Decoration(Decoration),
}

/// The lines `text-decoration` draws through an element's text.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Decoration {
    pub underline: bool,
    pub strike: bool,
}

/// One declaration of a cascaded property: (property, value, `!important`).
pub(super) type Setting = (Property, Val, bool);

/// What `@page` asks for, in points.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct PageRule {
    pub size: Option<(f64, f64)>,
    /// Top, right, bottom, left.
    pub margins: [Option<f64>; 4],
    /// The page's colour (`background-color`), margins included.
    pub background: Option<Color>,
    /// Text in its margins (`@bottom-center { content: counter(page) }`).
    pub margin_boxes: Vec<MarginBox>,
}

impl PageRule {
    /// Puts the paper and margins asked for onto `setup`; the layout replaces numbers that
    /// cannot make a page (a margin wider than the paper, a page smaller than an inch).
    pub fn apply(&self, setup: &mut PageSetup) {
        if let Some((width, height)) = self.size {
            setup.width = width;
            setup.height = height;
        }
        let [top, right, bottom, left] = self.margins;
        setup.margin_top = top.unwrap_or(setup.margin_top);
        setup.margin_right = right.unwrap_or(setup.margin_right);
        setup.margin_bottom = bottom.unwrap_or(setup.margin_bottom);
        setup.margin_left = left.unwrap_or(setup.margin_left);
        setup.margin_boxes = self.margin_boxes.clone();
        setup.sheet_color = self.background;
    }

    /// Puts an `@page :first` rule's colour and margin boxes onto `setup`'s first page. Its
    /// margins are not read: the flow sets every page in one text width.
    pub fn apply_to_first(&self, setup: &mut PageSetup) {
        setup.first_page = FirstPage {
            sheet_color: self.background,
            margin_boxes: self.margin_boxes.clone(),
        };
    }
}

/// The four sides (top, right, bottom, left) of a box shorthand's 1 to 4 values, as CSS
/// repeats them; none for another count.
pub(super) fn four_sides<T: Copy>(values: &[T]) -> Option<[T; 4]> {
    Some(match *values {
        [a] => [a, a, a, a],
        [a, b] => [a, b, a, b],
        [a, b, c] => [a, b, c, b],
        [a, b, c, d] => [a, b, c, d],
        _ => return None,
    })
}

/// Page names are CSS identifiers: case-sensitive, compared by a hash (FNV-1a).
pub(super) fn page_name_hash(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// One declaration as read: its property (lower case), its values, `!important`.
pub struct Declaration {
    name: String,
    values: Vec<Value>,
    /// The value as written (for `font-family`, whose names are read by [`crate::attrs`]).
    raw: String,
    important: bool,
}

/// A component value of a declaration, as far as the cascaded properties need it.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Value {
    Keyword(String),
    /// A length in points.
    Length(f64),
    /// A length relative to the element's font (`em`, `ex` as half an `em`).
    Em(f64),
    /// A percentage, as a fraction (`80%` is 0.8).
    Percent(f64),
    Number(f64),
    Color(Color),
    Other,
}

/// How many points one `unit` is (CSS's absolute units; `px` is 1/96 in).
pub(super) fn points_per(unit: &str) -> Option<f64> {
    Some(match unit.to_ascii_lowercase().as_str() {
        "pt" => 1.0,
        "px" => 0.75,
        "in" => 72.0,
        "cm" => 72.0 / 2.54,
        "mm" => 72.0 / 25.4,
        "q" => 72.0 / 101.6,
        "pc" => 12.0,
        _ => return None,
    })
}

/// CSS's absolute size keywords, in points (Chromium's: `medium` is 16 px).
fn size_keyword(keyword: &str) -> Option<f64> {
    let px = match keyword {
        "xx-small" => 9.0,
        "x-small" => 10.0,
        "small" => 13.0,
        "medium" => 16.0,
        "large" => 18.0,
        "x-large" => 24.0,
        "xx-large" => 32.0,
        "xxx-large" => 48.0,
        _ => return None,
    };
    Some(px * 0.75)
}

/// What a `font-size` value asks for: a length, a keyword, or a share of the parent's size.
fn font_size(values: &[Value]) -> Option<FontSize> {
    Some(match values {
        [Value::Length(points)] if *points > 0.0 => FontSize::Points(*points),
        [Value::Em(em)] if *em > 0.0 => FontSize::Scale(*em),
        [Value::Percent(share)] if *share > 0.0 => FontSize::Scale(*share),
        [Value::Keyword(k)] if k == "larger" => FontSize::Scale(1.2),
        [Value::Keyword(k)] if k == "smaller" => FontSize::Scale(1.0 / 1.2),
        [Value::Keyword(k)] => FontSize::Points(size_keyword(k)?),
        _ => return None,
    })
}

/// Named paper sizes of CSS Paged Media, portrait, in points.
fn paper(name: &str) -> Option<(f64, f64)> {
    let mm = |w: f64, h: f64| (w * 72.0 / 25.4, h * 72.0 / 25.4);
    Some(match name {
        "a3" => mm(297.0, 420.0),
        "a4" => mm(210.0, 297.0),
        "a5" => mm(148.0, 210.0),
        "b4" => mm(250.0, 353.0),
        "b5" => mm(176.0, 250.0),
        "letter" => (612.0, 792.0),
        "legal" => (612.0, 1008.0),
        "ledger" => (792.0, 1224.0),
        _ => return None,
    })
}

impl Value {
    /// The value as a box's length; a bare 0 is one.
    fn length(&self) -> Option<Length> {
        match *self {
            Value::Length(points) => Some(Length::Points(points)),
            Value::Em(em) => Some(Length::Em(em)),
            Value::Percent(share) => Some(Length::Share(share)),
            _ => None,
        }
    }
}

impl Declaration {
    /// The cascaded properties this declaration sets: one, or the four sides of `padding`.
    pub(super) fn settings(&self) -> impl Iterator<Item = Setting> {
        let mut sides = [None; 4];
        if self.name == "margin" {
            // Lengths or `auto` (a length of `None`); a share is of a width the importer
            // does not know.
            let lengths: Option<Vec<Option<Length>>> = self
                .values
                .iter()
                .map(|v| match v {
                    Value::Keyword(k) if k == "auto" => Some(None),
                    v => v
                        .length()
                        .filter(|l| !matches!(l, Length::Share(_)))
                        .map(Some),
                })
                .collect();
            if let Some(four) = lengths.as_deref().and_then(four_sides) {
                for ((slot, property), length) in sides.iter_mut().zip(MARGIN).zip(four) {
                    *slot = Some((property, Val::Length(length), self.important));
                }
            }
        }
        if self.name == "padding" {
            // CSS's shorthand: 1 to 4 lengths, top right bottom left; not a share (of a
            // width the importer does not know).
            let lengths: Option<Vec<Length>> = self
                .values
                .iter()
                .map(|v| v.length().filter(|l| !matches!(l, Length::Share(_))))
                .collect();
            if let Some(four) = lengths.as_deref().and_then(four_sides) {
                for ((slot, property), length) in sides.iter_mut().zip(PADDING).zip(four) {
                    *slot = Some((property, Val::Length(Some(length)), self.important));
                }
            }
        }
        self.setting()
            .into_iter()
            .chain(sides.into_iter().flatten())
            .chain(self.border_settings())
    }

    /// The declaration's colour when it holds at most one (a `background` shorthand's among
    /// its other values); `Err` when it holds several.
    fn one_color(&self) -> Result<Option<Color>, ()> {
        let mut colors = self.values.iter().filter_map(|v| match v {
            Value::Color(c) => Some(*c),
            _ => None,
        });
        match (colors.next(), colors.next()) {
            (first, None) => Ok(first),
            _ => Err(()),
        }
    }

    fn keyword(&self) -> Option<&str> {
        match self.values.as_slice() {
            [Value::Keyword(k)] => Some(k),
            _ => None,
        }
    }

    /// The cascaded property this declaration sets, if it is one.
    pub(super) fn setting(&self) -> Option<Setting> {
        let keyword = self.keyword();
        let page_break = || {
            keyword.is_some_and(|k| {
                matches!(k, "page" | "always" | "left" | "right" | "recto" | "verso")
            })
        };
        let flag = |p: Property, on: bool| Some((p, Val::Flag(on), self.important));
        match self.name.as_str() {
            "color" => {
                return match self.values.as_slice() {
                    [Value::Color(c)] => Some((Property::Color, Val::Color(*c), self.important)),
                    _ => None,
                }
            }
            "font-weight" => {
                return match self.values.as_slice() {
                    [Value::Keyword(k)] if k == "bold" || k == "bolder" => {
                        flag(Property::Bold, true)
                    }
                    [Value::Keyword(k)] if k == "normal" || k == "lighter" => {
                        flag(Property::Bold, false)
                    }
                    [Value::Number(n)] => flag(Property::Bold, *n >= 600.0),
                    _ => None,
                }
            }
            "font-style" => {
                return match keyword {
                    Some("italic" | "oblique") => flag(Property::Italic, true),
                    Some("normal") => flag(Property::Italic, false),
                    _ => None,
                }
            }
            "page" => {
                return keyword.map(|name| {
                    let named = (name != "auto").then(|| page_name_hash(name));
                    (Property::Page, Val::PageName(named), self.important)
                })
            }
            "background-color" | "background" => {
                // The shorthand's colour is its one colour value, wherever it stands; a
                // shorthand without one (`none`, a picture) resets it to transparent, as
                // `transparent` does.
                let shorthand = self.name == "background";
                let color = match self.one_color() {
                    Ok(Some(c)) => c,
                    Ok(None) if shorthand || keyword == Some("transparent") => Color {
                        a: 0,
                        ..Color::WHITE
                    },
                    _ => return None,
                };
                return Some((Property::Background, Val::Color(color), self.important));
            }
            "text-transform" => {
                let case = match keyword? {
                    "uppercase" => Case::Upper,
                    "lowercase" => Case::Lower,
                    "capitalize" => Case::Capitalize,
                    "none" => Case::AsWritten,
                    _ => return None,
                };
                return Some((Property::Case, Val::Case(case), self.important));
            }
            "text-decoration" | "text-decoration-line" => {
                // The lines among the values (the shorthand also holds a style and a
                // colour, which the flow does not draw); `none` is no line.
                let mut decoration = Decoration::default();
                let mut lines = 0;
                for value in &self.values {
                    if let Value::Keyword(k) = value {
                        match k.as_str() {
                            "underline" => decoration.underline = true,
                            "line-through" => decoration.strike = true,
                            "none" | "overline" => {}
                            _ => continue,
                        }
                        lines += 1;
                    }
                }
                return (lines > 0).then_some((
                    Property::Decoration,
                    Val::Decoration(decoration),
                    self.important,
                ));
            }
            "text-align" => {
                return parse_align(keyword?)
                    .map(|a| (Property::Align, Val::Align(a), self.important))
            }
            "font-size" => {
                return font_size(self.values.as_slice())
                    .map(|size| (Property::Size, Val::Size(size), self.important))
            }
            "font-family" => {
                return family_list(&self.raw)
                    .map(|f| (Property::Family, Val::Family(f), self.important))
            }
            "width" | "max-width" => {
                let length = match self.values.as_slice() {
                    [Value::Keyword(k)] if k == "auto" || k == "none" => None,
                    [one] => Some(one.length()?),
                    _ => return None,
                };
                let property = if self.name == "width" {
                    Property::Width
                } else {
                    Property::MaxWidth
                };
                return Some((property, Val::Length(length), self.important));
            }
            side @ ("margin-top" | "margin-right" | "margin-bottom" | "margin-left") => {
                let length = match self.values.as_slice() {
                    [Value::Keyword(k)] if k == "auto" => None,
                    [one] => Some(one.length().filter(|l| !matches!(l, Length::Share(_)))?),
                    _ => return None,
                };
                let i = ["margin-top", "margin-right", "margin-bottom", "margin-left"]
                    .iter()
                    .position(|s| *s == side)
                    .unwrap_or(0);
                return Some((MARGIN[i], Val::Length(length), self.important));
            }
            side @ ("padding-top" | "padding-right" | "padding-bottom" | "padding-left") => {
                let length = match self.values.as_slice() {
                    [one] => one.length().filter(|l| !matches!(l, Length::Share(_)))?,
                    _ => return None,
                };
                let property = match side {
                    "padding-top" => Property::PaddingTop,
                    "padding-right" => Property::PaddingRight,
                    "padding-bottom" => Property::PaddingBottom,
                    _ => Property::PaddingLeft,
                };
                return Some((property, Val::Length(Some(length)), self.important));
            }
            "vertical-align" => {
                let valign = match keyword? {
                    "top" | "text-top" | "baseline" => VAlign::Top,
                    "middle" => VAlign::Middle,
                    "bottom" | "text-bottom" => VAlign::Bottom,
                    _ => return None,
                };
                return Some((Property::VerticalAlign, Val::VAlign(valign), self.important));
            }
            _ => {}
        }
        let property = match self.name.as_str() {
            "display" => return flag(Property::DisplayNone, keyword == Some("none")),
            "visibility" => {
                return match keyword? {
                    "hidden" | "collapse" => flag(Property::Invisible, true),
                    "visible" => flag(Property::Invisible, false),
                    _ => None,
                }
            }
            "break-before" | "page-break-before" => Property::BreakBefore,
            "break-after" | "page-break-after" => Property::BreakAfter,
            _ => return None,
        };
        flag(property, page_break())
    }

    /// What an `@page` declaration says of the paper (`size`) or its margins.
    pub(super) fn apply_to_page(&self, page: &mut PageRule) {
        let lengths: Vec<f64> = self
            .values
            .iter()
            .filter_map(|v| match v {
                Value::Length(l) => Some(*l),
                _ => None,
            })
            .collect();
        let keywords: Vec<&str> = self
            .values
            .iter()
            .filter_map(|v| match v {
                Value::Keyword(k) => Some(k.as_str()),
                _ => None,
            })
            .collect();
        match self.name.as_str() {
            "size" => {
                let named = keywords.iter().find_map(|k| paper(k));
                let mut size = match (named, lengths.as_slice()) {
                    (Some(size), _) => Some(size),
                    (None, [side]) => Some((*side, *side)),
                    (None, [w, h]) => Some((*w, *h)),
                    _ => None,
                };
                let landscape = keywords.contains(&"landscape");
                if size.is_none() && (landscape || keywords.contains(&"portrait")) {
                    size = Some(page.size.unwrap_or_else(|| paper("a4").unwrap()));
                }
                if let Some((w, h)) = size {
                    let (short, long) = (w.min(h), w.max(h));
                    page.size = Some(if landscape {
                        (long, short)
                    } else if keywords.contains(&"portrait") {
                        (short, long)
                    } else {
                        (w, h)
                    });
                }
            }
            "margin" => {
                if let Some(m) = four_sides(&lengths) {
                    page.margins = m.map(Some);
                }
            }
            "background-color" | "background" => {
                if let Ok(Some(c)) = self.one_color() {
                    page.background = (c.a > 0).then_some(c);
                }
            }
            side @ ("margin-top" | "margin-right" | "margin-bottom" | "margin-left") => {
                if let [l] = lengths.as_slice() {
                    let i = ["margin-top", "margin-right", "margin-bottom", "margin-left"]
                        .iter()
                        .position(|s| *s == side)
                        .unwrap_or(0);
                    page.margins[i] = Some(*l);
                }
            }
            _ => {}
        }
    }
}

impl Declaration {
    /// What a margin box's `content` declaration sets: its strings and page counters
    /// (`counter(page)`, `counter(pages)`); none for another declaration or a value that
    /// shows nothing the flow can set (`element(header)`, `none`).
    pub(super) fn margin_content(&self) -> Option<Vec<MarginText>> {
        if self.name != "content" {
            return None;
        }
        let mut parser = Parser::new(&self.raw);
        let mut parts = Vec::new();
        // `none` or `""`: a box with nothing in it, which blanks the place on the pages its
        // rule selects (a title page without the running header).
        let mut blank = false;
        while let Ok(token) = parser.next() {
            match token {
                Token::Ident(word)
                    if word.eq_ignore_ascii_case("none") || word.eq_ignore_ascii_case("normal") =>
                {
                    blank = true
                }
                Token::QuotedString(text) if text.is_empty() => blank = true,
                Token::QuotedString(text) => parts.push(MarginText::Text(text.to_string())),
                Token::Function(f) if f.eq_ignore_ascii_case("counter") => {
                    let counter = parser
                        .parse_nested_block(|args| {
                            let name = args.expect_ident()?.to_ascii_lowercase();
                            while args.next().is_ok() {}
                            Ok::<_, ParseError<()>>(name)
                        })
                        .ok();
                    match counter.as_deref() {
                        Some("page") => parts.push(MarginText::PageNumber),
                        Some("pages") => parts.push(MarginText::PageCount),
                        _ => {}
                    }
                }
                _ => {}
            }
            if parts.len() >= 32 {
                break;
            }
        }
        (!parts.is_empty() || blank).then_some(parts)
    }
}

/// The colour of `rgb(...)`/`rgba(...)`, commas or spaces, numbers or percentages, with an
/// optional alpha; anything else is no colour.
fn rgb_function(args: &mut Parser<'_>) -> Value {
    let mut parts: Vec<f32> = Vec::new();
    while let Ok(token) = args.next() {
        match token {
            Token::Number { value, .. } => parts.push(*value),
            Token::Percentage { unit_value, .. } => parts.push(unit_value * 255.0),
            Token::Comma | Token::Delim('/') => {}
            _ => return Value::Other,
        }
    }
    let channel = |v: f32| v.clamp(0.0, 255.0).round() as u8;
    match parts.as_slice() {
        [r, g, b] => Value::Color(Color::rgb(channel(*r), channel(*g), channel(*b))),
        [r, g, b, a] => {
            // Alpha as a number is 0-1; as a percentage it was scaled to 0-255 above.
            let a = if *a <= 1.0 { a * 255.0 } else { *a };
            Value::Color(Color {
                r: channel(*r),
                g: channel(*g),
                b: channel(*b),
                a: channel(a),
            })
        }
        _ => Value::Other,
    }
}

/// Reads a declaration block into [`Declaration`]s; nested rules are skipped.
pub(super) struct Declarations;

impl<'i> DeclarationParser<'i> for Declarations {
    type Declaration = Declaration;
    type Error = ();

    fn parse_value(
        &mut self,
        name: CowRcStr<'i>,
        input: &mut Parser<'i>,
        _start: &ParserState,
    ) -> Result<Declaration, ParseError<()>> {
        let mut values = Vec::new();
        let mut important = false;
        let start = input.position();
        let mut end = start;
        while let Ok(token) = input.next() {
            let value = match token {
                Token::Ident(v) => {
                    let v = v.to_ascii_lowercase();
                    match cssparser::color::parse_named_color(&v) {
                        Ok((r, g, b)) if v != "transparent" => Value::Color(Color::rgb(r, g, b)),
                        _ => Value::Keyword(v),
                    }
                }
                Token::Hash(h) | Token::IDHash(h) => {
                    match cssparser::color::parse_hash_color(h.as_bytes()) {
                        Ok((r, g, b, a)) => Value::Color(Color {
                            r,
                            g,
                            b,
                            a: (a.clamp(0.0, 1.0) * 255.0).round() as u8,
                        }),
                        Err(()) => Value::Other,
                    }
                }
                Token::Function(f)
                    if f.eq_ignore_ascii_case("rgb") || f.eq_ignore_ascii_case("rgba") =>
                {
                    input
                        .parse_nested_block(|args| Ok::<_, ParseError<()>>(rgb_function(args)))
                        .unwrap_or(Value::Other)
                }
                // Another function's arguments are read here, so that the value as written
                // (`raw`) ends after its `)`.
                Token::Function(_) => {
                    let _ = input.parse_nested_block(|args| {
                        while args.next().is_ok() {}
                        Ok::<_, ParseError<()>>(())
                    });
                    Value::Other
                }
                Token::Number { value, .. } if *value != 0.0 => Value::Number(f64::from(*value)),
                Token::Dimension { value, unit, .. } => {
                    let value = f64::from(*value);
                    match points_per(unit) {
                        Some(k) => Value::Length(value * k),
                        None if unit.eq_ignore_ascii_case("em") => Value::Em(value),
                        None if unit.eq_ignore_ascii_case("ex") => Value::Em(value / 2.0),
                        // The root's size is the browser's `medium`, 16 px.
                        None if unit.eq_ignore_ascii_case("rem") => Value::Length(value * 12.0),
                        None => Value::Other,
                    }
                }
                Token::Percentage { unit_value, .. } => Value::Percent(f64::from(*unit_value)),
                Token::Number { value, .. } if *value == 0.0 => Value::Length(0.0),
                Token::Delim('!') => {
                    important = input.expect_ident_matching("important").is_ok();
                    continue;
                }
                _ => Value::Other,
            };
            end = input.position();
            // Real values hold a few components; a long list is not one we read.
            if values.len() < 8 {
                values.push(value);
            }
        }
        Ok(Declaration {
            name: name.to_ascii_lowercase(),
            values,
            raw: input.slice(start..end).to_string(),
            important,
        })
    }
}

impl<'i> AtRuleParser<'i> for Declarations {
    type Prelude = ();
    type AtRule = Declaration;
    type Error = ();
}

impl<'i> QualifiedRuleParser<'i> for Declarations {
    type Prelude = ();
    type QualifiedRule = Declaration;
    type Error = ();
}

impl<'i> RuleBodyItemParser<'i, Declaration, ()> for Declarations {
    fn parse_declarations(&self) -> bool {
        true
    }
    fn parse_qualified(&self) -> bool {
        false
    }
}
