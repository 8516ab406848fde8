//! The interactive form (AcroForm): one field dictionary per key, one widget annotation per
//! box, each widget with its own appearance streams.
//!
//! Boxes sharing a key are one question, so they become one field whose `/Kids` are the
//! widgets, on whichever pages they sit; the field carries the name, type, flags and value,
//! the widgets only geometry and drawing. A radio field with exactly as many boxes as
//! options puts option i in box i; any other radio box is divided into one small widget per
//! option, each a circle with its label.
//!
//! The export calls in at the two places a form attaches to a PDF: each drawn page's
//! `/Annots` ([`Form::widgets`]) and the catalog's `/AcroForm` ([`Form::write_catalog_entry`]).
//! Fields are written only for boxes on exported pages, so a one-page export carries a
//! complete form of that page's fields.

mod appearance;
mod typing;

use std::collections::{HashMap, HashSet};

use pdf_writer::types::{
    AnnotationFlags, AnnotationType, BorderType, FieldFlags, FieldType as PdfType,
};
use pdf_writer::writers::Catalog;
use pdf_writer::{Chunk, Filter, Finish, Name, Ref, Str, TextStr};
use quire_sdk::{Document, Field, FieldType, Rect};
use serde_json::Value;

use super::canvas::num;
use super::glyph_runs::Font;
use super::library_fonts::LibraryFonts;
use super::resources::Resources;
use appearance::{Edges, Frame, Sketch};

/// Below this many points a clipped box is too small to click or see, and is left out.
const MIN_SIDE: f64 = 1.0;
/// The on state of check boxes.
const YES: &[u8] = b"Yes";
/// The state name every button has for "not chosen".
const OFF: &[u8] = b"Off";

/// The fonts of the AcroForm's `/DR`: named Helvetica and ZapfDingbats, and the library
/// font new answers are typed in when the form's text is not all WinAnsi (see `typing`).
#[derive(Clone, Copy)]
struct Fonts {
    helv: Ref,
    zadb: Ref,
    /// Registry index and object of the typing font.
    typing: Option<(usize, Ref)>,
}

impl Fonts {
    /// The `/DR` name of the font text fields are typed in.
    fn typed_in(&self) -> String {
        match self.typing {
            Some((index, _)) => typing::name(index),
            None => "Helv".to_string(),
        }
    }
}

/// One question: every box of one key, in document order.
struct Group<'d> {
    key: &'d str,
    /// Type, options and label come from the key's first box (the model checks they agree).
    first: &'d Field,
    boxes: Vec<&'d Field>,
    required: bool,
    label: &'d str,
    /// Radio state names, one per option.
    states: Vec<Vec<u8>>,
    answer: Answer,
    /// Allocated with the first widget written, so keys without one leave no object.
    id: Option<Ref>,
    kids: Vec<Ref>,
    /// Font size of the first widget, the field's `/DA`.
    size: f32,
}

/// A filled copy's answer, read for the field's type.
#[derive(Debug, Clone, PartialEq)]
enum Answer {
    None,
    Text(String),
    On(bool),
    /// Indices into the options.
    Chosen(Vec<usize>),
}

pub struct Form<'d> {
    doc: &'d Document,
    groups: Vec<Group<'d>>,
    chunk: Chunk,
    fonts: Option<Fonts>,
}

impl<'d> Form<'d> {
    pub fn new(doc: &'d Document) -> Self {
        let fields = &doc.fields;
        let mut groups: Vec<Group> = Vec::new();
        let mut by_key: HashMap<&str, usize> = HashMap::new();
        for f in fields {
            match by_key.get(f.key.as_str()) {
                Some(&i) => {
                    let g = &mut groups[i];
                    g.boxes.push(f);
                    g.required |= f.required;
                    if g.label.is_empty() {
                        g.label = &f.label;
                    }
                    // Filled copies may carry the answer on any box of the key.
                    if g.answer == Answer::None {
                        let first = g.first;
                        g.answer = answer(f.value.as_ref(), first.field_type, &first.options);
                    }
                }
                None => {
                    by_key.insert(&f.key, groups.len());
                    groups.push(Group {
                        key: &f.key,
                        first: f,
                        boxes: vec![f],
                        required: f.required,
                        label: &f.label,
                        states: state_names(&f.options),
                        answer: answer(f.value.as_ref(), f.field_type, &f.options),
                        id: None,
                        kids: Vec::new(),
                        size: 0.0,
                    });
                }
            }
        }
        Form {
            doc,
            groups,
            chunk: Chunk::new(),
            fonts: None,
        }
    }

