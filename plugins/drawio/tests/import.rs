//! The importer on small hand-written files, one rule each: containers, edge labels,
//! loose ends, ids across pages, pictures, broken and hostile input.

use base64::Engine;
use quire_drawio::fit::MARGIN;
use quire_drawio::{import_drawio, LABEL_SUFFIX, MAX_INPUT};
use quire_sdk::{ArrowHead, ConvertError, Geometry, ImportRequest, Imported, Shape, ShapeWalk};

fn import(xml: &str) -> Result<Imported, ConvertError> {
    import_drawio(ImportRequest {
        bytes: xml.as_bytes().to_vec(),
        media_type: "application/vnd.jgraph.mxfile".into(),
        ..Default::default()
    })
}

fn page(cells: &str) -> String {
    format!(
        "<mxGraphModel pageWidth=\"800\" pageHeight=\"600\"><root><mxCell id=\"0\"/>\
         <mxCell id=\"1\" parent=\"0\"/>{cells}</root></mxGraphModel>"
    )
}

fn file(pages: &[String]) -> String {
    let body: String = pages
        .iter()
        .enumerate()
        .map(|(i, p)| format!("<diagram id=\"d{i}\" name=\"P{i}\">{p}</diagram>"))
        .collect();
    format!("<mxfile>{body}</mxfile>")
}

/// Where a point of the file lands on the page: the page is the drawing plus a margin, so
/// the drawing's top left corner (`left`, `top`) moves to the margin.
fn on_page((x, y): (f64, f64), (left, top): (f64, f64)) -> (f64, f64) {
    (x - left + MARGIN, y - top + MARGIN)
}

fn find<'a>(imported: &'a Imported, id: &str) -> &'a Shape {
    imported
        .document
        .shapes()
        .find(|s| s.id() == id)
        .unwrap_or_else(|| panic!("no shape {id}"))
}

#[test]
fn container_children_are_placed_absolutely() {
    let xml = file(&[page(
        "<mxCell id=\"g\" value=\"Lane\" style=\"swimlane;\" vertex=\"1\" parent=\"1\">\
           <mxGeometry x=\"100\" y=\"50\" width=\"300\" height=\"200\" as=\"geometry\"/></mxCell>\
         <mxCell id=\"a\" value=\"A\" style=\"ellipse;fillColor=#ff0000;\" vertex=\"1\" parent=\"g\">\
           <mxGeometry x=\"10\" y=\"40\" width=\"60\" height=\"30\" as=\"geometry\"/></mxCell>\
         <mxCell id=\"p\" style=\"\" vertex=\"1\" parent=\"a\">\
           <mxGeometry x=\"1\" y=\"0.5\" width=\"10\" height=\"10\" relative=\"1\" as=\"geometry\">\
             <mxPoint x=\"-5\" y=\"-5\" as=\"offset\"/></mxGeometry></mxCell>",
    )]);
    let imported = import(&xml).unwrap();
    let Shape::Group(g) = find(&imported, "g") else {
        panic!("the swimlane is a group")
    };
    assert_eq!(g.label.as_ref().unwrap().plain_text(), "Lane");
    assert!(
        g.label.as_ref().unwrap().runs[0].bold,
        "swimlane titles are bold"
    );
    let Shape::Group(a) = &g.children[0] else {
        panic!("a vertex with children is a group")
    };
    // The swimlane's corner is the drawing's.
    let drawing = (100.0, 50.0);
    assert_eq!((a.frame.x, a.frame.y), on_page((110.0, 90.0), drawing));
    let Shape::Node(p) = &a.children[0] else {
        panic!("port")
    };
    // Relative geometry: right edge, middle, moved by the offset.
    assert_eq!(
        (p.frame.x, p.frame.y),
        on_page((110.0 + 60.0 - 5.0, 90.0 + 15.0 - 5.0), drawing)
    );
}

