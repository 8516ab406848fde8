use base64::Engine;

use super::*;

fn encode(xml: &str) -> String {
    let mut enc = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut enc, xml.as_bytes()).unwrap();
    format!(
        "stencil({})",
        crate::mxfile::BASE64.encode(enc.finish().unwrap())
    )
}

const RED: Color = Color::rgb(255, 0, 0);
const BLUE: Color = Color::rgb(0, 0, 255);

fn cell() -> Paint {
    Paint {
        fill: Some(BLUE),
        stroke: Some(Color::BLACK),
        width: 3.0,
        dash: Dash::Solid,
    }
}

fn run(xml: &str, frame: Rect) -> Vec<Painted> {
    let shape = inline(&encode(xml)).expect("the stencil reads");
    draw(&shape, Placement::upright(frame), &cell()).expect("the stencil draws")
}

#[test]
fn scales_the_stencil_box_to_the_frame() {
    let parts = run(
        "<shape w=\"10\" h=\"20\"><foreground><path><move x=\"0\" y=\"0\"/>\
         <line x=\"10\" y=\"20\"/><close/></path><fillstroke/></foreground></shape>",
        Rect::new(100.0, 100.0, 50.0, 40.0),
    );
    let segs = &parts[0].segments;
    assert_eq!(segs[0], Segment::MoveTo { x: 100.0, y: 100.0 });
    assert_eq!(segs[1], Segment::LineTo { x: 150.0, y: 140.0 });
    assert_eq!(segs[2], Segment::Close);
    // Without w and h the box is 100 x 100.
    let parts = run(
        "<shape><foreground><rect x=\"0\" y=\"0\" w=\"50\" h=\"50\"/><fill/></foreground></shape>",
        Rect::new(0.0, 0.0, 200.0, 200.0),
    );
    assert!(parts[0]
        .segments
        .contains(&Segment::LineTo { x: 100.0, y: 100.0 }));
    assert!(inline("stencil(garbage)").is_none());
}

/// Each paint operation paints with the colours of its moment: the cell's until the
/// stencil sets its own, `fill` and `stroke` naming the cell's again, and `restore`
/// going back to what `save` kept.
#[test]
fn every_paint_operation_keeps_the_colours_of_its_moment() {
    let parts = run(
        "<shape w=\"10\" h=\"10\" strokewidth=\"inherit\"><background>\
         <rect x=\"0\" y=\"0\" w=\"10\" h=\"10\"/><fillstroke/></background><foreground>\
         <save/><fillcolor color=\"#ff0000\"/><strokecolor color=\"none\"/>\
         <ellipse x=\"2\" y=\"2\" w=\"6\" h=\"6\"/><fillstroke/>\
         <fillcolor color=\"stroke\"/><rect x=\"4\" y=\"4\" w=\"2\" h=\"2\"/><fill/>\
         <restore/><path><move x=\"0\" y=\"0\"/><line x=\"10\" y=\"10\"/></path><stroke/>\
         </foreground></shape>",
        Rect::new(0.0, 0.0, 10.0, 10.0),
    );
    let looks: Vec<_> = parts
        .iter()
        .map(|p| (p.fill, p.stroke.map(|s| (s.color, s.width))))
        .collect();
    assert_eq!(
        looks,
        [
            (Some(BLUE), Some((Color::BLACK, 3.0))),
            (Some(RED), None),
            (Some(Color::BLACK), None),
            (None, Some((Color::BLACK, 3.0))),
        ]
    );
}

#[test]
fn line_widths_scale_with_the_stencil_unless_inherited_or_fixed() {
    let xml = |attr: &str, op: &str| {
        format!(
            "<shape w=\"10\" h=\"10\" {attr}><foreground>{op}\
             <rect x=\"0\" y=\"0\" w=\"10\" h=\"10\"/><stroke/></foreground></shape>"
        )
    };
    let width = |x: String| {
        run(&x, Rect::new(0.0, 0.0, 40.0, 20.0))[0]
            .stroke
            .unwrap()
            .width
    };
    // The default `strokewidth` is 1 stencil unit: 2 points at this scale (the smaller).
    assert_eq!(width(xml("", "")), 2.0);
    assert_eq!(width(xml("strokewidth=\"inherit\"", "")), 3.0);
    assert_eq!(width(xml("", "<strokewidth width=\"2\"/>")), 4.0);
    assert_eq!(
        width(xml("", "<strokewidth width=\"2\" fixed=\"1\"/>")),
        2.0
    );
}