    /// Writes the widgets of the boxes on the document's page `number` (1-based), drawn as
    /// the page object `page` of `size` (width, height) points, and returns their ids for
    /// the page's `/Annots`. Boxes reaching past the page are cut to it; boxes wholly off it
    /// are left out.
    pub fn widgets(
        &mut self,
        number: u32,
        page: Ref,
        size: (f64, f64),
        res: &mut Resources,
    ) -> Vec<Ref> {
        let mut ids = Vec::new();
        let Form {
            doc,
            groups,
            chunk,
            fonts,
        } = self;
        for g in groups.iter_mut() {
            for position in 0..g.boxes.len() {
                let field = g.boxes[position];
                if field.page != number {
                    continue;
                }
                let Some(frame) = clip(field.frame, size) else {
                    continue;
                };
                // The `/DR` fonts, numbered with the first widget.
                let fonts = *fonts.get_or_insert_with(|| {
                    let typing = typing::typing_font(doc, res)
                        .map(|index| (index, res.library_font_ref(index)));
                    Fonts {
                        helv: res.refs.alloc(),
                        zadb: res.refs.alloc(),
                        typing,
                    }
                });
                // A key whose boxes end up with no widget gets no field; its number stays
                // unused (a free entry in the cross-reference table).
                let parent = g.id.unwrap_or_else(|| res.refs.alloc());
                let mut out = Out {
                    chunk: &mut *chunk,
                    res: &mut *res,
                    page,
                    page_height: size.1,
                    parent,
                    typed_in: fonts.typed_in(),
                };
                let kids = write_box(&mut out, g, position, frame);
                if kids.ids.is_empty() {
                    continue;
                }
                if g.id.is_none() {
                    g.id = Some(parent);
                    g.size = kids.size;
                }
                g.kids.extend(&kids.ids);
                ids.extend(kids.ids);
            }
        }
        ids
    }

    fn has_fields(&self) -> bool {
        self.groups.iter().any(|g| g.id.is_some())
    }

    /// Writes the catalog's `/AcroForm` when the export has any field: the fields, and the
    /// default appearance and fonts a viewer uses when it redraws a field after an edit.
    pub fn write_catalog_entry(&self, catalog: &mut Catalog) {
        let Some(fonts) = self.fonts.filter(|_| self.has_fields()) else {
            return;
        };
        let mut form = catalog.form();
        form.fields(self.groups.iter().filter_map(|g| g.id));
        // Size 0: a viewer fits the text to the box.
        let da = format!("/{} 0 Tf 0 g", fonts.typed_in());
        form.default_appearance(Str(da.as_bytes()));
        let mut dr = form.default_resources();
        let mut dr_fonts = dr.fonts();
        dr_fonts
            .pair(Name(b"Helv"), fonts.helv)
            .pair(Name(b"ZaDb"), fonts.zadb);
        if let Some((index, font)) = fonts.typing {
            dr_fonts.pair(Name(typing::name(index).as_bytes()), font);
        }
    }

    /// Writes the field dictionaries and fonts, and hands back every object of the form.
    pub fn finish(mut self) -> Chunk {
        if let Some(fonts) = self.fonts.filter(|_| self.has_fields()) {
            let mut helv = self.chunk.type1_font(fonts.helv);
            helv.base_font(Name(b"Helvetica"));
            helv.encoding_predefined(Name(b"WinAnsiEncoding"));
            helv.finish();
            self.chunk
                .type1_font(fonts.zadb)
                .base_font(Name(b"ZapfDingbats"));
        }
        for g in &self.groups {
            if let Some(id) = g.id {
                let typed_in = fonts_typed_in(self.fonts);
                write_field(&mut self.chunk, id, g, &typed_in);
            }
        }
        self.chunk
    }
}

