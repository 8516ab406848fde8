//! Tables as a browser lays them out: spans, the widths and padding the page asks for, and
//! cells' vertical alignment.

mod common;

use common::*;
use quire_sdk::{Color, Document, Node, Rect, Shape};

const CLOSE: f64 = 0.01;

/// The frame of the cell (the smallest node around it) the box holding `text` stands in.
fn cell(doc: &Document, text: &str) -> Rect {
    let t = text_box(doc, text);
    doc.shapes()
        .filter_map(|s| match s {
            Shape::Node(n) => Some(n),
            _ => None,
        })
        .filter(|n: &&Node| {
            let f = n.frame;
            f.x <= t.frame.x
                && f.y <= t.frame.y
                && f.x + f.w >= t.frame.x + t.frame.w
                && f.y + f.h >= t.frame.y + t.frame.h
        })
        .map(|n| n.frame)
        .min_by(|a, b| (a.w * a.h).total_cmp(&(b.w * b.h)))
        .unwrap_or_else(|| panic!("no cell around {text:?}"))
}

/// The text width of the default page: A4, Chromium's 0.4 in margins and `<body>`'s 8 px.
fn text_width(doc: &Document) -> f64 {
    doc.pages[0].width - 2.0 * (28.8 + 6.0)
}

/// The head of an hour sheet (from a paged.js example): `Item` spans both head rows,
/// `Hour` the five columns under it, `Travel` two of them; a body cell spans five.
#[test]
fn colspan_and_rowspan_cover_their_columns_and_rows() {
    let doc = import(
        "<table border=1><thead>\
         <tr><th rowspan=2>Item</th><th rowspan=2>Description</th><th colspan=5>Hour</th></tr>\
         <tr><th>Normal</th><th>O/T 1</th><th>O/T 2</th><th colspan=2>Travel</th></tr></thead>\
         <tbody><tr><td>1</td><td>2</td><td>3</td><td>4</td><td>5</td><td>6</td><td>7</td></tr>\
         <tr><td>--</td><td>fffff</td><td colspan=5>five columns</td></tr></tbody></table>",
    )
    .document;
    let (item, hour, normal, travel) = (
        cell(&doc, "Item"),
        cell(&doc, "Hour"),
        cell(&doc, "Normal"),
        cell(&doc, "Travel"),
    );
    assert!(
        (item.y + item.h - (normal.y + normal.h)).abs() < CLOSE,
        "{item:?} {normal:?}"
    );
    assert!((hour.x - normal.x).abs() < CLOSE);
    assert!((hour.x + hour.w - (travel.x + travel.w)).abs() < CLOSE);
    let (six, seven) = (cell(&doc, "6"), cell(&doc, "7"));
    assert!(
        (travel.x - six.x).abs() < CLOSE
            && (travel.x + travel.w - (seven.x + seven.w)).abs() < CLOSE
    );
    let five = cell(&doc, "five columns");
    assert!((five.x - hour.x).abs() < CLOSE && (five.w - hour.w).abs() < CLOSE);
    // Both head rows are the header, bold; the body is not.
    assert!(text_box(&doc, "Normal").text.runs[0].bold);
    assert!(!text_box(&doc, "five columns").text.runs[0].bold);
}

/// `width` on the table (attribute or style sheet) and on cells, in percent and pixels.
#[test]
fn tables_and_cells_are_as_wide_as_they_ask() {
    let doc = import(
        "<style>.wide { width: 100% } td.half { width: 50% }</style>\
         <table class=wide border=1><tr><td class=half>half</td><td width=90>ninety</td><td>rest</td></tr></table>\
         <table width='100%' border=1><tr><td>one</td><td>two</td></tr></table>\
         <table border=1><tr><td>narrow</td><td>table</td></tr></table>",
    )
    .document;
    let width = text_width(&doc);
    let (half, ninety, rest) = (cell(&doc, "half"), cell(&doc, "ninety"), cell(&doc, "rest"));
    assert!((half.w + ninety.w + rest.w - width).abs() < CLOSE);
    assert!((half.w - width / 2.0).abs() < CLOSE, "{half:?}");
    // 90 CSS pixels are 67.5 points, and the cell's padding is added.
    assert!(ninety.w > 67.5 && ninety.w < 67.5 + 10.0, "{ninety:?}");
    let (one, two) = (cell(&doc, "one"), cell(&doc, "two"));
    assert!((one.w + two.w - width).abs() < CLOSE);
    let (narrow, table) = (cell(&doc, "narrow"), cell(&doc, "table"));
    assert!(narrow.w + table.w < width / 3.0);
}

