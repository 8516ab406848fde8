//! The PDF exporter: a document model (plus its picture assets) drawn as a PDF.
//!
//! Output is deterministic: no dates, no random file id, objects numbered in drawing order,
//! so the same model always gives the same bytes (caching and tests depend on it).

mod canvas;
mod fields;
mod glyph_runs;
mod library_fonts;
mod outline;
mod picture;
mod png;
mod refs;
mod resources;
mod shapes;
mod show;
mod standard_fonts;
mod text;

use pdf_writer::types::{ActionType, AnnotationType};
use pdf_writer::{Filter, Finish, Pdf, Ref, Str, TextStr};
use quire_sdk::{ConvertError, Document, ExportRequest, Exported, Page, Rect};

use canvas::{Canvas, Link};
use fields::Form;
use refs::Refs;
use resources::{PageUse, Resources};

pub const MEDIA_TYPE: &str = "application/pdf";

/// Smallest and largest page side PDF viewers accept (1 point to 200 inches).
const MIN_SIDE: f64 = 1.0;
const MAX_SIDE: f64 = 14_400.0;
/// US Letter, for a page whose size is not a number at all.
const FALLBACK_SIZE: (f64, f64) = (612.0, 792.0);

/// A page as drawn, waiting for its page object.
struct DrawnPage {
    /// 1-based number in the document (not in the export, which may be one page).
    number: u32,
    page: Ref,
    content: Ref,
    width: f64,
    height: f64,
    rotate: i32,
    used: PageUse,
    links: Vec<Link>,
}

/// Draws the whole document, or the 1-based page `request.page`, as PDF bytes. Warnings name
/// what could not be drawn exactly (characters outside the standard fonts, unreadable
/// pictures); the host passes them on as `X-Service-Warning`.
pub fn export_pdf(request: &ExportRequest) -> Result<Exported, ConvertError> {
    if !request.media_type.is_empty() && request.media_type != MEDIA_TYPE {
        return Err(ConvertError::Unsupported(format!(
            "this converter writes {MEDIA_TYPE}, not {}",
            request.media_type
        )));
    }
    let doc = &request.document;
    let selected = select_pages(doc, request.page)?;

    let mut refs = Refs::new();
    let catalog_id = refs.alloc();
    let tree_id = refs.alloc();
    let info_id = refs.alloc();
    let page_ids: Vec<(Ref, Ref)> = selected
        .iter()
        .map(|_| (refs.alloc(), refs.alloc()))
        .collect();

    let mut pdf = Pdf::new();
    let mut res = Resources::new(refs, &request.assets);
    let mut drawn = Vec::with_capacity(selected.len());
    for (&index, &(page_id, content_id)) in selected.iter().zip(&page_ids) {
        let page = &doc.pages[index];
        let (width, height) = page_size(page);
        let mut canvas = Canvas::new(&mut res, height);
        if let Some(bg) = page.background {
            canvas.fill_rect(Rect::new(0.0, 0.0, width, height), bg);
        }
        let anchors = quire_sdk::drawing::anchors(page);
        shapes::draw_shadows(&mut canvas, &page.shapes);
        for shape in &page.shapes {
            shapes::draw_shape(&mut canvas, shape, &anchors);
        }
        shapes::draw_link_labels(&mut canvas);
        let (content, used, links) = canvas.finish();
        pdf.stream(content_id, &content).filter(Filter::FlateDecode);
        drawn.push(DrawnPage {
            number: index as u32 + 1,
            page: page_id,
            content: content_id,
            width,
            height,
            rotate: (page.rotate % 360 / 90 * 90) as i32,
            used,
            links,
        });
    }

    let mut form = Form::new(doc);
    for p in &drawn {
        let mut annots = write_links(&mut pdf, &mut res.refs, &p.links, &drawn);
        annots.extend(form.widgets(p.number, p.page, (p.width, p.height), &mut res));
        let mut page = pdf.page(p.page);
        page.parent(tree_id)
            .media_box(pdf_writer::Rect::new(
                0.0,
                0.0,
                p.width as f32,
                p.height as f32,
            ))
            .contents(p.content);
        if p.rotate != 0 {
            page.rotate(p.rotate);
        }
        if !annots.is_empty() {
            page.annotations(annots);
        }
        res.write_page_resources(page.resources(), &p.used);
    }

    pdf.pages(tree_id)
        .kids(drawn.iter().map(|p| p.page))
        .count(drawn.len() as i32);
    let outline = outline::write(&mut pdf, &mut res.refs, doc, &drawn);
    {
        let mut catalog = pdf.catalog(catalog_id);
        catalog.pages(tree_id);
        if let Some(outline) = outline {
            catalog.outlines(outline);
        }
        form.write_catalog_entry(&mut catalog);
    }
    {
        let mut info = pdf.document_info(info_id);
        if let Some(title) = doc.title.as_deref().filter(|t| !t.is_empty()) {
            info.title(TextStr(title));
        }
        info.producer(TextStr("Quire"));
    }

    let form_objects = form.finish();
    pdf.extend(&form_objects);
    let (objects, _refs, warnings) = res.finish();
    pdf.extend(&objects);
    Ok(Exported {
        bytes: pdf.finish(),
        media_type: MEDIA_TYPE.to_string(),
        warnings,
        headers: Vec::new(),
    })
}

