//! Hand-made packages: a minimal drawing whose geometry is checked to the point, and the
//! hostile or wrong inputs (zip bombs, lying headers, too many entries, not a zip, a zip
//! that is not Visio) with the error each must give.

use std::io::Write;

use quire_sdk::{ArrowHead, ConvertError, Geometry, ImportRequest, Imported, Shape};
use quire_vsdx::import_vsdx;
use zip::write::SimpleFileOptions;

fn zip_of(parts: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .compression_level(Some(1));
    for (name, bytes) in parts {
        w.start_file(*name, opts).unwrap();
        w.write_all(bytes).unwrap();
    }
    w.finish().unwrap().into_inner()
}

const NS: &str = "xmlns='http://schemas.microsoft.com/office/visio/2012/main' \
                  xmlns:r='http://schemas.openxmlformats.org/officeDocument/2006/relationships'";

fn rels(entries: &[(&str, &str, &str)]) -> Vec<u8> {
    let body: String = entries
        .iter()
        .map(|(id, ty, target)| {
            format!("<Relationship Id='{id}' Type='http://schemas.microsoft.com/visio/2010/relationships/{ty}' Target='{target}'/>")
        })
        .collect();
    format!("<Relationships xmlns='http://schemas.openxmlformats.org/package/2006/relationships'>{body}</Relationships>").into_bytes()
}

/// A one-page drawing with `shapes` on an 8 x 10 inch page and one master.
fn drawing(shapes: &str, connects: &str) -> Vec<u8> {
    let root = "<Relationships xmlns='http://schemas.openxmlformats.org/package/2006/relationships'>\
        <Relationship Id='rId1' Type='http://schemas.microsoft.com/visio/2010/relationships/document' \
        Target='visio/document.xml'/></Relationships>";
    zip_of(&[
        ("_rels/.rels", root.as_bytes().to_vec()),
        (
            "visio/document.xml",
            format!("<VisioDocument {NS}><StyleSheets><StyleSheet ID='0'>\
                <Cell N='LineWeight' V='0.01388888888888889'/><Cell N='LineColor' V='0'/>\
                <Cell N='FillForegnd' V='#ffffff'/></StyleSheet></StyleSheets></VisioDocument>")
            .into_bytes(),
        ),
        (
            "visio/_rels/document.xml.rels",
            rels(&[("rId1", "pages", "pages/pages.xml"), ("rId2", "masters", "masters/masters.xml")]),
        ),
        (
            "visio/masters/masters.xml",
            format!("<Masters {NS}><Master ID='2' NameU='Box'><Rel r:id='rId1'/></Master></Masters>").into_bytes(),
        ),
        ("visio/masters/_rels/masters.xml.rels", rels(&[("rId1", "master", "master1.xml")])),
        (
            "visio/masters/master1.xml",
            format!(
                "<MasterContents {NS}><Shapes><Shape ID='5' LineStyle='0' FillStyle='0' TextStyle='0'>\
                 <Cell N='Width' V='2'/><Cell N='Height' V='1'/><Cell N='FillForegnd' V='#ff0000'/>\
                 <Section N='Geometry' IX='0'><Row T='Ellipse' IX='1'><Cell N='X' V='1'/><Cell N='Y' V='0.5'/>\
                 <Cell N='A' V='2'/><Cell N='B' V='0.5'/><Cell N='C' V='1'/><Cell N='D' V='1'/></Row></Section>\
                 <Text>From the master\n</Text></Shape></Shapes></MasterContents>"
            )
            .into_bytes(),
        ),
        (
            "visio/pages/pages.xml",
            format!("<Pages {NS}><Page ID='0' Name='One'><PageSheet><Cell N='PageWidth' V='8'/>\
                 <Cell N='PageHeight' V='10'/></PageSheet><Rel r:id='rId1'/></Page></Pages>")
            .into_bytes(),
        ),
        ("visio/pages/_rels/pages.xml.rels", rels(&[("rId1", "page", "page1.xml")])),
        (
            "visio/pages/page1.xml",
            format!("<PageContents {NS}><Shapes>{shapes}</Shapes><Connects>{connects}</Connects></PageContents>")
                .into_bytes(),
        ),
    ])
}

fn import(bytes: Vec<u8>) -> Result<Imported, ConvertError> {
    import_vsdx(ImportRequest {
        bytes,
        media_type: "application/vnd.ms-visio.drawing".into(),
        ..Default::default()
    })
}

