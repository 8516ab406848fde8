//! A TrueType subset slimmed for a PDF: its hinting and glyph names taken out.
//!
//! Hinting (the `fpgm`, `prep` and `cvt ` programs and each glyph's instructions) grids
//! outlines to a screen's pixels at small sizes. PDF readers scale and rasterise outlines
//! themselves (pdf.js, PDFium and poppler ignore TrueType bytecode), yet in a subset of a
//! few dozen glyphs the hinting is often more than half the bytes: Liberation's programs
//! alone are 3.6 KB. Glyph names (`post` version 2) serve no reader of a CID font, whose
//! glyphs are reached by CID. So both go, and a page of Hebrew or Vietnamese embeds no more
//! than Chromium's print of it.
//!
//! Kept: `head`, `hhea`, `maxp`, `hmtx`, `loca` and `glyf` (what PDF requires of an embedded
//! TrueType font), `name` (some readers name the font from it), `OS/2` and `cmap` when
//! present. A "tricky" font, whose glyphs are assembled by its bytecode (old CJK fonts such as
//! MingLiU, which FreeType recognises by name), is left whole.

/// Tables a slimmed font keeps, in the sorted order an sfnt directory lists them.
const KEPT: [&[u8; 4]; 9] = [
    b"OS/2", b"cmap", b"glyf", b"head", b"hhea", b"hmtx", b"loca", b"maxp", b"name",
];

/// Family names of fonts whose outlines need their bytecode (FreeType's tricky list).
const TRICKY: [&str; 9] = [
    "cpop", "DFGirl", "DFGothic", "DFGyoSho", "DFHei", "DFHS", "DFKai", "DLC", "MingLi",
];

/// `font` without hinting and glyph names, or `font` as it is when it is not a TrueType
/// font this understands or is tricky: slimming is an optimisation, never a reason to fail.
pub(crate) fn slim(font: Vec<u8>, family: &str) -> Vec<u8> {
    if TRICKY
        .iter()
        .any(|t| family.trim_start_matches('P').starts_with(t))
    {
        return font;
    }
    rebuild(&font).unwrap_or(font)
}

struct Table<'a> {
    tag: [u8; 4],
    data: &'a [u8],
}

fn rebuild(font: &[u8]) -> Option<Vec<u8>> {
    if font.get(0..4)? != [0, 1, 0, 0] {
        return None;
    }
    let count = usize::from(u16_at(font, 4)?);
    let mut tables = Vec::with_capacity(count);
    for i in 0..count {
        let entry = font.get(12 + 16 * i..28 + 16 * i)?;
        let tag: [u8; 4] = entry[0..4].try_into().ok()?;
        let offset = u32_at(entry, 8)? as usize;
        let length = u32_at(entry, 12)? as usize;
        let data = font.get(offset..offset.checked_add(length)?)?;
        tables.push(Table { tag, data });
    }
    let find = |tag: &[u8; 4]| tables.iter().find(|t| &t.tag == tag).map(|t| t.data);
    let head = find(b"head")?;
    let long_loca = match u16_at(head, 50)? {
        0 => false,
        1 => true,
        _ => return None,
    };
    let num_glyphs = usize::from(u16_at(find(b"maxp")?, 4)?);
    let (glyf, loca, short) = strip_glyphs(find(b"glyf")?, find(b"loca")?, long_loca, num_glyphs)?;

    let mut head = head.to_vec();
    head.get_mut(50..52)?
        .copy_from_slice(&(u16::from(!short)).to_be_bytes());
    // checkSumAdjustment is summed as zero, then set once the whole font is known.
    head.get_mut(8..12)?.copy_from_slice(&[0; 4]);

    let mut out_tables: Vec<([u8; 4], Vec<u8>)> = Vec::new();
    for tag in KEPT {
        let data = match tag {
            b"glyf" => glyf.clone(),
            b"loca" => loca.clone(),
            b"head" => head.clone(),
            _ => match find(tag) {
                Some(d) => d.to_vec(),
                None => continue,
            },
        };
        out_tables.push((*tag, data));
    }
    if let Some(post) = find(b"post").and_then(post_without_names) {
        out_tables.push((*b"post", post));
    }
    out_tables.sort_by_key(|t| t.0);
    Some(write_sfnt(&out_tables))
}

