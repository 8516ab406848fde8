//! `quire fonts list [--json]` and `quire fonts which TEXT`: the font library of this host as
//! `QUIRE_FONTS` and `QUIRE_FONTS_DEFAULTS` make it, with no database and no server.

use quire_fonts::Class;

use crate::config::Config;
use crate::fonts::{file_label, Asked, Choice, Fonts, Listing};

#[derive(clap::Subcommand, Debug)]
pub enum FontsCommand {
    /// Every font family converters can draw with: its styles, the scripts it covers
    /// (ISO 15924), its files and whether they came from QUIRE_FONTS or the default set;
    /// then the library's digest, the scripts no font covers and the files left out.
    List {
        /// One JSON object instead of the table.
        #[arg(long)]
        json: bool,
    },
    /// The font each character of TEXT (each distinct one, once) is drawn with in a run of
    /// the given style: the standard PDF font when it has the character, else the library
    /// face (family, style, file), else none (drawn as the missing-glyph box).
    Which {
        /// The characters to explain, e.g. a line copied from the document.
        text: String,
        /// A bold run.
        #[arg(long)]
        bold: bool,
        /// An italic run.
        #[arg(long)]
        italic: bool,
        /// A serif run (Times), rather than sans (Helvetica).
        #[arg(long, conflicts_with = "mono")]
        serif: bool,
        /// A monospaced run (Courier).
        #[arg(long)]
        mono: bool,
        /// The text's language (BCP 47: ja, ko, zh-Hant, ...), which picks the regional
        /// forms of Han characters. Converters pass none yet.
        #[arg(long, default_value = "")]
        lang: String,
        /// One JSON object, `{"characters": [...]}`.
        #[arg(long)]
        json: bool,
    },
}

pub fn run(config: &Config, cmd: FontsCommand) -> anyhow::Result<()> {
    let fonts = Fonts::from_config(config);
    match cmd {
        FontsCommand::List { json } => {
            let listing = fonts.listing();
            if json {
                emit(serde_json::to_string_pretty(&listing)? + "\n")?;
            } else {
                emit(listing_text(&listing))?;
            }
        }
        FontsCommand::Which {
            text,
            bold,
            italic,
            serif,
            mono,
            lang,
            json,
        } => {
            let class = if mono {
                Class::Mono
            } else if serif {
                Class::Serif
            } else {
                Class::Sans
            };
            let choices = fonts.which(
                &text,
                Asked {
                    class,
                    bold,
                    italic,
                    lang: &lang,
                },
            );
            if json {
                let object = serde_json::json!({ "characters": choices });
                emit(serde_json::to_string_pretty(&object)? + "\n")?;
            } else {
                emit(which_text(&choices))?;
            }
        }
    }
    Ok(())
}

/// Writes `text` to stdout. A reader that stops early (`quire fonts list | head`) is not an
/// error.
fn emit(text: String) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}

/// One line per family (name, styles, scripts, origin), its files indented below it, then
/// the totals.
fn listing_text(listing: &Listing) -> String {
    let mut out = String::new();
    let width = |f: &dyn Fn(&crate::fonts::ListedFamily) -> usize| {
        listing.families.iter().map(f).max().unwrap_or(0)
    };
    let name_w = width(&|f| f.family.chars().count()).max("FAMILY".len());
    let styles_w = width(&|f| f.styles.join(", ").len()).max("STYLES".len());
    let scripts_w = width(&|f| f.scripts.join(" ").len()).max("SCRIPTS".len());
    out.push_str(&format!(
        "{:name_w$}  {:styles_w$}  {:scripts_w$}  FROM\n",
        "FAMILY", "STYLES", "SCRIPTS"
    ));
    for family in &listing.families {
        let from: Vec<&str> = family.from.iter().map(|o| o.label()).collect();
        out.push_str(&format!(
            "{:name_w$}  {:styles_w$}  {:scripts_w$}  {}\n",
            family.family,
            family.styles.join(", "),
            if family.scripts.is_empty() {
                "-".to_string()
            } else {
                family.scripts.join(" ")
            },
            from.join(", ")
        ));
        for file in &family.files {
            out.push_str(&format!(
                "    {:<11}  {:<11}  {}\n",
                file.style,
                file.from.label(),
                file_label(&file.path, file.index)
            ));
        }
    }
    out.push('\n');
    out.push_str(&format!("digest   {}\n", listing.digest));
    out.push_str(&format!(
        "faces    {} in {} families\n",
        listing.faces,
        listing.families.len()
    ));
    out.push_str(&format!(
        "missing  {}\n",
        if listing.missing.is_empty() {
            "none: every script of the fallback table has a face".to_string()
        } else {
            format!(
                "{} (little or none of their text can be drawn: PDFs show `?`)",
                listing.missing.join(" ")
            )
        }
    ));
    out.push_str(&format!("skipped  {}\n", listing.skipped.len()));
    for skipped in &listing.skipped {
        out.push_str(&format!("    {}: {}\n", skipped.path, skipped.reason));
    }
    out
}

/// One line per character: code point, the character, its script, the font.
fn which_text(choices: &[Choice]) -> String {
    let mut out = String::new();
    for c in choices {
        let font = match (&c.standard, &c.face) {
            (Some(name), _) => format!("{name} (standard PDF font, not embedded)"),
            (None, Some(face)) => format!(
                "{} {}  {}  {}",
                face.family,
                face.style,
                file_label(&face.path, face.index),
                face.from.label()
            ),
            (None, None) => {
                "none: no installed font has it (drawn as the missing-glyph box)".to_string()
            }
        };
        out.push_str(&format!("{:<8}  {}  {}  {font}\n", c.code, c.ch, c.script));
    }
    out
}
