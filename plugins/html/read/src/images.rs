//! Pictures of `<img>` and inline `<svg>`: only from what the request supplies (by name),
//! decoded from a `data:` URI, or drawn in the page itself. A PNG or JPEG stays a picture;
//! an SVG is read into a drawing ([`quire_svg_read::pictures`]), so every exporter draws it
//! as vectors and its text stays text. Nothing is ever fetched or read from a path; anything
//! else becomes the picture's alt text and a warning.

use std::collections::HashMap;

use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::Engine as _;
use quire_sdk::flow::ImageSource;
use quire_sdk::image_probe;
use quire_sdk::Asset;
use quire_svg_read::pictures::{self, Pictures};

/// A picture placed in the document: what it shows and its size in pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct Picture {
    pub source: ImageSource,
    pub width: u32,
    pub height: u32,
}

pub struct Images<'a> {
    supplied: &'a [Asset],
    /// The assets the document uses: supplied ones and decoded `data:` pictures.
    pub used: Vec<Asset>,
    /// `data:` URIs already decoded, to the asset holding them.
    decoded: HashMap<String, Picture>,
    /// Pictures on the web that were not supplied, in order of appearance.
    remote: Vec<String>,
    /// The SVG pictures read into drawings.
    drawings: Pictures,
    /// Inline `<svg>` elements read so far.
    inline_svgs: usize,
    pub warnings: Vec<String>,
}

impl<'a> Images<'a> {
    pub fn new(supplied: &'a [Asset]) -> Self {
        Images {
            supplied,
            used: Vec::new(),
            decoded: HashMap::new(),
            remote: Vec::new(),
            drawings: Pictures::new(),
            inline_svgs: 0,
            warnings: Vec::new(),
        }
    }

    fn warn(&mut self, message: String) {
        if !self.warnings.contains(&message) {
            self.warnings.push(message);
        }
    }

    /// The picture an `<img src>` names, or `None` (with a warning) when there is none to
    /// show and the alt text must stand in.
    pub fn resolve(&mut self, src: &str) -> Option<Picture> {
        let src = src.trim();
        if src.is_empty() {
            self.warn("an image has no `src`; its alt text stands in".into());
            return None;
        }
        if let Some(uri) = strip_prefix_ignore_ascii_case(src, "data:") {
            return self.data_uri(src, uri);
        }
        if let Some(asset) = find_supplied(self.supplied, src) {
            return match self.drawings.supplied(asset, self.supplied, &mut self.used) {
                Ok((source, width, height)) => Some(Picture {
                    source,
                    width,
                    height,
                }),
                Err(warning) => {
                    if let Some(warning) = warning {
                        self.warn(warning);
                    }
                    None
                }
            };
        }
        let lower = src.to_ascii_lowercase();
        if lower.starts_with("http:") || lower.starts_with("https:") || src.starts_with("//") {
            if !self.remote.iter().any(|r| r == src) {
                self.remote.push(src.to_string());
            }
        } else {
            self.warn(format!(
                "image `{}` was not supplied with the request; its alt text stands in",
                shorten(src)
            ));
        }
        None
    }

    /// A `data:` URI: `src` whole, `uri` what follows the scheme.
    fn data_uri(&mut self, src: &str, uri: &str) -> Option<Picture> {
        if let Some(p) = self.decoded.get(src) {
            return Some(p.clone());
        }
        let Some((header, payload)) = uri.split_once(',') else {
            self.warn("an image has a `data:` URI without data; its alt text stands in".into());
            return None;
        };
        let mut params = header.split(';');
        let declared = params.next().unwrap_or("").trim().to_ascii_lowercase();
        let base64 = params.any(|p| p.trim().eq_ignore_ascii_case("base64"));
        let svg = declared == pictures::MEDIA_TYPE;
        if !svg
            && !matches!(
                declared.as_str(),
                "image/png" | "image/jpeg" | "image/jpg" | "image/pjpeg"
            )
        {
            let what = if declared.is_empty() {
                "text/plain"
            } else {
                &declared
            };
            self.warn(format!(
                "an embedded `data:` image of type {what} was left out: only PNG, JPEG and \
                 SVG pictures are embedded; its alt text stands in"
            ));
            return None;
        }
        let bytes = if base64 {
            let clean: Vec<u8> = payload
                .bytes()
                .filter(|b| !b.is_ascii_whitespace())
                .collect();
            // Browsers accept base64 with or without its `=` padding.
            let engine = GeneralPurpose::new(
                &base64::alphabet::STANDARD,
                GeneralPurposeConfig::new()
                    .with_decode_padding_mode(DecodePaddingMode::Indifferent),
            );
            engine.decode(clean).ok()
        } else {
            Some(percent_decode(payload))
        };
        if svg {
            let Some(bytes) = bytes else {
                self.warn(
                    "an embedded `data:` SVG image could not be decoded; its alt text stands in"
                        .into(),
                );
                return None;
            };
            let name = format!("embedded SVG picture {}", self.decoded.len() + 1);
            let picture = self.drawing(src, &name, || bytes)?;
            self.decoded.insert(src.to_string(), picture.clone());
            return Some(picture);
        }
        let found = bytes.and_then(|b| image_probe::size(&b).map(|p| (b, p)));
        let Some((bytes, (kind, width, height))) = found else {
            self.warn(format!(
                "an embedded `data:` {declared} image could not be read; its alt text stands in"
            ));
            return None;
        };
        let mut n = self.decoded.len() + 1;
        let name = loop {
            let name = format!("data-image-{n}.{}", kind.extension());
            let taken = |a: &Asset| a.name == name;
            if !self.supplied.iter().any(taken) && !self.used.iter().any(taken) {
                break name;
            }
            n += 1;
        };
        self.used.push(Asset {
            name: name.clone(),
            media_type: kind.media_type().into(),
            bytes,
        });
        let picture = Picture {
            source: ImageSource::Asset(name),
            width,
            height,
        };
        self.decoded.insert(src.to_string(), picture.clone());
        Some(picture)
    }

