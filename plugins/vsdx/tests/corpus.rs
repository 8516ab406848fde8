//! Every Visio file of the corpus, imported and checked against an independent reading of
//! its parts (zip + roxmltree, relationships and master text resolved here): per page the
//! number of top-level shapes, the glued connector ends of `<Connects>`, and the number of
//! shapes with text.

use std::collections::{BTreeSet, HashMap};
use std::io::Read;
use std::path::{Path, PathBuf};

use quire_sdk::{ImportRequest, Imported, Shape, ShapeWalk};
use quire_vsdx::{import_vsdx, LABEL_SUFFIX};

fn corpus() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(quire_sdk::corpus_dir().join("vsdx"))
        .expect("the corpus is at ../shared/corpus/vsdx beside the repository")
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 13);
    files
}

struct Zip(zip::ZipArchive<std::fs::File>);

impl Zip {
    fn text(&mut self, name: &str) -> Option<String> {
        let mut f = self.0.by_name(name).ok()?;
        let mut s = String::new();
        f.read_to_string(&mut s).ok()?;
        Some(s)
    }

    /// Relationship id -> target part, resolved against the part's folder.
    fn rels(&mut self, part: &str) -> HashMap<String, String> {
        let (dir, file) = part.rsplit_once('/').unwrap_or(("", part));
        let Some(xml) = self.text(&format!("{dir}/_rels/{file}.rels")) else {
            return HashMap::new();
        };
        let doc = roxmltree::Document::parse(&xml).unwrap();
        doc.descendants()
            .filter(|n| n.has_tag_name("Relationship"))
            .map(|r| {
                let mut path: Vec<&str> = dir.split('/').collect();
                for seg in r.attribute("Target").unwrap().split('/') {
                    if seg == ".." {
                        path.pop();
                    } else {
                        path.push(seg);
                    }
                }
                (r.attribute("Id").unwrap().to_string(), path.join("/"))
            })
            .collect()
    }
}

fn rid<'a>(n: roxmltree::Node<'a, 'a>) -> Option<&'a str> {
    n.children()
        .find(|c| c.has_tag_name("Rel"))?
        .attributes()
        .find(|a| a.name() == "id")
        .map(|a| a.value())
}

/// Text of a `<Text>` element: every text node below it, in order.
fn text_of(shape: roxmltree::Node) -> Option<String> {
    let t = shape.children().find(|c| c.has_tag_name("Text"))?;
    Some(
        t.descendants()
            .filter(|d| d.is_text())
            .map(|d| d.text().unwrap_or(""))
            .collect(),
    )
}

fn child_shapes<'a>(n: roxmltree::Node<'a, 'a>) -> Vec<roxmltree::Node<'a, 'a>> {
    n.children()
        .find(|c| c.has_tag_name("Shapes"))
        .map(|s| s.children().filter(|c| c.has_tag_name("Shape")).collect())
        .unwrap_or_default()
}

#[derive(Debug, Default, PartialEq)]
struct Counts {
    top: usize,
    /// (connector id, 0 = begin / 1 = end, glued-to id)
    glued: BTreeSet<(String, u8, String)>,
    texts: usize,
}

/// A shape as far as text goes: where it inherits from, its own text, its sub-shapes.
struct S {
    id: String,
    master: Option<String>,
    master_shape: Option<String>,
    text: Option<String>,
    kids: Vec<S>,
}

impl S {
    fn of(n: roxmltree::Node) -> S {
        S {
            id: n.attribute("ID").unwrap_or("").to_string(),
            master: n.attribute("Master").map(str::to_string),
            master_shape: n.attribute("MasterShape").map(str::to_string),
            text: text_of(n),
            kids: child_shapes(n).into_iter().map(S::of).collect(),
        }
    }

    fn find<'a>(list: &'a [S], id: &str) -> Option<&'a S> {
        list.iter().find_map(|s| {
            if s.id == id {
                Some(s)
            } else {
                S::find(&s.kids, id)
            }
        })
    }
}

