//! `lang`, `dir` and `font-family` on the way into the model.

mod common;

use common::*;
use quire_sdk::layout::layout_text;
use quire_sdk::{Direction, FontFamily, Run};

/// The text box whose text is `text`.
/// The run holding exactly `text`.
fn run<'a>(doc: &'a quire_sdk::Document, text: &str) -> &'a Run {
    boxes(doc)
        .into_iter()
        .flat_map(|t| &t.text.runs)
        .find(|r| r.text == text)
        .unwrap_or_else(|| panic!("no run {text:?} in {:?}", texts(doc)))
}

const ARABIC_PAGE: &str = r#"<!DOCTYPE html>
<html lang="ar" dir="rtl"><head><title>إعلان</title></head>
<body>
<h1>الإعلان العالمي لحقوق الإنسان</h1>
<p>يولد جميع الناس أحرارا 1948.</p>
<p dir="ltr">Left to right: حقوق</p>
<div dir="auto"><p>Auto paragraph</p></div>
<p lang="en">English inside</p>
<table><tr><td>خلية</td><td dir="ltr">cell</td></tr></table>
</body></html>"#;

#[test]
fn dir_is_inherited_from_html_and_overridden_by_blocks() {
    let out = import(ARABIC_PAGE);
    let doc = &out.document;
    assert_eq!(doc.lang.as_deref(), Some("ar"));
    let rtl = Some(Direction::Rtl);
    assert_eq!(
        text_box(doc, "الإعلان العالمي لحقوق الإنسان").text.direction,
        rtl
    );
    assert_eq!(
        text_box(doc, "يولد جميع الناس أحرارا 1948.").text.direction,
        rtl
    );
    assert_eq!(
        text_box(doc, "Left to right: حقوق").text.direction,
        Some(Direction::Ltr)
    );
    // `auto` inside an RTL page: the first strong letter decides.
    assert_eq!(text_box(doc, "Auto paragraph").text.direction, None);
    // Inherited by a paragraph in another language; table cells take theirs.
    assert_eq!(text_box(doc, "English inside").text.direction, rtl);
    assert_eq!(text_box(doc, "خلية").text.direction, rtl);
    assert_eq!(text_box(doc, "cell").text.direction, Some(Direction::Ltr));
    // The document's language is not repeated on its runs; another one is.
    assert_eq!(run(doc, "يولد جميع الناس أحرارا 1948.").lang, None);
    assert_eq!(run(doc, "English inside").lang.as_deref(), Some("en"));
    quire_sdk::validate::check(doc, []).unwrap();
}

#[test]
fn an_rtl_paragraph_is_laid_out_flush_right_and_an_ltr_one_flush_left() {
    let out = import(ARABIC_PAGE);
    let doc = &out.document;
    // A Latin-only paragraph in the RTL page: flush right, its full stop at the left.
    let english = text_box(doc, "English inside");
    let lines = layout_text(&english.text, english.frame.w);
    let last = lines[0].fragments.last().unwrap();
    assert!(
        (last.x + last.width - english.frame.w).abs() < 1e-6,
        "{lines:?}"
    );
    assert!(lines[0].fragments[0].x > english.frame.w / 2.0);
    // Arabic in an explicit LTR paragraph: flush left, Latin first.
    let ltr = text_box(doc, "Left to right: حقوق");
    let lines = layout_text(&ltr.text, ltr.frame.w);
    assert_eq!(lines[0].fragments[0].x, 0.0);
    assert!(lines[0].fragments[0].text.starts_with("Left"));
}

#[test]
fn element_lang_differs_from_the_document_s() {
    let out = import(
        r#"<html lang="zh-Hans"><body>
        <p>骨 <span lang="ja">骨</span> <span lang="zh-hans">同</span>
        <b lang="zh-Hant">體</b></p>
        <div lang="ko"><p>한국어 <i>기울임</i></p></div>
        <p lang="not a tag">无效</p>
        </body></html>"#,
    );
    let doc = &out.document;
    assert_eq!(doc.lang.as_deref(), Some("zh-Hans"));
    assert_eq!(run(doc, "骨 ").lang, None);
    assert_eq!(run(doc, "骨").lang.as_deref(), Some("ja"));
    // The document's language in another case is still the document's.
    assert_eq!(run(doc, " 同 ").lang, None);
    assert_eq!(run(doc, "體").lang.as_deref(), Some("zh-Hant"));
    assert!(run(doc, "體").bold);
    // Inherited through elements that set nothing.
    assert_eq!(run(doc, "한국어 ").lang.as_deref(), Some("ko"));
    assert_eq!(run(doc, "기울임").lang.as_deref(), Some("ko"));
    assert_eq!(run(doc, "无效").lang, None);
}

