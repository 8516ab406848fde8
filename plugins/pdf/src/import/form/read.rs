//! Walking a PDF's interactive form: the catalog's `/AcroForm /Fields` tree, then every
//! page's `/Annots` for the widgets actually shown, including widgets no `/AcroForm` lists
//! (orphans, whose field is found through their `/Parent` chain).
//!
//! Everything read is copied out into owned values at once, so the model side never holds
//! the parser's borrowed objects. Every walk is bounded: tree depth, nodes visited, widgets
//! kept, and a visited set against reference cycles.

use std::collections::{HashMap, HashSet};

use hayro::hayro_interpret::hayro_syntax::object::{
    Array, Dict, MaybeRef, Name, ObjRef, Object, Rect as PdfRect, String as PdfString,
};
use hayro::hayro_interpret::hayro_syntax::page::Page as PdfPage;
use hayro::hayro_interpret::hayro_syntax::xref::XRef;

use quire_sdk::{Color, FieldLook};

use super::{choice_options, FieldInfo, RawValue, Widget};

/// Field dictionaries nest a few levels in real forms; deeper is damage or a trap.
const MAX_DEPTH: usize = 32;
/// Field tree nodes visited, whatever they turn out to be.
const MAX_NODES: usize = 50_000;
/// Widgets turned into boxes in one document.
pub const MAX_WIDGETS: usize = 5_000;
/// Text read out of field dictionaries (names, labels, values, options). Inherited entries
/// are read again for every field below them, so a large `/Opt` high in a tree could
/// otherwise cost far more memory than the file's size.
const MAX_TEXT_BYTES: usize = 32 << 20;
/// Annotations looked at in one document.
const MAX_ANNOTATIONS: usize = 200_000;
/// Choice options kept per field (the host accepts no more).
pub const MAX_OPTIONS: usize = 500;

/// Annotation flags (PDF 32000 table 165).
const HIDDEN: u32 = 1 << 1;
const NO_VIEW: u32 = 1 << 5;

/// What was read: fields, their widgets in page order, and what went wrong.
#[derive(Default)]
pub struct Reading {
    pub fields: Vec<FieldInfo>,
    pub widgets: Vec<Widget>,
    pub warnings: Vec<String>,
}

/// The entries a field inherits from its ancestors (PDF 32000 12.7.4.1; `/Opt` is not
/// formally inheritable, but writers do put it on the parent of a group).
#[derive(Clone, Default)]
struct Inherited<'a> {
    ft: Option<Vec<u8>>,
    ff: Option<u32>,
    v: Option<Object<'a>>,
    opt: Option<Array<'a>>,
}

impl<'a> Inherited<'a> {
    /// These entries seen from `d`: its own where it has them, else the inherited ones.
    fn over(&self, d: &Dict<'a>) -> Inherited<'a> {
        Inherited {
            ft: d
                .get::<Name>(b"FT")
                .map(|n| n.to_vec())
                .or_else(|| self.ft.clone()),
            ff: flags(d, b"Ff").or(self.ff),
            v: d.get::<Object>(b"V").or_else(|| self.v.clone()),
            opt: d.get::<Array>(b"Opt").or_else(|| self.opt.clone()),
        }
    }

    /// Fills what is still missing from an ancestor `d` (climbing a `/Parent` chain).
    fn under(&mut self, d: &Dict<'a>) {
        if self.ft.is_none() {
            self.ft = d.get::<Name>(b"FT").map(|n| n.to_vec());
        }
        if self.ff.is_none() {
            self.ff = flags(d, b"Ff");
        }
        if self.v.is_none() {
            self.v = d.get::<Object>(b"V");
        }
        if self.opt.is_none() {
            self.opt = d.get::<Array>(b"Opt");
        }
    }
}

/// A flags entry; writers store bit 32 set as a negative number.
fn flags(d: &Dict<'_>, key: &[u8]) -> Option<u32> {
    d.get::<i64>(key).map(|v| v as u32)
}

/// A PDF text string as text: UTF-16BE or UTF-8 with a byte-order mark, else
/// PDFDocEncoding. Not trimmed.
pub fn pdf_text(bytes: &[u8]) -> String {
    if let Some(rest) = bytes.strip_prefix(&[0xFE, 0xFF]) {
        let units: Vec<u16> = rest
            .chunks_exact(2)
            .map(|c| u16::from_be_bytes([c[0], c[1]]))
            .collect();
        String::from_utf16_lossy(&units)
    } else if let Some(rest) = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]) {
        String::from_utf8_lossy(rest).into_owned()
    } else {
        bytes.iter().map(|&b| pdf_doc_char(b)).collect()
    }
}