    /// An inline `<svg>` element of the page, written out as an SVG file.
    pub fn inline_svg(&mut self, svg: String) -> Option<Picture> {
        self.inline_svgs += 1;
        let key = format!("inline <svg> {}", self.inline_svgs);
        self.drawing(&key, &format!("<svg> number {}", self.inline_svgs), || {
            svg.into_bytes()
        })
    }

    /// The drawing of an SVG picture known as `key`, or `None` with a warning naming it as
    /// `name`.
    fn drawing(
        &mut self,
        key: &str,
        name: &str,
        bytes: impl FnOnce() -> Vec<u8>,
    ) -> Option<Picture> {
        let (supplied, used) = (self.supplied, &self.used);
        let taken = |n: &str| supplied.iter().chain(used).any(|a| a.name == n);
        match self.drawings.drawing(key, name, bytes, taken) {
            Ok(drawing) => {
                let (width, height) = pictures::pixel_size(&drawing);
                Some(Picture {
                    source: ImageSource::Drawing(drawing),
                    width,
                    height,
                })
            }
            Err(why) => {
                if let Some(why) = why {
                    self.warn(pictures::unreadable(&shorten(name), &why));
                }
                None
            }
        }
    }

    /// The warnings, with one sentence for all pictures on the web that were not supplied.
    pub fn finish(mut self) -> (Vec<Asset>, Vec<String>) {
        if let Some(first) = self.remote.first() {
            let n = self.remote.len();
            let what = if n == 1 {
                "1 image on the web was".to_string()
            } else {
                format!("{n} images on the web were")
            };
            self.warnings.push(format!(
                "{what} not fetched (first: {}); supply pictures by name in `images`; \
                 the alt text stands in",
                shorten(first)
            ));
        }
        let mut assets = self.used;
        assets.extend(self.drawings.assets);
        let mut warnings = self.warnings;
        warnings.extend(self.drawings.warnings);
        (assets, warnings)
    }
}

/// What follows `prefix` (ASCII) at the start of `s`, in any letter case. Compared as
/// bytes: the first `prefix.len()` bytes of `s` may end inside a character.
fn strip_prefix_ignore_ascii_case<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.as_bytes().get(..prefix.len())?;
    if head.eq_ignore_ascii_case(prefix.as_bytes()) {
        s.get(prefix.len()..)
    } else {
        None
    }
}

/// Long sources (URLs with queries) cut for a readable warning.
pub fn shorten(s: &str) -> String {
    if s.chars().count() <= 120 {
        return s.to_string();
    }
    let mut out: String = s.chars().take(117).collect();
    out.push_str("...");
    out
}

/// The supplied picture a `src` names: exactly, or with `./`, a query or percent escapes
/// removed, or by its last path segment alone.
fn find_supplied<'a>(images: &'a [Asset], src: &str) -> Option<&'a Asset> {
    if images.is_empty() {
        return None;
    }
    let exact = |name: &str| images.iter().find(|a| a.name == name);
    let trimmed = src.trim_start_matches("./");
    let no_query = trimmed.split(['?', '#']).next().unwrap_or(trimmed);
    let decoded = String::from_utf8_lossy(&percent_decode(no_query)).into_owned();
    let file_name = |s: &str| s.rsplit(['/', '\\']).next().unwrap_or(s).to_string();
    exact(src)
        .or_else(|| exact(trimmed))
        .or_else(|| exact(no_query))
        .or_else(|| exact(&decoded))
        .or_else(|| {
            let wanted = file_name(&decoded);
            (!wanted.is_empty())
                .then(|| images.iter().find(|a| file_name(&a.name) == wanted))
                .flatten()
        })
}

