//! MathML as one line of text. The model has no formula layout, and dropping formulas would
//! leave holes in sentences ("where a ≠ 0"), so a `<math>` element becomes its `alttext`, else
//! its TeX annotation, else its presentation markup linearised the way people type maths:
//! `(a)/(b)` for fractions, `x^2` and `x_i` for scripts, `√(x)` for roots.

use ego_tree::NodeRef;
use scraper::Node;

/// Nesting deeper than this is read as plain text; formulas are never this deep.
const MAX_DEPTH: usize = 48;

pub fn linearize(math: NodeRef<'_, Node>) -> String {
    if let Node::Element(e) = math.value() {
        if let Some(alt) = e.attr("alttext").filter(|a| !a.trim().is_empty()) {
            return collapse(alt);
        }
    }
    let tex = math.descendants().find(|n| match n.value() {
        Node::Element(e) => {
            e.name() == "annotation"
                && e.attr("encoding")
                    .is_some_and(|enc| enc.eq_ignore_ascii_case("application/x-tex"))
        }
        _ => false,
    });
    if let Some(tex) = tex {
        let text = plain(tex);
        if !text.trim().is_empty() {
            return collapse(&text);
        }
    }
    let mut out = String::new();
    children(math, &mut out, 0);
    collapse(&out)
}

fn children(node: NodeRef<'_, Node>, out: &mut String, depth: usize) {
    for child in node.children() {
        element(child, out, depth + 1);
    }
}

fn element(node: NodeRef<'_, Node>, out: &mut String, depth: usize) {
    let e = match node.value() {
        Node::Text(t) => {
            out.push_str(t.trim());
            return;
        }
        Node::Element(e) => e,
        _ => return,
    };
    if depth > MAX_DEPTH {
        out.push_str(&plain(node));
        return;
    }
    let args: Vec<NodeRef<'_, Node>> = node
        .children()
        .filter(|c| matches!(c.value(), Node::Element(_)))
        .collect();
    let arg = |i: usize| -> String {
        let mut s = String::new();
        if let Some(n) = args.get(i) {
            element(*n, &mut s, depth + 1);
        }
        s
    };
    match e.name() {
        "annotation" | "annotation-xml" | "none" | "mprescripts" => {}
        "mo" => {
            let op = plain(node);
            let op = op.trim();
            // Relations and binary operators read better with room around them.
            // A sign at the start of a group is unary: `-b`, not `- b`.
            let unary = out.trim_end().is_empty() && "+−-±".contains(op);
            if op.chars().count() == 1 && "=<>≤≥≠≈≡+−-×÷±→⇒∈".contains(op) && !unary
            {
                out.push(' ');
                out.push_str(op);
                out.push(' ');
            } else {
                out.push_str(op);
            }
        }
        "mfrac" if args.len() == 2 => {
            out.push_str(&group(&arg(0)));
            out.push('/');
            out.push_str(&group(&arg(1)));
        }
        "msup" if args.len() == 2 => {
            out.push_str(&arg(0));
            out.push('^');
            out.push_str(&group(&arg(1)));
        }
        "msub" if args.len() == 2 => {
            out.push_str(&arg(0));
            out.push('_');
            out.push_str(&group(&arg(1)));
        }
        "msubsup" if args.len() == 3 => {
            out.push_str(&arg(0));
            out.push('_');
            out.push_str(&group(&arg(1)));
            out.push('^');
            out.push_str(&group(&arg(2)));
        }
        "munderover" if args.len() == 3 => {
            out.push_str(&arg(0));
            out.push('_');
            out.push_str(&group(&arg(1)));
            out.push('^');
            out.push_str(&group(&arg(2)));
            out.push(' ');
        }
        "munder" if args.len() == 2 => {
            out.push_str(&arg(0));
            out.push('_');
            out.push_str(&group(&arg(1)));
            out.push(' ');
        }
        "msqrt" => {
            let mut inner = String::new();
            children(node, &mut inner, depth);
            out.push('√');
            out.push_str(&group(&inner));
        }
        "mroot" if args.len() == 2 => {
            out.push_str(&format!("root{}", group(&arg(1))));
            out.push_str(&group(&arg(0)));
        }
        _ => children(node, out, depth),
    }
}

/// A formula part in parentheses unless it is one symbol or number.
fn group(s: &str) -> String {
    let s = s.trim();
    let simple = s.chars().count() <= 1 || s.chars().all(|c| c.is_ascii_digit() || c == '.');
    if simple {
        s.to_string()
    } else {
        format!("({s})")
    }
}

/// All text below `node`, without recursion.
fn plain(node: NodeRef<'_, Node>) -> String {
    node.descendants()
        .filter_map(|n| match n.value() {
            Node::Text(t) => Some(&**t),
            _ => None,
        })
        .collect()
}

fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use scraper::Html;

    fn lin(html: &str) -> String {
        let doc = Html::parse_document(html);
        let math = doc
            .tree
            .root()
            .descendants()
            .find(|n| matches!(n.value(), Node::Element(e) if e.name() == "math"))
            .expect("a math element");
        linearize(math)
    }

    #[test]
    fn linearises_presentation_markup() {
        assert_eq!(lin("<math><mi>a</mi><mo>≠</mo><mn>0</mn></math>"), "a ≠ 0");
        assert_eq!(
            lin("<math><mi>x</mi><mo>=</mo><mfrac><mrow><mo>-</mo><mi>b</mi></mrow><mrow><mn>2</mn><mi>a</mi></mrow></mfrac></math>"),
            "x = (-b)/(2a)"
        );
        assert_eq!(
            lin("<math><msup><mi>x</mi><mn>2</mn></msup><msub><mi>y</mi><mi>ij</mi></msub><msqrt><mi>z</mi></msqrt></math>"),
            "x^2y_(ij)√z"
        );
        assert_eq!(
            lin("<math><munderover><mo>∑</mo><mrow><mi>k</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi></munderover><mi>k</mi></math>"),
            "∑_(k = 1)^n k"
        );
    }

    #[test]
    fn prefers_alttext_and_tex() {
        assert_eq!(lin("<math alttext='a^2'><mi>ignored</mi></math>"), "a^2");
        assert_eq!(
            lin("<math><semantics><mi>q</mi><annotation encoding='application/x-tex'>\\frac{1}{2}</annotation></semantics></math>"),
            "\\frac{1}{2}"
        );
    }
}
