from enum import StrEnum

class Kind(StrEnum):
    DIAGRAM = "diagram"
    PDF = "pdf"

    def __str__(self) -> str:
        return str(self.value)
