//! Scores detection on the corpus's scanned forms against hand-made truth
//! (`tests/truth/*.json`): each file is imported with the real importer, its blanks found,
//! and detections matched one to one with the truth (overlap of at least 0.3, or one holding
//! the other's centre). Shared by `tests/scanned.rs` and `examples/score.rs`.

use std::path::Path;
use std::time::{Duration, Instant};

use quire_sdk::{Asset, Document, Field, FieldType, ImportRequest, Rect};

pub fn corpus() -> std::path::PathBuf {
    quire_sdk::corpus_dir()
}

/// A blank a person would fill, from the truth files.
#[derive(Debug, Clone)]
pub struct Truth {
    pub kind: String,
    pub rect: Rect,
    pub what: String,
}

/// How a file was found.
#[derive(Debug, Clone)]
pub struct Score {
    pub name: String,
    pub truth: usize,
    pub found: usize,
    pub matched: usize,
    /// Matched pairs that agree on being a tick box or not.
    pub kind_agrees: usize,
    pub time: Duration,
    pub missed: Vec<Truth>,
    pub extra: Vec<Field>,
}

impl Score {
    pub fn precision(&self) -> f64 {
        ratio(self.matched, self.found)
    }
    pub fn recall(&self) -> f64 {
        ratio(self.matched, self.truth)
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        1.0
    } else {
        a as f64 / b as f64
    }
}

/// The scanned forms, how to import each, and the truth file that describes it.
pub struct Case {
    pub name: &'static str,
    pub path: &'static str,
    pub media_type: &'static str,
    pub truth: &'static str,
    /// The truth was annotated on the picture turned upright by its EXIF orientation 6, but
    /// the page holds the picture as stored: a quarter turn anticlockwise of the annotation.
    /// The page's `rotate` (90) shows it upright again; detection reads it that way but, as
    /// the model, answers in the unrotated page, so the truth is mapped there too.
    pub stored_sideways: bool,
}

pub const CASES: &[Case] = &[
    Case {
        name: "employment-application",
        path: "images/form-employment-application.png",
        media_type: "image/png",
        truth: "form-employment-application",
        stored_sideways: false,
    },
    Case {
        name: "verification-of-employment",
        path: "images/form-verification-of-employment.png",
        media_type: "image/png",
        truth: "form-verification-of-employment",
        stored_sideways: false,
    },
    Case {
        name: "vaccination-card",
        path: "images/form-vaccination-card.png",
        media_type: "image/png",
        truth: "form-vaccination-card",
        stored_sideways: false,
    },
    Case {
        name: "cms1500-claim",
        path: "images/form-cms1500-claim.png",
        media_type: "image/png",
        truth: "form-cms1500-claim",
        stored_sideways: false,
    },
    Case {
        name: "patient-intake-photo",
        path: "images/form-patient-intake-photo.jpg",
        media_type: "image/jpeg",
        truth: "form-patient-intake-photo",
        stored_sideways: false,
    },
    // The same photo's JPEG wrapped in a /Rotate 90 page, which viewers draw upright by the
    // page's rotation, not by the EXIF inside (the importer sets that to 1). Its truth is the
    // photo's, turned back to the stored pixels and mapped onto the picture's frame in the
    // unrotated page space where fields are kept.
    Case {
        name: "scanned-form-patient-intake.pdf",
        path: "pdf/scanned-form-patient-intake.pdf",
        media_type: "application/pdf",
        truth: "form-patient-intake-photo",
        stored_sideways: true,
    },
];

/// The document and assets the real importer makes of a corpus file.
pub fn import(case: &Case) -> (Document, Vec<Asset>) {
    let path = corpus().join(case.path);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let request = ImportRequest {
        bytes,
        media_type: case.media_type.into(),
        images: Vec::new(),
        options: Vec::new(),
    };
    let imported = if case.media_type == "application/pdf" {
        quire_pdf::import_pdf(request)
    } else {
        quire_image::convert(request)
    }
    .unwrap_or_else(|e| panic!("{}: {e}", case.path));
    (imported.document, imported.assets)
}

/// The truth of `case`, in the page points of `document`'s first page.
pub fn truth(case: &Case, document: &Document) -> Vec<Truth> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/truth")
        .join(format!("{}.json", case.truth));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let json: serde_json::Value = serde_json::from_str(&text).expect("truth is JSON");
    let size = &json["page_size"];
    let (tw, th) = (
        size[0].as_f64().expect("page width"),
        size[1].as_f64().expect("page height"),
    );
    // Annotated on the upright picture; its page may place the picture differently.
    let frame = document.pages[0]
        .shapes
        .iter()
        .find_map(|s| match s {
            quire_sdk::Shape::Image(i) => Some(i.frame),
            _ => None,
        })
        .expect("a scanned page holds its picture");
    json["fields"]
        .as_array()
        .expect("fields")
        .iter()
        .map(|f| {
            let n = |k: &str| f[k].as_f64().expect("a number");
            let upright = Rect::new(n("x"), n("y"), n("w"), n("h"));
            let (r, (pw, ph)) = if case.stored_sideways {
                (unturn_exif6(upright, tw), (th, tw))
            } else {
                (upright, (tw, th))
            };
            let (sx, sy) = (frame.w / pw, frame.h / ph);
            Truth {
                kind: f["type"].as_str().expect("a type").to_string(),
                rect: Rect::new(frame.x + r.x * sx, frame.y + r.y * sy, r.w * sx, r.h * sy),
                what: f["what"].as_str().unwrap_or("").to_string(),
            }
        })
        .collect()
}

