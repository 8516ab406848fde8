//! The lexical pieces of a vertex statement: node ids, bracket shapes with their text,
//! quoted and markdown strings, and links (`-->`, `-- text -->`, `-.->`, `==>`, `~~~`, ...)
//! read the way mermaid's lexer reads them.

use quire_sdk::ConvertError;

use super::cursor::Cursor;
use super::{Classic, Head, Label, Stroke};

/// A link as read, before its ends are known.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(super) struct Link {
    pub start: Head,
    pub end: Head,
    pub stroke: Stroke,
    pub length: u32,
    pub label: Option<Label>,
}

/// Longest link mermaid keeps (`linkData.length` is capped the same way).
const MAX_LENGTH: u32 = 10;

fn head_of(c: char) -> Head {
    match c {
        '>' | '<' => Head::Arrow,
        'x' => Head::Cross,
        'o' => Head::Circle,
        _ => Head::None,
    }
}

/// Whether `c` may continue a node id at index `i` (mermaid's NODE_STRING plus Unicode).
pub(super) fn id_char(cur: &Cursor, i: usize) -> bool {
    let Some(c) = cur.char_at(i) else {
        return false;
    };
    let next = cur.char_at(i + 1);
    match c {
        'A'..='Z' | 'a'..='z' | '0'..='9' => true,
        '_' | '!' | '#' | '$' | '%' | '\'' | '*' | '+' | '?' | '\\' | '/' | '`' => true,
        '.' => next != Some('-'),
        '-' => !matches!(next, Some('-' | '>' | '.')),
        '=' => next != Some('='),
        c if !c.is_ascii() => !c.is_whitespace(),
        _ => false,
    }
}

/// A node id (or class name) at the cursor; empty if none.
pub(super) fn id(cur: &mut Cursor) -> String {
    let start = cur.pos;
    while id_char(cur, cur.pos) {
        cur.pos += 1;
    }
    cur.slice(start, cur.pos)
}

