//! A full decode with the `image` crate, only to prove the pixels are all there: headers can
//! be whole while the data is cut short or corrupt. The pixels are dropped at once; the
//! document keeps the original bytes.
//!
//! `image::Limits` bound what a hostile file can make the decoder allocate: a few hundred
//! bytes of PNG can declare 100 000 x 100 000 pixels (a "decompression bomb").

use std::io::Cursor;

use image::error::{ImageError, LimitErrorKind};
use image::{ImageFormat, ImageReader, Limits};
use quire_sdk::ConvertError;

use crate::header::{Header, Kind};

/// Widest and tallest picture decoded.
pub const MAX_SIDE: u32 = 20_000;
/// Most memory the decoder may allocate (the sandbox gives a conversion 512 MiB in all, and
/// the input and output are in memory beside it).
pub const MAX_ALLOC: u64 = 256 << 20;

pub fn check(bytes: &[u8], header: &Header) -> Result<(), ConvertError> {
    let (w, h) = (header.width, header.height);
    if w > MAX_SIDE || h > MAX_SIDE {
        return Err(too_large(
            w,
            h,
            format!("at most {MAX_SIDE} x {MAX_SIDE} are accepted"),
        ));
    }
    let format = match header.kind {
        Kind::Png => ImageFormat::Png,
        Kind::Jpeg => ImageFormat::Jpeg,
    };
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_ALLOC);
    reader.limits(limits);
    match reader.decode() {
        Ok(pixels) => {
            drop(pixels);
            Ok(())
        }
        Err(ImageError::Limits(e)) => Err(match e.kind() {
            LimitErrorKind::DimensionError => too_large(
                w,
                h,
                format!("at most {MAX_SIDE} x {MAX_SIDE} are accepted"),
            ),
            _ => too_large(
                w,
                h,
                format!(
                    "decoding it would need more than {} MiB of memory",
                    MAX_ALLOC >> 20
                ),
            ),
        }),
        Err(ImageError::Unsupported(e)) => Err(ConvertError::Unsupported(format!(
            "the {} uses a feature this converter cannot read: {e}",
            header.kind.name()
        ))),
        Err(e) => Err(ConvertError::Damaged(format!(
            "the {} is damaged: its pixels cannot be decoded ({e})",
            header.kind.name()
        ))),
    }
}

fn too_large(w: u32, h: u32, why: String) -> ConvertError {
    ConvertError::TooLarge(format!("the picture is {w} x {h} pixels; {why}"))
}
