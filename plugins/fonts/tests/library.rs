//! The library against the Debian fonts of docs/text-engine.md §7, which these tests assume
//! are installed (`scripts/install-test-tools.sh`): a missing package fails with its name.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Instant;

use quire_fonts::{Class, Library, Query};
use read_fonts::{FontRef, TableProvider};

const PACKAGES: [(&str, &str); 4] = [
    (
        "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf",
        "fonts-liberation2",
    ),
    (
        "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
        "fonts-noto-core",
    ),
    (
        "/usr/share/fonts/truetype/noto/NotoSansMono-Regular.ttf",
        "fonts-noto-mono",
    ),
    (
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
        "fonts-noto-cjk",
    ),
];

fn require_fonts() {
    for (file, package) in PACKAGES {
        assert!(
            Path::new(file).is_file(),
            "{file} is missing: install the Debian package {package} (apt-get install {package})"
        );
    }
}

fn lib() -> &'static Library {
    static LIB: OnceLock<Library> = OnceLock::new();
    LIB.get_or_init(|| {
        require_fonts();
        let start = Instant::now();
        let lib = Library::open(&Library::default_roots());
        eprintln!(
            "open(default roots): {} faces in {:?}",
            lib.len(),
            start.elapsed()
        );
        lib
    })
}

const SANS: Query = Query {
    class: Class::Sans,
    bold: false,
    italic: false,
    lang: "",
};

fn sans(lang: &str) -> Query<'_> {
    Query { lang, ..SANS }
}

/// The family and PostScript name of the face `ch` maps to.
fn face(q: &Query, ch: char) -> Option<(String, String)> {
    let g = lib().map(q, ch)?;
    let info = lib()
        .info(g.face)
        .expect("map returned a face id of the library");
    Some((info.family.clone(), info.postscript_name.clone()))
}

