//! PNG and JPEG importer: the picture becomes a one-page document the size of the picture
//! (see [`page`] for how pixels become points), holding one image shape that covers the
//! page, with the file's own bytes as the asset (nothing is re-encoded).
//!
//! The file is checked before it is accepted: its headers ([`header`], read by
//! [`quire_sdk::image_probe`]: format, size, resolution, EXIF orientation, and whether the PDF
//! exporter can embed it), then a full decode under memory and size limits ([`decode`]) so
//! that cut-short or corrupt files are refused now, not when the document is first exported.
//! Refusals: neither PNG nor JPEG is Unsupported (415); damaged is Damaged (422); too many
//! pixels is TooLarge (413).
//!
//! EXIF orientation: exporters turn a JPEG upright when they draw it (the PDF exporter does
//! it in its image matrix), so the page and the shape's frame take the upright size. An
//! orientation inside a PNG is not applied by the exporters; it is reported, not followed.

mod decode;
mod header;
mod page;

use quire_sdk::jpeg_recode;
use quire_sdk::{
    Asset, ConvertError, Converter, Document, Format, Image, ImportRequest, Imported, Kind,
    OptionSpec, Page, PluginInfo, Rect, Shape,
};

pub use decode::{MAX_ALLOC, MAX_SIDE};

/// Files larger than this are refused before anything is read: 64 MiB is far beyond any
/// photo or scan, and the file is held in memory twice inside the sandbox.
pub const MAX_INPUT: usize = 64 << 20;

pub struct ImageImporter;

impl Converter for ImageImporter {
    fn describe() -> PluginInfo {
        PluginInfo {
            name: "image".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            imports: vec![
                Format::new("image/png", "png"),
                Format::new("image/jpeg", "jpg"),
            ],
            exports: Vec::new(),
            options: vec![OptionSpec {
                name: "title".into(),
                description: "Document title".into(),
            }],
        }
    }

    fn import(request: ImportRequest) -> Result<Imported, ConvertError> {
        convert(request)
    }
}

/// Converts a PNG or JPEG to the document model; usable natively (tests, benchmarks) as well
/// as inside the component.
pub fn convert(request: ImportRequest) -> Result<Imported, ConvertError> {
    if request.bytes.len() > MAX_INPUT {
        return Err(ConvertError::TooLarge(format!(
            "the picture file is {} bytes; at most {MAX_INPUT} bytes (64 MiB) are accepted",
            request.bytes.len()
        )));
    }
    let mut warnings = Vec::new();
    let title = request
        .option("title")
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_string);
    let mut bytes = request.bytes;
    // Arithmetic coding is what browsers and PDF viewers do not read: the same coefficients
    // are packed again with Huffman coding, which they do.
    if jpeg_recode::is_arithmetic(&bytes) {
        bytes = jpeg_recode::recode(&bytes)
            .map_err(|e| ConvertError::Damaged(format!("the picture is damaged: {e}")))?;
        warnings.push(
            "the JPEG was arithmetic-coded, which PDF viewers and browsers do not draw; it \
             was re-coded with Huffman coding, without loss (the same coefficients, the same \
             pixels)"
                .to_string(),
        );
    }
    let header = header::read(&bytes)?;
    decode::check(&bytes, &header)?;
    let size = page::size(&header);

    if let Some(o) = header.png_orientation {
        warnings.push(format!(
            "the PNG carries EXIF orientation {o}, which is not applied: the picture is \
             shown as its pixels are stored"
        ));
    }
    if size.shrunk {
        warnings.push(format!(
            "the picture's page would be larger than {} inches on a side; it was scaled \
             down to {:.0} x {:.0} pt",
            quire_sdk::validate::MAX_PAGE_SIDE / 72.0,
            size.width,
            size.height
        ));
    }

    let name = match header.kind {
        header::Kind::Png => "image.png",
        header::Kind::Jpeg => "image.jpg",
    };
    let mut page = Page::new(size.width, size.height);
    page.shapes.push(Shape::Image(Image {
        id: "image".into(),
        frame: Rect::new(0.0, 0.0, size.width, size.height),
        asset: name.into(),
        alt: None,
        link: None,
    }));
    let mut document = Document::new(Kind::Paged);
    document.title = title;
    document.pages.push(page);
    Ok(Imported {
        document,
        assets: vec![Asset {
            name: name.into(),
            media_type: header.kind.media_type().into(),
            bytes,
        }],
        warnings,
    })
}

quire_sdk::export_converter!(ImageImporter);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describes_itself() {
        let info = ImageImporter::describe();
        assert_eq!(
            (info.name.as_str(), info.version.as_str()),
            ("image", "1.1.5")
        );
        assert_eq!(
            info.imports,
            [
                Format::new("image/png", "png"),
                Format::new("image/jpeg", "jpg")
            ]
        );
        assert!(info.exports.is_empty());
    }
}
