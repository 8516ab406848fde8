from enum import StrEnum

class GetDocumentsKind(StrEnum):
    DIAGRAM = "diagram"
    PDF = "pdf"

    def __str__(self) -> str:
        return str(self.value)
