//! Flow tables: the tests of the grid (spans), column widths, padding, alignment and
//! rows cut across pages.

use crate::flow::tests::{all_text, check, texts, words};
use crate::flow::*;
use crate::layout::text_height;
use crate::model::{Align, Color, Node, Shape, Text, TextBox, VAlign};

fn cell(text: &str) -> Cell {
    Cell::new(vec![Inline::plain(text)])
}

fn table(rows: Vec<Vec<Cell>>, head_rows: usize, ruled: bool) -> Block {
    Block::Table {
        aligns: Vec::new(),
        rows,
        head_rows,
        ruled,
        width: None,
        frame: None,
    }
}

/// The text box holding exactly `text`.
fn text_box<'p>(pages: &'p [Page], text: &str) -> &'p TextBox {
    texts(pages)
        .into_iter()
        .find(|t| t.text.plain_text() == text)
        .unwrap_or_else(|| panic!("no box holds {text:?}"))
}

/// The cell box (a node) the text box `t` stands in.
fn box_of<'p>(pages: &'p [Page], t: &TextBox) -> &'p Node {
    pages
        .iter()
        .flat_map(|p| &p.shapes)
        .filter_map(|s| match s {
            Shape::Node(n) => Some(n),
            _ => None,
        })
        .filter(|n| {
            let f = n.frame;
            f.x <= t.frame.x
                && f.y <= t.frame.y
                && f.x + f.w >= t.frame.x + t.frame.w
                && f.y + f.h >= t.frame.y + t.frame.h
        })
        .min_by(|a, b| (a.frame.w * a.frame.h).total_cmp(&(b.frame.w * b.frame.h)))
        .unwrap_or_else(|| panic!("no cell around {:?}", t.text.plain_text()))
}

const CLOSE: f64 = 0.01;

#[test]
fn table_columns_follow_alignment_and_rows_split_with_header() {
    let rows: Vec<_> = std::iter::once(vec![cell("Name"), cell("Mid"), cell("Right")])
        .chain((0..200).map(|i| vec![cell(&format!("r{i}")), cell("x"), cell("yy")]))
        .collect();
    let blocks = vec![Block::Table {
        aligns: vec![Align::Left, Align::Center, Align::Right],
        rows,
        head_rows: 1,
        ruled: true,
        width: None,
        frame: None,
    }];
    let (pages, _) = layout(&blocks, &PageSetup::default());
    assert!(pages.len() >= 2);
    for page in &pages {
        let first = page.shapes.iter().find_map(|s| match s {
            Shape::Text(t) => Some(t),
            _ => None,
        });
        assert_eq!(
            first.unwrap().text.plain_text(),
            "Name",
            "header repeated on each page"
        );
    }
    let t = texts(&pages);
    let mid = t.iter().find(|b| b.text.plain_text() == "x").unwrap();
    assert_eq!(mid.text.align, Align::Center);
    let right = t.iter().find(|b| b.text.plain_text() == "yy").unwrap();
    assert_eq!(right.text.align, Align::Right);
    let header = t.iter().find(|b| b.text.plain_text() == "Name").unwrap();
    assert!(header.text.runs[0].bold);
    let all = all_text(&pages);
    let order: Vec<usize> = (0..200)
        .map(|i| all.find(&format!("r{i} ")).unwrap())
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]));
    check(&pages, &[]);
}

#[test]
fn a_table_cell_taller_than_a_page_is_cut() {
    let long: String = "word ".repeat(4000);
    let blocks = vec![table(vec![vec![cell(&long), cell("b")]], 0, true)];
    let (pages, _) = layout(&blocks, &PageSetup::default());
    assert!(pages.len() >= 2);
    assert_eq!(words(&all_text(&pages)).len(), 4001);
    check(&pages, &[]);
}

