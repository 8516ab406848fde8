//! The PDF importer: a PDF read into the document model, page by page.
//!
//! Two ways to read a page:
//! - *Editable* (the default): hayro-interpret walks the page's content (annotations'
//!   appearances included) into [`device::Collector`]; glyphs become text boxes
//!   ([`text`]), paths become path shapes, pictures become image shapes ([`images`]).
//!   Text is set in the nearest standard font ([`fonts`]), so it reads and edits like text
//!   typed in Quire; its look is close to the original, not identical.
//! - *Picture* (`mode=image`, and the redraw of a locked file): hayro renders the page
//!   ([`render`]) and the page holds that one picture.
//!
//! Page sizes are the crop box (within the media box) in points; `/Rotate` is kept, with
//! the shapes in unrotated page space like the exporter expects. One exception: a rotated
//! page whose text reads upright only once turned is turned upright (its rotation applied
//! to the content), because turned text cannot be an editable text box.
//!
//! Locked and password files are opened by [`open`]. Damaged files are a sentence, never a
//! panic; the interpreter runs under `catch_unwind` natively as a last resort (inside wasm a
//! panic aborts the call, which the host reports), and every page is bounded in what it may
//! collect.

mod device;
mod fonts;
mod form;
mod images;
mod open;
mod order;
mod render;
mod text;

use std::panic::{catch_unwind, AssertUnwindSafe};

use hayro::hayro_interpret::hayro_syntax::page::{Page as PdfPage, Rotation};
use hayro::hayro_interpret::hayro_syntax::{LoadPdfError, Pdf};
use hayro::hayro_interpret::{interpret_page, Context, InterpreterCache, InterpreterSettings};
use hayro::RenderCache;
use hayro_interpret::kurbo::{Affine, Rect as KRect};
use quire_sdk::validate::{MAX_PAGE_SIDE, MAX_SHAPES};
use quire_sdk::{ConvertError, Document, ImportRequest, Imported, Kind, Page, Rect, Shape};

use device::{Budget, Collector, Notes};
use form::Form;
use images::AssetStore;
pub use open::Unlock;

pub const MEDIA_TYPE: &str = "application/pdf";
/// Larger files are refused before anything is parsed.
pub const MAX_INPUT: usize = 128 << 20;
/// Pages read from one file; the sandbox's deadline would end a longer import anyway.
pub const MAX_PAGES: usize = 1000;
/// Bytes of pictures one import may produce.
const MAX_ASSET_BYTES: usize = 192 << 20;
/// What one page may collect.
const PAGE_BUDGET: Budget = Budget {
    glyphs: 150_000,
    items: 20_000,
    segments: 400_000,
};

/// How pages are read (`mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Editable,
    Image,
}

impl Mode {
    fn parse(value: Option<&str>) -> Result<Mode, ConvertError> {
        match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
            None | Some("" | "editable" | "text") => Ok(Mode::Editable),
            Some("image") => Ok(Mode::Image),
            Some(other) => Err(ConvertError::InvalidRequest(format!(
                "mode `{other}` is not understood; `image` keeps each page as a picture, \
                 leaving it out imports the page's text"
            ))),
        }
    }
}

/// Runs `f`, turning a panic into `None`. Natively only: inside wasm panics abort.
pub(crate) fn guarded<T>(f: impl FnOnce() -> T) -> Option<T> {
    catch_unwind(AssertUnwindSafe(f)).ok()
}

/// Whether the bytes are a PDF: `%PDF-` within the first kilobyte (readers allow junk
/// before the header).
fn is_pdf(bytes: &[u8]) -> bool {
    bytes[..bytes.len().min(1024)]
        .windows(5)
        .any(|w| w == b"%PDF-")
}

/// How a file ends, which tells a complete file from one cut short.
#[derive(Debug, PartialEq, Eq)]
enum Ending {
    Complete,
    /// A trailer but no `%%EOF` after it: probably whole, but worth a warning.
    NoEofMarker,
    /// Neither: the end of the file is missing. hayro could often rebuild some pages from
    /// what is left, which would import part of a document without anyone noticing.
    CutShort,
}

