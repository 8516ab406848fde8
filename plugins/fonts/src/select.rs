//! Which families to try for a character, in which order, and which face of a family.
//!
//! The rules themselves are described for operators in the crate documentation; this module
//! only implements them.

use std::borrow::Cow;

use unicode_script::{Script, UnicodeScript};

use crate::{Class, Query};

/// The key families are looked up by: lowercase letters and digits only, so that "Noto Sans
/// PhagsPa", "Noto Sans Phags Pa" and unicode-script's "Phags_Pa" all meet.
pub(crate) fn family_key(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The regional glyph forms of the CJK collections.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Region {
    Jp,
    Kr,
    Sc,
    Tc,
    Hk,
}

impl Region {
    const ALL: [Region; 5] = [Region::Sc, Region::Tc, Region::Hk, Region::Jp, Region::Kr];

    fn suffix(self) -> &'static str {
        match self {
            Region::Jp => "JP",
            Region::Kr => "KR",
            Region::Sc => "SC",
            Region::Tc => "TC",
            Region::Hk => "HK",
        }
    }
}

/// The CJK region a BCP 47 tag asks for, or `None` when the tag says nothing about CJK.
pub(crate) fn lang_region(lang: &str) -> Option<Region> {
    let lang = lang.to_ascii_lowercase();
    let mut subtags = lang.split(['-', '_']);
    let primary = subtags.next().unwrap_or("");
    let rest: Vec<&str> = subtags.collect();
    match primary {
        "ja" => Some(Region::Jp),
        "ko" => Some(Region::Kr),
        "yue" => Some(Region::Hk),
        "zh" => Some(if rest.contains(&"hans") {
            Region::Sc
        } else if rest.iter().any(|s| matches!(*s, "hk" | "mo")) {
            Region::Hk
        } else if rest.iter().any(|s| matches!(*s, "hant" | "tw")) {
            Region::Tc
        } else {
            Region::Sc
        }),
        _ => None,
    }
}

fn is_cjk(script: Script) -> bool {
    matches!(
        script,
        Script::Han | Script::Hiragana | Script::Katakana | Script::Hangul | Script::Bopomofo
    )
}

fn region(lang: &str, script: Script) -> Region {
    lang_region(lang).unwrap_or(match script {
        Script::Hiragana | Script::Katakana => Region::Jp,
        Script::Hangul => Region::Kr,
        _ => Region::Sc,
    })
}

type Chain = Vec<Cow<'static, str>>;

/// The families for Latin, Greek, Cyrillic and script-neutral characters.
fn latin(class: Class) -> Chain {
    match class {
        Class::Sans => vec!["Liberation Sans".into(), "Noto Sans".into()],
        Class::Serif => vec!["Liberation Serif".into(), "Noto Serif".into()],
        Class::Mono => vec!["Liberation Mono".into(), "Noto Sans Mono".into()],
    }
}

/// The families for symbols, arrows, box drawing, dingbats and math.
pub(crate) fn symbols() -> Chain {
    [
        "Noto Sans Symbols",
        "Noto Sans Symbols2",
        "Noto Sans Math",
        "Symbola",
    ]
    .into_iter()
    .map(Cow::Borrowed)
    .collect()
}

/// The chain of families for one script, best first.
pub(crate) fn chain(script: Script, q: &Query) -> Chain {
    match script {
        Script::Latin | Script::Greek | Script::Cyrillic | Script::Common => latin(q.class),
        Script::Inherited | Script::Unknown => latin(q.class),
        Script::Hebrew => match q.class {
            Class::Sans => vec!["Noto Sans Hebrew".into(), "Liberation Sans".into()],
            Class::Serif => vec![
                "Noto Serif Hebrew".into(),
                "Liberation Serif".into(),
                "Noto Sans Hebrew".into(),
            ],
            Class::Mono => vec!["Liberation Mono".into(), "Noto Sans Hebrew".into()],
        },
        Script::Arabic => {
            let mut chain: Chain = match q.class {
                Class::Serif => vec!["Noto Naskh Arabic".into(), "Noto Sans Arabic".into()],
                _ => vec!["Noto Sans Arabic".into(), "Noto Naskh Arabic".into()],
            };
            let lang = q.lang.to_ascii_lowercase();
            if q.class == Class::Serif && (lang == "ur" || lang.starts_with("ur-")) {
                chain.insert(0, "Noto Nastaliq Urdu".into());
            }
            chain
        }
        s if is_cjk(s) => {
            let first = region(q.lang, s);
            let prefix = match q.class {
                Class::Sans => "Noto Sans CJK",
                Class::Serif => "Noto Serif CJK",
                Class::Mono => "Noto Sans Mono CJK",
            };
            // The chosen region first; the others only catch the few characters it lacks.
            std::iter::once(first)
                .chain(Region::ALL.into_iter().filter(|&r| r != first))
                .map(|r| Cow::Owned(format!("{prefix} {}", r.suffix())))
                .collect()
        }
        s => {
            let name = noto_name(s);
            let sans = Cow::Owned(format!("Noto Sans {name}"));
            let serif = Cow::Owned(format!("Noto Serif {name}"));
            match q.class {
                Class::Serif => vec![serif, sans],
                _ => vec![sans, serif],
            }
        }
    }
}