/// A cell's padding (style sheets in `em` of its own font size, or `cellpadding`) and its
/// text in the middle of a taller row unless it asks for the top.
#[test]
fn cells_keep_their_padding_and_stand_in_the_middle() {
    let doc = import(
        "<style>td.roomy { font-size: 12px; padding: 1em }</style>\
         <table border=1><tr><td class=roomy>roomy</td><td>two<br>lines<br>here</td>\
         <td valign=top>top</td><td>middle</td></tr></table>\
         <table cellpadding=0 border=1><tr><td>tight</td></tr></table>",
    )
    .document;
    let roomy = text_box(&doc, "roomy");
    let frame = cell(&doc, "roomy");
    // 1em of 12 px is 9 points.
    assert!(
        (roomy.frame.x - frame.x - 9.0).abs() < CLOSE,
        "{roomy:?} in {frame:?}"
    );
    let (top, middle) = (text_box(&doc, "top"), text_box(&doc, "middle"));
    let row = cell(&doc, "middle");
    assert!(top.frame.y < middle.frame.y);
    let centre = middle.frame.y + middle.frame.h / 2.0;
    assert!(
        (centre - (row.y + row.h / 2.0)).abs() < 0.5,
        "{middle:?} in {row:?}"
    );
    let tight = text_box(&doc, "tight");
    assert!((tight.frame.x - cell(&doc, "tight").x).abs() < CLOSE);
}

/// A node as drawn: its frame, fill, and stroke colour and width.
type Drawn = (Rect, Option<Color>, Option<(Color, f64)>);

/// The nodes drawn (the lines among them).
fn line_nodes(doc: &Document) -> Vec<Drawn> {
    doc.shapes()
        .filter_map(|s| match s {
            Shape::Node(n) => Some((
                n.frame,
                n.fill,
                n.stroke.as_ref().map(|s| (s.color, s.width)),
            )),
            _ => None,
        })
        .collect()
}

/// Lines from the style sheets are the cells' own, side by side (an invoice's
/// `border-bottom`), in their colour (the text's by default), and the table's frame; a
/// table so drawn has no grid and no shaded header.
#[test]
fn the_style_sheets_borders_are_drawn_side_by_side() {
    let eee = Color::rgb(0xee, 0xee, 0xee);
    let doc = import(
        "<style>td { border-bottom: 1px solid #eee }</style>\
         <table><tr><th>Item</th><th>Price</th></tr><tr><td>Tea</td><td>3.50</td></tr></table>",
    )
    .document;
    let lines = line_nodes(&doc);
    assert_eq!(lines.len(), 2, "{lines:?}");
    for (frame, fill, stroke) in &lines {
        assert_eq!((*fill, *stroke), (Some(eee), None));
        assert!((frame.h - 0.75).abs() < CLOSE);
    }
    let tea = cell_bottom(&doc, "Tea");
    assert!(lines
        .iter()
        .any(|(f, ..)| (f.y + f.h / 2.0 - tea).abs() < CLOSE));

    let doc = import(
        "<style>table { border: 2px solid red } td { color: blue; border: thin solid }\
         td.ends { border-style: solid none; border-color: green }</style>\
         <table><tr><td>one</td><td class=ends>two</td></tr></table>",
    )
    .document;
    let lines = line_nodes(&doc);
    let stroked: Vec<_> = lines
        .iter()
        .filter_map(|(f, _, s)| s.map(|s| (*f, s)))
        .collect();
    // `one`'s four sides in its text's blue, and the table's frame in red.
    assert!(
        stroked
            .iter()
            .any(|(_, s)| *s == (Color::rgb(0, 0, 255), 0.75)),
        "{stroked:?}"
    );
    let (frame, _) = stroked
        .iter()
        .find(|(_, s)| *s == (Color::rgb(255, 0, 0), 1.5))
        .expect("the table's frame");
    // `two`: top and bottom only, green, still thin (`td`'s width), from `one`'s right
    // edge to the table's.
    let green: Vec<_> = lines
        .iter()
        .filter(|(_, fill, _)| *fill == Some(Color::rgb(0, 128, 0)))
        .collect();
    assert_eq!(green.len(), 2, "{lines:?}");
    let one = cell(&doc, "one");
    assert!((frame.x - one.x).abs() < CLOSE);
    for (line, ..) in green {
        assert!((line.h - 0.75).abs() < CLOSE);
        assert!((line.x - (one.x + one.w)).abs() < CLOSE);
        assert!((line.x + line.w - (frame.x + frame.w)).abs() < CLOSE);
    }
}

/// The bottom edge of the text box holding `text`'s cell row: the middle of a line drawn
/// along it.
fn cell_bottom(doc: &Document, text: &str) -> f64 {
    let t = text_box(doc, text);
    // The row's bottom is the text's bottom plus a browser's padding: its 1 px and half
    // of its 2 px border-spacing.
    t.frame.y + t.frame.h + 1.5
}

