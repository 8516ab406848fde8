//! Objects shared by every page of one export: the object-number allocator, the fonts, the
//! pictures, the transparency states, and the warnings they give rise to.
//!
//! Registries are vectors searched linearly, not hash maps, so objects are numbered and
//! written in first-use order and the same model always gives the same bytes.

use std::collections::BTreeSet;

use pdf_writer::{Chunk, Filter, Finish, Name, Ref};
use quire_sdk::glyph_runs::{boxed_warning, replaced_warning};
use quire_sdk::metrics::FontFace;
use quire_sdk::Asset;

use super::library_fonts::LibraryFonts;
use super::picture::{self, Encoding, Picture, Space};
use super::refs::Refs;
use super::standard_fonts::StandardFonts;

/// A picture as placed on a page.
#[derive(Debug, Clone, Copy)]
pub struct PlacedImage {
    /// Index into the picture registry, which names it `/Im{index}`.
    pub index: usize,
    pub orientation: u8,
}

/// What one page draws with, by registry index; becomes the page's `/Resources`.
#[derive(Debug, Default, Clone)]
pub struct PageUse {
    pub fonts: BTreeSet<usize>,
    pub library_fonts: BTreeSet<usize>,
    pub images: BTreeSet<usize>,
    pub states: BTreeSet<usize>,
}

/// Which alpha an ExtGState sets: the fill's (`/ca`) or the stroke's (`/CA`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AlphaKind {
    Fill,
    Stroke,
}

/// An embedded picture (object and EXIF orientation), or why it could not be read.
type Loaded = Result<(Ref, u8), String>;

pub struct Resources<'a> {
    pub refs: Refs,
    /// Picture objects, written as soon as a picture is first used.
    pub chunk: Chunk,
    assets: &'a [Asset],
    /// The standard faces drawn with, and which codes of each were drawn.
    fonts: Vec<(FontFace, Ref, Box<[bool; 256]>)>,
    /// Faces of the host's font library, for what the standard fonts cannot draw.
    library: LibraryFonts,
    /// Per asset name: the placed picture, or why it could not be read.
    images: Vec<(String, Loaded)>,
    states: Vec<(AlphaKind, u8, Ref)>,
    warnings: Vec<String>,
    /// Characters drawn as `?`, in order of first appearance.
    replaced: Vec<char>,
    /// Characters no installed font has, drawn as .notdef boxes.
    boxed: Vec<char>,
}

impl<'a> Resources<'a> {
    pub fn new(refs: Refs, assets: &'a [Asset]) -> Self {
        Resources {
            refs,
            chunk: Chunk::new(),
            assets,
            fonts: Vec::new(),
            library: LibraryFonts::default(),
            images: Vec::new(),
            states: Vec::new(),
            warnings: Vec::new(),
            replaced: Vec::new(),
            boxed: Vec::new(),
        }
    }

    /// The registry index of `face`, registering it on first use, which draws `bytes`
    /// (noted, so that its embedded subset has their glyphs). Runs in other languages
    /// share the standard font.
    pub fn font(&mut self, face: FontFace, bytes: &[u8]) -> usize {
        let face = face.standard();
        let index = match self.fonts.iter().position(|(f, ..)| *f == face) {
            Some(i) => i,
            None => {
                let r = self.refs.alloc();
                self.fonts.push((face, r, Box::new([false; 256])));
                self.fonts.len() - 1
            }
        };
        let codes = &mut self.fonts[index].2;
        for &b in bytes {
            codes[usize::from(b)] = true;
        }
        index
    }

    pub fn font_name(index: usize) -> String {
        format!("F{}", index + 1)
    }

    /// The library font (registry index) and CID that draw `glyph`, shown for `text`.
    pub fn library_glyph(
        &mut self,
        glyph: quire_sdk::fonts::LibraryGlyph,
        text: &str,
    ) -> (usize, u16) {
        self.library.cid(&mut self.refs, glyph, text)
    }

    /// The advance library font `index` gives `cid`, in 1/1000 em.
    pub fn library_width(&self, index: usize, cid: u16) -> f64 {
        self.library.width(index, cid)
    }

    /// The object of standard font `index`, for resources outside pages (appearances).
    pub fn standard_font_ref(&self, index: usize) -> Ref {
        self.fonts[index].1
    }

    /// The object of library font `index`, for resources outside pages (appearances).
    pub fn library_font_ref(&self, index: usize) -> Ref {
        self.library.font_ref(index)
    }

    /// The ExtGState setting `kind` alpha to `alpha`.
    pub fn alpha_state(&mut self, kind: AlphaKind, alpha: u8) -> usize {
        if let Some(i) = self
            .states
            .iter()
            .position(|(k, a, _)| *k == kind && *a == alpha)
        {
            return i;
        }
        let r = self.refs.alloc();
        self.states.push((kind, alpha, r));
        self.states.len() - 1
    }

    pub fn state_name(index: usize) -> String {
        format!("Gs{}", index + 1)
    }

    pub fn image_name(index: usize) -> String {
        format!("Im{}", index + 1)
    }

