"""`text`: a Quire exporter written in Python, built with componentize-py.

It writes the text of a document model as `text/plain`, page by page. The logic lives in
textdoc.py; this module only binds it to the WIT world `converter`
(wit/converter.wit, package quire:converter@1.2.0).

componentize-py maps the world's exports to classes of this module named after the
interfaces: `Meta`, `Importer`, `Exporter`. WIT `%import` becomes the method `import_`
(`import` is a Python keyword); `%export` stays `export`. A `result<T, convert-error>` is
answered by returning T or raising `Err(ConvertError_...)`.
"""

from componentize_py_types import Err
from wit_world import exports
from wit_world.imports import types as t

import textdoc

TEXT = t.Format(media_type="text/plain", extension="txt")

ERRORS = {
    "invalid-request": t.ConvertError_InvalidRequest,
    "too-large": t.ConvertError_TooLarge,
    "damaged": t.ConvertError_Damaged,
    "unsupported": t.ConvertError_Unsupported,
}


class Meta(exports.Meta):
    def describe(self) -> t.PluginInfo:
        return t.PluginInfo(
            name="text",
            version="1.0.0",
            imports=[],
            exports=[TEXT],
            options=[
                t.OptionSpec(
                    name="page-break",
                    description="What separates pages: `formfeed` (default, U+000C on its own line) or `blank` (an empty line)",
                )
            ],
        )


class Importer(exports.Importer):
    def import_(self, request: t.ImportRequest) -> t.ImportResult:
        raise Err(t.ConvertError_Unsupported("the text exporter does not read files; the plain-text importer does"))


class Exporter(exports.Exporter):
    def export(self, request: t.ExportRequest) -> t.ExportResult:
        if request.media_type != TEXT.media_type:
            raise Err(t.ConvertError_Unsupported(f"this exporter writes text/plain, not {request.media_type}"))
        separator = "formfeed"
        for name, value in request.options:
            if name == "page-break":
                separator = value.strip().lower()
        try:
            text, warnings = textdoc.document_text(request.document.model, request.page, separator)
        except textdoc.ModelProblem as e:
            raise Err(ERRORS[e.kind](e.message)) from None
        return t.ExportResult(
            bytes=text.encode("utf-8"),
            media_type=TEXT.media_type,
            warnings=warnings,
            headers=[],
        )
