//! The vocabulary element by element, on small hand-written pages.

mod common;

use common::*;
use quire_sdk::{Align, Asset, ConvertError, FontFamily, Run, Shape};

fn runs(doc: &quire_sdk::Document) -> Vec<&Run> {
    boxes(doc).into_iter().flat_map(|t| &t.text.runs).collect()
}

/// The run holding exactly `text`.
fn run<'a>(doc: &'a quire_sdk::Document, text: &str) -> &'a Run {
    runs(doc)
        .into_iter()
        .find(|r| r.text == text)
        .unwrap_or_else(|| panic!("no run {text:?} in {:?}", texts(doc)))
}

#[test]
fn malformed_markup_is_repaired_like_a_browser() {
    // Unclosed items, a misnested bold/italic, an unclosed paragraph.
    let out = import("<ul><li>one<li>two</ul><p><b>bold <i>both</b> italic</i><p>last");
    let t = texts(&out.document);
    assert_eq!(
        t,
        [
            "\u{2022}",
            "one",
            "\u{2022}",
            "two",
            "bold both italic",
            "last"
        ]
    );
    let doc = &out.document;
    assert!(run(doc, "bold ").bold && !run(doc, "bold ").italic);
    assert!(run(doc, "both").bold && run(doc, "both").italic);
    assert!(!run(doc, " italic").bold && run(doc, " italic").italic);
}

#[test]
fn script_style_and_other_hidden_content_is_absent() {
    let out = import(
        "<html><head><title> The  Title </title><style>p { color: red }</style>\
         <script>var secret = 'script-secret';</script></head><body>\
         <p>visible<script>document.write('inline-secret')</script> text</p>\
         <noscript>noscript-secret</noscript><template><p>template-secret</p></template>\
         <div hidden>hidden-secret</div><p style='display: none'>none-secret</p>\
         <form><label>Name</label><input value='input-secret'>\
         <select><option>option-secret</option></select><button>button-secret</button></form>\
         <svg style='display: none'><symbol id='i'><text>svg-secret</text></symbol></svg><iframe>frame-secret</iframe></body></html>",
    );
    let all = all_text(&out.document);
    assert!(!all.contains("secret"), "{all}");
    assert!(!all.contains("color"), "{all}");
    assert_paragraph(&out.document, "visible text");
    // A form's own text (labels) stays: the form is a container, its controls are dropped.
    assert!(all.contains("Name"));
    assert_eq!(out.document.title.as_deref(), Some("The Title"));
}

/// What the page's own style sheet hides for print stays hidden, in tables and `<pre>` too,
/// and what it shows (a screen-only rule, a more specific rule) stays shown.
#[test]
fn text_the_style_sheet_hides_is_not_printed() {
    let out = import(
        "<html><head><style>\
           .ix-hidden, nav, td.note { display: none }\
           @media screen { .screen-only-hide { display: none } }\
           @media print { .print-hide { display: none } }\
           p.ix-hidden.shown { display: block }\
           .preheader { visibility: hidden } .legend { visibility: collapse }\
           .preheader.seen { visibility: visible }\
         </style></head><body>\
         <span class='preheader'>preheader-secret</span><div class='legend'>legend-secret</div>\
         <p class='preheader seen'>Visible again</p>\
         <nav>Menu-secret</nav><p>Annual report</p>\
         <div class='ix-hidden'>fact-secret</div>\
         <p class='ix-hidden shown'>Shown again</p>\
         <p class='screen-only-hide'>Printed anyway</p><p class='print-hide'>print-secret</p>\
         <table><tr><td>Revenue</td><td class='note'>cell-secret</td></tr></table>\
         <pre>code <span class='ix-hidden'>pre-secret</span>kept</pre></body></html>",
    );
    let all = all_text(&out.document);
    assert!(!all.contains("secret"), "{all}");
    for shown in [
        "Annual report",
        "Shown again",
        "Visible again",
        "Printed anyway",
        "Revenue",
        "kept",
    ] {
        assert!(all.contains(shown), "{shown} in {all}");
    }
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
}

/// `@page` sets the paper and margins and a page break starts a new page, as Chromium
/// prints them; the caller's `paper` option still wins over the page's own.
#[test]
fn the_page_s_print_rules_set_paper_margins_and_breaks() {
    let page = "<style>@page { size: letter landscape; margin: 0.5in }\
                .chapter { break-before: page }</style>\
                <p>Cover</p><h2 class='chapter'>One</h2><p>Text</p>";
    let doc = import(page).document;
    assert_eq!(doc.pages.len(), 2, "{:?}", texts(&doc));
    assert_eq!((doc.pages[0].width, doc.pages[0].height), (792.0, 612.0));
    // The page's half inch, and `<body>`'s 8 px inside it.
    let first = boxes(&doc).into_iter().next().unwrap();
    assert!(
        (first.frame.x - 42.0).abs() < 0.5,
        "left margin {}",
        first.frame.x
    );
    let mut request = request(page);
    request.options.push(("paper".into(), "a4".into()));
    let a4 = quire_html::convert(request).unwrap().document;
    assert!((a4.pages[0].width - 595.28).abs() < 0.01);
}