/// PDFDocEncoding (PDF 32000 annex D.2): Latin-1 except for a few ranges.
fn pdf_doc_char(b: u8) -> char {
    const LOW: [char; 8] = ['˘', 'ˇ', 'ˆ', '˙', '˝', '˛', '˚', '˜'];
    const HIGH: [char; 33] = [
        '•', '†', '‡', '…', '—', '–', 'ƒ', '⁄', '‹', '›', '−', '‰', '„', '“', '”', '‘', '’', '‚',
        '™', 'ﬁ', 'ﬂ', 'Ł', 'Œ', 'Š', 'Ÿ', 'Ž', 'ı', 'ł', 'œ', 'š', 'ž', '\u{FFFD}', '€',
    ];
    match b {
        0x18..=0x1F => LOW[usize::from(b - 0x18)],
        0x80..=0xA0 => HIGH[usize::from(b - 0x80)],
        _ => char::from(b),
    }
}

/// A name as text: names are bytes, UTF-8 by convention.
fn name_text(n: &[u8]) -> String {
    String::from_utf8_lossy(n).into_owned()
}

fn text_entry(d: &Dict<'_>, key: &[u8]) -> Option<String> {
    d.get::<PdfString>(key).map(|s| pdf_text(s.as_bytes()))
}

/// An array item with its reference, if it was one.
fn resolve<'a>(xref: &'a XRef, item: MaybeRef<Object<'a>>) -> Option<(Dict<'a>, Option<ObjRef>)> {
    match item {
        MaybeRef::Ref(r) => xref.get::<Dict>(r.into()).map(|d| (d, Some(r))),
        MaybeRef::NotRef(Object::Dict(d)) => Some((d, None)),
        MaybeRef::NotRef(_) => None,
    }
}

fn raw_value(v: Option<Object<'_>>) -> RawValue {
    let one = |o: Object<'_>| match o {
        Object::Name(n) => Some(name_text(&n)),
        Object::String(s) => Some(pdf_text(s.as_bytes())),
        _ => None,
    };
    match v {
        Some(Object::Name(n)) => RawValue::Name(name_text(&n)),
        Some(Object::String(s)) => RawValue::Text(pdf_text(s.as_bytes())),
        Some(Object::Array(a)) => RawValue::List(
            a.iter::<Object>()
                .take(MAX_OPTIONS)
                .filter_map(one)
                .collect(),
        ),
        _ => RawValue::None,
    }
}

/// `/Opt` as (export value, display text) pairs; an entry may be one string for both.
fn options(opt: Option<Array<'_>>) -> (Vec<(String, String)>, bool) {
    let Some(opt) = opt else {
        return (Vec::new(), false);
    };
    let text = |o: Object<'_>| match o {
        Object::String(s) => Some(pdf_text(s.as_bytes())),
        Object::Name(n) => Some(name_text(&n)),
        _ => None,
    };
    let entries = opt.iter::<Object>().filter_map(move |o| match o {
        Object::Array(pair) => {
            let mut it = pair.iter::<Object>();
            let export = it.next().and_then(text)?;
            let display = it.next().and_then(text).unwrap_or_else(|| export.clone());
            Some((export, display))
        }
        other => text(other).map(|t| (t.clone(), t)),
    });
    choice_options(entries)
}

fn join(parent: Option<&str>, partial: Option<&str>) -> Option<String> {
    match (parent, partial) {
        (Some(p), Some(t)) => Some(format!("{p}.{t}")),
        (Some(p), None) => Some(p.to_string()),
        (None, t) => t.map(str::to_string),
    }
}

fn field_info(
    name: Option<String>,
    partial: Option<String>,
    tu: Option<String>,
    inh: Inherited<'_>,
) -> FieldInfo {
    let (options, options_cut) = options(inh.opt);
    FieldInfo {
        name: name.unwrap_or_default(),
        partial: partial.unwrap_or_default(),
        tooltip: tu,
        ft: inh.ft.unwrap_or_default(),
        ff: inh.ff.unwrap_or(0),
        value: raw_value(inh.v),
        options,
        options_cut,
    }
}

