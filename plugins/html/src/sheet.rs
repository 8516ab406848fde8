//! The page's own style sheets (`<style>`), cascaded as a browser prints them: rules for
//! every medium and for `print` apply, `screen`-only ones do not; a declaration wins by
//! `!important`, then by the specificity of the selector that matched, then by order; an
//! element's `style` attribute beats every rule that is not `!important`.
//!
//! Parsing is cssparser's (the tokenizer and rule grammar browsers share) and selectors are
//! the `selectors` crate's, the one `scraper` matches with; nothing here reads CSS by hand.
//! What is cascaded is what the importer can show: whether an element is displayed at all
//! (`display: none` hides text the page means to hide, such as a filing's hidden facts or a
//! site's navigation for screens only), the page breaks before and after it
//! (`break-before: page`, `page-break-after: always`), and the paper and margins of `@page`.

use std::collections::{HashMap, HashSet};

use cssparser::{
    AtRuleParser, CowRcStr, DeclarationParser, ParseError, Parser, ParserState,
    QualifiedRuleParser, RuleBodyItemParser, RuleBodyParser, StyleSheetParser, Token,
};
use ego_tree::NodeId;
use quire_sdk::flow::PageSetup;
use quire_sdk::model::{Align, Color, FontFamily};
use scraper::selector::{Parser as SelectorParser, Simple};
use scraper::{ElementRef, Html};
use selectors::matching::{
    matches_selector, MatchingContext, MatchingForInvalidation, MatchingMode, NeedsSelectorFlags,
    QuirksMode, SelectorCaches,
};
use selectors::parser::{ParseRelative, SelectorList, SelectorParseErrorKind};

/// CSS read from a page: more is ignored (real pages carry tens of KiB).
const MAX_CSS: usize = 1 << 20;
/// Rules kept after dropping those that set nothing the importer shows.
const MAX_RULES: usize = 4096;
/// Selector matches tried per page (elements times rules kept): past it the rest of the
/// page is read without its style sheets, so a hostile page cannot buy a long import.
const MAX_MATCHES: usize = 4_000_000;
/// `@media` blocks nested deeper than this are skipped.
const MAX_NESTING: usize = 8;

/// The properties cascaded per element; each is on or off (`display: none` or not, a page
/// break or not).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Property {
    DisplayNone,
    BreakBefore,
    BreakAfter,
    /// A visible border (`border`, its sides, style or width): on a table or its cells it
    /// makes the table ruled.
    Border,
    Color,
    Bold,
    Italic,
    Family,
    Align,
    /// The named page (`page: cover`) the element's boxes go on; `auto` is none.
    Page,
}

const PROPERTIES: [Property; 10] = [
    Property::DisplayNone,
    Property::BreakBefore,
    Property::BreakAfter,
    Property::Border,
    Property::Color,
    Property::Bold,
    Property::Italic,
    Property::Family,
    Property::Align,
    Property::Page,
];

/// What a declaration sets a cascaded property to.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Val {
    Flag(bool),
    Color(Color),
    Family(FontFamily),
    Align(Align),
    /// A named page, by a hash of its name (`auto` is `None`).
    PageName(Option<u64>),
}

/// One declaration of a cascaded property: (property, value, `!important`).
type Setting = (Property, Val, bool);

/// Where a declaration stands in the cascade: (`!important`, specificity, order).
type Rank = (bool, u32, usize);

/// A rule that sets a cascaded property, and where it stands in the sheet.
struct Rule {
    selectors: SelectorList<Simple>,
    settings: Vec<Setting>,
    order: usize,
}

/// What `@page` asks for, in points.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct PageRule {
    pub size: Option<(f64, f64)>,
    /// Top, right, bottom, left.
    pub margins: [Option<f64>; 4],
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
    }
}

/// How the style sheets set an element's text (inherited by what it holds): only what they
/// say; `bold` and `italic` add to `<b>` and `<i>`, they do not take them away.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct TextStyle {
    pub color: Option<Color>,
    pub bold: bool,
    pub italic: bool,
    pub family: Option<FontFamily>,
    /// `text-align` of a block and what it holds.
    pub align: Option<Align>,
}