/// A table draws lines where a browser does: `border` above 0 or a border from the style
/// sheet; a layout table (an SEC filing's cover page) is text standing in columns.
#[test]
fn only_tables_with_borders_are_ruled() {
    let lines = |page: &str| {
        let doc = import(page).document;
        assert!(all_text(&doc).contains("Cell"), "{:?}", texts(&doc));
        doc.shapes().filter(|s| matches!(s, Shape::Node(_))).count()
    };
    let table = "<table{attrs}><tr><th>Head</th><th>Other</th></tr><tr><td>Cell</td><td>Two</td></tr></table>";
    let with = |attrs: &str| table.replace("{attrs}", attrs);
    assert_eq!(lines(&with("")), 0);
    assert_eq!(lines(&with(" border=0")), 0);
    assert_eq!(lines(&with(" border=1")), 4);
    assert_eq!(lines(&with(" border")), 4);
    assert_eq!(
        lines(&format!(
            "<style>td, th {{ border: 1px solid #000 }}</style>{}",
            with("")
        )),
        4
    );
    assert_eq!(
        lines(&format!(
            "<style>table {{ border: none }}</style>{}",
            with("")
        )),
        0
    );
    assert_eq!(lines(&with(" style='border-width: 0'")), 0);
}

/// The style sheet's colours, weights, slants and families reach the runs, inherited by
/// what an element holds; a link stays link blue.
#[test]
fn the_style_sheet_colours_and_weights_text() {
    let out = import(
        "<style>.warn { color: #c00 } .ok { color: rgb(0, 128, 0) } b.k, .k { font-weight: 700 }\
         .aside { font-style: italic; font-family: Arial, sans-serif } p { color: navy }</style>\
         <p class='warn'>Red <span class='k'>bold red</span> <a href='https://example.com'>link</a></p>\
         <p>Navy</p><div class='ok'>Green</div><div class='aside'>Slanted</div>",
    );
    let doc = &out.document;
    let red = quire_sdk::Color::rgb(0xcc, 0, 0);
    assert_eq!(run(doc, "Red ").color, Some(red));
    let bold_red = run(doc, "bold red");
    assert!(bold_red.bold && bold_red.color == Some(red), "{bold_red:?}");
    assert_ne!(run(doc, "link").color, Some(red));
    assert_eq!(
        run(doc, "Navy").color,
        Some(quire_sdk::Color::rgb(0, 0, 0x80))
    );
    assert_eq!(
        run(doc, "Green").color,
        Some(quire_sdk::Color::rgb(0, 128, 0))
    );
    let slanted = run(doc, "Slanted");
    assert!(
        slanted.italic && slanted.font == FontFamily::Helvetica,
        "{slanted:?}"
    );
}

/// Centred and right-aligned blocks, from the style sheet, `align` or `<center>`, as a
/// browser sets them; what they hold inherits it.
#[test]
fn blocks_keep_their_alignment() {
    let out = import(
        "<style>.cover { text-align: center } .sig { text-align: right }</style>\
         <div class='cover'><h1>Annual Report</h1><p>Fiscal year 2025</p></div>\
         <p align='right'>Page one</p><center>Old centring</center><p class='sig'>Signed</p>\
         <p>Plain</p>",
    );
    let aligned = |text: &str| {
        boxes(&out.document)
            .into_iter()
            .find(|t| t.text.plain_text() == text)
            .unwrap_or_else(|| panic!("no box {text:?}"))
            .text
            .align
    };
    assert_eq!(aligned("Annual Report"), Align::Center);
    assert_eq!(aligned("Fiscal year 2025"), Align::Center);
    assert_eq!(aligned("Page one"), Align::Right);
    assert_eq!(aligned("Old centring"), Align::Center);
    assert_eq!(aligned("Signed"), Align::Right);
    assert_eq!(aligned("Plain"), Align::Left);
}

