//! A PDF's interactive form read into the model's `fields`: one box per widget, the boxes
//! of one PDF field sharing its fully qualified name as their key (the model's "one key in
//! several boxes is one question").
//!
//! [`read`] walks the PDF (the `/AcroForm` tree and orphan widgets); this module turns what
//! it found into [`Field`]s once the importer has placed each page, because a widget's box
//! depends on the transform the page was read with (crop box, rotation, a page turned
//! upright).
//!
//! Types: `/Tx` is text (multiline with flag bit 13; password and file-select fields are
//! plain text), `/Btn` a check box or (bit 16) a radio group whose options are its widgets'
//! on-state names in widget order, push buttons (bit 17) are no question, `/Ch` a select
//! (combo, bit 18) or list with the display texts of `/Opt` (a choice without options is
//! text), `/Sig` a signature. The model needs one type and one option list per key, so a
//! second field that reuses a name with another type or options gets `_2`, `_3`, ...

mod read;

use std::collections::HashMap;

use hayro::hayro_interpret::hayro_syntax::page::Page as PdfPage;
use hayro::hayro_interpret::hayro_syntax::xref::XRef;
use hayro_interpret::kurbo::{Affine, Rect as KRect};
use quire_sdk::{Field, FieldType, Rect};
use serde_json::Value;

pub use read::pdf_text;
use read::MAX_OPTIONS;

/// Field flags (PDF 32000 tables 221, 226, 228, 230).
const REQUIRED: u32 = 1 << 1;
const MULTILINE: u32 = 1 << 12;
const RADIO: u32 = 1 << 15;
const PUSH_BUTTON: u32 = 1 << 16;
const COMBO: u32 = 1 << 17;
/// Boxes thinner than this after cutting to the page cannot be clicked; the exporter
/// leaves them out as well.
const MIN_SIDE: f64 = 1.0;
/// Text the fields of one model may hold (each box repeats its question's options).
const MAX_MODEL_TEXT: usize = 32 << 20;
/// The host's limits on keys and labels.
const MAX_KEY: usize = 190;
const MAX_LABEL: usize = 2000;

/// A field's value as the PDF stores it.
#[derive(Debug, Clone, PartialEq)]
pub enum RawValue {
    None,
    Name(String),
    Text(String),
    List(Vec<String>),
}

/// One PDF field (a terminal node of the field tree), with what it inherits.
#[derive(Debug, Clone)]
pub struct FieldInfo {
    /// Fully qualified name: partial names joined with `.`.
    pub name: String,
    pub partial: String,
    pub tooltip: Option<String>,
    pub ft: Vec<u8>,
    pub ff: u32,
    pub value: RawValue,
    /// `/Opt` as (export value, display text), cleaned by [`choice_options`].
    pub options: Vec<(String, String)>,
    /// Whether `/Opt` had more than [`MAX_OPTIONS`] usable entries.
    pub options_cut: bool,
}

/// `/Opt` entries as a choice field offers them: display texts trimmed, blank and repeated
/// ones dropped, at most [`MAX_OPTIONS`]; and whether any were cut for that limit.
pub fn choice_options(
    entries: impl Iterator<Item = (String, String)>,
) -> (Vec<(String, String)>, bool) {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for (export, display) in entries {
        let display = display.trim();
        if display.is_empty() || seen.contains(display) {
            continue;
        }
        if out.len() == MAX_OPTIONS {
            return (out, true);
        }
        seen.insert(display.to_string());
        out.push((export, display.to_string()));
    }
    (out, false)
}

impl FieldInfo {
    /// The model type, or `None` for what is no question (push buttons, unknown types).
    pub fn kind(&self) -> Option<FieldType> {
        match self.ft.as_slice() {
            b"Tx" if self.ff & MULTILINE != 0 => Some(FieldType::Multiline),
            b"Tx" => Some(FieldType::Text),
            b"Btn" if self.ff & PUSH_BUTTON != 0 => None,
            b"Btn" if self.ff & RADIO != 0 => Some(FieldType::Radio),
            b"Btn" => Some(FieldType::Checkbox),
            b"Ch" if self.options.is_empty() => Some(FieldType::Text),
            b"Ch" if self.ff & COMBO != 0 => Some(FieldType::Select),
            b"Ch" => Some(FieldType::List),
            b"Sig" => Some(FieldType::Signature),
            _ => None,
        }
    }