/// The outcome of a page's style sheets.
#[derive(Default)]
pub struct Cascade {
    hidden: HashSet<NodeId>,
    break_before: HashSet<NodeId>,
    break_after: HashSet<NodeId>,
    bordered: HashSet<NodeId>,
    text: HashMap<NodeId, TextStyle>,
    /// Elements whose `page` names a page (by the name's hash).
    named_page: HashMap<NodeId, u64>,
    /// The `@page` rules, later declarations over earlier ones.
    pub page: PageRule,
    /// Whether the page's CSS was cut short by a bound (said in a warning).
    pub truncated: bool,
}

impl Cascade {
    /// Reads every `<style>` of `html` that applies to print, and finds the elements whose
    /// cascaded `display` is `none`. A page without style sheets costs one pass over its
    /// `<style>` elements and nothing else.
    pub fn of(html: &Html) -> Cascade {
        let mut out = Cascade::default();
        let mut css = String::new();
        for node in html.tree.root().descendants() {
            let Some(e) = ElementRef::wrap(node) else {
                continue;
            };
            if e.value().name() == "style" && media_applies(e.value().attr("media")) {
                for text in e.text() {
                    if css.len() + text.len() > MAX_CSS {
                        out.truncated = true;
                        break;
                    }
                    css.push_str(text);
                }
                css.push('\n');
            }
        }
        // Without rules the style attributes are still read: the cascade is the one reader
        // of `style` for the whole importer.
        let mut rules = Vec::new();
        if !css.trim().is_empty() {
            parse_sheet(&css, &mut rules, &mut out.page, &mut out.truncated);
        }
        let mut caches = SelectorCaches::default();
        let mut context = MatchingContext::new(
            MatchingMode::Normal,
            None,
            &mut caches,
            QuirksMode::NoQuirks,
            NeedsSelectorFlags::No,
            MatchingForInvalidation::No,
        );
        let mut tried = 0usize;
        for node in html.tree.root().descendants() {
            let Some(e) = ElementRef::wrap(node) else {
                continue;
            };
            tried += rules.len();
            if tried > MAX_MATCHES {
                out.truncated = true;
                break;
            }
            // Per property: ((important, specificity, order), on) of the winner so far.
            let mut best: [Option<(Rank, Val)>; PROPERTIES.len()] = [None; PROPERTIES.len()];
            let mut offer = |(property, value, important): Setting, specificity, order| {
                let slot = &mut best[property as usize];
                let rank = (important, specificity, order);
                if slot.is_none_or(|(r, _)| rank > r) {
                    *slot = Some((rank, value));
                }
            };
            for rule in &rules {
                let matched = rule
                    .selectors
                    .slice()
                    .iter()
                    .filter(|s| matches_selector(s, 0, None, &e, &mut context))
                    .map(|s| s.specificity())
                    .max();
                if let Some(specificity) = matched {
                    for setting in &rule.settings {
                        offer(*setting, specificity, rule.order);
                    }
                }
            }
            // The style attribute: above every rule of the same importance.
            if let Some(style) = e.value().attr("style") {
                for setting in inline_settings(style) {
                    offer(setting, u32::MAX, usize::MAX);
                }
            }
            let value = |p: Property| best[p as usize].map(|(_, v)| v);
            let on = |p: Property| value(p) == Some(Val::Flag(true));
            for (property, set) in [
                (Property::DisplayNone, &mut out.hidden),
                (Property::BreakBefore, &mut out.break_before),
                (Property::BreakAfter, &mut out.break_after),
                (Property::Border, &mut out.bordered),
            ] {
                if on(property) {
                    set.insert(node.id());
                }
            }
            let text = TextStyle {
                color: match value(Property::Color) {
                    Some(Val::Color(c)) => Some(c),
                    _ => None,
                },
                bold: on(Property::Bold),
                italic: on(Property::Italic),
                family: match value(Property::Family) {
                    Some(Val::Family(f)) => Some(f),
                    _ => None,
                },
                align: match value(Property::Align) {
                    Some(Val::Align(a)) => Some(a),
                    _ => None,
                },
            };
            if text != TextStyle::default() {
                out.text.insert(node.id(), text);
            }
            if let Some(Val::PageName(Some(name))) = value(Property::Page) {
                out.named_page.insert(node.id(), name);
            }
        }
        out
    }