/// `text-transform` as a browser applies it: inherited, `none` undoing a parent's, and
/// `capitalize` starting words across elements.
#[test]
fn the_style_sheet_transforms_letter_case() {
    let out = import(
        "<style>nav, .shout { text-transform: uppercase } .quiet { text-transform: lowercase }\
         .name { text-transform: capitalize } .as-is { text-transform: none }</style>\
         <nav>Home <a href='/about'>about us</a> <span class='as-is'>iPhone</span></nav>\
         <p class='quiet'>SHOUTING Stops</p><p class='name'>jean-<i>luc</i> <b>picard</b> o'neill 3d (wide)</p>\
         <p>Straße</p><p class='shout'>straße</p><p class='shout'>привет γειά σου</p>\
         <p class='name'>привет мир</p>",
    );
    let doc = &out.document;
    text_box(doc, "HOME ABOUT US iPhone");
    text_box(doc, "shouting stops");
    // Words as Chromium sees them: a hyphen or bracket ends one, an apostrophe does not.
    text_box(doc, "Jean-Luc Picard O'neill 3d (Wide)");
    text_box(doc, "Straße");
    // Upper case as Unicode writes it: ß is SS.
    text_box(doc, "STRASSE");
    // Other cased scripts as Chromium prints them (Unicode's full mappings).
    text_box(doc, "ПРИВЕТ ΓΕΙΆ ΣΟΥ");
    text_box(doc, "Привет Мир");
}

/// Cell backgrounds as a browser paints them: the cell's own (style sheet or `bgcolor`),
/// else its row's, row group's or table's, which show through a `transparent` cell;
/// `background: none` or a picture without a colour paints none.
#[test]
fn table_cells_keep_their_backgrounds() {
    let out = import(
        "<style>.spec td:nth-child(odd) { background: #ebedf1 } thead tr { background-color: rgb(0, 0, 128) }\
         .spec td.clear { background: transparent }</style>\
         <table class='spec'><thead><tr><th>Head</th><th style='background-color: #ff0000'>Red head</th></tr></thead>\
         <tbody><tr><td>Name</td><td>Mate</td></tr><tr bgcolor='#00ff00'><td>Weight</td><td>200 g</td></tr>\
         <tr bgcolor='yellow'><td class='clear'>Clear</td><td>Row's</td></tr></tbody></table>\
         <table bgcolor='#cccccc'><tr><td>Grey table</td></tr></table><table><tr><td>Plain</td>\
         <td style='background: #123456; background: none'>None</td><td style='background: url(x.png)'>Picture</td></tr></table>",
    );
    let doc = &out.document;
    let page = &doc.pages[0];
    // The fill drawn under the text box holding `text`.
    let fill_under = |text: &str| {
        let at = page
            .shapes
            .iter()
            .position(|s| matches!(s, Shape::Text(t) if t.text.plain_text() == text))
            .unwrap_or_else(|| panic!("no box {text:?} in {:?}", texts(doc)));
        match at.checked_sub(1).map(|i| &page.shapes[i]) {
            Some(Shape::Node(n)) if n.text.is_none() => n.fill,
            _ => None,
        }
    };
    let rgb = quire_sdk::Color::rgb;
    assert_eq!(fill_under("Head"), Some(rgb(0, 0, 128)));
    assert_eq!(fill_under("Red head"), Some(rgb(255, 0, 0)));
    assert_eq!(fill_under("Name"), Some(rgb(0xeb, 0xed, 0xf1)));
    assert_eq!(fill_under("Mate"), None);
    assert_eq!(fill_under("Weight"), Some(rgb(0xeb, 0xed, 0xf1)));
    assert_eq!(fill_under("200 g"), Some(rgb(0, 255, 0)));
    let yellow = rgb(255, 255, 0);
    assert_eq!(fill_under("Clear"), Some(yellow));
    assert_eq!(fill_under("Row's"), Some(yellow));
    assert_eq!(fill_under("None"), None);
    assert_eq!(fill_under("Picture"), None);
    assert_eq!(fill_under("Grey table"), Some(rgb(0xcc, 0xcc, 0xcc)));
    assert_eq!(fill_under("Plain"), None);
}

#[test]
fn remote_and_local_pictures_are_never_fetched() {
    let out = import(
        "<p>Before <img src='https://example.com/cat.png' alt='A cat'> after</p>\
         <p><img src='//cdn.example.com/dog.png' alt='A dog'></p>\
         <p><img src='file:///etc/passwd' alt='Local'><img src='../secret.png' alt='Path'></p>",
    );
    let doc = &out.document;
    assert!(out.assets.is_empty());
    assert!(!doc.shapes().any(|s| matches!(s, Shape::Image(_))));
    assert_paragraph(doc, "Before A cat after");
    assert!(run(doc, "A cat").italic, "alt text stands in, in italics");
    let remote: Vec<&String> = out
        .warnings
        .iter()
        .filter(|w| w.contains("on the web"))
        .collect();
    assert_eq!(
        remote.len(),
        1,
        "one warning for the remote pictures: {:?}",
        out.warnings
    );
    assert!(remote[0]
        .starts_with("2 images on the web were not fetched (first: https://example.com/cat.png)"));
    assert!(out
        .warnings
        .iter()
        .any(|w| w.contains("`file:///etc/passwd` was not supplied")));
    assert!(out
        .warnings
        .iter()
        .any(|w| w.contains("`../secret.png` was not supplied")));
}