/// `glyf` without instructions and its new `loca` (short when it fits), or none when a
/// glyph does not parse.
fn strip_glyphs(
    glyf: &[u8],
    loca: &[u8],
    long_loca: bool,
    num_glyphs: usize,
) -> Option<(Vec<u8>, Vec<u8>, bool)> {
    let offset = |i: usize| -> Option<usize> {
        if long_loca {
            u32_at(loca, 4 * i).map(|v| v as usize)
        } else {
            u16_at(loca, 2 * i).map(|v| usize::from(v) * 2)
        }
    };
    let mut out = Vec::with_capacity(glyf.len());
    let mut offsets = Vec::with_capacity(num_glyphs + 1);
    for i in 0..num_glyphs {
        offsets.push(out.len());
        let (start, end) = (offset(i)?, offset(i + 1)?);
        if end > start {
            strip_glyph(glyf.get(start..end)?, &mut out)?;
            // Even lengths keep the short loca possible.
            if out.len() % 2 == 1 {
                out.push(0);
            }
        }
    }
    offsets.push(out.len());
    let short = out.len() / 2 <= usize::from(u16::MAX);
    let loca = if short {
        offsets
            .iter()
            .flat_map(|&o| ((o / 2) as u16).to_be_bytes())
            .collect()
    } else {
        offsets
            .iter()
            .flat_map(|&o| (o as u32).to_be_bytes())
            .collect()
    };
    Some((out, loca, short))
}

fn strip_glyph(glyph: &[u8], out: &mut Vec<u8>) -> Option<()> {
    let contours = i16::from_be_bytes(glyph.get(0..2)?.try_into().ok()?);
    if contours >= 0 {
        let end_points = 10 + 2 * usize::try_from(contours).ok()?;
        let points = match contours {
            0 => 0,
            _ => usize::from(u16_at(glyph, end_points - 2)?) + 1,
        };
        let instructions = usize::from(u16_at(glyph, end_points)?);
        let rest = glyph.get(end_points + 2 + instructions..)?;
        // Without the padding that followed the points: it would pile up with ours.
        let rest = rest.get(..points_len(rest, points)?)?;
        out.extend_from_slice(glyph.get(..end_points)?);
        out.extend_from_slice(&[0, 0]);
        out.extend_from_slice(rest);
        return Some(());
    }
    const ARGS_ARE_WORDS: u16 = 0x0001;
    const SCALE: u16 = 0x0008;
    const MORE_COMPONENTS: u16 = 0x0020;
    const X_AND_Y_SCALE: u16 = 0x0040;
    const TWO_BY_TWO: u16 = 0x0080;
    const HAVE_INSTRUCTIONS: u16 = 0x0100;
    out.extend_from_slice(glyph.get(..10)?);
    let mut at = 10;
    loop {
        let flags = u16_at(glyph, at)?;
        let mut len = 4 + if flags & ARGS_ARE_WORDS != 0 { 4 } else { 2 };
        if flags & SCALE != 0 {
            len += 2;
        } else if flags & X_AND_Y_SCALE != 0 {
            len += 4;
        } else if flags & TWO_BY_TWO != 0 {
            len += 8;
        }
        let component = glyph.get(at..at + len)?;
        out.extend_from_slice(&(flags & !HAVE_INSTRUCTIONS).to_be_bytes());
        out.extend_from_slice(&component[2..]);
        at += len;
        if flags & MORE_COMPONENTS == 0 {
            break;
        }
    }
    Some(())
}

/// How many bytes the flags and coordinates of `points` points take at the start of `data`.
fn points_len(data: &[u8], points: usize) -> Option<usize> {
    const X_SHORT: u8 = 0x02;
    const Y_SHORT: u8 = 0x04;
    const REPEAT: u8 = 0x08;
    const X_SAME_OR_POSITIVE: u8 = 0x10;
    const Y_SAME_OR_POSITIVE: u8 = 0x20;
    let coordinate = |flag: u8, short: u8, same: u8| match (flag & short != 0, flag & same != 0) {
        (true, _) => 1,
        (false, true) => 0,
        (false, false) => 2,
    };
    let (mut at, mut seen, mut coordinates) = (0, 0, 0);
    while seen < points {
        let flag = *data.get(at)?;
        at += 1;
        let times = match flag & REPEAT {
            0 => 1,
            _ => {
                at += 1;
                usize::from(*data.get(at - 1)?) + 1
            }
        };
        let each = coordinate(flag, X_SHORT, X_SAME_OR_POSITIVE)
            + coordinate(flag, Y_SHORT, Y_SAME_OR_POSITIVE);
        coordinates += each * times;
        seen += times;
    }
    let len = at + coordinates;
    (seen == points && len <= data.len()).then_some(len)
}

/// `post` as version 3 (no glyph names), keeping its metrics.
fn post_without_names(post: &[u8]) -> Option<Vec<u8>> {
    let mut v3 = post.get(..32)?.to_vec();
    v3[0..4].copy_from_slice(&[0, 3, 0, 0]);
    Some(v3)
}