/// A rectangle on a picture shown upright by EXIF orientation 6 (the stored pixels turned a
/// quarter clockwise), `upright_width` wide, as it lies on the stored pixels.
pub fn unturn_exif6(r: Rect, upright_width: f64) -> Rect {
    Rect::new(r.y, upright_width - r.x - r.w, r.h, r.w)
}

fn iou(a: &Rect, b: &Rect) -> f64 {
    let w = a.right().min(b.right()) - a.x.max(b.x);
    let h = a.bottom().min(b.bottom()) - a.y.max(b.y);
    let inter = if w > 0.0 && h > 0.0 { w * h } else { 0.0 };
    let union = a.w * a.h + b.w * b.h - inter;
    if union > 0.0 {
        inter / union
    } else {
        0.0
    }
}

fn holds_centre(a: &Rect, b: &Rect) -> bool {
    let c = b.center();
    c.x >= a.x && c.x <= a.right() && c.y >= a.y && c.y <= a.bottom()
}

/// Whether a detection counts for a truth blank.
pub fn matches(t: &Rect, d: &Rect) -> bool {
    iou(t, d) >= 0.3 || holds_centre(t, d) || holds_centre(d, t)
}

/// Detects the blanks of `case` and scores them.
pub fn score(case: &Case) -> Score {
    let (document, assets) = import(case);
    let truth = truth(case, &document);
    let start = Instant::now();
    let found = quire_detect::detect(&document, &assets, None).expect("detection runs");
    let time = start.elapsed();
    let fields = found.fields;
    // One to one, best overlaps first.
    let mut pairs: Vec<(f64, usize, usize)> = Vec::new();
    for (i, t) in truth.iter().enumerate() {
        for (j, d) in fields.iter().enumerate() {
            if matches(&t.rect, &d.frame) {
                pairs.push((iou(&t.rect, &d.frame), i, j));
            }
        }
    }
    pairs.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut truth_used = vec![false; truth.len()];
    let mut found_used = vec![false; fields.len()];
    let (mut matched, mut kind_agrees) = (0, 0);
    for (_, i, j) in pairs {
        if truth_used[i] || found_used[j] {
            continue;
        }
        truth_used[i] = true;
        found_used[j] = true;
        matched += 1;
        let truth_box = truth[i].kind == "checkbox";
        let found_box = fields[j].field_type == FieldType::Checkbox;
        if truth_box == found_box {
            kind_agrees += 1;
        }
    }
    Score {
        name: case.name.to_string(),
        truth: truth.len(),
        found: fields.len(),
        matched,
        kind_agrees,
        time,
        missed: truth
            .iter()
            .zip(&truth_used)
            .filter(|(_, &u)| !u)
            .map(|(t, _)| t.clone())
            .collect(),
        extra: fields
            .iter()
            .zip(&found_used)
            .filter(|(_, &u)| !u)
            .map(|(f, _)| f.clone())
            .collect(),
    }
}

/// The table of scores, one row per file and a total.
pub fn table(scores: &[Score]) -> String {
    let mut s = format!(
        "{:<34} {:>5} {:>5} {:>5} {:>9} {:>7} {:>7} {:>8}\n",
        "file", "truth", "found", "match", "precision", "recall", "kind ok", "time"
    );
    let line = |name: &str, t: usize, f: usize, m: usize, k: usize, time: Duration| {
        format!(
            "{:<34} {:>5} {:>5} {:>5} {:>9.2} {:>7.2} {:>7} {:>6}ms\n",
            name,
            t,
            f,
            m,
            ratio(m, f),
            ratio(m, t),
            k,
            time.as_millis()
        )
    };
    for sc in scores {
        s += &line(
            &sc.name,
            sc.truth,
            sc.found,
            sc.matched,
            sc.kind_agrees,
            sc.time,
        );
    }
    let sum = |f: fn(&Score) -> usize| scores.iter().map(f).sum::<usize>();
    s += &line(
        "overall",
        sum(|s| s.truth),
        sum(|s| s.found),
        sum(|s| s.matched),
        sum(|s| s.kind_agrees),
        scores.iter().map(|s| s.time).sum(),
    );
    s
}