    /// The display texts of a choice field.
    fn choices(&self) -> Vec<String> {
        self.options.iter().map(|(_, d)| d.clone()).collect()
    }

    /// The display text a stored choice value stands for (it may be the export value).
    fn chosen(&self, v: &str) -> Option<String> {
        let v = v.trim();
        self.options
            .iter()
            .find(|(export, _)| export.trim() == v)
            .or_else(|| self.options.iter().find(|(_, display)| display == v))
            .map(|(_, display)| display.clone())
    }
}

/// One widget: a box of a field.
#[derive(Debug, Clone)]
pub struct Widget {
    pub field: usize,
    /// Its place among its field's widgets (`/Kids` order).
    pub order: usize,
    /// 0-based page index.
    pub page: usize,
    /// Order of appearance over the pages' `/Annots`.
    pub seq: usize,
    /// `/Rect` in PDF user space: x0, y0, x1, y1.
    pub rect: [f64; 4],
    /// A button's on-state name.
    pub on: Option<String>,
    /// Its own border and background (`/MK`, `/BS`).
    pub look: quire_sdk::FieldLook,
}

/// The form of one document while its pages are read.
pub struct Form {
    fields: Vec<FieldInfo>,
    widgets: Vec<Widget>,
    /// Each widget's box in model space once its page is placed; `None` when off the page.
    frames: Vec<Option<Rect>>,
    warnings: Vec<String>,
}

