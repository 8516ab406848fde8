#!/usr/bin/env python3
"""Generates plugins/sdk/src/metrics_data.rs from the Adobe Core 14 AFM files.

Metrics are facts, so the SDK carries them as a compact table instead of depending on an AFM
crate at run time. Usage:

    python3 plugins/sdk/tools/gen_metrics.py [AFM_DIR] > plugins/sdk/src/metrics_data.rs

AFM_DIR defaults to the `src/afms` folder of the `pdf-core-14-font-afms` 0.1 crate in the cargo
registry (fetch it with a throwaway crate that depends on it and `cargo fetch`).

What is emitted:
- for each of the 12 text fonts, the advance widths of WinAnsiEncoding bytes 32..=255 (in
  1/1000 em) plus Ascender/Descender;
- for Symbol and ZapfDingbats, widths by their built-in codes 32..=255 (0 = no glyph), the
  ascent/descent from FontBBox (those two AFMs have no Ascender/Descender lines), and a table
  from Unicode to code, sorted for binary search.

The glyph-name tables below come from the PDF specification (Appendix D, WinAnsiEncoding) and
the Adobe Glyph List (glyphlist.txt, zapfdingbats.txt; Copyright 2002-2019 Adobe, BSD licence).
"""

import glob
import os
import re
import sys

# Glyph names of WinAnsiEncoding bytes 32..=255. `None` is a byte WinAnsi leaves undefined: PDF
# viewers draw a bullet for those, so they measure as one.
WINANSI_NAMES = [
    'space', 'exclam', 'quotedbl', 'numbersign', 'dollar', 'percent', 'ampersand', 'quotesingle',
    'parenleft', 'parenright', 'asterisk', 'plus', 'comma', 'hyphen', 'period', 'slash', 'zero',
    'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'colon', 'semicolon',
    'less', 'equal', 'greater', 'question', 'at', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I',
    'J', 'K', 'L', 'M', 'N', 'O', 'P', 'Q', 'R', 'S', 'T', 'U', 'V', 'W', 'X', 'Y', 'Z',
    'bracketleft', 'backslash', 'bracketright', 'asciicircum', 'underscore', 'grave', 'a', 'b',
    'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p', 'q', 'r', 's', 't', 'u',
    'v', 'w', 'x', 'y', 'z', 'braceleft', 'bar', 'braceright', 'asciitilde', None, 'Euro', None,
    'quotesinglbase', 'florin', 'quotedblbase', 'ellipsis', 'dagger', 'daggerdbl', 'circumflex',
    'perthousand', 'Scaron', 'guilsinglleft', 'OE', None, 'Zcaron', None, None, 'quoteleft',
    'quoteright', 'quotedblleft', 'quotedblright', 'bullet', 'endash', 'emdash', 'tilde',
    'trademark', 'scaron', 'guilsinglright', 'oe', None, 'zcaron', 'Ydieresis', 'space',
    'exclamdown', 'cent', 'sterling', 'currency', 'yen', 'brokenbar', 'section', 'dieresis',
    'copyright', 'ordfeminine', 'guillemotleft', 'logicalnot', 'hyphen', 'registered', 'macron',
    'degree', 'plusminus', 'twosuperior', 'threesuperior', 'acute', 'mu', 'paragraph',
    'periodcentered', 'cedilla', 'onesuperior', 'ordmasculine', 'guillemotright', 'onequarter',
    'onehalf', 'threequarters', 'questiondown', 'Agrave', 'Aacute', 'Acircumflex', 'Atilde',
    'Adieresis', 'Aring', 'AE', 'Ccedilla', 'Egrave', 'Eacute', 'Ecircumflex', 'Edieresis',
    'Igrave', 'Iacute', 'Icircumflex', 'Idieresis', 'Eth', 'Ntilde', 'Ograve', 'Oacute',
    'Ocircumflex', 'Otilde', 'Odieresis', 'multiply', 'Oslash', 'Ugrave', 'Uacute',
    'Ucircumflex', 'Udieresis', 'Yacute', 'Thorn', 'germandbls', 'agrave', 'aacute',
    'acircumflex', 'atilde', 'adieresis', 'aring', 'ae', 'ccedilla', 'egrave', 'eacute',
    'ecircumflex', 'edieresis', 'igrave', 'iacute', 'icircumflex', 'idieresis', 'eth', 'ntilde',
    'ograve', 'oacute', 'ocircumflex', 'otilde', 'odieresis', 'divide', 'oslash', 'ugrave',
    'uacute', 'ucircumflex', 'udieresis', 'yacute', 'thorn', 'ydieresis',
]
assert len(WINANSI_NAMES) == 224

