from enum import StrEnum

class PutPdfsIdFilesBodyMode(StrEnum):
    EDITABLE = "editable"
    IMAGE = "image"

    def __str__(self) -> str:
        return str(self.value)