fn write_sfnt(tables: &[([u8; 4], Vec<u8>)]) -> Vec<u8> {
    let count = tables.len() as u16;
    let max_power = 1u16 << (15 - count.max(1).leading_zeros());
    let search_range = max_power * 16;
    let entry_selector = max_power.trailing_zeros() as u16;
    let range_shift = count * 16 - search_range;
    let mut out = Vec::new();
    out.extend_from_slice(&[0, 1, 0, 0]);
    for v in [count, search_range, entry_selector, range_shift] {
        out.extend_from_slice(&v.to_be_bytes());
    }
    let mut offset = 12 + 16 * tables.len();
    for (tag, data) in tables {
        out.extend_from_slice(tag);
        out.extend_from_slice(&checksum(data).to_be_bytes());
        out.extend_from_slice(&(offset as u32).to_be_bytes());
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        offset += data.len().div_ceil(4) * 4;
    }
    let mut head_at = None;
    for (tag, data) in tables {
        if tag == b"head" {
            head_at = Some(out.len());
        }
        out.extend_from_slice(data);
        out.resize(out.len().div_ceil(4) * 4, 0);
    }
    if let Some(at) = head_at {
        let adjustment = 0xB1B0_AFBAu32.wrapping_sub(checksum(&out));
        out[at + 8..at + 12].copy_from_slice(&adjustment.to_be_bytes());
    }
    out
}

fn checksum(data: &[u8]) -> u32 {
    data.chunks(4).fold(0u32, |sum, chunk| {
        let mut word = [0u8; 4];
        word[..chunk.len()].copy_from_slice(chunk);
        sum.wrapping_add(u32::from_be_bytes(word))
    })
}

fn u16_at(data: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes(data.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(data: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(data.get(at..at + 4)?.try_into().ok()?))
}

#[cfg(test)]
mod tests {
    use read_fonts::types::Tag;
    use read_fonts::{FontRef, TableProvider};
    use skrifa::MetadataProvider;

    use super::slim;
    use crate::{outline, subset};

    const LIBERATION: &str = "/usr/share/fonts/truetype/liberation2/LiberationSerif-Regular.ttf";

    /// A subset of Liberation Serif holding `text`'s glyphs, hinted as the subsetter makes it.
    fn hinted_subset(text: &str) -> (Vec<u8>, usize) {
        let data = std::fs::read(LIBERATION).expect("fonts-liberation2 is installed");
        let font = FontRef::new(&data).unwrap();
        let charmap = font.charmap();
        let mut glyphs: Vec<u16> = Vec::new();
        for c in text.chars() {
            let gid = charmap.map(c).unwrap().to_u32() as u16;
            if !glyphs.contains(&gid) {
                glyphs.push(gid);
            }
        }
        let num_glyphs = font.maxp().unwrap().num_glyphs();
        let out = subset::subset(&data, 0, false, num_glyphs, &glyphs).unwrap();
        (out, glyphs.len())
    }

    #[test]
    fn a_slim_subset_draws_every_glyph_as_the_hinted_one_without_its_hinting() {
        // Plain letters, letters with stacked accents (composite glyphs), a space.
        let (hinted, listed) = hinted_subset("Quốc hội ạ Ǻ ŉ, ẫ!");
        let family = "Liberation Serif";
        let slimmed = slim(hinted.clone(), family);
        let before = FontRef::new(&hinted).unwrap();
        let after = FontRef::new(&slimmed).unwrap();
        assert!(before.table_data(Tag::new(b"fpgm")).is_some());
        for tag in [b"fpgm", b"prep", b"cvt "] {
            assert!(after.table_data(Tag::new(tag)).is_none());
        }
        let glyph_count = before.maxp().unwrap().num_glyphs();
        assert!(
            usize::from(glyph_count) > listed + 1,
            "some glyphs are composite"
        );
        assert_eq!(after.maxp().unwrap().num_glyphs(), glyph_count);
        let all: Vec<u16> = (0..glyph_count).collect();
        let drawn = outline::outlines(&slimmed, 0, &all);
        assert_eq!(drawn, outline::outlines(&hinted, 0, &all));
        assert!(drawn.iter().filter(|d| !d.is_empty()).count() > listed / 2);
        let before_hmtx = before.hmtx().unwrap();
        let after_hmtx = after.hmtx().unwrap();
        assert_eq!(before_hmtx.h_metrics().len(), after_hmtx.h_metrics().len());
        assert!(
            slimmed.len() * 2 < hinted.len(),
            "{} -> {}",
            hinted.len(),
            slimmed.len()
        );
    }

    #[test]
    fn a_tricky_font_or_one_that_is_not_truetype_is_left_whole() {
        let (hinted, _) = hinted_subset("abc");
        assert_eq!(slim(hinted.clone(), "MingLiU"), hinted);
        assert_eq!(slim(hinted.clone(), "PMingLiU"), hinted);
        let cut = hinted[..hinted.len() / 2].to_vec();
        assert_eq!(slim(cut.clone(), "Liberation Serif"), cut);
        assert_eq!(slim(b"OTTO....".to_vec(), "Any"), b"OTTO....".to_vec());
    }
}
