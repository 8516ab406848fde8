"""Types an answer into a PDF form field as a viewer does, with pypdf: the field's value is
set and its appearance regenerated in the field's `/DA` font from the AcroForm's `/DR`.

Usage: forms_type.py IN.pdf OUT.pdf FIELD VALUE
Prints pypdf's warnings (one per line) to stderr; exit 0 when the file was written.
"""

import logging
import sys

import pypdf

source, target, field, value = sys.argv[1:5]
logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="%(message)s")
reader = pypdf.PdfReader(source)
writer = pypdf.PdfWriter(clone_from=reader)
for page in writer.pages:
    writer.update_page_form_field_values(page, {field: value}, auto_regenerate=False)
with open(target, "wb") as f:
    writer.write(f)