/// Indices of the pages to draw: all of them, or the one asked for.
fn select_pages(doc: &Document, page: Option<u32>) -> Result<Vec<usize>, ConvertError> {
    let total = doc.pages.len();
    if total == 0 {
        return Err(ConvertError::InvalidRequest(
            "the document has no pages to draw".into(),
        ));
    }
    match page {
        None => Ok((0..total).collect()),
        Some(n) if n >= 1 && n as usize <= total => Ok(vec![n as usize - 1]),
        Some(n) => Err(ConvertError::InvalidRequest(format!(
            "page {n} does not exist; the document has {total} page{}, numbered from 1",
            if total == 1 { "" } else { "s" }
        ))),
    }
}

fn page_size(page: &Page) -> (f64, f64) {
    let side = |v: f64, fallback: f64| {
        if v.is_finite() {
            v.clamp(MIN_SIDE, MAX_SIDE)
        } else {
            fallback
        }
    };
    (
        side(page.width, FALLBACK_SIZE.0),
        side(page.height, FALLBACK_SIZE.1),
    )
}

/// URL schemes a link may not use: they run code or reach the reader's own machine.
const REFUSED_SCHEMES: [&str; 4] = ["javascript:", "vbscript:", "data:", "file:"];

/// Writes the `/Link` annotations of one page and returns their ids. `#page=N` goes to page
/// N when the export contains it; other `#` targets and refused schemes are dropped (the
/// text is still drawn, just not clickable).
fn write_links(pdf: &mut Pdf, refs: &mut Refs, links: &[Link], pages: &[DrawnPage]) -> Vec<Ref> {
    let mut ids = Vec::new();
    for link in links {
        let target = link.target.trim();
        let internal = target.strip_prefix('#');
        let dest = internal
            .and_then(|t| t.strip_prefix("page="))
            .and_then(|n| n.trim().parse::<u32>().ok())
            .and_then(|n| pages.iter().find(|p| p.number == n))
            .map(|p| p.page);
        // Browsers ignore tabs and line breaks inside a URL (`java\tscript:` is
        // `javascript:`), so the scheme is judged without them.
        let compact: String = target
            .chars()
            .filter(|c| !c.is_whitespace() && !c.is_control())
            .collect::<String>()
            .to_ascii_lowercase();
        if internal.is_some() && dest.is_none()
            || REFUSED_SCHEMES.iter().any(|s| compact.starts_with(s))
        {
            continue;
        }
        let [x1, y1, x2, y2] = link.rect;
        let id = refs.alloc();
        let mut annot = pdf.annotation(id);
        annot
            .subtype(AnnotationType::Link)
            .rect(pdf_writer::Rect::new(x1, y1, x2, y2));
        // No visible border: the text already looks like what it is.
        annot.border(0.0, 0.0, 0.0, None);
        let mut action = annot.action();
        match dest {
            Some(page) => {
                action
                    .action_type(ActionType::GoTo)
                    .destination()
                    .page(page)
                    .fit();
            }
            None => {
                action
                    .action_type(ActionType::Uri)
                    .uri(Str(target.as_bytes()));
            }
        }
        action.finish();
        annot.finish();
        ids.push(id);
    }
    ids
}
