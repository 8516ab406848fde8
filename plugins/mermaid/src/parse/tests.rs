//! The parser on the syntax mermaid documents, and on what it refuses.

use super::*;

fn chart(text: &str) -> Flowchart {
    parse(text).unwrap_or_else(|e| panic!("{e:?}\n{text}"))
}

fn damaged(text: &str) -> String {
    match parse(text).and_then(resolve) {
        Err(ConvertError::Damaged(m)) => m,
        other => panic!("expected a damaged error, got {other:?}"),
    }
}

fn edge(c: &Flowchart, i: usize) -> (&str, &str, Head, Head, Stroke, u32) {
    let e = &c.edges[i];
    (&e.from, &e.to, e.start, e.end, e.stroke, e.length)
}

#[test]
fn headers_and_directions() {
    for (text, dir) in [
        ("graph TD\nA", Direction::TopBottom),
        ("flowchart LR;A-->B", Direction::LeftRight),
        ("flowchart\nA", Direction::TopBottom),
        ("graph BT\nA", Direction::BottomTop),
        ("graph RL\nA", Direction::RightLeft),
        ("graph >\nA", Direction::LeftRight),
        (
            "%%{init: {\"theme\": \"dark\"}}%%\n%% note\nflowchart TB\nA",
            Direction::TopBottom,
        ),
    ] {
        assert_eq!(chart(text).direction, dir, "{text}");
    }
    let c =
        chart("---\ntitle: \"Hello: world\"\nconfig:\n  htmlLabels: false\n---\nflowchart LR\nA");
    assert_eq!(c.title.as_deref(), Some("Hello: world"));
}

#[test]
fn other_diagrams_are_refused_by_their_keyword() {
    for kw in [
        "sequenceDiagram",
        "classDiagram",
        "stateDiagram-v2",
        "erDiagram",
        "gantt",
        "pie",
        "journey",
        "gitGraph",
        "mindmap",
        "timeline",
        "quadrantChart",
        "xychart-beta",
        "sankey-beta",
        "block-beta",
        "C4Context",
        "requirementDiagram",
        "architecture-beta",
        "kanban",
        "packet-beta",
        "radar-beta",
    ] {
        match parse(&format!("---\ntitle: x\n---\n%% c\n{kw}\n  stuff here\n")) {
            Err(ConvertError::Refused { kind, detail }) => {
                assert_eq!(kind, kw);
                assert!(
                    detail.starts_with(&format!("mermaid {kw} diagrams cannot")),
                    "{detail}"
                );
            }
            other => panic!("{kw}: {other:?}"),
        }
    }
}

#[test]
fn syntax_errors_name_line_and_column() {
    assert_eq!(
        damaged("flowchart TD\n  A[unclosed --> B\n"),
        "line 2, column 4: the shape opened with `[` is never closed by `]`"
    );
    assert!(damaged("flowchart TD\n  A --> \n").starts_with("line 2, column 9: expected a node id"));
    assert!(damaged("hello world").starts_with("line 1, column 1: expected `flowchart` or `graph`"));
    assert!(damaged("flowchart TD\nsubgraph x\nA\n")
        .starts_with("line 2, column 1: this subgraph is never closed"));
    assert!(damaged("flowchart TD\nend\n").contains("`end` without a subgraph"));
    assert!(damaged("flowchart TD\nA-->B\nlinkStyle 4 stroke:red\n").contains("names link 4"));
    assert!(damaged("---\ntitle: x\nflowchart TD\n").contains("never closed by another `---`"));
    assert!(damaged("flowchart TD\nA -- text\n").contains("line 2, column 3"));
    assert!(damaged("").contains("holds no diagram"));
}