fn rect(id: u32, pin: (f64, f64), size: (f64, f64), extra: &str) -> String {
    format!(
        "<Shape ID='{id}' LineStyle='0' FillStyle='0' TextStyle='0'><Cell N='PinX' V='{}'/><Cell N='PinY' V='{}'/>\
         <Cell N='Width' V='{}'/><Cell N='Height' V='{}'/>{extra}\
         <Section N='Geometry' IX='0'><Row T='RelMoveTo' IX='1'><Cell N='X' V='0'/><Cell N='Y' V='0'/></Row>\
         <Row T='RelLineTo' IX='2'><Cell N='X' V='1'/><Cell N='Y' V='0'/></Row>\
         <Row T='RelLineTo' IX='3'><Cell N='X' V='1'/><Cell N='Y' V='1'/></Row>\
         <Row T='RelLineTo' IX='4'><Cell N='X' V='0'/><Cell N='Y' V='1'/></Row>\
         <Row T='RelLineTo' IX='5'><Cell N='X' V='0'/><Cell N='Y' V='0'/></Row></Section></Shape>",
        pin.0, pin.1, size.0, size.1
    )
}

fn get<'a>(i: &'a Imported, id: &str) -> &'a Shape {
    i.document
        .shapes()
        .find(|s| s.id() == id)
        .unwrap_or_else(|| panic!("no {id}"))
}

#[test]
fn shapes_land_where_visio_puts_them() {
    let shapes = format!(
        "{}{}<Shape ID='3' Master='2'><Cell N='PinX' V='4'/><Cell N='PinY' V='2'/></Shape>\
         <Shape ID='4' Type='Group'><Cell N='PinX' V='6'/><Cell N='PinY' V='8'/><Cell N='Width' V='2'/>\
           <Cell N='Height' V='2'/><Shapes>{}</Shapes><Text>Over the members</Text></Shape>\
         <Shape ID='9' LineStyle='0'><Cell N='PinX' V='1'/><Cell N='PinY' V='7'/><Cell N='Width' V='4'/>\
           <Cell N='Height' V='0'/><Cell N='Angle' V='-1.5707963267948966'/><Cell N='BeginX' V='1'/><Cell N='BeginY' V='9'/>\
           <Cell N='EndX' V='1'/><Cell N='EndY' V='5'/><Cell N='EndArrow' V='4'/>\
           <Section N='Geometry' IX='0'><Row T='MoveTo' IX='1'><Cell N='X' V='0'/><Cell N='Y' V='0'/></Row>\
           <Row T='LineTo' IX='2'><Cell N='X' V='4'/><Cell N='Y' V='0'/></Row></Section><Text>link</Text></Shape>\
         <Shape ID='10' LineStyle='0'><Cell N='PinX' V='2'/><Cell N='PinY' V='7'/><Cell N='Width' V='2'/>\
           <Cell N='Height' V='0'/><Cell N='BeginX' V='1'/><Cell N='BeginY' V='9'/>\
           <Cell N='EndX' V='1'/><Cell N='EndY' V='5'/>\
           <Section N='Geometry' IX='0'><Row T='MoveTo' IX='1'><Cell N='X' V='0'/><Cell N='Y' V='0'/></Row>\
           <Row T='LineTo' IX='2'><Cell N='X' V='2'/><Cell N='Y' V='0'/></Row></Section></Shape>",
        rect(1, (1.0, 9.0), (1.0, 1.0), "<Cell N='FillForegnd' V='2'/>"),
        rect(
            2,
            (1.0, 5.0),
            (2.0, 1.0),
            "<Cell N='Angle' V='1.5707963267948966'/>",
        ),
        rect(5, (0.5, 0.5), (1.0, 1.0), ""),
    );
    let connects = "<Connect FromSheet='9' FromCell='BeginX' ToSheet='1'/>\
                    <Connect FromSheet='9' FromCell='EndX' ToSheet='2'/>";
    let i = import(drawing(&shapes, connects)).unwrap();
    let page = &i.document.pages[0];
    assert_eq!((page.width, page.height), (576.0, 720.0));

    // A 1 x 1 in square centred at (1, 9) in: 72 pt wide, its top 9.5 in below... above.
    let Shape::Node(n1) = get(&i, "p1-1") else {
        panic!("node")
    };
    assert_eq!(n1.geometry, Geometry::Rect);
    assert_eq!(n1.frame, quire_sdk::Rect::new(36.0, 36.0, 72.0, 72.0));
    assert_eq!(
        n1.fill,
        Some(quire_sdk::Color::rgb(255, 0, 0)),
        "colour index 2 is red"
    );
    assert_eq!(n1.stroke.unwrap().width, 1.0, "0.0139 in is 1 pt");

    // Turned a quarter: 2 x 1 in lies as 1 x 2 in.
    let Shape::Node(n2) = get(&i, "p1-2") else {
        panic!("node")
    };
    assert_eq!(n2.frame.w.round(), 72.0);
    assert_eq!(n2.frame.h.round(), 144.0);

    // Everything else from the master: size, ellipse, fill, text.
    let Shape::Node(n3) = get(&i, "p1-3") else {
        panic!("node")
    };
    assert_eq!(n3.geometry, Geometry::Ellipse);
    assert_eq!(n3.frame, quire_sdk::Rect::new(216.0, 540.0, 144.0, 72.0));
    assert_eq!(n3.text.as_ref().unwrap().plain_text(), "From the master");

    // A group's children are placed in the group's box: a 2 x 2 in group pinned at
    // (6, 8) spans (5, 7)-(7, 9); its child pinned at (0.5, 0.5) spans (5, 7)-(6, 8).
    let Shape::Group(g) = get(&i, "p1-4") else {
        panic!("group")
    };
    assert_eq!(g.frame, quire_sdk::Rect::new(360.0, 72.0, 144.0, 144.0));
    let f = g.children[0].frame().unwrap();
    assert_eq!((f.x, f.y, f.w, f.h), (360.0, 144.0, 72.0, 72.0));
    // The group's text is drawn over its members (whose fills would hide it), in its frame.
    assert!(g.label.is_none());
    let Some(Shape::Text(label)) = g.children.last() else {
        panic!("the group's text is its last child: {:?}", g.children)
    };
    assert_eq!(label.text.plain_text(), "Over the members");
    assert_eq!(label.frame, g.frame);

    let Shape::Connector(c) = get(&i, "p1-9") else {
        panic!("connector")
    };
    assert_eq!(c.from.shape.as_deref(), Some("p1-1"));
    assert_eq!(c.to.shape.as_deref(), Some("p1-2"));
    let near = |p: Option<quire_sdk::Point>, x: f64, y: f64| {
        p.is_some_and(|p| (p.x - x).abs() < 1e-9 && (p.y - y).abs() < 1e-9)
    };
    assert!(near(c.from.point, 72.0, 72.0), "{:?}", c.from.point);
    assert!(near(c.to.point, 72.0, 360.0), "{:?}", c.to.point);
    assert_eq!(c.to.head, ArrowHead::Arrow);
    assert_eq!(c.label.as_ref().unwrap().plain_text(), "link");

    // Visio draws a 1-D shape's geometry: where a writer's BeginX..EndY disagree with it
    // (Lucidchart's exports), the line runs where the geometry says, here (1, 7)-(3, 7) in.
    let Shape::Connector(c) = get(&i, "p1-10") else {
        panic!("connector")
    };
    assert!(near(c.from.point, 72.0, 216.0), "{:?}", c.from.point);
    assert!(near(c.to.point, 216.0, 216.0), "{:?}", c.to.point);
}