/// Where widgets are written, and what they refer to.
struct Out<'a, 'r> {
    chunk: &'a mut Chunk,
    res: &'a mut Resources<'r>,
    page: Ref,
    page_height: f64,
    parent: Ref,
    /// The `/DR` font new answers are typed in.
    typed_in: String,
}

/// The widgets written for one box.
struct Kids {
    ids: Vec<Ref>,
    /// Font size of their text (0 when they have none).
    size: f32,
}

/// Writes the widget(s) of box number `position` of `g`, inside `frame`.
fn write_box(out: &mut Out, g: &Group, position: usize, frame: Rect) -> Kids {
    let options = &g.first.options;
    let chosen = |i: usize| matches!(&g.answer, Answer::Chosen(c) if c.contains(&i));
    let text = match &g.answer {
        Answer::Text(s) => s.as_str(),
        _ => "",
    };
    let style = Frame::of(g.boxes[position].look.as_ref());
    let one = |out: &mut Out, look: Look| single(out, frame, look, style);
    match g.first.field_type {
        FieldType::Text | FieldType::Email | FieldType::Number | FieldType::Date => {
            one(out, Look::Line(text))
        }
        FieldType::Multiline => one(out, Look::Block(text)),
        FieldType::Signature => one(out, Look::Signature(text)),
        FieldType::Checkbox => one(out, Look::Check(g.answer == Answer::On(true))),
        FieldType::Select => {
            let value = first_chosen(&g.answer).and_then(|i| options.get(i));
            one(out, Look::Combo(value.map_or("", |s| s.as_str())))
        }
        FieldType::List => {
            let selected = match &g.answer {
                Answer::Chosen(c) => c.as_slice(),
                _ => &[],
            };
            one(out, Look::List(options, selected))
        }
        FieldType::Radio if g.boxes.len() == options.len() && !options.is_empty() => {
            let state = &g.states[position];
            one(out, Look::Radio(state, chosen(position), None))
        }
        FieldType::Radio => {
            let tiles = option_tiles(frame, options.len());
            // Options too many for their box to give each a visible slice are left out.
            let ids = tiles
                .into_iter()
                .enumerate()
                .filter(|(_, (tile, _))| tile.w >= MIN_SIDE && tile.h >= MIN_SIDE)
                .map(|(i, (tile, edges))| {
                    let look = Look::Radio(&g.states[i], chosen(i), Some((&options[i], edges)));
                    write_widget(out, tile, look, style)
                })
                .collect();
            Kids { ids, size: 0.0 }
        }
    }
}

/// A box drawn as one widget.
fn single(out: &mut Out, frame: Rect, look: Look, style: Frame) -> Kids {
    Kids {
        ids: vec![write_widget(out, frame, look, style)],
        size: look.size(num(frame.h)),
    }
}

/// What a widget shows.
#[derive(Clone, Copy)]
enum Look<'a> {
    Line(&'a str),
    Block(&'a str),
    Signature(&'a str),
    Check(bool),
    Combo(&'a str),
    List(&'a [String], &'a [usize]),
    /// On-state name, whether chosen, and for an option inside a shared box its label and
    /// the sides of the box it borders.
    Radio(&'a [u8], bool, Option<(&'a str, Edges)>),
}

impl Look<'_> {
    /// The font size of its text in a box `h` points tall.
    fn size(&self, h: f32) -> f32 {
        match self {
            Look::Line(_) | Look::Combo(_) | Look::Signature(_) => appearance::line_size(h),
            Look::Block(_) | Look::List(..) => appearance::body_size(h),
            Look::Check(_) | Look::Radio(..) => 0.0,
        }
    }
}

/// A widget's normal appearance: one stream, or for a button its on state (named `name`)
/// and `/Off`, with which of them shows.
enum Normal<'a> {
    One(Ref),
    States {
        name: &'a [u8],
        on: Ref,
        off: Ref,
        chosen: bool,
    },
}