#[test]
fn every_link_kind() {
    let c = chart(
        "flowchart LR\nA-->B\nA---B\nA-.->B\nA-.-B\nA==>B\nA===B\nA~~~B\nA--oB\nA--xB\nA<-->B\n\
         A o--o B\nA x--x B\nA--->B\nA---->B\nA-...->B\nA====>B\nA <-.-> B\nA .-> B\n",
    );
    use Head::*;
    use Stroke::*;
    let want = [
        (None, Arrow, Normal, 1),
        (None, None, Normal, 1),
        (None, Arrow, Dotted, 1),
        (None, None, Dotted, 1),
        (None, Arrow, Thick, 1),
        (None, None, Thick, 1),
        (None, None, Invisible, 1),
        (None, Circle, Normal, 1),
        (None, Cross, Normal, 1),
        (Arrow, Arrow, Normal, 1),
        (Circle, Circle, Normal, 1),
        (Cross, Cross, Normal, 1),
        (None, Arrow, Normal, 2),
        (None, Arrow, Normal, 3),
        (None, Arrow, Dotted, 3),
        (None, Arrow, Thick, 3),
        (Arrow, Arrow, Dotted, 1),
        (None, Arrow, Dotted, 1),
    ];
    assert_eq!(c.edges.len(), want.len());
    for (i, w) in want.iter().enumerate() {
        let (a, b, s, e, k, l) = edge(&c, i);
        assert_eq!((a, b), ("A", "B"), "link {i}");
        assert_eq!((s, e, k, l), *w, "link {i}");
    }
}

#[test]
fn labels_in_both_syntaxes_chains_and_ampersands() {
    let c = chart(
        "flowchart LR\nA-- This is the text! ---B\nA-->|text|B\nA -. dots .-> B\nA == fat ==> B\n\
         A -- \"quoted\" --> B\nA -->|\"with | pipe\"| B\nA <-- both --> B\n",
    );
    let labels: Vec<&str> = c
        .edges
        .iter()
        .map(|e| e.label.as_ref().map(|l| l.text.trim()).unwrap_or(""))
        .collect();
    assert_eq!(
        labels,
        [
            "This is the text!",
            "text",
            "dots",
            "fat",
            "quoted",
            "with | pipe",
            "both"
        ]
    );
    assert_eq!(c.edges[6].start, Head::Arrow);
    assert_eq!(c.edges[3].stroke, Stroke::Thick);

    let c = chart("flowchart LR\n a --> b & c--> d\nA & B--> C & D\nx -- t1 --> y -- t2 --> z\n");
    let pairs: Vec<(&str, &str)> = c
        .edges
        .iter()
        .map(|e| (e.from.as_str(), e.to.as_str()))
        .collect();
    assert_eq!(
        pairs,
        [
            ("a", "b"),
            ("a", "c"),
            ("b", "d"),
            ("c", "d"),
            ("A", "C"),
            ("A", "D"),
            ("B", "C"),
            ("B", "D"),
            ("x", "y"),
            ("y", "z")
        ]
    );
}

#[test]
fn shapes_classic_and_v11() {
    let c = chart(
        "flowchart TD\na[x]\nb(x)\nc([x])\nd[[x]]\ne[(x)]\nf((x))\ng>x]\nh{x}\ni{{x}}\nj[/x/]\n\
         k[\\x\\]\nl[/x\\]\nm[\\x/]\nn(((x)))\no@{ shape: cyl, label: \"Data\nbase\" }\np:::hot\n",
    );
    use Classic::*;
    let want = [
        Square,
        Round,
        Stadium,
        Subroutine,
        Cylinder,
        Circle,
        Odd,
        Diamond,
        Hexagon,
        LeanRight,
        LeanLeft,
        Trapezoid,
        InvTrapezoid,
        DoubleCircle,
    ];
    for (v, w) in c.vertices.iter().zip(want) {
        assert_eq!(v.shape, Some(ShapeName::Classic(w)), "{}", v.id);
        assert_eq!(v.label.as_ref().map(|l| l.text.as_str()), Some("x"));
    }
    assert_eq!(c.vertices[14].shape, Some(ShapeName::Named("cyl".into())));
    assert_eq!(c.vertices[14].label.as_ref().unwrap().text, "Data<br/>base");
    assert_eq!(c.vertices[15].classes, ["hot"]);
}

#[test]
fn edge_ids_metadata_and_classes_on_links() {
    let c = chart(
        "flowchart LR\nA e1@--> B e2@==> C\ne1@{ curve: natural }\nclassDef animate stroke-dasharray: 9,5\nclass e1 animate\n",
    );
    assert_eq!(c.vertices.len(), 3, "edge metadata makes no node");
    assert_eq!(c.edges[0].id.as_deref(), Some("e1"));
    assert_eq!(c.edges[1].id.as_deref(), Some("e2"));
    assert_eq!(c.edges[1].stroke, Stroke::Thick);
    assert_eq!(c.edges[0].classes, ["animate"]);
}