#[test]
fn a_zip_bomb_is_too_large() {
    // 300 MiB of zeros: the declared size alone refuses it.
    let mut enc = Vec::new();
    {
        let mut w = zip::ZipWriter::new(std::io::Cursor::new(&mut enc));
        let opts = SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .compression_level(Some(1))
            .large_file(true);
        w.start_file("visio/document.xml", opts).unwrap();
        let chunk = vec![0u8; 1 << 20];
        for _ in 0..300 {
            w.write_all(&chunk).unwrap();
        }
        w.finish().unwrap();
    }
    // Over 100:1 whichever deflate backend feature unification picks for `zip`.
    assert!(enc.len() < 5 << 20, "the bomb is small: {}", enc.len());
    assert!(matches!(import(enc), Err(ConvertError::TooLarge(_))));
}

/// Overwrites every uncompressed-size field of the archive with `size`.
fn lie_about_sizes(zip: &mut [u8], size: u32) {
    let le = size.to_le_bytes();
    let mut i = 0;
    while i + 30 < zip.len() {
        match &zip[i..i + 4] {
            b"PK\x03\x04" => zip[i + 22..i + 26].copy_from_slice(&le),
            b"PK\x01\x02" => zip[i + 24..i + 28].copy_from_slice(&le),
            _ => {}
        }
        i += 1;
    }
}

#[test]
fn a_header_that_lies_about_its_size_is_caught_while_inflating() {
    let mut bytes = zip_of(&[("visio/document.xml", vec![b' '; 65 << 20])]);
    lie_about_sizes(&mut bytes, 1000);
    // The zip reader stops at the declared size (a damaged entry) or the part limit
    // stops it: either way nothing past the limit is inflated.
    let started = std::time::Instant::now();
    let r = import(bytes);
    assert!(
        matches!(r, Err(ConvertError::TooLarge(_) | ConvertError::Damaged(_))),
        "{r:?}"
    );
    assert!(started.elapsed().as_secs() < 20);
}

#[test]
fn declared_sizes_add_up_before_anything_inflates() {
    let parts: Vec<(String, Vec<u8>)> = (0..3).map(|i| (format!("p{i}"), vec![1u8; 10])).collect();
    let refs: Vec<(&str, Vec<u8>)> = parts.iter().map(|(n, b)| (n.as_str(), b.clone())).collect();
    let mut bytes = zip_of(&refs);
    lie_about_sizes(&mut bytes, 100 << 20);
    assert!(matches!(import(bytes), Err(ConvertError::TooLarge(_))));
}