#[test]
fn edges_attach_by_id_with_labels_waypoints_and_heads() {
    let xml = file(&[page(
        "<mxCell id=\"g\" style=\"group\" vertex=\"1\" parent=\"1\">\
           <mxGeometry x=\"100\" y=\"100\" width=\"400\" height=\"100\" as=\"geometry\"/></mxCell>\
         <mxCell id=\"a\" value=\"A\" vertex=\"1\" parent=\"g\">\
           <mxGeometry x=\"0\" y=\"0\" width=\"50\" height=\"50\" as=\"geometry\"/></mxCell>\
         <mxCell id=\"b\" value=\"B\" style=\"rhombus\" vertex=\"1\" parent=\"g\">\
           <mxGeometry x=\"300\" y=\"0\" width=\"50\" height=\"50\" as=\"geometry\"/></mxCell>\
         <mxCell id=\"e\" value=\"yes\" style=\"endArrow=open;startArrow=diamond;dashed=1;\" \
             edge=\"1\" parent=\"g\" source=\"a\" target=\"b\">\
           <mxGeometry relative=\"1\" as=\"geometry\"><Array as=\"points\">\
             <mxPoint x=\"150\" y=\"80\"/></Array></mxGeometry></mxCell>\
         <mxCell id=\"l\" value=\"&lt;b&gt;and&lt;/b&gt; more\" style=\"edgeLabel;html=1;\" \
             vertex=\"1\" connectable=\"0\" parent=\"e\">\
           <mxGeometry x=\"-0.2\" relative=\"1\" as=\"geometry\"/></mxCell>\
         <mxCell id=\"loose\" edge=\"1\" parent=\"1\" target=\"nowhere\">\
           <mxGeometry relative=\"1\" as=\"geometry\">\
             <mxPoint x=\"10\" y=\"20\" as=\"sourcePoint\"/>\
             <mxPoint x=\"30\" y=\"40\" as=\"targetPoint\"/></mxGeometry></mxCell>",
    )]);
    let imported = import(&xml).unwrap();
    let Shape::Connector(e) = find(&imported, "e") else {
        panic!("edge")
    };
    assert_eq!(e.from.shape.as_deref(), Some("a"));
    assert_eq!(e.to.shape.as_deref(), Some("b"));
    assert_eq!(e.from.head, ArrowHead::Diamond);
    assert_eq!(e.to.head, ArrowHead::Open);
    // The loose edge's start and the group's top make the drawing's corner. Waypoints are
    // relative to the group the edge lives in.
    let drawing = (10.0, 20.0);
    assert_eq!(
        (e.waypoints[0].x, e.waypoints[0].y),
        on_page((250.0, 180.0), drawing)
    );
    assert_eq!(e.label.as_ref().unwrap().plain_text(), "yes\nand more");
    assert_eq!(e.stroke.unwrap().dash, quire_sdk::Dash::Dashed);
    // The label cell is part of the edge, not a shape.
    assert!(imported.document.shapes().all(|s| s.id() != "l"));
    let Shape::Connector(l) = find(&imported, "loose") else {
        panic!("edge")
    };
    assert_eq!(l.from.shape, None);
    assert_eq!(l.to.shape, None, "a missing target leaves the end loose");
    assert_eq!(
        l.to.point.map(|p| (p.x, p.y)),
        Some(on_page((30.0, 40.0), drawing))
    );
    assert_eq!(l.to.head, ArrowHead::Arrow, "classic is the default end");
    let Shape::Node(b) = find(&imported, "b") else {
        panic!("node")
    };
    assert_eq!(b.geometry, Geometry::Diamond);
}

#[test]
fn ids_repeated_on_later_pages_get_the_page_number() {
    let cells = "<mxCell id=\"2\" value=\"X\" vertex=\"1\" parent=\"1\">\
                   <mxGeometry width=\"10\" height=\"10\" as=\"geometry\"/></mxCell>\
                 <mxCell id=\"3\" value=\"Y\" vertex=\"1\" parent=\"1\">\
                   <mxGeometry x=\"50\" width=\"10\" height=\"10\" as=\"geometry\"/></mxCell>\
                 <mxCell id=\"4\" edge=\"1\" parent=\"1\" source=\"2\" target=\"3\">\
                   <mxGeometry relative=\"1\" as=\"geometry\"/></mxCell>";
    let imported = import(&file(&[page(cells), page(cells)])).unwrap();
    let second = &imported.document.pages[1];
    let ids: Vec<&str> = ShapeWalk::new(&second.shapes).map(|s| s.id()).collect();
    assert_eq!(ids, ["p2-2", "p2-3", "p2-4"]);
    let Shape::Connector(c) = &second.shapes[2] else {
        panic!()
    };
    assert_eq!(c.from.shape.as_deref(), Some("p2-2"));
    assert_eq!(c.to.shape.as_deref(), Some("p2-3"));
}

