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
    AtRuleParser, CowRcStr, ParseError, Parser, ParserState, QualifiedRuleParser, RuleBodyParser,
    StyleSheetParser,
};
use ego_tree::NodeId;
use quire_sdk::flow::FontSize;
use quire_sdk::model::{Align, Color, FontFamily, VAlign};
use scraper::selector::{Parser as SelectorParser, Simple};
use scraper::{ElementRef, Html};
use selectors::matching::{
    matches_selector, MatchingContext, MatchingForInvalidation, MatchingMode, NeedsSelectorFlags,
    QuirksMode, SelectorCaches,
};
use selectors::parser::{ParseRelative, SelectorList, SelectorParseErrorKind};

mod declaration;
mod page;

pub use declaration::{Case, Decoration, Length, PageRule};
use declaration::{Declarations, Property, Setting, Val, PROPERTIES};

/// CSS read from a page: more is ignored (real pages carry tens of KiB).
const MAX_CSS: usize = 1 << 20;
/// Rules kept after dropping those that set nothing the importer shows.
const MAX_RULES: usize = 4096;
/// Selector matches tried per page (elements times rules kept): past it the rest of the
/// page is read without its style sheets, so a hostile page cannot buy a long import.
const MAX_MATCHES: usize = 4_000_000;
/// What style sheets may still cost: one page's, or all the HTML fragments of one document
/// together (Markdown's raw HTML blocks), so many small fragments cannot buy more than a
/// page.
pub struct Budget {
    /// Bytes of CSS still read.
    pub css: usize,
    /// Selector matches still tried.
    pub matches: usize,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            css: MAX_CSS,
            matches: MAX_MATCHES,
        }
    }
}

/// `@media` blocks nested deeper than this are skipped.
const MAX_NESTING: usize = 8;

/// Where a declaration stands in the cascade: (`!important`, specificity, order).
type Rank = (bool, u32, usize);

/// A rule that sets a cascaded property, and where it stands in the sheet.
struct Rule {
    selectors: SelectorList<Simple>,
    settings: Vec<Setting>,
    order: usize,
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
    /// `font-size`, as declared (a share of the parent's size is resolved by the walk).
    pub size: Option<FontSize>,
    /// `text-transform`.
    pub case: Option<Case>,
    /// `text-decoration`.
    pub decoration: Option<Decoration>,
}

/// How the style sheets size an element's box (a table's or a cell's): only what they say.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct BoxStyle {
    pub width: Option<Length>,
    pub max_width: Option<Length>,
    /// Top, right, bottom, left; `Some(None)` is `auto`.
    pub margin: [Option<Option<Length>>; 4],
    /// Top, right, bottom, left.
    pub padding: [Option<Length>; 4],
    pub valign: Option<VAlign>,
    /// The lines along its sides (top, right, bottom, left), when a border declaration
    /// applies to it; a side without a visible line is `None`.
    pub borders: Option<[Option<SideLine>; 4]>,
}

/// A visible line along one side of a box.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SideLine {
    /// In points.
    pub width: f64,
    /// `None` is the text's colour (`currentcolor`).
    pub color: Option<Color>,
}

/// The outcome of a page's style sheets.
#[derive(Default)]
pub struct Cascade {
    hidden: HashSet<NodeId>,
    break_before: HashSet<NodeId>,
    break_after: HashSet<NodeId>,
    text: HashMap<NodeId, TextStyle>,
    /// Elements whose `page` names a page (by the name's hash).
    named_page: HashMap<NodeId, u64>,
    /// Elements the style sheets give a visible background.
    backgrounds: HashMap<NodeId, Color>,
    boxes: HashMap<NodeId, BoxStyle>,
    /// The `@page` rules, later declarations over earlier ones.
    pub page: PageRule,
    /// The `@page :first` rules: the first page's colour and margin boxes.
    pub first_page: PageRule,
    /// Whether the page's CSS was cut short by a bound (said in a warning).
    pub truncated: bool,
}

impl Cascade {
    /// Reads every `<style>` of `html` that applies to print, and finds the elements whose
    /// cascaded `display` is `none`. A page without style sheets costs one pass over its
    /// `<style>` elements and nothing else.
    pub fn of(html: &Html) -> Cascade {
        Cascade::within(html, &mut Budget::default())
    }