#[test]
fn too_many_entries_is_too_large() {
    let parts: Vec<(String, Vec<u8>)> =
        (0..10_001).map(|i| (format!("e{i}"), Vec::new())).collect();
    let refs: Vec<(&str, Vec<u8>)> = parts.iter().map(|(n, b)| (n.as_str(), b.clone())).collect();
    assert!(matches!(
        import(zip_of(&refs)),
        Err(ConvertError::TooLarge(_))
    ));
}

#[test]
fn wrong_inputs_are_unsupported_or_damaged() {
    let unsupported =
        |r: Result<Imported, ConvertError>| matches!(r, Err(ConvertError::Unsupported(_)));
    assert!(unsupported(import(b"not a zip at all".to_vec())));
    assert!(unsupported(import(
        b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1old binary vsd".to_vec()
    )));
    // A Word document is a ZIP too, with no Visio document in it.
    assert!(unsupported(import(zip_of(&[(
        "word/document.xml",
        b"<w:document/>".to_vec()
    )]))));
    assert!(unsupported(import_vsdx(ImportRequest {
        bytes: drawing("", ""),
        media_type: "image/png".into(),
        ..Default::default()
    })));
    assert!(matches!(
        import(b"PK\x03\x04 cut short".to_vec()),
        Err(ConvertError::Damaged(_))
    ));
    let mut broken = drawing("<Shape ID='1'>", "");
    // Still a valid zip, but the page is not well-formed XML.
    assert!(matches!(
        import(std::mem::take(&mut broken)),
        Err(ConvertError::Damaged(_))
    ));
}

/// Some writers give every shape they add the same ID (4294967295): each still becomes a
/// shape, with an id of its own, instead of the whole drawing being refused.
#[test]
fn shapes_sharing_a_sheet_id_get_ids_of_their_own() {
    let text = |t: &str| format!("<Text>{t}</Text>");
    let shapes = [
        rect(4294967295, (2.0, 8.0), (2.0, 1.0), &text("First")),
        rect(4294967295, (5.0, 8.0), (2.0, 1.0), &text("Second")),
        rect(4294967295, (2.0, 5.0), (2.0, 1.0), &text("Third")),
    ]
    .concat();
    let imported = import(drawing(&shapes, "")).expect("the drawing imports");
    let ids: Vec<&str> = imported.document.shapes().map(|s| s.id()).collect();
    assert_eq!(ids, ["p1-4294967295", "p1-4294967295~2", "p1-4294967295~3"]);
    quire_sdk::validate::check(&imported.document, std::iter::empty()).unwrap();
}

#[test]
fn text_placed_off_centre_keeps_its_place() {
    // A swimlane whose title sits in its top left corner (TxtPin in the shape's inches),
    // and a box whose text frame is centred on it: the first is a text box of its own in
    // its frame, the second stays the node's text.
    let shapes = format!(
        "{}{}",
        rect(
            1,
            (4.0, 5.0),
            (6.0, 2.0),
            "<Cell N='TxtPinX' V='1' U='IN'/><Cell N='TxtPinY' V='1.75' U='IN'/>\
             <Cell N='TxtWidth' V='1.5'/><Cell N='TxtHeight' V='0.3'/><Text>Review</Text>",
        ),
        rect(
            2,
            (4.0, 2.0),
            (2.0, 1.0),
            "<Cell N='TxtWidth' V='1.8'/><Cell N='TxtHeight' V='0.8'/><Text>Centred</Text>",
        ),
    );
    let i = import(drawing(&shapes, "")).unwrap();
    let Shape::Node(lane) = get(&i, "p1-1") else {
        panic!("node")
    };
    assert!(lane.text.is_none(), "{:?}", lane.text);
    let Shape::Text(title) = get(&i, "p1-1-label") else {
        panic!("the lane's title is a text box")
    };
    assert_eq!(title.text.plain_text(), "Review");
    // The lane spans (1, 4)-(7, 6) in; its text frame (0.25, 1.6)-(1.75, 1.9) in within it:
    // x 1.25 in, top 5.9 in up a 10 in page.
    let near = |a: f64, b: f64| (a - b).abs() < 1e-6;
    assert!(near(title.frame.x, 1.25 * 72.0), "{:?}", title.frame);
    assert!(
        near(title.frame.y, (10.0 - 5.9) * 72.0),
        "{:?}",
        title.frame
    );
    assert!(near(title.frame.w, 1.5 * 72.0) && near(title.frame.h, 0.3 * 72.0));
    let Shape::Node(boxed) = get(&i, "p1-2") else {
        panic!("node")
    };
    assert_eq!(boxed.text.as_ref().unwrap().plain_text(), "Centred");
}