    /// Whether the style sheets hide the element `node`.
    pub fn hides(&self, node: NodeId) -> bool {
        self.hidden.contains(&node)
    }

    /// Whether the style sheets start a new page before the element `node`.
    pub fn breaks_before(&self, node: NodeId) -> bool {
        self.break_before.contains(&node)
    }

    /// How the style sheets set the text of the element `node`, if they do.
    pub fn text_style(&self, node: NodeId) -> Option<TextStyle> {
        self.text.get(&node).copied()
    }

    /// The named page the style sheets put the element `node` on (`page: name`), as a hash
    /// of the name; `None` for `auto` (the parent's page).
    pub fn named_page(&self, node: NodeId) -> Option<u64> {
        self.named_page.get(&node).copied()
    }

    /// Whether the style sheets give the element `node` a visible border.
    pub fn bordered(&self, node: NodeId) -> bool {
        self.bordered.contains(&node)
    }

    /// Whether the style sheets start a new page after the element `node`.
    pub fn breaks_after(&self, node: NodeId) -> bool {
        self.break_after.contains(&node)
    }
}

/// Page names are CSS identifiers: case-sensitive, compared by a hash (FNV-1a).
fn page_name_hash(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Whether a `media` attribute or `@media` query list includes print: no query, `all` or
/// `print` (also inside a longer query such as `print and (orientation: portrait)`); `not
/// print` and `screen`-only lists do not.
fn media_applies(query: Option<&str>) -> bool {
    let Some(query) = query else { return true };
    let query = query.to_ascii_lowercase();
    if query.trim().is_empty() {
        return true;
    }
    query.split(',').any(|q| {
        let words: Vec<&str> = q
            .split(|c: char| c.is_whitespace() || c == '(')
            .filter(|w| !w.is_empty())
            .collect();
        match words.as_slice() {
            ["not", "print", ..] => false,
            ["not", ..] => true,
            ["only", medium, ..] | [medium, ..] => {
                matches!(*medium, "all" | "print") || medium.contains(':')
            }
            [] => true,
        }
    })
}

/// The cascaded properties an inline style sets, in its order.
fn inline_settings(style: &str) -> Vec<Setting> {
    let mut parser = Parser::new(style);
    let mut reader = Declarations;
    RuleBodyParser::new(&mut parser, &mut reader)
        .flatten()
        .filter_map(|d| d.setting())
        .collect()
}

/// A `style` attribute reduced to what the cascade reads, written canonically (one
/// declaration per property, the last one winning, in a fixed order): the parser keeps only
/// this on formatting elements, so that few distinct attribute sets arise. `None` when the
/// attribute sets nothing the cascade reads.
pub fn canonical_style(style: &str) -> Option<String> {
    let mut last: [Option<(Val, bool)>; PROPERTIES.len()] = [None; PROPERTIES.len()];
    for (property, value, important) in inline_settings(style) {
        let slot = &mut last[property as usize];
        // A later declaration wins unless the earlier one is important and it is not.
        if slot.is_none_or(|(_, was_important)| important || !was_important) {
            *slot = Some((value, important));
        }
    }
    let mut out: Vec<String> = Vec::new();
    for (property, slot) in PROPERTIES.iter().zip(last) {
        let Some((value, important)) = slot else {
            continue;
        };
        let declaration = match (property, value) {
            (Property::DisplayNone, Val::Flag(on)) => {
                format!("display: {}", if on { "none" } else { "block" })
            }
            (Property::BreakBefore, Val::Flag(on)) => {
                format!("break-before: {}", if on { "page" } else { "auto" })
            }
            (Property::BreakAfter, Val::Flag(on)) => {
                format!("break-after: {}", if on { "page" } else { "auto" })
            }
            (Property::Border, Val::Flag(on)) => {
                format!("border: {}", if on { "solid" } else { "none" })
            }
            (Property::Color, Val::Color(c)) => {
                format!(
                    "color: rgba({}, {}, {}, {})",
                    c.r,
                    c.g,
                    c.b,
                    f64::from(c.a) / 255.0
                )
            }
            (Property::Bold, Val::Flag(on)) => {
                format!("font-weight: {}", if on { "bold" } else { "normal" })
            }
            (Property::Italic, Val::Flag(on)) => {
                format!("font-style: {}", if on { "italic" } else { "normal" })
            }
            (Property::Family, Val::Family(f)) => {
                format!("font-family: {}", crate::attrs::generic_name(f))
            }
            (Property::Align, Val::Align(a)) => format!(
                "text-align: {}",
                match a {
                    Align::Left => "left",
                    Align::Center => "center",
                    Align::Right => "right",
                    Align::Justify => "justify",
                }
            ),
            _ => continue,
        };
        out.push(if important {
            format!("{declaration} !important")
        } else {
            declaration
        });
    }
    (!out.is_empty()).then(|| out.join("; "))
}

fn parse_sheet(css: &str, rules: &mut Vec<Rule>, page: &mut PageRule, truncated: &mut bool) {
    let mut parser = Parser::new(css);
    let mut reader = Rules {
        rules,
        page,
        depth: 0,
        order: 0,
        truncated,
    };
    for _ in StyleSheetParser::new(&mut parser, &mut reader) {}
}

/// Reads rules into `rules`: a qualified rule's cascaded declarations, the rules of `@media`
/// blocks that apply to print, and `@page`.
struct Rules<'r> {
    rules: &'r mut Vec<Rule>,
    page: &'r mut PageRule,
    depth: usize,
    order: usize,
    truncated: &'r mut bool,
}