#[test]
fn a_picture_named_with_non_ascii_characters_gets_its_alt_text() {
    // `src` once was cut at byte 5 to look for `data:`, inside the third character here.
    let out = import(
        "<p>Before <img src='\u{65e5}\u{672c}.png' alt='Nihon'> after</p>\
         <p><img src='logo\u{e9}.png' alt='Logo'></p>",
    );
    assert_paragraph(&out.document, "Before Nihon after");
    assert_paragraph(&out.document, "Logo");
    assert!(
        out.warnings
            .iter()
            .any(|w| w.contains("`\u{65e5}\u{672c}.png` was not supplied")),
        "{:?}",
        out.warnings
    );
}

fn png(w: u32, h: u32) -> Vec<u8> {
    let mut b = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    b.extend_from_slice(&w.to_be_bytes());
    b.extend_from_slice(&h.to_be_bytes());
    b.extend_from_slice(&[8, 2, 0, 0, 0, 0, 0, 0, 0]);
    b
}

#[test]
fn supplied_and_data_uri_pictures_become_image_shapes() {
    let logo = Asset {
        name: "logo.png".into(),
        media_type: "image/png".into(),
        bytes: png(200, 100),
    };
    let data = {
        use base64::Engine as _;
        base64::engine::general_purpose::STANDARD.encode(png(40, 40))
    };
    let html = format!(
        "<p>Text <a href='https://quire.example'><img src='https://site.example/img/logo.png' alt='Logo'></a> more</p>\
         <img src='data:image/png;base64,{data}' alt='dot' width='20'>\
         <img src=\"data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==\" alt='gif'>"
    );
    let out = import_with(&html, vec![logo]);
    let images: Vec<&quire_sdk::Image> = out
        .document
        .shapes()
        .filter_map(|s| match s {
            Shape::Image(i) => Some(i),
            _ => None,
        })
        .collect();
    assert_eq!(images.len(), 2);
    assert_eq!(images[0].asset, "logo.png");
    assert_eq!(images[0].link.as_deref(), Some("https://quire.example"));
    // 200 x 100 CSS pixels at 96 dpi: 150 x 75 points.
    assert!((images[0].frame.w - 150.0).abs() < 1e-6 && (images[0].frame.h - 75.0).abs() < 1e-6);
    assert_eq!(images[1].asset, "data-image-1.png");
    assert!(
        (images[1].frame.w - 15.0).abs() < 1e-6,
        "width attribute: 20 px"
    );
    let names: Vec<&str> = out.assets.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["logo.png", "data-image-1.png"]);
    assert_eq!(out.assets[1].bytes, png(40, 40));
    assert_paragraph(&out.document, "Text");
    assert_paragraph(&out.document, "more");
    assert!(all_text(&out.document).contains("gif"));
    assert!(
        out.warnings.iter().any(|w| w.contains("image/gif")),
        "{:?}",
        out.warnings
    );
}

/// A picture stands where its block aligns text, as in a browser: a README's logo in
/// `<p align="center">`, a `text-align: right` signature, `<center>`.
#[test]
fn pictures_stand_where_their_block_aligns_text() {
    let logo = || Asset {
        name: "logo.png".into(),
        media_type: "image/png".into(),
        bytes: png(200, 100),
    };
    let x_of = |html: &str| {
        let out = import_with(html, vec![logo()]);
        let frame = out
            .document
            .shapes()
            .find_map(|s| match s {
                Shape::Image(i) => Some(i.frame),
                _ => None,
            })
            .expect("a picture");
        (frame.x, frame.x + frame.w, out.document.pages[0].width)
    };
    let (left, _, _) = x_of("<p><img src='logo.png'></p>");
    let (x, right, width) = x_of("<p align='center'><img src='logo.png'></p>");
    assert!(
        ((x - left) - (width - left - right)).abs() < 1.0,
        "centred: {x}..{right}"
    );
    let (_, right_edge, _) = x_of("<div style='text-align: right'><img src='logo.png'></div>");
    assert!((right_edge - (width - left)).abs() < 1.0, "{right_edge}");
    assert!(x_of("<center><img src='logo.png'></center>").0 > left + 50.0);
}

