//! Markdown importer: CommonMark plus GitHub's tables, strikethrough, task lists, footnotes
//! and alerts, laid out on pages with the SDK's flow layout.
//!
//! Pipeline: bytes -> text (UTF-8, or UTF-16 with a byte-order mark, else Windows-1252 with a
//! warning; CRLF and CR become LF)
//! -> YAML front matter skipped, its `title`, `author`, `date` and `lang` kept -> pulldown-cmark
//! events -> flow IR ([`build`]), after the title block pandoc draws from the front matter
//! ([`title_block`]) -> pages ([`quire_sdk::flow::layout`]).
//!
//! Pictures come beside the text in `request.images`, named as the Markdown references them.
//! Of a PNG or JPEG only the header is read here ([`quire_sdk::image_probe`], for the pixel
//! size); an SVG is read into a drawing by Quire's SVG reader
//! ([`quire_svg_read::pictures`]), so it is drawn as vectors with its text kept as text. A
//! picture that is missing or of another kind is a warning, and its alt text stands in. Characters
//! outside WinAnsi stay in the model as they are: the exporters decide what they can draw
//! and warn.

mod build;
mod front_matter;
mod html;
mod title_block;

use pulldown_cmark::{Options, Parser};
use quire_sdk::flow::{self, PageSetup};
use quire_sdk::validate::{MAX_PAGES, MAX_SHAPES};
use quire_sdk::{
    ConvertError, Converter, Document, Format, ImportRequest, Imported, Kind, OptionSpec,
    PluginInfo,
};

/// Markdown larger than this is refused before parsing: 16 MiB is thousands of pages.
pub const MAX_INPUT: usize = 16 << 20;

pub struct Markdown;

impl Converter for Markdown {
    fn describe() -> PluginInfo {
        PluginInfo {
            name: "markdown".into(),
            // From the manifest: a version names one build (plugins/testing/markdown-next
            // builds this source again as another version).
            version: env!("CARGO_PKG_VERSION").into(),
            imports: vec![Format::new("text/markdown", "md")],
            exports: Vec::new(),
            options: vec![
                OptionSpec {
                    name: "title".into(),
                    description: "Document title; overrides a `title` in YAML front matter".into(),
                },
                OptionSpec {
                    name: "paper".into(),
                    description: "Page size: `a4` (default) or `letter`".into(),
                },
            ],
        }
    }

    fn import(request: ImportRequest) -> Result<Imported, ConvertError> {
        convert(request)
    }
}

/// Converts Markdown to the document model; usable natively (tests, benchmarks) as well as
/// inside the component.
pub fn convert(request: ImportRequest) -> Result<Imported, ConvertError> {
    if request.bytes.len() > MAX_INPUT {
        return Err(ConvertError::TooLarge(format!(
            "the Markdown is {} bytes; at most {MAX_INPUT} bytes (16 MiB) are accepted",
            request.bytes.len()
        )));
    }
    let setup = PageSetup::for_paper(request.option("paper"))?;
    let decoded = decode(&request.bytes)?;
    let text = normalize_newlines(decoded.text);
    let (body, front) = front_matter::split_all(&text);
    let title = match request.option("title").map(str::trim) {
        Some(t) if !t.is_empty() => Some(t.to_string()),
        _ => front.title.clone(),
    };
    // Before the layout: the language picks glyph forms, and so widths.
    quire_sdk::fonts::set_lang(front.lang.as_deref().unwrap_or(""));

    let options = Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_GFM;
    let parser = Parser::new_ext(body, options);
    let (body_blocks, mut builder) = build::Builder::new(&request.images).build(parser);
    if let Some(refused) = builder.refused.take() {
        return Err(refused);
    }
    // Named by its first heading when it names no title: drawn as a title block only
    // when named.
    let heading_title = flow::first_heading(&body_blocks);
    let title_block = title_block::blocks(&front, title.as_deref());
    let mut blocks = title_block.clone();
    blocks.extend(body_blocks);
    let (mut pages, flow_warnings) = flow::layout(&blocks, &setup);
    drop(blocks);
    title_block::centre(&mut pages, &title_block, &setup);

    if pages.len() > MAX_PAGES {
        return Err(ConvertError::TooLarge(format!(
            "the Markdown lays out to {} pages; at most {MAX_PAGES} are accepted",
            pages.len()
        )));
    }
    let shapes: usize = pages.iter().map(|p| p.shapes.len()).sum();
    if shapes > MAX_SHAPES {
        return Err(ConvertError::TooLarge(format!(
            "the Markdown lays out to {shapes} shapes; at most {MAX_SHAPES} are accepted"
        )));
    }

    let mut document = Document::new(Kind::Paged);
    document.title = title.or(heading_title);
    document.lang = front.lang;
    document.pages = pages;
    let mut warnings: Vec<String> = decoded.warning.into_iter().collect();
    warnings.extend(builder.warnings);
    warnings.extend(builder.pictures.warnings);
    warnings.extend(flow_warnings);
    let (fragment_assets, fragment_warnings) = builder.fragments.finish();
    warnings.extend(fragment_warnings);
    let mut assets = builder.used;
    assets.extend(builder.pictures.assets);
    // A picture both the Markdown and its raw HTML show is one asset.
    for asset in fragment_assets {
        if !assets.iter().any(|a| a.name == asset.name) {
            assets.push(asset);
        }
    }
    Ok(Imported {
        document,
        assets,
        warnings,
    })
}