#[test]
fn pictures_are_assets_and_outside_labels_become_text_boxes() {
    let png = b"\x89PNG\r\n\x1a\n0000";
    let uri = format!(
        "data:image/png,{}",
        base64::engine::general_purpose::STANDARD.encode(png)
    );
    let xml = file(&[page(&format!(
        "<mxCell id=\"i\" value=\"Logo\" style=\"shape=image;verticalLabelPosition=bottom;image={uri};\" vertex=\"1\" parent=\"1\">\
           <mxGeometry x=\"10\" y=\"10\" width=\"40\" height=\"40\" as=\"geometry\"/></mxCell>\
         <mxCell id=\"w\" value=\"Web\" style=\"shape=image;image=https://example.org/a.png;\" vertex=\"1\" parent=\"1\">\
           <mxGeometry x=\"100\" y=\"10\" width=\"40\" height=\"40\" as=\"geometry\"/></mxCell>"
    ))]);
    let imported = import(&xml).unwrap();
    let Shape::Image(img) = find(&imported, "i") else {
        panic!("image")
    };
    assert_eq!(imported.assets.len(), 1);
    assert_eq!(imported.assets[0].name, img.asset);
    assert_eq!(imported.assets[0].bytes, png);
    let Shape::Text(label) = find(&imported, &format!("i{LABEL_SUFFIX}")) else {
        panic!("label")
    };
    assert_eq!(label.text.plain_text(), "Logo");
    assert!(label.frame.y >= 50.0, "the label sits below the picture");
    assert!(matches!(find(&imported, "w"), Shape::Node(_)));
    assert!(imported.warnings.iter().any(|w| w.contains("not fetched")));
}

#[test]
fn parent_cycles_and_hidden_cells_do_not_hang_or_leak() {
    let xml = file(&[page(
        "<mxCell id=\"a\" value=\"A\" vertex=\"1\" parent=\"b\"><mxGeometry width=\"5\" height=\"5\" as=\"geometry\"/></mxCell>\
         <mxCell id=\"b\" value=\"B\" vertex=\"1\" parent=\"a\"><mxGeometry width=\"5\" height=\"5\" as=\"geometry\"/></mxCell>\
         <mxCell id=\"h\" value=\"H\" vertex=\"1\" visible=\"0\" parent=\"1\"><mxGeometry width=\"5\" height=\"5\" as=\"geometry\"/></mxCell>\
         <mxCell id=\"e\" edge=\"1\" parent=\"1\" source=\"h\" target=\"a\"><mxGeometry relative=\"1\" as=\"geometry\"/></mxCell>",
    )]);
    let imported = import(&xml).unwrap();
    let ids: Vec<&str> = imported.document.shapes().map(|s| s.id()).collect();
    assert!(ids.contains(&"a") && ids.contains(&"b"), "{ids:?}");
    assert!(!ids.contains(&"h"));
    let Shape::Connector(e) = find(&imported, "e") else {
        panic!()
    };
    assert_eq!(e.from.shape, None, "an end on a hidden cell is loose");
    assert!(e.from.point.is_some());
    assert!(imported.warnings.iter().any(|w| w.contains("hidden")));
}

#[test]
fn compressed_pages_and_placeholders() {
    let inner = page(
        "<object label=\"%name% (%kind%)\" placeholders=\"1\" name=\"Shop\" kind=\"system\" id=\"s\">\
           <mxCell vertex=\"1\" parent=\"1\"><mxGeometry width=\"80\" height=\"40\" as=\"geometry\"/></mxCell></object>",
    );
    let encoded = percent_encoding::utf8_percent_encode(&inner, percent_encoding::NON_ALPHANUMERIC)
        .to_string();
    let mut enc = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut enc, encoded.as_bytes()).unwrap();
    let payload = base64::engine::general_purpose::STANDARD.encode(enc.finish().unwrap());
    let imported = import(&format!(
        "<mxfile><diagram name=\"x\">{payload}</diagram></mxfile>"
    ))
    .unwrap();
    let Shape::Node(n) = find(&imported, "s") else {
        panic!()
    };
    assert_eq!(n.text.as_ref().unwrap().plain_text(), "Shop (system)");
}

