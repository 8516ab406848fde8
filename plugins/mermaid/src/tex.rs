//! KaTeX formulas in labels (`$$\frac{1}{2}$$`), which mermaid typesets with KaTeX: drawn as
//! one line of italic Unicode text a reader can follow (x², √(x+3), 1/2, π r²), since the model's
//! text has no two-dimensional layout. The label's source is kept for the `.mmd` export
//! (see [`crate::undrawn`]).

/// How deep groups may nest and how long a formula may be before the rest stays as written.
const MAX_DEPTH: usize = 32;
const MAX_LEN: usize = 4096;

/// Whether `text` holds a `$$...$$` formula.
pub fn has_formula(text: &str) -> bool {
    text.split_once("$$")
        .is_some_and(|(_, rest)| rest.contains("$$"))
}

/// `text` with each `$$...$$` formula replaced by its one-line reading.
pub fn linearize_formulas(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some((before, after)) = rest.split_once("$$") {
        let Some((formula, tail)) = after.split_once("$$") else {
            break;
        };
        out.push_str(before);
        if formula.len() <= MAX_LEN {
            // In italics, as KaTeX sets a formula's letters (the label's HTML reading makes
            // the run); a `<` of the formula stays text.
            out.push_str("<i>");
            out.push_str(&linearize(formula).replace('<', "&lt;"));
            out.push_str("</i>");
        } else {
            out.push_str(formula);
        }
        rest = tail;
    }
    out.push_str(rest);
    out
}

/// One formula as a line of text.
pub fn linearize(tex: &str) -> String {
    let chars: Vec<char> = tex.chars().collect();
    let mut reader = Reader { chars, at: 0 };
    let out = reader.sequence(0, None);
    out.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace(" ;", ";")
}

struct Reader {
    chars: Vec<char>,
    at: usize,
}

impl Reader {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    /// Reads until `end` (a closing brace) or the end of the text.
    fn sequence(&mut self, depth: usize, end: Option<char>) -> String {
        let mut out = String::new();
        while let Some(c) = self.peek() {
            if Some(c) == end {
                self.at += 1;
                return out;
            }
            self.at += 1;
            match c {
                '\\' => out.push_str(&self.command(depth)),
                '{' => {
                    let inner = self.group_body(depth);
                    out.push_str(&inner);
                }
                '^' => {
                    let arg = self.argument(depth);
                    out.push_str(&script(&arg, SUPERSCRIPTS, '^'));
                }
                '_' => {
                    let arg = self.argument(depth);
                    out.push_str(&script(&arg, SUBSCRIPTS, '_'));
                }
                '&' => out.push(' '),
                '~' => out.push(' '),
                _ => out.push(c),
            }
        }
        out
    }