/// The decoded text, and a warning when its encoding had to be guessed.
struct Decoded {
    text: String,
    warning: Option<String>,
}

/// Text from bytes: UTF-8 (a byte-order mark is dropped), or UTF-16 when a byte-order mark
/// says so. Bytes that are neither are read as Windows-1252, as pandoc and browsers fall
/// back: a file saved as "Latin-1" or "ANSI" by a Western editor is that, and refusing it
/// would leave the sender nothing to do but find another tool. A UTF-8 byte-order mark
/// followed by bytes that are not UTF-8 is refused: the file says what it is, and is damaged.
fn decode(bytes: &[u8]) -> Result<Decoded, ConvertError> {
    let sure = |text: String| {
        Ok(Decoded {
            text,
            warning: None,
        })
    };
    if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        return sure(utf8(rest, 3)?);
    }
    let utf16 = |rest: &[u8], le: bool| {
        if !rest.len().is_multiple_of(2) {
            return Err(ConvertError::Damaged(
                "the Markdown starts with a UTF-16 byte-order mark but has an odd number of bytes"
                    .into(),
            ));
        }
        let units = rest.chunks_exact(2).map(|c| {
            if le {
                u16::from_le_bytes([c[0], c[1]])
            } else {
                u16::from_be_bytes([c[0], c[1]])
            }
        });
        char::decode_utf16(units)
            .collect::<Result<String, _>>()
            .map_err(|_| {
                ConvertError::Damaged(
                    "the Markdown is UTF-16 with an unpaired surrogate; it is not valid text"
                        .into(),
                )
            })
    };
    if let Some(rest) = bytes.strip_prefix(b"\xFF\xFE") {
        return sure(utf16(rest, true)?);
    }
    if let Some(rest) = bytes.strip_prefix(b"\xFE\xFF") {
        return sure(utf16(rest, false)?);
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => sure(text.to_string()),
        Err(e) => Ok(Decoded {
            text: windows_1252(bytes),
            warning: Some(format!(
                "the Markdown is not UTF-8 text (the byte at offset {} is not valid UTF-8); \
                 it was read as Windows-1252 (Latin-1): if some characters look wrong, save \
                 the file as UTF-8 and send it again",
                e.valid_up_to()
            )),
        }),
    }
}

fn utf8(bytes: &[u8], skipped: usize) -> Result<String, ConvertError> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Ok(s.to_string()),
        Err(e) => Err(ConvertError::Damaged(format!(
            "the Markdown starts with a UTF-8 byte-order mark but is not UTF-8 text: the byte \
             at offset {} is not valid UTF-8; save the file as UTF-8 and send it again",
            e.valid_up_to() + skipped
        ))),
    }
}