#[test]
fn bad_input_gets_the_right_error() {
    let unsupported =
        |r: Result<Imported, ConvertError>| matches!(r, Err(ConvertError::Unsupported(_)));
    assert!(unsupported(import("just text")));
    assert!(unsupported(import(
        "<svg xmlns=\"http://www.w3.org/2000/svg\"/>"
    )));
    assert!(unsupported(import_drawio(ImportRequest {
        bytes: b"<mxfile/>".to_vec(),
        media_type: "image/png".into(),
        ..Default::default()
    })));
    assert!(unsupported(import_drawio(ImportRequest {
        bytes: b"<note>hi</note>".to_vec(),
        media_type: "application/xml".into(),
        ..Default::default()
    })));
    // The same bytes as application/xml are read when they are a draw.io file.
    assert!(import_drawio(ImportRequest {
        bytes: file(&[page("")]).into_bytes(),
        media_type: "text/xml".into(),
        ..Default::default()
    })
    .is_ok());
    assert!(matches!(
        import("<mxfile><diagram><mxGraphModel><root></mxfile>"),
        Err(ConvertError::Damaged(_))
    ));
    assert!(matches!(
        import("<mxfile><diagram>AAAA</diagram></mxfile>"),
        Err(ConvertError::Damaged(_))
    ));
    let huge = vec![b' '; MAX_INPUT + 1];
    assert!(matches!(
        import_drawio(ImportRequest {
            bytes: huge,
            media_type: String::new(),
            ..Default::default()
        }),
        Err(ConvertError::TooLarge(_))
    ));
}

#[test]
fn an_inflation_bomb_is_too_large() {
    // 65 MiB of one repeated byte deflates to about 64 KiB.
    let mut enc = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
    let chunk = vec![b'a'; 1 << 20];
    for _ in 0..65 {
        std::io::Write::write_all(&mut enc, &chunk).unwrap();
    }
    let payload = base64::engine::general_purpose::STANDARD.encode(enc.finish().unwrap());
    let started = std::time::Instant::now();
    let r = import(&format!("<mxfile><diagram>{payload}</diagram></mxfile>"));
    assert!(matches!(r, Err(ConvertError::TooLarge(_))), "{r:?}");
    assert!(started.elapsed().as_secs() < 30);
}

/// A cell holding an SVG picture is drawn from the picture: its shapes and its text, fitted
/// into the cell with the picture's aspect kept and centred, in one group that keeps the
/// cell's style (the finding: such cells became grey crosses over headings).
#[test]
fn svg_picture_cells_are_drawn_from_the_picture() {
    let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"200\" height=\"100\" \
               viewBox=\"0 0 200 100\"><rect x=\"0\" y=\"0\" width=\"200\" height=\"100\" \
               fill=\"#336699\"/><text x=\"20\" y=\"60\" font-size=\"30\" \
               fill=\"#ffffff\">Heading</text></svg>";
    let data = base64::engine::general_purpose::STANDARD.encode(svg);
    let style = format!("shape=image;aspect=fixed;image=data:image/svg+xml,{data};");
    let xml = file(&[page(&format!(
        "<mxCell id=\"pic\" value=\"\" style=\"{style}\" vertex=\"1\" parent=\"1\">\
           <mxGeometry x=\"100\" y=\"100\" width=\"100\" height=\"100\" as=\"geometry\"/></mxCell>"
    ))]);
    let imported = import(&xml).unwrap();
    let Shape::Group(pic) = find(&imported, "pic") else {
        panic!("the picture is its drawing")
    };
    assert_eq!(
        pic.classes,
        [format!("{}{style}", quire_drawio::STYLE_CLASS)]
    );
    let drawn: Vec<&Shape> = ShapeWalk::new(&pic.children).collect();
    let text = drawn
        .iter()
        .find_map(|s| match s {
            Shape::Text(t) => Some(t),
            _ => None,
        })
        .expect("the picture's text stays text");
    assert_eq!(text.text.plain_text(), "Heading");
    // 200 x 100 fitted into 100 x 100: half size, centred top to bottom.
    let backdrop = drawn
        .iter()
        .filter_map(|s| s.frame())
        .find(|f| f.w > 90.0)
        .expect("the backdrop");
    let cell = on_page((100.0, 100.0), (100.0, 100.0));
    assert!((backdrop.x - cell.0).abs() < 0.01, "{backdrop:?}");
    assert!((backdrop.y - (cell.1 + 25.0)).abs() < 0.01, "{backdrop:?}");
    assert!((backdrop.w - 100.0).abs() < 0.01 && (backdrop.h - 50.0).abs() < 0.01);
    assert!(imported.assets.is_empty(), "no SVG asset is kept");
}

