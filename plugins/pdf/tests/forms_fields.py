"""Reads a PDF's interactive form with pypdf and prints it as JSON for tests/forms.rs.

Output: {"fields": {name: {"/FT", "/Ff", "/V", "/TU", "/Opt", "kids"}},
         "pages": [[{"name", "rect", "as", "states", "da"}, ...], ...],
         "acroform": {"da", "fonts"}}
`fields` is pypdf's own `get_fields()`; `pages` lists each page's widget annotations with
the field they belong to and the names of their normal appearance states.
"""

import json
import sys

try:
    import pypdf
    from pypdf.generic import (
        ArrayObject,
        BooleanObject,
        DictionaryObject,
        IndirectObject,
        NameObject,
        NumberObject,
        FloatObject,
        StreamObject,
    )
except ImportError:
    sys.stderr.write("pypdf is not installed: pip install pypdf\n")
    sys.exit(3)


def plain(obj, depth=0):
    """A PDF object as JSON: names keep their slash, references count as one item."""
    if isinstance(obj, IndirectObject):
        if depth > 2:
            return "ref"
        obj = obj.get_object()
    if isinstance(obj, NameObject):
        return str(obj)
    if isinstance(obj, BooleanObject):
        return bool(obj)
    if isinstance(obj, (NumberObject,)):
        return int(obj)
    if isinstance(obj, FloatObject):
        return float(obj)
    if isinstance(obj, ArrayObject):
        return [plain(o, depth + 1) for o in obj]
    if isinstance(obj, (DictionaryObject, StreamObject)):
        return "dict"
    return str(obj)


def main(path):
    reader = pypdf.PdfReader(path, strict=True)
    fields = {}
    for name, field in (reader.get_fields() or {}).items():
        entry = {}
        for key in ("/FT", "/Ff", "/V", "/TU", "/Opt", "/DA"):
            if key in field:
                entry[key] = plain(field[key])
        kids = field.get("/Kids")
        entry["kids"] = len(kids) if kids is not None else 0
        fields[name] = entry

    pages = []
    for page in reader.pages:
        widgets = []
        for annot in page.get("/Annots") or []:
            annot = annot.get_object()
            if annot.get("/Subtype") != "/Widget":
                continue
            parent = annot.get("/Parent")
            owner = parent.get_object() if parent is not None else annot
            ap = annot.get("/AP", {}).get("/N")
            if ap is None:
                states = None
            elif isinstance(ap.get_object(), StreamObject):
                states = ["stream"]
            else:
                states = sorted(str(k) for k in ap.get_object().keys())
            widgets.append(
                {
                    "name": str(owner.get("/T")),
                    "rect": [float(v) for v in annot["/Rect"]],
                    "as": str(annot["/AS"]) if "/AS" in annot else None,
                    "states": states,
                    "print": int(annot.get("/F", 0)) & 4 == 4,
                    "page_ref": annot.get("/P") is not None,
                }
            )
        pages.append(widgets)

    acro = reader.trailer["/Root"].get("/AcroForm")
    form = None
    if acro is not None:
        acro = acro.get_object()
        dr = acro.get("/DR", {}).get_object() if "/DR" in acro else {}
        fonts = dr.get("/Font", {}).get_object() if "/Font" in dr else {}
        form = {
            "da": str(acro.get("/DA")),
            "fonts": sorted(str(k) for k in fonts.keys()),
            "fields": len(acro.get("/Fields", [])),
        }
    print(json.dumps({"fields": fields, "pages": pages, "acroform": form}, indent=1))


if __name__ == "__main__":
    main(sys.argv[1])
