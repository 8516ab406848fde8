//! The parts of layout only some scripts need: bidi levels for paragraphs holding
//! right-to-left text or set right to left ([`Text::direction`]), and shaped widths for
//! scripts whose glyphs depend on their neighbours. Latin text never gets here past two
//! cheap scans.

use std::collections::HashMap;

use unicode_bidi::{BidiInfo, Level};

use super::Atom;
use crate::fonts;
use crate::metrics::FontFace;
use crate::model::{Direction, Text};

/// Sets each atom's bidi level and paragraph direction, paragraph by paragraph (`\n`
/// separates them), for paragraphs with a right-to-left character or whose `direction` is
/// right to left; others stay level 0, which is what a left-to-right paragraph without
/// right-to-left characters resolves to.
pub(super) fn resolve_bidi(atoms: &mut [Atom], direction: Option<Direction>) {
    let mut start = 0;
    while start < atoms.len() {
        let end = atoms[start..]
            .iter()
            .position(|a| a.ch == '\n')
            .map_or(atoms.len(), |p| start + p);
        if direction == Some(Direction::Rtl)
            || atoms[start..end].iter().any(|a| fonts::is_rtl(a.ch))
        {
            resolve_paragraph(&mut atoms[start..end], direction);
        }
        start = end + 1;
    }
}

fn resolve_paragraph(atoms: &mut [Atom], direction: Option<Direction>) {
    let text: String = atoms.iter().map(|a| a.ch).collect();
    // The text's direction is the paragraph embedding level; without one the first strong
    // character decides (UAX #9 P2, P3).
    let level = direction.map(|d| match d {
        Direction::Ltr => Level::ltr(),
        Direction::Rtl => Level::rtl(),
    });
    let info = BidiInfo::new(&text, level);
    let rtl = info.paragraphs.first().is_some_and(|p| p.level.is_rtl());
    for (atom, (byte, _)) in atoms.iter_mut().zip(text.char_indices()) {
        atom.level = info.levels.get(byte).map_or(0, |l| l.number());
        atom.rtl_paragraph = rtl;
    }
}

/// Gives the atoms of every stretch that needs shaping the widths of their shaped
/// clusters: a stretch is a run's consecutive characters drawn from one library face at one
/// direction, between spaces, with at least one character that needs shaping. A cluster's
/// first atom takes the width of all its glyphs; the others take none and are `joined`.
pub(super) fn shape_clusters(text: &Text, atoms: &mut [Atom]) {
    if !atoms.iter().any(|a| fonts::needs_shaping(a.ch)) {
        return;
    }
    let keys: Vec<Option<StretchKey>> = (0..atoms.len())
        .map(|i| stretch_key(text, atoms, i))
        .collect();
    let mut i = 0;
    while i < atoms.len() {
        let Some(key) = keys[i] else {
            i += 1;
            continue;
        };
        let mut end = i + 1;
        // Joiners have no glyph of their own but steer the shaping of their word.
        while end < atoms.len() && (fonts::is_joiner(atoms[end].ch) || keys[end] == Some(key)) {
            end += 1;
        }
        if atoms[i..end].iter().any(|a| fonts::needs_shaping(a.ch)) {
            shape_stretch(text, &mut atoms[i..end], key);
        }
        i = end;
    }
}

/// What a stretch shares: run, library face, direction.
type StretchKey = (usize, u32, bool);

/// The stretch atom `i` belongs to, none when the run's standard face draws it. Like the
/// exports, a letter followed by marks the standard face lacks goes with them
/// ([`fonts::face_lead`]).
fn stretch_key(text: &Text, atoms: &[Atom], i: usize) -> Option<StretchKey> {
    let a = &atoms[i];
    if a.ch.is_whitespace() {
        return None;
    }
    let run = text.runs.get(a.run)?;
    let face = FontFace::of_run(run);
    // The letter and the marks of its own run: a cluster never spans runs.
    let cluster: Vec<char> = atoms[i..]
        .iter()
        .take_while(|b| b.run == a.run)
        .take(1 + fonts::MARKS_PER_CLUSTER)
        .map(|b| b.ch)
        .collect();
    let lead = fonts::face_lead(face, &cluster, 0)?;
    let glyph = fonts::glyph(face, lead)?;
    Some((a.run, glyph.face, a.level % 2 == 1))
}

fn shape_stretch(text: &Text, atoms: &mut [Atom], (run, face, rtl): StretchKey) {
    let Some(r) = text.runs.get(run) else {
        return;
    };
    let size = super::sane_size(r.size);
    let Some(upem) = fonts::info(face).map(|i| f64::from(i.units_per_em.max(1))) else {
        return;
    };
    let word: String = atoms.iter().map(|a| a.ch).collect();
    let glyphs = fonts::shape(face, &word, rtl, FontFace::of_run(r).lang);
    if glyphs.is_empty() {
        return;
    }
    let mut cluster_advance: HashMap<u32, i64> = HashMap::new();
    for g in glyphs.iter() {
        *cluster_advance.entry(g.cluster).or_default() += i64::from(g.advance);
    }
    let scale = size / upem;
    for (atom, (byte, _)) in atoms.iter_mut().zip(word.char_indices()) {
        match cluster_advance.get(&(byte as u32)) {
            Some(&advance) => {
                atom.width = advance as f64 * scale;
                atom.joined = false;
            }
            None => {
                atom.width = 0.0;
                atom.joined = byte > 0;
            }
        }
    }
}

/// The visual order of `levels` (rule L2): from the highest level down to the lowest odd
/// one, every maximal sequence at that level or above is reversed.
pub(super) fn visual_order(levels: &[u8]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..levels.len()).collect();
    let Some(&highest) = levels.iter().max() else {
        return order;
    };
    let lowest_odd = levels
        .iter()
        .copied()
        .filter(|l| l % 2 == 1)
        .min()
        .unwrap_or(highest + 1);
    let mut level = highest;
    while level >= lowest_odd && level > 0 {
        let mut i = 0;
        while i < order.len() {
            if levels[order[i]] >= level {
                let start = i;
                while i < order.len() && levels[order[i]] >= level {
                    i += 1;
                }
                order[start..i].reverse();
            } else {
                i += 1;
            }
        }
        level -= 1;
    }
    order
}

#[cfg(test)]
mod tests {
    use super::visual_order;

    #[test]
    fn l2_reverses_runs_from_the_highest_level_down() {
        // LTR text with an RTL run: only the run turns around.
        assert_eq!(visual_order(&[0, 1, 1, 0]), [0, 2, 1, 3]);
        // An RTL paragraph with a number inside (level 2): the number keeps its order.
        assert_eq!(visual_order(&[1, 2, 2, 1]), [3, 1, 2, 0]);
        assert_eq!(visual_order(&[0, 0]), [0, 1]);
        assert!(visual_order(&[]).is_empty());
    }
}