impl<'i> QualifiedRuleParser<'i> for Rules<'_> {
    type Prelude = SelectorList<Simple>;
    type QualifiedRule = ();
    type Error = SelectorParseErrorKind;

    fn parse_prelude(
        &mut self,
        input: &mut Parser<'i>,
    ) -> Result<Self::Prelude, ParseError<Self::Error>> {
        SelectorList::parse(&SelectorParser, input, ParseRelative::No)
    }

    fn parse_block(
        &mut self,
        selectors: Self::Prelude,
        _start: &ParserState,
        input: &mut Parser<'i>,
    ) -> Result<(), ParseError<Self::Error>> {
        let mut reader = Declarations;
        let mut settings: Vec<Setting> = Vec::new();
        for setting in RuleBodyParser::new(input, &mut reader)
            .flatten()
            .filter_map(|d| d.setting())
        {
            // A later declaration in the block wins, unless an earlier one is important and
            // it is not.
            match settings.iter_mut().find(|s| s.0 == setting.0) {
                Some(held) if setting.2 || !held.2 => *held = setting,
                Some(_) => {}
                None => settings.push(setting),
            }
        }
        if !settings.is_empty() {
            if self.rules.len() >= MAX_RULES {
                *self.truncated = true;
            } else {
                self.order += 1;
                self.rules.push(Rule {
                    selectors,
                    settings,
                    order: self.order,
                });
            }
        }
        Ok(())
    }
}

/// What an at-rule's block holds, as far as printing goes.
pub enum AtBlock {
    /// `@media` for print: rules.
    Rules,
    /// `@page` (any page selector): the paper and its margins.
    Page,
    Skipped,
}