#[test]
fn a_fixed_aspect_stencil_is_centred_in_its_cell() {
    let parts = run(
        "<shape w=\"10\" h=\"10\" aspect=\"fixed\"><foreground>\
         <rect x=\"0\" y=\"0\" w=\"10\" h=\"10\"/><fill/></foreground></shape>",
        Rect::new(0.0, 0.0, 40.0, 20.0),
    );
    assert_eq!(
        geometry::bounds(&parts[0].segments),
        Some(Rect::new(10.0, 0.0, 20.0, 20.0))
    );
}

#[test]
fn turns_and_mirrors_follow_the_cell() {
    let shape = inline(&encode(
        "<shape w=\"10\" h=\"10\"><foreground><path><move x=\"0\" y=\"0\"/>\
         <line x=\"10\" y=\"0\"/></path><stroke/></foreground></shape>",
    ))
    .unwrap();
    let frame = Rect::new(0.0, 0.0, 10.0, 10.0);
    let ends = |placement: Placement| -> Vec<Segment> {
        draw(&shape, placement, &cell()).unwrap()[0]
            .segments
            .iter()
            .map(|s| match *s {
                Segment::MoveTo { x, y } => Segment::MoveTo {
                    x: x.round(),
                    y: y.round(),
                },
                Segment::LineTo { x, y } => Segment::LineTo {
                    x: x.round(),
                    y: y.round(),
                },
                other => other,
            })
            .collect()
    };
    // The top edge, turned a quarter clockwise, is the right edge.
    let turned = ends(Placement {
        degrees: 90.0,
        ..Placement::upright(frame)
    });
    assert_eq!(
        turned,
        [
            Segment::MoveTo { x: 10.0, y: 0.0 },
            Segment::LineTo { x: 10.0, y: 10.0 }
        ]
    );
    let flipped = ends(Placement {
        flip_v: true,
        ..Placement::upright(frame)
    });
    assert_eq!(
        flipped,
        [
            Segment::MoveTo { x: 0.0, y: 10.0 },
            Segment::LineTo { x: 10.0, y: 10.0 }
        ]
    );
}

/// A named library stencil draws; one that includes another draws both, and one that
/// would draw without end is refused.
#[test]
fn draws_library_stencils_and_the_shapes_they_include() {
    let router = named("mxgraph.cisco.routers.router").expect("in the library");
    let parts = draw(
        &router,
        Placement::upright(Rect::new(0.0, 0.0, 50.0, 30.0)),
        &cell(),
    )
    .unwrap();
    assert!(parts.len() > 1, "{} parts", parts.len());
    let bounds = geometry::bounds(
        &parts
            .iter()
            .flat_map(|p| p.segments.clone())
            .collect::<Vec<_>>(),
    )
    .unwrap();
    assert!(bounds.w > 40.0 && bounds.w <= 50.5, "{bounds:?}");

    let including = run(
        "<shape w=\"10\" h=\"10\"><foreground><include-shape name=\"mxgraph.cisco.routers.router\" \
         x=\"0\" y=\"0\" w=\"10\" h=\"5\"/></foreground></shape>",
        Rect::new(0.0, 0.0, 100.0, 100.0),
    );
    assert_eq!(including.len(), parts.len());

    let mut endless = String::from("<shape w=\"1\" h=\"1\"><foreground>");
    for _ in 0..(MAX_SEGMENTS / 5 + 1) {
        endless.push_str("<rect x=\"0\" y=\"0\" w=\"1\" h=\"1\"/><fill/>");
    }
    endless.push_str("</foreground></shape>");
    let shape = xml::parse(&endless).unwrap();
    assert!(draw(
        &shape,
        Placement::upright(Rect::new(0.0, 0.0, 1.0, 1.0)),
        &cell()
    )
    .is_none());
}

