//! The SDK's line breaking with this library installed, as a component lays text out with
//! the host's: Thai breaks at the dictionary's word boundaries, Japanese and Chinese lines
//! keep their punctuation (kinsoku), a closing parenthesis stays with its word. The texts
//! are the UDHR extracts of tests/text.

use quire_sdk::layout::{layout_text, layout_text_with_starts, min_content_width, Line};
use quire_sdk::model::Text;

fn with_fonts() {
    quire_fonts::install_default_library();
}

/// The paragraph after `heading` in the extract of `lang`.
fn paragraph(lang: &str, heading: &str) -> String {
    let path = format!("{}/../../tests/text/{lang}.md", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut lines = text.lines().skip_while(|l| l.trim() != heading).skip(1);
    lines
        .find(|l| !l.trim().is_empty())
        .unwrap_or_else(|| panic!("no paragraph after {heading} in {path}"))
        .to_string()
}

fn line_texts(lines: &[Line]) -> Vec<String> {
    lines
        .iter()
        .map(|l| l.fragments.iter().map(|f| f.text.as_str()).collect())
        .collect()
}

fn is_thai(ch: char) -> bool {
    ('\u{0E00}'..='\u{0E7F}').contains(&ch)
}

#[test]
fn thai_lines_end_on_dictionary_word_boundaries() {
    with_fonts();
    let text = [paragraph("th", "## ข้อ 1"), paragraph("th", "## ข้อ 2")].join(" ");
    // Every place the dictionary allows a break, over each run of Thai.
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut boundaries = std::collections::HashSet::new();
    let mut i = 0;
    while i < chars.len() {
        if !is_thai(chars[i].1) {
            i += 1;
            continue;
        }
        let start = chars[i].0;
        while i < chars.len() && is_thai(chars[i].1) {
            i += 1;
        }
        let end = chars.get(i).map_or(text.len(), |c| c.0);
        for b in quire_fonts::word_breaks(&text[start..end]) {
            boundaries.insert(start + b as usize);
        }
    }
    let t = Text::plain(text.clone(), 12.0);
    // The widest unbreakable piece: `ศักด[เกียรติศักดิ์]และ`, whose brackets hold to the
    // words around them (UAX #14 LB30). The longest phrase between spaces is far wider.
    let narrowest = min_content_width(&t);
    assert!(narrowest < 100.0, "{narrowest}");
    let mut inside_words = 0;
    for k in 0..25 {
        // Widths where no word has to be broken between its characters.
        let width = narrowest + 10.0 * f64::from(k);
        let (lines, starts) = layout_text_with_starts(&t, width);
        // Only the spaces where lines break hang (and are not drawn).
        assert_eq!(
            line_texts(&lines).concat().replace(' ', ""),
            text.replace(' ', "")
        );
        for start in &starts[1..] {
            let at = start.byte;
            let before = text[..at].chars().next_back().unwrap();
            let here = text[at..].chars().next().unwrap();
            if before == ' ' {
                continue;
            }
            if is_thai(before) && is_thai(here) {
                inside_words += 1;
                assert!(
                    boundaries.contains(&at),
                    "width {width}: a line starts inside a word at {:?}|{:?}: {:?}",
                    &text[..at].chars().rev().take(6).collect::<String>(),
                    &text[at..].chars().take(6).collect::<String>(),
                    line_texts(&lines)
                );
            }
        }
    }
    // Thai puts spaces between phrases only: most of these breaks fall inside phrases.
    assert!(inside_words > 50, "{inside_words}");
}

/// No line after the first starts with closing punctuation, and none before the last ends
/// with opening punctuation, at any width with room for a few characters.
fn assert_kinsoku(text: &str) {
    let t = Text::plain(text, 12.0);
    for width in (40..=400).step_by(10) {
        let lines = line_texts(&layout_text(&t, f64::from(width)));
        assert_eq!(lines.concat(), text);
        for (k, line) in lines.iter().enumerate() {
            let (first, last) = (line.chars().next().unwrap(), line.chars().last().unwrap());
            if k > 0 {
                assert!(
                    !"。、，．）」』！？：；》〉".contains(first),
                    "width {width}: line {k} starts with {first}: {lines:?}"
                );
            }
            if k + 1 < lines.len() {
                assert!(
                    !"（「『《〈".contains(last),
                    "width {width}: line {k} ends with {last}: {lines:?}"
                );
            }
        }
    }
}

#[test]
fn japanese_and_chinese_lines_keep_their_punctuation() {
    with_fonts();
    let ja = format!(
        "『世界人権宣言』第１条「{}」（国際連合）{}",
        paragraph("ja", "## 第１条"),
        paragraph("ja", "## 〈前文〉")
    );
    assert_kinsoku(&ja);
    // The Chinese extract uses ASCII commas; the full-width ones are the usual form.
    let zh = paragraph("zh-Hans", "## 第一条");
    assert_kinsoku(&zh);
    assert_kinsoku(&format!(
        "《世界人权宣言》（联合国）：{}",
        zh.replace(',', "，")
    ));
    // Ideographs break between each other: a narrow column fills its lines.
    let t = Text::plain(zh.replace(',', "，"), 12.0);
    let lines = layout_text(&t, 100.0);
    assert!(lines.len() < zh.chars().count() / 6, "{}", lines.len());
    // The narrowest column is one ideograph wide, or two with a full stop.
    assert!(
        min_content_width(&t) <= 24.0 + 1e-6,
        "{}",
        min_content_width(&t)
    );
}

#[test]
fn a_closing_parenthesis_stays_with_its_word() {
    with_fonts();
    let text = "Member States have pledged themselves to achieve, in (co-)operation with the \
                United Nations, the promotion of universal respect (and observance) of human \
                rights.";
    let t = Text::plain(text, 12.0);
    let narrowest = min_content_width(&t);
    for k in 0..80 {
        let lines = line_texts(&layout_text(&t, narrowest + 2.0 * f64::from(k)));
        for line in &lines[1..] {
            assert!(!line.starts_with(')'), "{lines:?}");
        }
        assert!(
            lines.iter().any(|l| l.contains("(co-)operation")),
            "{lines:?}"
        );
    }
}
