//! The library opened through its index file: the same answers as a scan, no file opened
//! until a face is used, and a scan again whenever the files or the index are not what the
//! index says. Against the Debian fonts of docs/text-engine.md §7, as `library.rs`.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use quire_fonts::{Class, IndexUse, Library, Query};

const LIBERATION: &str = "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf";
const ARABIC: &str = "/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf";
const DEVANAGARI: &str = "/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf";

/// A directory of this test's, removed when it ends (whether it passes or not).
struct Temp(PathBuf);

impl std::ops::Deref for Temp {
    type Target = PathBuf;
    fn deref(&self) -> &PathBuf {
        &self.0
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn temp_dir(name: &str) -> Temp {
    let dir = std::env::temp_dir().join(format!("quire-fonts-index-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Temp(dir)
}

fn require(files: &[&str]) {
    for file in files {
        assert!(
            Path::new(file).is_file(),
            "{file} is missing: install fonts-liberation2, fonts-noto-core and fonts-noto-cjk"
        );
    }
}

/// A font directory of copies of `files`, which the tests may change.
fn copies(name: &str, files: &[&str]) -> Temp {
    require(files);
    let dir = temp_dir(name);
    for file in files {
        let path = Path::new(file);
        std::fs::copy(path, dir.join(path.file_name().unwrap())).unwrap();
    }
    dir
}

fn written(state: &IndexUse) -> bool {
    matches!(state, IndexUse::Written { .. })
}

const SAMPLE: [(char, &str); 9] = [
    ('a', ""),
    ('Ж', ""),
    ('ع', "ar"),
    ('ب', "ur"),
    ('क', "hi"),
    ('中', "ja"),
    ('中', "zh-TW"),
    ('☑', ""),
    ('∑', ""),
];

/// Everything a converter can ask of the library, for the sample, as one comparable value.
fn answers(lib: &Library) -> Vec<String> {
    let mut out = vec![
        format!("{} faces, digest {}", lib.len(), lib.digest()),
        format!("skipped {:?}", lib.skipped()),
    ];
    for class in [Class::Sans, Class::Serif, Class::Mono] {
        for (ch, lang) in SAMPLE {
            let q = Query {
                class,
                bold: ch == 'a',
                italic: false,
                lang,
            };
            let Some(g) = lib.map(&q, ch) else {
                out.push(format!("{ch} {lang} {class:?}: none"));
                continue;
            };
            let shaped = lib.shape(g.face, &ch.to_string().repeat(3), lang == "ar", lang);
            let subset = lib.subset(g.face, &[g.gid]).map(|s| {
                use sha2::{Digest, Sha256};
                format!("{:x}", Sha256::digest(&s))
            });
            out.push(format!(
                "{ch} {lang} {class:?}: {g:?} {:?} {:?} shaped {shaped:?} subset {subset:?} outline {:?}",
                lib.info(g.face),
                lib.source(g.face),
                lib.outlines(g.face, &[g.gid]),
            ));
        }
    }
    out
}

#[test]
fn a_reused_index_answers_as_a_scan_and_maps_files_only_when_used() {
    require(&[LIBERATION, ARABIC, DEVANAGARI]);
    let roots = Library::default_roots();
    let cache = temp_dir("reused");
    let scanned = Library::open(&roots);
    let (fresh, state) = Library::open_indexed(&roots, Some(&cache));
    assert!(written(&state), "{state:?}");
    assert!(cache.join(Library::index_name(&roots)).is_file());
    let started = std::time::Instant::now();
    let (reused, state) = Library::open_indexed(&roots, Some(&cache));
    eprintln!("open through the index: {:?}", started.elapsed());
    assert_eq!(state, IndexUse::Reused);
    assert_eq!(reused.mapped_files(), 0);
    // What needs no glyph needs no file either.
    assert_eq!(reused.len(), scanned.len());
    assert_eq!(reused.digest(), scanned.digest());
    assert!((0..reused.len() as u32).all(|f| reused.info(f) == scanned.info(f)));
    assert_eq!(reused.mapped_files(), 0);
    let q = Query {
        class: Class::Sans,
        bold: false,
        italic: false,
        lang: "",
    };
    assert!(reused.map(&q, 'a').is_some());
    let after_a = reused.mapped_files();
    assert!((1..5).contains(&after_a), "{after_a} files mapped for 'a'");

    let want = answers(&scanned);
    assert_eq!(answers(&fresh), want);
    assert_eq!(answers(&reused), want);
    assert_eq!(reused.families(), scanned.families());
    assert_eq!(reused.missing_scripts(), scanned.missing_scripts());
    // Another set of roots has an index of its own.
    assert_ne!(
        Library::index_name(&roots),
        Library::index_name(&roots[..1])
    );
    assert_eq!(
        Library::open_indexed(&roots, None).1,
        IndexUse::Off,
        "no directory, no index"
    );
}

#[test]
fn a_file_of_another_size_or_time_is_read_again() {
    let fonts = copies("changed", &[LIBERATION, ARABIC, DEVANAGARI]);
    let cache = temp_dir("changed-cache");
    let roots = vec![fonts.to_path_buf()];
    let open = || Library::open_indexed(&roots, Some(&cache));
    assert!(written(&open().1));
    assert_eq!(open().1, IndexUse::Reused);

    // Only the modification time.
    let arabic = fonts.join("NotoSansArabic-Regular.ttf");
    let file = OpenOptions::new().write(true).open(&arabic).unwrap();
    file.set_modified(SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000))
        .unwrap();
    drop(file);
    assert!(written(&open().1));
    assert_eq!(open().1, IndexUse::Reused);

    // Another font under the same name, at its own size: its faces, not the index's.
    let deva = fonts.join("NotoSansDevanagari-Regular.ttf");
    std::fs::copy(ARABIC, &deva).unwrap();
    let (lib, state) = open();
    assert!(written(&state), "{state:?}");
    let families: Vec<String> = (0..lib.len() as u32)
        .map(|f| lib.info(f).unwrap().family.clone())
        .collect();
    assert!(
        !families.iter().any(|f| f.contains("Devanagari")),
        "{families:?}"
    );
    assert_eq!(lib.map(&hindi(), 'क'), None);

    // Rewritten in place at the same size with its time set back: the change time tells.
    std::thread::sleep(Duration::from_millis(50));
    let liberation = fonts.join("LiberationSans-Regular.ttf");
    let before = std::fs::metadata(&liberation).unwrap().modified().unwrap();
    let mut bytes = std::fs::read(&liberation).unwrap();
    bytes[200] ^= 0xff;
    std::fs::write(&liberation, &bytes).unwrap();
    File::options()
        .write(true)
        .open(&liberation)
        .unwrap()
        .set_modified(before)
        .unwrap();
    assert!(written(&open().1));

    // A file added or removed.
    std::fs::copy(DEVANAGARI, fonts.join("Extra.ttf")).unwrap();
    let (lib, state) = open();
    assert!(written(&state), "{state:?}");
    assert!(lib.map(&hindi(), 'क').is_some());
    std::fs::remove_file(fonts.join("Extra.ttf")).unwrap();
    let (lib, state) = open();
    assert!(written(&state), "{state:?}");
    assert_eq!(lib.map(&hindi(), 'क'), None);
}

fn hindi() -> Query<'static> {
    Query {
        class: Class::Sans,
        bold: false,
        italic: false,
        lang: "hi",
    }
}

#[test]
fn a_corrupt_index_is_ignored_and_replaced() {
    let fonts = copies("corrupt", &[LIBERATION, ARABIC]);
    let cache = temp_dir("corrupt-cache");
    let roots = vec![fonts.to_path_buf()];
    let index = cache.join(Library::index_name(&roots));
    let open = || Library::open_indexed(&roots, Some(&cache));
    let (scanned, _) = open();
    let want = answers(&scanned);
    let good = std::fs::read(&index).unwrap();

    let mut damaged: Vec<Vec<u8>> = vec![
        b"not json".to_vec(),
        Vec::new(),
        good[..good.len() / 2].to_vec(),
    ];
    // Well-formed and under the right key, but with ranges no file of that size has: read
    // as it is, it would look glyphs up past the end of the map.
    let mut value: serde_json::Value = serde_json::from_slice(&good).unwrap();
    for file in value["files"].as_array_mut().unwrap() {
        for face in file["faces"].as_array_mut().unwrap() {
            face["hmtx"] = serde_json::json!([usize::MAX - 1, usize::MAX]);
        }
    }
    damaged.push(serde_json::to_vec(&value).unwrap());
    // And one with a file too few.
    let mut value: serde_json::Value = serde_json::from_slice(&good).unwrap();
    value["files"].as_array_mut().unwrap().pop();
    damaged.push(serde_json::to_vec(&value).unwrap());

    for bytes in damaged {
        std::fs::write(&index, &bytes).unwrap();
        let (lib, state) = open();
        assert!(written(&state), "{state:?}");
        assert_eq!(answers(&lib), want);
        assert_eq!(
            std::fs::read(&index).unwrap(),
            good,
            "replaced by a good one"
        );
        assert_eq!(open().1, IndexUse::Reused);
    }
}

#[cfg(unix)]
#[test]
fn an_index_someone_else_could_have_written_is_not_used() {
    use std::os::unix::fs::PermissionsExt;
    let fonts = copies("exposed", &[LIBERATION]);
    let cache = temp_dir("exposed-cache");
    let roots = vec![fonts.to_path_buf()];
    let index = cache.join(Library::index_name(&roots));
    let open = || Library::open_indexed(&roots, Some(&cache));
    assert!(written(&open().1));
    let mode = std::fs::metadata(&index).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "{mode:o}");
    std::fs::set_permissions(&index, std::fs::Permissions::from_mode(0o666)).unwrap();
    assert!(written(&open().1));
    assert_eq!(open().1, IndexUse::Reused);

    // A link under the index's name is neither read nor written through.
    let outside = temp_dir("exposed-elsewhere");
    let elsewhere = outside.join("index.json");
    std::fs::rename(&index, &elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, &index).unwrap();
    let before = std::fs::read(&elsewhere).unwrap();
    let (_, state) = open();
    assert!(written(&state), "{state:?}");
    assert!(!std::fs::symlink_metadata(&index).unwrap().is_symlink());
    assert_eq!(std::fs::read(&elsewhere).unwrap(), before);
}

#[test]
fn a_file_truncated_after_indexing_has_no_glyphs() {
    let fonts = copies("truncated", &[LIBERATION, ARABIC, DEVANAGARI]);
    let cache = temp_dir("truncated-cache");
    let roots = vec![fonts.to_path_buf()];
    let open = || Library::open_indexed(&roots, Some(&cache));
    assert!(written(&open().1));
    let (lib, state) = open();
    assert_eq!(state, IndexUse::Reused);

    let arabic = fonts.join("NotoSansArabic-Regular.ttf");
    let modified = std::fs::metadata(&arabic).unwrap().modified().unwrap();
    let file = OpenOptions::new().write(true).open(&arabic).unwrap();
    file.set_len(40_000).unwrap();
    file.set_modified(modified).unwrap();
    drop(file);

    let q = Query {
        class: Class::Sans,
        bold: false,
        italic: false,
        lang: "ar",
    };
    let face = (0..lib.len() as u32)
        .find(|&f| lib.info(f).unwrap().family == "Noto Sans Arabic")
        .expect("the Arabic face, from the index");
    assert_eq!(lib.map(&q, 'ع'), None);
    assert!(lib.subset(face, &[1, 2]).is_err());
    assert!(lib.shape(face, "عربي", true, "ar").is_empty());
    assert_eq!(
        lib.outlines(face, &[1, 2]),
        vec![String::new(), String::new()]
    );
    // The other files are as they were.
    assert!(lib.map(&q, 'a').is_some());
    assert!(lib.map(&hindi(), 'क').is_some());
    assert_eq!(lib.mapped_files(), 2);

    // The next open reads it again, whatever it holds now.
    let (lib, state) = open();
    assert!(written(&state), "{state:?}");
    let _ = lib.map(&q, 'ع');
}

#[test]
fn a_reused_index_lists_what_was_left_out_as_a_scan_does() {
    let first = copies("skips-a", &[LIBERATION]);
    std::fs::write(
        first.join("garbage.ttf"),
        b"not a font at all, longer than 12",
    )
    .unwrap();
    std::fs::write(first.join("short.otf"), b"tiny").unwrap();
    let second = copies("skips-b", &[ARABIC]);
    std::fs::write(second.join("0.ttc"), b"ttcf but not really a collection").unwrap();
    let roots = vec![
        first.to_path_buf(),
        first.join("missing"),
        second.to_path_buf(),
        first.join("LiberationSans-Regular.ttf"),
    ];
    let cache = temp_dir("skips-cache");
    let scanned = Library::open(&roots);
    // A root's own reason comes before the files of the roots after it.
    let order: Vec<&Path> = scanned.skipped().iter().map(|(p, _)| p.as_path()).collect();
    assert_eq!(
        order,
        [
            first.join("garbage.ttf"),
            first.join("short.otf"),
            first.join("missing"),
            second.join("0.ttc"),
        ]
    );
    assert!(written(&Library::open_indexed(&roots, Some(&cache)).1));
    let (reused, state) = Library::open_indexed(&roots, Some(&cache));
    assert_eq!(state, IndexUse::Reused);
    assert_eq!(reused.skipped(), scanned.skipped());
    assert_eq!(answers(&reused), answers(&scanned));
}