/// Writers may leave a little junk after `%%EOF`; 4 KiB is far more than any do.
fn ending(bytes: &[u8]) -> Ending {
    let tail = &bytes[bytes.len().saturating_sub(4096)..];
    let has = |needle: &[u8]| tail.windows(needle.len()).any(|w| w == needle);
    if has(b"%%EOF") {
        Ending::Complete
    } else if has(b"startxref") {
        Ending::NoEofMarker
    } else {
        Ending::CutShort
    }
}

/// Reads a PDF into the model; usable natively (tests, benchmarks) as well as inside the
/// component. Options: `mode` (`image`), `unlock` (`1`, `decrypt`, `rebuild`), `password`,
/// `title`, `page` (only that page, as a one-page document).
pub fn import_pdf(request: ImportRequest) -> Result<Imported, ConvertError> {
    let mode = Mode::parse(request.option("mode"))?;
    let unlock = Unlock::parse(request.option("unlock"))?;
    let password = request
        .option("password")
        .filter(|p| !p.is_empty())
        .map(str::to_string);
    let title = request
        .option("title")
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_string);
    let only = only_page(request.option("page"))?;
    let bytes = request.bytes;
    if bytes.len() > MAX_INPUT {
        return Err(ConvertError::TooLarge(format!(
            "the PDF is {} bytes; at most {MAX_INPUT} bytes (128 MiB) are accepted",
            bytes.len()
        )));
    }
    if !is_pdf(&bytes) {
        return Err(ConvertError::Unsupported(if bytes.is_empty() {
            "the file is empty; a PDF was expected".into()
        } else {
            "this file is not a PDF: it has no %PDF- header".into()
        }));
    }

    let mut warnings = Vec::new();
    match ending(&bytes) {
        Ending::Complete => {}
        Ending::NoEofMarker => warnings.push(
            "the file does not end with %%EOF; it was read, but part of it may be missing".into(),
        ),
        Ending::CutShort => {
            return Err(ConvertError::Damaged(
                "this PDF is cut short: it ends without its trailer (no startxref or %%EOF), \
                 so part of the file is missing; the upload may be incomplete"
                    .into(),
            ))
        }
    }

    let opened = open::open(bytes, password.as_deref(), unlock)?;
    warnings.extend(opened.warnings.iter().cloned());
    let (pdf, redraw) = load(opened, password.is_some(), &mut warnings)?;
    let all = pdf.pages();
    if all.is_empty() {
        return Err(ConvertError::Damaged(
            "this PDF has no pages that can be read".into(),
        ));
    }
    let pages = match only {
        None => &all[..],
        Some(n) if n <= all.len() => &all[n - 1..n],
        Some(n) => {
            return Err(ConvertError::InvalidRequest(format!(
                "option page={n}: the PDF has {} pages",
                all.len()
            )))
        }
    };
    if pages.len() > MAX_PAGES {
        return Err(ConvertError::TooLarge(format!(
            "the PDF has {} pages; at most {MAX_PAGES} are imported at once",
            pages.len()
        )));
    }

    let mut form = guarded(|| Form::read(pdf.xref(), pages, only.is_none())).unwrap_or_else(|| {
        warnings.push("the PDF's form fields could not be read and were left out".into());
        Form::empty()
    });
    let mut reader = Reader {
        settings: InterpreterSettings::default(),
        cache: InterpreterCache::new(),
        render_cache: RenderCache::new(),
        store: AssetStore::new(MAX_ASSET_BYTES),
        notes: Notes::default(),
        shapes: 0,
        warnings: Vec::new(),
    };
    let pictures = mode == Mode::Image || redraw;
    let mut out = Vec::with_capacity(pages.len());
    for (i, page) in pages.iter().enumerate() {
        let n = i + 1;
        let model = if pictures {
            reader.picture_page(page, n, &mut form)?
        } else {
            reader.editable_page(page, n, &mut form)
        };
        out.push(model);
    }
    let (fields, form_warnings) = form.into_fields();
    warnings.append(&mut reader.warnings);
    warnings.extend(form_warnings);
    warnings.extend(note_warnings(&reader.notes));

    let mut document = Document::new(Kind::Paged);
    document.title = title.or_else(|| pdf.metadata().title.as_deref().and_then(text_string));
    document.pages = out;
    document.fields = fields;
    Ok(Imported {
        document,
        assets: reader.store.assets,
        warnings,
    })
}

