//! The cascade on small pages: what is hidden, broken, paged and bounded.

use super::*;
use quire_sdk::flow::PageSetup;

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

/// Media features as a printed page has them: light, portrait, no pointer, about 640 CSS
/// pixels wide (the default paper inside its margins), so an email's dark-mode and phone
/// rules stay out of print while its desktop rules apply.
#[test]
fn print_has_the_media_features_of_a_page() {
    let page = r#"<style>
        @media (prefers-color-scheme: dark) { .dark { display: none } }
        @media (prefers-color-scheme: light) { .light { display: none } }
        @media only screen and (max-width: 599px) { .phone { display: none } }
        @media (max-width: 599px) { .narrow { display: none } }
        @media (min-width: 480px) { .wide { display: none } }
        @media print and (min-width: 10in) { .huge { display: none } }
        @media (hover: hover) { .hover { display: none } }
        @media not all and (orientation: landscape) { .upright { display: none } }
        @media (min-resolution: 2dppx) { .unknown { display: none } }
    </style>
    <p class="dark">Dark</p><p class="light">Light</p><p class="phone">Phone</p>
    <p class="narrow">Narrow</p><p class="wide">Wide</p><p class="huge">Huge</p>
    <p class="hover">Hover</p><p class="upright">Upright</p><p class="unknown">Unknown</p>"#;
    assert_eq!(shown_text(page), "Dark Phone Narrow Huge Hover");
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
    // A page selector's paper is the document's when the plain rule names none; its margins
    // are that page's only (a cover's), not every page's.
    let custom = page("@page :first { size: 5in 7in; margin-left: 36pt } @page { margin-top: 0 }");
    assert_eq!(custom.size, Some((360.0, 504.0)));
    assert_eq!(custom.margins, [Some(0.0), None, None, None]);
    let plain_wins = page("@page { size: A4 } @page cover { size: letter landscape; margin: 0 }");
    assert_eq!(plain_wins.size.map(|(w, _)| w.round()), Some(595.0));
    assert_eq!(plain_wins.margins, [None; 4]);
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

#[test]
fn named_pages_are_read_per_element() {
    let html = Html::parse_document(
        "<style>.cover { page: cover } .body { page: auto } section { page: Main }</style>\
         <div class='cover'>A</div><div class='body'>B</div><section>C</section><p>D</p>",
    );
    let cascade = Cascade::of(&html);
    let page_of = |class_or_tag: &str| {
        let node = html
            .tree
            .root()
            .descendants()
            .find(|n| {
                ElementRef::wrap(*n).is_some_and(|e| {
                    e.value().name() == class_or_tag
                        || e.value().attr("class") == Some(class_or_tag)
                })
            })
            .unwrap();
        cascade.named_page(node.id())
    };
    assert!(page_of("cover").is_some());
    assert_eq!(page_of("body"), None, "auto is no named page");
    assert_eq!(page_of("p"), None);
    assert_ne!(page_of("section"), page_of("cover"));
}
