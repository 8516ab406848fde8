//! Layout of texts with an explicit direction ([`Text::direction`], HTML's `dir`). Without
//! a font library right-to-left letters measure as `?`, which is all the order and the
//! placement need.

use super::*;
use crate::model::Direction;

fn text(s: &str, direction: Option<Direction>) -> Text {
    Text {
        direction,
        ..Text::plain(s, 10.0)
    }
}

/// The one line of `t` at `width`: its fragments' texts in visual order, whether each is
/// right to left, and their left edges.
fn one_line(t: &Text, width: f64) -> (Vec<String>, Vec<bool>, Vec<f64>) {
    let lines = layout_text(t, width);
    assert_eq!(lines.len(), 1, "{lines:?}");
    let f = &lines[0].fragments;
    // Fragments sit side by side, left to right.
    for w in f.windows(2) {
        assert!((w[0].x + w[0].width - w[1].x).abs() < 1e-9, "{f:?}");
    }
    (
        f.iter().map(|f| f.text.clone()).collect(),
        f.iter().map(|f| f.rtl).collect(),
        f.iter().map(|f| f.x).collect(),
    )
}

fn right_edge(t: &Text, width: f64) -> f64 {
    let lines = layout_text(t, width);
    let last = lines[0].fragments.last().unwrap();
    last.x + last.width
}

#[test]
fn an_rtl_paragraph_of_latin_text_is_flush_right_with_its_punctuation_first() {
    let s = "Hello, world!";
    let natural = FontFace::of_run(&Run::plain(s, 10.0)).text_width(s, 10.0);
    // Without a direction: left to right, one fragment at the left edge.
    let (texts, rtl, xs) = one_line(&text(s, None), 200.0);
    assert_eq!(
        (texts, rtl, xs),
        (vec![s.to_string()], vec![false], vec![0.0])
    );
    let (texts, rtl, xs) = one_line(&text(s, Some(Direction::Ltr)), 200.0);
    assert_eq!(
        (texts, rtl, xs),
        (vec![s.to_string()], vec![false], vec![0.0])
    );

    // Right to left: the words keep their order (level 2), the final `!` takes the
    // paragraph's direction and stands at the left, and the line ends at the right edge.
    let t = text(s, Some(Direction::Rtl));
    let (texts, rtl, xs) = one_line(&t, 200.0);
    assert_eq!(texts, ["!", "Hello, world"]);
    assert_eq!(rtl, [true, false]);
    assert!((xs[0] - (200.0 - natural)).abs() < 1e-9, "{xs:?}");
    assert!((right_edge(&t, 200.0) - 200.0).abs() < 1e-9);

    // Justified and left alignment start at the right; centre and right stay as they are.
    for (align, x) in [
        (Align::Justify, 200.0 - natural),
        (Align::Center, (200.0 - natural) / 2.0),
        (Align::Right, 200.0 - natural),
    ] {
        let t = Text { align, ..t.clone() };
        assert!((one_line(&t, 200.0).2[0] - x).abs() < 1e-9, "{align:?}");
    }
}

#[test]
fn an_rtl_paragraph_orders_arabic_numbers_and_latin_right_to_left() {
    // "Price 25 dollars": read from the right, the Arabic word, then 25, then the Latin word.
    let t = text("السعر 25 dollars", Some(Direction::Rtl));
    let (texts, rtl, _) = one_line(&t, 300.0);
    assert_eq!(texts, ["dollars", " ", "25", "السعر "]);
    assert_eq!(rtl, [false, true, false, true]);
    assert!((right_edge(&t, 300.0) - 300.0).abs() < 1e-9);
    // The same without a direction: the first strong letter is Arabic, so the same.
    assert_eq!(
        one_line(&text("السعر 25 dollars", None), 300.0),
        one_line(&t, 300.0)
    );
}

#[test]
fn an_explicit_ltr_paragraph_of_arabic_stays_at_the_left() {
    let s = "مرحبا بالعالم 123";
    // By its first strong character the paragraph is right to left: flush right.
    let auto = text(s, None);
    let (texts, _, xs) = one_line(&auto, 300.0);
    assert_eq!(texts, ["123", "مرحبا بالعالم "]);
    assert!(xs[0] > 100.0, "{xs:?}");
    assert!((right_edge(&auto, 300.0) - 300.0).abs() < 1e-9);

    // Set left to right: the base level is 0, so the line starts at the left edge; the
    // Arabic words still read right to left and the number after them, at the right end
    // of the line's left-to-right flow, stands at the far left of the Arabic.
    let ltr = text(s, Some(Direction::Ltr));
    let (texts, rtl, xs) = one_line(&ltr, 300.0);
    assert_eq!(texts, ["123", "مرحبا بالعالم "]);
    assert_eq!(rtl, [false, true]);
    assert_eq!(xs[0], 0.0);

    // A Latin word first makes the difference plain: in an LTR paragraph it stays first
    // (left), in an RTL one it moves to the right end.
    let mixed = "abc مرحبا";
    let (texts, _, xs) = one_line(&text(mixed, Some(Direction::Ltr)), 300.0);
    assert_eq!((texts[0].as_str(), xs[0]), ("abc ", 0.0));
    // (The space between them takes the paragraph's direction and goes with the Arabic,
    // whose fragment is drawn from its right end.)
    let (texts, rtl, _) = one_line(&text(mixed, Some(Direction::Rtl)), 300.0);
    assert_eq!(
        (texts, rtl),
        (vec![" مرحبا".to_string(), "abc".into()], vec![true, false])
    );
}

#[test]
fn the_direction_survives_a_split_and_covers_every_paragraph() {
    let t = text("one two three\nfour", Some(Direction::Rtl));
    let width = FontFace::of_run(&t.runs[0]).text_width("one two", 10.0) + 1.0;
    let (lines, starts) = layout_text_with_starts(&t, width);
    assert!(lines.len() >= 3);
    // Every line, the one after `\n` too, ends at the right edge.
    for l in &lines {
        let last = l.fragments.last().unwrap();
        assert!((last.x + last.width - width).abs() < 1e-9, "{l:?}");
    }
    let (head, tail) = split_text(&t, starts[1]);
    assert_eq!(head.direction, Some(Direction::Rtl));
    assert_eq!(tail.direction, Some(Direction::Rtl));
}