/// The `page` option: a 1-based page number.
fn only_page(value: Option<&str>) -> Result<Option<usize>, ConvertError> {
    let Some(value) = value else {
        return Ok(None);
    };
    match value.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Ok(Some(n)),
        _ => Err(ConvertError::InvalidRequest(format!(
            "option page={value:?}: a page number from 1 was expected"
        ))),
    }
}

/// hayro's reading of the opened bytes; a copy it cannot read is redrawn from the original.
fn load(
    opened: open::Opened,
    had_password: bool,
    warnings: &mut Vec<String>,
) -> Result<(Pdf, bool), ConvertError> {
    let open::Opened {
        bytes,
        password,
        redraw,
        original,
        ..
    } = opened;
    match guarded(|| Pdf::new_with_password(bytes, &password)) {
        Some(Ok(pdf)) => Ok((pdf, redraw)),
        Some(Err(LoadPdfError::Decryption(e))) => Err(decryption_error(e, had_password)),
        failed => {
            if let Some(original) = original {
                if let Some(Ok(pdf)) = guarded(|| Pdf::new_with_password(original, &password)) {
                    warnings.push(
                        "the decrypted PDF could not be read, so each page was redrawn as a \
                         picture"
                            .into(),
                    );
                    return Ok((pdf, true));
                }
            }
            Err(ConvertError::Damaged(match failed {
                None => "this PDF is damaged: reading it failed".into(),
                _ => "this PDF is damaged: its cross-reference table and objects could not be \
                      read"
                    .into(),
            }))
        }
    }
}

fn decryption_error(
    e: hayro::hayro_interpret::hayro_syntax::DecryptionError,
    had_password: bool,
) -> ConvertError {
    use hayro::hayro_interpret::hayro_syntax::DecryptionError as D;
    match e {
        D::PasswordProtected if had_password => ConvertError::PasswordRequired(
            "the password is wrong: this PDF does not open with it".into(),
        ),
        D::PasswordProtected => ConvertError::PasswordRequired(
            "this PDF needs a password to open: send it in the `password` field or the \
             X-Doc-Password header, with unlock=1"
                .into(),
        ),
        D::UnsupportedAlgorithm => ConvertError::Unsupported(
            "this PDF is encrypted with a method that cannot be read".into(),
        ),
        D::MissingIDEntry | D::InvalidEncryption => {
            ConvertError::Damaged("this PDF's encryption dictionary is damaged".into())
        }
    }
}

/// A PDF text string (UTF-16BE or UTF-8 with a byte-order mark, else PDFDocEncoding) as
/// trimmed text; `None` when empty.
fn text_string(bytes: &[u8]) -> Option<String> {
    let s = form::pdf_text(bytes).trim().to_string();
    (!s.is_empty()).then_some(s)
}

/// A page's crop box (within its media box) as origin and size in points, and its rotation.
struct Geometry {
    x0: f64,
    y0: f64,
    width: f64,
    height: f64,
    rotate: u16,
}

impl Geometry {
    fn of(page: &PdfPage<'_>) -> Geometry {
        let crop = page.intersected_crop_box();
        let (w, h) = page.base_dimensions();
        // hayro stands in A4 for a page of no area; its origin is then meaningless.
        let real = (f64::from(w) - crop.width()).abs() < 1.0;
        Geometry {
            x0: if real { crop.x0 } else { 0.0 },
            y0: if real { crop.y0 } else { 0.0 },
            width: f64::from(w).min(MAX_PAGE_SIDE),
            height: f64::from(h).min(MAX_PAGE_SIDE),
            rotate: match page.rotation() {
                Rotation::None => 0,
                Rotation::Horizontal => 90,
                Rotation::Flipped => 180,
                Rotation::FlippedHorizontal => 270,
            },
        }
    }

    /// PDF user space to model space: y flipped, crop box origin at the top left.
    fn transform(&self) -> Affine {
        Affine::new([1.0, 0.0, 0.0, -1.0, -self.x0, self.y0 + self.height])
    }
}

/// State shared by the pages of one document.
struct Reader<'a> {
    settings: InterpreterSettings,
    cache: InterpreterCache<'a>,
    render_cache: RenderCache<'a>,
    store: AssetStore,
    notes: Notes,
    shapes: usize,
    warnings: Vec<String>,
}