    /// As [`Cascade::of`], spending from `budget` (and leaving in it what is left).
    pub fn within(html: &Html, budget: &mut Budget) -> Cascade {
        let mut out = Cascade::default();
        let mut css = String::new();
        for node in html.tree.root().descendants() {
            let Some(e) = ElementRef::wrap(node) else {
                continue;
            };
            if e.value().name() == "style" && media_applies(e.value().attr("media")) {
                for text in e.text() {
                    if css.len() + text.len() > budget.css {
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
            parse_sheet(
                &css,
                &mut rules,
                (&mut out.page, &mut out.first_page),
                &mut out.truncated,
            );
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
            if tried > budget.matches {
                out.truncated = true;
                break;
            }
            // Per property: ((important, specificity, order), on) of the winner so far.
            let mut best: [Option<(Rank, Val)>; PROPERTIES.len()] = [None; PROPERTIES.len()];
            let mut offer = |(property, value, important): Setting, specificity, order| {
                let slot = &mut best[property as usize];
                let rank = (important, specificity, order);
                // Ties are declarations of one block (a rule or a `style` attribute): the
                // later wins, as in CSS.
                if slot.is_none_or(|(r, _)| rank >= r) {
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
            // An invisible element's text is not printed. (Its box keeps its room in a
            // browser, and a `visibility: visible` descendant shows again; both are lost
            // here: the element is left out as `display: none` leaves it.)
            if on(Property::Invisible) {
                out.hidden.insert(node.id());
            }
            for (property, set) in [
                (Property::DisplayNone, &mut out.hidden),
                (Property::BreakBefore, &mut out.break_before),
                (Property::BreakAfter, &mut out.break_after),
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
                size: match value(Property::Size) {
                    Some(Val::Size(s)) => Some(s),
                    _ => None,
                },
                case: match value(Property::Case) {
                    Some(Val::Case(c)) => Some(c),
                    _ => None,
                },
                decoration: match value(Property::Decoration) {
                    Some(Val::Decoration(d)) => Some(d),
                    _ => None,
                },
            };
            if text != TextStyle::default() {
                out.text.insert(node.id(), text);
            }
            if let Some(Val::PageName(Some(name))) = value(Property::Page) {
                out.named_page.insert(node.id(), name);
            }
            if let Some(Val::Color(c)) = value(Property::Background) {
                if c.a > 0 {
                    out.backgrounds.insert(node.id(), c);
                }
            }
            let length = |p: Property| match value(p) {
                Some(Val::Length(l)) => l,
                _ => None,
            };
            let margin = |p: Property| match value(p) {
                Some(Val::Length(l)) => Some(l),
                _ => None,
            };
            let sized = BoxStyle {
                width: length(Property::Width),
                max_width: length(Property::MaxWidth),
                margin: [
                    margin(Property::MarginTop),
                    margin(Property::MarginRight),
                    margin(Property::MarginBottom),
                    margin(Property::MarginLeft),
                ],
                padding: [
                    length(Property::PaddingTop),
                    length(Property::PaddingRight),
                    length(Property::PaddingBottom),
                    length(Property::PaddingLeft),
                ],
                valign: match value(Property::VerticalAlign) {
                    Some(Val::VAlign(v)) => Some(v),
                    _ => None,
                },
                borders: declaration::BORDER_SIDES
                    .iter()
                    .any(|side| side.iter().any(|p| value(*p).is_some()))
                    .then(|| {
                        declaration::BORDER_SIDES
                            .map(|[w, s, c]| side_line(value(w), value(s), value(c)))
                    }),
            };
            if sized != BoxStyle::default() {
                out.boxes.insert(node.id(), sized);
            }
        }
        budget.css = budget.css.saturating_sub(css.len());
        budget.matches = budget.matches.saturating_sub(tried);
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

    /// The background the style sheets give the element `node` (its own: backgrounds are
    /// not inherited), if a visible one.
    pub fn background(&self, node: NodeId) -> Option<Color> {
        self.backgrounds.get(&node).copied()
    }

    /// How the style sheets size the box of the element `node`, if they do.
    pub fn box_style(&self, node: NodeId) -> Option<BoxStyle> {
        self.boxes.get(&node).copied()
    }

    /// Whether the style sheets start a new page after the element `node`.
    pub fn breaks_after(&self, node: NodeId) -> bool {
        self.break_after.contains(&node)
    }
}

/// The line a side's cascaded width, style and colour draw, if a visible one: a style that
/// draws, a width above 0 (`medium` when none is said), a colour that is not transparent.
fn side_line(width: Option<Val>, style: Option<Val>, color: Option<Val>) -> Option<SideLine> {
    if style != Some(Val::Flag(true)) {
        return None;
    }
    let width = match width {
        Some(Val::Length(Some(Length::Points(points)))) => points,
        _ => declaration::MEDIUM_BORDER,
    };
    let color = match color {
        Some(Val::Paint(color)) => color,
        _ => None,
    };
    let visible = width > 0.0 && color.is_none_or(|c| c.a > 0);
    visible.then_some(SideLine { width, color })
}

/// Whether a `media` attribute or `@media` query list includes print: no query, `all` or
/// `print`, with the features a printed page has (`print and (orientation: portrait)`,
/// `(min-width: 400px)`); `not print`, `screen`-only lists and features a page lacks
/// (`(prefers-color-scheme: dark)`, `(max-width: 599px)`: a phone's layout) do not.
fn media_applies(query: Option<&str>) -> bool {
    let Some(query) = query else { return true };
    let query = query.to_ascii_lowercase();
    if query.trim().is_empty() {
        return true;
    }
    query.split(',').any(query_applies)
}

/// One media query of a list.
fn query_applies(query: &str) -> bool {
    let mut features = Vec::new();
    let mut outside = String::new();
    let mut rest = query;
    while let Some((before, after)) = rest.split_once('(') {
        outside.push_str(before);
        let (feature, tail) = after.split_once(')').unwrap_or((after, ""));
        features.push(feature);
        rest = tail;
    }
    outside.push_str(rest);
    let words: Vec<&str> = outside.split_whitespace().collect();
    let negated = words.first() == Some(&"not");
    let medium = words
        .iter()
        .filter(|w| !matches!(**w, "not" | "only" | "and"))
        .all(|w| matches!(*w, "all" | "print"));
    let applies = medium && features.iter().all(|f| feature_applies(f));
    applies != negated
}

/// The printed page's width and height in points: the default paper's area inside its
/// margins, as Chromium gives print media queries its page box.
fn page_box() -> (f64, f64) {
    let setup = crate::browser_page(None).unwrap_or_default();
    (
        setup.width - setup.margin_left - setup.margin_right,
        setup.height - setup.margin_top - setup.margin_bottom,
    )
}

/// One media feature, `name: value` or a bare `name`, as a printed page has it. Features
/// this does not know hold, so a rule is kept rather than lost.
fn feature_applies(feature: &str) -> bool {
    let (name, value) = match feature.split_once(':') {
        Some((name, value)) => (name.trim(), Some(value.trim())),
        None => (feature.trim(), None),
    };
    let (width, height) = page_box();
    let length = || value.and_then(length_points);
    match (name, value) {
        ("prefers-color-scheme", Some(scheme)) => scheme == "light",
        ("orientation", Some(orientation)) => orientation == "portrait",
        // Paper has no pointer to hover with.
        ("hover" | "any-hover" | "pointer" | "any-pointer", Some(v)) => v == "none",
        ("hover" | "any-hover" | "pointer" | "any-pointer", None) => false,
        ("min-width", _) => length().is_none_or(|l| width >= l),
        ("max-width", _) => length().is_none_or(|l| width <= l),
        ("min-height", _) => length().is_none_or(|l| height >= l),
        ("max-height", _) => length().is_none_or(|l| height <= l),
        _ => true,
    }
}

/// A media feature's length in points (a bare number is pixels, an `em` the initial 16 px).
fn length_points(value: &str) -> Option<f64> {
    let split = value
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(value.len());
    let (number, unit) = value.split_at_checked(split)?;
    let number: f64 = number.parse().ok()?;
    let per_unit = match unit.trim() {
        "" => declaration::points_per("px")?,
        "em" | "rem" => 12.0,
        unit => declaration::points_per(unit)?,
    };
    Some(number * per_unit)
}

/// The cascaded properties an inline style sets, in its order.
fn inline_settings(style: &str) -> Vec<Setting> {
    let mut parser = Parser::new(style);
    let mut reader = Declarations;
    RuleBodyParser::new(&mut parser, &mut reader)
        .flatten()
        .flat_map(|d| d.settings())
        .collect()
}

/// The colour an HTML attribute names (`bgcolor`), read as CSS reads a colour; `None` for
/// one it cannot read or a transparent one.
pub fn attribute_color(value: &str) -> Option<Color> {
    if value.len() > 64 || value.contains([';', '{', '}']) {
        return None;
    }
    inline_settings(&format!("color: {value}"))
        .into_iter()
        .find_map(|(property, value, _)| match (property, value) {
            (Property::Color, Val::Color(c)) if c.a > 0 => Some(c),
            _ => None,
        })
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
            (Property::Invisible, Val::Flag(on)) => {
                format!("visibility: {}", if on { "hidden" } else { "visible" })
            }
            (Property::BreakBefore, Val::Flag(on)) => {
                format!("break-before: {}", if on { "page" } else { "auto" })
            }
            (Property::BreakAfter, Val::Flag(on)) => {
                format!("break-after: {}", if on { "page" } else { "auto" })
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
                format!("font-family: {}", crate::css_values::generic_name(f))
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
            (Property::Size, Val::Size(FontSize::Points(points))) => {
                format!("font-size: {points}pt")
            }
            (Property::Size, Val::Size(FontSize::Scale(scale))) => format!("font-size: {scale}em"),
            (Property::Background, Val::Color(c)) => {
                format!(
                    "background-color: rgba({}, {}, {}, {})",
                    c.r,
                    c.g,
                    c.b,
                    f64::from(c.a) / 255.0
                )
            }
            (Property::Decoration, Val::Decoration(d)) => format!(
                "text-decoration: {}",
                match (d.underline, d.strike) {
                    (true, true) => "underline line-through",
                    (true, false) => "underline",
                    (false, true) => "line-through",
                    (false, false) => "none",
                }
            ),
            (Property::Case, Val::Case(case)) => format!(
                "text-transform: {}",
                match case {
                    Case::AsWritten => "none",
                    Case::Upper => "uppercase",
                    Case::Lower => "lowercase",
                    Case::Capitalize => "capitalize",
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

fn parse_sheet(
    css: &str,
    rules: &mut Vec<Rule>,
    (page, first_page): (&mut PageRule, &mut PageRule),
    truncated: &mut bool,
) {
    let mut parser = Parser::new(css);
    let mut selected = PageRule::default();
    let mut reader = Rules {
        rules,
        page,
        first_page,
        selected_page: &mut selected,
        depth: 0,
        order: 0,
        truncated,
    };
    for _ in StyleSheetParser::new(&mut parser, &mut reader) {}
    // The flow has one paper for every page: a page selector's paper (a cover's `@page
    // :first`) is the document's only when the plain rule names none.
    page.size = page.size.or(first_page.size).or(selected.size);
}

/// Reads rules into `rules`: a qualified rule's cascaded declarations, the rules of `@media`
/// blocks that apply to print, and `@page`.
struct Rules<'r> {
    rules: &'r mut Vec<Rule>,
    /// The plain `@page` rule: the paper and margins of every page.
    page: &'r mut PageRule,
    /// `@page :first`: its colour and margin boxes are the first page's.
    first_page: &'r mut PageRule,
    /// `@page` rules with another selector (`:left`, a named page): only their paper
    /// counts, since their margins are not every page's.
    selected_page: &'r mut PageRule,
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
            .flat_map(|d| d.settings())
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
    /// `@page` without a selector: the paper and its margins.
    Page,
    /// `@page :first`: the first page's colour and margin boxes.
    FirstPage,
    /// `@page` with another selector (`:left`, `cover`): one page's paper and margins.
    SelectedPage,
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
            } else if name.eq_ignore_ascii_case("page") && query.trim().is_empty() {
                AtBlock::Page
            } else if name.eq_ignore_ascii_case("page")
                && query.trim().eq_ignore_ascii_case(":first")
            {
                AtBlock::FirstPage
            } else if name.eq_ignore_ascii_case("page") {
                AtBlock::SelectedPage
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
            AtBlock::Page | AtBlock::FirstPage | AtBlock::SelectedPage => {
                let page = match block {
                    AtBlock::Page => &mut *self.page,
                    AtBlock::FirstPage => &mut *self.first_page,
                    _ => &mut *self.selected_page,
                };
                page::read_body(input, page);
            }
            _ => while input.next().is_ok() {},
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
