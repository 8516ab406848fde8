//! What the fuzz targets call: each importer's native entry point on arbitrary bytes, and
//! every exporter on a model that passed `validate` (the only models the host hands them).
//! A converter may refuse any input with an error; it may not panic, hang or run away with
//! memory (libFuzzer's -timeout and -rss_limit_mb catch the last two).

use quire_sdk::{validate, Converter, ExportRequest, ImportRequest};

fn request(data: &[u8], media_type: &str) -> ImportRequest {
    ImportRequest {
        bytes: data.to_vec(),
        media_type: media_type.to_string(),
        images: Vec::new(),
        options: Vec::new(),
    }
}

/// Runs the importer `name` on `data`; a model it returns must pass `validate`, since the
/// host would store it.
pub fn import(name: &str, data: &[u8]) {
    let imported = match name {
        "markdown" => quire_markdown::Markdown::import(request(data, "text/markdown")),
        "html" => quire_html::HtmlImporter::import(request(data, "text/html")),
        "image" => quire_image::ImageImporter::import(request(data, "image/png")),
        "pdf" => quire_pdf::Pdf::import(request(data, "application/pdf")),
        "svg" => quire_svg::Svg::import(request(data, "image/svg+xml")),
        "mermaid" => quire_mermaid::Mermaid::import(request(data, "text/vnd.mermaid")),
        "drawio" => quire_drawio::Drawio::import(request(data, "application/vnd.jgraph.mxfile")),
        "vsdx" => quire_vsdx::Vsdx::import(request(data, "application/vnd.ms-visio.drawing")),
        other => panic!("no importer {other}"),
    };
    if let Ok(imported) = imported {
        let names: Vec<&str> = imported.assets.iter().map(|a| a.name.as_str()).collect();
        if let Err(e) = validate::check(&imported.document, names) {
            panic!("the {name} importer made a model the host would refuse: {e}");
        }
    }
}

/// Parses `data` as a model; when it is one the host would accept, hands it to every
/// exporter for its first page.
pub fn export_model(data: &[u8]) {
    let Ok(json) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(document) = validate::parse_and_check(json, []) else {
        return;
    };
    let export = |media_type: &str| ExportRequest {
        document: document.clone(),
        assets: Vec::new(),
        media_type: media_type.to_string(),
        page: Some(1),
        dpi: Some(36),
        options: Vec::new(),
    };
    let _ = quire_pdf::Pdf::export(export("application/pdf"));
    let _ = quire_svg::Svg::export(export("image/svg+xml"));
    let _ = quire_png::Png::export(export("image/png"));
    let _ = quire_mermaid::Mermaid::export(export("text/vnd.mermaid"));
    let _ = quire_drawio::Drawio::export(export("application/vnd.jgraph.mxfile"));
}