/// Writes one widget annotation in `frame` (model coordinates) with its appearances.
fn write_widget(out: &mut Out, frame: Rect, look: Look, style: Frame) -> Ref {
    let (w, h) = (num(frame.w), num(frame.h));
    let size = look.size(h);
    let draw = |out: &mut Out, paint: &dyn Fn(&mut Sketch)| {
        let mut sketch = Sketch::new(w, h, style, out.res);
        paint(&mut sketch);
        let (content, drawn_with) = sketch.finish();
        write_appearance(out, w, h, content, &drawn_with)
    };
    let normal = match look {
        Look::Line(v) => Normal::One(draw(out, &|s| s.text_line(v, size))),
        Look::Block(v) => Normal::One(draw(out, &|s| s.text_block(v, size))),
        Look::Signature(v) => Normal::One(draw(out, &|s| s.signature(v, size))),
        Look::Combo(v) => Normal::One(draw(out, &|s| s.combo(v, size))),
        Look::List(options, selected) => {
            let top = list_top(selected, appearance::rows_that_fit(h, size));
            Normal::One(draw(out, &|s| s.list(options, selected, top, size)))
        }
        Look::Check(on) => Normal::States {
            name: YES,
            on: draw(out, &|s| s.checkbox(true)),
            off: draw(out, &|s| s.checkbox(false)),
            chosen: on,
        },
        Look::Radio(name, chosen, tile) => {
            let paint = |s: &mut Sketch, on: bool| match tile {
                Some((label, edges)) => s.radio_option(label, edges, on),
                None => s.radio_alone(on),
            };
            Normal::States {
                name,
                on: draw(out, &|s| paint(s, true)),
                off: draw(out, &|s| paint(s, false)),
                chosen,
            }
        }
    };

    let id = out.res.refs.alloc();
    let y_top = out.page_height - frame.y;
    let rect = pdf_writer::Rect::new(
        num(frame.x),
        num(y_top - frame.h),
        num(frame.right()),
        num(y_top),
    );
    let mut annot = out.chunk.annotation(id);
    annot
        .subtype(AnnotationType::Widget)
        .rect(rect)
        .page(out.page)
        .parent(out.parent)
        .flags(AnnotationFlags::PRINT);
    // What a viewer that draws its own appearance (after an edit) draws with: the same.
    annot
        .border_style()
        .width(style.drawn_width())
        .style(BorderType::Solid);
    {
        let mut mk = annot.appearance_characteristics();
        if let Some([r, g, b]) = style.border {
            mk.border_color_rgb(r, g, b);
        }
        if let Some([r, g, b]) = style.fill {
            mk.background_color_rgb(r, g, b);
        }
        match look {
            Look::Check(_) => {
                mk.normal_caption(TextStr(appearance::CHECK_CAPTION));
            }
            Look::Radio(..) => {
                mk.normal_caption(TextStr(appearance::DOT_CAPTION));
            }
            _ => {}
        }
    }
    if size > 0.0 {
        annot.pair(
            Name(b"DA"),
            Str(default_appearance(&out.typed_in, size).as_bytes()),
        );
    }
    match normal {
        Normal::One(stream) => annot.appearance().normal().stream(stream),
        Normal::States {
            name,
            on,
            off,
            chosen,
        } => {
            annot
                .appearance()
                .normal()
                .streams()
                .pair(Name(name), on)
                .pair(Name(OFF), off);
            annot.appearance_state(Name(if chosen { name } else { OFF }));
        }
    }
    annot.finish();
    id
}

/// Writes an appearance stream (a form XObject `w` by `h`) drawing with the form's fonts.
fn write_appearance(
    out: &mut Out,
    w: f32,
    h: f32,
    content: Vec<u8>,
    drawn_with: &std::collections::BTreeSet<Font>,
) -> Ref {
    let id = out.res.refs.alloc();
    let compressed = miniz_oxide::deflate::compress_to_vec_zlib(&content, 6);
    let mut x = out.chunk.form_xobject(id, &compressed);
    x.filter(Filter::FlateDecode);
    x.bbox(pdf_writer::Rect::new(0.0, 0.0, w, h));
    let mut resources = x.resources();
    let mut fonts = resources.fonts();
    for &font in drawn_with {
        let (name, r) = match font {
            Font::Standard(i) => (Resources::font_name(i), out.res.standard_font_ref(i)),
            Font::Library(i) => (LibraryFonts::name(i), out.res.library_font_ref(i)),
        };
        fonts.pair(Name(name.as_bytes()), r);
    }
    fonts.finish();
    resources.finish();
    x.finish();
    id
}