/// SVG pictures are drawn as Chromium draws them: an inline `<svg>`, an `<img>` of a
/// supplied SVG and a `data:` SVG each become a drawing in the picture's place with their
/// text kept as text; an icon in a line of text is left out with a warning, as before.
#[test]
fn svg_pictures_inline_supplied_and_embedded_are_drawn() {
    let chart = r##"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="200" height="100" fill="#eef"/><text x="20" y="50">Supplied chart</text></svg>"##;
    let data = {
        use base64::Engine as _;
        base64::engine::general_purpose::STANDARD.encode(
            r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 80 40"><text x="4" y="20">Embedded badge</text></svg>"##,
        )
    };
    let html = format!(
        "<h1>Report</h1>\
         <figure><svg viewBox='0 0 400 200' width='400'><rect width='400' height='200' fill='#cde'/>\
         <text x='10' y='100' font-size='24'>Inline figure</text></svg></figure>\
         <p>See <a href='https://quire.example'><svg width='16' height='16'><path d='M0 0L16 8L0 16z'/></svg>the site</a> now.</p>\
         <img src='chart.svg' alt='Chart'><img src='data:image/svg+xml;base64,{data}' alt='Badge' width='160'>"
    );
    let svg = Asset {
        name: "chart.svg".into(),
        media_type: "image/svg+xml".into(),
        bytes: chart.as_bytes().to_vec(),
    };
    let out = import_with(&html, vec![svg]);
    let groups: Vec<&quire_sdk::Group> = out
        .document
        .shapes()
        .filter_map(|s| match s {
            Shape::Group(g) => Some(g),
            _ => None,
        })
        .collect();
    let text_of = |g: &quire_sdk::Group| -> String {
        quire_sdk::ShapeWalk::new(&g.children)
            .filter_map(|s| match s {
                Shape::Text(t) => Some(t.text.plain_text()),
                _ => None,
            })
            .collect()
    };
    let drawn: Vec<String> = groups.iter().map(|g| text_of(g)).collect();
    assert_eq!(drawn, ["Inline figure", "Supplied chart", "Embedded badge"]);
    // 400 CSS pixels wide: 300 points; the badge's width attribute wins over its viewBox.
    assert_eq!((groups[0].frame.w, groups[0].frame.h), (300.0, 150.0));
    assert_eq!((groups[1].frame.w, groups[1].frame.h), (150.0, 75.0));
    assert_eq!((groups[2].frame.w, groups[2].frame.h), (120.0, 60.0));
    assert_paragraph(&out.document, "See the site now.");
    assert!(
        out.warnings
            .iter()
            .any(|w| w.contains("1 inline SVG icon ")),
        "{:?}",
        out.warnings
    );
    // Nothing of the drawings is an asset: they are shapes.
    assert!(out.assets.is_empty(), "{:?}", out.assets);
}

/// `font-size` from the style sheets and `style` attributes sets the text's size as
/// Chromium does: lengths and keywords in points, shares of the size around, headings a
/// share of the body's size once the page sets it; a page that sets none keeps the flow's
/// typography.
#[test]
fn the_style_sheet_sets_font_sizes() {
    let out = import(
        "<style>body { font-size: 10pt } .big { font-size: 150% } h1 { font-size: 18pt }\
         .note { font-size: small } .em { font-size: 0.8em }</style>\
         <h1>Title</h1><h2>Section</h2><p>Body <span class=big>large</span> \
         <span style='font-size: 8px'>tiny</span> <span class=em>smaller</span></p>\
         <p class=note>Note</p>",
    );
    let size = |text: &str| run(&out.document, text).size;
    assert_eq!(size("Title"), 18.0);
    // h2 is 1.5em of the body's 10pt.
    assert_eq!(size("Section"), 15.0);
    assert_eq!(size("Body "), 10.0);
    assert_eq!(size("large"), 15.0);
    assert_eq!(size("tiny"), 6.0);
    assert!((size("smaller") - 8.0).abs() < 1e-5, "{}", size("smaller"));
    assert_eq!(size("Note"), 9.75);

    let plain = import(
        "<h1>Title</h1><p>Body <span style='font-size: 200%'>big</span> \
         <font size=2>two</font> <font size='+2'>five</font></p>",
    );
    let size = |text: &str| run(&plain.document, text).size;
    // A browser's 16 px text.
    assert_eq!((size("Title"), size("Body ")), (24.0, 12.0));
    assert_eq!(size("big"), 24.0);
    // `<font size>`: 2 is `small` (13 px), +2 is 5, `x-large` (24 px).
    assert_eq!((size("two"), size("five")), (9.75, 18.0));
}

#[test]
fn utf16_with_a_byte_order_mark() {
    let html = "<p>caf\u{e9} \u{20ac}5 \u{65e5}\u{672c}</p>";
    for le in [true, false] {
        let mut bytes = if le {
            vec![0xFF, 0xFE]
        } else {
            vec![0xFE, 0xFF]
        };
        for u in html.encode_utf16() {
            bytes.extend_from_slice(&if le { u.to_le_bytes() } else { u.to_be_bytes() });
        }
        let out = quire_html::convert(request(bytes)).expect("converts");
        assert_eq!(
            texts(&out.document),
            ["caf\u{e9} \u{20ac}5 \u{65e5}\u{672c}"]
        );
    }
}