#[test]
fn a_cells_background_fills_the_whole_cell_under_its_text() {
    let shaded = Color::rgb(0xeb, 0xed, 0xf1);
    let filled = |s: &str, background: Option<Color>| Cell {
        background,
        ..cell(s)
    };
    // A layout table: no lines, so only the shaded cells are drawn behind their text.
    let blocks = vec![table(
        vec![
            vec![
                filled("Product name", Some(shaded)),
                filled("a much longer\nvalue of two lines", None),
            ],
            vec![filled("Weight", Some(shaded)), filled("200 g", None)],
        ],
        0,
        false,
    )];
    let (pages, _) = layout(&blocks, &PageSetup::default());
    let shapes = &pages[0].shapes;
    let fills: Vec<(usize, &Node)> = shapes
        .iter()
        .enumerate()
        .filter_map(|(i, s)| match s {
            Shape::Node(n) => Some((i, n)),
            _ => None,
        })
        .collect();
    assert_eq!(fills.len(), 2, "{shapes:?}");
    for (i, node) in &fills {
        assert_eq!(node.fill, Some(shaded));
        assert_eq!(node.stroke, None);
        // Drawn before (under) the cell's text, and as tall as the row, not the text.
        let Shape::Text(text) = &shapes[i + 1] else {
            panic!("{:?}", shapes[i + 1])
        };
        assert!(node.frame.x <= text.frame.x && node.frame.y <= text.frame.y);
        assert!(node.frame.y + node.frame.h >= text.frame.y + text.frame.h);
    }
    let first_row = fills[0].1.frame.h;
    let one_line = text_height(&Text::plain("200 g", 10.0), 100.0);
    assert!(
        first_row > 2.0 * one_line,
        "the row of two lines: {first_row}"
    );
    check(&pages, &[]);
}

/// The header of an invoice's hour table: `Item` spans two rows, `Hour` four columns, and
/// a body cell three; each covers exactly the columns and rows it spans.
#[test]
fn cells_spanning_columns_and_rows_cover_them() {
    let span = |text: &str, colspan: u16, rowspan: u16| Cell {
        colspan,
        rowspan,
        ..cell(text)
    };
    let rows = vec![
        vec![span("Item", 1, 2), span("Hour", 4, 1)],
        vec![cell("Normal"), cell("O/T 1"), cell("O/T 2"), cell("Travel")],
        vec![cell("1"), cell("2"), cell("3"), cell("4"), cell("5")],
        vec![cell("2"), span("three columns", 3, 1), cell("6")],
    ];
    let (pages, _) = layout(&[table(rows, 2, true)], &PageSetup::default());
    let frame = |text: &str| box_of(&pages, text_box(&pages, text)).frame;
    let (item, hour) = (frame("Item"), frame("Hour"));
    let (normal, travel) = (frame("Normal"), frame("Travel"));
    // `Item` spans both header rows; `Hour` the four columns under it.
    assert!((item.y - hour.y).abs() < CLOSE);
    assert!(
        (item.y + item.h - (normal.y + normal.h)).abs() < CLOSE,
        "{item:?} {normal:?}"
    );
    assert!((hour.x - normal.x).abs() < CLOSE);
    assert!(
        (hour.x + hour.w - (travel.x + travel.w)).abs() < CLOSE,
        "{hour:?} {travel:?}"
    );
    // The body's spanning cell covers columns 2 to 4, `6` the fifth.
    let three = frame("three columns");
    let (two, four) = (frame("2"), frame("4"));
    assert!(
        (three.x - two.x).abs() < CLOSE && (three.x + three.w - (four.x + four.w)).abs() < CLOSE
    );
    assert!((frame("6").x - frame("5").x).abs() < CLOSE);
    // Both header rows are bold.
    assert!(text_box(&pages, "Normal").text.runs[0].bold);
    assert!(!text_box(&pages, "three columns").text.runs[0].bold);
    check(&pages, &[]);
}

/// A cell spanning rows is as tall as the rows together, its text in their middle when it
/// asks for that; the rows it spans are as tall as their own cells need.
#[test]
fn a_cell_spanning_rows_stands_in_their_middle() {
    let rows = vec![
        vec![
            Cell {
                rowspan: 3,
                valign: VAlign::Middle,
                ..cell("middle")
            },
            cell("one"),
        ],
        vec![cell("two")],
        vec![cell("three")],
    ];
    let (pages, _) = layout(&[table(rows, 0, true)], &PageSetup::default());
    let middle = text_box(&pages, "middle");
    let spanned = box_of(&pages, middle).frame;
    let (one, three) = (
        box_of(&pages, text_box(&pages, "one")).frame,
        box_of(&pages, text_box(&pages, "three")).frame,
    );
    assert!((spanned.y - one.y).abs() < CLOSE);
    assert!((spanned.y + spanned.h - (three.y + three.h)).abs() < CLOSE);
    let centre = middle.frame.y + middle.frame.h / 2.0;
    assert!(
        (centre - (spanned.y + spanned.h / 2.0)).abs() < 0.5,
        "{middle:?} in {spanned:?}"
    );
    // Without `Middle` the text would be at the top of the first row.
    assert!(middle.frame.y > one.y + one.h / 2.0);
    check(&pages, &[]);
}