/// Page names are kept (the finding: they were lost) and written back by the export.
#[test]
fn page_names_are_kept_and_written_back() {
    let cell = "<mxCell id=\"a\" value=\"A\" vertex=\"1\" parent=\"1\">\
                <mxGeometry x=\"0\" y=\"0\" width=\"50\" height=\"50\" as=\"geometry\"/></mxCell>";
    let xml = file(&[page(cell), page(cell)]).replace("name=\"P1\"", "name=\" \"");
    let imported = import(&xml).unwrap();
    let names: Vec<Option<&str>> = imported
        .document
        .pages
        .iter()
        .map(|p| p.name.as_deref())
        .collect();
    assert_eq!(names, [Some("P0"), None], "a blank name is no name");
    let exported = quire_drawio::export_drawio(&quire_sdk::ExportRequest::new(
        imported.document,
        imported.assets,
        quire_drawio::EXPORT_MEDIA_TYPE,
    ))
    .unwrap();
    let text = String::from_utf8(exported.bytes).unwrap();
    assert!(text.contains("<diagram name=\"P0\""), "{text}");
    assert!(text.contains("<diagram name=\"Page-2\""), "{text}");
}

/// An edge fixed to its shapes' sides (`exitX`/`entryX`) keeps those ports, and an
/// orthogonal one runs in horizontal and vertical legs between them, as draw.io draws it
/// (the finding: connectors crossed the page in straight diagonals).
#[test]
fn ports_and_orthogonal_legs() {
    let xml = file(&[page(
        "<mxCell id=\"a\" value=\"A\" vertex=\"1\" parent=\"1\">\
           <mxGeometry x=\"0\" y=\"0\" width=\"100\" height=\"40\" as=\"geometry\"/></mxCell>\
         <mxCell id=\"b\" value=\"B\" vertex=\"1\" parent=\"1\">\
           <mxGeometry x=\"200\" y=\"200\" width=\"100\" height=\"40\" as=\"geometry\"/></mxCell>\
         <mxCell id=\"e\" style=\"edgeStyle=orthogonalEdgeStyle;exitX=0.5;exitY=1;exitDx=0;exitDy=0;\
           entryX=0.5;entryY=0;entryDx=0;entryDy=0;\" edge=\"1\" parent=\"1\" source=\"a\" target=\"b\">\
           <mxGeometry relative=\"1\" as=\"geometry\"/></mxCell>\
         <mxCell id=\"s\" style=\"exitX=1;exitY=0.25;\" edge=\"1\" parent=\"1\" source=\"a\" target=\"b\">\
           <mxGeometry relative=\"1\" as=\"geometry\"/></mxCell>",
    )]);
    let imported = import(&xml).unwrap();
    let Shape::Connector(e) = find(&imported, "e") else {
        panic!("edge")
    };
    let (bottom, top) = (
        quire_sdk::Point { x: 0.5, y: 1.0 },
        quire_sdk::Point { x: 0.5, y: 0.0 },
    );
    assert_eq!((e.from.port, e.to.port), (Some(bottom), Some(top)));
    // Down from A's bottom, across, down into B's top: two turns halfway.
    let drawing = (0.0, 0.0);
    let turns: Vec<(f64, f64)> = e.waypoints.iter().map(|p| (p.x, p.y)).collect();
    assert_eq!(
        turns,
        [
            on_page((50.0, 120.0), drawing),
            on_page((250.0, 120.0), drawing)
        ]
    );
    // A straight edge keeps its port and no made-up turns.
    let Shape::Connector(s) = find(&imported, "s") else {
        panic!("edge")
    };
    assert_eq!(s.from.port, Some(quire_sdk::Point { x: 1.0, y: 0.25 }));
    assert!(s.waypoints.is_empty());
}

/// A label beside its shape wraps at the shape's width, but a word longer than that runs
/// past it as in draw.io instead of breaking inside the word.
#[test]
fn a_long_word_beside_a_small_icon_is_not_broken() {
    let xml = file(&[page(
        "<mxCell id=\"i\" value=\"Accreditation\" style=\"whiteSpace=wrap;html=1;fontSize=10;\
           labelPosition=right;verticalLabelPosition=middle;align=left;verticalAlign=middle;\" \
           vertex=\"1\" parent=\"1\"><mxGeometry x=\"0\" y=\"0\" width=\"26\" height=\"26\" \
           as=\"geometry\"/></mxCell>",
    )]);
    let imported = import(&xml).unwrap();
    let Shape::Text(label) = find(&imported, &format!("i{LABEL_SUFFIX}")) else {
        panic!("the label is a text box beside the icon")
    };
    let lines = quire_sdk::layout::layout_text(&label.text, label.frame.w).len();
    assert_eq!(lines, 1, "{:?}", label.frame);
}