#[test]
fn meta_charset_latin1_and_the_windows_1252_fallback() {
    let out = quire_html::convert(request(
        &b"<html><head><meta charset=\"iso-8859-1\"></head><body><p>caf\xE9</p></body></html>"[..],
    ))
    .expect("converts");
    assert_eq!(texts(&out.document), ["caf\u{e9}"]);
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);

    let out = quire_html::convert(request(
        &b"<meta http-equiv='Content-Type' content='text/html; charset=windows-1252'><p>\x93quoted\x94</p>"[..],
    ))
    .expect("converts");
    assert_eq!(texts(&out.document), ["\u{201c}quoted\u{201d}"]);

    // No declaration and not UTF-8: read as windows-1252, and said so.
    let out = quire_html::convert(request(&b"<p>na\xEFve</p>"[..])).expect("converts");
    assert_eq!(texts(&out.document), ["na\u{ef}ve"]);
    assert!(out.warnings.iter().any(|w| w.contains("windows-1252")));
}

/// An invoice's amounts, right-aligned by its style sheet (as Sparksuite's template does),
/// and a page with no style sheet whose `style` attributes still colour (an inline element's
/// colour is a run of its own) and hide.
#[test]
fn cells_take_their_alignment_from_the_style_sheet() {
    let out = import(
        "<style>.invoice td:nth-child(2) { text-align: right } .invoice tr.total td { text-align: center }</style>\
         <table class='invoice'><tr><td>Website design</td><td>$300.00</td></tr>\
         <tr class='total'><td>Total</td><td>$385.00</td></tr></table>",
    );
    let doc = &out.document;
    let cell = |text: &str| text_box(doc, text);
    assert_eq!(cell("Website design").text.align, Align::Left);
    assert_eq!(cell("$300.00").text.align, Align::Right);
    assert_eq!(cell("Total").text.align, Align::Center);
    assert_eq!(cell("$385.00").text.align, Align::Center);

    let out = import(
        "<p>plain <span style='color: #c00000'>red</span> <b style='color: rgb(0, 128, 0)'>green</b></p>\
         <p style='DISPLAY : none'>gone</p><p>kept</p>",
    );
    let doc = &out.document;
    assert_eq!(
        run(doc, "red").color,
        Some(quire_sdk::Color::rgb(0xc0, 0, 0))
    );
    assert_eq!(run(doc, "plain ").color, None);
    assert_eq!(
        run(doc, "green").color,
        Some(quire_sdk::Color::rgb(0, 128, 0))
    );
    assert!(!all_text(doc).contains("gone"), "{}", all_text(doc));
}

#[test]
fn tables_keep_alignment_spans_and_header() {
    let out = import(
        "<table><caption>Prices</caption>\
         <thead><tr><th>Item</th><th align='right'>Cost</th><th style='text-align: center'>Note</th></tr></thead>\
         <tbody><tr><td>Tea</td><td align=right>3.50</td><td style='text-align:center'>hot</td></tr>\
         <tr><td colspan=2>Spanning</td><td rowspan=2 style='TEXT-ALIGN: CENTER'>tall</td></tr>\
         <tr><th>Row head</th><td align=right>1</td></tr></tbody>\
         <tfoot><tr><td>Total</td><td align=right>4.50</td><td></td></tr></tfoot></table>",
    );
    let doc = &out.document;
    let cell = |text: &str| text_box(doc, text);
    assert_eq!(cell("Cost").text.align, Align::Right);
    assert_eq!(cell("3.50").text.align, Align::Right);
    assert_eq!(cell("hot").text.align, Align::Center);
    assert_eq!(cell("Tea").text.align, Align::Left);
    assert!(cell("Item").text.runs[0].bold, "header row is bold");
    assert!(!cell("Tea").text.runs[0].bold);
    assert!(
        cell("Row head").text.runs[0].bold,
        "a <th> in the body is bold"
    );
    // The caption comes first, centred and upright, as Chromium prints it.
    assert_eq!(cell("Prices").text.align, Align::Center);
    assert!(!cell("Prices").text.runs[0].italic);
    // The row after the rowspan keeps its cells in their columns: `1` sits under `3.50`.
    assert!((cell("1").frame.x - cell("3.50").frame.x).abs() < 1e-6);
    // The foot comes last.
    let order = texts(doc);
    let pos = |t: &str| order.iter().position(|x| x == t).expect("present");
    assert!(pos("Total") > pos("Row head"));
    assert!(pos("Prices") < pos("Item"));
}

#[test]
fn block_content_inside_cells_becomes_lines() {
    let out = import(
        "<table><tr><td><p>first</p><p>second</p><ul><li>a</li><li>b</li></ul>\
         <table><tr><td>inner</td><td>cell</td></tr></table></td><td>x</td></tr></table>",
    );
    let t = texts(&out.document);
    assert!(
        t.contains(&"first\nsecond\n\u{2022} a\n\u{2022} b\ninner cell".to_string()),
        "{t:?}"
    );
}