impl<'a> Reader<'a> {
    fn picture_page(
        &mut self,
        page: &'a PdfPage<'a>,
        n: usize,
        form: &mut Form,
    ) -> Result<Page, ConvertError> {
        let g = Geometry::of(page);
        form.place(n - 1, g.transform(), g.width, g.height);
        let mut model = Page::new(g.width, g.height);
        model.rotate = g.rotate;
        let crop = (g.x0, g.y0, g.width, g.height);
        let pixels =
            guarded(|| render::page_pixels(page, &self.render_cache, &self.settings, crop))
                .flatten();
        let Some(pixels) = pixels else {
            self.warnings
                .push(format!("page {n} could not be drawn and was left blank"));
            return Ok(model);
        };
        let png = pixels
            .greyed()
            .to_png()
            .map_err(|e| ConvertError::Damaged(format!("page {n} could not be pictured: {e}")))?;
        let Some(asset) = self.store.add(None, png, false) else {
            return Err(ConvertError::TooLarge(format!(
                "the pages as pictures exceed {} MiB; import fewer pages at a time",
                MAX_ASSET_BYTES >> 20
            )));
        };
        model.shapes.push(Shape::Image(quire_sdk::Image {
            id: format!("p{n}-page"),
            frame: Rect::new(0.0, 0.0, g.width, g.height),
            asset,
            alt: Some(format!("page {n}")),
            link: None,
        }));
        self.shapes += 1;
        Ok(model)
    }

    fn editable_page(&mut self, page: &'a PdfPage<'a>, n: usize, form: &mut Form) -> Page {
        let g = Geometry::of(page);
        let mark = self.store.assets.len();
        let Some(mut collected) = self.collect(page, g.transform(), g.width, g.height) else {
            form.place(n - 1, g.transform(), g.width, g.height);
            self.warnings
                .push(format!("page {n} could not be read and was left blank"));
            let mut model = Page::new(g.width, g.height);
            model.rotate = g.rotate;
            return model;
        };
        let (mut width, mut height, mut rotate) = (g.width, g.height, g.rotate);
        let mut transform = g.transform();
        if g.rotate != 0 && collected.notes.rotated_glyphs > collected.glyphs.len() {
            // Most text is turned in page space: the page is meant to be read turned.
            // Applying the rotation to the content makes that text upright and editable.
            let upright = page.initial_transform(true).to_kurbo_affine();
            let (w, h) = if g.rotate % 180 == 90 {
                (g.height, g.width)
            } else {
                (g.width, g.height)
            };
            self.store.truncate(mark);
            if let Some(turned) = self.collect(page, upright, w, h) {
                if turned.notes.rotated_glyphs < turned.glyphs.len() {
                    collected = turned;
                    (width, height, rotate) = (w, h, 0);
                    transform = upright;
                    self.warnings.push(format!(
                        "page {n} was turned upright (its rotation applied) so its text could \
                         be edited"
                    ));
                } else {
                    self.store.truncate(mark);
                    collected = self
                        .collect(page, g.transform(), g.width, g.height)
                        .unwrap_or(collected);
                }
            }
        }
        form.place(n - 1, transform, width, height);
        self.notes.add(&collected.notes);
        let mut model = Page::new(width, height);
        model.rotate = rotate;
        let boxes = text::text_boxes(collected.glyphs, &format!("p{n}-t"));
        let frames: Vec<Rect> = boxes.iter().map(|b| b.frame).collect();
        let mut slots: Vec<Option<quire_sdk::TextBox>> = boxes.into_iter().map(Some).collect();
        let boxes: Vec<quire_sdk::TextBox> = order::reading_order(&frames)
            .into_iter()
            .filter_map(|i| slots[i].take())
            .collect();
        let room = MAX_SHAPES.saturating_sub(self.shapes);
        let total = collected.items.len() + boxes.len();
        if total > room {
            self.warnings.push(format!(
                "page {n} was cut short: the document reached {MAX_SHAPES} shapes"
            ));
        }
        for (k, mut shape) in collected.items.into_iter().enumerate().take(room) {
            set_id(&mut shape, format!("p{n}-s{}", k + 1));
            model.shapes.push(shape);
        }
        let room = room.saturating_sub(model.shapes.len());
        model
            .shapes
            .extend(boxes.into_iter().take(room).map(Shape::Text));
        self.shapes += model.shapes.len();
        model
    }