# Unicode of the Symbol font's glyph names (Adobe Glyph List; names the AGL maps to the Private
# Use Area keep that mapping so a round trip through Unicode still finds them).
SYMBOL_UNICODE = {
    'space': [0x20], 'exclam': [0x21], 'universal': [0x2200], 'numbersign': [0x23],
    'existential': [0x2203], 'percent': [0x25], 'ampersand': [0x26], 'suchthat': [0x220B],
    'parenleft': [0x28], 'parenright': [0x29], 'asteriskmath': [0x2217, 0x2A], 'plus': [0x2B],
    'comma': [0x2C], 'minus': [0x2212, 0x2D], 'period': [0x2E], 'slash': [0x2F],
    'zero': [0x30], 'one': [0x31], 'two': [0x32], 'three': [0x33], 'four': [0x34],
    'five': [0x35], 'six': [0x36], 'seven': [0x37], 'eight': [0x38], 'nine': [0x39],
    'colon': [0x3A], 'semicolon': [0x3B], 'less': [0x3C], 'equal': [0x3D], 'greater': [0x3E],
    'question': [0x3F], 'congruent': [0x2245], 'Alpha': [0x391], 'Beta': [0x392],
    'Chi': [0x3A7], 'Delta': [0x2206, 0x394], 'Epsilon': [0x395], 'Phi': [0x3A6],
    'Gamma': [0x393], 'Eta': [0x397], 'Iota': [0x399], 'theta1': [0x3D1], 'Kappa': [0x39A],
    'Lambda': [0x39B], 'Mu': [0x39C], 'Nu': [0x39D], 'Omicron': [0x39F], 'Pi': [0x3A0],
    'Theta': [0x398], 'Rho': [0x3A1], 'Sigma': [0x3A3], 'Tau': [0x3A4], 'Upsilon': [0x3A5],
    'sigma1': [0x3C2], 'Omega': [0x2126, 0x3A9], 'Xi': [0x39E], 'Psi': [0x3A8],
    'Zeta': [0x396], 'bracketleft': [0x5B], 'therefore': [0x2234], 'bracketright': [0x5D],
    'perpendicular': [0x22A5], 'underscore': [0x5F], 'radicalex': [0xF8E5], 'alpha': [0x3B1],
    'beta': [0x3B2], 'chi': [0x3C7], 'delta': [0x3B4], 'epsilon': [0x3B5], 'phi': [0x3C6],
    'gamma': [0x3B3], 'eta': [0x3B7], 'iota': [0x3B9], 'phi1': [0x3D5], 'kappa': [0x3BA],
    'lambda': [0x3BB], 'mu': [0x3BC, 0xB5], 'nu': [0x3BD], 'omicron': [0x3BF], 'pi': [0x3C0],
    'theta': [0x3B8], 'rho': [0x3C1], 'sigma': [0x3C3], 'tau': [0x3C4], 'upsilon': [0x3C5],
    'omega1': [0x3D6], 'omega': [0x3C9], 'xi': [0x3BE], 'psi': [0x3C8], 'zeta': [0x3B6],
    'braceleft': [0x7B], 'bar': [0x7C], 'braceright': [0x7D], 'similar': [0x223C],
    'Euro': [0x20AC], 'Upsilon1': [0x3D2], 'minute': [0x2032], 'lessequal': [0x2264],
    'fraction': [0x2044], 'infinity': [0x221E], 'florin': [0x192], 'club': [0x2663],
    'diamond': [0x2666], 'heart': [0x2665], 'spade': [0x2660], 'arrowboth': [0x2194],
    'arrowleft': [0x2190], 'arrowup': [0x2191], 'arrowright': [0x2192], 'arrowdown': [0x2193],
    'degree': [0xB0], 'plusminus': [0xB1], 'second': [0x2033], 'greaterequal': [0x2265],
    'multiply': [0xD7], 'proportional': [0x221D], 'partialdiff': [0x2202], 'bullet': [0x2022],
    'divide': [0xF7], 'notequal': [0x2260], 'equivalence': [0x2261], 'approxequal': [0x2248],
    'ellipsis': [0x2026], 'arrowvertex': [0xF8E6], 'arrowhorizex': [0xF8E7],
    'carriagereturn': [0x21B5], 'aleph': [0x2135], 'Ifraktur': [0x2111],
    'Rfraktur': [0x211C], 'weierstrass': [0x2118], 'circlemultiply': [0x2297],
    'circleplus': [0x2295], 'emptyset': [0x2205], 'intersection': [0x2229], 'union': [0x222A],
    'propersuperset': [0x2283], 'reflexsuperset': [0x2287], 'notsubset': [0x2284],
    'propersubset': [0x2282], 'reflexsubset': [0x2286], 'element': [0x2208],
    'notelement': [0x2209], 'angle': [0x2220], 'gradient': [0x2207],
    'registerserif': [0xF6DA, 0xAE], 'copyrightserif': [0xF6D9, 0xA9],
    'trademarkserif': [0xF6DB, 0x2122], 'product': [0x220F], 'radical': [0x221A],
    'dotmath': [0x22C5], 'logicalnot': [0xAC], 'logicaland': [0x2227], 'logicalor': [0x2228],
    'arrowdblboth': [0x21D4], 'arrowdblleft': [0x21D0], 'arrowdblup': [0x21D1],
    'arrowdblright': [0x21D2], 'arrowdbldown': [0x21D3], 'lozenge': [0x25CA],
    'angleleft': [0x2329, 0x27E8], 'registersans': [0xF8E8], 'copyrightsans': [0xF8E9],
    'trademarksans': [0xF8EA], 'summation': [0x2211], 'parenlefttp': [0xF8EB],
    'parenleftex': [0xF8EC], 'parenleftbt': [0xF8ED], 'bracketlefttp': [0xF8EE],
    'bracketleftex': [0xF8EF], 'bracketleftbt': [0xF8F0], 'bracelefttp': [0xF8F1],
    'braceleftmid': [0xF8F2], 'braceleftbt': [0xF8F3], 'braceex': [0xF8F4],
    'angleright': [0x232A, 0x27E9], 'integral': [0x222B], 'integraltp': [0x2320],
    'integralex': [0xF8F5], 'integralbt': [0x2321], 'parenrighttp': [0xF8F6],
    'parenrightex': [0xF8F7], 'parenrightbt': [0xF8F8], 'bracketrighttp': [0xF8F9],
    'bracketrightex': [0xF8FA], 'bracketrightbt': [0xF8FB], 'bracerighttp': [0xF8FC],
    'bracerightmid': [0xF8FD], 'bracerightbt': [0xF8FE],
}

