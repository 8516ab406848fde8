//! The body of an `@page` rule: its declarations (paper, margins, colour) and its margin
//! boxes (`@top-center`, `@bottom-right`, ...), whose `content` is set in every page's
//! margin.

use cssparser::{
    AtRuleParser, CowRcStr, DeclarationParser, ParseError, Parser, ParserState,
    QualifiedRuleParser, RuleBodyItemParser, RuleBodyParser,
};
use quire_sdk::flow::MarginBox;
use quire_sdk::model::Align;

use super::declaration::{Declaration, Declarations, PageRule};

/// Margin boxes kept per page rule (CSS has sixteen).
const MAX_MARGIN_BOXES: usize = 16;

/// Reads an `@page` rule's body into `page`.
pub(super) fn read_body(input: &mut Parser<'_>, page: &mut PageRule) {
    let mut reader = PageBody { page };
    for _ in RuleBodyParser::new(input, &mut reader) {}
}

/// Where a margin box stands: (in the top margin, alignment); the corner boxes are not
/// set.
fn margin_box_place(name: &str) -> Option<(bool, Align)> {
    Some(match name.to_ascii_lowercase().as_str() {
        "top-left" => (true, Align::Left),
        "top-center" => (true, Align::Center),
        "top-right" => (true, Align::Right),
        "bottom-left" => (false, Align::Left),
        "bottom-center" => (false, Align::Center),
        "bottom-right" => (false, Align::Right),
        _ => return None,
    })
}

struct PageBody<'p> {
    page: &'p mut PageRule,
}

impl<'i> DeclarationParser<'i> for PageBody<'_> {
    type Declaration = ();
    type Error = ();

    fn parse_value(
        &mut self,
        name: CowRcStr<'i>,
        input: &mut Parser<'i>,
        start: &ParserState,
    ) -> Result<(), ParseError<()>> {
        let declaration = Declarations.parse_value(name, input, start)?;
        declaration.apply_to_page(self.page);
        Ok(())
    }
}

impl<'i> AtRuleParser<'i> for PageBody<'_> {
    type Prelude = Option<(bool, Align)>;
    type AtRule = ();
    type Error = ();

    fn parse_prelude(
        &mut self,
        name: CowRcStr<'i>,
        input: &mut Parser<'i>,
    ) -> Result<Self::Prelude, ParseError<()>> {
        while input.next().is_ok() {}
        Ok(margin_box_place(&name))
    }

    fn parse_block(
        &mut self,
        place: Self::Prelude,
        _start: &ParserState,
        input: &mut Parser<'i>,
    ) -> Result<(), ParseError<()>> {
        let mut reader = Declarations;
        let content = RuleBodyParser::new(input, &mut reader)
            .flatten()
            .filter_map(|d: Declaration| d.margin_content())
            .last();
        let boxes = &mut self.page.margin_boxes;
        if let (Some((top, align)), Some(content)) = (place, content) {
            // A later rule for the same box replaces an earlier one.
            boxes.retain(|b| (b.top, b.align) != (top, align));
            if boxes.len() < MAX_MARGIN_BOXES {
                boxes.push(MarginBox {
                    top,
                    align,
                    content,
                });
            }
        }
        Ok(())
    }
}

impl<'i> QualifiedRuleParser<'i> for PageBody<'_> {
    type Prelude = ();
    type QualifiedRule = ();
    type Error = ();
}

impl<'i> RuleBodyItemParser<'i, (), ()> for PageBody<'_> {
    fn parse_declarations(&self) -> bool {
        true
    }
    fn parse_qualified(&self) -> bool {
        false
    }
}