/// A page laid out in nested tables (an invoice's head, an email's wrapper): a row whose
/// one cell spans the table and holds a table is laid out as that table, its cells side by
/// side, not as lines of one cell.
#[test]
fn a_table_in_a_cell_spanning_the_row_is_laid_out_as_a_table() {
    let doc = import(
        "<table width='100%'><tr><td colspan=2><table width='100%'><tr>\
         <td>Sparksuite, Inc.<br>12345 Sunny Road</td><td align=right>Acme Corp.<br>John Doe</td>\
         </tr></table></td></tr>\
         <tr><td>Item</td><td align=right>Price</td></tr></table>\
         <table><tr><td><div><table><tr><td>inner one</td><td>inner two</td></tr></table></div></td></tr></table>         <table><tr><td>&nbsp;</td><td bgcolor='#eeeeee'><table><tr><td>mail one</td><td>mail two</td></tr>         </table></td><td> </td></tr></table>",
    )
    .document;
    let (left, right) = (
        text_box(&doc, "Sparksuite, Inc.\n12345 Sunny Road"),
        text_box(&doc, "Acme Corp.\nJohn Doe"),
    );
    assert!(
        right.frame.x > left.frame.x + left.frame.w,
        "{left:?} {right:?}"
    );
    assert!((left.frame.y - right.frame.y).abs() < CLOSE);
    // The outer table goes on below it.
    let item = text_box(&doc, "Item");
    assert!(item.frame.y > left.frame.y + left.frame.h);
    // Through a wrapping element, in a one-column table.
    let (one, two) = (text_box(&doc, "inner one"), text_box(&doc, "inner two"));
    assert!(two.frame.x > one.frame.x + one.frame.w);
    // An email's row: empty spacer cells beside the one holding the table, whose
    // background becomes a box around it.
    let (one, two) = (text_box(&doc, "mail one"), text_box(&doc, "mail two"));
    assert!(two.frame.x > one.frame.x + one.frame.w);
    let grey = doc.shapes().find_map(|s| match s {
        Shape::Node(n) if n.fill == Some(Color::rgb(0xee, 0xee, 0xee)) => Some(n.frame),
        _ => None,
    });
    let grey = grey.expect("the cell's background");
    assert!(grey.y <= one.frame.y && grey.y + grey.h >= one.frame.y + one.frame.h);
}

/// Without style sheets a cell is padded as a browser pads it (1 px, and half the 2 px
/// border-spacing): a table of many columns (pandoc's planets) fits its words as Chromium
/// does, none broken inside. The columns here are as many as fit with a browser's padding
/// and more than fit with the flow's own (4 pt a side).
#[test]
fn a_wide_table_keeps_its_words_whole_as_a_browser_does() {
    let word = "Temperature";
    let face = quire_sdk::metrics::FontFace::new(quire_sdk::FontFamily::Times, false, false);
    let w = face.text_width(word, 12.0);
    let probe = import("<p>x</p>").document;
    let left = text_box(&probe, "x").frame.x;
    let column = probe.pages[0].width - 2.0 * left;
    let n = (column / (w + 3.0 + 0.5)).floor() as usize;
    assert!(n as f64 * (w + 8.0) > column, "{n} columns fit either way");
    let row = format!("<td>{word}</td>").repeat(n);
    let doc = import(&format!("<table><tr>{row}</tr></table>")).document;
    let cells: Vec<&quire_sdk::TextBox> = doc
        .shapes()
        .filter_map(|s| match s {
            quire_sdk::Shape::Text(t) if t.text.plain_text().starts_with(word) => Some(t),
            _ => None,
        })
        .collect();
    assert_eq!(cells.len(), n);
    for t in cells {
        assert!(
            t.frame.w >= w - 1e-6,
            "`{word}` ({w} pt) in a box {:?}",
            t.frame
        );
    }
}

/// An email's button: a cell holding only a link the style sheets pad (`padding: 12px
/// 24px`, a 2 px border) is that much larger around the link's text, its blue filling it,
/// as in a browser; a link padded beside other words adds nothing to its cell.
#[test]
fn a_padded_link_alone_in_a_cell_is_a_button() {
    let sheet = "<style>td.b { background-color: #0867ec } \
                 .b a { background-color: #0867ec; border: solid 2px #0867ec; color: #ffffff; \
                 display: inline-block; padding: 12px 24px }</style>";
    let blue = Color::rgb(0x08, 0x67, 0xec);
    let fill_of = |doc: &Document| {
        doc.shapes()
            .find_map(|s| match s {
                Shape::Node(n) if n.fill == Some(blue) => Some(n.frame),
                _ => None,
            })
            .expect("the cell's blue")
    };
    let doc = import(&format!(
        "{sheet}<table><tr><td class=b> <a href='https://example.com'>Call To Action</a> </td></tr></table>"
    ))
    .document;
    let (cell, text) = (fill_of(&doc), text_box(&doc, "Call To Action").frame);
    // 12 px and 2 px of border above and below (10.5 pt), 24 px and 2 px beside (19.5 pt),
    // beyond a browser's cell padding.
    assert!(cell.h - text.h >= 2.0 * 10.5, "{cell:?} {text:?}");
    assert!(cell.w - text.w >= 2.0 * 19.5, "{cell:?} {text:?}");

    let doc = import(&format!(
        "{sheet}<table><tr><td class=b>Go <a href='https://example.com'>there</a></td></tr></table>"
    ))
    .document;
    let (cell, text) = (fill_of(&doc), text_box(&doc, "Go there").frame);
    assert!(cell.h - text.h < 2.0 * 10.5, "{cell:?} {text:?}");
}
