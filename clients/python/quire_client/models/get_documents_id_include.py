from enum import StrEnum

class GetDocumentsIdInclude(StrEnum):
    MODEL = "model"

    def __str__(self) -> str:
        return str(self.value)