/// The shape opened at the cursor and the closers that may end it.
fn opener(cur: &Cursor) -> Option<(&'static str, &'static [(&'static str, Classic)])> {
    const TABLE: &[(&str, &[(&str, Classic)])] = &[
        ("(((", &[(")))", Classic::DoubleCircle)]),
        ("((", &[("))", Classic::Circle)]),
        ("([", &[("])", Classic::Stadium)]),
        ("(-", &[("-)", Classic::Ellipse)]),
        ("(", &[(")", Classic::Round)]),
        ("[[", &[("]]", Classic::Subroutine)]),
        ("[(", &[(")]", Classic::Cylinder)]),
        (
            "[/",
            &[("/]", Classic::LeanRight), ("\\]", Classic::Trapezoid)],
        ),
        (
            "[\\",
            &[("\\]", Classic::LeanLeft), ("/]", Classic::InvTrapezoid)],
        ),
        ("[", &[("]", Classic::Square)]),
        ("{{", &[("}}", Classic::Hexagon)]),
        ("{", &[("}", Classic::Diamond)]),
        (">", &[("]", Classic::Odd)]),
    ];
    TABLE
        .iter()
        .copied()
        .find(|(open, _)| cur.starts_with(open))
}

/// A bracket shape and its text, if one opens at the cursor.
pub(super) fn shape(cur: &mut Cursor) -> Result<Option<(Classic, Label)>, ConvertError> {
    let Some((open, closers)) = opener(cur) else {
        return Ok(None);
    };
    let at = cur.pos;
    cur.pos += open.chars().count();
    let save = cur.pos;
    cur.skip_blank();
    if cur.peek() == Some('"') {
        let label = string(cur)?;
        cur.skip_blank();
        for (close, kind) in closers {
            if cur.eat(close) {
                return Ok(Some((*kind, label)));
            }
        }
        return Err(cur.error(&format!(
            "expected `{}` to close the shape opened with `{open}`, found {}",
            closers[0].0,
            cur.describe_here()
        )));
    }
    cur.pos = save;
    let start = cur.pos;
    while !cur.eof() {
        for (close, kind) in closers {
            if cur.starts_with(close) {
                let text = cur.slice(start, cur.pos);
                cur.pos += close.chars().count();
                return Ok(Some((
                    *kind,
                    Label {
                        text,
                        markdown: false,
                    },
                )));
            }
        }
        cur.bump();
    }
    Err(cur.error_at(
        at,
        &format!(
            "the shape opened with `{open}` is never closed by `{}`",
            closers[0].0
        ),
    ))
}

/// A `"..."` string, or a markdown string "`...`", at the cursor.
pub(super) fn string(cur: &mut Cursor) -> Result<Label, ConvertError> {
    let at = cur.pos;
    cur.bump();
    let markdown = cur.eat("`");
    let start = cur.pos;
    let close = if markdown { "`\"" } else { "\"" };
    while !cur.eof() && !cur.starts_with(close) {
        cur.bump();
    }
    let text = cur.slice(start, cur.pos);
    if !cur.eat(close) {
        return Err(cur.error_at(at, "this quoted text is never closed by `\"`"));
    }
    Ok(Label { text, markdown })
}

/// A link at the cursor (spaces already skipped), with its label in any of the two
/// syntaxes. `None` if no link starts here.
pub(super) fn link(cur: &mut Cursor) -> Result<Option<Link>, ConvertError> {
    let at = cur.pos;
    let found = match complete_link(cur) {
        Some(l) => Some(l),
        None => text_link(cur)?,
    };
    let Some(mut l) = found else {
        cur.pos = at;
        return Ok(None);
    };
    if l.label.is_none() {
        cur.skip_spaces();
        if cur.peek() == Some('|') {
            l.label = Some(pipe_text(cur)?);
        }
    }
    l.length = l.length.clamp(1, MAX_LENGTH);
    Ok(Some(l))
}

/// `|text|` after a link.
fn pipe_text(cur: &mut Cursor) -> Result<Label, ConvertError> {
    let at = cur.pos;
    cur.bump();
    cur.skip_spaces();
    if cur.peek() == Some('"') {
        let label = string(cur)?;
        cur.skip_spaces();
        if !cur.eat("|") {
            return Err(cur.error(&format!(
                "expected `|` to close the link text, found {}",
                cur.describe_here()
            )));
        }
        return Ok(label);
    }
    let start = cur.pos;
    while cur.peek().is_some_and(|c| c != '|') {
        cur.bump();
    }
    let text = cur.slice(start, cur.pos);
    if !cur.eat("|") {
        return Err(cur.error_at(at, "the link text opened with `|` is never closed by `|`"));
    }
    Ok(Label {
        text,
        markdown: false,
    })
}

/// The optional start mark of a link: `<`, `x` or `o` right before its line.
fn start_mark(cur: &Cursor, line: char) -> Option<char> {
    match cur.peek() {
        Some(c @ ('<' | 'x' | 'o')) if cur.peek_at(1) == Some(line) => Some(c),
        _ => None,
    }
}

/// A link without text: `-->`, `---`, `--x`, `<-->`, `==>`, `-.->`, `~~~`, longer forms.
fn complete_link(cur: &mut Cursor) -> Option<Link> {
    let at = cur.pos;
    if cur.starts_with("~~~") {
        let mut n = 0;
        while cur.peek() == Some('~') {
            cur.bump();
            n += 1;
        }
        return Some(Link {
            stroke: Stroke::Invisible,
            length: n - 2,
            ..Link::default()
        });
    }
    for (line, stroke) in [('-', Stroke::Normal), ('=', Stroke::Thick)] {
        let mark = start_mark(cur, line);
        let mut i = cur.pos + usize::from(mark.is_some());
        let run_start = i;
        while cur.char_at(i) == Some(line) {
            i += 1;
        }
        let n = (i - run_start) as u32;
        if n < 2 {
            continue;
        }
        let last = cur.char_at(i);
        let (end_char, run) = match last {
            Some(c @ ('x' | 'o' | '>')) => (c, n),
            _ if n >= 3 => (line, n - 1),
            _ => continue,
        };
        cur.pos = if end_char == line { i } else { i + 1 };
        return Some(finish(mark, end_char, run, stroke));
    }
    // Dotted: [xo<]? -? .+ - [xo>]?
    let mark = match cur.peek() {
        Some(c @ ('<' | 'x' | 'o')) if matches!(cur.peek_at(1), Some('-' | '.')) => Some(c),
        _ => None,
    };
    let mut i = cur.pos + usize::from(mark.is_some());
    if cur.char_at(i) == Some('-') {
        i += 1;
    }
    let dots_start = i;
    while cur.char_at(i) == Some('.') {
        i += 1;
    }
    let dots = (i - dots_start) as u32;
    if dots > 0 && cur.char_at(i) == Some('-') {
        i += 1;
        let end = match cur.char_at(i) {
            Some(c @ ('x' | 'o' | '>')) => {
                i += 1;
                c
            }
            _ => '-',
        };
        cur.pos = i;
        let mut l = finish(mark, end, 0, Stroke::Dotted);
        l.length = dots;
        return Some(l);
    }
    cur.pos = at;
    None
}

/// Heads and length from the parts mermaid's `destructEndLink` looks at: a start mark counts
/// as a head only when it matches the end (`<` with `>`, `x` with `x`, `o` with `o`);
/// otherwise it is part of the line.
fn finish(mark: Option<char>, end_char: char, run: u32, stroke: Stroke) -> Link {
    let end = head_of(end_char);
    let (start, extra) = match mark {
        Some(m) if end != Head::None && head_of(m) == end => (end, 0),
        Some(_) => (Head::None, 1),
        None => (Head::None, 0),
    };
    // `-->` and `---` have length 1: the line without its end character, minus one.
    let length = (run + extra).saturating_sub(1);
    Link {
        start,
        end,
        stroke,
        length,
        label: None,
    }
}

/// `-- text -->`, `== text ==>`, `-. text .->` (and their start marks).
fn text_link(cur: &mut Cursor) -> Result<Option<Link>, ConvertError> {
    let at = cur.pos;
    let opens: [(&str, Stroke); 3] = [
        ("--", Stroke::Normal),
        ("==", Stroke::Thick),
        ("-.", Stroke::Dotted),
    ];
    for (open, stroke) in opens {
        let first = open.chars().next().unwrap_or('-');
        let mark = start_mark(cur, first);
        let body = cur.pos + usize::from(mark.is_some());
        if !cur.starts_with_at(body, open) {
            continue;
        }
        cur.pos = body + 2;
        cur.skip_spaces();
        let label = if cur.peek() == Some('"') {
            let l = string(cur)?;
            cur.skip_blank();
            Some(l)
        } else {
            None
        };
        let text_start = cur.pos;
        loop {
            if cur.eof() {
                return Err(cur.error_at(
                    at,
                    &format!(
                        "the link text after `{open}` is never followed by the rest of the link"
                    ),
                ));
            }
            let here = cur.pos;
            if let Some(close) = closing(cur, stroke) {
                let mut l = close;
                if let Some(m) = mark {
                    let h = head_of(m);
                    if h != Head::None {
                        l.start = h;
                    }
                }
                l.label = match label {
                    Some(lb) => Some(lb),
                    None => Some(Label {
                        text: cur.slice(text_start, here),
                        markdown: false,
                    }),
                };
                return Ok(Some(l));
            }
            if label.is_some() {
                return Err(cur.error(&format!(
                    "expected the rest of the link after its quoted text, found {}",
                    cur.describe_here()
                )));
            }
            cur.pos = here + 1;
        }
    }
    cur.pos = at;
    Ok(None)
}

/// The closing part of a link with text, if it starts at the cursor.
fn closing(cur: &mut Cursor, stroke: Stroke) -> Option<Link> {
    let at = cur.pos;
    match stroke {
        Stroke::Normal | Stroke::Thick => {
            let line = if stroke == Stroke::Thick { '=' } else { '-' };
            let mut i = cur.pos;
            while cur.char_at(i) == Some(line) {
                i += 1;
            }
            let n = (i - at) as u32;
            if n < 2 {
                return None;
            }
            match cur.char_at(i) {
                Some(c @ ('x' | 'o' | '>')) => {
                    cur.pos = i + 1;
                    Some(finish(None, c, n, stroke))
                }
                _ if n >= 3 => {
                    cur.pos = i;
                    Some(finish(None, line, n - 1, stroke))
                }
                _ => None,
            }
        }
        Stroke::Dotted => {
            let mut i = cur.pos;
            if cur.char_at(i) == Some('-') {
                i += 1;
            }
            let dots_start = i;
            while cur.char_at(i) == Some('.') {
                i += 1;
            }
            let dots = (i - dots_start) as u32;
            if dots == 0 || cur.char_at(i) != Some('-') {
                return None;
            }
            i += 1;
            let end = match cur.char_at(i) {
                Some(c @ ('x' | 'o' | '>')) => {
                    i += 1;
                    c
                }
                _ => '-',
            };
            cur.pos = i;
            let mut l = finish(None, end, 0, Stroke::Dotted);
            l.length = dots;
            Some(l)
        }
        Stroke::Invisible => None,
    }
}