    /// What the page draws, under `transform`, onto a page `width` x `height`.
    fn collect(
        &mut self,
        page: &'a PdfPage<'a>,
        transform: Affine,
        width: f64,
        height: f64,
    ) -> Option<Collected> {
        let fonts = fonts::FontIndex::for_resources(page.resources());
        let settings = self.settings.clone();
        let cache = &self.cache;
        let store = &mut self.store;
        guarded(move || {
            let mut context = Context::new(
                transform,
                KRect::new(0.0, 0.0, width, height),
                cache,
                page.xref(),
                settings,
            );
            let mut collector = Collector::new(fonts, store, PAGE_BUDGET);
            interpret_page(page, &mut context, &mut collector);
            Collected {
                glyphs: collector.glyphs,
                items: collector.items,
                notes: collector.notes,
            }
        })
    }
}

struct Collected {
    glyphs: Vec<device::PlacedGlyph>,
    items: Vec<Shape>,
    notes: Notes,
}

trait ToKurbo {
    fn to_kurbo_affine(&self) -> Affine;
}

impl ToKurbo for hayro::hayro_interpret::hayro_syntax::transform::Transform {
    fn to_kurbo_affine(&self) -> Affine {
        Affine::new(self.as_coeffs())
    }
}

fn set_id(shape: &mut Shape, id: String) {
    match shape {
        Shape::Text(s) => s.id = id,
        Shape::Image(s) => s.id = id,
        Shape::Node(s) => s.id = id,
        Shape::Path(s) => s.id = id,
        Shape::Connector(s) => s.id = id,
        Shape::Group(s) => s.id = id,
    }
}

fn note_warnings(n: &Notes) -> Vec<String> {
    let mut out = Vec::new();
    if n.no_unicode > 0 {
        out.push(format!(
            "{} glyphs have no known character and were left out of the text",
            n.no_unicode
        ));
    }
    if n.rotated_glyphs > 0 {
        out.push(format!(
            "{} glyphs of turned text were kept as outlines, not as editable text",
            n.rotated_glyphs
        ));
    }
    if n.patterns > 0 {
        out.push("gradient and pattern fills were drawn in flat grey".into());
    }
    if n.skewed_images > 0 {
        out.push(format!(
            "{} turned or skewed pictures were set upright in their bounding box",
            n.skewed_images
        ));
    }
    if n.unreadable_images > 0 {
        out.push(format!(
            "{} pictures could not be decoded and were left out",
            n.unreadable_images
        ));
    }
    if n.images_over_budget > 0 {
        out.push(format!(
            "{} pictures were left out: the pictures exceed {} MiB",
            n.images_over_budget,
            MAX_ASSET_BYTES >> 20
        ));
    }
    if n.dropped_glyphs + n.dropped_items > 0 {
        out.push(format!(
            "content past the importer's per-page limits was left out ({} glyphs, {} drawings)",
            n.dropped_glyphs, n.dropped_items
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_strings_decode() {
        assert_eq!(text_string(b"Report").as_deref(), Some("Report"));
        assert_eq!(
            text_string(&[0xFE, 0xFF, 0x00, 0x48, 0x00, 0xE9]).as_deref(),
            Some("Hé")
        );
        assert_eq!(text_string(b"  "), None);
    }

    #[test]
    fn files_cut_short_are_told_apart() {
        assert_eq!(
            ending(b"%PDF-1.4 ... startxref\n123\n%%EOF\n"),
            Ending::Complete
        );
        assert_eq!(
            ending(b"%PDF-1.4 ... startxref\n123\n"),
            Ending::NoEofMarker
        );
        assert_eq!(ending(b"%PDF-1.4\n1 0 obj << /Type /Cat"), Ending::CutShort);
    }

    #[test]
    fn options_are_checked() {
        assert_eq!(Mode::parse(Some("IMAGE")).unwrap(), Mode::Image);
        assert!(matches!(
            Mode::parse(Some("vector")),
            Err(ConvertError::InvalidRequest(_))
        ));
    }
}