#[test]
fn headings_lists_quotes_code_and_rules() {
    let out = import(
        "<h1>Title</h1><h3>Third <em>level</em></h3>\
         <ol start='5'><li>five</li><li>six<ul><li>nested</li></ul></li></ol>\
         <blockquote><p>quoted</p></blockquote>\
         <pre>  line one\n\tindented\n</pre><hr>\
         <dl><dt>Term</dt><dd>Definition</dd></dl>\
         <p>a <code>x = 1</code> and <s>gone</s> <del>too</del> <u>under</u> \u{201c}<q>q</q>\u{201d}</p>",
    );
    let doc = &out.document;
    let title = run(doc, "Title");
    // As a browser sets it: bold, in the text's family.
    assert_eq!(
        (title.size, title.bold, title.font),
        (24.0, true, FontFamily::Times)
    );
    assert_eq!(run(doc, "Third ").size, 14.0);
    assert!(run(doc, "level").italic);
    let t = texts(doc);
    assert!(
        t.contains(&"5.".to_string()) && t.contains(&"6.".to_string()),
        "{t:?}"
    );
    assert!(t.contains(&"nested".to_string()));
    // Code keeps its spaces, tabs expand to the next multiple of four.
    let code = run(doc, "  line one\n    indented");
    assert_eq!(code.font, FontFamily::Courier);
    assert!(
        doc.shapes()
            .any(|s| matches!(s, Shape::Path(_) | Shape::Node(_))),
        "rule, quote bar"
    );
    assert!(run(doc, "Term").bold);
    assert!(!run(doc, "Definition").bold);
    assert_eq!(run(doc, "x = 1").font, FontFamily::Courier);
    assert!(run(doc, "gone").strike);
    assert!(run(doc, "too").strike);
    assert_paragraph(doc, "a x = 1 and gone too under q");
}

#[test]
fn whitespace_collapses_like_a_browser() {
    let out = import("<p>\n   one \t two\n<b> three </b> <i>  four</i> five<br>\n   six   </p>");
    assert_eq!(texts(&out.document), ["one two three four five\nsix"]);
    let out = import("<div>  lone  <span> words </span> </div>");
    assert_eq!(texts(&out.document), ["lone words"]);
    // A non-breaking space is not whitespace to collapse.
    let out = import("<p>a&nbsp;&nbsp;b</p>");
    assert_eq!(texts(&out.document), ["a\u{a0}\u{a0}b"]);
}

#[test]
fn links_clickable_relative_and_script() {
    let out = import(
        "<p><a href='https://a.example/x'>abs</a> <a href='/rel'>rel</a> \
         <a href='javascript:alert(1)'>js</a> <a href='mailto:me@a.example'>mail</a></p>",
    );
    let doc = &out.document;
    assert_eq!(run(doc, "abs").link.as_deref(), Some("https://a.example/x"));
    assert!(run(doc, "abs").underline);
    assert!(runs(doc)
        .iter()
        .filter(|r| r.text.contains("rel") || r.text.contains("js"))
        .all(|r| r.link.is_none()));
    assert_eq!(
        run(doc, "mail").link.as_deref(),
        Some("mailto:me@a.example")
    );
    assert!(
        out.warnings
            .iter()
            .any(|w| w.starts_with("1 relative link is (first: `/rel`)")),
        "{:?}",
        out.warnings
    );

    let out = import("<head><base href='https://b.example/docs/'></head><a href='page.html'>p</a>");
    assert_eq!(
        run(&out.document, "p").link.as_deref(),
        Some("https://b.example/docs/page.html")
    );
}

#[test]
fn anchor_links_jump_to_the_heading_page() {
    let mut html = String::from(
        "<p><a href='#second'>to second</a> <a href='#missing'>nowhere</a> <a href='#sub'>to sub</a></p>",
    );
    for i in 0..80 {
        html.push_str(&format!(
            "<p>Filler paragraph {i} with enough words to take a line or two of the page.</p>"
        ));
    }
    html.push_str("<section id='second'><h2>Second part</h2><p>text</p></section>");
    html.push_str("<h3><span id='sub'>Sub</span> part</h3>");
    let out = import(&html);
    let doc = &out.document;
    let page_of = |text: &str| {
        doc.pages
            .iter()
            .position(|p| {
                p.shapes
                    .iter()
                    .any(|s| matches!(s, Shape::Text(t) if t.text.plain_text() == text))
            })
            .expect("placed")
            + 1
    };
    let second = page_of("Second part");
    assert!(second > 1);
    assert_eq!(run(doc, "to second").link, Some(format!("#page={second}")));
    assert_eq!(
        run(doc, "to sub").link,
        Some(format!("#page={}", page_of("Sub part")))
    );
    assert!(runs(doc)
        .iter()
        .find(|r| r.text.contains("nowhere"))
        .expect("kept")
        .link
        .is_none());
}