/// A cell spanning more rows than fit a page does not lose text: the rows go one by one.
#[test]
fn rows_held_together_taller_than_a_page_are_cut() {
    let long = "word ".repeat(3000);
    let rows: Vec<Vec<Cell>> = std::iter::once(vec![
        Cell {
            rowspan: 2,
            ..cell("spanning")
        },
        cell(&long),
    ])
    .chain(std::iter::once(vec![cell("second row")]))
    .collect();
    let (pages, _) = layout(&[table(rows, 0, true)], &PageSetup::default());
    assert!(pages.len() >= 2);
    let all = all_text(&pages);
    assert_eq!(words(&all).len(), 3000 + 3);
    assert!(all.find("spanning").unwrap() < all.find("second row").unwrap());
    check(&pages, &[]);
}

/// Widths asked for: the table's share of the text width, a column's share of the table,
/// a column's points; columns that asked for nothing take the rest.
#[test]
fn the_widths_a_table_and_its_cells_ask_for_are_kept() {
    let setup = PageSetup::default();
    let text_width = setup.width - setup.margin_left - setup.margin_right;
    let rows = vec![vec![
        Cell {
            width: Some(Extent::Share(0.25)),
            ..cell("quarter")
        },
        Cell {
            width: Some(Extent::Points(60.0)),
            ..cell("sixty")
        },
        cell("rest"),
    ]];
    let block = Block::Table {
        aligns: Vec::new(),
        rows,
        head_rows: 0,
        ruled: true,
        width: Some(Extent::Share(1.0)),
        frame: None,
    };
    let (pages, _) = layout(&[block], &setup);
    let frame = |text: &str| box_of(&pages, text_box(&pages, text)).frame;
    let (quarter, sixty, rest) = (frame("quarter"), frame("sixty"), frame("rest"));
    assert!((quarter.w + sixty.w + rest.w - text_width).abs() < CLOSE);
    assert!((quarter.w - text_width / 4.0).abs() < CLOSE, "{quarter:?}");
    assert!(
        (sixty.w - (60.0 + 2.0 * CELL_PADDING.left)).abs() < CLOSE,
        "{sixty:?}"
    );
    // Without widths the same table is as narrow as its words.
    let bare = vec![vec![cell("quarter"), cell("sixty"), cell("rest")]];
    let (pages, _) = layout(&[table(bare, 0, true)], &setup);
    let total: f64 = ["quarter", "sixty", "rest"]
        .iter()
        .map(|t| box_of(&pages, text_box(&pages, t)).frame.w)
        .sum();
    assert!(total < text_width / 2.0, "{total}");
}

/// A cell's own padding sets its text that far in from its edges.
#[test]
fn a_cells_padding_is_kept() {
    let padding = Insets {
        top: 9.0,
        right: 2.0,
        bottom: 5.0,
        left: 12.0,
    };
    let rows = vec![vec![
        Cell {
            padding: Some(padding),
            ..cell("padded")
        },
        cell("plain"),
    ]];
    let (pages, _) = layout(&[table(rows, 0, true)], &PageSetup::default());
    let padded = text_box(&pages, "padded");
    let frame = box_of(&pages, padded).frame;
    assert!((padded.frame.x - frame.x - 12.0).abs() < CLOSE);
    assert!((padded.frame.y - frame.y - 9.0).abs() < CLOSE);
    assert!(
        (frame.h - (padded.frame.h + 14.0)).abs() < CLOSE,
        "{frame:?}"
    );
    let plain = text_box(&pages, "plain");
    assert!((plain.frame.x - box_of(&pages, plain).frame.x - CELL_PADDING.left).abs() < CLOSE);
}

/// A row of ten thousand cells makes at most 64 columns and keeps every cell's text.
#[test]
fn a_row_of_very_many_cells_is_folded_into_the_last_columns() {
    let row: Vec<Cell> = (0..10_000).map(|i| cell(&format!("c{i}"))).collect();
    let spans = vec![
        Cell {
            colspan: u16::MAX,
            rowspan: u16::MAX,
            ..cell("wide")
        },
        cell("after"),
    ];
    let (pages, _) = layout(&[table(vec![row, spans], 0, false)], &PageSetup::default());
    // Narrow columns break words, so the text is compared without its spaces.
    let squeezed: String = all_text(&pages).split_whitespace().collect();
    let expected: String = (0..10_000)
        .map(|i| format!("c{i}"))
        .chain(["wide".into(), "after".into()])
        .collect();
    assert_eq!(squeezed, expected);
    let columns: std::collections::BTreeSet<u64> =
        texts(&pages).iter().map(|t| t.frame.x.to_bits()).collect();
    assert!(columns.len() <= 64, "{} columns", columns.len());
    check(&pages, &[]);
}