/// Bytes of text a field holds, for [`MAX_TEXT_BYTES`].
fn text_bytes(f: &FieldInfo) -> usize {
    let value = match &f.value {
        RawValue::None => 0,
        RawValue::Name(s) | RawValue::Text(s) => s.len(),
        RawValue::List(items) => items.iter().map(String::len).sum(),
    };
    let options: usize = f.options.iter().map(|(e, d)| e.len() + d.len()).sum();
    f.name.len() + f.partial.len() + f.tooltip.as_ref().map_or(0, String::len) + value + options
}

/// Where a widget belongs: its field and its place among the field's widgets.
#[derive(Clone, Copy)]
struct Slot {
    field: usize,
    order: usize,
}

struct Walk<'a> {
    xref: &'a XRef,
    visited: HashSet<ObjRef>,
    nodes: usize,
    fields: Vec<FieldInfo>,
    /// Each field's widget references in `/Kids` order.
    kids: Vec<Vec<ObjRef>>,
    by_widget: HashMap<ObjRef, Slot>,
    /// Terminal field dictionaries already made into fields (tree or orphan).
    by_field: HashMap<ObjRef, usize>,
    text: usize,
    cut: bool,
}

impl<'a> Walk<'a> {
    fn budget(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            self.cut = true;
        }
        !self.cut
    }

    fn add_field(&mut self, info: FieldInfo, own: Option<ObjRef>, widgets: Vec<ObjRef>) -> usize {
        self.text += text_bytes(&info);
        if self.text > MAX_TEXT_BYTES {
            self.cut = true;
        }
        let index = self.fields.len();
        self.fields.push(info);
        for (order, w) in widgets.iter().enumerate() {
            self.by_widget.entry(*w).or_insert(Slot {
                field: index,
                order,
            });
        }
        self.kids.push(widgets);
        if let Some(own) = own {
            self.by_field.insert(own, index);
        }
        index
    }

    /// One node of the `/Fields` tree and everything under it.
    fn node(
        &mut self,
        d: Dict<'a>,
        id: Option<ObjRef>,
        parent: Option<&str>,
        inh: &Inherited<'a>,
        depth: usize,
    ) {
        if depth > MAX_DEPTH || !self.budget() {
            return;
        }
        if let Some(id) = id {
            if !self.visited.insert(id) {
                return;
            }
        }
        let partial = text_entry(&d, b"T");
        let name = join(parent, partial.as_deref());
        let here = inh.over(&d);
        let tu = text_entry(&d, b"TU");
        let kids = d.get::<Array>(b"Kids");
        let Some(kids) = kids.filter(|k| k.raw_iter().next().is_some()) else {
            // No kids: the field and its one widget are the same dictionary.
            let widgets = id.into_iter().collect();
            self.add_field(field_info(name, partial, tu, here), id, widgets);
            return;
        };
        let mut widgets = Vec::new();
        let mut fields = Vec::new();
        for item in kids.raw_iter() {
            if !self.budget() {
                break;
            }
            let Some((kid, kid_id)) = resolve(self.xref, item) else {
                continue;
            };
            // A kid without a name is a widget, unless it has kids of its own (an unnamed
            // level some writers insert).
            if kid.contains_key(b"T") || kid.contains_key(b"Kids") {
                fields.push((kid, kid_id));
            } else if let Some(kid_id) = kid_id {
                if self.visited.insert(kid_id) {
                    widgets.push(kid_id);
                }
            }
        }
        if !widgets.is_empty() {
            self.add_field(
                field_info(name.clone(), partial, tu, here.clone()),
                id,
                widgets,
            );
        }
        for (kid, kid_id) in fields {
            self.node(kid, kid_id, name.as_deref(), &here, depth + 1);
        }
    }

    /// The field of a widget that the tree did not list: the widget itself when it has a
    /// name, else its `/Parent`, with names and inherited entries from further up.
    fn orphan(&mut self, widget: &Dict<'a>, id: ObjRef) -> Option<Slot> {
        let parent = widget
            .get::<Dict>(b"Parent")
            .zip(widget.get_ref(b"Parent"))
            .filter(|_| !widget.contains_key(b"T"));
        let (terminal, terminal_id) = match parent {
            Some((d, r)) => (d, r),
            None => (widget.clone(), id),
        };
        let field = match self.by_field.get(&terminal_id).copied() {
            Some(field) => field,
            None if !self.budget() => return None,
            None => {
                let mut inh = Inherited::default();
                inh.under(&terminal);
                let partial = text_entry(&terminal, b"T");
                let tu = text_entry(&terminal, b"TU");
                let mut names: Vec<String> = partial.iter().cloned().collect();
                let mut seen: HashSet<ObjRef> = HashSet::from([terminal_id]);
                let mut up = terminal
                    .get::<Dict>(b"Parent")
                    .zip(terminal.get_ref(b"Parent"));
                let mut depth = 0;
                while let Some((d, r)) = up {
                    depth += 1;
                    if depth > MAX_DEPTH || !seen.insert(r) {
                        break;
                    }
                    inh.under(&d);
                    names.extend(text_entry(&d, b"T"));
                    up = d.get::<Dict>(b"Parent").zip(d.get_ref(b"Parent"));
                }
                names.reverse();
                let name = (!names.is_empty()).then(|| names.join("."));
                let kids: Vec<ObjRef> = match terminal_id {
                    t if t != id => terminal
                        .get::<Array>(b"Kids")
                        .map(|k| {
                            k.raw_iter()
                                .take(MAX_WIDGETS)
                                .filter_map(|i| i.as_obj_ref())
                                .collect()
                        })
                        .unwrap_or_default(),
                    _ => vec![id],
                };
                self.add_field(field_info(name, partial, tu, inh), Some(terminal_id), kids)
            }
        };
        let order = self.kids[field]
            .iter()
            .position(|k| *k == id)
            .unwrap_or(usize::MAX / 2);
        Some(Slot { field, order })
    }
}