# ZapfDingbats codes whose glyphs Unicode unified with existing characters instead of giving
# them a place in the Dingbats block (zapfdingbats.txt). Every other code c maps to
# U+2701 + (c - 0x21) for 0x21..0x7E, U+2768 + (c - 0x80) for 0x80..0x8D and
# U+2761 + (c - 0xA1) for 0xA1..0xFE.
ZAPF_UNIFIED = {
    0x25: 0x260E, 0x2A: 0x261B, 0x2B: 0x261E, 0x48: 0x2605, 0x6C: 0x25CF, 0x6E: 0x25A0,
    0x73: 0x25B2, 0x74: 0x25BC, 0x75: 0x25C6, 0x77: 0x25D7, 0xA8: 0x2663, 0xA9: 0x2666,
    0xAA: 0x2665, 0xAB: 0x2660, 0xD5: 0x2192, 0xD6: 0x2194, 0xD7: 0x2195,
}
ZAPF_UNIFIED.update({c: 0x2460 + c - 0xAC for c in range(0xAC, 0xB6)})  # circled 1..10


def zapf_unicode(code):
    if code == 0x20:
        return 0x20
    if code in ZAPF_UNIFIED:
        return ZAPF_UNIFIED[code]
    if 0x21 <= code <= 0x7E:
        return 0x2701 + code - 0x21
    if 0x80 <= code <= 0x8D:
        return 0x2768 + code - 0x80
    if 0xA1 <= code <= 0xFE:
        return 0x2761 + code - 0xA1
    return None


TEXT_FONTS = [
    # (Rust constant, AFM file)
    ('HELVETICA', 'Helvetica'),
    ('HELVETICA_BOLD', 'Helvetica-Bold'),
    ('HELVETICA_OBLIQUE', 'Helvetica-Oblique'),
    ('HELVETICA_BOLD_OBLIQUE', 'Helvetica-BoldOblique'),
    ('TIMES_ROMAN', 'Times-Roman'),
    ('TIMES_BOLD', 'Times-Bold'),
    ('TIMES_ITALIC', 'Times-Italic'),
    ('TIMES_BOLD_ITALIC', 'Times-BoldItalic'),
    ('COURIER', 'Courier'),
    ('COURIER_BOLD', 'Courier-Bold'),
    ('COURIER_OBLIQUE', 'Courier-Oblique'),
    ('COURIER_BOLD_OBLIQUE', 'Courier-BoldOblique'),
]

CHAR_LINE = re.compile(r'^C\s+(-?\d+)\s*;\s*WX\s+(\d+)\s*;\s*N\s+(\S+)\s*;')


def read_afm(path):
    """Returns ({glyph name: (code, width)}, ascender, descender, bbox)."""
    glyphs, ascender, descender, bbox = {}, None, None, None
    with open(path, encoding='latin-1') as f:
        for line in f:
            m = CHAR_LINE.match(line)
            if m:
                glyphs[m.group(3)] = (int(m.group(1)), int(m.group(2)))
            elif line.startswith('Ascender '):
                ascender = int(line.split()[1])
            elif line.startswith('Descender '):
                descender = int(line.split()[1])
            elif line.startswith('FontBBox '):
                bbox = [int(v) for v in line.split()[1:5]]
    if not glyphs or bbox is None:
        sys.exit(f'{path}: no character metrics or no FontBBox')
    # Symbol and ZapfDingbats carry no Ascender/Descender; their bounding box stands in.
    return glyphs, ascender if ascender is not None else bbox[3], \
        descender if descender is not None else bbox[1], bbox