/// The script part of a Noto family name, from unicode-script's full name ("Old_Italic" ->
/// "Old Italic"), where Noto did not name the family after the script.
fn noto_name(script: Script) -> String {
    match script {
        Script::Nyiakeng_Puachue_Hmong => "Hmong Nyiakeng".into(),
        s => s.full_name().replace('_', " "),
    }
}

/// The scripts to try for a character after the Latin chain when its script is Common or
/// Inherited: its Script_Extensions, Han first (so that CJK punctuation follows the lang's
/// region), then the rest in unicode-script's order.
pub(crate) fn extension_scripts(ch: char) -> Vec<Script> {
    let ext = ch.script_extension();
    if ext.is_common() || ext.is_inherited() || ext.is_empty() {
        return Vec::new();
    }
    let mut scripts: Vec<Script> = ext.iter().collect();
    if let Some(i) = scripts.iter().position(|&s| s == Script::Han) {
        scripts.remove(i);
        scripts.insert(0, Script::Han);
    }
    scripts
}

/// Whether a script-neutral character should try the CJK faces before the symbol faces and the
/// last resort: in CJK text, and for the CJK punctuation and full-width forms, whose regional
/// shapes (where a comma sits in its em box) the last resort would get wrong.
pub(crate) fn wants_cjk(lang: &str, ch: char) -> bool {
    lang_region(lang).is_some() || matches!(ch, '\u{3000}'..='\u{303F}' | '\u{FF00}'..='\u{FFEF}')
}

/// How well a face's style fits the query; lower is better. Exact bold and italic, then the
/// same boldness upright, then Regular, then anything; ties go to the weight nearest 400 or
/// 700 and then to library order (so an earlier root wins).
pub(crate) fn style_rank(bold: bool, italic: bool, weight: u16, q: &Query) -> (u8, u16) {
    let tier = if bold == q.bold && italic == q.italic {
        0
    } else if bold == q.bold && !italic {
        1
    } else if !bold && !italic {
        2
    } else {
        3
    };
    let target: u16 = if q.bold { 700 } else { 400 };
    (tier, weight.abs_diff(target))
}

/// A script of the fallback table, and the characters that stand for it: a family covers the
/// script when it has at least 90% of them.
pub(crate) struct Sample {
    pub code: &'static str,
    pub ranges: &'static [(u32, u32)],
    /// Take every `step`th character of the ranges (the Han and Hangul blocks are large).
    pub step: u32,
}

const fn s(code: &'static str, ranges: &'static [(u32, u32)]) -> Sample {
    Sample {
        code,
        ranges,
        step: 1,
    }
}

/// The fallback table's scripts, with the basic letters of each (from its main block).
/// `Zsym` and `Zmth` are the symbols and math rows.
pub(crate) const SAMPLES: &[Sample] = &[
    s("Latn", &[(0x41, 0x5A), (0x61, 0x7A), (0xC0, 0xFF)]),
    s("Grek", &[(0x391, 0x3A9), (0x3B1, 0x3C9)]),
    s("Cyrl", &[(0x410, 0x44F)]),
    s("Armn", &[(0x531, 0x556), (0x561, 0x586)]),
    s("Hebr", &[(0x5D0, 0x5EA)]),
    s("Arab", &[(0x621, 0x64A)]),
    s("Thaa", &[(0x780, 0x7A5)]),
    s("Deva", &[(0x905, 0x939)]),
    s("Beng", &[(0x985, 0x9B9)]),
    s("Guru", &[(0xA05, 0xA39)]),
    s("Gujr", &[(0xA85, 0xAB9)]),
    s("Orya", &[(0xB05, 0xB39)]),
    s("Taml", &[(0xB85, 0xBB9)]),
    s("Telu", &[(0xC05, 0xC39)]),
    s("Knda", &[(0xC85, 0xCB9)]),
    s("Mlym", &[(0xD05, 0xD39)]),
    s("Sinh", &[(0xD85, 0xDC6)]),
    s("Thai", &[(0xE01, 0xE2E)]),
    s("Laoo", &[(0xE81, 0xEAE)]),
    s("Tibt", &[(0xF40, 0xF6A)]),
    s("Mymr", &[(0x1000, 0x102A)]),
    s("Geor", &[(0x10D0, 0x10FA)]),
    s("Ethi", &[(0x1200, 0x1248)]),
    s("Khmr", &[(0x1780, 0x17B3)]),
    s("Hira", &[(0x3041, 0x3096)]),
    s("Kana", &[(0x30A1, 0x30FA)]),
    s("Bopo", &[(0x3105, 0x312F)]),
    Sample {
        code: "Hang",
        ranges: &[(0xAC00, 0xD7A3)],
        step: 97,
    },
    Sample {
        code: "Hani",
        ranges: &[(0x4E00, 0x9FA5)],
        step: 211,
    },
    // Squares, triangles, stars, ballot boxes and check marks: what documents use that the
    // text faces lack. (Arrows and box drawing are spread over Liberation, Noto Sans Symbols
    // and Noto Sans Mono, so no one family would list Zsym.)
    s(
        "Zsym",
        &[
            (0x25A0, 0x25A1),
            (0x25B2, 0x25B6),
            (0x2605, 0x2606),
            (0x2610, 0x2612),
            (0x2713, 0x2718),
        ],
    ),
    s(
        "Zmth",
        &[
            (0x2200, 0x2209),
            (0x2211, 0x221E),
            (0x222B, 0x222B),
            (0x2248, 0x2248),
            (0x2260, 0x2265),
            (0x1D400, 0x1D419),
        ],
    ),
];

