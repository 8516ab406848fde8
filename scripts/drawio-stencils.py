#!/usr/bin/env python3
"""Packs draw.io's stencil libraries into the one file the draw.io converter embeds.

    python3 scripts/drawio-stencils.py DRAWIO_STENCILS_DIR plugins/drawio/stencils/stencils.bin

DRAWIO_STENCILS_DIR is `src/main/webapp/stencils` of a jgraph/drawio checkout (CC BY 4.0,
see plugins/drawio/stencils/README.md). Each `<shape>` is stored by the name a style calls
it with, spelled as draw.io's mxStencilRegistry keys it: the library's `<shapes name>` and
the shape's `name`, lower-cased, spaces as underscores (`mxgraph.cisco.routers.router`).
Whitespace between tags is dropped and coordinates are rounded to hundredths of a stencil
unit (stencils are drawn at most a few hundred units wide); nothing else is changed.

The file (little-endian): b"QST2", u32 shape count, u32 chunk count; a record per shape,
sorted by name (u32 name offset, u16 name length, u16 chunk, u32 start and u32 length in
the inflated chunk); a record per chunk (u32 offset, u32 compressed length, u32 inflated
length); the names; the chunks, each a run of shapes compressed as raw deflate. Offsets
count from the start of the file.
"""
import os
import re
import struct
import sys
import zlib

# What one lookup inflates at most (a single larger shape is a chunk of its own).
CHUNK = 64 * 1024
NUMBER = re.compile(rb'="(-?\d+\.\d{3,})"')


def tidy(shape: bytes) -> bytes:
    shape = re.sub(rb">\s+<", b"><", shape)

    def rounded(m):
        text = b"%.2f" % float(m.group(1))
        text = text.rstrip(b"0").rstrip(b".")
        return b'="' + (text if text not in (b"", b"-0") else b"0") + b'"'

    return NUMBER.sub(rounded, shape)


def shapes(path):
    text = open(path, "rb").read()
    package = None
    for m in re.finditer(rb'<shapes\s[^>]*?name="([^"]*)"|<shape\s[^>]*?name="([^"]*)".*?</shape>', text, re.S):
        if m.group(1) is not None:
            package = m.group(1).decode().lower()
        elif package is not None:
            name = m.group(2).decode().replace(" ", "_").lower()
            yield f"{package}.{name}", tidy(m.group(0))


def main(source, out):
    found = {}
    for folder, _, files in sorted(os.walk(source)):
        for f in sorted(files):
            if f.endswith(".xml"):
                for key, xml in shapes(os.path.join(folder, f)):
                    # draw.io's registry keeps the last shape of a name.
                    found[key] = xml
    keys = sorted(found, key=lambda k: k.encode())
    names = b"".join(k.encode() for k in keys)
    # Neighbours in name order share a library, and so most of their words: compressed
    # together they take two thirds of the room they take one by one.
    chunks, records, raw = [], [], b""
    for k in keys:
        if len(raw) + len(found[k]) > CHUNK and raw:
            chunks.append(raw)
            raw = b""
        records.append((len(chunks), len(raw), len(found[k])))
        raw += found[k]
    chunks.append(raw)
    packed = []
    for raw in chunks:
        c = zlib.compressobj(9, zlib.DEFLATED, -15)
        packed.append(c.compress(raw) + c.flush())
    record = struct.Struct("<IHHII")
    chunk = struct.Struct("<III")
    names_at = 12 + record.size * len(keys) + chunk.size * len(chunks)
    out_bytes = bytearray(b"QST2" + struct.pack("<II", len(keys), len(chunks)))
    name_off = names_at
    for k, (c, start, length) in zip(keys, records):
        out_bytes += record.pack(name_off, len(k.encode()), c, start, length)
        name_off += len(k.encode())
    data_off = names_at + len(names)
    for raw, blob in zip(chunks, packed):
        out_bytes += chunk.pack(data_off, len(blob), len(raw))
        data_off += len(blob)
    out_bytes += names + b"".join(packed)
    with open(out, "wb") as f:
        f.write(out_bytes)
    print(f"{len(keys)} stencils in {len(chunks)} chunks, {len(out_bytes)} bytes", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