def numbers(values, indent='    ', width=100):
    lines, cur = [], indent
    for v in values:
        item = f'{v},'
        if len(cur) + len(item) + 1 > width:
            lines.append(cur.rstrip())
            cur = indent
        cur += item + ' '
    lines.append(cur.rstrip())
    return '\n'.join(lines)


def main():
    if len(sys.argv) > 1:
        afm_dir = sys.argv[1]
    else:
        home = os.path.expanduser('~/.cargo/registry/src')
        found = sorted(glob.glob(f'{home}/*/pdf-core-14-font-afms-0.1.*/src/afms'))
        if not found:
            sys.exit('pdf-core-14-font-afms 0.1 is not in the cargo registry; pass AFM_DIR')
        afm_dir = found[-1]

    out = []
    out.append('// Generated by plugins/sdk/tools/gen_metrics.py from the Adobe Core 14 AFM files')
    out.append('// (pdf-core-14-font-afms 0.1). Do not edit by hand: rerun the script.')
    out.append('//')
    out.append('// The AFM files "may be used, copied, and distributed for any purpose and without')
    out.append('// charge, with or without modification, provided that all copyright notices are')
    out.append('// retained". Copyright (c) 1985-1997 Adobe Systems Incorporated. All Rights Reserved.')
    out.append('// Modification: only advance widths, Ascender and Descender are kept, re-indexed by')
    out.append('// WinAnsiEncoding (text fonts) or the built-in encoding (Symbol, ZapfDingbats).')
    out.append('')
    out.append('/// Metrics of one font, in 1/1000 em. `widths[b - 32]` is the advance of byte `b`.')
    out.append('pub(crate) struct FontMetrics {')
    out.append('    pub ascent: i16,')
    out.append('    pub descent: i16,')
    out.append('    pub widths: [u16; 224],')
    out.append('}')

    for const, name in TEXT_FONTS:
        glyphs, asc, desc, _ = read_afm(os.path.join(afm_dir, name + '.afm'))
        widths = []
        for glyph in WINANSI_NAMES:
            glyph = glyph or 'bullet'
            if glyph not in glyphs:
                sys.exit(f'{name}: no glyph {glyph}')
            widths.append(glyphs[glyph][1])
        out.append('')
        out.append(f'/// {name}')
        out.append(f'pub(crate) static {const}: FontMetrics = FontMetrics {{')
        out.append(f'    ascent: {asc},')
        out.append(f'    descent: {desc},')
        out.append('    widths: [')
        out.append(numbers(widths, indent='        '))
        out.append('    ],')
        out.append('};')

    for const, name, to_unicode in [
        ('SYMBOL', 'Symbol', lambda glyph, code: SYMBOL_UNICODE.get(glyph, [])),
        ('ZAPF_DINGBATS', 'ZapfDingbats',
         lambda glyph, code: [u] if (u := zapf_unicode(code)) is not None else []),
    ]:
        glyphs, asc, desc, _ = read_afm(os.path.join(afm_dir, name + '.afm'))
        widths = [0] * 224
        cmap = {}
        for glyph, (code, width) in glyphs.items():
            if code < 32 or code > 255:
                continue  # unencoded glyphs (code -1) cannot be drawn with the built-in encoding
            widths[code - 32] = width
            uni = to_unicode(glyph, code)
            if not uni:
                sys.exit(f'{name}: no Unicode for {glyph} (code {code})')
            for u in uni:
                # The first glyph claiming a code point keeps it (AFM order is code order).
                cmap.setdefault(u, code)
        out.append('')
        out.append(f'/// {name}, by its built-in encoding (0 = no glyph at that code)')
        out.append(f'pub(crate) static {const}: FontMetrics = FontMetrics {{')
        out.append(f'    ascent: {asc},')
        out.append(f'    descent: {desc},')
        out.append('    widths: [')
        out.append(numbers(widths, indent='        '))
        out.append('    ],')
        out.append('};')
        out.append('')
        out.append(f'/// Unicode to {name} code, sorted by code point for binary search.')
        out.append(f'pub(crate) static {const}_CMAP: [(u32, u8); {len(cmap)}] = [')
        out.append(numbers([f'(0x{u:04X}, {c})' for u, c in sorted(cmap.items())],
                           indent='    '))
        out.append('];')

    sys.stdout.write('\n'.join(out) + '\n')


if __name__ == '__main__':
    main()
