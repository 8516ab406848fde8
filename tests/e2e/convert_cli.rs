//! `quire convert`: the whole pipeline from the command line on a fresh data directory,
//! checked by independent tools (qpdf, pdftotext).

use std::process::Command;

use crate::common::*;

fn quire(data: &std::path::Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_quire"));
    cmd.env("QUIRE_DATA", data)
        .env("QUIRE_PLUGINS_DIR", plugins_dir())
        .env("QUIRE_CACHE_DIR", crate::server::compile_cache())
        .env("QUIRE_LOG", "warn");
    cmd
}

/// Runs `quire convert INPUT --to TO [-o OUT]` on the data directory `data`.
fn convert(
    data: &std::path::Path,
    input: impl AsRef<std::ffi::OsStr>,
    to: &str,
    out: Option<&std::path::Path>,
) -> std::process::Output {
    let mut cmd = quire(data);
    cmd.arg("convert").arg(input).args(["--to", to]);
    if let Some(out) = out {
        cmd.arg("-o").arg(out);
    }
    cmd.output().unwrap()
}

#[test]
fn markdown_to_pdf_on_an_empty_data_directory() {
    let data = tempfile::tempdir().unwrap();
    let out = data.path().join("out.pdf");
    let run = convert(
        data.path(),
        corpus("markdown/pdfjs-getting-started.md"),
        "pdf",
        Some(&out),
    );
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    // It reports what each sandboxed stage cost.
    assert!(
        stderr.contains("import: markdown@") && stderr.contains("export: pdf@"),
        "{stderr}"
    );
    assert!(
        stderr.contains("no fuel metering") && stderr.contains("peak memory "),
        "{stderr}"
    );

    run_tool(Command::new("qpdf").arg("--check").arg(&out));
    let text = run_tool(Command::new("pdftotext").arg(&out).arg("-"));
    let words = ["Getting Started", "Introduction", "Prebuilt", "viewer"];
    let mut at = 0;
    for w in words {
        let found = text[at..]
            .find(w)
            .unwrap_or_else(|| panic!("`{w}` missing or out of order in:\n{text}"));
        at += found;
    }
}

#[test]
fn markdown_to_model_json_and_back_through_the_model() {
    let data = tempfile::tempdir().unwrap();
    let model = data.path().join("doc.json");
    let status = quire(data.path())
        .arg("convert")
        .arg(corpus("markdown/mermaid-new-diagram-jison.md"))
        .args(["--to", "json", "-o"])
        .arg(&model)
        .status()
        .unwrap();
    assert!(status.success());
    let doc = quire_sdk::validate::parse_and_check(&std::fs::read_to_string(&model).unwrap(), [])
        .unwrap();
    assert!(!doc.pages.is_empty());
    // The model is itself an input.
    let pdf = data.path().join("again.pdf");
    let run = convert(data.path(), &model, "pdf", Some(&pdf));
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    run_tool(Command::new("qpdf").arg("--check").arg(&pdf));
}

#[test]
fn an_unknown_format_names_what_is_served() {
    let data = tempfile::tempdir().unwrap();
    let input = data.path().join("x.doc");
    std::fs::write(&input, b"hello").unwrap();
    let run = convert(data.path(), &input, "pdf", None);
    assert!(!run.status.success());
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("doc is not a format Quire can read") && stderr.contains("text/markdown"),
        "{stderr}"
    );
}

