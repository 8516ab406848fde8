//! The HTML component: [`quire_html_read`]'s importer behind the converter interface. The
//! reader is a library of its own so the Markdown component can read its raw HTML with it
//! (component exports in a shared crate would be defined twice).

pub use quire_html_read::*;
use quire_sdk::{ConvertError, Converter, Format, ImportRequest, Imported, OptionSpec, PluginInfo};

pub struct HtmlImporter;

impl Converter for HtmlImporter {
    fn describe() -> PluginInfo {
        PluginInfo {
            name: "html".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            imports: vec![Format::new("text/html", "html")],
            exports: Vec::new(),
            options: vec![
                OptionSpec {
                    name: "title".into(),
                    description: "Document title; overrides the page's <title>".into(),
                },
                OptionSpec {
                    name: "paper".into(),
                    description: "Page size: `a4` (default) or `letter`".into(),
                },
            ],
        }
    }

    fn import(request: ImportRequest) -> Result<Imported, ConvertError> {
        convert(request)
    }
}

quire_sdk::export_converter!(HtmlImporter);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describes_itself() {
        let info = HtmlImporter::describe();
        assert_eq!(
            (info.name.as_str(), info.version.as_str()),
            ("html", "1.5.3")
        );
        assert_eq!(info.imports, [Format::new("text/html", "html")]);
        assert!(info.exports.is_empty());
    }
}
