//! A run's own language (`Run::lang`, HTML's `lang` on an element) reaches the library's
//! choice of face, in layout and in what exports draw, and a serif run gets a serif face.

use quire_sdk::fonts;
use quire_sdk::glyph_runs::{pieces, Piece};
use quire_sdk::layout::layout_text;
use quire_sdk::metrics::FontFace;
use quire_sdk::model::{FontFamily, Run, Text};

fn with_fonts() {
    quire_fonts::install_default_library();
}

fn run(text: &str, lang: Option<&str>, font: FontFamily) -> Run {
    Run {
        lang: lang.map(str::to_string),
        font,
        ..Run::plain(text, 12.0)
    }
}

/// The family of the face that draws `ch` in `run`.
fn family(run: &Run, ch: char) -> String {
    let glyph = fonts::glyph(FontFace::of_run(run), ch).expect("a face has it");
    fonts::info(glyph.face).expect("the face is known").family
}

#[test]
fn a_run_s_lang_picks_the_regional_cjk_face() {
    with_fonts();
    fonts::set_lang("zh-Hans");
    let sans = FontFamily::Helvetica;
    assert_eq!(family(&run("骨", None, sans), '骨'), "Noto Sans CJK SC");
    assert_eq!(
        family(&run("骨", Some("ja"), sans), '骨'),
        "Noto Sans CJK JP"
    );
    assert_eq!(
        family(&run("骨", Some("zh-Hant"), sans), '骨'),
        "Noto Sans CJK TC"
    );
    // Asking again in the document's language still gives its face (answers are cached
    // per language).
    assert_eq!(family(&run("骨", None, sans), '骨'), "Noto Sans CJK SC");
    // Serif runs (Times, e.g. HTML `font-family: serif`) take the serif CJK faces.
    assert_eq!(
        family(&run("骨", Some("ja"), FontFamily::Times), '骨'),
        "Noto Serif CJK JP"
    );
    assert_eq!(
        family(&run("骨", None, FontFamily::Times), '骨'),
        "Noto Serif CJK SC"
    );
}

#[test]
fn exports_draw_each_run_in_the_face_its_lang_picked() {
    with_fonts();
    fonts::set_lang("zh-Hans");
    let text = Text {
        runs: vec![
            run("骨", None, FontFamily::Helvetica),
            run("骨", Some("ja"), FontFamily::Helvetica),
        ],
        ..Text::default_layout()
    };
    let lines = layout_text(&text, 400.0);
    let faces: Vec<u32> = lines[0]
        .fragments
        .iter()
        .map(|f| {
            let face = FontFace::of_run(&text.runs[f.run]);
            match pieces(&f.text, f.rtl, face).as_slice() {
                [Piece::Library { face, .. }] => *face,
                other => panic!("{other:?}"),
            }
        })
        .collect();
    assert_eq!(faces.len(), 2);
    assert_ne!(faces[0], faces[1]);
    let names: Vec<String> = faces
        .iter()
        .map(|&f| fonts::info(f).unwrap().family)
        .collect();
    assert_eq!(names, ["Noto Sans CJK SC", "Noto Sans CJK JP"]);
}