/// A page of many languages keeps the first 64 distinct ones on its runs; the rest are read
/// as the document's, the same way in the importer's layout and every export's. `<b
/// xml:lang>` keeps its language like `<span xml:lang>`.
#[test]
fn run_languages_are_bounded_per_page() {
    let spans: String = (0..100)
        .map(|i| format!("<p><span lang=\"x-l{i}\">w{i}</span></p>"))
        .collect();
    let out = import(&format!(
        "<html lang=\"en\"><body><p><b xml:lang=\"ja\">b</b></p>{spans}</body></html>"
    ));
    let doc = &out.document;
    assert_eq!(run(doc, "b").lang.as_deref(), Some("ja"));
    let langs: std::collections::HashSet<&str> = boxes(doc)
        .into_iter()
        .flat_map(|t| &t.text.runs)
        .filter_map(|r| r.lang.as_deref())
        .collect();
    assert_eq!(langs.len(), 64, "{langs:?}");
    assert_eq!(run(doc, "w62").lang.as_deref(), Some("x-l62"));
    assert_eq!(run(doc, "w99").lang, None);
}

#[test]
fn font_family_from_style_and_font_face() {
    let out = import(
        r#"<html><body>
        <p style="font-family: 'Times New Roman', serif">Serif paragraph
        <code>code stays</code></p>
        <h2 style="font-family: Georgia">Serif heading</h2>
        <p><font face="Courier New">typewriter</font> and
        <span style="color: red; FONT-FAMILY: Verdana, sans-serif">sans</span>
        <span style="font-family: Fancy Script, cursive">unknown</span></p>
        <div style="font-family: monospace"><p>inherited <b>mono</b></p></div>
        </body></html>"#,
    );
    let doc = &out.document;
    let serif = run(doc, "Serif paragraph ");
    assert_eq!(serif.font, FontFamily::Times);
    assert_eq!(run(doc, "code stays").font, FontFamily::Courier);
    let heading = run(doc, "Serif heading");
    assert_eq!((heading.font, heading.bold), (FontFamily::Times, true));
    assert_eq!(run(doc, "typewriter").font, FontFamily::Courier);
    assert_eq!(run(doc, "sans").font, FontFamily::Helvetica);
    // A list with no family we know keeps the body's (Times).
    assert_eq!(run(doc, " unknown").font, FontFamily::Times);
    assert_eq!(run(doc, "inherited ").font, FontFamily::Courier);
    assert_eq!(run(doc, "mono").font, FontFamily::Courier);
    assert!(run(doc, "mono").bold);
}

#[test]
fn bdi_bdo_and_inline_dir_become_invisible_controls() {
    let out = import(
        r#"<p>user <bdi>إيان</bdi>: 3 <span dir="rtl">abc</span>
        <bdo dir="rtl">xyz</bdo> <bdo dir="ltr">حقوق</bdo></p>"#,
    );
    let text = texts(&out.document).join("");
    assert_eq!(
        text,
        "user \u{2068}إيان\u{2069}: 3 \u{2067}abc\u{2069} \u{202E}xyz\u{202C} \u{202D}حقوق\u{202C}"
    );
    let t = &boxes(&out.document)[0].text;
    let lines = layout_text(t, 500.0);
    let visual: String = lines[0]
        .fragments
        .iter()
        .map(|f| {
            let s: String = f
                .text
                .chars()
                .filter(|c| !quire_sdk::fonts::is_invisible(*c))
                .collect();
            if f.rtl {
                s.chars().rev().collect()
            } else {
                s
            }
        })
        .collect();
    // The override draws `xyz` right to left and keeps `حقوق` left to right.
    assert!(visual.contains("zyx"), "{visual}");
    assert!(visual.contains("حقوق"), "{visual}");
    // The isolated Arabic name does not pull `: 3` into its run.
    assert!(visual.starts_with("user "), "{visual}");
    assert!(visual.contains("ناي"), "{visual}");
}