/// A rack cabinet (a container draw.io draws in code) is drawn behind what it holds, with
/// its rack units numbered down the left side, 1 at the bottom.
#[test]
fn a_rack_cabinet_numbers_its_units() {
    let xml = file(&[page(
        "<mxCell id=\"rack\" value=\"\" style=\"shape=mxgraph.rackGeneral.container;\
           container=1;fillColor2=#f4f4f4;textColor=#666666;numDisp=ascend;strokeColor=#666666;\" \
           vertex=\"1\" parent=\"1\"><mxGeometry x=\"0\" y=\"0\" width=\"210\" height=\"142\" \
           as=\"geometry\"/></mxCell>\
         <mxCell id=\"server\" value=\"Server\" vertex=\"1\" parent=\"rack\">\
           <mxGeometry x=\"33\" y=\"21\" width=\"168\" height=\"20\" as=\"geometry\"/></mxCell>",
    )]);
    let imported = import(&xml).unwrap();
    let Shape::Group(rack) = find(&imported, "rack") else {
        panic!("the rack holds its equipment")
    };
    let numbers: Vec<(String, f64)> = rack
        .children
        .iter()
        .filter_map(|s| match s {
            Shape::Text(t) => Some((t.text.plain_text(), t.frame.y)),
            _ => None,
        })
        .collect();
    // (142 - 42) / 20 = 5 units, numbered 5 at the top to 1 at the bottom.
    let labels: Vec<&str> = numbers.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(labels, ["5", "4", "3", "2", "1"]);
    assert!(numbers.windows(2).all(|w| w[1].1 - w[0].1 == 20.0));
    assert!(rack.fill.is_none(), "the drawing, not a plain box");
    assert!(matches!(rack.children[0], Shape::Path(_)));
    assert!(matches!(rack.children.last(), Some(Shape::Node(n)) if n.id == "server"));
}

#[test]
fn shadows_are_kept_drawn_and_written_back() {
    let xml = file(&[page(
        "<mxCell id=\"card\" value=\"Card\" style=\"rounded=1;shadow=1;fillColor=#ffffff;\" \
           vertex=\"1\" parent=\"1\">\
           <mxGeometry x=\"100\" y=\"50\" width=\"300\" height=\"200\" as=\"geometry\"/></mxCell>\
         <mxCell id=\"a\" value=\"A\" style=\"ellipse;shadow=1;\" vertex=\"1\" parent=\"card\">\
           <mxGeometry x=\"10\" y=\"40\" width=\"60\" height=\"30\" as=\"geometry\"/></mxCell>\
         <mxCell id=\"flat\" value=\"B\" style=\"rounded=0;\" vertex=\"1\" parent=\"1\">\
           <mxGeometry x=\"500\" y=\"50\" width=\"60\" height=\"30\" as=\"geometry\"/></mxCell>\
         <mxCell id=\"router\" style=\"shape=mxgraph.cisco.routers.router;shadow=1;\" vertex=\"1\" parent=\"1\">\
           <mxGeometry x=\"500\" y=\"150\" width=\"80\" height=\"50\" as=\"geometry\"/></mxCell>\
         <mxCell id=\"rule\" style=\"line;shadow=1;strokeWidth=2;\" vertex=\"1\" parent=\"1\">\
           <mxGeometry x=\"100\" y=\"300\" width=\"200\" height=\"10\" as=\"geometry\"/></mxCell>",
    )]);
    let imported = import(&xml).unwrap();
    let Shape::Group(card) = find(&imported, "card") else {
        panic!("the card holds a cell, so it is a group")
    };
    assert!(card.shadow);
    let Shape::Node(a) = find(&imported, "a") else {
        panic!("an ellipse is a node")
    };
    assert!(a.shadow);
    let Shape::Node(flat) = find(&imported, "flat") else {
        panic!("a rectangle is a node")
    };
    assert!(!flat.shadow);
    // A stencil's drawing: every painted part casts.
    let Shape::Group(router) = find(&imported, "router") else {
        panic!("the router is drawn from its stencil")
    };
    assert!(!router.children.is_empty());
    assert!(router
        .children
        .iter()
        .all(|c| matches!(c, Shape::Path(p) if p.shadow)));
    // Every exporter draws the same shadow: one path each, under the shape.
    assert!(quire_sdk::shadow::shadow(find(&imported, "a")).is_some());
    assert!(quire_sdk::shadow::shadow(find(&imported, "flat")).is_none());

    let written = quire_drawio::export_drawio(&quire_sdk::ExportRequest {
        document: imported.document.clone(),
        assets: imported.assets.clone(),
        media_type: quire_drawio::EXPORT_MEDIA_TYPE.into(),
        page: None,
        dpi: None,
        options: Vec::new(),
    })
    .expect("exports");
    let text = String::from_utf8(written.bytes).unwrap();
    // The card, the ellipse, the router's stencil cell and the rule (a path, written as an
    // SVG picture cell whose drawing casts the shadow when read back).
    assert_eq!(text.matches("shadow=1;").count(), 4, "{text}");
    let again = import(&text).unwrap();
    let casting = |i: &Imported| {
        i.document
            .shapes()
            .filter(|s| quire_sdk::shadow::shadow(s).is_some())
            .count()
    };
    assert_eq!(casting(&again), casting(&imported));
}