/// Writes the field dictionary of `g`: name, label, type, flags, value, options, kids.
fn write_field(chunk: &mut Chunk, id: Ref, g: &Group, typed_in: &str) {
    let ty = g.first.field_type;
    let mut field = chunk.form_field(id);
    field.partial_name(TextStr(g.key));
    if !g.label.is_empty() {
        field.alternate_name(TextStr(g.label));
    }
    let multi = matches!(&g.answer, Answer::Chosen(c) if c.len() > 1);
    let mut flags = match ty {
        FieldType::Text | FieldType::Signature => FieldFlags::empty(),
        FieldType::Email | FieldType::Number | FieldType::Date => FieldFlags::DO_NOT_SPELL_CHECK,
        FieldType::Multiline => FieldFlags::MULTILINE,
        FieldType::Checkbox => FieldFlags::empty(),
        FieldType::Radio => FieldFlags::RADIO | FieldFlags::NO_TOGGLE_TO_OFF,
        FieldType::Select => FieldFlags::COMBO,
        // A list answered with several options is a multiple-choice list.
        FieldType::List if multi => FieldFlags::MULTI_SELECT,
        FieldType::List => FieldFlags::empty(),
    };
    if g.required {
        flags |= FieldFlags::REQUIRED;
    }
    field.field_type(match ty {
        FieldType::Checkbox | FieldType::Radio => PdfType::Button,
        FieldType::Select | FieldType::List => PdfType::Choice,
        FieldType::Signature => PdfType::Signature,
        _ => PdfType::Text,
    });
    if !flags.is_empty() {
        field.field_flags(flags);
    }
    match ty {
        FieldType::Checkbox | FieldType::Radio => {
            field.pair(Name(b"DA"), Str(b"/ZaDb 0 Tf 0 g"));
        }
        FieldType::Signature => {}
        _ => {
            field.pair(
                Name(b"DA"),
                Str(default_appearance(typed_in, g.size).as_bytes()),
            );
        }
    }
    let options = &g.first.options;
    if matches!(ty, FieldType::Select | FieldType::List) {
        field
            .choice_options()
            .options(options.iter().map(|o| TextStr(o)));
    }
    // A signature's value is a signature dictionary, never text: a typed name is only drawn.
    match (&g.answer, ty) {
        (_, FieldType::Signature) | (Answer::None, _) => {}
        (Answer::Text(s), _) => {
            field.text_value(TextStr(s));
        }
        (Answer::On(on), _) => {
            field.pair(Name(b"V"), Name(if *on { YES } else { OFF }));
        }
        (Answer::Chosen(c), FieldType::Radio) => {
            if let Some(state) = c.first().and_then(|&i| g.states.get(i)) {
                field.radio_value(Name(state));
            }
        }
        (Answer::Chosen(c), _) if c.len() == 1 => {
            field.choice_value(Some(TextStr(&options[c[0]])));
        }
        (Answer::Chosen(c), _) => {
            field.choice_values(c.iter().map(|&i| TextStr(&options[i])));
            field.choice_indices(c.iter().map(|&i| i as i32));
        }
    }
    if let Some(top) = list_scroll(g) {
        field.choice_top_index(top as i32);
    }
    field.children(g.kids.iter().copied());
    field.finish();
}

/// `/DA` for `/DR` font `font` at `size` in black.
fn default_appearance(font: &str, size: f32) -> String {
    let size = if size > 0.0 { size } else { 10.0 };
    format!("/{font} {} Tf 0 g", (size * 100.0).round() / 100.0)
}

fn fonts_typed_in(fonts: Option<Fonts>) -> String {
    fonts.map_or_else(|| "Helv".to_string(), |f| f.typed_in())
}