#[test]
fn one_page_of_a_long_pdf_reads_that_page_alone_and_draws_it_the_same() {
    let data = tempfile::tempdir().unwrap();
    let convert = |input: &std::path::Path, to: &[&str], out: &std::path::Path| {
        let run = quire(data.path())
            .arg("convert")
            .arg(input)
            .args(to)
            .arg("-o")
            .arg(out)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
        assert!(run.status.success(), "{stderr}");
        stderr
    };
    let pdf = data.path().join("spec.pdf");
    convert(
        &corpus("markdown/commonmark-spec.md"),
        &["--to", "pdf"],
        &pdf,
    );
    let pages = run_tool(Command::new("qpdf").arg("--show-npages").arg(&pdf));
    assert!(pages.trim().parse::<u32>().unwrap() > 50, "{pages}");

    // Straight from the PDF: only page 40 is read.
    let direct = data.path().join("direct.png");
    let said = convert(
        &pdf,
        &["--to", "png", "--page", "40", "--dpi", "40"],
        &direct,
    );
    assert!(said.contains("import: pdf@"), "{said}");
    // Through the whole document's model: every page is read, page 40 drawn.
    let model = data.path().join("spec.json");
    convert(&pdf, &["--to", "json"], &model);
    let whole = data.path().join("whole.png");
    convert(
        &model,
        &["--to", "png", "--page", "40", "--dpi", "40"],
        &whole,
    );

    let pixels = |path: &std::path::Path| {
        let mut reader =
            png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()))
                .read_info()
                .unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        (info.width, info.height, buf)
    };
    let (a, b) = (pixels(&direct), pixels(&whole));
    assert_eq!((a.0, a.1), (b.0, b.1), "the same page size");
    assert!(a.2.iter().any(|&p| p < 128), "page 40 has ink");
    assert!(a.2 == b.2, "page 40 is drawn alike both ways");
}

/// `quire convert` goes by the extension: other spellings of one (`.jpeg`, `.JPEG`) are the
/// declared one, and `.xml` is read by its root element (draw.io saves diagrams so).
#[test]
fn other_spellings_and_xml_files_are_converted() {
    let data = tempfile::tempdir().unwrap();
    for (source, saved_as) in [
        ("images/form-patient-intake-photo.jpg", "photo.JPEG"),
        ("images/form-patient-intake-photo.jpg", "photo.jpeg"),
        ("drawio/bpmn-example.drawio", "process.xml"),
        ("svg/resvg-entity-reference.svg", "picture.xml"),
    ] {
        let input = data.path().join(saved_as);
        std::fs::copy(corpus(source), &input).unwrap();
        let out = data.path().join(format!("{saved_as}.pdf"));
        let run = convert(data.path(), &input, "pdf", Some(&out));
        assert!(
            run.status.success(),
            "{saved_as}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        run_tool(Command::new("qpdf").arg("--check").arg(&out));
    }
    let other = data.path().join("feed.xml");
    std::fs::write(&other, "<?xml version=\"1.0\"?><rss/>").unwrap();
    let run = convert(data.path(), &other, "pdf", None);
    assert!(!run.status.success());
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("neither a draw.io diagram nor an SVG"),
        "{stderr}"
    );
}

/// A model written with `--to json` keeps its pictures beside it (`photo.assets/`), so it
/// can be edited and converted again: the PDF made from the model shows the picture.
#[test]
fn a_model_with_pictures_converts_again_from_its_directory() {
    let data = tempfile::tempdir().unwrap();
    let model = data.path().join("photo.json");
    let run = convert(
        data.path(),
        corpus("images/form-patient-intake-photo.jpg"),
        "json",
        Some(&model),
    );
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let pictures: Vec<_> = std::fs::read_dir(data.path().join("photo.assets"))
        .expect("the pictures' directory")
        .collect();
    assert_eq!(pictures.len(), 1, "{pictures:?}");

    let pdf = data.path().join("again.pdf");
    let run = convert(data.path(), &model, "pdf", Some(&pdf));
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let images = run_tool(Command::new("pdfimages").arg("-list").arg(&pdf));
    assert_eq!(images.lines().count(), 3, "one picture:\n{images}");

    // Without its directory the model is refused with the picture it misses.
    std::fs::rename(
        data.path().join("photo.assets"),
        data.path().join("elsewhere"),
    )
    .unwrap();
    let run = convert(data.path(), &model, "pdf", Some(&pdf));
    assert!(!run.status.success());
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("was not supplied"), "{stderr}");
}
