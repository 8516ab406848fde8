"""Lists a PDF's form widgets page by page with pypdf, for tests/import_forms.rs.

Output: {"pages": [{"crop": [x0, y0, x1, y1], "rotate": n}, ...],
         "widgets": [{"page", "name", "ft", "ff", "rect", "flags", "on", "tu", "v", "opt",
                      "bc", "bg"}],
         "fields": {name: {"ft", "ff", "v", "opt"}} (pypdf's get_fields(), when there is
         an /AcroForm)}
Each widget's field is found the way pypdf's own get_fields() names fields: the widget
itself when it has a /T, else its /Parent; the name joins the /T of every ancestor with
dots, and /FT, /Ff, /V, /Opt are inherited from the nearest ancestor that has them. This
also covers widgets no /AcroForm lists. Strings come out decrypted (pypdf opens files
encrypted with an empty user password by itself).
"""

import json
import sys

try:
    import pypdf
    from pypdf.generic import ArrayObject, NameObject, StreamObject
except ImportError:
    sys.stderr.write("pypdf is not installed: pip install pypdf\n")
    sys.exit(3)


def plain(obj):
    if obj is None:
        return None
    obj = obj.get_object()
    if isinstance(obj, NameObject):
        return str(obj)[1:]
    if isinstance(obj, ArrayObject):
        return [plain(o) for o in obj]
    if isinstance(obj, (int, float)):
        return obj
    return str(obj)


def field_of(annot):
    if "/T" in annot or "/Parent" not in annot:
        return annot
    return annot["/Parent"].get_object()


def qualified(field):
    names, node, seen = [], field, set()
    while node is not None and id(node) not in seen:
        seen.add(id(node))
        if "/T" in node:
            names.append(str(node["/T"]))
        parent = node.get("/Parent")
        node = parent.get_object() if parent is not None else None
    return ".".join(reversed(names))


def inherited(field, key):
    node, depth = field, 0
    while node is not None and depth < 32:
        if key in node:
            return node[key]
        parent = node.get("/Parent")
        node = parent.get_object() if parent is not None else None
        depth += 1
    return None


def on_state(annot):
    ap = annot.get("/AP")
    normal = ap.get_object().get("/N") if ap is not None else None
    if normal is not None and not isinstance(normal.get_object(), StreamObject):
        states = sorted(str(k)[1:] for k in normal.get_object().keys() if k != "/Off")
        if states:
            return states[0]
    state = annot.get("/AS")
    return str(state)[1:] if state is not None and state != "/Off" else None


def colour(annot, key):
    """The widget's /MK colour as its components (0 to 1), or None."""
    mk = annot.get("/MK")
    value = mk.get_object().get(key) if mk is not None else None
    return [float(v) for v in value.get_object()] if value is not None else None


def main(path):
    reader = pypdf.PdfReader(path)
    pages, widgets = [], []
    for number, page in enumerate(reader.pages, start=1):
        crop = [float(v) for v in page.cropbox]
        pages.append({"crop": crop, "rotate": int(page.get("/Rotate", 0) or 0)})
        annots = page.get("/Annots")
        for annot in (annots.get_object() if annots is not None else []):
            annot = annot.get_object()
            if annot.get("/Subtype") != "/Widget":
                continue
            field = field_of(annot)
            ff = inherited(field, "/Ff")
            widgets.append(
                {
                    "page": number,
                    "name": qualified(field),
                    "ft": plain(inherited(field, "/FT")),
                    "ff": int(ff) if ff is not None else 0,
                    "rect": [float(v) for v in annot["/Rect"]],
                    "flags": int(annot.get("/F", 0)),
                    "on": on_state(annot),
                    "tu": str(field["/TU"]) if "/TU" in field else None,
                    "v": plain(inherited(field, "/V")),
                    "opt": plain(inherited(field, "/Opt")),
                    "bc": colour(annot, "/BC"),
                    "bg": colour(annot, "/BG"),
                }
            )
    fields = {}
    for name, field in (reader.get_fields() or {}).items():
        fields[name] = {
            "ft": plain(field.get("/FT")),
            "ff": int(field.get("/Ff", 0)),
            "v": plain(field.get("/V")),
            "opt": plain(field.get("/Opt")),
        }
    print(json.dumps({"pages": pages, "widgets": widgets, "fields": fields}, indent=1))


if __name__ == "__main__":
    main(sys.argv[1])