    /// The picture held by asset `name`, embedded on first use. A missing or unreadable
    /// picture gives `None` and one warning per asset, however often it is placed.
    pub fn image(&mut self, name: &str) -> Option<PlacedImage> {
        let index = match self.images.iter().position(|(n, _)| n == name) {
            Some(i) => i,
            None => {
                let loaded = match self.assets.iter().find(|a| a.name == name) {
                    Some(asset) => picture::load(&asset.bytes),
                    None => Err("it was not supplied with the document".to_string()),
                };
                let entry = match loaded {
                    Ok(pic) => {
                        let r = self.write_picture(&pic);
                        Ok((r, pic.orientation))
                    }
                    Err(why) => {
                        self.warnings.push(format!(
                            "picture `{name}` could not be read ({why}); a grey box stands in its place"
                        ));
                        Err(why)
                    }
                };
                self.images.push((name.to_string(), entry));
                self.images.len() - 1
            }
        };
        match &self.images[index].1 {
            Ok((_, orientation)) => Some(PlacedImage {
                index,
                orientation: *orientation,
            }),
            Err(_) => None,
        }
    }

    fn write_picture(&mut self, pic: &Picture) -> Ref {
        let id = self.refs.alloc();
        let mask = pic.alpha.as_ref().map(|alpha| {
            let mask_id = self.refs.alloc();
            let mut m = self.chunk.image_xobject(mask_id, alpha);
            m.filter(Filter::FlateDecode);
            m.width(pic.width as i32).height(pic.height as i32);
            m.color_space().device_gray();
            m.bits_per_component(8);
            m.finish();
            mask_id
        });
        let mut x = self.chunk.image_xobject(id, &pic.data);
        x.width(pic.width as i32).height(pic.height as i32);
        x.bits_per_component(pic.bits as i32);
        match &pic.space {
            Space::Gray => x.color_space().device_gray(),
            Space::Rgb => x.color_space().device_rgb(),
            Space::Cmyk => x.color_space().device_cmyk(),
            Space::Indexed(palette) => {
                // PDF palettes hold at most 256 entries; PNG's cannot hold more either.
                let lookup = &palette[..palette.len().min(256 * 3)];
                let hival = (lookup.len() / 3).max(1) as i32 - 1;
                x.color_space().indexed(Name(b"DeviceRGB"), hival, lookup);
            }
        }
        match pic.encoding {
            Encoding::Dct => {
                x.filter(Filter::DctDecode);
            }
            Encoding::Flate { png_columns } => {
                x.filter(Filter::FlateDecode);
                if let Some(columns) = png_columns {
                    let colors = match pic.space {
                        Space::Rgb => 3,
                        Space::Cmyk => 4,
                        _ => 1,
                    };
                    x.decode_parms()
                        .predictor(pdf_writer::types::Predictor::PngOptimum)
                        .colors(colors)
                        .bits_per_component(pic.bits as i32)
                        .columns(columns as i32);
                }
            }
        }
        if let Some(decode) = &pic.decode {
            x.decode(decode.iter().copied());
        }
        if let Some(mask_id) = mask {
            x.s_mask(mask_id);
        }
        x.finish();
        id
    }

    /// Notes a character drawn as `?` because no font, standard or installed, has it.
    pub fn replaced_char(&mut self, ch: char) {
        if !self.replaced.contains(&ch) {
            self.replaced.push(ch);
        }
    }

    /// Notes a character drawn as a missing-glyph box because no installed font has it.
    pub fn boxed_char(&mut self, ch: char) {
        if !self.boxed.contains(&ch) {
            self.boxed.push(ch);
        }
    }

    /// Writes the page's `/Resources` dictionary.
    pub fn write_page_resources(
        &self,
        mut res: pdf_writer::writers::Resources<'_>,
        used: &PageUse,
    ) {
        if !used.fonts.is_empty() || !used.library_fonts.is_empty() {
            let mut fonts = res.fonts();
            for &i in &used.fonts {
                fonts.pair(Name(Self::font_name(i).as_bytes()), self.fonts[i].1);
            }
            for &i in &used.library_fonts {
                fonts.pair(
                    Name(LibraryFonts::name(i).as_bytes()),
                    self.library.font_ref(i),
                );
            }
        }
        if !used.images.is_empty() {
            let mut xs = res.x_objects();
            for &i in &used.images {
                if let Ok((r, _)) = &self.images[i].1 {
                    xs.pair(Name(Self::image_name(i).as_bytes()), *r);
                }
            }
        }
        if !used.states.is_empty() {
            let mut gs = res.ext_g_states();
            for &i in &used.states {
                gs.pair(Name(Self::state_name(i).as_bytes()), self.states[i].2);
            }
        }
    }

    /// Writes the font and graphics-state objects and hands back the picture chunk, the
    /// allocator and the warnings (the character warning last, once per document).
    pub fn finish(mut self) -> (Chunk, Refs, Vec<String>) {
        let mut standard = StandardFonts::default();
        for (face, r, codes) in &self.fonts {
            standard.write(
                &mut self.chunk,
                &mut self.refs,
                &mut self.library,
                *face,
                *r,
                codes,
            );
        }
        self.library
            .write(&mut self.chunk, &mut self.refs, &mut self.warnings);
        for (kind, alpha, r) in &self.states {
            let a = *alpha as f32 / 255.0;
            let mut gs = self.chunk.ext_graphics(*r);
            match kind {
                AlphaKind::Fill => gs.non_stroking_alpha(a),
                AlphaKind::Stroke => gs.stroking_alpha(a),
            };
        }
        if !self.replaced.is_empty() {
            self.warnings.push(replaced_warning(&self.replaced));
        }
        if !self.boxed.is_empty() {
            self.warnings.push(boxed_warning(&self.boxed));
        }
        (self.chunk, self.refs, self.warnings)
    }
}
