//! What a mermaid label holds that Quire does not draw: Font Awesome icons (`fa:fa-car`,
//! which mermaid replaces by `<i class="fa fa-car">` and a browser draws from the icon font
//! the page loads) and pictures (`<img src=...>`). Quire has neither the font nor a network;
//! both are left out of the drawn text with a warning, and the label's source is kept on the
//! shape (a class starting with [`SOURCE_CLASS`]) so the `.mmd` written back still has them.

use crate::parse::Label;

/// The class that carries a label's mermaid source through the model, while the drawn text
/// is what that source draws (an edited text drops it).
pub const SOURCE_CLASS: &str = "mermaid:label:";

/// The icons and pictures one or more labels held.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Undrawn {
    pub icons: Vec<String>,
    pub pictures: usize,
}

impl Undrawn {
    pub fn is_empty(&self) -> bool {
        self.icons.is_empty() && self.pictures == 0
    }

    pub fn add(&mut self, other: Undrawn) {
        self.icons.extend(other.icons);
        self.pictures += other.pictures;
    }

    /// The warnings for what was left out.
    pub fn sentences(&self) -> Vec<String> {
        let mut out = Vec::new();
        if !self.icons.is_empty() {
            let mut names: Vec<&str> = Vec::new();
            for icon in &self.icons {
                if !names.contains(&icon.as_str()) {
                    names.push(icon);
                }
            }
            let more = if names.len() > 5 { ", ..." } else { "" };
            names.truncate(5);
            out.push(format!(
                "{} Font Awesome icon{} ({}{more}) {} not drawn: no icon font is available; \
                 the .mmd export keeps {}",
                self.icons.len(),
                plural(self.icons.len()),
                names.join(", "),
                if self.icons.len() == 1 { "is" } else { "are" },
                if self.icons.len() == 1 { "it" } else { "them" },
            ));
        }
        if self.pictures > 0 {
            out.push(format!(
                "{} picture{} in labels (<img>) {} not drawn; the .mmd export keeps {}",
                self.pictures,
                plural(self.pictures),
                if self.pictures == 1 { "is" } else { "are" },
                if self.pictures == 1 { "it" } else { "them" },
            ));
        }
        out
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// The label's text without its icons, and what was taken out (pictures are counted here
/// and dropped by the label's HTML reading). Where an icon stood between two spaces one
/// space stays, as a browser collapses them.
pub fn strip(label: &Label) -> (String, Undrawn) {
    let text = &label.text;
    let mut undrawn = Undrawn {
        icons: Vec::new(),
        pictures: count_pictures(text),
    };
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some((before, prefix, tail)) = next_icon(rest) {
        let name_len = tail
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
            .unwrap_or(tail.len());
        let (name, after) = tail.split_at_checked(name_len).unwrap_or((tail, ""));
        let whole = format!("{prefix}{name}");
        undrawn.icons.push(whole);
        out.push_str(before);
        rest = match after.strip_prefix(' ') {
            Some(tail) if out.ends_with(' ') || out.is_empty() => tail,
            _ => after,
        };
    }
    out.push_str(rest);
    (out, undrawn)
}

/// The text before the next `fa:fa-NAME` (or `fab:`, `fak:`, `fal:`, `far:`, `fas:`), its
/// prefix up to the name, and the text from the name on.
fn next_icon(s: &str) -> Option<(&str, &str, &str)> {
    let mut searched = 0;
    while let Some((head, tail)) = s
        .get(searched..)
        .and_then(|rest| rest.find(":fa-"))
        .and_then(|i| s.split_at_checked(searched + i))
    {
        let style = ["fab", "fak", "fal", "far", "fas", "fa"]
            .into_iter()
            .find(|p| head.ends_with(p));
        let name = tail.strip_prefix(":fa-").unwrap_or_default();
        if let Some(style) = style.filter(|_| name.starts_with(|c: char| c.is_ascii_alphanumeric()))
        {
            let before = head.strip_suffix(style).unwrap_or(head);
            let prefix_end = head.len() + ":fa-".len();
            let prefix = s.get(before.len()..prefix_end).unwrap_or_default();
            return Some((before, prefix, name));
        }
        searched = head.len() + ":fa-".len();
    }
    None
}

/// `<img` tags in the label (HTML's tag names ignore case).
fn count_pictures(text: &str) -> usize {
    text.as_bytes()
        .windows(5)
        .filter(|w| {
            w[0] == b'<'
                && w[1..4].eq_ignore_ascii_case(b"img")
                && (w[4].is_ascii_whitespace() || w[4] == b'/' || w[4] == b'>')
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn label(text: &str) -> Label {
        Label {
            text: text.into(),
            markdown: false,
        }
    }

    #[test]
    fn icons_are_taken_out_with_one_of_their_spaces() {
        let (text, undrawn) = strip(&label("fa:fa-car for peace"));
        assert_eq!(text, "for peace");
        assert_eq!(undrawn.icons, ["fa:fa-car"]);
        let (text, undrawn) = strip(&label("A fa:fa-camera-retro perhaps? fab:fa-github"));
        assert_eq!(text, "A perhaps? ");
        assert_eq!(undrawn.icons, ["fa:fa-camera-retro", "fab:fa-github"]);
        // Not icons: no name, another prefix, a colon alone.
        let (text, undrawn) = strip(&label("fa:fa- x:fa-car a:b"));
        assert_eq!(text, "fa:fa- x:fa-car a:b");
        assert!(undrawn.is_empty());
    }

    #[test]
    fn pictures_are_counted() {
        let (_, undrawn) = strip(&label("<img src='x.png'/> <br/> Red <IMG>"));
        assert_eq!(undrawn.pictures, 2);
        assert!(strip(&label("<image> <imgx>")).1.is_empty());
    }

    #[test]
    fn sentences_name_the_icons() {
        let mut u = Undrawn::default();
        u.add(strip(&label("fa:fa-car fa:fa-car fa:fa-ban <img>")).1);
        let s = u.sentences();
        assert!(
            s[0].starts_with("3 Font Awesome icons (fa:fa-car, fa:fa-ban)"),
            "{s:?}"
        );
        assert!(s[1].starts_with("1 picture in labels"), "{s:?}");
    }
}
