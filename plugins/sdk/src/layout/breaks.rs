//! Where a line may break: the Unicode line breaking algorithm (UAX #14, `unicode-linebreak`)
//! over the atoms of a whole text, once per layout call, with two additions:
//!
//! - Thai, Lao, Khmer and Myanmar (class SA) write words without spaces between them; the
//!   host's dictionaries find the word boundaries ([`fonts::word_breaks`], one call per run
//!   of such characters). Without an answer (no library) such a run breaks between its
//!   clusters.
//! - A hyphen that starts a word does not break from it (`-v`; UAX #14 LB20.1, which
//!   Unicode 15.1 added and the tables of `unicode-linebreak`, Unicode 15.0, lack).
//!
//! Most Latin text needs no pair table: the text is cut into chunks at a run of spaces
//! between two ASCII letters or digits (`word | word`), where UAX #14 always allows a break
//! and forgets what came before; a chunk of letters, digits, spaces, `,.;:` and quotes
//! breaks only after spaces under UAX #14 too ([`simple`]), and only the other chunks go
//! through `unicode-linebreak`. The test `chunks_agree_with_uax14_over_the_whole_text`
//! holds the two together.

use unicode_linebreak::{break_property, linebreaks, BreakClass};

use super::Atom;
use crate::fonts;

/// `allowed[i]`: a line may end before `atoms[i]` (never before a `joined` atom). The
/// layout honours an opportunity only once its line holds something other than spaces.
pub(super) fn opportunities(atoms: &[Atom]) -> Vec<bool> {
    let mut allowed = vec![false; atoms.len()];
    let mut buf = String::new();
    let mut has_sa = false;
    let mut chunk = 0;
    let mut chunk_simple = true;
    // `atoms[i - 1]` is a space, and the last atom before the spaces is an ASCII letter
    // or digit.
    let mut after_space = false;
    let mut after_word = false;
    for (i, a) in atoms.iter().enumerate() {
        let alnum = a.ch.is_ascii_alphanumeric();
        if alnum && after_space && after_word && i > chunk {
            if !chunk_simple {
                has_sa |= uax14(&atoms[chunk..i], &mut allowed[chunk..i], &mut buf);
            }
            chunk = i;
            chunk_simple = true;
        }
        match simple(a.ch) {
            Some(Simple::Word) => {
                allowed[i] = after_space;
                after_space = false;
                after_word = alnum;
            }
            Some(Simple::Space) => after_space = true,
            Some(Simple::Glue) => {
                after_space = false;
                after_word = false;
            }
            None => {
                chunk_simple = false;
                after_space = false;
                after_word = false;
            }
        }
    }
    if !chunk_simple {
        has_sa |= uax14(&atoms[chunk..], &mut allowed[chunk..], &mut buf);
    }
    if has_sa {
        dictionary_breaks(atoms, &mut allowed);
    }
    for (b, a) in allowed.iter_mut().zip(atoms) {
        *b &= !a.joined;
    }
    allowed
}

enum Simple {
    /// Letters, digits and quotes (AL, NU, QU): a break before one after spaces (LB18).
    Word,
    Space,
    /// `,.;:` and `\n`: no break before them (LB13, LB6); after `\n` the layout breaks
    /// anyway.
    Glue,
}

/// Which of the few classes whose breaks need no pair table `ch` is in, if any.
fn simple(ch: char) -> Option<Simple> {
    match ch {
        'a'..='z' | 'A'..='Z' | '0'..='9' | '\'' | '"' => Some(Simple::Word),
        ' ' => Some(Simple::Space),
        ',' | '.' | ';' | ':' | '\n' => Some(Simple::Glue),
        _ => None,
    }
}

/// Sets `allowed[1..]` for `chunk` by UAX #14 from its start (`allowed[0]` stays: the
/// chunk starts the text or a word after spaces). Whether the chunk holds SA characters.
fn uax14(chunk: &[Atom], allowed: &mut [bool], buf: &mut String) -> bool {
    buf.clear();
    buf.extend(chunk.iter().map(|a| a.ch));
    let mut breaks = linebreaks(buf).map(|(at, _)| at).peekable();
    let mut byte = 0;
    let mut has_sa = false;
    for (i, a) in chunk.iter().enumerate() {
        while breaks.next_if(|&at| at < byte).is_some() {}
        if i > 0 {
            allowed[i] = breaks.peek() == Some(&byte);
        }
        byte += a.ch.len_utf8();
        has_sa |= !a.ch.is_ascii() && is_sa(a.ch);
        // LB20.1: `(sot | SP ...) HY × AL`; a chunk starts at the text's start or with a
        // letter, so the hyphen's context is inside it.
        if i > 0
            && is_hyphen(chunk[i - 1].ch)
            && (i == 1 || word_initial(chunk[i - 2].ch))
            && matches!(
                break_property(a.ch as u32),
                BreakClass::Alphabetic | BreakClass::HebrewLetter
            )
        {
            allowed[i] = false;
        }
    }
    has_sa
}

fn is_hyphen(ch: char) -> bool {
    matches!(ch, '-' | '\u{2010}')
}