/// Shapes with text, counting a shape's master text where it writes none.
fn count_texts(shapes: &[S], master: Option<&str>, masters: &HashMap<String, Vec<S>>) -> usize {
    let mut n = 0;
    for s in shapes {
        let m = s.master.as_deref().or(master);
        let tops = m.and_then(|m| masters.get(m));
        let base = match (tops, &s.master_shape) {
            (Some(t), Some(ms)) => S::find(t, ms),
            (Some(t), None) if s.master.is_some() && t.len() == 1 => t.first(),
            _ => None,
        };
        let text = s.text.as_ref().or(base.and_then(|b| b.text.as_ref()));
        if text.is_some_and(|t| !t.trim().is_empty()) {
            n += 1;
        }
        if !s.kids.is_empty() {
            n += count_texts(&s.kids, m, masters);
        } else if let Some(b) = base {
            // An instance listing no sub-shapes shows its master's.
            n += count_texts(&b.kids, None, masters);
        }
    }
    n
}

fn expected(path: &Path) -> Vec<Counts> {
    let mut z = Zip(zip::ZipArchive::new(std::fs::File::open(path).unwrap()).unwrap());
    let doc_rels = z.rels("visio/document.xml");
    let target = |suffix: &str| doc_rels.values().find(|t| t.ends_with(suffix)).cloned();
    // Master id -> its top-level shapes.
    let mut masters: HashMap<String, Vec<S>> = HashMap::new();
    let masters_part = target("masters.xml").unwrap_or_default();
    let master_rels = z.rels(&masters_part);
    let masters_xml = z.text(&masters_part).unwrap_or_else(|| "<Masters/>".into());
    let masters_doc = roxmltree::Document::parse(&masters_xml).unwrap();
    for m in masters_doc
        .descendants()
        .filter(|n| n.has_tag_name("Master"))
    {
        let xml = z.text(&master_rels[rid(m).unwrap()]).unwrap();
        let doc = roxmltree::Document::parse(&xml).unwrap();
        masters.insert(
            m.attribute("ID").unwrap().to_string(),
            child_shapes(doc.root_element())
                .into_iter()
                .map(S::of)
                .collect(),
        );
    }
    let pages_part = target("pages.xml").unwrap();
    let page_rels = z.rels(&pages_part);
    let pages_xml = z.text(&pages_part).unwrap();
    let pages_doc = roxmltree::Document::parse(&pages_xml).unwrap();
    // Visio prints the foreground pages, each over the chain of background pages its
    // `BackPage` names (the farthest first); only-background drawings print those.
    struct VisioPage {
        id: Option<String>,
        background: bool,
        back_page: Option<String>,
        xml: String,
    }
    let visio_pages: Vec<VisioPage> = pages_doc
        .descendants()
        .filter(|n| n.has_tag_name("Page"))
        .map(|p| VisioPage {
            id: p.attribute("ID").map(str::to_string),
            background: p.attribute("Background") == Some("1"),
            back_page: p.attribute("BackPage").map(str::to_string),
            xml: z.text(&page_rels[rid(p).unwrap()]).unwrap(),
        })
        .collect();
    let printed: Vec<&VisioPage> = if visio_pages.iter().all(|p| p.background) {
        visio_pages.iter().collect()
    } else {
        visio_pages.iter().filter(|p| !p.background).collect()
    };
    let mut out = Vec::new();
    for (i, page) in printed.into_iter().enumerate() {
        let mut chain = vec![page];
        while let Some(back) = chain.last().unwrap().back_page.as_ref().and_then(|b| {
            visio_pages
                .iter()
                .find(|p| p.background && p.id.as_ref() == Some(b))
        }) {
            chain.push(back);
        }
        let mut c = Counts::default();
        for (k, p) in chain.iter().enumerate() {
            let prefix = match k {
                0 => format!("p{}", i + 1),
                _ => format!("p{}-b{}", i + 1, p.id.as_deref().unwrap()),
            };
            count_page(&p.xml, &prefix, &masters, &mut c);
        }
        out.push(c);
    }
    out
}

