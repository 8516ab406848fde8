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

use std::collections::HashSet;

use cssparser::{
    AtRuleParser, CowRcStr, DeclarationParser, ParseError, Parser, ParserState,
    QualifiedRuleParser, RuleBodyItemParser, RuleBodyParser, StyleSheetParser, Token,
};
use ego_tree::NodeId;
use quire_sdk::flow::PageSetup;
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
}

const PROPERTIES: [Property; 4] = [
    Property::DisplayNone,
    Property::BreakBefore,
    Property::BreakAfter,
    Property::Border,
];

/// One declaration of a cascaded property: (property, on, `!important`).
type Setting = (Property, bool, bool);

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

/// The outcome of a page's style sheets.
#[derive(Default)]
pub struct Cascade {
    hidden: HashSet<NodeId>,
    break_before: HashSet<NodeId>,
    break_after: HashSet<NodeId>,
    bordered: HashSet<NodeId>,
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
        if css.trim().is_empty() {
            return out;
        }
        let mut rules = Vec::new();
        parse_sheet(&css, &mut rules, &mut out.page, &mut out.truncated);
        if rules.is_empty() {
            return out;
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
            let mut best: [Option<(Rank, bool)>; PROPERTIES.len()] = [None; PROPERTIES.len()];
            let mut offer = |(property, on, important): Setting, specificity, order| {
                let slot = &mut best[property as usize];
                let rank = (important, specificity, order);
                if slot.is_none_or(|(r, _)| rank > r) {
                    *slot = Some((rank, on));
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
            let on = |p: Property| best[p as usize].is_some_and(|(_, on)| on);
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

    /// Whether the style sheets give the element `node` a visible border.
    pub fn bordered(&self, node: NodeId) -> bool {
        self.bordered.contains(&node)
    }

    /// Whether the style sheets start a new page after the element `node`.
    pub fn breaks_after(&self, node: NodeId) -> bool {
        self.break_after.contains(&node)
    }
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
    important: bool,
}

/// A component value of a declaration, as far as the cascaded properties need it.
#[derive(Debug, Clone, PartialEq)]
enum Value {
    Keyword(String),
    /// A length in points.
    Length(f64),
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
        let property = match self.name.as_str() {
            "display" => {
                return Some((
                    Property::DisplayNone,
                    keyword == Some("none"),
                    self.important,
                ))
            }
            "border" | "border-top" | "border-right" | "border-bottom" | "border-left"
            | "border-style" | "border-width" => {
                return Some((Property::Border, self.draws_a_border(), self.important))
            }
            "break-before" | "page-break-before" => Property::BreakBefore,
            "break-after" | "page-break-after" => Property::BreakAfter,
            _ => return None,
        };
        Some((property, page_break(), self.important))
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
        while let Ok(token) = input.next() {
            let value = match token {
                Token::Ident(v) => Value::Keyword(v.to_ascii_lowercase()),
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
            // Real values hold a few components; a long list is not one we read.
            if values.len() < 8 {
                values.push(value);
            }
        }
        Ok(Declaration {
            name: name.to_ascii_lowercase(),
            values,
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
mod tests {
    use super::*;

    /// The text of the elements the cascade leaves shown, in document order.
    fn shown_text(page: &str) -> String {
        let html = Html::parse_document(page);
        let cascade = Cascade::of(&html);
        let mut out = Vec::new();
        for node in html.tree.root().descendants() {
            if let scraper::Node::Text(t) = node.value() {
                let hidden = node.ancestors().any(|a| cascade.hides(a.id()));
                let in_style = node
                    .parent()
                    .and_then(ElementRef::wrap)
                    .is_some_and(|p| p.value().name() == "style");
                if !hidden && !in_style && !t.trim().is_empty() {
                    out.push(t.trim().to_string());
                }
            }
        }
        out.join(" ")
    }

    #[test]
    fn a_style_sheet_hides_what_it_says_and_specificity_order_and_important_decide() {
        let page = r#"<style>
            .hidden, nav { display: none }
            p.shown { display: block }
            #keep { display: none }
            div p#keep { display: block }
            .forced { display: none !important }
        </style>
        <nav>Menu</nav>
        <p class="hidden">Secret</p>
        <p class="hidden shown">Shown by the more specific rule</p>
        <div><p id="keep">Kept by an id and more</p></div>
        <p class="forced" style="display: block">Important beats the attribute</p>
        <p class="hidden" style="display: block">The attribute beats a rule</p>
        <p style="display:none">Hidden inline</p>
        <p>Plain</p>"#;
        assert_eq!(
            shown_text(page),
            "Shown by the more specific rule Kept by an id and more The attribute beats a rule Plain"
        );
    }

    #[test]
    fn print_rules_apply_and_screen_rules_do_not() {
        let page = r#"<style media="screen">.a { display: none }</style>
        <style>
            @media screen { .b { display: none } }
            @media print { .c { display: none } }
            @media not print { .d { display: none } }
            @media only print and (orientation: portrait) { .e { display: none } }
            @font-face { font-family: X; src: url(x.woff) }
            @media print { @media all { .f { display: none } } }
        </style>
        <p class="a">A</p><p class="b">B</p><p class="c">C</p><p class="d">D</p>
        <p class="e">E</p><p class="f">F</p>"#;
        assert_eq!(shown_text(page), "A B D");
    }

    #[test]
    fn page_rules_give_paper_and_margins() {
        let page =
            |css: &str| Cascade::of(&Html::parse_document(&format!("<style>{css}</style>"))).page;
        let letter = page("@page { size: letter landscape; margin: 1in 2cm }");
        assert_eq!(letter.size, Some((792.0, 612.0)));
        let cm2 = 72.0 / 2.54 * 2.0;
        assert_eq!(
            letter.margins,
            [Some(72.0), Some(cm2), Some(72.0), Some(cm2)]
        );
        let custom =
            page("@page :first { size: 5in 7in; margin-left: 36pt } @page { margin-top: 0 }");
        assert_eq!(custom.size, Some((360.0, 504.0)));
        assert_eq!(custom.margins, [Some(0.0), None, None, Some(36.0)]);
        assert_eq!(
            page("@page { size: A5 }").size.map(|(w, _)| w.round()),
            Some(420.0)
        );
        assert_eq!(
            page("@page { size: auto; margin: 1em }"),
            PageRule::default()
        );
        let mut setup = PageSetup::default();
        letter.apply(&mut setup);
        assert_eq!(
            (setup.width, setup.height, setup.margin_top),
            (792.0, 612.0, 72.0)
        );
    }

    #[test]
    fn page_breaks_before_and_after_elements_cascade() {
        let html = Html::parse_document(
            "<style>h2 { page-break-before: always } .end { break-after: page } \
             h2.first { break-before: auto }</style>\
             <h2 class='first'>A</h2><h2>B</h2><p class='end'>C</p><p>D</p>",
        );
        let cascade = Cascade::of(&html);
        let named = |text: &str| {
            html.tree
                .root()
                .descendants()
                .find(|n| {
                    ElementRef::wrap(*n).is_some_and(|e| {
                        e.text().collect::<String>() == text
                            && e.value().name() != "body"
                            && e.value().name() != "html"
                    })
                })
                .unwrap()
                .id()
        };
        assert!(!cascade.breaks_before(named("A")));
        assert!(cascade.breaks_before(named("B")));
        assert!(cascade.breaks_after(named("C")) && !cascade.breaks_after(named("D")));
    }

    #[test]
    fn broken_css_is_skipped_rule_by_rule() {
        let page = r#"<style>
            p:unknown-pseudo { display: none }
            .x { display: none; color: red
            }}} .y { display: none }
            .z { display: }
        </style><p class="x">X</p><p class="y">Y</p><p class="z">Z</p><p>P</p>"#;
        let shown = shown_text(page);
        assert!(!shown.contains('X'), "{shown}");
        assert!(shown.contains('P') && shown.contains('Z'), "{shown}");
    }

    #[test]
    fn a_page_of_many_rules_and_elements_stops_at_the_bound() {
        let mut page = String::from("<style>");
        for i in 0..MAX_RULES + 10 {
            page.push_str(&format!(".c{i} {{ display: none }}\n"));
        }
        page.push_str("</style>");
        for _ in 0..2000 {
            page.push_str("<p class=\"c1\">x</p>");
        }
        let html = Html::parse_document(&page);
        let cascade = Cascade::of(&html);
        assert!(cascade.truncated);
    }
}