fn family(q: &Query, ch: char) -> String {
    face(q, ch)
        .unwrap_or_else(|| panic!("no face for {ch:?} (U+{:04X})", ch as u32))
        .0
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("quire-fonts-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn latin_greek_cyrillic_take_liberation() {
    assert_eq!(
        face(&SANS, 'a'),
        Some(("Liberation Sans".into(), "LiberationSans".into()))
    );
    for ch in ['ř', 'α', 'Ж', 'ő', 'ё', '1', '?', '€'] {
        assert_eq!(family(&SANS, ch), "Liberation Sans", "{ch}");
    }
    let serif = Query {
        class: Class::Serif,
        ..SANS
    };
    let mono = Query {
        class: Class::Mono,
        ..SANS
    };
    assert_eq!(family(&serif, 'Ж'), "Liberation Serif");
    assert_eq!(family(&mono, '0'), "Liberation Mono");
}

#[test]
fn styles() {
    let bold = Query { bold: true, ..SANS };
    assert_eq!(face(&bold, 'a').unwrap().1, "LiberationSans-Bold");
    let serif_bold_italic = Query {
        class: Class::Serif,
        bold: true,
        italic: true,
        lang: "",
    };
    assert_eq!(
        face(&serif_bold_italic, 'a').unwrap().1,
        "LiberationSerif-BoldItalic"
    );
    let mono_italic = Query {
        class: Class::Mono,
        italic: true,
        ..SANS
    };
    assert_eq!(face(&mono_italic, 'a').unwrap().1, "LiberationMono-Italic");
    // Noto Sans Georgian has no italic: the same weight upright.
    let bold_italic = Query {
        bold: true,
        italic: true,
        ..SANS
    };
    assert_eq!(face(&bold_italic, 'ა').unwrap().1, "NotoSansGeorgian-Bold");
    // Noto Sans Symbols2 has only a Regular.
    assert_eq!(face(&bold, '☑').unwrap().0, "Noto Sans Symbols2");
}

#[test]
fn scripts_take_their_noto_family() {
    for (ch, want) in [
        ('ა', "Noto Sans Georgian"),
        ('ع', "Noto Sans Arabic"),
        ('क', "Noto Sans Devanagari"),
        ('ก', "Noto Sans Thai"),
        ('א', "Noto Sans Hebrew"),
        ('ሰ', "Noto Sans Ethiopic"),
        ('Ա', "Noto Sans Armenian"),
        ('த', "Noto Sans Tamil"),
        ('ຂ', "Noto Sans Lao"),
        ('ក', "Noto Sans Khmer"),
        ('က', "Noto Sans Myanmar"),
        ('ހ', "Noto Sans Thaana"),
        ('ක', "Noto Sans Sinhala"),
        // No sans exists: the serif is the second step of the chain.
        ('ཀ', "Noto Serif Tibetan"),
        // unicode-script's "Old_Italic" meets Noto's "Noto Sans Old Italic".
        ('𐌀', "Noto Sans Old Italic"),
        // An Arabic comma is Common, used by Arabic, Syriac, Thaana...: its extensions.
        ('،', "Noto Sans Arabic"),
    ] {
        assert_eq!(family(&SANS, ch), want, "{ch}");
    }
    let serif = Query {
        class: Class::Serif,
        ..SANS
    };
    assert_eq!(family(&serif, 'क'), "Noto Serif Devanagari");
    assert_eq!(family(&serif, 'ع'), "Noto Naskh Arabic");
    assert_eq!(family(&serif, 'א'), "Noto Serif Hebrew");
    let mono = Query {
        class: Class::Mono,
        ..SANS
    };
    assert_eq!(family(&mono, 'א'), "Liberation Mono");
    assert_eq!(family(&serif, 'ሰ'), "Noto Serif Ethiopic");
}

#[test]
fn cjk_follows_the_lang() {
    assert_eq!(family(&sans(""), '中'), "Noto Sans CJK SC");
    assert_eq!(family(&sans("ja"), '中'), "Noto Sans CJK JP");
    assert_eq!(family(&sans("zh-Hant"), '中'), "Noto Sans CJK TC");
    assert_eq!(family(&sans("zh-TW"), '中'), "Noto Sans CJK TC");
    assert_eq!(family(&sans("zh-HK"), '中'), "Noto Sans CJK HK");
    assert_eq!(family(&sans("ko-KR"), '中'), "Noto Sans CJK KR");
    assert_eq!(family(&sans(""), 'あ'), "Noto Sans CJK JP");
    assert_eq!(family(&sans(""), 'ア'), "Noto Sans CJK JP");
    assert_eq!(family(&sans(""), '한'), "Noto Sans CJK KR");
    assert_eq!(family(&sans(""), 'ㄅ'), "Noto Sans CJK SC");
    // CJK punctuation is Common: Liberation lacks it, its extensions lead to Han.
    assert_eq!(family(&sans("ja"), '。'), "Noto Sans CJK JP");
    assert_eq!(family(&sans(""), '。'), "Noto Sans CJK SC");
    // Full-width forms have no Script_Extensions: CJK text still gets its region's shapes.
    for ch in ['，', '（', '「', '・', 'ー', '〜', '！'] {
        assert_eq!(family(&sans("zh"), ch), "Noto Sans CJK SC", "{ch}");
        assert_eq!(family(&sans("ja"), ch), "Noto Sans CJK JP", "{ch}");
        assert_eq!(family(&sans("zh-TW"), ch), "Noto Sans CJK TC", "{ch}");
    }
    assert_eq!(family(&sans(""), '，'), "Noto Sans CJK SC");
    let serif = Query {
        class: Class::Serif,
        lang: "ja",
        ..SANS
    };
    assert_eq!(family(&serif, '中'), "Noto Serif CJK JP");
    let mono = Query {
        class: Class::Mono,
        lang: "zh",
        ..SANS
    };
    assert_eq!(family(&mono, '中'), "Noto Sans Mono CJK SC");
    let bold = Query {
        bold: true,
        lang: "zh",
        ..SANS
    };
    let g = lib().map(&bold, '中').unwrap();
    let info = lib().info(g.face).unwrap();
    assert_eq!(info.family, "Noto Sans CJK SC");
    assert!(info.weight >= 600, "{info:?}");
    assert!(info.cff);
}

#[test]
fn symbols_and_uncovered_characters() {
    for ch in ['☑', '☐', '▶', '✔', '→'] {
        let f = family(&SANS, ch);
        assert!(
            f.starts_with("Noto Sans Symbols") || f == "Liberation Sans",
            "{ch}: {f}"
        );
    }
    assert!(family(&SANS, '☑').starts_with("Noto Sans Symbols"));
    assert_eq!(family(&SANS, '𝑥'), "Noto Sans Math");
    // Box drawing: not in Liberation Sans.
    eprintln!("'─' -> {}", family(&SANS, '─'));
    assert_eq!(lib().map(&SANS, '\u{10FFFD}'), None);
    assert_eq!(lib().map(&SANS, '\u{E000}'), None);
}

#[test]
fn glyphs_carry_hmtx_advances() {
    let g = lib().map(&SANS, 'a').unwrap();
    let data = std::fs::read(PACKAGES[0].0).unwrap();
    let font = FontRef::new(&data).unwrap();
    let hmtx = font.hmtx().unwrap();
    let want = hmtx.advance(read_fonts::types::GlyphId::new(g.gid.into()));
    assert_eq!(Some(g.advance), want);
    assert_eq!(lib().info(g.face).unwrap().units_per_em, 2048);
    let cjk = lib().map(&SANS, '中').unwrap();
    assert_eq!(cjk.advance, 1000, "full-width ideograph in a 1000-unit em");
}

#[test]
fn face_info() {
    let info = |ch, q: &Query| lib().info(lib().map(q, ch).unwrap().face).unwrap().clone();
    let sans = info('a', &SANS);
    assert!(!sans.cff && !sans.monospace && !sans.italic);
    assert_eq!(sans.weight, 400);
    assert!(sans.ascent > 0 && sans.descent < 0 && sans.cap_height > 0);
    let mono = info(
        'a',
        &Query {
            class: Class::Mono,
            italic: true,
            ..SANS
        },
    );
    assert!(
        mono.monospace && mono.italic && mono.italic_angle < 0.0,
        "{mono:?}"
    );
    let cjk = info('中', &SANS);
    assert!(cjk.cff);
    assert_eq!(cjk.units_per_em, 1000);
    assert_eq!(cjk.postscript_name, "NotoSansCJKsc-Regular");
    let (path, index) = lib().source(lib().map(&SANS, '中').unwrap().face).unwrap();
    assert!(path.ends_with("NotoSansCJK-Regular.ttc"), "{path:?}");
    assert_eq!(index, 2, "SC is face 2 of the collection");
    assert!(lib().info(lib().len() as u32).is_none());
}

#[test]
fn families_and_missing_scripts() {
    let families = lib().families();
    let liberation = families
        .iter()
        .find(|f| f.name == "Liberation Sans")
        .expect("Liberation Sans listed");
    assert_eq!(
        liberation.styles,
        ["Regular", "Bold", "Italic", "Bold Italic"]
    );
    for script in ["Latn", "Grek", "Cyrl"] {
        assert!(
            liberation.scripts.iter().any(|s| s == script),
            "{script}: {liberation:?}"
        );
    }
    let sc = families
        .iter()
        .find(|f| f.name == "Noto Sans CJK SC")
        .expect("Noto Sans CJK SC listed");
    assert_eq!(sc.styles, ["Regular", "Bold"]);
    for script in ["Hani", "Hira", "Kana", "Hang"] {
        assert!(sc.scripts.iter().any(|s| s == script), "{script}: {sc:?}");
    }
    let has = |name: &str, script: &str| {
        families
            .iter()
            .any(|f| f.name == name && f.scripts.iter().any(|s| s == script))
    };
    assert!(has("Noto Sans Symbols2", "Zsym"));
    assert!(has("Noto Sans Math", "Zmth"));
    assert!(has("Noto Sans Georgian", "Geor"));
    assert!(has("Noto Serif Tibetan", "Tibt"));
    let missing = lib().missing_scripts();
    eprintln!("{} families; missing scripts: {missing:?}", families.len());
    assert!(missing.is_empty(), "{missing:?}");
}

#[test]
fn digest_is_stable() {
    let again = Library::open(&Library::default_roots());
    assert_eq!(lib().digest(), again.digest());
    assert_eq!(lib().digest().len(), 64);
    let fewer = Library::open(&Library::default_roots()[..1]);
    assert_ne!(lib().digest(), fewer.digest());
    eprintln!("digest {}", lib().digest());
}

#[test]
fn default_roots_skip_nothing() {
    for (path, why) in lib().skipped() {
        eprintln!("skipped {}: {why}", path.display());
    }
    assert!(lib().skipped().is_empty());
}

#[test]
fn garbage_is_skipped_and_named() {
    require_fonts();
    let dir = temp_dir("garbage");
    std::fs::write(
        dir.join("broken.ttf"),
        b"this is not a font, just some bytes",
    )
    .unwrap();
    std::fs::write(dir.join("empty.otf"), b"").unwrap();
    std::fs::write(
        dir.join("notes.txt"),
        b"not a font extension: not even looked at",
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("a/b")).unwrap();
    std::fs::copy(PACKAGES[0].0, dir.join("a/b/Copy.TTF")).unwrap();
    let lib = Library::open(&[dir.clone(), dir.join("does-not-exist")]);
    let names: Vec<String> = lib
        .skipped()
        .iter()
        .map(|(p, why)| format!("{}: {why}", p.display()))
        .collect();
    assert_eq!(names.len(), 3, "{names:#?}");
    assert!(names[0].contains("broken.ttf"), "{names:#?}");
    assert!(names[1].contains("empty.otf"), "{names:#?}");
    assert!(names[2].contains("does-not-exist"), "{names:#?}");
    assert_eq!(lib.len(), 1, "the copy in a/b is found");
    assert_eq!(lib.map(&SANS, 'a').map(|g| g.face), Some(0));
    // A file named on its own is taken whatever its extension.
    std::fs::copy(PACKAGES[0].0, dir.join("font.bin")).unwrap();
    assert_eq!(Library::open(&[dir.join("font.bin")]).len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Liberation Sans with its `glyf` table record renamed, as a stand-in for a face that has no
/// outlines PDF can embed.
fn without_glyf(new_tag: &[u8; 4]) -> Vec<u8> {
    let mut data = std::fs::read(PACKAGES[0].0).unwrap();
    let count = usize::from(u16::from_be_bytes([data[4], data[5]]));
    let record = (0..count)
        .map(|i| 12 + 16 * i)
        .find(|&at| &data[at..at + 4] == b"glyf")
        .expect("Liberation Sans has glyf");
    data[record..record + 4].copy_from_slice(new_tag);
    data
}

#[test]
fn faces_without_embeddable_outlines_are_skipped() {
    require_fonts();
    let dir = temp_dir("outlines");
    std::fs::write(dir.join("bitmap.ttf"), without_glyf(b"CBDT")).unwrap();
    std::fs::write(dir.join("cff2.otf"), without_glyf(b"CFF2")).unwrap();
    let lib = Library::open(std::slice::from_ref(&dir));
    assert!(lib.is_empty());
    let why: Vec<&str> = lib.skipped().iter().map(|(_, why)| why.as_str()).collect();
    assert_eq!(why.len(), 2, "{why:?}");
    assert!(why[0].contains("bitmap-only"), "{why:?}");
    assert!(why[1].contains("CFF2"), "{why:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn symlinks_are_followed_to_files_only() {
    require_fonts();
    let dir = temp_dir("symlinks");
    let serif = "/usr/share/fonts/truetype/liberation2/LiberationSerif-Regular.ttf";
    std::os::unix::fs::symlink(serif, dir.join("serif.ttf")).unwrap();
    std::fs::copy(PACKAGES[0].0, dir.join("sans.ttf")).unwrap();
    // The same file twice, and a loop.
    std::os::unix::fs::symlink(dir.join("sans.ttf"), dir.join("sans-again.ttf")).unwrap();
    std::os::unix::fs::symlink(&dir, dir.join("loop")).unwrap();
    let lib = Library::open(std::slice::from_ref(&dir));
    assert_eq!(lib.len(), 2, "{:?}", lib.skipped());
    assert!(lib.skipped().is_empty(), "{:?}", lib.skipped());
    // A file reached again through another root counts once; a hard link is a file of its
    // own (its path is its own, as `canonicalize` says).
    std::fs::hard_link(dir.join("sans.ttf"), dir.join("sans-hard.ttf")).unwrap();
    let lib = Library::open(&[dir.clone(), PathBuf::from(serif), dir.join("sans.ttf")]);
    assert_eq!(lib.len(), 3, "{:?}", lib.skipped());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn earlier_roots_win() {
    require_fonts();
    let dir = temp_dir("override");
    std::fs::copy(PACKAGES[0].0, dir.join("MySans.ttf")).unwrap();
    let liberation = PathBuf::from("/usr/share/fonts/truetype/liberation2");
    let first = Library::open(&[dir.clone(), liberation.clone()]);
    assert_eq!(first.map(&SANS, 'a').unwrap().face, 0);
    let last = Library::open(&[liberation, dir.clone()]);
    let face = last.map(&SANS, 'a').unwrap().face;
    assert_ne!(face as usize, last.len() - 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn subset_truetype() {
    let q = SANS;
    let text = "Helo wrdř";
    let glyphs: Vec<_> = text.chars().map(|c| lib().map(&q, c).unwrap()).collect();
    let face = glyphs[0].face;
    assert!(glyphs.iter().all(|g| g.face == face));
    let gids: Vec<u16> = glyphs.iter().map(|g| g.gid).collect();
    let bytes = lib().subset(face, &gids).unwrap();
    let font = FontRef::new(&bytes).expect("the subset parses");
    let count = font.maxp().unwrap().num_glyphs();
    // 'ř' may be a composite: its components come after the listed glyphs.
    assert!(usize::from(count) > gids.len());
    let simple = &gids[..gids.len() - 1];
    let simple_bytes = lib().subset(face, simple).unwrap();
    let simple_font = FontRef::new(&simple_bytes).unwrap();
    assert_eq!(
        usize::from(simple_font.maxp().unwrap().num_glyphs()),
        simple.len() + 1
    );
    // glyphs[i] became glyph i + 1: its advance says so.
    let hmtx = font.hmtx().unwrap();
    for (i, g) in glyphs.iter().enumerate() {
        let new = read_fonts::types::GlyphId::new(i as u32 + 1);
        assert_eq!(hmtx.advance(new), Some(g.advance), "glyph {i}");
    }
    eprintln!(
        "Liberation Sans subset of {} glyphs: {} bytes ({} with the composite)",
        simple.len(),
        simple_bytes.len(),
        bytes.len()
    );
}

#[test]
fn subset_cff_collection() {
    let q = sans("zh");
    let text = "人人生而自由在尊严和权利上一律平等他们赋有理性良心并应以兄弟关系的精神相对待\
                每个都有资格享受本宣言所载的切";
    let mut gids = Vec::new();
    let mut face = None;
    for ch in text.chars() {
        let g = lib().map(&q, ch).unwrap();
        assert_eq!(*face.get_or_insert(g.face), g.face, "{ch}");
        if !gids.contains(&g.gid) {
            gids.push(g.gid);
        }
    }
    let face = face.unwrap();
    assert_eq!(lib().info(face).unwrap().family, "Noto Sans CJK SC");
    let start = Instant::now();
    let cff = lib().subset(face, &gids).unwrap();
    let took = start.elapsed();
    assert_eq!(cff[0], 1, "CFF major version 1");
    let font = read_fonts::ps::cff::CffFontRef::new_cff(&cff, 0, None).expect("the CFF parses");
    assert!(font.is_cid(), "CID-keyed");
    assert_eq!(font.num_glyphs() as usize, gids.len() + 1);
    eprintln!(
        "Noto Sans CJK SC subset of {} glyphs: {} bytes of CFF in {took:?}",
        gids.len(),
        cff.len()
    );
    assert!(cff.len() < 200_000, "{} bytes", cff.len());
}

#[test]
fn subset_refuses_what_would_shift_ids() {
    let g = lib().map(&SANS, 'a').unwrap();
    let b = lib().map(&SANS, 'b').unwrap();
    assert!(lib().subset(g.face, &[g.gid, b.gid, g.gid]).is_err());
    assert!(lib().subset(g.face, &[0, g.gid]).is_err());
    assert!(lib().subset(g.face, &[u16::MAX]).is_err());
    assert!(lib().subset(lib().len() as u32, &[1]).is_err());
    let only_notdef = lib().subset(g.face, &[]).unwrap();
    assert_eq!(
        FontRef::new(&only_notdef)
            .unwrap()
            .maxp()
            .unwrap()
            .num_glyphs(),
        1
    );
}

#[test]
fn open_all_system_fonts_and_map_cost() {
    require_fonts();
    let rss_before = rss_kib();
    let start = Instant::now();
    let all = Library::open(&[PathBuf::from("/usr/share/fonts")]);
    let took = start.elapsed();
    eprintln!(
        "open(/usr/share/fonts): {} faces, {} skipped, in {took:?}; resident memory {} KiB -> {} KiB",
        all.len(),
        all.skipped().len(),
        rss_before,
        rss_kib()
    );
    let text: Vec<char> =
        "Hello, wörld! Ελληνικά Русский עברית العربية हिन्दी ไทย 中文 日本語 한국어 ☑→ \u{10FFFD}"
            .chars()
            .collect();
    let start = Instant::now();
    let mut found = 0;
    for _ in 0..100 {
        for &ch in &text {
            found += usize::from(lib().map(&SANS, ch).is_some());
        }
    }
    let n = 100 * text.len();
    eprintln!(
        "map: {n} calls, {found} found, {:?} per call",
        start.elapsed() / n as u32
    );
    let start = Instant::now();
    let families = all.families();
    eprintln!(
        "families() of /usr/share/fonts: {} in {:?}",
        families.len(),
        start.elapsed()
    );
}

/// VmRSS of this process (0 where /proc is not there): open must not read the fonts in.
fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// Shaping joins Arabic letters and forms Devanagari conjuncts: the glyphs differ from the
/// characters' nominal ones, and an RTL run comes out reversed (visual order).
#[test]
fn shaping_joins_arabic_and_forms_devanagari_conjuncts() {
    let lib = lib();
    let q = Query {
        class: Class::Sans,
        bold: false,
        italic: false,
        lang: "",
    };
    // "salam": four letters that join; shaped, no glyph is the isolated form.
    let text = "سلام";
    let face = lib.map(&q, 'س').unwrap().face;
    let nominal: Vec<u16> = text.chars().map(|c| lib.map(&q, c).unwrap().gid).collect();
    let shaped = lib.shape(face, text, true, "ar");
    // Lam and alef make one ligature glyph.
    assert_eq!(shaped.len(), 3, "{shaped:?}");
    // Visual order: the last character's glyph comes first.
    assert_eq!(
        shaped[0].cluster as usize,
        text.char_indices().last().unwrap().0
    );
    // The first letter takes its initial form, not the isolated one.
    let first = shaped.iter().find(|g| g.cluster == 0).unwrap();
    assert_ne!(first.gid, nominal[0], "{shaped:?}");
    // क्ष: ka, virama, ssa make one conjunct glyph in Noto Sans Devanagari.
    let conjunct = "क्ष";
    let deva = lib.map(&q, 'क').unwrap().face;
    let shaped = lib.shape(deva, conjunct, false, "hi");
    assert!(shaped.len() < 3, "{shaped:?}");
    assert!(shaped.iter().all(|g| g.gid != 0));
    // A face number that does not exist shapes nothing.
    assert!(lib.shape(u32::MAX, "x", false, "").is_empty());
}
