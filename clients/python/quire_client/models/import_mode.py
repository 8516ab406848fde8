from enum import StrEnum

class ImportMode(StrEnum):
    EDITABLE = "editable"
    IMAGE = "image"

    def __str__(self) -> str:
        return str(self.value)