/// Adds one Visio page's shapes to `c`, their ids starting with `prefix`.
fn count_page(xml: &str, prefix: &str, masters: &HashMap<String, Vec<S>>, c: &mut Counts) {
    let doc = roxmltree::Document::parse(xml).unwrap();
    let tops = child_shapes(doc.root_element());
    c.top += tops.len();
    c.texts += count_texts(
        &tops.iter().map(|t| S::of(*t)).collect::<Vec<_>>(),
        None,
        masters,
    );
    // Glue from a group (a rack device glued into its rack by its begin and end
    // points) is placement, not a line: the model keeps such a shape as a group.
    let groups: BTreeSet<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("Shape") && n.attribute("Type") == Some("Group"))
        .filter_map(|n| n.attribute("ID"))
        .collect();
    for con in doc.descendants().filter(|n| n.has_tag_name("Connect")) {
        if groups.contains(con.attribute("FromSheet").unwrap_or("")) {
            continue;
        }
        let end = match con.attribute("FromCell") {
            Some("BeginX") => 0,
            Some("EndX") => 1,
            _ => continue,
        };
        c.glued.insert((
            format!("{prefix}-{}", con.attribute("FromSheet").unwrap()),
            end,
            format!("{prefix}-{}", con.attribute("ToSheet").unwrap()),
        ));
    }
}

fn has_text(t: Option<&quire_sdk::Text>) -> bool {
    t.is_some_and(|t| !t.plain_text().trim().is_empty())
}

fn found(page: &quire_sdk::Page) -> Counts {
    let ids: BTreeSet<&str> = ShapeWalk::new(&page.shapes).map(|s| s.id()).collect();
    let companion = |s: &Shape| {
        matches!(s, Shape::Text(_))
            && s.id()
                .strip_suffix(LABEL_SUFFIX)
                .is_some_and(|o| ids.contains(o))
    };
    let mut c = Counts {
        top: page.shapes.iter().filter(|s| !companion(s)).count(),
        ..Counts::default()
    };
    for s in ShapeWalk::new(&page.shapes) {
        let text = match s {
            Shape::Node(n) => has_text(n.text.as_ref()),
            Shape::Text(t) => has_text(Some(&t.text)),
            Shape::Group(g) => has_text(g.label.as_ref()),
            Shape::Connector(k) => {
                for (end, e) in [(0u8, &k.from), (1u8, &k.to)] {
                    if let Some(to) = &e.shape {
                        c.glued.insert((k.id.clone(), end, to.clone()));
                    }
                }
                has_text(k.label.as_ref())
            }
            Shape::Image(_) | Shape::Path(_) => false,
        };
        if text {
            c.texts += 1;
        }
    }
    c
}

fn import(path: &Path) -> Imported {
    import_vsdx(ImportRequest {
        bytes: std::fs::read(path).unwrap(),
        media_type: "application/vnd.ms-visio.drawing".into(),
        ..Default::default()
    })
    .unwrap_or_else(|e| panic!("{}: {e:?}", path.display()))
}

#[test]
fn every_file_imports_to_a_valid_model() {
    for path in corpus() {
        let imported = import(&path);
        let names: Vec<&str> = imported.assets.iter().map(|a| a.name.as_str()).collect();
        quire_sdk::validate::check(&imported.document, names).unwrap();
        let json = serde_json::to_string(&imported.document).unwrap();
        quire_sdk::validate::parse(&json).unwrap();
    }
}

#[test]
fn structure_matches_an_independent_reading() {
    let (mut pages, mut glued, mut texts) = (0, 0, 0);
    for path in corpus() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let imported = import(&path);
        let want = expected(&path);
        assert_eq!(imported.document.pages.len(), want.len(), "{name}: pages");
        for (i, (page, want)) in imported.document.pages.iter().zip(&want).enumerate() {
            let got = found(page);
            let at = format!("{name} page {}", i + 1);
            assert_eq!(got.top, want.top, "{at}: top-level shapes");
            assert_eq!(got.glued, want.glued, "{at}: glued connector ends");
            assert_eq!(got.texts, want.texts, "{at}: shapes with text");
            pages += 1;
            glued += want.glued.len();
            texts += want.texts;
        }
    }
    // The corpus has glued connectors and plenty of text: the checks above were not empty.
    assert!(
        pages >= 25 && glued >= 100 && texts >= 200,
        "{pages} {glued} {texts}"
    );
}

/// Each page keeps the name Visio shows on its tab (the PDF export lists them).
#[test]
fn pages_keep_their_names() {
    let path = quire_sdk::corpus_dir().join("vsdx/vsdx-test1-three-pages.vsdx");
    let imported = import(&path);
    let names: Vec<Option<&str>> = imported
        .document
        .pages
        .iter()
        .map(|p| p.name.as_deref())
        .collect();
    assert_eq!(names, [Some("Page-1"), Some("Page-2"), Some("Page-3")]);
}