#[test]
fn a_half_circle_arc_passes_through_its_apex() {
    let pieces = svg_arc(
        Point { x: 0.0, y: 0.0 },
        10.0,
        10.0,
        0.0,
        false,
        true,
        Point { x: 20.0, y: 0.0 },
    );
    assert_eq!(pieces.len(), 2);
    // Sweep-flag 1 from left to right goes through the top (y down: negative y).
    let mid = pieces[0].2;
    assert!(
        (mid.x - 10.0).abs() < 1e-9 && (mid.y + 10.0).abs() < 1e-9,
        "{mid:?}"
    );
    assert_eq!(pieces[1].2, Point { x: 20.0, y: 0.0 });
}

/// Cisco's token ring writes "Token" and "Ring" in its circle: each `<text>` at its point,
/// centred on it as it asks, in the font size (scaled with the stencil) and colour set
/// before it; a turned cell moves the point, not the writing.
#[test]
fn a_stencil_sets_its_texts_where_it_says() {
    let shape = named("mxgraph.cisco.misc.token").expect("the library has the token ring");
    // The stencil is 37.67 x 38: twice that size.
    let frame = Rect::new(10.0, 20.0, 75.34, 76.0);
    let (parts, texts) = draw_with_text(&shape, Placement::upright(frame), &cell()).unwrap();
    assert!(!parts.is_empty());
    let words: Vec<&str> = texts.iter().map(|t| t.text.as_str()).collect();
    assert_eq!(words, ["Token", "Ring"]);
    let token = &texts[0];
    assert!(
        (token.at.x - (10.0 + 19.0 * 2.0)).abs() < 1e-9,
        "{:?}",
        token.at
    );
    assert!(
        (token.at.y - (20.0 + 14.0 * 2.0)).abs() < 1e-9,
        "{:?}",
        token.at
    );
    assert_eq!((token.align, token.valign), (Align::Center, VAlign::Middle));
    assert!((token.size - 18.0).abs() < 0.05, "{}", token.size);
    assert_eq!(token.color, Color::rgb(0x03, 0x68, 0x97));
    // Without a `fontsize` or `align`: draw.io's 11 pt, set from the top left.
    let plain = inline(&encode(
        "<shape w=\"10\" h=\"10\"><foreground><text str=\"hi\" x=\"5\" y=\"0\"/></foreground></shape>",
    ))
    .unwrap();
    let (_, texts) = draw_with_text(
        &plain,
        Placement {
            degrees: 90.0,
            ..Placement::upright(Rect::new(0.0, 0.0, 10.0, 10.0))
        },
        &cell(),
    )
    .unwrap();
    assert_eq!((texts[0].size, texts[0].align), (11.0, Align::Left));
    // The top middle, turned a quarter clockwise, is the right middle.
    assert!((texts[0].at.x - 10.0).abs() < 1e-9 && (texts[0].at.y - 5.0).abs() < 1e-9);
}

/// A stencil's texts are bounded: 64 of them, 500 characters each.
#[test]
fn a_stencil_sets_at_most_64_texts_of_500_characters() {
    let long = "x".repeat(2_000);
    let many: String = (0..100)
        .map(|i| format!("<text str=\"{long}{i}\" x=\"0\" y=\"{i}\"/>"))
        .collect();
    let shape = inline(&encode(&format!(
        "<shape w=\"10\" h=\"100\"><foreground>{many}</foreground></shape>"
    )))
    .unwrap();
    let frame = Rect::new(0.0, 0.0, 10.0, 100.0);
    let (_, texts) = draw_with_text(&shape, Placement::upright(frame), &cell()).unwrap();
    assert_eq!(texts.len(), MAX_TEXTS);
    assert!(texts
        .iter()
        .all(|t| t.text.chars().count() == MAX_TEXT_CHARS));
}
