//! The page's own style sheets (`<style>`), cascaded as a browser prints them: rules for
//! every medium and for `print` apply, `screen`-only ones do not; a declaration wins by
//! `!important`, then by the specificity of the selector that matched, then by order; an
//! element's `style` attribute beats every rule that is not `!important`.
//!
//! Parsing is cssparser's (the tokenizer and rule grammar browsers share) and selectors are
//! the `selectors` crate's, the one `scraper` matches with; nothing here reads CSS by hand.
//! What is cascaded is what the importer can show: for now whether an element is displayed
//! at all (`display: none` hides text the page means to hide, such as a filing's hidden
//! facts or a site's navigation for screens only).

use std::collections::HashSet;

use cssparser::{
    AtRuleParser, CowRcStr, DeclarationParser, ParseError, Parser, ParserState,
    QualifiedRuleParser, RuleBodyItemParser, RuleBodyParser, StyleSheetParser,
};
use ego_tree::NodeId;
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

/// One `display` declaration and where it stands in the cascade.
struct DisplayRule {
    selectors: SelectorList<Simple>,
    none: bool,
    important: bool,
    order: usize,
}

/// The outcome of a page's style sheets: the elements they hide.
#[derive(Default)]
pub struct Cascade {
    hidden: HashSet<NodeId>,
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
        parse_sheet(&css, &mut rules, &mut out.truncated);
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
            // (important, specificity, order) of the winning declaration so far.
            let mut best: Option<((bool, u32, usize), bool)> = None;
            for rule in &rules {
                let matched = rule
                    .selectors
                    .slice()
                    .iter()
                    .filter(|s| matches_selector(s, 0, None, &e, &mut context))
                    .map(|s| s.specificity())
                    .max();
                if let Some(specificity) = matched {
                    let rank = (rule.important, specificity, rule.order);
                    if best.is_none_or(|(r, _)| rank > r) {
                        best = Some((rank, rule.none));
                    }
                }
            }
            // The style attribute: above every rule but an important one.
            let inline = e.value().attr("style").and_then(inline_display);
            let none = match (best, inline) {
                (Some(((true, _, _), none)), Some((_, false))) => none,
                (_, Some((none, _))) => none,
                (Some((_, none)), None) => none,
                (None, None) => false,
            };
            if none {
                out.hidden.insert(node.id());
            }
        }
        out
    }

    /// Whether the style sheets hide the element `node`.
    pub fn hides(&self, node: NodeId) -> bool {
        self.hidden.contains(&node)
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

/// The `display` an inline style gives: (is it `none`, is it `!important`).
fn inline_display(style: &str) -> Option<(bool, bool)> {
    let mut parser = Parser::new(style);
    let mut reader = Declarations { order: 0 };
    let mut found = None;
    for (name, none, important) in RuleBodyParser::new(&mut parser, &mut reader).flatten() {
        if name == "display" {
            found = Some((none, important));
        }
    }
    found
}

fn parse_sheet(css: &str, rules: &mut Vec<DisplayRule>, truncated: &mut bool) {
    let mut parser = Parser::new(css);
    let mut reader = Rules {
        rules,
        depth: 0,
        order: 0,
        truncated,
    };
    for _ in StyleSheetParser::new(&mut parser, &mut reader) {}
}

/// Reads rules into `rules`: a qualified rule's `display` declarations, and the rules of
/// `@media` blocks that apply to print.
struct Rules<'r> {
    rules: &'r mut Vec<DisplayRule>,
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
        let mut reader = Declarations { order: 0 };
        let mut display: Option<(bool, bool)> = None;
        for (name, none, important) in RuleBodyParser::new(input, &mut reader).flatten() {
            if name == "display" {
                // A later declaration in the same block wins, unless an earlier one is
                // important and it is not.
                if display.is_none_or(|(_, was_important)| important || !was_important) {
                    display = Some((none, important));
                }
            }
        }
        if let Some((none, important)) = display {
            if self.rules.len() >= MAX_RULES {
                *self.truncated = true;
            } else {
                self.order += 1;
                self.rules.push(DisplayRule {
                    selectors,
                    none,
                    important,
                    order: self.order,
                });
            }
        }
        Ok(())
    }
}

impl<'i> AtRuleParser<'i> for Rules<'_> {
    type Prelude = bool;
    type AtRule = ();
    type Error = SelectorParseErrorKind;

    fn parse_prelude(
        &mut self,
        name: CowRcStr<'i>,
        input: &mut Parser<'i>,
    ) -> Result<bool, ParseError<Self::Error>> {
        let start = input.position();
        while input.next().is_ok() {}
        let query = input.slice_from(start);
        Ok(name.eq_ignore_ascii_case("media") && media_applies(Some(query)))
    }

    fn rule_without_block(&mut self, _: bool, _: &ParserState) -> Result<(), ()> {
        Ok(())
    }

    fn parse_block(
        &mut self,
        applies: bool,
        _start: &ParserState,
        input: &mut Parser<'i>,
    ) -> Result<(), ParseError<Self::Error>> {
        if applies && self.depth < MAX_NESTING {
            self.depth += 1;
            for _ in StyleSheetParser::new(input, self) {}
            self.depth -= 1;
        } else {
            while input.next().is_ok() {}
        }
        Ok(())
    }
}

/// Reads a declaration block: (property name in lower case, is the value `none`, is it
/// `!important`) for each declaration; nested rules are skipped.
struct Declarations {
    order: usize,
}

impl<'i> DeclarationParser<'i> for Declarations {
    type Declaration = (String, bool, bool);
    type Error = ();

    fn parse_value(
        &mut self,
        name: CowRcStr<'i>,
        input: &mut Parser<'i>,
        _start: &ParserState,
    ) -> Result<Self::Declaration, ParseError<()>> {
        self.order += 1;
        let mut none = false;
        let mut first = true;
        let mut important = false;
        while let Ok(token) = input.next() {
            match token {
                cssparser::Token::Ident(v) if first && v.eq_ignore_ascii_case("none") => {
                    none = true
                }
                cssparser::Token::Delim('!') => {
                    important = input
                        .expect_ident_matching("important")
                        .map(|_| true)
                        .unwrap_or(false);
                }
                _ => none = false,
            }
            first = false;
        }
        Ok((name.to_ascii_lowercase(), none, important))
    }
}

impl<'i> AtRuleParser<'i> for Declarations {
    type Prelude = ();
    type AtRule = (String, bool, bool);
    type Error = ();
}

impl<'i> QualifiedRuleParser<'i> for Declarations {
    type Prelude = ();
    type QualifiedRule = (String, bool, bool);
    type Error = ();
}

impl<'i> RuleBodyItemParser<'i, (String, bool, bool), ()> for Declarations {
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