/// A label's `spacingLeft` (and the other sides) is room the label keeps from its area's
/// edges: a container's title set after the icon at its corner (IBM's VPC diagrams), not
/// under it. Bad or negative numbers keep nothing.
#[test]
fn a_labels_spacing_keeps_it_clear_of_an_icon() {
    let xml = file(&[page(
        "<mxCell id=\"zone\" value=\"Zone 2\" style=\"swimlane;align=left;spacingLeft=30;spacingTop=4;\" \
           vertex=\"1\" parent=\"1\"><mxGeometry x=\"0\" y=\"0\" width=\"300\" height=\"200\" as=\"geometry\"/></mxCell>\
         <mxCell id=\"n\" value=\"Plain\" style=\"rounded=0;spacingLeft=-5;spacingRight=abc;\" vertex=\"1\" \
           parent=\"1\"><mxGeometry x=\"400\" y=\"0\" width=\"100\" height=\"40\" as=\"geometry\"/></mxCell>\
         <mxCell id=\"rack\" value=\"Storage server\" style=\"labelPosition=right;align=left;spacingLeft=15;\" \
           vertex=\"1\" parent=\"1\"><mxGeometry x=\"0\" y=\"300\" width=\"100\" height=\"20\" as=\"geometry\"/></mxCell>\
         <mxCell id=\"narrow\" value=\"Kubernetes Engine\" style=\"rounded=0;align=left;spacingLeft=40;spacingTop=3;\" \
           vertex=\"1\" parent=\"1\"><mxGeometry x=\"0\" y=\"400\" width=\"100\" height=\"40\" as=\"geometry\"/></mxCell>",
    )]);
    let imported = import(&xml).unwrap();
    let Shape::Group(zone) = find(&imported, "zone") else {
        panic!("the swimlane is a group")
    };
    let padding = zone
        .label
        .as_ref()
        .and_then(|t| t.padding)
        .expect("padding");
    assert_eq!((padding.left, padding.top, padding.right), (30.0, 4.0, 0.0));
    let area = quire_sdk::drawing::padded(zone.label.as_ref().unwrap(), zone.frame);
    assert_eq!(area.x, zone.frame.x + 30.0);
    let Shape::Node(n) = find(&imported, "n") else {
        panic!("a node")
    };
    assert_eq!(n.text.as_ref().and_then(|t| t.padding), None);

    // A label beside its cell keeps its width: the spacing is room in its box, before it.
    let Shape::Text(label) = find(&imported, "rack-label") else {
        panic!("the label beside the cell is a text box")
    };
    let text = &label.text;
    let area = quire_sdk::drawing::padded(text, label.frame);
    assert_eq!(area.x, label.frame.x + 15.0);
    assert!(area.w >= quire_sdk::layout::natural_width(text), "{area:?}");

    // An unwrapped label its side spacing would squeeze keeps its line whole (draw.io lets
    // it run past the shape); the top's spacing stays.
    let Shape::Node(narrow) = find(&imported, "narrow") else {
        panic!("a node")
    };
    let padding = narrow
        .text
        .as_ref()
        .and_then(|t| t.padding)
        .expect("top spacing");
    assert_eq!((padding.left, padding.top), (0.0, 3.0));
}