/// Windows-1252 as the WHATWG Encoding Standard decodes it: every byte is a character.
/// The SDK's WinAnsi table (the same code page, which PDF calls WinAnsiEncoding) gives the
/// printable ones; control bytes and the five bytes the code page leaves undefined (0x81,
/// 0x8D, 0x8F, 0x90, 0x9D) stand for the code point of the same number, C0 and C1 controls.
fn windows_1252(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| quire_sdk::metrics::winansi_char(b).unwrap_or(char::from(b)))
        .collect()
}

/// CRLF and lone CR line ends as LF, so code blocks and hard breaks carry no `\r`.
fn normalize_newlines(text: String) -> String {
    if !text.contains('\r') {
        return text;
    }
    text.replace("\r\n", "\n").replace('\r', "\n")
}

quire_sdk::export_converter!(Markdown);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_utf8_and_utf16_and_reads_the_rest_as_windows_1252() {
        let text = |bytes: &[u8]| decode(bytes).unwrap().text;
        assert_eq!(text(b"\xEF\xBB\xBFhi"), "hi");
        assert_eq!(text(b"\xFF\xFEh\0i\0"), "hi");
        assert_eq!(text(b"\xFE\xFF\0h\0i"), "hi");
        assert!(decode("caf\u{e9}".as_bytes()).unwrap().warning.is_none());
        let latin = decode(b"ok \xE9t\xE9 \x80").unwrap();
        assert_eq!(latin.text, "ok \u{e9}t\u{e9} \u{20ac}");
        assert!(
            latin
                .warning
                .as_deref()
                .is_some_and(|w| w.contains("offset 3") && w.contains("Windows-1252")),
            "{:?}",
            latin.warning
        );
        let e = decode(b"\xEF\xBB\xBFok \xE9").map(|d| d.text).unwrap_err();
        assert!(
            matches!(&e, ConvertError::Damaged(s) if s.contains("offset 6")),
            "{e:?}"
        );
        assert!(matches!(
            decode(b"\xFF\xFEh"),
            Err(ConvertError::Damaged(_))
        ));
        assert!(matches!(
            decode(b"\xFF\xFE\x00\xD8"),
            Err(ConvertError::Damaged(_))
        ));
    }

    #[test]
    fn windows_1252_maps_every_byte_as_whatwg_does() {
        let all: Vec<u8> = (0..=255).collect();
        let text: Vec<char> = windows_1252(&all).chars().collect();
        assert_eq!(text.len(), 256);
        assert_eq!(
            &text[..0x80],
            &(0..0x80u8).map(char::from).collect::<Vec<_>>()[..]
        );
        let high: String = text[0x80..0xA0].iter().collect();
        assert_eq!(
            high,
            "\u{20ac}\u{81}\u{201a}\u{192}\u{201e}\u{2026}\u{2020}\u{2021}\u{2c6}\u{2030}\u{160}\
             \u{2039}\u{152}\u{8d}\u{17d}\u{8f}\u{90}\u{2018}\u{2019}\u{201c}\u{201d}\u{2022}\
             \u{2013}\u{2014}\u{2dc}\u{2122}\u{161}\u{203a}\u{153}\u{9d}\u{17e}\u{178}"
        );
        assert_eq!(
            &text[0xA0..],
            &(0xA0..=0xFFu8).map(char::from).collect::<Vec<_>>()[..]
        );
    }

    #[test]
    fn crlf_becomes_lf() {
        assert_eq!(normalize_newlines("a\r\nb\rc\n".into()), "a\nb\nc\n");
    }

    #[test]
    fn paper_option() {
        assert_eq!(PageSetup::for_paper(Some("Letter")).unwrap().width, 612.0);
        assert_eq!(PageSetup::for_paper(None).unwrap().width, 595.28);
        assert!(matches!(
            PageSetup::for_paper(Some("a5")),
            Err(ConvertError::InvalidRequest(_))
        ));
    }

    #[test]
    fn describes_itself() {
        let info = Markdown::describe();
        assert_eq!(
            (info.name.as_str(), info.version.as_str()),
            ("markdown", "1.4.1")
        );
        assert_eq!(info.imports, [Format::new("text/markdown", "md")]);
        assert!(info.exports.is_empty());
    }
}
