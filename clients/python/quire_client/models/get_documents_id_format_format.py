from enum import StrEnum

class GetDocumentsIdFormatFormat(StrEnum):
    DRAWIO = "drawio"
    JSON = "json"
    MMD = "mmd"
    PDF = "pdf"
    PNG = "png"
    SVG = "svg"

    def __str__(self) -> str:
        return str(self.value)