/// Whether a word may start after `ch`: a space, a break or a glue character.
fn word_initial(ch: char) -> bool {
    matches!(
        break_property(ch as u32),
        BreakClass::Space
            | BreakClass::Mandatory
            | BreakClass::CarriageReturn
            | BreakClass::LineFeed
            | BreakClass::NextLine
            | BreakClass::ZeroWidthSpace
            | BreakClass::NonBreakingGlue
            | BreakClass::Contingent
    )
}

fn is_sa(ch: char) -> bool {
    break_property(ch as u32) == BreakClass::ComplexContext
}

/// Opportunities inside each run of SA characters, where the dictionaries put a word
/// boundary; between clusters when there is no answer.
fn dictionary_breaks(atoms: &[Atom], allowed: &mut [bool]) {
    let mut i = 0;
    while i < atoms.len() {
        if !is_sa(atoms[i].ch) {
            i += 1;
            continue;
        }
        let start = i;
        while i < atoms.len() && is_sa(atoms[i].ch) {
            i += 1;
        }
        let run = &atoms[start..i];
        let text: String = run.iter().map(|a| a.ch).collect();
        let words = fonts::word_breaks(&text);
        let list: &[u32] = words.as_deref().map_or(&[], Vec::as_slice);
        let mut byte = 0;
        let mut next = list.iter().copied().peekable();
        for (k, a) in run.iter().enumerate() {
            while next.next_if(|&at| (at as usize) < byte).is_some() {}
            if k > 0 {
                allowed[start + k] =
                    !a.joined && (words.is_none() || next.peek() == Some(&(byte as u32)));
            }
            byte += a.ch.len_utf8();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn atoms(s: &str) -> Vec<Atom> {
        s.char_indices()
            .map(|(byte, ch)| Atom {
                run: 0,
                byte,
                ch,
                width: 1.0,
                joined: false,
                level: 0,
                rtl_paragraph: false,
            })
            .collect()
    }

    /// UAX #14 over the whole of `s` with LB20.1: what [`opportunities`] must find.
    fn reference(s: &str) -> Vec<bool> {
        let chars: Vec<char> = s.chars().collect();
        let mut allowed = vec![false; chars.len()];
        let starts: Vec<usize> = s.char_indices().map(|(b, _)| b).collect();
        for (at, _) in linebreaks(s) {
            if let Ok(i) = starts.binary_search(&at) {
                allowed[i] = true;
            }
        }
        for i in 1..chars.len() {
            if is_hyphen(chars[i - 1])
                && (i == 1 || word_initial(chars[i - 2]))
                && break_property(chars[i] as u32) == BreakClass::Alphabetic
            {
                allowed[i] = false;
            }
        }
        allowed
    }

    fn check(s: &str) {
        let found = opportunities(&atoms(s));
        let mut expected = reference(s);
        // The mandatory break after `\n` is the layout's business, not an opportunity.
        for (i, c) in s.chars().enumerate() {
            if c == '\n' {
                if let Some(b) = expected.get_mut(i + 1) {
                    *b = found[i + 1];
                }
            }
        }
        assert_eq!(found, expected, "{s:?}");
    }

    #[test]
    fn chunks_agree_with_uax14_over_the_whole_text() {
        let alphabet = [
            'a', 'Z', '7', ' ', ',', '.', ':', '\'', '"', '\n', '-', '(', ')', '!', '$', '日', '。',
        ];
        // Every string of up to four characters of the alphabet...
        let mut strings = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..4 {
            let mut longer = Vec::new();
            for s in &last {
                for c in alphabet {
                    longer.push(format!("{s}{c}"));
                }
            }
            strings.extend(longer.iter().cloned());
            last = longer;
        }
        // ... and longer ones from a fixed generator, with letters and spaces often, so
        // that chunks form.
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..20_000 {
            let mut s = String::new();
            for _ in 0..16 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let pick = (seed % 40) as usize;
                s.push(match pick {
                    0..=9 => 'a',
                    10..=16 => ' ',
                    _ => alphabet[pick % alphabet.len()],
                });
            }
            strings.push(s);
        }
        strings.push(
            "Lorem ipsum, dolor sit amet. \"Quoted\" isn't 1.5 or 2,000 ; here : there".into(),
        );
        strings.push(
            "a (semi-)automatic, co\u{2010}operation -v -- x 12-3 [see] {x} 50 % $ 5 \u{2014}"
                .into(),
        );
        for s in strings {
            check(&s);
        }
    }

    #[test]
    fn uax14_classes_decide() {
        let allowed = |s: &str| -> Vec<usize> {
            opportunities(&atoms(s))
                .iter()
                .enumerate()
                .filter(|(_, &b)| b)
                .map(|(i, _)| i)
                .collect()
        };
        // After a hyphen, not before a closing parenthesis, not after a word-initial hyphen.
        assert_eq!(allowed("well-known"), [5]);
        assert!(allowed("(semi-)auto").is_empty());
        assert_eq!(allowed("a -v"), [2]);
        // Between ideographs, not before `。` or after `「`.
        assert_eq!(allowed("日本「語」。"), [1, 2]);
        // Small kana and the prolonged sound mark (CJ) hold to what precedes (as NS).
        assert_eq!(allowed("行ったー"), [2]);
        // No dictionary and no library: Thai breaks between clusters.
        assert_eq!(allowed("ไทย"), [1, 2]);
        // Never inside a shaped cluster.
        let mut a = atoms("ไทย");
        a[1].joined = true;
        assert_eq!(opportunities(&a), [false, false, true]);
    }
}
