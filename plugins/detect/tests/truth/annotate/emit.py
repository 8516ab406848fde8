# Writes truth JSON (page points) from pixel annotations: pt = px * page_size / image_size.
import json, os
def emit(name, source, img_w, img_h, page_w, page_h, fields, notes=""):
    sx, sy = page_w / img_w, page_h / img_h
    out = {"source": source, "page": 1, "page_size": [page_w, page_h],
           "annotated_on": f"{img_w}x{img_h} pixels (upright), converted to page points",
           "notes": notes, "fields": []}
    for f in fields:
        t, (x0, y0, x1, y1), what = f
        out["fields"].append({"type": t, "x": round(x0*sx, 1), "y": round(y0*sy, 1),
                              "w": round((x1-x0)*sx, 1), "h": round((y1-y0)*sy, 1), "what": what})
    here = os.path.dirname(os.path.abspath(__file__))
    json.dump(out, open(os.path.join(here, "..", f"{name}.json"), "w"), indent=1)
    print(name, len(fields))