impl Form {
    pub fn empty() -> Form {
        Form {
            fields: Vec::new(),
            widgets: Vec::new(),
            frames: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// `every_page`: `pages` are all of the document's (not one page asked for alone).
    pub fn read(xref: &XRef, pages: &[PdfPage<'_>], every_page: bool) -> Form {
        let r = read::read(xref, pages, every_page);
        Form {
            frames: vec![None; r.widgets.len()],
            fields: r.fields,
            widgets: r.widgets,
            warnings: r.warnings,
        }
    }

    /// Places the boxes of page `page` (0-based), read with `transform` (PDF user space to
    /// the model page) onto a `width` x `height` page: cut to the page, dropped when
    /// nothing clickable is left.
    pub fn place(&mut self, page: usize, transform: Affine, width: f64, height: f64) {
        let mut dropped = 0;
        for (w, frame) in self.widgets.iter().zip(self.frames.iter_mut()) {
            if w.page != page {
                continue;
            }
            *frame = model_rect(w.rect, transform, width, height);
            if frame.is_none() {
                dropped += 1;
            }
        }
        if dropped > 0 {
            self.warnings.push(format!(
                "{dropped} form field boxes on page {} lie outside the page and were left out",
                page + 1
            ));
        }
    }

    /// The model's fields and the warnings of the whole form.
    pub fn into_fields(self) -> (Vec<Field>, Vec<String>) {
        let Form {
            fields,
            widgets,
            frames,
            mut warnings,
            ..
        } = self;
        let mut groups: Vec<(usize, Vec<(&Widget, Rect)>)> = Vec::new();
        let mut group_of: HashMap<usize, usize> = HashMap::new();
        let mut placed: Vec<(&Widget, Rect)> = widgets
            .iter()
            .zip(frames)
            .filter_map(|(w, f)| f.map(|f| (w, f)))
            .collect();
        placed.sort_by_key(|(w, _)| (w.page, w.seq));
        for (w, frame) in placed {
            let g = *group_of.entry(w.field).or_insert_with(|| {
                groups.push((w.field, Vec::new()));
                groups.len() - 1
            });
            groups[g].1.push((w, frame));
        }

        let mut keys = Keys::default();
        let mut out = Vec::new();
        let mut cut_options = 0;
        let (mut text, mut over, mut radio_cut) = (0usize, 0usize, 0usize);
        for (field, mut boxes) in groups {
            let Some(info) = fields.get(field) else {
                continue;
            };
            let Some(kind) = info.kind() else {
                continue;
            };
            boxes.sort_by_key(|(w, _)| (w.order, w.page, w.seq));
            // Each radio box is an option, and a question offers at most MAX_OPTIONS.
            if kind == FieldType::Radio && boxes.len() > MAX_OPTIONS {
                radio_cut += boxes.len() - MAX_OPTIONS;
                boxes.truncate(MAX_OPTIONS);
            }
            let options = match kind {
                FieldType::Radio => radio_options(boxes.iter().map(|(w, _)| w.on.as_deref())),
                FieldType::Select | FieldType::List => {
                    cut_options += usize::from(info.options_cut);
                    info.choices()
                }
                _ => Vec::new(),
            };
            let value = value(info, kind, &options);
            let key = keys.assign(info, kind, &options);
            let label = label(info, &key);
            let required = info.ff & REQUIRED != 0;
            // Every box carries its own copy of the question.
            let each = key.len()
                + label.len()
                + options.iter().map(String::len).sum::<usize>()
                + value.as_ref().map_or(0, |v| v.to_string().len());
            for (w, frame) in boxes {
                text += each;
                if text > MAX_MODEL_TEXT {
                    over += 1;
                    continue;
                }
                out.push(Field {
                    key: key.clone(),
                    field_type: kind,
                    label: label.clone(),
                    required,
                    page: (w.page + 1) as u32,
                    frame,
                    options: options.clone(),
                    value: value.clone(),
                    look: Some(w.look),
                });
            }
        }
        if cut_options > 0 {
            warnings.push(format!(
                "{cut_options} choice fields offer more than {MAX_OPTIONS} options; the rest were \
                 left out"
            ));
        }
        if radio_cut > 0 {
            warnings.push(format!(
                "{radio_cut} radio buttons were left out: a question offers at most \
                 {MAX_OPTIONS} options"
            ));
        }
        if over > 0 {
            warnings.push(format!(
                "{over} form field boxes were left out: the form's questions exceed {} MiB of \
                 text",
                MAX_MODEL_TEXT >> 20
            ));
        }
        (out, warnings)
    }
}

/// `rect` (PDF user space) on the model page, cut to the page.
fn model_rect(rect: [f64; 4], transform: Affine, width: f64, height: f64) -> Option<Rect> {
    let [x0, y0, x1, y1] = rect;
    let r = transform.transform_rect_bbox(KRect::new(x0, y0, x1, y1));
    // Thousandths of a point, never rounded past the page's edge.
    let (left, top) = (thousandths(r.x0.max(0.0)), thousandths(r.y0.max(0.0)));
    let side = |from: f64, to: f64| ((to - from) * 1000.0 + 1e-6).floor() / 1000.0;
    let (w, h) = (side(left, r.x1.min(width)), side(top, r.y1.min(height)));
    (w.is_finite() && h.is_finite() && w >= MIN_SIDE && h >= MIN_SIDE)
        .then(|| Rect::new(left, top, w, h))
}

fn thousandths(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

/// A radio group's options: each box's on-state name, in box order; a box without one,
/// or whose name another box already has, gets a name of its own so that box i stays
/// option i.
fn radio_options<'a>(states: impl Iterator<Item = Option<&'a str>>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut taken: std::collections::HashSet<String> = std::collections::HashSet::new();
    // The next suffix to try per name, so many boxes of one name cost no quadratic search.
    let mut next: HashMap<String, usize> = HashMap::new();
    for (i, state) in states.enumerate() {
        let base = state
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map_or_else(|| format!("option{}", i + 1), str::to_string);
        let mut name = base.clone();
        if taken.contains(&name) {
            let n = next.entry(base.clone()).or_insert(2);
            loop {
                name = format!("{base} ({n})");
                *n += 1;
                if !taken.contains(&name) {
                    break;
                }
            }
        }
        taken.insert(name.clone());
        out.push(name);
    }
    out
}

/// The field's stored value as the model's `value` for its type.
fn value(info: &FieldInfo, kind: FieldType, options: &[String]) -> Option<Value> {
    let raw = &info.value;
    let single = match raw {
        RawValue::Name(s) | RawValue::Text(s) => Some(s.as_str()),
        RawValue::List(items) => items.first().map(String::as_str),
        RawValue::None => None,
    };
    match kind {
        FieldType::Checkbox => single.map(|s| Value::Bool(!s.is_empty() && s != "Off")),
        FieldType::Radio => single
            .filter(|s| *s != "Off")
            .and_then(|s| options.iter().find(|o| *o == s))
            .map(|s| Value::String(s.clone())),
        FieldType::Select => single.and_then(|s| info.chosen(s)).map(Value::String),
        FieldType::List => {
            let items: Vec<&str> = match raw {
                RawValue::Name(s) | RawValue::Text(s) => vec![s.as_str()],
                RawValue::List(items) => items.iter().map(String::as_str).collect(),
                RawValue::None => Vec::new(),
            };
            let mut chosen: Vec<String> = Vec::new();
            for s in items {
                if let Some(c) = info.chosen(s) {
                    if !chosen.contains(&c) {
                        chosen.push(c);
                    }
                }
            }
            match chosen.len() {
                0 => None,
                1 => chosen.pop().map(Value::String),
                _ => Some(Value::Array(
                    chosen.into_iter().map(Value::String).collect(),
                )),
            }
        }
        // A signature's value is a signature dictionary, not an answer to carry over.
        FieldType::Signature => None,
        _ => single
            .filter(|s| !s.is_empty())
            .map(|s| Value::String(s.to_string())),
    }
}

/// Keys given so far, with the type and options each stands for.
#[derive(Default)]
struct Keys {
    taken: HashMap<String, (FieldType, Vec<String>)>,
}

impl Keys {
    /// The key of a field: its fully qualified name, unless that name already stands for
    /// another question. Radio groups never share a key with another group: the boxes of
    /// two groups would not match one option list.
    fn assign(&mut self, info: &FieldInfo, kind: FieldType, options: &[String]) -> String {
        let name = info.name.trim();
        let base = if name.is_empty() { "field" } else { name };
        let base: String = base.chars().take(MAX_KEY).collect();
        let mut key = base.clone();
        let mut n = 2;
        loop {
            match self.taken.get(&key) {
                None => break,
                Some((t, o)) if *t == kind && o == options && kind != FieldType::Radio => {
                    return key;
                }
                Some(_) => {
                    key = format!("{base}_{n}");
                    n += 1;
                }
            }
        }
        self.taken.insert(key.clone(), (kind, options.to_vec()));
        key
    }
}

/// The question's label: the field's tooltip (`/TU`), else its name made readable.
fn label(info: &FieldInfo, key: &str) -> String {
    let label = info
        .tooltip
        .as_deref()
        .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|t| !t.is_empty())
        .or_else(|| readable(&info.partial))
        .or_else(|| readable(&info.name))
        .unwrap_or_else(|| key.to_string());
    label.chars().take(MAX_LABEL).collect()
}

/// A field name as words: XFA's `[0]` indices and `#` dropped, underscores and dots as
/// spaces. `None` when no letter is left (a name like `2` says nothing on its own).
fn readable(name: &str) -> Option<String> {
    let mut s = String::with_capacity(name.len());
    let mut chars = name.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '[' => {
                // Skip `[digits]`; keep a bracket that encloses anything else.
                let rest: String = chars.clone().take_while(|c| *c != ']').collect();
                let closed = chars.clone().nth(rest.chars().count()) == Some(']');
                if closed && !rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit()) {
                    for _ in 0..=rest.chars().count() {
                        chars.next();
                    }
                } else {
                    s.push(c);
                }
            }
            '_' | '.' => s.push(' '),
            '#' => {}
            c => s.push(c),
        }
    }
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    s.chars().any(char::is_alphabetic).then_some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(ft: &[u8], ff: u32) -> FieldInfo {
        FieldInfo {
            name: "a.b".into(),
            partial: "b".into(),
            tooltip: None,
            ft: ft.to_vec(),
            ff,
            value: RawValue::None,
            options: Vec::new(),
            options_cut: false,
        }
    }

    #[test]
    fn types_follow_the_field_type_and_flags() {
        assert_eq!(info(b"Tx", 0).kind(), Some(FieldType::Text));
        assert_eq!(info(b"Tx", MULTILINE).kind(), Some(FieldType::Multiline));
        // Password (bit 14) and file select (bit 21) are text all the same.
        assert_eq!(info(b"Tx", 1 << 13 | 1 << 20).kind(), Some(FieldType::Text));
        assert_eq!(info(b"Btn", 0).kind(), Some(FieldType::Checkbox));
        assert_eq!(info(b"Btn", RADIO | 1 << 14).kind(), Some(FieldType::Radio));
        assert_eq!(info(b"Btn", PUSH_BUTTON).kind(), None);
        assert_eq!(info(b"Sig", 0).kind(), Some(FieldType::Signature));
        assert_eq!(info(b"XX", 0).kind(), None);
        let mut ch = info(b"Ch", COMBO);
        assert_eq!(ch.kind(), Some(FieldType::Text), "no options: text");
        ch.options = vec![("a".into(), "A".into())];
        assert_eq!(ch.kind(), Some(FieldType::Select));
        ch.ff = 0;
        assert_eq!(ch.kind(), Some(FieldType::List));
    }

    #[test]
    fn choice_values_read_as_display_texts() {
        let mut ch = info(b"Ch", 0);
        let raw = [("1", "One"), ("2", " Two"), ("2", "Two"), ("", "  ")];
        (ch.options, ch.options_cut) =
            choice_options(raw.iter().map(|(e, d)| (e.to_string(), d.to_string())));
        assert!(!ch.options_cut);
        let choices = ch.choices();
        assert_eq!(choices, ["One", "Two"]);
        ch.value = RawValue::List(vec!["2".into(), "One".into(), "9".into()]);
        assert_eq!(
            value(&ch, FieldType::List, &choices),
            Some(serde_json::json!(["Two", "One"]))
        );
        ch.value = RawValue::Text("2".into());
        assert_eq!(
            value(&ch, FieldType::Select, &choices),
            Some(serde_json::json!("Two"))
        );
    }

    #[test]
    fn button_values() {
        let mut cb = info(b"Btn", 0);
        cb.value = RawValue::Name("Off".into());
        assert_eq!(
            value(&cb, FieldType::Checkbox, &[]),
            Some(Value::Bool(false))
        );
        cb.value = RawValue::Name("1".into());
        assert_eq!(
            value(&cb, FieldType::Checkbox, &[]),
            Some(Value::Bool(true))
        );
        let opts = radio_options([Some("0"), Some("1"), None, Some("1")].into_iter());
        assert_eq!(opts, ["0", "1", "option3", "1 (2)"]);
        assert_eq!(
            value(&cb, FieldType::Radio, &opts),
            Some(Value::String("1".into()))
        );
        cb.value = RawValue::Name("Off".into());
        assert_eq!(value(&cb, FieldType::Radio, &opts), None);
    }

    #[test]
    fn keys_are_one_question_each() {
        let mut keys = Keys::default();
        let text = info(b"Tx", 0);
        assert_eq!(keys.assign(&text, FieldType::Text, &[]), "a.b");
        // The same name and type is the same question (two widgets of one field, or a
        // field listed twice).
        assert_eq!(keys.assign(&text, FieldType::Text, &[]), "a.b");
        assert_eq!(keys.assign(&text, FieldType::Checkbox, &[]), "a.b_2");
        assert_eq!(keys.assign(&text, FieldType::Checkbox, &[]), "a.b_2");
        let o = vec!["x".to_string()];
        assert_eq!(keys.assign(&text, FieldType::Radio, &o), "a.b_3");
        assert_eq!(keys.assign(&text, FieldType::Radio, &o), "a.b_4");
    }

    #[test]
    fn names_become_labels() {
        assert_eq!(readable("Given_Name").as_deref(), Some("Given Name"));
        assert_eq!(readable("Keuzelijst1[0]").as_deref(), Some("Keuzelijst1"));
        assert_eq!(
            readable("#subform[0].a[x]").as_deref(),
            Some("subform a[x]")
        );
        assert_eq!(readable("2"), None);
        assert_eq!(readable("a[12").as_deref(), Some("a[12"));
        let mut f = info(b"Tx", 0);
        f.name = "cfda.2".into();
        f.partial = "2".into();
        assert_eq!(label(&f, "cfda.2"), "cfda 2");
        f.tooltip = Some("  CFDA\n digit ".into());
        assert_eq!(label(&f, "cfda.2"), "CFDA digit");
    }

    #[test]
    fn boxes_are_cut_to_the_page() {
        // A4 page, model space: y flipped about the top.
        let t = Affine::new([1.0, 0.0, 0.0, -1.0, 0.0, 842.0]);
        let r = model_rect([100.0, 800.0, 200.0, 820.0], t, 595.0, 842.0).unwrap();
        assert_eq!(r, Rect::new(100.0, 22.0, 100.0, 20.0));
        let r = model_rect([580.0, 10.0, 620.0, 30.0], t, 595.0, 842.0).unwrap();
        assert_eq!(r, Rect::new(580.0, 812.0, 15.0, 20.0));
        assert_eq!(
            model_rect([700.0, 10.0, 720.0, 30.0], t, 595.0, 842.0),
            None
        );
        assert_eq!(model_rect([10.0, 10.0, 10.0, 30.0], t, 595.0, 842.0), None);
    }

    #[test]
    fn pdf_doc_encoding() {
        assert_eq!(pdf_text(b"caf\xe9 \x80 \x92"), "café • ™");
        assert_eq!(pdf_text(&[0xFE, 0xFF, 0x00, 0x48, 0x00, 0xE9]), "Hé");
    }
}