/// The first row a list box shows: the top, unless that would hide the first selection.
fn list_top(selected: &[usize], rows: usize) -> usize {
    match selected.first() {
        Some(&i) if i >= rows => i + 1 - rows,
        _ => 0,
    }
}

/// A list field's `/TI`, when its first widget is scrolled to show the selection.
fn list_scroll(g: &Group) -> Option<usize> {
    let Answer::Chosen(selected) = &g.answer else {
        return None;
    };
    if g.first.field_type != FieldType::List || g.size <= 0.0 {
        return None;
    }
    let h = g.boxes.first().map(|f| num(f.frame.h))?;
    let top = list_top(selected, appearance::rows_that_fit(h, g.size));
    (top > 0).then_some(top)
}

fn first_chosen(a: &Answer) -> Option<usize> {
    match a {
        Answer::Chosen(c) => c.first().copied(),
        _ => None,
    }
}

/// `frame` cut to a `size` page, or `None` when too little of it is on the page.
fn clip(frame: Rect, size: (f64, f64)) -> Option<Rect> {
    let finite = [frame.x, frame.y, frame.w, frame.h]
        .iter()
        .all(|v| v.is_finite());
    if !finite {
        return None;
    }
    let x0 = frame.x.max(0.0);
    let y0 = frame.y.max(0.0);
    let x1 = (frame.x + frame.w).min(size.0);
    let y1 = (frame.y + frame.h).min(size.1);
    (x1 - x0 >= MIN_SIDE && y1 - y0 >= MIN_SIDE).then(|| Rect::new(x0, y0, x1 - x0, y1 - y0))
}

/// Divides a radio box among `n` options: stacked when the box is tall enough for rows of
/// a readable height (or taller than wide), side by side otherwise. Each slice keeps the
/// box's border on its outer sides, so the options read as one box.
fn option_tiles(frame: Rect, n: usize) -> Vec<(Rect, Edges)> {
    if n == 0 {
        return Vec::new();
    }
    let stacked = frame.h / n as f64 >= 9.0 || frame.h >= frame.w;
    (0..n)
        .map(|i| {
            let (first, last) = (i == 0, i == n - 1);
            if stacked {
                let h = frame.h / n as f64;
                let tile = Rect::new(frame.x, frame.y + h * i as f64, frame.w, h);
                let edges = Edges {
                    top: first,
                    bottom: last,
                    ..Edges::ALL
                };
                (tile, edges)
            } else {
                let w = frame.w / n as f64;
                let tile = Rect::new(frame.x + w * i as f64, frame.y, w, frame.h);
                let edges = Edges {
                    left: first,
                    right: last,
                    ..Edges::ALL
                };
                (tile, edges)
            }
        })
        .collect()
}

/// Radio on-state names, one per option: the option itself, so a viewer or a form reader
/// sees the answer as the option's text. An option that cannot be a state name (empty,
/// `Off`, holding a NUL, longer than the 127 bytes readers accept, or a repeat) is named
/// by its position instead.
fn state_names(options: &[String]) -> Vec<Vec<u8>> {
    let mut names: Vec<Vec<u8>> = Vec::with_capacity(options.len());
    let mut taken: HashSet<Vec<u8>> = HashSet::with_capacity(options.len());
    for (i, o) in options.iter().enumerate() {
        let bytes = o.as_bytes();
        let usable = !bytes.is_empty()
            && bytes != OFF
            && bytes.len() <= 127
            && !bytes.contains(&0)
            && !taken.contains(bytes);
        let mut name = if usable {
            bytes.to_vec()
        } else {
            format!("option{}", i + 1).into_bytes()
        };
        while taken.contains(&name) {
            name.push(b'_');
        }
        taken.insert(name.clone());
        names.push(name);
    }
    names
}