#[test]
fn subgraph_ids_titles_and_membership() {
    let c = chart(
        "flowchart TB\nc1-->a2\nsubgraph one\na1-->a2\nend\nsubgraph ide1 [one two]\nb1\nend\n\
         subgraph \"Quoted\"\nq\nend\nsubgraph with spaces\nw\nend\nsubgraph outer\nsubgraph inner\n\
         direction LR\ni\nend\no\nend\nouter --> one\n",
    );
    let r = resolve(c).unwrap();
    let ids: Vec<&str> = r.chart.subgraphs.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(
        ids,
        ["one", "ide1", "Quoted", "subGraph3", "inner", "outer"]
    );
    let titles: Vec<&str> = r
        .chart
        .subgraphs
        .iter()
        .map(|s| s.title.text.as_str())
        .collect();
    assert_eq!(
        titles,
        ["one", "one two", "Quoted", "with spaces", "inner", "outer"]
    );
    assert_eq!(r.chart.subgraphs[4].direction, Some(Direction::LeftRight));
    let parent_of = |id: &str| {
        let i = r.nodes.iter().position(|v| v.id == id).unwrap();
        r.node_parent[i].map(|g| r.chart.subgraphs[g].id.as_str())
    };
    assert_eq!(parent_of("a2"), Some("one"));
    assert_eq!(parent_of("c1"), None);
    assert_eq!(parent_of("i"), Some("inner"));
    assert_eq!(parent_of("o"), Some("outer"));
    assert_eq!(r.group_parent[4], Some(5));
    // `outer --> one` links two subgraphs: no node is made for them.
    assert!(r.nodes.iter().all(|v| v.id != "outer" && v.id != "one"));
    assert_eq!(r.edges.last(), Some(&(EndId::Group(5), EndId::Group(0))));
}

#[test]
fn styles_links_comments_and_accessibility() {
    let c = chart(
        "flowchart LR\n  accTitle: The title\n  accDescr {\n  long\n  description\n  }\n\
         %% a comment A --> Z\nA-->B %% trailing\nstyle A fill:#f9f,stroke:#333,stroke-width:4px\n\
         linkStyle default color:Sienna;\nlinkStyle 0 stroke:gold, stroke-width:4px\n\
         classDef x,y fill:#0CF\nclass A,B x\nclick A href \"https://example.com\" _blank\n",
    );
    assert_eq!(c.acc_title.as_deref(), Some("The title"));
    assert_eq!(c.acc_descr.as_deref(), Some("long\n  description"));
    assert_eq!(c.vertices.len(), 2, "comments hold no nodes");
    assert_eq!(c.vertices[0].styles[0], ("fill".into(), "#f9f".into()));
    assert_eq!(c.vertices[0].classes, ["x"]);
    assert_eq!(c.vertices[0].link.as_deref(), Some("https://example.com"));
    assert_eq!(c.class_defs.len(), 2);
    let e = &c.edges[0];
    assert_eq!(e.styles[0], ("color".into(), "Sienna".into()));
    assert!(e.styles.contains(&("stroke".into(), "gold".into())));
}

#[test]
fn unicode_ids_and_quoted_labels_with_brackets() {
    let c = chart(
        "graph TD\n9e12_x(\"fa:fa-circle [DBServer\\SharedDbInstance].[SupportDb]\")\nsid-B36-6C[\"\n\n提交\n\"];\n\
         ünï --> 日本\nA[\"A double quote:#quot;\"]\n",
    );
    assert_eq!(c.vertices[0].id, "9e12_x");
    assert_eq!(
        c.vertices[0].label.as_ref().unwrap().text,
        "fa:fa-circle [DBServer\\SharedDbInstance].[SupportDb]"
    );
    assert_eq!(c.vertices[1].id, "sid-B36-6C");
    assert_eq!(c.vertices[2].id, "ünï");
    assert_eq!(c.vertices[3].id, "日本");
    let md = chart("flowchart LR\na(\"`The **cat**\n  in the hat`\") --> b\n");
    let l = md.vertices[0].label.as_ref().unwrap();
    assert!(l.markdown);
    assert_eq!(l.text, "The **cat**\n  in the hat");
}