impl Sample {
    /// The sample characters: assigned ones of the script only (the ranges hold a few gaps).
    pub fn chars(&self) -> impl Iterator<Item = u32> + '_ {
        let script = Script::from_short_name(self.code);
        self.ranges
            .iter()
            .flat_map(move |&(a, b)| (a..=b).step_by(self.step as usize))
            .filter(move |&c| {
                let Some(ch) = char::from_u32(c) else {
                    return false;
                };
                match script {
                    Some(s) => ch.script() == s,
                    None => ch.script() != Script::Unknown,
                }
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(class: Class, lang: &str) -> Query<'_> {
        Query {
            class,
            bold: false,
            italic: false,
            lang,
        }
    }

    #[test]
    fn lang_regions() {
        assert_eq!(lang_region("ja-JP"), Some(Region::Jp));
        assert_eq!(lang_region("ko"), Some(Region::Kr));
        assert_eq!(lang_region("zh"), Some(Region::Sc));
        assert_eq!(lang_region("zh-CN"), Some(Region::Sc));
        assert_eq!(lang_region("zh-Hans"), Some(Region::Sc));
        assert_eq!(lang_region("zh-SG"), Some(Region::Sc));
        assert_eq!(lang_region("zh-Hant"), Some(Region::Tc));
        assert_eq!(lang_region("zh-TW"), Some(Region::Tc));
        assert_eq!(lang_region("zh-HK"), Some(Region::Hk));
        assert_eq!(lang_region("zh-Hant-HK"), Some(Region::Hk));
        assert_eq!(lang_region("zh_MO"), Some(Region::Hk));
        assert_eq!(lang_region("yue"), Some(Region::Hk));
        assert_eq!(lang_region("en"), None);
        assert_eq!(lang_region(""), None);
        // "jav" (Javanese) is not Japanese.
        assert_eq!(lang_region("jav"), None);
    }

    #[test]
    fn script_family_names() {
        let names = |s| chain(s, &q(Class::Sans, "")).join(", ");
        assert_eq!(
            names(Script::Devanagari),
            "Noto Sans Devanagari, Noto Serif Devanagari"
        );
        assert_eq!(
            names(Script::Old_Italic),
            "Noto Sans Old Italic, Noto Serif Old Italic"
        );
        assert_eq!(
            chain(Script::Tibetan, &q(Class::Serif, "")).join(", "),
            "Noto Serif Tibetan, Noto Sans Tibetan"
        );
        assert_eq!(
            family_key("Noto Sans PhagsPa"),
            family_key("Noto Sans Phags_Pa")
        );
        assert_eq!(
            chain(Script::Han, &q(Class::Mono, "zh-TW"))[0],
            "Noto Sans Mono CJK TC"
        );
        assert_eq!(
            chain(Script::Hangul, &q(Class::Serif, ""))[0],
            "Noto Serif CJK KR"
        );
    }

    #[test]
    fn styles() {
        let bold = Query {
            class: Class::Sans,
            bold: true,
            italic: true,
            lang: "",
        };
        // Bold Italic, then Bold, then Regular, then Italic.
        let mut faces = [(false, true), (false, false), (true, false), (true, true)];
        faces.sort_by_key(|&(b, i)| style_rank(b, i, if b { 700 } else { 400 }, &bold));
        assert_eq!(
            faces,
            [(true, true), (true, false), (false, false), (false, true)]
        );
    }

    #[test]
    fn common_characters_follow_their_extensions() {
        // The ideographic full stop is used by Han, kana, Hangul...: Han first.
        assert_eq!(extension_scripts('。').first(), Some(&Script::Han));
        assert_eq!(extension_scripts('،'), {
            let mut v: Vec<Script> = '،'.script_extension().iter().collect();
            v.sort_by_key(|s| *s != Script::Han);
            v
        });
        assert!(extension_scripts('1').is_empty());
    }

    #[test]
    fn samples_are_the_scripts_they_name() {
        for sample in SAMPLES {
            let n = sample.chars().count();
            assert!(n >= 10, "{}: {n} sample characters", sample.code);
        }
    }
}