    fn group_body(&mut self, depth: usize) -> String {
        if depth >= MAX_DEPTH {
            // Too deep to read: the group is skipped whole.
            let mut open = 1usize;
            while let Some(c) = self.peek() {
                self.at += 1;
                match c {
                    '{' => open += 1,
                    '}' => {
                        open -= 1;
                        if open == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
            }
            return String::new();
        }
        self.sequence(depth + 1, Some('}'))
    }

    /// A command's argument: a braced group or one character (or command).
    fn argument(&mut self, depth: usize) -> String {
        while self.peek() == Some(' ') {
            self.at += 1;
        }
        match self.peek() {
            Some('{') => {
                self.at += 1;
                self.group_body(depth)
            }
            Some('\\') => {
                self.at += 1;
                self.command(depth)
            }
            Some(c) => {
                self.at += 1;
                c.to_string()
            }
            None => String::new(),
        }
    }

    fn command(&mut self, depth: usize) -> String {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
            self.at += 1;
        }
        let name: String = self.chars[start..self.at].iter().collect();
        if name.is_empty() {
            // A control symbol: `\\` breaks a row, `\,` and friends are spaces, `\{` is a brace.
            let Some(c) = self.peek() else {
                return String::new();
            };
            self.at += 1;
            return match c {
                '\\' => "; ".into(),
                ',' | ';' | ':' | '!' | ' ' => " ".into(),
                other => other.to_string(),
            };
        }
        match name.as_str() {
            "frac" | "dfrac" | "tfrac" => {
                let (a, b) = (self.argument(depth), self.argument(depth));
                format!("{}/{}", wrap(&a), wrap(&b))
            }
            "sqrt" => {
                let arg = self.argument(depth);
                format!("√{}", wrap(&arg))
            }
            "text" | "textrm" | "textbf" | "textit" | "mathrm" | "mathbf" | "mathit"
            | "operatorname" | "overbrace" | "underbrace" | "overline" | "underline" | "hat"
            | "bar" | "vec" | "tilde" | "mathbb" | "mathcal" | "boldsymbol" => self.argument(depth),
            "begin" => {
                let env = self.argument(depth);
                match env.as_str() {
                    "cases" => "{ ".into(),
                    "bmatrix" => "[ ".into(),
                    "pmatrix" => "( ".into(),
                    "vmatrix" => "| ".into(),
                    _ => String::new(),
                }
            }
            "end" => {
                let env = self.argument(depth);
                match env.as_str() {
                    "bmatrix" => " ]".into(),
                    "pmatrix" => " )".into(),
                    "vmatrix" => " |".into(),
                    _ => String::new(),
                }
            }
            "left" | "right" | "big" | "Big" | "bigg" | "Bigg" | "displaystyle" => String::new(),
            "quad" | "qquad" => " ".into(),
            other => match symbol(other) {
                Some(s) => s.to_string(),
                // Function names (`\sin`, `\log`) read as themselves.
                None => format!("{other} "),
            },
        }
    }
}

/// A frac's or root's argument, in brackets when it is more than one token.
fn wrap(s: &str) -> String {
    let s = s.trim();
    if s.chars().count() <= 1 || s.chars().all(|c| c.is_alphanumeric()) {
        s.to_string()
    } else {
        format!("({s})")
    }
}

const SUPERSCRIPTS: &[(char, char)] = &[
    ('0', '⁰'),
    ('1', '¹'),
    ('2', '²'),
    ('3', '³'),
    ('4', '⁴'),
    ('5', '⁵'),
    ('6', '⁶'),
    ('7', '⁷'),
    ('8', '⁸'),
    ('9', '⁹'),
    ('+', '⁺'),
    ('-', '⁻'),
    ('=', '⁼'),
    ('(', '⁽'),
    (')', '⁾'),
    ('n', 'ⁿ'),
    ('i', 'ⁱ'),
    ('t', 'ᵗ'),
];
const SUBSCRIPTS: &[(char, char)] = &[
    ('0', '₀'),
    ('1', '₁'),
    ('2', '₂'),
    ('3', '₃'),
    ('4', '₄'),
    ('5', '₅'),
    ('6', '₆'),
    ('7', '₇'),
    ('8', '₈'),
    ('9', '₉'),
    ('+', '₊'),
    ('-', '₋'),
    ('=', '₌'),
    ('(', '₍'),
    (')', '₎'),
    ('i', 'ᵢ'),
    ('n', 'ₙ'),
];

/// A super- or subscript in Unicode's raised or lowered characters where each has one,
/// else written with its mark (`^(note)`).
fn script(arg: &str, table: &[(char, char)], mark: char) -> String {
    let arg = arg.trim();
    let mapped: Option<String> = arg
        .chars()
        .map(|c| table.iter().find(|(from, _)| *from == c).map(|(_, to)| *to))
        .collect();
    match mapped {
        Some(s) if !s.is_empty() => s,
        _ if arg.chars().count() == 1 => format!("{mark}{arg}"),
        _ => format!("{mark}({arg})"),
    }
}

fn symbol(name: &str) -> Option<&'static str> {
    Some(match name {
        "alpha" => "α",
        "beta" => "β",
        "gamma" => "γ",
        "delta" => "δ",
        "epsilon" => "ε",
        "varepsilon" => "ε",
        "zeta" => "ζ",
        "eta" => "η",
        "theta" => "θ",
        "iota" => "ι",
        "kappa" => "κ",
        "lambda" => "λ",
        "mu" => "μ",
        "nu" => "ν",
        "xi" => "ξ",
        "pi" => "π",
        "rho" => "ρ",
        "sigma" => "σ",
        "tau" => "τ",
        "phi" => "φ",
        "varphi" => "φ",
        "chi" => "χ",
        "psi" => "ψ",
        "omega" => "ω",
        "Gamma" => "Γ",
        "Delta" => "Δ",
        "Theta" => "Θ",
        "Lambda" => "Λ",
        "Pi" => "Π",
        "Sigma" => "Σ",
        "Phi" => "Φ",
        "Psi" => "Ψ",
        "Omega" => "Ω",
        "times" => "×",
        "cdot" => "·",
        "div" => "÷",
        "pm" => "±",
        "mp" => "∓",
        "leq" | "le" => "≤",
        "geq" | "ge" => "≥",
        "neq" | "ne" => "≠",
        "approx" => "≈",
        "equiv" => "≡",
        "infty" => "∞",
        "sum" => "∑",
        "prod" => "∏",
        "int" => "∫",
        "partial" => "∂",
        "nabla" => "∇",
        "rightarrow" | "to" => "→",
        "leftarrow" => "←",
        "Rightarrow" => "⇒",
        "Leftarrow" => "⇐",
        "leftrightarrow" => "↔",
        "in" => "∈",
        "notin" => "∉",
        "subset" => "⊂",
        "cup" => "∪",
        "cap" => "∩",
        "forall" => "∀",
        "exists" => "∃",
        "ldots" | "dots" | "cdots" => "…",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_read_as_one_line() {
        assert_eq!(linearize(r"x^2"), "x²");
        assert_eq!(linearize(r"\sqrt{x+3}"), "√(x+3)");
        assert_eq!(linearize(r"\frac{1}{2}"), "1/2");
        assert_eq!(linearize(r"\pi r^2"), "π r²");
        assert_eq!(
            linearize(r"\overbrace{a+b+c}^{\text{note}}"),
            "a+b+c^(note)"
        );
        assert_eq!(
            linearize(r"x = \begin{cases} a &\text{if } b \\ c &\text{if } d \end{cases}"),
            "x = { a if b; c if d"
        );
        assert_eq!(
            linearize(r"x(t)=c_1\begin{bmatrix}-\cos{t}+\sin{t}\\ 2\cos{t} \end{bmatrix}e^{2t}"),
            "x(t)=c₁[ -cos t+sin t; 2cos t ]e²ᵗ"
        );
    }

    #[test]
    fn labels_keep_their_text_around_formulas_and_hostile_ones_stay_bounded() {
        assert_eq!(
            linearize_formulas("area $$\\pi r^2$$ here"),
            "area <i>π r²</i> here"
        );
        assert_eq!(linearize_formulas("$$a<b$$"), "<i>a&lt;b</i>");
        assert_eq!(linearize_formulas("one $$ only"), "one $$ only");
        assert!(has_formula("a $$x$$") && !has_formula("a $$ b"));
        let deep = format!("{}x{}", "{".repeat(10_000), "}".repeat(10_000));
        assert!(linearize(&deep).len() < 10);
        let _ = linearize(r"\frac{\sqrt");
        let _ = linearize(r"\\\\^_{");
    }
}