/// Reads a field's `value` for its type. Choosing types keep only answers that are among
/// their options; check boxes take `true`, or a string or number meaning yes.
fn answer(value: Option<&Value>, ty: FieldType, options: &[String]) -> Answer {
    let Some(v) = value.filter(|v| !v.is_null()) else {
        return Answer::None;
    };
    let as_text = |v: &Value| match v {
        Value::String(s) => s.clone(),
        Value::Array(items) => items
            .iter()
            .map(|i| match i {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            })
            .collect::<Vec<_>>()
            .join(", "),
        other => other.to_string(),
    };
    let index = |v: &Value| {
        let s = match v {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            _ => return None,
        };
        options.iter().position(|o| *o == s)
    };
    match ty {
        FieldType::Text
        | FieldType::Multiline
        | FieldType::Email
        | FieldType::Number
        | FieldType::Date
        | FieldType::Signature => Answer::Text(as_text(v)),
        FieldType::Checkbox => Answer::On(match v {
            Value::Bool(b) => *b,
            Value::Number(n) => n.as_f64().is_some_and(|n| n != 0.0),
            Value::String(s) => {
                let s = s.trim().to_ascii_lowercase();
                !matches!(s.as_str(), "" | "false" | "off" | "no" | "0")
            }
            _ => false,
        }),
        FieldType::Radio | FieldType::Select => match index(v) {
            Some(i) => Answer::Chosen(vec![i]),
            None => Answer::None,
        },
        FieldType::List => {
            let mut chosen: Vec<usize> = match v {
                Value::Array(items) => items.iter().filter_map(index).collect(),
                other => index(other).into_iter().collect(),
            };
            chosen.sort_unstable();
            chosen.dedup();
            if chosen.is_empty() {
                Answer::None
            } else {
                Answer::Chosen(chosen)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_names_are_the_options_unless_they_cannot_be() {
        let opts: Vec<String> = ["Yes", "Off", "", "Yes", "a b/c"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let names = state_names(&opts);
        let names: Vec<&[u8]> = names.iter().map(|n| n.as_slice()).collect();
        assert_eq!(
            names,
            [&b"Yes"[..], b"option2", b"option3", b"option4", b"a b/c"]
        );
    }

    #[test]
    fn boxes_are_cut_to_the_page_or_left_out() {
        let page = (100.0, 200.0);
        assert_eq!(
            clip(Rect::new(90.0, 10.0, 20.0, 10.0), page),
            Some(Rect::new(90.0, 10.0, 10.0, 10.0))
        );
        assert_eq!(clip(Rect::new(120.0, 10.0, 20.0, 10.0), page), None);
        assert_eq!(clip(Rect::new(10.0, 10.0, f64::NAN, 10.0), page), None);
        assert_eq!(clip(Rect::new(10.0, -30.0, 10.0, 20.0), page), None);
    }

    #[test]
    fn radio_boxes_are_divided_along_their_long_side() {
        let tall = option_tiles(Rect::new(0.0, 0.0, 100.0, 60.0), 3);
        assert_eq!(tall[1].0, Rect::new(0.0, 20.0, 100.0, 20.0));
        assert!(!tall[1].1.top && !tall[1].1.bottom && tall[1].1.left);
        let wide = option_tiles(Rect::new(0.0, 0.0, 300.0, 16.0), 3);
        assert_eq!(wide[2].0, Rect::new(200.0, 0.0, 100.0, 16.0));
        assert!(wide[2].1.right && !wide[2].1.left);
    }

    #[test]
    fn answers_are_read_for_the_field_type() {
        let mut f: Field = serde_json::from_value(serde_json::json!({
            "key": "k", "type": "list", "page": 1, "x": 0, "y": 0, "w": 10, "h": 10,
            "options": ["a", "b", "c"], "value": ["c", "a", "zzz"]
        }))
        .unwrap();
        let read = |f: &Field| answer(f.value.as_ref(), f.field_type, &f.options);
        assert_eq!(read(&f), Answer::Chosen(vec![0, 2]));
        f.field_type = FieldType::Checkbox;
        f.value = Some(Value::String("no".into()));
        assert_eq!(read(&f), Answer::On(false));
        f.field_type = FieldType::Number;
        f.value = Some(serde_json::json!(42.5));
        assert_eq!(read(&f), Answer::Text("42.5".into()));
        f.field_type = FieldType::Select;
        f.value = Some(Value::String("d".into()));
        assert_eq!(read(&f), Answer::None);
    }
}
