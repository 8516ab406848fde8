//! `quire convert IN --to FORMAT`: the whole pipeline on one file, no server. Plugin authors
//! use it to try a converter; it prints what each sandboxed stage cost.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context};
use quire_sdk::validate;

use crate::app::App;
use crate::cli::model_assets;
use crate::file_kinds;
use crate::runtime::{CallStats, Converted};

#[derive(clap::Args, Debug)]
pub struct ConvertArgs {
    /// Input file; its extension names its format (`-` reads standard input, with --from).
    pub input: PathBuf,
    /// Output format: an extension such as pdf, png, svg, mmd, drawio, or json for the model.
    #[arg(long)]
    pub to: String,
    /// Input format when the extension does not say it (an extension or a media type).
    #[arg(long)]
    pub from: Option<String>,
    /// Output file; standard output when absent.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// One page (1-based) for page formats.
    #[arg(long)]
    pub page: Option<u32>,
    /// Resolution of picture outputs.
    #[arg(long)]
    pub dpi: Option<u32>,
    /// Importer options, `name=value` (e.g. mode=image, password=...).
    #[arg(long = "option", value_parser = parse_option)]
    pub options: Vec<(String, String)>,
}

fn parse_option(s: &str) -> Result<(String, String), String> {
    s.split_once('=')
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .ok_or_else(|| format!("`{s}` is not name=value"))
}

fn report<T>(stage: &str, c: &Converted<T>) {
    let CallStats {
        fuel_used,
        peak_memory,
        elapsed,
    } = c.stats;
    let fuel = match fuel_used {
        Some(units) => format!("fuel {units}"),
        None => "no fuel metering (plugin directory)".to_string(),
    };
    eprintln!(
        "{stage}: {} in {:.1} ms, {fuel}, peak memory {:.1} MiB",
        c.plugin,
        elapsed.as_secs_f64() * 1000.0,
        peak_memory as f64 / (1 << 20) as f64
    );
    for w in &c.warnings {
        eprintln!("warning: {w}");
    }
}

pub async fn run(app: &App, args: ConvertArgs) -> anyhow::Result<()> {
    let bytes = if args.input.as_os_str() == "-" {
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut buf)?;
        buf
    } else {
        std::fs::read(&args.input).with_context(|| format!("reading {}", args.input.display()))?
    };
    let from = match &args.from {
        Some(f) => f.clone(),
        None => args
            .input
            .extension()
            .map(|e| e.to_string_lossy().to_lowercase())
            .context("the input has no extension; say its format with --from")?,
    };
    let mut page = args.page;
    let (document, assets) = if from == "json" || from == "application/json" {
        let text = String::from_utf8(bytes).context("the model is not UTF-8")?;
        let assets = if args.input.as_os_str() == "-" {
            Vec::new()
        } else {
            model_assets::read(&model_assets::dir_of(&args.input))?
        };
        let names = assets.iter().map(|a| a.name.as_str());
        (validate::parse_and_check(&text, names)?, assets)
    } else {
        let media_type = if file_kinds::is_generic_xml(&from) {
            file_kinds::sniff_xml(&bytes)
                .context("the XML file is neither a draw.io diagram nor an SVG picture (its root element says which); say its format with --from")?
                .to_string()
        } else {
            let extension = file_kinds::canonical_extension(&from);
            app.plugins
                .formats(false)
                .into_iter()
                .find(|f| f.extension == extension || f.media_type == from)
                .map(|f| f.media_type)
                .unwrap_or(from)
        };
        let mut options = args.options.clone();
        // One page of a long document: an importer that can read that page alone (the PDF
        // one) need not read the others; the page is then page 1 of what it gives.
        if let Some(n) = args.page.filter(|_| args.to != "json") {
            if !options.iter().any(|(k, _)| k == "page")
                && app.plugins.import_option(&media_type, "page")
            {
                options.push(("page".into(), n.to_string()));
                page = Some(1);
            }
        }
        let imported = app
            .plugins
            .import(bytes, &media_type, Vec::new(), options)
            .await?;
        report("import", &imported);
        (imported.value.document, imported.value.assets)
    };
    let out = if args.to == "json" {
        let mut json = serde_json::to_vec_pretty(&document)?;
        json.push(b'\n');
        match &args.output {
            Some(path) => model_assets::write(&model_assets::dir_of(path), &assets)?,
            None if !assets.is_empty() => eprintln!(
                "warning: the model's {} picture(s) are written only beside an output file (-o)",
                assets.len()
            ),
            None => {}
        }
        json
    } else {
        let exported = app
            .plugins
            .export(&document, &assets, &args.to, page, args.dpi)
            .await?;
        report("export", &exported);
        for (k, v) in &exported.value.headers {
            eprintln!("{k}: {v}");
        }
        exported.value.bytes
    };
    match &args.output {
        Some(path) => {
            std::fs::write(path, &out).with_context(|| format!("writing {}", path.display()))?
        }
        None => {
            if out.is_empty() {
                bail!("the converter produced no bytes");
            }
            std::io::stdout().write_all(&out)?
        }
    }
    Ok(())
}