impl<'i> AtRuleParser<'i> for Rules<'_> {
    type Prelude = AtBlock;
    type AtRule = ();
    type Error = SelectorParseErrorKind;

    fn parse_prelude(
        &mut self,
        name: CowRcStr<'i>,
        input: &mut Parser<'i>,
    ) -> Result<AtBlock, ParseError<Self::Error>> {
        let start = input.position();
        while input.next().is_ok() {}
        let query = input.slice_from(start);
        Ok(
            if name.eq_ignore_ascii_case("media") && media_applies(Some(query)) {
                AtBlock::Rules
            } else if name.eq_ignore_ascii_case("page") {
                AtBlock::Page
            } else {
                AtBlock::Skipped
            },
        )
    }

    fn rule_without_block(&mut self, _: AtBlock, _: &ParserState) -> Result<(), ()> {
        Ok(())
    }

    fn parse_block(
        &mut self,
        block: AtBlock,
        _start: &ParserState,
        input: &mut Parser<'i>,
    ) -> Result<(), ParseError<Self::Error>> {
        match block {
            AtBlock::Rules if self.depth < MAX_NESTING => {
                self.depth += 1;
                for _ in StyleSheetParser::new(input, self) {}
                self.depth -= 1;
            }
            AtBlock::Page => {
                let mut reader = Declarations;
                for d in RuleBodyParser::new(input, &mut reader).flatten() {
                    d.apply_to_page(self.page);
                }
            }
            _ => while input.next().is_ok() {},
        }
        Ok(())
    }
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
enum Value {
    Keyword(String),
    /// A length in points.
    Length(f64),
    Number(f64),
    Color(Color),
    Other,
}

/// How many points one `unit` is (CSS's absolute units; `px` is 1/96 in).
fn points_per(unit: &str) -> Option<f64> {
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

impl Declaration {
    fn keyword(&self) -> Option<&str> {
        match self.values.as_slice() {
            [Value::Keyword(k)] => Some(k),
            _ => None,
        }
    }

    /// The cascaded property this declaration sets, if it is one.
    fn setting(&self) -> Option<Setting> {
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
            "text-align" => {
                return crate::table::parse_align(keyword?)
                    .map(|a| (Property::Align, Val::Align(a), self.important))
            }
            "font-family" => {
                return crate::attrs::family_list(&self.raw)
                    .map(|f| (Property::Family, Val::Family(f), self.important))
            }
            _ => {}
        }
        let property = match self.name.as_str() {
            "display" => return flag(Property::DisplayNone, keyword == Some("none")),
            "border" | "border-top" | "border-right" | "border-bottom" | "border-left"
            | "border-style" | "border-width" => {
                return flag(Property::Border, self.draws_a_border())
            }
            "break-before" | "page-break-before" => Property::BreakBefore,
            "break-after" | "page-break-after" => Property::BreakAfter,
            _ => return None,
        };
        flag(property, page_break())
    }

    /// Whether a border declaration leaves a line: not `none` or `hidden`, not all widths 0.
    fn draws_a_border(&self) -> bool {
        let mut lengths = self.values.iter().filter_map(|v| match v {
            Value::Length(l) => Some(*l),
            _ => None,
        });
        let no_style = self
            .values
            .iter()
            .any(|v| matches!(v, Value::Keyword(k) if k == "none" || k == "hidden"));
        let zero_width = {
            let first = lengths.next();
            first.is_some_and(|l| l == 0.0 && lengths.all(|l| l == 0.0))
        };
        !self.values.is_empty() && !no_style && !zero_width
    }

    /// What an `@page` declaration says of the paper (`size`) or its margins.
    fn apply_to_page(&self, page: &mut PageRule) {
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
                // CSS's shorthand: 1 to 4 values, top right bottom left.
                let m = match lengths.as_slice() {
                    [a] => [*a, *a, *a, *a],
                    [a, b] => [*a, *b, *a, *b],
                    [a, b, c] => [*a, *b, *c, *b],
                    [a, b, c, d] => [*a, *b, *c, *d],
                    _ => return,
                };
                page.margins = m.map(Some);
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
struct Declarations;

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
                Token::Number { value, .. } if *value != 0.0 => Value::Number(f64::from(*value)),
                Token::Dimension { value, unit, .. } => match points_per(unit) {
                    Some(k) => Value::Length(f64::from(*value) * k),
                    None => Value::Other,
                },
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

#[cfg(test)]
#[path = "sheet_tests.rs"]
mod tests;