fn percent_decode(s: &str) -> Vec<u8> {
    percent_encoding::percent_decode_str(s).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    pub fn png(w: u32, h: u32) -> Vec<u8> {
        let mut b = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        b.extend_from_slice(&w.to_be_bytes());
        b.extend_from_slice(&h.to_be_bytes());
        b.extend_from_slice(&[8, 2, 0, 0, 0, 0, 0, 0, 0]);
        b
    }

    fn asset(name: &str, bytes: Vec<u8>) -> Asset {
        Asset {
            name: name.into(),
            media_type: String::new(),
            bytes,
        }
    }

    #[test]
    fn supplied_pictures_are_found_by_name_or_last_segment() {
        let supplied = [asset("logo.png", png(40, 20))];
        let mut images = Images::new(&supplied);
        let p = images
            .resolve("https://example.com/img/logo.png?v=2")
            .unwrap();
        assert_eq!((p.source.name(), p.width, p.height), ("logo.png", 40, 20));
        assert!(images.resolve("./logo.png").is_some());
        assert!(images.resolve("other.png").is_none());
        assert!(images.resolve("https://example.com/a.png").is_none());
        assert!(images.resolve("//cdn.example.com/b.png").is_none());
        let (used, warnings) = images.finish();
        assert_eq!(used.len(), 1);
        assert_eq!(used[0].media_type, "image/png");
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(warnings[0].contains("other.png"));
        assert!(warnings[1].starts_with("2 images on the web were not fetched"));
    }

    #[test]
    fn data_uris_of_png_are_decoded_once() {
        let b64 = base64::engine::general_purpose::STANDARD.encode(png(3, 2));
        let src = format!("data:image/png;base64,{}", b64.trim_end_matches('='));
        let mut images = Images::new(&[]);
        let p = images.resolve(&src).unwrap();
        assert_eq!((p.width, p.height), (3, 2));
        assert_eq!(images.resolve(&src).unwrap(), p);
        assert!(images.resolve("data:image/gif;base64,R0lGODlh").is_none());
        assert!(images.resolve("data:image/png;base64,!!!").is_none());
        assert!(images.resolve("data:image/png").is_none());
        let (used, warnings) = images.finish();
        assert_eq!(used.len(), 1);
        assert_eq!(used[0].name, "data-image-1.png");
        assert_eq!(warnings.len(), 3, "{warnings:?}");
    }

    /// A `src` with a multi-byte character among its first five bytes once panicked
    /// (`src[..5]` cut inside the character): every offset of two-, three- and four-byte
    /// characters is tried, alone, as a file name and after `data:`.
    #[test]
    fn sources_with_non_ascii_characters_at_any_offset() {
        let supplied = [asset("logo\u{e9}.png", png(4, 4))];
        for wide in ['\u{fc}', '\u{e9}', '\u{65e5}', '\u{1f3a8}'] {
            for lead in 0..6 {
                let head = format!("{}{wide}", "a".repeat(lead));
                for src in [
                    head.clone(),
                    format!("{head}.png"),
                    format!("d{wide}.png"),
                    format!("data{wide}"),
                    format!("dat{wide}:image/png;base64,AAAA"),
                ] {
                    let mut images = Images::new(&supplied);
                    assert_eq!(images.resolve(&src), None, "{src:?}");
                    let (used, warnings) = images.finish();
                    assert!(used.is_empty(), "{src:?}");
                    assert!(
                        warnings[0].contains("was not supplied"),
                        "{src:?}: {warnings:?}"
                    );
                }
                // After `data:` the character is part of the media type or the payload.
                let mut images = Images::new(&supplied);
                assert_eq!(images.resolve(&format!("data:{head}")), None);
                assert_eq!(images.resolve(&format!("data:image/{head},x")), None);
                let b64 = base64::engine::general_purpose::STANDARD.encode(png(5, 6));
                let p = images.resolve(&format!("data:image/png;base64,{b64}{head}"));
                assert_eq!(p, None, "the character is not base64");
                let (_, warnings) = images.finish();
                assert!(warnings[0].contains("without data"), "{warnings:?}");
                assert!(warnings[1].contains("image of type image/"), "{warnings:?}");
                assert!(warnings[2].contains("could not be read"), "{warnings:?}");
            }
        }
        // The supplied picture with a non-ASCII name is still found, and the `data:`
        // scheme is still recognised in any case.
        let mut images = Images::new(&supplied);
        let p = images.resolve("logo\u{e9}.png").unwrap();
        assert_eq!(
            (p.source.name(), p.width, p.height),
            ("logo\u{e9}.png", 4, 4)
        );
        let b64 = base64::engine::general_purpose::STANDARD.encode(png(5, 6));
        let p = images
            .resolve(&format!("DaTa:image/png;base64,{b64}"))
            .unwrap();
        assert_eq!(
            (p.source.name(), p.width, p.height),
            ("data-image-1.png", 5, 6)
        );
        assert!(images.finish().1.is_empty());
    }
}