#[test]
fn deep_nesting_neither_overflows_nor_loses_text() {
    // 100 000 nested elements of several kinds, run on a thread with a small stack (the
    // component's is 1 MiB).
    let mut html = String::new();
    for i in 0..25_000 {
        html.push_str(["<div>", "<blockquote>", "<ul><li>", "<span>"][i % 4]);
    }
    html.push_str("deep words here");
    let handle = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || quire_html::convert(request(html)))
        .expect("spawns");
    let out = handle.join().expect("no stack overflow").expect("converts");
    assert_paragraph(&out.document, "deep words here");

    // Nested tables: the tree builder adds `tbody` and `tr` to each level, so the tree is
    // twice as deep as the tags say and the walk's own limit is what flattens it.
    let html = format!(
        "{}cell words{}",
        "<table><td>".repeat(150),
        "</td></table>".repeat(150)
    );
    let handle = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || quire_html::convert(request(html)))
        .expect("spawns");
    let out = handle.join().expect("no stack overflow").expect("converts");
    assert!(all_text(&out.document).contains("cell words"));
}

#[test]
fn oversized_input_is_too_large() {
    let big = vec![b'a'; quire_html::MAX_INPUT + 1];
    assert!(matches!(
        quire_html::convert(request(big)),
        Err(ConvertError::TooLarge(m)) if m.contains("16 MiB")
    ));
}

#[test]
fn empty_and_garbage_input_give_one_page() {
    for input in [
        &b""[..],
        b"\0\0\0",
        b"<<<>>>",
        b"</p></div></table>",
        &[0xFF; 64],
    ] {
        let out = quire_html::convert(request(input)).expect("converts");
        assert_eq!(out.document.pages.len(), 1);
    }
}

#[test]
fn title_option_wins() {
    let mut r = request("<title>Page</title><p>x</p>");
    r.options.push(("title".into(), "Mine".into()));
    let out = quire_html::convert(r).expect("converts");
    assert_eq!(out.document.title.as_deref(), Some("Mine"));
}

#[test]
fn too_many_elements_are_too_large() {
    let html = "<br>".repeat(500_001);
    let e = quire_html::convert(request(html)).expect_err("refused");
    assert!(
        matches!(&e, ConvertError::TooLarge(m) if m.contains("500000 elements")),
        "{e:?}"
    );
}

/// A text area shows its text, and `<xmp>` its markup, as written: line breaks kept,
/// entities of the text area decoded, in a monospace font (a browser's defaults for both).
#[test]
fn text_areas_and_xmp_show_their_text_as_written() {
    let out = import(
        "<p>Before</p><form><textarea name=note>Dear &amp; kind\n  second line</textarea></form>\
         <xmp>Raw <b>markup</b> &amp; stays</xmp><p>After</p>",
    );
    let all = all_text(&out.document);
    assert!(all.contains("Dear & kind\n  second line"), "{all}");
    assert!(all.contains("Raw <b>markup</b> &amp; stays"), "{all}");
    for text in ["Dear & kind", "Raw <b>markup</b>"] {
        let shown = runs(&out.document)
            .into_iter()
            .find(|r| r.text.contains(text))
            .unwrap_or_else(|| panic!("no run holds {text:?}"));
        assert_eq!(shown.font, quire_sdk::FontFamily::Courier, "{text}");
    }
    assert!(all.find("Before") < all.find("Dear") && all.find("stays") < all.find("After"));
}

/// A block on another named page (`page: name`) than the blocks before it starts a new
/// page, as Chromium prints it; blocks that share one stay together.
#[test]
fn named_pages_start_new_pages() {
    let out = import(
        "<style>.spec { page: spec } table { border: 1px solid }</style>\
         <header>Running header</header><p>Intro</p>\
         <section class='spec'><p>Specification</p><table><tr><td>Cell</td></tr></table></section>\
         <section class='spec'><p>More of it</p></section><p>After</p>",
    );
    let doc = &out.document;
    let page_of = |text: &str| {
        doc.pages
            .iter()
            .position(|p| {
                quire_sdk::ShapeWalk::new(&p.shapes).any(|s| match s {
                    quire_sdk::Shape::Text(t) => t.text.plain_text() == text,
                    _ => false,
                })
            })
            .unwrap_or_else(|| panic!("no {text:?} in {:?}", texts(doc)))
    };
    assert_eq!(page_of("Running header"), 0);
    assert_eq!(page_of("Intro"), 0);
    assert_eq!(page_of("Specification"), 1);
    assert_eq!(page_of("Cell"), 1);
    assert_eq!(page_of("More of it"), 1);
    assert_eq!(page_of("After"), 2);
    assert_eq!(doc.pages.len(), 3);
}