/// Rows chained by row spans into one band of thousands of rows, taller than any page: laid
/// out row by row with every word, in order.
#[test]
fn a_band_of_thousands_of_rows_is_laid_out_row_by_row() {
    let rows: Vec<Vec<Cell>> = (0..4000)
        .map(|i| {
            vec![
                Cell {
                    rowspan: 2,
                    ..cell(&format!("a{i}"))
                },
                cell(&format!("b{i}")),
            ]
        })
        .collect();
    let (pages, _) = layout(&[table(rows, 0, true)], &PageSetup::default());
    let all = all_text(&pages);
    let words = words(&all);
    assert_eq!(words.len(), 8000);
    let second: Vec<&str> = words.into_iter().filter(|w| w.starts_with('b')).collect();
    let expected: Vec<String> = (0..4000).map(|i| format!("b{i}")).collect();
    assert_eq!(second, expected);
    check(&pages, &[]);
}

/// A table whose widest words do not fit is set smaller, as a browser shrinks such a page
/// to fit, down to three quarters; what is still too wide runs into the right margin, and
/// only past the middle of the margin are words broken.
#[test]
fn a_table_of_long_words_is_shrunk_then_runs_into_the_margin_before_breaking_them() {
    // Half the right margin is wider than one word, so some count of words lands in it.
    let setup = PageSetup {
        margin_right: 160.0,
        ..PageSetup::default()
    };
    let text_right = setup.width - setup.margin_right;
    let text_width = text_right - setup.margin_left;
    let middle_of_margin = setup.width - setup.margin_right / 2.0;
    let size = setup.body_size * setup.table_scale;
    let words_of =
        |n: usize| -> Vec<String> { (0..n).map(|i| format!("Temperature{i}")).collect() };
    // How wide n words' columns are with their text at `scale`.
    let widest = |n: usize, scale: f64| -> f64 {
        words_of(n)
            .iter()
            .map(|w| {
                let mut text = Text::plain(w.clone(), size * scale);
                text.runs[0].font = setup.body_font;
                crate::layout::min_content_width(&text) + CELL_PADDING.left + CELL_PADDING.right
            })
            .sum::<f64>()
    };
    let fewest_past = |scale: f64, width: f64| (1..).find(|&n| widest(n, scale) > width).unwrap();
    let lay = |n: usize| {
        let row = vec![words_of(n).iter().map(|w| cell(w)).collect::<Vec<_>>()];
        layout(&[table(row, 0, true)], &setup).0
    };
    // Each word on one line of its text's own size, the last one's right edge.
    let unbroken = |pages: &[Page], n: usize| -> (f64, f64) {
        let mut size_set = 0.0;
        for word in words_of(n) {
            let t = text_box(pages, &word);
            size_set = t.text.runs[0].size;
            let one_line = text_height(&Text::plain("x", size_set), 1000.0);
            assert!(
                t.frame.h <= one_line + CLOSE,
                "{word} broken: {:?}",
                t.frame
            );
        }
        let last = box_of(pages, text_box(pages, &words_of(n)[n - 1])).frame;
        (size_set, last.x + last.w)
    };

    // A little too wide: set smaller, inside the text width.
    let n = fewest_past(1.0, text_width);
    let (set, right) = unbroken(&lay(n), n);
    assert!(set < size - 0.1 && set >= size * 0.75 - CLOSE, "{set} pt");
    assert!(right <= text_right + CLOSE, "{right}");

    // Too wide even at three quarters, but not by half the margin: into the margin.
    let n = fewest_past(0.75, text_width + 1.0);
    assert!(
        widest(n, 0.75) < text_width + setup.margin_right / 2.0,
        "{n} words"
    );
    let (set, right) = unbroken(&lay(n), n);
    assert!((set - size * 0.75).abs() < 0.01, "{set} pt");
    assert!(
        right > text_right && right <= middle_of_margin + CLOSE,
        "{right}"
    );

    // Far too wide: up to the middle of the margin, and words break.
    let pages = lay(3 * n);
    let last = box_of(&pages, text_box(&pages, &words_of(3 * n)[3 * n - 1])).frame;
    assert!((last.x + last.w - middle_of_margin).abs() < 0.5, "{last:?}");
}