/// The on state of a button widget: its normal appearance's state other than `/Off`,
/// else its current `/AS` when that is on.
fn on_state(widget: &Dict<'_>) -> Option<String> {
    let from_ap = widget
        .get::<Dict>(b"AP")
        .and_then(|ap| ap.get::<Dict>(b"N"))
        .and_then(|n| {
            let mut keys: Vec<Vec<u8>> = n
                .keys()
                .map(|k| k.to_vec())
                .filter(|k| k != b"Off")
                .collect();
            keys.sort();
            keys.into_iter().next()
        });
    from_ap
        .or_else(|| {
            widget
                .get::<Name>(b"AS")
                .map(|n| n.to_vec())
                .filter(|n| n != b"Off")
        })
        .map(|n| name_text(&n))
}

/// Reads the form of the document `xref` belongs to, on its `pages` (`every_page`: all of
/// them; otherwise the boxes on other pages are simply not asked for).
pub fn read(xref: &XRef, pages: &[PdfPage<'_>], every_page: bool) -> Reading {
    let mut walk = Walk {
        xref,
        visited: HashSet::new(),
        nodes: 0,
        fields: Vec::new(),
        kids: Vec::new(),
        by_widget: HashMap::new(),
        by_field: HashMap::new(),
        text: 0,
        cut: false,
    };
    let root = xref.get::<Dict>(xref.root_id());
    if let Some(fields) = root
        .as_ref()
        .and_then(|r| r.get::<Dict>(b"AcroForm"))
        .and_then(|a| a.get::<Array>(b"Fields"))
    {
        for item in fields.raw_iter() {
            if walk.cut {
                break;
            }
            if let Some((d, id)) = resolve(xref, item) {
                walk.node(d, id, None, &Inherited::default(), 0);
            }
        }
    }

    let mut out = Reading::default();
    let mut placed: HashSet<ObjRef> = HashSet::new();
    let tree_fields = walk.fields.len();
    let mut seq = 0;
    let mut annotations = 0;
    let mut left_out = 0;
    for (page, p) in pages.iter().enumerate() {
        let annots = p.raw().get::<Array>(b"Annots");
        for item in annots.iter().flat_map(|a| a.raw_iter()) {
            annotations += 1;
            if annotations > MAX_ANNOTATIONS {
                break;
            }
            // Only widgets listed by reference can be told apart (and recognised in the
            // field tree); a widget written inline in `/Annots` is no field of any form.
            let Some((annot, Some(id))) = resolve(xref, item) else {
                continue;
            };
            let is_widget = annot
                .get::<Name>(b"Subtype")
                .is_some_and(|s| &*s == b"Widget");
            if !is_widget || !placed.insert(id) {
                continue;
            }
            if out.widgets.len() >= MAX_WIDGETS {
                left_out += 1;
                continue;
            }
            let slot = walk
                .by_widget
                .get(&id)
                .copied()
                .or_else(|| walk.orphan(&annot, id));
            if let Some(slot) = slot {
                seq += 1;
                place(&mut out.widgets, &walk.fields, &annot, slot, page, seq);
            }
        }
    }
    if left_out > 0 {
        out.warnings.push(format!(
            "the form has more than {MAX_WIDGETS} field boxes; {left_out} were left out"
        ));
    }

    // Widgets of the tree that no page lists are shown by no viewer either (a `/P` entry
    // alone does not put a widget on its page), so they are only counted.
    let unplaced: usize = walk.kids[..tree_fields]
        .iter()
        .zip(&walk.fields)
        .filter(|(_, f)| f.kind().is_some())
        .map(|(kids, _)| kids.iter().filter(|id| !placed.contains(id)).count())
        .sum();
    if unplaced > 0 && left_out == 0 && every_page {
        out.warnings.push(format!(
            "{unplaced} form field boxes are on no page and were left out"
        ));
    }
    if walk.cut {
        out.warnings.push(
            "the form is larger than the importer reads (field entries or their text); the \
             rest was left out"
                .into(),
        );
    }
    out.fields = walk.fields;
    out
}

/// Adds the widget as a box of `slot`'s field when it is shown and its field is a question.
fn place(
    out: &mut Vec<Widget>,
    fields: &[FieldInfo],
    widget: &Dict<'_>,
    slot: Slot,
    page: usize,
    seq: usize,
) -> bool {
    let Some(info) = fields.get(slot.field) else {
        return false;
    };
    if info.kind().is_none() {
        return false;
    }
    let flags = flags(widget, b"F").unwrap_or(0);
    if flags & (HIDDEN | NO_VIEW) != 0 {
        return false;
    }
    let Some(rect) = widget.get::<PdfRect>(b"Rect") else {
        return false;
    };
    // hayro reads numbers as f32; thousandths of a point give back what the file wrote.
    let rect = [rect.x0, rect.y0, rect.x1, rect.y1].map(|v| (v * 1000.0).round() / 1000.0);
    if rect.iter().any(|v| !v.is_finite()) {
        return false;
    }
    out.push(Widget {
        field: slot.field,
        order: slot.order,
        page,
        seq,
        rect,
        on: on_state(widget),
        look: look(widget),
    });
    true
}

/// A widget's own border and background: `/MK /BC` and `/BG` (none when absent, as
/// viewers draw them), the width from `/BS /W`, else the old `/Border` array, else 1.
fn look(widget: &Dict<'_>) -> FieldLook {
    let mk = widget.get::<Dict>(b"MK");
    let colour = |key: &[u8]| {
        mk.as_ref()
            .and_then(|mk| mk.get::<Array>(key))
            .and_then(|a| colour(&a))
    };
    let border = colour(b"BC");
    let width = widget
        .get::<Dict>(b"BS")
        .and_then(|bs| bs.get::<f32>(b"W"))
        .or_else(|| {
            widget
                .get::<Array>(b"Border")
                .and_then(|a| a.iter::<f32>().nth(2))
        })
        .map_or(1.0, f64::from);
    FieldLook {
        border,
        background: colour(b"BG"),
        border_width: if width.is_finite() {
            width.clamp(0.0, 12.0)
        } else {
            1.0
        },
    }
}

/// A colour array of `/MK`: none (transparent), grey, RGB or CMYK components from 0 to 1.
fn colour(a: &Array<'_>) -> Option<Color> {
    let c: Vec<f64> = a
        .iter::<f32>()
        .take(5)
        .map(|v| {
            if v.is_finite() {
                f64::from(v).clamp(0.0, 1.0)
            } else {
                0.0
            }
        })
        .collect();
    let byte = |v: f64| (v * 255.0).round() as u8;
    match c.as_slice() {
        [g] => Some(Color::rgb(byte(*g), byte(*g), byte(*g))),
        [r, g, b] => Some(Color::rgb(byte(*r), byte(*g), byte(*b))),
        [c, m, y, k] => Some(Color::rgb(
            byte((1.0 - c) * (1.0 - k)),
            byte((1.0 - m) * (1.0 - k)),
            byte((1.0 - y) * (1.0 - k)),
        )),
        _ => None,
    }
}
