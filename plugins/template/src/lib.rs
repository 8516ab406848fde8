//! `{{name}}`: a Quire converter that reads CSV (RFC 4180: quoted fields, doubled quotes,
//! line breaks inside quotes) into a document with one table, the first row as its header.
//!
//! Build the component:   cargo build --release --target wasm32-wasip2
//! Test it natively:      cargo test
//! Install it:            quire plugins install target/wasm32-wasip2/release/{{crate_file}}.wasm
//!
//! The SDK lays the table out on pages (`flow::layout`); the host validates the model and
//! draws it as PDF, PNG or SVG with the shipped exporters. See docs/plugins.md.

use quire_sdk::flow::{self, Block, Cell, Inline, PageSetup};
use quire_sdk::{ConvertError, Converter, Document, Format, ImportRequest, Imported, Kind};
use quire_sdk::{OptionSpec, PluginInfo};

/// Inputs past this are refused before parsing (the host maps `TooLarge` to 413).
const MAX_INPUT: usize = 4 << 20;
/// Rows and columns past these are refused rather than laid out on thousands of pages.
const MAX_ROWS: usize = 10_000;
const MAX_COLUMNS: usize = 64;

pub struct Plugin;

impl Converter for Plugin {
    fn describe() -> PluginInfo {
        PluginInfo {
            name: "{{name}}".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            imports: vec![Format::new("text/csv", "csv")],
            exports: Vec::new(),
            options: vec![OptionSpec {
                name: "title".into(),
                description: "Document title".into(),
            }],
        }
    }

    fn import(request: ImportRequest) -> Result<Imported, ConvertError> {
        if request.bytes.len() > MAX_INPUT {
            return Err(ConvertError::TooLarge(format!(
                "the CSV is {} bytes; at most {MAX_INPUT} are accepted",
                request.bytes.len()
            )));
        }
        let text = std::str::from_utf8(&request.bytes)
            .map_err(|e| ConvertError::Damaged(format!("the CSV is not UTF-8: {e}")))?;
        let rows = parse(text.strip_prefix('\u{feff}').unwrap_or(text))?;
        if rows.is_empty() {
            return Err(ConvertError::Damaged("the CSV has no rows".into()));
        }
        let cells = |row: Vec<String>| {
            row.into_iter()
                .map(|c| Cell::new(vec![Inline::plain(c)]))
                .collect()
        };
        // The first row is the header.
        let table = Block::Table {
            aligns: Vec::new(),
            rows: rows.into_iter().map(cells).collect(),
            head_rows: 1,
            ruled: true,
            width: None,
            frame: None,
        };
        let (pages, warnings) = flow::layout(&[table], &PageSetup::default());
        let mut document = Document::new(Kind::Paged);
        document.title = request.option("title").map(str::to_string);
        document.pages = pages;
        Ok(Imported {
            document,
            assets: Vec::new(),
            warnings,
        })
    }
}

// The component's exports exist only in the wasm build; a native cdylib cannot carry
// their names (`quire:converter/importer@1.0.0#import`), and native tests call `Plugin`
// directly.
quire_sdk::export_converter!(Plugin);

/// Splits CSV into rows of fields. Every loop is bounded by the input's length and the row
/// and column limits.
fn parse(text: &str) -> Result<Vec<Vec<String>>, ConvertError> {
    let too_many = |what: &str, max: usize| {
        ConvertError::TooLarge(format!("the CSV has more than {max} {what}"))
    };
    let (mut rows, mut row, mut field) = (Vec::new(), Vec::new(), String::new());
    let (mut quoted, mut chars) = (false, text.chars().peekable());
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') if field.is_empty() => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut field)),
            (false, '\r') if chars.peek() == Some(&'\n') => {}
            (false, '\n') => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => field.push(c),
        }
        if row.len() > MAX_COLUMNS {
            return Err(too_many("columns", MAX_COLUMNS));
        }
        if rows.len() > MAX_ROWS {
            return Err(too_many("rows", MAX_ROWS));
        }
    }
    if quoted {
        return Err(ConvertError::Damaged("a quoted field is never closed".into()));
    }
    if !field.is_empty() || !row.is_empty() {
        row.push(field);
        rows.push(row);
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn import(csv: impl AsRef<[u8]>) -> Result<Imported, ConvertError> {
        Plugin::import(ImportRequest {
            bytes: csv.as_ref().to_vec(),
            media_type: "text/csv".into(),
            ..ImportRequest::default()
        })
    }

    #[test]
    fn quoted_fields_keep_commas_quotes_and_line_breaks() {
        let rows = parse("a,\"b, \"\"c\"\"\",\"d\ne\"\r\n1,2,3\n").unwrap();
        assert_eq!(rows, [vec!["a", "b, \"c\"", "d\ne"], vec!["1", "2", "3"]]);
    }

    #[test]
    fn a_table_becomes_a_page_with_every_cell() {
        let imported = import("name,qty\napples,3\npears,5\n").unwrap();
        assert_eq!(imported.document.pages.len(), 1);
        let text: String = imported
            .document
            .shapes()
            .filter_map(|s| match s {
                quire_sdk::Shape::Text(t) => Some(t.text.runs.iter().map(|r| r.text.as_str())),
                _ => None,
            })
            .flatten()
            .collect();
        for cell in ["name", "qty", "apples", "3", "pears", "5"] {
            assert!(text.contains(cell), "{cell} missing from {text:?}");
        }
    }

    #[test]
    fn damage_is_refused_with_a_reason() {
        assert!(matches!(import("a,\"b\n"), Err(ConvertError::Damaged(_))));
        assert!(matches!(import(""), Err(ConvertError::Damaged(_))));
        assert!(matches!(import(b"a,\xff\n"), Err(ConvertError::Damaged(_))));
        let wide = format!("{}\n", ",".repeat(MAX_COLUMNS + 1));
        assert!(matches!(import(wide), Err(ConvertError::TooLarge(_))));
    }
}
