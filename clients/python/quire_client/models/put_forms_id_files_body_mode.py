from enum import StrEnum

class PutFormsIdFilesBodyMode(StrEnum):
    EDITABLE = "editable"
    IMAGE = "image"

    def __str__(self) -> str:
        return str(self.value)
